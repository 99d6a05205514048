/* SPDX-License-Identifier: GPL-3.0-or-later */
/* science.c: host half of science.cl (stencils, particles, k-means,
 * back-propagation, dense linear algebra pieces, dynamic programming). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "validation.h"

/* Adds a KB_IN or KB_INOUT buffer of n floats filled uniformly in [lo, hi). */
static int buf_f32(kjob *job, size_t n, kb_role role, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 4, role);
  if (job->buf[b].host == NULL) return -1;
  kfill_f32(job->buf[b].host, n, r, lo, hi);
  return b;
}

static int buf_f64(kjob *job, size_t n, kb_role role, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 8, role);
  if (job->buf[b].host == NULL) return -1;
  kfill_f64(job->buf[b].host, n, r, lo, hi);
  return b;
}

/* ---- hotspot ------------------------------------------------------------ */

typedef struct hotspot {
  const float *t, *p;
  int n;
} hotspot;

static const float HS_CAP = 0.5f, HS_RX = 0.2f, HS_RY = 0.2f, HS_RZ = 0.01f, HS_AMB = 80.0f;

/* One model step at (x, y) from the temperatures tc (centre) and its four
 * neighbours, a neighbour outside the chip being the centre itself. */
static float hs_step(float tc, float p, float tn, float ts, float tw, float te) {
  return tc + HS_CAP * (p + (tn + ts - 2.0f * tc) * HS_RY + (te + tw - 2.0f * tc) * HS_RX +
                        (HS_AMB - tc) * HS_RZ);
}

static float hs_first(const hotspot *h, int x, int y) {
  const int n = h->n, i = y * n + x;
  const float *t = h->t, c = t[i];
  return hs_step(c, h->p[i], y > 0 ? t[i - n] : c, y < n - 1 ? t[i + n] : c, x > 0 ? t[i - 1] : c,
                 x < n - 1 ? t[i + 1] : c);
}

static float hs_second(const hotspot *h, int x, int y) {
  const int n = h->n;
  const float c = hs_first(h, x, y);
  return hs_step(c, h->p[y * n + x], y > 0 ? hs_first(h, x, y - 1) : c,
                 y < n - 1 ? hs_first(h, x, y + 1) : c, x > 0 ? hs_first(h, x - 1, y) : c,
                 x < n - 1 ? hs_first(h, x + 1, y) : c);
}

static int hotspot_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 8192 : 64, g = (n + 11) / 12;
  const size_t cells = (size_t)n * n;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "science.cl", "v_hotspot2");
  int t = buf_f32(job, cells, KB_IN, &r, 300, 340);
  int p = buf_f32(job, cells, KB_IN, &r, 0, 1);
  int o = kjob_buf(job, cells * 4, KB_OUT);
  /* Two steps of a few operations on values near 320: a few float
   * roundings, 1e-6 relative. */
  float *ref = vref_sampled(job, o, KC_F32, cells, 1e-6, 0.0);
  if (t < 0 || p < 0 || ref == NULL) return -1;
  const hotspot h = {job->buf[t].host, job->buf[p].host, n};
  for (size_t s = 0; s < job->buf[o].count; ++s)
    ref[s] = hs_second(&h, job->buf[o].sample[s] % n, job->buf[o].sample[s] / n);
  kjob_arg_buf(job, t);
  kjob_arg_buf(job, p);
  kjob_arg_buf(job, o);
  kjob_arg_i32(job, n);
  kjob_arg_f32(job, HS_CAP);
  kjob_arg_f32(job, HS_RX);
  kjob_arg_f32(job, HS_RY);
  kjob_arg_f32(job, HS_RZ);
  kjob_arg_f32(job, HS_AMB);
  kjob_grid(job, g, g, 1, 16, 16, 1);
  return 0;
}

/* ---- heat 3-D ------------------------------------------------------------ */

static int heat3d_job(kjob *job, const kdesc *d, ksize size) {
  const int nx = size == KSIZE_FULL ? 384 : 32, ny = size == KSIZE_FULL ? 384 : 16;
  const int nz = size == KSIZE_FULL ? 384 : 16, zc = size == KSIZE_FULL ? 96 : 8;
  const size_t cells = (size_t)nx * ny * nz, plane = (size_t)nx * ny;
  const float alpha = 0.125f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "science.cl", "v_heat3d");
  int in = buf_f32(job, cells, KB_IN, &r, 0, 1);
  int out = kjob_buf(job, cells * 4, KB_OUT);
  /* A seven-term sum of values in [0, 1): a few roundings of 1e-7. */
  float *ref = vref_sampled(job, out, KC_F32, cells, 1e-6, 1e-6);
  if (in < 0 || ref == NULL) return -1;
  const float *a = job->buf[in].host;
  for (size_t s = 0; s < job->buf[out].count; ++s) {
    const size_t i = job->buf[out].sample[s];
    const size_t x = i % nx, y = i / nx % ny, z = i / plane;
    const double c = a[i];
    if (x == 0 || y == 0 || z == 0 || x == (size_t)nx - 1 || y == (size_t)ny - 1 ||
        z == (size_t)nz - 1) {
      ref[s] = (float)c;
      continue;
    }
    ref[s] = (float)(c + alpha * ((double)a[i - 1] + a[i + 1] + a[i - nx] + a[i + nx] +
                                  a[i - plane] + a[i + plane] - 6 * c));
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, nx);
  kjob_arg_i32(job, ny);
  kjob_arg_i32(job, nz);
  kjob_arg_i32(job, zc);
  kjob_arg_f32(job, alpha);
  kjob_grid(job, nx / 32, ny / 8, nz / zc, 32, 8, 1);
  return 0;
}

/* ---- Jacobi 2-D ---------------------------------------------------------- */

static int jacobi_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 6144 : 64;
  const size_t cells = (size_t)n * n;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "science.cl", "v_jacobi2d_f64");
  int a = buf_f64(job, cells, KB_IN, &r, -1, 1);
  int b = kjob_buf(job, cells * 8, KB_OUT);
  /* Same five additions and one multiply in double, order aside. */
  double *ref = vref_sampled(job, b, KC_F64, cells, 1e-14, 1e-15);
  if (a < 0 || ref == NULL) return -1;
  const double *h = job->buf[a].host;
  for (size_t s = 0; s < job->buf[b].count; ++s) {
    const size_t i = job->buf[b].sample[s], x = i % n, y = i / n;
    ref[s] = x == 0 || y == 0 || x == (size_t)n - 1 || y == (size_t)n - 1
                 ? h[i]
                 : 0.2 * (h[i] + h[i - 1] + h[i + 1] + h[i - n] + h[i + n]);
  }
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_i32(job, n);
  kjob_grid(job, n / 32, n / 8, 1, 32, 8, 1);
  return 0;
}

/* ---- Lennard-Jones ------------------------------------------------------- */

/* Force on particle i; *mag gets the sum of the terms' sizes, the scale of
 * the float rounding in the device's sum. */
static void lj_force(const float *pos, int n, float rc2, int i, double f[3], double *mag) {
  f[0] = f[1] = f[2] = *mag = 0.0;
  for (int j = 0; j < n; ++j) {
    const float dx = pos[3 * i] - pos[3 * j], dy = pos[3 * i + 1] - pos[3 * j + 1],
                dz = pos[3 * i + 2] - pos[3 * j + 2];
    const float r2 = dx * dx + dy * dy + dz * dz; /* as the device decides */
    if (!(r2 < rc2 && r2 > 0.0f)) continue;
    const double ir2 = 1.0 / r2, ir6 = ir2 * ir2 * ir2;
    const double s = 24.0 * ir2 * ir6 * (2.0 * ir6 - 1.0);
    f[0] += s * dx;
    f[1] += s * dy;
    f[2] += s * dz;
    *mag += fabs(s) * sqrt(r2);
  }
}

static int lj_job(kjob *job, const kdesc *d, ksize size) {
  const int nx = 32, ny = 32, nz = size == KSIZE_FULL ? 48 : 2;
  const int n = nx * ny * nz;
  const float rc2 = 2.5f * 2.5f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "science.cl", "v_lj_cutoff");
  int p = kjob_buf(job, (size_t)n * 12, KB_IN), f = kjob_buf(job, (size_t)n * 12, KB_OUT);
  float *pos = job->buf[p].host;
  const size_t count = n < V_SAMPLES / 3 ? n : V_SAMPLES / 3;
  float *ref = kjob_ref(job, f, KC_F32, 3 * count, 0.0, 0.0);
  size_t *smp = ref ? kjob_sample(job, f) : NULL;
  if (pos == NULL || smp == NULL) return -1;
  /* A jittered cubic lattice of spacing 1.1: no two particles closer than
   * 0.9, so every pair force stays bounded. */
  for (int i = 0; i < n; ++i) {
    pos[3 * i] = 1.1f * (i % nx) + (float)krng_uniform(&r, -0.1, 0.1);
    pos[3 * i + 1] = 1.1f * (i / nx % ny) + (float)krng_uniform(&r, -0.1, 0.1);
    pos[3 * i + 2] = 1.1f * (i / (nx * ny)) + (float)krng_uniform(&r, -0.1, 0.1);
  }
  double mag_max = 0.0;
  for (size_t s = 0; s < count; ++s) {
    const int i = (int)kspread(s, count, n);
    double fi[3], mag;
    lj_force(pos, n, rc2, i, fi, &mag);
    mag_max = fmax(mag_max, mag);
    for (int c = 0; c < 3; ++c) {
      ref[3 * s + c] = (float)fi[c];
      smp[3 * s + c] = 3 * (size_t)i + c;
    }
  }
  /* Forces cancel: the rounding of a ~70-term float sum is relative to the
   * terms' total size, not to the result; 1e-5 of the largest total. */
  job->buf[f].atol = 1e-5 * mag_max;
  kjob_arg_buf(job, p);
  kjob_arg_buf(job, f);
  kjob_arg_i32(job, n);
  kjob_arg_f32(job, rc2);
  kjob_grid1(job, n, 128);
  return 0;
}

/* ---- k-means --------------------------------------------------------------- */

enum { KM_K = 32, KM_D = 16 };

typedef struct kmeans_data {
  int n;
} kmeans_data;

static float km_dist(const float *feat, const float *cent, int n, size_t i, int c) {
  float dist = 0.0f;
  for (int k = 0; k < KM_D; ++k) {
    const float t = feat[(size_t)k * n + i] - cent[c * KM_D + k];
    dist += t * t;
  }
  return dist;
}

/* A point may go to either of two nearly equidistant centroids when the
 * device rounds differently (contracted multiply-adds), so the check accepts
 * any centroid within 1e-5 relative of the nearest one. */
static int kmeans_check(const kjob *job, char *msg, size_t size) {
  const int n = ((const kmeans_data *)job->priv)->n;
  const float *feat = job->buf[0].host, *cent = job->buf[1].host;
  const uint32_t *got = job->buf[2].result;
  const size_t count = n < V_SAMPLES ? n : V_SAMPLES;
  for (size_t s = 0; s < count; ++s) {
    const size_t i = kspread(s, count, n);
    float best = INFINITY;
    for (int c = 0; c < KM_K; ++c) best = fminf(best, km_dist(feat, cent, n, i, c));
    if (got[i] >= KM_K || km_dist(feat, cent, n, i, got[i]) > best * (1 + 1e-5f)) {
      snprintf(msg, size, "point %zu: centroid %u is not the nearest", i, got[i]);
      return -1;
    }
  }
  return 0;
}

static int kmeans_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 1 << 21 : 4096;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "science.cl", "v_kmeans_assign");
  int f = buf_f32(job, (size_t)n * KM_D, KB_IN, &r, 0, 1);
  int c = buf_f32(job, KM_K * KM_D, KB_IN, &r, 0, 1);
  int m = kjob_buf(job, (size_t)n * 4, KB_OUT);
  kmeans_data *kd = job->priv = malloc(sizeof *kd);
  if (f < 0 || c < 0 || kd == NULL) return -1;
  kd->n = n;
  job->check = kmeans_check;
  kjob_arg_buf(job, f);
  kjob_arg_buf(job, c);
  kjob_arg_buf(job, m);
  kjob_arg_i32(job, n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- back-propagation ------------------------------------------------------ */

static int backprop_job(kjob *job, const kdesc *d, ksize size) {
  const int in = size == KSIZE_FULL ? 1 << 22 : 1024, groups = in / 16;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "science.cl", "v_backprop_forward");
  int x = buf_f32(job, in, KB_IN, &r, 0, 1);
  int w = buf_f32(job, (size_t)in * 16, KB_IN, &r, -0.5, 0.5);
  int p = kjob_buf(job, (size_t)groups * 16 * 4, KB_OUT);
  /* Sixteen products summed in a different order. */
  float *ref = vref_sampled(job, p, KC_F32, (size_t)groups * 16, 1e-5, 1e-6);
  if (x < 0 || w < 0 || ref == NULL) return -1;
  const float *hx = job->buf[x].host, *hw = job->buf[w].host;
  for (size_t s = 0; s < job->buf[p].count; ++s) {
    const size_t g = job->buf[p].sample[s] / 16, j = job->buf[p].sample[s] % 16;
    double acc = 0.0;
    for (size_t k = g * 16; k < g * 16 + 16; ++k) acc += (double)hw[k * 16 + j] * hx[k];
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, w);
  kjob_arg_buf(job, p);
  kjob_grid(job, groups, 1, 1, 16, 16, 1);
  return 0;
}

/* ---- LU trailing update ------------------------------------------------------ */

static int lu_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 6144 : 128, k0 = 0, g = (n - k0 - 32) / 32;
  const size_t cells = (size_t)n * n;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "science.cl", "v_lu_trailing_f64");
  int a = buf_f64(job, cells, KB_INOUT, &r, -1, 1);
  /* 32 products in double: roundings of about 1e-16 of sums below 40. */
  double *ref = vref_sampled(job, a, KC_F64, cells, 1e-13, 1e-13);
  if (a < 0 || ref == NULL) return -1;
  const double *h = job->buf[a].host;
  for (size_t s = 0; s < job->buf[a].count; ++s) {
    const size_t i = job->buf[a].sample[s], row = i / n, col = i % n;
    double v = h[i];
    if (row >= (size_t)k0 + 32 && col >= (size_t)k0 + 32)
      for (int k = k0; k < k0 + 32; ++k) v -= h[row * n + k] * h[(size_t)k * n + col];
    ref[s] = v;
  }
  kjob_arg_buf(job, a);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, k0);
  kjob_grid(job, g, g, 1, 16, 16, 1);
  return 0;
}

/* ---- CG update ----------------------------------------------------------------- */

static int cg_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 1 << 23 : 1 << 14;
  const int groups = size == KSIZE_FULL ? 1024 : 8, gsize = groups * 256;
  const double alpha = 0.3141;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "science.cl", "v_cg_update_f64");
  int x = buf_f64(job, n, KB_INOUT, &r, -1, 1), rr = buf_f64(job, n, KB_INOUT, &r, -1, 1);
  int p = buf_f64(job, n, KB_IN, &r, -1, 1), q = buf_f64(job, n, KB_IN, &r, -1, 1);
  int part = kjob_buf(job, (size_t)groups * 8, KB_OUT);
  /* x and r: one multiply-add, contracted or not (1e-16 absolute);
   * partials: sums of ~n/groups positive terms in another order. */
  double *rx = vref_sampled(job, x, KC_F64, n, 0.0, 1e-15);
  double *rr_ref = vref_sampled(job, rr, KC_F64, n, 0.0, 1e-15);
  double *rp = kjob_ref(job, part, KC_F64, groups, 1e-12, 0.0);
  if (x < 0 || rr < 0 || p < 0 || q < 0 || !rx || !rr_ref || !rp) return -1;
  const double *hx = job->buf[x].host, *hr = job->buf[rr].host, *hp = job->buf[p].host,
               *hq = job->buf[q].host;
  for (int i = 0; i < n; ++i) {
    const double ri = hr[i] - alpha * hq[i];
    rp[i % gsize / 256] += ri * ri;
  }
  for (size_t s = 0; s < job->buf[x].count; ++s) {
    const size_t i = job->buf[x].sample[s];
    rx[s] = hx[i] + alpha * hp[i];
    rr_ref[s] = hr[i] - alpha * hq[i];
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, rr);
  kjob_arg_buf(job, p);
  kjob_arg_buf(job, q);
  kjob_arg_buf(job, part);
  kjob_arg_f64(job, alpha);
  kjob_arg_i32(job, n);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- Needleman-Wunsch ------------------------------------------------------------ */

enum { NW_T = 64, NW_GAP = 2 };

/* The whole alignment matrix, row 0 and column 0 holding gap penalties. */
static void nw_fill(int32_t *m, const int32_t *a, const int32_t *b, int n) {
  const int w = n + 1;
  for (int i = 0; i <= n; ++i) m[i] = m[(size_t)i * w] = -NW_GAP * i;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) {
      const size_t k = (size_t)i * w + j;
      int v = m[k - w - 1] + (a[i - 1] == b[j - 1] ? 2 : -1);
      v = v > m[k - w] - NW_GAP ? v : m[k - w] - NW_GAP;
      m[k] = v > m[k - 1] - NW_GAP ? v : m[k - 1] - NW_GAP;
    }
}

/* Zeroes the cells of tiles beyond block diagonal last: not computed yet. */
static void nw_cut(int32_t *m, int n, int last) {
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      if ((i - 1) / NW_T + (j - 1) / NW_T > last) m[(size_t)i * (n + 1) + j] = 0;
}

static int nw_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 4096 : 256, diag = n / NW_T - 1;
  const size_t cells = (size_t)(n + 1) * (n + 1);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "science.cl", "v_nw_diagonal");
  int m = kjob_buf(job, cells * 4, KB_INOUT);
  int a = kjob_buf(job, (size_t)n * 4, KB_IN), b = kjob_buf(job, (size_t)n * 4, KB_IN);
  int32_t *hm = job->buf[m].host, *ha = job->buf[a].host, *hb = job->buf[b].host;
  int32_t *ref = kjob_ref(job, m, KC_U32, cells, 0, 0); /* integers: exact */
  if (!hm || !ha || !hb || !ref) return -1;
  for (int i = 0; i < n; ++i) {
    ha[i] = (int32_t)krng_below(&r, 4); /* DNA letters */
    hb[i] = (int32_t)krng_below(&r, 4);
  }
  nw_fill(ref, ha, hb, n);
  for (size_t i = 0; i < cells; ++i) hm[i] = ref[i];
  nw_cut(hm, n, diag - 1);
  nw_cut(ref, n, diag);
  kjob_arg_buf(job, m);
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, diag);
  kjob_arg_i32(job, NW_GAP);
  kjob_grid(job, diag + 1, 1, 1, NW_T, 1, 1);
  return 0;
}

/* ---- pathfinder -------------------------------------------------------------------- */

enum { PF_H = 20, PF_OUT = 256 - 2 * PF_H };

static int pathfinder_job(kjob *job, const kdesc *d, ksize size) {
  const int cols = size == KSIZE_FULL ? 1 << 22 : 2000;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "science.cl", "v_pathfinder");
  int w = kjob_buf(job, (size_t)PF_H * cols * 4, KB_IN);
  int s = kjob_buf(job, (size_t)cols * 4, KB_IN), o = kjob_buf(job, (size_t)cols * 4, KB_OUT);
  int32_t *hw = job->buf[w].host, *hs = job->buf[s].host;
  int32_t *ref = kjob_ref(job, o, KC_U32, cols, 0, 0); /* integers: exact */
  int32_t *tmp = malloc((size_t)cols * sizeof *tmp);
  if (!hw || !hs || !ref || !tmp) {
    free(tmp);
    return -1;
  }
  for (size_t i = 0; i < (size_t)PF_H * cols; ++i) hw[i] = (int32_t)krng_below(&r, 10);
  for (int i = 0; i < cols; ++i) ref[i] = hs[i] = (int32_t)krng_below(&r, 10);
  for (int h = 0; h < PF_H; ++h) {
    for (int c = 0; c < cols; ++c) {
      int v = ref[c];
      if (c > 0 && ref[c - 1] < v) v = ref[c - 1];
      if (c < cols - 1 && ref[c + 1] < v) v = ref[c + 1];
      tmp[c] = hw[(size_t)h * cols + c] + v;
    }
    for (int c = 0; c < cols; ++c) ref[c] = tmp[c];
  }
  free(tmp);
  kjob_arg_buf(job, w);
  kjob_arg_buf(job, s);
  kjob_arg_buf(job, o);
  kjob_arg_i32(job, cols);
  kjob_grid(job, (cols + PF_OUT - 1) / PF_OUT, 1, 1, 256, 1, 1);
  return 0;
}

int vsetup_science(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case VSC_HOTSPOT:
      return hotspot_job(job, d, size);
    case VSC_HEAT3D:
      return heat3d_job(job, d, size);
    case VSC_JACOBI_F64:
      return jacobi_job(job, d, size);
    case VSC_LJ:
      return lj_job(job, d, size);
    case VSC_KMEANS:
      return kmeans_job(job, d, size);
    case VSC_BACKPROP:
      return backprop_job(job, d, size);
    case VSC_LU_F64:
      return lu_job(job, d, size);
    case VSC_CG_F64:
      return cg_job(job, d, size);
    case VSC_NW:
      return nw_job(job, d, size);
    case VSC_PATHFINDER:
      return pathfinder_job(job, d, size);
  }
  return -1;
}
