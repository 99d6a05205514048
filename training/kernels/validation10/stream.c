/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream.c: host half of stream.cl (bitshuffle, Pan-Tompkins, geohash,
 * Sobol points, zone maps, polyphase resampling).  Every result is exact:
 * the same integer arithmetic, the same FP64 quantisation, Sobol
 * coordinates of 24 bits that a float holds exactly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation10.h"

enum { U_STRETCH = 1 << 20 };

static size_t stretch(size_t n) { return n < U_STRETCH ? n : U_STRETCH; }

/* ---- bitshuffle -------------------------------------------------------------------------- */

static int bitshuf_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)512 << 20 : (size_t)256 << 10;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "u_bitshuffle_u8");
  int ib = kjob_buf(job, n, KB_IN), ob = ubuf_u32(job, n / 4, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, n / 4, U_SAMPLES, 0, 0);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  uint8_t *in = job->buf[ib].host;
  for (size_t i = 0; i < stretch(n); ++i) /* sensor-like: a slow ramp plus small noise */
    in[i] = (uint8_t)((i / 97) % 64 + krng_below(&r, 8));
  urepeat(in, stretch(n), n);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t w = job->buf[ob].sample[s];
    uint32_t word = 0;
    for (int c = 0; c < 4; ++c) {
      const size_t g = 4 * w + c, o = g % 256;
      const uint8_t *e = in + (g - o) + 8 * (o % 32);
      uint32_t v = 0;
      for (int k = 0; k < 8; ++k) v |= (uint32_t)(e[k] >> (o / 32) & 1) << k;
      word |= v << (8 * c);
    }
    ref[s] = word;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- Pan-Tompkins ------------------------------------------------------------------------ */

enum { PT_WIN = 30, PT_OUT = 16 };

static int pt_x(const int16_t *x, long j) { return j < 0 ? 0 : x[j]; }

static int pt_s(const int16_t *x, long j) {
  if (j < 0) return 0;
  const int dd = (2 * pt_x(x, j) + pt_x(x, j - 1) - pt_x(x, j - 3) - 2 * pt_x(x, j - 4)) / 8;
  return (dd * dd) >> 8;
}

/* A synthetic ECG: a QRS spike every 0.6-1.0 s (360 Hz), P and T waves,
 * baseline wander and noise. */
static void ecg_signal(int16_t *x, size_t n, krng *r) {
  size_t next = 0, beat = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i == next) {
      beat = i;
      next = i + 216 + krng_below(r, 144);
    }
    const double t = (double)(i - beat);
    double v = 1800 * exp(-(t - 40) * (t - 40) / 18.0) - 400 * exp(-(t - 48) * (t - 48) / 10.0);
    v += 250 * exp(-(t - 10) * (t - 10) / 60.0) + 350 * exp(-(t - 120) * (t - 120) / 300.0);
    v += 200 * sin((double)i * 0.002) + krng_uniform(r, -30, 30);
    x[i] = (int16_t)v;
  }
}

static int ecg_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)256 << 20 : (size_t)64 << 10;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "u_pan_tompkins_i16");
  int ib = kjob_buf(job, n * 2, KB_IN), ob = ubuf_u32(job, n / 2, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, n / 2, U_SAMPLES, 0, 0);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  int16_t *x = job->buf[ib].host;
  ecg_signal(x, stretch(n), &r);
  urepeat(x, stretch(n) * 2, n * 2);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    uint32_t word = 0;
    for (int c = 0; c < 2; ++c) {
      const long i = (long)(2 * job->buf[ob].sample[s]) + c;
      int acc = 0;
      for (int k = 0; k < PT_WIN; ++k) acc += pt_s(x, i - k);
      const int v = acc / PT_WIN;
      word |= (uint32_t)(v > 65535 ? 65535 : v) << (16 * c);
    }
    ref[s] = word;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)(n / PT_OUT));
  kjob_grid1(job, n / PT_OUT, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- geohash ----------------------------------------------------------------------------- */

static uint64_t spread26(uint32_t x) {
  uint64_t v = x;
  v = (v | v << 16) & 0x0000FFFF0000FFFFull;
  v = (v | v << 8) & 0x00FF00FF00FF00FFull;
  v = (v | v << 4) & 0x0F0F0F0F0F0F0F0Full;
  v = (v | v << 2) & 0x3333333333333333ull;
  v = (v | v << 1) & 0x5555555555555555ull;
  return v;
}

static uint32_t quant26(double v, double lo, double scale) {
  const double q = (v - lo) * scale;
  return q <= 0.0 ? 0u : q >= 67108863.0 ? 67108863u : (uint32_t)q;
}

static int geohash_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : (size_t)64 << 10;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "u_geohash_encode_f64");
  int ib = kjob_buf(job, n * 16, KB_IN), ob = ubuf_u32(job, n * 2, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, n * 2, U_SAMPLES, 0, 0);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  double *ll = job->buf[ib].host;
  for (size_t i = 0; i < stretch(n); ++i) { /* clustered around a few cities, some anywhere */
    const int any = krng_below(&r, 8) == 0;
    const double clat = any ? 0 : -40 + 10.0 * (double)(i % 9),
                 clon = any ? 0 : -150 + 37.0 * (double)(i % 8);
    ll[2 * i] = any ? krng_uniform(&r, -90, 90) : clat + krng_uniform(&r, -0.5, 0.5);
    ll[2 * i + 1] = any ? krng_uniform(&r, -180, 180) : clon + krng_uniform(&r, -0.5, 0.5);
  }
  urepeat(ll, stretch(n) * 16, n * 16);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], i = e / 2;
    const uint32_t la = quant26(ll[2 * i], -90.0, 67108864.0 / 180.0);
    const uint32_t lo = quant26(ll[2 * i + 1], -180.0, 67108864.0 / 360.0);
    const uint64_t code = spread26(lo) << 1 | spread26(la);
    ref[s] = (uint32_t)(e % 2 ? code >> 32 : code);
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- Sobol points ------------------------------------------------------------------------ */

/* Direction numbers of the first four dimensions (Joe and Kuo's
 * new-joe-kuo-6.21201: dimension 1 is van der Corput's, then s, a, m). */
static void sobol_dirs(uint32_t v[4][32]) {
  static const int S[4] = {0, 1, 2, 3}, A[4] = {0, 0, 1, 1};
  static const uint32_t M[4][3] = {{0}, {1}, {1, 3}, {1, 3, 1}};
  for (int k = 0; k < 32; ++k) v[0][k] = 1u << (31 - k);
  for (int dd = 1; dd < 4; ++dd) {
    const int s = S[dd];
    for (int k = 0; k < 32; ++k) {
      if (k < s) {
        v[dd][k] = M[dd][k] << (31 - k);
        continue;
      }
      uint32_t x = v[dd][k - s] ^ (v[dd][k - s] >> s);
      for (int j = 1; j < s; ++j)
        if (A[dd] >> (s - 1 - j) & 1) x ^= v[dd][k - j];
      v[dd][k] = x;
    }
  }
}

static int sobol_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : (size_t)64 << 10;
  (void)d;
  kjob_init(job, "stream.cl", "u_sobol_points_wr");
  int db = ubuf_u32(job, 128, KB_IN), ob = kjob_buf(job, n * 16, KB_OUT);
  float *ref = uref_sampled(job, ob, KC_F32, n * 4, U_SAMPLES, 0, 0);
  if (db < 0 || ref == NULL) return -1;
  uint32_t(*v)[32] = job->buf[db].host;
  sobol_dirs(v);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    const uint32_t i = (uint32_t)(e / 4), gray = i ^ i >> 1;
    uint32_t x = 0;
    for (int k = 0; k < 32; ++k)
      if (gray >> k & 1) x ^= v[e % 4][k];
    ref[s] = (float)(x >> 8) * (1.0f / 16777216.0f);
  }
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- zone maps --------------------------------------------------------------------------- */

static int zonemap_job(kjob *job, const kdesc *d, ksize size) {
  const int nchunk = 131, chunk = size == KSIZE_FULL ? 1 << 20 : 1 << 10;
  const size_t n = (size_t)nchunk * chunk;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "u_zonemap_minmax_131");
  int ib = ubuf_u32(job, n, KB_IN), ob = ubuf_u32(job, 2 * nchunk, KB_OUT);
  int32_t *ref = kjob_ref(job, ob, KC_U32, 2 * nchunk, 0, 0);
  if (ib < 0 || ref == NULL) return -1;
  int32_t *col = job->buf[ib].host;
  for (size_t i = 0; i < n; ++i) /* a timestamp-like column: rising, with jitter */
    col[i] = (int32_t)(i / 16) + (int32_t)krng_below(&r, 4096) - 2048;
  for (int c = 0; c < nchunk; ++c) {
    int32_t mn = col[(size_t)c * chunk], mx = mn;
    for (int i = 1; i < chunk; ++i) {
      const int32_t v = col[(size_t)c * chunk + i];
      mn = v < mn ? v : mn;
      mx = v > mx ? v : mx;
    }
    ref[2 * c] = mn;
    ref[2 * c + 1] = mx;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, chunk);
  kjob_grid(job, (size_t)nchunk, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- polyphase resampling ---------------------------------------------------------------- */

enum { RS_L = 160, RS_M = 147, RS_T = 32 };

/* The windowed-sinc prototype (Hann window, cutoff 0.9 of the lower
 * Nyquist frequency, gain L) split into RS_L phases of RS_T Q14 taps. */
static void resample_taps(int32_t *h) {
  const int len = RS_L * RS_T;
  const double fc = 0.9 / RS_L, c = (len - 1) / 2.0, pi = 3.14159265358979323846;
  for (int m = 0; m < len; ++m) {
    const double t = m - c, sinc = sin(pi * fc * t) / (pi * fc * t);
    const double w = 0.5 - 0.5 * cos(2 * pi * (m + 0.5) / len);
    h[(m % RS_L) * RS_T + m / RS_L] = (int32_t)lrint(RS_L * fc * sinc * w * 16384.0);
  }
}

static int resample_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nout = size == KSIZE_FULL ? (size_t)32 << 20 : (size_t)64 << 10;
  const size_t nin = nout * RS_M / RS_L + 1;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "u_polyphase_resample_i16");
  int ib = kjob_buf(job, nin * 2, KB_IN), hb = ubuf_u32(job, RS_L * RS_T, KB_IN);
  int ob = ubuf_u32(job, nout / 2, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, nout / 2, U_SAMPLES, 0, 0);
  if (job->buf[ib].host == NULL || hb < 0 || ref == NULL) return -1;
  int16_t *x = job->buf[ib].host;
  int32_t *h = job->buf[hb].host;
  resample_taps(h);
  for (size_t i = 0; i < stretch(nin); ++i) /* music-like: three partials and noise */
    x[i] = (int16_t)(9000 * sin(0.0627 * (double)i) + 5000 * sin(0.1887 * (double)i + 1) +
                     3000 * sin(0.731 * (double)i) + krng_uniform(&r, -1500, 1500));
  urepeat(x, stretch(nin) * 2, nin * 2);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    uint32_t word = 0;
    for (int c = 0; c < 2; ++c) {
      const long j = (long)(2 * job->buf[ob].sample[s]) + c, pos = j * RS_M, n0 = pos / RS_L;
      const int32_t *hp = h + (pos % RS_L) * RS_T;
      int acc = 0;
      for (int k = 0; k < RS_T; ++k) acc += n0 - k < 0 ? 0 : hp[k] * x[n0 - k];
      const int v = (acc + 8192) >> 14;
      word |= (uint32_t)(uint16_t)(int16_t)(v > 32767    ? 32767
                                            : v < -32768 ? -32768
                                                         : v)
              << (16 * c);
    }
    ref[s] = word;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, hb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)nout);
  kjob_grid1(job, nout, 256);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(usetup_stream) {
  switch (d->param) {
    case UST_BITSHUF:
      return bitshuf_job(job, d, size);
    case UST_ECG:
      return ecg_job(job, d, size);
    case UST_GEOHASH:
      return geohash_job(job, d, size);
    case UST_SOBOL:
      return sobol_job(job, d, size);
    case UST_ZONEMAP:
      return zonemap_job(job, d, size);
    case UST_RESAMPLE:
      return resample_job(job, d, size);
  }
  return -1;
}
