/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dense.cl: register-tiled products of the twelfth validation suite (host
 * half: dense.c) that are not GEMMs: a binary XNOR-popcount product and an
 * L1 distance matrix.  Written for this suite, independently of the core
 * suite and the earlier validation suites. */
#include "sp_dev.h"

/* Both kernels: a group of 256 work-items (16 x 16) per 64 x 64 tile of the
 * output, each work-item 4 x 4 outputs (rows ty + 16 p, columns tx + 16 q)
 * in registers; K steps of 16 through two local tiles loaded k-fastest from
 * row-major operands (64-byte runs per row). */
#define RT_T 64
#define RT_K 16

/* ---- XNOR-popcount product ----------------------------------------------------------------------
 * The binary layer of XNOR-Net (Rastegari et al. 2016) and BMXNet / daBNN:
 * rows of +-1 values packed 32 to a word, the dot product of two rows of K
 * bits is K - 2 popcount(a xor b).  a is m x kw words, b is n x kw words (its
 * rows are the columns of the product), c is m x n int. */
SP_KERNEL SP_BOUNDS(256) void m_xnor_gemm_reg4x4(SP_GLOBAL const uint *SP_RESTRICT a,
                                                 SP_GLOBAL const uint *SP_RESTRICT b,
                                                 SP_GLOBAL int *SP_RESTRICT c, int n, int kw) {
  SP_LOCAL uint as[RT_K][RT_T];
  SP_LOCAL uint bs[RT_K][RT_T];
  const int tid = SP_LID(0), tx = tid % 16, ty = tid / 16;
  const int i0 = SP_GRP(1) * RT_T, j0 = SP_GRP(0) * RT_T;
  int acc[4][4];
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q) acc[p][q] = 0;
  for (int k0 = 0; k0 < kw; k0 += RT_K) {
    for (int e = tid; e < RT_K * RT_T; e += 256) {
      const int kk = e % RT_K, ii = e / RT_K;
      as[kk][ii] = a[(long)(i0 + ii) * kw + k0 + kk];
      bs[kk][ii] = b[(long)(j0 + ii) * kw + k0 + kk];
    }
    SP_BARRIER();
#pragma unroll
    for (int kk = 0; kk < RT_K; ++kk) {
      uint av[4], bv[4];
#pragma unroll
      for (int p = 0; p < 4; ++p) av[p] = as[kk][ty + 16 * p];
#pragma unroll
      for (int q = 0; q < 4; ++q) bv[q] = bs[kk][tx + 16 * q];
#pragma unroll
      for (int p = 0; p < 4; ++p)
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[p][q] += (int)SP_POPCOUNT(av[p] ^ bv[q]);
    }
    SP_BARRIER();
  }
  const int kbits = 32 * kw;
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q)
      c[(long)(i0 + ty + 16 * p) * n + j0 + tx + 16 * q] = kbits - 2 * acc[p][q];
}

/* ---- L1 distance matrix -------------------------------------------------------------------------
 * scipy.spatial.distance.cdist(x, y, 'cityblock') and torch.cdist with p = 1:
 * out[i][j] = sum_k |x[i][k] - y[j][k]| for x (m x dim) and y (n x dim), the
 * sum in k order.  Not a product with a multiply: a subtraction and an add
 * of an absolute value per term. */
SP_KERNEL SP_BOUNDS(256) void m_cdist_l1_reg4x4(SP_GLOBAL const float *SP_RESTRICT x,
                                                SP_GLOBAL const float *SP_RESTRICT y,
                                                SP_GLOBAL float *SP_RESTRICT out, int n, int dim) {
  SP_LOCAL float xs[RT_K][RT_T];
  SP_LOCAL float ys[RT_K][RT_T];
  const int tid = SP_LID(0), tx = tid % 16, ty = tid / 16;
  const int i0 = SP_GRP(1) * RT_T, j0 = SP_GRP(0) * RT_T;
  float acc[4][4];
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q) acc[p][q] = 0.0f;
  for (int k0 = 0; k0 < dim; k0 += RT_K) {
    for (int e = tid; e < RT_K * RT_T; e += 256) {
      const int kk = e % RT_K, ii = e / RT_K;
      xs[kk][ii] = x[(long)(i0 + ii) * dim + k0 + kk];
      ys[kk][ii] = y[(long)(j0 + ii) * dim + k0 + kk];
    }
    SP_BARRIER();
#pragma unroll
    for (int kk = 0; kk < RT_K; ++kk) {
      float xv[4], yv[4];
#pragma unroll
      for (int p = 0; p < 4; ++p) xv[p] = xs[kk][ty + 16 * p];
#pragma unroll
      for (int q = 0; q < 4; ++q) yv[q] = ys[kk][tx + 16 * q];
#pragma unroll
      for (int p = 0; p < 4; ++p)
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[p][q] += SP_FABSF(xv[p] - yv[q]);
    }
    SP_BARRIER();
  }
#pragma unroll
  for (int p = 0; p < 4; ++p)
#pragma unroll
    for (int q = 0; q < 4; ++q) out[(long)(i0 + ty + 16 * p) * n + j0 + tx + 16 * q] = acc[p][q];
}
