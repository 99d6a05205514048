/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.c: host half of irr.cl (cuckoo probes, PQ ADC scan, HyperLogLog,
 * confusion matrix, voxel downsampling, edge Jaccard, ChaCha20, varint
 * decoding).  Integer results are exact; the ADC distances are summed in
 * float in the kernel's order; the Jaccard ratios are the same float
 * division of exact counts.  Atomically accumulated outputs (confusion
 * matrix, voxel sums) only grow and wrap, so they are checked after the
 * first launch only; the HyperLogLog registers are idempotent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation6.h"

/* ---- cuckoo hash probes ------------------------------------------------------------------ */

static int cuckoo_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const uint32_t buckets = full ? 1u << 21 : 4096, mask = buckets - 1;
  const uint32_t inserts = buckets / 2;
  const size_t n = full ? (size_t)32 << 20 : 65536;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "q_cuckoo_probe");
  int tb = qbuf_u32(job, (size_t)buckets * 2, KB_IN), kb = qbuf_u32(job, n, KB_IN);
  int ob = qbuf_u32(job, n, KB_OUT);
  uint32_t *ref = qref_sampled(job, ob, KC_U32, n, 0, 0);
  uint32_t *ins = malloc((size_t)inserts * 4);
  if (tb < 0 || kb < 0 || ref == NULL || ins == NULL) {
    free(ins);
    return -1;
  }
  uint32_t *t = job->buf[tb].host, *keys = job->buf[kb].host;
  for (uint32_t i = 0; i < inserts; ++i) {
    uint32_t k = (krng_u32(&r) | 1u), v = i;
    ins[i] = k;
    uint32_t b = q_hash_host(k) & mask;
    for (int kick = 0; kick < 500 && k != 0; ++kick) {
      const uint32_t b1 = q_hash_host(k) & mask, b2 = q_hash_host(k ^ 0x9e3779b9u) & mask;
      if (t[2 * b1] == 0 || t[2 * b1] == k) {
        b = b1;
      } else if (t[2 * b2] == 0 || t[2 * b2] == k) {
        b = b2;
      } else { /* evict from the bucket not used last time */
        b = b == b1 ? b2 : b1;
      }
      const uint32_t ok = t[2 * b], ov = t[2 * b + 1];
      t[2 * b] = k;
      t[2 * b + 1] = v;
      k = ok;
      v = ov;
    } /* a key left over after 500 kicks is dropped: its probes miss */
  }
  for (size_t i = 0; i < n; ++i) /* half hits, half (almost surely) misses */
    keys[i] = krng_below(&r, 2) ? ins[krng_below(&r, inserts)] : (krng_u32(&r) & ~1u) | 2u;
  free(ins);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const uint32_t k = keys[job->buf[ob].sample[s]];
    const uint32_t b1 = q_hash_host(k) & mask, b2 = q_hash_host(k ^ 0x9e3779b9u) & mask;
    ref[s] = t[2 * b1] == k ? t[2 * b1 + 1] : t[2 * b2] == k ? t[2 * b2 + 1] : 0xffffffffu;
  }
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_arg_u32(job, mask);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- PQ ADC scan ------------------------------------------------------------------------------
 */

enum { PQ_M = 16 };

static int pq_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)32 << 20 : 65536;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "q_pq_adc_scan");
  int cb = qbuf_u32(job, n * 4, KB_IN), lb = qin_f32(job, PQ_M * 256, &r, 0, 4);
  int ob = kjob_buf(job, n * 4, KB_OUT);
  float *ref = qref_sampled(job, ob, KC_F32, n, 1e-6, 1e-6);
  if (cb < 0 || lb < 0 || ref == NULL) return -1;
  uint32_t *hc = job->buf[cb].host;
  const float *lut = job->buf[lb].host;
  kfill_u32(hc, n * 4, &r);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t i = job->buf[ob].sample[s];
    float acc = 0.0f;
    for (int m = 0; m < PQ_M; ++m)
      acc += lut[m * 256 + (int)(hc[4 * i + m / 4] >> (8 * (m % 4)) & 255u)];
    ref[s] = acc;
  }
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- HyperLogLog
 * ----------------------------------------------------------------------------------- */

enum { HL_P = 14 };

static int hll_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : 65536, nreg = (size_t)1 << HL_P;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "q_hll_sketch");
  int ib = qbuf_u32(job, n, KB_IN), rb = qbuf_u32(job, nreg, KB_INOUT);
  uint32_t *ref = kjob_ref(job, rb, KC_U32, nreg, 0, 0);
  if (ib < 0 || rb < 0 || ref == NULL) return -1;
  uint32_t *items = job->buf[ib].host;
  const uint32_t distinct = (uint32_t)(n / 4); /* every item seen about 4 times */
  for (size_t i = 0; i < n; ++i) items[i] = krng_below(&r, distinct) * 2654435761u;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t h = q_hash_host(items[i]);
    uint32_t rest = h << HL_P, rank = 1;
    while (rank <= 32 - HL_P && (rest & 0x80000000u) == 0) {
      rest <<= 1;
      ++rank;
    }
    uint32_t *reg = ref + (h >> (32 - HL_P));
    if (rank > *reg) *reg = rank;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, rb);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- confusion matrix
 * -------------------------------------------------------------------------------- */

enum { CM_C = 10 };

static int confusion_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)16 << 20 : 65536;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "q_confusion_matrix");
  int pb = kjob_buf(job, n, KB_IN), lb = kjob_buf(job, n, KB_IN);
  int cb = qbuf_u32(job, CM_C * CM_C, KB_INOUT);
  uint32_t *ref = kjob_ref(job, cb, KC_U32, CM_C * CM_C, 0, 0);
  if (job->buf[pb].host == NULL || job->buf[lb].host == NULL || cb < 0 || ref == NULL) return -1;
  uint8_t *pred = job->buf[pb].host, *lab = job->buf[lb].host;
  for (size_t i = 0; i < n; ++i) { /* a classifier right 85% of the time */
    lab[i] = (uint8_t)krng_below(&r, CM_C);
    pred[i] = krng_below(&r, 100) < 85 ? lab[i] : (uint8_t)krng_below(&r, CM_C);
    ++ref[lab[i] * CM_C + pred[i]];
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, CM_C);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- voxel downsampling
 * ------------------------------------------------------------------------------- */

static int voxel_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, dim = full ? 128 : 32, cols = full ? 4096 : 256;
  const size_t n = full ? (size_t)16 << 20 : 65536, nvox = (size_t)dim * dim * dim;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "q_voxel_downsample");
  int pb = kjob_buf(job, n * 12, KB_IN), cb = qbuf_u32(job, nvox, KB_INOUT);
  int sb = qbuf_u32(job, 3 * nvox, KB_INOUT);
  uint32_t *rc = qref_sampled(job, cb, KC_U32, nvox, 0, 0);
  uint32_t *rs = qref_sampled(job, sb, KC_U32, 3 * nvox, 0, 0);
  uint32_t *ac = calloc(nvox, 4), *as = calloc(3 * nvox, 4);
  if (job->buf[pb].host == NULL || cb < 0 || sb < 0 || rc == NULL || rs == NULL || ac == NULL ||
      as == NULL) {
    free(ac);
    free(as);
    return -1;
  }
  float *p = job->buf[pb].host;
  const size_t rows = n / cols;
  for (size_t i = 0; i < n; ++i) { /* a scanned height field, row by row */
    const double x = (double)(i % cols) / cols, y = (double)(i / cols) / rows;
    double z = 0.5 + 0.25 * sin(6 * x) * cos(5 * y) + krng_uniform(&r, -0.004, 0.004);
    z = z < 0 ? 0 : z > 0.999 ? 0.999 : z;
    p[3 * i] = (float)(x + krng_uniform(&r, 0, 0.5 / cols));
    p[3 * i + 1] = (float)y;
    p[3 * i + 2] = (float)z;
    int vi[3];
    for (int k = 0; k < 3; ++k) {
      vi[k] = (int)(p[3 * i + k] * (float)dim);
      if (vi[k] > dim - 1) vi[k] = dim - 1;
    }
    const size_t v = ((size_t)vi[2] * dim + vi[1]) * dim + vi[0];
    ++ac[v];
    for (int k = 0; k < 3; ++k) as[3 * v + k] += (uint32_t)(p[3 * i + k] * 65536.0f);
  }
  for (size_t s = 0; s < job->buf[cb].count; ++s) rc[s] = ac[job->buf[cb].sample[s]];
  for (size_t s = 0; s < job->buf[sb].count; ++s) rs[s] = as[job->buf[sb].sample[s]];
  free(ac);
  free(as);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, dim);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- edge Jaccard
 * ------------------------------------------------------------------------------------------ */

static int cmp_i32(const void *a, const void *b) {
  const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

static int jaccard_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nv = full ? 65536 : 2048, hubs = 8;
  const int hubdeg = full ? 4096 : 256, maxdeg = hubdeg > 32 ? hubdeg : 32;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "q_jaccard_edges");
  int pb = qbuf_u32(job, (size_t)nv + 1, KB_IN);
  int32_t *lists = malloc((size_t)nv * 36 * 4 + (size_t)hubs * hubdeg * 4);
  int32_t *l = malloc((size_t)maxdeg * 4);
  if (pb < 0 || lists == NULL || l == NULL) {
    free(lists);
    free(l);
    return -1;
  }
  int32_t *rp = job->buf[pb].host;
  size_t ne = 0;
  rp[0] = 0;
  for (int v = 0; v < nv; ++v) {
    const int deg = v % (nv / hubs) == 0 ? hubdeg : 4 + (int)krng_below(&r, 29);
    for (int k = 0; k < deg; ++k) /* one neighbour in 32 is a hub */
      l[k] = krng_below(&r, 32) == 0
                 ? (int32_t)(krng_below(&r, (uint32_t)hubs) * (uint32_t)(nv / hubs))
                 : (int32_t)krng_below(&r, (uint32_t)nv);
    qsort(l, (size_t)deg, 4, cmp_i32);
    for (int k = 0; k < deg; ++k) /* sorted, without repeats or self loops */
      if (l[k] != v && (ne == (size_t)rp[v] || l[k] != lists[ne - 1])) lists[ne++] = l[k];
    rp[v + 1] = (int32_t)ne;
  }
  free(l);
  int ab = qbuf_u32(job, ne, KB_IN), sb = qbuf_u32(job, ne, KB_IN);
  int ob = kjob_buf(job, ne * 4, KB_OUT);
  float *ref = qref_sampled(job, ob, KC_F32, ne, 1e-6, 0);
  if (ab < 0 || sb < 0 || ref == NULL) {
    free(lists);
    return -1;
  }
  int32_t *adj = job->buf[ab].host, *src = job->buf[sb].host;
  memcpy(adj, lists, ne * 4);
  free(lists);
  for (int v = 0; v < nv; ++v)
    for (int e = rp[v]; e < rp[v + 1]; ++e) src[e] = v;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    const int u = src[e], v = adj[e];
    int a = rp[u], b = rp[v], inter = 0;
    while (a < rp[u + 1] && b < rp[v + 1]) {
      inter += adj[a] == adj[b];
      const int x = adj[a], y = adj[b];
      a += x <= y;
      b += y <= x;
    }
    ref[s] = (float)inter / (float)(rp[u + 1] - rp[u] + rp[v + 1] - rp[v] - inter);
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)ne);
  kjob_grid1(job, ne, 256);
  return 0;
}

/* ---- ChaCha20
 * ------------------------------------------------------------------------------------------------
 */

static uint32_t rotl32(uint32_t x, int n) { return x << n | x >> (32 - n); }

#define QR(a, b, c, dd)      \
  do {                       \
    a += b;                  \
    dd = rotl32(dd ^ a, 16); \
    c += dd;                 \
    b = rotl32(b ^ c, 12);   \
    a += b;                  \
    dd = rotl32(dd ^ a, 8);  \
    c += dd;                 \
    b = rotl32(b ^ c, 7);    \
  } while (0)

static void chacha_block(const uint32_t key[8], uint32_t ctr, const uint32_t nonce[3],
                         uint32_t ks[16]) {
  uint32_t s[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
  for (int k = 0; k < 8; ++k) s[4 + k] = key[k];
  s[12] = ctr;
  s[13] = nonce[0];
  s[14] = nonce[1];
  s[15] = nonce[2];
  uint32_t x[16];
  memcpy(x, s, sizeof x);
  for (int i = 0; i < 10; ++i) {
    QR(x[0], x[4], x[8], x[12]);
    QR(x[1], x[5], x[9], x[13]);
    QR(x[2], x[6], x[10], x[14]);
    QR(x[3], x[7], x[11], x[15]);
    QR(x[0], x[5], x[10], x[15]);
    QR(x[1], x[6], x[11], x[12]);
    QR(x[2], x[7], x[8], x[13]);
    QR(x[3], x[4], x[9], x[14]);
  }
  for (int k = 0; k < 16; ++k) ks[k] = x[k] + s[k];
}

static int chacha_job(kjob *job, const kdesc *d, ksize size) {
  const size_t blocks = size == KSIZE_FULL ? (size_t)4 << 20 : 1024, words = blocks * 16;
  const uint32_t nonce[3] = {0x09000000u, 0x4a000000u, 0x00000000u};
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "q_chacha20_xor");
  int ib = qbuf_u32(job, words, KB_IN), ob = qbuf_u32(job, words, KB_OUT);
  int kb = qbuf_u32(job, 8, KB_IN);
  uint32_t *ref = qref_sampled(job, ob, KC_U32, words, 0, 0);
  if (ib < 0 || kb < 0 || ref == NULL) return -1;
  uint32_t *in = job->buf[ib].host, *key = job->buf[kb].host;
  kfill_u32(in, words, &r);
  kfill_u32(key, 8, &r);
  uint32_t ks[16];
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t w = job->buf[ob].sample[s];
    chacha_block(key, (uint32_t)(w / 16) + 1u, nonce, ks);
    ref[s] = in[w] ^ ks[w % 16];
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, kb);
  kjob_arg_u32(job, nonce[0]);
  kjob_arg_u32(job, nonce[1]);
  kjob_arg_u32(job, nonce[2]);
  kjob_arg_i32(job, (int)blocks);
  kjob_grid1(job, blocks, 128);
  return 0;
}

/* ---- varint decoding
 * ------------------------------------------------------------------------------------------- */

enum { VI_B = 128 };

static int varint_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nb = size == KSIZE_FULL ? (size_t)1 << 19 : 512, nvals = nb * VI_B;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "q_varint_decode");
  uint32_t *delta = malloc(nvals * 4);
  if (delta == NULL) return -1;
  size_t nbytes = 0;
  for (size_t i = 0; i < nvals; ++i) { /* gaps of 1-3 bytes: mostly short */
    const uint32_t c = krng_below(&r, 16);
    delta[i] = 1 + (c < 10   ? krng_below(&r, 127)
                    : c < 15 ? krng_below(&r, 16383)
                             : krng_below(&r, 1u << 20));
    for (uint32_t v = delta[i];; v >>= 7) {
      ++nbytes;
      if (v < 128) break;
    }
  }
  int bb = kjob_buf(job, nbytes, KB_IN), fb = qbuf_u32(job, nb, KB_IN);
  int ob = qbuf_u32(job, nvals, KB_OUT);
  uint32_t *ref = qref_sampled(job, ob, KC_U32, nvals, 0, 0);
  if (job->buf[bb].host == NULL || fb < 0 || ref == NULL) {
    free(delta);
    return -1;
  }
  uint8_t *bytes = job->buf[bb].host;
  uint32_t *boff = job->buf[fb].host;
  size_t p = 0;
  for (size_t i = 0; i < nvals; ++i) {
    if (i % VI_B == 0) boff[i / VI_B] = (uint32_t)p;
    uint32_t v = delta[i];
    while (v >= 128) {
      bytes[p++] = (uint8_t)(v & 127) | 128;
      v >>= 7;
    }
    bytes[p++] = (uint8_t)v;
  }
  for (size_t i = 0, acc = 0; i < nvals; ++i) { /* the running sums, reusing delta */
    acc = i % VI_B == 0 ? delta[i] : acc + delta[i];
    delta[i] = (uint32_t)acc;
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) ref[s] = delta[job->buf[ob].sample[s]];
  free(delta);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)nb);
  kjob_grid1(job, nb, 128);
  return 0;
}

SP_SETUP(qsetup_irr) {
  switch (d->param) {
    case QIR_CUCKOO:
      return cuckoo_job(job, d, size);
    case QIR_PQ:
      return pq_job(job, d, size);
    case QIR_HLL:
      return hll_job(job, d, size);
    case QIR_CONFUSION:
      return confusion_job(job, d, size);
    case QIR_VOXEL:
      return voxel_job(job, d, size);
    case QIR_JACCARD:
      return jaccard_job(job, d, size);
    case QIR_CHACHA:
      return chacha_job(job, d, size);
    case QIR_VARINT:
      return varint_job(job, d, size);
  }
  return -1;
}
