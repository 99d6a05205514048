/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.c: host half of irr.cl (Bloom filter count, merge path, radix
 * scatter, reduce-by-key, SpGEMM symbolic phase, DFA grep, hash-table
 * build, page CRC-32).  All results are integers: the references are
 * exact, and where the kernel's layout depends on the order of its
 * atomics (the hash table) the check looks the keys up instead. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation3.h"

/* The device's hash (sp_dev.h, sp_fmix32). */
static uint32_t mix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/* ---- Bloom filter count --------------------------------------------------------- */

enum { BL_K = 6 };

static int bloom_has(const uint32_t *bits, uint32_t mask, uint32_t key) {
  const uint32_t h1 = mix32(key), h2 = mix32(key ^ 0x9e3779b9u) | 1u;
  for (uint32_t k = 0; k < BL_K; ++k) {
    const uint32_t b = (h1 + k * h2) & mask;
    if (!(bits[b >> 5] >> (b & 31u) & 1u)) return 0;
  }
  return 1;
}

static int bloom_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const uint32_t nbits = full ? 1u << 28 : 1u << 14, mask = nbits - 1;
  /* Filled to about 30%, so a few thousand non-members pass too. */
  const size_t nset = full ? (size_t)1 << 24 : 1024, n = full ? (size_t)1 << 24 : 8192;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "x_bloom_count");
  int kb = xbuf_u32(job, n, KB_IN), bb = xbuf_u32(job, nbits / 32, KB_IN);
  int cb = xbuf_u32(job, 1, KB_INOUT);
  uint32_t *ref = kjob_ref(job, cb, KC_U32, 1, 0, 0);
  uint32_t *set = malloc(nset * sizeof *set);
  if (kb < 0 || bb < 0 || cb < 0 || ref == NULL || set == NULL) {
    free(set);
    return -1;
  }
  uint32_t *keys = job->buf[kb].host, *bits = job->buf[bb].host;
  for (size_t i = 0; i < nset; ++i) { /* insert the set */
    const uint32_t key = set[i] = krng_u32(&r);
    const uint32_t h1 = mix32(key), h2 = mix32(key ^ 0x9e3779b9u) | 1u;
    for (uint32_t k = 0; k < BL_K; ++k) {
      const uint32_t b = (h1 + k * h2) & mask;
      bits[b >> 5] |= 1u << (b & 31u);
    }
  }
  /* Half the probes are members, half random keys (a few false hits). */
  for (size_t i = 0; i < n; ++i)
    keys[i] = krng_below(&r, 2) ? set[krng_below(&r, (uint32_t)nset)] : krng_u32(&r);
  free(set);
  for (size_t i = 0; i < n; ++i) *ref += (uint32_t)bloom_has(bits, mask, keys[i]);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, cb);
  kjob_arg_u32(job, mask);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- merge path -------------------------------------------------------------------- */

/* Sorted keys with small random steps, so a and b interleave and repeat. */
static void fill_sorted(uint32_t *a, size_t n, krng *r) {
  uint32_t v = krng_below(r, 16);
  for (size_t i = 0; i < n; ++i) a[i] = v += krng_below(r, 8);
}

/* Element p of the merge (a first on ties). */
static uint32_t merged_at(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, size_t p) {
  size_t lo = p > nb ? p - nb : 0, hi = p < na ? p : na;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (a[mid] <= b[p - 1 - mid])
      lo = mid + 1;
    else
      hi = mid;
  }
  const size_t j = p - lo;
  return lo < na && (j >= nb || a[lo] <= b[j]) ? a[lo] : b[j];
}

static int merge_job(kjob *job, const kdesc *d, ksize size) {
  const size_t na = size == KSIZE_FULL ? (size_t)1 << 25 : 3000;
  const size_t nb = size == KSIZE_FULL ? (size_t)1 << 25 : 2500, nc = na + nb;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "x_merge_path");
  int ab = xbuf_u32(job, na, KB_IN), bb = xbuf_u32(job, nb, KB_IN), cb = xbuf_u32(job, nc, KB_OUT);
  uint32_t *ref = xref_sampled(job, cb, KC_U32, nc, 0, 0);
  if (ab < 0 || bb < 0 || ref == NULL) return -1;
  uint32_t *ha = job->buf[ab].host, *hb = job->buf[bb].host;
  fill_sorted(ha, na, &r);
  fill_sorted(hb, nb, &r);
  for (size_t s = 0; s < job->buf[cb].count; ++s)
    ref[s] = merged_at(ha, na, hb, nb, job->buf[cb].sample[s]);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, (int)na);
  kjob_arg_i32(job, (int)nb);
  kjob_grid(job, (nc + 2047) / 2048, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- radix scatter ---------------------------------------------------------------------- */

enum { RX_TILE = 2048, RX_SHIFT = 8 };

static int radix_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 25 : 5000;
  const size_t tiles = (n + RX_TILE - 1) / RX_TILE;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "x_radix_scatter");
  int kb = xbuf_u32(job, n, KB_IN), vb = xbuf_u32(job, n, KB_IN);
  int ob = xbuf_u32(job, tiles * 256, KB_IN);
  int ko = xbuf_u32(job, n, KB_OUT), vo = xbuf_u32(job, n, KB_OUT);
  uint32_t *rk = xref_sampled(job, ko, KC_U32, n, 0, 0);
  uint32_t *rv = xref_sampled(job, vo, KC_U32, n, 0, 0);
  uint32_t *order = malloc(n * sizeof *order);
  if (kb < 0 || vb < 0 || ob < 0 || rk == NULL || rv == NULL || order == NULL) {
    free(order);
    return -1;
  }
  uint32_t *hk = job->buf[kb].host, *hv = job->buf[vb].host, *off = job->buf[ob].host;
  kfill_u32(hk, n, &r);
  for (size_t i = 0; i < n; ++i) hv[i] = (uint32_t)i;
  /* The upsweep: per-tile digit counts, then each (tile, digit)'s start. */
  uint32_t total[257] = {0};
  for (size_t i = 0; i < n; ++i) off[i / RX_TILE * 256 + (hk[i] >> RX_SHIFT & 255u)]++;
  for (size_t t = 0; t < tiles; ++t)
    for (int dg = 0; dg < 256; ++dg) {
      const uint32_t c = off[t * 256 + dg];
      off[t * 256 + dg] = total[dg];
      total[dg] += c;
    }
  uint32_t start = 0;
  for (int dg = 0; dg < 256; ++dg) {
    const uint32_t c = total[dg];
    total[dg] = start;
    start += c;
  }
  for (size_t t = 0; t < tiles; ++t)
    for (int dg = 0; dg < 256; ++dg) off[t * 256 + dg] += total[dg];
  /* The stable order by digit, for the reference. */
  for (size_t i = 0; i < n; ++i) order[total[hk[i] >> RX_SHIFT & 255u]++] = (uint32_t)i;
  for (size_t s = 0; s < job->buf[ko].count; ++s) {
    const uint32_t i = order[job->buf[ko].sample[s]];
    rk[s] = hk[i];
    rv[s] = hv[i];
  }
  free(order);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, ko);
  kjob_arg_buf(job, vo);
  kjob_arg_i32(job, (int)n);
  kjob_grid(job, tiles, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- reduce by key ---------------------------------------------------------------------- */

static int segred_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 26 : 10000;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "x_segreduce");
  int kb = xbuf_u32(job, n, KB_IN), vb = xbuf_u32(job, n, KB_IN);
  if (kb < 0 || vb < 0) return -1;
  uint32_t *hk = job->buf[kb].host, *hv = job->buf[vb].host;
  /* Power-law segment lengths, P(len >= x) ~ x^-2/3, at most 50000. */
  uint32_t seg = 0;
  for (size_t i = 0; i < n; ++seg) {
    double len = floor(pow(krng_uniform(&r, 1e-12, 1), -1.5));
    len = len > 50000 ? 50000 : len;
    for (size_t e = i + (size_t)len; i < e && i < n; ++i) hk[i] = seg;
  }
  for (size_t i = 0; i < n; ++i) hv[i] = krng_below(&r, 1024);
  int ob = xbuf_u32(job, seg, KB_INOUT);
  uint32_t *ref = xref_sampled(job, ob, KC_U32, seg, 0, 0);
  uint32_t *sum = calloc(seg, sizeof *sum);
  if (ob < 0 || ref == NULL || sum == NULL) {
    free(sum);
    return -1;
  }
  for (size_t i = 0; i < n; ++i) sum[hk[i]] += hv[i];
  for (size_t s = 0; s < job->buf[ob].count; ++s) ref[s] = sum[job->buf[ob].sample[s]];
  free(sum);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, (n + 7) / 8, 256);
  return 0;
}

/* ---- SpGEMM symbolic ------------------------------------------------------------------------ */

enum { SG_MAXLEN = 16, SG_ROWS_PER_GROUP = 4 };

static int cmp_u32(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static int spgemm_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nr = size == KSIZE_FULL ? (size_t)1 << 20 : 2048;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "x_spgemm_symbolic");
  int rp = xbuf_u32(job, nr + 1, KB_IN);
  if (rp < 0) return -1;
  int32_t *rowptr = job->buf[rp].host;
  /* Row lengths 1 + 15 u^2 (most short, up to 16). */
  for (size_t i = 0; i < nr; ++i) {
    const double u = krng_uniform(&r, 0, 1);
    rowptr[i + 1] = rowptr[i] + 1 + (int32_t)(15.999 * u * u);
  }
  const size_t nnz = (size_t)rowptr[nr];
  int cb = xbuf_u32(job, nnz, KB_IN), ob = xbuf_u32(job, nr, KB_OUT);
  uint32_t *ref = xref_sampled(job, ob, KC_U32, nr, 0, 0);
  if (cb < 0 || ref == NULL) return -1;
  int32_t *col = job->buf[cb].host;
  /* Columns: mostly near the diagonal (a reordered mesh), 30% anywhere;
   * distinct within a row. */
  for (size_t i = 0; i < nr; ++i)
    for (int32_t e = rowptr[i]; e < rowptr[i + 1]; ++e) {
      int dup;
      do {
        const long near = (long)i + (long)krng_below(&r, 8192) - 4096;
        col[e] = krng_below(&r, 10) < 3 ? (int32_t)krng_below(&r, (uint32_t)nr)
                                        : (int32_t)((near % (long)nr + (long)nr) % (long)nr);
        dup = 0;
        for (int32_t q = rowptr[i]; q < e && !dup; ++q) dup = col[q] == col[e];
      } while (dup);
    }
  uint32_t prod[SG_MAXLEN * SG_MAXLEN];
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t i = job->buf[ob].sample[s];
    size_t np = 0;
    for (int32_t e = rowptr[i]; e < rowptr[i + 1]; ++e)
      for (int32_t q = rowptr[col[e]]; q < rowptr[col[e] + 1]; ++q) prod[np++] = (uint32_t)col[q];
    qsort(prod, np, sizeof *prod, cmp_u32);
    uint32_t u = np > 0;
    for (size_t q = 1; q < np; ++q) u += prod[q] != prod[q - 1];
    ref[s] = u;
  }
  kjob_arg_buf(job, rp);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)nr);
  kjob_grid(job, (nr + SG_ROWS_PER_GROUP - 1) / SG_ROWS_PER_GROUP, 1, 1, 128, 1, 1);
  return 0;
}

/* ---- DFA grep ----------------------------------------------------------------------------------
 */

enum { GD_S = 64, GD_T = 128 };

static const char *const GD_WORDS[] = {"ERROR",  "timeout", "panic",   "segfault",
                                       "denied", "OOM",     "refused", "fatal"};
enum { GD_NWORDS = sizeof GD_WORDS / sizeof *GD_WORDS };

/* The Aho-Corasick automaton of GD_WORDS as a full transition table,
 * accepting states renumbered last; returns the first accepting state. */
static int gd_build(uint8_t *dfa) {
  int go[GD_S][256], fail[GD_S], acc[GD_S] = {0}, ns = 1, queue[GD_S];
  memset(go, 0xff, sizeof go);
  for (int w = 0; w < GD_NWORDS; ++w) {
    int s = 0;
    for (const char *p = GD_WORDS[w]; *p; ++p) {
      const int c = (unsigned char)*p;
      if (go[s][c] < 0) go[s][c] = ns++;
      s = go[s][c];
    }
    acc[s] = 1;
  }
  int head = 0, tail = 0;
  for (int c = 0; c < 256; ++c) {
    if (go[0][c] < 0) {
      go[0][c] = 0;
      continue;
    }
    fail[go[0][c]] = 0;
    queue[tail++] = go[0][c];
  }
  while (head < tail) {
    const int u = queue[head++];
    for (int c = 0; c < 256; ++c) {
      const int v = go[u][c];
      if (v < 0) {
        go[u][c] = go[fail[u]][c];
        continue;
      }
      fail[v] = go[fail[u]][c];
      acc[v] |= acc[fail[v]];
      queue[tail++] = v;
    }
  }
  int renum[GD_S], k = 0;
  for (int s = 0; s < ns; ++s)
    if (!acc[s]) renum[s] = k++;
  const int first = k;
  for (int s = 0; s < ns; ++s)
    if (acc[s]) renum[s] = k++;
  memset(dfa, 0, GD_S * 256);
  for (int s = 0; s < ns; ++s)
    for (int c = 0; c < 256; ++c) dfa[renum[s] * 256 + c] = (uint8_t)renum[go[s][c]];
  return first;
}

/* The end offset of the first keyword occurrence in line[0..len), or ~0. */
static uint32_t gd_first(const uint8_t *line, int len) {
  for (int i = 0; i < len; ++i)
    for (int w = 0; w < GD_NWORDS; ++w) {
      const int l = (int)strlen(GD_WORDS[w]);
      if (i + 1 >= l && memcmp(line + i + 1 - l, GD_WORDS[w], (size_t)l) == 0) return (uint32_t)i;
    }
  return 0xffffffffu;
}

static const char *const GD_VOCAB[] = {
    "INFO",    "WARN",   "request", "served", "in",     "ms",      "user",  "session",
    "opened",  "closed", "for",     "cache",  "miss",   "hit",     "GET",   "POST",
    "/api/v1", "status", "200",     "404",    "worker", "started", "queue", "depth",
    "retry",   "conn",   "pool",    "size",   "disk",   "usage",   "gc",    "pause"};
enum { GD_NVOCAB = sizeof GD_VOCAB / sizeof *GD_VOCAB };

/* Appends a line of about len bytes of log words; returns its length. */
static int gd_line(uint8_t *out, int len, krng *r) {
  int n = 0;
  while (n < len) {
    const char *w = krng_below(r, 400) == 0 ? GD_WORDS[krng_below(r, GD_NWORDS)]
                                            : GD_VOCAB[krng_below(r, GD_NVOCAB)];
    const int l = (int)strlen(w);
    memcpy(out + n, w, (size_t)l);
    n += l;
    out[n++] = ' ';
  }
  return n;
}

static int grep_job(kjob *job, const kdesc *d, ksize size) {
  const int nl = size == KSIZE_FULL ? 1 << 22 : 2048;
  const int long_group = nl / GD_T - 8; /* near the end of the log */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "x_grep_dfa");
  int sb = xbuf_u32(job, (size_t)nl + 1, KB_IN), db = xbuf_u32(job, GD_S * 64, KB_IN);
  if (sb < 0 || db < 0) return -1;
  int32_t *start = job->buf[sb].host;
  /* Lengths first, so the text buffer has its size. */
  size_t total = 0;
  for (int i = 0; i < nl; ++i) {
    const int lng = i / GD_T == long_group;
    start[i + 1] = (int32_t)(lng ? 400 + krng_below(&r, 1201) : 40 + krng_below(&r, 121));
    total += (size_t)start[i + 1] + 16; /* room for the last word */
  }
  int tb = kjob_buf(job, total, KB_IN), hb = xbuf_u32(job, (size_t)nl, KB_OUT);
  uint8_t *text = job->buf[tb].host;
  uint32_t *ref = xref_sampled(job, hb, KC_U32, (size_t)nl, 0, 0);
  if (text == NULL || ref == NULL) return -1;
  int32_t pos = 0;
  for (int i = 0; i < nl; ++i) {
    const int want = start[i + 1];
    start[i] = pos;
    pos += gd_line(text + pos, want, &r);
  }
  start[nl] = pos;
  const int first_acc = gd_build(job->buf[db].host);
  for (size_t s = 0; s < job->buf[hb].count; ++s) {
    const size_t i = job->buf[hb].sample[s];
    ref[s] = gd_first(text + start[i], start[i + 1] - start[i]);
  }
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, hb);
  kjob_arg_i32(job, nl);
  kjob_arg_i32(job, first_acc);
  kjob_grid1(job, (size_t)nl, GD_T);
  return 0;
}

/* ---- hash-table build ------------------------------------------------------------------------ */

#define HB_EMPTY 0xffffffffu

typedef struct hb_chk {
  int kb, cb;
  uint32_t mask;
  size_t n, nd;
  uint32_t key[X_SAMPLES], want[X_SAMPLES];
} hb_chk;

/* Every key was inserted once and counted as often as it occurs: the
 * sampled keys are looked up along their probe sequence, and the table
 * holds exactly the distinct keys and n counts. */
static int hb_check(const kjob *job, char *msg, size_t size) {
  const hb_chk *h = job->priv;
  const uint32_t *tk = job->buf[h->kb].result, *tc = job->buf[h->cb].result;
  size_t used = 0, counted = 0;
  for (size_t i = 0; i <= h->mask; ++i) {
    used += tk[i] != HB_EMPTY;
    counted += tc[i];
  }
  if (used != h->nd || counted != h->n) {
    snprintf(msg, size, "table holds %zu keys and %zu counts, expected %zu and %zu", used, counted,
             h->nd, h->n);
    return -1;
  }
  for (size_t s = 0; s < X_SAMPLES && s < h->nd; ++s) {
    uint32_t i = mix32(h->key[s]) & h->mask;
    while (tk[i] != h->key[s] && tk[i] != HB_EMPTY) i = (i + 1) & h->mask;
    if (tk[i] != h->key[s] || tc[i] != h->want[s]) {
      snprintf(msg, size, "key 0x%08x: %s, count %u, expected %u", h->key[s],
               tk[i] == h->key[s] ? "found" : "missing", tc[i], h->want[s]);
      return -1;
    }
  }
  return 0;
}

static int hashbuild_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t nd = full ? (size_t)1 << 22 : 512, n = full ? (size_t)1 << 24 : 4096;
  const size_t slots = full ? (size_t)1 << 23 : 2048;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "x_hash_build");
  int kb = xbuf_u32(job, n, KB_IN), tk = xbuf_u32(job, slots, KB_INOUT);
  int tc = xbuf_u32(job, slots, KB_INOUT);
  hb_chk *h = job->priv = malloc(sizeof *h);
  uint32_t *mult = calloc(nd, sizeof *mult);
  if (kb < 0 || tk < 0 || tc < 0 || h == NULL || mult == NULL) {
    free(mult);
    return -1;
  }
  memset(job->buf[tk].host, 0xff, slots * 4);
  uint32_t *keys = job->buf[kb].host;
  /* Distinct keys: a bijection of the rank, with a salt for which no rank
   * gives HB_EMPTY.  Ranks ~ x^-0.8 on [1, nd] (Zipf-like), drawn by
   * inverting the continuous law. */
  uint32_t salt = krng_u32(&r) | 1u;
  for (size_t k = 0; k < nd; ++k)
    if (mix32((uint32_t)k * salt + 12345u) == HB_EMPTY) {
      salt += 2; /* and check every rank again */
      k = (size_t)-1;
    }
  const double span = pow((double)nd, 0.2) - 1;
  for (size_t i = 0; i < n; ++i) {
    size_t rank = (size_t)pow(1 + krng_uniform(&r, 0, 1) * span, 5.0) - 1;
    rank = rank >= nd ? nd - 1 : rank;
    mult[rank]++;
    keys[i] = mix32((uint32_t)rank * salt + 12345u);
  }
  size_t nd_used = 0;
  for (size_t k = 0; k < nd; ++k) nd_used += mult[k] > 0;
  h->kb = tk;
  h->cb = tc;
  h->mask = (uint32_t)(slots - 1);
  h->n = n;
  h->nd = nd_used;
  size_t s = 0;
  for (size_t k = 0; k < nd && s < X_SAMPLES; ++k)
    if (mult[k] > 0 && (k < 64 || krng_below(&r, (uint32_t)(nd / X_SAMPLES + 1)) == 0)) {
      h->key[s] = mix32((uint32_t)k * salt + 12345u);
      h->want[s++] = mult[k];
    }
  for (size_t taken = s; s < X_SAMPLES; ++s) { /* repeat the first ones to fill */
    h->key[s] = h->key[s % taken];
    h->want[s] = h->want[s % taken];
  }
  free(mult);
  job->check = hb_check;
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, tk);
  kjob_arg_buf(job, tc);
  kjob_arg_u32(job, (uint32_t)(slots - 1));
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- CRC-32 ------------------------------------------------------------------------------------
 */

static int crc_job(kjob *job, const kdesc *d, ksize size) {
  const size_t np = size == KSIZE_FULL ? 32768 : 64, words = size == KSIZE_FULL ? 4096 : 256;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "x_crc32_pages");
  int pb = xbuf_u32(job, np * words, KB_IN), tb = xbuf_u32(job, 1024, KB_IN);
  int cb = xbuf_u32(job, np, KB_OUT);
  uint32_t *ref = xref_sampled(job, cb, KC_U32, np, 0, 0);
  if (pb < 0 || tb < 0 || ref == NULL) return -1;
  uint32_t *pages = job->buf[pb].host, *tab = job->buf[tb].host;
  kfill_u32(pages, np * words, &r);
  for (uint32_t i = 0; i < 256; ++i) { /* slicing-by-4 tables, reflected */
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = c & 1u ? 0xedb88320u ^ (c >> 1) : c >> 1;
    tab[i] = c;
  }
  for (int t = 1; t < 4; ++t)
    for (uint32_t i = 0; i < 256; ++i)
      tab[t * 256 + i] = (tab[(t - 1) * 256 + i] >> 8) ^ tab[tab[(t - 1) * 256 + i] & 255u];
  for (size_t s = 0; s < job->buf[cb].count; ++s) { /* byte at a time, as the standard says */
    const uint8_t *p = (const uint8_t *)(pages + job->buf[cb].sample[s] * words);
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < words * 4; ++i) c = tab[(c ^ p[i]) & 255u] ^ (c >> 8);
    ref[s] = ~c;
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, (int)words);
  kjob_arg_i32(job, (int)np);
  kjob_grid1(job, np, 256);
  return 0;
}

int xsetup_irr(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case XIR_BLOOM:
      return bloom_job(job, d, size);
    case XIR_MERGE:
      return merge_job(job, d, size);
    case XIR_RADIX:
      return radix_job(job, d, size);
    case XIR_SEGRED:
      return segred_job(job, d, size);
    case XIR_SPGEMM:
      return spgemm_job(job, d, size);
    case XIR_REGEX:
      return grep_job(job, d, size);
    case XIR_HASHBUILD:
      return hashbuild_job(job, d, size);
    case XIR_CRC32:
      return crc_job(job, d, size);
  }
  return -1;
}
