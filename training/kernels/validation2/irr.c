/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.c: host half of irr.cl (N-queens, hash-join probe, block SpMV in L2,
 * label propagation, ray casting from a work queue, neighbour-pair list,
 * triangle counting, per-row scans, NMS). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation2.h"

/* The device's hash (sp_dev.h, sp_lowbias32). */
static uint32_t w_hash(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

/* A bijection of [0, 2^bits): odd multiplications and xor-shifts. */
static uint32_t permute_bits(uint32_t x, int bits, uint32_t salt) {
  const uint32_t mask = bits >= 32 ? 0xffffffffu : (1u << bits) - 1u;
  x = (x * 0x9E3779B1u + salt) & mask;
  x ^= x >> (bits / 2);
  x = (x * 0x85EBCA77u) & mask;
  x ^= x >> (bits / 3 + 1);
  return x;
}

/* ---- N-queens ---------------------------------------------------------------- */

/* Solutions below a prefix (masks as on the device), recursively. */
static uint32_t nq_count(uint32_t c, uint32_t l, uint32_t r, uint32_t full) {
  if (c == full) return 1;
  uint32_t n = 0, a = ~(c | l | r) & full;
  while (a) {
    const uint32_t bit = a & (0u - a);
    a ^= bit;
    n += nq_count(c | bit, (l | bit) << 1, (r | bit) >> 1, full);
  }
  return n;
}

typedef struct nq_list {
  uint32_t *v;
  size_t n, cap;
} nq_list;

static int nq_prefixes(nq_list *o, uint32_t c, uint32_t l, uint32_t r, uint32_t full, int depth) {
  if (depth == 0) {
    if (o->n == o->cap) {
      uint32_t *v = realloc(o->v, (o->cap = o->cap ? 2 * o->cap : 1024) * 3 * sizeof *v);
      if (v == NULL) return -1;
      o->v = v;
    }
    o->v[3 * o->n] = c;
    o->v[3 * o->n + 1] = l;
    o->v[3 * o->n + 2] = r;
    o->n++;
    return 0;
  }
  uint32_t a = ~(c | l | r) & full;
  while (a) {
    const uint32_t bit = a & (0u - a);
    a ^= bit;
    if (nq_prefixes(o, c | bit, (l | bit) << 1, (r | bit) >> 1, full, depth - 1)) return -1;
  }
  return 0;
}

typedef struct nq_data {
  uint32_t total;
  size_t n;
} nq_data;

/* Every prefix's count is written; their sum is the known number of
 * solutions. */
static int nq_check(const kjob *job, char *msg, size_t size) {
  const nq_data *q = job->priv;
  const uint32_t *got = job->buf[1].result;
  uint64_t sum = 0;
  for (size_t i = 0; i < q->n; ++i) sum += got[i];
  if (sum != q->total) {
    snprintf(msg, size, "%llu solutions in all, expected %u", (unsigned long long)sum, q->total);
    return -1;
  }
  return 0;
}

static int nqueens_job(kjob *job, const kdesc *d, ksize size) {
  const int nq = size == KSIZE_FULL ? 15 : 10, depth = size == KSIZE_FULL ? 5 : 3;
  const uint32_t full = (1u << nq) - 1u;
  nq_list pl = {NULL, 0, 0};
  (void)d;
  kjob_init(job, "irr.cl", "w_nqueens");
  nq_data *q = job->priv = malloc(sizeof *q);
  if (q == NULL || nq_prefixes(&pl, 0, 0, 0, full, depth) != 0) {
    free(pl.v);
    return -1;
  }
  q->total = nq == 15 ? 2279184u : 724u;
  q->n = pl.n;
  int pb = kjob_buf(job, pl.n * 3 * 4, KB_IN), cb = kjob_buf(job, pl.n * 4, KB_OUT);
  /* Each sampled prefix's subtree is searched again here: a few hundred. */
  const size_t count = pl.n < 256 ? pl.n : 256;
  uint32_t *ref = kjob_ref(job, cb, KC_U32, count, 0, 0);
  size_t *smp = ref ? kjob_sample(job, cb) : NULL;
  if (job->buf[pb].host == NULL || smp == NULL) {
    free(pl.v);
    return -1;
  }
  memcpy(job->buf[pb].host, pl.v, pl.n * 3 * 4);
  for (size_t s = 0; s < count; ++s) {
    const size_t i = smp[s] = kspread(s, count, pl.n);
    ref[s] = nq_count(pl.v[3 * i], pl.v[3 * i + 1], pl.v[3 * i + 2], full);
  }
  free(pl.v);
  job->check = nq_check;
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, (int)q->n);
  kjob_arg_i32(job, nq);
  kjob_grid1(job, q->n, 128);
  return 0;
}

/* ---- hash-join probe ------------------------------------------------------------ */

#define HJ_EMPTY 0xFFFFFFFFu

static int hashjoin_job(kjob *job, const kdesc *d, ksize size) {
  const size_t slots = size == KSIZE_FULL ? (size_t)1 << 21 : (size_t)1 << 12;
  const size_t nbuild = slots / 2, nprobe = size == KSIZE_FULL ? (size_t)1 << 25 : (size_t)1 << 14;
  const uint32_t mask = (uint32_t)slots - 1u;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "w_hashjoin_probe");
  int tb = kjob_buf(job, slots * 8, KB_IN), kb = kjob_buf(job, nprobe * 4, KB_IN);
  int ob = kjob_buf(job, nprobe * 4, KB_OUT);
  uint32_t *tab = job->buf[tb].host, *keys = job->buf[kb].host;
  uint32_t *ref = wref_sampled(job, ob, KC_U32, nprobe, 0, 0);
  if (tab == NULL || keys == NULL || ref == NULL) return -1;
  memset(tab, 0xff, slots * 8);
  /* Build keys: w_hash of even numbers (a bijection, so distinct); misses:
   * of odd numbers.  Half the probes hit. */
  for (size_t i = 0; i < nbuild; ++i) {
    const uint32_t key = w_hash(2u * (uint32_t)i);
    if (key == HJ_EMPTY) continue;
    uint32_t h = w_hash(key) & mask;
    while (tab[2 * h] != HJ_EMPTY) h = (h + 1u) & mask;
    tab[2 * h] = key;
    tab[2 * h + 1] = (uint32_t)i * 7u + 1u;
  }
  for (size_t i = 0; i < nprobe; ++i) {
    const uint32_t u = krng_u32(&r);
    keys[i] = u & 1u ? w_hash(2u * (uint32_t)(u % nbuild)) : w_hash(2u * u + 1u);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const uint32_t key = keys[job->buf[ob].sample[s]];
    uint32_t h = w_hash(key) & mask;
    ref[s] = HJ_EMPTY;
    while (tab[2 * h] != HJ_EMPTY) {
      if (tab[2 * h] == key) {
        ref[s] = tab[2 * h + 1];
        break;
      }
      h = (h + 1u) & mask;
    }
  }
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, ob);
  kjob_arg_u32(job, mask);
  kjob_arg_i32(job, (int)nprobe);
  kjob_grid1(job, nprobe, 256);
  return 0;
}

/* ---- block SpMV ---------------------------------------------------------------------- */

static int spmm8_job(kjob *job, const kdesc *d, ksize size) {
  const int gs = size == KSIZE_FULL ? 512 : 32, rows = gs * gs, bits = size == KSIZE_FULL ? 18 : 10;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "w_spmm8");
  /* The 5-point Laplacian of a gs x gs grid with its vertices numbered in
   * a scrambled order (an unstructured mesh without reordering). */
  int rp = kjob_buf(job, (size_t)(rows + 1) * 4, KB_IN);
  int32_t *rowptr = job->buf[rp].host;
  uint32_t *inv = malloc((size_t)rows * sizeof *inv);
  if (rowptr == NULL || inv == NULL) {
    free(inv);
    return -1;
  }
  /* new number of grid vertex v: permute_bits(v); inv maps back. */
  for (int v = 0; v < rows; ++v) inv[permute_bits((uint32_t)v, bits, 17u)] = (uint32_t)v;
  for (int i = 0; i < rows; ++i) {
    const int v = (int)inv[i], x = v % gs, y = v / gs;
    rowptr[i + 1] = rowptr[i] + 1 + (x > 0) + (x < gs - 1) + (y > 0) + (y < gs - 1);
  }
  const size_t nnz = (size_t)rowptr[rows];
  int cb = kjob_buf(job, nnz * 4, KB_IN), vb = kjob_buf(job, nnz * 4, KB_IN);
  int xb = win_f32(job, (size_t)rows * 8, &r, -1, 1);
  int yb = kjob_buf(job, (size_t)rows * 8 * 4, KB_OUT);
  int32_t *col = job->buf[cb].host;
  float *val = job->buf[vb].host;
  /* Five products of O(1) values. */
  float *ref = wref_sampled(job, yb, KC_F32, (size_t)rows * 8, 1e-5, 1e-5);
  if (col == NULL || val == NULL || xb < 0 || ref == NULL) {
    free(inv);
    return -1;
  }
  for (int i = 0; i < rows; ++i) {
    const int v = (int)inv[i], x = v % gs, y = v / gs;
    int k = rowptr[i];
    const int nb[5] = {v, x > 0 ? v - 1 : -1, x < gs - 1 ? v + 1 : -1, y > 0 ? v - gs : -1,
                       y < gs - 1 ? v + gs : -1};
    for (int j = 0; j < 5; ++j) {
      if (nb[j] < 0) continue;
      col[k] = (int32_t)permute_bits((uint32_t)nb[j], bits, 17u);
      val[k++] = j == 0 ? 4.0f : (float)krng_uniform(&r, -1.1, -0.9);
    }
  }
  free(inv);
  const float *hx = job->buf[xb].host;
  for (size_t s = 0; s < job->buf[yb].count; ++s) {
    const size_t e = job->buf[yb].sample[s], i = e / 8, j = e % 8;
    double acc = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; ++k)
      acc += (double)val[k] * hx[(size_t)col[k] * 8 + j];
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, rp);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, rows);
  kjob_grid1(job, (size_t)rows * 8, 256);
  return 0;
}

/* ---- label propagation ---------------------------------------------------------------- */

/* A skewed endpoint: density falling as id^-1/2 (u^2), then scattered. */
static uint32_t skewed_vertex(krng *r, int bits, uint32_t salt) {
  const double u = krng_uniform(r, 0, 1);
  const uint32_t v = (uint32_t)(u * u * (double)(1u << bits));
  return permute_bits(v, bits, salt);
}

static int cc_job(kjob *job, const kdesc *d, ksize size) {
  const int bits = size == KSIZE_FULL ? 22 : 12;
  const size_t n = (size_t)1 << bits, m = n * 8;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "w_cc_hook");
  int sb = kjob_buf(job, m * 4, KB_IN), db = kjob_buf(job, m * 4, KB_IN);
  int li = kjob_buf(job, n * 4, KB_IN), lo = kjob_buf(job, n * 4, KB_INOUT);
  uint32_t *src = job->buf[sb].host, *dst = job->buf[db].host;
  uint32_t *lin = job->buf[li].host, *lout = job->buf[lo].host;
  uint32_t *ref = wref_sampled(job, lo, KC_U32, n, 0, 0);
  /* Which vertices are sampled (a bitmap that stays in cache) and their
   * sample slots: only edges touching them update the reference. */
  uint64_t *bit = calloc(n / 64, sizeof *bit);
  int32_t *slot = malloc(n * sizeof *slot);
  if (!src || !dst || !lin || !lout || !ref || !bit || !slot) {
    free(bit);
    free(slot);
    return -1;
  }
  for (size_t v = 0; v < n; ++v) lout[v] = lin[v] = permute_bits((uint32_t)v, bits, 99u);
  for (size_t s = 0; s < job->buf[lo].count; ++s) {
    const size_t v = job->buf[lo].sample[s];
    bit[v / 64] |= 1ull << (v % 64);
    slot[v] = (int32_t)s;
    ref[s] = lin[v];
  }
  for (size_t e = 0; e < m; ++e) {
    const uint32_t u = src[e] = skewed_vertex(&r, bits, 5u);
    const uint32_t v = dst[e] = skewed_vertex(&r, bits, 5u);
    if (bit[v / 64] >> (v % 64) & 1) {
      const uint32_t l = permute_bits(u, bits, 99u);
      if (l < ref[slot[v]]) ref[slot[v]] = l;
    }
    if (bit[u / 64] >> (u % 64) & 1) {
      const uint32_t l = permute_bits(v, bits, 99u);
      if (l < ref[slot[u]]) ref[slot[u]] = l;
    }
  }
  free(bit);
  free(slot);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, li);
  kjob_arg_buf(job, lo);
  kjob_arg_i32(job, (int)m);
  kjob_grid1(job, m, 256);
  return 0;
}

/* ---- ray casting ------------------------------------------------------------------------ */

enum { RC_NS = 64 };

typedef struct rc_data {
  size_t n, count;
  float ref[W_SAMPLES];
} rc_data;

/* A grazing ray may hit in double and miss in float: up to 1% of the
 * sampled pixels may differ; the others must agree closely. */
static int rc_check(const kjob *job, char *msg, size_t size) {
  const rc_data *c = job->priv;
  const float *got = job->buf[1].result;
  size_t bad = 0;
  for (size_t s = 0; s < c->count; ++s) {
    const size_t i = kspread(s, c->count, c->n);
    if (!(fabs(got[i] - c->ref[s]) <= 1e-4 + 1e-4 * fabs(c->ref[s]))) {
      if (!(got[i] >= 0.0f && got[i] <= 1.0f)) {
        snprintf(msg, size, "pixel %zu: %g is no shade", i, got[i]);
        return -1;
      }
      ++bad;
    }
  }
  if (bad * 100 > c->count) {
    snprintf(msg, size, "%zu of %zu sampled pixels differ", bad, c->count);
    return -1;
  }
  return 0;
}

static double rc_pixel(const float *sp, int px, int py, int w, int h) {
  double dx = (px + 0.5) / w * 2 - 1, dy = (py + 0.5) / h * 2 - 1, dz = -1.5;
  const double inv = 1 / sqrt(dx * dx + dy * dy + dz * dz);
  dx *= inv;
  dy *= inv;
  dz *= inv;
  double best = 1e30;
  int hit = -1;
  for (int s = 0; s < RC_NS; ++s) {
    const double ox = -sp[5 * s], oy = -sp[5 * s + 1], oz = -sp[5 * s + 2];
    const double b = ox * dx + oy * dy + oz * dz;
    const double c = ox * ox + oy * oy + oz * oz - (double)sp[5 * s + 3] * sp[5 * s + 3];
    const double disc = b * b - c;
    if (disc > 0) {
      const double t = -b - sqrt(disc);
      if (t > 1e-3 && t < best) {
        best = t;
        hit = s;
      }
    }
  }
  if (hit < 0) return 0.2 + 0.3 * dy;
  const float *hs = sp + 5 * hit;
  const double hx = best * dx, hy = best * dy, hz = best * dz;
  const double nx = (hx - hs[0]) / hs[3], ny = (hy - hs[1]) / hs[3], nz = (hz - hs[2]) / hs[3];
  double lx = 5 - hx, ly = 8 - hy, lz = 0 - hz;
  const double dist = sqrt(lx * lx + ly * ly + lz * lz);
  lx /= dist;
  ly /= dist;
  lz /= dist;
  const double diff = fmax(nx * lx + ny * ly + nz * lz, 0.0);
  int shadow = 0;
  for (int s = 0; s < RC_NS && !shadow && diff > 0; ++s) {
    const double ox = hx - sp[5 * s], oy = hy - sp[5 * s + 1], oz = hz - sp[5 * s + 2];
    const double b = ox * lx + oy * ly + oz * lz;
    const double c = ox * ox + oy * oy + oz * oz - (double)sp[5 * s + 3] * sp[5 * s + 3];
    const double disc = b * b - c;
    if (disc > 0) {
      const double t = -b - sqrt(disc);
      shadow = s != hit && t > 1e-3 && t < dist;
    }
  }
  return hs[4] * (0.1 + (shadow ? 0.0 : 0.9 * diff));
}

static int raycast_job(kjob *job, const kdesc *d, ksize size) {
  const int w = size == KSIZE_FULL ? 4096 : 64, h = w;
  const size_t n = (size_t)w * h;
  const int groups = size == KSIZE_FULL ? 528 : 4;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "w_raycast_queue");
  int sb = kjob_buf(job, RC_NS * 5 * 4, KB_IN), ib = kjob_buf(job, n * 4, KB_OUT);
  int qb = kjob_buf(job, 8, KB_INOUT);
  float *sp = job->buf[sb].host;
  /* Both counters are back at 0 after a launch. */
  uint32_t *qref = kjob_ref(job, qb, KC_U32, 2, 0, 0);
  rc_data *c = job->priv = malloc(sizeof *c);
  if (sp == NULL || job->buf[qb].host == NULL || qref == NULL || c == NULL) return -1;
  for (int s = 0; s < RC_NS; ++s) {
    sp[5 * s] = (float)krng_uniform(&r, -4, 4);
    sp[5 * s + 1] = (float)krng_uniform(&r, -4, 4);
    sp[5 * s + 2] = (float)krng_uniform(&r, -12, -4);
    sp[5 * s + 3] = (float)krng_uniform(&r, 0.3, 1.0);
    sp[5 * s + 4] = (float)krng_uniform(&r, 0.4, 1.0);
  }
  c->n = n;
  c->count = n < W_SAMPLES ? n : W_SAMPLES;
  for (size_t s = 0; s < c->count; ++s) {
    const size_t i = kspread(s, c->count, n);
    c->ref[s] = (float)rc_pixel(sp, (int)(i % w), (int)(i / w), w, h);
  }
  job->check = rc_check;
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, qb);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- neighbour pairs ---------------------------------------------------------------------- */

typedef struct pl_data {
  const float *x, *y; /* the job's input buffers */
  float rc2;
} pl_data;

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The list holds exactly the close pairs: each listed pair is close, none
 * twice, and the counter (compared as a buffer) says how many there are. */
static int pl_check(const kjob *job, char *msg, size_t size) {
  const pl_data *p = job->priv;
  const uint32_t *pairs = job->buf[3].result;
  const uint32_t cnt = *(const uint32_t *)job->buf[4].result;
  const size_t n = job->buf[0].bytes / 4, cap = job->buf[3].bytes / 8;
  if (cnt > cap) {
    snprintf(msg, size, "%u pairs do not fit the list", cnt);
    return -1;
  }
  uint64_t *keys = malloc((cnt ? cnt : 1) * sizeof *keys);
  if (keys == NULL) {
    snprintf(msg, size, "out of memory");
    return -1;
  }
  for (uint32_t k = 0; k < cnt; ++k) {
    const uint32_t i = pairs[2 * k], j = pairs[2 * k + 1];
    const float dx = i < n && j < n ? p->x[j] - p->x[i] : 1,
                dy = i < n && j < n ? p->y[j] - p->y[i] : 1;
    if (!(i < j && j < n) || !(dx * dx + dy * dy < p->rc2)) {
      snprintf(msg, size, "pair %u: (%u, %u) is not a close pair", k, i, j);
      free(keys);
      return -1;
    }
    keys[k] = (uint64_t)i << 32 | j;
  }
  qsort(keys, cnt, sizeof *keys, cmp_u64);
  for (uint32_t k = 1; k < cnt; ++k)
    if (keys[k] == keys[k - 1]) {
      snprintf(msg, size, "pair (%u, %u) listed twice", (uint32_t)(keys[k] >> 32),
               (uint32_t)keys[k]);
      free(keys);
      return -1;
    }
  free(keys);
  return 0;
}

static int pairlist_job(kjob *job, const kdesc *d, ksize size) {
  const int gbits = size == KSIZE_FULL ? 10 : 6, g = 1 << gbits, qbits = gbits + 10;
  const size_t n = (size_t)g * g, ncell = (size_t)g * g;
  const size_t cap = size == KSIZE_FULL ? (size_t)1 << 22 : (size_t)1 << 14;
  const float rc2 = ldexpf(1.0f, -2 * gbits); /* cutoff = cell size */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "w_pairlist");
  int xb = kjob_buf(job, n * 4, KB_IN), yb = kjob_buf(job, n * 4, KB_IN);
  int cs = kjob_buf(job, (ncell + 1) * 4, KB_IN), pb = kjob_buf(job, cap * 8, KB_OUT);
  int cb = kjob_buf(job, 4, KB_INOUT);
  float *hx = job->buf[xb].host, *hy = job->buf[yb].host;
  int32_t *start = job->buf[cs].host;
  uint32_t *cref = kjob_ref(job, cb, KC_U32, 1, 0, 0);
  uint32_t *qx = malloc(n * sizeof *qx), *qy = malloc(n * sizeof *qy);
  pl_data *p = job->priv = malloc(sizeof *p);
  if (!hx || !hy || !start || !cref || !qx || !qy || !p || !job->buf[cb].host) {
    free(qx);
    free(qy);
    return -1;
  }
  /* Points on a 2^-qbits lattice, counting-sorted by cell. */
  for (size_t i = 0; i < n; ++i) {
    qx[i] = krng_below(&r, 1u << qbits);
    qy[i] = krng_below(&r, 1u << qbits);
    start[((qy[i] >> 10) << gbits | qx[i] >> 10) + 1]++;
  }
  for (size_t c = 0; c < ncell; ++c) start[c + 1] += start[c];
  for (size_t i = 0; i < n; ++i) {
    const size_t c = (qy[i] >> 10) << gbits | qx[i] >> 10;
    const int32_t at = start[c]++;
    hx[at] = ldexpf((float)qx[i], -qbits);
    hy[at] = ldexpf((float)qy[i], -qbits);
  }
  for (size_t c = ncell; c > 0; --c) /* undo the fill's advance */
    start[c] = start[c - 1];
  start[0] = 0;
  free(qx);
  free(qy);
  for (size_t i = 0; i < n; ++i) {
    const int cx = (int)(hx[i] * (float)g), cy = (int)(hy[i] * (float)g);
    for (int yy = cy - 1; yy <= cy + 1; ++yy)
      for (int xx = cx - 1; xx <= cx + 1; ++xx) {
        if (yy < 0 || yy >= g || xx < 0 || xx >= g) continue;
        for (int32_t j = start[yy * g + xx]; j < start[yy * g + xx + 1]; ++j) {
          const float dx = hx[j] - hx[i], dy = hy[j] - hy[i];
          *cref += (size_t)j > i && dx * dx + dy * dy < rc2;
        }
      }
  }
  p->x = hx;
  p->y = hy;
  p->rc2 = rc2;
  job->check = pl_check;
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, cs);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, g);
  kjob_arg_f32(job, rc2);
  kjob_arg_u32(job, (uint32_t)cap);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- triangle counting ------------------------------------------------------------------------
 */

static int cmp_i32(const void *a, const void *b) {
  const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return x < y ? -1 : x > y;
}

static int triangle_job(kjob *job, const kdesc *d, ksize size) {
  const int bits = size == KSIZE_FULL ? 20 : 10;
  const size_t n = (size_t)1 << bits, draws = n * 8;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "w_triangles");
  int rb = kjob_buf(job, (n + 1) * 4, KB_IN);
  int32_t *rowptr = job->buf[rb].host;
  uint32_t *eu = malloc(draws * sizeof *eu), *ev = malloc(draws * sizeof *ev);
  int32_t *adj = malloc(draws * sizeof *adj);
  if (rowptr == NULL || eu == NULL || ev == NULL || adj == NULL) {
    free(eu);
    free(ev);
    free(adj);
    return -1;
  }
  /* Power-law endpoints (density ~ id^-1/2, the hubs at low ids); edges
   * oriented from the lower id, self loops and repeats dropped. */
  for (size_t e = 0; e < draws; ++e) {
    double a = krng_uniform(&r, 0, 1), b = krng_uniform(&r, 0, 1);
    uint32_t u = (uint32_t)(a * a * n), v = (uint32_t)(b * b * n);
    eu[e] = u < v ? u : v;
    ev[e] = u < v ? v : u;
    if (u != v) rowptr[eu[e] + 1]++;
  }
  for (size_t i = 0; i < n; ++i) rowptr[i + 1] += rowptr[i];
  for (size_t e = 0; e < draws; ++e)
    if (eu[e] != ev[e]) adj[rowptr[eu[e]]++] = (int32_t)ev[e];
  for (size_t i = n; i > 0; --i) rowptr[i] = rowptr[i - 1];
  rowptr[0] = 0;
  size_t m = 0;
  for (size_t i = 0; i < n; ++i) { /* sort, unique, compact in place */
    const int32_t lo = rowptr[i], hi = rowptr[i + 1];
    qsort(adj + lo, (size_t)(hi - lo), sizeof *adj, cmp_i32);
    rowptr[i] = (int32_t)m;
    for (int32_t k = lo; k < hi; ++k)
      if (k == lo || adj[k] != adj[k - 1]) adj[m++] = adj[k];
  }
  rowptr[n] = (int32_t)m;
  free(eu);
  free(ev);
  int sb = kjob_buf(job, m * 4, KB_IN), cb = kjob_buf(job, m * 4, KB_IN);
  int tb = kjob_buf(job, m * 4, KB_OUT);
  int32_t *src = job->buf[sb].host, *col = job->buf[cb].host;
  uint32_t *ref = wref_sampled(job, tb, KC_U32, m, 0, 0);
  if (src == NULL || col == NULL || ref == NULL) {
    free(adj);
    return -1;
  }
  memcpy(col, adj, m * 4);
  free(adj);
  for (size_t i = 0; i < n; ++i)
    for (int32_t k = rowptr[i]; k < rowptr[i + 1]; ++k) src[k] = (int32_t)i;
  for (size_t s = 0; s < job->buf[tb].count; ++s) {
    const size_t e = job->buf[tb].sample[s];
    const int32_t v = col[e];
    int32_t a = (int32_t)e + 1, ae = rowptr[src[e] + 1], b = rowptr[v], be = rowptr[v + 1];
    uint32_t found = 0;
    while (a < ae && b < be) {
      found += col[a] == col[b];
      const int32_t x = col[a], y = col[b];
      a += x <= y;
      b += y <= x;
    }
    ref[s] = found;
  }
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, tb);
  kjob_arg_i32(job, (int)m);
  kjob_grid1(job, m, 256);
  return 0;
}

/* ---- per-row scans ------------------------------------------------------------------------------
 */

enum { RS_CHUNK = 2560 };

static int rowscan_job(kjob *job, const kdesc *d, ksize size) {
  const int rows = size == KSIZE_FULL ? 397 : 3;
  const int len = size == KSIZE_FULL ? 200 * RS_CHUNK : 2 * RS_CHUNK;
  const size_t n = (size_t)rows * len;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "w_rowscan");
  int xb = kjob_buf(job, n * 4, KB_IN), yb = kjob_buf(job, n * 4, KB_OUT);
  uint32_t *hx = job->buf[xb].host;
  uint32_t *ref = wref_sampled(job, yb, KC_U32, n, 0, 0); /* integers: exact */
  uint32_t *pre = malloc((size_t)len * sizeof *pre);
  if (hx == NULL || ref == NULL || pre == NULL) {
    free(pre);
    return -1;
  }
  for (size_t i = 0; i < n; ++i) hx[i] = krng_below(&r, 16);
  size_t row = (size_t)-1;
  for (size_t s = 0; s < job->buf[yb].count; ++s) {
    const size_t e = job->buf[yb].sample[s];
    if (e / len != row) { /* samples ascend: one scan per row */
      row = e / len;
      uint32_t acc = 0;
      for (int i = 0; i < len; ++i) pre[i] = acc += hx[row * len + i];
    }
    ref[s] = pre[e % len];
  }
  free(pre);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, len);
  kjob_grid(job, rows, 1, 1, 640, 1, 1);
  return 0;
}

/* ---- NMS
 * ------------------------------------------------------------------------------------------ */

enum { NM_N = 256 };

static int nms_job(kjob *job, const kdesc *d, ksize size) {
  krng r;
  krng_seed(&r, d->name, 0);
  (void)size;
  kjob_init(job, "irr.cl", "w_nms");
  int bb = kjob_buf(job, NM_N * 4 * 4, KB_IN), kb = kjob_buf(job, NM_N * 4, KB_OUT);
  float *bx = job->buf[bb].host;
  uint32_t *ref = kjob_ref(job, kb, KC_U32, NM_N, 0, 0);
  if (bx == NULL || ref == NULL) return -1;
  /* Detections clustered around 40 objects of a 512x512 frame, integer
   * corners, already in score order. */
  int cx[40], cy[40], sz[40];
  for (int o = 0; o < 40; ++o) {
    cx[o] = 48 + (int)krng_below(&r, 416);
    cy[o] = 48 + (int)krng_below(&r, 416);
    sz[o] = 16 + (int)krng_below(&r, 64);
  }
  for (int i = 0; i < NM_N; ++i) {
    const int o = (int)krng_below(&r, 40), jit = sz[o] / 4 + 1;
    const int x = cx[o] + (int)krng_below(&r, 2 * jit) - jit;
    const int y = cy[o] + (int)krng_below(&r, 2 * jit) - jit;
    const int hw = sz[o] / 2 + (int)krng_below(&r, 8), hh = sz[o] / 2 + (int)krng_below(&r, 8);
    bx[4 * i] = (float)(x - hw);
    bx[4 * i + 1] = (float)(y - hh);
    bx[4 * i + 2] = (float)(x + hw);
    bx[4 * i + 3] = (float)(y + hh);
  }
  for (int j = 0; j < NM_N; ++j) ref[j] = 1;
  for (int i = 0; i < NM_N; ++i) {
    if (!ref[i]) continue;
    const float *a = bx + 4 * i;
    for (int j = i + 1; j < NM_N; ++j) {
      const float *b = bx + 4 * j;
      const float iw = fminf(a[2], b[2]) - fmaxf(a[0], b[0]);
      const float ih = fminf(a[3], b[3]) - fmaxf(a[1], b[1]);
      if (iw > 0 && ih > 0) {
        const float inter = iw * ih;
        const float ua = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
        if (2.0f * inter > ua) ref[j] = 0;
      }
    }
  }
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, kb);
  kjob_arg_i32(job, NM_N);
  kjob_grid(job, 1, 1, 1, NM_N, 1, 1);
  return 0;
}

int wsetup_irr(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case WIR_NQUEENS:
      return nqueens_job(job, d, size);
    case WIR_HASHJOIN:
      return hashjoin_job(job, d, size);
    case WIR_SPMM8:
      return spmm8_job(job, d, size);
    case WIR_CC:
      return cc_job(job, d, size);
    case WIR_RAYQUEUE:
      return raycast_job(job, d, size);
    case WIR_PAIRLIST:
      return pairlist_job(job, d, size);
    case WIR_TRIANGLE:
      return triangle_job(job, d, size);
    case WIR_ROWSCAN:
      return rowscan_job(job, d, size);
    case WIR_NMS:
      return nms_job(job, d, size);
  }
  return -1;
}
