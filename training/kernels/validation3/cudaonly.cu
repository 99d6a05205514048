/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.cu: CUDA-only kernels of the third validation suite (host half:
 * cudaonly.c): causal flash attention on fp16 tensor cores, an FP64
 * tensor-core GEMM, a fused bf16 cross-entropy forward and backward, a
 * batched Cholesky factorisation in 160 KB of dynamic shared memory and a
 * push-style PageRank step with float atomics.  Only NVRTC compiles this
 * file; the OpenCL backend skips its jobs.  Written for this suite,
 * independently of the core suite and the first two
 * validation suites. */
#include "sp_dev.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

/* ---- causal flash attention (fp16 tensor cores) -------------------------------
 * O = softmax(Q K^T / 8) V per head, causal, head dimension 64, Q, K, V in
 * half ([head][seq][64]), O in float.  A 128-wide block (4 warps) owns 64
 * query rows, each warp 16; it walks the 64-key tiles up to the diagonal,
 * staging K and V in shared memory.  Per tile a warp forms its 16 x 64
 * scores with WMMA, updates the running row maxima and sums (online
 * softmax, two lanes per row), writes the probabilities as half and
 * multiplies them by V with WMMA; the output rows live in registers and
 * are rescaled as the maxima grow.  Query tiles run longest first. */
#define FA_D 64
#define FA_BQ 64
#define FA_BK 64
#define FA_LDH (FA_D + 8)  /* halves per shared row */
#define FA_LDF (FA_BK + 4) /* floats per shared row */
#define FA_NEG (-1.0e30f)  /* masked scores and the empty maximum */

SP_KERNEL void x_flash_attn_f16(const __half *__restrict__ q,
                                const __half *__restrict__ k,
                                const __half *__restrict__ v,
                                float *__restrict__ o, int seq)
{
  __shared__ __align__(32) __half ks[FA_BK][FA_LDH];
  __shared__ __align__(32) __half vs[FA_BK][FA_LDH];
  __shared__ __align__(32) float ss[4][16][FA_LDF];
  __shared__ __align__(32) __half ps[4][16][FA_LDH];
  const int t = threadIdx.x, w = t / 32, lane = t % 32;
  const int qt = gridDim.x - 1 - blockIdx.x; /* longest rows first */
  const size_t head = (size_t)blockIdx.y * seq * FA_D;
  const int row0 = qt * FA_BQ + w * 16;
  const int r = lane / 2, half_ = lane % 2, qrow = row0 + r;
  const float scale = 0.125f * 1.44269504f; /* 1/sqrt(64), in log2 units */
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> qf[4];
  for (int kk = 0; kk < 4; ++kk)
    wmma::load_matrix_sync(qf[kk], q + head + (size_t)row0 * FA_D + kk * 16, FA_D);
  float acc[32];
  for (int c = 0; c < 32; ++c)
    acc[c] = 0.0f;
  float m = FA_NEG, l = 0.0f;
  for (int j = 0; j <= qt; ++j) {
    __syncthreads(); /* the previous tile's K and V are no longer read */
    for (int e = t; e < FA_BK * FA_D / 8; e += 128) {
      const int rr = e / 8, cc = (e % 8) * 8;
      const size_t g = head + (size_t)(j * FA_BK + rr) * FA_D + cc;
      *(uint4 *)&ks[rr][cc] = *(const uint4 *)&k[g];
      *(uint4 *)&vs[rr][cc] = *(const uint4 *)&v[g];
    }
    __syncthreads();
    for (int n = 0; n < 4; ++n) {
      wmma::fragment<wmma::accumulator, 16, 16, 16, float> sacc;
      wmma::fill_fragment(sacc, 0.0f);
      for (int kk = 0; kk < 4; ++kk) {
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> kf;
        wmma::load_matrix_sync(kf, &ks[n * 16][kk * 16], FA_LDH);
        wmma::mma_sync(sacc, qf[kk], kf, sacc);
      }
      wmma::store_matrix_sync(&ss[w][0][n * 16], sacc, FA_LDF, wmma::mem_row_major);
    }
    __syncwarp();
    float sv[32], mloc = FA_NEG;
    for (int c = 0; c < 32; ++c) {
      const int col = half_ * 32 + c;
      const float s = j * FA_BK + col <= qrow ? ss[w][r][col] * scale : FA_NEG;
      sv[c] = s;
      mloc = fmaxf(mloc, s);
    }
    mloc = fmaxf(mloc, __shfl_xor_sync(0xffffffffu, mloc, 1));
    const float mnew = fmaxf(m, mloc); /* finite: key 0 is in every row */
    const float alpha = exp2f(m - mnew);
    float lsum = 0.0f;
    for (int c = 0; c < 32; ++c) {
      const float p = exp2f(sv[c] - mnew);
      lsum += p;
      ps[w][r][half_ * 32 + c] = __float2half(p);
    }
    lsum += __shfl_xor_sync(0xffffffffu, lsum, 1);
    l = l * alpha + lsum;
    m = mnew;
    __syncwarp();
    for (int n = 0; n < 4; ++n) {
      wmma::fragment<wmma::accumulator, 16, 16, 16, float> oacc;
      wmma::fill_fragment(oacc, 0.0f);
      for (int kk = 0; kk < 4; ++kk) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> pf;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> vf;
        wmma::load_matrix_sync(pf, &ps[w][0][kk * 16], FA_LDH);
        wmma::load_matrix_sync(vf, &vs[kk * 16][n * 16], FA_LDH);
        wmma::mma_sync(oacc, pf, vf, oacc);
      }
      wmma::store_matrix_sync(&ss[w][0][n * 16], oacc, FA_LDF, wmma::mem_row_major);
    }
    __syncwarp();
    for (int c = 0; c < 32; ++c)
      acc[c] = acc[c] * alpha + ss[w][r][half_ * 32 + c];
    __syncwarp(); /* ss is overwritten by the next tile's scores */
  }
  float *out = o + head + (size_t)qrow * FA_D + half_ * 32;
  for (int c = 0; c < 32; ++c)
    out[c] = acc[c] / l;
}

/* ---- FP64 tensor-core GEMM ------------------------------------------------------
 * C = A B in double, row-major, on the FP64 tensor cores (DMMA, m8n8k4):
 * a 128-wide block (4 warps, 2 x 2) owns a 64 x 64 tile of C, each warp
 * 32 x 32 as 4 x 4 fragments; 64 x 16 and 16 x 64 panels are staged in
 * shared memory with 16-byte loads. */
#define DM_B 64
#define DM_K 16

SP_KERNEL void x_dmma_f64(const double *__restrict__ a,
                          const double *__restrict__ b, double *__restrict__ c,
                          int n, int k)
{
  __shared__ __align__(32) double as[DM_B][DM_K + 4];
  __shared__ __align__(32) double bs[DM_K][DM_B + 4];
  const int t = threadIdx.x, w = t / 32, wy = w / 2, wx = w % 2;
  const int row0 = blockIdx.y * DM_B, col0 = blockIdx.x * DM_B;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      wmma::fill_fragment(acc[i][j], 0.0);
  for (int k0 = 0; k0 < k; k0 += DM_K) {
    for (int e = t; e < DM_B * DM_K / 2; e += 128) {
      const int ra = e / (DM_K / 2), ca = (e % (DM_K / 2)) * 2;
      *(double2 *)&as[ra][ca] = *(const double2 *)&a[(size_t)(row0 + ra) * k + k0 + ca];
      const int rb = e / (DM_B / 2), cb = (e % (DM_B / 2)) * 2;
      *(double2 *)&bs[rb][cb] = *(const double2 *)&b[(size_t)(k0 + rb) * n + col0 + cb];
    }
    __syncthreads();
    for (int kk = 0; kk < DM_K; kk += 4) {
      wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa[4];
      wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb[4];
      for (int i = 0; i < 4; ++i) {
        wmma::load_matrix_sync(fa[i], &as[wy * 32 + i * 8][kk], DM_K + 4);
        wmma::load_matrix_sync(fb[i], &bs[kk][wx * 32 + i * 8], DM_B + 4);
      }
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      wmma::store_matrix_sync(
          &c[(size_t)(row0 + wy * 32 + i * 8) * n + col0 + wx * 32 + j * 8],
          acc[i][j], n, wmma::mem_row_major);
}

/* ---- fused cross-entropy (bf16) -------------------------------------------------
 * For each row of logits (bf16) and its label: loss = logsumexp - logit
 * of the label, and the gradient softmax - one-hot written as bf16.  A warp
 * per row: one pass with 16-byte loads keeps a running maximum and a
 * rescaled sum per lane (online logsumexp), the lanes combine through
 * shuffles, and a second pass over the row writes the gradient. */
SP_FN float xe_bf(unsigned short h)
{
  return __uint_as_float((unsigned int)h << 16);
}

SP_KERNEL void x_xent_bf16(const uint4 *__restrict__ logits,
                           const int *__restrict__ label,
                           float *__restrict__ loss, uint4 *__restrict__ grad,
                           int rows, int vocab)
{
  const int lane = threadIdx.x % 32;
  const int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows)
    return;
  const int nv = vocab / 8;
  const uint4 *x = logits + (size_t)row * nv;
  float m = -3.0e38f, s = 0.0f; /* the empty maximum: exp(m - x) is 0 */
  for (int i = lane; i < nv; i += 32) {
    const uint4 u = x[i];
    const unsigned short *h = (const unsigned short *)&u;
    float f[8], cm = -3.0e38f;
    for (int e = 0; e < 8; ++e) {
      f[e] = xe_bf(h[e]);
      cm = fmaxf(cm, f[e]);
    }
    const float mn = fmaxf(m, cm);
    s *= expf(m - mn);
    for (int e = 0; e < 8; ++e)
      s += expf(f[e] - mn);
    m = mn;
  }
  for (int off = 16; off > 0; off >>= 1) {
    const float m2 = __shfl_xor_sync(0xffffffffu, m, off);
    const float s2 = __shfl_xor_sync(0xffffffffu, s, off);
    const float mn = fmaxf(m, m2);
    s = s * expf(m - mn) + s2 * expf(m2 - mn);
    m = mn;
  }
  const float lse = m + logf(s);
  const int lab = label[row];
  if (lane == 0) {
    const unsigned short *hx = (const unsigned short *)x;
    loss[row] = lse - xe_bf(hx[lab]);
  }
  uint4 *g = grad + (size_t)row * nv;
  for (int i = lane; i < nv; i += 32) {
    const uint4 u = x[i];
    const unsigned short *h = (const unsigned short *)&u;
    uint4 outv;
    __nv_bfloat16 *ob = (__nv_bfloat16 *)&outv;
    for (int e = 0; e < 8; ++e) {
      const float p = expf(xe_bf(h[e]) - lse) - (i * 8 + e == lab ? 1.0f : 0.0f);
      ob[e] = __float2bfloat16_rn(p);
    }
    g[i] = outv;
  }
}

/* ---- batched Cholesky in dynamic shared memory --------------------------------------
 * A = L L^T for a batch of n x n SPD matrices (fp32), one 1024-wide block
 * per matrix held whole in dynamic shared memory (n = 200: 160 KB, so one
 * block per SM): right-looking and unblocked, a barrier after the pivot,
 * after the column and after each trailing update.  L is written with the
 * upper triangle zeroed. */
SP_KERNEL void x_chol(const float *__restrict__ a, float *__restrict__ lo,
                      int n)
{
  extern __shared__ float sm[];
  const int t = threadIdx.x, nt = blockDim.x;
  const size_t off = (size_t)blockIdx.x * n * n;
  for (int e = t; e < n * n; e += nt)
    sm[e] = a[off + e];
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    const float d = sqrtf(sm[k * n + k]);
    __syncthreads();
    for (int i = k + 1 + t; i < n; i += nt)
      sm[i * n + k] /= d;
    if (t == 0)
      sm[k * n + k] = d;
    __syncthreads();
    const int r = n - k - 1;
    for (int e = t; e < r * r; e += nt) {
      const int i = k + 1 + e / r, j = k + 1 + e % r;
      if (j <= i)
        sm[i * n + j] -= sm[i * n + k] * sm[j * n + k];
    }
    __syncthreads();
  }
  for (int e = t; e < n * n; e += nt)
    lo[off + e] = e % n <= e / n ? sm[e] : 0.0f;
}

/* ---- push-style PageRank step -------------------------------------------------------
 * Each vertex (a thread) pushes d * rank / out-degree along its out-edges
 * with float atomicAdd into next (which starts at (1 - d) / n); out-degrees
 * follow a power law, so a few threads push tens of thousands of times. */
SP_KERNEL void x_pagerank_push(const int *__restrict__ rowptr,
                               const int *__restrict__ col,
                               const float *__restrict__ rank,
                               float *__restrict__ next, float damping, int n)
{
  const int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n)
    return;
  const int e0 = rowptr[u], e1 = rowptr[u + 1];
  if (e0 == e1)
    return;
  const float c = damping * rank[u] / (float)(e1 - e0);
  for (int e = e0; e < e1; ++e)
    atomicAdd(&next[col[e]], c);
}
