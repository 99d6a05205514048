/* SPDX-License-Identifier: GPL-3.0-or-later */
/* reduce.c: host half of reduce.cl. */
#include "suite.h"

#include <stdlib.h>

/* A partial sum covers 4096 non-negative inputs, summed 16 deep then in an
 * 8-level tree: relative rounding error below 24 x 2^-24 ~ 1.5e-6. */
#define REDUCE_RTOL 1e-5
#define REDUCE_ATOL 0.0
#define RED_CHUNK 4096 /* RED_GROUP x RED_ITEMS in reduce.cl */

enum { R_SUM_F32, R_SUM_F64, R_MAX_U32, R_DOT_F32 };

static int setup_f64(kjob *job, const kdesc *d, size_t n, size_t groups) {
  krng r;
  kjob_init(job, "reduce.cl", "reduce_sum_f64");
  int in = kjob_buf(job, n * 8, KB_IN), out = kjob_buf(job, groups * 8, KB_OUT);
  double *h = job->buf[in].host;
  double *ref = kjob_ref(job, out, KC_F64, groups, 1e-12, 0.0);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f64(h, n, &r, 0.0, 1.0);
  for (size_t i = 0; i < n; ++i) ref[i / RED_CHUNK] += h[i];
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  return 0;
}

static int setup_max(kjob *job, const kdesc *d, size_t n) {
  krng r;
  kjob_init(job, "reduce.cl", "reduce_max_u32");
  int in = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, 4, KB_INOUT);
  uint32_t *h = job->buf[in].host;
  uint32_t *ref = kjob_ref(job, out, KC_U32, 1, 0.0, 0.0);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  for (size_t i = 0; i < n; ++i) {
    h[i] = krng_u32(&r) >> 1;
    if (h[i] > ref[0]) ref[0] = h[i];
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  return 0;
}

static int setup_f32(kjob *job, const kdesc *d, size_t n, size_t groups) {
  const int dot = d->param == R_DOT_F32;
  krng r;
  kjob_init(job, "reduce.cl", dot ? "dot_f32" : "reduce_sum_f32");
  int a = kjob_buf(job, n * 4, KB_IN);
  int b = dot ? kjob_buf(job, n * 4, KB_IN) : a;
  int out = kjob_buf(job, groups * 4, KB_OUT);
  float *ha = job->buf[a].host, *hb = job->buf[b].host;
  float *ref = kjob_ref(job, out, KC_F32, groups, REDUCE_RTOL, REDUCE_ATOL);
  double *acc = calloc(groups, sizeof *acc);
  if (!ha || !hb || !ref || !acc) {
    free(acc);
    return -1;
  }
  krng_seed(&r, d->name, 0);
  kfill_f32(ha, n, &r, 0.0, 1.0);
  if (dot) kfill_f32(hb, n, &r, 0.0, 1.0);
  for (size_t i = 0; i < n; ++i) acc[i / RED_CHUNK] += dot ? (double)ha[i] * hb[i] : ha[i];
  for (size_t g = 0; g < groups; ++g) ref[g] = (float)acc[g];
  free(acc);
  kjob_arg_buf(job, a);
  if (dot) kjob_arg_buf(job, b);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  return 0;
}

int setup_reduce(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 25 : (size_t)1 << 14;
  const size_t groups = n / RED_CHUNK;
  int rc;
  switch (d->param) {
    case R_SUM_F64:
      rc = setup_f64(job, d, n, groups);
      break;
    case R_MAX_U32:
      rc = setup_max(job, d, n);
      break;
    default:
      rc = setup_f32(job, d, n, groups);
      break;
  }
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return rc;
}
