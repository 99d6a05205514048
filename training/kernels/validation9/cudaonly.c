/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.c: host half of cudaonly.cu (CUDA only: ORB matching on b1
 * tensor cores, a TF32 4-qubit gate, half2 flow warping, FP8 quantisation,
 * k-mer counting, SGM).  Matches (popcounts), k-mer counts and disparities
 * are exact; the gate's entries and amplitudes are dyadic numbers that TF32
 * holds exactly and whose products and sums fp32 holds exactly, so the new
 * state is exact too; the warped features are replayed with every half
 * operation rounded as the device rounds it, and the FP8 codes by a host
 * E4M3 rounding (to nearest even, saturating), so both are exact. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation9.h"

/* ---- 16-bit and 8-bit floats ------------------------------------------------------------- */

static double half_value(uint16_t h) {
  const int e = h >> 10 & 31, m = h & 1023;
  const double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
  return h & 0x8000 ? -v : v;
}

/* v rounded to the nearest half (ties to even); |v| < 65520. */
static uint16_t half_round(double v) {
  const uint16_t sign = signbit(v) ? 0x8000 : 0;
  const double a = fabs(v);
  if (a < ldexp(1, -14)) return (uint16_t)(sign | (uint16_t)nearbyint(a * 16777216.0));
  int e;
  frexp(a, &e); /* a = f 2^e, f in [0.5, 1) */
  const double q = nearbyint(ldexp(a, 11 - e));
  int be = e - 1 + 15, m = (int)q - 1024;
  if (q >= 2048) {
    ++be;
    m = 0;
  }
  return (uint16_t)(sign | be << 10 | m);
}

/* f rounded to E4M3 (ties to even), saturating at 448. */
static uint8_t e4m3_round(float f) {
  const uint8_t sign = signbit(f) ? 0x80 : 0;
  const double a = fabs((double)f);
  if (a >= 448) return sign | 0x7E;
  if (a < ldexp(1, -6)) return sign | (uint8_t)nearbyint(a * 512); /* subnormals, step 2^-9 */
  int e;
  frexp(a, &e); /* a = f 2^e, f in [0.5, 1): the exponent is e - 1 */
  int q = (int)nearbyint(ldexp(a, 4 - e)), be = e - 1 + 7; /* q in [8, 16] */
  if (q == 16) {
    q = 8;
    ++be;
  }
  return (uint8_t)(sign | be << 3 | (q - 8));
}

/* ---- ORB matching ------------------------------------------------------------------------ */

static int popc32(uint32_t v) {
  v = v - (v >> 1 & 0x55555555u);
  v = (v & 0x33333333u) + (v >> 2 & 0x33333333u);
  return (int)(((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u >> 24);
}

static int orb_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nq = full ? 32768 : 256, nt = full ? 32768 : 2048;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "t_orb_match_b1");
  int qb = tbuf_u32(job, (size_t)nq * 8, KB_IN), tb = tbuf_u32(job, (size_t)nt * 8, KB_IN);
  int ob = tbuf_u32(job, (size_t)nq * 2, KB_OUT);
  uint32_t *ref = tref_sampled(job, ob, KC_U32, (size_t)nq * 2, 1024, 0, 0);
  if (qb < 0 || tb < 0 || ref == NULL) return -1;
  uint32_t *qd = job->buf[qb].host, *td = job->buf[tb].host; /* two planes of 128-bit halves */
  for (size_t i = 0; i < (size_t)nt * 8; ++i) td[i] = krng_u32(&r);
  for (int i = 0; i < nq; ++i) { /* most queries a noisy view of some train descriptor */
    const int src = (int)krng_below(&r, (uint32_t)nt), fresh = krng_below(&r, 5) == 0;
    for (int k = 0; k < 2; ++k)
      for (int w = 0; w < 4; ++w) {
        uint32_t v = fresh ? krng_u32(&r) : td[(size_t)k * nt * 4 + (size_t)src * 4 + w];
        for (int b = 0; b < 32; ++b)
          if (krng_below(&r, 100) < 12) v ^= 1u << b;
        qd[(size_t)k * nq * 4 + (size_t)i * 4 + w] = v;
      }
  }
  int last = -1, bi = 0, bd = 0;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    const int i = (int)(e / 2);
    if (i != last) {
      bd = 1 << 30;
      for (int j = 0; j < nt; ++j) {
        int dd = 0;
        for (int k = 0; k < 2; ++k)
          for (int w = 0; w < 4; ++w)
            dd += popc32(qd[(size_t)k * nq * 4 + (size_t)i * 4 + w] ^
                         td[(size_t)k * nt * 4 + (size_t)j * 4 + w]);
        if (dd < bd) {
          bd = dd;
          bi = j;
        }
      }
      last = i;
    }
    ref[s] = e % 2 ? (uint32_t)bd : (uint32_t)bi;
  }
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, nq);
  kjob_arg_i32(job, nt);
  kjob_grid(job, (size_t)nq / 64, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- 4-qubit gate ------------------------------------------------------------------------ */

static int qsim_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nqubit = full ? 26 : 13, per = 8;
  const size_t namp = (size_t)1 << nqubit, stride = namp / 16, len = namp < 65536 ? namp : 65536;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "t_qsim_gate4_tf32");
  int pb = kjob_buf(job, namp * 8, KB_IN), gb = kjob_buf(job, 32 * 32 * 4, KB_IN);
  int ob = kjob_buf(job, namp * 8, KB_OUT);
  float *ref = tref_sampled(job, ob, KC_F32, namp * 2, T_SAMPLES, 0, 0);
  if (job->buf[pb].host == NULL || job->buf[gb].host == NULL || ref == NULL) return -1;
  float *psi = job->buf[pb].host, *gr = job->buf[gb].host;
  for (size_t i = 0; i < 2 * len; ++i) psi[i] = ((int)krng_below(&r, 17) - 8) / 16.0f;
  trepeat(psi, len * 8, namp * 8);
  double gre[16][16], gim[16][16];
  for (int i = 0; i < 16; ++i) /* entries (a + b i) / 8, a and b in -4..4: dyadic, not unitary */
    for (int j = 0; j < 16; ++j) {
      gre[i][j] = ((int)krng_below(&r, 9) - 4) / 8.0;
      gim[i][j] = ((int)krng_below(&r, 9) - 4) / 8.0;
      gr[i * 32 + j] = (float)gre[i][j];
      gr[i * 32 + 16 + j] = (float)-gim[i][j];
      gr[(16 + i) * 32 + j] = (float)gim[i][j];
      gr[(16 + i) * 32 + 16 + j] = (float)gre[i][j];
    }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], a = e / 2, col = a % stride;
    const int kk = (int)(a / stride);
    double re = 0, im = 0;
    for (int k = 0; k < 16; ++k) {
      const double xr = psi[2 * (col + k * stride)], xi = psi[2 * (col + k * stride) + 1];
      re += gre[kk][k] * xr - gim[kk][k] * xi;
      im += gre[kk][k] * xi + gim[kk][k] * xr;
    }
    ref[s] = (float)(e % 2 ? im : re);
  }
  const size_t ntiles = stride / 16, blocks = (ntiles + 4 * per - 1) / (4 * per);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)stride);
  kjob_arg_i32(job, per);
  kjob_grid(job, blocks, 1, 1, 128, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- flow warping ------------------------------------------------------------------------ */

enum { FW_C = 32 };

static int warp_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 768 : 64, h = full ? 512 : 48, nf = full ? 8 : 2;
  const size_t npix = (size_t)w * h, nthr = npix * nf * (FW_C / 8);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "t_flow_warp_h2");
  int fb = kjob_buf(job, npix * FW_C * 2, KB_IN), vb = kjob_buf(job, npix * nf * 8, KB_IN);
  int ob = tbuf_u32(job, nthr * 4, KB_OUT);
  uint32_t *ref = tref_sampled(job, ob, KC_U32, nthr * 4, T_SAMPLES, 0, 0);
  if (job->buf[fb].host == NULL || job->buf[vb].host == NULL || ref == NULL) return -1;
  uint16_t *feat = job->buf[fb].host;
  float *flow = job->buf[vb].host;
  for (size_t i = 0; i < npix * FW_C; ++i) /* multiples of 1/64 in [-3, 3] */
    feat[i] = half_round(((int)krng_below(&r, 385) - 192) / 64.0);
  for (int f = 0; f < nf; ++f) { /* a smooth motion field plus a little jitter per pixel */
    const double ph = krng_uniform(&r, 0, 6.28), amp = krng_uniform(&r, 6, 24);
    for (size_t p = 0; p < npix; ++p) {
      const double x = (double)(p % w), y = (double)(p / w);
      flow[2 * (f * npix + p)] =
          (float)(amp * sin(x * 0.004 + ph) * cos(y * 0.006) + krng_uniform(&r, -1.5, 1.5));
      flow[2 * (f * npix + p) + 1] =
          (float)(amp * 0.6 * cos(x * 0.005 - ph) + krng_uniform(&r, -1.5, 1.5));
    }
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], g = e / 4, p = g / (FW_C / 8), pix = p % npix;
    const int ch = (int)(g % (FW_C / 8)) * 8 + (int)(e % 4) * 2, x = (int)(pix % w),
              y = (int)(pix / w);
    const float sx = (float)x + flow[2 * p], sy = (float)y + flow[2 * p + 1];
    const float fx0 = floorf(sx), fy0 = floorf(sy), wx = sx - fx0, wy = sy - fy0;
    const float ax = 1.0f - wx, ay = 1.0f - wy;
    const float wt[4] = {ax * ay, wx * ay, ax * wy, wx * wy};
    uint32_t word = 0;
    for (int c = 0; c < 2; ++c) {
      uint16_t acc = 0;
      for (int k = 0; k < 4; ++k) {
        const int xi = (int)fx0 + (k & 1), yi = (int)fy0 + (k >> 1);
        const double v = xi >= 0 && yi >= 0 && xi < w && yi < h
                             ? half_value(feat[((size_t)yi * w + xi) * FW_C + ch + c])
                             : 0.0;
        const double wk = half_value(half_round(wt[k]));
        acc = half_round(k == 0 ? wk * v : wk * v + half_value(acc));
      }
      word |= (uint32_t)acc << (16 * c);
    }
    ref[s] = word;
  }
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_arg_i32(job, nf);
  kjob_grid1(job, nthr, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- FP8 quantisation -------------------------------------------------------------------- */

static int fp8_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)256 << 20 : (size_t)64 << 10;
  const size_t len = n < ((size_t)1 << 20) ? n : (size_t)1 << 20;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "t_fp8_e4m3_quant_v4");
  int xb = kjob_buf(job, n * 4, KB_IN), qb = tbuf_u32(job, n / 4, KB_OUT);
  int ab = tbuf_u32(job, 1, KB_INOUT);
  uint32_t *ref = tref_sampled(job, qb, KC_U32, n / 4, T_SAMPLES, 0, 0);
  uint32_t *ra = kjob_ref(job, ab, KC_U32, 1, 0, 0);
  if (job->buf[xb].host == NULL || ab < 0 || ref == NULL || ra == NULL) return -1;
  float *x = job->buf[xb].host, amax = 0;
  for (size_t i = 0; i < len; ++i) { /* activations: roughly Gaussian, a few outliers */
    double v = krng_uniform(&r, -1, 1) + krng_uniform(&r, -1, 1) + krng_uniform(&r, -1, 1);
    if (krng_below(&r, 1000) == 0) v *= 40;
    x[i] = (float)v;
    amax = fabsf(x[i]) > amax ? fabsf(x[i]) : amax;
  }
  trepeat(x, len * 4, n * 4);
  const float inv_scale = 448.0f / 24.0f; /* the bulk in range, outliers saturated */
  for (size_t s = 0; s < job->buf[qb].count; ++s) {
    const size_t w = job->buf[qb].sample[s];
    uint32_t word = 0;
    for (int k = 0; k < 4; ++k) word |= (uint32_t)e4m3_round(x[4 * w + k] * inv_scale) << (8 * k);
    ref[s] = word;
  }
  memcpy(ra, &amax, 4);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, ab);
  kjob_arg_i32(job, (int)(n / 16));
  kjob_arg_f32(job, inv_scale);
  kjob_grid1(job, n / 16, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- k-mer counting ---------------------------------------------------------------------- */

enum { KM_K = 7, KM_BINS = 1 << (2 * KM_K) };

/* A genome-like sequence of n bases (2 bits each, 16 per word): random
 * stretches, microsatellites (short motifs repeated) and copies of earlier
 * stretches (interspersed repeats). */
static void kmer_sequence(uint32_t *seq, size_t n, krng *r) {
  memset(seq, 0, (n / 16 + 1) * 4);
  size_t p = 0;
  while (p < n) {
    const uint32_t kind = krng_below(r, 10), run = 20 + krng_below(r, 400);
    uint32_t motif = krng_u32(r), period = 1 + krng_below(r, 6);
    const size_t from = p > 100000 ? krng_below(r, (uint32_t)(p - 1000)) : 0;
    for (uint32_t k = 0; k < run && p < n; ++k, ++p) {
      uint32_t b;
      if (kind == 0)
        b = motif >> (2 * (k % period)) & 3u;
      else if (kind < 4 && from > 0)
        b = seq[(from + k) / 16] >> (2 * ((from + k) % 16)) & 3u;
      else
        b = krng_below(r, 4);
      seq[p / 16] |= b << (2 * (p % 16));
    }
  }
}

static uint32_t kmer_canon(uint32_t fwd) {
  uint32_t rc = 0;
  for (int i = 0; i < KM_K; ++i) rc |= (3u - (fwd >> (2 * i) & 3u)) << (2 * (KM_K - 1 - i));
  return fwd < rc ? fwd : rc;
}

static int kmer_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, blocks = full ? 397 : 6, chunk = full ? 1 << 18 : 4096;
  const size_t n = (size_t)blocks * chunk + KM_K - 1, nw = n / 16 + 1;
  const size_t len =
      n < ((size_t)4 << 20) ? n : (size_t)4 << 20; /* bases drawn, a multiple of 16 */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "t_kmer_count_match_397");
  int sb = tbuf_u32(job, nw, KB_IN), cb = tbuf_u32(job, KM_BINS, KB_INOUT);
  uint32_t *ref = kjob_ref(job, cb, KC_U32, KM_BINS, 0, 0);
  if (sb < 0 || cb < 0 || ref == NULL) return -1;
  uint32_t *seq = job->buf[sb].host;
  kmer_sequence(seq, len, &r);
  trepeat(seq, len / 16 * 4, nw * 4);
  const size_t nk = n - KM_K + 1;
  for (size_t p = 0; p < nk; ++p) {
    const uint64_t two = (uint64_t)seq[p / 16] | (uint64_t)seq[p / 16 + 1] << 32;
    ref[kmer_canon((uint32_t)(two >> (2 * (p % 16))) & (KM_BINS - 1))]++;
  }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, chunk);
  kjob_arg_i32(job, (int)nk);
  kjob_grid(job, (size_t)blocks, 1, 1, 512, 1, 1);
  job->dyn_local = KM_BINS * 4;
  return 0;
}

/* ---- semi-global matching ---------------------------------------------------------------- */

enum { SG_D = 64, SG_P1 = 10, SG_P2 = 120, SG_ROWS = 64 };

/* The cost volume of SG_ROWS distinct rows (then repeated): absolute
 * differences of a textured left row and a right row shifted by a piecewise
 * constant disparity, doubled and clipped to 255.  Returns 0, or -1 when
 * out of memory. */
static int sgm_costs(uint8_t *c, int w, int rows, krng *r) {
  double *left = malloc((size_t)w * sizeof *left), *right = malloc((size_t)w * sizeof *right);
  if (left == NULL || right == NULL) {
    free(left);
    free(right);
    return -1;
  }
  for (int y = 0; y < rows; ++y) {
    double v = 128;
    for (int x = 0; x < w; ++x) {
      v += krng_uniform(r, -12, 12);
      v = v < 10 ? 10 : v > 245 ? 245 : v;
      left[x] = v;
    }
    int dtrue = (int)krng_below(r, 48);
    for (int x = 0; x < w; ++x) {
      if (krng_below(r, 300) == 0) dtrue = (int)krng_below(r, 48);
      right[x] = (x + dtrue < w ? left[x + dtrue] : 128) + krng_uniform(r, -3, 3);
    }
    for (int x = 0; x < w; ++x)
      for (int dd = 0; dd < SG_D; ++dd) {
        const double diff = x - dd >= 0 ? 2 * fabs(left[x] - right[x - dd]) : 255;
        c[((size_t)y * w + x) * SG_D + dd] = (uint8_t)(diff > 255 ? 255 : diff);
      }
  }
  free(left);
  free(right);
  return 0;
}

/* The kernel's aggregation of one row's costs into its disparities. */
static void sgm_row(const uint8_t *c, int w, uint8_t *out) {
  uint32_t l[SG_D], n[SG_D], minp = 0;
  for (int x = 0; x < w; ++x) {
    uint32_t best = 0xFFFFFFFFu;
    for (int dd = 0; dd < SG_D; ++dd) {
      const uint32_t cc = c[(size_t)x * SG_D + dd];
      if (x == 0) {
        n[dd] = cc;
      } else {
        uint32_t m = l[dd] < minp + SG_P2 ? l[dd] : minp + SG_P2;
        if (dd > 0 && l[dd - 1] + SG_P1 < m) m = l[dd - 1] + SG_P1;
        if (dd + 1 < SG_D && l[dd + 1] + SG_P1 < m) m = l[dd + 1] + SG_P1;
        n[dd] = cc + m - minp;
      }
      const uint32_t key = n[dd] << 6 | (uint32_t)dd;
      best = key < best ? key : best;
    }
    memcpy(l, n, sizeof l);
    minp = best >> 6;
    out[x] = (uint8_t)(best & 63u);
  }
}

static int sgm_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, blocks = full ? 133 : 2, w = full ? 4096 : 256;
  const int rows = blocks * 8, distinct = rows < SG_ROWS ? rows : SG_ROWS;
  const size_t nc = (size_t)rows * w * SG_D;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "t_sgm_path_133");
  int cb = kjob_buf(job, nc, KB_IN), ob = tbuf_u32(job, (size_t)rows * w / 4, KB_OUT);
  uint32_t *ref = tref_sampled(job, ob, KC_U32, (size_t)rows * w / 4, T_SAMPLES, 0, 0);
  uint8_t *disp = malloc((size_t)distinct * w);
  if (job->buf[cb].host == NULL || ref == NULL || disp == NULL) {
    free(disp);
    return -1;
  }
  uint8_t *c = job->buf[cb].host;
  if (sgm_costs(c, w, distinct, &r) != 0) {
    free(disp);
    return -1;
  }
  trepeat(c, (size_t)distinct * w * SG_D, nc);
  for (int y = 0; y < distinct; ++y) sgm_row(c + (size_t)y * w * SG_D, w, disp + (size_t)y * w);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s] * 4, y = e / w % distinct, x = e % w;
    memcpy(&ref[s], disp + y * w + x, 4);
  }
  free(disp);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, rows);
  kjob_grid(job, (size_t)blocks, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(tsetup_cuda) {
  switch (d->param) {
    case TCU_ORB:
      return orb_job(job, d, size);
    case TCU_QSIM:
      return qsim_job(job, d, size);
    case TCU_WARP:
      return warp_job(job, d, size);
    case TCU_FP8:
      return fp8_job(job, d, size);
    case TCU_KMER:
      return kmer_job(job, d, size);
    case TCU_SGM:
      return sgm_job(job, d, size);
  }
  return -1;
}
