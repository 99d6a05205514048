/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.c: host half of sci.cl (red-black SOR, WENO5 Burgers flux, adaptive
 * Simpson quadrature, cloud-in-cell deposition).  The FP64 kernels are
 * replayed in double in the kernel's order (only contractions into fused
 * multiply-adds may differ, hence the small relative tolerances); the
 * charge grid is integer and exact, and is checked after the first launch
 * only (later launches keep adding to it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation7.h"

static const double R_PI = 3.14159265358979323846;

/* ---- red-black SOR ----------------------------------------------------------------------------
 */

static int rbgs_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 384 : 32, parity = 0;
  const size_t pts = (size_t)n * n * n;
  const double h = 1.0 / (n - 1), h2 = h * h, omega = 1.6;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "r_rbgs_poisson3d_f64");
  int ub = kjob_buf(job, pts * 8, KB_INOUT), fb = kjob_buf(job, pts * 8, KB_IN);
  double *ref = rref_sampled(job, ub, KC_F64, pts, 1e-12, 1e-14);
  if (job->buf[ub].host == NULL || job->buf[fb].host == NULL || ref == NULL) return -1;
  double *u = job->buf[ub].host, *f = job->buf[fb].host;
  double *tab = malloc((size_t)n * 5 * sizeof *tab);
  if (tab == NULL) return -1;
  for (int k = 0; k < n; ++k) { /* separable factors of the start and the source */
    tab[k] = sin(3.0 * k * h);
    tab[n + k] = sin(2.0 * k * h) * k * h;
    tab[2 * n + k] = exp(-40.0 * (k * h - 0.5) * (k * h - 0.5));
    tab[3 * n + k] = exp(-40.0 * (k * h - 0.4) * (k * h - 0.4));
    tab[4 * n + k] = 10.0 * exp(-40.0 * (k * h - 0.6) * (k * h - 0.6));
  }
  for (int z = 0; z < n; ++z) /* a smooth start with noise, zero on the boundary */
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const size_t i = ((size_t)z * n + y) * n + x;
        const int edge = x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1;
        u[i] = edge ? 0.0 : tab[x] * tab[n + y] * z * h + krng_uniform(&r, 0, 0.01);
        f[i] = tab[2 * n + x] * tab[3 * n + y] * tab[4 * n + z];
      }
  free(tab);
  for (size_t s = 0; s < job->buf[ub].count; ++s) {
    const size_t i = job->buf[ub].sample[s];
    const int x = (int)(i % n), y = (int)(i / n % n), z = (int)(i / ((size_t)n * n));
    const int edge = x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1;
    if (edge || ((x + y + z) & 1) != parity) {
      ref[s] = u[i];
      continue;
    }
    const size_t sy = (size_t)n, sz = (size_t)n * n;
    const double nb = u[i - 1] + u[i + 1] + u[i - sy] + u[i + sy] + u[i - sz] + u[i + sz];
    const double gs = (nb + h2 * f[i]) * (1.0 / 6.0);
    ref[s] = u[i] + omega * (gs - u[i]);
  }
  kjob_arg_buf(job, ub);
  kjob_arg_buf(job, fb);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, parity);
  kjob_arg_f64(job, h2);
  kjob_arg_f64(job, omega);
  kjob_grid1(job, pts / 2, 256);
  return 0;
}

/* ---- WENO5 Burgers flux ------------------------------------------------------------------------
 */

static double weno5(double a, double b, double c, double d, double e) {
  const double b0 = 13.0 / 12.0 * (a - 2.0 * b + c) * (a - 2.0 * b + c) +
                    0.25 * (a - 4.0 * b + 3.0 * c) * (a - 4.0 * b + 3.0 * c);
  const double b1 = 13.0 / 12.0 * (b - 2.0 * c + d) * (b - 2.0 * c + d) + 0.25 * (b - d) * (b - d);
  const double b2 = 13.0 / 12.0 * (c - 2.0 * d + e) * (c - 2.0 * d + e) +
                    0.25 * (3.0 * c - 4.0 * d + e) * (3.0 * c - 4.0 * d + e);
  const double a0 = 0.1 / ((1e-6 + b0) * (1e-6 + b0));
  const double a1 = 0.6 / ((1e-6 + b1) * (1e-6 + b1));
  const double a2 = 0.3 / ((1e-6 + b2) * (1e-6 + b2));
  const double p0 = (2.0 * a - 7.0 * b + 11.0 * c) / 6.0;
  const double p1 = (-b + 5.0 * c + 2.0 * d) / 6.0;
  const double p2 = (2.0 * c + 5.0 * d - e) / 6.0;
  return (a0 * p0 + a1 * p1 + a2 * p2) / (a0 + a1 + a2);
}

static int weno_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nx = full ? 8192 : 256, ny = full ? 4096 : 64;
  const size_t n = (size_t)nx * ny;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "r_weno5_burgers_f64");
  int ub = kjob_buf(job, n * 8, KB_IN), fb = kjob_buf(job, n * 8, KB_OUT);
  double *ref = rref_sampled(job, fb, KC_F64, n, 1e-9, 1e-12);
  if (job->buf[ub].host == NULL || ref == NULL) return -1;
  double *u = job->buf[ub].host, alpha = 0;
  double *tx = malloc((size_t)(4 * nx + 2 * ny) * sizeof *tx);
  if (tx == NULL) return -1;
  for (int x = 0; x < nx; ++x) {
    const double t = 2 * R_PI * x / nx;
    tx[x] = sin(t);
    tx[nx + x] = cos(t);
    tx[2 * nx + x] = sin(3 * t);
    tx[3 * nx + x] = cos(3 * t);
  }
  for (int y = 0; y < ny; ++y) {
    tx[4 * nx + y] = sin(0.37 * y);
    tx[4 * nx + ny + y] = cos(0.37 * y);
  }
  for (int y = 0; y < ny; ++y) /* waves, sin(t + p) + sin(3t - p) / 2, with steps and noise */
    for (int x = 0; x < nx; ++x) {
      const double sp = tx[4 * nx + y], cp = tx[4 * nx + ny + y];
      double v = tx[x] * cp + tx[nx + x] * sp + 0.5 * (tx[2 * nx + x] * cp - tx[3 * nx + x] * sp);
      v += ((x + 17 * y) % 997 < 300 ? 0.8 : 0.0) + krng_uniform(&r, -0.01, 0.01);
      u[(size_t)y * nx + x] = v;
      alpha = fabs(v) > alpha ? fabs(v) : alpha;
    }
  free(tx);
  for (size_t s = 0; s < job->buf[fb].count; ++s) {
    const size_t e = job->buf[fb].sample[s];
    const int y = (int)(e / nx), x = (int)(e % nx);
    double fp[6], fm[6];
    for (int k = 0; k < 6; ++k) {
      const double v = u[(size_t)y * nx + ((x + k - 2) & (nx - 1))];
      fp[k] = 0.5 * (0.5 * v * v + alpha * v);
      fm[k] = 0.5 * (0.5 * v * v - alpha * v);
    }
    ref[s] = weno5(fp[0], fp[1], fp[2], fp[3], fp[4]) + weno5(fm[5], fm[4], fm[3], fm[2], fm[1]);
  }
  kjob_arg_buf(job, ub);
  kjob_arg_buf(job, fb);
  kjob_arg_i32(job, nx);
  kjob_arg_i32(job, ny);
  kjob_arg_f64(job, alpha);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- adaptive Simpson quadrature --------------------------------------------------------- */

enum { SI_MAXD = 40, SI_D = 48, SI_T = 1024 };

static double line(double x, double c, double w, double amp) {
  return amp * w / ((x - c) * (x - c) + w * w) + 1.0 + 0.5 * x - 0.25 * x * x;
}

/* The kernel's quadrature, recursively (left half first: the same order). */
static double simpson(double a, double b, double fa, double fm, double fb, double whole, double eps,
                      int depth, const double *p) {
  const double m = 0.5 * (a + b), h = b - a;
  const double flm = line(0.5 * (a + m), p[0], p[1], p[2]),
               frm = line(0.5 * (m + b), p[0], p[1], p[2]);
  const double left = h * (fa + 4.0 * flm + fm) / 12.0, right = h * (fm + 4.0 * frm + fb) / 12.0;
  const double diff = left + right - whole;
  if (depth >= SI_MAXD || fabs(diff) <= 15.0 * eps) return left + right + diff / 15.0;
  const double l = simpson(a, m, fa, flm, fm, left, 0.5 * eps, depth + 1, p);
  return l + simpson(m, b, fm, frm, fb, right, 0.5 * eps, depth + 1, p);
}

static int simpson_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, groups = full ? 133 : 3, n = groups * SI_T;
  const double tol = 1e-6;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "r_simpson_lines_f64_133");
  int pb = kjob_buf(job, (size_t)n * 24, KB_IN), ob = kjob_buf(job, (size_t)n * 8, KB_OUT);
  double *ref = rref_sampled(job, ob, KC_F64, (size_t)n, 1e-7, 1e-6);
  if (job->buf[pb].host == NULL || ref == NULL) return -1;
  double *par = job->buf[pb].host;
  for (int i = 0; i < n; ++i) { /* narrow lines in groups 0, 33, 66, 99, 132 */
    const int narrow = i / SI_T % 33 == 0;
    par[3 * i] = krng_uniform(&r, 0.05, 0.95);
    par[3 * i + 1] = narrow ? krng_uniform(&r, 5e-4, 2e-3) : krng_uniform(&r, 0.3, 0.6);
    par[3 * i + 2] = krng_uniform(&r, 0.1, 2.0);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const double *p = par + 3 * job->buf[ob].sample[s];
    const double f0 = line(0.0, p[0], p[1], p[2]), f1 = line(1.0, p[0], p[1], p[2]);
    const double fh = line(0.5, p[0], p[1], p[2]);
    ref[s] = simpson(0.0, 1.0, f0, fh, f1, (f0 + 4.0 * fh + f1) / 6.0, tol, 0, p);
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_arg_f64(job, tol);
  kjob_grid(job, (size_t)groups, 1, 1, SI_T, 1, 1);
  return 0;
}

/* ---- cloud-in-cell deposition ------------------------------------------------------------ */

static int cic_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, g = full ? 1024 : 64;
  const size_t n = full ? (size_t)16 << 20 : 65536, nodes = (size_t)g * g;
  const double sigma = g / 40.0;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "r_pic_deposit_cic");
  int xb = kjob_buf(job, n * 4, KB_IN), yb = kjob_buf(job, n * 4, KB_IN);
  int rb = rbuf_u32(job, nodes, KB_INOUT);
  uint32_t *ref = kjob_ref(job, rb, KC_U32, nodes, 0, 0);
  if (job->buf[xb].host == NULL || job->buf[yb].host == NULL || rb < 0 || ref == NULL) return -1;
  float *px = job->buf[xb].host, *py = job->buf[yb].host;
  for (size_t i = 0; i < n; ++i) { /* 70% a Gaussian beam, 30% background, in random order */
    double x, y;
    if (krng_below(&r, 10) < 7) {
      const double u1 = krng_uniform(&r, 1e-12, 1), u2 = krng_uniform(&r, 0, 2 * R_PI);
      x = g / 2.0 + sigma * sqrt(-2 * log(u1)) * cos(u2);
      y = g / 2.0 + sigma * sqrt(-2 * log(u1)) * sin(u2);
    } else {
      x = krng_uniform(&r, 0, g);
      y = krng_uniform(&r, 0, g);
    }
    x = fmod(x + g, g);
    y = fmod(y + g, g);
    px[i] = (float)x < (float)g ? (float)x : 0.0f;
    py[i] = (float)y < (float)g ? (float)y : 0.0f;
    const int ix = (int)px[i], iy = (int)py[i];
    const float fx = px[i] - (float)ix, fy = py[i] - (float)iy;
    const int ix1 = (ix + 1) & (g - 1), iy1 = (iy + 1) & (g - 1);
    ref[(size_t)iy * g + ix] += (uint32_t)((1.0f - fx) * (1.0f - fy) * 65536.0f);
    ref[(size_t)iy * g + ix1] += (uint32_t)(fx * (1.0f - fy) * 65536.0f);
    ref[(size_t)iy1 * g + ix] += (uint32_t)((1.0f - fx) * fy * 65536.0f);
    ref[(size_t)iy1 * g + ix1] += (uint32_t)(fx * fy * 65536.0f);
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, rb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, g);
  kjob_grid1(job, n, 256);
  return 0;
}

SP_SETUP(rsetup_sci) {
  switch (d->param) {
    case RSC_RBGS:
      return rbgs_job(job, d, size);
    case RSC_WENO:
      return weno_job(job, d, size);
    case RSC_SIMPSON:
      return simpson_job(job, d, size);
    case RSC_CIC:
      return cic_job(job, d, size);
  }
  return -1;
}
