/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.c: host half of irr.cl (TPC-H Q6, hash GROUP BY, RANSAC inliers,
 * bit-unpacking, base64, gear-hash chunking, SHA3-256, RGBA to NV12).  All
 * references are exact: integer sums, counts and bytes, the float inlier
 * tests replayed with the same fused multiply-adds, and SHA3 computed by a
 * separate loop-based Keccak. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation5.h"

static const double Z_PI = 3.14159265358979323846;

/* ---- TPC-H Q6 ------------------------------------------------------------------------ */

enum { Q6_T = 256, Q6_PER = 4 };

static int q6_job(kjob *job, const kdesc *d, ksize size) {
  const size_t groups = size == KSIZE_FULL ? 65536 : 64, n = groups * Q6_T * Q6_PER;
  const int d0 = 730;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "z_tpch_q6");
  int db = zbuf_u32(job, n, KB_IN), sb = zbuf_u32(job, n, KB_IN), qb = zbuf_u32(job, n, KB_IN);
  int pb = zbuf_u32(job, n, KB_IN), ob = kjob_buf(job, groups * 8, KB_OUT);
  uint32_t *ref = kjob_ref(job, ob, KC_U32, groups * 2, 0, 0);
  if (db < 0 || sb < 0 || qb < 0 || pb < 0 || ref == NULL) return -1;
  uint32_t *dt = job->buf[db].host, *ds = job->buf[sb].host, *qt = job->buf[qb].host;
  uint32_t *pr = job->buf[pb].host;
  for (size_t i = 0; i < n; ++i) {
    dt[i] = krng_below(&r, 2557);
    ds[i] = krng_below(&r, 11);
    qt[i] = 1 + krng_below(&r, 50);
    pr[i] = 90000 + krng_below(&r, 10000000);
  }
  for (size_t g = 0; g < groups; ++g) {
    uint64_t acc = 0;
    for (size_t i = g * Q6_T * Q6_PER; i < (g + 1) * Q6_T * Q6_PER; ++i)
      if ((int)dt[i] >= d0 && (int)dt[i] < d0 + 365 && ds[i] >= 5 && ds[i] <= 7 && qt[i] < 24)
        acc += (uint64_t)pr[i] * ds[i];
    ref[2 * g] = (uint32_t)acc;
    ref[2 * g + 1] = (uint32_t)(acc >> 32);
  }
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, d0);
  kjob_grid(job, groups, 1, 1, Q6_T, 1, 1);
  return 0;
}

/* ---- hash GROUP BY ------------------------------------------------------------------------ */

/* The distinct keys (ascending) with their counts and sums; the table is
 * checked slot by slot (slot positions depend on the order of the CAS
 * claims). */
typedef struct gb_chk {
  int kb, cb, sb, slots;
  size_t nkeys;
  uint32_t *key, *cnt, *sum;
} gb_chk;

static int gb_find(const gb_chk *c, uint32_t k) {
  size_t lo = 0, hi = c->nkeys;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (c->key[mid] < k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < c->nkeys && c->key[lo] == k ? (int)lo : -1;
}

static int gb_check(const kjob *job, char *msg, size_t size) {
  const gb_chk *c = job->priv;
  const uint32_t *k = job->buf[c->kb].result, *n = job->buf[c->cb].result;
  const uint32_t *s = job->buf[c->sb].result;
  size_t found = 0;
  for (int h = 0; h < c->slots; ++h) {
    if (k[h] == 0xffffffffu) continue;
    const int at = gb_find(c, k[h]);
    if (at < 0 || n[h] != c->cnt[at] || s[h] != c->sum[at]) {
      snprintf(msg, size, "slot %d: key %u count %u sum %u not as expected", h, k[h], n[h], s[h]);
      return -1;
    }
    ++found;
  }
  if (found != c->nkeys) {
    snprintf(msg, size, "%zu keys in the table, expected %zu", found, c->nkeys);
    return -1;
  }
  return 0;
}

static int cmp_u32(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static int groupby_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, distinct = full ? 2048 : 128, slots = 2 * distinct;
  const size_t rows = full ? 16u << 20 : 65536;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "z_groupby_agg");
  int kb = zbuf_u32(job, rows, KB_IN), vb = zbuf_u32(job, rows, KB_IN);
  int tk = zbuf_u32(job, (size_t)slots, KB_INOUT), tc = zbuf_u32(job, (size_t)slots, KB_INOUT);
  int ts = zbuf_u32(job, (size_t)slots, KB_INOUT);
  /* one allocation (job->priv is freed with free()): the struct, then the
   * keys, counts and sums */
  gb_chk *c = job->priv = calloc(1, sizeof *c + (size_t)distinct * 12);
  uint32_t *vocab = malloc((size_t)distinct * sizeof *vocab);
  if (kb < 0 || vb < 0 || tk < 0 || tc < 0 || ts < 0 || c == NULL || vocab == NULL) {
    free(vocab);
    return -1;
  }
  c->key = (uint32_t *)(c + 1);
  c->cnt = c->key + distinct;
  c->sum = c->cnt + distinct;
  memset(job->buf[tk].host, 0xff, (size_t)slots * 4);
  for (int i = 0; i < distinct; ++i) { /* distinct random keys, none the empty mark */
    uint32_t k;
    do {
      k = krng_u32(&r);
      for (int j = 0; j < i && k != 0xffffffffu; ++j)
        if (vocab[j] == k) k = 0xffffffffu;
    } while (k == 0xffffffffu);
    vocab[i] = k;
  }
  uint32_t *hk = job->buf[kb].host, *hv = job->buf[vb].host;
  for (size_t i = 0; i < rows; ++i) { /* Zipf-like: rank u^4 */
    const double u = krng_uniform(&r, 0, 1);
    hk[i] = vocab[(int)(distinct * u * u * u * u)];
    hv[i] = krng_below(&r, 1000);
  }
  memcpy(c->key, vocab, (size_t)distinct * 4);
  qsort(c->key, (size_t)distinct, 4, cmp_u32);
  free(vocab);
  c->kb = tk;
  c->cb = tc;
  c->sb = ts;
  c->slots = slots;
  c->nkeys = (size_t)distinct;
  for (size_t i = 0; i < rows; ++i) {
    const int at = gb_find(c, hk[i]);
    c->cnt[at]++;
    c->sum[at] += hv[i];
  }
  /* keys never drawn are not in the table: drop them */
  size_t m = 0;
  for (size_t i = 0; i < c->nkeys; ++i)
    if (c->cnt[i] > 0) {
      c->key[m] = c->key[i];
      c->cnt[m] = c->cnt[i];
      c->sum[m] = c->sum[i];
      ++m;
    }
  c->nkeys = m;
  job->check = gb_check;
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, tk);
  kjob_arg_buf(job, tc);
  kjob_arg_buf(job, ts);
  kjob_arg_i32(job, (int)rows);
  kjob_arg_i32(job, slots);
  kjob_grid1(job, rows, 256);
  return 0;
}

/* ---- RANSAC inliers ---------------------------------------------------------------------- */

enum { RS_H = 8 };

static int ransac_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? 8u << 20 : 65536;
  const float thr = 0.01f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "z_ransac_inliers");
  int pb = kjob_buf(job, n * 8, KB_IN), lb = kjob_buf(job, RS_H * 12, KB_IN);
  int cb = zbuf_u32(job, RS_H, KB_INOUT);
  uint32_t *ref = kjob_ref(job, cb, KC_U32, RS_H, 0, 0);
  float *p = job->buf[pb].host, *ln = job->buf[lb].host;
  if (p == NULL || ln == NULL || cb < 0 || ref == NULL) return -1;
  for (int h = 0; h < RS_H; ++h) { /* unit normal, offset: the line through a point */
    const double th = krng_uniform(&r, 0, Z_PI), px = krng_uniform(&r, 0.3, 0.7);
    const double py = krng_uniform(&r, 0.3, 0.7);
    ln[3 * h] = (float)cos(th);
    ln[3 * h + 1] = (float)sin(th);
    ln[3 * h + 2] = (float)-(cos(th) * px + sin(th) * py);
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t kind = krng_below(&r, 10);
    double x = krng_uniform(&r, 0, 1), y = krng_uniform(&r, 0, 1);
    if (kind < 6) { /* near hypothesis 'kind' (of the first 6): moved onto it, then jittered */
      const double a = ln[3 * kind], b = ln[3 * kind + 1], c = ln[3 * kind + 2];
      const double dist = a * x + b * y + c, jit = krng_uniform(&r, -2 * thr, 2 * thr);
      x -= (dist - jit) * a;
      y -= (dist - jit) * b;
    }
    p[2 * i] = (float)x;
    p[2 * i + 1] = (float)y;
    for (int h = 0; h < RS_H; ++h) {
      const float dd = fmaf(ln[3 * h], p[2 * i], fmaf(ln[3 * h + 1], p[2 * i + 1], ln[3 * h + 2]));
      if (fabsf(dd) < thr) ref[h]++;
    }
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_f32(job, thr);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- bit-unpacking ------------------------------------------------------------------------- */

enum { UP_BITS = 7, UP_BLOCK = 128 };

static int unpack_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)256 << 20 : 65536, words = n * UP_BITS / 32 + 1;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "z_bitunpack7");
  int pb = zbuf_u32(job, words, KB_IN), bb = zbuf_u32(job, n / UP_BLOCK, KB_IN);
  int ob = zbuf_u32(job, n, KB_OUT);
  uint32_t *ref = zref_sampled(job, ob, KC_U32, n, 0, 0);
  if (pb < 0 || bb < 0 || ref == NULL) return -1;
  uint32_t *pk = job->buf[pb].host, *base = job->buf[bb].host;
  kfill_u32(pk, words, &r);
  for (size_t b = 0; b < n / UP_BLOCK; ++b) base[b] = krng_u32(&r) >> 4;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t i = job->buf[ob].sample[s], bit = i * UP_BITS;
    const uint64_t two = pk[bit / 32] | (uint64_t)pk[bit / 32 + 1] << 32;
    ref[s] = base[i / UP_BLOCK] + (uint32_t)(two >> (bit % 32) & ((1u << UP_BITS) - 1));
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- base64 -------------------------------------------------------------------------------- */

static int b64_job(kjob *job, const kdesc *d, ksize size) {
  const size_t quads = size == KSIZE_FULL ? (size_t)32 << 20 : 16384; /* 16 chars each */
  static const char alpha[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "z_base64_decode");
  int tb = kjob_buf(job, quads * 16, KB_IN), db = zbuf_u32(job, 64, KB_IN);
  int ob = kjob_buf(job, quads * 12, KB_OUT);
  uint32_t *ref = zref_sampled(job, ob, KC_U32, quads * 3, 0, 0);
  uint8_t *text = job->buf[tb].host, *dec = job->buf[db].host;
  if (text == NULL || dec == NULL || ref == NULL) return -1;
  for (int i = 0; i < 64; ++i) dec[(uint8_t)alpha[i]] = (uint8_t)i;
  for (size_t i = 0; i < quads * 16; ++i) text[i] = (uint8_t)alpha[krng_below(&r, 64)];
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t o = job->buf[ob].sample[s], q = o / 3, w = o % 3;
    uint8_t bytes[12];
    for (int g = 0; g < 4; ++g) {
      const uint8_t *c = text + q * 16 + 4 * g;
      const uint32_t bits = (uint32_t)dec[c[0]] << 18 | (uint32_t)dec[c[1]] << 12 |
                            (uint32_t)dec[c[2]] << 6 | dec[c[3]];
      bytes[3 * g] = (uint8_t)(bits >> 16);
      bytes[3 * g + 1] = (uint8_t)(bits >> 8);
      bytes[3 * g + 2] = (uint8_t)bits;
    }
    ref[s] = bytes[4 * w] | (uint32_t)bytes[4 * w + 1] << 8 | (uint32_t)bytes[4 * w + 2] << 16 |
             (uint32_t)bytes[4 * w + 3] << 24;
  }
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)quads);
  kjob_grid1(job, quads, 256);
  return 0;
}

/* ---- gear-hash chunking ---------------------------------------------------------------------- */

enum { CDC_SLICE = 256 };
#define CDC_MASK 0x1fffu

static int cdc_job(kjob *job, const kdesc *d, ksize size) {
  const size_t slices = size == KSIZE_FULL ? (size_t)1 << 20 : 1024, n = slices * CDC_SLICE;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "z_gear_cdc");
  int tb = kjob_buf(job, n, KB_IN), gb = zbuf_u32(job, 256, KB_IN);
  int ob = zbuf_u32(job, n / 32, KB_OUT);
  uint32_t *ref = zref_sampled(job, ob, KC_U32, n / 32, 0, 0);
  uint8_t *text = job->buf[tb].host;
  uint32_t *all = malloc(n / 8);
  if (text == NULL || gb < 0 || ref == NULL || all == NULL) {
    free(all);
    return -1;
  }
  uint32_t *gear = job->buf[gb].host;
  kfill_u32(gear, 256, &r);
  /* text with repeats, as backup data has: copies of earlier stretches */
  for (size_t i = 0; i < n;) {
    const size_t len = 64 + krng_below(&r, 4096);
    if (i > 65536 && krng_below(&r, 2) == 0) {
      const size_t from = krng_below(&r, (uint32_t)(i - len - 1));
      for (size_t k = 0; k < len && i < n; ++k) text[i++] = text[from + k];
    } else {
      for (size_t k = 0; k < len && i < n; ++k) text[i++] = (uint8_t)(32 + krng_below(&r, 95));
    }
  }
  uint32_t h = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i % 32 == 0) all[i / 32] = 0;
    h = (h << 1) + gear[text[i]];
    if ((h & CDC_MASK) == 0) all[i / 32] |= 1u << (i % 32);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) ref[s] = all[job->buf[ob].sample[s]];
  free(all);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)slices);
  kjob_grid1(job, slices, 256);
  return 0;
}

/* ---- SHA3-256
 * ------------------------------------------------------------------------------------ */

enum { SHA3_BLOCKS = 8 };

static const uint64_t KECCAK_RC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};

static uint64_t rotl64(uint64_t x, int n) { return n ? x << n | x >> (64 - n) : x; }

/* Keccak-f[1600] as the specification writes it (loops over x and y). */
static void keccak_f(uint64_t a[25]) {
  static const int rot[5][5] = {{0, 36, 3, 41, 18},
                                {1, 44, 10, 45, 2},
                                {62, 6, 43, 15, 61},
                                {28, 55, 25, 21, 56},
                                {27, 20, 39, 8, 14}}; /* rot[x][y] */
  for (int round = 0; round < 24; ++round) {
    uint64_t c[5], b[25];
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (int x = 0; x < 5; ++x)
      for (int y = 0; y < 5; ++y) a[x + 5 * y] ^= c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
    for (int x = 0; x < 5; ++x)
      for (int y = 0; y < 5; ++y)
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl64(a[x + 5 * y], rot[x][y]);
    for (int x = 0; x < 5; ++x)
      for (int y = 0; y < 5; ++y)
        a[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
    a[0] ^= KECCAK_RC[round];
  }
}

static int sha3_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? 262144 : 512, lanes = 17 * SHA3_BLOCKS;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "z_sha3_keccak");
  int mb = kjob_buf(job, n * lanes * 8, KB_IN), rb = kjob_buf(job, 24 * 8, KB_IN);
  int ob = kjob_buf(job, n * 32, KB_OUT);
  uint32_t *ref = zref_sampled(job, ob, KC_U32, n * 8, 0, 0);
  uint8_t *msg = job->buf[mb].host;
  if (msg == NULL || job->buf[rb].host == NULL || ref == NULL) return -1;
  memcpy(job->buf[rb].host, KECCAK_RC, sizeof KECCAK_RC);
  /* messages of 136 x 8 - 1 bytes: SHA3's pad (0x06 ... 0x80) is the one
   * byte 0x86 at the end */
  for (size_t m = 0; m < n; ++m) {
    uint8_t *p = msg + m * lanes * 8;
    for (size_t i = 0; i + 1 < lanes * 8; ++i) p[i] = (uint8_t)krng_below(&r, 256);
    p[lanes * 8 - 1] = 0x86;
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t w = job->buf[ob].sample[s], m = w / 8;
    uint64_t a[25] = {0};
    for (int b = 0; b < SHA3_BLOCKS; ++b) {
      for (int l = 0; l < 17; ++l) {
        uint64_t v;
        memcpy(&v, msg + (m * lanes + (size_t)b * 17 + l) * 8, 8);
        a[l] ^= v;
      }
      keccak_f(a);
    }
    ref[s] = (uint32_t)(a[(w % 8) / 2] >> (32 * (w % 2)));
  }
  kjob_arg_buf(job, mb);
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 128);
  return 0;
}

/* ---- RGBA to NV12
 * ---------------------------------------------------------------------------------- */

static int nv12_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 3840 : 256, h = full ? 2160 : 128;
  const int frames = full ? 16 : 2;
  const size_t px = (size_t)w * h * frames;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "z_rgb_nv12");
  int ib = zbuf_u32(job, px, KB_IN), yb = kjob_buf(job, px, KB_OUT),
      cb = kjob_buf(job, px / 2, KB_OUT);
  uint32_t *ry = zref_sampled(job, yb, KC_U32, px / 4, 0, 0);
  uint32_t *rc = zref_sampled(job, cb, KC_U32, px / 8, 0, 0);
  if (ib < 0 || ry == NULL || rc == NULL) return -1;
  uint32_t *img = job->buf[ib].host;
  for (size_t i = 0; i < px; ++i) { /* smooth gradients plus noise */
    const size_t x = i % w, y = i / w % h;
    const uint32_t rr = (uint32_t)((x * 255 / w + krng_below(&r, 16)) & 255);
    const uint32_t gg = (uint32_t)((y * 255 / h + krng_below(&r, 16)) & 255);
    img[i] = rr | gg << 8 | krng_below(&r, 256) << 16 | 0xff000000u;
  }
#define RGB(p, c) ((int)((p) >> (8 * (c)) & 255u))
  for (size_t s = 0; s < job->buf[yb].count; ++s) {
    const size_t o = job->buf[yb].sample[s];
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const uint32_t p = img[4 * o + k];
      v |= (uint32_t)(((66 * RGB(p, 0) + 129 * RGB(p, 1) + 25 * RGB(p, 2) + 128) >> 8) + 16)
           << (8 * k);
    }
    ry[s] = v;
  }
  for (size_t s = 0; s < job->buf[cb].count; ++s) {
    const size_t o = job->buf[cb].sample[s];
    uint32_t v = 0;
    for (int k = 0; k < 2; ++k) { /* two (U, V) pairs per word */
      const size_t e = 2 * o + k, f = e / ((size_t)w * h / 4), rem = e % ((size_t)w * h / 4);
      const size_t by = rem / (w / 2), bx = rem % (w / 2);
      int sum[3] = {0, 0, 0};
      for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx)
          for (int c = 0; c < 3; ++c)
            sum[c] += RGB(img[f * w * h + (2 * by + dy) * w + 2 * bx + dx], c);
      const int cr = (sum[0] + 2) >> 2, cg = (sum[1] + 2) >> 2, cbb = (sum[2] + 2) >> 2;
      const uint32_t u = (uint32_t)((-38 * cr - 74 * cg + 112 * cbb + 128 + 32768) >> 8);
      const uint32_t vv = (uint32_t)((112 * cr - 94 * cg - 18 * cbb + 128 + 32768) >> 8);
      v |= (u | vv << 8) << (16 * k);
    }
    rc[s] = v;
  }
#undef RGB
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_grid(job, (size_t)w / 2 / 64, (size_t)h / 2 / 4, (size_t)frames, 64, 4, 1);
  return 0;
}

SP_SETUP(zsetup_irr) {
  switch (d->param) {
    case ZIR_Q6:
      return q6_job(job, d, size);
    case ZIR_GROUPBY:
      return groupby_job(job, d, size);
    case ZIR_RANSAC:
      return ransac_job(job, d, size);
    case ZIR_UNPACK:
      return unpack_job(job, d, size);
    case ZIR_B64:
      return b64_job(job, d, size);
    case ZIR_CDC:
      return cdc_job(job, d, size);
    case ZIR_SHA3:
      return sha3_job(job, d, size);
    case ZIR_NV12:
      return nv12_job(job, d, size);
  }
  return -1;
}
