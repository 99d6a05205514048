/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.cu: CUDA-only kernels of the fifth validation suite (host half:
 * cudaonly.c): an fp16 tensor-core SYRK over the lower triangle of tiles, a
 * segmented bitonic sort in 128 KB of dynamic shared memory (one block per
 * SM, 133 blocks) and an fp16 RMSNorm of one decode token (a launch of a
 * few microseconds).  Only NVRTC compiles this file; the OpenCL backend
 * skips its jobs.  Written for this suite, independently of
 * the core suite and the earlier validation suites. */
#include "sp_dev.h"

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

/* ---- fp16 SYRK (Gram matrix) with WMMA -------------------------------------------------
 * C = A A^T (A: n x k half, row-major; C: n x n float), only the 64x64 tiles
 * on or below the diagonal: block L is tile (bi, bj) with bi >= bj, L =
 * bi (bi + 1) / 2 + bj.  4 warps, each 32x32 of the tile as 2x2 fragments;
 * both 64x32 slices of A staged in shared memory per step of 32. */
#define SY_LD 40

SP_KERNEL void z_syrk_wmma_f16(const __half *__restrict__ a, float *__restrict__ c, int n, int k) {
  __shared__ __align__(32) __half as[64][SY_LD];
  __shared__ __align__(32) __half bs[64][SY_LD];
  const int L = blockIdx.x;
  int bi = (int)((sqrtf(8.0f * (float)L + 1.0f) - 1.0f) * 0.5f);
  while (bi * (bi + 1) / 2 > L) --bi;
  while ((bi + 1) * (bi + 2) / 2 <= L) ++bi;
  const int bj = L - bi * (bi + 1) / 2, m0 = bi * 64, n0 = bj * 64;
  const int w = threadIdx.x / 32, wy = w / 2, wx = w % 2;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < k; k0 += 32) {
    for (int e = threadIdx.x; e < 64 * 4; e += blockDim.x) {
      const int row = e / 4, ch = e % 4;
      *(uint4 *)&as[row][ch * 8] = *(const uint4 *)&a[(size_t)(m0 + row) * k + k0 + ch * 8];
      *(uint4 *)&bs[row][ch * 8] = *(const uint4 *)&a[(size_t)(n0 + row) * k + k0 + ch * 8];
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb[2];
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(fa[i], &as[wy * 32 + i * 16][kk], SY_LD);
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], &bs[wx * 32 + j * 16][kk], SY_LD);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(c + (size_t)(m0 + wy * 32 + i * 16) * n + n0 + wx * 32 + j * 16,
                              acc[i][j], n, wmma::mem_row_major);
}

/* ---- segmented bitonic sort in shared memory ----------------------------------------------
 * Each block sorts SS_PER segments of n keys one after the other, each
 * whole in dynamic shared memory (n = 32768: 128 KB, so one block per SM). */
#define SS_PER 8

SP_KERNEL void z_segsort_smem_133(const unsigned *__restrict__ in, unsigned *__restrict__ out,
                                  int n) {
  extern __shared__ unsigned keys[];
  for (int s = 0; s < SS_PER; ++s) {
    const size_t base = ((size_t)blockIdx.x * SS_PER + s) * n;
    for (int i = threadIdx.x; i < n; i += blockDim.x) keys[i] = in[base + i];
    __syncthreads();
    for (int size = 2; size <= n; size <<= 1)
      for (int j = size >> 1; j > 0; j >>= 1) {
        for (int i = threadIdx.x; i < n / 2; i += blockDim.x) {
          const int lo = 2 * i - (i & (j - 1)), hi = lo + j;
          const unsigned x = keys[lo], y = keys[hi];
          if ((x > y) == ((lo & size) == 0)) {
            keys[lo] = y;
            keys[hi] = x;
          }
        }
        __syncthreads();
      }
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[base + i] = keys[i];
    __syncthreads();
  }
}

/* ---- fp16 RMSNorm of one decode token -----------------------------------------------------
 * y = x / sqrt(mean(x^2) + eps) * w over one hidden vector, half2 loads,
 * float sums, one block: a launch of a few microseconds. */
SP_KERNEL void z_rmsnorm_h16_decode(const __half2 *__restrict__ x, const __half2 *__restrict__ w,
                                    __half2 *__restrict__ y, int hidden, float eps) {
  __shared__ float part[32];
  const int t = threadIdx.x, pairs = hidden / 2;
  float ss = 0.0f;
  for (int i = t; i < pairs; i += blockDim.x) {
    const float2 v = __half22float2(x[i]);
    ss += v.x * v.x + v.y * v.y;
  }
  for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  if (t % 32 == 0) part[t / 32] = ss;
  __syncthreads();
  if (t < 32) {
    float v = t < (int)(blockDim.x / 32) ? part[t] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (t == 0) part[0] = v;
  }
  __syncthreads();
  const float inv = rsqrtf(part[0] / (float)hidden + eps);
  for (int i = t; i < pairs; i += blockDim.x) {
    const float2 v = __half22float2(x[i]), g = __half22float2(w[i]);
    y[i] = __floats2half2_rn(v.x * inv * g.x, v.y * inv * g.y);
  }
}
