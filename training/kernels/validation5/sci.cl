/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.cl: scientific and imaging kernels for the fifth validation suite
 * (host half: sci.c): a shallow-water step in FP64, PolyBench doitgen in
 * FP64, batched Kalman filters in FP64, XSBench-like cross-section lookups,
 * two-point angular correlation, a 3D colour LUT and thin-plate-spline RBF
 * evaluation.  Written for this suite, independently of the core suite
 * and the earlier validation suites. */
#include "sp_dev.h"

/* ---- shallow water on a C-grid, FP64 --------------------------------------------
 * h at cell centres, u on x-faces (u[j][i] between h[j][i-1] and h[j][i]),
 * v on y-faces; periodic.  One forward step of the linearised equations
 * with Coriolis (the 4-point average of the other velocity), linear
 * friction and a varying depth on a square grid; a work-item per cell writes all three new
 * fields. */
SP_KERNEL void z_shallow_water_f64(
    SP_GLOBAL const double *SP_RESTRICT h, SP_GLOBAL const double *SP_RESTRICT u,
    SP_GLOBAL const double *SP_RESTRICT v, SP_GLOBAL const double *SP_RESTRICT depth,
    SP_GLOBAL double *SP_RESTRICT h2, SP_GLOBAL double *SP_RESTRICT u2,
    SP_GLOBAL double *SP_RESTRICT v2, int nx, double cg, double cf, double cr, double cd) {
  const int i = SP_GID(0), j = SP_GID(1), ny = nx;
  if (i >= nx || j >= ny) return;
  const int im = (i + nx - 1) % nx, ip = (i + 1) % nx;
  const int jm = (j + ny - 1) % ny, jp = (j + 1) % ny;
  const long c = (long)j * nx + i;
  const double hc = h[c];
  const double vbar =
      0.25 * (v[(long)j * nx + im] + v[c] + v[(long)jp * nx + im] + v[(long)jp * nx + i]);
  const double ubar =
      0.25 * (u[(long)jm * nx + i] + u[c] + u[(long)jm * nx + ip] + u[(long)j * nx + ip]);
  u2[c] = u[c] + (-cg * (hc - h[(long)j * nx + im]) + cf * vbar - cr * u[c]);
  v2[c] = v[c] + (-cg * (hc - h[(long)jm * nx + i]) - cf * ubar - cr * v[c]);
  h2[c] = hc - cd * depth[c] * ((u[(long)j * nx + ip] - u[c]) + (v[(long)jp * nx + i] - v[c]));
}

/* ---- doitgen, FP64 ----------------------------------------------------------------
 * out[r][q][p] = sum_s a[r][q][s] c4[s][p] (P = DG_P).  One DG_P-wide group
 * per DG_ROWS consecutive (r, q) rows, staged in local memory; each c4 load
 * feeds DG_ROWS fused multiply-adds. */
#define DG_P 256
#define DG_ROWS 4

SP_KERNEL void z_doitgen_f64(SP_GLOBAL const double *SP_RESTRICT a,
                             SP_GLOBAL const double *SP_RESTRICT c4,
                             SP_GLOBAL double *SP_RESTRICT out) {
  SP_LOCAL double rows[DG_ROWS][DG_P];
  const int p = SP_LID(0);
  const long base = (long)SP_GRP(0) * DG_ROWS * DG_P;
  for (int k = 0; k < DG_ROWS; ++k) rows[k][p] = a[base + k * DG_P + p];
  SP_BARRIER();
  double acc[DG_ROWS];
  for (int k = 0; k < DG_ROWS; ++k) acc[k] = 0.0;
  for (int s = 0; s < DG_P; ++s) {
    const double cv = c4[s * DG_P + p];
    for (int k = 0; k < DG_ROWS; ++k) acc[k] = fma(rows[k][s], cv, acc[k]);
  }
  for (int k = 0; k < DG_ROWS; ++k) out[base + k * DG_P + p] = acc[k];
}

/* ---- batched Kalman filters, FP64 -----------------------------------------------------
 * A constant-velocity model (state x, y, vx, vy; position measured) per
 * track: predict, then update with the measurement of the step.  A
 * work-item per track, the state and its covariance in registers; every
 * step depends on the one before. */
SP_KERNEL void z_kalman_batch_f64(SP_GLOBAL const double *SP_RESTRICT z,
                                  SP_GLOBAL double *SP_RESTRICT state, int tracks, int steps,
                                  double dt, double q, double rn) {
  const int n = SP_GID(0);
  if (n >= tracks) return;
  double x[4] = {z[2 * n], z[2 * n + 1], 0.0, 0.0};
  double P[4][4];
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) P[a][b] = a == b ? 10.0 : 0.0;
  for (int t = 1; t < steps; ++t) {
    /* predict: x = F x, P = F P F^T + q I */
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
    /* update with z_t = (x, y) + noise */
    const double s00 = P[0][0] + rn, s01 = P[0][1], s10 = P[1][0], s11 = P[1][1] + rn;
    const double det = s00 * s11 - s01 * s10;
    const double i00 = s11 / det, i01 = -s01 / det, i10 = -s10 / det, i11 = s00 / det;
    double K[4][2];
    for (int a = 0; a < 4; ++a) {
      K[a][0] = P[a][0] * i00 + P[a][1] * i10;
      K[a][1] = P[a][0] * i01 + P[a][1] * i11;
    }
    const long zi = ((long)t * tracks + n) * 2;
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
  for (int a = 0; a < 4; ++a) state[(long)a * tracks + n] = x[a];
  state[4L * tracks + n] = P[0][0] + P[1][1] + P[2][2] + P[3][3];
}

/* ---- XSBench-like macroscopic cross sections ---------------------------------------------
 * For each lookup (energy, material): a binary search of the unionised
 * energy grid, then for every nuclide of the material its grid index from
 * the index grid, a linear interpolation of its 5 cross sections (48-byte
 * records) and a sum weighted by the concentration. */
#define XS_NN 24
#define XS_MATS 12

SP_KERNEL void z_xsbench_lookup(
    SP_GLOBAL const double *SP_RESTRICT egrid, SP_GLOBAL const int *SP_RESTRICT index,
    SP_GLOBAL const double *SP_RESTRICT nuc, SP_GLOBAL const double *SP_RESTRICT conc,
    SP_GLOBAL const double *SP_RESTRICT energy, SP_GLOBAL const int *SP_RESTRICT mat,
    SP_GLOBAL double *SP_RESTRICT out, int lookups, int gpoints, int npoints) {
  const int l = SP_GID(0);
  if (l >= lookups) return;
  const double e = energy[l];
  const int m = mat[l];
  int lo = 0, hi = gpoints - 1;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (egrid[mid] > e)
      hi = mid;
    else
      lo = mid;
  }
  double xs[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
  const int cnt = 4 + (m * 5) % 20;
  for (int k = 0; k < cnt; ++k) {
    const int nn = (m * 7 + k * 5) % XS_NN;
    const int j = index[(long)lo * XS_NN + nn];
    SP_GLOBAL const double *r0 = nuc + ((long)nn * npoints + j) * 6;
    const double f = (e - r0[0]) / (r0[6] - r0[0]);
    const double cc = conc[m * XS_NN + k];
    for (int c = 0; c < 5; ++c) xs[c] += cc * (r0[1 + c] + f * (r0[7 + c] - r0[1 + c]));
  }
  for (int c = 0; c < 5; ++c) out[(long)c * lookups + l] = xs[c];
}

/* ---- two-point angular correlation --------------------------------------------------------
 * Every pair of points on the unit sphere: the cosine of their angle,
 * binned by a binary search over TP_NB - 1 descending edges.  One 256-wide
 * group per 256 points, the other points staged 256 at a time in local
 * memory; 8 local sub-histograms filled by local atomics, then one global
 * atomic per bin and group. */
#define TP_T 256
#define TP_NB 32
#define TP_SUB 8

SP_KERNEL void z_tpacf_pairs(SP_GLOBAL const float *SP_RESTRICT pts,
                             SP_GLOBAL const float *SP_RESTRICT edges,
                             SP_GLOBAL uint *SP_RESTRICT hist, int n) {
  SP_LOCAL float px[TP_T], py[TP_T], pz[TP_T];
  SP_LOCAL float ed[TP_NB];
  SP_LOCAL uint sub[TP_SUB * TP_NB];
  const int t = SP_LID(0), i = SP_GID(0);
  for (int k = t; k < TP_SUB * TP_NB; k += TP_T) sub[k] = 0u;
  if (t < TP_NB - 1) ed[t] = edges[t];
  const float xi = pts[3 * i], yi = pts[3 * i + 1], zi = pts[3 * i + 2];
  const int mine = (t % TP_SUB) * TP_NB;
  for (int j0 = 0; j0 < n; j0 += TP_T) {
    SP_BARRIER();
    px[t] = pts[3 * (j0 + t)];
    py[t] = pts[3 * (j0 + t) + 1];
    pz[t] = pts[3 * (j0 + t) + 2];
    SP_BARRIER();
    for (int k = 0; k < TP_T; ++k) {
      const float d = SP_FMAF(xi, px[k], SP_FMAF(yi, py[k], zi * pz[k]));
      int lo = 0, hi = TP_NB - 1;
      while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (d < ed[mid])
          lo = mid + 1;
        else
          hi = mid;
      }
      SP_ATOMIC_ADD(&sub[mine + lo], 1u);
    }
  }
  SP_BARRIER();
  if (t < TP_NB) {
    uint s = 0u;
    for (int k = 0; k < TP_SUB; ++k) s += sub[k * TP_NB + t];
    SP_ATOMIC_ADD(&hist[t], s);
  }
}

/* ---- 3D colour LUT, trilinear -------------------------------------------------------------
 * Each RGBA8 pixel's colour indexes a LT_N^3 table of RGBA fp32 entries
 * (16 bytes); the 8 surrounding entries are interpolated and the result
 * rounded back to bytes (alpha kept). */
#define LT_N 65

SP_KERNEL void z_lut3d_trilinear(SP_GLOBAL const uint *SP_RESTRICT img,
                                 SP_GLOBAL const float *SP_RESTRICT lut,
                                 SP_GLOBAL uint *SP_RESTRICT out, int n) {
  const int p = SP_GID(0);
  if (p >= n) return;
  const uint px = img[p];
  const float sc = (float)(LT_N - 1) / 255.0f;
  const float fr = (float)(px & 255u) * sc, fg = (float)((px >> 8) & 255u) * sc;
  const float fb = (float)((px >> 16) & 255u) * sc;
  const int r0 = min((int)fr, LT_N - 2), g0 = min((int)fg, LT_N - 2), b0 = min((int)fb, LT_N - 2);
  const float dr = fr - (float)r0, dg = fg - (float)g0, db = fb - (float)b0;
  float acc[3] = {0.0f, 0.0f, 0.0f};
  for (int c = 0; c < 8; ++c) {
    const int ir = r0 + (c & 1), ig = g0 + ((c >> 1) & 1), ib = b0 + (c >> 2);
    const float w = ((c & 1) ? dr : 1.0f - dr) * (((c >> 1) & 1) ? dg : 1.0f - dg) *
                    ((c >> 2) ? db : 1.0f - db);
    SP_GLOBAL const float *e = lut + ((long)(ib * LT_N + ig) * LT_N + ir) * 4;
    for (int k = 0; k < 3; ++k) acc[k] = SP_FMAF(w, e[k], acc[k]);
  }
  uint o = px & 0xff000000u;
  for (int k = 0; k < 3; ++k) {
    const float v = SP_FMINF(SP_FMAXF(acc[k] * 255.0f + 0.5f, 0.0f), 255.0f);
    o |= (uint)v << (8 * k);
  }
  out[p] = o;
}

/* ---- thin-plate-spline RBF evaluation ---------------------------------------------------------
 * s(x) = a0 + a1 x + a2 y + sum_k w_k phi(|x - c_k|), phi(r) = r^2 log r,
 * at TS_T points per group; the centres are staged TS_T at a time in local
 * memory (12 KB). */
#define TS_T 1024

SP_KERNEL void z_rbf_tps_265(SP_GLOBAL const float *SP_RESTRICT pts,
                             SP_GLOBAL const float *SP_RESTRICT ctr,
                             SP_GLOBAL const float *SP_RESTRICT affine,
                             SP_GLOBAL float *SP_RESTRICT out, int centres) {
  SP_LOCAL float cx[TS_T], cy[TS_T], cw[TS_T];
  const int t = SP_LID(0), i = SP_GID(0);
  const float x = pts[2 * i], y = pts[2 * i + 1];
  float acc = 0.0f;
  for (int k0 = 0; k0 < centres; k0 += TS_T) {
    SP_BARRIER();
    cx[t] = ctr[3 * (k0 + t)];
    cy[t] = ctr[3 * (k0 + t) + 1];
    cw[t] = ctr[3 * (k0 + t) + 2];
    SP_BARRIER();
    for (int k = 0; k < TS_T; ++k) {
      const float dx = x - cx[k], dy = y - cy[k];
      const float r2 = SP_FMAF(dx, dx, dy * dy);
      const float phi = r2 > 0.0f ? 0.5f * r2 * SP_LOGF(r2) : 0.0f;
      acc = SP_FMAF(cw[k], phi, acc);
    }
  }
  out[i] = affine[0] + affine[1] * x + affine[2] * y + acc;
}
