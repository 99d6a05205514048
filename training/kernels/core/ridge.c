/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ridge.c: host half of ridge.cl (double) and ridgeh.cu (half2).
 * d->param is RIDGE_PARAM(precision, k): k dependent FMAs (double) or
 * HFMA2s (half2) per element read.  512 MiB are read at the full size:
 * 2^26 doubles in 16384 groups of 256, or 2^27 half2 pairs in 32768.
 *
 * Chains step x <- x a + b with a = -(1 - 2^-10), b = 2^-10 (both exact
 * in fp16; |x| shrinks slowly towards b / (1 - a)) from inputs in [1, 2).
 * The host repeats them for a spread sample of groups: fma() in double,
 * and for half2 the exact product-sum in double rounded once to fp16,
 * which is what one HFMA2 lane does; then the kernels' own order of
 * additions.  Double: rtol 1e-12 (exact but for a compiler's freedom with
 * the sums); half2: rtol 1e-6. */
#include "suite.h"

#include <math.h>

#define RIDGE_A (-0.9990234375) /* -(1 - 2^-10) */
#define RIDGE_B 0.0009765625    /* 2^-10 */
#define RIDGE_LOCAL 256
#define RIDGE_PER_ITEM 16
#define RIDGE_SPAN (RIDGE_LOCAL * RIDGE_PER_ITEM)
#define RIDGE_F64_RTOL 1e-12
#define RIDGE_H2_RTOL 1e-6
#define RIDGE_CHECKED 32

static int prec_of(const kdesc *d) { return d->param / 1000; }
static int k_of(const kdesc *d) { return d->param % 1000; }

static uint32_t mix(size_t i) { return (uint32_t)i * 2654435761u; }

/* fp16 bits -> value, and the fp16 nearest an exactly computed double (the
 * normal range only: the chains stay near 1). */
static double h2d(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double v = ldexp((double)(m + 1024), e - 25);
  return h & 0x8000u ? -v : v;
}

static double round_half(double x) {
  int e;
  const double m = frexp(x, &e); /* x = m 2^e, |m| in [0.5, 1) */
  return ldexp(nearbyint(m * 2048.0), e - 11);
}

/* Group g's sum as ridge.cl computes it. */
static double group_f64(const double *in, size_t g, int k) {
  double red[RIDGE_LOCAL];
  for (int t = 0; t < RIDGE_LOCAL; ++t) {
    const double *p = in + g * RIDGE_SPAN + (size_t)t;
    double s = 0.0;
    for (int j = 0; j < RIDGE_PER_ITEM; j += 4) {
      double x[4];
      for (int c = 0; c < 4; ++c) {
        x[c] = p[(size_t)(j + c) * RIDGE_LOCAL];
        for (int it = 0; it < k; ++it) x[c] = fma(x[c], RIDGE_A, RIDGE_B);
      }
      s += ((x[0] + x[1]) + x[2]) + x[3];
    }
    red[t] = s;
  }
  for (int off = RIDGE_LOCAL / 2; off > 0; off >>= 1)
    for (int t = 0; t < off; ++t) red[t] += red[t + off];
  return red[0];
}

static float pair_chain(const uint16_t *pair, int k) {
  double lo = h2d(pair[0]), hi = h2d(pair[1]);
  for (int it = 0; it < k; ++it) {
    lo = round_half(lo * RIDGE_A + RIDGE_B);
    hi = round_half(hi * RIDGE_A + RIDGE_B);
  }
  return (float)lo + (float)hi;
}

/* Group g's sum as ridgeh.cu computes it: per thread, then a shuffle
 * butterfly per warp (lane 0's order), then the warps in order. */
static float group_h2(const uint16_t *in, size_t g, int k) {
  float v[RIDGE_LOCAL];
  for (int t = 0; t < RIDGE_LOCAL; ++t) {
    const uint16_t *p = in + 2 * (g * RIDGE_SPAN + (size_t)t);
    float s = 0.0f;
    for (int j = 0; j < RIDGE_PER_ITEM; j += 4) {
      float q[4];
      for (int c = 0; c < 4; ++c) q[c] = pair_chain(p + 2 * (size_t)(j + c) * RIDGE_LOCAL, k);
      s += (q[0] + q[1]) + (q[2] + q[3]);
    }
    v[t] = s;
  }
  float total = 0.0f;
  for (int w = 0; w < RIDGE_LOCAL / 32; ++w) {
    float *lane = v + 32 * w, next[32];
    for (int off = 16; off > 0; off >>= 1) {
      for (int l = 0; l < 32; ++l) next[l] = lane[l] + lane[l ^ off];
      for (int l = 0; l < 32; ++l) lane[l] = next[l];
    }
    total = w == 0 ? lane[0] : total + lane[0];
  }
  return total;
}

static const char *entry_of(int h2, int k) {
  if (h2) return k == 8 ? "ridge_h2_k8" : k == 16 ? "ridge_h2_k16" : "ridge_h2_k32";
  return k == 20 ? "ridge_f64_k20" : "ridge_f64_k40";
}

int setup_ridge(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, h2 = prec_of(d) == RIDGE_H2, k = k_of(d);
  const size_t groups = full ? (h2 ? 32768 : 16384) : 4, n = groups * RIDGE_SPAN;
  const size_t checked = groups < RIDGE_CHECKED ? groups : RIDGE_CHECKED;
  kjob_init(job, h2 ? "ridgeh.cu" : "ridge.cl", entry_of(h2, k));
  int in = kjob_buf(job, n * (h2 ? 4 : 8), KB_IN);
  int p = kjob_buf(job, groups * (h2 ? 4 : 8), KB_OUT);
  void *ref =
      kjob_ref(job, p, h2 ? KC_F32 : KC_F64, checked, h2 ? RIDGE_H2_RTOL : RIDGE_F64_RTOL, 0.0);
  size_t *sample = ref ? kjob_sample(job, p) : NULL;
  if (!job->buf[in].host || !sample) return -1;
  if (h2) {
    uint16_t *h = job->buf[in].host;
    for (size_t i = 0; i < 2 * n; ++i) h[i] = (uint16_t)(0x3c00u | (mix(i) >> 22)); /* 1 + q/1024 */
  } else {
    double *h = job->buf[in].host;
    for (size_t i = 0; i < n; ++i) h[i] = 1.0 + (double)(mix(i) >> 12) * 0x1p-20;
  }
  for (size_t c = 0; c < checked; ++c) {
    sample[c] = kspread(c, checked, groups);
    if (h2)
      ((float *)ref)[c] = group_h2(job->buf[in].host, sample[c], k);
    else
      ((double *)ref)[c] = group_f64(job->buf[in].host, sample[c], k);
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, p);
  if (h2) {
    kjob_arg_f32(job, (float)RIDGE_A);
    kjob_arg_f32(job, (float)RIDGE_B);
  } else {
    kjob_arg_f64(job, RIDGE_A);
    kjob_arg_f64(job, RIDGE_B);
  }
  kjob_grid(job, groups, 1, 1, RIDGE_LOCAL, 1, 1);
  return 0;
}
