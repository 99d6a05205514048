/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.cl: scientific kernels of the tenth validation suite (host half:
 * sci.c): the upper incomplete gamma function in FP64, 3 x 3 symmetric
 * eigenvalues by Jacobi rotations, marching-cubes classification,
 * triangle rasterisation by atomic min, Bezier flattening and the
 * log-determinant by LU with partial pivoting.  Written for this suite,
 * independently of the core suite and the earlier validation suites. */
#include "sp_dev.h"

/* ---- the regularised upper incomplete gamma function --------------------------------------------
 * Q(a, x) as in Numerical Recipes' gammq (Cephes' igamc): for x < a + 1 the
 * series of P(a, x), Q = 1 - P; else the continued fraction by the modified
 * Lentz method.  Both run until the term is below 1e-15 of the sum (at most
 * 500 steps), so the trip count depends on the arguments. */
#define IG_EPS 1e-15
#define IG_TINY 1e-300

SP_KERNEL void u_igamc_lentz_f64(SP_GLOBAL const double *SP_RESTRICT av,
                                 SP_GLOBAL const double *SP_RESTRICT xv,
                                 SP_GLOBAL double *SP_RESTRICT q, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const double a = av[i], x = xv[i];
  const double front = exp(-x + a * log(x) - lgamma(a));
  if (x < a + 1.0) {
    double ap = a, del = 1.0 / a, sum = del;
    for (int k = 0; k < 500; ++k) {
      ap += 1.0;
      del *= x / ap;
      sum += del;
      if (fabs(del) < fabs(sum) * IG_EPS) break;
    }
    q[i] = 1.0 - sum * front;
    return;
  }
  double b = x + 1.0 - a, c = 1.0 / IG_TINY, d = 1.0 / b, h = d;
  for (int k = 1; k <= 500; ++k) {
    const double an = -k * (k - a);
    b += 2.0;
    d = an * d + b;
    d = fabs(d) < IG_TINY ? IG_TINY : d;
    c = b + an / c;
    c = fabs(c) < IG_TINY ? IG_TINY : c;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (fabs(del - 1.0) < IG_EPS) break;
  }
  q[i] = front * h;
}

/* ---- symmetric 3 x 3 eigenvalues ----------------------------------------------------------------
 * Five cyclic Jacobi sweeps (pairs (0,1), (0,2), (1,2)) over a symmetric
 * matrix given by its upper triangle (a00 a01 a02 a11 a12 a22); each
 * rotation takes the smaller angle, t = sgn(theta) / (|theta| +
 * sqrt(theta^2 + 1)).  The diagonal, sorted ascending, is stored. */
SP_FN void u_jrot(float m[3][3], int p, int q) {
  const float apq = m[p][q];
  if (SP_FABSF(apq) < 1e-30f) return;
  const float th = (m[q][q] - m[p][p]) / (2.0f * apq);
  const float t = (th < 0.0f ? -1.0f : 1.0f) / (SP_FABSF(th) + SP_SQRTF(th * th + 1.0f));
  const float c = 1.0f / SP_SQRTF(t * t + 1.0f), s = t * c;
  const int r = 3 - p - q;
  const float arp = m[r][p], arq = m[r][q];
  m[r][p] = m[p][r] = c * arp - s * arq;
  m[r][q] = m[q][r] = s * arp + c * arq;
  m[p][p] -= t * apq;
  m[q][q] += t * apq;
  m[p][q] = m[q][p] = 0.0f;
}

SP_KERNEL void u_jacobi_eig3_sym(SP_GLOBAL const float *SP_RESTRICT in,
                                 SP_GLOBAL float *SP_RESTRICT ev, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  SP_GLOBAL const float *e = in + 6 * (long)i;
  float m[3][3];
  m[0][0] = e[0];
  m[0][1] = m[1][0] = e[1];
  m[0][2] = m[2][0] = e[2];
  m[1][1] = e[3];
  m[1][2] = m[2][1] = e[4];
  m[2][2] = e[5];
  for (int sweep = 0; sweep < 5; ++sweep) {
    u_jrot(m, 0, 1);
    u_jrot(m, 0, 2);
    u_jrot(m, 1, 2);
  }
  float l0 = m[0][0], l1 = m[1][1], l2 = m[2][2], t;
  if (l1 < l0) { t = l0; l0 = l1; l1 = t; }
  if (l2 < l1) { t = l1; l1 = l2; l2 = t; }
  if (l1 < l0) { t = l0; l0 = l1; l1 = t; }
  ev[3 * (long)i] = l0;
  ev[3 * (long)i + 1] = l1;
  ev[3 * (long)i + 2] = l2;
}

/* ---- marching-cubes classification --------------------------------------------------------------
 * For the cube whose lowest corner is voxel (x, y, z) of an n^3 8-bit
 * volume: at each of 8 isovalues (16, 48, ..., 240) the cube's 12 edges
 * that the surface crosses (corner values on both sides), summed, stored as
 * one byte (0 on the last layer, which starts no cube).  The corners are
 * 1-byte loads that neighbouring work-items share through L1 and L2. */
SP_KERNEL void u_mcubes_classify_l2(SP_GLOBAL const uchar *SP_RESTRICT vol,
                                    SP_GLOBAL uchar *SP_RESTRICT cnt, int n) {
  const int g = SP_GID(0);
  if (g >= n * n * n) return;
  const int x = g % n, y = (g / n) % n, z = g / (n * n);
  if (x == n - 1 || y == n - 1 || z == n - 1) {
    cnt[g] = (uchar)0;
    return;
  }
  const int sy = n, sz = n * n;
  int c[8];
  c[0] = vol[g];
  c[1] = vol[g + 1];
  c[2] = vol[g + 1 + sy];
  c[3] = vol[g + sy];
  c[4] = vol[g + sz];
  c[5] = vol[g + 1 + sz];
  c[6] = vol[g + 1 + sy + sz];
  c[7] = vol[g + sy + sz];
  int total = 0;
  for (int k = 0; k < 8; ++k) {
    const int iso = 32 * k + 16;
    uint bits = 0u;
    for (int v = 0; v < 8; ++v) bits |= (uint)(c[v] < iso) << v;
    const uint e = (bits ^ (bits >> 1)) & 0x77u; /* 0-1 1-2 2-3, 4-5 5-6 6-7 */
    const uint r = (bits ^ (bits >> 3)) & 0x11u; /* 3-0, 7-4 */
    const uint vt = (bits ^ (bits >> 4)) & 0x0Fu; /* the vertical edges */
    total += SP_POPCOUNT(e) + SP_POPCOUNT(r) + SP_POPCOUNT(vt);
  }
  cnt[g] = (uchar)total;
}

/* ---- rasterisation into a visibility buffer -----------------------------------------------------
 * Triangle t (tri[8 t ..]: three vertices in half-pixel units, counter-
 * clockwise, then its depth) covers pixel (px, py) when the sample point
 * (2 px + 1, 2 py + 1) is on the inner side of all three edges (integer edge
 * functions, >= 0).  Each covered pixel gets atomic_min(depth << 21 | t):
 * the nearest triangle, the lowest index on ties, whatever the order.  A
 * work-item per triangle walks its bounding box; a few large triangles are
 * the long items. */
SP_FN int u_edge(int ax, int ay, int bx, int by, int px, int py) {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

SP_KERNEL void u_raster_zbuf_atomicmin(SP_GLOBAL const int *SP_RESTRICT tri,
                                       SP_GLOBAL uint *SP_RESTRICT fb, int ntri, int w, int h) {
  const int t = SP_GID(0);
  if (t >= ntri) return;
  SP_GLOBAL const int *v = tri + 8 * (long)t;
  const int x0 = v[0], y0 = v[1], x1 = v[2], y1 = v[3], x2 = v[4], y2 = v[5];
  const uint key = ((uint)v[6] << 21) | (uint)t;
  const int lx = x0 < x1 ? (x0 < x2 ? x0 : x2) : (x1 < x2 ? x1 : x2);
  const int hx = x0 > x1 ? (x0 > x2 ? x0 : x2) : (x1 > x2 ? x1 : x2);
  const int ly = y0 < y1 ? (y0 < y2 ? y0 : y2) : (y1 < y2 ? y1 : y2);
  const int hy = y0 > y1 ? (y0 > y2 ? y0 : y2) : (y1 > y2 ? y1 : y2);
  const int px0 = lx / 2 > 0 ? lx / 2 : 0, px1 = hx / 2 < w - 1 ? hx / 2 : w - 1;
  const int py0 = ly / 2 > 0 ? ly / 2 : 0, py1 = hy / 2 < h - 1 ? hy / 2 : h - 1;
  for (int py = py0; py <= py1; ++py)
    for (int px = px0; px <= px1; ++px) {
      const int sx = 2 * px + 1, sy = 2 * py + 1;
      if (u_edge(x0, y0, x1, y1, sx, sy) >= 0 && u_edge(x1, y1, x2, y2, sx, sy) >= 0 &&
          u_edge(x2, y2, x0, y0, sx, sy) >= 0)
        SP_ATOMIC_MIN(&fb[(long)py * w + px], key);
    }
}

/* ---- Bezier flattening --------------------------------------------------------------------------
 * Point i (of BZ_P) of cubic Bezier curve c by de Casteljau's construction
 * at t = i / (BZ_P - 1): three rounds of linear interpolation. */
#define BZ_P 32

SP_FN float u_lerp(float a, float b, float t) { return a + t * (b - a); }

SP_KERNEL SP_BOUNDS(256) void u_bezier_flatten_tiny(SP_GLOBAL const float *SP_RESTRICT ctl,
                                                   SP_GLOBAL float *SP_RESTRICT pts, int ncurve) {
  const int g = SP_GID(0), c = g / BZ_P;
  if (c >= ncurve) return;
  const float t = (float)(g % BZ_P) / (float)(BZ_P - 1);
  SP_GLOBAL const float *p = ctl + 8 * c;
  for (int k = 0; k < 2; ++k) {
    const float a = u_lerp(p[k], p[2 + k], t), b = u_lerp(p[2 + k], p[4 + k], t);
    const float cc = u_lerp(p[4 + k], p[6 + k], t);
    const float ab = u_lerp(a, b, t), bc = u_lerp(b, cc, t);
    pts[2 * g + k] = u_lerp(ab, bc, t);
  }
}

/* ---- log-determinant by LU with partial pivoting ------------------------------------------------
 * Each group of LU_G factors per matrices of LU_N x LU_N in turn, held in
 * local memory (rows padded to LU_N + 1): per column the pivot (the largest
 * magnitude, the first on ties) by one work-item, the row swap, the
 * multipliers, the trailing update, a barrier after each.  out gets
 * log |det| and the sign (+1 or -1) of each matrix. */
#define LU_N 64
#define LU_LD (LU_N + 1)
#define LU_G 256

SP_KERNEL SP_BOUNDS(LU_G) void u_lu_slogdet_40(SP_GLOBAL const float *SP_RESTRICT mats,
                                              SP_GLOBAL float *SP_RESTRICT out, int per) {
  SP_LOCAL float a[LU_N * LU_LD];
  SP_LOCAL float mag[LU_N];
  SP_LOCAL int piv;
  const int t = SP_LID(0);
  for (int m = SP_GRP(0) * per; m < (SP_GRP(0) + 1) * per; ++m) {
    SP_GLOBAL const float *src = mats + (long)m * LU_N * LU_N;
    for (int e = t; e < LU_N * LU_N; e += LU_G) a[(e / LU_N) * LU_LD + e % LU_N] = src[e];
    float logabs = 0.0f, sign = 1.0f;
    SP_BARRIER();
    for (int k = 0; k < LU_N; ++k) {
      if (t < LU_N) mag[t] = t >= k ? SP_FABSF(a[t * LU_LD + k]) : -1.0f;
      SP_BARRIER();
      if (t == 0) {
        int p = k;
        for (int i = k + 1; i < LU_N; ++i) p = mag[i] > mag[p] ? i : p;
        piv = p;
      }
      SP_BARRIER();
      const int p = piv;
      if (p != k && t < LU_N) {
        const float tmp = a[k * LU_LD + t];
        a[k * LU_LD + t] = a[p * LU_LD + t];
        a[p * LU_LD + t] = tmp;
      }
      SP_BARRIER();
      const float pv = a[k * LU_LD + k];
      logabs += SP_LOGF(SP_FABSF(pv));
      sign = (p != k) != (pv < 0.0f) ? -sign : sign;
      if (t > k && t < LU_N) a[t * LU_LD + k] /= pv;
      SP_BARRIER();
      const int rest = LU_N - 1 - k;
      for (int e = t; e < rest * rest; e += LU_G) {
        const int i = k + 1 + e / rest, j = k + 1 + e % rest;
        a[i * LU_LD + j] -= a[i * LU_LD + k] * a[k * LU_LD + j];
      }
      SP_BARRIER();
    }
    if (t == 0) {
      out[2 * (long)m] = logabs;
      out[2 * (long)m + 1] = sign;
    }
  }
}
