/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tensor.c: host half of tensor.cu (CUDA only: WMMA GEMMs in fp16 and bf16,
 * a __half2 elementwise kernel).  The host builds 16-bit floats itself. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "validation.h"

/* IEEE half bits of v, for v zero or a normal half (|v| in [2^-14, 65504])
 * that needs at most 11 significant bits: the inputs are built that way, so
 * no rounding happens here. */
static uint16_t half_bits(float v) {
  if (v == 0.0f) return 0;
  int e;
  const float m = frexpf(fabsf(v), &e); /* |v| = m 2^e, m in [0.5, 1) */
  const uint16_t sign = v < 0 ? 0x8000 : 0;
  return sign | (uint16_t)((e + 14) << 10) | (uint16_t)lrintf((2.0f * m - 1.0f) * 1024.0f);
}

/* The value of half bits h; NaN and infinities (the poison) come out NaN. */
static float half_value(uint16_t h) {
  const int e = h >> 10 & 31, mant = h & 1023;
  const float mag = e == 0    ? ldexpf((float)mant, -24)
                    : e == 31 ? NAN
                              : ldexpf((float)(mant | 1024), e - 25);
  return h & 0x8000 ? -mag : mag;
}

/* v rounded to the nearest half (ties to even), v in the normal range. */
static float half_round(float v) {
  int e;
  const float m = frexpf(v, &e);
  return v == 0.0f ? 0.0f : ldexpf(nearbyintf(ldexpf(m, 11)), e - 11);
}

/* bfloat16 is the upper half of a float; exact for the values used here. */
static uint16_t bf16_bits(float v) {
  union {
    float f;
    uint32_t u;
  } c = {v};
  return (uint16_t)(c.u >> 16);
}

/* Values k/16 with k in [-32, 32): exact in half and bfloat16, and every
 * product is a multiple of 2^-8 of size <= 4, so a sum of up to 2^12 of them
 * fits in fp32's 24 bits: the exact result is the reference. */
static float grid_value(krng *r) { return (float)((int)krng_below(r, 64) - 32) / 16.0f; }

static int wmma_job(kjob *job, const kdesc *d, ksize size, int bf16) {
  const int m = size == KSIZE_FULL ? (bf16 ? 8192 : 4096) : 64;
  const int n = size == KSIZE_FULL ? (bf16 ? 1024 : 4096) : 64;
  const int k = size == KSIZE_FULL ? 4096 : 128;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "tensor.cu", bf16 ? "v_wmma_bf16" : "v_wmma_f16");
  int a = kjob_buf(job, (size_t)m * k * 2, KB_IN);
  int b = kjob_buf(job, (size_t)k * n * 2, KB_IN);
  int c = kjob_buf(job, (size_t)m * n * 4, KB_OUT);
  float *fa = malloc((size_t)m * k * sizeof *fa);
  float *fb = malloc((size_t)k * n * sizeof *fb);
  /* The sums are exact; the tolerance allows one fp32 rounding at the
   * largest magnitude (2^12) in case the tensor cores' internal additions
   * are not exact IEEE operations. */
  float *ref = vref_sampled(job, c, KC_F32, (size_t)m * n, 0.0, 1e-3);
  uint16_t *ha = job->buf[a].host, *hb = job->buf[b].host;
  int rc = -1;
  if (fa && fb && ha && hb && ref) {
    for (size_t i = 0; i < (size_t)m * k; ++i)
      ha[i] = bf16 ? bf16_bits(fa[i] = grid_value(&r)) : half_bits(fa[i] = grid_value(&r));
    for (size_t i = 0; i < (size_t)k * n; ++i)
      hb[i] = bf16 ? bf16_bits(fb[i] = grid_value(&r)) : half_bits(fb[i] = grid_value(&r));
    for (size_t s = 0; s < job->buf[c].count; ++s) {
      const size_t i = job->buf[c].sample[s] / n, j = job->buf[c].sample[s] % n;
      double acc = 0.0;
      for (int kk = 0; kk < k; ++kk) acc += (double)fa[i * k + kk] * fb[(size_t)kk * n + j];
      ref[s] = (float)acc;
    }
    rc = 0;
  }
  free(fa);
  free(fb);
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, k);
  kjob_grid(job, n / 64, m / 64, 1, 128, 1, 1);
  return rc;
}

/* The half outputs are compared in check(): kbuf has no half comparison. */
typedef struct half_ref {
  int buf;
  size_t n, count;
  float ref[V_SAMPLES];
} half_ref;

/* Half keeps 11 bits: a result is off by at most half an ulp (2^-12
 * relative) of its own rounding plus the few-ulp fp32 exp difference; 1e-3
 * relative, and an absolute floor for outputs in half's subnormal range. */
#define HALF_RTOL 1e-3
#define HALF_ATOL 1e-4

static int half_check(const kjob *job, char *msg, size_t size) {
  const half_ref *h = job->priv;
  const uint16_t *got = job->buf[h->buf].result;
  for (size_t c = 0; c < h->count; ++c) {
    const size_t i = kspread(c, h->count, h->n);
    const double g = half_value(got[i]), want = h->ref[c];
    if (!(fabs(g - want) <= HALF_ATOL + HALF_RTOL * fabs(want))) {
      snprintf(msg, size, "half element %zu: got %.6g, expected %.6g", i, g, want);
      return -1;
    }
  }
  return 0;
}

/* Host GELU with the device's tanh-through-exp formula, in double. */
static double gelu(double x) {
  return 0.5 * x * (1.0 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
}

static int half2_job(kjob *job, const kdesc *d, ksize size) {
  const size_t cols = 4096, rows = size == KSIZE_FULL ? 16384 : 2;
  const size_t n = rows * cols;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "tensor.cu", "v_half2_bias_gelu");
  int x = kjob_buf(job, n * 2, KB_IN), b = kjob_buf(job, cols * 2, KB_IN);
  int y = kjob_buf(job, n * 2, KB_OUT);
  uint16_t *hx = job->buf[x].host, *hb = job->buf[b].host;
  half_ref *h = job->priv = malloc(sizeof *h);
  if (hx == NULL || hb == NULL || h == NULL) return -1;
  /* Multiples of 2^-9 below 4 in size: exact in half's 11 bits. */
  for (size_t i = 0; i < n; ++i)
    hx[i] = half_bits((float)((int)krng_below(&r, 4096) - 2048) / 512.0f);
  for (size_t i = 0; i < cols; ++i)
    hb[i] = half_bits((float)((int)krng_below(&r, 1024) - 512) / 512.0f);
  h->buf = y;
  h->n = n;
  h->count = n < V_SAMPLES ? n : V_SAMPLES;
  for (size_t c = 0; c < h->count; ++c) {
    const size_t i = kspread(c, h->count, n);
    h->ref[c] = (float)gelu(half_round(half_value(hx[i]) + half_value(hb[i % cols])));
  }
  job->check = half_check;
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, (int)(n / 2));
  kjob_arg_i32(job, (int)(cols / 2));
  kjob_grid1(job, n / 2, 256);
  return 0;
}

int vsetup_tensor(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case VTC_WMMA_F16:
      return wmma_job(job, d, size, 0);
    case VTC_WMMA_BF16:
      return wmma_job(job, d, size, 1);
    case VTC_HALF2_GELU:
      return half2_job(job, d, size);
  }
  return -1;
}
