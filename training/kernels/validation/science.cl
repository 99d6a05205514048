/* science.cl: scientific kernels in the manner of Rodinia, PolyBench, SHOC
 * and Parboil, written for the validation suite (host half: science.c). */
#include "sp_dev.h"

SP_FN int imin(int a, int b) { return a < b ? a : b; }
SP_FN int imax(int a, int b) { return a > b ? a : b; }

/* ---- hotspot ------------------------------------------------------------
 * Two explicit steps of the chip thermal model per launch with Rodinia's
 * pyramid: a 16x16 work-group loads a 16x16 tile (clamped at the chip edge),
 * the first step updates its inner 14x14, the second its inner 12x12, which
 * is written.  At the chip edge a missing neighbour is the cell itself.
 * Grid ceil(n/12)^2. */
#define HS_STEP(T, P, x, y, gx, gy, n, k)                                     \
  ((T)[y][x] +                                                                \
   (k).cap * ((P)[y][x] +                                                     \
              ((gy > 0 ? (T)[(y)-1][x] : (T)[y][x]) +                         \
               (gy < (n)-1 ? (T)[(y) + 1][x] : (T)[y][x]) - 2.0f * (T)[y][x]) * \
                  (k).ry +                                                    \
              ((gx > 0 ? (T)[y][(x)-1] : (T)[y][x]) +                         \
               (gx < (n)-1 ? (T)[y][(x) + 1] : (T)[y][x]) - 2.0f * (T)[y][x]) * \
                  (k).rx +                                                    \
              ((k).amb - (T)[y][x]) * (k).rz))

typedef struct hs_coef {
  float cap, rx, ry, rz, amb;
} hs_coef;

SP_KERNEL void v_hotspot2(SP_GLOBAL const float *SP_RESTRICT temp,
                          SP_GLOBAL const float *SP_RESTRICT power,
                          SP_GLOBAL float *SP_RESTRICT out, int n, float cap,
                          float rx, float ry, float rz, float amb)
{
  SP_LOCAL float t0[16][16];
  SP_LOCAL float t1[16][16];
  SP_LOCAL float pw[16][16];
  const hs_coef k = {cap, rx, ry, rz, amb};
  const int tx = SP_LID(0), ty = SP_LID(1);
  const int gx = SP_GRP(0) * 12 - 2 + tx, gy = SP_GRP(1) * 12 - 2 + ty;
  const int src = imin(imax(gy, 0), n - 1) * n + imin(imax(gx, 0), n - 1);
  const int inside = gx >= 0 && gx < n && gy >= 0 && gy < n;
  t0[ty][tx] = temp[src];
  pw[ty][tx] = power[src];
  SP_BARRIER();
  const int ring1 = tx >= 1 && tx <= 14 && ty >= 1 && ty <= 14;
  t1[ty][tx] = ring1 && inside ? HS_STEP(t0, pw, tx, ty, gx, gy, n, k) : t0[ty][tx];
  SP_BARRIER();
  if (tx >= 2 && tx <= 13 && ty >= 2 && ty <= 13 && inside)
    out[gy * n + gx] = HS_STEP(t1, pw, tx, ty, gx, gy, n, k);
}

/* ---- heat equation, 3-D -------------------------------------------------
 * One explicit step of the 7-point heat stencil with 2.5-D blocking: a 32x8
 * work-group marches through zc planes, keeping the planes below and above
 * in registers and the current one (with its x/y halo) in local memory.
 * Boundary cells are copied.  Grid (nx/32, ny/8, nz/zc). */
SP_KERNEL void v_heat3d(SP_GLOBAL const float *SP_RESTRICT in,
                        SP_GLOBAL float *SP_RESTRICT out, int nx, int ny,
                        int nz, int zc, float alpha)
{
  SP_LOCAL float pl[8 + 2][32 + 2];
  const int tx = SP_LID(0), ty = SP_LID(1);
  const int x = SP_GRP(0) * 32 + tx, y = SP_GRP(1) * 8 + ty, z0 = SP_GRP(2) * zc;
  const int plane = nx * ny, xy = y * nx + x;
  const int edge_xy = x == 0 || x == nx - 1 || y == 0 || y == ny - 1;
  float below = z0 > 0 ? in[(z0 - 1) * plane + xy] : 0.0f;
  float cur = in[z0 * plane + xy];
  for (int z = z0; z < z0 + zc; ++z) {
    const int i = z * plane + xy;
    const float above = z + 1 < nz ? in[i + plane] : 0.0f;
    pl[ty + 1][tx + 1] = cur;
    if (tx == 0)
      pl[ty + 1][0] = x > 0 ? in[i - 1] : 0.0f;
    if (tx == 31)
      pl[ty + 1][33] = x + 1 < nx ? in[i + 1] : 0.0f;
    if (ty == 0)
      pl[0][tx + 1] = y > 0 ? in[i - nx] : 0.0f;
    if (ty == 7)
      pl[9][tx + 1] = y + 1 < ny ? in[i + nx] : 0.0f;
    SP_BARRIER();
    const float lap = pl[ty][tx + 1] + pl[ty + 2][tx + 1] + pl[ty + 1][tx] +
                      pl[ty + 1][tx + 2] + below + above - 6.0f * cur;
    out[i] = edge_xy || z == 0 || z == nz - 1 ? cur : cur + alpha * lap;
    SP_BARRIER(); /* the plane is read before the next one overwrites it */
    below = cur;
    cur = above;
  }
}

/* ---- Jacobi 2-D, FP64 ---------------------------------------------------
 * PolyBench's jacobi-2d sweep, one work-item per point, global loads only;
 * boundary points are copied. */
SP_KERNEL void v_jacobi2d_f64(SP_GLOBAL const double *SP_RESTRICT a,
                              SP_GLOBAL double *SP_RESTRICT b, int n)
{
  const int x = SP_GID(0), y = SP_GID(1), i = y * n + x;
  if (x >= n || y >= n)
    return;
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1)
    b[i] = a[i];
  else
    b[i] = 0.2 * (a[i] + a[i - 1] + a[i + 1] + a[i - n] + a[i + n]);
}

/* ---- Lennard-Jones forces with a cutoff ---------------------------------
 * All pairs, tiled through local memory 128 particles at a time; pairs
 * beyond the cutoff are skipped (divergent).  Positions and forces are
 * interleaved xyz; epsilon = sigma = 1. */
SP_KERNEL void v_lj_cutoff(SP_GLOBAL const float *SP_RESTRICT pos,
                           SP_GLOBAL float *SP_RESTRICT force, int n, float rc2)
{
  SP_LOCAL float sp[3 * 128];
  const int t = SP_LID(0), i = SP_GID(0);
  const float xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
  float fx = 0.0f, fy = 0.0f, fz = 0.0f;
  for (int j0 = 0; j0 < n; j0 += 128) {
    for (int c = 0; c < 3; ++c)
      sp[c * 128 + t] = pos[3 * j0 + c * 128 + t];
    SP_BARRIER();
    for (int j = 0; j < 128; ++j) {
      const float dx = xi - sp[3 * j], dy = yi - sp[3 * j + 1],
                  dz = zi - sp[3 * j + 2];
      const float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < rc2 && r2 > 0.0f) {
        const float ir2 = 1.0f / r2, ir6 = ir2 * ir2 * ir2;
        const float f = 24.0f * ir2 * ir6 * (2.0f * ir6 - 1.0f);
        fx += f * dx;
        fy += f * dy;
        fz += f * dz;
      }
    }
    SP_BARRIER();
  }
  force[3 * i] = fx;
  force[3 * i + 1] = fy;
  force[3 * i + 2] = fz;
}

/* ---- k-means assignment ---------------------------------------------------
 * Rodinia's layout: features stored feature-major ([KM_D][n]) so that a warp
 * reads consecutive points; the KM_K centroids sit in local memory. */
#define KM_K 32
#define KM_D 16

SP_KERNEL void v_kmeans_assign(SP_GLOBAL const float *SP_RESTRICT feat,
                               SP_GLOBAL const float *SP_RESTRICT cent,
                               SP_GLOBAL uint *SP_RESTRICT member, int n)
{
  SP_LOCAL float cs[KM_K * KM_D];
  const int t = SP_LID(0), i = SP_GID(0);
  for (int e = t; e < KM_K * KM_D; e += SP_LSIZE(0))
    cs[e] = cent[e];
  SP_BARRIER();
  if (i >= n)
    return;
  float x[KM_D];
  for (int d = 0; d < KM_D; ++d)
    x[d] = feat[d * n + i];
  float best = 3.0e38f;
  uint arg = 0;
  for (int c = 0; c < KM_K; ++c) {
    float dist = 0.0f;
    for (int d = 0; d < KM_D; ++d)
      dist += (x[d] - cs[c * KM_D + d]) * (x[d] - cs[c * KM_D + d]);
    if (dist < best) {
      best = dist;
      arg = (uint)c;
    }
  }
  member[i] = arg;
}

/* ---- back-propagation, layer forward ------------------------------------
 * Rodinia's bpnn_layerforward shape: a 16x16 work-group takes 16 inputs and
 * the 16 hidden units, forms weight x input products in local memory and
 * halves them down the input axis; each group writes 16 partial sums. */
SP_KERNEL void v_backprop_forward(SP_GLOBAL const float *SP_RESTRICT input,
                                  SP_GLOBAL const float *SP_RESTRICT w,
                                  SP_GLOBAL float *SP_RESTRICT partial)
{
  SP_LOCAL float in_s[16];
  SP_LOCAL float wm[16][16];
  const int tx = SP_LID(0), ty = SP_LID(1), row = SP_GRP(0) * 16 + ty;
  if (tx == 0)
    in_s[ty] = input[row];
  SP_BARRIER();
  wm[ty][tx] = w[row * 16 + tx] * in_s[ty];
  SP_BARRIER();
  for (int s = 1; s < 16; s *= 2) {
    if (ty % (2 * s) == 0)
      wm[ty][tx] += wm[ty + s][tx];
    SP_BARRIER();
  }
  if (ty == 0)
    partial[SP_GRP(0) * 16 + tx] = wm[0][tx];
}

/* ---- LU trailing update, FP64 -------------------------------------------
 * The rank-32 update of right-looking blocked LU after factoring the panel
 * at column k0: A22 -= L21 U12, in place.  A 16x16 work-group updates a
 * 32x32 tile (2x2 per work-item) with L21 and U12 tiles in local memory.
 * Grid ((n-k0-32)/32)^2. */
SP_KERNEL void v_lu_trailing_f64(SP_GLOBAL double *a, int n, int k0)
{
  SP_LOCAL double ls[32][33];
  SP_LOCAL double us[32][33];
  const int tx = SP_LID(0), ty = SP_LID(1), tid = ty * 16 + tx;
  const int row0 = k0 + 32 + SP_GRP(1) * 32, col0 = k0 + 32 + SP_GRP(0) * 32;
  for (int l = 0; l < 4; ++l) {
    const int e = tid + 256 * l, r = e >> 5, c = e & 31;
    ls[r][c] = a[(row0 + r) * n + k0 + c];
    us[r][c] = a[(k0 + r) * n + col0 + c];
  }
  SP_BARRIER();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const int r = ty + 16 * i, c = tx + 16 * j;
      double s = a[(row0 + r) * n + col0 + c];
      for (int kk = 0; kk < 32; ++kk)
        s -= ls[r][kk] * us[kk][c];
      a[(row0 + r) * n + col0 + c] = s;
    }
}

/* ---- conjugate-gradient update, FP64 ------------------------------------
 * The fused vector part of a CG iteration: x += alpha p, r -= alpha q, and
 * each work-group's share of r.r, grid-stride over a fixed grid. */
SP_KERNEL void v_cg_update_f64(SP_GLOBAL double *SP_RESTRICT x,
                               SP_GLOBAL double *SP_RESTRICT r,
                               SP_GLOBAL const double *SP_RESTRICT p,
                               SP_GLOBAL const double *SP_RESTRICT q,
                               SP_GLOBAL double *SP_RESTRICT partial,
                               double alpha, int n)
{
  SP_LOCAL double red[256];
  const int t = SP_LID(0);
  double s = 0.0;
  for (int i = SP_GID(0); i < n; i += SP_GSIZE(0)) {
    x[i] += alpha * p[i];
    const double ri = r[i] - alpha * q[i];
    r[i] = ri;
    s += ri * ri;
  }
  red[t] = s;
  SP_TREE(red, t, 256, SP_ADD);
  if (t == 0)
    partial[SP_GRP(0)] = red[0];
}

/* ---- Needleman-Wunsch -----------------------------------------------------
 * One block anti-diagonal of the alignment matrix (n+1)^2, tiles of 64x64
 * cells: the Rodinia wavefront, where a launch has only as many work-groups
 * as tiles on its diagonal.  Inside a tile, 64 work-items sweep the 127 cell
 * anti-diagonals with a barrier between them. */
#define NW_T 64

SP_KERNEL void v_nw_diagonal(SP_GLOBAL int *score, SP_GLOBAL const int *sa,
                             SP_GLOBAL const int *sb, int n, int diag, int gap)
{
  SP_LOCAL int s[NW_T + 1][NW_T + 1];
  SP_LOCAL int la[NW_T];
  SP_LOCAL int lb[NW_T];
  const int t = SP_LID(0), tiles = n / NW_T, w = n + 1;
  const int ti = imax(0, diag - (tiles - 1)) + SP_GRP(0), tj = diag - ti;
  const int r0 = ti * NW_T, c0 = tj * NW_T;
  s[0][t + 1] = score[r0 * w + c0 + 1 + t];
  s[t + 1][0] = score[(r0 + 1 + t) * w + c0];
  if (t == 0)
    s[0][0] = score[r0 * w + c0];
  la[t] = sa[r0 + t];
  lb[t] = sb[c0 + t];
  SP_BARRIER();
  for (int d = 0; d < 2 * NW_T - 1; ++d) {
    const int j = d - t;
    if (j >= 0 && j < NW_T) {
      const int m = s[t][j] + (la[t] == lb[j] ? 2 : -1);
      s[t + 1][j + 1] = imax(m, imax(s[t][j + 1], s[t + 1][j]) - gap);
    }
    SP_BARRIER();
  }
  for (int i = 0; i < NW_T; ++i)
    score[(r0 + 1 + i) * w + c0 + 1 + t] = s[i + 1][t + 1];
}

/* ---- pathfinder -----------------------------------------------------------
 * Rodinia's pathfinder: PF_H rows of the minimum-cost path recurrence per
 * launch, each 256-wide work-group producing the 256 - 2 PF_H columns that
 * its pyramid keeps exact.  At the grid edge a missing neighbour is the
 * column itself. */
#define PF_H 20
#define PF_W 256

SP_KERNEL void v_pathfinder(SP_GLOBAL const int *SP_RESTRICT wall,
                            SP_GLOBAL const int *SP_RESTRICT src,
                            SP_GLOBAL int *SP_RESTRICT dst, int cols)
{
  SP_LOCAL int prev[PF_W];
  SP_LOCAL int cur[PF_W];
  const int t = SP_LID(0), c = SP_GRP(0) * (PF_W - 2 * PF_H) - PF_H + t;
  const int valid = c >= 0 && c < cols;
  prev[t] = valid ? src[c] : 0;
  SP_BARRIER();
  for (int h = 0; h < PF_H; ++h) {
    const int live = valid && t > h && t < PF_W - 1 - h;
    if (live) {
      const int left = c > 0 ? prev[t - 1] : prev[t];
      const int right = c < cols - 1 ? prev[t + 1] : prev[t];
      cur[t] = wall[h * cols + c] + imin(prev[t], imin(left, right));
    }
    SP_BARRIER();
    if (live)
      prev[t] = cur[t];
    SP_BARRIER();
  }
  if (valid && t >= PF_H && t < PF_W - PF_H)
    dst[c] = prev[t];
}
