/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dense.c: host half of dense.cl (the XNOR-popcount product, the L1
 * distance matrix).  The binary product is integer arithmetic; the
 * distances are summed here in the kernels' order (k ascending, one
 * rounding per term), so both match exactly at the sampled outputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation12.h"

static int popc32(uint32_t v) {
  int c = 0;
  for (; v; v &= v - 1) ++c;
  return c;
}

/* ---- XNOR-popcount product --------------------------------------------------------------- */

static int xnor_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t m = full ? 4096 : 128, n = m, kw = full ? 128 : 16;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "dense.cl", "m_xnor_gemm_reg4x4");
  int ab = kjob_buf_u32(job, m * kw, KB_IN), bb = kjob_buf_u32(job, n * kw, KB_IN);
  int cb = kjob_buf_u32(job, m * n, KB_OUT);
  uint32_t *ref = kjob_ref_sampled(job, cb, KC_U32, m * n, M12_SAMPLES, 0, 0);
  if (ab < 0 || bb < 0 || ref == NULL) return -1;
  uint32_t *a = job->buf[ab].host, *b = job->buf[bb].host;
  kfill_u32(a, m * kw, &r);
  /* b's rows: some near copies of a's rows (large dot products), the rest
   * drawn (near 0) */
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < kw; ++k)
      b[j * kw + k] =
          j % 3 == 0 ? a[(j * 7 % m) * kw + k] ^ (1u << krng_below(&r, 32)) : krng_u32(&r);
  for (size_t s = 0; s < job->buf[cb].count; ++s) {
    const size_t e = job->buf[cb].sample[s], i = e / n, j = e % n;
    int pc = 0;
    for (size_t k = 0; k < kw; ++k) pc += popc32(a[i * kw + k] ^ b[j * kw + k]);
    ref[s] = (uint32_t)(int32_t)(32 * (int)kw - 2 * pc);
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, (int)kw);
  kjob_grid(job, n / 64, m / 64, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- L1 distance matrix ------------------------------------------------------------------ */

static int cdist_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t m = full ? 2048 : 128, n = m, dim = full ? 2048 : 64;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "dense.cl", "m_cdist_l1_reg4x4");
  int xb = kjob_buf(job, m * dim * 4, KB_IN), yb = kjob_buf(job, n * dim * 4, KB_IN);
  int ob = kjob_buf(job, m * n * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, ob, KC_F32, m * n, M12_SAMPLES, 1e-6, 0);
  if (job->buf[xb].host == NULL || job->buf[yb].host == NULL || ref == NULL) return -1;
  float *x = job->buf[xb].host, *y = job->buf[yb].host;
  kfill_f32(x, m * dim, &r, -1, 1);
  kfill_f32(y, n * dim, &r, -1, 1);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], i = e / n, j = e % n;
    float acc = 0.0f;
    for (size_t k = 0; k < dim; ++k) acc += fabsf(x[i * dim + k] - y[j * dim + k]);
    ref[s] = acc;
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, (int)dim);
  kjob_grid(job, n / 64, m / 64, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(m12setup_dense) {
  switch (d->param) {
    case M12DN_XNOR:
      return xnor_job(job, d, size);
    case M12DN_CDIST:
      return cdist_job(job, d, size);
  }
  return -1;
}
