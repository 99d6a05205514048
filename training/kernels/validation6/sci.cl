/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.cl: scientific and imaging kernels for the sixth validation suite
 * (host half: sci.c): a 4th-order FP64 wave-equation step, an ELLPACK FP64
 * SpMV, a spherical-harmonic synthesis by the associated Legendre
 * recurrence (265 groups), a 2-D Gaussian KDE (133 groups), CORDIC in fixed
 * point, a 3x3 median filter and a gamma table on 8-bit pixels.  Written for
 * this suite, independently of the core suite and the earlier validation
 * suites. */
#include "sp_dev.h"

/* ---- 2-D acoustic wave equation, 4th order in space, FP64 --------------------
 * pn = 2 p - pp + c2 * lap4(p) on the interior (two cells from each edge),
 * 0 on the border.  A work-item per cell. */
SP_KERNEL void q_wave_o4_f64(SP_GLOBAL const double *SP_RESTRICT pp,
                             SP_GLOBAL const double *SP_RESTRICT p,
                             SP_GLOBAL const double *SP_RESTRICT c2,
                             SP_GLOBAL double *SP_RESTRICT pn, int nx, int ny) {
  const int e = SP_GID(0);
  if (e >= nx * ny) return;
  const int y = e / nx, x = e - y * nx;
  if (x < 2 || y < 2 || x >= nx - 2 || y >= ny - 2) {
    pn[e] = 0.0;
    return;
  }
  const double near = p[e - 1] + p[e + 1] + p[e - nx] + p[e + nx];
  const double far = p[e - 2] + p[e + 2] + p[e - 2 * nx] + p[e + 2 * nx];
  const double lap = (4.0 / 3.0) * near - (1.0 / 12.0) * far - 5.0 * p[e];
  pn[e] = 2.0 * p[e] - pp[e] + c2[e] * lap;
}

/* ---- ELLPACK SpMV, FP64 --------------------------------------------------------
 * y = A x with A in ELL: width slabs of rows values (column-major: entry k of
 * row r at k * rows + r), padding entries have value 0.  A work-item per row. */
SP_KERNEL void q_ell_spmv_f64(SP_GLOBAL const double *SP_RESTRICT val,
                              SP_GLOBAL const int *SP_RESTRICT col,
                              SP_GLOBAL const double *SP_RESTRICT x,
                              SP_GLOBAL double *SP_RESTRICT y, int rows, int width) {
  const int r = SP_GID(0);
  if (r >= rows) return;
  double s = 0.0;
  for (int k = 0; k < width; ++k) {
    const long i = (long)k * rows + r;
    s += val[i] * x[col[i]];
  }
  y[r] = s;
}

/* ---- spherical-harmonic synthesis for one order m, FP64 ------------------------
 * f(theta) = sum_{l=m..lmax} c_l Pbar_lm(cos theta) by the normalised
 * recurrence Pbar_l = a_l (x Pbar_{l-1} - b_l Pbar_{l-2}), started from
 * sin(theta)^m; coef holds (a_l, b_l, c_l) per degree.  A work-item per
 * colatitude. */
SP_KERNEL void q_legendre_f64_265(SP_GLOBAL const double *SP_RESTRICT coef,
                                  SP_GLOBAL const double *SP_RESTRICT xs,
                                  SP_GLOBAL double *SP_RESTRICT f, int m, int lmax, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const double x = xs[i], s = sqrt(1.0 - x * x);
  double p1 = 1.0;
  for (int k = 0; k < m; ++k) p1 *= s;
  double p0 = 0.0, sum = coef[3 * m + 2] * p1;
  for (int l = m + 1; l <= lmax; ++l) {
    const double p2 = coef[3 * l] * (x * p1 - coef[3 * l + 1] * p0);
    sum += coef[3 * l + 2] * p2;
    p0 = p1;
    p1 = p2;
  }
  f[i] = sum;
}

/* ---- 2-D Gaussian kernel density estimation ---------------------------------------
 * dens[i] = sum_k exp(-|q_i - s_k|^2 inv2h2), the samples staged KD_TILE at
 * a time in local memory; a work-item per evaluation point. */
#define KD_TILE 2048

SP_KERNEL void q_kde_gauss_133(SP_GLOBAL const float *SP_RESTRICT sx,
                               SP_GLOBAL const float *SP_RESTRICT sy,
                               SP_GLOBAL const float *SP_RESTRICT qx,
                               SP_GLOBAL const float *SP_RESTRICT qy,
                               SP_GLOBAL float *SP_RESTRICT dens, int nsamples, float inv2h2) {
  SP_LOCAL float lx[KD_TILE];
  SP_LOCAL float ly[KD_TILE];
  const int t = SP_LID(0), nt = SP_LSIZE(0), i = SP_GID(0);
  const float x = qx[i], y = qy[i];
  float acc = 0.0f;
  for (int base = 0; base < nsamples; base += KD_TILE) {
    for (int k = t; k < KD_TILE; k += nt) {
      lx[k] = sx[base + k];
      ly[k] = sy[base + k];
    }
    SP_BARRIER();
    for (int k = 0; k < KD_TILE; ++k) {
      const float dx = x - lx[k], dy = y - ly[k];
      acc += SP_EXPF(-(dx * dx + dy * dy) * inv2h2);
    }
    SP_BARRIER();
  }
  dens[i] = acc;
}

/* ---- CORDIC sine and cosine, Q2.30 fixed point --------------------------------------
 * Rotation mode from (K, 0) by the angle (radians x 2^30, |a| <= pi/2):
 * iters shift-and-add micro-rotations by atan(2^-i) (tab).  out holds
 * (cos, sin) pairs. */
SP_KERNEL void q_cordic_fixed(SP_GLOBAL const int *SP_RESTRICT ang,
                              SP_GLOBAL const int *SP_RESTRICT tab, SP_GLOBAL int *SP_RESTRICT out,
                              int n, int iters, int gain) {
  const int e = SP_GID(0);
  if (e >= n) return;
  int x = gain, y = 0, z = ang[e];
  for (int i = 0; i < iters; ++i) {
    const int dx = x >> i, dy = y >> i, a = tab[i];
    if (z >= 0) {
      x -= dy;
      y += dx;
      z -= a;
    } else {
      x += dy;
      y -= dx;
      z += a;
    }
  }
  out[2 * (long)e] = x;
  out[2 * (long)e + 1] = y;
}

/* ---- 3x3 median filter on 8-bit pixels -------------------------------------------------
 * Edges clamped; the median of 9 by a 19 compare-exchange network. */
#define MD_CX(a, b)            \
  do {                         \
    const int lo_ = min(a, b); \
    b = max(a, b);             \
    a = lo_;                   \
  } while (0)

SP_KERNEL void q_median3x3_u8(SP_GLOBAL const uchar *SP_RESTRICT in,
                              SP_GLOBAL uchar *SP_RESTRICT out, int w, int h) {
  const int e = SP_GID(0);
  if (e >= w * h) return;
  const int y = e / w, x = e - y * w;
  const int xm = x > 0 ? x - 1 : 0, xp = x < w - 1 ? x + 1 : x;
  const int ym = (y > 0 ? y - 1 : 0) * w, yc = y * w, yp = (y < h - 1 ? y + 1 : y) * w;
  int p0 = in[ym + xm], p1 = in[ym + x], p2 = in[ym + xp];
  int p3 = in[yc + xm], p4 = in[yc + x], p5 = in[yc + xp];
  int p6 = in[yp + xm], p7 = in[yp + x], p8 = in[yp + xp];
  MD_CX(p1, p2);
  MD_CX(p4, p5);
  MD_CX(p7, p8);
  MD_CX(p0, p1);
  MD_CX(p3, p4);
  MD_CX(p6, p7);
  MD_CX(p1, p2);
  MD_CX(p4, p5);
  MD_CX(p7, p8);
  MD_CX(p0, p3);
  MD_CX(p5, p8);
  MD_CX(p4, p7);
  MD_CX(p3, p6);
  MD_CX(p1, p4);
  MD_CX(p2, p5);
  MD_CX(p4, p7);
  MD_CX(p4, p2);
  MD_CX(p6, p4);
  MD_CX(p4, p2);
  out[e] = (uchar)p4;
}

/* ---- gamma correction through a 256-entry table ------------------------------------------ */
SP_KERNEL void q_gamma_lut_u8(SP_GLOBAL const uchar *SP_RESTRICT in,
                              SP_GLOBAL const uchar *SP_RESTRICT lut,
                              SP_GLOBAL uchar *SP_RESTRICT out, int n) {
  SP_LOCAL uchar tab[256];
  const int t = SP_LID(0), e = SP_GID(0);
  for (int i = t; i < 256; i += SP_LSIZE(0)) tab[i] = lut[i];
  SP_BARRIER();
  if (e < n) out[e] = tab[in[e]];
}
