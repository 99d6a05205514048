/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.c: host half of cudaonly.cu (CUDA only: fp16 WMMA SYRK,
 * segmented bitonic sort in dynamic shared memory, fp16 RMSNorm of one
 * token).  The half inputs are multiples of 1/64 that half represents
 * exactly, so the host writes their bits directly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation5.h"

/* Half bits of k / 64 for |k| <= 1023 (exact). */
static uint16_t half64(int k) {
  if (k == 0) return 0;
  const uint16_t sign = k < 0 ? 0x8000 : 0;
  int m = k < 0 ? -k : k, e = 0;
  while (m < 1024) {
    m <<= 1;
    --e;
  }
  return sign | (uint16_t)((e + 10 - 6 + 15) << 10) | (uint16_t)(m - 1024);
}

static float half_to_f(uint16_t h) {
  const int e = h >> 10 & 31, m = h & 1023;
  const float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m + 1024), e - 25);
  return h & 0x8000 ? -v : v;
}

/* ---- fp16 SYRK -------------------------------------------------------------------------- */

static int syrk_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, n = full ? 4096 : 256, k = full ? 4096 : 512;
  const int tiles = n / 64;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "z_syrk_wmma_f16");
  int ab = kjob_buf(job, (size_t)n * k * 2, KB_IN), cb = kjob_buf(job, (size_t)n * n * 4, KB_OUT);
  const size_t count = Z_SAMPLES;
  float *ref = kjob_ref(job, cb, KC_F32, count, 0, 1e-3);
  size_t *smp = ref ? kjob_sample(job, cb) : NULL;
  int8_t *ka = malloc((size_t)n * k);
  uint16_t *ha = job->buf[ab].host;
  if (ha == NULL || smp == NULL || ka == NULL) {
    free(ka);
    return -1;
  }
  /* values k / 16 with |k| <= 16: products are multiples of 1/256 and every
   * partial sum stays exact in float */
  for (size_t i = 0; i < (size_t)n * k; ++i) {
    ka[i] = (int8_t)((int)krng_below(&r, 33) - 16);
    ha[i] = half64(ka[i] * 4);
  }
  for (size_t s = 0; s < count; ++s) { /* spread over rows, moved into the lower tiles */
    const size_t e = kspread(s, count, (size_t)n * n);
    size_t i = e / n, j = e % n;
    if (j / 64 > i / 64) j = (i / 64) * 64 + j % 64;
    smp[s] = i * n + j;
    long acc = 0;
    for (int kk = 0; kk < k; ++kk) acc += (long)ka[i * k + kk] * ka[j * k + kk];
    ref[s] = (float)(acc / 256.0);
  }
  free(ka);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, k);
  kjob_grid(job, (size_t)tiles * (tiles + 1) / 2, 1, 1, 128, 1, 1);
  return 0;
}

/* ---- segmented sort ---------------------------------------------------------------------- */

enum { SS_PER = 8 };

static int cmp_u32(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static int segsort_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, blocks = full ? 133 : 3, n = full ? 32768 : 4096;
  const size_t total = (size_t)blocks * SS_PER * n;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "z_segsort_smem_133");
  int ib = zbuf_u32(job, total, KB_IN), ob = zbuf_u32(job, total, KB_OUT);
  uint32_t *ref = zref_sampled(job, ob, KC_U32, total, 0, 0);
  uint32_t *seg = malloc((size_t)n * 4);
  if (ib < 0 || ref == NULL || seg == NULL) {
    free(seg);
    return -1;
  }
  uint32_t *in = job->buf[ib].host;
  kfill_u32(in, total, &r);
  size_t next = 0;
  for (size_t sgm = 0; sgm < (size_t)blocks * SS_PER; ++sgm) {
    const size_t lo = sgm * n, hi = lo + n;
    if (next >= job->buf[ob].count || job->buf[ob].sample[next] >= hi) continue;
    memcpy(seg, in + lo, (size_t)n * 4);
    qsort(seg, (size_t)n, 4, cmp_u32);
    for (; next < job->buf[ob].count && job->buf[ob].sample[next] < hi; ++next)
      ref[next] = seg[job->buf[ob].sample[next] - lo];
  }
  free(seg);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_grid(job, (size_t)blocks, 1, 1, 1024, 1, 1);
  job->dyn_local = (size_t)n * 4;
  return 0;
}

/* ---- fp16 RMSNorm ---------------------------------------------------------------------------- */

typedef struct rms_chk {
  int yb;
  size_t count;
  float ref[];
} rms_chk;

static int rms_check(const kjob *job, char *msg, size_t size) {
  const rms_chk *c = job->priv;
  const uint16_t *y = job->buf[c->yb].result;
  for (size_t e = 0; e < c->count; ++e) {
    const float got = half_to_f(y[e]);
    if (!(fabsf(got - c->ref[e]) <= 2e-3f + 2e-3f * fabsf(c->ref[e]))) {
      snprintf(msg, size, "y[%zu]: got %g, expected %g", e, got, c->ref[e]);
      return -1;
    }
  }
  return 0;
}

static int rms_job(kjob *job, const kdesc *d, ksize size) {
  const int hidden = size == KSIZE_FULL ? 4096 : 1024;
  const float eps = 1e-6f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "z_rmsnorm_h16_decode");
  int xb = kjob_buf(job, (size_t)hidden * 2, KB_IN), wb = kjob_buf(job, (size_t)hidden * 2, KB_IN);
  int yb = kjob_buf(job, (size_t)hidden * 2, KB_OUT);
  rms_chk *c = job->priv = malloc(sizeof *c + (size_t)hidden * sizeof *c->ref);
  uint16_t *hx = job->buf[xb].host, *hw = job->buf[wb].host;
  int *kx = malloc((size_t)hidden * sizeof *kx), *kw = malloc((size_t)hidden * sizeof *kw);
  if (hx == NULL || hw == NULL || c == NULL || kx == NULL || kw == NULL) {
    free(kx);
    free(kw);
    return -1;
  }
  double ss = 0;
  for (int i = 0; i < hidden; ++i) {
    kx[i] = (int)krng_below(&r, 1023) - 511; /* within [-8, 8] */
    kw[i] = 32 + (int)krng_below(&r, 64);    /* within [0.5, 1.5) */
    hx[i] = half64(kx[i]);
    hw[i] = half64(kw[i]);
    ss += (kx[i] / 64.0) * (kx[i] / 64.0);
  }
  const double inv = 1 / sqrt(ss / hidden + eps);
  for (int i = 0; i < hidden; ++i) c->ref[i] = (float)(kx[i] / 64.0 * inv * (kw[i] / 64.0));
  free(kx);
  free(kw);
  c->yb = yb;
  c->count = (size_t)hidden;
  job->check = rms_check;
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, hidden);
  kjob_arg_f32(job, eps);
  kjob_grid(job, 1, 1, 1, 512, 1, 1);
  return 0;
}

SP_SETUP(zsetup_cuda) {
  switch (d->param) {
    case ZCU_SYRK:
      return syrk_job(job, d, size);
    case ZCU_SEGSORT:
      return segsort_job(job, d, size);
    case ZCU_RMSNORM:
      return rms_job(job, d, size);
  }
  return -1;
}
