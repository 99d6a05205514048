/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ml.c: host half of ml.cl (SwiGLU, int8 weight-only GEMV, CRF Viterbi,
 * SDDMM, GNN fixed-point scatter-sum, TF-IDF normalisation).  References
 * are computed in double on sampled outputs, replayed exactly in float where
 * the kernel's result is a discrete choice (Viterbi), or summed exactly in
 * wrapping integers (the scatter). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation5.h"

/* ---- SwiGLU ------------------------------------------------------------------- */

static int swiglu_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, h = full ? 8192 : 512, tokens = full ? 8192 : 64;
  const size_t n = (size_t)h * tokens;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "z_swiglu_fwd");
  int xb = zin_f32(job, 2 * n, &r, -4, 4), ob = kjob_buf(job, n * 4, KB_OUT);
  float *ref = zref_sampled(job, ob, KC_F32, n, 1e-5, 1e-6);
  if (xb < 0 || ref == NULL) return -1;
  const float *hx = job->buf[xb].host;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], t = e / h, j = e % h;
    const double g = hx[t * 2 * h + j], u = hx[t * 2 * h + h + j];
    ref[s] = (float)(g / (1 + exp(-g)) * u);
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, h);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- int8 weight-only GEMV ------------------------------------------------------ */

static int w8_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, rows = full ? 65536 : 64, k = full ? 8192 : 1024;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "z_w8_gemv_decode");
  int wb = zbuf_u32(job, (size_t)rows * k / 4, KB_IN);
  int sb = zin_f32(job, (size_t)rows, &r, 0.001, 0.01), xb = zin_f32(job, (size_t)k, &r, -1, 1);
  int yb = kjob_buf(job, (size_t)rows * 4, KB_OUT);
  float *ref = zref_sampled(job, yb, KC_F32, (size_t)rows, 1e-4, 1e-4);
  if (wb < 0 || sb < 0 || xb < 0 || ref == NULL) return -1;
  uint32_t *hw = job->buf[wb].host;
  kfill_u32(hw, (size_t)rows * k / 4, &r);
  const float *hs = job->buf[sb].host, *hx = job->buf[xb].host;
  for (size_t s = 0; s < job->buf[yb].count; ++s) {
    const size_t row = job->buf[yb].sample[s];
    double acc = 0;
    for (int c = 0; c < k; ++c) {
      const int q = (int)(hw[row * (k / 4) + c / 4] >> (8 * (c % 4)) & 255u);
      acc += (double)((q ^ 128) - 128) * hx[c];
    }
    ref[s] = (float)(acc * hs[row]);
  }
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, k);
  kjob_grid(job, (size_t)rows, 1, 1, 128, 1, 1);
  return 0;
}

/* ---- CRF Viterbi ------------------------------------------------------------------ */

enum { VT_N = 64 };

static int viterbi_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, seqs = full ? 96 : 4, steps = full ? 2048 : 64;
  const size_t ne = (size_t)seqs * steps * VT_N;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "z_crf_viterbi");
  int eb = zin_f32(job, ne, &r, -3, 3), tb = zin_f32(job, VT_N * VT_N, &r, -2, 1);
  int bb = kjob_buf(job, ne, KB_OUT), pb = zbuf_u32(job, (size_t)seqs * steps, KB_OUT);
  int sb = kjob_buf(job, (size_t)seqs * 4, KB_OUT);
  uint32_t *rp = zref_sampled(job, pb, KC_U32, (size_t)seqs * steps, 0, 0);
  float *rs = kjob_ref(job, sb, KC_F32, (size_t)seqs, 1e-6, 0);
  uint8_t *bp = malloc((size_t)steps * VT_N);
  uint32_t *path = malloc((size_t)steps * sizeof *path);
  if (eb < 0 || tb < 0 || rp == NULL || rs == NULL || bp == NULL || path == NULL) {
    free(bp);
    free(path);
    return -1;
  }
  const float *he = job->buf[eb].host, *tr = job->buf[tb].host;
  size_t next = 0; /* the next sample to fill (samples ascend) */
  for (int b = 0; b < seqs; ++b) {
    const float *e = he + (size_t)b * steps * VT_N;
    float sc[2][VT_N];
    int cur = 0;
    for (int j = 0; j < VT_N; ++j) sc[0][j] = e[j];
    for (int s = 1; s < steps; ++s) {
      for (int j = 0; j < VT_N; ++j) {
        float m = sc[cur][0] + tr[j];
        int arg = 0;
        for (int i = 1; i < VT_N; ++i) {
          const float v = sc[cur][i] + tr[i * VT_N + j];
          if (v > m) {
            m = v;
            arg = i;
          }
        }
        sc[cur ^ 1][j] = m + e[(size_t)s * VT_N + j];
        bp[(size_t)s * VT_N + j] = (uint8_t)arg;
      }
      cur ^= 1;
    }
    int tag = 0;
    for (int i = 1; i < VT_N; ++i)
      if (sc[cur][i] > sc[cur][tag]) tag = i;
    rs[b] = sc[cur][tag];
    for (int s = steps - 1; s > 0; --s) {
      path[s] = (uint32_t)tag;
      tag = bp[(size_t)s * VT_N + tag];
    }
    path[0] = (uint32_t)tag;
    const size_t lo = (size_t)b * steps, hi = lo + steps;
    for (; next < job->buf[pb].count && job->buf[pb].sample[next] < hi; ++next)
      rp[next] = path[job->buf[pb].sample[next] - lo];
  }
  free(bp);
  free(path);
  kjob_arg_buf(job, eb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, steps);
  kjob_grid(job, (size_t)seqs, 1, 1, VT_N, 1, 1);
  return 0;
}

/* ---- SDDMM ------------------------------------------------------------------------- */

enum { SD_K = 64 };

static int sddmm_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, n = full ? 65536 : 512, maxdeg = full ? 192 : 24;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "z_sddmm_csr");
  int *deg = malloc((size_t)n * sizeof *deg);
  if (deg == NULL) return -1;
  size_t nnz = 0;
  for (int i = 0; i < n; ++i)
    nnz += (size_t)(deg[i] = maxdeg / 3 + (int)krng_below(&r, maxdeg / 3 * 2));
  int ab = zin_f32(job, (size_t)n * SD_K, &r, -1, 1),
      bb = zin_f32(job, (size_t)n * SD_K, &r, -1, 1);
  int rb = zbuf_u32(job, nnz, KB_IN), cb = zbuf_u32(job, nnz, KB_IN);
  int ob = kjob_buf(job, nnz * 4, KB_OUT);
  float *ref = zref_sampled(job, ob, KC_F32, nnz, 1e-4, 1e-5);
  if (ab < 0 || bb < 0 || rb < 0 || cb < 0 || ref == NULL) {
    free(deg);
    return -1;
  }
  int32_t *hr = job->buf[rb].host, *hc = job->buf[cb].host;
  for (int i = 0, e = 0; i < n; ++i)
    for (int j = 0; j < deg[i]; ++j, ++e) {
      hr[e] = i;
      hc[e] = (int32_t)krng_below(&r, (uint32_t)n);
    }
  free(deg);
  const float *ha = job->buf[ab].host, *hb = job->buf[bb].host;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    double acc = 0;
    for (int k = 0; k < SD_K; ++k)
      acc += (double)ha[(size_t)hr[e] * SD_K + k] * hb[(size_t)hc[e] * SD_K + k];
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)nnz);
  kjob_grid1(job, nnz, 256);
  return 0;
}

/* ---- GNN scatter-sum -------------------------------------------------------------- */

enum { GN_F = 16 };

static int gnn_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t nodes = full ? 1u << 20 : 2048, edges = full ? 8u << 20 : 16384;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "z_gnn_scatter_fixed");
  int hb = zbuf_u32(job, nodes * GN_F, KB_IN), sb = zbuf_u32(job, edges, KB_IN);
  int db = zbuf_u32(job, edges, KB_IN), ob = zbuf_u32(job, nodes * GN_F, KB_INOUT);
  uint32_t *ref = zref_sampled(job, ob, KC_U32, nodes * GN_F, 0, 0);
  uint32_t *all = calloc(nodes * GN_F, sizeof *all);
  if (hb < 0 || sb < 0 || db < 0 || ob < 0 || ref == NULL || all == NULL) {
    free(all);
    return -1;
  }
  uint32_t *hh = job->buf[hb].host, *hs = job->buf[sb].host, *hd = job->buf[db].host;
  for (size_t i = 0; i < nodes * GN_F; ++i)
    hh[i] = (uint32_t)((int32_t)krng_below(&r, 2001) - 1000);
  for (size_t e = 0; e < edges; ++e) {
    hs[e] = krng_below(&r, (uint32_t)nodes);
    hd[e] = krng_below(&r, (uint32_t)nodes);
    for (int f = 0; f < GN_F; ++f) all[(size_t)hd[e] * GN_F + f] += hh[(size_t)hs[e] * GN_F + f];
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) ref[s] = all[job->buf[ob].sample[s]];
  free(all);
  kjob_arg_buf(job, hb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)edges);
  kjob_grid1(job, edges * GN_F, 256);
  return 0;
}

/* ---- TF-IDF ------------------------------------------------------------------------ */

static int tfidf_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const int docs = full ? 262144 : 512, vocab = full ? 1 << 20 : 4096, giants = 6;
  const int giant_len = full ? 3 << 20 : 20000, maxlen = full ? 160 : 40;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "z_tfidf_rows");
  int pb = zbuf_u32(job, (size_t)docs + 1, KB_IN);
  if (pb < 0) return -1;
  int32_t *hp = job->buf[pb].host;
  hp[0] = 0;
  for (int i = 0; i < docs; ++i) {
    const int giant = i % (docs / giants) == docs / giants / 2;
    hp[i + 1] = hp[i] + (giant ? giant_len : 8 + (int)krng_below(&r, (uint32_t)maxlen));
  }
  const size_t nnz = (size_t)hp[docs];
  int tb = zbuf_u32(job, nnz, KB_IN), fb = zbuf_u32(job, nnz, KB_IN);
  int ib = zin_f32(job, (size_t)vocab, &r, 0.5, 8), ob = kjob_buf(job, nnz * 4, KB_OUT);
  float *ref = zref_sampled(job, ob, KC_F32, nnz, 1e-4, 1e-6);
  double *norm = malloc((size_t)docs * sizeof *norm);
  if (tb < 0 || fb < 0 || ib < 0 || ref == NULL || norm == NULL) {
    free(norm);
    return -1;
  }
  uint32_t *ht = job->buf[tb].host, *hf = job->buf[fb].host;
  const float *hi = job->buf[ib].host;
  for (size_t i = 0; i < nnz; ++i) {
    ht[i] = krng_below(&r, (uint32_t)vocab);
    hf[i] = 1 + krng_below(&r, 4) * krng_below(&r, 4);
  }
  for (int i = 0; i < docs; ++i) {
    double ss = 0;
    for (int e = hp[i]; e < hp[i + 1]; ++e) {
      const double v = (double)hf[e] * hi[ht[e]];
      ss += v * v;
    }
    norm[i] = ss > 0 ? 1 / sqrt(ss) : 0;
  }
  for (size_t s = 0, doc = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    while ((size_t)hp[doc + 1] <= e) ++doc;
    ref[s] = (float)((double)hf[e] * hi[ht[e]] * norm[doc]);
  }
  free(norm);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_grid(job, (size_t)docs, 1, 1, 256, 1, 1);
  return 0;
}

SP_SETUP(zsetup_ml) {
  switch (d->param) {
    case ZML_SWIGLU:
      return swiglu_job(job, d, size);
    case ZML_W8GEMV:
      return w8_job(job, d, size);
    case ZML_VITERBI:
      return viterbi_job(job, d, size);
    case ZML_SDDMM:
      return sddmm_job(job, d, size);
    case ZML_GNN:
      return gnn_job(job, d, size);
    case ZML_TFIDF:
      return tfidf_job(job, d, size);
  }
  return -1;
}
