/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gemv.c: host half of gemv.cl.  d->param: 0 row-major, 1 column-major. */
#include "suite.h"

#include <stdlib.h>

/* Positive inputs in [0, 1): n sequential single-precision additions have a
 * relative error well below 1e-4 for n = 8192 in practice. */
#define GEMV_RTOL 1e-4
#define GEMV_ATOL 1e-6

int setup_gemv(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? 8192 : 256;
  const int colmajor = d->param == 1;
  krng r;
  kjob_init(job, "gemv.cl", colmajor ? "gemv_colmajor" : "gemv_rowmajor");
  int a = kjob_buf(job, n * n * 4, KB_IN), x = kjob_buf(job, n * 4, KB_IN);
  int y = kjob_buf(job, n * 4, KB_OUT);
  float *ha = job->buf[a].host, *hx = job->buf[x].host;
  float *ref = kjob_ref(job, y, KC_F32, n, GEMV_RTOL, GEMV_ATOL);
  double *acc = calloc(n, sizeof *acc);
  if (!ha || !hx || !ref || !acc) {
    free(acc);
    return -1;
  }
  krng_seed(&r, d->name, 0);
  kfill_f32(ha, n * n, &r, 0.0, 1.0);
  kfill_f32(hx, n, &r, 0.0, 1.0);
  /* Element (row, j) lives at row*n+j (row-major) or j*n+row. */
  for (size_t p = 0; p < n; ++p)
    for (size_t q = 0; q < n; ++q) {
      size_t row = colmajor ? q : p, j = colmajor ? p : q;
      acc[row] += (double)ha[p * n + q] * hx[j];
    }
  for (size_t i = 0; i < n; ++i) ref[i] = (float)acc[i];
  free(acc);
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, (int)n);
  /* Work-groups of 64: 8192 rows still fill 128 SMs. */
  kjob_grid1(job, n, 64);
  return 0;
}
