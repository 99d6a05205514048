/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.cu: CUDA-only kernels of the second validation suite (host
 * half: cudaonly.c): a half-precision GEMV for decoding, tensor-core GEMMs
 * in tf32 and int8, an int8 GEMM on dp4a, a half-precision depthwise
 * convolution, causal attention scores in fp16, an embedding backward pass
 * with float atomics and batched FP64 matrix inversion in 108 KB of
 * dynamic shared memory.  Only NVRTC compiles this file; the OpenCL backend
 * skips its jobs. */
#include "sp_dev.h"

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

/* ---- fp16 GEMV (decode) -----------------------------------------------------
 * y = W x with W (rows x k) and x in half, fp32 accumulation, y in fp32:
 * one warp per row reading 16 bytes (8 halves) per lane per step, a
 * shuffle reduction at the end.  Memory-bound: W is streamed once. */
SP_KERNEL void w_gemv_f16(const __half *__restrict__ w,
                          const __half *__restrict__ x, float *__restrict__ y,
                          int rows, int k)
{
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows)
    return;
  const uint4 *wr = (const uint4 *)(w + (size_t)row * k);
  const uint4 *xv = (const uint4 *)x;
  float acc = 0.0f;
  for (int i = lane; i < k / 8; i += 32) {
    const uint4 a = wr[i], b = xv[i];
    const __half2 *ah = (const __half2 *)&a, *bh = (const __half2 *)&b;
    for (int j = 0; j < 4; ++j) {
      const float2 fa = __half22float2(ah[j]), fb = __half22float2(bh[j]);
      acc = fmaf(fa.x, fb.x, acc);
      acc = fmaf(fa.y, fb.y, acc);
    }
  }
  for (int o = 16; o > 0; o >>= 1)
    acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (lane == 0)
    y[row] = acc;
}

/* ---- tf32 tensor-core GEMM ------------------------------------------------------
 * C = A B, A (m x k) and B (k x n) row-major fp32, rounded to tf32 in the
 * fragments.  A 256-wide block (8 warps, 4 x 2) owns a 128 x 64 tile of C,
 * each warp 32 x 32 (2 x 2 fragments of 16 x 16, k steps of 8); 128 x 32
 * and 32 x 64 panels are staged in shared memory with 16-byte loads. */
#define T32_M 128
#define T32_N 64
#define T32_K 32

SP_KERNEL void w_wmma_tf32(const float *__restrict__ a,
                           const float *__restrict__ b, float *__restrict__ c,
                           int n, int k)
{
  __shared__ __align__(32) float as[T32_M][T32_K + 8];
  __shared__ __align__(32) float bs[T32_K][T32_N + 8];
  const int tid = threadIdx.x, warp = tid / 32, wy = warp / 2, wx = warp % 2;
  const int row0 = blockIdx.y * T32_M, col0 = blockIdx.x * T32_N;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < k; k0 += T32_K) {
    for (int l = 0; l < 4; ++l) { /* 128 x 32 floats = 1024 float4 */
      const int e = tid + 256 * l, r = e / 8, q = e % 8;
      *(float4 *)&as[r][q * 4] = *(const float4 *)&a[(size_t)(row0 + r) * k + k0 + q * 4];
    }
    for (int l = 0; l < 2; ++l) { /* 32 x 64 floats = 512 float4 */
      const int e = tid + 256 * l, r = e / 16, q = e % 16;
      *(float4 *)&bs[r][q * 4] = *(const float4 *)&b[(size_t)(k0 + r) * n + col0 + q * 4];
    }
    __syncthreads();
    for (int kk = 0; kk < T32_K; kk += 8) {
      wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb[2];
      for (int i = 0; i < 2; ++i) {
        wmma::load_matrix_sync(fa[i], &as[wy * 32 + i * 16][kk], T32_K + 8);
        wmma::load_matrix_sync(fb[i], &bs[kk][wx * 32 + i * 16], T32_N + 8);
        for (int e = 0; e < fa[i].num_elements; ++e)
          fa[i].x[e] = wmma::__float_to_tf32(fa[i].x[e]);
        for (int e = 0; e < fb[i].num_elements; ++e)
          fb[i].x[e] = wmma::__float_to_tf32(fb[i].x[e]);
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

/* ---- int8 GEMMs -------------------------------------------------------------------
 * C = A B^T with A (m x k) and B (n x k) row-major int8 (the "TN" layout of
 * quantized inference), C int32 (m x n). */

/* Tensor cores: a 256-wide block (8 warps, 2 x 4) owns a 64 x 128 tile,
 * each warp 32 x 32 (2 x 2 fragments of m16n16k16); 64-byte k panels of
 * both operands are staged in shared memory as four 16-byte-wide slices,
 * so that every fragment starts 32-byte aligned. */
#define I8_M 64
#define I8_N 128
#define I8_K 64

SP_KERNEL void w_imma_int8(const signed char *__restrict__ a,
                           const signed char *__restrict__ b,
                           int *__restrict__ c, int n, int k)
{
  __shared__ __align__(32) signed char as[I8_K / 16][I8_M][16];
  __shared__ __align__(32) signed char bs[I8_K / 16][I8_N][16];
  const int tid = threadIdx.x, warp = tid / 32, wy = warp / 4, wx = warp % 4;
  const int row0 = blockIdx.y * I8_M, col0 = blockIdx.x * I8_N;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0);
  for (int k0 = 0; k0 < k; k0 += I8_K) {
    { /* 64 rows x 64 bytes = 256 int4 */
      const int r = tid / 4, q = tid % 4;
      *(int4 *)&as[q][r][0] = *(const int4 *)&a[(size_t)(row0 + r) * k + k0 + q * 16];
    }
    for (int l = 0; l < 2; ++l) { /* 128 rows x 64 bytes = 512 int4 */
      const int e = tid + 256 * l, r = e / 4, q = e % 4;
      *(int4 *)&bs[q][r][0] = *(const int4 *)&b[(size_t)(col0 + r) * k + k0 + q * 16];
    }
    __syncthreads();
    for (int ks = 0; ks < I8_K / 16; ++ks) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb[2];
      for (int i = 0; i < 2; ++i) {
        wmma::load_matrix_sync(fa[i], &as[ks][wy * 32 + i * 16][0], 16);
        wmma::load_matrix_sync(fb[i], &bs[ks][wx * 32 + i * 16][0], 16);
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

/* CUDA cores: __dp4a on packed bytes.  A 16 x 16 block owns a 64 x 64 tile,
 * each thread 4 x 4 outputs strided by 16; 64-byte k panels (16 words per
 * row) are staged in shared memory. */
#define DP_T 64
#define DP_KW 16

SP_KERNEL void w_dp4a_int8(const int *__restrict__ a, const int *__restrict__ b,
                           int *__restrict__ c, int n, int k)
{
  __shared__ int as[DP_T][DP_KW + 1];
  __shared__ int bs[DP_T][DP_KW + 1];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int row0 = blockIdx.y * DP_T, col0 = blockIdx.x * DP_T, kw = k / 4;
  int acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0;
  for (int w0 = 0; w0 < kw; w0 += DP_KW) {
    for (int l = 0; l < 4; ++l) {
      const int e = tid + 256 * l, r = e / DP_KW, q = e % DP_KW;
      as[r][q] = a[(size_t)(row0 + r) * kw + w0 + q];
      bs[r][q] = b[(size_t)(col0 + r) * kw + w0 + q];
    }
    __syncthreads();
    for (int q = 0; q < DP_KW; ++q) {
      int av[4], bv[4];
      for (int i = 0; i < 4; ++i) {
        av[i] = as[ty + 16 * i][q];
        bv[i] = bs[tx + 16 * i][q];
      }
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] = __dp4a(av[i], bv[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      c[(size_t)(row0 + ty + 16 * i) * n + col0 + tx + 16 * j] = acc[i][j];
}

/* ---- depthwise 7x7 convolution in half precision -----------------------------------
 * NHWC activations and [7][7][c] weights in half, one thread per output
 * channel pair (__half2), fp32 accumulation, zero padding of 3: the
 * depthwise layer of a ConvNeXt block. */
#define DW_R 3

SP_KERNEL void w_dwconv7_f16(const __half2 *__restrict__ in,
                             const __half2 *__restrict__ wt,
                             __half2 *__restrict__ out, int h, int w, int c2,
                             int total)
{
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= total)
    return;
  const int ch = id % c2, x = id / c2 % w, y = id / c2 / w % h;
  const size_t img = (size_t)(id / c2 / w / h) * h * w * c2;
  float ax = 0.0f, ay = 0.0f;
  for (int dy = -DW_R; dy <= DW_R; ++dy) {
    const int yy = y + dy;
    if (yy < 0 || yy >= h)
      continue;
    for (int dx = -DW_R; dx <= DW_R; ++dx) {
      const int xx = x + dx;
      if (xx < 0 || xx >= w)
        continue;
      const float2 v = __half22float2(in[img + ((size_t)yy * w + xx) * c2 + ch]);
      const float2 f = __half22float2(wt[((dy + DW_R) * 7 + dx + DW_R) * c2 + ch]);
      ax = fmaf(v.x, f.x, ax);
      ay = fmaf(v.y, f.y, ay);
    }
  }
  out[id] = __floats2half2_rn(ax, ay);
}

/* ---- causal attention scores in fp16 -------------------------------------------------
 * S = scale Q K^T per head (seq x 64 each, half), written in half with -inf
 * above the diagonal (a non-flash attention's first kernel).  A 256-wide
 * block (8 warps, 2 x 4) owns a 64 x 128 tile of S; the 64 x 64 Q panel and
 * 128 x 64 K panel sit in shared memory, each warp computes 32 x 32 with
 * m16n16k16 fragments and stages them in shared memory (over the Q and K
 * panels, which are no longer needed) for a coalesced, masked, scaled half
 * store.  Tiles wholly above the diagonal only write -inf. */
#define SC_M 64
#define SC_N 128
#define SC_D 64

SP_KERNEL void w_attn_scores_f16(const __half *__restrict__ q,
                                 const __half *__restrict__ kmat,
                                 __half *__restrict__ s, int seq, float scale)
{
  __shared__ __align__(128) unsigned char raw[SC_M * (SC_N + 4) * 4];
  __half(*qs)[SC_D + 8] = (__half(*)[SC_D + 8])raw;
  __half(*ks)[SC_D + 8] = (__half(*)[SC_D + 8])(raw + SC_M * (SC_D + 8) * 2);
  float(*st)[SC_N + 4] = (float(*)[SC_N + 4])raw;
  const int tid = threadIdx.x, warp = tid / 32, wy = warp / 4, wx = warp % 4;
  const int row0 = blockIdx.y * SC_M, col0 = blockIdx.x * SC_N;
  const size_t head = blockIdx.z;
  __half *sh = s + head * seq * seq;
  const __half ninf = __ushort_as_half((unsigned short)0xFC00u);
  if (col0 > row0 + SC_M - 1) { /* wholly masked */
    for (int e = tid; e < SC_M * SC_N / 2; e += 256) {
      const int r = e / (SC_N / 2), cc = e % (SC_N / 2) * 2;
      *(__half2 *)&sh[(size_t)(row0 + r) * seq + col0 + cc] = __halves2half2(ninf, ninf);
    }
    return;
  }
  const __half *qh = q + head * seq * SC_D, *kh = kmat + head * seq * SC_D;
  for (int l = 0; l < 2; ++l) { /* 64 x 64 halves = 512 int4 */
    const int e = tid + 256 * l, r = e / 8, cc = e % 8 * 8;
    *(int4 *)&qs[r][cc] = *(const int4 *)&qh[(size_t)(row0 + r) * SC_D + cc];
  }
  for (int l = 0; l < 4; ++l) { /* 128 x 64 halves = 1024 int4 */
    const int e = tid + 256 * l, r = e / 8, cc = e % 8 * 8;
    *(int4 *)&ks[r][cc] = *(const int4 *)&kh[(size_t)(col0 + r) * SC_D + cc];
  }
  __syncthreads();
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  for (int kk = 0; kk < SC_D; kk += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[2];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb[2];
    for (int i = 0; i < 2; ++i) {
      wmma::load_matrix_sync(fa[i], &qs[wy * 32 + i * 16][kk], SC_D + 8);
      wmma::load_matrix_sync(fb[i], &ks[wx * 32 + i * 16][kk], SC_D + 8);
    }
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
  }
  __syncthreads(); /* st overlays qs and ks */
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&st[wy * 32 + i * 16][wx * 32 + j * 16], acc[i][j],
                              SC_N + 4, wmma::mem_row_major);
  __syncthreads();
  for (int e = tid; e < SC_M * SC_N / 2; e += 256) {
    const int r = e / (SC_N / 2), cc = e % (SC_N / 2) * 2;
    const int qi = row0 + r, kj = col0 + cc;
    const __half lo = kj <= qi ? __float2half_rn(st[r][cc] * scale) : ninf;
    const __half hi = kj + 1 <= qi ? __float2half_rn(st[r][cc + 1] * scale) : ninf;
    *(__half2 *)&sh[(size_t)qi * seq + kj] = __halves2half2(lo, hi);
  }
}

/* ---- embedding backward --------------------------------------------------------------
 * grad_table[id[t]][:] += grad_out[t][:] for every token t with float
 * atomics, one thread per element: frequent tokens (a Zipf distribution)
 * make their rows contended. */
SP_KERNEL void w_embed_bwd(const int *__restrict__ ids,
                           const float *__restrict__ gout, float *gtab,
                           int dim, int total)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total)
    return;
  atomicAdd(&gtab[(size_t)ids[i / dim] * dim + i % dim], gout[i]);
}

/* ---- batched FP64 matrix inversion ------------------------------------------------------
 * In-place Gauss-Jordan inversion without pivoting (the matrices are
 * diagonally dominant) of one n x n matrix per block, held whole in dynamic
 * shared memory (n = 116: 108 KB, so two blocks fit an SM).  Each of the n
 * steps scales the pivot row, saves the pivot column and eliminates it from
 * every other row. */
SP_KERNEL void w_batched_inv_f64(const double *__restrict__ a,
                                 double *__restrict__ inv, int n)
{
  extern __shared__ double sm[];
  double *m = sm, *col = sm + n * n;
  const int tid = threadIdx.x, nt = blockDim.x, nn = n * n;
  const size_t base = (size_t)blockIdx.x * nn;
  for (int e = tid; e < nn; e += nt)
    m[e] = a[base + e];
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    const double piv = m[k * n + k];
    if (tid < n)
      col[tid] = m[tid * n + k];
    __syncthreads();
    if (tid < n)
      m[k * n + tid] = (tid == k ? 1.0 : m[k * n + tid]) / piv;
    __syncthreads();
    for (int e = tid; e < nn; e += nt) {
      const int i = e / n, j = e % n;
      if (i != k)
        m[e] = (j == k ? 0.0 : m[e]) - col[i] * m[k * n + j];
    }
    __syncthreads();
  }
  for (int e = tid; e < nn; e += nt)
    inv[base + e] = m[e];
}
