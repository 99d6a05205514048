/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.c: host half of irr.cl (MinHash, Luby's MIS step, Soundex, SHA-256d,
 * the distance transform's column pass, Huffman decoding).  Every result
 * is exact: the same modular hashes, the same rule per vertex, Soundex by
 * its rules written out again, SHA-256 as FIPS 180-4 states it, the lower
 * envelope in the same arithmetic, and the decoded symbols against the
 * symbols that were encoded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation10.h"

/* ---- MinHash ----------------------------------------------------------------------------- */

enum { MH_K = 128, MH_L = 1024 };

static uint32_t modp(uint64_t v) {
  const uint64_t p = 2147483647u;
  v = (v & p) + (v >> 31);
  v = (v & p) + (v >> 31);
  return (uint32_t)(v >= p ? v - p : v);
}

static int minhash_job(kjob *job, const kdesc *d, ksize size) {
  static const char *const VOCAB[] = {"the ",    "gpu ",   "kernel ", "of ",   "and ",
                                      "memory ", "power ", "scales ", "with ", "clock ",
                                      "a ",      "model ", "time ",   "per ",  "sm ",
                                      "cache ",  "is ",    "warp ",   "load ", "store "};
  const int groups = 264, per = size == KSIZE_FULL ? 64 : 1, nd = groups * per;
  const size_t pool_len = 1 << 16;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "u_minhash_sig_264");
  int db = kjob_buf(job, (size_t)nd * MH_L, KB_IN), hb = ubuf_u32(job, 2 * MH_K, KB_IN);
  int ob = ubuf_u32(job, (size_t)nd * MH_K, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, (size_t)nd * MH_K, U_SAMPLES, 0, 0);
  char *pool = malloc(pool_len + 16);
  if (job->buf[db].host == NULL || hb < 0 || ref == NULL || pool == NULL) {
    free(pool);
    return -1;
  }
  for (size_t q = 0; q < pool_len;) { /* text from a small vocabulary */
    const char *wd = VOCAB[krng_below(&r, 20)];
    const size_t l = strlen(wd);
    memcpy(pool + q, wd, l);
    q += l;
  }
  uint8_t *docs = job->buf[db].host;
  for (int k = 0; k < nd; ++k) /* near-duplicate windows of the pool, a few bytes changed */
    for (int b = 0; b < MH_L; ++b) {
      const size_t at = (u_hash_host((uint32_t)k) % (pool_len - MH_L)) + b;
      docs[(size_t)k * MH_L + b] =
          u_hash_host((uint32_t)(k * MH_L + b)) % 61 == 0 ? '#' : (uint8_t)pool[at];
    }
  free(pool);
  uint32_t *ab = job->buf[hb].host;
  for (int k = 0; k < MH_K; ++k) {
    ab[2 * k] = 1 + krng_below(&r, 2147483646u);
    ab[2 * k + 1] = krng_below(&r, 2147483647u);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    const uint8_t *doc = docs + (e / MH_K) * MH_L;
    const int k = (int)(e % MH_K);
    uint32_t best = 0xFFFFFFFFu;
    for (int i = 0; i <= MH_L - 4; ++i) {
      const uint32_t x = doc[i] | (uint32_t)doc[i + 1] << 8 | (uint32_t)doc[i + 2] << 16 |
                         (uint32_t)doc[i + 3] << 24;
      const uint32_t hv = modp((uint64_t)ab[2 * k] * x + ab[2 * k + 1]);
      best = hv < best ? hv : best;
    }
    ref[s] = best;
  }
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, hb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, per);
  kjob_grid(job, (size_t)groups, 1, 1, MH_K, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- Luby's MIS step --------------------------------------------------------------------- */

static int beats(uint32_t u, uint32_t v) {
  const uint32_t hu = u_hash_host(u), hv = u_hash_host(v);
  return hu > hv || (hu == hv && u > v);
}

static int mis_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, n = full ? 4 << 20 : 16384, nhub = full ? 32 : 4;
  const int hub_lo = full ? 2048 : 256;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "u_mis_luby_step");
  int pb = ubuf_u32(job, (size_t)n + 1, KB_IN);
  if (pb < 0) return -1;
  int32_t *rp = job->buf[pb].host;
  rp[0] = 0;
  for (int v = 0; v < n; ++v) { /* degrees 1-8, hubs spread evenly */
    const int hub = v % (n / nhub) == n / nhub / 3;
    rp[v + 1] =
        rp[v] + (hub ? hub_lo + (int)krng_below(&r, (uint32_t)hub_lo) : 1 + (int)krng_below(&r, 8));
  }
  const size_t m = (size_t)rp[n];
  int cb = ubuf_u32(job, m, KB_IN), sb = ubuf_u32(job, (size_t)n, KB_IN);
  int ob = ubuf_u32(job, (size_t)n, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, (size_t)n, U_SAMPLES, 0, 0);
  if (cb < 0 || sb < 0 || ref == NULL) return -1;
  int32_t *col = job->buf[cb].host;
  uint32_t *st = job->buf[sb].host;
  for (size_t e = 0; e < m; ++e) col[e] = (int32_t)krng_below(&r, (uint32_t)n);
  for (int v = 0; v < n; ++v) { /* after a first step: 3% in, 20% out, the rest undecided */
    const uint32_t u = krng_below(&r, 100);
    st[v] = u < 3 ? 1u : u < 23 ? 2u : 0u;
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const int v = (int)job->buf[ob].sample[s];
    uint32_t res = st[v];
    if (res == 0) {
      int lost = 0, in = 0;
      for (int e = rp[v]; e < rp[v + 1] && !in; ++e) {
        in = st[col[e]] == 1;
        lost |= st[col[e]] == 0 && beats((uint32_t)col[e], (uint32_t)v);
      }
      res = in ? 2u : lost ? 0u : 1u;
    }
    ref[s] = res;
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_grid1(job, (size_t)n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- Soundex ----------------------------------------------------------------------------- */

/* Soundex of a NUL-terminated lowercase word, as four characters. */
static uint32_t soundex(const char *w) {
  static const char DIGIT[] = "01230120022455012623010202";
  uint32_t out = (uint32_t)(w[0] - 'a' + 'A');
  int n = 1;
  char last = DIGIT[w[0] - 'a'];
  for (const char *c = w + 1; *c && n < 4; ++c) {
    if (*c == 'h' || *c == 'w') continue;
    const char dg = DIGIT[*c - 'a'];
    if (dg != '0' && dg != last) out |= (uint32_t)dg << (8 * n++);
    last = dg;
  }
  for (; n < 4; ++n) out |= (uint32_t)'0' << (8 * n);
  return out;
}

static int soundex_job(kjob *job, const kdesc *d, ksize size) {
  static const char SYL[][5] = {"ro",  "ber", "t",   "ash", "cr",  "aft",  "pf",  "ist", "er",
                                "tym", "cz",  "ek",  "lee", "gut", "ier",  "ez",  "wh",  "ha",
                                "mo",  "sch", "mid", "bo",  "yk",  "jack", "son", "kn"};
  const size_t n = size == KSIZE_FULL ? (size_t)32 << 20 : (size_t)32 << 10;
  const size_t len = n < 65536 ? n : 65536;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "u_soundex_words");
  int wb = kjob_buf(job, n * 16, KB_IN), ob = ubuf_u32(job, n, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, n, U_SAMPLES, 0, 0);
  if (job->buf[wb].host == NULL || ref == NULL) return -1;
  char *w = job->buf[wb].host;
  for (size_t i = 0; i < len; ++i) { /* surname-like words of 1-5 syllables, at most 15 letters */
    char *p = w + 16 * i;
    const int ns = 1 + (int)krng_below(&r, 5);
    for (int s = 0; s < ns; ++s) {
      const char *sy = SYL[krng_below(&r, 26)];
      if (strlen(p) + strlen(sy) <= 15) strcat(p, sy);
    }
  }
  urepeat(w, len * 16, n * 16);
  for (size_t s = 0; s < job->buf[ob].count; ++s) ref[s] = soundex(w + 16 * job->buf[ob].sample[s]);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- SHA-256d ---------------------------------------------------------------------------- */

static const uint32_t SHA_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, int n) { return x >> n | x << (32 - n); }

/* FIPS 180-4's compression of one block m (16 words) into h. */
static void sha256_compress(uint32_t h[8], const uint32_t m[16]) {
  uint32_t w[64], v[8];
  memcpy(w, m, 64);
  for (int i = 16; i < 64; ++i)
    w[i] = w[i - 16] + (rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ w[i - 15] >> 3) + w[i - 7] +
           (rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ w[i - 2] >> 10);
  memcpy(v, h, 32);
  for (int i = 0; i < 64; ++i) {
    const uint32_t t1 = v[7] + (rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25)) +
                        ((v[4] & v[5]) ^ (~v[4] & v[6])) + SHA_K[i] + w[i];
    const uint32_t t2 = (rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22)) +
                        ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
    memmove(v + 1, v, 28);
    v[4] += t1;
    v[0] = t1 + t2;
  }
  for (int k = 0; k < 8; ++k) h[k] += v[k];
}

static void sha256d_pair(const uint32_t *child, uint32_t out[8]) {
  static const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  uint32_t h[8], m[16] = {0x80000000u};
  memcpy(h, IV, 32);
  sha256_compress(h, child);
  m[15] = 512;
  sha256_compress(h, m);
  memcpy(m, h, 32);
  memset(m + 8, 0, 32);
  m[8] = 0x80000000u;
  m[15] = 256;
  memcpy(h, IV, 32);
  sha256_compress(h, m);
  memcpy(out, h, 32);
}

static int sha256_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)4 << 20 : (size_t)4 << 10;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "u_sha256_merkle_level");
  int cb = ubuf_u32(job, n * 16, KB_IN), kb = ubuf_u32(job, 64, KB_IN);
  int ob = ubuf_u32(job, n * 8, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, n * 8, U_SAMPLES, 0, 0);
  if (cb < 0 || kb < 0 || ref == NULL) return -1;
  uint32_t *child = job->buf[cb].host;
  kfill_u32(child, n * 16, &r); /* digests look uniformly random */
  memcpy(job->buf[kb].host, SHA_K, sizeof SHA_K);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    uint32_t h[8];
    sha256d_pair(child + 16 * (e / 8), h);
    ref[s] = h[e % 8];
  }
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- distance transform, column pass ----------------------------------------------------- */

/* The column pass over column x of f (h rows of w) into col, as the kernel
 * computes it. */
static void edt_column(const int32_t *f, int w, int h, int x, int32_t *col, int32_t *v, double *z) {
  int k = 0;
  v[0] = 0;
  z[0] = -1e300;
  z[1] = 1e300;
  for (int q = 1; q < h; ++q) {
    const double fq = (double)f[(size_t)q * w + x] + (double)q * q;
    double s;
    for (;;) {
      s = (fq - ((double)f[(size_t)v[k] * w + x] + (double)v[k] * v[k])) /
          (double)(2 * q - 2 * v[k]);
      if (s > z[k]) break;
      --k;
    }
    v[++k] = q;
    z[k] = s;
    z[k + 1] = 1e300;
  }
  k = 0;
  for (int q = 0; q < h; ++q) {
    while (z[k + 1] < (double)q) ++k;
    col[q] = (q - v[k]) * (q - v[k]) + f[(size_t)v[k] * w + x];
  }
}

/* f: the squared distance of each pixel to the nearest feature of its row,
 * features being sparse blobs plus one random pixel per row. */
static void edt_rows(int32_t *f, int w, int h, krng *r) {
  for (int y = 0; y < h; ++y) {
    int32_t *row = f + (size_t)y * w;
    const int forced = (int)krng_below(r, (uint32_t)w);
    int last = -1;
    for (int x = 0; x < w; ++x) {
      const int feat = x == forced || u_hash_host((uint32_t)((y / 8) * 4099 + x / 8)) % 397 == 0;
      if (feat) last = x;
      row[x] = last < 0 ? -1 : (x - last) * (x - last);
    }
    last = -1;
    for (int x = w - 1; x >= 0; --x) {
      if (row[x] == 0) last = x;
      const int32_t dr = last < 0 ? -1 : (last - x) * (last - x);
      if (row[x] < 0 || (dr >= 0 && dr < row[x])) row[x] = dr;
    }
  }
}

static int edt_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 16384 : 1024, h = full ? 1024 : 128;
  const size_t np = (size_t)w * h;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "u_edt_columns_128");
  int fb = ubuf_u32(job, np, KB_IN), ob = ubuf_u32(job, np, KB_OUT);
  int vb = ubuf_u32(job, np, KB_OUT), zb = kjob_buf(job, (np + w) * 8, KB_OUT);
  int32_t *ref = uref_sampled(job, ob, KC_U32, np, U_SAMPLES, 0, 0);
  int32_t *col = malloc((size_t)h * 4), *v = malloc((size_t)h * 4);
  double *z = malloc((size_t)(h + 1) * 8);
  if (fb < 0 || ref == NULL || col == NULL || v == NULL || z == NULL) {
    free(col);
    free(v);
    free(z);
    return -1;
  }
  int32_t *f = job->buf[fb].host;
  edt_rows(f, w, h, &r);
  int last = -1;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    const int x = (int)(e % w);
    if (x != last) edt_column(f, w, h, x, col, v, z);
    last = x;
    ref[s] = col[e / w];
  }
  free(col);
  free(v);
  free(z);
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, zb);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_grid1(job, (size_t)w, 128);
  kjob_sampleable(job);
  return 0;
}

/* ---- Huffman decoding -------------------------------------------------------------------- */

enum { HF_B = 10, HF_C = 4096, HF_DISTINCT = 64 };

/* A canonical code (RFC 1951's construction) with lengths 2, 3, 4 x 2,
 * 5 x 4, 7 x 8, 9 x 80 and 10 x 160 (Kraft sum 1), and its decoding table. */
static void huff_code(uint32_t code[256], int len[256], uint32_t lut[1 << HF_B]) {
  int count[HF_B + 1] = {0}, next[HF_B + 1] = {0};
  for (int s = 0; s < 256; ++s) {
    len[s] = s < 1 ? 2 : s < 2 ? 3 : s < 4 ? 4 : s < 8 ? 5 : s < 16 ? 7 : s < 96 ? 9 : 10;
    ++count[len[s]];
  }
  for (int b = 1, c = 0; b <= HF_B; ++b) {
    c = (c + count[b - 1]) << 1;
    next[b] = c;
  }
  for (int s = 0; s < 256; ++s) {
    code[s] = (uint32_t)next[len[s]]++;
    for (uint32_t f = 0; f < 1u << (HF_B - len[s]); ++f)
      lut[code[s] << (HF_B - len[s]) | f] = (uint32_t)s | (uint32_t)len[s] << 8;
  }
}

/* Appends the HF_C symbols sym to the MSB-first stream at word *nw. */
static void huff_encode(const uint8_t *sym, const uint32_t code[256], const int len[256],
                        uint32_t *out, size_t *nw) {
  uint64_t acc = 0;
  int nb = 0;
  for (int i = 0; i < HF_C; ++i) {
    acc = acc << len[sym[i]] | code[sym[i]];
    nb += len[sym[i]];
    if (nb >= 32) {
      out[(*nw)++] = (uint32_t)(acc >> (nb - 32));
      nb -= 32;
    }
  }
  if (nb > 0) out[(*nw)++] = (uint32_t)(acc << (32 - nb));
}

static int huffman_job(kjob *job, const kdesc *d, ksize size) {
  const int nchunk = size == KSIZE_FULL ? 65536 : 256;
  uint32_t code[256];
  int len[256];
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "u_huffman_decode_chunks");
  int lb = ubuf_u32(job, 1 << HF_B, KB_IN), fb = ubuf_u32(job, (size_t)nchunk + 1, KB_IN);
  int ob = ubuf_u32(job, (size_t)nchunk * HF_C / 4, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, (size_t)nchunk * HF_C / 4, U_SAMPLES, 0, 0);
  uint8_t *sym = malloc((size_t)HF_DISTINCT * HF_C);
  uint32_t *enc = malloc(((size_t)HF_DISTINCT * HF_C * 10 / 32 + HF_DISTINCT + 1) * 4);
  size_t *start = malloc((HF_DISTINCT + 1) * sizeof *start);
  if (lb < 0 || fb < 0 || ref == NULL || sym == NULL || enc == NULL || start == NULL) goto oom;
  uint32_t *lut = job->buf[lb].host, *off = job->buf[fb].host;
  huff_code(code, len, lut);
  /* HF_DISTINCT different chunks, each symbol drawn with probability
   * 2^-length (a uniform table index), repeated over the stream. */
  start[0] = 0;
  for (int c = 0; c < HF_DISTINCT; ++c) {
    for (int i = 0; i < HF_C; ++i)
      sym[(size_t)c * HF_C + i] = (uint8_t)lut[krng_below(&r, 1 << HF_B)];
    size_t nw = start[c];
    huff_encode(sym + (size_t)c * HF_C, code, len, enc, &nw);
    start[c + 1] = nw;
  }
  off[0] = 0;
  for (int c = 0; c < nchunk; ++c)
    off[c + 1] = off[c] + (uint32_t)(start[c % HF_DISTINCT + 1] - start[c % HF_DISTINCT]);
  int bb = ubuf_u32(job, (size_t)off[nchunk] + 2, KB_IN); /* the decoder reads ahead a word */
  if (bb < 0) goto oom;
  uint32_t *bits = job->buf[bb].host;
  for (int c = 0; c < nchunk; ++c)
    memcpy(bits + off[c], enc + start[c % HF_DISTINCT],
           (start[c % HF_DISTINCT + 1] - start[c % HF_DISTINCT]) * 4);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], c = e / (HF_C / 4), i = e % (HF_C / 4);
    memcpy(&ref[s], sym + (c % HF_DISTINCT) * HF_C + 4 * i, 4);
  }
  free(sym);
  free(enc);
  free(start);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, nchunk);
  kjob_grid1(job, (size_t)nchunk, 256);
  kjob_sampleable(job);
  return 0;
oom:
  free(sym);
  free(enc);
  free(start);
  return -1;
}

SP_SETUP(usetup_irr) {
  switch (d->param) {
    case UIR_MINHASH:
      return minhash_job(job, d, size);
    case UIR_MIS:
      return mis_job(job, d, size);
    case UIR_SOUNDEX:
      return soundex_job(job, d, size);
    case UIR_SHA256:
      return sha256_job(job, d, size);
    case UIR_EDT:
      return edt_job(job, d, size);
    case UIR_HUFFMAN:
      return huffman_job(job, d, size);
  }
  return -1;
}
