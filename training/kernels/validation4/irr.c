/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.c: host half of irr.cl (betweenness BFS level, suffix-array rank
 * flags, CSV tokenizer, LZ77 match finder, string sort keys, k-means update
 * with atomics).  Every result is an integer: the references replay the
 * kernels exactly, sampled over big outputs; atomically accumulated outputs
 * are compared after the first launch only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation4.h"

/* ---- betweenness BFS level --------------------------------------------------------------- */

static int bc_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)4 << 20 : 4000;
  const uint32_t level = 3, unseen = 0xffffffffu;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "y_bc_bfs_level");
  int rb = ybuf_u32(job, n + 1, KB_IN);
  if (rb < 0) return -1;
  uint32_t *hr = job->buf[rb].host;
  hr[0] = 0;
  for (size_t v = 0; v < n; ++v) hr[v + 1] = hr[v] + 1 + krng_below(&r, 16);
  const size_t m = hr[n];
  int cb = ybuf_u32(job, m, KB_IN), db = ybuf_u32(job, n, KB_INOUT),
      sb = ybuf_u32(job, n, KB_INOUT);
  uint32_t *rd = yref_sampled(job, db, KC_U32, n, 0, 0),
           *rs = yref_sampled(job, sb, KC_U32, n, 0, 0);
  if (cb < 0 || db < 0 || sb < 0 || rd == NULL || rs == NULL) return -1;
  uint32_t *hc = job->buf[cb].host, *hd = job->buf[db].host, *hs = job->buf[sb].host;
  /* Neighbours mostly near (a mesh-like locality), a fifth anywhere. */
  for (size_t v = 0; v < n; ++v)
    for (uint32_t e = hr[v]; e < hr[v + 1]; ++e)
      hc[e] = krng_below(&r, 5) == 0 ? krng_below(&r, (uint32_t)n)
                                     : (uint32_t)((v + n + krng_below(&r, 4097) - 2048) % n);
  for (size_t v = 0; v < n; ++v) {
    const uint32_t u = krng_below(&r, 100);
    hd[v] = u < 30 ? level : u < 70 ? unseen : krng_below(&r, level);
    hs[v] = hd[v] == unseen ? 0 : 1 + krng_below(&r, 5);
  }
  uint32_t *nd = malloc(n * 4), *ns = malloc(n * 4);
  if (nd == NULL || ns == NULL) {
    free(nd);
    free(ns);
    return -1;
  }
  memcpy(nd, hd, n * 4);
  memcpy(ns, hs, n * 4);
  for (size_t v = 0; v < n; ++v)
    if (hd[v] == level)
      for (uint32_t e = hr[v]; e < hr[v + 1]; ++e) {
        const uint32_t w = hc[e];
        if (nd[w] == unseen) nd[w] = level + 1;
        if (nd[w] == level + 1) ns[w] += hs[v];
      }
  for (size_t s = 0; s < job->buf[db].count; ++s) rd[s] = nd[job->buf[db].sample[s]];
  for (size_t s = 0; s < job->buf[sb].count; ++s) rs[s] = ns[job->buf[sb].sample[s]];
  free(nd);
  free(ns);
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_u32(job, level);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- suffix-array rank flags ---------------------------------------------------------------- */

static int sa_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)32 << 20 : 10000;
  const int k = 8;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "y_sa_rank_flags");
  int sab = ybuf_u32(job, n, KB_IN), rb = ybuf_u32(job, n, KB_IN),
      fb = kjob_buf(job, n * 4, KB_OUT);
  uint32_t *ref = yref_sampled(job, fb, KC_U32, n, 0, 0);
  if (sab < 0 || rb < 0 || ref == NULL) return -1;
  int32_t *hsa = job->buf[sab].host, *hr = job->buf[rb].host;
  /* Ranks with many ties (a text over a small alphabet after a few rounds),
   * the suffix array a random permutation sorted by them. */
  for (size_t i = 0; i < n; ++i) {
    hsa[i] = (int32_t)i;
    hr[i] = (int32_t)krng_below(&r, (uint32_t)(n / 4));
  }
  for (size_t i = n - 1; i > 0; --i) {
    const size_t j = krng_below(&r, (uint32_t)i + 1);
    const int32_t t = hsa[i];
    hsa[i] = hsa[j];
    hsa[j] = t;
  }
  for (size_t s = 0; s < job->buf[fb].count; ++s) {
    const size_t i = job->buf[fb].sample[s];
    const int32_t a = hsa[i], ra = hr[a], ra2 = a + k < (int32_t)n ? hr[a + k] : -1;
    uint32_t f = 1;
    if (i > 0) {
      const int32_t b = hsa[i - 1], rbb = hr[b], rb2 = b + k < (int32_t)n ? hr[b + k] : -1;
      f = ra != rbb || ra2 != rb2;
    }
    ref[s] = f;
  }
  kjob_arg_buf(job, sab);
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, fb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, k);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- CSV tokenizer --------------------------------------------------------------------------- */

enum { CV_B = 4096, CV_CAP = 1024 };

static int csv_job(kjob *job, const kdesc *d, ksize size) {
  const size_t blocks = size == KSIZE_FULL ? 65536 : 32, n = blocks * CV_B;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "y_csv_tokenize");
  int tb = kjob_buf(job, n, KB_IN), qb = ybuf_u32(job, blocks, KB_IN);
  int eb = kjob_buf(job, blocks * CV_CAP * 4, KB_OUT), cb = kjob_buf(job, blocks * 4, KB_OUT);
  uint32_t *re = yref_sampled(job, eb, KC_U32, blocks * CV_CAP, 0, 0);
  uint32_t *rc = kjob_ref(job, cb, KC_U32, blocks, 0, 0);
  uint8_t *ht = job->buf[tb].host;
  if (ht == NULL || qb < 0 || re == NULL || rc == NULL) return -1;
  uint32_t *hq = job->buf[qb].host;
  /* Records of 6-12 fields: numbers, words and quoted text that may hold
   * commas and newlines; quoted fields cross block boundaries. */
  size_t at = 0;
  int field = 0, nfields = 8;
  while (at < n) {
    const uint32_t kind = krng_below(&r, 10);
    if (kind < 2) {
      ht[at++] = '"';
      for (uint32_t l = 4 + krng_below(&r, 40); l > 0 && at < n; --l) {
        const uint32_t c = krng_below(&r, 30);
        ht[at++] = c == 0 ? ',' : c == 1 ? '\n' : (uint8_t)('a' + c % 26);
      }
      if (at < n) ht[at++] = '"';
    } else {
      for (uint32_t l = 1 + krng_below(&r, 9); l > 0 && at < n; --l)
        ht[at++] = (uint8_t)(kind < 6 ? '0' + krng_below(&r, 10) : 'A' + krng_below(&r, 26));
    }
    if (at < n) ht[at++] = ++field == nfields ? '\n' : ',';
    if (field == nfields) {
      field = 0;
      nfields = 6 + (int)krng_below(&r, 7);
    }
  }
  uint32_t *all = malloc(blocks * CV_CAP * 4);
  if (all == NULL) return -1;
  uint32_t inq = 0;
  for (size_t b = 0; b < blocks; ++b) {
    hq[b] = inq;
    uint32_t cnt = 0;
    for (size_t i = b * CV_B; i < (b + 1) * CV_B; ++i) {
      if (ht[i] == '"') inq ^= 1;
      if (!inq && (ht[i] == ',' || ht[i] == '\n')) {
        if (cnt < CV_CAP) all[b * CV_CAP + cnt] = (uint32_t)i;
        ++cnt;
      }
    }
    rc[b] = cnt;
    for (uint32_t j = cnt; j < CV_CAP; ++j) all[b * CV_CAP + j] = 0xffffffffu;
  }
  for (size_t s = 0; s < job->buf[eb].count; ++s) re[s] = all[job->buf[eb].sample[s]];
  free(all);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, eb);
  kjob_arg_buf(job, cb);
  kjob_grid(job, blocks, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- LZ77 match finder ------------------------------------------------------------------------
 */

enum { LZ_CHAIN = 16, LZ_MAX = 128, LZ_HASH = 1 << 15 };

static int lz_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)8 << 20 : 20000;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "y_lz77_match");
  int tb = kjob_buf(job, n, KB_IN), pb = ybuf_u32(job, n, KB_IN), ob = kjob_buf(job, n * 4, KB_OUT);
  uint32_t *ref = yref_sampled(job, ob, KC_U32, n, 0, 0);
  uint8_t *ht = job->buf[tb].host;
  int32_t *head = malloc(LZ_HASH * sizeof *head);
  char(*dict)[12] = malloc(2000 * sizeof *dict);
  if (ht == NULL || pb < 0 || ref == NULL || head == NULL || dict == NULL) {
    free(head);
    free(dict);
    return -1;
  }
  int32_t *hp = job->buf[pb].host;
  /* Text from a 2000-word vocabulary with Zipf-like reuse: log-like. */
  for (int w = 0; w < 2000; ++w) {
    const int len = 2 + (int)krng_below(&r, 9);
    for (int c = 0; c < len; ++c) dict[w][c] = (char)('a' + krng_below(&r, 26));
    dict[w][len] = 0;
  }
  for (size_t at = 0; at < n;) {
    const uint32_t u = krng_below(&r, 2000), w = u * u / 2000;
    for (const char *c = dict[w]; *c && at < n; ++c) ht[at++] = (uint8_t)*c;
    if (at < n) ht[at++] = krng_below(&r, 12) ? ' ' : '\n';
  }
  free(dict);
  for (int h = 0; h < LZ_HASH; ++h) head[h] = -1;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t h = i + 2 < n
                           ? ((ht[i] * 506832829u) ^ (ht[i + 1] * 97u) ^ ht[i + 2] * 13u) % LZ_HASH
                           : (uint32_t)(i % LZ_HASH);
    hp[i] = head[h];
    head[h] = (int32_t)i;
  }
  free(head);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const int i = (int)job->buf[ob].sample[s];
    int best = 0, bd = 0, cand = hp[i];
    const int lim = (int)n - i < LZ_MAX ? (int)n - i : LZ_MAX;
    for (int c = 0; c < LZ_CHAIN && cand >= 0 && i - cand <= 32768; ++c) {
      int len = 0;
      while (len < lim && ht[cand + len] == ht[i + len]) ++len;
      if (len > best) {
        best = len;
        bd = i - cand;
      }
      cand = hp[cand];
    }
    ref[s] = best >= 3 ? (uint32_t)best << 16 | (uint32_t)bd : 0;
  }
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- string sort keys ---------------------------------------------------------------------------
 */

static int sk_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)16 << 20 : 5000;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "y_strsort_keys");
  int ob = ybuf_u32(job, n + 1, KB_IN);
  if (ob < 0) return -1;
  uint32_t *ho = job->buf[ob].host;
  ho[0] = 0;
  for (size_t i = 0; i < n; ++i) { /* 1-24 bytes, mostly short (URLs, names) */
    const uint32_t u = krng_below(&r, 24);
    ho[i + 1] = ho[i] + 1 + u * u / 24;
  }
  int cb = kjob_buf(job, ho[n] + 4, KB_IN), kb = kjob_buf(job, n * 12, KB_OUT);
  uint32_t *ref = yref_sampled(job, kb, KC_U32, 3 * n, 0, 0);
  uint8_t *hc = job->buf[cb].host;
  if (hc == NULL || ref == NULL) return -1;
  for (size_t i = 0; i < ho[n]; ++i) hc[i] = (uint8_t)(32 + krng_below(&r, 95));
  for (size_t s = 0; s < job->buf[kb].count; ++s) {
    const size_t e = job->buf[kb].sample[s], i = e / 3;
    const uint32_t a = ho[i], len = ho[i + 1] - a;
    uint32_t v = len;
    if (e % 3 < 2) {
      v = 0;
      for (uint32_t k = 0; k < 4; ++k) {
        const uint32_t kk = (uint32_t)(e % 3) * 4 + k;
        v = v << 8 | (kk < len ? hc[a + kk] : 0u);
      }
    }
    ref[s] = v;
  }
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, kb);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- k-means update with atomics
 * --------------------------------------------------------------------- */

enum { KM_DIM = 8, KM_K = 32 };

static int km_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)2 << 20 : 3000;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "y_kmeans_atomic");
  int pb = ybuf_u32(job, n * KM_DIM, KB_IN), cb = ybuf_u32(job, KM_K * KM_DIM, KB_IN);
  int sb = ybuf_u32(job, KM_K * (KM_DIM + 1), KB_INOUT);
  uint32_t *ref = kjob_ref(job, sb, KC_U32, KM_K * (KM_DIM + 1), 0, 0);
  if (pb < 0 || cb < 0 || sb < 0 || ref == NULL) return -1;
  uint32_t *hp = job->buf[pb].host, *hc = job->buf[cb].host;
  for (int e = 0; e < KM_K * KM_DIM; ++e) hc[e] = krng_below(&r, 1000);
  for (size_t i = 0; i < n; ++i) { /* clustered around the centroids */
    const uint32_t k = krng_below(&r, KM_K);
    for (int dd = 0; dd < KM_DIM; ++dd) {
      const int v = (int)hc[k * KM_DIM + dd] + (int)krng_below(&r, 301) - 150;
      hp[i * KM_DIM + dd] = (uint32_t)(v < 0 ? 0 : v);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    uint32_t bd = 0xffffffffu;
    int bk = 0;
    for (int k = 0; k < KM_K; ++k) {
      uint32_t s = 0;
      for (int dd = 0; dd < KM_DIM; ++dd) {
        const int df = (int)hp[i * KM_DIM + dd] - (int)hc[k * KM_DIM + dd];
        s += (uint32_t)(df * df);
      }
      if (s < bd) {
        bd = s;
        bk = k;
      }
    }
    for (int dd = 0; dd < KM_DIM; ++dd) ref[bk * (KM_DIM + 1) + dd] += hp[i * KM_DIM + dd];
    ref[bk * (KM_DIM + 1) + KM_DIM]++;
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

SP_SETUP(ysetup_irr) {
  switch (d->param) {
    case YIR_BC:
      return bc_job(job, d, size);
    case YIR_SA:
      return sa_job(job, d, size);
    case YIR_CSV:
      return csv_job(job, d, size);
    case YIR_LZ77:
      return lz_job(job, d, size);
    case YIR_STRKEYS:
      return sk_job(job, d, size);
    case YIR_KMEANS:
      return km_job(job, d, size);
  }
  return -1;
}
