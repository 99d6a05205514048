/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ml.c: host half of ml.cl (int4 KV dequantisation, focal loss, Gumbel-max
 * sampling, Mamba selective scan, skip-gram negative-sampling loss,
 * repetition penalty).  References are computed in double on sampled
 * outputs, replayed in float where the kernel's result is exact (the
 * dequantised values, the penalised logits), or checked by what does not
 * depend on rounding (the sampled token's score is the row's best within a
 * tolerance). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation6.h"

/* ---- int4 KV dequantisation --------------------------------------------------------- */

static int kvdq_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nvals = size == KSIZE_FULL ? (size_t)256 << 20 : 65536, nwords = nvals / 8;
  const size_t groups = nvals / 32;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "q_kv_dequant_int4");
  int qb = qbuf_u32(job, nwords, KB_IN), sb = kjob_buf(job, groups * 8, KB_IN);
  int ob = kjob_buf(job, nvals * 4, KB_OUT);
  float *ref = qref_sampled(job, ob, KC_F32, nvals, 1e-6, 1e-7);
  if (qb < 0 || job->buf[sb].host == NULL || ref == NULL) return -1;
  uint32_t *hq = job->buf[qb].host;
  float *hs = job->buf[sb].host;
  kfill_u32(hq, nwords, &r);
  for (size_t g = 0; g < groups; ++g) {
    hs[2 * g] = (float)krng_uniform(&r, 0.001, 0.05);
    hs[2 * g + 1] = (float)krng_below(&r, 16);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], w = e / 8, g = w / 4;
    const float q = (float)(hq[w] >> (4 * (e % 8)) & 15u);
    ref[s] = (q - hs[2 * g + 1]) * hs[2 * g];
  }
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)nwords);
  kjob_grid1(job, nwords, 256);
  return 0;
}

/* ---- focal loss ------------------------------------------------------------------------ */

enum { FL_T = 256 };

static int focal_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)128 << 20 : 65536, groups = n / FL_T;
  const double alpha = 0.25;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "q_focal_loss");
  int xb = qin_f32(job, n, &r, -6, 6), yb = kjob_buf(job, n, KB_IN);
  int pb = kjob_buf(job, groups * 4, KB_OUT);
  float *ref = qref_sampled(job, pb, KC_F32, groups, 1e-4, 1e-5);
  if (xb < 0 || job->buf[yb].host == NULL || ref == NULL) return -1;
  const float *hx = job->buf[xb].host;
  uint8_t *hy = job->buf[yb].host;
  for (size_t i = 0; i < n; ++i) hy[i] = krng_below(&r, 8) == 0; /* 1 positive in 8 */
  for (size_t s = 0; s < job->buf[pb].count; ++s) {
    const size_t g = job->buf[pb].sample[s];
    double sum = 0;
    for (size_t i = g * FL_T; i < (g + 1) * FL_T; ++i) {
      const double sg = hy[i] ? hx[i] : -hx[i], e = exp(-sg), pt = 1 / (1 + e);
      sum += (hy[i] ? alpha : 1 - alpha) * (1 - pt) * (1 - pt) * log1p(e);
    }
    ref[s] = (float)sum;
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, pb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_f32(job, (float)alpha);
  kjob_grid1(job, n, FL_T);
  return 0;
}

/* ---- Gumbel-max sampling ----------------------------------------------------------------- */

typedef struct gs_chk {
  int ob, rows, vocab;
  uint32_t seed;
  float inv_temp;
  double best[]; /* the best score of each row */
} gs_chk;

static double gumbel_score(const gs_chk *c, const float *x, int row, uint32_t j) {
  const uint32_t h = q_hash_host((uint32_t)row * (uint32_t)c->vocab + j + c->seed);
  const double u = ((double)(h >> 9) + 0.5) / 8388608.0;
  return (double)(x[(size_t)row * c->vocab + j] * c->inv_temp) - log(-log(u));
}

static int gumbel_check(const kjob *job, char *msg, size_t size) {
  const gs_chk *c = job->priv;
  const uint32_t *got = job->buf[c->ob].result;
  const float *x = job->buf[0].host;
  for (int row = 0; row < c->rows; ++row) {
    if (got[row] >= (uint32_t)c->vocab) {
      snprintf(msg, size, "row %d: sampled index %u out of range", row, got[row]);
      return -1;
    }
    const double s = gumbel_score(c, x, row, got[row]);
    if (!(s >= c->best[row] - 1e-3)) {
      snprintf(msg, size, "row %d: sampled %u scores %g, the best scores %g", row, got[row], s,
               c->best[row]);
      return -1;
    }
  }
  return 0;
}

static int gumbel_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, rows = full ? 64 : 4, vocab = full ? 524288 : 4096;
  const float inv_temp = 1.0f / 0.8f;
  const uint32_t seed = 0x2545f491u;
  const size_t n = (size_t)rows * vocab;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "q_gumbel_sample");
  int xb = qin_f32(job, n, &r, -8, 8), ob = qbuf_u32(job, (size_t)rows, KB_OUT);
  gs_chk *c = job->priv = malloc(sizeof *c + (size_t)rows * sizeof(double));
  if (xb < 0 || c == NULL) return -1;
  c->ob = ob;
  c->rows = rows;
  c->vocab = vocab;
  c->seed = seed;
  c->inv_temp = inv_temp;
  const float *hx = job->buf[xb].host;
  for (int row = 0; row < rows; ++row) {
    double best = -1e300;
    for (int j = 0; j < vocab; ++j) {
      const double sc = gumbel_score(c, hx, row, (uint32_t)j);
      if (sc > best) best = sc;
    }
    c->best[row] = best;
  }
  job->check = gumbel_check;
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, vocab);
  kjob_arg_f32(job, inv_temp);
  kjob_arg_u32(job, seed);
  kjob_grid(job, (size_t)rows, 1, 1, 1024, 1, 1);
  return 0;
}

/* ---- Mamba selective scan ------------------------------------------------------------------ */

enum { MS_N = 16, MS_CH = 32, MS_T = 128 };

static int mamba_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, batch = full ? 2 : 1, dim = full ? 2048 : 128;
  const int len = full ? 2048 : 64, nch = batch * dim;
  const size_t nx = (size_t)batch * len * dim, nbc = (size_t)batch * len * MS_N;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "q_mamba_scan");
  int xb = qin_f32(job, nx, &r, -1, 1), tb = qin_f32(job, nx, &r, 0.001, 0.1);
  int ab = qin_f32(job, (size_t)dim * MS_N, &r, -2, -0.05);
  int bb = qin_f32(job, nbc, &r, -1, 1), cb = qin_f32(job, nbc, &r, -1, 1);
  int yb = kjob_buf(job, nx * 4, KB_OUT);
  const int tpc = len < MS_T ? len : MS_T, chs = nch < MS_CH ? nch : MS_CH;
  const size_t count = (size_t)chs * tpc;
  float *ref = kjob_ref(job, yb, KC_F32, count, 2e-3, 2e-4);
  size_t *smp = ref ? kjob_sample(job, yb) : NULL;
  if (xb < 0 || tb < 0 || ab < 0 || bb < 0 || cb < 0 || smp == NULL) return -1;
  const float *hx = job->buf[xb].host, *hdt = job->buf[tb].host, *ha = job->buf[ab].host;
  const float *hb = job->buf[bb].host, *hc = job->buf[cb].host;
  for (int k = 0; k < chs; ++k) {
    const int ch = (int)kspread((size_t)k, (size_t)chs, (size_t)nch), b = ch / dim, dd = ch % dim;
    double h[MS_N] = {0};
    int next = 0;
    for (int t = 0; t < len; ++t) {
      const size_t row = (size_t)b * len + t, i = row * dim + dd;
      double acc = 0;
      for (int n = 0; n < MS_N; ++n) {
        h[n] = exp((double)hdt[i] * ha[dd * MS_N + n]) * h[n] +
               (double)hdt[i] * hb[row * MS_N + n] * hx[i];
        acc += hc[row * MS_N + n] * h[n];
      }
      if (next < tpc && (size_t)t == kspread((size_t)next, (size_t)tpc, (size_t)len)) {
        smp[(size_t)k * tpc + next] = i;
        ref[(size_t)k * tpc + next] = (float)acc;
        ++next;
      }
    }
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, len);
  kjob_arg_i32(job, dim);
  kjob_arg_i32(job, nch);
  kjob_grid1(job, (size_t)nch, 128);
  return 0;
}

/* ---- skip-gram negative-sampling loss ------------------------------------------------------ */

enum { SG_D = 64, SG_NEG = 5 };

static int sgns_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, vocab = full ? 32768 : 1024, npairs = full ? 2 << 20 : 4096;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "q_sgns_loss");
  int ib = qin_f32(job, (size_t)vocab * SG_D, &r, -0.5, 0.5);
  int ob = qin_f32(job, (size_t)vocab * SG_D, &r, -0.5, 0.5);
  int pb = qbuf_u32(job, (size_t)npairs * 2, KB_IN), lb = kjob_buf(job, (size_t)npairs * 4, KB_OUT);
  float *ref = qref_sampled(job, lb, KC_F32, (size_t)npairs, 1e-4, 1e-5);
  if (ib < 0 || ob < 0 || pb < 0 || ref == NULL) return -1;
  uint32_t *hp = job->buf[pb].host;
  const float *wi = job->buf[ib].host, *wo = job->buf[ob].host;
  for (int p = 0; p < npairs; ++p) {
    /* centres in text order (a sliding window), contexts nearby in a
     * frequency-sorted vocabulary: skewed towards small ids */
    const double u = krng_uniform(&r, 0, 1);
    hp[2 * p] = (uint32_t)((double)vocab * u * u * u) % (uint32_t)vocab;
    hp[2 * p + 1] = (hp[2 * p] + 1 + krng_below(&r, 64)) % (uint32_t)vocab;
  }
  for (size_t s = 0; s < job->buf[lb].count; ++s) {
    const uint32_t p = (uint32_t)job->buf[lb].sample[s];
    const float *vc = wi + (size_t)hp[2 * p] * SG_D;
    double dot = 0;
    for (int k = 0; k < SG_D; ++k) dot += (double)wo[(size_t)hp[2 * p + 1] * SG_D + k] * vc[k];
    double l = log1p(exp(-dot));
    for (uint32_t k = 0; k < SG_NEG; ++k) {
      const uint32_t nk = q_hash_host(p * SG_NEG + k + 0x5bd1e995u) % (uint32_t)vocab;
      dot = 0;
      for (int j = 0; j < SG_D; ++j) dot += (double)wo[(size_t)nk * SG_D + j] * vc[j];
      l += log1p(exp(dot));
    }
    ref[s] = (float)l;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, lb);
  kjob_arg_i32(job, npairs);
  kjob_arg_i32(job, vocab);
  kjob_grid1(job, (size_t)npairs, 256);
  return 0;
}

/* ---- repetition penalty -----------------------------------------------------------------------
 */

static int reppen_job(kjob *job, const kdesc *d, ksize size) {
  const int vocab = size == KSIZE_FULL ? 32000 : 4000, nhist = 256;
  const float penalty = 1.3f, inv_temp = 1.0f / 0.7f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "q_rep_penalty_decode");
  int xb = qin_f32(job, (size_t)vocab, &r, -12, 12), hb = qbuf_u32(job, (size_t)nhist, KB_IN);
  int ob = kjob_buf(job, (size_t)vocab * 4, KB_OUT);
  float *ref = kjob_ref(job, ob, KC_F32, (size_t)vocab, 1e-6, 1e-7);
  char *seen = calloc((size_t)vocab, 1);
  if (xb < 0 || hb < 0 || ref == NULL || seen == NULL) {
    free(seen);
    return -1;
  }
  uint32_t *hh = job->buf[hb].host;
  const float *hx = job->buf[xb].host;
  for (int i = 0; i < nhist; ++i) { /* repeats included, as in generated text */
    hh[i] = i > 8 && krng_below(&r, 4) == 0 ? hh[krng_below(&r, (uint32_t)i)]
                                            : krng_below(&r, (uint32_t)vocab);
    seen[hh[i]] = 1;
  }
  for (int j = 0; j < vocab; ++j) {
    float v = hx[j];
    if (seen[j]) v = v > 0.0f ? v / penalty : v * penalty;
    ref[j] = v * inv_temp;
  }
  free(seen);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, hb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, vocab);
  kjob_arg_i32(job, nhist);
  kjob_arg_f32(job, penalty);
  kjob_arg_f32(job, inv_temp);
  kjob_grid1(job, (size_t)vocab, 256);
  return 0;
}

SP_SETUP(qsetup_ml) {
  switch (d->param) {
    case QML_KVDQ:
      return kvdq_job(job, d, size);
    case QML_FOCAL:
      return focal_job(job, d, size);
    case QML_GUMBEL:
      return gumbel_job(job, d, size);
    case QML_MAMBA:
      return mamba_job(job, d, size);
    case QML_SGNS:
      return sgns_job(job, d, size);
    case QML_REPPEN:
      return reppen_job(job, d, size);
  }
  return -1;
}
