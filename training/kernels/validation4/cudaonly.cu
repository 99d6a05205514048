/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.cu: CUDA-only kernels of the fourth validation suite (host half:
 * cudaonly.c): an fp16 tensor-core GEMM with split-K and float atomics, a
 * JSON structural indexer built on warp ballots, and a fused fp16 LSTM
 * cell for a few sequences (a launch of a few microseconds).  Only NVRTC
 * compiles this file; the OpenCL backend skips its jobs.  Written for this
 * suite, independently of the core suite and the earlier validation
 * suites. */
#include "sp_dev.h"

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

/* ---- fp16 GEMM, split-K with atomics --------------------------------------------
 * C (M x N, float) += A (M x K, half, row-major) B (K x N, half, given as
 * N x K row-major: column-major B), K cut into gridDim.z slices.  A block
 * of 4 warps owns a 64x64 tile of C for one slice, each warp 32x32 as 2x2
 * WMMA fragments fed straight from global memory (L2); the tile goes
 * through shared memory and is added to C with float atomicAdd. */
SP_KERNEL void y_hgemm_splitk(const __half *__restrict__ a, const __half *__restrict__ b,
                              float *__restrict__ c, int n, int k)
{
  __shared__ __align__(32) float tile[64][64];
  const int w = threadIdx.x / 32, wy = w / 2, wx = w % 2;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  const int slice = k / gridDim.z, k0 = blockIdx.z * slice;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  for (int kk = k0; kk < k0 + slice; kk += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[2];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb[2];
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(fa[i], a + (size_t)(m0 + wy * 32 + i * 16) * k + kk, k);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(fb[j], b + (size_t)(n0 + wx * 32 + j * 16) * k + kk, k);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&tile[wy * 32 + i * 16][wx * 32 + j * 16], acc[i][j], 64,
                              wmma::mem_row_major);
  __syncthreads();
  for (int e = threadIdx.x; e < 64 * 64; e += blockDim.x)
    atomicAdd(&c[(size_t)(m0 + e / 64) * n + n0 + e % 64], tile[e / 64][e % 64]);
}

/* ---- JSON structural index with warp ballots ---------------------------------------
 * simdjson's stage 1 on a GPU: each warp walks a JS_SEG-byte segment, 32
 * bytes a step (a byte per lane); ballots give the masks of unescaped
 * quotes and of structural characters; a prefix XOR of the quote mask (with
 * the carry from the previous step, the segment's start state given by a
 * first pass) masks out the insides of strings.  Written: one 32-bit mask
 * of structural characters per 32 bytes. */
#define JS_SEG 4096

SP_KERNEL void y_json_ballot(const unsigned char *__restrict__ text,
                             const unsigned *__restrict__ start_in,
                             unsigned *__restrict__ out, int segs)
{
  const int lane = threadIdx.x % 32, seg = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (seg >= segs) return;
  const unsigned char *p = text + (size_t)seg * JS_SEG;
  unsigned inside = start_in[seg] ? 0xffffffffu : 0u;
  unsigned char last = seg > 0 ? p[-1] : 0;
  for (int s = 0; s < JS_SEG / 32; ++s) {
    const unsigned char ch = p[s * 32 + lane];
    unsigned char before = __shfl_up_sync(0xffffffffu, ch, 1);
    if (lane == 0) before = last;
    last = __shfl_sync(0xffffffffu, ch, 31);
    const unsigned q = __ballot_sync(0xffffffffu, ch == '"' && before != '\\');
    const unsigned st = __ballot_sync(0xffffffffu, ch == '{' || ch == '}' || ch == '[' ||
                                                       ch == ']' || ch == ':' || ch == ',');
    unsigned x = q;
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    const unsigned in = x ^ inside;
    if (lane == 0) out[(size_t)seg * (JS_SEG / 32) + s] = st & ~in;
    inside = (__popc(q) & 1) ? ~inside : inside;
  }
}

/* ---- fused LSTM cell, fp16 ---------------------------------------------------------
 * The pointwise half of an LSTM step after the gate GEMM: gates (i, f, g, o)
 * in half plus bias, the cell state in float; h written in half.  8
 * sequences x 1024 hidden: a few microseconds. */
SP_KERNEL void y_lstm_cell_h16(const __half *__restrict__ gates, const __half *__restrict__ bias,
                               const float *__restrict__ c_prev, float *__restrict__ c_out,
                               __half *__restrict__ h_out, int hidden, int batch)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= hidden * batch) return;
  const int b = e / hidden, j = e % hidden;
  const __half *g = gates + (size_t)b * 4 * hidden;
  const float gi = __half2float(__hadd(g[j], bias[j]));
  const float gf = __half2float(__hadd(g[hidden + j], bias[hidden + j]));
  const float gg = __half2float(__hadd(g[2 * hidden + j], bias[2 * hidden + j]));
  const float go = __half2float(__hadd(g[3 * hidden + j], bias[3 * hidden + j]));
  const float si = 1.0f / (1.0f + __expf(-gi)), sf = 1.0f / (1.0f + __expf(-gf));
  const float so = 1.0f / (1.0f + __expf(-go));
  const float c = sf * c_prev[e] + si * tanhf(gg);
  c_out[e] = c;
  h_out[e] = __float2half_rn(so * tanhf(c));
}
