/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.c: host half of sci.cl (incomplete gamma, 3 x 3 eigenvalues,
 * marching-cubes classification, rasterisation, Bezier flattening, LU
 * log-determinants).  Crossed edges (from the 12 edges listed, not the
 * kernel's bit tricks) and the visibility buffer are exact; Q(a, x) is
 * checked against the same recurrences in double (libm's lgamma) within
 * 1e-9; eigenvalues against Jacobi in double; Bezier points against double
 * de Casteljau; log |det| and the sign against a double LU, both
 * independent of the pivots chosen. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation10.h"

/* ---- incomplete gamma -------------------------------------------------------------------- */

static double igamc(double a, double x) {
  const double front = exp(-x + a * log(x) - lgamma(a));
  if (x < a + 1.0) {
    double ap = a, del = 1.0 / a, sum = del;
    for (int k = 0; k < 500; ++k) {
      ap += 1.0;
      del *= x / ap;
      sum += del;
      if (fabs(del) < fabs(sum) * 1e-15) break;
    }
    return 1.0 - sum * front;
  }
  double b = x + 1.0 - a, c = 1e300, dd = 1.0 / b, h = dd;
  for (int k = 1; k <= 500; ++k) {
    const double an = -k * (k - a);
    b += 2.0;
    dd = an * dd + b;
    dd = fabs(dd) < 1e-300 ? 1e-300 : dd;
    c = b + an / c;
    c = fabs(c) < 1e-300 ? 1e-300 : c;
    dd = 1.0 / dd;
    h *= dd * c;
    if (fabs(dd * c - 1.0) < 1e-15) break;
  }
  return front * h;
}

static int igamc_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)8 << 20 : (size_t)16 << 10;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "u_igamc_lentz_f64");
  int ab = kjob_buf(job, n * 8, KB_IN), xb = kjob_buf(job, n * 8, KB_IN);
  int ob = kjob_buf(job, n * 8, KB_OUT);
  double *ref = uref_sampled(job, ob, KC_F64, n, U_SAMPLES, 1e-9, 1e-290);
  if (job->buf[ab].host == NULL || job->buf[xb].host == NULL || ref == NULL) return -1;
  double *a = job->buf[ab].host, *x = job->buf[xb].host;
  for (size_t i = 0; i < n; ++i) { /* chi-square-like tails: a from 0.5 to 50, x around a */
    a[i] = krng_uniform(&r, 0.5, 50);
    x[i] = a[i] * krng_uniform(&r, 0.02, 2.5) + krng_uniform(&r, 0.01, 1);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t i = job->buf[ob].sample[s];
    ref[s] = igamc(a[i], x[i]);
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- 3 x 3 eigenvalues ------------------------------------------------------------------- */

static void jrot(double m[3][3], int p, int q) {
  const double apq = m[p][q];
  if (fabs(apq) < 1e-30) return;
  const double th = (m[q][q] - m[p][p]) / (2 * apq);
  const double t = (th < 0 ? -1.0 : 1.0) / (fabs(th) + sqrt(th * th + 1));
  const double c = 1 / sqrt(t * t + 1), s = t * c;
  const int rr = 3 - p - q;
  const double arp = m[rr][p], arq = m[rr][q];
  m[rr][p] = m[p][rr] = c * arp - s * arq;
  m[rr][q] = m[q][rr] = s * arp + c * arq;
  m[p][p] -= t * apq;
  m[q][q] += t * apq;
  m[p][q] = m[q][p] = 0;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int eig3_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)16 << 20 : (size_t)16 << 10;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "u_jacobi_eig3_sym");
  int ib = kjob_buf(job, n * 24, KB_IN), ob = kjob_buf(job, n * 12, KB_OUT);
  float *ref = uref_sampled(job, ob, KC_F32, n * 3, U_SAMPLES, 1e-4, 2e-5);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  float *in = job->buf[ib].host;
  const size_t len = n < 65536 ? n : 65536;
  for (size_t i = 0; i < len; ++i) { /* structure tensors: a dominant direction plus noise */
    const double ux = krng_uniform(&r, -1, 1), uy = krng_uniform(&r, -1, 1),
                 uz = krng_uniform(&r, -1, 1), w = krng_uniform(&r, 0, 1);
    const double u[3] = {ux, uy, uz};
    const int idx[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
    for (int k = 0; k < 6; ++k)
      in[6 * i + k] = (float)(w * u[idx[k][0]] * u[idx[k][1]] + krng_uniform(&r, -0.2, 0.2));
  }
  urepeat(in, len * 24, n * 24);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    const float *a = in + 6 * (e / 3);
    double m[3][3] = {{a[0], a[1], a[2]}, {a[1], a[3], a[4]}, {a[2], a[4], a[5]}};
    for (int sw = 0; sw < 12; ++sw) {
      jrot(m, 0, 1);
      jrot(m, 0, 2);
      jrot(m, 1, 2);
    }
    double l[3] = {m[0][0], m[1][1], m[2][2]};
    qsort(l, 3, sizeof *l, cmp_double);
    ref[s] = (float)l[e % 3];
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- marching-cubes classification ------------------------------------------------------- */

static int mcubes_job(kjob *job, const kdesc *d, ksize size) {
  static const int EDGES[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                   {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  const int n = size == KSIZE_FULL ? 256 : 32, nb = 12;
  const size_t nv = (size_t)n * n * n;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "u_mcubes_classify_l2");
  int ib = kjob_buf(job, nv, KB_IN), ob = ubuf_u32(job, nv / 4, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, nv / 4, U_SAMPLES, 0, 0);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  uint8_t *vol = job->buf[ib].host;
  double bx[12][4];
  for (int b = 0; b < nb; ++b) { /* metaballs: centre and radius */
    for (int k = 0; k < 3; ++k) bx[b][k] = krng_uniform(&r, 0.15, 0.85) * n;
    bx[b][3] = krng_uniform(&r, 0.05, 0.15) * n;
  }
  for (size_t g = 0; g < nv; ++g) {
    const double x = (double)(g % n), y = (double)(g / n % n), z = (double)(g / n / n);
    double f = 0;
    for (int b = 0; b < nb; ++b) {
      const double dx = x - bx[b][0], dy = y - bx[b][1], dz = z - bx[b][2];
      f += bx[b][3] * bx[b][3] / (dx * dx + dy * dy + dz * dz + 1.0);
    }
    const double v = 90.0 * f + (double)krng_below(&r, 9);
    vol[g] = (uint8_t)(v > 255 ? 255 : v);
  }
  const size_t corner[8] = {0,
                            1,
                            1 + (size_t)n,
                            (size_t)n,
                            (size_t)n * n,
                            1 + (size_t)n * n,
                            1 + (size_t)n + (size_t)n * n,
                            (size_t)n + (size_t)n * n};
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    uint32_t word = 0;
    for (int c = 0; c < 4; ++c) {
      const size_t g = 4 * job->buf[ob].sample[s] + c;
      const size_t x = g % n, y = g / n % n, z = g / n / n;
      int total = 0;
      if (x < (size_t)n - 1 && y < (size_t)n - 1 && z < (size_t)n - 1)
        for (int k = 0; k < 8; ++k)
          for (int e = 0; e < 12; ++e)
            total += (vol[g + corner[EDGES[e][0]]] < 32 * k + 16) !=
                     (vol[g + corner[EDGES[e][1]]] < 32 * k + 16);
      word |= (uint32_t)total << (8 * c);
    }
    ref[s] = word;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_grid1(job, nv, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- rasterisation ----------------------------------------------------------------------- */

static int edge_fn(int ax, int ay, int bx, int by, int px, int py) {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Triangle t of tri drawn into fb (w x h) as the kernel draws it. */
static void raster_host(const int32_t *v, uint32_t t, uint32_t *fb, int w, int h) {
  const uint32_t key = (uint32_t)v[6] << 21 | t;
  int lx = v[0], hx = v[0], ly = v[1], hy = v[1];
  for (int k = 1; k < 3; ++k) {
    lx = v[2 * k] < lx ? v[2 * k] : lx;
    hx = v[2 * k] > hx ? v[2 * k] : hx;
    ly = v[2 * k + 1] < ly ? v[2 * k + 1] : ly;
    hy = v[2 * k + 1] > hy ? v[2 * k + 1] : hy;
  }
  for (int py = ly / 2 > 0 ? ly / 2 : 0; py <= (hy / 2 < h - 1 ? hy / 2 : h - 1); ++py)
    for (int px = lx / 2 > 0 ? lx / 2 : 0; px <= (hx / 2 < w - 1 ? hx / 2 : w - 1); ++px) {
      const int sx = 2 * px + 1, sy = 2 * py + 1;
      if (edge_fn(v[0], v[1], v[2], v[3], sx, sy) >= 0 &&
          edge_fn(v[2], v[3], v[4], v[5], sx, sy) >= 0 &&
          edge_fn(v[4], v[5], v[0], v[1], sx, sy) >= 0) {
        uint32_t *p = &fb[(size_t)py * w + px];
        *p = key < *p ? key : *p;
      }
    }
}

static int raster_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 2048 : 256, h = w;
  const int ntri = full ? 2 << 20 : 8192;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "u_raster_zbuf_atomicmin");
  int tb = ubuf_u32(job, (size_t)ntri * 8, KB_IN), fb = ubuf_u32(job, (size_t)w * h, KB_INOUT);
  uint32_t *ref = uref_sampled(job, fb, KC_U32, (size_t)w * h, U_SAMPLES, 0, 0);
  uint32_t *img = malloc((size_t)w * h * 4);
  if (tb < 0 || fb < 0 || ref == NULL || img == NULL) {
    free(img);
    return -1;
  }
  int32_t *tri = job->buf[tb].host;
  memset(job->buf[fb].host, 0xFF, (size_t)w * h * 4);
  memset(img, 0xFF, (size_t)w * h * 4);
  for (int t = 0; t < ntri; ++t) { /* mostly 2-12 pixels across, 1 in 100 up to 60 */
    int32_t *v = tri + 8 * (size_t)t;
    const int big = krng_below(&r, 100) == 0, span = big ? 120 : 24;
    const int cx = (int)krng_below(&r, 2 * (uint32_t)w), cy = (int)krng_below(&r, 2 * (uint32_t)h);
    do {
      for (int k = 0; k < 3; ++k) {
        v[2 * k] = cx + (int)krng_below(&r, (uint32_t)span) - span / 2;
        v[2 * k + 1] = cy + (int)krng_below(&r, (uint32_t)span) - span / 2;
      }
    } while (edge_fn(v[0], v[1], v[2], v[3], v[4], v[5]) == 0);
    if (edge_fn(v[0], v[1], v[2], v[3], v[4], v[5]) < 0) { /* make it counter-clockwise */
      const int32_t tx = v[2], ty = v[3];
      v[2] = v[4];
      v[3] = v[5];
      v[4] = tx;
      v[5] = ty;
    }
    v[6] = (int32_t)krng_below(&r, 2048);
    v[7] = 0;
    raster_host(v, (uint32_t)t, img, w, h);
  }
  for (size_t s = 0; s < job->buf[fb].count; ++s) ref[s] = img[job->buf[fb].sample[s]];
  free(img);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, fb);
  kjob_arg_i32(job, ntri);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_grid1(job, (size_t)ntri, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- Bezier flattening ------------------------------------------------------------------- */

enum { BZ_P = 32 };

static int bezier_job(kjob *job, const kdesc *d, ksize size) {
  const int nc = 128;
  krng r;
  (void)size;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "u_bezier_flatten_tiny");
  int cb = kjob_buf(job, (size_t)nc * 32, KB_IN), ob = kjob_buf(job, (size_t)nc * BZ_P * 8, KB_OUT);
  float *ref = kjob_ref(job, ob, KC_F32, (size_t)nc * BZ_P * 2, 1e-5, 1e-3);
  if (job->buf[cb].host == NULL || ref == NULL) return -1;
  float *p = job->buf[cb].host;
  kfill_f32(p, (size_t)nc * 8, &r, 0, 1000); /* glyph outlines in font units */
  for (int g = 0; g < nc * BZ_P; ++g) {
    const float *c = p + 8 * (g / BZ_P);
    const double t = (double)(float)((float)(g % BZ_P) / (float)(BZ_P - 1));
    for (int k = 0; k < 2; ++k) {
      const double u = 1 - t;
      ref[2 * g + k] = (float)(u * u * u * c[k] + 3 * u * u * t * c[2 + k] +
                               3 * u * t * t * c[4 + k] + t * t * t * c[6 + k]);
    }
  }
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, nc);
  kjob_grid1(job, (size_t)nc * BZ_P, 256);
  return 0;
}

/* ---- LU log-determinants ----------------------------------------------------------------- */

enum { LU_N = 64 };

/* log |det| and the sign of the n x n matrix a (destroyed), by a double LU
 * with partial pivoting. */
static void slogdet(double *a, int n, double *logabs, double *sign) {
  *logabs = 0;
  *sign = 1;
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i) p = fabs(a[i * n + k]) > fabs(a[p * n + k]) ? i : p;
    if (p != k) {
      for (int j = 0; j < n; ++j) {
        const double t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
      *sign = -*sign;
    }
    const double pv = a[k * n + k];
    *logabs += log(fabs(pv));
    *sign = pv < 0 ? -*sign : *sign;
    for (int i = k + 1; i < n; ++i) {
      const double l = a[i * n + k] / pv;
      for (int j = k + 1; j < n; ++j) a[i * n + j] -= l * a[k * n + j];
    }
  }
}

static int slogdet_job(kjob *job, const kdesc *d, ksize size) {
  const int groups = 40, per = size == KSIZE_FULL ? 16 : 1, nm = groups * per;
  const size_t ne = (size_t)LU_N * LU_N;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "u_lu_slogdet_40");
  int ib = kjob_buf(job, nm * ne * 4, KB_IN), ob = kjob_buf(job, (size_t)nm * 8, KB_OUT);
  float *ref = kjob_ref(job, ob, KC_F32, (size_t)nm * 2, 1e-4, 2e-3);
  double *a = malloc(ne * sizeof *a);
  if (job->buf[ib].host == NULL || ref == NULL || a == NULL) {
    free(a);
    return -1;
  }
  float *m = job->buf[ib].host;
  kfill_f32(m, nm * ne, &r, -1, 1);
  for (int k = 0; k < nm; ++k) {
    double la, sg;
    for (size_t e = 0; e < ne; ++e) a[e] = m[k * ne + e];
    slogdet(a, LU_N, &la, &sg);
    ref[2 * k] = (float)la;
    ref[2 * k + 1] = (float)sg;
  }
  free(a);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, per);
  kjob_grid(job, (size_t)groups, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(usetup_sci) {
  switch (d->param) {
    case USC_IGAMC:
      return igamc_job(job, d, size);
    case USC_EIG3:
      return eig3_job(job, d, size);
    case USC_MCUBES:
      return mcubes_job(job, d, size);
    case USC_RASTER:
      return raster_job(job, d, size);
    case USC_BEZIER:
      return bezier_job(job, d, size);
    case USC_SLOGDET:
      return slogdet_job(job, d, size);
  }
  return -1;
}
