/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shape.c: host half of shape.cl (Goertzel detector, HMM forward pass,
 * Adler-32 of files, census transform, slab test, spline evaluation,
 * equalisation LUTs).  The Goertzel recursions, the slab test (the same
 * float operations) and the HMM's scaled recursion (the same fmaf calls and
 * summation order) are repeated here; the checksums, signatures and LUTs
 * are integers; the HMM's log-likelihood (float logs) and the spline
 * (double here) are compared within tolerances. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation12.h"

/* ---- Goertzel ---------------------------------------------------------------------------- */

enum { GZ_K = 16, GZ_GROUPS = 96, GZ_LOCAL = 256 };

static int goertzel_job(kjob *job, const kdesc *d, ksize size) {
  const int nch = GZ_GROUPS * GZ_LOCAL, nt = size == KSIZE_FULL ? 4096 : 256;
  const size_t n = (size_t)nch * nt, len = m12_stretch(n);
  static const double TONE[8] = {697, 770, 852, 941, 1209, 1336, 1477, 1633};
  const double fs = 8000, pi = 3.14159265358979323846;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "m_goertzel_dtmf_96");
  int xb = kjob_buf(job, n * 4, KB_IN), cb = kjob_buf(job, GZ_K * 4, KB_IN);
  int pb = kjob_buf(job, (size_t)GZ_K * nch * 4, KB_OUT);
  const int nsamp = 256;
  size_t *idx;
  float *ref = kjob_ref_at(job, pb, KC_F32, (size_t)GZ_K * nsamp, 1e-6, 1e-3, &idx);
  if (job->buf[xb].host == NULL || job->buf[cb].host == NULL || ref == NULL) return -1;
  float *x = job->buf[xb].host, *c = job->buf[cb].host;
  for (int k = 0; k < GZ_K; ++k)
    c[k] = (float)(2 * cos(2 * pi * TONE[k % 8] * (k < 8 ? 1 : 2) / fs));
  /* Each channel a key (a low and a high tone) in noise; the stretch holds
   * whole time steps, so that repeating it keeps the channels' tones. */
  const size_t lenr = len / nch * nch;
  for (size_t i = 0; i < lenr; ++i) {
    const size_t t = i / nch, ch = i % nch;
    const double lo = TONE[ch % 4], hi = TONE[4 + ch / 4 % 4];
    x[i] = (float)(0.4 * sin(2 * pi * lo * (double)t / fs) +
                   0.3 * sin(2 * pi * hi * (double)t / fs) + krng_uniform(&r, -0.2, 0.2));
  }
  krepeat(x, lenr * 4, n * 4);
  for (int s = 0; s < nsamp; ++s) { /* 256 channels, all tones, replayed in float */
    const int ch = s * (nch / nsamp) + s % 7;
    float s1[GZ_K] = {0}, s2[GZ_K] = {0};
    for (int t = 0; t < nt; ++t) {
      const float v = x[(size_t)t * nch + ch];
      for (int k = 0; k < GZ_K; ++k) {
        const float s0 = fmaf(c[k], s1[k], v - s2[k]);
        s2[k] = s1[k];
        s1[k] = s0;
      }
    }
    for (int k = 0; k < GZ_K; ++k) {
      idx[k * nsamp + s] = (size_t)k * nch + ch;
      ref[k * nsamp + s] = fmaf(-c[k] * s1[k], s2[k], fmaf(s1[k], s1[k], s2[k] * s2[k]));
    }
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, pb);
  kjob_arg_i32(job, nch);
  kjob_arg_i32(job, nt);
  kjob_grid(job, GZ_GROUPS, 1, 1, GZ_LOCAL, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- HMM forward ------------------------------------------------------------------------- */

enum { HM_S = 64, HM_O = 16, HM_SEQ = 112, HM_EVERY = 16 };

static int hmm_job(kjob *job, const kdesc *d, ksize size) {
  const int nt = size == KSIZE_FULL ? 4096 : 128;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "m_hmm_forward_112");
  int ab = kjob_buf(job, HM_S * HM_S * 4, KB_IN), bb = kjob_buf(job, HM_S * HM_O * 4, KB_IN);
  int pb = kjob_buf(job, HM_S * 4, KB_IN), ob = kjob_buf(job, (size_t)HM_SEQ * nt, KB_IN);
  int lb = kjob_buf(job, HM_SEQ * 4, KB_OUT), alb = kjob_buf(job, HM_SEQ * HM_S * 4, KB_OUT);
  const int nchk = HM_SEQ / HM_EVERY;
  size_t *lidx, *aidx;
  float *lref = kjob_ref_at(job, lb, KC_F32, nchk, 1e-5, 0, &lidx);
  float *aref = kjob_ref_at(job, alb, KC_F32, (size_t)nchk * HM_S, 1e-4, 1e-7, &aidx);
  if (job->buf[ab].host == NULL || job->buf[bb].host == NULL || job->buf[pb].host == NULL ||
      job->buf[ob].host == NULL || lref == NULL || aref == NULL)
    return -1;
  float *a = job->buf[ab].host, *b = job->buf[bb].host, *pi = job->buf[pb].host;
  uint8_t *obs = job->buf[ob].host;
  /* A sticky chain (most mass near the diagonal), peaked emissions. */
  for (int i = 0; i < HM_S; ++i) {
    double sum = 0, w[HM_S];
    for (int j = 0; j < HM_S; ++j) {
      const int dd = abs(i - j);
      w[j] = (dd == 0 ? 20 : dd < 3 ? 3 : 0.1) * krng_uniform(&r, 0.5, 1.5);
      sum += w[j];
    }
    for (int j = 0; j < HM_S; ++j) a[i * HM_S + j] = (float)(w[j] / sum);
    double e[HM_O], es = 0;
    for (int o = 0; o < HM_O; ++o) {
      e[o] = (o == i % HM_O ? 10 : 1) * krng_uniform(&r, 0.5, 1.5);
      es += e[o];
    }
    for (int o = 0; o < HM_O; ++o) b[i * HM_O + o] = (float)(e[o] / es);
    pi[i] = 1.0f / HM_S;
  }
  for (int s = 0; s < HM_SEQ; ++s) { /* sequences drawn from the model */
    int st = (int)krng_below(&r, HM_S);
    for (int t = 0; t < nt; ++t) {
      double u = krng_uniform(&r, 0, 1);
      int o = 0;
      while (o < HM_O - 1 && (u -= b[st * HM_O + o]) > 0) ++o;
      obs[(size_t)s * nt + t] = (uint8_t)o;
      u = krng_uniform(&r, 0, 1);
      int nx = 0;
      while (nx < HM_S - 1 && (u -= a[st * HM_S + nx]) > 0) ++nx;
      st = nx;
    }
  }
  for (int q = 0; q < nchk; ++q) { /* every 16th sequence, in the kernel's float order */
    const int s = q * HM_EVERY + q % 5;
    const uint8_t *o = obs + (size_t)s * nt;
    float al[HM_S], nx[HM_S], c = 0;
    for (int j = 0; j < HM_S; ++j) nx[j] = pi[j] * b[j * HM_O + o[0]];
    for (int k = 0; k < HM_S; ++k) c += nx[k];
    for (int j = 0; j < HM_S; ++j) al[j] = nx[j] / c;
    double lsum = log(c);
    for (int t = 1; t < nt; ++t) {
      for (int j = 0; j < HM_S; ++j) {
        float acc = 0;
        for (int i = 0; i < HM_S; ++i) acc = fmaf(al[i], a[i * HM_S + j], acc);
        nx[j] = acc * b[j * HM_O + o[t]];
      }
      c = 0;
      for (int k = 0; k < HM_S; ++k) c += nx[k];
      for (int j = 0; j < HM_S; ++j) al[j] = nx[j] / c;
      lsum += log(c);
    }
    lidx[q] = (size_t)s;
    lref[q] = (float)lsum;
    for (int j = 0; j < HM_S; ++j) {
      aidx[q * HM_S + j] = (size_t)s * HM_S + j;
      aref[q * HM_S + j] = al[j];
    }
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, alb);
  kjob_arg_i32(job, nt);
  kjob_grid(job, HM_SEQ, 1, 1, HM_S, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- Adler-32 ---------------------------------------------------------------------------- */

enum { AD_FILES = 136 };

/* zlib's adler32, the modulo taken every 5552 bytes (zlib's NMAX). */
static uint32_t adler32(const uint8_t *p, size_t n) {
  uint32_t a = 1, b = 0;
  while (n > 0) {
    const size_t k = n < 5552 ? n : 5552;
    for (size_t i = 0; i < k; ++i) {
      a += p[i];
      b += a;
    }
    a %= 65521u;
    b %= 65521u;
    p += k;
    n -= k;
  }
  return b << 16 | a;
}

static int adler_job(kjob *job, const kdesc *d, ksize size) {
  const size_t words = size == KSIZE_FULL ? (size_t)1 << 20 : 4096, n = AD_FILES * words;
  const size_t len = m12_stretch(n) + 4099; /* an odd period: every file differs */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "m_adler32_files_136");
  int db = kjob_buf_u32(job, n, KB_IN), ob = kjob_buf_u32(job, AD_FILES, KB_OUT);
  uint32_t *ref = kjob_ref(job, ob, KC_U32, AD_FILES, 0, 0);
  if (db < 0 || ref == NULL) return -1;
  uint8_t *bytes = job->buf[db].host;
  const size_t lb = (len < n ? len : n) * 4;
  for (size_t i = 0; i < lb; ++i) /* text-like bytes: mostly printable, some runs of zeros */
    bytes[i] = (uint8_t)(i / 4096 % 9 == 0 ? 0 : 32 + krng_below(&r, 95));
  krepeat(bytes, lb, n * 4);
  for (int f = 0; f < AD_FILES; ++f) ref[f] = adler32(bytes + (size_t)f * words * 4, words * 4);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)words);
  kjob_grid(job, AD_FILES, 1, 1, 1024, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- census transform -------------------------------------------------------------------- */

static int census_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 3840 : 128, h = full ? 2160 : 64;
  const int frames = full ? 16 : 2;
  const size_t plane = (size_t)w * h, n = plane * frames, len = plane + 12345;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "m_census5x5_b16");
  int ib = kjob_buf(job, n + 12345, KB_IN), ob = kjob_buf_u32(job, n, KB_OUT);
  uint32_t *ref = kjob_ref_sampled(job, ob, KC_U32, n, M12_SAMPLES, 0, 0);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  uint8_t *img = job->buf[ib].host;
  for (size_t i = 0; i < len; ++i) { /* a textured scene: ties with the centre happen too */
    const double x = (double)(i % w), y = (double)(i / w);
    const double v = 128 + 50 * sin(x * 0.07) * cos(y * 0.05) + krng_uniform(&r, -12, 12);
    img[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
  }
  krepeat(img, len, n + 12345);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], f = e / plane;
    const int x = (int)(e % w), y = (int)(e / w % h);
    const uint8_t *fr = img + f * plane;
    const int cv = fr[(size_t)y * w + x];
    uint32_t sig = 0;
    int k = 0;
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx) {
        if (dx == 0 && dy == 0) continue;
        const int yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
        const int xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
        sig |= (uint32_t)(fr[(size_t)yy * w + xx] < cv) << k++;
      }
    ref[s] = sig;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_grid(job, (size_t)w / 16, (size_t)h * frames, 1, 16, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- slab test --------------------------------------------------------------------------- */

enum { SL_B = 16 };

static int slab_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)16 << 20 : 4096, len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "m_slab_ray_aabb_b32");
  int rb = kjob_buf(job, 6 * n * 4, KB_IN), bb = kjob_buf(job, SL_B * 6 * 4, KB_IN);
  int hb = kjob_buf_u32(job, n, KB_OUT), tb = kjob_buf(job, n * 4, KB_OUT);
  uint32_t *href = kjob_ref_sampled(job, hb, KC_U32, n, M12_SAMPLES, 0, 0);
  float *tref = kjob_ref_sampled(job, tb, KC_F32, n, M12_SAMPLES, 1e-6, 0);
  if (job->buf[rb].host == NULL || job->buf[bb].host == NULL || href == NULL || tref == NULL)
    return -1;
  float *ray = job->buf[rb].host, *box = job->buf[bb].host;
  for (int b = 0; b < SL_B; ++b)
    for (int k = 0; k < 3; ++k) {
      const float lo = (float)krng_uniform(&r, -8, 6);
      box[6 * b + k] = lo;
      box[6 * b + 3 + k] = lo + (float)krng_uniform(&r, 1, 4);
    }
  for (size_t i = 0; i < len; ++i) { /* from a shell around the boxes, aimed near the centre */
    double o[3], dd[3], nn = 0;
    for (int k = 0; k < 3; ++k) {
      o[k] = krng_uniform(&r, -12, 12);
      dd[k] = krng_uniform(&r, -3, 3) - o[k];
      nn += dd[k] * dd[k];
    }
    for (int k = 0; k < 3; ++k) {
      ray[(size_t)k * n + i] = (float)o[k];
      ray[(size_t)(3 + k) * n + i] = (float)(dd[k] / sqrt(nn));
    }
  }
  for (int k = 0; k < 6; ++k) krepeat(ray + (size_t)k * n, len * 4, n * 4);
  for (size_t s = 0; s < job->buf[hb].count; ++s) {
    const size_t i = job->buf[hb].sample[s];
    const float ox = ray[i], oy = ray[n + i], oz = ray[2 * n + i];
    const float ix = 1.0f / ray[3 * n + i], iy = 1.0f / ray[4 * n + i], iz = 1.0f / ray[5 * n + i];
    float best = 3.0e38f;
    int id = -1;
    for (int b = 0; b < SL_B; ++b) {
      const float t1x = (box[6 * b] - ox) * ix, t2x = (box[6 * b + 3] - ox) * ix;
      const float t1y = (box[6 * b + 1] - oy) * iy, t2y = (box[6 * b + 4] - oy) * iy;
      const float t1z = (box[6 * b + 2] - oz) * iz, t2z = (box[6 * b + 5] - oz) * iz;
      const float tmin = fmaxf(fmaxf(fminf(t1x, t2x), fminf(t1y, t2y)), fminf(t1z, t2z));
      const float tmax = fminf(fminf(fmaxf(t1x, t2x), fmaxf(t1y, t2y)), fmaxf(t1z, t2z));
      const float te = fmaxf(tmin, 0.0f);
      if (tmax >= te && te < best) {
        best = te;
        id = b;
      }
    }
    href[s] = (uint32_t)id;
    tref[s] = id < 0 ? -1.0f : best;
  }
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, hb);
  kjob_arg_buf(job, tb);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 32);
  kjob_sampleable(job);
  return 0;
}

/* ---- spline evaluation ------------------------------------------------------------------- */

enum { SPL_N = 64, SPL_Q = 6144 };

static int spline_job(kjob *job, const kdesc *d, ksize size) {
  (void)size; /* tiny at both sizes */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "m_spline_eval_tiny");
  int xb = kjob_buf(job, SPL_N * 4, KB_IN), yb = kjob_buf(job, SPL_N * 4, KB_IN);
  int y2b = kjob_buf(job, SPL_N * 4, KB_IN), qb = kjob_buf(job, SPL_Q * 4, KB_IN);
  int ob = kjob_buf(job, SPL_Q * 4, KB_OUT);
  float *ref = kjob_ref(job, ob, KC_F32, SPL_Q, 1e-5, 1e-5);
  if (job->buf[xb].host == NULL || job->buf[yb].host == NULL || job->buf[y2b].host == NULL ||
      job->buf[qb].host == NULL || ref == NULL)
    return -1;
  float *xa = job->buf[xb].host, *ya = job->buf[yb].host, *y2 = job->buf[y2b].host,
        *xq = job->buf[qb].host;
  double xs = 0, u[SPL_N], yy[SPL_N];
  for (int k = 0; k < SPL_N; ++k) { /* uneven knots of a damped oscillation */
    xs += krng_uniform(&r, 0.2, 1.0);
    xa[k] = (float)xs;
    ya[k] = (float)(exp(-0.05 * xs) * sin(xs));
  }
  yy[0] = u[0] = 0; /* Numerical Recipes' spline, natural ends */
  for (int k = 1; k < SPL_N - 1; ++k) {
    const double sig = (xa[k] - xa[k - 1]) / (double)(xa[k + 1] - xa[k - 1]);
    const double p = sig * yy[k - 1] + 2;
    yy[k] = (sig - 1) / p;
    u[k] = (ya[k + 1] - ya[k]) / (double)(xa[k + 1] - xa[k]) -
           (ya[k] - ya[k - 1]) / (double)(xa[k] - xa[k - 1]);
    u[k] = (6 * u[k] / (xa[k + 1] - xa[k - 1]) - sig * u[k - 1]) / p;
  }
  yy[SPL_N - 1] = 0;
  for (int k = SPL_N - 2; k >= 0; --k) yy[k] = yy[k] * yy[k + 1] + u[k];
  for (int k = 0; k < SPL_N; ++k) y2[k] = (float)yy[k];
  for (int i = 0; i < SPL_Q; ++i) {
    xq[i] = (float)krng_uniform(&r, xa[0], xa[SPL_N - 1]);
    int lo = 0, hi = SPL_N - 1;
    while (hi - lo > 1) {
      const int k = (hi + lo) / 2;
      if (xa[k] > xq[i])
        hi = k;
      else
        lo = k;
    }
    const double h = xa[hi] - xa[lo], a = (xa[hi] - xq[i]) / h, b = (xq[i] - xa[lo]) / h;
    ref[i] = (float)(a * ya[lo] + b * ya[hi] +
                     ((a * a * a - a) * y2[lo] + (b * b * b - b) * y2[hi]) * (h * h) / 6);
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, y2b);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, SPL_Q);
  kjob_grid1(job, SPL_Q, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- equalisation LUTs ------------------------------------------------------------------- */

enum { EQ_H = 48 };

static int equalize_job(kjob *job, const kdesc *d, ksize size) {
  (void)size; /* tiny at both sizes */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "m_equalize_lut_tiny");
  int hb = kjob_buf_u32(job, EQ_H * 256, KB_IN), lb = kjob_buf_u32(job, EQ_H * 256, KB_OUT);
  uint32_t *ref = kjob_ref(job, lb, KC_U32, EQ_H * 256, 0, 0);
  if (hb < 0 || ref == NULL) return -1;
  uint32_t *hist = job->buf[hb].host;
  for (int g = 0; g < EQ_H; ++g) { /* 1M-pixel channels: a dark image, a clipped one, ... */
    uint32_t *hh = hist + g * 256;
    const double mu = 40 + 170 * (g % 6) / 5.0, sd = 10 + 6 * (g % 5);
    for (int s = 0; s < 65536; ++s) {
      const double v =
          mu + sd * (krng_uniform(&r, -1, 1) + krng_uniform(&r, -1, 1) + krng_uniform(&r, -1, 1));
      hh[v < 0 ? 0 : v > 255 ? 255 : (int)v] += 16;
    }
    uint32_t cdf = 0, cmin = 0;
    const uint32_t total = 1u << 20;
    for (int v = 0; v < 256; ++v) {
      cdf += hh[v];
      if (cmin == 0) cmin = cdf;
      ref[g * 256 + v] = cdf <= cmin || total == cmin
                             ? 0
                             : ((cdf - cmin) * 255u + (total - cmin) / 2) / (total - cmin);
    }
  }
  kjob_arg_buf(job, hb);
  kjob_arg_buf(job, lb);
  kjob_grid(job, EQ_H, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(m12setup_shape) {
  switch (d->param) {
    case M12SH_GOERTZEL:
      return goertzel_job(job, d, size);
    case M12SH_HMM:
      return hmm_job(job, d, size);
    case M12SH_ADLER:
      return adler_job(job, d, size);
    case M12SH_CENSUS:
      return census_job(job, d, size);
    case M12SH_SLAB:
      return slab_job(job, d, size);
    case M12SH_SPLINE:
      return spline_job(job, d, size);
    case M12SH_EQUALIZE:
      return equalize_job(job, d, size);
  }
  return -1;
}
