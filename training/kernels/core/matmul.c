/* SPDX-License-Identifier: GPL-3.0-or-later */
/* matmul.c: host half of matmul.cl.  The O(n^3) reference is computed for
 * MM_CHECK_ROWS rows of C spread over the matrix (all their columns). */
#include "suite.h"

#include <stdlib.h>

/* Inputs in [-1, 1): a dot product of n = 1024 terms is about 18 in size
 * and its single-precision rounding error (any summation order, with or
 * without fused multiply-adds) far below 1e-3; a wrong element is off by
 * O(1). */
#define MM_RTOL 1e-4
#define MM_ATOL 1e-3
#define MM_CHECK_ROWS 16

enum { MM_NAIVE, MM_NAIVE_STRIDED, MM_TILED16, MM_TILED16_F64, MM_REGBLOCK };

static int setup_f64(kjob *job, const kdesc *d, size_t n) {
  krng r;
  kjob_init(job, "matmul.cl", "mm_tiled16_f64");
  int a = kjob_buf(job, n * n * 8, KB_IN), b = kjob_buf(job, n * n * 8, KB_IN);
  int c = kjob_buf(job, n * n * 8, KB_OUT);
  double *ha = job->buf[a].host, *hb = job->buf[b].host;
  const size_t rows = MM_CHECK_ROWS;
  double *ref = kjob_ref(job, c, KC_F64, rows * n, 1e-12, 1e-11);
  size_t *sample = kjob_sample(job, c);
  if (!ha || !hb || !ref || !sample) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f64(ha, n * n, &r, -1.0, 1.0);
  kfill_f64(hb, n * n, &r, -1.0, 1.0);
  for (size_t s = 0; s < rows; ++s) {
    size_t row = (s * n) / rows + s % 7;
    for (size_t k = 0; k < n; ++k)
      for (size_t j = 0; j < n; ++j) ref[s * n + j] += ha[row * n + k] * hb[k * n + j];
    for (size_t j = 0; j < n; ++j) sample[s * n + j] = row * n + j;
  }
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, (int)n);
  kjob_grid(job, n / 16, n / 16, 1, 16, 16, 1);
  kjob_sampleable(job); /* one output tile per work-group */
  return 0;
}

int setup_matmul(kjob *job, const kdesc *d, ksize size) {
  static const char *entries[] = {"mm_naive", "mm_naive_strided", "mm_tiled16", "mm_tiled16_f64",
                                  "mm_regblock"};
  /* param: the kernel (MM_*), plus 10 x n for sizes other than 1024. */
  const size_t n = size == KSIZE_FULL ? (d->param >= 10 ? (size_t)d->param / 10 : 1024) : 64;
  const int kernel = d->param % 10;
  const size_t rows = MM_CHECK_ROWS;
  krng r;
  if (kernel == MM_TILED16_F64) return setup_f64(job, d, n);
  kjob_init(job, "matmul.cl", entries[kernel]);
  int a = kjob_buf(job, n * n * 4, KB_IN), b = kjob_buf(job, n * n * 4, KB_IN);
  int c = kjob_buf(job, n * n * 4, KB_OUT);
  float *ha = job->buf[a].host, *hb = job->buf[b].host;
  float *ref = kjob_ref(job, c, KC_F32, rows * n, MM_RTOL, MM_ATOL);
  size_t *sample = kjob_sample(job, c);
  double *acc = calloc(n, sizeof *acc);
  if (!ha || !hb || !ref || !sample || !acc) {
    free(acc);
    return -1;
  }
  krng_seed(&r, d->name, 0);
  kfill_f32(ha, n * n, &r, -1.0, 1.0);
  kfill_f32(hb, n * n, &r, -1.0, 1.0);
  for (size_t s = 0; s < rows; ++s) {
    size_t row = (s * n) / rows + s % 7;
    for (size_t j = 0; j < n; ++j) acc[j] = 0.0;
    for (size_t k = 0; k < n; ++k)
      for (size_t j = 0; j < n; ++j) acc[j] += (double)ha[row * n + k] * hb[k * n + j];
    for (size_t j = 0; j < n; ++j) {
      ref[s * n + j] = (float)acc[j];
      sample[s * n + j] = row * n + j;
    }
  }
  free(acc);
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, (int)n);
  if (kernel == MM_REGBLOCK)
    kjob_grid(job, n / 64, n / 64, 1, 16, 16, 1);
  else
    kjob_grid(job, n / 16, n / 16, 1, 16, 16, 1);
  kjob_sampleable(job); /* one output tile per work-group */
  return 0;
}
