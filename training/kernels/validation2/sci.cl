/* sci.cl: scientific and imaging kernels for the second validation suite
 * (host half: sci.c): a lattice-Boltzmann step, SRAD, MRI-Q, a
 * covariance matrix in FP64, Monte-Carlo Asian options with Philox, an
 * 8th-order wave-equation stencil, a small-batch RNN and a bilateral
 * filter.  Fresh implementations of the public algorithms (Parboil lbm and
 * mri-q, Rodinia srad, PolyBench covariance), written for this suite. */
#include "sp_dev.h"

/* ---- lattice Boltzmann D2Q9 ------------------------------------------------
 * One BGK collide-and-stream step in pull form on an nx x ny periodic
 * lattice, structure-of-arrays (f[q][y][x]).  Obstacle cells (solid != 0)
 * bounce back: they return each pulled population in the opposite
 * direction.  9 loads and 9 stores of 4 bytes per cell. */
SP_KERNEL void w_lbm_d2q9(SP_GLOBAL const float *SP_RESTRICT fin,
                          SP_GLOBAL float *SP_RESTRICT fout,
                          SP_GLOBAL const uchar *SP_RESTRICT solid, int nx,
                          int ny, float omega)
{
  const int x = SP_GID(0), y = SP_GID(1);
  if (x >= nx || y >= ny)
    return;
  const int LB_EX[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
  const int LB_EY[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
  const int LB_OPP[9] = {0, 3, 4, 1, 2, 7, 8, 5, 6};
  const float LB_W[9] = {4.0f / 9, 1.0f / 9, 1.0f / 9, 1.0f / 9, 1.0f / 9,
                         1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36};
  const int plane = nx * ny, c = y * nx + x;
  float f[9];
  for (int q = 0; q < 9; ++q) {
    int sx = x - LB_EX[q], sy = y - LB_EY[q];
    sx = sx < 0 ? sx + nx : sx >= nx ? sx - nx : sx;
    sy = sy < 0 ? sy + ny : sy >= ny ? sy - ny : sy;
    f[q] = fin[q * plane + sy * nx + sx];
  }
  if (solid[c]) {
    for (int q = 0; q < 9; ++q)
      fout[LB_OPP[q] * plane + c] = f[q];
    return;
  }
  float rho = 0.0f, ux = 0.0f, uy = 0.0f;
  for (int q = 0; q < 9; ++q) {
    rho += f[q];
    ux += f[q] * (float)LB_EX[q];
    uy += f[q] * (float)LB_EY[q];
  }
  ux /= rho;
  uy /= rho;
  const float usq = 1.5f * (ux * ux + uy * uy);
  for (int q = 0; q < 9; ++q) {
    const float eu = 3.0f * ((float)LB_EX[q] * ux + (float)LB_EY[q] * uy);
    const float feq = LB_W[q] * rho * (1.0f + eu + 0.5f * eu * eu - usq);
    fout[q * plane + c] = f[q] - omega * (f[q] - feq);
  }
}

/* ---- SRAD ---------------------------------------------------------------
 * Speckle-reducing anisotropic diffusion, first half of an iteration
 * (Rodinia srad): the four one-sided differences of J and the diffusion
 * coefficient, with clamped borders.  One image read (neighbours through
 * the caches), five images written. */
SP_KERNEL void w_srad_coeff(SP_GLOBAL const float *SP_RESTRICT j,
                            SP_GLOBAL float *SP_RESTRICT dn,
                            SP_GLOBAL float *SP_RESTRICT ds,
                            SP_GLOBAL float *SP_RESTRICT dw,
                            SP_GLOBAL float *SP_RESTRICT de,
                            SP_GLOBAL float *SP_RESTRICT cc, int rows,
                            int cols, float q0sqr)
{
  const int x = SP_GID(0), y = SP_GID(1);
  if (x >= cols || y >= rows)
    return;
  const int k = y * cols + x;
  const float jc = j[k];
  const float n = j[(y > 0 ? y - 1 : 0) * cols + x] - jc;
  const float s = j[(y < rows - 1 ? y + 1 : y) * cols + x] - jc;
  const float w = j[y * cols + (x > 0 ? x - 1 : 0)] - jc;
  const float e = j[y * cols + (x < cols - 1 ? x + 1 : x)] - jc;
  const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  const float l = (n + s + w + e) / jc;
  const float num = 0.5f * g2 - 0.0625f * l * l;
  float den = 1.0f + 0.25f * l;
  const float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float c = 1.0f / (1.0f + den);
  c = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c;
  dn[k] = n;
  ds[k] = s;
  dw[k] = w;
  de[k] = e;
  cc[k] = c;
}

/* ---- MRI-Q ----------------------------------------------------------------
 * Q(x) = sum_k |phi_k|^2 (cos, sin)(2 pi k.x) over all k-space samples, one
 * voxel per work-item, the samples staged through local memory in chunks
 * of the work-group size (Parboil mri-q's ComputeQ).  ks holds the arrays
 * kx, ky, kz and |phi|^2 one after the other, xs the arrays x, y, z. */
#define MQ_T 256

SP_KERNEL void w_mriq(SP_GLOBAL const float *SP_RESTRICT ks,
                      SP_GLOBAL const float *SP_RESTRICT xs,
                      SP_GLOBAL float *SP_RESTRICT qr,
                      SP_GLOBAL float *SP_RESTRICT qi, int numk, int numx)
{
  SP_LOCAL float sk[4][MQ_T];
  const int t = SP_LID(0), v = SP_GID(0);
  const float px = xs[v], py = xs[numx + v], pz = xs[2 * numx + v];
  float ar = 0.0f, ai = 0.0f;
  for (int k0 = 0; k0 < numk; k0 += MQ_T) {
    SP_BARRIER();
    for (int c = 0; c < 4; ++c)
      sk[c][t] = ks[c * numk + k0 + t];
    SP_BARRIER();
    for (int k = 0; k < MQ_T; ++k) {
      const float arg = 6.2831853071795864769f *
                        (sk[0][k] * px + sk[1][k] * py + sk[2][k] * pz);
      ar += sk[3][k] * SP_COSF(arg);
      ai += sk[3][k] * SP_SINF(arg);
    }
  }
  qr[v] = ar;
  qi[v] = ai;
}

/* ---- covariance (FP64) -----------------------------------------------------
 * cov = D^T D / (n - 1) for centred data D (n observations x m variables,
 * row-major), PolyBench covariance's last kernel.  A 16x16 work-group owns
 * a 64x64 tile of cov, 4x4 doubles per work-item; only tiles on or above
 * the diagonal compute, and each writes its mirror too.  Both operand tiles
 * are rows of D, staged 16 observations at a time. */
#define CV_T 64
#define CV_K 16

SP_KERNEL void w_covariance(SP_GLOBAL const double *SP_RESTRICT dat,
                            SP_GLOBAL double *SP_RESTRICT cov, int n, int m)
{
  SP_LOCAL double ai[CV_K][CV_T];
  SP_LOCAL double aj[CV_K][CV_T];
  const int bi = SP_GRP(1), bj = SP_GRP(0);
  if (bj < bi)
    return; /* below the diagonal: the mirror of another tile */
  const int tx = SP_LID(0), ty = SP_LID(1), tid = ty * 16 + tx;
  const int i0 = bi * CV_T, j0 = bj * CV_T;
  double acc[4][4];
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      acc[a][b] = 0.0;
  for (int k0 = 0; k0 < n; k0 += CV_K) {
    for (int l = 0; l < 4; ++l) {
      const int e = tid + 256 * l, r = e / CV_T, c = e % CV_T;
      ai[r][c] = dat[(k0 + r) * m + i0 + c];
      aj[r][c] = dat[(k0 + r) * m + j0 + c];
    }
    SP_BARRIER();
    for (int k = 0; k < CV_K; ++k) {
      double va[4], vb[4];
      for (int a = 0; a < 4; ++a) {
        va[a] = ai[k][ty + 16 * a];
        vb[a] = aj[k][tx + 16 * a];
      }
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          acc[a][b] = fma(va[a], vb[b], acc[a][b]);
    }
    SP_BARRIER();
  }
  const double inv = 1.0 / (double)(n - 1);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const int i = i0 + ty + 16 * a, jj = j0 + tx + 16 * b;
      const double v = acc[a][b] * inv;
      cov[i * m + jj] = v;
      cov[jj * m + i] = v;
    }
}

/* ---- Monte-Carlo Asian options with Philox --------------------------------
 * Each work-item prices npath arithmetic-average Asian call paths of
 * nstep steps under geometric Brownian motion.  Normals come from
 * Philox4x32-10 (counter: work-item, path, step block) through Box-Muller;
 * the work-item's summed payoff is written out. */
#define PH_M0 0xD2511F53u
#define PH_M1 0xCD9E8D57u
#define PH_W0 0x9E3779B9u
#define PH_W1 0xBB67AE85u

SP_KERNEL void w_philox_asian(SP_GLOBAL float *SP_RESTRICT payoff, int npath,
                              int nstep, float s0, float strike, float drift,
                              float vol, uint seed)
{
  const int id = SP_GID(0);
  float total = 0.0f;
  for (int p = 0; p < npath; ++p) {
    float s = s0, sum = 0.0f;
    for (int st = 0; st < nstep; st += 4) {
      uint c0 = (uint)id, c1 = (uint)p, c2 = (uint)st, c3 = 0x5eedu;
      uint k0 = seed, k1 = seed ^ 0xA5A5A5A5u;
      for (int r = 0; r < 10; ++r) {
        const uint h0 = SP_MULHI(PH_M0, c0), l0 = PH_M0 * c0;
        const uint h1 = SP_MULHI(PH_M1, c2), l1 = PH_M1 * c2;
        c0 = h1 ^ c1 ^ k0;
        c1 = l1;
        c2 = h0 ^ c3 ^ k1;
        c3 = l0;
        k0 += PH_W0;
        k1 += PH_W1;
      }
      /* Uniforms in (0, 1]: 24 bits each, as the host does. */
      const float u0 = (float)((c0 >> 8) + 1u) * (1.0f / 16777216.0f);
      const float u1 = (float)((c1 >> 8) + 1u) * (1.0f / 16777216.0f);
      const float u2 = (float)((c2 >> 8) + 1u) * (1.0f / 16777216.0f);
      const float u3 = (float)((c3 >> 8) + 1u) * (1.0f / 16777216.0f);
      const float r0 = SP_SQRTF(-2.0f * SP_LOGF(u0)), a0 = 6.2831853f * u1;
      const float r1 = SP_SQRTF(-2.0f * SP_LOGF(u2)), a1 = 6.2831853f * u3;
      float z[4];
      z[0] = r0 * SP_COSF(a0);
      z[1] = r0 * SP_SINF(a0);
      z[2] = r1 * SP_COSF(a1);
      z[3] = r1 * SP_SINF(a1);
      for (int j = 0; j < 4; ++j) {
        s *= SP_EXPF(drift + vol * z[j]);
        sum += s;
      }
    }
    const float avg = sum / (float)nstep;
    total += avg > strike ? avg - strike : 0.0f;
  }
  payoff[id] = total;
}

/* ---- 8th-order acoustic wave step (reverse-time-migration kernel) ---------
 * next = 2 p - prev + vel * lap8(p) on an nx x ny x nz grid, 25-point star
 * Laplacian of radius 4.  A 32x32 work-group marches along z, each
 * work-item keeping its column's nine z-values in registers; x and y
 * neighbours are read through the caches.  Cells within 4 of a border get
 * 0. */
#define RT_R 4

SP_KERNEL void w_rtm_step(SP_GLOBAL const float *SP_RESTRICT p,
                          SP_GLOBAL const float *SP_RESTRICT prev,
                          SP_GLOBAL const float *SP_RESTRICT vel,
                          SP_GLOBAL float *SP_RESTRICT next, int nx, int ny,
                          int nz, float c0, float c1, float c2, float c3,
                          float c4)
{
  const int x = SP_GID(0), y = SP_GID(1);
  const int plane = nx * ny, col = y * nx + x;
  const int inner = x >= RT_R && x < nx - RT_R && y >= RT_R && y < ny - RT_R;
  float zq[2 * RT_R + 1];
  /* zq[i] holds p at z - RT_R + i; before the first shift, z = -1. */
  for (int i = 0; i < 2 * RT_R; ++i)
    zq[i + 1] = inner && i >= RT_R ? p[(i - RT_R) * plane + col] : 0.0f;
  for (int z = 0; z < nz; ++z) {
    for (int i = 0; i < 2 * RT_R; ++i)
      zq[i] = zq[i + 1];
    const int zr = z + RT_R;
    zq[2 * RT_R] = inner && zr < nz ? p[zr * plane + col] : 0.0f;
    const int idx = z * plane + col;
    if (!inner || z < RT_R || z >= nz - RT_R) {
      next[idx] = 0.0f;
      continue;
    }
    const float pc = zq[RT_R];
    float lap = 3.0f * c0 * pc;
    lap += c1 * (zq[RT_R - 1] + zq[RT_R + 1] + p[idx - 1] + p[idx + 1] +
                 p[idx - nx] + p[idx + nx]);
    lap += c2 * (zq[RT_R - 2] + zq[RT_R + 2] + p[idx - 2] + p[idx + 2] +
                 p[idx - 2 * nx] + p[idx + 2 * nx]);
    lap += c3 * (zq[RT_R - 3] + zq[RT_R + 3] + p[idx - 3] + p[idx + 3] +
                 p[idx - 3 * nx] + p[idx + 3 * nx]);
    lap += c4 * (zq[RT_R - 4] + zq[RT_R + 4] + p[idx - 4] + p[idx + 4] +
                 p[idx - 4 * nx] + p[idx + 4 * nx]);
    next[idx] = 2.0f * pc - prev[idx] + vel[idx] * lap;
  }
}

/* ---- small-batch RNN -------------------------------------------------------
 * h_t = tanh(W h_{t-1} + xp_t) for one sequence per work-group (a batch of
 * 40: fewer groups than SMs), hidden size 256 = one work-item per unit.  W
 * is stored transposed (wt[k][j]) so each step's 256 x 256 product reads it
 * coalesced, from L2 and L1; xp ([batch][steps][256]) is the input
 * projection computed beforehand.  Every h_t is written. */
#define RN_H 256

SP_KERNEL void w_rnn_tanh(SP_GLOBAL const float *SP_RESTRICT wt,
                          SP_GLOBAL const float *SP_RESTRICT xp,
                          SP_GLOBAL float *SP_RESTRICT hout, int steps)
{
  SP_LOCAL float h[RN_H];
  const int j = SP_LID(0);
  const long base = (long)SP_GRP(0) * steps * RN_H;
  h[j] = 0.0f;
  for (int t = 0; t < steps; ++t) {
    SP_BARRIER();
    float a0 = xp[base + (long)t * RN_H + j], a1 = 0.0f;
    for (int k = 0; k < RN_H; k += 2) {
      a0 = SP_FMAF(wt[k * RN_H + j], h[k], a0);
      a1 = SP_FMAF(wt[(k + 1) * RN_H + j], h[k + 1], a1);
    }
    const float a = a0 + a1;
    const float th = 1.0f - 2.0f / (SP_EXPF(2.0f * a) + 1.0f);
    SP_BARRIER();
    h[j] = th;
    hout[base + (long)t * RN_H + j] = th;
  }
}

/* ---- bilateral filter --------------------------------------------------------
 * 5x5 bilateral filter (spatial sigma 2, range weight exp(-d^2 * rw)) of a
 * batch of images, one 1024-wide work-group per image walking its pixels;
 * borders clamp. */
#define BL_R 2

SP_KERNEL void w_bilateral(SP_GLOBAL const float *SP_RESTRICT in,
                           SP_GLOBAL float *SP_RESTRICT out, int w, int h,
                           float rw)
{
  SP_LOCAL float sw[2 * BL_R + 1][2 * BL_R + 1];
  const int t = SP_LID(0);
  if (t < (2 * BL_R + 1) * (2 * BL_R + 1)) {
    const int dy = t / (2 * BL_R + 1) - BL_R, dx = t % (2 * BL_R + 1) - BL_R;
    sw[dy + BL_R][dx + BL_R] = SP_EXPF(-(float)(dx * dx + dy * dy) / 8.0f);
  }
  SP_BARRIER();
  const long img = (long)SP_GRP(0) * w * h;
  for (int px = t; px < w * h; px += SP_LSIZE(0)) {
    const int x = px % w, y = px / w;
    const float c = in[img + px];
    float num = 0.0f, den = 0.0f;
    for (int dy = -BL_R; dy <= BL_R; ++dy) {
      int yy = y + dy;
      yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
      for (int dx = -BL_R; dx <= BL_R; ++dx) {
        int xx = x + dx;
        xx = xx < 0 ? 0 : xx >= w ? w - 1 : xx;
        const float v = in[img + yy * w + xx], d = v - c;
        const float wt = sw[dy + BL_R][dx + BL_R] * SP_EXPF(-d * d * rw);
        num += wt * v;
        den += wt;
      }
    }
    out[img + px] = num / den;
  }
}
