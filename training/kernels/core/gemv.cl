/* gemv.cl: dense matrix-vector product y = A x, one work-item per row. */
#include "sp_port.h"

/* A row-major: neighbouring work-items read addresses n apart. */
SP_KERNEL void gemv_rowmajor(SP_GLOBAL const float *SP_RESTRICT a,
                             SP_GLOBAL const float *SP_RESTRICT x,
                             SP_GLOBAL float *SP_RESTRICT y, int n)
{
  int r = SP_GID(0);
  if (r >= n)
    return;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j)
    acc += a[r * n + j] * x[j];
  y[r] = acc;
}

/* A column-major: reads coalesced across work-items. */
SP_KERNEL void gemv_colmajor(SP_GLOBAL const float *SP_RESTRICT a,
                             SP_GLOBAL const float *SP_RESTRICT x,
                             SP_GLOBAL float *SP_RESTRICT y, int n)
{
  int r = SP_GID(0);
  if (r >= n)
    return;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j)
    acc += a[j * n + r] * x[j];
  y[r] = acc;
}
