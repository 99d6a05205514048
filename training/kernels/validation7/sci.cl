/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.cl: scientific kernels for the seventh validation suite (host half:
 * sci.c): a red-black SOR half-sweep for the 3-D Poisson equation, a WENO5
 * flux for Burgers' equation, adaptive Simpson quadrature of line profiles
 * (FP64, all three) and cloud-in-cell charge deposition.  Written for this
 * suite, independently of the core suite and the earlier validation
 * suites. */
#include "sp_dev.h"

/* ---- red-black SOR for -lap u = f, 3-D, FP64 ---------------------------------------------------
 * One half-sweep: the interior points of the given colour ((x + y + z) %
 * 2 == parity) move towards the Gauss-Seidel value (the six neighbours,
 * all of the other colour, plus h^2 f, over 6) by omega.  A work-item per
 * point of the colour; u is updated in place. */
SP_KERNEL void r_rbgs_poisson3d_f64(SP_GLOBAL double *SP_RESTRICT u,
                                    SP_GLOBAL const double *SP_RESTRICT f, int n, int parity,
                                    double h2, double omega) {
  const int e = SP_GID(0), nh = n / 2;
  if (e >= n * n * nh) return;
  const int xh = e % nh, r = e / nh, y = r % n, z = r / n;
  const int x = 2 * xh + ((y + z + parity) & 1);
  if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) return;
  const long sy = n, sz = (long)n * n, i = z * sz + y * sy + x;
  const double nb = u[i - 1] + u[i + 1] + u[i - sy] + u[i + sy] + u[i - sz] + u[i + sz];
  const double gs = (nb + h2 * f[i]) * (1.0 / 6.0);
  u[i] = u[i] + omega * (gs - u[i]);
}

/* ---- WENO5 flux for Burgers' equation, FP64 ---------------------------------------------------
 * The Lax-Friedrichs split fluxes f+- = (u^2 / 2 +- alpha u) / 2 are
 * reconstructed at the interface i + 1/2 of every row by Jiang and Shu's
 * fifth-order WENO: f+ from cells i-2..i+2, f- mirrored from i+3..i-1.
 * Rows are periodic (nx a power of two).  A work-item per interface. */
SP_FN double r_weno5(double a, double b, double c, double d, double e) {
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

SP_KERNEL void r_weno5_burgers_f64(SP_GLOBAL const double *SP_RESTRICT u,
                                   SP_GLOBAL double *SP_RESTRICT flux, int nx, int ny,
                                   double alpha) {
  const int e = SP_GID(0);
  if (e >= nx * ny) return;
  const int y = e / nx, x = e - y * nx;
  SP_GLOBAL const double *row = u + (long)y * nx;
  double fp[6], fm[6];
  for (int k = 0; k < 6; ++k) {
    const double v = row[(x + k - 2) & (nx - 1)];
    fp[k] = 0.5 * (0.5 * v * v + alpha * v);
    fm[k] = 0.5 * (0.5 * v * v - alpha * v);
  }
  flux[e] = r_weno5(fp[0], fp[1], fp[2], fp[3], fp[4]) + r_weno5(fm[5], fm[4], fm[3], fm[2], fm[1]);
}

/* ---- adaptive Simpson quadrature of line profiles, FP64 ----------------------------------------
 * Each work-item integrates g(x) = amp w / ((x - c)^2 + w^2) + 1 + x / 2 -
 * x^2 / 4 over [0, 1]: an interval is split while |S_left + S_right - S| >
 * 15 eps (eps halves with each split) and its depth is below SI_MAXD, the
 * pending intervals on an explicit stack (left halves first, so the sum is
 * taken in order). */
#define SI_D 48
#define SI_MAXD 40

SP_FN double r_line(double x, double c, double w, double amp) {
  return amp * w / ((x - c) * (x - c) + w * w) + 1.0 + 0.5 * x - 0.25 * x * x;
}

SP_KERNEL void r_simpson_lines_f64_133(SP_GLOBAL const double *SP_RESTRICT par,
                                       SP_GLOBAL double *SP_RESTRICT res, int n, double tol) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const double c = par[3 * (long)i], w = par[3 * (long)i + 1], amp = par[3 * (long)i + 2];
  double sa[SI_D], sb[SI_D], sfa[SI_D], sfm[SI_D], sfb[SI_D], sw[SI_D], se[SI_D];
  int sd[SI_D];
  const double f0 = r_line(0.0, c, w, amp), f1 = r_line(1.0, c, w, amp);
  const double fh = r_line(0.5, c, w, amp);
  sa[0] = 0.0;
  sb[0] = 1.0;
  sfa[0] = f0;
  sfm[0] = fh;
  sfb[0] = f1;
  sw[0] = (f0 + 4.0 * fh + f1) / 6.0;
  se[0] = tol;
  sd[0] = 0;
  int sp = 1;
  double total = 0.0;
  while (sp > 0) {
    --sp;
    const double a = sa[sp], b = sb[sp], fa = sfa[sp], fm = sfm[sp], fb = sfb[sp];
    const double whole = sw[sp], eps = se[sp];
    const int depth = sd[sp];
    const double m = 0.5 * (a + b), h = b - a;
    const double flm = r_line(0.5 * (a + m), c, w, amp), frm = r_line(0.5 * (m + b), c, w, amp);
    const double left = h * (fa + 4.0 * flm + fm) / 12.0, right = h * (fm + 4.0 * frm + fb) / 12.0;
    const double diff = left + right - whole;
    if (depth >= SI_MAXD || fabs(diff) <= 15.0 * eps) {
      total += left + right + diff / 15.0;
      continue;
    }
    sa[sp] = m; /* the right half below the left one */
    sb[sp] = b;
    sfa[sp] = fm;
    sfm[sp] = frm;
    sfb[sp] = fb;
    sw[sp] = right;
    se[sp] = 0.5 * eps;
    sd[sp] = depth + 1;
    ++sp;
    sa[sp] = a;
    sb[sp] = m;
    sfa[sp] = fa;
    sfm[sp] = flm;
    sfb[sp] = fm;
    sw[sp] = left;
    se[sp] = 0.5 * eps;
    sd[sp] = depth + 1;
    ++sp;
  }
  res[i] = total;
}

/* ---- cloud-in-cell charge deposition ------------------------------------------------------------
 * A particle at (x, y) in grid units (periodic, g a power of two) adds its
 * bilinear weights, in 16.16 fixed point, to the four surrounding nodes of
 * rho by global atomics. */
SP_KERNEL void r_pic_deposit_cic(SP_GLOBAL const float *SP_RESTRICT px,
                                 SP_GLOBAL const float *SP_RESTRICT py,
                                 SP_GLOBAL uint *SP_RESTRICT rho, int n, int g) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const float x = px[i], y = py[i];
  const int ix = (int)x, iy = (int)y;
  const float fx = x - (float)ix, fy = y - (float)iy;
  const int ix1 = (ix + 1) & (g - 1), iy1 = (iy + 1) & (g - 1);
  SP_ATOMIC_ADD(rho + iy * g + ix, (uint)((1.0f - fx) * (1.0f - fy) * 65536.0f));
  SP_ATOMIC_ADD(rho + iy * g + ix1, (uint)(fx * (1.0f - fy) * 65536.0f));
  SP_ATOMIC_ADD(rho + iy1 * g + ix, (uint)((1.0f - fx) * fy * 65536.0f));
  SP_ATOMIC_ADD(rho + iy1 * g + ix1, (uint)(fx * fy * 65536.0f));
}
