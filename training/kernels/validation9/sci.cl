/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.cl: scientific kernels of the ninth validation suite (host half:
 * sci.c): SPH density summation over a cell list, Kepler's equation by
 * Newton's method in FP64, SSD anchor-box decoding, ICP point-to-plane
 * normal equations, Householder QR in local memory, and P1 finite-element
 * stiffness assembly by atomics.  Written for this suite, independently of
 * the core suite and the earlier validation suites. */
#include "sp_dev.h"

/* ---- SPH density summation ----------------------------------------------------------------------
 * Particles (x, y, z, mass) are sorted by the cell of side h that holds
 * them (cells x-fastest, cstart[c] .. cstart[c + 1] per cell); particle i's
 * density is the sum over the 27 cells around its own of m_j W(|r_ij|, h),
 * W Monaghan's cubic spline of support h: sigma (1 - 6 q^2 + 6 q^3) for
 * q = r / h <= 1/2, sigma 2 (1 - q)^3 up to 1, sigma = 8 / (pi h^3). */
SP_KERNEL void t_sph_density_cells(SP_GLOBAL const float *SP_RESTRICT pos,
                                   SP_GLOBAL const int *SP_RESTRICT cstart,
                                   SP_GLOBAL float *SP_RESTRICT rho, int n, int gx, int gy, int gz,
                                   float h) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const float xi = pos[4 * (long)i], yi = pos[4 * (long)i + 1], zi = pos[4 * (long)i + 2];
  const float inv_h = 1.0f / h, h2 = h * h;
  const int cx = (int)(xi * inv_h), cy = (int)(yi * inv_h), cz = (int)(zi * inv_h);
  float acc = 0.0f;
  for (int z = cz - 1; z <= cz + 1; ++z) {
    if (z < 0 || z >= gz) continue;
    for (int y = cy - 1; y <= cy + 1; ++y) {
      if (y < 0 || y >= gy) continue;
      const int row = (z * gy + y) * gx;
      const int x0 = cx > 0 ? cx - 1 : 0, x1 = cx + 1 < gx ? cx + 1 : gx - 1;
      const int b = cstart[row + x0], e = cstart[row + x1 + 1]; /* the row's cells are adjacent */
      for (int j = b; j < e; ++j) {
        const float dx = pos[4 * (long)j] - xi, dy = pos[4 * (long)j + 1] - yi;
        const float dz = pos[4 * (long)j + 2] - zi, r2 = dx * dx + dy * dy + dz * dz;
        if (r2 >= h2) continue;
        const float q = SP_SQRTF(r2) * inv_h, u = 1.0f - q;
        const float w = q <= 0.5f ? 1.0f - 6.0f * q * q * u : 2.0f * u * u * u;
        acc += pos[4 * (long)j + 3] * w;
      }
    }
  }
  rho[i] = acc * (8.0f / 3.14159265358979f) * inv_h * inv_h * inv_h;
}

/* ---- Kepler's equation, FP64 --------------------------------------------------------------------
 * Object o (el[4 o ..]: semi-major axis a, eccentricity e, mean anomaly at
 * epoch M0, mean motion nm) at epoch k (time k dt): M = M0 + nm k dt (mod
 * 2 pi), E - e sin E = M by Newton's method from Danby's start M + 0.85 e
 * sign(sin M) until the step falls under 1e-14 (at most 30 steps), and the
 * position in the orbital plane a (cos E - e), a sqrt(1 - e^2) sin E.  A
 * work-item per object and epoch. */
#define KP_TWO_PI 6.283185307179586

SP_KERNEL void t_kepler_newton_f64(SP_GLOBAL const double *SP_RESTRICT el,
                                   SP_GLOBAL double *SP_RESTRICT xy, int nobj, int nep, double dt) {
  const int g = SP_GID(0);
  if (g >= nobj * nep) return;
  SP_GLOBAL const double *p = el + 4 * (long)(g / nep);
  const double a = p[0], e = p[1];
  double m = fmod(p[2] + p[3] * (double)(g % nep) * dt, KP_TWO_PI);
  if (m < 0.0) m += KP_TWO_PI;
  double ea = m + (sin(m) >= 0.0 ? 0.85 : -0.85) * e;
  for (int it = 0; it < 30; ++it) {
    const double step = (ea - e * sin(ea) - m) / (1.0 - e * cos(ea));
    ea -= step;
    if (fabs(step) < 1e-14) break;
  }
  xy[2 * (long)g] = a * (cos(ea) - e);
  xy[2 * (long)g + 1] = a * sqrt(1.0 - e * e) * sin(ea);
}

/* ---- SSD anchor-box decoding --------------------------------------------------------------------
 * The TensorFlow Object Detection API's box coder (scales 10, 10, 5, 5) on
 * each anchor (centre y, x, height, width) and its predicted offsets (ty,
 * tx, th, tw): centre + t / 10 * size, size * exp(t / 5), as corners
 * clipped to [0, 1]; then the best of the nclass - 1 foreground logits and
 * its sigmoid.  out per anchor: ymin, xmin, ymax, xmax, score, class. */
SP_KERNEL void t_ssd_box_decode(SP_GLOBAL const float *SP_RESTRICT anchors,
                                SP_GLOBAL const float *SP_RESTRICT loc,
                                SP_GLOBAL const float *SP_RESTRICT logits,
                                SP_GLOBAL float *SP_RESTRICT out, int na, int nclass) {
  const int i = SP_GID(0);
  if (i >= na) return;
  SP_GLOBAL const float *an = anchors + 4 * i, *t = loc + 4 * i;
  const float yc = t[0] * 0.1f * an[2] + an[0], xc = t[1] * 0.1f * an[3] + an[1];
  const float hh = 0.5f * SP_EXPF(t[2] * 0.2f) * an[2], hw = 0.5f * SP_EXPF(t[3] * 0.2f) * an[3];
  SP_GLOBAL const float *lg = logits + (long)i * nclass;
  float best = lg[1];
  int cls = 1;
  for (int c = 2; c < nclass; ++c)
    if (lg[c] > best) {
      best = lg[c];
      cls = c;
    }
  SP_GLOBAL float *o = out + 6 * i;
  o[0] = SP_FMINF(SP_FMAXF(yc - hh, 0.0f), 1.0f);
  o[1] = SP_FMINF(SP_FMAXF(xc - hw, 0.0f), 1.0f);
  o[2] = SP_FMINF(SP_FMAXF(yc + hh, 0.0f), 1.0f);
  o[3] = SP_FMINF(SP_FMAXF(xc + hw, 0.0f), 1.0f);
  o[4] = 1.0f / (1.0f + SP_EXPF(-best));
  o[5] = (float)cls;
}

/* ---- ICP point-to-plane normal equations --------------------------------------------------------
 * For each correspondence (source point p, destination point q, normal n:
 * nine floats) the linearised residual r = (p - q) . n and its Jacobian
 * J = (p x n, n); one group of IC_G sums J^T J (upper triangle, 21), J^T r
 * (6) and r^2 into 28 floats: partial sums per work-item, folded into the
 * first 256 through local memory, then a tree of 8 steps for all 28. */
#define IC_G 1024
#define IC_S 28

SP_KERNEL SP_BOUNDS(IC_G) void t_icp_normal_eq(SP_GLOBAL const float *SP_RESTRICT corr,
                                              SP_GLOBAL float *SP_RESTRICT out, int n) {
  SP_LOCAL float red[IC_S * 256];
  const int t = SP_LID(0);
  float acc[IC_S];
  for (int s = 0; s < IC_S; ++s) acc[s] = 0.0f;
  for (int k = t; k < n; k += IC_G) {
    SP_GLOBAL const float *c = corr + 9 * (long)k;
    const float px = c[0], py = c[1], pz = c[2], nx = c[6], ny = c[7], nz = c[8];
    const float r = (px - c[3]) * nx + (py - c[4]) * ny + (pz - c[5]) * nz;
    float j[6];
    j[0] = py * nz - pz * ny;
    j[1] = pz * nx - px * nz;
    j[2] = px * ny - py * nx;
    j[3] = nx;
    j[4] = ny;
    j[5] = nz;
    int s = 0;
    for (int a = 0; a < 6; ++a)
      for (int b = a; b < 6; ++b) acc[s++] += j[a] * j[b];
    for (int a = 0; a < 6; ++a) acc[21 + a] += j[a] * r;
    acc[27] += r * r;
  }
  for (int q = 1; q < IC_G / 256; ++q) {
    if (t / 256 == q)
      for (int s = 0; s < IC_S; ++s) red[s * 256 + t % 256] = acc[s];
    SP_BARRIER();
    if (t < 256)
      for (int s = 0; s < IC_S; ++s) acc[s] += red[s * 256 + t];
    SP_BARRIER();
  }
  if (t < 256)
    for (int s = 0; s < IC_S; ++s) red[s * 256 + t] = acc[s];
  SP_BARRIER();
  for (int h = 128; h > 0; h >>= 1) {
    if (t < h)
      for (int s = 0; s < IC_S; ++s) red[s * 256 + t] += red[s * 256 + t + h];
    SP_BARRIER();
  }
  if (t < IC_S) out[t] = red[t * 256];
}

/* ---- Householder QR in local memory -------------------------------------------------------------
 * Group g factors matrices g per .. g per + per - 1 in turn, each QR_M x QR_N
 * (row-major, 32 KB) held in local memory, and stores R (the upper QR_N x
 * QR_N triangle, zeros below).  Column k: the dots d_j = x . A[k:, j] of its
 * subcolumn x with every later column (4 work-items per column), then
 * alpha = -sign(x_0) |x|, v = x - alpha e_0, and A[k:, j] -= beta v (v .
 * A[k:, j]) with v . A[k:, j] = d_j - alpha A[k][j], beta = 2 / v . v:
 * three barriers per column. */
#define QR_M 128
#define QR_N 64

SP_KERNEL SP_BOUNDS(256) void t_qr_householder_48(SP_GLOBAL const float *SP_RESTRICT a,
                                                 SP_GLOBAL float *SP_RESTRICT r, int per) {
  SP_LOCAL float am[QR_M * QR_N], part[4 * QR_N], wv[QR_N], av[2];
  const int t = SP_LID(0), col = t % QR_N, quarter = t / QR_N;
  for (int mat = SP_GRP(0) * per; mat < (SP_GRP(0) + 1) * per; ++mat) {
    SP_GLOBAL const float *src = a + (long)mat * QR_M * QR_N;
    for (int e = t; e < QR_M * QR_N; e += 256) am[e] = src[e];
    SP_BARRIER();
    for (int k = 0; k < QR_N; ++k) {
      if (col >= k) {
        float s = 0.0f;
        for (int i = k + quarter; i < QR_M; i += 4) s += am[i * QR_N + k] * am[i * QR_N + col];
        part[quarter * QR_N + col] = s;
      }
      SP_BARRIER();
      if (t >= k && t < QR_N) {
        const float dk = (part[k] + part[QR_N + k]) + (part[2 * QR_N + k] + part[3 * QR_N + k]);
        const float dj = (part[t] + part[QR_N + t]) + (part[2 * QR_N + t] + part[3 * QR_N + t]);
        const float x0 = am[k * QR_N + k], alpha = x0 >= 0.0f ? -SP_SQRTF(dk) : SP_SQRTF(dk);
        const float vtv = 2.0f * alpha * (alpha - x0);
        const float beta = vtv > 0.0f ? 2.0f / vtv : 0.0f;
        wv[t] = beta * (dj - alpha * am[k * QR_N + t]);
        if (t == k) {
          av[0] = alpha;
          av[1] = x0 - alpha;
        }
      }
      SP_BARRIER();
      for (int e = t; e < (QR_M - k) * QR_N; e += 256) {
        const int i = k + e / QR_N, j = e % QR_N;
        if (j <= k) continue;
        const float vi = i == k ? av[1] : am[i * QR_N + k];
        am[i * QR_N + j] -= vi * wv[j];
      }
      if (t == 0) am[k * QR_N + k] = av[0];
      SP_BARRIER();
    }
    SP_GLOBAL float *dst = r + (long)mat * QR_N * QR_N;
    for (int e = t; e < QR_N * QR_N; e += 256) dst[e] = e % QR_N >= e / QR_N ? am[e] : 0.0f;
    SP_BARRIER();
  }
}

/* ---- P1 finite-element stiffness assembly -------------------------------------------------------
 * Triangle e (vertices tri[3 e ..], integer coordinates xy, conductivity
 * kap[e]) adds kap (b_i b_j + c_i c_j) / (4 area) to the 9 entries of the
 * global CSR matrix at slot[9 e ..] (precomputed by the host), b_i =
 * y_{i+1} - y_{i+2}, c_i = x_{i+2} - x_{i+1}.  Values are fixed point (13
 * fractional bits, integer division as the host does it) added by 32-bit
 * atomics: each diagonal entry takes six, each edge two. */
SP_KERNEL void t_fem_p1_assemble(SP_GLOBAL const int *SP_RESTRICT tri,
                                 SP_GLOBAL const int *SP_RESTRICT slot,
                                 SP_GLOBAL const int *SP_RESTRICT xy,
                                 SP_GLOBAL const int *SP_RESTRICT kap,
                                 SP_GLOBAL uint *SP_RESTRICT val, int ntri) {
  const int e = SP_GID(0);
  if (e >= ntri) return;
  int x[3], y[3], b[3], c[3];
  for (int k = 0; k < 3; ++k) {
    const int v = tri[3 * (long)e + k];
    x[k] = xy[2 * (long)v];
    y[k] = xy[2 * (long)v + 1];
  }
  for (int k = 0; k < 3; ++k) {
    b[k] = y[(k + 1) % 3] - y[(k + 2) % 3];
    c[k] = x[(k + 2) % 3] - x[(k + 1) % 3];
  }
  const int det2 = 2 * ((x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]));
  const int kp = kap[e];
  SP_GLOBAL const int *sl = slot + 9 * (long)e;
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) {
      const int q = (kp * (b[i] * b[j] + c[i] * c[j]) * 8192) / det2;
      SP_ATOMIC_ADD(val + sl[3 * i + j], (uint)q);
      if (j != i) SP_ATOMIC_ADD(val + sl[3 * j + i], (uint)q);
    }
}
