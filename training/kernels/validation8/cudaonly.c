/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.c: host half of cudaonly.cu (CUDA only: RAID-6 syndromes,
 * brute-force k-NN, TF32 distances, bf16 grouped GEMM, half2 FIR filter,
 * Smith-Waterman).  Syndromes, neighbour lists (integer coordinates, so
 * exact distances) and alignment scores are exact; the tensor-core inputs
 * are small multiples of powers of two that TF32 and bf16 hold exactly and
 * whose products and sums fp32 holds exactly, so those are exact too; the
 * FIR filter is replayed with every half FMA rounded to half as the device
 * rounds it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation8.h"

/* ---- 16-bit floats ----------------------------------------------------------------------- */

static uint16_t bf16_exact(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)(u >> 16);
}

static double half_value(uint16_t h) {
  const int e = h >> 10 & 31, m = h & 1023;
  const double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
  return h & 0x8000 ? -v : v;
}

/* v rounded to the nearest half (ties to even); |v| < 65520. */
static uint16_t half_round(double v) {
  const uint16_t sign = v < 0 ? 0x8000 : 0;
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

/* ---- RAID-6 ------------------------------------------------------------------------------ */

enum { RAID_D = 8 };

static uint32_t gf_mul2(uint32_t v) {
  const uint32_t hi = v & 0x80808080u;
  return ((v << 1) & 0xfefefefeu) ^ ((hi >> 7) * 0x1du);
}

static int raid6_job(kjob *job, const kdesc *d, ksize size) {
  (void)d;
  const size_t n4 = size == KSIZE_FULL ? (size_t)4 << 20 : 4096, words = n4 * 4;
  kjob_init(job, "cudaonly.cu", "s_raid6_pq_v4");
  int db = sbuf_u32(job, words * RAID_D, KB_IN);
  int pb = sbuf_u32(job, words, KB_OUT), qb = sbuf_u32(job, words, KB_OUT);
  uint32_t *rp = sref_sampled(job, pb, KC_U32, words, S_SAMPLES, 0, 0);
  uint32_t *rq = sref_sampled(job, qb, KC_U32, words, S_SAMPLES, 0, 0);
  if (db < 0 || rp == NULL || rq == NULL) return -1;
  uint32_t *data = job->buf[db].host;
  for (size_t i = 0; i < words * RAID_D; ++i) data[i] = s_hash_host((uint32_t)i * 0x9e3779b9u + 7u);
  for (size_t s = 0; s < job->buf[pb].count; ++s) {
    const size_t i = job->buf[pb].sample[s];
    uint32_t p = data[(RAID_D - 1) * words + i], q = p;
    for (int k = RAID_D - 2; k >= 0; --k) {
      q = gf_mul2(q) ^ data[k * words + i];
      p ^= data[k * words + i];
    }
    rp[s] = p;
    rq[s] = q;
  }
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, qb);
  kjob_arg_i32(job, (int)n4);
  kjob_grid1(job, n4, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- k-nearest neighbours ---------------------------------------------------------------- */

enum { KNN_K = 8, KNN_CH = 6144 };

static int knn_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, blocks = full ? 265 : 2, npts = full ? 4 * KNN_CH : KNN_CH;
  const size_t nq = (size_t)blocks * 256;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "s_knn_brute_265");
  int pb = kjob_buf(job, (size_t)npts * 16, KB_IN), qb = kjob_buf(job, nq * 16, KB_IN);
  int ob = sbuf_u32(job, nq * KNN_K, KB_OUT);
  uint32_t *ref = sref_sampled(job, ob, KC_U32, nq * KNN_K, S_SAMPLES, 0, 0);
  if (job->buf[pb].host == NULL || job->buf[qb].host == NULL || ref == NULL) return -1;
  float *pts = job->buf[pb].host, *qry = job->buf[qb].host;
  for (int i = 0; i < npts; ++i) /* integer coordinates in [0, 256): exact squared distances */
    for (int a = 0; a < 4; ++a) pts[4 * i + a] = a < 3 ? (float)krng_below(&r, 256) : 0.0f;
  for (size_t i = 0; i < nq; ++i)
    for (int a = 0; a < 4; ++a) qry[4 * i + a] = a < 3 ? (float)krng_below(&r, 256) : 0.0f;
  size_t last = (size_t)-1;
  float bd[KNN_K];
  uint32_t bi[KNN_K];
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], q = e / KNN_K;
    if (q != last) {
      last = q;
      for (int k = 0; k < KNN_K; ++k) {
        bd[k] = 3.0e38f;
        bi[k] = 0xFFFFFFFFu;
      }
      for (int j = 0; j < npts; ++j) {
        const float dx = pts[4 * j] - qry[4 * q], dy = pts[4 * j + 1] - qry[4 * q + 1];
        const float dz = pts[4 * j + 2] - qry[4 * q + 2];
        float cd = dx * dx + dy * dy + dz * dz;
        uint32_t ci = (uint32_t)j;
        for (int k = 0; k < KNN_K; ++k)
          if (cd < bd[k]) {
            const float td = bd[k];
            const uint32_t ti = bi[k];
            bd[k] = cd;
            bi[k] = ci;
            cd = td;
            ci = ti;
          }
      }
    }
    ref[s] = bi[e % KNN_K];
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, npts);
  kjob_grid(job, (size_t)blocks, 1, 1, 256, 1, 1);
  job->dyn_local = KNN_CH * 16;
  kjob_sampleable(job);
  return 0;
}

/* ---- TF32 distances ---------------------------------------------------------------------- */

static int cdist_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, n = full ? 8192 : 128, dim = full ? 256 : 64;
  const size_t nel = (size_t)n * dim;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "s_cdist_tf32");
  int xb = kjob_buf(job, nel * 4, KB_IN), yb = kjob_buf(job, nel * 4, KB_IN);
  int ob = kjob_buf(job, (size_t)n * n * 4, KB_OUT);
  float *ref = sref_sampled(job, ob, KC_F32, (size_t)n * n, S_SAMPLES, 1e-6, 0);
  if (job->buf[xb].host == NULL || job->buf[yb].host == NULL || ref == NULL) return -1;
  float *x = job->buf[xb].host, *y = job->buf[yb].host;
  for (size_t i = 0; i < nel; ++i) { /* multiples of 1/4 in [-2, 2] */
    x[i] = ((int)krng_below(&r, 17) - 8) * 0.25f;
    y[i] = ((int)krng_below(&r, 17) - 8) * 0.25f;
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], i = e / n, j = e % n;
    double d2 = 0;
    for (int k = 0; k < dim; ++k) {
      const double t = (double)x[i * dim + k] - y[j * dim + k];
      d2 += t * t;
    }
    ref[s] = sqrtf((float)d2);
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, dim);
  kjob_grid(job, (size_t)n / 64, (size_t)n / 64, 1, 128, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- grouped GEMM ------------------------------------------------------------------------ */

enum { MOE_E = 8 };

static int moe_job(kjob *job, const kdesc *d, ksize size) {
  static const int tok_full[MOE_E] = {2560, 1536, 1024, 768, 512, 384, 256, 128};
  static const int tok_small[MOE_E] = {192, 128, 64, 64, 64, 64, 64, 64};
  const int full = size == KSIZE_FULL, kdim = full ? 1024 : 128, ndim = full ? 2048 : 128;
  const int *tok = full ? tok_full : tok_small;
  int meta[2 * MOE_E + 1], ntok = 0;
  meta[0] = 0;
  for (int e = 0; e < MOE_E; ++e) {
    meta[MOE_E + 1 + e] = ntok;
    ntok += tok[e];
    meta[e + 1] = meta[e] + tok[e] / 64 * (ndim / 64);
  }
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "s_moe_gemm_bf16");
  int xb = kjob_buf(job, (size_t)ntok * kdim * 2, KB_IN);
  int wb = kjob_buf(job, (size_t)MOE_E * kdim * ndim * 2, KB_IN);
  int mb = kjob_buf(job, sizeof meta, KB_IN), yb = kjob_buf(job, (size_t)ntok * ndim * 4, KB_OUT);
  float *ref = sref_sampled(job, yb, KC_F32, (size_t)ntok * ndim, S_SAMPLES, 0, 1e-6);
  int8_t *ix = malloc((size_t)ntok * kdim), *iw = malloc((size_t)MOE_E * kdim * ndim);
  uint16_t *hx = job->buf[xb].host, *hw = job->buf[wb].host;
  if (hx == NULL || hw == NULL || job->buf[mb].host == NULL || ref == NULL || ix == NULL ||
      iw == NULL) {
    free(ix);
    free(iw);
    return -1;
  }
  memcpy(job->buf[mb].host, meta, sizeof meta);
  for (size_t i = 0; i < (size_t)ntok * kdim; ++i) { /* x in {-2..2} / 2 */
    ix[i] = (int8_t)((int)krng_below(&r, 5) - 2);
    hx[i] = bf16_exact(ix[i] * 0.5f);
  }
  for (size_t i = 0; i < (size_t)MOE_E * kdim * ndim; ++i) { /* w in {-2..2} / 4 */
    iw[i] = (int8_t)((int)krng_below(&r, 5) - 2);
    hw[i] = bf16_exact(iw[i] * 0.25f);
  }
  for (size_t s = 0; s < job->buf[yb].count; ++s) { /* in units of 1/8 */
    const size_t el = job->buf[yb].sample[s], t = el / ndim, c = el % ndim;
    int e = 0;
    while (e + 1 < MOE_E && (size_t)meta[MOE_E + 2 + e] <= t) ++e;
    long acc = 0;
    for (int k = 0; k < kdim; ++k)
      acc += (long)ix[t * kdim + k] * iw[((size_t)e * kdim + k) * ndim + c];
    ref[s] = (float)(acc / 8.0);
  }
  free(ix);
  free(iw);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, mb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, MOE_E);
  kjob_arg_i32(job, kdim);
  kjob_arg_i32(job, ndim);
  kjob_grid(job, (size_t)meta[MOE_E], 1, 1, 128, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- FIR filter -------------------------------------------------------------------------- */

enum { FIR_K = 256, FIR_OUT = 2048 };
static const double S_PI = 3.14159265358979323846;

static int fir_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : (size_t)16 << 10;
  const size_t len = n < ((size_t)1 << 20) ? n : (size_t)1 << 20;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "s_fir256_h2");
  int xb = kjob_buf(job, n * 2, KB_IN), hb = kjob_buf(job, FIR_K * 2, KB_IN);
  int yb = kjob_buf(job, n * 4, KB_OUT);
  float *ref = sref_sampled(job, yb, KC_F32, n, S_SAMPLES, 0, 1e-3);
  if (job->buf[xb].host == NULL || job->buf[hb].host == NULL || ref == NULL) return -1;
  uint16_t *x = job->buf[xb].host, *h = job->buf[hb].host;
  for (size_t i = 0; i < len; ++i) /* two tones and noise */
    x[i] = half_round(0.4 * sin(0.01 * (double)i) + 0.3 * sin(0.7 * (double)i) +
                      krng_uniform(&r, -0.2, 0.2));
  for (size_t i = len; i < n; ++i) x[i] = x[i % len];
  double hsum = 0, hd[FIR_K];
  for (int k = 0; k < FIR_K; ++k) { /* Hamming-windowed sinc low-pass, cut-off 0.1 */
    const double m = k - (FIR_K - 1) / 2.0,
                 sinc = 0.2 * (m == 0 ? 1 : sin(0.2 * S_PI * m) / (0.2 * S_PI * m));
    hd[k] = sinc * (0.54 - 0.46 * cos(2 * S_PI * k / (FIR_K - 1)));
    hsum += hd[k];
  }
  for (int k = 0; k < FIR_K; ++k) h[k] = half_round(hd[k] / hsum);
  for (size_t s = 0; s < job->buf[yb].count; ++s) {
    const size_t o = job->buf[yb].sample[s];
    uint16_t acc = 0;
    for (int k = 0; k < FIR_K; ++k) {
      const double xv = o >= (size_t)k ? half_value(x[o - k]) : 0.0;
      acc = half_round(half_value(h[k]) * xv + half_value(acc));
    }
    ref[s] = (float)half_value(acc);
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, hb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, (int)n);
  kjob_grid(job, (n + FIR_OUT - 1) / FIR_OUT, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- Smith-Waterman ---------------------------------------------------------------------- */

enum { SW_Q = 128, SW_T = 512, SW_MATCH = 2, SW_MISMATCH = -3, SW_GO = 5, SW_GE = 2 };
enum { SW_NEG = -1000000, SW_CHECKED = 256 };

static int imax(int a, int b) { return a > b ? a : b; }

static int gotoh(const uint8_t *q, const uint8_t *t) {
  int hp[SW_Q], f[SW_Q], best = 0;
  for (int j = 0; j < SW_Q; ++j) {
    hp[j] = 0;
    f[j] = SW_NEG;
  }
  for (int i = 0; i < SW_T; ++i) {
    int hl = 0, el = SW_NEG, diag = 0;
    for (int j = 0; j < SW_Q; ++j) {
      const int e = imax(el - SW_GE, hl - SW_GO);
      f[j] = imax(f[j] - SW_GE, hp[j] - SW_GO);
      const int hh = imax(imax(0, diag + (q[j] == t[i] ? SW_MATCH : SW_MISMATCH)), imax(e, f[j]));
      diag = hp[j];
      hp[j] = hh;
      hl = hh;
      el = e;
      best = imax(best, hh);
    }
  }
  return best;
}

static int sw_job(kjob *job, const kdesc *d, ksize size) {
  const int npairs = size == KSIZE_FULL ? 32768 : 64;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "s_sw_affine_shfl");
  int qb = kjob_buf(job, (size_t)npairs * SW_Q, KB_IN),
      tb = kjob_buf(job, (size_t)npairs * SW_T, KB_IN);
  int ob = sbuf_u32(job, (size_t)npairs, KB_OUT);
  uint32_t *ref = sref_sampled(job, ob, KC_U32, (size_t)npairs, SW_CHECKED, 0, 0);
  if (job->buf[qb].host == NULL || job->buf[tb].host == NULL || ref == NULL) return -1;
  uint8_t *q = job->buf[qb].host, *t = job->buf[tb].host;
  for (int p = 0; p < npairs; ++p) { /* the target holds a mutated copy of the query */
    uint8_t *qp = q + (size_t)p * SW_Q, *tp = t + (size_t)p * SW_T;
    for (int j = 0; j < SW_Q; ++j) qp[j] = (uint8_t)krng_below(&r, 4);
    for (int i = 0; i < SW_T; ++i) tp[i] = (uint8_t)krng_below(&r, 4);
    int at = (int)krng_below(&r, SW_T - SW_Q - 16);
    for (int j = 0; j < SW_Q && at < SW_T; ++j) {
      const uint32_t u = krng_below(&r, 100);
      if (u < 3) continue; /* deletion */
      tp[at++] = u < 12 ? (uint8_t)krng_below(&r, 4) : qp[j];
      if (u >= 97 && at < SW_T) tp[at++] = (uint8_t)krng_below(&r, 4); /* insertion */
    }
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t p = job->buf[ob].sample[s];
    ref[s] = (uint32_t)gotoh(q + p * SW_Q, t + p * SW_T);
  }
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, npairs);
  kjob_grid1(job, (size_t)npairs * 32, 128);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(ssetup_cuda) {
  switch (d->param) {
    case SCU_RAID6:
      return raid6_job(job, d, size);
    case SCU_KNN:
      return knn_job(job, d, size);
    case SCU_CDIST:
      return cdist_job(job, d, size);
    case SCU_MOE:
      return moe_job(job, d, size);
    case SCU_FIR:
      return fir_job(job, d, size);
    case SCU_SW:
      return sw_job(job, d, size);
  }
  return -1;
}
