/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ml.c: host half of ml.cl (ALiBi bias, CTC forward, LoRA shrink, logit
 * soft-capping, hash encoding, spectral normalisation).  The ALiBi bias and
 * the hash encoding are replayed in float in the kernel's order (fmaf where
 * the kernel fuses), so they are checked exactly or nearly; the others
 * against double references with a relative tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation7.h"

/* ---- ALiBi bias ---------------------------------------------------------------------------- */

static int alibi_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, heads = full ? 32 : 4, qlen = full ? 2048 : 64;
  const int klen = full ? 4096 : 128;
  const size_t n = (size_t)heads * qlen * klen;
  kjob_init(job, "ml.cl", "r_alibi_bias_fill");
  int sb = kjob_buf(job, (size_t)heads * 4, KB_IN), ob = kjob_buf(job, n * 4, KB_OUT);
  float *ref = rref_sampled(job, ob, KC_F32, n, 0, 0);
  float *slope = job->buf[sb].host;
  if (slope == NULL || ref == NULL) return -1;
  (void)d;
  for (int h = 0; h < heads; ++h) slope[h] = (float)pow(2.0, -8.0 * (h + 1) / heads);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], row = e / (size_t)klen;
    const int k = (int)(e % (size_t)klen), q = (int)(row % (size_t)qlen), h = (int)(row / qlen);
    const int dist = k - q - (klen - qlen);
    ref[s] = dist <= 0 ? slope[h] * (float)dist : -3.402823466e38f;
  }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, qlen);
  kjob_arg_i32(job, klen);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- CTC forward --------------------------------------------------------------------------- */

enum { CT_S = 256, CT_C = 32 };

static double lse2(double a, double b) {
  const double m = a > b ? a : b;
  return m + log1p(exp((a > b ? b : a) - m));
}

/* -log p(labels | logp) by the alpha recursion in double ("log 0" -1e30,
 * as in the kernel, so that unreachable states stay out of the sums). */
static double ctc_nll(const float *lp, const int *lab, int frames, int nlab) {
  const int S = 2 * nlab + 1;
  double a[2][CT_S];
  int ext[CT_S];
  for (int s = 0; s < S; ++s) ext[s] = s & 1 ? lab[s / 2] : 0;
  for (int s = 0; s < S; ++s) a[0][s] = s < 2 ? lp[ext[s]] : -1e30;
  int cur = 0;
  for (int t = 1; t < frames; ++t) {
    for (int s = 0; s < S; ++s) {
      double v = a[cur][s];
      if (s >= 1) v = lse2(v, a[cur][s - 1]);
      if ((s & 1) && s >= 3 && ext[s] != ext[s - 2]) v = lse2(v, a[cur][s - 2]);
      a[cur ^ 1][s] = v + lp[(size_t)t * CT_C + ext[s]];
    }
    cur ^= 1;
  }
  return -lse2(a[cur][S - 1], a[cur][S - 2]);
}

static int ctc_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, batch = full ? 96 : 4, tmax = full ? 2000 : 64;
  const int lmax = full ? 120 : 12;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "r_ctc_alpha_96");
  int pb = kjob_buf(job, (size_t)batch * tmax * CT_C * 4, KB_IN);
  int lb = rbuf_u32(job, (size_t)batch * lmax, KB_IN), tb = rbuf_u32(job, (size_t)batch, KB_IN);
  int nb = rbuf_u32(job, (size_t)batch, KB_IN), ob = kjob_buf(job, (size_t)batch * 4, KB_OUT);
  float *ref = kjob_ref(job, ob, KC_F32, (size_t)batch, 1e-4, 1e-3);
  if (job->buf[pb].host == NULL || lb < 0 || tb < 0 || nb < 0 || ref == NULL) return -1;
  float *lp = job->buf[pb].host;
  int *lab = job->buf[lb].host, *tl = job->buf[tb].host, *nl = job->buf[nb].host;
  for (int b = 0; b < batch; ++b) { /* padded batch: lengths vary per utterance */
    tl[b] = tmax - (int)krng_below(&r, (uint32_t)tmax / 5);
    nl[b] = lmax / 2 + (int)krng_below(&r, (uint32_t)(lmax / 2 + 1));
    for (int k = 0; k < lmax; ++k) lab[b * lmax + k] = 1 + (int)krng_below(&r, CT_C - 1);
    for (int t = 0; t < tmax; ++t) { /* log-softmax of random logits */
      float *row = lp + ((size_t)b * tmax + t) * CT_C;
      double z[CT_C], mx = -1e300, sum = 0;
      for (int c = 0; c < CT_C; ++c) {
        z[c] = krng_uniform(&r, -4, 4) + (c == 0 ? 2.0 : 0.0);
        mx = z[c] > mx ? z[c] : mx;
      }
      for (int c = 0; c < CT_C; ++c) sum += exp(z[c] - mx);
      for (int c = 0; c < CT_C; ++c) row[c] = (float)(z[c] - mx - log(sum));
    }
  }
  for (int b = 0; b < batch; ++b)
    ref[b] = (float)ctc_nll(lp + (size_t)b * tmax * CT_C, lab + b * lmax, tl[b], nl[b]);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, nb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, tmax);
  kjob_arg_i32(job, lmax);
  kjob_grid(job, (size_t)batch, 1, 1, CT_S, 1, 1);
  return 0;
}

/* ---- LoRA shrink ---------------------------------------------------------------------------- */

enum { LR_R = 16 };

static int lora_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, tokens = full ? 16384 : 64, dim = full ? 4096 : 512;
  const int adapters = full ? 64 : 4;
  const float scale = 2.0f; /* alpha / rank */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "r_lora_bgmv_shrink");
  int xb = rin_f32(job, (size_t)tokens * dim, &r, -1, 1);
  int ab = rin_f32(job, (size_t)adapters * LR_R * dim, &r, -0.05, 0.05);
  int ib = rbuf_u32(job, (size_t)tokens, KB_IN),
      yb = kjob_buf(job, (size_t)tokens * LR_R * 4, KB_OUT);
  float *ref = rref_sampled(job, yb, KC_F32, (size_t)tokens * LR_R, 1e-4, 1e-4);
  if (xb < 0 || ab < 0 || ib < 0 || ref == NULL) return -1;
  int *idx = job->buf[ib].host;
  const float *x = job->buf[xb].host, *a = job->buf[ab].host;
  for (int t = 0; t < tokens; ++t) /* requests of 1-64 tokens, each with one adapter */
    idx[t] =
        t > 0 && krng_below(&r, 32) != 0 ? idx[t - 1] : (int)krng_below(&r, (uint32_t)adapters);
  for (size_t s = 0; s < job->buf[yb].count; ++s) {
    const size_t e = job->buf[yb].sample[s], t = e / LR_R, k = e % LR_R;
    const float *xr = x + t * dim, *ar = a + ((size_t)idx[t] * LR_R + k) * dim;
    double acc = 0;
    for (int j = 0; j < dim; ++j) acc += (double)xr[j] * ar[j];
    ref[s] = (float)(acc * scale);
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, dim);
  kjob_arg_f32(job, scale);
  kjob_grid(job, (size_t)tokens, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- soft-capping --------------------------------------------------------------------------- */

static int softcap_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 256000 : 4096;
  const float cap = 30.0f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "r_softcap_decode");
  int xb = rin_f32(job, (size_t)n, &r, -60, 60), ob = kjob_buf(job, (size_t)n * 4, KB_OUT);
  float *ref = kjob_ref(job, ob, KC_F32, (size_t)n, 1e-5, 1e-5);
  if (xb < 0 || ref == NULL) return -1;
  const float *x = job->buf[xb].host;
  for (int i = 0; i < n; ++i) ref[i] = (float)(cap * tanh((double)x[i] / cap));
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_arg_f32(job, cap);
  kjob_grid1(job, (size_t)n, 256);
  return 0;
}

/* ---- hash encoding -------------------------------------------------------------------------- */

enum { HG_L = 16, HG_F = 2, HG_RAY = 64 };

/* Level l of a point, replayed as the kernel computes it. */
static void hashgrid_point(const float *p, const float *tab, float s, int side, int log2t,
                           float out[HG_F]) {
  const uint32_t mask = (1u << log2t) - 1u;
  const float fx = p[0] * s, fy = p[1] * s, fz = p[2] * s;
  const int ix = (int)fx, iy = (int)fy, iz = (int)fz;
  const float wx = fx - (float)ix, wy = fy - (float)iy, wz = fz - (float)iz;
  float a0 = 0.0f, a1 = 0.0f;
  for (int c = 0; c < 8; ++c) {
    const int cx = ix + (c & 1), cy = iy + (c >> 1 & 1), cz = iz + (c >> 2);
    const float w =
        ((c & 1) ? wx : 1.0f - wx) * ((c & 2) ? wy : 1.0f - wy) * ((c & 4) ? wz : 1.0f - wz);
    const uint32_t h =
        side > 0 ? (uint32_t)((cz * side + cy) * side + cx)
                 : ((uint32_t)cx ^ (uint32_t)cy * 2654435761u ^ (uint32_t)cz * 805459861u) & mask;
    a0 = fmaf(w, tab[HG_F * h], a0);
    a1 = fmaf(w, tab[HG_F * h + 1], a1);
  }
  out[0] = a0;
  out[1] = a1;
}

/* Ray samples: HG_RAY points along each random ray through the unit cube. */
static void ray_points(float *pos, int n, krng *r) {
  for (int ray = 0; ray < n / HG_RAY; ++ray) {
    double o[3], dir[3], len = 0;
    for (int k = 0; k < 3; ++k) {
      o[k] = krng_uniform(r, 0.1, 0.9);
      dir[k] = krng_uniform(r, -1, 1);
      len += dir[k] * dir[k];
    }
    for (int i = 0; i < HG_RAY; ++i)
      for (int k = 0; k < 3; ++k) {
        double v = o[k] + dir[k] / sqrt(len) * (i - HG_RAY / 2) * (0.8 / HG_RAY);
        v = v < 0 ? 0 : v > 0.9999 ? 0.9999 : v;
        pos[3 * ((size_t)ray * HG_RAY + i) + k] = (float)v;
      }
  }
}

static int hashgrid_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, n = full ? 2 << 20 : 4096, log2t = full ? 18 : 14;
  const double nmin = 16, nmax = full ? 2048 : 256;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "r_hashgrid_encode");
  int pb = kjob_buf(job, (size_t)n * 12, KB_IN);
  int tb = rin_f32(job, ((size_t)HG_L << log2t) * HG_F, &r, -1, 1);
  int sb = kjob_buf(job, HG_L * 4, KB_IN), rb = rbuf_u32(job, HG_L, KB_IN);
  int ob = kjob_buf(job, (size_t)HG_L * HG_F * n * 4, KB_OUT);
  float *ref = rref_sampled(job, ob, KC_F32, (size_t)HG_L * HG_F * n, 1e-6, 1e-7);
  if (job->buf[pb].host == NULL || tb < 0 || job->buf[sb].host == NULL || rb < 0 || ref == NULL)
    return -1;
  float *pos = job->buf[pb].host, *scale = job->buf[sb].host;
  const float *tab = job->buf[tb].host;
  int *res = job->buf[rb].host;
  const double growth = exp((log(nmax) - log(nmin)) / (HG_L - 1));
  for (int l = 0; l < HG_L; ++l) {
    const int side = (int)floor(nmin * pow(growth, l)) + 1;
    scale[l] = (float)(side - 1);
    res[l] = (double)side * side * side <= (double)(1 << log2t) ? side : 0;
  }
  ray_points(pos, n, &r);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], p = e % (size_t)n, lf = e / (size_t)n;
    const int l = (int)(lf / HG_F);
    float v[HG_F];
    hashgrid_point(pos + 3 * p, tab + ((size_t)l << log2t) * HG_F, scale[l], res[l], log2t, v);
    ref[s] = v[lf % HG_F];
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, log2t);
  kjob_grid(job, (size_t)n / 256, HG_L, 1, 256, 1, 1);
  return 0;
}

/* ---- spectral normalisation ------------------------------------------------------------------ */

enum { SN_T = 1024 };

static int specnorm_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, mats = full ? 40 : 3, rows = full ? 1024 : 96;
  const int cols = full ? 1024 : 160;
  const size_t per = (size_t)rows * cols;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "r_specnorm_power_40");
  int wb = rin_f32(job, mats * per, &r, -0.05, 0.05);
  int ub = kjob_buf(job, (size_t)mats * rows * 4, KB_IN);
  int u1b = kjob_buf(job, (size_t)mats * rows * 4, KB_OUT),
      sb = kjob_buf(job, (size_t)mats * 4, KB_OUT);
  float *ru = kjob_ref(job, u1b, KC_F32, (size_t)mats * rows, 1e-3, 1e-5);
  float *rs = kjob_ref(job, sb, KC_F32, (size_t)mats, 1e-4, 0);
  double *v = malloc((size_t)cols * sizeof *v), *wv = malloc((size_t)rows * sizeof *wv);
  if (wb < 0 || job->buf[ub].host == NULL || ru == NULL || rs == NULL || v == NULL || wv == NULL) {
    free(v);
    free(wv);
    return -1;
  }
  const float *w = job->buf[wb].host;
  float *u = job->buf[ub].host;
  for (int m = 0; m < mats; ++m) {
    double nu = 0, nv = 0, nw = 0;
    float *um = u + (size_t)m * rows;
    for (int i = 0; i < rows; ++i) {
      um[i] = (float)krng_uniform(&r, -1, 1);
      nu += (double)um[i] * um[i];
    }
    for (int i = 0; i < rows; ++i) um[i] = (float)(um[i] / sqrt(nu));
    const float *wm = w + m * per;
    for (int j = 0; j < cols; ++j) {
      v[j] = 0;
      for (int i = 0; i < rows; ++i) v[j] += (double)wm[(size_t)i * cols + j] * um[i];
      nv += v[j] * v[j];
    }
    for (int i = 0; i < rows; ++i) {
      wv[i] = 0;
      for (int j = 0; j < cols; ++j) wv[i] += (double)wm[(size_t)i * cols + j] * v[j];
      wv[i] /= sqrt(nv);
      nw += wv[i] * wv[i];
    }
    for (int i = 0; i < rows; ++i) ru[(size_t)m * rows + i] = (float)(wv[i] / sqrt(nw));
    rs[m] = (float)sqrt(nw);
  }
  free(v);
  free(wv);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, ub);
  kjob_arg_buf(job, u1b);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, rows);
  kjob_arg_i32(job, cols);
  kjob_grid(job, (size_t)mats, 1, 1, SN_T, 1, 1);
  return 0;
}

SP_SETUP(rsetup_ml) {
  switch (d->param) {
    case RML_ALIBI:
      return alibi_job(job, d, size);
    case RML_CTC:
      return ctc_job(job, d, size);
    case RML_LORA:
      return lora_job(job, d, size);
    case RML_SOFTCAP:
      return softcap_job(job, d, size);
    case RML_HASHGRID:
      return hashgrid_job(job, d, size);
    case RML_SPECNORM:
      return specnorm_job(job, d, size);
  }
  return -1;
}
