/* SPDX-License-Identifier: GPL-3.0-or-later */
/* spmv.c: host half of spmv.cl.  Random CSR matrices.  d->param is
 * 10 x (mean nonzeros per row) + layout, layout 0: scalar kernel, random
 * columns; 1: vector kernel, random columns; 2: scalar kernel, columns
 * within 64 of the diagonal.  Row lengths are uniform in [d/2, 3d/2]. */
#include "suite.h"

#include <stdlib.h>

/* Values and x in [-1, 1): a row of up to ~200 products has a rounding
 * error far below 1e-4 in any summation order. */
#define SPMV_RTOL 1e-4
#define SPMV_ATOL 1e-4

typedef struct csr {
  int *rowptr, *col;
  float *val;
} csr;

static size_t rows_for(int per_row, ksize size) {
  if (size == KSIZE_SMALL) return 512;
  /* About 32M nonzeros for the denser matrices, 8M for the sparsest. */
  return per_row <= 4 ? (size_t)1 << 21 : ((size_t)1 << 25) / (size_t)per_row;
}

int setup_spmv(kjob *job, const kdesc *d, ksize size) {
  const int per_row = d->param / 10, layout = d->param % 10;
  const int vector = layout == 1, banded = layout == 2;
  const size_t n = rows_for(per_row, size);
  const size_t max_nnz = n * (size_t)(per_row + per_row / 2 + 1);
  krng r;
  kjob_init(job, "spmv.cl", vector ? "spmv_csr_vector" : "spmv_csr_scalar");
  int rp = kjob_buf(job, (n + 1) * 4, KB_IN);
  int col = kjob_buf(job, max_nnz * 4, KB_IN);
  int val = kjob_buf(job, max_nnz * 4, KB_IN);
  int x = kjob_buf(job, n * 4, KB_IN), y = kjob_buf(job, n * 4, KB_OUT);
  csr m = {job->buf[rp].host, job->buf[col].host, job->buf[val].host};
  float *hx = job->buf[x].host;
  float *ref = kjob_ref(job, y, KC_F32, n, SPMV_RTOL, SPMV_ATOL);
  if (!m.rowptr || !m.col || !m.val || !hx || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(hx, n, &r, -1.0, 1.0);
  size_t nnz = 0;
  for (size_t i = 0; i < n; ++i) {
    m.rowptr[i] = (int)nnz;
    int len = per_row / 2 + (int)krng_below(&r, (uint32_t)per_row + 1);
    double s = 0.0;
    for (int k = 0; k < len; ++k, ++nnz) {
      long c =
          banded ? (long)i - 64 + (long)krng_below(&r, 129) : (long)krng_below(&r, (uint32_t)n);
      c = c < 0 ? 0 : c >= (long)n ? (long)n - 1 : c;
      m.col[nnz] = (int)c;
      m.val[nnz] = (float)krng_uniform(&r, -1.0, 1.0);
      s += (double)m.val[nnz] * hx[c];
    }
    ref[i] = (float)s;
  }
  m.rowptr[n] = (int)nnz;
  for (int b = 0; b < 5; ++b)
    if (b != y) kjob_arg_buf(job, b);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, (int)n);
  if (vector)
    kjob_grid(job, (n + 7) / 8, 1, 1, 256, 1, 1);
  else
    kjob_grid1(job, n, 256);
  return 0;
}
