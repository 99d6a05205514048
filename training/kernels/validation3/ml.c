/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ml.c: host half of ml.cl (LayerNorm backward, implicit-GEMM convolution,
 * int8 row quantisation, int4 weight-only GEMM, MoE dispatch, beam search,
 * top-p sampling, paged KV append).  References are computed in double on
 * sampled outputs, or replayed exactly where the kernel's result is exact. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation3.h"

/* ---- LayerNorm backward ----------------------------------------------------- */

enum { LN_H = 1024, LN_ROWS = 32 };

/* The double row sums of dx: mean of g = dy*gamma and of g*xhat. */
static void ln_row_sums(const float *x, const float *dy, const float *gm, float mu, float rs,
                        double *a, double *b) {
  double s1 = 0, s2 = 0;
  for (int c = 0; c < LN_H; ++c) {
    const double g = (double)dy[c] * gm[c], xh = ((double)x[c] - mu) * rs;
    s1 += g;
    s2 += g * xh;
  }
  *a = s1 / LN_H;
  *b = s2 / LN_H;
}

static int ln_bwd_job(kjob *job, const kdesc *d, ksize size) {
  const size_t rows = size == KSIZE_FULL ? 65536 : 64, n = rows * LN_H, groups = rows / LN_ROWS;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "x_layernorm_bwd");
  int x = xin_f32(job, n, &r, -2, 2), dy = xin_f32(job, n, &r, -1, 1);
  int gb = xin_f32(job, LN_H, &r, 0.5, 1.5);
  int mb = kjob_buf(job, rows * 4, KB_IN), sb = kjob_buf(job, rows * 4, KB_IN);
  int dx = kjob_buf(job, n * 4, KB_OUT);
  int pg = kjob_buf(job, groups * LN_H * 4, KB_OUT), pb = kjob_buf(job, groups * LN_H * 4, KB_OUT);
  /* dx: two reordered 1024-term sums; the partials: 32-term sums. */
  float *rdx = xref_sampled(job, dx, KC_F32, n, 1e-4, 2e-5);
  float *rpg = xref_sampled(job, pg, KC_F32, groups * LN_H, 1e-5, 1e-5);
  float *rpb = xref_sampled(job, pb, KC_F32, groups * LN_H, 1e-5, 1e-5);
  float *hm = job->buf[mb].host, *hs = job->buf[sb].host;
  if (x < 0 || dy < 0 || gb < 0 || hm == NULL || hs == NULL || !rdx || !rpg || !rpb) return -1;
  const float *hx = job->buf[x].host, *hd = job->buf[dy].host, *hg = job->buf[gb].host;
  for (size_t i = 0; i < rows; ++i) { /* the forward pass's statistics */
    double s = 0, ss = 0;
    for (int c = 0; c < LN_H; ++c) s += hx[i * LN_H + c];
    const double mu = s / LN_H;
    for (int c = 0; c < LN_H; ++c) ss += (hx[i * LN_H + c] - mu) * (hx[i * LN_H + c] - mu);
    hm[i] = (float)mu;
    hs[i] = (float)(1.0 / sqrt(ss / LN_H + 1e-5));
  }
  size_t row = (size_t)-1;
  double a = 0, b = 0;
  for (size_t s = 0; s < job->buf[dx].count; ++s) {
    const size_t e = job->buf[dx].sample[s], c = e % LN_H;
    if (e / LN_H != row) { /* samples ascend: one pair of sums per row */
      row = e / LN_H;
      ln_row_sums(hx + row * LN_H, hd + row * LN_H, hg, hm[row], hs[row], &a, &b);
    }
    const double xh = ((double)hx[e] - hm[row]) * hs[row];
    rdx[s] = (float)(hs[row] * ((double)hd[e] * hg[c] - a - xh * b));
  }
  for (size_t s = 0; s < job->buf[pg].count; ++s) {
    const size_t e = job->buf[pg].sample[s], g = e / LN_H, c = e % LN_H;
    double sg = 0, sb2 = 0;
    for (size_t i = g * LN_ROWS; i < (g + 1) * LN_ROWS; ++i) {
      sg += (double)hd[i * LN_H + c] * (((double)hx[i * LN_H + c] - hm[i]) * hs[i]);
      sb2 += hd[i * LN_H + c];
    }
    rpg[s] = (float)sg;
    rpb[s] = (float)sb2;
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, dy);
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, mb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, dx);
  kjob_arg_buf(job, pg);
  kjob_arg_buf(job, pb);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- implicit-GEMM convolution ------------------------------------------------ */

static int conv_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const int nb = full ? 32 : 1, h = full ? 56 : 8, w = full ? 56 : 8, c = full ? 128 : 16;
  const int k = full ? 128 : 64;
  const size_t m = (size_t)nb * h * w, kdim = 9 * (size_t)c;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "x_conv3x3_igemm");
  int in = xin_f32(job, m * c, &r, -1, 1), wt = xin_f32(job, (size_t)k * kdim, &r, -0.1, 0.1);
  int out = kjob_buf(job, m * k * 4, KB_OUT);
  /* 1152-term sums of O(0.1) products, reordered. */
  float *ref = xref_sampled(job, out, KC_F32, m * k, 1e-4, 1e-4);
  if (in < 0 || wt < 0 || ref == NULL) return -1;
  const float *hi = job->buf[in].host, *hw = job->buf[wt].host;
  for (size_t s = 0; s < job->buf[out].count; ++s) {
    const size_t e = job->buf[out].sample[s], px = e / k, oc = e % k;
    const int img = (int)(px / ((size_t)h * w)), y = (int)(px / w % h), xx = (int)(px % w);
    double acc = 0;
    for (int tap = 0; tap < 9; ++tap) {
      const int iy = y + tap / 3 - 1, ix = xx + tap % 3 - 1;
      if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
      const float *ip = hi + (((size_t)img * h + iy) * w + ix) * c;
      const float *wp = hw + oc * kdim + (size_t)tap * c;
      for (int ch = 0; ch < c; ++ch) acc += (double)ip[ch] * wp[ch];
    }
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, wt);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, h);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, c);
  kjob_arg_i32(job, k);
  kjob_grid(job, m / 64, (size_t)k / 64, 1, 256, 1, 1);
  return 0;
}

/* ---- int8 row quantisation ---------------------------------------------------- */

enum { QZ_H = 4096 };

/* Sampled packed codes, each byte within 1 of the reference's (the
 * kernel's division and rounding may differ from the host's by one ulp
 * at a rounding boundary). */
typedef struct code_chk {
  int buf;
  size_t count;
  size_t idx[X_SAMPLES];
  uint32_t ref[X_SAMPLES];
} code_chk;

static int code_check(const kjob *job, char *msg, size_t size) {
  const code_chk *q = job->priv;
  const uint32_t *got = job->buf[q->buf].result;
  for (size_t c = 0; c < q->count; ++c)
    for (int b = 0; b < 4; ++b) {
      const int g = (int8_t)(got[q->idx[c]] >> (8 * b)), want = (int8_t)(q->ref[c] >> (8 * b));
      if (abs(g - want) > 1) {
        snprintf(msg, size, "code %zu byte %d: got %d, expected %d", q->idx[c], b, g, want);
        return -1;
      }
    }
  return 0;
}

static int quant_job(kjob *job, const kdesc *d, ksize size) {
  const size_t rows = size == KSIZE_FULL ? 32768 : 16, n = rows * QZ_H, nw = n / 4;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "x_quant_int8_rows");
  int x = kjob_buf(job, n * 4, KB_IN), qb = kjob_buf(job, nw * 4, KB_OUT);
  int sb = kjob_buf(job, rows * 4, KB_OUT);
  float *hx = job->buf[x].host;
  float *rs = kjob_ref(job, sb, KC_F32, rows, 1e-6, 0); /* one division */
  code_chk *q = job->priv = malloc(sizeof *q);
  if (hx == NULL || rs == NULL || q == NULL) return -1;
  /* Rows of different ranges, a few outliers per row (activation-like). */
  for (size_t i = 0; i < rows; ++i) {
    const double range = 0.5 + 7.5 * krng_uniform(&r, 0, 1);
    kfill_f32(hx + i * QZ_H, QZ_H, &r, -range, range);
    for (int o = 0; o < 3; ++o) hx[i * QZ_H + krng_below(&r, QZ_H)] = (float)(range * 6 * (o - 1));
  }
  float *amax = calloc(rows, sizeof *amax);
  if (amax == NULL) return -1;
  for (size_t i = 0; i < rows; ++i) {
    for (int c = 0; c < QZ_H; ++c) amax[i] = fmaxf(amax[i], fabsf(hx[i * QZ_H + c]));
    rs[i] = amax[i] / 127.0f;
  }
  q->buf = qb;
  q->count = nw < X_SAMPLES ? nw : X_SAMPLES;
  for (size_t c = 0; c < q->count; ++c) {
    /* Word j*256 + t of a row holds columns j*1024 + 4t .. + 3. */
    const size_t wi = kspread(c, q->count, nw), row = wi / (QZ_H / 4), wr = wi % (QZ_H / 4);
    const size_t col = wr / 256 * 1024 + 4 * (wr % 256);
    const float inv = amax[row] > 0 ? 127.0f / amax[row] : 0.0f;
    uint32_t word = 0;
    for (int b = 0; b < 4; ++b) {
      int code = (int)rintf(hx[row * QZ_H + col + b] * inv);
      code = code > 127 ? 127 : code < -127 ? -127 : code;
      word |= ((uint32_t)code & 255u) << (8 * b);
    }
    q->idx[c] = wi;
    q->ref[c] = word;
  }
  free(amax);
  job->check = code_check;
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, sb);
  kjob_grid(job, rows, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- int4 weight-only GEMM ------------------------------------------------------ */

enum { I4_B = 8, I4_G = 128 };

static int int4_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 32768 : 64, k = size == KSIZE_FULL ? 8192 : 1024;
  const size_t nwords = (size_t)n * k / 8, ng = (size_t)n * (k / I4_G);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "x_int4_gemm_b8");
  int wq = kjob_buf(job, nwords * 4, KB_IN);
  int sc = xin_f32(job, ng, &r, 0.01, 0.02), zp = xin_f32(job, ng, &r, 7, 9);
  int xb = xin_f32(job, (size_t)I4_B * k, &r, -1, 1);
  int y = kjob_buf(job, (size_t)I4_B * n * 4, KB_OUT);
  uint32_t *hq = job->buf[wq].host;
  /* 8192-term sums of products below 0.15 in any order. */
  float *ref = xref_sampled(job, y, KC_F32, (size_t)I4_B * n, 1e-4, 1e-4);
  if (hq == NULL || sc < 0 || zp < 0 || xb < 0 || ref == NULL) return -1;
  kfill_u32(hq, nwords, &r);
  const float *hs = job->buf[sc].host, *hz = job->buf[zp].host, *hx = job->buf[xb].host;
  for (size_t s = 0; s < job->buf[y].count; ++s) {
    const size_t e = job->buf[y].sample[s], b = e / n, row = e % n;
    double acc = 0;
    for (int kk = 0; kk < k; ++kk) {
      const uint32_t q = hq[row * (k / 8) + kk / 8] >> (4 * (kk % 8)) & 15u;
      const size_t g = row * (k / I4_G) + kk / I4_G;
      acc += ((double)q - hz[g]) * hs[g] * hx[b * k + kk];
    }
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, wq);
  kjob_arg_buf(job, sc);
  kjob_arg_buf(job, zp);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, k);
  kjob_grid(job, (size_t)n / 32, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- MoE dispatch ------------------------------------------------------------------ */

enum { MOE_D = 128, MOE_E = 8 };

typedef struct moe_chk {
  int xb, ob, sb;
  size_t tokens;
  int off[MOE_E + 1];
  int32_t want[]; /* per expert region: its tokens, ascending */
} moe_chk;

static int cmp_i32(const void *a, const void *b) {
  const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Every expert region holds exactly the tokens routed to it, once each,
 * and sampled rows are copies of their token's row. */
static int moe_check(const kjob *job, char *msg, size_t size) {
  const moe_chk *m = job->priv;
  const size_t np = 2 * m->tokens;
  int32_t *src = malloc(np * sizeof *src);
  if (src == NULL) {
    snprintf(msg, size, "out of host memory");
    return -1;
  }
  memcpy(src, job->buf[m->sb].result, np * sizeof *src);
  int rc = 0;
  for (int e = 0; e < MOE_E && rc == 0; ++e) {
    const int lo = m->off[e], n = m->off[e + 1] - lo;
    qsort(src + lo, (size_t)n, sizeof *src, cmp_i32);
    if (memcmp(src + lo, m->want + lo, (size_t)n * sizeof *src) != 0) {
      snprintf(msg, size, "expert %d's rows do not hold its %d tokens once each", e, n);
      rc = -1;
    }
  }
  free(src);
  const int32_t *got = job->buf[m->sb].result;
  const float *x = job->buf[m->xb].host, *out = job->buf[m->ob].result;
  for (size_t c = 0; c < X_SAMPLES && rc == 0; ++c) {
    const size_t row = kspread(c, X_SAMPLES, np);
    if (memcmp(out + row * MOE_D, x + (size_t)got[row] * MOE_D, MOE_D * sizeof *x) != 0) {
      snprintf(msg, size, "dispatch row %zu is not a copy of token %d", row, got[row]);
      rc = -1;
    }
  }
  return rc;
}

/* Two distinct experts per token from a skewed popularity; m->off and
 * m->want follow. */
static void moe_route(krng *r, int *route, size_t tokens, moe_chk *m) {
  static const double share[MOE_E] = {0.30, 0.20, 0.14, 0.11, 0.09, 0.07, 0.05, 0.04};
  int cnt[MOE_E] = {0};
  for (size_t t = 0; t < tokens; ++t)
    for (int kk = 0; kk < 2; ++kk) {
      int e;
      do {
        double u = krng_uniform(r, 0, 1);
        for (e = 0; e < MOE_E - 1 && u >= share[e]; ++e) u -= share[e];
      } while (kk == 1 && e == route[2 * t]);
      route[2 * t + kk] = e;
      cnt[e]++;
    }
  m->off[0] = 0;
  for (int e = 0; e < MOE_E; ++e) m->off[e + 1] = m->off[e] + cnt[e];
  int fill[MOE_E];
  memcpy(fill, m->off, sizeof fill);
  for (size_t p = 0; p < 2 * tokens; ++p) m->want[fill[route[p]]++] = (int32_t)(p / 2);
}

static int moe_job(kjob *job, const kdesc *d, ksize size) {
  const size_t tokens = size == KSIZE_FULL ? 262144 : 512, np = 2 * tokens;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "x_moe_dispatch");
  int x = xin_f32(job, tokens * MOE_D, &r, -1, 1), rb = xbuf_u32(job, np, KB_IN);
  int ob = xbuf_u32(job, MOE_E + 1, KB_IN), cb = xbuf_u32(job, MOE_E, KB_INOUT);
  int out = kjob_buf(job, np * MOE_D * 4, KB_OUT), sb = xbuf_u32(job, np, KB_OUT);
  uint32_t *rc = kjob_ref(job, cb, KC_U32, MOE_E, 0, 0); /* every counter ends at its size */
  moe_chk *m = job->priv = malloc(sizeof *m + np * sizeof *m->want);
  if (x < 0 || rb < 0 || ob < 0 || cb < 0 || rc == NULL || m == NULL) return -1;
  moe_route(&r, job->buf[rb].host, tokens, m);
  memcpy(job->buf[ob].host, m->off, sizeof m->off);
  for (int e = 0; e < MOE_E; ++e) rc[e] = (uint32_t)(m->off[e + 1] - m->off[e]);
  m->xb = x;
  m->ob = out;
  m->sb = sb;
  m->tokens = tokens;
  job->check = moe_check;
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, out);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, (int)np);
  kjob_grid(job, np / 8, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- beam search --------------------------------------------------------------------- */

enum { BS_W = 8, BS_K = 16 };

/* The BS_K best (score, candidate) of one item, ties to the lower index. */
static void beam_topk(const float *lp, const float *beam, int vocab, float *bs, int32_t *bi) {
  int have = 0;
  for (int w = 0; w < BS_W; ++w)
    for (int v = 0; v < vocab; ++v) {
      const float s = beam[w] + lp[(size_t)w * vocab + v];
      if (have == BS_K && !(s > bs[BS_K - 1])) continue;
      int j = have < BS_K ? have++ : BS_K - 1;
      while (j > 0 && s > bs[j - 1]) {
        bs[j] = bs[j - 1];
        bi[j] = bi[j - 1];
        --j;
      }
      bs[j] = s;
      bi[j] = w * vocab + v;
    }
}

static int beam_job(kjob *job, const kdesc *d, ksize size) {
  const int items = size == KSIZE_FULL ? 64 : 3, vocab = size == KSIZE_FULL ? 128256 : 3000;
  const size_t n = (size_t)items * BS_W * vocab, no = (size_t)items * BS_K;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "x_beam_search");
  int lp = kjob_buf(job, n * 4, KB_IN), bb = xin_f32(job, (size_t)items * BS_W, &r, -6, 0);
  int os = kjob_buf(job, no * 4, KB_OUT), ob = kjob_buf(job, no * 4, KB_OUT);
  int ot = kjob_buf(job, no * 4, KB_OUT);
  float *hl = job->buf[lp].host;
  float *rs = kjob_ref(job, os, KC_F32, no, 0, 0); /* float sums, compared exactly */
  uint32_t *rb = kjob_ref(job, ob, KC_U32, no, 0, 0), *rt = kjob_ref(job, ot, KC_U32, no, 0, 0);
  if (hl == NULL || bb < 0 || rs == NULL || rb == NULL || rt == NULL) return -1;
  /* Log-probabilities: log(u)^2 style tails, a few tokens near 0. */
  for (size_t i = 0; i < n; ++i) {
    const double u = krng_uniform(&r, 1e-12, 1);
    hl[i] = (float)(-3.0 * pow(-log(u), 1.5));
  }
  const float *hb = job->buf[bb].host;
  for (int it = 0; it < items; ++it) {
    float bs[BS_K];
    int32_t bi[BS_K];
    beam_topk(hl + (size_t)it * BS_W * vocab, hb + it * BS_W, vocab, bs, bi);
    for (int j = 0; j < BS_K; ++j) {
      rs[it * BS_K + j] = bs[j];
      rb[it * BS_K + j] = (uint32_t)(bi[j] / vocab);
      rt[it * BS_K + j] = (uint32_t)(bi[j] % vocab);
    }
  }
  kjob_arg_buf(job, lp);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, os);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, ot);
  kjob_arg_i32(job, vocab);
  kjob_grid(job, (size_t)items, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- top-p sampling ---------------------------------------------------------------- */

/* The kernel's radix select and draw, replayed: exact integer arithmetic
 * on the same float bits. */
static void topp_replay(const float *p, int n, uint32_t need, uint32_t u, uint32_t out[3]) {
  uint32_t prefix = 0, rem = need, hist[256];
  for (int pass = 0; pass < 4; ++pass) {
    const int shift = 24 - 8 * pass;
    const uint32_t hmask = pass == 0 ? 0u : 0xffffffffu << (shift + 8);
    memset(hist, 0, sizeof hist);
    for (int i = 0; i < n; ++i) {
      uint32_t key;
      memcpy(&key, &p[i], 4);
      if ((key & hmask) == prefix) hist[key >> shift & 255u] += (uint32_t)(p[i] * 1073741824.0f);
    }
    uint32_t acc = 0;
    int dg = 255;
    for (; dg > 0; --dg) {
      if (acc + hist[dg] >= rem) break;
      acc += hist[dg];
    }
    prefix |= (uint32_t)dg << shift;
    rem -= acc;
  }
  uint32_t total = 0;
  for (int i = 0; i < n; ++i) {
    uint32_t key;
    memcpy(&key, &p[i], 4);
    if (key >= prefix) total += (uint32_t)(p[i] * 1073741824.0f);
  }
  const uint32_t target = (uint32_t)(((uint64_t)u * total) >> 32);
  uint32_t run = 0;
  out[0] = 0;
  for (int i = 0; i < n; ++i) {
    uint32_t key;
    memcpy(&key, &p[i], 4);
    if (key < prefix) continue;
    run += (uint32_t)(p[i] * 1073741824.0f);
    if (run > target) {
      out[0] = (uint32_t)i;
      break;
    }
  }
  out[1] = prefix;
  out[2] = total;
}

static int topp_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 128256 : 5000;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "x_topp_1group");
  int pb = kjob_buf(job, (size_t)n * 4, KB_IN), ob = xbuf_u32(job, 3, KB_OUT);
  float *hp = job->buf[pb].host;
  uint32_t *ref = kjob_ref(job, ob, KC_U32, 3, 0, 0);
  double *lg = malloc((size_t)n * sizeof *lg);
  if (hp == NULL || ref == NULL || lg == NULL) {
    free(lg);
    return -1;
  }
  /* Logits: a Zipf-like ranking over a shuffled vocabulary plus noise,
   * temperature 1, softmax in double. */
  double mx = -1e300, z = 0;
  for (int i = 0; i < n; ++i) {
    const double rank = 1 + krng_below(&r, (uint32_t)n);
    lg[i] = -1.2 * log(rank) + krng_uniform(&r, -0.5, 0.5);
    mx = fmax(mx, lg[i]);
  }
  for (int i = 0; i < n; ++i) z += exp(lg[i] - mx);
  for (int i = 0; i < n; ++i) hp[i] = (float)(exp(lg[i] - mx) / z);
  free(lg);
  const uint32_t need = (uint32_t)(0.9 * 1073741824.0), u = krng_u32(&r);
  topp_replay(hp, n, need, u, ref);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_arg_u32(job, need);
  kjob_arg_u32(job, u);
  kjob_grid(job, 1, 1, 1, 1024, 1, 1);
  return 0;
}

/* ---- paged KV append ------------------------------------------------------------------ */

enum { KV_D = 128, KV_BS = 16 };

/* The new element that cache element e receives, or -1: the request
 * owning e's block writes there only at its current position. */
static long kv_source(size_t e, const int32_t *tab, const int32_t *pos, int heads, int maxblk,
                      int nblk) {
  const size_t per = (size_t)heads * KV_BS * KV_D;
  const int blk = (int)(e / per), h = (int)(e / (KV_BS * KV_D) % heads);
  const int off = (int)(e / KV_D % KV_BS), dd = (int)(e % KV_D);
  for (int i = 0; i < nblk; ++i) {
    if (tab[i] != blk) continue;
    const int q = i / maxblk;
    if (i % maxblk != pos[q] / KV_BS || off != pos[q] % KV_BS) return -1;
    return ((long)q * heads + h) * KV_D + dd;
  }
  return -1;
}

static int kv_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const int req = full ? 128 : 4, heads = full ? 8 : 2, maxblk = 16;
  const int nblk = req * maxblk, total = req * heads * KV_D;
  const size_t ncache = (size_t)nblk * heads * KV_BS * KV_D;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "x_kv_append");
  int kn = xin_f32(job, (size_t)total, &r, -1, 1), vn = xin_f32(job, (size_t)total, &r, -1, 1);
  int pb = xbuf_u32(job, (size_t)req, KB_IN), tb = xbuf_u32(job, (size_t)nblk, KB_IN);
  int kc = kjob_buf(job, ncache * 4, KB_INOUT), vc = kjob_buf(job, ncache * 4, KB_INOUT);
  float *hk = job->buf[kc].host, *hv = job->buf[vc].host;
  const size_t ns = ncache < X_SAMPLES ? ncache : X_SAMPLES;
  float *rk = kjob_ref(job, kc, KC_F32, ns, 0, 0), *rv = kjob_ref(job, vc, KC_F32, ns, 0, 0);
  size_t *sk = rk ? kjob_sample(job, kc) : NULL, *sv = rv ? kjob_sample(job, vc) : NULL;
  if (kn < 0 || vn < 0 || pb < 0 || tb < 0 || !hk || !hv || !sk || !sv) return -1;
  kfill_f32(hk, ncache, &r, -1, 1);
  kfill_f32(hv, ncache, &r, -1, 1);
  int32_t *pos = job->buf[pb].host, *tab = job->buf[tb].host;
  for (int i = 0; i < nblk; ++i) tab[i] = i; /* a random permutation of the blocks */
  for (int i = nblk - 1; i > 0; --i) {
    const int j = (int)krng_below(&r, (uint32_t)i + 1), t = tab[i];
    tab[i] = tab[j];
    tab[j] = t;
  }
  for (int q = 0; q < req; ++q) pos[q] = (int32_t)krng_below(&r, maxblk * KV_BS);
  const float *hkn = job->buf[kn].host, *hvn = job->buf[vn].host;
  /* Half the samples are written elements, half anywhere in the cache
   * (mostly untouched elements, which keep their contents). */
  for (size_t q = 0; q < ns; ++q) {
    size_t e;
    if (q % 2 == 0) {
      const size_t id = kspread(q / 2, (ns + 1) / 2, (size_t)total);
      const int rq = (int)(id / ((size_t)heads * KV_D)), h = (int)(id / KV_D % heads);
      const int blk = tab[rq * maxblk + pos[rq] / KV_BS];
      e = (((size_t)blk * heads + h) * KV_BS + pos[rq] % KV_BS) * KV_D + id % KV_D;
    } else {
      e = kspread(q / 2, ns / 2, ncache);
    }
    const long src = kv_source(e, tab, pos, heads, maxblk, nblk);
    sk[q] = sv[q] = e;
    rk[q] = src >= 0 ? hkn[src] : hk[e];
    rv[q] = src >= 0 ? hvn[src] : hv[e];
  }
  kjob_arg_buf(job, kn);
  kjob_arg_buf(job, vn);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, kc);
  kjob_arg_buf(job, vc);
  kjob_arg_i32(job, heads);
  kjob_arg_i32(job, maxblk);
  kjob_arg_i32(job, total);
  kjob_grid1(job, (size_t)total, 256);
  return 0;
}

int xsetup_ml(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case XML_LN_BWD:
      return ln_bwd_job(job, d, size);
    case XML_CONV_IGEMM:
      return conv_job(job, d, size);
    case XML_QUANT_INT8:
      return quant_job(job, d, size);
    case XML_INT4_GEMM:
      return int4_job(job, d, size);
    case XML_MOE_DISPATCH:
      return moe_job(job, d, size);
    case XML_BEAM:
      return beam_job(job, d, size);
    case XML_TOPP:
      return topp_job(job, d, size);
    case XML_KV_APPEND:
      return kv_job(job, d, size);
  }
  return -1;
}
