/* SPDX-License-Identifier: GPL-3.0-or-later */
/* llm.c: host half of llm.cl (AdamW, residual + RMSNorm, rotary
 * embeddings, NCHW -> NHWC, decode attention over an L2-resident KV cache,
 * ragged top-k, greedy sampling).  References are computed in double on
 * sampled outputs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validation2.h"

/* ---- AdamW ---------------------------------------------------------------- */

static int adamw_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 25 : (size_t)1 << 16;
  const float lr = 1e-3f, b1 = 0.9f, b2 = 0.999f, eps = 1e-8f, wd = 0.01f;
  const int step = 10;
  const float bc1 = (float)(1.0 / (1.0 - pow(b1, step)));
  const float bc2 = (float)(1.0 / (1.0 - pow(b2, step)));
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "llm.cl", "w_adamw_step");
  int p = kjob_buf(job, n * 4, KB_INOUT), g = win_f32(job, n, &r, -1, 1);
  int m = kjob_buf(job, n * 4, KB_INOUT), v = kjob_buf(job, n * 4, KB_INOUT);
  float *hp = job->buf[p].host, *hm = job->buf[m].host, *hv = job->buf[v].host;
  if (g < 0 || hp == NULL || hm == NULL || hv == NULL) return -1;
  kfill_f32(hp, n, &r, -1, 1);
  kfill_f32(hm, n, &r, -0.1, 0.1);
  kfill_f32(hv, n, &r, 0, 0.01);
  /* Each output is a few float operations on O(1) values: 1e-5 relative
   * with a floor for parameters near zero. */
  float *rp = wref_sampled(job, p, KC_F32, n, 1e-5, 1e-6);
  float *rm = wref_sampled(job, m, KC_F32, n, 1e-5, 1e-7);
  float *rv = wref_sampled(job, v, KC_F32, n, 1e-5, 1e-9);
  if (rp == NULL || rm == NULL || rv == NULL) return -1;
  const float *hg = job->buf[g].host;
  for (size_t s = 0; s < job->buf[p].count; ++s) {
    const size_t i = job->buf[p].sample[s];
    const double mi = b1 * (double)hm[i] + (1.0 - b1) * hg[i];
    const double vi = b2 * (double)hv[i] + (1.0 - b2) * (double)hg[i] * hg[i];
    rm[s] = (float)mi;
    rv[s] = (float)vi;
    rp[s] = (float)(hp[i] - lr * (mi * bc1 / (sqrt(vi * bc2) + eps) + wd * (double)hp[i]));
  }
  kjob_arg_buf(job, p);
  kjob_arg_buf(job, g);
  kjob_arg_buf(job, m);
  kjob_arg_buf(job, v);
  kjob_arg_f32(job, lr);
  kjob_arg_f32(job, b1);
  kjob_arg_f32(job, b2);
  kjob_arg_f32(job, eps);
  kjob_arg_f32(job, wd);
  kjob_arg_f32(job, bc1);
  kjob_arg_f32(job, bc2);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- residual + RMSNorm --------------------------------------------------- */

enum { RMS_H = 5120 };

static int rmsnorm_job(kjob *job, const kdesc *d, ksize size) {
  const size_t rows = size == KSIZE_FULL ? 8192 : 8, n = rows * RMS_H;
  const float eps = 1e-6f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "llm.cl", "w_rmsnorm_residual");
  int x = win_f32(job, n, &r, -2, 2), res = win_f32(job, n, &r, -1, 1);
  int w = win_f32(job, RMS_H, &r, 0.5, 1.5);
  int h = kjob_buf(job, n * 4, KB_OUT), y = kjob_buf(job, n * 4, KB_OUT);
  /* h is one float addition (exact in the reference's float); y has a
   * reordered sum of squares and an approximate rsqrt. */
  float *rh = wref_sampled(job, h, KC_F32, n, 0, 0);
  float *ry = wref_sampled(job, y, KC_F32, n, 1e-4, 1e-6);
  if (x < 0 || res < 0 || w < 0 || rh == NULL || ry == NULL) return -1;
  const float *hx = job->buf[x].host, *hr = job->buf[res].host, *hw = job->buf[w].host;
  size_t row = (size_t)-1;
  double inv = 0.0;
  for (size_t s = 0; s < job->buf[y].count; ++s) {
    const size_t e = job->buf[y].sample[s];
    if (e / RMS_H != row) { /* samples ascend: one sum per row */
      row = e / RMS_H;
      double ss = 0.0;
      for (size_t c = 0; c < RMS_H; ++c) {
        const float hv = hx[row * RMS_H + c] + hr[row * RMS_H + c];
        ss += (double)hv * hv;
      }
      inv = 1.0 / sqrt(ss / RMS_H + eps);
    }
    const float hv = hx[e] + hr[e];
    rh[s] = hv;
    ry[s] = (float)(hv * inv * hw[e % RMS_H]);
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, res);
  kjob_arg_buf(job, w);
  kjob_arg_buf(job, h);
  kjob_arg_buf(job, y);
  kjob_arg_f32(job, eps);
  kjob_grid(job, rows, 1, 1, 512, 1, 1);
  return 0;
}

/* ---- rotary embedding ----------------------------------------------------- */

static int rope_job(kjob *job, const kdesc *d, ksize size) {
  const int heads = size == KSIZE_FULL ? 32 : 4, seq = size == KSIZE_FULL ? 4096 : 64;
  const int tokens = size == KSIZE_FULL ? 16384 : 128; /* 4 sequences */
  const size_t n = (size_t)tokens * heads * 128, pairs = n / 2;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "llm.cl", "w_rope_qk");
  int q = kjob_buf(job, n * 4, KB_INOUT), k = kjob_buf(job, n * 4, KB_INOUT);
  int cb = kjob_buf(job, (size_t)seq * 64 * 4, KB_IN);
  int sb = kjob_buf(job, (size_t)seq * 64 * 4, KB_IN);
  float *hq = job->buf[q].host, *hk = job->buf[k].host;
  float *hc = job->buf[cb].host, *hs = job->buf[sb].host;
  if (hq == NULL || hk == NULL || hc == NULL || hs == NULL) return -1;
  kfill_f32(hq, n, &r, -1, 1);
  kfill_f32(hk, n, &r, -1, 1);
  for (int pos = 0; pos < seq; ++pos)
    for (int i = 0; i < 64; ++i) {
      const double a = pos * pow(10000.0, -i / 64.0);
      hc[pos * 64 + i] = (float)cos(a);
      hs[pos * 64 + i] = (float)sin(a);
    }
  /* Two products and a sum of values below 1 (with or without FMA). */
  float *rq = wref_sampled(job, q, KC_F32, n, 1e-6, 1e-6);
  float *rk = wref_sampled(job, k, KC_F32, n, 1e-6, 1e-6);
  if (rq == NULL || rk == NULL) return -1;
  for (size_t s = 0; s < job->buf[q].count; ++s) {
    const size_t e = job->buf[q].sample[s], th = e / 128, i = e % 128 % 64;
    const size_t pos = th / heads % seq, lo = th * 128 + i, hi = lo + 64;
    const double c = hc[pos * 64 + i], sn = hs[pos * 64 + i];
    const int upper = e % 128 >= 64;
    rq[s] = (float)(upper ? (double)hq[hi] * c + (double)hq[lo] * sn
                          : (double)hq[lo] * c - (double)hq[hi] * sn);
    rk[s] = (float)(upper ? (double)hk[hi] * c + (double)hk[lo] * sn
                          : (double)hk[lo] * c - (double)hk[hi] * sn);
  }
  kjob_arg_buf(job, q);
  kjob_arg_buf(job, k);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, heads);
  kjob_arg_i32(job, seq);
  kjob_arg_i32(job, (int)pairs);
  kjob_grid1(job, pairs, 256);
  return 0;
}

/* ---- NCHW -> NHWC --------------------------------------------------------- */

static int nhwc_job(kjob *job, const kdesc *d, ksize size) {
  const int batch = size == KSIZE_FULL ? 48 : 2, c = size == KSIZE_FULL ? 120 : 40;
  const int hw = size == KSIZE_FULL ? 112 * 112 : 20 * 20;
  const size_t n = (size_t)batch * c * hw;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "llm.cl", "w_nchw_to_nhwc");
  int in = win_f32(job, n, &r, -1, 1), out = kjob_buf(job, n * 4, KB_OUT);
  float *ref = wref_sampled(job, out, KC_F32, n, 0, 0); /* a copy: exact */
  if (in < 0 || ref == NULL) return -1;
  const float *hi = job->buf[in].host;
  for (size_t s = 0; s < job->buf[out].count; ++s) {
    const size_t e = job->buf[out].sample[s], img = e / ((size_t)hw * c);
    const size_t px = e / c % hw, ch = e % c;
    ref[s] = hi[(img * c + ch) * hw + px];
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, c);
  kjob_arg_i32(job, hw);
  kjob_grid(job, (hw + 31) / 32, (c + 31) / 32, batch, 32, 8, 1);
  return 0;
}

/* ---- decode attention ----------------------------------------------------- */

enum { GQ_D = 128 };

static int gqa_job(kjob *job, const kdesc *d, ksize size) {
  const int kvh = size == KSIZE_FULL ? 8 : 2, seq = size == KSIZE_FULL ? 2048 : 512;
  const int qph = size == KSIZE_FULL ? 64 : 4, nq = kvh * qph;
  const int rows = nq < 32 ? nq : 32;
  const size_t nkv = (size_t)kvh * seq * GQ_D;
  const float scale = (float)(1.0 / sqrt((double)GQ_D));
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "llm.cl", "w_gqa_decode");
  int q = win_f32(job, (size_t)nq * GQ_D, &r, -1, 1);
  int kc = win_f32(job, nkv, &r, -1, 1), vc = win_f32(job, nkv, &r, -1, 1);
  int o = kjob_buf(job, (size_t)nq * GQ_D * 4, KB_OUT);
  /* Outputs are convex combinations of values in [-1, 1). */
  float *ref = kjob_ref(job, o, KC_F32, (size_t)rows * GQ_D, 1e-4, 1e-5);
  size_t *smp = ref ? kjob_sample(job, o) : NULL;
  double *w = malloc(seq * sizeof *w);
  if (q < 0 || kc < 0 || vc < 0 || smp == NULL || w == NULL) {
    free(w);
    return -1;
  }
  const float *hq = job->buf[q].host, *hk = job->buf[kc].host, *hv = job->buf[vc].host;
  for (int s = 0; s < rows; ++s) {
    const size_t g = kspread(s, rows, nq), head = g / qph;
    const float *kh = hk + head * seq * GQ_D, *vh = hv + head * seq * GQ_D;
    double m = -INFINITY, l = 0.0;
    for (int t = 0; t < seq; ++t) {
      double acc = 0.0;
      for (int c = 0; c < GQ_D; ++c)
        acc += (double)(hq[g * GQ_D + c] * scale) * kh[(size_t)t * GQ_D + c];
      w[t] = acc;
      m = fmax(m, acc);
    }
    for (int t = 0; t < seq; ++t) l += (w[t] = exp(w[t] - m));
    for (int c = 0; c < GQ_D; ++c) {
      double acc = 0.0;
      for (int t = 0; t < seq; ++t) acc += w[t] * vh[(size_t)t * GQ_D + c];
      ref[s * GQ_D + c] = (float)(acc / l);
      smp[s * GQ_D + c] = g * GQ_D + c;
    }
  }
  free(w);
  kjob_arg_buf(job, q);
  kjob_arg_buf(job, kc);
  kjob_arg_buf(job, vc);
  kjob_arg_buf(job, o);
  kjob_arg_i32(job, seq);
  kjob_arg_i32(job, qph);
  kjob_arg_f32(job, scale);
  kjob_grid(job, nq, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- ragged top-k --------------------------------------------------------- */

enum { TK_K = 16 };

/* Row r's value at position i: distinct within the row (an odd multiplier
 * permutes 2^24 residues), exact in float. */
static float topk_value(uint32_t r, uint32_t i) {
  return (float)((i * 2654435761u + r * 40503u) & 0xffffff) * (1.0f / 16777216.0f);
}

static int topk_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const int rows = full ? 16384 : 64, nlong = full ? 8 : 2;
  const int minlen = 64, maxlen = full ? 8192 : 512, longlen = full ? 1 << 19 : 4096;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "llm.cl", "w_topk_rows");
  int ob = kjob_buf(job, (size_t)(rows + 1) * 4, KB_IN);
  int32_t *off = job->buf[ob].host;
  if (off == NULL) return -1;
  /* Lengths log-uniform in [minlen, maxlen], and nlong rows of longlen at
   * random places. */
  for (int i = 0; i < rows; ++i)
    off[i + 1] = (int32_t)(minlen * pow((double)maxlen / minlen, krng_uniform(&r, 0, 1)));
  for (int j = 0; j < nlong; ++j) off[1 + krng_below(&r, rows)] = longlen;
  for (int i = 0; i < rows; ++i) off[i + 1] += off[i];
  const size_t n = (size_t)off[rows];
  int x = kjob_buf(job, n * 4, KB_IN);
  int vb = kjob_buf(job, (size_t)rows * TK_K * 4, KB_OUT);
  int ib = kjob_buf(job, (size_t)rows * TK_K * 4, KB_OUT);
  float *hx = job->buf[x].host;
  /* Selected values and positions are exact. */
  float *rv = wref_sampled(job, vb, KC_F32, (size_t)rows * TK_K, 0, 0);
  uint32_t *ri = wref_sampled(job, ib, KC_U32, (size_t)rows * TK_K, 0, 0);
  if (hx == NULL || rv == NULL || ri == NULL) return -1;
  for (int i = 0; i < rows; ++i)
    for (int e = off[i]; e < off[i + 1]; ++e)
      hx[e] = topk_value((uint32_t)i, (uint32_t)(e - off[i]));
  /* Samples ascend: one insertion-sorted top-k per row sampled. */
  float tv[TK_K];
  uint32_t ti[TK_K];
  size_t row = (size_t)-1;
  for (size_t s = 0; s < job->buf[vb].count; ++s) {
    const size_t e = job->buf[vb].sample[s];
    if (e / TK_K != row) {
      row = e / TK_K;
      int have = 0;
      for (int j = off[row]; j < off[row + 1]; ++j) {
        const float v = hx[j];
        if (have == TK_K && v <= tv[TK_K - 1]) continue;
        int at = have < TK_K ? have++ : TK_K - 1;
        while (at > 0 && tv[at - 1] < v) {
          tv[at] = tv[at - 1];
          ti[at] = ti[at - 1];
          --at;
        }
        tv[at] = v;
        ti[at] = (uint32_t)(j - off[row]);
      }
    }
    rv[s] = tv[e % TK_K];
    ri[s] = ti[e % TK_K];
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, ib);
  kjob_grid(job, rows, 1, 1, 128, 1, 1);
  return 0;
}

/* ---- greedy sampling ------------------------------------------------------ */

static int argmax_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? 128256 : 4096;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "llm.cl", "w_argmax_vocab");
  int lg = win_f32(job, n, &r, -12, 12), out = kjob_buf(job, 4, KB_OUT);
  uint32_t *ref = kjob_ref(job, out, KC_U32, 1, 0, 0);
  if (lg < 0 || ref == NULL) return -1;
  const float *h = job->buf[lg].host;
  for (size_t i = 1; i < n; ++i)
    if (h[i] > h[*ref]) *ref = (uint32_t)i;
  kjob_arg_buf(job, lg);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  kjob_grid(job, 1, 1, 1, 1024, 1, 1);
  return 0;
}

int wsetup_llm(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case WLM_ADAMW:
      return adamw_job(job, d, size);
    case WLM_RMSNORM:
      return rmsnorm_job(job, d, size);
    case WLM_ROPE:
      return rope_job(job, d, size);
    case WLM_NHWC:
      return nhwc_job(job, d, size);
    case WLM_GQA_DECODE:
      return gqa_job(job, d, size);
    case WLM_TOPK:
      return topk_job(job, d, size);
    case WLM_ARGMAX:
      return argmax_job(job, d, size);
  }
  return -1;
}
