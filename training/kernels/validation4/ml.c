/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ml.c: host half of ml.cl (GroupNorm + SiLU, embedding bag, MoE gating,
 * mixed-precision Adam, paged decode attention, depthwise-separable
 * convolution, speculative-decoding verification).  References are computed
 * in double on sampled outputs, or replayed exactly in float where the
 * kernel's result is a discrete choice. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation4.h"

/* ---- GroupNorm + SiLU ---------------------------------------------------------- */

static int gn_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const int n = full ? 32 : 2, hw = full ? 64 * 64 : 64, c = 512, cg = 16, groups = c / cg;
  const size_t total = (size_t)n * hw * c;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "y_groupnorm_nhwc");
  int x = yin_f32(job, total, &r, -1, 3), gb = yin_f32(job, c, &r, 0.5, 1.5);
  int bb = yin_f32(job, c, &r, -0.5, 0.5), y = kjob_buf(job, total * 4, KB_OUT);
  float *ref = yref_sampled(job, y, KC_F32, total, 1e-4, 1e-5);
  double *mu = calloc((size_t)n * groups, sizeof *mu), *rs = calloc((size_t)n * groups, sizeof *rs);
  if (x < 0 || gb < 0 || bb < 0 || ref == NULL || mu == NULL || rs == NULL) {
    free(mu);
    free(rs);
    return -1;
  }
  const float *hx = job->buf[x].host, *hg = job->buf[gb].host, *hb = job->buf[bb].host;
  for (int i = 0; i < n; ++i)
    for (int g = 0; g < groups; ++g) {
      double s = 0, ss = 0;
      for (int p = 0; p < hw; ++p)
        for (int k = 0; k < cg; ++k) {
          const double v = hx[((size_t)i * hw + p) * c + g * cg + k];
          s += v;
          ss += v * v;
        }
      const double m = s / ((double)hw * cg);
      mu[i * groups + g] = m;
      rs[i * groups + g] = 1.0 / sqrt(ss / ((double)hw * cg) - m * m + 1e-5);
    }
  for (size_t s = 0; s < job->buf[y].count; ++s) {
    const size_t e = job->buf[y].sample[s], ch = e % c, img = e / ((size_t)hw * c);
    const size_t gi = img * groups + ch / cg;
    const double v = (hx[e] - mu[gi]) * rs[gi] * hg[ch] + hb[ch];
    ref[s] = (float)(v / (1 + exp(-v)));
  }
  free(mu);
  free(rs);
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, hw);
  kjob_arg_i32(job, c);
  kjob_grid(job, (size_t)n * groups, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- embedding bag -------------------------------------------------------------- */

static int embbag_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t rows = full ? 500000 : 2000, bags = full ? 65536 : 64, dim = 128;
  const int maxlen = full ? 80 : 20;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "y_embbag_sum");
  int *len = malloc(bags * sizeof *len);
  size_t nnz = 0;
  if (len == NULL) return -1;
  for (size_t b = 0; b < bags; ++b) nnz += (size_t)(len[b] = 1 + (int)krng_below(&r, maxlen));
  int tb = yin_f32(job, rows * dim, &r, -1, 1), ib = ybuf_u32(job, nnz, KB_IN);
  int wb = yin_f32(job, nnz, &r, 0, 1), ob = ybuf_u32(job, bags + 1, KB_IN);
  int out = kjob_buf(job, bags * dim * 4, KB_OUT);
  float *ref = yref_sampled(job, out, KC_F32, bags * dim, 1e-4, 1e-5);
  if (tb < 0 || ib < 0 || wb < 0 || ob < 0 || ref == NULL) {
    free(len);
    return -1;
  }
  uint32_t *hi = job->buf[ib].host, *ho = job->buf[ob].host;
  for (size_t i = 0; i < nnz; ++i) { /* a hot tenth of the rows takes half the lookups */
    const uint32_t u = krng_u32(&r);
    hi[i] = u & 1 ? krng_below(&r, (uint32_t)rows / 10) : krng_below(&r, (uint32_t)rows);
  }
  ho[0] = 0;
  for (size_t b = 0; b < bags; ++b) ho[b + 1] = ho[b] + (uint32_t)len[b];
  free(len);
  const float *ht = job->buf[tb].host, *hw = job->buf[wb].host;
  for (size_t s = 0; s < job->buf[out].count; ++s) {
    const size_t e = job->buf[out].sample[s], b = e / dim, c = e % dim;
    double acc = 0;
    for (uint32_t i = ho[b]; i < ho[b + 1]; ++i) acc += (double)hw[i] * ht[hi[i] * dim + c];
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, out);
  kjob_grid(job, bags, 1, 1, dim, 1, 1);
  return 0;
}

/* ---- MoE top-2 gating --------------------------------------------------------------- */

enum { MG_E = 64 };

static int moe_job(kjob *job, const kdesc *d, ksize size) {
  const size_t tokens = size == KSIZE_FULL ? 1u << 20 : 1000;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "y_moe_topk_gate");
  int lb = yin_f32(job, tokens * MG_E, &r, -4, 4), ib = kjob_buf(job, tokens * 8, KB_OUT);
  int wb = kjob_buf(job, tokens * 8, KB_OUT), cb = ybuf_u32(job, MG_E, KB_INOUT);
  uint32_t *ri = yref_sampled(job, ib, KC_U32, 2 * tokens, 0, 0);
  float *rw = yref_sampled(job, wb, KC_F32, 2 * tokens, 1e-5, 1e-6);
  uint32_t *rc = kjob_ref(job, cb, KC_U32, MG_E, 0, 0);
  if (lb < 0 || cb < 0 || ri == NULL || rw == NULL || rc == NULL) return -1;
  float *hl = job->buf[lb].host;
  /* A per-expert bias makes the routing skewed, as trained routers are. */
  for (size_t t = 0; t < tokens; ++t)
    for (int e = 0; e < MG_E; ++e) hl[t * MG_E + e] += (float)(e % 8) * 0.25f;
  for (size_t t = 0; t < tokens; ++t) {
    const float *row = hl + t * MG_E;
    int i1 = 0, i2 = -1;
    for (int e = 1; e < MG_E; ++e)
      if (row[e] > row[i1]) i1 = e;
    for (int e = 0; e < MG_E; ++e)
      if (e != i1 && (i2 < 0 || row[e] > row[i2])) i2 = e;
    rc[i1]++;
    rc[i2]++;
    const double e2 = exp((double)row[i2] - row[i1]);
    const size_t smp[2] = {2 * t, 2 * t + 1};
    for (int h = 0; h < 2; ++h) { /* samples ascend: a binary search finds them */
      size_t lo = 0, hi = job->buf[ib].count;
      while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (job->buf[ib].sample[mid] < smp[h])
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo < job->buf[ib].count && job->buf[ib].sample[lo] == smp[h]) {
        ri[lo] = (uint32_t)(h ? i2 : i1);
        rw[lo] = (float)(h ? e2 / (1 + e2) : 1 / (1 + e2));
      }
    }
  }
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, (int)tokens);
  kjob_grid1(job, tokens, 256);
  return 0;
}

/* ---- mixed-precision AdamW with clipping ----------------------------------------------- */

enum { AD_PARTS = 1024 };

static float bf16_to_f(uint32_t h) {
  const uint32_t u = h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Sampled bf16 weight pairs: each half within one unit in the last place of
 * the reference (the fp32 weight may differ by rounding). */
typedef struct bf_chk {
  int buf;
  size_t count;
  size_t idx[Y_SAMPLES];
  float ref[2 * Y_SAMPLES];
} bf_chk;

static int bf_check(const kjob *job, char *msg, size_t size) {
  const bf_chk *q = job->priv;
  const uint32_t *got = job->buf[q->buf].result;
  for (size_t c = 0; c < q->count; ++c)
    for (int h = 0; h < 2; ++h) {
      const float g = bf16_to_f(got[q->idx[c]] >> (16 * h) & 0xffffu), want = q->ref[2 * c + h];
      if (fabsf(g - want) > fabsf(want) * 0.008f + 1e-30f) {
        snprintf(msg, size, "bf16 weight %zu.%d: got %g, expected %g", q->idx[c], h, g, want);
        return -1;
      }
    }
  return 0;
}

static int adam_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)32 << 20 : 4096, nw = n / 2;
  const double lr = 1e-3, step = 100, bc1 = 1 - pow(0.9, step), bc2 = 1 - pow(0.999, step);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "y_adam_bf16_clip");
  int pb = kjob_buf(job, n * 4, KB_INOUT), mb = kjob_buf(job, n * 4, KB_INOUT);
  int vb = kjob_buf(job, n * 4, KB_INOUT), gb = ybuf_u32(job, nw, KB_IN);
  int sb = ybuf_u32(job, AD_PARTS, KB_IN), ob = kjob_buf(job, nw * 4, KB_OUT);
  float *rp = yref_sampled(job, pb, KC_F32, n, 1e-5, 1e-7);
  float *rm = yref_sampled(job, mb, KC_F32, n, 1e-5, 1e-9);
  float *rv = yref_sampled(job, vb, KC_F32, n, 1e-5, 1e-12);
  bf_chk *q = job->priv = malloc(sizeof *q);
  float *hp = job->buf[pb].host, *hm = job->buf[mb].host, *hv = job->buf[vb].host;
  if (gb < 0 || sb < 0 || !rp || !rm || !rv || !q || !hp || !hm || !hv) return -1;
  uint32_t *hg = job->buf[gb].host;
  float *hs = job->buf[sb].host;
  kfill_f32(hp, n, &r, -0.1, 0.1);
  kfill_f32(hm, n, &r, -1e-3, 1e-3);
  for (size_t i = 0; i < n; ++i) hv[i] = (float)krng_uniform(&r, 0, 1e-6);
  double sq = 0;
  for (size_t i = 0; i < nw; ++i) {
    uint32_t w = 0;
    for (int h = 0; h < 2; ++h) {
      float g = (float)krng_uniform(&r, -2e-3, 2e-3);
      uint32_t u;
      memcpy(&u, &g, 4);
      u >>= 16;
      g = bf16_to_f(u);
      sq += (double)g * g;
      w |= u << (16 * h);
    }
    hg[i] = w;
  }
  /* The norm is about 2.7 at full size (clipped to 1), 0.04 when small. */
  for (int k = 0; k < AD_PARTS; ++k) hs[k] = (float)(sq / AD_PARTS);
  double norm = 0;
  for (int k = 0; k < AD_PARTS; ++k) norm += hs[k];
  const double clip = fmin(1.0, 1.0 / (sqrt(norm) + 1e-6));
  q->buf = ob;
  q->count = nw < Y_SAMPLES ? nw : Y_SAMPLES;
  for (size_t c = 0; c < q->count; ++c) q->idx[c] = kspread(c, q->count, nw);
  size_t ci = 0;
  for (size_t s = 0; s < job->buf[pb].count; ++s) {
    const size_t e = job->buf[pb].sample[s];
    const double g = bf16_to_f(hg[e / 2] >> (16 * (e % 2)) & 0xffffu) * clip;
    const double m = 0.9 * hm[e] + 0.1 * g, v = 0.999 * hv[e] + 0.001 * g * g;
    const double p = hp[e] - lr * ((m / bc1) / (sqrt(v / bc2) + 1e-8) + 0.01 * hp[e]);
    rp[s] = (float)p;
    rm[s] = (float)m;
    rv[s] = (float)v;
  }
  for (ci = 0; ci < q->count; ++ci)
    for (int h = 0; h < 2; ++h) {
      const size_t e = 2 * q->idx[ci] + (size_t)h;
      const double g = bf16_to_f(hg[e / 2] >> (16 * (e % 2)) & 0xffffu) * clip;
      const double m = 0.9 * hm[e] + 0.1 * g, v = 0.999 * hv[e] + 0.001 * g * g;
      q->ref[2 * ci + h] =
          (float)(hp[e] - lr * ((m / bc1) / (sqrt(v / bc2) + 1e-8) + 0.01 * hp[e]));
    }
  job->check = bf_check;
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, mb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)nw);
  kjob_arg_f32(job, (float)lr);
  kjob_arg_f32(job, (float)bc1);
  kjob_arg_f32(job, (float)bc2);
  kjob_grid1(job, nw, 256);
  return 0;
}

/* ---- paged decode attention ---------------------------------------------------------- */

enum { PD_D = 128, PD_PAGE = 16, PD_G = 4, PD_SPLIT = 512, PD_SAMPLES = 48 };

static int paged_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const int seqs = full ? 32 : 3, kvh = full ? 8 : 2, lmin = full ? 512 : 40;
  const int lmax = full ? 4096 : 700, qh = kvh * PD_G;
  const int maxpages = (lmax + PD_PAGE - 1) / PD_PAGE, nsplit = (lmax + PD_SPLIT - 1) / PD_SPLIT;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "y_paged_decode_splitk");
  int lens[64], pages = 0;
  for (int s = 0; s < seqs; ++s) {
    lens[s] = lmin + (int)krng_below(&r, (uint32_t)(lmax - lmin + 1));
    pages += (lens[s] + PD_PAGE - 1) / PD_PAGE;
  }
  const size_t psz = (size_t)kvh * PD_PAGE * PD_D, nout = (size_t)seqs * qh * nsplit;
  int qb = yin_f32(job, (size_t)seqs * qh * PD_D, &r, -1, 1);
  int kb = yin_f32(job, (size_t)pages * psz, &r, -1, 1);
  int vb = yin_f32(job, (size_t)pages * psz, &r, -1, 1);
  int bt = ybuf_u32(job, (size_t)seqs * maxpages, KB_IN), lb = ybuf_u32(job, (size_t)seqs, KB_IN);
  int cb = kjob_buf(job, (size_t)lmax * PD_D * 4, KB_IN);
  int oa = kjob_buf(job, nout * PD_D * 4, KB_OUT), om = kjob_buf(job, nout * 2 * 4, KB_OUT);
  float *ra = kjob_ref(job, oa, KC_F32, (size_t)PD_SAMPLES * PD_D, 2e-4, 2e-4);
  float *rm = kjob_ref(job, om, KC_F32, (size_t)PD_SAMPLES * 2, 2e-4, 2e-4);
  size_t *sa = ra ? kjob_sample(job, oa) : NULL, *sm = rm ? kjob_sample(job, om) : NULL;
  if (qb < 0 || kb < 0 || vb < 0 || bt < 0 || lb < 0 || !job->buf[cb].host || !sa || !sm) return -1;
  int32_t *hb = job->buf[bt].host, *hl = job->buf[lb].host;
  float *hc = job->buf[cb].host;
  /* Pages handed out in a shuffled order, as a block allocator leaves them. */
  int *perm = malloc((size_t)pages * sizeof *perm);
  double *sc = malloc((size_t)PD_SPLIT * sizeof *sc);
  if (perm == NULL || sc == NULL) {
    free(perm);
    free(sc);
    return -1;
  }
  for (int i = 0; i < pages; ++i) perm[i] = i;
  for (int i = pages - 1; i > 0; --i) {
    const int j = (int)krng_below(&r, (uint32_t)i + 1), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (int s = 0, at = 0; s < seqs; ++s) {
    hl[s] = lens[s];
    for (int p = 0; p < (lens[s] + PD_PAGE - 1) / PD_PAGE; ++p) hb[s * maxpages + p] = perm[at++];
  }
  free(perm);
  for (int pos = 0; pos < lmax; ++pos)
    for (int i = 0; i < PD_D / 2; ++i) {
      const double a = pos * pow(10000.0, -2.0 * i / PD_D);
      hc[pos * PD_D + i] = (float)cos(a);
      hc[pos * PD_D + PD_D / 2 + i] = (float)sin(a);
    }
  const float *hq = job->buf[qb].host, *hk = job->buf[kb].host, *hv = job->buf[vb].host;
  for (int c = 0; c < PD_SAMPLES; ++c) {
    const int s = (int)krng_below(&r, (uint32_t)seqs), h = (int)krng_below(&r, (uint32_t)qh);
    const int split = (int)krng_below(&r, (uint32_t)((lens[s] + PD_SPLIT - 1) / PD_SPLIT));
    const int lo = split * PD_SPLIT, hi = lo + PD_SPLIT < lens[s] ? lo + PD_SPLIT : lens[s];
    const int hk2 = h / PD_G, pos = lens[s] - 1;
    double qr[PD_D], mx = -1e300, l = 0;
    const float *qv = hq + ((size_t)s * qh + h) * PD_D, *cs = hc + (size_t)pos * PD_D;
    for (int i = 0; i < PD_D / 2; ++i) {
      qr[i] = (double)qv[i] * cs[i] - (double)qv[i + PD_D / 2] * cs[PD_D / 2 + i];
      qr[i + PD_D / 2] = (double)qv[i + PD_D / 2] * cs[i] + (double)qv[i] * cs[PD_D / 2 + i];
    }
    for (int j = lo; j < hi; ++j) {
      const float *kr = hk + ((size_t)hb[s * maxpages + j / PD_PAGE] * kvh + hk2) * PD_PAGE * PD_D +
                        (size_t)(j % PD_PAGE) * PD_D;
      double a = 0;
      for (int i = 0; i < PD_D; ++i) a += qr[i] * kr[i];
      sc[j - lo] = a / sqrt((double)PD_D);
      mx = fmax(mx, sc[j - lo]);
    }
    for (int j = lo; j < hi; ++j) l += sc[j - lo] = exp(sc[j - lo] - mx);
    const size_t o = ((size_t)s * qh + h) * nsplit + split;
    for (int i = 0; i < PD_D; ++i) {
      double a = 0;
      for (int j = lo; j < hi; ++j)
        a += sc[j - lo] * hv[((size_t)hb[s * maxpages + j / PD_PAGE] * kvh + hk2) * PD_PAGE * PD_D +
                             (size_t)(j % PD_PAGE) * PD_D + i];
      ra[c * PD_D + i] = (float)a;
      sa[c * PD_D + i] = o * PD_D + (size_t)i;
    }
    rm[2 * c] = (float)mx;
    rm[2 * c + 1] = (float)l;
    sm[2 * c] = 2 * o;
    sm[2 * c + 1] = 2 * o + 1;
  }
  free(sc);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, bt);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, oa);
  kjob_arg_buf(job, om);
  kjob_arg_i32(job, kvh);
  kjob_arg_i32(job, maxpages);
  kjob_grid(job, (size_t)nsplit, (size_t)kvh, (size_t)seqs, PD_D, 1, 1);
  return 0;
}

/* ---- depthwise-separable convolution ------------------------------------------------ */

enum { DS_CI = 64, DS_CO = 128 };

static int dwsep_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, n = full ? 32 : 1, h = full ? 112 : 8, w = full ? 112 : 32;
  const size_t px = (size_t)n * h * w;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "y_dwsep_conv");
  int x = yin_f32(job, px * DS_CI, &r, -1, 1), wd = yin_f32(job, 9 * DS_CI, &r, -0.5, 0.5);
  int bd = yin_f32(job, DS_CI, &r, -0.1, 0.3), wp = yin_f32(job, DS_CI * DS_CO, &r, -0.2, 0.2);
  int bp = yin_f32(job, DS_CO, &r, -0.1, 0.1), y = kjob_buf(job, px * DS_CO * 4, KB_OUT);
  float *ref = yref_sampled(job, y, KC_F32, px * DS_CO, 1e-4, 1e-4);
  if (x < 0 || wd < 0 || bd < 0 || wp < 0 || bp < 0 || ref == NULL) return -1;
  const float *hx = job->buf[x].host, *hd = job->buf[wd].host, *hbd = job->buf[bd].host;
  const float *hp = job->buf[wp].host, *hbp = job->buf[bp].host;
  for (size_t s = 0; s < job->buf[y].count; ++s) {
    const size_t e = job->buf[y].sample[s], co = e % DS_CO, p = e / DS_CO;
    const int img = (int)(p / ((size_t)h * w)), yy = (int)(p / w % h), xx = (int)(p % w);
    double acc = hbp[co];
    for (int c = 0; c < DS_CI; ++c) {
      double a = hbd[c];
      for (int k = 0; k < 9; ++k) {
        const int iy = yy + k / 3 - 1, ix = xx + k % 3 - 1;
        if (iy >= 0 && iy < h && ix >= 0 && ix < w)
          a += (double)hx[(((size_t)img * h + iy) * w + ix) * DS_CI + c] * hd[k * DS_CI + c];
      }
      acc += fmin(fmax(a, 0), 6) * hp[c * DS_CO + co];
    }
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, wd);
  kjob_arg_buf(job, bd);
  kjob_arg_buf(job, wp);
  kjob_arg_buf(job, bp);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, h);
  kjob_arg_i32(job, w);
  kjob_grid(job, px / 16, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- speculative decoding verification ----------------------------------------------- */

enum { SV_T = 256 };

static float sv_term(const float *p, const float *q, int i, int k, int v) {
  return i < k ? fmaxf(p[v] - q[v], 0.0f) : p[v];
}

static int spec_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, req = full ? 128 : 6, k = 4, vocab = full ? 128256 : 5000;
  const size_t np = (size_t)req * (k + 1) * vocab, nq = (size_t)req * k * vocab;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "y_spec_verify");
  /* Probabilities around 1/vocab; a draft token that the two models agree
   * on more or less, so that rejections fall at every position. */
  int pb = yin_f32(job, np, &r, 0, 2.0 / vocab), qb = yin_f32(job, nq, &r, 0, 2.0 / vocab);
  int db = ybuf_u32(job, (size_t)req * k, KB_IN),
      ub = yin_f32(job, (size_t)req * (k + 1), &r, 0, 1);
  int ob = kjob_buf(job, (size_t)req * 8, KB_OUT);
  uint32_t *ref = kjob_ref(job, ob, KC_U32, (size_t)req * 2, 0, 0);
  if (pb < 0 || qb < 0 || db < 0 || ub < 0 || ref == NULL) return -1;
  float *hp = job->buf[pb].host, *hq = job->buf[qb].host;
  const float *hu = job->buf[ub].host;
  int32_t *hd = job->buf[db].host;
  for (int q = 0; q < req; ++q)
    for (int i = 0; i < k; ++i) {
      const int x = (int)krng_below(&r, (uint32_t)vocab);
      hd[q * k + i] = x;
      hq[((size_t)q * k + i) * vocab + x] = (float)(20.0 / vocab);
      hp[((size_t)q * (k + 1) + i) * vocab + x] =
          (float)krng_uniform(&r, 10.0 / vocab, 24.0 / vocab);
    }
  const int chunk = (vocab + SV_T - 1) / SV_T;
  for (int q = 0; q < req; ++q) {
    int i = 0;
    for (; i < k; ++i) {
      const int x = hd[q * k + i];
      if (!(hu[q * (k + 1) + i] * hq[((size_t)q * k + i) * vocab + x] <
            hp[((size_t)q * (k + 1) + i) * vocab + x]))
        break;
    }
    const float *pr = hp + ((size_t)q * (k + 1) + i) * vocab;
    const float *qr = hq + ((size_t)q * k + (i < k ? i : 0)) * vocab;
    float part[SV_T], base[SV_T], run = 0;
    for (int t = 0; t < SV_T; ++t) {
      float s = 0;
      const int lo = t * chunk, hi = lo + chunk < vocab ? lo + chunk : vocab;
      for (int v = lo; v < hi; ++v) s += sv_term(pr, qr, i, k, v);
      part[t] = s;
    }
    for (int t = 0; t < SV_T; ++t) {
      base[t] = run;
      run += part[t];
    }
    const float thr = run * hu[q * (k + 1) + k];
    base[0] = 0;
    int pick = -1;
    for (int t = 0; t < SV_T && pick < 0; ++t) {
      const float b1 = t + 1 < SV_T ? base[t + 1] : 3.0e38f;
      if (!(base[t] <= thr && thr < b1)) continue;
      const int lo = t * chunk, hi = lo + chunk < vocab ? lo + chunk : vocab;
      float acc = base[t];
      pick = hi - 1;
      for (int v = lo; v < hi; ++v) {
        acc += sv_term(pr, qr, i, k, v);
        if (acc > thr) {
          pick = v;
          break;
        }
      }
      if (pick < lo) pick = lo;
    }
    ref[2 * q] = (uint32_t)i;
    ref[2 * q + 1] = (uint32_t)pick;
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, ub);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, k);
  kjob_arg_i32(job, vocab);
  kjob_grid(job, (size_t)req, 1, 1, SV_T, 1, 1);
  return 0;
}

SP_SETUP(ysetup_ml) {
  switch (d->param) {
    case YML_GN:
      return gn_job(job, d, size);
    case YML_EMBBAG:
      return embbag_job(job, d, size);
    case YML_MOE:
      return moe_job(job, d, size);
    case YML_ADAM:
      return adam_job(job, d, size);
    case YML_PAGED:
      return paged_job(job, d, size);
    case YML_DWSEP:
      return dwsep_job(job, d, size);
    case YML_SPEC:
      return spec_job(job, d, size);
  }
  return -1;
}
