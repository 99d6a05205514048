/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.cu: CUDA-only kernels of the sixth validation suite (host half:
 * cudaonly.c): a pointwise convolution as an fp16 tensor-core GEMM with a
 * bias and ReLU epilogue, a Lion optimizer step with float4 loads, and a
 * joint histogram for mutual information in 64 KB of dynamic shared memory
 * (397 blocks, 3 per SM).  Only NVRTC compiles this file; the OpenCL backend
 * skips its jobs.  Written for this suite, independently of
 * the core suite and the earlier validation suites. */
#include "sp_dev.h"

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

/* ---- 1x1 convolution as an fp16 WMMA GEMM ---------------------------------------------
 * y[p][o] = relu(bias[o] + sum_c x[p][c] w[o][c]) (NHWC activations, x:
 * pixels x cin half, w: cout x cin half, y float).  A block of 4 warps per
 * 64 x 64 output tile (blockIdx.x: channels, blockIdx.y: pixels), each warp
 * 32 x 32 as 2 x 2 fragments; 64 x 32 slices of x and w staged in shared
 * memory per step of 32; the epilogue goes through shared memory. */
#define C1_LD 40
#define C1_OLD 68

SP_KERNEL void q_conv1x1_wmma_f16(const __half *__restrict__ x, const __half *__restrict__ w,
                                  const float *__restrict__ bias, float *__restrict__ y, int cin,
                                  int cout) {
  __shared__ __align__(32) __half xs[64][C1_LD];
  __shared__ __align__(32) __half ws[64][C1_LD];
  __shared__ __align__(32) float os[64][C1_OLD];
  const int o0 = blockIdx.x * 64, p0 = blockIdx.y * 64;
  const int wp = threadIdx.x / 32, wy = wp / 2, wx = wp % 2;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < cin; k0 += 32) {
    for (int e = threadIdx.x; e < 64 * 4; e += blockDim.x) {
      const int row = e / 4, ch = e % 4;
      *(uint4 *)&xs[row][ch * 8] = *(const uint4 *)&x[(size_t)(p0 + row) * cin + k0 + ch * 8];
      *(uint4 *)&ws[row][ch * 8] = *(const uint4 *)&w[(size_t)(o0 + row) * cin + k0 + ch * 8];
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb[2];
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(fa[i], &xs[wy * 32 + i * 16][kk], C1_LD);
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], &ws[wx * 32 + j * 16][kk], C1_LD);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&os[wy * 32 + i * 16][wx * 32 + j * 16], acc[i][j], C1_OLD,
                              wmma::mem_row_major);
  __syncthreads();
  for (int e = threadIdx.x; e < 64 * 64; e += blockDim.x) {
    const int row = e / 64, c = e % 64;
    y[(size_t)(p0 + row) * cout + o0 + c] = fmaxf(os[row][c] + bias[o0 + c], 0.0f);
  }
}

/* ---- Lion optimizer step, float4 ---------------------------------------------------------
 * c = b1 m + (1 - b1) g; p -= lr (sign(c) + wd p); m = b2 m + (1 - b2) g.
 * A thread per 4 parameters: one 16-byte load from each of p, m and g. */
__device__ __forceinline__ float q_sgn(float v) {
  return v > 0.0f ? 1.0f : v < 0.0f ? -1.0f : 0.0f;
}

SP_KERNEL void q_lion_step_v4(float4 *__restrict__ p, float4 *__restrict__ m,
                              const float4 *__restrict__ g, int n4, float lr, float b1, float b2,
                              float wd) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  float4 pv = p[i], mv = m[i];
  const float4 gv = g[i];
#define Q_LION(f)                                   \
  do {                                              \
    const float c = b1 * mv.f + (1.0f - b1) * gv.f; \
    pv.f = pv.f - lr * (q_sgn(c) + wd * pv.f);      \
    mv.f = b2 * mv.f + (1.0f - b2) * gv.f;          \
  } while (0)
  Q_LION(x);
  Q_LION(y);
  Q_LION(z);
  Q_LION(w);
#undef Q_LION
  p[i] = pv;
  m[i] = mv;
}

/* ---- joint histogram for mutual information ---------------------------------------------
 * Each block counts the (a >> 1, b >> 1) pairs of its slice of two 8-bit
 * images (words of 4 pixels) in a 128 x 128 histogram in dynamic shared
 * memory (64 KB: 3 blocks per SM), then adds its non-zero bins to the
 * global histogram. */
#define MI_BINS 128

SP_KERNEL void q_mi_joint_hist_397(const unsigned *__restrict__ a, const unsigned *__restrict__ b,
                                   unsigned *__restrict__ hist, int words_per_block) {
  extern __shared__ unsigned h[];
  for (int i = threadIdx.x; i < MI_BINS * MI_BINS; i += blockDim.x) h[i] = 0;
  __syncthreads();
  const size_t base = (size_t)blockIdx.x * words_per_block;
  for (int i = threadIdx.x; i < words_per_block; i += blockDim.x) {
    const unsigned wa = a[base + i], wb = b[base + i];
    for (int k = 0; k < 4; ++k) {
      const unsigned ia = (wa >> (8 * k) & 255u) >> 1, ib = (wb >> (8 * k) & 255u) >> 1;
      atomicAdd(&h[ia * MI_BINS + ib], 1u);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < MI_BINS * MI_BINS; i += blockDim.x)
    if (h[i] != 0) atomicAdd(&hist[i], h[i]);
}
