/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.c: host half of irr.cl (UTF-8 validation, word count, greedy
 * colouring, AES-128 CTR, Miller-Rabin, longest-prefix match).  Every
 * result is an integer and checked exactly.  AES is checked against a
 * byte-oriented FIPS-197 implementation (S-box, ShiftRows, MixColumns), not
 * against the T-tables the kernel uses; Miller-Rabin against plain 64-bit
 * modular arithmetic, not Montgomery's.  The word count accumulates, so it
 * is checked after the first launch only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation7.h"

/* ---- UTF-8 validation -------------------------------------------------------------------- */

enum { U8_B = 64 };

static int lead_len(unsigned c) { return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4; }

/* The kernel's verdict on block b (0, or 1 + the offset of the first
 * sequence that is not well formed), byte by byte. */
static uint32_t utf8_block(const uint8_t *t, size_t nbytes, size_t b) {
  const size_t base = b * U8_B;
  int k = 0;
  for (int j = 1; j <= 3 && base >= (size_t)j; ++j) {
    const unsigned c = t[base - j];
    if ((c & 0xC0) != 0x80) {
      const int len = c >= 0xC0 ? lead_len(c) : 1;
      k = len > j ? len - j : 0;
      break;
    }
  }
  for (; k < U8_B && base + k < nbytes;) {
    const unsigned c = t[base + k];
    if (c < 0x80) {
      ++k;
      continue;
    }
    int len = 0;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      lo = c == 0xE0 ? 0xA0 : 0x80;
      hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      lo = c == 0xF0 ? 0x90 : 0x80;
      hi = c == 0xF4 ? 0x8F : 0xBF;
    }
    int ok = len > 0;
    for (int j = 1; ok && j < len; ++j) {
      const unsigned cc = base + k + j < nbytes ? t[base + k + j] : 0;
      ok = j == 1 ? cc >= lo && cc <= hi : (cc & 0xC0) == 0x80;
    }
    if (!ok) return (uint32_t)k + 1;
    k += len;
  }
  return 0;
}

/* Breaks the text at a random offset of block b: a byte that never
 * occurs, an overlong lead, a surrogate, a stray continuation or a cut
 * sequence. */
static void utf8_damage(uint8_t *t, size_t nbytes, size_t b, krng *r) {
  const size_t p = b * U8_B + krng_below(r, U8_B - 3);
  if (p + 3 > nbytes) return;
  switch (krng_below(r, 5)) {
    case 0:
      t[p] = 0xFF;
      break;
    case 1:
      t[p] = 0xC0;
      t[p + 1] = 0xAF;
      break;
    case 2:
      t[p] = 0xED;
      t[p + 1] = 0xA0;
      t[p + 2] = 0x80;
      break;
    case 3:
      t[p] = 0x80;
      break;
    default:
      t[p] = 0xE4;
      t[p + 1] = 0xB8;
      t[p + 2] = 'x';
      break;
  }
}

static int utf8_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nbytes = size == KSIZE_FULL ? (size_t)512 << 20 : 65536, nblocks = nbytes / U8_B;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "r_utf8_validate");
  int tb = kjob_buf(job, nbytes, KB_IN), eb = rbuf_u32(job, nblocks, KB_OUT);
  uint32_t *ref = rref_sampled(job, eb, KC_U32, nblocks, 0, 0);
  uint8_t *text = rtext_utf8(nbytes, &r);
  if (job->buf[tb].host == NULL || ref == NULL || text == NULL) {
    free(text);
    return -1;
  }
  memcpy(job->buf[tb].host, text, nbytes);
  free(text);
  uint8_t *t = job->buf[tb].host;
  const size_t *smp = job->buf[eb].sample;
  for (size_t s = 0; s < job->buf[eb].count; s += 8) utf8_damage(t, nbytes, smp[s], &r);
  for (int k = 0; k < 1000; ++k) utf8_damage(t, nbytes, krng_below(&r, (uint32_t)nblocks), &r);
  for (size_t s = 0; s < job->buf[eb].count; ++s) ref[s] = utf8_block(t, nbytes, smp[s]);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, eb);
  kjob_arg_i32(job, (int)nblocks);
  kjob_arg_i32(job, (int)nbytes);
  kjob_grid1(job, nblocks, 256);
  return 0;
}

/* ---- word count -------------------------------------------------------------------------- */

static int is_space(unsigned c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

static int wc_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nbytes = size == KSIZE_FULL ? (size_t)64 << 20 : 65536;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "r_wc_words_atomic");
  int tb = kjob_buf(job, nbytes, KB_IN), cb = rbuf_u32(job, 1, KB_INOUT);
  uint32_t *ref = kjob_ref(job, cb, KC_U32, 1, 0, 0);
  uint8_t *text = rtext_utf8(nbytes, &r);
  if (job->buf[tb].host == NULL || cb < 0 || ref == NULL || text == NULL) {
    free(text);
    return -1;
  }
  memcpy(job->buf[tb].host, text, nbytes);
  free(text);
  const uint8_t *t = job->buf[tb].host;
  int prev = 1;
  for (size_t i = 0; i < nbytes; ++i) {
    const int sp = is_space(t[i]);
    *ref += (uint32_t)(!sp && prev);
    prev = sp;
  }
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, (int)(nbytes / 4));
  kjob_grid1(job, nbytes / 4, 256);
  return 0;
}

/* ---- greedy colouring -------------------------------------------------------------------- */

enum { GC_HUBS = 32 };
#define GC_NONE 0xffffffffu

static uint32_t first_free_color(const int32_t *rp, const int32_t *adj, const uint32_t *col,
                                 int v) {
  for (uint32_t base = 0;; base += 64) {
    uint64_t used = 0;
    for (int32_t e = rp[v]; e < rp[v + 1]; ++e) {
      const uint32_t c = col[adj[e]] - base;
      if (c < 64) used |= (uint64_t)1 << c;
    }
    if (used != ~(uint64_t)0) {
      uint32_t k = 0;
      while (used >> k & 1) ++k;
      return base + k;
    }
  }
}

static int color_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, n = full ? 4 << 20 : 8192, hubmin = full ? 32768 : 512;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "r_greedy_color_vb");
  int pb = rbuf_u32(job, (size_t)n + 1, KB_IN), cb = rbuf_u32(job, (size_t)n, KB_IN);
  if (pb < 0 || cb < 0) return -1;
  int32_t *rp = job->buf[pb].host;
  uint32_t *col = job->buf[cb].host;
  for (int v = 0; v < n; ++v) /* power-law-like: a few hubs, the rest degree 4-28 */
    rp[v + 1] = rp[v] + (v % (n / GC_HUBS) == 0 ? hubmin + (int)krng_below(&r, (uint32_t)hubmin)
                                                : 4 + (int)krng_below(&r, 25));
  const size_t ne = (size_t)rp[n];
  int ab = rbuf_u32(job, ne, KB_IN), ob = rbuf_u32(job, (size_t)n, KB_OUT);
  uint32_t *ref = kjob_ref(job, ob, KC_U32, (size_t)n, 0, 0);
  if (ab < 0 || ref == NULL) return -1;
  int32_t *adj = job->buf[ab].host;
  for (size_t e = 0; e < ne; ++e) /* one endpoint in 32 is a hub */
    adj[e] = krng_below(&r, 32) == 0 ? (int32_t)(krng_below(&r, GC_HUBS) * (uint32_t)(n / GC_HUBS))
                                     : (int32_t)krng_below(&r, (uint32_t)n);
  for (int v = 0; v < n; ++v) { /* earlier rounds coloured 60%, mostly below 48 */
    const uint32_t u = krng_below(&r, 100);
    col[v] = u >= 60 ? GC_NONE : u < 3 ? 64 + krng_below(&r, 64) : krng_below(&r, 48);
  }
  for (int v = 0; v < n; ++v)
    ref[v] = col[v] != GC_NONE ? col[v] : first_free_color(rp, adj, col, v);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_grid1(job, (size_t)n, 256);
  return 0;
}

/* ---- AES-128 CTR ------------------------------------------------------------------------- */

static uint8_t xtime(uint8_t a) { return (uint8_t)(a << 1 ^ (a & 0x80 ? 0x1b : 0)); }

static uint8_t gmul(uint8_t a, uint8_t b) {
  uint8_t p = 0;
  for (; b; b >>= 1, a = xtime(a))
    if (b & 1) p ^= a;
  return p;
}

/* The S-box: the inverse in GF(2^8) (a^254) through the affine map. */
static void aes_sbox(uint8_t sbox[256]) {
  for (int x = 0; x < 256; ++x) {
    uint8_t inv = 0;
    if (x != 0) {
      uint8_t p = (uint8_t)x;
      inv = 1;
      for (int e = 254; e; e >>= 1, p = gmul(p, p))
        if (e & 1) inv = gmul(inv, p);
    }
    uint8_t s = 0x63;
    for (int k = 0; k < 5; ++k) s ^= (uint8_t)(inv << k | inv >> (8 - k));
    sbox[x] = s;
  }
}

static void aes_expand(const uint8_t key[16], const uint8_t sbox[256], uint32_t w[44]) {
  for (int i = 0; i < 4; ++i)
    w[i] = (uint32_t)key[4 * i] << 24 | (uint32_t)key[4 * i + 1] << 16 |
           (uint32_t)key[4 * i + 2] << 8 | key[4 * i + 3];
  uint8_t rcon = 1;
  for (int i = 4; i < 44; ++i) {
    uint32_t t = w[i - 1];
    if (i % 4 == 0) {
      t = (uint32_t)sbox[t >> 16 & 255] << 24 | (uint32_t)sbox[t >> 8 & 255] << 16 |
          (uint32_t)sbox[t & 255] << 8 | sbox[t >> 24];
      t ^= (uint32_t)rcon << 24;
      rcon = xtime(rcon);
    }
    w[i] = w[i - 4] ^ t;
  }
}

/* FIPS-197 Cipher on 16 bytes in place, byte by byte. */
static void aes_encrypt(uint8_t s[16], const uint32_t w[44], const uint8_t sbox[256]) {
  for (int round = 0; round <= 10; ++round) {
    if (round > 0) {
      uint8_t t[16];
      for (int i = 0; i < 16; ++i) t[i] = sbox[s[i]];
      for (int c = 0; c < 4; ++c) /* ShiftRows: row i of column c from column c + i */
        for (int i = 0; i < 4; ++i) s[4 * c + i] = t[4 * ((c + i) % 4) + i];
      if (round < 10)
        for (int c = 0; c < 4; ++c) {
          const uint8_t a0 = s[4 * c], a1 = s[4 * c + 1], a2 = s[4 * c + 2], a3 = s[4 * c + 3];
          s[4 * c] = (uint8_t)(gmul(a0, 2) ^ gmul(a1, 3) ^ a2 ^ a3);
          s[4 * c + 1] = (uint8_t)(a0 ^ gmul(a1, 2) ^ gmul(a2, 3) ^ a3);
          s[4 * c + 2] = (uint8_t)(a0 ^ a1 ^ gmul(a2, 2) ^ gmul(a3, 3));
          s[4 * c + 3] = (uint8_t)(gmul(a0, 3) ^ a1 ^ a2 ^ gmul(a3, 2));
        }
    }
    for (int c = 0; c < 4; ++c)
      for (int i = 0; i < 4; ++i) s[4 * c + i] ^= (uint8_t)(w[4 * round + c] >> (24 - 8 * i));
  }
}

static int aes_job(kjob *job, const kdesc *d, ksize size) {
  const size_t blocks = size == KSIZE_FULL ? (size_t)16 << 20 : 4096, words = blocks * 4;
  const uint32_t nonce[3] = {0x00000030u, 0x00000000u, 0x00000000u};
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "r_aes128_ctr");
  int ib = rbuf_u32(job, words, KB_IN), ob = rbuf_u32(job, words, KB_OUT);
  int tb = rbuf_u32(job, 5 * 256, KB_IN), kb = rbuf_u32(job, 44, KB_IN);
  uint32_t *ref = rref_sampled(job, ob, KC_U32, words, 0, 0);
  if (ib < 0 || tb < 0 || kb < 0 || ref == NULL) return -1;
  uint32_t *in = job->buf[ib].host, *te = job->buf[tb].host, *w = job->buf[kb].host;
  kfill_u32(in, words, &r);
  uint8_t sbox[256], key[16];
  for (int i = 0; i < 16; ++i) key[i] = (uint8_t)krng_below(&r, 256);
  aes_sbox(sbox);
  aes_expand(key, sbox, w);
  for (int x = 0; x < 256; ++x) { /* Te0 = S (2, 1, 1, 3); Te1..Te3 rotated right by 8 bits */
    const uint8_t s = sbox[x];
    const uint32_t t0 =
        (uint32_t)xtime(s) << 24 | (uint32_t)s << 16 | (uint32_t)s << 8 | (uint8_t)(xtime(s) ^ s);
    te[x] = t0;
    te[256 + x] = t0 >> 8 | t0 << 24;
    te[512 + x] = t0 >> 16 | t0 << 16;
    te[768 + x] = t0 >> 24 | t0 << 8;
    te[1024 + x] = s;
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t wi = job->buf[ob].sample[s], b = wi / 4;
    const uint32_t ctr[4] = {nonce[0], nonce[1], nonce[2], (uint32_t)b};
    uint8_t blk[16];
    for (int k = 0; k < 16; ++k) blk[k] = (uint8_t)(ctr[k / 4] >> (24 - 8 * (k % 4)));
    aes_encrypt(blk, w, sbox);
    const size_t j = wi % 4;
    const uint32_t ks = (uint32_t)blk[4 * j] | (uint32_t)blk[4 * j + 1] << 8 |
                        (uint32_t)blk[4 * j + 2] << 16 | (uint32_t)blk[4 * j + 3] << 24;
    ref[s] = in[wi] ^ ks;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, kb);
  kjob_arg_u32(job, nonce[0]);
  kjob_arg_u32(job, nonce[1]);
  kjob_arg_u32(job, nonce[2]);
  kjob_arg_i32(job, (int)blocks);
  kjob_grid1(job, blocks, 256);
  return 0;
}

/* ---- Miller-Rabin ------------------------------------------------------------------------ */

static uint64_t powmod(uint64_t a, uint64_t e, uint64_t n) {
  uint64_t x = 1;
  for (a %= n; e; e >>= 1, a = a * a % n)
    if (e & 1) x = x * a % n;
  return x;
}

static int is_prime_mr(uint32_t n) {
  static const uint32_t bases[3] = {2, 7, 61};
  uint32_t dd = n - 1;
  int s = 0;
  while ((dd & 1) == 0) {
    dd >>= 1;
    ++s;
  }
  for (int k = 0; k < 3; ++k) {
    uint64_t x = powmod(bases[k], dd, n);
    int composite = x != 1 && x != n - 1;
    for (int i = 1; composite && i < s; ++i) {
      x = x * x % n;
      composite = x != n - 1;
    }
    if (composite) return 0;
  }
  return 1;
}

static int mr_job(kjob *job, const kdesc *d, ksize size) {
  const size_t count = size == KSIZE_FULL ? (size_t)32 << 20 : 65536;
  const uint32_t first = (1u << 30) + 1u;
  (void)d;
  kjob_init(job, "irr.cl", "r_miller_rabin_u32");
  int ob = rbuf_u32(job, count, KB_OUT);
  uint32_t *ref = rref_sampled(job, ob, KC_U32, count, 0, 0);
  if (ref == NULL) return -1;
  for (size_t s = 0; s < job->buf[ob].count; ++s)
    ref[s] = (uint32_t)is_prime_mr(first + 2u * (uint32_t)job->buf[ob].sample[s]);
  kjob_arg_buf(job, ob);
  kjob_arg_u32(job, first);
  kjob_arg_i32(job, (int)count);
  kjob_grid1(job, count, 256);
  return 0;
}

/* ---- longest-prefix match ---------------------------------------------------------------- */

#define LPM_NONE 0xffffffffu

typedef struct trie {
  uint32_t *node; /* 3 words per node: child 0, child 1, next hop */
  size_t n, cap;
} trie;

static int trie_insert(trie *t, uint32_t prefix, int len, uint32_t hop) {
  uint32_t cur = 0;
  for (int bit = 31; bit >= 32 - len; --bit) {
    const uint32_t b = prefix >> bit & 1;
    if (t->node[3 * cur + b] == 0) {
      if (t->n == t->cap) {
        uint32_t *grown = realloc(t->node, 2 * t->cap * 12);
        if (grown == NULL) return -1;
        t->node = grown;
        t->cap *= 2;
      }
      t->node[3 * t->n] = t->node[3 * t->n + 1] = 0;
      t->node[3 * t->n + 2] = LPM_NONE;
      t->node[3 * cur + b] = (uint32_t)t->n++;
    }
    cur = t->node[3 * cur + b];
  }
  t->node[3 * cur + 2] = hop;
  return 0;
}

static uint32_t trie_lookup(const uint32_t *node, uint32_t a, uint32_t dflt) {
  uint32_t best = dflt, cur = 0;
  for (int bit = 31;; --bit) {
    if (node[3 * cur + 2] != LPM_NONE) best = node[3 * cur + 2];
    if (bit < 0) break;
    const uint32_t next = node[3 * cur + (a >> bit & 1)];
    if (next == 0) break;
    cur = next;
  }
  return best;
}

/* A prefix length drawn like a BGP table's: mostly /24, then /16-/23. */
static int bgp_len(krng *r) {
  const uint32_t u = krng_below(r, 100);
  return u < 55   ? 24
         : u < 70 ? 22 + (int)krng_below(r, 2)
         : u < 95 ? 16 + (int)krng_below(r, 6)
                  : 12 + (int)krng_below(r, 4);
}

static int lpm_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nprefix = full ? 600000 : 2000, nblock = full ? 2000 : 20;
  const size_t n = full ? (size_t)16 << 20 : 65536;
  const uint32_t dflt = 0xdefau;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "r_lpm_trie_lookup");
  trie t = {malloc(((size_t)1 << 20) * 12), 1, (size_t)1 << 20};
  uint32_t *blk = malloc((size_t)nblock * 4), *pre = malloc((size_t)nprefix * 8);
  int ok = t.node != NULL && blk != NULL && pre != NULL;
  if (ok) {
    t.node[0] = t.node[1] = 0;
    t.node[2] = LPM_NONE;
    for (int k = 0; k < nblock; ++k) blk[k] = krng_u32(&r) & 0xfff00000u; /* allocated /12s */
    for (int k = 0; ok && k < nprefix; ++k) {
      const int len = bgp_len(&r);
      pre[2 * k] = (blk[krng_below(&r, (uint32_t)nblock)] | (krng_u32(&r) >> 12)) &
                   (0xffffffffu << (32 - len));
      pre[2 * k + 1] = (uint32_t)len;
      ok = trie_insert(&t, pre[2 * k], len, krng_below(&r, 1024)) == 0;
    }
  }
  int nb = ok ? rbuf_u32(job, t.n * 3, KB_IN) : -1;
  int ab = rbuf_u32(job, n, KB_IN), hb = rbuf_u32(job, n, KB_OUT);
  uint32_t *ref = rref_sampled(job, hb, KC_U32, n, 0, 0);
  if (nb < 0 || ab < 0 || ref == NULL) {
    free(t.node);
    free(blk);
    free(pre);
    return -1;
  }
  memcpy(job->buf[nb].host, t.node, t.n * 12);
  free(t.node);
  free(blk);
  uint32_t *addr = job->buf[ab].host;
  for (size_t i = 0; i < n; ++i) { /* 80% inside announced prefixes */
    const uint32_t k = krng_below(&r, (uint32_t)nprefix);
    addr[i] = krng_below(&r, 5) ? pre[2 * k] | krng_u32(&r) >> pre[2 * k + 1] : krng_u32(&r);
  }
  free(pre);
  const uint32_t *node = job->buf[nb].host;
  for (size_t s = 0; s < job->buf[hb].count; ++s)
    ref[s] = trie_lookup(node, addr[job->buf[hb].sample[s]], dflt);
  kjob_arg_buf(job, nb);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, hb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_u32(job, dflt);
  kjob_grid1(job, n, 256);
  return 0;
}

SP_SETUP(rsetup_irr) {
  switch (d->param) {
    case RIR_UTF8:
      return utf8_job(job, d, size);
    case RIR_WC:
      return wc_job(job, d, size);
    case RIR_COLOR:
      return color_job(job, d, size);
    case RIR_AES:
      return aes_job(job, d, size);
    case RIR_MR:
      return mr_job(job, d, size);
    case RIR_LPM:
      return lpm_job(job, d, size);
  }
  return -1;
}
