/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.cu: CUDA-only kernels of the twelfth validation suite (host
 * half: cudaonly.c): quaternion rotation of float4 vectors, L2 row
 * normalisation by one warp per row with shuffles, a scatter argmax by
 * 64-bit atomicMax, and 0/1 knapsack tables in 128 KB of dynamic shared
 * memory (one block per SM).  Only NVRTC compiles this file; the OpenCL
 * backend skips its jobs.  Written for this suite, independently of the
 * core suite and the earlier validation suites. */
#include "sp_dev.h"

/* ---- quaternion rotation ------------------------------------------------------------------------
 * v' = q v q* for unit quaternions q = (x, y, z, w), in the form Eigen and
 * glm use: t = 2 (q.xyz x v), v' = v + w t + q.xyz x t; the vector's w is
 * carried.  Two 16-byte loads and one 16-byte store per element. */
SP_KERNEL void m_quat_rotate_v4(const float4 *__restrict__ q, const float4 *__restrict__ v,
                                float4 *__restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 a = q[i], b = v[i];
  const float tx = 2.0f * (a.y * b.z - a.z * b.y), ty = 2.0f * (a.z * b.x - a.x * b.z),
              tz = 2.0f * (a.x * b.y - a.y * b.x);
  out[i] =
      make_float4(b.x + a.w * tx + (a.y * tz - a.z * ty), b.y + a.w * ty + (a.z * tx - a.x * tz),
                  b.z + a.w * tz + (a.x * ty - a.y * tx), b.w);
}

/* ---- L2 row normalisation -----------------------------------------------------------------------
 * faiss's normalize_L2 / torch.nn.functional.normalize of rows of 128
 * floats: a warp (a block of 32) per row, a float4 per lane, the sum of
 * squares by an xor butterfly of shuffles (every lane ends with the same
 * sum), x / max(|x|, 1e-12). */
SP_KERNEL void __launch_bounds__(32)
    m_l2norm_rows_b32(const float4 *__restrict__ x, float4 *__restrict__ out) {
  const long at = (long)blockIdx.x * 32 + threadIdx.x;
  const float4 v = x[at];
  float ss = __fmaf_rn(v.w, v.w, __fmaf_rn(v.z, v.z, __fmaf_rn(v.y, v.y, __fmul_rn(v.x, v.x))));
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) ss = __fadd_rn(ss, __shfl_xor_sync(0xffffffffu, ss, off));
  const float inv = __fdiv_rn(1.0f, fmaxf(__fsqrt_rn(ss), 1e-12f));
  out[at] = make_float4(__fmul_rn(v.x, inv), __fmul_rn(v.y, inv), __fmul_rn(v.z, inv),
                        __fmul_rn(v.w, inv));
}

/* ---- scatter argmax -----------------------------------------------------------------------------
 * torch_scatter's scatter_max (value and argmax per segment) in one pass:
 * each element packs its value (its float bits made order-preserving as
 * unsigned) above the complement of its index, so that one 64-bit
 * atomicMax per element keeps the largest value and, among equal values,
 * the smallest index. */
SP_KERNEL void m_scatter_argmax_u64(const float *__restrict__ val, const unsigned *__restrict__ seg,
                                    unsigned long long *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned b = __float_as_uint(val[i]), o = b & 0x80000000u ? ~b : b | 0x80000000u;
  atomicMax(&out[seg[i]], (unsigned long long)o << 32 | (0xFFFFFFFFu - (unsigned)i));
}

/* ---- 0/1 knapsack -------------------------------------------------------------------------------
 * The dynamic program of the 0/1 knapsack (Bellman; Martello and Toth,
 * ch. 2): over the items, best[w] = max(best[w], best[w - wt] + value) for
 * every capacity w, the two rows of KS_W ints ping-ponged in dynamic shared
 * memory (128 KB: one block per SM), a block of 1024 per instance, a
 * barrier per item; the final row is stored. */
#define KS_W 16384
#define KS_T 1024

SP_KERNEL void __launch_bounds__(KS_T)
    m_knapsack_smem_200(const int *__restrict__ wt, const int *__restrict__ value,
                        int *__restrict__ out, int items) {
  extern __shared__ int rows[];
  int *cur = rows, *nxt = rows + KS_W;
  const int t = threadIdx.x, inst = blockIdx.x;
  for (int w = t; w < KS_W; w += KS_T) cur[w] = 0;
  __syncthreads();
  for (int it = 0; it < items; ++it) {
    const int c = wt[inst * items + it], v = value[inst * items + it];
#pragma unroll 4
    for (int w = t; w < KS_W; w += KS_T) {
      int best = cur[w];
      if (w >= c) best = max(best, cur[w - c] + v);
      nxt[w] = best;
    }
    __syncthreads();
    int *tmp = cur;
    cur = nxt;
    nxt = tmp;
  }
  for (int w = t; w < KS_W; w += KS_T) out[(long)inst * KS_W + w] = cur[w];
}
