/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mc.c: host half of mc.cl.  The references replay each work-item's
 * random stream; expensive ones are computed for a sample of work-items. */
#include "suite.h"

#include <math.h>

/* GBM: float transcendentals (a few ulp each) compounded over 16 steps of
 * a price near 1: relative error ~1e-5; a wrong path is off by O(0.1). */
#define GBM_RTOL 1e-3
#define GBM_ATOL 1e-4
/* Black-Scholes prices up to ~30 from differences of two terms. */
#define BS_RTOL 1e-4
#define BS_ATOL 2e-3
#define TRIG_RTOL 1e-10
#define MC_CHECK 4096

enum { MC_PI, MC_GBM, MC_BLACK_SCHOLES, MC_TRIG_F64 };

static uint32_t xorshift32(uint32_t x) {
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

static uint32_t mc_seed(uint32_t gid) { return xorshift32(gid * 2654435761u + 0x9E3779B9u) | 1u; }

static float mc_uniform(uint32_t s) { return ((float)(s >> 8) + 0.5f) * (1.0f / 16777216.0f); }

static int setup_pi(kjob *job, size_t t, int iters) {
  kjob_init(job, "mc.cl", "mc_pi");
  int out = kjob_buf(job, t * 4, KB_OUT);
  uint32_t *ref = kjob_ref(job, out, KC_U32, t, 0.0, 0.0);
  if (!ref) return -1;
  for (size_t g = 0; g < t; ++g) {
    uint32_t s = mc_seed((uint32_t)g), h = 0;
    for (int k = 0; k < iters; ++k) {
      s = xorshift32(s);
      uint32_t x = s & 32767u, y = (s >> 15) & 32767u;
      h += x * x + y * y < 1073741824u;
    }
    ref[g] = h;
  }
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, iters);
  kjob_grid1(job, t, 256);
  return 0;
}

static int setup_gbm(kjob *job, size_t t, int paths, int steps) {
  const float drift = -0.0005f, vol = 0.03f, strike = 1.0f;
  kjob_init(job, "mc.cl", "mc_gbm");
  int out = kjob_buf(job, t * 4, KB_OUT);
  const size_t check = t < MC_CHECK ? t : MC_CHECK;
  float *ref = kjob_ref(job, out, KC_F32, check, GBM_RTOL, GBM_ATOL);
  size_t *sample = kjob_sample(job, out);
  if (!ref || !sample) return -1;
  for (size_t c = 0; c < check; ++c) {
    uint32_t g = (uint32_t)kspread(c, check, t);
    uint32_t s = mc_seed(g);
    double sum = 0.0;
    for (int p = 0; p < paths; ++p) {
      double price = 1.0;
      for (int k = 0; k < steps; ++k) {
        s = xorshift32(s);
        double u1 = mc_uniform(s);
        s = xorshift32(s);
        double u2 = mc_uniform(s);
        double z = sqrt(-2.0 * log(u1)) * cos(6.28318531 * u2);
        price *= exp(drift + vol * z);
      }
      sum += price > strike ? price - strike : 0.0;
    }
    ref[c] = (float)(sum / paths);
    sample[c] = g;
  }
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, paths);
  kjob_arg_i32(job, steps);
  kjob_arg_f32(job, drift);
  kjob_arg_f32(job, vol);
  kjob_arg_f32(job, strike);
  kjob_grid1(job, t, 256);
  return 0;
}

static double cnd(double d) {
  const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937;
  const double a4 = -1.821255978, a5 = 1.330274429;
  double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
  double c = 0.39894228040143267794 * exp(-0.5 * d * d) *
             (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0.0 ? 1.0 - c : c;
}

static int setup_bs(kjob *job, const kdesc *d, size_t n) {
  const float rate = 0.02f, v = 0.30f;
  krng r;
  kjob_init(job, "mc.cl", "black_scholes");
  int in[3], out[2];
  for (int i = 0; i < 3; ++i) in[i] = kjob_buf(job, n * 4, KB_IN);
  for (int i = 0; i < 2; ++i) out[i] = kjob_buf(job, n * 4, KB_OUT);
  float *s = job->buf[in[0]].host, *x = job->buf[in[1]].host;
  float *t = job->buf[in[2]].host;
  float *call = kjob_ref(job, out[0], KC_F32, n, BS_RTOL, BS_ATOL);
  float *put = kjob_ref(job, out[1], KC_F32, n, BS_RTOL, BS_ATOL);
  if (!s || !x || !t || !call || !put) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(s, n, &r, 5.0, 30.0);
  kfill_f32(x, n, &r, 1.0, 100.0);
  kfill_f32(t, n, &r, 0.25, 10.0);
  for (size_t i = 0; i < n; ++i) {
    double sq = sqrt((double)t[i]);
    double d1 = (log((double)s[i] / x[i]) + (rate + 0.5 * v * v) * t[i]) / (v * sq);
    double d2 = d1 - v * sq, disc = x[i] * exp(-(double)rate * t[i]);
    call[i] = (float)(s[i] * cnd(d1) - disc * cnd(d2));
    put[i] = (float)(disc * (1.0 - cnd(d2)) - s[i] * (1.0 - cnd(d1)));
  }
  for (int i = 0; i < 3; ++i) kjob_arg_buf(job, in[i]);
  for (int i = 0; i < 2; ++i) kjob_arg_buf(job, out[i]);
  kjob_arg_f32(job, rate);
  kjob_arg_f32(job, v);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

static int setup_trig(kjob *job, size_t t, int iters) {
  kjob_init(job, "mc.cl", "mc_trig_f64");
  int out = kjob_buf(job, t * 8, KB_OUT);
  const size_t check = t < MC_CHECK ? t : MC_CHECK;
  double *ref = kjob_ref(job, out, KC_F64, check, TRIG_RTOL, 1e-12);
  size_t *sample = kjob_sample(job, out);
  if (!ref || !sample) return -1;
  for (size_t c = 0; c < check; ++c) {
    size_t g = kspread(c, check, t);
    double x = (double)(g & 65535) * 1.0e-4, acc = 0.0;
    for (int k = 0; k < iters; ++k) {
      acc += sin(x) * cos(0.5 * x) + exp(-x);
      x += 1.0e-3;
    }
    ref[c] = acc;
    sample[c] = g;
  }
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, iters);
  kjob_grid1(job, t, 256);
  return 0;
}

int setup_mc(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  switch (d->param) {
    case MC_PI:
      return setup_pi(job, full ? (size_t)1 << 20 : 4096, full ? 256 : 32);
    case MC_GBM:
      return setup_gbm(job, full ? (size_t)1 << 20 : 4096, full ? 16 : 4, full ? 16 : 4);
    case MC_BLACK_SCHOLES:
      return setup_bs(job, d, full ? (size_t)1 << 24 : 4096);
    default:
      return setup_trig(job, full ? (size_t)1 << 18 : 4096, full ? 64 : 8);
  }
}
