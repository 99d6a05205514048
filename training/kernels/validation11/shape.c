/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shape.c: host half of shape.cl (IIR filter bank, FLAC LPC analysis, H.264
 * 4 x 4 transform and quantisation, Boris push, Gaussian elimination's
 * multipliers, AMP unscaling).  The filter bank and the LPC analysis are
 * repeated here operation for operation (the same fma calls, the same
 * summation tree, the recursion in double), so they match to rounding of
 * nothing; the transform is integer arithmetic; the push is checked
 * against double arithmetic, the multipliers and the unscaling against one
 * rounded division or exact power-of-two products. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation11.h"

enum { K11_STRETCH = 1 << 20 };

static size_t stretch(size_t n) { return n < K11_STRETCH ? n : K11_STRETCH; }

/* ---- IIR filter bank --------------------------------------------------------------------- */

enum { SOS_N = 4, SOS_B = 16, SOS_GROUPS = 100, SOS_LOCAL = 128 };

static int sosfilt_job(kjob *job, const kdesc *d, ksize size) {
  const int nch = SOS_GROUPS * SOS_LOCAL, nt = size == KSIZE_FULL ? 8192 : 64;
  const size_t n = (size_t)nch * nt;
  static const double R[SOS_N] = {0.95, 0.93, 0.9, 0.97}, TH[SOS_N] = {0.2, 0.35, 0.5, 0.28};
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "k_sosfilt_biquad_100");
  int xb = kjob_buf(job, n * 4, KB_IN), cb = kjob_buf(job, SOS_N * 5 * 4, KB_IN);
  int yb = kjob_buf(job, n * 4, KB_OUT);
  const int nsamp = 512, ntimes = 4;
  size_t *idx;
  float *ref = kjob_ref_at(job, yb, KC_F32, (size_t)nsamp * ntimes, 1e-6, 1e-6, &idx);
  float *st = malloc((size_t)nt * sizeof *st);
  if (job->buf[xb].host == NULL || job->buf[cb].host == NULL || ref == NULL || st == NULL) {
    free(st);
    return -1;
  }
  float *x = job->buf[xb].host, *c = job->buf[cb].host;
  for (int q = 0; q < SOS_N; ++q) { /* resonators: zeros at +-1, poles at R e^(+-i TH) */
    const float g = (float)((1 - R[q] * R[q]) / 2);
    c[5 * q] = g;
    c[5 * q + 1] = 0.0f;
    c[5 * q + 2] = -g;
    c[5 * q + 3] = (float)(-2 * R[q] * cos(TH[q]));
    c[5 * q + 4] = (float)(R[q] * R[q]);
  }
  for (size_t i = 0; i < stretch(n); ++i) { /* a tone per trace plus noise */
    const size_t t = i / nch, ch = i % nch;
    x[i] = (float)(0.5 * sin(0.3 * (double)t + (double)ch) + krng_uniform(&r, -0.5, 0.5));
  }
  krepeat(x, stretch(n) * 4, n * 4);
  for (int s = 0; s < nsamp; ++s) { /* 512 traces at 4 times, replayed in float */
    const int ch = s * (nch / nsamp);
    float z1[SOS_N] = {0}, z2[SOS_N] = {0};
    for (int t = 0; t < nt; ++t) {
      float v = x[(size_t)t * nch + ch];
      for (int q = 0; q < SOS_N; ++q) {
        const float o = fmaf(c[5 * q], v, z1[q]);
        z1[q] = fmaf(-c[5 * q + 3], o, fmaf(c[5 * q + 1], v, z2[q]));
        z2[q] = fmaf(-c[5 * q + 4], o, c[5 * q + 2] * v);
        v = o;
      }
      st[t] = v;
    }
    for (int k = 0; k < ntimes; ++k) {
      const int t = (k + 1) * (nt / ntimes) - 1;
      idx[k * nsamp + s] = (size_t)t * nch + ch;
      ref[k * nsamp + s] = st[t];
    }
  }
  free(st);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, nch);
  kjob_arg_i32(job, nt);
  kjob_grid(job, SOS_GROUPS, 1, 1, SOS_LOCAL, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- FLAC LPC analysis ------------------------------------------------------------------- */

enum { LPC_N = 4096, LPC_G = 256, LPC_P = 32, LPC_GROUPS = 120 };

/* The kernel's frame f: autocorrelation in its order, then the recursion. */
static void lpc_frame(const int16_t *x, const float *win, double out[LPC_P + 1]) {
  static float w[LPC_N + LPC_P], part[LPC_G];
  double ac[LPC_P + 1];
  for (int i = 0; i < LPC_N; ++i) w[i] = (float)x[i] * win[i];
  for (int i = LPC_N; i < LPC_N + LPC_P; ++i) w[i] = 0.0f;
  for (int l = 0; l <= LPC_P; ++l) {
    for (int t = 0; t < LPC_G; ++t) {
      float p = 0.0f;
      for (int k = 0; k < 16; ++k) p = fmaf(w[16 * t + k], w[16 * t + k + l], p);
      part[t] = p;
    }
    for (int s = LPC_G / 2; s > 0; s >>= 1)
      for (int t = 0; t < s; ++t) part[t] += part[t + s];
    ac[l] = (double)part[0];
  }
  double lpc[LPC_P], err = ac[0];
  for (int i = 0; i < LPC_P; ++i) {
    double r = -ac[i + 1];
    for (int j = 0; j < i; ++j) r = fma(-lpc[j], ac[i - j], r);
    r /= err;
    lpc[i] = r;
    int j = 0;
    for (; j < (i >> 1); ++j) {
      const double tmp = lpc[j];
      lpc[j] = fma(r, lpc[i - 1 - j], tmp);
      lpc[i - 1 - j] = fma(r, tmp, lpc[i - 1 - j]);
    }
    if (i & 1) lpc[j] = fma(lpc[j], r, lpc[j]);
    err *= fma(-r, r, 1.0);
  }
  for (int j = 0; j < LPC_P; ++j) out[j] = -lpc[j];
  out[LPC_P] = err;
}

static int lpc_job(kjob *job, const kdesc *d, ksize size) {
  const int per = size == KSIZE_FULL ? 64 : 1, nf = LPC_GROUPS * per, every = per > 1 ? 16 : 8;
  const size_t n = (size_t)nf * LPC_N;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "k_flac_lpc_120");
  int pb = kjob_buf(job, n * 2, KB_IN), wb = kjob_buf(job, LPC_N * 4, KB_IN);
  int ob = kjob_buf(job, (size_t)nf * (LPC_P + 1) * 8, KB_OUT);
  const int nchk = (nf + every - 1) / every;
  size_t *idx;
  double *ref = kjob_ref_at(job, ob, KC_F64, (size_t)nchk * (LPC_P + 1), 1e-9, 1e-9, &idx);
  if (job->buf[pb].host == NULL || job->buf[wb].host == NULL || ref == NULL) return -1;
  int16_t *pcm = job->buf[pb].host;
  float *win = job->buf[wb].host;
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < LPC_N; ++i) { /* libFLAC's default apodization, tukey(0.5) */
    const double a = 0.5, u = (double)i / (LPC_N - 1);
    win[i] = (float)(u < a / 2       ? 0.5 * (1 - cos(2 * pi * u / a))
                     : u > 1 - a / 2 ? 0.5 * (1 - cos(2 * pi * (1 - u) / a))
                                     : 1.0);
  }
  for (size_t i = 0; i < stretch(n); ++i) { /* music-like: partials that drift, and noise */
    const double t = (double)i;
    pcm[i] = (int16_t)(6000 * sin(0.031 * t + 0.5 * sin(1e-4 * t)) + 3000 * sin(0.117 * t) +
                       1500 * sin(0.402 * t) + krng_uniform(&r, -800, 800));
  }
  krepeat(pcm, stretch(n) * 2, n * 2);
  for (int c = 0; c < nchk; ++c) {
    const int f = c * every;
    lpc_frame(pcm + (size_t)f * LPC_N, win, ref + (size_t)c * (LPC_P + 1));
    for (int k = 0; k <= LPC_P; ++k) idx[c * (LPC_P + 1) + k] = (size_t)f * (LPC_P + 1) + k;
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, per);
  kjob_grid(job, LPC_GROUPS, 1, 1, LPC_G, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- H.264 4 x 4 transform and quantisation ---------------------------------------------- */

/* x264's quant_mf for the positions (0,0)-like, (1,1)-like and the rest. */
static const int H264_MF[6][3] = {{13107, 5243, 8066}, {11916, 4660, 7490}, {10082, 4194, 6554},
                                  {9362, 3647, 5825},  {8192, 3355, 5243},  {7282, 2893, 4559}};

/* The 16 levels of the 4 x 4 block at (x, y) of frame fr, macroblock g. */
static void h264_block(const uint8_t *src, const uint8_t *pred, int w, int h, int fr, int x, int y,
                       int g, int lv[16]) {
  static const int CF[4][4] = {{1, 1, 1, 1}, {2, 1, -1, -2}, {1, -1, -1, 1}, {1, -2, 2, -1}};
  int dd[4][4], t[4][4];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      const size_t at = ((size_t)fr * h + y + r) * w + x + c;
      dd[r][c] = src[at] - pred[at];
    }
  for (int r = 0; r < 4; ++r) /* t = d Cf^T */
    for (int c = 0; c < 4; ++c) {
      t[r][c] = 0;
      for (int k = 0; k < 4; ++k) t[r][c] += dd[r][k] * CF[c][k];
    }
  const int qp = 22 + (g * 7) % 9, qbits = 15 + qp / 6, f = (1 << qbits) / 6;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      int v = 0;
      for (int k = 0; k < 4; ++k) v += CF[r][k] * t[k][c];
      const int cls = r % 2 == 0 && c % 2 == 0 ? 0 : r % 2 == 1 && c % 2 == 1 ? 1 : 2;
      const int q = (abs(v) * H264_MF[qp % 6][cls] + f) >> qbits;
      lv[r * 4 + c] = v < 0 ? -q : q;
    }
}

static int h264_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 1920 : 64, h = full ? 1088 : 32;
  const int frames = full ? 64 : 2, nmb = (w / 16) * (h / 16) * frames;
  const size_t np = (size_t)w * h * frames, plane = (size_t)w * h;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "k_h264_dct4x4_b16");
  int sb = kjob_buf(job, np, KB_IN), pb = kjob_buf(job, np, KB_IN);
  int mb = kjob_buf_u32(job, 18, KB_IN), ob = kjob_buf_u32(job, (size_t)nmb * 16 * 8, KB_OUT);
  uint32_t *ref = kjob_ref_sampled(job, ob, KC_U32, (size_t)nmb * 16 * 8, K11_SAMPLES, 0, 0);
  if (job->buf[sb].host == NULL || job->buf[pb].host == NULL || mb < 0 || ref == NULL) return -1;
  uint8_t *src = job->buf[sb].host, *pred = job->buf[pb].host;
  memcpy(job->buf[mb].host, H264_MF, sizeof H264_MF);
  for (size_t i = 0; i < plane; ++i) { /* a textured picture and a motion-compensated guess */
    const double x = (double)(i % w), y = (double)(i / w);
    const double v = 128 + 60 * sin(x * 0.05) * cos(y * 0.037) + krng_uniform(&r, -20, 20);
    src[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    const int p = src[i] + (int)krng_below(&r, 25) - 12;
    pred[i] = (uint8_t)(p < 0 ? 0 : p > 255 ? 255 : p);
  }
  krepeat(src, plane, np);
  krepeat(pred, plane, np);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], blk = e / 8, g = blk / 16, b = blk % 16;
    const int mbw = w / 16, mbh = h / 16;
    const int mbx = (int)(g % mbw), mby = (int)(g / mbw % mbh), fr = (int)(g / (mbw * mbh));
    int lv[16];
    h264_block(src, pred, w, h, fr, mbx * 16 + (int)(b % 4) * 4, mby * 16 + (int)(b / 4) * 4,
               (int)g, lv);
    const int k = (int)(e % 8) * 2;
    ref[s] = ((uint32_t)lv[k] & 0xFFFFu) | ((uint32_t)lv[k + 1] & 0xFFFFu) << 16;
  }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, mb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_grid(job, (size_t)nmb, 1, 1, 16, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- Boris push -------------------------------------------------------------------------- */

static int boris_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)16 << 20 : 4096;
  const double e0 = 0.5, b0 = 0.8, bz = 1.2, k = 0.7, qm = -1.0, dt = 0.05, h = 0.5 * qm * dt;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "k_boris_push_b32");
  int ib = kjob_buf(job, 6 * n * 4, KB_IN), ob = kjob_buf(job, 6 * n * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, ob, KC_F32, 6 * n, K11_SAMPLES, 2e-5, 2e-5);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  float *in = job->buf[ib].host;
  const size_t len = stretch(n);
  for (int c = 0; c < 6; ++c) { /* positions in [0, 100), momenta in [-1, 1) */
    float *a = in + (size_t)c * n;
    kfill_f32(a, len, &r, c < 3 ? 0 : -1, c < 3 ? 100 : 1);
    krepeat(a, len * 4, n * 4);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], c = e / n, i = e % n;
    const double z = in[2 * n + i], ck = cos(k * z), ex = e0 * ck, by = b0 * ck;
    const double mx = in[3 * n + i] + h * ex, my = in[4 * n + i], mz = in[5 * n + i];
    const double g = sqrt(1 + mx * mx + my * my + mz * mz), ty = h * by / g, tz = h * bz / g;
    const double sc = 2 / (1 + ty * ty + tz * tz);
    const double qx = mx + (my * tz - mz * ty), qy = my - mx * tz, qz = mz + mx * ty;
    const double v[3] = {mx + sc * (qy * tz - qz * ty) + h * ex, my - sc * qx * tz,
                         mz + sc * qx * ty};
    const double f = dt / sqrt(1 + v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    ref[s] = (float)(c < 3 ? in[c * n + i] + v[c] * f : v[c - 3]);
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_arg_f32(job, (float)e0);
  kjob_arg_f32(job, (float)b0);
  kjob_arg_f32(job, (float)bz);
  kjob_arg_f32(job, (float)k);
  kjob_arg_f32(job, (float)h);
  kjob_arg_f32(job, (float)dt);
  kjob_grid1(job, n, 32);
  kjob_sampleable(job);
  return 0;
}

/* ---- Gaussian elimination, Fan1 ---------------------------------------------------------- */

static int fan1_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 2048 : 256, t = n / 4, rows = n - t - 1;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "k_gauss_fan1_tiny");
  int ab = kjob_buf(job, (size_t)n * n * 4, KB_IN), mb = kjob_buf(job, (size_t)n * n * 4, KB_OUT);
  size_t *idx;
  float *ref = kjob_ref_at(job, mb, KC_F32, (size_t)rows, 1e-6, 0, &idx);
  if (job->buf[ab].host == NULL || ref == NULL) return -1;
  float *a = job->buf[ab].host;
  kfill_f32(a, (size_t)n * n, &r, -1, 1);
  for (int i = 0; i < n; ++i) a[(size_t)i * n + i] = (float)(n / 8 + i % 7); /* dominant */
  for (int k = 0; k < rows; ++k) {
    const size_t row = (size_t)(t + 1 + k);
    idx[k] = row * n + t;
    ref[k] = a[row * n + t] / a[(size_t)t * n + t];
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, mb);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, t);
  kjob_grid1(job, (size_t)rows, 512);
  return 0;
}

/* ---- AMP unscaling ----------------------------------------------------------------------- */

enum { AMP_CHUNK = 2048, AMP_TENSORS = 24 };

static int amp_job(kjob *job, const kdesc *d, ksize size) {
  /* A small recurrent model's gradients: weights, biases, an embedding. */
  static const int SIZES[AMP_TENSORS] = {16384, 128,  65536, 65536, 512,  512, 65536, 65536,
                                         512,   512,  32768, 256,   4096, 64,  8192,  8192,
                                         1000,  1000, 3000,  300,   777,  12,  20000, 40};
  int total = 0, nblk = 0;
  (void)size;
  for (int t = 0; t < AMP_TENSORS; ++t) {
    total += SIZES[t];
    nblk += (SIZES[t] + AMP_CHUNK - 1) / AMP_CHUNK;
  }
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shape.cl", "k_amp_unscale_tiny");
  int gb = kjob_buf(job, (size_t)total * 4, KB_INOUT);
  int tb = kjob_buf_u32(job, 2 * AMP_TENSORS, KB_IN),
      bb = kjob_buf_u32(job, 2 * (size_t)nblk, KB_IN);
  int fb = kjob_buf_u32(job, 1, KB_INOUT);
  const int inf_at = total / 3; /* one overflowed gradient */
  size_t *idx;
  float *ref = kjob_ref_at(job, gb, KC_F32, (size_t)total - 1, 0, 0, &idx);
  float *fref = kjob_ref(job, fb, KC_F32, 1, 0, 0);
  if (job->buf[gb].host == NULL || tb < 0 || bb < 0 || fb < 0 || ref == NULL || fref == NULL)
    return -1;
  float *g = job->buf[gb].host;
  int32_t *tens = job->buf[tb].host, *blk = job->buf[bb].host;
  for (int t = 0, off = 0, b = 0; t < AMP_TENSORS; off += SIZES[t], ++t) {
    tens[2 * t] = off;
    tens[2 * t + 1] = SIZES[t];
    for (int c = 0; c * AMP_CHUNK < SIZES[t]; ++c, ++b) {
      blk[2 * b] = t;
      blk[2 * b + 1] = c;
    }
  }
  for (int i = 0; i < total; ++i) /* scaled by 2^16: up to about 6e4 */
    g[i] = (float)(ldexp(krng_uniform(&r, -1, 1), 16 - (int)krng_below(&r, 12)));
  g[inf_at] = INFINITY;
  for (int i = 0, k = 0; i < total; ++i)
    if (i != inf_at) {
      idx[k] = (size_t)i;
      ref[k++] = g[i] * (1.0f / 65536.0f);
    }
  fref[0] = 1.0f;
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, fb);
  kjob_arg_f32(job, 1.0f / 65536.0f);
  kjob_grid(job, (size_t)nblk, 1, 1, 256, 1, 1);
  return 0;
}

SP_SETUP(k11setup_shape) {
  switch (d->param) {
    case K11SH_SOSFILT:
      return sosfilt_job(job, d, size);
    case K11SH_LPC:
      return lpc_job(job, d, size);
    case K11SH_H264:
      return h264_job(job, d, size);
    case K11SH_BORIS:
      return boris_job(job, d, size);
    case K11SH_FAN1:
      return fan1_job(job, d, size);
    case K11SH_AMP:
      return amp_job(job, d, size);
  }
  return -1;
}
