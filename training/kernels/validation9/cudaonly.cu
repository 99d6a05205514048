/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.cu: CUDA-only kernels of the ninth validation suite (host half:
 * cudaonly.c): ORB descriptor matching on binary (b1) tensor cores, a
 * 4-qubit gate on a state vector through TF32 tensor cores, feature warping
 * by optical flow in half2, FP8 (E4M3) quantisation with 16-byte vectors,
 * canonical k-mer counting with warp match and 64 KB of shared memory
 * (397 blocks, 3 per SM), and semi-global-matching path aggregation with
 * warp reductions.  Only NVRTC compiles this file; the OpenCL backend
 * skips its jobs.  Written for this suite, independently of
 * the core suite and the earlier validation suites. */
#include "sp_dev.h"

#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <mma.h>

using namespace nvcuda;

/* ---- ORB matching on b1 tensor cores ------------------------------------------------------------
 * Brute-force Hamming matching (OpenCV's BFMatcher with NORM_HAMMING) of
 * 256-bit descriptors, stored as two planes of their 128-bit halves.  A
 * warp takes 8 queries; for every 8 train descriptors (staged in shared
 * memory OB_CH at a time, with their popcounts) two m8n8k128 b1 bmma with
 * AND + POPC give |q & t|, so |q ^ t| = |q| + |t| - 2 |q & t|; lanes keep the
 * nearest (lowest index on ties) of their columns, then a row's four lanes
 * agree by shuffles.  out per query: index, distance. */
#define OB_CH 1024

SP_KERNEL void t_orb_match_b1(const uint *__restrict__ qd, const uint *__restrict__ td,
                              uint *__restrict__ out, int nq, int nt) {
  __shared__ __align__(128) uint ts[2][OB_CH * 4];
  __shared__ int tp[OB_CH];
  __shared__ __align__(32) int cs[8][64];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, row = lane / 4, c2 = lane % 4 * 2;
  const int q0 = (blockIdx.x * 8 + warp) * 8;
  wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major>
      fa[2];
  int qp = 0;
#pragma unroll
  for (int k = 0; k < 2; ++k) {
    wmma::load_matrix_sync(fa[k], qd + (size_t)k * nq * 4 + (size_t)q0 * 4, 128);
#pragma unroll
    for (int w = 0; w < 4; ++w) qp += __popc(qd[(size_t)k * nq * 4 + (size_t)(q0 + row) * 4 + w]);
  }
  int best_d = 1 << 30, best_i = 0;
  for (int c0 = 0; c0 < nt; c0 += OB_CH) {
    __syncthreads();
    for (int e = threadIdx.x; e < OB_CH * 4; e += blockDim.x) {
      ts[0][e] = td[(size_t)c0 * 4 + e];
      ts[1][e] = td[(size_t)nt * 4 + (size_t)c0 * 4 + e];
    }
    __syncthreads();
    for (int e = threadIdx.x; e < OB_CH; e += blockDim.x) {
      int p = 0;
#pragma unroll
      for (int w = 0; w < 4; ++w) p += __popc(ts[0][4 * e + w]) + __popc(ts[1][4 * e + w]);
      tp[e] = p;
    }
    __syncthreads();
    for (int j0 = 0; j0 < OB_CH; j0 += 8) {
      wmma::fragment<wmma::accumulator, 8, 8, 128, int> acc;
      wmma::fill_fragment(acc, 0);
#pragma unroll
      for (int k = 0; k < 2; ++k) {
        wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1,
                       wmma::col_major>
            fb;
        wmma::load_matrix_sync(fb, ts[k] + j0 * 4, 128);
        wmma::bmma_sync(acc, fa[k], fb, acc, wmma::experimental::bmmaBitOpAND);
      }
      wmma::store_matrix_sync(cs[warp], acc, 8, wmma::mem_row_major);
      __syncwarp();
#pragma unroll
      for (int u = 0; u < 2; ++u) {
        const int col = c2 + u, dd = qp + tp[j0 + col] - 2 * cs[warp][row * 8 + col];
        if (dd < best_d) {
          best_d = dd;
          best_i = c0 + j0 + col;
        }
      }
      __syncwarp();
    }
  }
#pragma unroll
  for (int off = 1; off < 4; off <<= 1) {
    const int od = __shfl_xor_sync(0xffffffffu, best_d, off);
    const int oi = __shfl_xor_sync(0xffffffffu, best_i, off);
    if (od < best_d || (od == best_d && oi < best_i)) {
      best_d = od;
      best_i = oi;
    }
  }
  if (lane % 4 == 0) {
    out[2 * (size_t)(q0 + row)] = (uint)best_i;
    out[2 * (size_t)(q0 + row) + 1] = (uint)best_d;
  }
}

/* ---- a 4-qubit gate on TF32 tensor cores --------------------------------------------------------
 * psi' = G psi for a 16 x 16 complex G on the top four qubits of a state of
 * n qubits (complex amplitudes as float pairs; basis k of the gate at
 * stride S = 2^(n - 4)).  As a real product Y = [Re G, -Im G; Im G, Re G]
 * (32 x 32, gr) times X (32 x 16: the real then imaginary parts of 16
 * consecutive columns): a warp per 16 columns, G's eight m16n16k8 TF32
 * fragments held in registers, X gathered (128 contiguous bytes per basis
 * state) into shared memory and Y stored back through it.  Each warp takes
 * per consecutive tiles of 16 columns. */
#define QS_LD 20

SP_KERNEL void t_qsim_gate4_tf32(const float *__restrict__ psi, const float *__restrict__ gr,
                                 float *__restrict__ out, int stride, int per) {
  __shared__ __align__(32) float gs[32 * 32];
  __shared__ __align__(32) float xs[4][32 * QS_LD];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, ntiles = stride / 16;
  for (int e = threadIdx.x; e < 32 * 32; e += blockDim.x) gs[e] = gr[e];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa[2][4];
#pragma unroll
  for (int m = 0; m < 2; ++m)
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      wmma::load_matrix_sync(fa[m][k], gs + m * 16 * 32 + k * 8, 32);
#pragma unroll
      for (int t = 0; t < fa[m][k].num_elements; ++t)
        fa[m][k].x[t] = wmma::__float_to_tf32(fa[m][k].x[t]);
    }
  float *x = xs[warp];
  const int part = lane % 2, col = lane / 2;
  for (int i = 0; i < per; ++i) {
    const int tile = (blockIdx.x * 4 + warp) * per + i;
    if (tile >= ntiles) break;
    const size_t c0 = (size_t)tile * 16;
#pragma unroll
    for (int k = 0; k < 16; ++k)
      x[(part * 16 + k) * QS_LD + col] = psi[2 * (c0 + (size_t)k * stride) + lane];
    __syncwarp();
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[2];
    wmma::fill_fragment(acc[0], 0.0f);
    wmma::fill_fragment(acc[1], 0.0f);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
      wmma::load_matrix_sync(fb, x + k * 8 * QS_LD, QS_LD);
#pragma unroll
      for (int t = 0; t < fb.num_elements; ++t) fb.x[t] = wmma::__float_to_tf32(fb.x[t]);
      wmma::mma_sync(acc[0], fa[0][k], fb, acc[0]);
      wmma::mma_sync(acc[1], fa[1][k], fb, acc[1]);
    }
    __syncwarp();
    wmma::store_matrix_sync(x, acc[0], QS_LD, wmma::mem_row_major);
    wmma::store_matrix_sync(x + 16 * QS_LD, acc[1], QS_LD, wmma::mem_row_major);
    __syncwarp();
#pragma unroll
    for (int k = 0; k < 16; ++k)
      out[2 * (c0 + (size_t)k * stride) + lane] = x[(part * 16 + k) * QS_LD + col];
    __syncwarp();
  }
}

/* ---- feature warping by optical flow, half2 -----------------------------------------------------
 * grid_sample (bilinear, zero padding) of an NHWC fp16 feature map of FW_C
 * channels at (x + fx, y + fy) for each of nf flow fields: a thread per
 * pixel and 8 channels, its four corners' 8 channels loaded as 16-byte
 * vectors and blended in half2: the weights (products of 1 - w and w in
 * float) rounded to half, then one __hmul2 and three __hfma2 per pair. */
#define FW_C 32

SP_KERNEL void t_flow_warp_h2(const uint4 *__restrict__ feat, const float2 *__restrict__ flow,
                              uint4 *__restrict__ out, int w, int h, int nf) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x, cg = g % (FW_C / 8);
  const int p = g / (FW_C / 8), npix = w * h;
  if (p >= npix * nf) return;
  const int pix = p % npix, x = pix % w, y = pix / w;
  const float2 f = flow[p];
  const float sx = (float)x + f.x, sy = (float)y + f.y, fx0 = floorf(sx), fy0 = floorf(sy);
  const float wx = sx - fx0, wy = sy - fy0, ax = 1.0f - wx, ay = 1.0f - wy;
  const int x0 = (int)fx0, y0 = (int)fy0;
  const __half2 h00 = __float2half2_rn(ax * ay), h01 = __float2half2_rn(wx * ay);
  const __half2 h10 = __float2half2_rn(ax * wy), h11 = __float2half2_rn(wx * wy);
  uint4 v[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const int xi = x0 + (k & 1), yi = y0 + (k >> 1);
    v[k] = xi >= 0 && yi >= 0 && xi < w && yi < h ? feat[((size_t)yi * w + xi) * (FW_C / 8) + cg]
                                                  : make_uint4(0, 0, 0, 0);
  }
  const uint *a = (const uint *)&v[0], *b = (const uint *)&v[1], *c = (const uint *)&v[2];
  const uint *d = (const uint *)&v[3];
  uint r[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    __half2 acc = __hmul2(h00, *(const __half2 *)&a[j]);
    acc = __hfma2(h01, *(const __half2 *)&b[j], acc);
    acc = __hfma2(h10, *(const __half2 *)&c[j], acc);
    acc = __hfma2(h11, *(const __half2 *)&d[j], acc);
    r[j] = *(const uint *)&acc;
  }
  out[g] = make_uint4(r[0], r[1], r[2], r[3]);
}

/* ---- FP8 E4M3 quantisation ----------------------------------------------------------------------
 * Transformer Engine's cast to float8: each value times the inverse scale,
 * rounded to E4M3 with saturation (cvt.rn.satfinite.e4m3x2), 16 values per
 * thread from four 16-byte loads into one 16-byte store; the absolute
 * maximum (amax, for the next step's scale) by a warp reduction and one
 * atomic max per warp. */
SP_KERNEL void t_fp8_e4m3_quant_v4(const float4 *__restrict__ x, uint4 *__restrict__ q,
                                   uint *__restrict__ amax, int n16, float inv_scale) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float m = 0.0f;
  if (i < n16) {
    float4 v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) v[k] = x[4 * (size_t)i + k];
    uint r[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const uint lo = __nv_cvt_float2_to_fp8x2(make_float2(v[k].x * inv_scale, v[k].y * inv_scale),
                                               __NV_SATFINITE, __NV_E4M3);
      const uint hi = __nv_cvt_float2_to_fp8x2(make_float2(v[k].z * inv_scale, v[k].w * inv_scale),
                                               __NV_SATFINITE, __NV_E4M3);
      r[k] = lo | hi << 16;
      m = fmaxf(m, fmaxf(fmaxf(fabsf(v[k].x), fabsf(v[k].y)), fmaxf(fabsf(v[k].z), fabsf(v[k].w))));
    }
    q[i] = make_uint4(r[0], r[1], r[2], r[3]);
  }
  const uint mb =
      __reduce_max_sync(0xffffffffu, __float_as_uint(m)); /* m >= 0: bits order as values */
  if (threadIdx.x % 32 == 0) atomicMax(amax, mb);
}

/* ---- canonical k-mer counting -------------------------------------------------------------------
 * Counts of canonical 7-mers (the smaller of a k-mer and its reverse
 * complement, 2 bits per base, first base lowest) of a 2-bit packed
 * sequence: block b takes k-mers b chunk .. (b + 1) chunk - 1 into a 16384-
 * counter histogram in 64 KB of dynamic shared memory (3 blocks per SM),
 * each warp grouping equal k-mers by __match_any_sync so that one lane adds
 * the group's size; then the block adds its non-zero counters to the
 * global ones (Jellyfish / KMC-style counting). */
#define KM_K 7
#define KM_BINS (1 << (2 * KM_K))

SP_KERNEL void t_kmer_count_match_397(const uint *__restrict__ seq, uint *__restrict__ counts,
                                      int chunk, int nkmers) {
  extern __shared__ uint km_hist[];
  for (int i = threadIdx.x; i < KM_BINS; i += blockDim.x) km_hist[i] = 0;
  __syncthreads();
  const int start = blockIdx.x * chunk, end = min(start + chunk, nkmers), lane = threadIdx.x % 32;
  for (int base = start; base < end; base += blockDim.x) {
    const int p = base + threadIdx.x;
    uint key = 0xFFFFFFFFu;
    if (p < end) {
      const unsigned long long two =
          (unsigned long long)seq[p >> 4] | (unsigned long long)seq[(p >> 4) + 1] << 32;
      const uint fwd = (uint)(two >> (2 * (p & 15))) & (KM_BINS - 1);
      uint rc = 0;
#pragma unroll
      for (int i = 0; i < KM_K; ++i) rc |= (3u - (fwd >> (2 * i) & 3u)) << (2 * (KM_K - 1 - i));
      key = min(fwd, rc);
    }
    const uint peers = __match_any_sync(0xffffffffu, key);
    if (p < end && lane == __ffs(peers) - 1) atomicAdd(&km_hist[key], (uint)__popc(peers));
  }
  __syncthreads();
  for (int i = threadIdx.x; i < KM_BINS; i += blockDim.x)
    if (km_hist[i]) atomicAdd(&counts[i], km_hist[i]);
}

/* ---- semi-global matching, one path -------------------------------------------------------------
 * Hirschmuller's SGM aggregation along the left-to-right path of each image
 * row over SG_D disparities: L(x, d) = C(x, d) + min(L(x-1, d), L(x-1, d+-1) +
 * P1, min_k L(x-1, k) + P2) - min_k L(x-1, k), then the winning disparity
 * (lowest cost, lowest d) per pixel.  A warp per row, a lane per two
 * disparities: neighbours by __shfl_up/down_sync, the minimum and its
 * disparity by one __reduce_min_sync per pixel, the next pixel's costs
 * loaded one step ahead. */
#define SG_D 64
#define SG_P1 10u
#define SG_P2 120u
#define SG_INF 0x3FFFu

SP_KERNEL void t_sgm_path_133(const unsigned char *__restrict__ cost,
                              unsigned char *__restrict__ disp, int w, int rows) {
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const unsigned char *c = cost + (size_t)row * w * SG_D + 2 * lane;
  uint cc = *(const unsigned short *)c;
  uint l0 = cc & 255u, l1 = cc >> 8;
  uint key = __reduce_min_sync(0xffffffffu, min(l0 << 6 | 2 * lane, l1 << 6 | (2 * lane + 1)));
  if (lane == 0) disp[(size_t)row * w] = (unsigned char)(key & 63u);
  uint next = w > 1 ? *(const unsigned short *)(c + SG_D) : 0u;
  for (int x = 1; x < w; ++x) {
    cc = next;
    if (x + 1 < w) next = *(const unsigned short *)(c + (size_t)(x + 1) * SG_D);
    const uint minp = key >> 6, cap = minp + SG_P2;
    uint left = __shfl_up_sync(0xffffffffu, l1, 1), right = __shfl_down_sync(0xffffffffu, l0, 1);
    if (lane == 0) left = SG_INF;
    if (lane == 31) right = SG_INF;
    const uint n0 = (cc & 255u) + min(min(l0, l1 + SG_P1), min(left + SG_P1, cap)) - minp;
    const uint n1 = (cc >> 8) + min(min(l1, l0 + SG_P1), min(right + SG_P1, cap)) - minp;
    l0 = n0;
    l1 = n1;
    key = __reduce_min_sync(0xffffffffu, min(l0 << 6 | 2 * lane, l1 << 6 | (2 * lane + 1)));
    if (lane == 0) disp[(size_t)row * w + x] = (unsigned char)(key & 63u);
  }
}
