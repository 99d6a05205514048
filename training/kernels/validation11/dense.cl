/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dense.cl: register-tiled products and grids of a few waves of the
 * eleventh validation suite (host half: dense.c): PolyBench's symm, an
 * xGPU-style correlator, a min-plus product and Lomb-Scargle periodograms.
 * Written for this suite, independently of the core suite and the earlier
 * validation suites. */
#include "sp_dev.h"

/* ---- symm ---------------------------------------------------------------------------------------
 * PolyBench's symm: D = alpha A B + beta C with A (m x m) symmetric and only
 * its lower triangle stored (A(i, k) read as a[i][k] for k <= i, else as
 * a[k][i]), B and C m x n.  A group of 256 work-items (16 x 16) per 64 x 64 tile
 * of D, each work-item 4 x 4 outputs (rows ty + 16 a, columns tx + 16 b) in
 * registers; K steps of 16 through local tiles, the A tile loaded k-fastest
 * (coalesced below the diagonal, strided above it). */
#define SY_T 64
#define SY_K 16

SP_KERNEL SP_BOUNDS(256) void k_symm_reg4x4(SP_GLOBAL const float *SP_RESTRICT a,
                                            SP_GLOBAL const float *SP_RESTRICT b,
                                            SP_GLOBAL const float *SP_RESTRICT c,
                                            SP_GLOBAL float *SP_RESTRICT dst, int m, int n,
                                            float alpha, float beta) {
  SP_LOCAL float as[SY_K][SY_T];
  SP_LOCAL float bs[SY_K][SY_T];
  const int tid = SP_LID(0), tx = tid % 16, ty = tid / 16;
  const int i0 = SP_GRP(1) * SY_T, j0 = SP_GRP(0) * SY_T;
  float acc[4][4];
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q) acc[p][q] = 0.0f;
  for (int k0 = 0; k0 < m; k0 += SY_K) {
    for (int e = tid; e < SY_K * SY_T; e += 256) {
      const int kk = e % SY_K, ii = e / SY_K, i = i0 + ii, k = k0 + kk;
      as[kk][ii] = k <= i ? a[(long)i * m + k] : a[(long)k * m + i];
      const int jj = e % SY_T, kb = e / SY_T;
      bs[kb][jj] = b[(long)(k0 + kb) * n + j0 + jj];
    }
    SP_BARRIER();
#pragma unroll
    for (int kk = 0; kk < SY_K; ++kk) {
      float av[4], bv[4];
#pragma unroll
      for (int p = 0; p < 4; ++p) av[p] = as[kk][ty + 16 * p];
#pragma unroll
      for (int q = 0; q < 4; ++q) bv[q] = bs[kk][tx + 16 * q];
#pragma unroll
      for (int p = 0; p < 4; ++p)
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[p][q] = SP_FMAF(av[p], bv[q], acc[p][q]);
    }
    SP_BARRIER();
  }
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const long at = (long)(i0 + ty + 16 * p) * n + j0 + tx + 16 * q;
      dst[at] = alpha * acc[p][q] + beta * c[at];
    }
}

/* ---- correlator ---------------------------------------------------------------------------------
 * The X engine of a radio correlator as xGPU computes it: for each channel
 * f, the visibilities V[i][j] = sum_t x_i(t) conj(x_j(t)) of every pair of
 * inputs j <= i (a Hermitian rank-T update).  Samples are 4-bit complex, one
 * byte each (real part in the high nibble, imaginary in the low one, two's
 * complement), laid out x[f][t][input].  A group of 16 x 16 per 64 x 64
 * tile of the lower triangle (nt (nt + 1) / 2 tiles per channel), each
 * work-item 4 x 4 complex accumulators; 16 samples at a time through local
 * memory, converted to float as they are staged.  Output: the packed lower
 * triangle (i (i + 1) / 2 + j) of each channel, complex (re, im). */
#define XC_T 64
#define XC_K 16

SP_FN float k_nib(uint v) { return (float)((int)(v & 15u) - (int)((v & 8u) << 1)); }

SP_KERNEL SP_BOUNDS(256) void k_xgpu_corr_4bit(SP_GLOBAL const uchar *SP_RESTRICT x,
                                               SP_GLOBAL float *SP_RESTRICT vis, int ninp,
                                               int nsamp) {
  SP_LOCAL float ir[XC_K][XC_T], ii[XC_K][XC_T], jr[XC_K][XC_T], ji[XC_K][XC_T];
  const int tid = SP_LID(0), tx = tid % 16, ty = tid / 16;
  const int nt = ninp / XC_T, ntri = nt * (nt + 1) / 2;
  const int f = SP_GRP(0) / ntri;
  int tri = SP_GRP(0) % ntri, ti = 0;
  while (tri > ti) {
    tri -= ti + 1;
    ++ti;
  }
  const int tj = tri, i0 = ti * XC_T, j0 = tj * XC_T;
  float ar[4][4], ai[4][4];
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q) ar[p][q] = ai[p][q] = 0.0f;
  SP_GLOBAL const uchar *xf = x + (long)f * nsamp * ninp;
  for (int t0 = 0; t0 < nsamp; t0 += XC_K) {
    for (int e = tid; e < XC_K * XC_T; e += 256) {
      const int s = e / XC_T, k = e % XC_T;
      const uint vi = xf[(long)(t0 + s) * ninp + i0 + k], vj = xf[(long)(t0 + s) * ninp + j0 + k];
      ir[s][k] = k_nib(vi >> 4);
      ii[s][k] = k_nib(vi);
      jr[s][k] = k_nib(vj >> 4);
      ji[s][k] = k_nib(vj);
    }
    SP_BARRIER();
#pragma unroll
    for (int s = 0; s < XC_K; ++s) {
      float pr[4], pi[4], qr[4], qi[4];
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        pr[p] = ir[s][ty + 16 * p];
        pi[p] = ii[s][ty + 16 * p];
      }
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        qr[q] = jr[s][tx + 16 * q];
        qi[q] = ji[s][tx + 16 * q];
      }
#pragma unroll
      for (int p = 0; p < 4; ++p)
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          ar[p][q] = SP_FMAF(pr[p], qr[q], SP_FMAF(pi[p], qi[q], ar[p][q]));
          ai[p][q] = SP_FMAF(pi[p], qr[q], SP_FMAF(-pr[p], qi[q], ai[p][q]));
        }
    }
    SP_BARRIER();
  }
  SP_GLOBAL float *vf = vis + (long)f * ninp * (ninp + 1);
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int i = i0 + ty + 16 * p, j = j0 + tx + 16 * q;
      if (j <= i) {
        const long at = (long)i * (i + 1) / 2 + j;
        vf[2 * at] = ar[p][q];
        vf[2 * at + 1] = ai[p][q];
      }
    }
}

/* ---- min-plus product ---------------------------------------------------------------------------
 * C[i][j] = min_k A[i][k] + B[k][j] over int32 distances (GraphBLAS's
 * MIN_PLUS semiring): the distance from vertex i to vertex j through the
 * best of K landmarks, given each vertex's distances to and from them.  A
 * group of 16 x 16 per 128 x 128 tile, each work-item 8 x 8 minima in
 * registers; K steps of 8 through local tiles. */
#define MP_T 128
#define MP_K 8

SP_KERNEL SP_BOUNDS(256) void k_minplus_landmark_400(SP_GLOBAL const int *SP_RESTRICT a,
                                                     SP_GLOBAL const int *SP_RESTRICT b,
                                                     SP_GLOBAL int *SP_RESTRICT c, int n,
                                                     int kdim) {
  SP_LOCAL int as[MP_K][MP_T];
  SP_LOCAL int bs[MP_K][MP_T];
  const int tid = SP_LID(0), tx = tid % 16, ty = tid / 16;
  const int i0 = SP_GRP(1) * MP_T, j0 = SP_GRP(0) * MP_T;
  int acc[8][8];
#pragma unroll
  for (int p = 0; p < 8; ++p)
#pragma unroll
    for (int q = 0; q < 8; ++q) acc[p][q] = 2147483647;
  for (int k0 = 0; k0 < kdim; k0 += MP_K) {
    for (int e = tid; e < MP_K * MP_T; e += 256) {
      const int kk = e % MP_K, ii = e / MP_K;
      as[kk][ii] = a[(long)(i0 + ii) * kdim + k0 + kk];
      const int jj = e % MP_T, kb = e / MP_T;
      bs[kb][jj] = b[(long)(k0 + kb) * n + j0 + jj];
    }
    SP_BARRIER();
#pragma unroll
    for (int kk = 0; kk < MP_K; ++kk) {
      int av[8], bv[8];
#pragma unroll
      for (int p = 0; p < 8; ++p) av[p] = as[kk][ty + 16 * p];
#pragma unroll
      for (int q = 0; q < 8; ++q) bv[q] = bs[kk][tx + 16 * q];
#pragma unroll
      for (int p = 0; p < 8; ++p)
#pragma unroll
        for (int q = 0; q < 8; ++q) {
          const int s = av[p] + bv[q];
          acc[p][q] = s < acc[p][q] ? s : acc[p][q];
        }
    }
    SP_BARRIER();
  }
#pragma unroll
  for (int p = 0; p < 8; ++p)
#pragma unroll
    for (int q = 0; q < 8; ++q) c[(long)(i0 + ty + 16 * p) * n + j0 + tx + 16 * q] = acc[p][q];
}

/* ---- Lomb-Scargle periodograms ------------------------------------------------------------------
 * The classical periodogram of an irregularly sampled light curve (Lomb,
 * Scargle; Press and Rybicki's sums, astropy's 'standard' normalisation)
 * at frequency f: with C, S the sums of y cos and y sin of 2 pi f t and C2,
 * S2 those of cos and sin of twice the angle, tau from tan(4 pi f tau) =
 * S2 / C2, P = ((C cos + S sin)^2 / CC + (S cos - C sin)^2 / SS) / (2 YY)
 * with CC = (N + R) / 2, SS = (N - R) / 2, R = |(C2, S2)|.  y is centred by
 * the host.  A group of LS_G per curve, its samples staged in local memory,
 * a work-item per frequency (the phase f t reduced to [0, 1) before the
 * sine and cosine). */
#define LS_G 1024
#define LS_MAXN 1024

SP_KERNEL SP_BOUNDS(LS_G) void k_lombscargle_529(SP_GLOBAL const float *SP_RESTRICT t,
                                                 SP_GLOBAL const float *SP_RESTRICT y,
                                                 SP_GLOBAL float *SP_RESTRICT pw, int nsamp,
                                                 int nfreq, float f0, float df) {
  SP_LOCAL float ts[LS_MAXN], ys[LS_MAXN];
  const int c = SP_GRP(0), k = SP_LID(0);
  for (int i = k; i < nsamp; i += LS_G) {
    ts[i] = t[(long)c * nsamp + i];
    ys[i] = y[(long)c * nsamp + i];
  }
  SP_BARRIER();
  for (int fi = k; fi < nfreq; fi += LS_G) {
    const float f = f0 + df * (float)fi;
    float cs = 0.0f, sn = 0.0f, c2 = 0.0f, s2 = 0.0f, yy = 0.0f;
    for (int i = 0; i < nsamp; ++i) {
      const float ph = f * ts[i], u = 6.2831853071795865f * (ph - SP_FLOORF(ph));
      const float sv = SP_SINF(u), cv = SP_COSF(u), yv = ys[i];
      cs = SP_FMAF(yv, cv, cs);
      sn = SP_FMAF(yv, sv, sn);
      c2 = SP_FMAF(cv - sv, cv + sv, c2);
      s2 = SP_FMAF(2.0f * sv, cv, s2);
      yy = SP_FMAF(yv, yv, yy);
    }
    const float r = SP_SQRTF(c2 * c2 + s2 * s2);
    const float cos2 = r > 0.0f ? c2 / r : 1.0f, sin2 = r > 0.0f ? s2 / r : 0.0f;
    const float ct = SP_SQRTF(0.5f * (1.0f + cos2));
    const float st = (sin2 < 0.0f ? -1.0f : 1.0f) * SP_SQRTF(SP_FMAXF(0.0f, 0.5f * (1.0f - cos2)));
    const float yc = cs * ct + sn * st, ys2 = sn * ct - cs * st;
    const float nn = (float)nsamp;
    pw[(long)c * nfreq + fi] =
        (yc * yc / (0.5f * (nn + r)) + ys2 * ys2 / (0.5f * (nn - r))) / (2.0f * yy);
  }
}
