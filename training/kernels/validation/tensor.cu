/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tensor.cu: CUDA-only validation kernels (host half: tensor.c): tensor-core
 * GEMMs through WMMA and a packed half-precision elementwise kernel.  Only
 * NVRTC compiles this file; the OpenCL backend skips its jobs. */
#include "sp_dev.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

/* C = A B with A (m x k) and B (k x n) row-major in 16-bit floats and C in
 * fp32.  A 128-wide block (4 warps, 2x2) owns a 64x64 tile of C, each warp
 * 2x2 fragments of 16x16; the k loop stages 64x32 and 32x64 tiles in shared
 * memory with 16-byte loads.  The padding (+8 elements) breaks bank
 * conflicts while keeping the 32-byte alignment WMMA loads need. */
#define TC_T 64
#define TC_K 32

template <typename T>
static __device__ void tc_gemm(const T *__restrict__ a, const T *__restrict__ b,
                               float *__restrict__ c, int n, int k)
{
  __shared__ __align__(32) T as[TC_T][TC_K + 8];
  __shared__ __align__(32) T bs[TC_K][TC_T + 8];
  const int tid = threadIdx.x, wy = tid / 64, wx = tid / 32 % 2;
  const int row0 = blockIdx.y * TC_T, col0 = blockIdx.x * TC_T;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < k; k0 += TC_K) {
    for (int l = 0; l < 2; ++l) {
      const int e = tid + 128 * l;
      *(int4 *)&as[e / 4][e % 4 * 8] =
          *(const int4 *)&a[(size_t)(row0 + e / 4) * k + k0 + e % 4 * 8];
      *(int4 *)&bs[e / 8][e % 8 * 8] =
          *(const int4 *)&b[(size_t)(k0 + e / 8) * n + col0 + e % 8 * 8];
    }
    __syncthreads();
    for (int kk = 0; kk < TC_K; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> fb[2];
      for (int i = 0; i < 2; ++i) {
        wmma::load_matrix_sync(fa[i], &as[wy * 32 + i * 16][kk], TC_K + 8);
        wmma::load_matrix_sync(fb[i], &bs[kk][wx * 32 + i * 16], TC_T + 8);
      }
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(
          &c[(size_t)(row0 + wy * 32 + i * 16) * n + col0 + wx * 32 + j * 16],
          acc[i][j], n, wmma::mem_row_major);
}

SP_KERNEL void v_wmma_f16(const __half *a, const __half *b, float *c, int n,
                          int k)
{
  tc_gemm<__half>(a, b, c, n, k);
}

SP_KERNEL void v_wmma_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                           float *c, int n, int k)
{
  tc_gemm<__nv_bfloat16>(a, b, c, n, k);
}

/* y = GELU(x + bias) on packed half pairs, bias broadcast along rows of
 * cols2 pairs: a transformer MLP epilogue.  The add is a __hadd2; GELU is
 * evaluated in fp32, as framework kernels do, and rounded back to half. */
SP_KERNEL void v_half2_bias_gelu(const __half2 *__restrict__ x,
                                 const __half2 *__restrict__ bias,
                                 __half2 *__restrict__ y, int n2, int cols2)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2)
    return;
  const float2 f = __half22float2(__hadd2(x[i], bias[i % cols2]));
  y[i] = __floats2half2_rn(sp_gelu(f.x), sp_gelu(f.y));
}
