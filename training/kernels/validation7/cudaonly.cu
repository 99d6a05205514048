/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.cu: CUDA-only kernels of the seventh validation suite (host half:
 * cudaonly.c): the output of chunked causal linear attention on bf16 tensor
 * cores, a fully fused tiny MLP in packed half2 arithmetic, the Game of
 * Life with temporal blocking in 98 KB of dynamic shared memory (265
 * blocks, 2 per SM), and vLLM-style KV-cache block copies with 16-byte
 * loads.  Only NVRTC compiles this file; the OpenCL backend skips its jobs.
 * Written for this suite, independently of the core suite and the earlier
 * validation suites. */
#include "sp_dev.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

/* ---- chunked causal linear attention, output stage, bf16 WMMA -----------------------------------
 * For each (batch-head, chunk of LA_C tokens): O = scale (Q h + tril(Q K^T)
 * V), Q, K, V the chunk's rows (LA_C x LA_D, bf16), h the state of the
 * chunks before (LA_D x LA_D, bf16, from the state-passing kernel), O in
 * fp32.  A block of 4 warps per chunk, warp w owns rows 16 w..16 w + 15:
 * S = Q K^T only for its causal column tiles, masked and rounded to bf16
 * through a per-warp scratch tile, then S V over the tokens up to its rows
 * and Q h.  Q, K, V and h are staged in dynamic shared memory with 16-byte
 * loads (rows padded to LA_LD elements against bank conflicts). */
#define LA_C 64
#define LA_D 64
#define LA_LD 72
#define LA_SLD 20

SP_KERNEL void r_linattn_chunk_bf16(const __nv_bfloat16 *__restrict__ q,
                                    const __nv_bfloat16 *__restrict__ k,
                                    const __nv_bfloat16 *__restrict__ v,
                                    const __nv_bfloat16 *__restrict__ hst, float *__restrict__ o,
                                    int seq, float scale) {
  extern __shared__ __align__(128) unsigned char la_smem[];
  __nv_bfloat16 *qs = (__nv_bfloat16 *)la_smem, *ks = qs + LA_C * LA_LD;
  __nv_bfloat16 *vs = ks + LA_C * LA_LD, *hs = vs + LA_C * LA_LD, *ss = hs + LA_D * LA_LD;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, r0 = warp * 16;
  float *scr = (float *)(ss + LA_C * LA_LD) + warp * 16 * LA_SLD;
  const size_t base = ((size_t)blockIdx.y * seq + (size_t)blockIdx.x * LA_C) * LA_D;
  const size_t hbase = ((size_t)blockIdx.y * (seq / LA_C) + blockIdx.x) * LA_D * LA_D;
  for (int e = threadIdx.x; e < LA_C * LA_D / 8; e += blockDim.x) {
    const int row = e / (LA_D / 8), c = e % (LA_D / 8) * 8;
    *(uint4 *)&qs[row * LA_LD + c] = *(const uint4 *)&q[base + row * LA_D + c];
    *(uint4 *)&ks[row * LA_LD + c] = *(const uint4 *)&k[base + row * LA_D + c];
    *(uint4 *)&vs[row * LA_LD + c] = *(const uint4 *)&v[base + row * LA_D + c];
    *(uint4 *)&hs[row * LA_LD + c] = *(const uint4 *)&hst[hbase + row * LA_D + c];
  }
  __syncthreads();
  /* fragment arrays indexed by unrolled loops only, so they stay in registers */
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) wmma::fill_fragment(acc[j], 0.0f);
  for (int kk = 0; kk < LA_D; kk += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, &qs[r0 * LA_LD + kk], LA_LD);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      if (j > warp) continue; /* above the diagonal: masked anyway */
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
      wmma::load_matrix_sync(fb, &ks[j * 16 * LA_LD + kk], LA_LD);
      wmma::mma_sync(acc[j], fa, fb, acc[j]);
    }
  }
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    if (j > warp) continue;
    wmma::store_matrix_sync(scr, acc[j], LA_SLD, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 256; e += 32) {
      const int rr = e / 16, cc = e % 16, ti = r0 + rr, tj = j * 16 + cc;
      ss[ti * LA_LD + tj] = __float2bfloat16(tj <= ti ? scr[rr * LA_SLD + cc] : 0.0f);
    }
    __syncwarp();
  }
#pragma unroll
  for (int j = 0; j < 4; ++j) wmma::fill_fragment(acc[j], 0.0f);
  for (int kk = 0; kk <= r0; kk += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, &ss[r0 * LA_LD + kk], LA_LD);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
      wmma::load_matrix_sync(fb, &vs[kk * LA_LD + j * 16], LA_LD);
      wmma::mma_sync(acc[j], fa, fb, acc[j]);
    }
  }
  for (int kk = 0; kk < LA_D; kk += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, &qs[r0 * LA_LD + kk], LA_LD);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
      wmma::load_matrix_sync(fb, &hs[kk * LA_LD + j * 16], LA_LD);
      wmma::mma_sync(acc[j], fa, fb, acc[j]);
    }
  }
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    for (int i = 0; i < acc[j].num_elements; ++i) acc[j].x[i] *= scale;
    wmma::store_matrix_sync(&o[base + (size_t)r0 * LA_D + j * 16], acc[j], LA_D,
                            wmma::mem_row_major);
  }
}

/* ---- fully fused tiny MLP, half2 ------------------------------------------------------------
 * 32 -> 64 -> 64 -> 16 with ReLU after the hidden layers and no biases
 * (tiny-cuda-nn's FullyFusedMLP shape), a thread per point. Weights are
 * packed by output pairs: entry (i, o) of a layer is (W[2 o][i], W[2 o +
 * 1][i]) as a half2, so each input element, broadcast to both halves, feeds
 * two outputs per __hfma2. The packed weights (14 KB) sit in shared memory;
 * the activations in registers. */
#define TM_IN 32
#define TM_H 64
#define TM_OUT 16
#define TM_W (TM_IN * TM_H / 2 + TM_H * TM_H / 2 + TM_H * TM_OUT / 2)

__device__ __forceinline__ __half r_lane(const __half2 *v, int i) {
  return (i & 1) ? __high2half(v[i / 2]) : __low2half(v[i / 2]);
}

SP_KERNEL void r_tinymlp_h2(const uint4 *__restrict__ x, const __half2 *__restrict__ w,
                            float *__restrict__ out, int n) {
  __shared__ __half2 ws[TM_W];
  for (int i = threadIdx.x; i < TM_W; i += blockDim.x) ws[i] = w[i];
  __syncthreads();
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  __half2 in[TM_IN / 2], h1[TM_H / 2], h2[TM_H / 2], y[TM_OUT / 2];
  const __half2 zero = __float2half2_rn(0.0f);
#pragma unroll
  for (int k = 0; k < TM_IN / 8; ++k) {
    const uint4 u = x[(size_t)p * (TM_IN / 8) + k];
    in[4 * k] = *(const __half2 *)&u.x;
    in[4 * k + 1] = *(const __half2 *)&u.y;
    in[4 * k + 2] = *(const __half2 *)&u.z;
    in[4 * k + 3] = *(const __half2 *)&u.w;
  }
#pragma unroll
  for (int o = 0; o < TM_H / 2; ++o) h1[o] = h2[o] = zero;
#pragma unroll
  for (int o = 0; o < TM_OUT / 2; ++o) y[o] = zero;
#pragma unroll
  for (int i = 0; i < TM_IN; ++i) {
    const __half2 xi = __half2half2(r_lane(in, i));
#pragma unroll
    for (int o = 0; o < TM_H / 2; ++o) h1[o] = __hfma2(xi, ws[i * (TM_H / 2) + o], h1[o]);
  }
#pragma unroll
  for (int o = 0; o < TM_H / 2; ++o) h1[o] = __hmax2(h1[o], zero);
#pragma unroll
  for (int i = 0; i < TM_H; ++i) {
    const __half2 xi = __half2half2(r_lane(h1, i));
#pragma unroll
    for (int o = 0; o < TM_H / 2; ++o)
      h2[o] = __hfma2(xi, ws[TM_IN * TM_H / 2 + i * (TM_H / 2) + o], h2[o]);
  }
#pragma unroll
  for (int o = 0; o < TM_H / 2; ++o) h2[o] = __hmax2(h2[o], zero);
#pragma unroll
  for (int i = 0; i < TM_H; ++i) {
    const __half2 xi = __half2half2(r_lane(h2, i));
#pragma unroll
    for (int o = 0; o < TM_OUT / 2; ++o)
      y[o] = __hfma2(xi, ws[TM_IN * TM_H / 2 + TM_H * TM_H / 2 + i * (TM_OUT / 2) + o], y[o]);
  }
#pragma unroll
  for (int o = 0; o < TM_OUT / 2; ++o) {
    const float2 f = __half22float2(y[o]);
    out[(size_t)p * TM_OUT + 2 * o] = f.x;
    out[(size_t)p * TM_OUT + 2 * o + 1] = f.y;
  }
}

/* ---- Game of Life, temporal blocking --------------------------------------------------------
 * A block per LF_T x LF_T tile of a torus: the tile and a halo of LF_G cells
 * go into shared memory (LF_S^2 bytes, one per cell, twice), LF_G generations
 * run there (generation g is valid on [g, LF_S - g), a barrier between
 * generations) and the tile's interior is written back. */
#define LF_T 192
#define LF_G 16
#define LF_S (LF_T + 2 * LF_G)

SP_KERNEL void r_life_tblock_265(const unsigned char *__restrict__ in,
                                 unsigned char *__restrict__ out, int w, int h) {
  extern __shared__ unsigned char lf_smem[];
  unsigned char *a = lf_smem, *b = lf_smem + LF_S * LF_S;
  const int x0 = blockIdx.x * LF_T, y0 = blockIdx.y * LF_T;
  for (int k = threadIdx.x; k < LF_S * LF_S; k += blockDim.x) {
    const int gy = (y0 - LF_G + k / LF_S + h) % h, gx = (x0 - LF_G + k % LF_S + w) % w;
    a[k] = in[(size_t)gy * w + gx];
  }
  __syncthreads();
  for (int g = 1; g <= LF_G; ++g) {
    const int span = LF_S - 2 * g;
    for (int k = threadIdx.x; k < span * span; k += blockDim.x) {
      const int c = (g + k / span) * LF_S + g + k % span;
      const int nb = a[c - LF_S - 1] + a[c - LF_S] + a[c - LF_S + 1] + a[c - 1] + a[c + 1] +
                     a[c + LF_S - 1] + a[c + LF_S] + a[c + LF_S + 1];
      b[c] = nb == 3 || (nb == 2 && a[c]);
    }
    __syncthreads();
    unsigned char *t = a;
    a = b;
    b = t;
  }
  for (int k = threadIdx.x; k < LF_T * LF_T; k += blockDim.x) {
    const int yy = k / LF_T, xx = k % LF_T;
    out[(size_t)(y0 + yy) * w + x0 + xx] = a[(yy + LF_G) * LF_S + xx + LF_G];
  }
}

/* ---- KV-cache block copies, 16-byte ---------------------------------------------------------
 * vLLM's copy_blocks (forking beams): a block per (pair, layer) copies the
 * source block of the key cache and of the value cache onto the destination
 * block, words4 uint4 each. Caches are [layer][block][words4]. */
SP_KERNEL void r_kv_copy_blocks_v4(uint4 *__restrict__ kc, uint4 *__restrict__ vc,
                                   const int *__restrict__ pairs, int nblocks, int words4) {
  const size_t layer = (size_t)blockIdx.y * nblocks * words4;
  const size_t src = layer + (size_t)pairs[2 * blockIdx.x] * words4;
  const size_t dst = layer + (size_t)pairs[2 * blockIdx.x + 1] * words4;
  for (int i = threadIdx.x; i < words4; i += blockDim.x) {
    kc[dst + i] = kc[src + i];
    vc[dst + i] = vc[src + i];
  }
}
