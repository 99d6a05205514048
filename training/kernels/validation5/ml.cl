/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ml.cl: machine-learning kernels for the fifth validation suite (host
 * half: ml.c): a fused SwiGLU activation, an int8 weight-only GEMV for
 * decoding, batched CRF Viterbi decoding, SDDMM over a sparse graph, a GNN
 * scatter-sum in fixed point and TF-IDF row normalisation.  Written for this
 * suite, independently of the core suite and the earlier validation
 * suites. */
#include "sp_dev.h"

/* ---- SwiGLU ---------------------------------------------------------------
 * x is [tokens][2h]: the gate half then the up half of a fused projection;
 * out[t][j] = silu(gate) * up.  A work-item per output. */
SP_KERNEL void z_swiglu_fwd(SP_GLOBAL const float *SP_RESTRICT x, SP_GLOBAL float *SP_RESTRICT out,
                            int h, int n) {
  const int e = SP_GID(0);
  if (e >= n) return;
  const int t = e / h, j = e - t * h;
  const long row = (long)t * 2 * h;
  const float g = x[row + j], u = x[row + h + j];
  out[e] = g / (1.0f + SP_EXPF(-g)) * u;
}

/* ---- int8 weight-only GEMV ------------------------------------------------
 * y[r] = scale[r] * sum_k w[r][k] x[k], w signed bytes packed four to a
 * word.  One 128-wide group per row, each work-item strides over the row's
 * words and unpacks them; a local reduction. */
#define W8_T 128

SP_KERNEL void z_w8_gemv_decode(SP_GLOBAL const uint *SP_RESTRICT w,
                                SP_GLOBAL const float *SP_RESTRICT scale,
                                SP_GLOBAL const float *SP_RESTRICT x,
                                SP_GLOBAL float *SP_RESTRICT y, int k) {
  SP_LOCAL float red[W8_T];
  const int t = SP_LID(0), r = SP_GRP(0), kw = k / 4;
  SP_GLOBAL const uint *row = w + (long)r * kw;
  float acc = 0.0f;
  for (int c = t; c < kw; c += W8_T) {
    const uint v = row[c];
    for (int b = 0; b < 4; ++b) {
      const int q = (int)((v >> (8 * b)) & 255u);
      acc = SP_FMAF((float)((q ^ 128) - 128), x[4 * c + b], acc);
    }
  }
  red[t] = acc;
  SP_SUM(red, t, W8_T);
  if (t == 0) y[r] = red[0] * scale[r];
}

/* ---- batched CRF Viterbi ----------------------------------------------------
 * One VT_N-wide group per sequence (a work-item per tag): at every step the
 * best previous tag for each tag (transitions in local memory), a barrier,
 * then work-item 0 walks the back-pointers (bytes in global memory) from
 * the best last tag: a dependent chain of t loads. */
#define VT_N 64

SP_KERNEL void z_crf_viterbi(SP_GLOBAL const float *SP_RESTRICT emit,
                             SP_GLOBAL const float *SP_RESTRICT trans,
                             SP_GLOBAL uchar *SP_RESTRICT bp, SP_GLOBAL uint *SP_RESTRICT path,
                             SP_GLOBAL float *SP_RESTRICT best, int steps) {
  SP_LOCAL float tr[VT_N * VT_N];
  SP_LOCAL float sc[2][VT_N];
  const int j = SP_LID(0), b = SP_GRP(0);
  for (int i = j; i < VT_N * VT_N; i += VT_N) tr[i] = trans[i];
  SP_GLOBAL const float *e = emit + (long)b * steps * VT_N;
  SP_GLOBAL uchar *p = bp + (long)b * steps * VT_N;
  sc[0][j] = e[j];
  SP_BARRIER();
  int cur = 0;
  for (int s = 1; s < steps; ++s) {
    float m = sc[cur][0] + tr[j];
    int arg = 0;
    for (int i = 1; i < VT_N; ++i) {
      const float v = sc[cur][i] + tr[i * VT_N + j];
      if (v > m) {
        m = v;
        arg = i;
      }
    }
    sc[cur ^ 1][j] = m + e[(long)s * VT_N + j];
    p[(long)s * VT_N + j] = (uchar)arg;
    cur ^= 1;
    SP_BARRIER_GLOBAL();
  }
  if (j == 0) {
    int tag = 0;
    for (int i = 1; i < VT_N; ++i)
      if (sc[cur][i] > sc[cur][tag]) tag = i;
    best[b] = sc[cur][tag];
    SP_GLOBAL uint *out = path + (long)b * steps;
    for (int s = steps - 1; s > 0; --s) {
      out[s] = (uint)tag;
      tag = p[(long)s * VT_N + tag];
    }
    out[0] = (uint)tag;
  }
}

/* ---- SDDMM ------------------------------------------------------------------
 * out[e] = dot(a[row[e]], b[col[e]]) over SD_K features for every non-zero
 * e of a sparse pattern (COO order, rows ascending): a work-item per
 * non-zero, two 256-byte row gathers. */
#define SD_K 64

SP_KERNEL void z_sddmm_csr(SP_GLOBAL const float *SP_RESTRICT a,
                           SP_GLOBAL const float *SP_RESTRICT b,
                           SP_GLOBAL const int *SP_RESTRICT row,
                           SP_GLOBAL const int *SP_RESTRICT col, SP_GLOBAL float *SP_RESTRICT out,
                           int nnz) {
  const int e = SP_GID(0);
  if (e >= nnz) return;
  SP_GLOBAL const float *pa = a + (long)row[e] * SD_K;
  SP_GLOBAL const float *pb = b + (long)col[e] * SD_K;
  float acc = 0.0f;
  for (int k = 0; k < SD_K; ++k) acc = SP_FMAF(pa[k], pb[k], acc);
  out[e] = acc;
}

/* ---- GNN scatter-sum in fixed point ---------------------------------------------
 * out[dst[e]][f] += h[src[e]][f] for every edge, GN_F integer features
 * (fixed point, wrapping): a work-item per (edge, feature), 64-byte
 * coalesced rows, global atomics to rarely shared addresses. */
#define GN_F 16

SP_KERNEL void z_gnn_scatter_fixed(SP_GLOBAL const uint *SP_RESTRICT h,
                                   SP_GLOBAL const int *SP_RESTRICT src,
                                   SP_GLOBAL const int *SP_RESTRICT dst,
                                   SP_GLOBAL uint *SP_RESTRICT out, int edges) {
  const int g = SP_GID(0), e = g / GN_F, f = g % GN_F;
  if (e >= edges) return;
  SP_ATOMIC_ADD(&out[(long)dst[e] * GN_F + f], h[(long)src[e] * GN_F + f]);
}

/* ---- TF-IDF row normalisation -------------------------------------------------
 * For every document (a CSR row of term ids and counts): v = tf * idf[term],
 * out = v / ||v||.  One 256-wide group per document, two passes over its
 * terms; a few documents are thousands of times longer than the rest. */
#define TF_T 256

SP_KERNEL void z_tfidf_rows(SP_GLOBAL const int *SP_RESTRICT rowp,
                            SP_GLOBAL const int *SP_RESTRICT term,
                            SP_GLOBAL const uint *SP_RESTRICT tf,
                            SP_GLOBAL const float *SP_RESTRICT idf,
                            SP_GLOBAL float *SP_RESTRICT out) {
  SP_LOCAL float red[TF_T];
  const int t = SP_LID(0), d = SP_GRP(0), lo = rowp[d], hi = rowp[d + 1];
  float ss = 0.0f;
  for (int i = lo + t; i < hi; i += TF_T) {
    const float v = (float)tf[i] * idf[term[i]];
    ss = SP_FMAF(v, v, ss);
  }
  red[t] = ss;
  SP_SUM(red, t, TF_T);
  const float inv = red[0] > 0.0f ? SP_RSQRTF(red[0]) : 0.0f;
  for (int i = lo + t; i < hi; i += TF_T) out[i] = (float)tf[i] * idf[term[i]] * inv;
}
