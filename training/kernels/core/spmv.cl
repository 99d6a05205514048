/* spmv.cl: sparse matrix-vector product y = A x, A in CSR. */
#include "sp_port.h"

/* One work-item per row: row lengths diverge within a warp and the column
 * gathers of x are irregular. */
SP_KERNEL void spmv_csr_scalar(SP_GLOBAL const int *SP_RESTRICT rowptr,
                               SP_GLOBAL const int *SP_RESTRICT col,
                               SP_GLOBAL const float *SP_RESTRICT val,
                               SP_GLOBAL const float *SP_RESTRICT x,
                               SP_GLOBAL float *SP_RESTRICT y, int n)
{
  int r = SP_GID(0);
  if (r >= n)
    return;
  float s = 0.0f;
  for (int j = rowptr[r]; j < rowptr[r + 1]; ++j)
    s += val[j] * x[col[j]];
  y[r] = s;
}

/* 32 work-items per row (8 rows per work-group of 256): coalesced reads of
 * the row, then a reduction in local memory. */
SP_KERNEL void spmv_csr_vector(SP_GLOBAL const int *SP_RESTRICT rowptr,
                               SP_GLOBAL const int *SP_RESTRICT col,
                               SP_GLOBAL const float *SP_RESTRICT val,
                               SP_GLOBAL const float *SP_RESTRICT x,
                               SP_GLOBAL float *SP_RESTRICT y, int n)
{
  SP_LOCAL float part[256];
  int lid = SP_LID(0), lane = lid & 31, row = SP_GRP(0) * 8 + (lid >> 5);
  float s = 0.0f;
  if (row < n)
    for (int j = rowptr[row] + lane; j < rowptr[row + 1]; j += 32)
      s += val[j] * x[col[j]];
  part[lid] = s;
  SP_BARRIER();
  for (int off = 16; off > 0; off >>= 1) {
    if (lane < off)
      part[lid] += part[lid + off];
    SP_BARRIER();
  }
  if (lane == 0 && row < n)
    y[row] = part[lid];
}
