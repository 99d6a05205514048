/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.c: host half of sci.cl (shallow water, doitgen, Kalman filters,
 * XSBench-like lookups, two-point angular correlation, 3D colour LUT,
 * thin-plate-spline RBF).  References are computed in double on sampled
 * outputs, or replayed exactly in float where the kernel's result is a
 * count (the correlation histogram). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation5.h"

static const double Z_PI = 3.14159265358979323846;

/* ---- shallow water ----------------------------------------------------------------- */

static int swe_job(kjob *job, const kdesc *d, ksize size) {
  const int nx = size == KSIZE_FULL ? 4096 : 128, ny = nx;
  const size_t n = (size_t)nx * ny;
  const double cg = 0.05, cf = 0.01, cr = 0.001, cd = 0.001;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "z_shallow_water_f64");
  int hb = zin_f64(job, n, &r, -1, 1), ub = zin_f64(job, n, &r, -0.5, 0.5);
  int vb = zin_f64(job, n, &r, -0.5, 0.5), db = zin_f64(job, n, &r, 50, 100);
  int o[3];
  double *ref[3];
  for (int k = 0; k < 3; ++k) {
    o[k] = kjob_buf(job, n * 8, KB_OUT);
    ref[k] = zref_sampled(job, o[k], KC_F64, n, 1e-12, 1e-12);
    if (ref[k] == NULL) return -1;
  }
  if (hb < 0 || ub < 0 || vb < 0 || db < 0) return -1;
  const double *h = job->buf[hb].host, *u = job->buf[ub].host, *v = job->buf[vb].host;
  const double *dep = job->buf[db].host;
  for (size_t s = 0; s < job->buf[o[0]].count; ++s) {
    const size_t c = job->buf[o[0]].sample[s];
    const int i = (int)(c % nx), j = (int)(c / nx);
    const int im = (i + nx - 1) % nx, ip = (i + 1) % nx, jm = (j + ny - 1) % ny, jp = (j + 1) % ny;
#define AT(a, jj, ii) (a)[(size_t)(jj)*nx + (ii)]
    const double vbar = 0.25 * (AT(v, j, im) + v[c] + AT(v, jp, im) + AT(v, jp, i));
    const double ubar = 0.25 * (AT(u, jm, i) + u[c] + AT(u, jm, ip) + AT(u, j, ip));
    ref[0][s] = h[c] - cd * dep[c] * ((AT(u, j, ip) - u[c]) + (AT(v, jp, i) - v[c]));
    ref[1][s] = u[c] + (-cg * (h[c] - AT(h, j, im)) + cf * vbar - cr * u[c]);
    ref[2][s] = v[c] + (-cg * (h[c] - AT(h, jm, i)) - cf * ubar - cr * v[c]);
#undef AT
  }
  kjob_arg_buf(job, hb);
  kjob_arg_buf(job, ub);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, db);
  for (int k = 0; k < 3; ++k) kjob_arg_buf(job, o[k]);
  kjob_arg_i32(job, nx);
  kjob_arg_f64(job, cg);
  kjob_arg_f64(job, cf);
  kjob_arg_f64(job, cr);
  kjob_arg_f64(job, cd);
  kjob_grid(job, (size_t)nx / 64, (size_t)ny / 4, 1, 64, 4, 1);
  return 0;
}

/* ---- doitgen ------------------------------------------------------------------------ */

enum { DG_P = 256, DG_ROWS = 4 };

static int doitgen_job(kjob *job, const kdesc *d, ksize size) {
  const size_t rows = size == KSIZE_FULL ? 65536 : 64;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "z_doitgen_f64");
  int ab = zin_f64(job, rows * DG_P, &r, -1, 1), cb = zin_f64(job, DG_P * DG_P, &r, -1, 1);
  int ob = kjob_buf(job, rows * DG_P * 8, KB_OUT);
  double *ref = zref_sampled(job, ob, KC_F64, rows * DG_P, 1e-10, 1e-12);
  if (ab < 0 || cb < 0 || ref == NULL) return -1;
  const double *a = job->buf[ab].host, *c4 = job->buf[cb].host;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], row = e / DG_P, p = e % DG_P;
    double acc = 0;
    for (int k = 0; k < DG_P; ++k) acc += a[row * DG_P + k] * c4[(size_t)k * DG_P + p];
    ref[s] = acc;
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_grid(job, rows / DG_ROWS, 1, 1, DG_P, 1, 1);
  return 0;
}

/* ---- Kalman filters ----------------------------------------------------------------- */

static int kalman_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, tracks = full ? 4096 : 256, steps = full ? 2048 : 64;
  const double dt = 1, q = 0.01, rn = 0.25;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "z_kalman_batch_f64");
  int zb = kjob_buf(job, (size_t)steps * tracks * 2 * 8, KB_IN);
  int sb = kjob_buf(job, (size_t)tracks * 5 * 8, KB_OUT);
  double *ref = kjob_ref(job, sb, KC_F64, (size_t)tracks * 5, 1e-8, 1e-8);
  double *z = job->buf[zb].host;
  if (z == NULL || ref == NULL) return -1;
  for (int n = 0; n < tracks; ++n) {
    const double x0 = krng_uniform(&r, -100, 100), y0 = krng_uniform(&r, -100, 100);
    const double vx = krng_uniform(&r, -1, 1), vy = krng_uniform(&r, -1, 1);
    for (int t = 0; t < steps; ++t) {
      z[((size_t)t * tracks + n) * 2] = x0 + vx * t * dt + krng_uniform(&r, -0.5, 0.5);
      z[((size_t)t * tracks + n) * 2 + 1] = y0 + vy * t * dt + krng_uniform(&r, -0.5, 0.5);
    }
  }
  for (int n = 0; n < tracks; ++n) {
    double x[4] = {z[2 * n], z[2 * n + 1], 0, 0}, P[4][4];
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) P[a][b] = a == b ? 10.0 : 0.0;
    for (int t = 1; t < steps; ++t) {
      x[0] += dt * x[2];
      x[1] += dt * x[3];
      double FP[4][4];
      for (int b = 0; b < 4; ++b) {
        FP[0][b] = P[0][b] + dt * P[2][b];
        FP[1][b] = P[1][b] + dt * P[3][b];
        FP[2][b] = P[2][b];
        FP[3][b] = P[3][b];
      }
      for (int a = 0; a < 4; ++a) {
        P[a][0] = FP[a][0] + dt * FP[a][2];
        P[a][1] = FP[a][1] + dt * FP[a][3];
        P[a][2] = FP[a][2];
        P[a][3] = FP[a][3];
        P[a][a] += q;
      }
      const double s00 = P[0][0] + rn, s01 = P[0][1], s10 = P[1][0], s11 = P[1][1] + rn;
      const double det = s00 * s11 - s01 * s10;
      const double i00 = s11 / det, i01 = -s01 / det, i10 = -s10 / det, i11 = s00 / det;
      double K[4][2];
      for (int a = 0; a < 4; ++a) {
        K[a][0] = P[a][0] * i00 + P[a][1] * i10;
        K[a][1] = P[a][0] * i01 + P[a][1] * i11;
      }
      const size_t zi = ((size_t)t * tracks + n) * 2;
      const double y0 = z[zi] - x[0], y1 = z[zi + 1] - x[1];
      for (int a = 0; a < 4; ++a) x[a] += K[a][0] * y0 + K[a][1] * y1;
      double P0[4], P1[4];
      for (int b = 0; b < 4; ++b) {
        P0[b] = P[0][b];
        P1[b] = P[1][b];
      }
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) P[a][b] -= K[a][0] * P0[b] + K[a][1] * P1[b];
    }
    for (int a = 0; a < 4; ++a) ref[(size_t)a * tracks + n] = x[a];
    ref[(size_t)4 * tracks + n] = P[0][0] + P[1][1] + P[2][2] + P[3][3];
  }
  kjob_arg_buf(job, zb);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, tracks);
  kjob_arg_i32(job, steps);
  kjob_arg_f64(job, dt);
  kjob_arg_f64(job, q);
  kjob_arg_f64(job, rn);
  kjob_grid1(job, (size_t)tracks, 128);
  return 0;
}

/* ---- XSBench-like lookups ----------------------------------------------------------- */

enum { XS_NN = 24, XS_MATS = 12 };

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int xs_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, np = full ? 8192 : 256, lookups = full ? 4 << 20 : 4096;
  const int gp = np * XS_NN;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "z_xsbench_lookup");
  int eg = kjob_buf(job, (size_t)gp * 8, KB_IN), ig = zbuf_u32(job, (size_t)gp * XS_NN, KB_IN);
  int nb = kjob_buf(job, (size_t)XS_NN * np * 6 * 8, KB_IN);
  int cb = zin_f64(job, XS_MATS * XS_NN, &r, 0.1, 2);
  int lb = kjob_buf(job, (size_t)lookups * 8, KB_IN), mb = zbuf_u32(job, (size_t)lookups, KB_IN);
  int ob = kjob_buf(job, (size_t)lookups * 5 * 8, KB_OUT);
  double *ref = zref_sampled(job, ob, KC_F64, (size_t)lookups * 5, 1e-10, 1e-12);
  double *E = job->buf[eg].host, *nuc = job->buf[nb].host, *en = job->buf[lb].host;
  int32_t *idx = job->buf[ig].host, *mat = job->buf[mb].host;
  if (E == NULL || idx == NULL || nuc == NULL || cb < 0 || en == NULL || mat == NULL || !ref)
    return -1;
  double *ne = malloc((size_t)np * sizeof *ne);
  if (ne == NULL) return -1;
  for (int n = 0; n < XS_NN; ++n) {
    for (int j = 0; j < np; ++j) ne[j] = krng_uniform(&r, 0, 1);
    qsort(ne, (size_t)np, sizeof *ne, cmp_double);
    for (int j = 0; j < np; ++j) {
      double *rec = nuc + ((size_t)n * np + j) * 6;
      rec[0] = ne[j];
      for (int c = 1; c < 6; ++c) rec[c] = krng_uniform(&r, 0.1, 10);
      E[(size_t)n * np + j] = ne[j];
    }
  }
  free(ne);
  qsort(E, (size_t)gp, sizeof *E, cmp_double);
  for (int n = 0; n < XS_NN; ++n) {
    int j = 0;
    for (int u = 0; u < gp; ++u) {
      while (j + 1 < np && nuc[((size_t)n * np + j + 1) * 6] <= E[u]) ++j;
      idx[(size_t)u * XS_NN + n] = j < np - 2 ? j : np - 2;
    }
  }
  const double *conc = job->buf[cb].host;
  for (int l = 0; l < lookups; ++l) {
    en[l] = krng_uniform(&r, E[0], E[gp - 1]);
    mat[l] = (int32_t)krng_below(&r, XS_MATS);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t o = job->buf[ob].sample[s], c = o / lookups, l = o % lookups;
    const double e = en[l];
    const int m = mat[l];
    int lo = 0, hi = gp - 1;
    while (hi - lo > 1) {
      const int mid = (lo + hi) / 2;
      if (E[mid] > e)
        hi = mid;
      else
        lo = mid;
    }
    double xs = 0;
    for (int k = 0, cnt = 4 + (m * 5) % 20; k < cnt; ++k) {
      const int nn = (m * 7 + k * 5) % XS_NN, j = idx[(size_t)lo * XS_NN + nn];
      const double *r0 = nuc + ((size_t)nn * np + j) * 6;
      const double f = (e - r0[0]) / (r0[6] - r0[0]);
      xs += conc[m * XS_NN + k] * (r0[1 + c] + f * (r0[7 + c] - r0[1 + c]));
    }
    ref[s] = xs;
  }
  kjob_arg_buf(job, eg);
  kjob_arg_buf(job, ig);
  kjob_arg_buf(job, nb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, mb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, lookups);
  kjob_arg_i32(job, gp);
  kjob_arg_i32(job, np);
  kjob_grid1(job, (size_t)lookups, 256);
  return 0;
}

/* ---- two-point angular correlation -------------------------------------------------- */

enum { TP_NB = 32 };

static int tpacf_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 8192 : 512;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "z_tpacf_pairs");
  int pb = kjob_buf(job, (size_t)n * 3 * 4, KB_IN), eb = kjob_buf(job, TP_NB * 4, KB_IN);
  int hb = zbuf_u32(job, TP_NB, KB_INOUT);
  uint32_t *ref = kjob_ref(job, hb, KC_U32, TP_NB, 0, 0);
  float *p = job->buf[pb].host, *ed = job->buf[eb].host;
  if (p == NULL || ed == NULL || hb < 0 || ref == NULL) return -1;
  for (int i = 0; i < n; ++i) {
    const double z = krng_uniform(&r, -1, 1), ph = krng_uniform(&r, 0, 2 * Z_PI);
    const double s = sqrt(1 - z * z);
    p[3 * i] = (float)(s * cos(ph));
    p[3 * i + 1] = (float)(s * sin(ph));
    p[3 * i + 2] = (float)z;
  }
  for (int m = 0; m < TP_NB - 1; ++m) ed[m] = (float)cos(0.02 * pow(Z_PI / 0.02, (m + 1) / 32.0));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const float dd =
          fmaf(p[3 * i], p[3 * j], fmaf(p[3 * i + 1], p[3 * j + 1], p[3 * i + 2] * p[3 * j + 2]));
      int lo = 0, hi = TP_NB - 1;
      while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (dd < ed[mid])
          lo = mid + 1;
        else
          hi = mid;
      }
      ref[lo]++;
    }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, eb);
  kjob_arg_buf(job, hb);
  kjob_arg_i32(job, n);
  kjob_grid(job, (size_t)n / 256, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- 3D colour LUT ------------------------------------------------------------------- */

enum { LT_N = 65 };

/* Sampled pixels: each colour channel within one of the reference (the
 * rounding of a float interpolation), alpha exact. */
typedef struct lut_chk {
  int buf;
  size_t count;
  size_t idx[Z_SAMPLES];
  double ref[Z_SAMPLES][3];
  uint32_t alpha[Z_SAMPLES];
} lut_chk;

static int lut_check(const kjob *job, char *msg, size_t size) {
  const lut_chk *c = job->priv;
  const uint32_t *got = job->buf[c->buf].result;
  for (size_t s = 0; s < c->count; ++s) {
    const uint32_t g = got[c->idx[s]];
    int bad = (g & 0xff000000u) != c->alpha[s];
    for (int k = 0; k < 3; ++k) bad |= fabs((double)(g >> (8 * k) & 255u) - c->ref[s][k]) > 1.0;
    if (bad) {
      snprintf(msg, size, "pixel %zu: got %08x, expected about %.1f %.1f %.1f", c->idx[s], g,
               c->ref[s][0], c->ref[s][1], c->ref[s][2]);
      return -1;
    }
  }
  return 0;
}

static int lut_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)32 << 20 : 16384, nl = (size_t)LT_N * LT_N * LT_N;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "z_lut3d_trilinear");
  int ib = zbuf_u32(job, n, KB_IN), lb = kjob_buf(job, nl * 16, KB_IN);
  int ob = zbuf_u32(job, n, KB_OUT);
  lut_chk *c = job->priv = malloc(sizeof *c);
  uint32_t *img = job->buf[ib].host;
  float *lut = job->buf[lb].host;
  if (ib < 0 || lut == NULL || c == NULL) return -1;
  kfill_u32(img, n, &r);
  for (int b = 0; b < LT_N; ++b)
    for (int g = 0; g < LT_N; ++g)
      for (int rr = 0; rr < LT_N; ++rr) {
        float *e = lut + (((size_t)b * LT_N + g) * LT_N + rr) * 4;
        const double x[3] = {rr / 64.0, g / 64.0, b / 64.0};
        for (int k = 0; k < 3; ++k) { /* a warm grade: a curve, a cross-talk and noise */
          const double v =
              pow(x[k], 0.8) * 0.9 + 0.1 * x[(k + 1) % 3] + krng_uniform(&r, -0.01, 0.01);
          e[k] = (float)(v < 0 ? 0 : v > 1 ? 1 : v);
        }
        e[3] = 1.0f;
      }
  c->buf = ob;
  c->count = n < Z_SAMPLES ? n : Z_SAMPLES;
  for (size_t s = 0; s < c->count; ++s) {
    const size_t p = c->idx[s] = kspread(s, c->count, n);
    const uint32_t px = img[p];
    const float sc = (float)(LT_N - 1) / 255.0f;
    const double f[3] = {(float)(px & 255u) * sc, (float)(px >> 8 & 255u) * sc,
                         (float)(px >> 16 & 255u) * sc};
    int i0[3];
    for (int k = 0; k < 3; ++k) i0[k] = (int)f[k] < LT_N - 2 ? (int)f[k] : LT_N - 2;
    double acc[3] = {0, 0, 0};
    for (int cc = 0; cc < 8; ++cc) {
      const int o[3] = {cc & 1, cc >> 1 & 1, cc >> 2};
      double w = 1;
      for (int k = 0; k < 3; ++k) w *= o[k] ? f[k] - i0[k] : 1 - (f[k] - i0[k]);
      const float *e =
          lut + (((size_t)(i0[2] + o[2]) * LT_N + i0[1] + o[1]) * LT_N + i0[0] + o[0]) * 4;
      for (int k = 0; k < 3; ++k) acc[k] += w * e[k];
    }
    for (int k = 0; k < 3; ++k) {
      const double v = acc[k] * 255 + 0.5;
      c->ref[s][k] = floor(v < 0 ? 0 : v > 255 ? 255 : v);
    }
    c->alpha[s] = px & 0xff000000u;
  }
  job->check = lut_check;
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- thin-plate-spline RBF ------------------------------------------------------------- */

static int tps_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, groups = full ? 265 : 2, centres = full ? 4096 : 1024;
  const size_t n = (size_t)groups * 1024;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "z_rbf_tps_265");
  int pb = zin_f32(job, 2 * n, &r, 0, 1), cb = kjob_buf(job, (size_t)centres * 3 * 4, KB_IN);
  int ab = zin_f32(job, 3, &r, -1, 1), ob = kjob_buf(job, n * 4, KB_OUT);
  float *ref = zref_sampled(job, ob, KC_F32, n, 1e-3, 1e-2);
  float *ctr = job->buf[cb].host;
  if (pb < 0 || ctr == NULL || ab < 0 || ref == NULL) return -1;
  for (int k = 0; k < centres; ++k) {
    ctr[3 * k] = (float)krng_uniform(&r, 0, 1);
    ctr[3 * k + 1] = (float)krng_uniform(&r, 0, 1);
    ctr[3 * k + 2] = (float)krng_uniform(&r, -1, 1);
  }
  const float *p = job->buf[pb].host, *af = job->buf[ab].host;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t i = job->buf[ob].sample[s];
    double acc = 0;
    for (int k = 0; k < centres; ++k) {
      const double dx = (double)p[2 * i] - ctr[3 * k], dy = (double)p[2 * i + 1] - ctr[3 * k + 1];
      const double r2 = dx * dx + dy * dy;
      acc += ctr[3 * k + 2] * (r2 > 0 ? 0.5 * r2 * log(r2) : 0);
    }
    ref[s] = (float)(af[0] + (double)af[1] * p[2 * i] + (double)af[2] * p[2 * i + 1] + acc);
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, centres);
  kjob_grid(job, (size_t)groups, 1, 1, 1024, 1, 1);
  return 0;
}

SP_SETUP(zsetup_sci) {
  switch (d->param) {
    case ZSC_SWE:
      return swe_job(job, d, size);
    case ZSC_DOITGEN:
      return doitgen_job(job, d, size);
    case ZSC_KALMAN:
      return kalman_job(job, d, size);
    case ZSC_XS:
      return xs_job(job, d, size);
    case ZSC_TPACF:
      return tpacf_job(job, d, size);
    case ZSC_LUT3D:
      return lut_job(job, d, size);
    case ZSC_TPS:
      return tps_job(job, d, size);
  }
  return -1;
}
