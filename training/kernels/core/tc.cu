/* tc.cu: tensor cores and half precision (CUDA C++ only).
 *
 * GEMMs C = A B through WMMA fragments (fp16 and bf16 m16n16k16, tf32
 * m16n16k8, fp32 accumulators): A is M x K row-major, B is stored as its
 * transpose (N x K row-major, i.e. K x N column-major) so both operands are
 * read along k.  The "warp" kernels give each warp one 16 x 16 tile of C and
 * load its fragments straight from global memory (L1/L2 reuse between the
 * warps of a block); the tiled kernel stages 128 x 32 panels of A and B in
 * shared memory for a 128 x 128 block tile (8 warps of 64 x 32).
 *
 * Then non-tensor half precision: chains of __hfma2 on registers, and a
 * mixed-precision stream (fp16 in, fp32 out). */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "sp_port.h"

using namespace nvcuda;

template <typename T, int KS>
__device__ __forceinline__ void warp_tile(const T *A, const T *B, float *C,
                                          int M, int N, int K)
{
  const int warp = (int)((blockIdx.x * blockDim.x + threadIdx.x) / 32);
  const int tiles_n = N / 16;
  const int tr = warp / tiles_n, tc = warp % tiles_n;
  if (tr >= M / 16)
    return;
  wmma::fragment<wmma::matrix_a, 16, 16, KS, T, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, KS, T, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, KS, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < K; k += KS) {
    wmma::load_matrix_sync(a, A + (size_t)tr * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + (size_t)tc * 16 * K + k, K);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + (size_t)tr * 16 * N + tc * 16, c, N,
                          wmma::mem_row_major);
}

extern "C" __global__ void wmma_f16_warp(const __half *A, const __half *B,
                                         float *C, int M, int N, int K)
{
  warp_tile<__half, 16>(A, B, C, M, N, K);
}

extern "C" __global__ void wmma_bf16_warp(const __nv_bfloat16 *A,
                                          const __nv_bfloat16 *B, float *C,
                                          int M, int N, int K)
{
  warp_tile<__nv_bfloat16, 16>(A, B, C, M, N, K);
}

/* TF32: the fragments hold floats, rounded to tf32 after loading. */
extern "C" __global__ void wmma_tf32_warp(const float *A, const float *B,
                                          float *C, int M, int N, int K)
{
  const int warp = (int)((blockIdx.x * blockDim.x + threadIdx.x) / 32);
  const int tiles_n = N / 16;
  const int tr = warp / tiles_n, tc = warp % tiles_n;
  if (tr >= M / 16)
    return;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                 wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
                 wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < K; k += 8) {
    wmma::load_matrix_sync(a, A + (size_t)tr * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + (size_t)tc * 16 * K + k, K);
    for (int i = 0; i < a.num_elements; ++i)
      a.x[i] = wmma::__float_to_tf32(a.x[i]);
    for (int i = 0; i < b.num_elements; ++i)
      b.x[i] = wmma::__float_to_tf32(b.x[i]);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + (size_t)tr * 16 * N + tc * 16, c, N,
                          wmma::mem_row_major);
}

/* Block tile 128 x 128, k panels of 32, 8 warps as 2 x 4 of 64 x 32.
 * Rows of the shared panels are padded by 8 halves against bank
 * conflicts.  Launch with 256 threads and (N / 128) x (M / 128) blocks. */
#define TT 128
#define TK 32
#define TPAD 8

extern "C" __global__ void wmma_f16_tiled(const __half *A, const __half *B,
                                          float *C, int M, int N, int K)
{
  /* WMMA loads need 32-byte aligned rows: 80-byte rows, 128-byte base. */
  __shared__ __align__(128) __half sa[TT][TK + TPAD];
  __shared__ __align__(128) __half sb[TT][TK + TPAD];
  const int tid = threadIdx.x, warp = tid / 32;
  const int wr = warp / 4, wc = warp % 4; /* 64-row, 32-column slab */
  const int row0 = blockIdx.y * TT, col0 = blockIdx.x * TT;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[4][2];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(c[i][j], 0.0f);
  for (int k0 = 0; k0 < K; k0 += TK) {
    /* 128 rows x 32 halves per panel: 16 halves (two uint4) per thread. */
    for (int p = tid; p < TT * TK / 8; p += blockDim.x) {
      const int r = p / (TK / 8), q = (p % (TK / 8)) * 8;
      *(uint4 *)&sa[r][q] = *(const uint4 *)&A[(size_t)(row0 + r) * K + k0 + q];
      *(uint4 *)&sb[r][q] = *(const uint4 *)&B[(size_t)(col0 + r) * K + k0 + q];
    }
    __syncthreads();
    for (int kk = 0; kk < TK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[4];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b[2];
      for (int i = 0; i < 4; ++i)
        wmma::load_matrix_sync(a[i], &sa[wr * 64 + i * 16][kk], TK + TPAD);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &sb[wc * 32 + j * 16][kk], TK + TPAD);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(c[i][j], a[i], b[j], c[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(
          C + (size_t)(row0 + wr * 64 + i * 16) * N + col0 + wc * 32 + j * 16,
          c[i][j], N, wmma::mem_row_major);
}

/* K chains of __hfma2 (two fp16 FMAs each) from per-thread values; out[g]
 * is the sum of all 2K lanes in float. */
template <int K>
__device__ __forceinline__ void hfma2_chains(float *out, float a, float b,
                                             int iters)
{
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const __half2 a2 = __float2half2_rn(a), b2 = __float2half2_rn(b);
  __half2 x[K];
  for (int k = 0; k < K; ++k)
    x[k] = __floats2half2_rn(1.0f + (float)((g + k) & 63) / 64.0f,
                             1.5f - (float)((g * 3 + k) & 63) / 128.0f);
  for (int it = 0; it < iters; ++it)
#pragma unroll
    for (int k = 0; k < K; ++k)
      x[k] = __hfma2(x[k], a2, b2);
  float s = 0.0f;
  for (int k = 0; k < K; ++k)
    s += __low2float(x[k]) + __high2float(x[k]);
  out[g] = s;
}

extern "C" __global__ void hfma2_ilp1(float *out, float a, float b, int iters)
{
  hfma2_chains<1>(out, a, b, iters);
}

extern "C" __global__ void hfma2_ilp8(float *out, float a, float b, int iters)
{
  hfma2_chains<8>(out, a, b, iters);
}

/* c[i] = s a[i] + b[i] with a, b in fp16 and c in fp32, grid-stride, two
 * elements per step through __half2 loads. */
extern "C" __global__ void mixed_f16_axpy(const __half2 *a, const __half2 *b,
                                          float2 *c, float s, int n2)
{
  const int t = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += t) {
    const float2 x = __half22float2(a[i]), y = __half22float2(b[i]);
    c[i] = make_float2(fmaf(s, x.x, y.x), fmaf(s, x.y, y.y));
  }
}
