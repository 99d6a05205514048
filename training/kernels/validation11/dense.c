/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dense.c: host half of dense.cl (symm, the correlator, the min-plus
 * product, Lomb-Scargle periodograms).  symm's inputs are quarters of small
 * integers, so every partial sum is exact in any order and D is compared
 * exactly; the correlator's 4-bit products and the min-plus sums are
 * integers; the periodograms are compared with double arithmetic within a
 * tolerance that covers the float phase and sums. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation11.h"

/* ---- symm -------------------------------------------------------------------------------- */

static int symm_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, m = full ? 2048 : 128, n = full ? 2176 : 192;
  const float alpha = 1.5f, beta = 1.25f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "dense.cl", "k_symm_reg4x4");
  int ab = kjob_buf(job, (size_t)m * m * 4, KB_IN), bb = kjob_buf(job, (size_t)m * n * 4, KB_IN);
  int cb = kjob_buf(job, (size_t)m * n * 4, KB_IN), db = kjob_buf(job, (size_t)m * n * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, db, KC_F32, (size_t)m * n, K11_SAMPLES, 0, 0);
  if (job->buf[ab].host == NULL || job->buf[bb].host == NULL || job->buf[cb].host == NULL ||
      ref == NULL)
    return -1;
  float *a = job->buf[ab].host, *b = job->buf[bb].host, *c = job->buf[cb].host;
  for (int i = 0; i < m; ++i) /* lower triangle: q / 4, |q| <= 2; above it 1e30 (never read) */
    for (int k = 0; k < m; ++k)
      a[(size_t)i * m + k] = k <= i ? (float)((int)krng_below(&r, 5) - 2) * 0.25f : 1e30f;
  for (size_t e = 0; e < (size_t)m * n; ++e) {
    b[e] = (float)((int)krng_below(&r, 5) - 2) * 0.25f;
    c[e] = (float)((int)krng_below(&r, 9) - 4) * 0.25f;
  }
  for (size_t s = 0; s < job->buf[db].count; ++s) {
    const size_t e = job->buf[db].sample[s], i = e / n, j = e % n;
    double acc = 0;
    for (size_t k = 0; k < (size_t)m; ++k)
      acc += (double)(k <= i ? a[i * m + k] : a[k * m + i]) * b[k * n + j];
    ref[s] = (float)(alpha * acc + beta * (double)c[e]);
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, db);
  kjob_arg_i32(job, m);
  kjob_arg_i32(job, n);
  kjob_arg_f32(job, alpha);
  kjob_arg_f32(job, beta);
  kjob_grid(job, (size_t)n / 64, (size_t)m / 64, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- correlator -------------------------------------------------------------------------- */

static int nib(unsigned v) { return (int)(v & 15u) - (int)((v & 8u) << 1); }

static int xgpu_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, ninp = full ? 256 : 128, nsamp = full ? 1024 : 32;
  const int nchan = full ? 128 : 2, nt = ninp / 64, ntri = nt * (nt + 1) / 2;
  const size_t nx = (size_t)nchan * nsamp * ninp, nv = (size_t)nchan * ninp * (ninp + 1);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "dense.cl", "k_xgpu_corr_4bit");
  int xb = kjob_buf(job, nx, KB_IN), vb = kjob_buf(job, nv * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, vb, KC_F32, nv, K11_SAMPLES, 0, 0);
  if (job->buf[xb].host == NULL || ref == NULL) return -1;
  uint8_t *x = job->buf[xb].host;
  const size_t len = nx < ((size_t)1 << 20) ? nx : (size_t)1 << 20;
  for (size_t e = 0; e < len; ++e) { /* -7..7 each, a common signal in every input */
    const size_t t = e / ninp;
    const int sr = (int)(t * 2654435761u >> 29) % 3 - 1, si = (int)(t * 40503u >> 13) % 3 - 1;
    int re = sr * 2 + (int)krng_below(&r, 11) - 5, im = si * 2 + (int)krng_below(&r, 11) - 5;
    re = re < -7 ? -7 : re > 7 ? 7 : re;
    im = im < -7 ? -7 : im > 7 ? 7 : im;
    x[e] = (uint8_t)(((unsigned)re & 15u) << 4 | ((unsigned)im & 15u));
  }
  krepeat(x, len, nx);
  for (size_t s = 0; s < job->buf[vb].count; ++s) {
    const size_t e = job->buf[vb].sample[s], per = (size_t)ninp * (ninp + 1);
    const size_t f = e / per, at = (e % per) / 2;
    size_t i = 0;
    while ((i + 1) * (i + 2) / 2 <= at) ++i;
    const size_t j = at - i * (i + 1) / 2;
    long acc = 0;
    for (int t = 0; t < nsamp; ++t) {
      const uint8_t vi = x[(f * nsamp + t) * ninp + i], vj = x[(f * nsamp + t) * ninp + j];
      const int pr = nib(vi >> 4), pi = nib(vi), qr = nib(vj >> 4), qi = nib(vj);
      acc += e % 2 == 0 ? pr * qr + pi * qi : pi * qr - pr * qi;
    }
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, vb);
  kjob_arg_i32(job, ninp);
  kjob_arg_i32(job, nsamp);
  kjob_grid(job, (size_t)nchan * ntri, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- min-plus product -------------------------------------------------------------------- */

enum { MP_INF = 1 << 29 };

static int minplus_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, n = full ? 2560 : 256, kd = full ? 1024 : 64;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "dense.cl", "k_minplus_landmark_400");
  int ab = kjob_buf_u32(job, (size_t)n * kd, KB_IN), bb = kjob_buf_u32(job, (size_t)kd * n, KB_IN);
  int cb = kjob_buf_u32(job, (size_t)n * n, KB_OUT);
  int32_t *ref = kjob_ref_sampled(job, cb, KC_U32, (size_t)n * n, K11_SAMPLES, 0, 0);
  if (ab < 0 || bb < 0 || ref == NULL) return -1;
  int32_t *a = job->buf[ab].host, *b = job->buf[bb].host;
  /* Vertices and landmarks on a line with a few shortcuts: distances grow
   * with the separation; 1 in 50 pairs unreachable. */
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < kd; ++k) {
      const int sep = abs(i * kd / n - k) + 1;
      a[(size_t)i * kd + k] =
          krng_below(&r, 50) == 0 ? MP_INF : sep * 100 + (int)krng_below(&r, 1000);
      b[(size_t)k * n + i] =
          krng_below(&r, 50) == 0 ? MP_INF : sep * 100 + (int)krng_below(&r, 1000);
    }
  for (size_t s = 0; s < job->buf[cb].count; ++s) {
    const size_t e = job->buf[cb].sample[s], i = e / n, j = e % n;
    int32_t best = 2147483647;
    for (int k = 0; k < kd; ++k) {
      const int32_t v = a[i * kd + k] + b[(size_t)k * n + j];
      best = v < best ? v : best;
    }
    ref[s] = best;
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, kd);
  kjob_grid(job, (size_t)n / 128, (size_t)n / 128, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- Lomb-Scargle ------------------------------------------------------------------------ */

enum { LS_CURVES = 529 };

static int lomb_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nc = full ? LS_CURVES : 9, ns = full ? 1024 : 64;
  const int nf = 1024;
  const float f0 = 0.2f, df = 9.8f / nf; /* cycles per day, 0.2 to 10 */
  const double pi = 3.14159265358979323846;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "dense.cl", "k_lombscargle_529");
  int tb = kjob_buf(job, (size_t)nc * ns * 4, KB_IN),
      yb = kjob_buf(job, (size_t)nc * ns * 4, KB_IN);
  int pb = kjob_buf(job, (size_t)nc * nf * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, pb, KC_F32, (size_t)nc * nf, K11_SAMPLES, 1e-2, 1e-4);
  if (job->buf[tb].host == NULL || job->buf[yb].host == NULL || ref == NULL) return -1;
  float *t = job->buf[tb].host, *y = job->buf[yb].host;
  for (int c = 0; c < nc; ++c) { /* a variable star: a sinusoid and noise, seen at random times */
    float *tc = t + (size_t)c * ns, *yc = y + (size_t)c * ns;
    const double fs = krng_uniform(&r, 0.5, 8), amp = krng_uniform(&r, 0.2, 2);
    double tt = 0, mean = 0;
    for (int i = 0; i < ns; ++i) {
      tt += krng_uniform(&r, 0, 60.0 / ns);
      tc[i] = (float)tt;
      yc[i] = (float)(amp * sin(2 * pi * fs * tt) + krng_uniform(&r, -1, 1));
      mean += yc[i];
    }
    mean /= ns;
    for (int i = 0; i < ns; ++i) yc[i] = (float)(yc[i] - mean);
  }
  for (size_t s = 0; s < job->buf[pb].count; ++s) {
    const size_t e = job->buf[pb].sample[s], c = e / nf;
    const double f = (double)(f0 + df * (float)(e % nf));
    double cs = 0, sn = 0, c2 = 0, s2 = 0, yy = 0;
    for (int i = 0; i < ns; ++i) {
      const double w = 2 * pi * f * t[c * ns + i], v = y[c * ns + i];
      cs += v * cos(w);
      sn += v * sin(w);
      c2 += cos(2 * w);
      s2 += sin(2 * w);
      yy += v * v;
    }
    const double rr = sqrt(c2 * c2 + s2 * s2), cos2 = c2 / rr, sin2 = s2 / rr;
    const double ct = sqrt(0.5 * (1 + cos2)), st = (sin2 < 0 ? -1 : 1) * sqrt(0.5 * (1 - cos2));
    const double yc = cs * ct + sn * st, ysn = sn * ct - cs * st;
    ref[s] = (float)((yc * yc / (0.5 * (ns + rr)) + ysn * ysn / (0.5 * (ns - rr))) / (2 * yy));
  }
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, pb);
  kjob_arg_i32(job, ns);
  kjob_arg_i32(job, nf);
  kjob_arg_f32(job, f0);
  kjob_arg_f32(job, df);
  kjob_grid(job, (size_t)nc, 1, 1, 1024, 1, 1);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(k11setup_dense) {
  switch (d->param) {
    case K11DN_SYMM:
      return symm_job(job, d, size);
    case K11DN_XGPU:
      return xgpu_job(job, d, size);
    case K11DN_MINPLUS:
      return minplus_job(job, d, size);
    case K11DN_LOMB:
      return lomb_job(job, d, size);
  }
  return -1;
}
