/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.cu: CUDA-only kernels of the eighth validation suite (host half:
 * cudaonly.c): RAID-6 syndromes with 16-byte loads, brute-force k-nearest
 * neighbours in 96 KB of dynamic shared memory (265 blocks, 2 per SM),
 * pairwise distances on TF32 tensor cores, a mixture-of-experts grouped GEMM
 * on bf16 tensor cores, a half2 FIR filter and Smith-Waterman alignment
 * pipelined through warp shuffles.  Only NVRTC compiles this file; the
 * OpenCL backend skips its jobs.  Written for this suite, independently of
 * the core suite and the earlier validation suites. */
#include "sp_dev.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

/* ---- RAID-6 P and Q syndromes ------------------------------------------------------------------
 * Linux's raid6 int algorithm on 16 bytes at a time: P = D0 ^ ... ^ D7 and
 * Q = sum g^i D_i over GF(2^8) (polynomial 0x11d) by Horner's rule from the
 * last disk, multiplying packed bytes by 2 with shifts and masks.  Disk k's
 * data is data[k n4 .. (k + 1) n4). */
#define RAID_D 8

__device__ __forceinline__ uint s_gf_mul2(uint v) {
  const uint hi = v & 0x80808080u;
  return ((v << 1) & 0xfefefefeu) ^ ((hi >> 7) * 0x1du);
}

SP_KERNEL void s_raid6_pq_v4(const uint4 *__restrict__ data, uint4 *__restrict__ p,
                             uint4 *__restrict__ q, int n4) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  uint4 d[RAID_D];
#pragma unroll
  for (int k = 0; k < RAID_D; ++k) d[k] = data[(size_t)k * n4 + i];
  uint4 pp = d[RAID_D - 1], qq = d[RAID_D - 1];
#pragma unroll
  for (int k = RAID_D - 2; k >= 0; --k) {
    qq.x = s_gf_mul2(qq.x) ^ d[k].x;
    qq.y = s_gf_mul2(qq.y) ^ d[k].y;
    qq.z = s_gf_mul2(qq.z) ^ d[k].z;
    qq.w = s_gf_mul2(qq.w) ^ d[k].w;
    pp.x ^= d[k].x;
    pp.y ^= d[k].y;
    pp.z ^= d[k].z;
    pp.w ^= d[k].w;
  }
  p[i] = pp;
  q[i] = qq;
}

/* ---- brute-force k-nearest neighbours ----------------------------------------------------------
 * A thread per query keeps its KNN_K nearest points (squared distance, then
 * index: a point replaces another only when strictly nearer) in registers;
 * the points stream through dynamic shared memory KNN_CH at a time. */
#define KNN_K 8
#define KNN_CH 6144

SP_KERNEL void s_knn_brute_265(const float4 *__restrict__ pts, const float4 *__restrict__ qry,
                               uint *__restrict__ out, int npts) {
  extern __shared__ float4 kn_pts[];
  const int qi = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 q = qry[qi];
  float bd[KNN_K];
  uint bi[KNN_K];
#pragma unroll
  for (int s = 0; s < KNN_K; ++s) {
    bd[s] = 3.0e38f;
    bi[s] = 0xFFFFFFFFu;
  }
  for (int c0 = 0; c0 < npts; c0 += KNN_CH) {
    __syncthreads();
    for (int k = threadIdx.x; k < KNN_CH; k += blockDim.x) kn_pts[k] = pts[c0 + k];
    __syncthreads();
    for (int j = 0; j < KNN_CH; ++j) {
      const float4 r = kn_pts[j];
      const float dx = r.x - q.x, dy = r.y - q.y, dz = r.z - q.z;
      float cd = dx * dx + dy * dy + dz * dz;
      if (cd < bd[KNN_K - 1]) {
        uint ci = (uint)(c0 + j);
#pragma unroll
        for (int s = 0; s < KNN_K; ++s)
          if (cd < bd[s]) {
            const float td = bd[s];
            const uint ti = bi[s];
            bd[s] = cd;
            bi[s] = ci;
            cd = td;
            ci = ti;
          }
      }
    }
  }
#pragma unroll
  for (int s = 0; s < KNN_K; ++s) out[(size_t)qi * KNN_K + s] = bi[s];
}

/* ---- pairwise distances on TF32 tensor cores ---------------------------------------------------
 * out[i][j] = sqrt(max(|x_i|^2 + |y_j|^2 - 2 x_i . y_j, 0)): a block of 4
 * warps per 64 x 64 tile, warp (wr, wc) owning a 32 x 32 quarter; x and y
 * rows stream through shared memory 32 dimensions at a time (rows padded to
 * CD_LD floats), the dot products on m16n16k8 TF32 fragments, the squared
 * norms summed by the first 128 threads on the way.  Each warp turns its
 * quarter into distances through a shared scratch tile. */
#define CD_T 64
#define CD_KC 32
#define CD_LD 36

SP_KERNEL void s_cdist_tf32(const float *__restrict__ x, const float *__restrict__ y,
                            float *__restrict__ out, int n, int dim) {
  __shared__ __align__(32) float xs[CD_T * CD_LD], ys[CD_T * CD_LD];
  __shared__ __align__(32) float cs[4][32 * CD_LD];
  __shared__ float xn[CD_T], yn[CD_T];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wr = warp / 2, wc = warp % 2;
  const size_t bm = (size_t)blockIdx.y * CD_T, bn = (size_t)blockIdx.x * CD_T;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  float norm = 0.0f;
  for (int k0 = 0; k0 < dim; k0 += CD_KC) {
    __syncthreads();
    for (int e = threadIdx.x; e < CD_T * CD_KC; e += blockDim.x) {
      const int r = e / CD_KC, c = e % CD_KC;
      xs[r * CD_LD + c] = x[(bm + r) * dim + k0 + c];
      ys[r * CD_LD + c] = y[(bn + r) * dim + k0 + c];
    }
    __syncthreads();
    const float *own =
        threadIdx.x < CD_T ? xs + threadIdx.x * CD_LD : ys + (threadIdx.x - CD_T) * CD_LD;
    for (int c = 0; c < CD_KC; ++c) norm += own[c] * own[c];
#pragma unroll
    for (int kk = 0; kk < CD_KC; kk += 8) {
      wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb[2];
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        wmma::load_matrix_sync(fa[i], xs + (wr * 32 + i * 16) * CD_LD + kk, CD_LD);
        wmma::load_matrix_sync(fb[i], ys + (wc * 32 + i * 16) * CD_LD + kk, CD_LD);
#pragma unroll
        for (int t = 0; t < fa[i].num_elements; ++t) fa[i].x[t] = wmma::__float_to_tf32(fa[i].x[t]);
#pragma unroll
        for (int t = 0; t < fb[i].num_elements; ++t) fb[i].x[t] = wmma::__float_to_tf32(fb[i].x[t]);
      }
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
  }
  if (threadIdx.x < CD_T)
    xn[threadIdx.x] = norm;
  else
    yn[threadIdx.x - CD_T] = norm;
  __syncthreads();
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(cs[warp] + i * 16 * CD_LD + j * 16, acc[i][j], CD_LD,
                              wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 32 * 32; e += 32) {
    const int r = e / 32, c = e % 32, row = wr * 32 + r, col = wc * 32 + c;
    const float d2 = xn[row] + yn[col] - 2.0f * cs[warp][r * CD_LD + c];
    out[(bm + row) * n + bn + col] = sqrtf(fmaxf(d2, 0.0f));
  }
}

/* ---- mixture-of-experts grouped GEMM, bf16 ------------------------------------------------------
 * Tokens are grouped by expert (x rows row0[e] ..); expert e multiplies its
 * tokens by w[e] (K x N, row-major).  Block b computes one 64 x 64 tile of
 * one expert's output, the expert found from the tiles' prefix counts
 * (meta[0..E], then the experts' first rows meta[E + 1 ..]).  4 warps of
 * 32 x 32, x and w staged in shared memory 32 deep with 16-byte loads,
 * m16n16k16 bf16 fragments, fp32 results stored straight to y. */
#define MOE_KC 32
#define MOE_XLD 40
#define MOE_WLD 72

SP_KERNEL void s_moe_gemm_bf16(const __nv_bfloat16 *__restrict__ x,
                               const __nv_bfloat16 *__restrict__ w, const int *__restrict__ meta,
                               float *__restrict__ y, int ne, int kdim, int ndim) {
  __shared__ __align__(32) __nv_bfloat16 xs[64 * MOE_XLD], ws[MOE_KC * MOE_WLD];
  const int tile = blockIdx.x;
  int e = 0;
  while (e + 1 < ne && meta[e + 1] <= tile) ++e;
  const int local = tile - meta[e], ntn = ndim / 64;
  const size_t row0 = (size_t)meta[ne + 1 + e] + (size_t)(local / ntn) * 64;
  const int col0 = local % ntn * 64;
  const __nv_bfloat16 *we = w + (size_t)e * kdim * ndim;
  const int warp = threadIdx.x / 32, wr = warp / 2, wc = warp % 2;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < kdim; k0 += MOE_KC) {
    __syncthreads();
    for (int v = threadIdx.x; v < 64 * MOE_KC / 8; v += blockDim.x) { /* 8 bf16 per uint4 */
      const int r = v / (MOE_KC / 8), c = v % (MOE_KC / 8) * 8;
      *(uint4 *)&xs[r * MOE_XLD + c] = *(const uint4 *)&x[(row0 + r) * kdim + k0 + c];
      const int wr2 = v / 8, wc2 = v % 8 * 8;
      *(uint4 *)&ws[wr2 * MOE_WLD + wc2] =
          *(const uint4 *)&we[(size_t)(k0 + wr2) * ndim + col0 + wc2];
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < MOE_KC; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb[2];
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        wmma::load_matrix_sync(fa[i], xs + (wr * 32 + i * 16) * MOE_XLD + kk, MOE_XLD);
        wmma::load_matrix_sync(fb[i], ws + kk * MOE_WLD + wc * 32 + i * 16, MOE_WLD);
      }
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
  }
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(y + (row0 + wr * 32 + i * 16) * ndim + col0 + wc * 32 + j * 16,
                              acc[i][j], ndim, wmma::mem_row_major);
}

/* ---- 256-tap FIR filter, half2 -----------------------------------------------------------------
 * y[n] = sum_k h[k] x[n - k] (x = 0 before the start), accumulated in half
 * in tap order.  A block of 256 threads makes 2048 outputs from a window of
 * x (FIR_K samples before them) in shared memory; a thread makes 8, as four
 * half2 accumulators of neighbouring outputs: even taps take aligned pairs
 * of x, odd taps pairs straddling two (high half of one, low of the next),
 * one new pair loaded per pair of taps as the window slides. */
#define FIR_K 256
#define FIR_OUT 2048

SP_KERNEL void s_fir256_h2(const __half *__restrict__ x, const __half *__restrict__ taps,
                           float *__restrict__ y, int n) {
  __shared__ __half2 xw[(FIR_OUT + FIR_K) / 2];
  __shared__ __half hs[FIR_K];
  const long base = (long)blockIdx.x * FIR_OUT;
  const __half zero = __float2half(0.0f);
  for (int k = threadIdx.x; k < (FIR_OUT + FIR_K) / 2; k += blockDim.x) {
    const long g = base - FIR_K + 2 * k;
    xw[k] = __halves2half2(g >= 0 ? x[g] : zero, g + 1 >= 0 ? x[g + 1] : zero);
  }
  for (int k = threadIdx.x; k < FIR_K; k += blockDim.x) hs[k] = taps[k];
  __syncthreads();
  const int t = threadIdx.x, p0 = 4 * t + FIR_K / 2; /* pair index of x[base + 8 t] */
  __half2 pr[5], acc[4];
#pragma unroll
  for (int j = 0; j < 5; ++j) pr[j] = xw[p0 - 1 + j];
#pragma unroll
  for (int j = 0; j < 4; ++j) acc[j] = __float2half2_rn(0.0f);
  for (int u = 0; u < FIR_K / 2; ++u) {
    const __half2 he = __half2half2(hs[2 * u]), ho = __half2half2(hs[2 * u + 1]);
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[j] = __hfma2(he, pr[j + 1], acc[j]);
#pragma unroll
    for (int j = 0; j < 4; ++j)
      acc[j] = __hfma2(ho, __halves2half2(__high2half(pr[j]), __low2half(pr[j + 1])), acc[j]);
    if (u + 1 < FIR_K / 2) {
#pragma unroll
      for (int j = 4; j > 0; --j) pr[j] = pr[j - 1];
      pr[0] = xw[p0 - 2 - u];
    }
  }
  const long o = base + 8 * t;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    if (o + 2 * j < n) y[o + 2 * j] = __low2float(acc[j]);
    if (o + 2 * j + 1 < n) y[o + 2 * j + 1] = __high2float(acc[j]);
  }
}

/* ---- Smith-Waterman with affine gaps, a warp per pair ------------------------------------------
 * Gotoh's recurrences (H, E along the query, F along the target) for a
 * query of SW_Q bases against a target of SW_T.  Lane l owns query columns
 * 4 l .. 4 l + 3 and handles target row s - l at step s, so the warp sweeps
 * anti-diagonals: each step a lane takes H and E of its left neighbour's
 * last column (and the target base) by __shfl_up_sync, keeps the row above
 * (H, F) in registers and the previous received H as its diagonal.  The
 * best H over the matrix is the local alignment score. */
#define SW_Q 128
#define SW_T 512
#define SW_MATCH 2
#define SW_MISMATCH (-3)
#define SW_GO 5
#define SW_GE 2
#define SW_NEG (-1000000)

SP_KERNEL void s_sw_affine_shfl(const unsigned char *__restrict__ qs,
                                const unsigned char *__restrict__ ts, int *__restrict__ score,
                                int npairs) {
  const int pair = (blockIdx.x * blockDim.x + threadIdx.x) / 32, l = threadIdx.x % 32;
  if (pair >= npairs) return;
  const unsigned char *tgt = ts + (size_t)pair * SW_T;
  int qc[4], hp[4], f[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    qc[c] = qs[(size_t)pair * SW_Q + 4 * l + c];
    hp[c] = 0;
    f[c] = SW_NEG;
  }
  int send_h = 0, send_e = SW_NEG, send_t = 0, prev_h = 0, best = 0;
  for (int s = 0; s < SW_T + 31; ++s) {
    int rh = __shfl_up_sync(0xffffffffu, send_h, 1), re = __shfl_up_sync(0xffffffffu, send_e, 1);
    int rt = __shfl_up_sync(0xffffffffu, send_t, 1);
    if (l == 0) {
      rh = 0;
      re = SW_NEG;
      rt = s < SW_T ? tgt[s] : 0;
    }
    const int i = s - l;
    if (i >= 0 && i < SW_T) {
      int hl = rh, el = re, diag = prev_h;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const int e = max(el - SW_GE, hl - SW_GO);
        f[c] = max(f[c] - SW_GE, hp[c] - SW_GO);
        const int h = max(max(0, diag + (qc[c] == rt ? SW_MATCH : SW_MISMATCH)), max(e, f[c]));
        diag = hp[c];
        hp[c] = h;
        hl = h;
        el = e;
        best = max(best, h);
      }
      send_h = hl;
      send_e = el;
    } else {
      send_h = 0;
      send_e = SW_NEG;
    }
    send_t = rt;
    prev_h = rh;
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) best = max(best, __shfl_xor_sync(0xffffffffu, best, o));
  if (l == 0) score[pair] = best;
}
