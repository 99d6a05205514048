/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.c: host half of irr.cl (list ranking, BC1 compression, label
 * propagation, scrypt's ROMix, Myers' edit distance, Hough transform).
 * Every result is exact: ranks from one walk of the list, blocks from the
 * same integer encoder, labels from the same counts, ROMix from the same
 * Salsa20/8, distances from the plain dynamic-programming matrix (not the
 * bit-vector algorithm) and the accumulator from every vote counted on the
 * host. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation9.h"

/* ---- list ranking ------------------------------------------------------------------------ */

static int listrank_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const uint32_t n = full ? 1u << 24 : 1u << 16, nsub = full ? 1u << 18 : 1u << 10;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "t_list_rank_sublist");
  int sb = tbuf_u32(job, n, KB_IN), hb = tbuf_u32(job, nsub, KB_IN);
  int ob = tbuf_u32(job, n, KB_OUT), kb = tbuf_u32(job, n, KB_OUT);
  uint32_t *rs = tref_sampled(job, ob, KC_U32, n, T_SAMPLES, 0, 0);
  uint32_t *rk = tref_sampled(job, kb, KC_U32, n, T_SAMPLES, 0, 0);
  uint32_t *order = malloc((size_t)n * sizeof *order), *at = malloc((size_t)n * sizeof *at);
  uint8_t *split = calloc(n, 1);
  if (sb < 0 || hb < 0 || rs == NULL || rk == NULL || order == NULL || at == NULL || !split) {
    free(order);
    free(at);
    free(split);
    return -1;
  }
  for (uint32_t i = 0; i < n; ++i) order[i] = i; /* order[p]: the node at list position p */
  for (uint32_t i = n - 1; i > 0; --i) {
    const uint32_t j = krng_below(&r, i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  split[0] = 1;
  for (uint32_t c = 1; c < nsub;) { /* splitters at random positions, the head first */
    const uint32_t p = 1 + krng_below(&r, n - 1);
    if (!split[p]) {
      split[p] = 1;
      ++c;
    }
  }
  uint32_t *succ = job->buf[sb].host, *heads = job->buf[hb].host, s = 0;
  for (uint32_t p = 0; p < n; ++p) {
    succ[order[p]] = p + 1 == n ? 0xFFFFFFFFu : order[p + 1] | (split[p + 1] ? 0x80000000u : 0);
    if (split[p]) heads[s++] = order[p];
    at[order[p]] = p;
  }
  /* Sublist and rank of a node from its position: splitters counted from the
   * head, and the distance to the last one. */
  uint32_t *first = order; /* reused: first[s] is sublist s's first position */
  for (uint32_t p = 0, k = 0; p < n; ++p)
    if (split[p]) first[k++] = p;
  for (size_t c = 0; c < job->buf[ob].count; ++c) {
    const uint32_t p = at[job->buf[ob].sample[c]];
    uint32_t lo = 0, hi = nsub - 1;
    while (lo < hi) {
      const uint32_t mid = (lo + hi + 1) / 2;
      if (first[mid] <= p)
        lo = mid;
      else
        hi = mid - 1;
    }
    rs[c] = lo;
    rk[c] = p - first[lo];
  }
  free(order);
  free(at);
  free(split);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, hb);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, kb);
  kjob_arg_i32(job, (int)nsub);
  kjob_grid1(job, nsub, 128);
  kjob_sampleable(job);
  return 0;
}

/* ---- BC1 compression --------------------------------------------------------------------- */

static int iabs_(int v) { return v < 0 ? -v : v; }

static int norm10(int *v) {
  int m = iabs_(v[0]);
  m = iabs_(v[1]) > m ? iabs_(v[1]) : m;
  m = iabs_(v[2]) > m ? iabs_(v[2]) : m;
  while (m >= 1024) {
    m >>= 1;
    for (int c = 0; c < 3; ++c) v[c] >>= 1;
  }
  return m;
}

static uint32_t to565(const int *p) {
  return (uint32_t)((p[0] * 31 + 127) / 255 << 11 | (p[1] * 63 + 127) / 255 << 5 |
                    (p[2] * 31 + 127) / 255);
}

static void expand565(uint32_t c, int *p) {
  p[0] = (int)(c >> 11 << 3 | c >> 13);
  p[1] = (int)((c >> 5 & 63u) << 2 | (c >> 9 & 3u));
  p[2] = (int)((c & 31u) << 3 | (c >> 2 & 7u));
}

/* The kernel's encoder on 16 pixels (px[i][c]), into out[0..1]. */
static void bc1_block(int px[16][3], uint32_t *out) {
  int s[3] = {0, 0, 0}, cv[3][3];
  for (int i = 0; i < 16; ++i)
    for (int c = 0; c < 3; ++c) s[c] += px[i][c];
  for (int c = 0; c < 3; ++c)
    for (int e = c; e < 3; ++e) {
      int acc = 0;
      for (int i = 0; i < 16; ++i) acc += px[i][c] * px[i][e];
      cv[c][e] = cv[e][c] = (16 * acc - s[c] * s[e]) >> 8;
    }
  int v[3];
  for (int c = 0; c < 3; ++c) v[c] = cv[c][0] + cv[c][1] + cv[c][2];
  for (int it = 0; it < 6; ++it) {
    if (norm10(v) == 0) v[0] = v[1] = v[2] = 1;
    int a[3];
    for (int c = 0; c < 3; ++c) a[c] = cv[c][0] * v[0] + cv[c][1] * v[1] + cv[c][2] * v[2];
    memcpy(v, a, sizeof v);
  }
  if (norm10(v) == 0) v[0] = v[1] = v[2] = 1;
  int plo = 0, phi = 0, lo = 0, hi = 0;
  for (int i = 0; i < 16; ++i) {
    const int p = v[0] * px[i][0] + v[1] * px[i][1] + v[2] * px[i][2];
    if (i == 0 || p < plo) {
      plo = p;
      lo = i;
    }
    if (i == 0 || p > phi) {
      phi = p;
      hi = i;
    }
  }
  uint32_t c0 = to565(px[hi]), c1 = to565(px[lo]), idx = 0;
  if (c0 < c1) {
    const uint32_t t = c0;
    c0 = c1;
    c1 = t;
  }
  if (c0 != c1) {
    int pal[4][3];
    expand565(c0, pal[0]);
    expand565(c1, pal[1]);
    for (int c = 0; c < 3; ++c) {
      pal[2][c] = (2 * pal[0][c] + pal[1][c]) / 3;
      pal[3][c] = (pal[0][c] + 2 * pal[1][c]) / 3;
    }
    for (int i = 0; i < 16; ++i) {
      int best = 0, bd = 0;
      for (int k = 0; k < 4; ++k) {
        int dd = 0;
        for (int c = 0; c < 3; ++c) dd += (px[i][c] - pal[k][c]) * (px[i][c] - pal[k][c]);
        if (k == 0 || dd < bd) {
          bd = dd;
          best = k;
        }
      }
      idx |= (uint32_t)best << (2 * i);
    }
  }
  out[0] = c0 | c1 << 16;
  out[1] = idx;
}

static int bc1_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 8192 : 256, h = full ? 8192 : 128;
  const int nb = (w / 4) * (h / 4), drawn = h < 256 ? h : 256;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "t_bc1_encode");
  int ib = tbuf_u32(job, (size_t)w * h, KB_IN), ob = tbuf_u32(job, (size_t)nb * 2, KB_OUT);
  uint32_t *ref = tref_sampled(job, ob, KC_U32, (size_t)nb * 2, T_SAMPLES, 0, 0);
  if (ib < 0 || ref == NULL) return -1;
  uint32_t *img = job->buf[ib].host;
  for (int y = 0; y < drawn; ++y) /* colour gradients, hard-edged patches, noise, flat areas */
    for (int x = 0; x < w; ++x) {
      const int flat = (x / 128 + y / 64) % 7 == 0;
      uint32_t p = 255u << 24;
      for (int c = 0; c < 3; ++c) {
        double v = 128 + 90 * sin(x * (0.003 + 0.002 * c) + y * 0.01 * (c + 1));
        v += ((x / 23 + y / 17 + c) % 4 == 0) ? 50 : 0;
        v += flat ? 0 : krng_uniform(&r, -10, 10);
        p |= (uint32_t)(flat ? 40 + 60 * c : v < 0 ? 0 : v > 255 ? 255 : v) << (8 * c);
      }
      img[(size_t)y * w + x] = p;
    }
  trepeat(img, (size_t)w * drawn * 4, (size_t)w * h * 4);
  int px[16][3], last = -1;
  uint32_t blk[2];
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    const int b = (int)(e / 2);
    if (b != last) {
      const int bx = b % (w / 4), by = b / (w / 4);
      for (int i = 0; i < 16; ++i)
        for (int c = 0; c < 3; ++c)
          px[i][c] = (int)(img[((size_t)by * 4 + i / 4) * w + bx * 4 + i % 4] >> (8 * c) & 255u);
      bc1_block(px, blk);
      last = b;
    }
    ref[s] = blk[e % 2];
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, nb);
  kjob_grid1(job, (size_t)nb, 128);
  kjob_sampleable(job);
  return 0;
}

/* ---- label propagation ------------------------------------------------------------------- */

enum { LP_L = 64 };

static int lpa_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nv = full ? 2 << 20 : 8192, nhub = full ? 32 : 4;
  const int hub_lo = full ? 8192 : 512;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "t_lpa_mode_hubs");
  int rb = kjob_buf(job, (size_t)(nv + 1) * 4, KB_IN), lb = kjob_buf(job, (size_t)nv, KB_IN);
  if (job->buf[rb].host == NULL || job->buf[lb].host == NULL) return -1;
  int *rowptr = job->buf[rb].host;
  uint8_t *lab = job->buf[lb].host;
  rowptr[0] = 0;
  for (int v = 0; v < nv; ++v) { /* degrees 1..16, the hubs spread evenly */
    const int hub = v % (nv / nhub) == nv / nhub / 2;
    rowptr[v + 1] = rowptr[v] + (hub ? hub_lo + (int)krng_below(&r, (uint32_t)hub_lo)
                                     : 1 + (int)krng_below(&r, 16));
    lab[v] = krng_below(&r, 5) == 0 ? (uint8_t)krng_below(&r, LP_L) : (uint8_t)((v / 4096) % LP_L);
  }
  const size_t nnz = (size_t)rowptr[nv];
  int cb = tbuf_u32(job, nnz, KB_IN), ob = kjob_buf(job, (size_t)nv, KB_OUT);
  uint32_t *ref = tref_sampled(job, ob, KC_U32, (size_t)nv / 4, T_SAMPLES, 0, 0);
  if (cb < 0 || ref == NULL) return -1;
  int *col = job->buf[cb].host;
  for (int v = 0; v < nv; ++v) /* neighbours mostly nearby (communities), some anywhere */
    for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) {
      const int near = v + (int)krng_below(&r, 1025) - 512;
      col[k] = krng_below(&r, 10) < 7 && near >= 0 && near < nv ? near
                                                                : (int)krng_below(&r, (uint32_t)nv);
    }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t w = job->buf[ob].sample[s];
    uint32_t word = 0;
    for (int q = 0; q < 4; ++q) {
      const int v = (int)(4 * w) + q;
      uint32_t cnt[LP_L] = {0}, best = lab[v], bc = 0;
      for (int k = rowptr[v]; k < rowptr[v + 1]; ++k) cnt[lab[col[k]]]++;
      for (uint32_t l = 0; l < LP_L; ++l)
        if (cnt[l] > bc) {
          bc = cnt[l];
          best = l;
        }
      word |= best << (8 * q);
    }
    ref[s] = word;
  }
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, nv);
  kjob_grid1(job, (size_t)nv, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- scrypt ROMix ------------------------------------------------------------------------ */

static uint32_t rotl32(uint32_t x, int n) { return x << n | x >> (32 - n); }

static void salsa8(uint32_t *b) {
  static const int q[8][4] = {{0, 4, 8, 12}, {5, 9, 13, 1}, {10, 14, 2, 6}, {15, 3, 7, 11},
                              {0, 1, 2, 3},  {5, 6, 7, 4},  {10, 11, 8, 9}, {15, 12, 13, 14}};
  uint32_t x[16];
  memcpy(x, b, sizeof x);
  for (int i = 0; i < 8; i += 2)
    for (int k = 0; k < 8; ++k) { /* four column quarter-rounds, then four row ones */
      uint32_t *a = x + q[k][0], *bb = x + q[k][1], *c = x + q[k][2], *dd = x + q[k][3];
      *bb ^= rotl32(*a + *dd, 7);
      *c ^= rotl32(*bb + *a, 9);
      *dd ^= rotl32(*c + *bb, 13);
      *a ^= rotl32(*dd + *c, 18);
    }
  for (int k = 0; k < 16; ++k) b[k] += x[k];
}

static void blockmix(uint32_t *x) {
  uint32_t t[16];
  for (int k = 0; k < 16; ++k) t[k] = x[16 + k] ^ x[k];
  salsa8(t);
  memcpy(x, t, sizeof t);
  for (int k = 0; k < 16; ++k) t[k] ^= x[16 + k];
  salsa8(t);
  memcpy(x + 16, t, sizeof t);
}

/* Plain ROMix (V of all N states) on x[32]; v is scratch of N x 32 words. */
static void romix(uint32_t *x, int nr, uint32_t *v) {
  for (int i = 0; i < nr; ++i) {
    memcpy(v + (size_t)i * 32, x, 128);
    blockmix(x);
  }
  for (int i = 0; i < nr; ++i) {
    const uint32_t j = x[16] & (uint32_t)(nr - 1);
    for (int k = 0; k < 32; ++k) x[k] ^= v[(size_t)j * 32 + k];
    blockmix(x);
  }
}

static int scrypt_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, n = full ? 16384 : 256, nr = full ? 1024 : 64;
  (void)d;
  kjob_init(job, "irr.cl", "t_scrypt_romix");
  int ib = tbuf_u32(job, (size_t)n * 32, KB_IN);
  /* V is scratch that the kernel writes before reading: an input buffer, so
   * that it is neither cleared before nor read back after the checked
   * launch. */
  int vb = tbuf_u32(job, (size_t)n * (nr / 2) * 32, KB_IN),
      ob = tbuf_u32(job, (size_t)n * 32, KB_OUT);
  uint32_t *ref = tref_sampled(job, ob, KC_U32, (size_t)n * 32, 256, 0, 0);
  uint32_t *v = malloc((size_t)nr * 128);
  if (ib < 0 || vb < 0 || ref == NULL || v == NULL) {
    free(v);
    return -1;
  }
  uint32_t *b = job->buf[ib].host, x[32];
  for (size_t i = 0; i < (size_t)n * 32; ++i) b[i] = t_hash_host((uint32_t)i * 0x9e3779b9u + 1u);
  size_t last = (size_t)-1;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    if (e / 32 != last) {
      last = e / 32;
      memcpy(x, b + last * 32, sizeof x);
      romix(x, nr, v);
    }
    ref[s] = x[e % 32];
  }
  free(v);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, nr);
  kjob_grid1(job, (size_t)n, 128);
  kjob_sampleable(job);
  return 0;
}

/* ---- Myers edit distance ----------------------------------------------------------------- */

static int levenshtein(const uint8_t *a, int m, const uint8_t *b, int n) {
  int row[65];
  for (int i = 0; i <= m; ++i) row[i] = i;
  for (int j = 1; j <= n; ++j) {
    int diag = row[0];
    row[0] = j;
    for (int i = 1; i <= m; ++i) {
      const int up = row[i], sub = diag + (a[i - 1] != b[j - 1]);
      int best = up + 1 < row[i - 1] + 1 ? up + 1 : row[i - 1] + 1;
      best = sub < best ? sub : best;
      diag = up;
      row[i] = best;
    }
  }
  return row[m];
}

static int myers_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, groups = full ? 263 : 2, per = full ? 4 : 1;
  const size_t np = (size_t)groups * 1024 * per, drawn = np < 65536 ? np : 65536;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "t_myers_levenshtein_263");
  int pb = kjob_buf(job, np * 64, KB_IN), tb = kjob_buf(job, np * 64, KB_IN);
  int lb = tbuf_u32(job, np, KB_IN), ob = tbuf_u32(job, np, KB_OUT);
  uint32_t *ref = tref_sampled(job, ob, KC_U32, np, T_SAMPLES, 0, 0);
  if (job->buf[pb].host == NULL || job->buf[tb].host == NULL || lb < 0 || ref == NULL) return -1;
  uint8_t *pat = job->buf[pb].host, *txt = job->buf[tb].host;
  uint32_t *lens = job->buf[lb].host;
  for (size_t q = 0; q < drawn; ++q) { /* names and their misspellings: ~15% edits */
    uint8_t *a = pat + 64 * q, *b = txt + 64 * q;
    const int m = 16 + (int)krng_below(&r, 49);
    int n = 0;
    for (int i = 0; i < m; ++i) a[i] = (uint8_t)('a' + krng_below(&r, 26));
    for (int i = 0; i < m && n < 64; ++i) {
      const uint32_t u = krng_below(&r, 100);
      if (u < 5) continue;                                                 /* deletion */
      b[n++] = u < 10 ? (uint8_t)('a' + krng_below(&r, 26)) : a[i];        /* substitution */
      if (u >= 95 && n < 64) b[n++] = (uint8_t)('a' + krng_below(&r, 26)); /* insertion */
    }
    if (n == 0) b[n++] = 'a';
    for (int i = m; i < 64; ++i) a[i] = 'a';
    for (int i = n; i < 64; ++i) b[i] = 'a';
    lens[q] = (uint32_t)m | (uint32_t)n << 8;
  }
  trepeat(pat, drawn * 64, np * 64);
  trepeat(txt, drawn * 64, np * 64);
  trepeat(lens, drawn * 4, np * 4);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t q = job->buf[ob].sample[s];
    ref[s] = (uint32_t)levenshtein(pat + 64 * q, (int)(lens[q] & 255), txt + 64 * q,
                                   (int)(lens[q] >> 8));
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)np);
  kjob_arg_i32(job, per);
  kjob_grid(job, (size_t)groups, 1, 1, 1024, 1, 1);
  return 0;
}

/* ---- Hough transform --------------------------------------------------------------------- */

static const double T_PI = 3.14159265358979323846;

/* Edge points of a w x w image, row-major: line segments, circles and
 * noise, drawn into a bitmap, then listed as x | y << 16. */
static uint32_t *hough_points(int w, krng *r, int *count) {
  uint8_t *bm = calloc((size_t)w * w, 1);
  if (bm == NULL) return NULL;
  const int nseg = w / 160 + 2, ncirc = w / 512 + 1;
  for (int k = 0; k < nseg; ++k) {
    const double x0 = krng_uniform(r, 0, w), y0 = krng_uniform(r, 0, w);
    const double th = krng_uniform(r, 0, T_PI), len = krng_uniform(r, w / 4.0, w);
    for (double t = 0; t < len; t += 0.7) {
      const int x = (int)(x0 + t * cos(th)), y = (int)(y0 + t * sin(th));
      if (x >= 0 && y >= 0 && x < w && y < w) bm[(size_t)y * w + x] = 1;
    }
  }
  for (int k = 0; k < ncirc; ++k) {
    const double cx = krng_uniform(r, 0, w), cy = krng_uniform(r, 0, w);
    const double rad = krng_uniform(r, w / 16.0, w / 4.0);
    for (double t = 0; t < 2 * T_PI; t += 0.5 / rad) {
      const int x = (int)(cx + rad * cos(t)), y = (int)(cy + rad * sin(t));
      if (x >= 0 && y >= 0 && x < w && y < w) bm[(size_t)y * w + x] = 1;
    }
  }
  const size_t noise = (size_t)w * w / 20; /* texture edges */
  for (size_t k = 0; k < noise; ++k) bm[krng_below(r, (uint32_t)w * w)] = 1;
  int n = 0;
  for (size_t i = 0; i < (size_t)w * w; ++i) n += bm[i];
  uint32_t *pts = malloc((size_t)n * sizeof *pts);
  if (pts != NULL)
    for (size_t i = 0, k = 0; i < (size_t)w * w; ++i)
      if (bm[i]) pts[k++] = (uint32_t)(i % w) | (uint32_t)(i / w) << 16;
  free(bm);
  *count = n;
  return pts;
}

static int hough_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 4096 : 256, nth = full ? 264 : 16;
  const int dmax = (int)ceil(w * sqrt(2.0)), roff = dmax << 16;
  const int nrho = (int)(((int64_t)2 * dmax << 16) >> 17) + 1;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "t_hough_lines_smem");
  int npts;
  uint32_t *pts = hough_points(w, &r, &npts);
  if (pts == NULL) return -1;
  int pb = tbuf_u32(job, (size_t)npts, KB_IN), gb = tbuf_u32(job, (size_t)nth * 2, KB_IN);
  int ob = tbuf_u32(job, (size_t)nth * nrho, KB_OUT);
  uint32_t *ref = tref_sampled(job, ob, KC_U32, (size_t)nth * nrho, T_SAMPLES, 0, 0);
  uint32_t *all = calloc((size_t)nth * nrho, sizeof *all);
  if (pb < 0 || gb < 0 || ref == NULL || all == NULL) {
    free(pts);
    free(all);
    return -1;
  }
  memcpy(job->buf[pb].host, pts, (size_t)npts * 4);
  int *trig = job->buf[gb].host;
  for (int g = 0; g < nth; ++g) {
    trig[2 * g] = (int)lround(65536 * cos(g * T_PI / nth));
    trig[2 * g + 1] = (int)lround(65536 * sin(g * T_PI / nth));
    for (int i = 0; i < npts; ++i) {
      const int rr = (int)(pts[i] & 0xFFFF) * trig[2 * g] + (int)(pts[i] >> 16) * trig[2 * g + 1];
      all[(size_t)g * nrho + ((rr + roff) >> 17)]++;
    }
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) ref[s] = all[job->buf[ob].sample[s]];
  free(pts);
  free(all);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, npts);
  kjob_arg_i32(job, nrho);
  kjob_arg_i32(job, roff);
  kjob_grid(job, (size_t)nth, 1, 1, 1024, 1, 1);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(tsetup_irr) {
  switch (d->param) {
    case TIR_LISTRANK:
      return listrank_job(job, d, size);
    case TIR_BC1:
      return bc1_job(job, d, size);
    case TIR_LPA:
      return lpa_job(job, d, size);
    case TIR_SCRYPT:
      return scrypt_job(job, d, size);
    case TIR_MYERS:
      return myers_job(job, d, size);
    case TIR_HOUGH:
      return hough_job(job, d, size);
  }
  return -1;
}
