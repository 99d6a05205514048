/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.cu: CUDA-only kernels of the eleventh validation suite (host
 * half: cudaonly.c): Porter-Duff compositing and an NVE step in float4,
 * Lennard-Jones energies summed into one 64-bit fixed-point word, Nussinov
 * folding with its table in 148 KB of dynamic shared memory (397 blocks,
 * one per SM), MFCCs by one warp per frame, and a single-pass scan with
 * decoupled look-back.  Only NVRTC compiles this file; the OpenCL backend
 * skips its jobs.  Written for this suite, independently of the core suite
 * and the earlier validation suites. */
#include "sp_dev.h"

/* ---- Porter-Duff over ---------------------------------------------------------------------------
 * A over B for premultiplied RGBA float pixels (Porter and Duff 1984;
 * OpenImageIO's over, Skia's SrcOver): out = A + B (1 - A.alpha), one
 * 16-byte load of each and one 16-byte store per pixel. */
SP_KERNEL void k_over_rgba_v4(const float4 *__restrict__ a, const float4 *__restrict__ b,
                              float4 *__restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 p = a[i], q = b[i];
  const float k = 1.0f - p.w;
  out[i] = make_float4(__fmaf_rn(q.x, k, p.x), __fmaf_rn(q.y, k, p.y), __fmaf_rn(q.z, k, p.z),
                       __fmaf_rn(q.w, k, p.w));
}

/* ---- NVE step one -------------------------------------------------------------------------------
 * HOOMD-blue's TwoStepNVE first half step: v += a dt / 2, x += v dt, with
 * positions wrapped into the periodic box [-L/2, L/2)^3; position (w: the
 * type) and velocity (w: the mass) are float4, the acceleration a float4
 * with w unused: three 16-byte loads and two 16-byte stores per particle. */
__device__ __forceinline__ float k_wrap(float x, float box) {
  return x >= 0.5f * box ? x - box : x < -0.5f * box ? x + box : x;
}

SP_KERNEL void k_nve_step_v4(const float4 *__restrict__ pos, const float4 *__restrict__ vel,
                             const float4 *__restrict__ acc, float4 *__restrict__ pos2,
                             float4 *__restrict__ vel2, int n, float dt, float box) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 p = pos[i], v = vel[i], a = acc[i];
  const float h = 0.5f * dt;
  const float vx = __fmaf_rn(a.x, h, v.x), vy = __fmaf_rn(a.y, h, v.y), vz = __fmaf_rn(a.z, h, v.z);
  pos2[i] = make_float4(k_wrap(__fmaf_rn(vx, dt, p.x), box), k_wrap(__fmaf_rn(vy, dt, p.y), box),
                        k_wrap(__fmaf_rn(vz, dt, p.z), box), p.w);
  vel2[i] = make_float4(vx, vy, vz, v.w);
}

/* ---- Lennard-Jones energy into one fixed-point word ---------------------------------------------
 * Each atom's Lennard-Jones energy (sigma = epsilon = 1, cut at rc) over its
 * neighbour list (nn entries, nlist[k n + i]), halved for the pairs seen
 * twice, converted to 64-bit fixed point with 2^-24 units and added to one
 * word by atomicAdd, as AMBER's SPFP accumulates energies (Le Grand, Goetz
 * and Walker 2013): one 64-bit atomic per atom on a single address. */
SP_KERNEL void k_lj_energy_fx64(const float4 *__restrict__ pos, const int *__restrict__ nlist,
                                unsigned long long *energy, int n, int nn, float rc2) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 p = pos[i];
  float e = 0.0f;
  for (int k = 0; k < nn; ++k) {
    const float4 q = pos[nlist[(size_t)k * n + i]];
    const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    const float r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < rc2) {
      const float ir2 = 1.0f / r2, ir6 = ir2 * ir2 * ir2;
      e += 4.0f * ir6 * (ir6 - 1.0f);
    }
  }
  atomicAdd(energy, (unsigned long long)__float2ll_rn(0.5f * e * 16777216.0f));
}

/* ---- Nussinov folding ---------------------------------------------------------------------------
 * The maximum number of base pairs (AU, CG, GU) of an RNA sequence with
 * hairpin loops of at least 3 (Nussinov and Jacobson 1980):
 * N(i, j) = max(N(i+1, j), N(i, j-1), N(i+1, j-1) + pair(i, j),
 *               max_{i<k<j} N(i, k) + N(k+1, j)) for j - i >= 4, else 0.
 * A block per sequence fills its n x n table (rows padded to n + 1 ints) in
 * dynamic shared memory diagonal by diagonal, a thread per cell and a
 * barrier per diagonal; row 0 (N(0, j) for every j) is stored. */
#define NU_MAXN 256

SP_KERNEL void k_nussinov_397(const unsigned char *__restrict__ seq, int *__restrict__ out, int n) {
  extern __shared__ int dp[];
  __shared__ unsigned char sb[NU_MAXN];
  const int t = threadIdx.x, s = blockIdx.x, ld = n + 1;
  for (int i = t; i < n; i += blockDim.x) sb[i] = seq[(size_t)s * n + i];
  for (int e = t; e < n * ld; e += blockDim.x) dp[e] = 0;
  __syncthreads();
  for (int d = 4; d < n; ++d) {
    for (int i = t; i < n - d; i += blockDim.x) {
      const int j = i + d, sum = sb[i] + sb[j];
      int best = max(dp[(i + 1) * ld + j], dp[i * ld + j - 1]);
      best = max(best, dp[(i + 1) * ld + j - 1] + (sum == 3 || sum == 5));
      for (int k = i + 1; k < j; ++k) best = max(best, dp[i * ld + k] + dp[(k + 1) * ld + j]);
      dp[i * ld + j] = best;
    }
    __syncthreads();
  }
  for (int j = t; j < n; j += blockDim.x) out[(size_t)s * n + j] = dp[j];
}

/* ---- MFCCs, a warp per frame --------------------------------------------------------------------
 * Mel-frequency cepstral coefficients of a 257-bin power spectrum (Kaldi's
 * compute-mfcc-feats, librosa's mfcc): MF_M triangular mel filters (bin
 * range and weights from the host), the log of each energy (floored at
 * 1e-10), then the orthonormal DCT-II to MF_C coefficients.  A block of 32
 * per frame: the spectrum staged in shared memory, lane m sums filters m
 * and m + 32, and lane k < MF_C forms coefficient k from the 40 log
 * energies gathered by shuffles. */
#define MF_B 257
#define MF_M 40
#define MF_C 13

__device__ __forceinline__ float k_melsum(const float *sp, const int *fb, const float *w, int m) {
  float e = 0.0f;
  for (int b = 0; b < fb[3 * m + 1]; ++b) e = __fmaf_rn(w[fb[3 * m + 2] + b], sp[fb[3 * m] + b], e);
  return logf(fmaxf(e, 1e-10f));
}

SP_KERNEL void __launch_bounds__(32)
    k_mfcc_warp_b32(const float *__restrict__ spec, const int *__restrict__ fb,
                    const float *__restrict__ w, const float *__restrict__ dct,
                    float *__restrict__ out) {
  __shared__ float sp[MF_B + 3];
  const int lane = threadIdx.x;
  const size_t f = blockIdx.x;
  for (int b = lane; b < MF_B; b += 32) sp[b] = spec[f * MF_B + b];
  __syncwarp();
  const float l0 = k_melsum(sp, fb, w, lane);
  const float l1 = lane + 32 < MF_M ? k_melsum(sp, fb, w, lane + 32) : 0.0f;
  float c = 0.0f;
  for (int m = 0; m < MF_M; ++m) {
    const float lm = __shfl_sync(0xffffffffu, m < 32 ? l0 : l1, m & 31);
    if (lane < MF_C) c = __fmaf_rn(dct[lane * MF_M + m], lm, c);
  }
  if (lane < MF_C) out[f * MF_C + lane] = c;
}

/* ---- single-pass scan with decoupled look-back --------------------------------------------------
 * Inclusive prefix sum of uint32 (modulo 2^32) in one pass (Merrill and
 * Garland 2016; CUB's DeviceScan): each block takes the next tile of
 * LB_TILE from a ticket counter (so tiles start in order), scans it (16
 * items per thread in registers, 16-byte loads, warp shuffles, one
 * barrier-separated pass over the warp totals), publishes its aggregate,
 * and warp 0 looks back over its predecessors 32 at a time (their
 * inclusive prefix, or their aggregate and further back) before it
 * publishes its own inclusive prefix.  A status word packs flag (2 bits:
 * none, aggregate, prefix), the launch's epoch (ticket / ntiles, 30 bits)
 * and the value, so statuses left by the previous launch are never taken
 * for this one's; the counter is never reset (ntiles divides 2^32). */
#define LB_T 256
#define LB_I 16
#define LB_TILE (LB_T * LB_I)
#define LB_FULL 0xffffffffu

__device__ __forceinline__ unsigned long long k_pack(unsigned flag, unsigned epoch, unsigned v) {
  return (unsigned long long)flag << 62 | (unsigned long long)(epoch & 0x3fffffffu) << 32 | v;
}

SP_KERNEL void __launch_bounds__(LB_T)
    k_scan_lookback_u32(const uint4 *__restrict__ in, uint4 *__restrict__ out,
                        unsigned long long *status, unsigned *ctr, int ntiles) {
  __shared__ unsigned s_ticket, s_prefix, s_warp[LB_T / 32];
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  if (t == 0) s_ticket = atomicAdd(ctr, 1u);
  __syncthreads();
  const unsigned ticket = s_ticket, tile = ticket % (unsigned)ntiles;
  const unsigned epoch = (ticket / (unsigned)ntiles) & 0x3fffffffu;
  const size_t base = (size_t)tile * (LB_TILE / 4) + (size_t)t * (LB_I / 4);
  unsigned v[LB_I];
#pragma unroll
  for (int q = 0; q < LB_I / 4; ++q) {
    const uint4 w = in[base + q];
    v[4 * q] = w.x;
    v[4 * q + 1] = w.y;
    v[4 * q + 2] = w.z;
    v[4 * q + 3] = w.w;
  }
#pragma unroll
  for (int k = 1; k < LB_I; ++k) v[k] += v[k - 1];
  const unsigned tsum = v[LB_I - 1];
  unsigned x = tsum;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const unsigned y = __shfl_up_sync(LB_FULL, x, off);
    if (lane >= off) x += y;
  }
  if (lane == 31) s_warp[warp] = x;
  __syncthreads();
  if (warp == 0) {
    unsigned wv = lane < LB_T / 32 ? s_warp[lane] : 0u;
#pragma unroll
    for (int off = 1; off < LB_T / 32; off <<= 1) {
      const unsigned y = __shfl_up_sync(LB_FULL, wv, off);
      if (lane >= off) wv += y;
    }
    const unsigned agg = __shfl_sync(LB_FULL, wv, LB_T / 32 - 1);
    if (lane < LB_T / 32) s_warp[lane] = wv;
    unsigned excl = 0;
    if (tile == 0) {
      if (lane == 0) atomicExch(&status[0], k_pack(2u, epoch, agg));
    } else {
      if (lane == 0) atomicExch(&status[tile], k_pack(1u, epoch, agg));
      int pred = (int)tile - 1;
      for (;;) {
        const int idx = pred - lane;
        unsigned long long s = 0;
        unsigned flag;
        do {
          if (idx >= 0) {
            s = *(volatile unsigned long long *)&status[idx];
            flag = ((unsigned)(s >> 32) & 0x3fffffffu) == epoch ? (unsigned)(s >> 62) : 0u;
          } else {
            s = 0;
            flag = 2u;
          }
        } while (__any_sync(LB_FULL, flag == 0u));
        const unsigned incl = __ballot_sync(LB_FULL, flag == 2u);
        const int stop = incl ? __ffs(incl) - 1 : 31;
        unsigned val = lane <= stop ? (unsigned)s : 0u;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) val += __shfl_xor_sync(LB_FULL, val, off);
        excl += val;
        if (incl) break;
        pred -= 32;
      }
      if (lane == 0) atomicExch(&status[tile], k_pack(2u, epoch, excl + agg));
    }
    if (lane == 0) s_prefix = excl;
  }
  __syncthreads();
  const unsigned off = s_prefix + (warp ? s_warp[warp - 1] : 0u) + (x - tsum);
#pragma unroll
  for (int q = 0; q < LB_I / 4; ++q)
    out[base + q] =
        make_uint4(v[4 * q] + off, v[4 * q + 1] + off, v[4 * q + 2] + off, v[4 * q + 3] + off);
}
