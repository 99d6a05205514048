/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.c: host half of cudaonly.cu (CUDA only: bf16 linear attention,
 * half2 tiny MLP, Game of Life, KV-cache block copies).  The attention's
 * inputs are small multiples of powers of two that bf16 holds exactly and
 * whose products and sums are exact in fp32, so it is checked exactly; the
 * MLP is replayed with every half2 FMA rounded to half as the device rounds
 * it (a small tolerance covers a double rounding in the emulation); the
 * Life board and the copied caches are exact. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation7.h"

/* ---- 16-bit floats ----------------------------------------------------------------------- */

/* bf16 bits of a float that bf16 holds exactly. */
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
  if (a < ldexp(1, -14)) { /* subnormal: steps of 2^-24 */
    const double q = nearbyint(a * 16777216.0);
    return (uint16_t)(sign | (uint16_t)q);
  }
  int e;
  frexp(a, &e);                                 /* a = f 2^e, f in [0.5, 1) */
  const double q = nearbyint(ldexp(a, 11 - e)); /* 1024..2048 */
  int be = e - 1 + 15;
  int m = (int)q - 1024;
  if (q >= 2048) {
    ++be;
    m = 0;
  }
  return (uint16_t)(sign | be << 10 | m);
}

/* ---- linear attention -------------------------------------------------------------------- */

enum { LA_C = 64, LA_D = 64 };

static int linattn_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, bh = full ? 64 : 2, seq = full ? 16384 : 256;
  const size_t ntok = (size_t)bh * seq, nel = ntok * LA_D, nch = ntok / LA_C;
  const float scale = 0.125f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "r_linattn_chunk_bf16");
  int qb = kjob_buf(job, nel * 2, KB_IN), kb = kjob_buf(job, nel * 2, KB_IN);
  int vb = kjob_buf(job, nel * 2, KB_IN), hb = kjob_buf(job, nch * LA_D * LA_D * 2, KB_IN);
  int ob = kjob_buf(job, nel * 4, KB_OUT);
  float *ref = rref_sampled(job, ob, KC_F32, nel, 0, 1e-6);
  int8_t *iq = malloc(nel), *ik = malloc(nel), *iv = malloc(nel), *ih = malloc(nch * LA_D * LA_D);
  uint16_t *hq = job->buf[qb].host, *hk = job->buf[kb].host, *hv = job->buf[vb].host;
  uint16_t *hh = job->buf[hb].host;
  if (ref == NULL || iq == NULL || ik == NULL || iv == NULL || ih == NULL || hq == NULL ||
      hk == NULL || hv == NULL || hh == NULL) {
    free(iq);
    free(ik);
    free(iv);
    free(ih);
    return -1;
  }
  /* q, k in {-1, 0, 1} / 2; v in {-4..4} / 4; h in {-64..64} / 8 */
  for (size_t i = 0; i < nel; ++i) {
    iq[i] = (int8_t)((int)krng_below(&r, 3) - 1);
    ik[i] = (int8_t)((int)krng_below(&r, 3) - 1);
    iv[i] = (int8_t)((int)krng_below(&r, 9) - 4);
    hq[i] = bf16_exact(iq[i] * 0.5f);
    hk[i] = bf16_exact(ik[i] * 0.5f);
    hv[i] = bf16_exact(iv[i] * 0.25f);
  }
  for (size_t i = 0; i < nch * LA_D * LA_D; ++i) {
    ih[i] = (int8_t)((int)krng_below(&r, 129) - 64);
    hh[i] = bf16_exact(ih[i] * 0.125f);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) { /* in units of 1/16 */
    const size_t e = job->buf[ob].sample[s], tok = e / LA_D, j = e % LA_D;
    const size_t c0 = tok / LA_C * LA_C, ch = tok / LA_C;
    long acc = 0;
    for (int dd = 0; dd < LA_D; ++dd)
      acc += (long)iq[tok * LA_D + dd] * ih[(ch * LA_D + dd) * LA_D + j];
    for (size_t t2 = c0; t2 <= tok; ++t2) {
      long sq = 0; /* S in units of 1/4 */
      for (int dd = 0; dd < LA_D; ++dd) sq += (long)iq[tok * LA_D + dd] * ik[t2 * LA_D + dd];
      acc += sq * iv[t2 * LA_D + j];
    }
    ref[s] = (float)(acc / 16.0 * scale);
  }
  free(iq);
  free(ik);
  free(iv);
  free(ih);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, hb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, seq);
  kjob_arg_f32(job, scale);
  kjob_grid(job, (size_t)seq / LA_C, (size_t)bh, 1, 128, 1, 1);
  job->dyn_local = (5 * 64 * 72) * 2 + 4 * 16 * 20 * 4;
  return 0;
}

/* ---- tiny MLP ---------------------------------------------------------------------------- */

enum { TM_IN = 32, TM_H = 64, TM_OUT = 16 };
enum {
  TM_W1 = 0,
  TM_W2 = TM_IN * TM_H,
  TM_W3 = TM_W2 + TM_H * TM_H,
  TM_WN = TM_W3 + TM_H * TM_OUT
};

/* One layer as the device computes it: every output lane accumulated in
 * input order by fused multiply-adds rounded to half.  w is packed by
 * output pairs (halves, see cudaonly.cu). */
static void mlp_layer(const uint16_t *w, const double *x, int nin, int nout, int relu, double *y) {
  for (int o = 0; o < nout; ++o) {
    double acc = 0;
    for (int i = 0; i < nin; ++i)
      acc = half_value(half_round(x[i] * half_value(w[(size_t)i * nout + o]) + acc));
    y[o] = relu && acc < 0 ? 0 : acc;
  }
}

static int tinymlp_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)4 << 20 : 4096;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "r_tinymlp_h2");
  int xb = kjob_buf(job, n * TM_IN * 2, KB_IN), wb = kjob_buf(job, TM_WN * 2, KB_IN);
  int ob = kjob_buf(job, n * TM_OUT * 4, KB_OUT);
  float *ref = rref_sampled(job, ob, KC_F32, n * TM_OUT, 2e-3, 2e-3);
  uint16_t *hx = job->buf[xb].host, *hw = job->buf[wb].host;
  if (hx == NULL || hw == NULL || ref == NULL) return -1;
  for (size_t i = 0; i < n * TM_IN; ++i) hx[i] = half_round(krng_uniform(&r, -1, 1));
  const int fan[3] = {TM_IN, TM_H, TM_H}, off[3] = {TM_W1, TM_W2, TM_W3};
  for (int l = 0; l < 3; ++l) { /* uniform in +-sqrt(6 / fan_in) / 2 */
    const double lim = sqrt(6.0 / fan[l]) / 2;
    for (int i = off[l]; i < (l < 2 ? off[l + 1] : TM_WN); ++i)
      hw[i] = half_round(krng_uniform(&r, -lim, lim));
  }
  double x[TM_IN], h1[TM_H], h2[TM_H], y[TM_OUT];
  size_t last = (size_t)-1;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], p = e / TM_OUT;
    if (p != last) {
      for (int i = 0; i < TM_IN; ++i) x[i] = half_value(hx[p * TM_IN + i]);
      mlp_layer(hw + TM_W1, x, TM_IN, TM_H, 1, h1);
      mlp_layer(hw + TM_W2, h1, TM_H, TM_H, 1, h2);
      mlp_layer(hw + TM_W3, h2, TM_H, TM_OUT, 0, y);
      last = p;
    }
    ref[s] = (float)y[e % TM_OUT];
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- Game of Life ------------------------------------------------------------------------ */

enum { LF_T = 192, LF_G = 16 };

/* One generation of the w x h torus from a into b. */
static void life_step(const uint8_t *a, uint8_t *b, int w, int h) {
  for (int y = 0; y < h; ++y) {
    const uint8_t *up = a + (size_t)((y + h - 1) % h) * w, *row = a + (size_t)y * w;
    const uint8_t *dn = a + (size_t)((y + 1) % h) * w;
    for (int x = 0; x < w; ++x) {
      const int l = (x + w - 1) % w, rr = (x + 1) % w;
      const int nb = up[l] + up[x] + up[rr] + row[l] + row[rr] + dn[l] + dn[x] + dn[rr];
      b[(size_t)y * w + x] = (uint8_t)(nb == 3 || (nb == 2 && row[x]));
    }
  }
}

static int life_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, tx = full ? 53 : 2, ty = full ? 5 : 1;
  const int w = tx * LF_T, h = ty * LF_T;
  const size_t cells = (size_t)w * h;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "r_life_tblock_265");
  int ib = kjob_buf(job, cells, KB_IN), ob = rbuf_u32(job, cells / 4, KB_OUT);
  uint32_t *ref = kjob_ref(job, ob, KC_U32, cells / 4, 0, 0);
  uint8_t *board = job->buf[ib].host, *a = malloc(cells), *b = malloc(cells);
  if (board == NULL || ref == NULL || a == NULL || b == NULL) {
    free(a);
    free(b);
    return -1;
  }
  for (size_t i = 0; i < cells; ++i) board[i] = krng_below(&r, 100) < 30;
  memcpy(a, board, cells);
  for (int g = 0; g < LF_G; ++g) {
    life_step(a, b, w, h);
    uint8_t *t = a;
    a = b;
    b = t;
  }
  memcpy(ref, a, cells);
  free(a);
  free(b);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_grid(job, (size_t)tx, (size_t)ty, 1, 512, 1, 1);
  job->dyn_local = 2 * (LF_T + 2 * LF_G) * (LF_T + 2 * LF_G);
  return 0;
}

/* ---- KV-cache block copies --------------------------------------------------------------- */

static int kvcopy_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, layers = full ? 4 : 2, nblocks = full ? 8192 : 64;
  const int npairs = full ? 3072 : 16, words4 = full ? 1024 : 64;
  const size_t words = (size_t)layers * nblocks * words4 * 4;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "r_kv_copy_blocks_v4");
  int kb = rbuf_u32(job, words, KB_INOUT), vb = rbuf_u32(job, words, KB_INOUT);
  int pb = rbuf_u32(job, (size_t)npairs * 2, KB_IN);
  uint32_t *rk = rref_sampled(job, kb, KC_U32, words, 0, 0);
  uint32_t *rv = rref_sampled(job, vb, KC_U32, words, 0, 0);
  int *perm = malloc((size_t)nblocks * sizeof *perm),
      *from = malloc((size_t)nblocks * sizeof *from);
  if (kb < 0 || vb < 0 || pb < 0 || rk == NULL || rv == NULL || perm == NULL || from == NULL) {
    free(perm);
    free(from);
    return -1;
  }
  uint32_t *hk = job->buf[kb].host, *hv = job->buf[vb].host;
  int *pairs = job->buf[pb].host;
  for (size_t i = 0; i < words; ++i) {
    hk[i] = r_hash_host((uint32_t)i);
    hv[i] = r_hash_host((uint32_t)i ^ 0x5bd1e995u);
  }
  for (int i = 0; i < nblocks; ++i) {
    perm[i] = i;
    from[i] = i;
  }
  for (int i = nblocks - 1; i > 0; --i) { /* sources and destinations: disjoint random blocks */
    const int j = (int)krng_below(&r, (uint32_t)i + 1), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (int p = 0; p < npairs; ++p) {
    pairs[2 * p] = perm[p];
    pairs[2 * p + 1] = perm[npairs + p];
    from[perm[npairs + p]] = perm[p];
  }
  const size_t bw = (size_t)words4 * 4;
  for (size_t s = 0; s < job->buf[kb].count; ++s) {
    const size_t i = job->buf[kb].sample[s], l = i / (bw * nblocks), blk = i / bw % nblocks;
    const size_t src = (l * nblocks + (size_t)from[blk]) * bw + i % bw;
    rk[s] = hk[src];
    rv[s] = hv[src];
  }
  free(perm);
  free(from);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, pb);
  kjob_arg_i32(job, nblocks);
  kjob_arg_i32(job, words4);
  kjob_grid(job, (size_t)npairs, (size_t)layers, 1, 256, 1, 1);
  return 0;
}

SP_SETUP(rsetup_cuda) {
  switch (d->param) {
    case RCU_LINATTN:
      return linattn_job(job, d, size);
    case RCU_TINYMLP:
      return tinymlp_job(job, d, size);
    case RCU_LIFE:
      return life_job(job, d, size);
    case RCU_KVCOPY:
      return kvcopy_job(job, d, size);
  }
  return -1;
}
