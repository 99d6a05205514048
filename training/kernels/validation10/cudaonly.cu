/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.cu: CUDA-only kernels of the tenth validation suite (host half:
 * cudaonly.c): a 16 x 16 DCT on fp16 tensor cores, RGB to HSV in half2,
 * a Count-Min sketch in 72 KB of dynamic shared memory (395 blocks, 3 per
 * SM), XXH64 with 16-byte loads, Dilithium NTTs with warp shuffles (265
 * blocks) and a Gram matrix on bf16 tensor cores.  Only NVRTC compiles this
 * file; the OpenCL backend skips its jobs.  Written for this suite,
 * independently of the core suite and the earlier validation suites. */
#include "sp_dev.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

/* ---- 16 x 16 DCT on fp16 tensor cores -----------------------------------------------------------
 * Y = C X C^T for each 16 x 16 tile X of an fp16 image (w wide), C the
 * orthonormal DCT-II matrix in fp16: a warp per tile, C X accumulated in
 * fp32, rounded to fp16 through shared memory, times C^T (C read column-
 * major), the fp32 coefficients stored in place of the tile. */
SP_KERNEL void u_dct16_wmma_f16(const __half *__restrict__ img, const __half *__restrict__ cm,
                                float *__restrict__ out, int w, int ntiles) {
  __shared__ __align__(32) __half cs[256];
  __shared__ __align__(32) float ts[4][256];
  __shared__ __align__(32) __half th[4][256];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int e = threadIdx.x; e < 256; e += blockDim.x) cs[e] = cm[e];
  __syncthreads();
  const int tile = blockIdx.x * 4 + warp;
  if (tile >= ntiles) return;
  const int tx = tile % (w / 16), ty = tile / (w / 16);
  const size_t at = (size_t)ty * 16 * w + (size_t)tx * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fc, ft;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fx;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fct;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(fc, cs, 16);
  wmma::load_matrix_sync(fx, img + at, w);
  wmma::fill_fragment(acc, 0.0f);
  wmma::mma_sync(acc, fc, fx, acc);
  wmma::store_matrix_sync(ts[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 256; e += 32) th[warp][e] = __float2half_rn(ts[warp][e]);
  __syncwarp();
  wmma::load_matrix_sync(ft, th[warp], 16);
  wmma::load_matrix_sync(fct, cs, 16);
  wmma::fill_fragment(acc, 0.0f);
  wmma::mma_sync(acc, ft, fct, acc);
  wmma::store_matrix_sync(out + at, acc, w, wmma::mem_row_major);
}

/* ---- RGB to HSV in half2 ------------------------------------------------------------------------
 * Two RGBA fp16 pixels per thread (one 16-byte load), regrouped into half2
 * channels; V = max, S = (max - min) / max, H from the channel that is the
 * maximum (selected arithmetically with 0 / 1 masks), in turns [0, 1); one
 * 16-byte store of the two HSVA pixels.  Inputs have max - min >= 1/16. */
SP_KERNEL void u_hsv_from_rgb_h2(const uint4 *__restrict__ in, uint4 *__restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint4 v = in[i];
  const __half2 p00 = *(const __half2 *)&v.x, p01 = *(const __half2 *)&v.y;
  const __half2 p10 = *(const __half2 *)&v.z, p11 = *(const __half2 *)&v.w;
  const __half2 r = __lows2half2(p00, p10), g = __highs2half2(p00, p10);
  const __half2 b = __lows2half2(p01, p11), a = __highs2half2(p01, p11);
  const __half2 one = __float2half2_rn(1.0f);
  const __half2 mx = __hmax2(__hmax2(r, g), b), mn = __hmin2(__hmin2(r, g), b);
  const __half2 dl = __hsub2(mx, mn), s = __h2div(dl, mx);
  const __half2 hr = __h2div(__hsub2(g, b), dl);
  const __half2 hg = __hadd2(__float2half2_rn(2.0f), __h2div(__hsub2(b, r), dl));
  const __half2 hb = __hadd2(__float2half2_rn(4.0f), __h2div(__hsub2(r, g), dl));
  const __half2 isr = __heq2(r, mx), isg = __hmul2(__heq2(g, mx), __hsub2(one, isr));
  __half2 h = __hfma2(isr, hr, __hmul2(__hsub2(one, isr), __hfma2(isg, hg, __hmul2(__hsub2(one, isg), hb))));
  h = __hmul2(h, __float2half2_rn(1.0f / 6.0f));
  h = __hadd2(h, __hlt2(h, __float2half2_rn(0.0f)));
  uint4 o;
  *(__half2 *)&o.x = __lows2half2(h, s);
  *(__half2 *)&o.y = __lows2half2(mx, a);
  *(__half2 *)&o.z = __highs2half2(h, s);
  *(__half2 *)&o.w = __highs2half2(mx, a);
  out[i] = o;
}

/* ---- Count-Min sketch ---------------------------------------------------------------------------
 * CM_R rows of CM_W counters in dynamic shared memory per block: every key
 * of the block's share (per keys per thread) adds 1 to one counter per row,
 * hashed with the row's seed (shared atomics, contended on the frequent
 * keys); the block then adds its non-zero counters to the global sketch. */
#define CM_R 4
#define CM_W 4608

SP_KERNEL void u_countmin_smem_395(const uint *__restrict__ keys, uint *__restrict__ sketch,
                                   int per) {
  extern __shared__ uint sk[];
  for (int e = threadIdx.x; e < CM_R * CM_W; e += blockDim.x) sk[e] = 0u;
  __syncthreads();
  const uint *k = keys + (size_t)blockIdx.x * blockDim.x * per;
  for (int j = 0; j < per; ++j) {
    const uint key = k[(size_t)j * blockDim.x + threadIdx.x];
#pragma unroll
    for (int r = 0; r < CM_R; ++r)
      atomicAdd(&sk[r * CM_W + __umulhi(sp_mueller32(key ^ (0x9E3779B9u * (r + 1))), CM_W)], 1u);
  }
  __syncthreads();
  for (int e = threadIdx.x; e < CM_R * CM_W; e += blockDim.x)
    if (sk[e] != 0u) atomicAdd(&sketch[e], sk[e]);
}

/* ---- XXH64 of pages -----------------------------------------------------------------------------
 * XXH64 (seed 0) of each 4 KB page, a thread per page: four 64-bit lanes
 * take the 32-byte stripes (two 16-byte loads each) by multiply-rotate-
 * multiply rounds, then the lanes are merged, the length added and the
 * result avalanched.  out gets the 64-bit hash of each page. */
#define XX_P1 0x9E3779B185EBCA87ull
#define XX_P2 0xC2B2AE3D27D4EB4Full
#define XX_P3 0x165667B19E3779F9ull
#define XX_P4 0x85EBCA77C2B2AE63ull
#define XX_PAGE 4096

__device__ __forceinline__ unsigned long long u_rotl64(unsigned long long x, int r) {
  return (x << r) | (x >> (64 - r));
}

__device__ __forceinline__ unsigned long long u_xxround(unsigned long long acc,
                                                       unsigned long long in) {
  return u_rotl64(acc + in * XX_P2, 31) * XX_P1;
}

__device__ __forceinline__ unsigned long long u_xxmerge(unsigned long long h,
                                                       unsigned long long v) {
  return (h ^ u_xxround(0, v)) * XX_P1 + XX_P4;
}

SP_KERNEL void u_xxh64_pages_v4(const uint4 *__restrict__ data,
                                unsigned long long *__restrict__ out, int npages) {
  const int pg = blockIdx.x * blockDim.x + threadIdx.x;
  if (pg >= npages) return;
  const uint4 *p = data + (size_t)pg * (XX_PAGE / 16);
  unsigned long long v1 = XX_P1 + XX_P2, v2 = XX_P2, v3 = 0, v4 = 0 - XX_P1;
  for (int s = 0; s < XX_PAGE / 32; ++s) {
    const uint4 a = p[2 * s], b = p[2 * s + 1];
    v1 = u_xxround(v1, (unsigned long long)a.y << 32 | a.x);
    v2 = u_xxround(v2, (unsigned long long)a.w << 32 | a.z);
    v3 = u_xxround(v3, (unsigned long long)b.y << 32 | b.x);
    v4 = u_xxround(v4, (unsigned long long)b.w << 32 | b.z);
  }
  unsigned long long h = u_rotl64(v1, 1) + u_rotl64(v2, 7) + u_rotl64(v3, 12) + u_rotl64(v4, 18);
  h = u_xxmerge(u_xxmerge(u_xxmerge(u_xxmerge(h, v1), v2), v3), v4);
  h += XX_PAGE;
  h ^= h >> 33;
  h *= XX_P2;
  h ^= h >> 29;
  h *= XX_P3;
  h ^= h >> 32;
  out[pg] = h;
}

/* ---- Dilithium NTT ------------------------------------------------------------------------------
 * A warp per row of Dilithium's A s: for each of the 4 polynomials of s
 * (256 coefficients mod q = 8380417, lane l holding coefficients l + 32 i)
 * the forward NTT of the reference implementation (Cooley-Tukey, zetas in
 * Montgomery form, no reduction between layers): layers of length 128, 64
 * and 32 inside each lane's registers, 16 to 1 across lanes by shuffles;
 * then the pointwise Montgomery products with the row's 4 polynomials of A,
 * summed.  Each warp takes per rows in turn. */
#define NT_Q 8380417
#define NT_QINV 58728449u

__device__ __forceinline__ int u_mont(long long a) {
  const int t = (int)((uint)(unsigned long long)a * NT_QINV);
  return (int)((a - (long long)t * NT_Q) >> 32);
}

SP_KERNEL void u_ntt_dilithium_265(const int *__restrict__ s, const int *__restrict__ ahat,
                                   const int *__restrict__ zetas, int *__restrict__ out, int per) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int it = 0; it < per; ++it) {
    const size_t row = ((size_t)blockIdx.x * (blockDim.x / 32) + warp) * per + it;
    int acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < 4; ++j) {
      int a[8];
#pragma unroll
      for (int i = 0; i < 8; ++i) a[i] = s[(row * 4 + j) * 256 + lane + 32 * i];
#pragma unroll
      for (int d = 4; d >= 1; d >>= 1) /* lengths 128, 64, 32: i and i + d */
#pragma unroll
        for (int i = 0; i < 8; ++i)
          if ((i & d) == 0) {
            const int z = zetas[4 / d + i / (2 * d)];
            const int t = u_mont((long long)z * a[i + d]);
            a[i + d] = a[i] - t;
            a[i] = a[i] + t;
          }
#pragma unroll
      for (int len = 16; len >= 1; len >>= 1) {
        const int upper = (lane & len) != 0;
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          const int jj = lane + 32 * i, z = zetas[128 / len + jj / (2 * len)];
          const int other = __shfl_xor_sync(0xffffffffu, a[i], len);
          a[i] = upper ? other - u_mont((long long)z * a[i]) : a[i] + u_mont((long long)z * other);
        }
      }
#pragma unroll
      for (int i = 0; i < 8; ++i)
        acc[i] += u_mont((long long)ahat[j * 256 + lane + 32 * i] * a[i]);
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) out[row * 256 + lane + 32 * i] = acc[i];
  }
}

/* ---- Gram matrix on bf16 tensor cores -----------------------------------------------------------
 * G += A^T A for a tall matrix A (64 bf16 columns, row-major): a block of 4
 * warps per GR_ROWS rows, warp w owning the output rows 16 w .. 16 w + 15
 * (4 accumulator tiles); A^T's tile is A's read column-major.  The block's
 * 64 x 64 sum goes through shared memory into G by float atomics. */
#define GR_ROWS 2048

SP_KERNEL void u_cholqr_gram_bf16(const __nv_bfloat16 *__restrict__ a, float *__restrict__ g) {
  __shared__ __align__(32) float gs[64 * 64];
  const int warp = threadIdx.x / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4];
#pragma unroll
  for (int jb = 0; jb < 4; ++jb) wmma::fill_fragment(acc[jb], 0.0f);
  const __nv_bfloat16 *blk = a + (size_t)blockIdx.x * GR_ROWS * 64;
  for (int r0 = 0; r0 < GR_ROWS; r0 += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::col_major> fa;
    wmma::load_matrix_sync(fa, blk + (size_t)r0 * 64 + 16 * warp, 64);
#pragma unroll
    for (int jb = 0; jb < 4; ++jb) {
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
      wmma::load_matrix_sync(fb, blk + (size_t)r0 * 64 + 16 * jb, 64);
      wmma::mma_sync(acc[jb], fa, fb, acc[jb]);
    }
  }
#pragma unroll
  for (int jb = 0; jb < 4; ++jb)
    wmma::store_matrix_sync(gs + 16 * warp * 64 + 16 * jb, acc[jb], 64, wmma::mem_row_major);
  __syncthreads();
  for (int e = threadIdx.x; e < 64 * 64; e += blockDim.x) atomicAdd(&g[e], gs[e]);
}
