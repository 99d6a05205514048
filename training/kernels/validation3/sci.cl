/* sci.cl: scientific and imaging kernels for the third validation suite
 * (host half: sci.c): an FDTD field update, Rodinia's lavaMD, S3D-like
 * reaction rates, a binomial option tree, Rodinia's CFD fluxes, a particle
 * filter's resampling, batched tridiagonal solves, level-scheduled
 * triangular solves, a Lorenz-96 ensemble and an image resize.  Written for
 * this suite, independently of the core suite and the first two
 * validation suites. */
#include "sp_dev.h"
#include "chem.h"

/* ---- FDTD (Yee) electric-field update -------------------------------------
 * E += curl H on a staggered nx x ny x nz grid (x fastest), each cell's
 * update coefficients looked up from its material id (coef holds the
 * FD_MAT factors of E, then the FD_MAT factors of curl H); H outside the
 * grid is zero.  Reads six fields and a byte per cell, writes three. */
#define FD_MAT 16

SP_KERNEL void x_fdtd3d_yee(SP_GLOBAL float *SP_RESTRICT ex,
                            SP_GLOBAL float *SP_RESTRICT ey,
                            SP_GLOBAL float *SP_RESTRICT ez,
                            SP_GLOBAL const float *SP_RESTRICT hx,
                            SP_GLOBAL const float *SP_RESTRICT hy,
                            SP_GLOBAL const float *SP_RESTRICT hz,
                            SP_GLOBAL const uchar *SP_RESTRICT mat,
                            SP_GLOBAL const float *SP_RESTRICT coef, int nx,
                            int ny)
{
  const int i = SP_GID(0), j = SP_GID(1), k = SP_GID(2);
  const long sy = nx, sz = (long)nx * ny;
  const long e = k * sz + j * sy + i;
  const int m = mat[e];
  const float a = coef[m], b = coef[FD_MAT + m];
  const float hxc = hx[e], hyc = hy[e], hzc = hz[e];
  const float hx_j = j > 0 ? hx[e - sy] : 0.0f, hx_k = k > 0 ? hx[e - sz] : 0.0f;
  const float hy_i = i > 0 ? hy[e - 1] : 0.0f, hy_k = k > 0 ? hy[e - sz] : 0.0f;
  const float hz_i = i > 0 ? hz[e - 1] : 0.0f, hz_j = j > 0 ? hz[e - sy] : 0.0f;
  ex[e] = a * ex[e] + b * ((hzc - hz_j) - (hyc - hy_k));
  ey[e] = a * ey[e] + b * ((hxc - hx_k) - (hzc - hz_i));
  ez[e] = a * ez[e] + b * ((hyc - hy_i) - (hxc - hx_j));
}

/* ---- lavaMD ------------------------------------------------------------------
 * Particles sorted into an nb^3 grid of boxes, LV_NP per box.  One
 * work-group per home box, a work-item per home particle: the particles of
 * each of the (up to) 27 neighbouring boxes are staged in local memory and
 * every pair interacts through exp(-a2 r^2) (potential and force, weighted
 * by the neighbour's charge), as in Rodinia's lavaMD. */
#define LV_NP 128

SP_KERNEL void x_lavamd(SP_GLOBAL const float *SP_RESTRICT px,
                        SP_GLOBAL const float *SP_RESTRICT py,
                        SP_GLOBAL const float *SP_RESTRICT pz,
                        SP_GLOBAL const float *SP_RESTRICT pq,
                        SP_GLOBAL float *SP_RESTRICT fv,
                        SP_GLOBAL float *SP_RESTRICT fx,
                        SP_GLOBAL float *SP_RESTRICT fy,
                        SP_GLOBAL float *SP_RESTRICT fz, int nb, float a2)
{
  SP_LOCAL float sx[LV_NP], sy[LV_NP], sz[LV_NP], sq[LV_NP];
  const int t = SP_LID(0), box = SP_GRP(0);
  const int bx = box % nb, by = box / nb % nb, bz = box / (nb * nb);
  const long i = (long)box * LV_NP + t;
  const float xi = px[i], yi = py[i], zi = pz[i];
  float av = 0.0f, ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int cx = bx + dx, cy = by + dy, cz = bz + dz;
        if (cx < 0 || cx >= nb || cy < 0 || cy >= nb || cz < 0 || cz >= nb)
          continue; /* the same for the whole group */
        const long j0 = ((long)(cz * nb + cy) * nb + cx) * LV_NP;
        SP_BARRIER();
        sx[t] = px[j0 + t];
        sy[t] = py[j0 + t];
        sz[t] = pz[j0 + t];
        sq[t] = pq[j0 + t];
        SP_BARRIER();
        for (int j = 0; j < LV_NP; ++j) {
          const float ddx = xi - sx[j], ddy = yi - sy[j], ddz = zi - sz[j];
          const float r2 = ddx * ddx + ddy * ddy + ddz * ddz;
          const float vij = SP_EXPF(-a2 * r2);
          const float fs = 2.0f * vij * sq[j];
          av = SP_FMAF(sq[j], vij, av);
          ax = SP_FMAF(fs, ddx, ax);
          ay = SP_FMAF(fs, ddy, ay);
          az = SP_FMAF(fs, ddz, az);
        }
      }
  fv[i] = av;
  fx[i] = ax;
  fy[i] = ay;
  fz[i] = az;
}

/* ---- S3D-like reaction rates ------------------------------------------------
 * Per grid point: concentrations from the mass fractions, each species'
 * Gibbs energy, then for every reaction of chem.h a forward rate
 * (Arrhenius, one exp) and a reverse rate (one more exp), and the net rate
 * added to the production of its four species.  Straight-line code
 * expanded from the mechanism's lists, as generated chemistry is. */
#define CH_LOAD(s, wt, ga, gb, gc)                                             \
  const float y##s = yf[(long)(s) * n + i];                                    \
  syw += y##s * (1.0f / (wt));
#define CH_SPEC(s, wt, ga, gb, gc)                                             \
  const float cc##s = rho * y##s * (1.0f / (wt));                              \
  const float gg##s = (ga) * (1.0f - lnt) + (gb) * tk + (gc) * invt;           \
  float wd##s = 0.0f;
#define CH_REACT(a, b, c, d, lna, beta, eor)                                   \
  {                                                                            \
    const float kf = SP_EXPF((lna) + (beta) * lnt - (eor) * invt);             \
    const float kr = kf * SP_EXPF(gg##a + gg##b - gg##c - gg##d);              \
    const float q = kf * cc##a * cc##b - kr * cc##c * cc##d;                   \
    wd##a -= q;                                                                \
    wd##b -= q;                                                                \
    wd##c += q;                                                                \
    wd##d += q;                                                                \
  }
#define CH_STORE(s, wt, ga, gb, gc) wdot[(long)(s) * n + i] = wd##s;

SP_KERNEL void x_chem_rates(SP_GLOBAL const float *SP_RESTRICT temp,
                            SP_GLOBAL const float *SP_RESTRICT pres,
                            SP_GLOBAL const float *SP_RESTRICT yf,
                            SP_GLOBAL float *SP_RESTRICT wdot, int n)
{
  const int i = SP_GID(0);
  if (i >= n)
    return;
  const float tk = temp[i], lnt = SP_LOGF(tk), invt = 1.0f / tk;
  float syw = 0.0f;
  CHEM_SPECIES(CH_LOAD)
  const float rho = pres[i] / (tk * syw);
  CHEM_SPECIES(CH_SPEC)
  CHEM_REACTIONS(CH_REACT)
  CHEM_SPECIES(CH_STORE)
}

/* ---- binomial American put ----------------------------------------------------
 * One option per 1024-wide work-group: the CRR tree's BN_N + 1 leaf values
 * in local memory, then BN_N backward steps, each a discounted expectation
 * against early exercise (the stock price at a node from one exp), with a
 * barrier between reading a step and overwriting it. */
#define BN_N 2048
#define BN_T 1024

SP_KERNEL void x_binomial(SP_GLOBAL const float *SP_RESTRICT s0,
                          SP_GLOBAL const float *SP_RESTRICT strike,
                          SP_GLOBAL const float *SP_RESTRICT pud,
                          SP_GLOBAL const float *SP_RESTRICT pdd,
                          SP_GLOBAL const float *SP_RESTRICT lnu,
                          SP_GLOBAL float *SP_RESTRICT price)
{
  SP_LOCAL float v[BN_N + 1];
  const int t = SP_LID(0), o = SP_GRP(0);
  const float s = s0[o], k = strike[o], pu = pud[o], pd = pdd[o], lu = lnu[o];
  for (int i = t; i <= BN_N; i += BN_T)
    v[i] = SP_FMAXF(k - s * SP_EXPF((float)(2 * i - BN_N) * lu), 0.0f);
  SP_BARRIER();
  for (int step = BN_N - 1; step >= 0; --step) {
    float nv[2];
    for (int r = 0; r < 2; ++r) {
      const int i = t + r * BN_T;
      nv[r] = 0.0f;
      if (i <= step) {
        const float cont = pu * v[i + 1] + pd * v[i];
        const float ex = k - s * SP_EXPF((float)(2 * i - step) * lu);
        nv[r] = SP_FMAXF(cont, ex);
      }
    }
    SP_BARRIER();
    for (int r = 0; r < 2; ++r)
      if (t + r * BN_T <= step)
        v[t + r * BN_T] = nv[r];
    SP_BARRIER();
  }
  if (t == 0)
    price[o] = v[0];
}

/* ---- CFD Euler fluxes ------------------------------------------------------------
 * Rodinia cfd's compute_flux: per cell, the flux through each of its four
 * faces from the cell's and the neighbour's conserved variables (density,
 * momentum, energy; SoA), with artificial smoothing; a neighbour index of
 * -1 is a wall, -2 the far field.  Normals are per face, SoA. */
#define CF_GAMMA 1.4f
#define CF_SMOOTH 0.2f
#define CF_NNB 4

SP_FN float cf_pressure(float rho, float e, float sp2)
{
  return (CF_GAMMA - 1.0f) * (e - 0.5f * rho * sp2);
}

SP_KERNEL void x_cfd_flux(SP_GLOBAL const float *SP_RESTRICT var,
                          SP_GLOBAL const int *SP_RESTRICT nbr,
                          SP_GLOBAL const float *SP_RESTRICT nrm,
                          SP_GLOBAL const float *SP_RESTRICT ff,
                          SP_GLOBAL float *SP_RESTRICT flux, int n)
{
  const int i = SP_GID(0);
  if (i >= n)
    return;
  const float rho = var[i], mx = var[n + i], my = var[2 * n + i];
  const float mz = var[3 * n + i], en = var[4 * n + i];
  const float vx = mx / rho, vy = my / rho, vz = mz / rho;
  const float sp2 = vx * vx + vy * vy + vz * vz;
  const float p = cf_pressure(rho, en, sp2);
  const float c = SP_SQRTF(CF_GAMMA * p / rho);
  /* flux contributions: momentum rows and density-energy */
  const float fxx = mx * vx + p, fxy = mx * vy, fxz = mx * vz;
  const float fyy = my * vy + p, fyz = my * vz, fzz = mz * vz + p;
  const float fex = vx * (en + p), fey = vy * (en + p), fez = vz * (en + p);
  float frho = 0.0f, fmx = 0.0f, fmy = 0.0f, fmz = 0.0f, fen = 0.0f;
  for (int j = 0; j < CF_NNB; ++j) {
    const int nb = nbr[j * n + i];
    const float nx = nrm[(3 * j) * n + i], ny = nrm[(3 * j + 1) * n + i];
    const float nz = nrm[(3 * j + 2) * n + i];
    const float len = SP_SQRTF(nx * nx + ny * ny + nz * nz);
    if (nb >= 0 || nb == -2) {
      float r2, x2, y2, z2, e2;
      if (nb >= 0) {
        r2 = var[nb];
        x2 = var[n + nb];
        y2 = var[2 * n + nb];
        z2 = var[3 * n + nb];
        e2 = var[4 * n + nb];
      } else {
        r2 = ff[0];
        x2 = ff[1];
        y2 = ff[2];
        z2 = ff[3];
        e2 = ff[4];
      }
      const float ux = x2 / r2, uy = y2 / r2, uz = z2 / r2;
      const float s2 = ux * ux + uy * uy + uz * uz;
      const float p2 = cf_pressure(r2, e2, s2);
      const float c2 = SP_SQRTF(CF_GAMMA * p2 / r2);
      float fct = -len * CF_SMOOTH * 0.5f *
                  (SP_SQRTF(sp2) + SP_SQRTF(s2) + c + c2);
      frho += fct * (rho - r2);
      fen += fct * (en - e2);
      fmx += fct * (mx - x2);
      fmy += fct * (my - y2);
      fmz += fct * (mz - z2);
      const float gx = x2 * ux + p2, gxy = x2 * uy, gxz = x2 * uz;
      const float gy = y2 * uy + p2, gyz = y2 * uz, gz = z2 * uz + p2;
      const float gex = ux * (e2 + p2), gey = uy * (e2 + p2);
      const float gez = uz * (e2 + p2);
      fct = 0.5f * nx;
      frho += fct * (x2 + mx);
      fen += fct * (gex + fex);
      fmx += fct * (gx + fxx);
      fmy += fct * (gxy + fxy);
      fmz += fct * (gxz + fxz);
      fct = 0.5f * ny;
      frho += fct * (y2 + my);
      fen += fct * (gey + fey);
      fmx += fct * (gxy + fxy);
      fmy += fct * (gy + fyy);
      fmz += fct * (gyz + fyz);
      fct = 0.5f * nz;
      frho += fct * (z2 + mz);
      fen += fct * (gez + fez);
      fmx += fct * (gxz + fxz);
      fmy += fct * (gyz + fyz);
      fmz += fct * (gz + fzz);
    } else { /* wall: pressure only */
      fmx += nx * p;
      fmy += ny * p;
      fmz += nz * p;
    }
  }
  flux[i] = frho;
  flux[n + i] = fmx;
  flux[2 * n + i] = fmy;
  flux[3 * n + i] = fmz;
  flux[4 * n + i] = fen;
}

/* ---- particle-filter resampling ----------------------------------------------
 * Systematic resampling as Rodinia's particlefilter does it: particle j of
 * a filter draws u = u0 + j / np and takes the first particle whose
 * cumulative weight reaches u, found by a linear search from the start of
 * the CDF (so later particles search longer), then copies its position. */
SP_KERNEL void x_pf_resample(SP_GLOBAL const float *SP_RESTRICT cdf,
                             SP_GLOBAL const float *SP_RESTRICT u0,
                             SP_GLOBAL const float *SP_RESTRICT xs,
                             SP_GLOBAL const float *SP_RESTRICT ys,
                             SP_GLOBAL int *SP_RESTRICT idx,
                             SP_GLOBAL float *SP_RESTRICT xo,
                             SP_GLOBAL float *SP_RESTRICT yo, int np,
                             int total)
{
  const int id = SP_GID(0);
  if (id >= total)
    return;
  const int f = id / np, j = id % np;
  const float u = u0[f] + (float)j * (1.0f / (float)np);
  SP_GLOBAL const float *c = cdf + (long)f * np;
  int at = -1;
  for (int x = 0; x < np; ++x)
    if (c[x] >= u) {
      at = x;
      break;
    }
  if (at < 0)
    at = np - 1;
  idx[id] = at;
  xo[id] = xs[(long)f * np + at];
  yo[id] = ys[(long)f * np + at];
}

/* ---- batched tridiagonal solves ----------------------------------------------
 * Thomas algorithm, one work-item per system, systems interleaved
 * (element i of system s at i * ns + s, so a warp's loads coalesce); the
 * forward sweep stores the modified coefficients, the backward sweep reads
 * them back. */
SP_KERNEL void x_thomas(SP_GLOBAL const float *SP_RESTRICT a,
                        SP_GLOBAL const float *SP_RESTRICT b,
                        SP_GLOBAL const float *SP_RESTRICT c,
                        SP_GLOBAL const float *SP_RESTRICT d,
                        SP_GLOBAL float *SP_RESTRICT cp,
                        SP_GLOBAL float *SP_RESTRICT dp,
                        SP_GLOBAL float *SP_RESTRICT x, int n, int ns)
{
  const int s = SP_GID(0);
  if (s >= ns)
    return;
  float cprev = 0.0f, dprev = 0.0f;
  for (int i = 0; i < n; ++i) {
    const long e = (long)i * ns + s;
    const float ai = i > 0 ? a[e] : 0.0f;
    const float m = 1.0f / (b[e] - ai * cprev);
    cprev = c[e] * m;
    dprev = (d[e] - ai * dprev) * m;
    cp[e] = cprev;
    dp[e] = dprev;
  }
  float xn = dprev;
  x[(long)(n - 1) * ns + s] = xn;
  for (int i = n - 2; i >= 0; --i) {
    const long e = (long)i * ns + s;
    xn = dp[e] - cp[e] * xn;
    x[e] = xn;
  }
}

/* ---- level-scheduled sparse triangular solves ---------------------------------
 * L x = b for each of a batch of subdomains (block-Jacobi), L in CSR with
 * its diagonal apart (diag_rhs: the diagonal of all rows, then b); the rows of a subdomain are grouped into levels
 * whose rows depend only on earlier levels.  One work-group per
 * subdomain walks its levels, a work-item per row of a level, with a
 * barrier between levels (x is read back from global memory). */
#define TS_T 256

SP_KERNEL void x_sptrsv(SP_GLOBAL const int *SP_RESTRICT rowptr,
                        SP_GLOBAL const int *SP_RESTRICT col,
                        SP_GLOBAL const float *SP_RESTRICT val,
                        SP_GLOBAL const float *SP_RESTRICT diag_rhs,
                        SP_GLOBAL const int *SP_RESTRICT lvl_off,
                        SP_GLOBAL const int *SP_RESTRICT lvl_ptr,
                        SP_GLOBAL const int *SP_RESTRICT lvl_rows,
                        SP_GLOBAL float *SP_RESTRICT x, int n, int rows)
{
  const int t = SP_LID(0), sd = SP_GRP(0);
  const long base = (long)sd * n;
  const int l0 = lvl_off[sd], l1 = lvl_off[sd + 1];
  for (int l = l0; l < l1; ++l) {
    const int hi = lvl_ptr[l + 1];
    for (int k = lvl_ptr[l] + t; k < hi; k += TS_T) {
      const long row = base + lvl_rows[k];
      float sum = diag_rhs[rows + row];
      for (int e = rowptr[row]; e < rowptr[row + 1]; ++e)
        sum -= val[e] * x[base + col[e]];
      x[row] = sum / diag_rhs[row];
    }
    SP_BARRIER_GLOBAL();
  }
}

/* ---- Lorenz-96 ensemble ----------------------------------------------------------
 * dX_i/dt = (X_{i+1} - X_{i-2}) X_{i-1} - X_i + F, cyclic in L96_N
 * variables, integrated by classic RK4 for `steps` steps; one ensemble
 * member per work-item, its state and the stage arrays in registers (the
 * loops unroll completely), members interleaved in memory. */
#define L96_N 40
#define L96_F 8.0f

SP_FN void l96_rhs(const float *y, float *k)
{
#pragma unroll
  for (int i = 0; i < L96_N; ++i)
    k[i] = (y[(i + 1) % L96_N] - y[(i + L96_N - 2) % L96_N]) *
               y[(i + L96_N - 1) % L96_N] -
           y[i] + L96_F;
}

SP_KERNEL void x_lorenz96(SP_GLOBAL const float *SP_RESTRICT x0,
                          SP_GLOBAL float *SP_RESTRICT x1, int members,
                          int steps, float dt)
{
  const int m = SP_GID(0);
  if (m >= members)
    return;
  float x[L96_N], y[L96_N], k[L96_N], acc[L96_N];
#pragma unroll
  for (int i = 0; i < L96_N; ++i)
    x[i] = x0[(long)i * members + m];
  for (int s = 0; s < steps; ++s) {
    l96_rhs(x, k);
#pragma unroll
    for (int i = 0; i < L96_N; ++i) {
      acc[i] = k[i];
      y[i] = x[i] + 0.5f * dt * k[i];
    }
    l96_rhs(y, k);
#pragma unroll
    for (int i = 0; i < L96_N; ++i) {
      acc[i] += 2.0f * k[i];
      y[i] = x[i] + 0.5f * dt * k[i];
    }
    l96_rhs(y, k);
#pragma unroll
    for (int i = 0; i < L96_N; ++i) {
      acc[i] += 2.0f * k[i];
      y[i] = x[i] + dt * k[i];
    }
    l96_rhs(y, k);
#pragma unroll
    for (int i = 0; i < L96_N; ++i)
      x[i] += dt * (1.0f / 6.0f) * (acc[i] + k[i]);
  }
#pragma unroll
  for (int i = 0; i < L96_N; ++i)
    x1[(long)i * members + m] = x[i];
}

/* ---- bilinear resize + normalise ----------------------------------------------
 * A batch of RGB8 images (HWC) resized to ow x oh (half-pixel centres, as
 * align_corners = false), scaled to [0, 1], normalised per channel with
 * ImageNet's mean and deviation and written planar (CHW) as floats: a
 * data loader's preprocessing.  One work-item per output pixel. */
SP_FN float rs_norm(float v, int ch)
{
  const float mean = ch == 0 ? 0.485f : ch == 1 ? 0.456f : 0.406f;
  const float inv = ch == 0 ? 1.0f / 0.229f : ch == 1 ? 1.0f / 0.224f : 1.0f / 0.225f;
  return (v * (1.0f / 255.0f) - mean) * inv;
}

SP_KERNEL void x_resize(SP_GLOBAL const uchar *SP_RESTRICT in,
                        SP_GLOBAL float *SP_RESTRICT out, int w, int h, int ow,
                        int oh, float scx, float scy)
{
  const int ox = SP_GID(0), oy = SP_GID(1), b = SP_GID(2);
  if (ox >= ow || oy >= oh)
    return;
  const float sx = SP_FMAXF(((float)ox + 0.5f) * scx - 0.5f, 0.0f);
  const float sy = SP_FMAXF(((float)oy + 0.5f) * scy - 0.5f, 0.0f);
  const int x0 = (int)sx, y0 = (int)sy;
  const int x1 = x0 + 1 < w ? x0 + 1 : w - 1, y1 = y0 + 1 < h ? y0 + 1 : h - 1;
  const float fx = sx - (float)x0, fy = sy - (float)y0;
  SP_GLOBAL const uchar *img = in + (long)b * h * w * 3;
  const long r0 = (long)y0 * w * 3, r1 = (long)y1 * w * 3;
  for (int ch = 0; ch < 3; ++ch) {
    const float p00 = img[r0 + x0 * 3 + ch], p01 = img[r0 + x1 * 3 + ch];
    const float p10 = img[r1 + x0 * 3 + ch], p11 = img[r1 + x1 * 3 + ch];
    const float top = p00 + fx * (p01 - p00), bot = p10 + fx * (p11 - p10);
    out[(((long)b * 3 + ch) * oh + oy) * ow + ox] =
        rs_norm(top + fy * (bot - top), ch);
  }
}
