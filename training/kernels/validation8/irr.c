/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.c: host half of irr.cl (degree counts, bounding box, edge softmax,
 * FM-index search, RSA-512, splat blending, non-local means).  Counts,
 * boxes, search results and big-number results are exact (the atomic ones
 * after the first launch only: later launches keep adding); the float
 * kernels are replayed in double, or in float in the kernel's order where a
 * threshold decides (splats), within tolerances that cover float rounding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation8.h"

/* ---- degree counting ---------------------------------------------------------------------- */

static int degree_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const uint32_t nv = full ? 1u << 22 : 1u << 12;
  const size_t ne = full ? (size_t)32 << 20 : (size_t)1 << 16;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "s_degree_count_atomic");
  int sb = sbuf_u32(job, ne, KB_IN), db = sbuf_u32(job, ne, KB_IN);
  int ob = sbuf_u32(job, nv, KB_INOUT), ib = sbuf_u32(job, nv, KB_INOUT);
  uint32_t *ro = kjob_ref(job, ob, KC_U32, nv, 0, 0), *ri = kjob_ref(job, ib, KC_U32, nv, 0, 0);
  if (sb < 0 || db < 0 || ob < 0 || ib < 0 || ro == NULL || ri == NULL) return -1;
  uint32_t *src = job->buf[sb].host, *dst = job->buf[db].host;
  for (size_t e = 0; e < ne; ++e) { /* sources uniform; targets skewed (u^3), ids scattered */
    const double u = krng_uniform(&r, 0, 1);
    src[e] = krng_below(&r, nv);
    dst[e] = ((uint32_t)(nv * u * u * u) * 2654435761u) & (nv - 1);
    ro[src[e]]++;
    ri[dst[e]]++;
  }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, ib);
  kjob_arg_i32(job, (int)ne);
  kjob_grid1(job, ne, 256);
  return 0;
}

/* ---- bounding box ------------------------------------------------------------------------- */

static uint32_t ordered(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (u & 0x80000000u) ? ~u : u | 0x80000000u;
}

static int bbox_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 20 : (size_t)1 << 14;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "s_bbox_minmax_atomic");
  int pb = kjob_buf(job, n * 12, KB_IN), bb = sbuf_u32(job, 6, KB_INOUT);
  uint32_t *ref = kjob_ref(job, bb, KC_U32, 6, 0, 0);
  if (job->buf[pb].host == NULL || bb < 0 || ref == NULL) return -1;
  float *xyz = job->buf[pb].host;
  uint32_t *box = job->buf[bb].host;
  static const double lo[3] = {-40, -15, -2.5}, hi[3] = {60, 25, 7.5}; /* a street scan */
  for (int a = 0; a < 3; ++a) {
    box[a] = ref[a] = 0xFFFFFFFFu;
    box[3 + a] = ref[3 + a] = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t v = ordered(xyz[a * n + i] = (float)krng_uniform(&r, lo[a], hi[a]));
      ref[a] = v < ref[a] ? v : ref[a];
      ref[3 + a] = v > ref[3 + a] ? v : ref[3 + a];
    }
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, bb);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- edge softmax ------------------------------------------------------------------------- */

static int gat_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nrows = full ? 2 << 20 : 4096, nhub = full ? 24 : 4;
  const int hub_lo = full ? 16384 : 512;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "s_gat_edge_softmax");
  int rb = kjob_buf(job, (size_t)(nrows + 1) * 4, KB_IN);
  if (job->buf[rb].host == NULL) return -1;
  int *rowptr = job->buf[rb].host;
  rowptr[0] = 0;
  for (int v = 0; v < nrows; ++v) { /* degrees 1..15, hubs spread evenly */
    const int hub = v % (nrows / nhub) == nrows / nhub / 2;
    rowptr[v + 1] = rowptr[v] + (hub ? hub_lo + (int)krng_below(&r, (uint32_t)hub_lo)
                                     : 1 + (int)krng_below(&r, 15));
  }
  const size_t nnz = (size_t)rowptr[nrows], len = nnz < ((size_t)1 << 20) ? nnz : (size_t)1 << 20;
  int sb = kjob_buf(job, nnz * 4, KB_IN), ab = kjob_buf(job, nnz * 4, KB_OUT);
  float *ref = sref_sampled(job, ab, KC_F32, nnz, S_SAMPLES, 5e-4, 1e-9);
  if (job->buf[sb].host == NULL || ref == NULL) return -1;
  float *score = job->buf[sb].host;
  for (size_t k = 0; k < len; ++k) score[k] = (float)krng_uniform(&r, -6, 6);
  for (size_t k = len; k < nnz; ++k) score[k] = score[k % len];
  int row = -1;
  double m = 0, sum = 0;
  for (size_t s = 0; s < job->buf[ab].count; ++s) {
    const int e = (int)job->buf[ab].sample[s];
    if (row < 0 || e >= rowptr[row + 1]) { /* samples ascend: the row moves forward */
      while (e >= rowptr[row + 1]) ++row;
      m = -3.0e38;
      for (int k = rowptr[row]; k < rowptr[row + 1]; ++k) m = score[k] > m ? score[k] : m;
      sum = 0;
      for (int k = rowptr[row]; k < rowptr[row + 1]; ++k) sum += exp(score[k] - m);
    }
    ref[s] = (float)(exp(score[e] - m) / sum);
  }
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ab);
  kjob_arg_i32(job, nrows);
  kjob_grid1(job, (size_t)nrows, 256);
  return 0;
}

/* ---- FM-index search ---------------------------------------------------------------------- */

enum { FM_LEN = 32 };

static uint32_t occ_host(const uint32_t *occ, uint32_t c, uint32_t i) {
  const uint32_t *blk = occ + (size_t)(i >> 7) * 12, r = i & 127;
  uint32_t n = blk[c];
  for (uint32_t k = 0; k < r; ++k) n += (blk[4 + k / 16] >> (2 * (k % 16)) & 3) == c;
  return n;
}

static int fmindex_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const uint32_t len = full ? 1u << 26 : 1u << 14, nblk = len / 128;
  const size_t nreads = full ? (size_t)4 << 20 : 8192;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "s_fmindex_count");
  int ob = sbuf_u32(job, (size_t)(nblk + 1) * 12, KB_IN), cb = sbuf_u32(job, 4, KB_IN);
  int qb = sbuf_u32(job, nreads * 2, KB_IN), rb = sbuf_u32(job, nreads * 2, KB_OUT);
  uint32_t *ref = sref_sampled(job, rb, KC_U32, nreads * 2, S_SAMPLES, 0, 0);
  if (ob < 0 || cb < 0 || qb < 0 || ref == NULL) return -1;
  uint32_t *occ = job->buf[ob].host, *cnt = job->buf[cb].host, *reads = job->buf[qb].host;
  uint32_t run[4] = {0, 0, 0, 0};
  for (uint32_t b = 0; b <= nblk; ++b) { /* a random BWT, base frequencies 30 20 20 30% */
    uint32_t *blk = occ + (size_t)b * 12;
    memcpy(blk, run, sizeof run);
    if (b == nblk) break;
    for (int w = 0; w < 8; ++w) {
      uint32_t word = 0;
      for (int k = 0; k < 16; ++k) {
        const uint32_t u = krng_below(&r, 10), c = u < 3 ? 0 : u < 5 ? 1 : u < 7 ? 2 : 3;
        word |= c << (2 * k);
        run[c]++;
      }
      blk[4 + w] = word;
    }
  }
  cnt[0] = 0; /* C[c]: bases smaller than c */
  for (int c = 1; c < 4; ++c) cnt[c] = cnt[c - 1] + run[c - 1];
  for (size_t q = 0; q < 2 * nreads; ++q) reads[q] = krng_u32(&r);
  for (size_t s = 0; s < job->buf[rb].count; ++s) {
    const size_t e = job->buf[rb].sample[s], q = e / 2;
    uint32_t sp = 0, ep = len, matched = 0;
    for (int k = FM_LEN - 1; k >= 0 && sp < ep; --k) {
      const uint32_t c = reads[2 * q + (k >= 16)] >> (2 * (k % 16)) & 3;
      sp = cnt[c] + occ_host(occ, c, sp);
      ep = cnt[c] + occ_host(occ, c, ep);
      ++matched;
    }
    ref[s] = e % 2 ? matched : sp < ep ? ep - sp : 0;
  }
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, rb);
  kjob_arg_i32(job, (int)nreads);
  kjob_arg_u32(job, len);
  kjob_grid1(job, nreads, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- RSA-512 ------------------------------------------------------------------------------ */

enum { RSA_L = 16, RSA_KEYS = 64 };

/* The kernel's Montgomery multiplication (CIOS), res = a b R^-1 mod n. */
static void montmul(const uint32_t *a, const uint32_t *b, const uint32_t *n, uint32_t ninv,
                    uint32_t *res) {
  uint32_t t[RSA_L + 2] = {0};
  for (int i = 0; i < RSA_L; ++i) {
    uint64_t c = 0;
    for (int j = 0; j < RSA_L; ++j) {
      c += (uint64_t)t[j] + (uint64_t)a[j] * b[i];
      t[j] = (uint32_t)c;
      c >>= 32;
    }
    c += t[RSA_L];
    t[RSA_L] = (uint32_t)c;
    t[RSA_L + 1] = (uint32_t)(c >> 32);
    const uint32_t m = t[0] * ninv;
    c = ((uint64_t)t[0] + (uint64_t)m * n[0]) >> 32;
    for (int j = 1; j < RSA_L; ++j) {
      c += (uint64_t)t[j] + (uint64_t)m * n[j];
      t[j - 1] = (uint32_t)c;
      c >>= 32;
    }
    c += t[RSA_L];
    t[RSA_L - 1] = (uint32_t)c;
    t[RSA_L] = t[RSA_L + 1] + (uint32_t)(c >> 32);
  }
  int ge = t[RSA_L] != 0;
  if (!ge) {
    ge = 1;
    for (int j = RSA_L - 1; j >= 0; --j)
      if (t[j] != n[j]) {
        ge = t[j] > n[j];
        break;
      }
  }
  uint64_t br = 0;
  for (int j = 0; j < RSA_L; ++j) {
    const uint64_t dd = (uint64_t)t[j] - (ge ? n[j] : 0u) - br;
    res[j] = (uint32_t)dd;
    br = dd >> 63 & 1;
  }
}

/* key: n (odd, top bit set), R^2 mod n, -n^-1 mod 2^32. */
static void rsa_key(uint32_t *key, krng *r) {
  uint32_t *n = key, *r2 = key + RSA_L, x[RSA_L + 1] = {0};
  for (int j = 0; j < RSA_L; ++j) n[j] = krng_u32(r);
  n[0] |= 1;
  n[RSA_L - 1] |= 0x80000000u;
  x[0] = 1;
  for (int k = 0; k < 2 * 32 * RSA_L; ++k) { /* x = 2x mod n, 1024 times */
    uint32_t carry = 0;
    for (int j = 0; j <= RSA_L; ++j) {
      const uint32_t nc = x[j] >> 31;
      x[j] = x[j] << 1 | carry;
      carry = nc;
    }
    int ge = x[RSA_L] != 0;
    for (int j = RSA_L - 1; !ge && j >= 0; --j)
      if (x[j] != n[j]) {
        ge = x[j] > n[j];
        break;
      } else if (j == 0)
        ge = 1;
    if (ge) {
      uint64_t br = 0;
      for (int j = 0; j <= RSA_L; ++j) {
        const uint64_t dd = (uint64_t)x[j] - (j < RSA_L ? n[j] : 0u) - br;
        x[j] = (uint32_t)dd;
        br = dd >> 63 & 1;
      }
    }
  }
  memcpy(r2, x, RSA_L * 4);
  uint32_t inv = n[0]; /* Newton: n inv = 1 mod 2^32 */
  for (int k = 0; k < 5; ++k) inv *= 2 - n[0] * inv;
  key[2 * RSA_L] = 0u - inv;
}

static void rsa_verify(const uint32_t *sig, const uint32_t *key, uint32_t *out) {
  const uint32_t *n = key, *r2 = key + RSA_L, ninv = key[2 * RSA_L];
  uint32_t x[RSA_L], y[RSA_L], t[RSA_L], one[RSA_L] = {1};
  montmul(sig, r2, n, ninv, x);
  memcpy(y, x, sizeof y);
  for (int k = 0; k < 16; ++k) {
    montmul(y, y, n, ninv, t);
    memcpy(y, t, sizeof y);
  }
  montmul(y, x, n, ninv, t);
  montmul(t, one, n, ninv, out);
}

static int rsa_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, groups = full ? 131 : 2, per = 4;
  const size_t nsig = (size_t)groups * 512 * per;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "s_rsa512_verify_131");
  int sb = sbuf_u32(job, nsig * RSA_L, KB_IN),
      kb = sbuf_u32(job, RSA_KEYS * (2 * RSA_L + 1), KB_IN);
  int ob = sbuf_u32(job, nsig * RSA_L, KB_OUT);
  uint32_t *ref = sref_sampled(job, ob, KC_U32, nsig * RSA_L, S_SAMPLES, 0, 0);
  if (sb < 0 || kb < 0 || ref == NULL) return -1;
  uint32_t *sig = job->buf[sb].host, *keys = job->buf[kb].host;
  for (int k = 0; k < RSA_KEYS; ++k) rsa_key(keys + k * (2 * RSA_L + 1), &r);
  for (size_t s = 0; s < nsig; ++s) { /* below n: the top limb below n's */
    const uint32_t *n = keys + (s % RSA_KEYS) * (2 * RSA_L + 1);
    for (int j = 0; j < RSA_L; ++j) sig[s * RSA_L + j] = krng_u32(&r);
    sig[s * RSA_L + RSA_L - 1] %= n[RSA_L - 1];
  }
  uint32_t out[RSA_L];
  size_t last = (size_t)-1;
  for (size_t c = 0; c < job->buf[ob].count; ++c) {
    const size_t e = job->buf[ob].sample[c], s = e / RSA_L;
    if (s != last) {
      rsa_verify(sig + s * RSA_L, keys + (s % RSA_KEYS) * (2 * RSA_L + 1), out);
      last = s;
    }
    ref[c] = out[e % RSA_L];
  }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)nsig);
  kjob_arg_i32(job, RSA_KEYS);
  kjob_arg_i32(job, per);
  kjob_grid(job, (size_t)groups, 1, 1, 512, 1, 1);
  return 0;
}

/* ---- Gaussian splats ---------------------------------------------------------------------- */

enum { SPL_F = 9 };

/* Splat g: a mean in [x0, x0 + wx) x [y0, y0 + wy), an axis-rotated
 * covariance of standard deviations in [s0, s1), opacity in [o0, o1), a
 * colour; stored as mean, conic (inverse covariance a, b, c), opacity, rgb. */
static void make_splat(float *g, krng *r, double x0, double wx, double y0, double wy, double s0,
                       double s1, double o0, double o1) {
  const double sx = krng_uniform(r, s0, s1), sy = krng_uniform(r, s0, s1);
  const double th = krng_uniform(r, 0, 3.14159265358979), c = cos(th), s = sin(th);
  const double a = c * c * sx * sx + s * s * sy * sy, b = c * s * (sx * sx - sy * sy);
  const double cc = s * s * sx * sx + c * c * sy * sy, det = a * cc - b * b;
  g[0] = (float)(x0 + krng_uniform(r, 0, wx));
  g[1] = (float)(y0 + krng_uniform(r, 0, wy));
  g[2] = (float)(cc / det);
  g[3] = (float)(-b / det);
  g[4] = (float)(a / det);
  g[5] = (float)krng_uniform(r, o0, o1);
  for (int k = 6; k < 9; ++k) g[k] = (float)krng_uniform(r, 0, 1);
}

/* The kernel's blend of pixel (px, py) over list[b .. e), in float. */
static void blend(const float *sp, const int *list, int b, int e, int px, int py, double *o4) {
  const float fx = (float)px + 0.5f, fy = (float)py + 0.5f;
  float T = 1.0f, c[3] = {0, 0, 0};
  for (int k = b; k < e; ++k) {
    const float *g = sp + (size_t)SPL_F * list[k];
    const float dx = g[0] - fx, dy = g[1] - fy;
    const float power = -0.5f * (g[2] * dx * dx + g[4] * dy * dy) - g[3] * dx * dy;
    if (power > 0.0f) continue;
    float a = g[5] * expf(power);
    a = a < 0.99f ? a : 0.99f;
    if (a < 1.0f / 255.0f) continue;
    const float nt = T * (1.0f - a);
    if (nt < 0.0001f) break;
    for (int ch = 0; ch < 3; ++ch) c[ch] += g[6 + ch] * a * T;
    T = nt;
  }
  for (int ch = 0; ch < 3; ++ch) o4[ch] = c[ch];
  o4[3] = T;
}

static int splat_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 1920 : 128, h = full ? 1088 : 64;
  const int tw = w / 16, th = h / 16, ntile = tw * th, nheavy = full ? 8 : 2;
  const int nbg = full ? 60000 : 300, per_heavy = full ? 40000 : 2000;
  const int ng = nbg + nheavy * per_heavy;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "s_splat_tile_blend");
  int gb = kjob_buf(job, (size_t)ng * SPL_F * 4, KB_IN);
  int *cnt = calloc((size_t)ntile + 1, sizeof *cnt);
  if (job->buf[gb].host == NULL || cnt == NULL) {
    free(cnt);
    return -1;
  }
  float *sp = job->buf[gb].host;
  int left_bg = nbg, left_heavy = nheavy * per_heavy, heavy[8];
  for (int k = 0; k < nheavy; ++k) /* heavy tiles near the middle, spread out */
    heavy[k] = (th / 2 - 2 + k % 2 * 3) * tw + tw / 2 - nheavy + 2 * (k / 2) * (full ? 2 : 1);
  for (int g = 0; g < ng; ++g) { /* depth order: background and dense clusters interleaved */
    float *s = sp + (size_t)g * SPL_F;
    if (krng_below(&r, (uint32_t)(left_bg + left_heavy)) < (uint32_t)left_bg) {
      make_splat(s, &r, 0, w, 0, h, 3, 12, 0.05, 0.9);
      --left_bg;
    } else {
      const int t = heavy[krng_below(&r, (uint32_t)nheavy)];
      make_splat(s, &r, t % tw * 16, 16, t / tw * 16, 16, 1, 3, 0.02, 0.08);
      --left_heavy;
    }
  }
  /* tile lists: every tile that the splat's 3-sigma box touches, in splat order */
  for (int pass = 0; pass < 2; ++pass) {
    int *list = pass ? job->buf[job->nbuf - 1].host : NULL;
    int *fill = pass ? calloc((size_t)ntile, sizeof *fill) : NULL;
    if (pass && fill == NULL) {
      free(cnt);
      return -1;
    }
    for (int g = 0; g < ng; ++g) {
      const float *s = sp + (size_t)g * SPL_F;
      const double det = s[2] * (double)s[4] - s[3] * (double)s[3];
      const double rx = 3 * sqrt(s[4] / det), ry = 3 * sqrt(s[2] / det);
      const int x0 = (int)fmax(0, floor((s[0] - rx) / 16)),
                x1 = (int)fmin(tw - 1, floor((s[0] + rx) / 16));
      const int y0 = (int)fmax(0, floor((s[1] - ry) / 16)),
                y1 = (int)fmin(th - 1, floor((s[1] + ry) / 16));
      for (int ty = y0; ty <= y1; ++ty)
        for (int tx = x0; tx <= x1; ++tx) {
          const int t = ty * tw + tx;
          if (pass)
            list[cnt[t] + fill[t]++] = g;
          else
            cnt[t + 1]++;
        }
    }
    free(fill);
    if (!pass) {
      for (int t = 0; t < ntile; ++t) cnt[t + 1] += cnt[t];
      const int lb = kjob_buf(job, (size_t)cnt[ntile] * 4 + 4, KB_IN);
      if (job->buf[lb].host == NULL) {
        free(cnt);
        return -1;
      }
    }
  }
  const int lb = job->nbuf - 1, ob = kjob_buf(job, (size_t)(ntile + 1) * 4, KB_IN);
  const int pb = kjob_buf(job, (size_t)w * h * 16, KB_OUT);
  float *ref = sref_sampled(job, pb, KC_F32, (size_t)w * h * 4, S_SAMPLES, 1e-3, 1e-4);
  if (job->buf[ob].host == NULL || ref == NULL) {
    free(cnt);
    return -1;
  }
  memcpy(job->buf[ob].host, cnt, (size_t)(ntile + 1) * 4);
  const int *list = job->buf[lb].host;
  for (size_t s = 0; s < job->buf[pb].count; ++s) {
    const size_t e = job->buf[pb].sample[s], plane = e / ((size_t)w * h), i = e % ((size_t)w * h);
    const int px = (int)(i % w), py = (int)(i / w), t = py / 16 * tw + px / 16;
    double o4[4];
    blend(sp, list, cnt[t], cnt[t + 1], px, py, o4);
    ref[s] = (float)o4[plane];
  }
  free(cnt);
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, pb);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_grid(job, (size_t)tw, (size_t)th, 1, 16, 16, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- non-local means ---------------------------------------------------------------------- */

enum { NL_T = 94, NL_R = 5, NL_P = 2 };

static float clamp_px(const float *img, int w, int h, int x, int y) {
  x = x < 0 ? 0 : x >= w ? w - 1 : x;
  y = y < 0 ? 0 : y >= h ? h - 1 : y;
  return img[(size_t)y * w + x];
}

static int nlm_job(kjob *job, const kdesc *d, ksize size) {
  const int tiles = size == KSIZE_FULL ? 23 : 2, w = tiles * NL_T, h = w;
  const float sigma2 = 0.01f, inv_h2 = 100.0f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "irr.cl", "s_nlmeans_529");
  int ib = kjob_buf(job, (size_t)w * h * 4, KB_IN), ob = kjob_buf(job, (size_t)w * h * 4, KB_OUT);
  float *ref = sref_sampled(job, ob, KC_F32, (size_t)w * h, S_SAMPLES, 1e-3, 1e-4);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  float *img = job->buf[ib].host;
  for (int y = 0; y < h; ++y) /* stripes and discs plus noise of sigma 0.1 */
    for (int x = 0; x < w; ++x) {
      const double v =
          0.5 + 0.3 * sin(x * 0.05) * cos(y * 0.03) + ((x / 40 + y / 40) % 3 == 0 ? 0.2 : 0);
      img[(size_t)y * w + x] = (float)(v + krng_uniform(&r, -0.173, 0.173));
    }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    const int cx = (int)(e % w), cy = (int)(e / w);
    double acc = 0, wsum = 0;
    for (int oy = -NL_R; oy <= NL_R; ++oy)
      for (int ox = -NL_R; ox <= NL_R; ++ox) {
        double dist = 0;
        for (int py = -NL_P; py <= NL_P; ++py)
          for (int px = -NL_P; px <= NL_P; ++px) {
            const double diff = (double)clamp_px(img, w, h, cx + px, cy + py) -
                                clamp_px(img, w, h, cx + ox + px, cy + oy + py);
            dist += diff * diff;
          }
        const double wgt = exp(-fmax(dist / 25 - 2.0 * sigma2, 0.0) * inv_h2);
        acc += wgt * clamp_px(img, w, h, cx + ox, cy + oy);
        wsum += wgt;
      }
    ref[s] = (float)(acc / wsum);
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_arg_f32(job, sigma2);
  kjob_arg_f32(job, inv_h2);
  kjob_grid(job, (size_t)tiles, (size_t)tiles, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(ssetup_irr) {
  switch (d->param) {
    case SIR_DEGREE:
      return degree_job(job, d, size);
    case SIR_BBOX:
      return bbox_job(job, d, size);
    case SIR_GAT:
      return gat_job(job, d, size);
    case SIR_FMINDEX:
      return fmindex_job(job, d, size);
    case SIR_RSA:
      return rsa_job(job, d, size);
    case SIR_SPLAT:
      return splat_job(job, d, size);
    case SIR_NLM:
      return nlm_job(job, d, size);
  }
  return -1;
}
