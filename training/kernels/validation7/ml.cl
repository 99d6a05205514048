/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ml.cl: machine-learning kernels for the seventh validation suite (host
 * half: ml.c): an ALiBi bias fill, the CTC forward recursion, a LoRA BGMV
 * shrink, Gemma-2 logit soft-capping, the instant-NGP hash encoding and one
 * power iteration of spectral normalisation.  Written for this suite,
 * independently of the core suite and the earlier validation suites. */
#include "sp_dev.h"

/* ---- ALiBi bias with a causal mask ------------------------------------------------------
 * bias[h][q][k] = slope[h] * (k - q - (klen - qlen)) where key k is not in
 * query q's future (the queries are the last qlen of klen positions), else
 * the mask value (the most negative float, as Hugging Face fills with
 * finfo.min).  A work-item per element: 4 bytes written, nothing read but a
 * slope. */
#define AL_MASK (-3.402823466e38f)

SP_KERNEL void r_alibi_bias_fill(SP_GLOBAL const float *SP_RESTRICT slope,
                                 SP_GLOBAL float *SP_RESTRICT bias, int qlen, int klen, int n) {
  const int e = SP_GID(0);
  if (e >= n) return;
  const int k = e % klen, row = e / klen, q = row % qlen, h = row / qlen;
  const int dist = k - q - (klen - qlen);
  bias[e] = dist <= 0 ? slope[h] * (float)dist : AL_MASK;
}

/* ---- CTC forward (alpha) recursion ---------------------------------------------------------
 * One CT_S-wide group per utterance; work-item s owns state s of the
 * extended label sequence (blanks between and around the labels, S = 2L +
 * 1).  alpha_t(s) = lse(alpha_{t-1}(s), alpha_{t-1}(s-1), [skip]
 * alpha_{t-1}(s-2)) + logp_t(label of s), in log space; the two alpha rows
 * alternate in local memory, one barrier per frame.  nll = -lse of the last
 * two states at the last frame.  "log 0" is CT_NEG, so that no NaN arises. */
#define CT_S 256
#define CT_C 32
#define CT_NEG (-1.0e30f)

SP_FN float r_lse(float a, float b) {
  const float m = SP_FMAXF(a, b);
  return m + SP_LOGF(1.0f + SP_EXPF(SP_FMINF(a, b) - m));
}

SP_KERNEL void r_ctc_alpha_96(SP_GLOBAL const float *SP_RESTRICT logp,
                              SP_GLOBAL const int *SP_RESTRICT labels,
                              SP_GLOBAL const int *SP_RESTRICT tlen,
                              SP_GLOBAL const int *SP_RESTRICT llen,
                              SP_GLOBAL float *SP_RESTRICT nll, int tmax, int lmax) {
  SP_LOCAL float al[2][CT_S];
  const int s = SP_LID(0), b = SP_GRP(0);
  const int frames = tlen[b], S = 2 * llen[b] + 1;
  SP_GLOBAL const float *lp = logp + (long)b * tmax * CT_C;
  SP_GLOBAL const int *lb = labels + b * lmax;
  const int lab = (s & 1) && s < S ? lb[s / 2] : 0;
  const int skip = (s & 1) && s >= 3 && s < S && lab != lb[s / 2 - 1];
  al[0][s] = s < 2 ? lp[lab] : CT_NEG;
  int cur = 0;
  for (int t = 1; t < frames; ++t) {
    SP_BARRIER();
    float a = al[cur][s];
    if (s >= 1) a = r_lse(a, al[cur][s - 1]);
    if (skip) a = r_lse(a, al[cur][s - 2]);
    al[cur ^ 1][s] = a + lp[(long)t * CT_C + lab];
    cur ^= 1;
  }
  SP_BARRIER();
  if (s == 0) nll[b] = -r_lse(al[cur][S - 1], al[cur][S - 2]);
}

/* ---- LoRA shrink, BGMV -------------------------------------------------------------------------
 * y[tok] = scale * A[idx[tok]] x[tok] with A rank x dim per adapter (rows
 * of dim).  A group per token: work-item t takes every LR_T-th input
 * element and keeps LR_R partial sums, which local memory then adds, 16
 * partials per rank and then the 16 of each rank. */
#define LR_R 16
#define LR_T 256

SP_KERNEL void r_lora_bgmv_shrink(SP_GLOBAL const float *SP_RESTRICT x,
                                  SP_GLOBAL const float *SP_RESTRICT a,
                                  SP_GLOBAL const int *SP_RESTRICT idx,
                                  SP_GLOBAL float *SP_RESTRICT y, int dim, float scale) {
  SP_LOCAL float red[LR_R * LR_T];
  const int t = SP_LID(0), tok = SP_GRP(0);
  SP_GLOBAL const float *xr = x + (long)tok * dim;
  SP_GLOBAL const float *ar = a + (long)idx[tok] * LR_R * dim;
  float acc[LR_R];
  for (int r = 0; r < LR_R; ++r) acc[r] = 0.0f;
  for (int k = t; k < dim; k += LR_T) {
    const float xv = xr[k];
    for (int r = 0; r < LR_R; ++r) acc[r] = SP_FMAF(xv, ar[(long)r * dim + k], acc[r]);
  }
  for (int r = 0; r < LR_R; ++r) red[r * LR_T + t] = acc[r];
  SP_BARRIER();
  const int rank = t % LR_R, part = t / LR_R;
  float s = 0.0f;
  for (int j = 0; j < LR_T / LR_R; ++j) s += red[rank * LR_T + part * (LR_T / LR_R) + j];
  SP_BARRIER();
  red[rank * LR_R + part] = s;
  SP_BARRIER();
  if (t < LR_R) {
    float v = 0.0f;
    for (int j = 0; j < LR_T / LR_R; ++j) v += red[t * LR_R + j];
    y[(long)tok * LR_R + t] = v * scale;
  }
}

/* ---- logit soft-capping ---------------------------------------------------------------------
 * out = cap * tanh(x / cap), tanh(y) = 1 - 2 / (exp(2y) + 1).  A work-item
 * per logit of one decode step. */
SP_KERNEL void r_softcap_decode(SP_GLOBAL const float *SP_RESTRICT logits,
                                SP_GLOBAL float *SP_RESTRICT out, int n, float cap) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const float y = logits[i] / cap;
  out[i] = cap * (1.0f - 2.0f / (SP_EXPF(2.0f * y) + 1.0f));
}

/* ---- multiresolution hash encoding ------------------------------------------------------------
 * Level l scales a point in [0, 1)^3 by scale[l] and interpolates the
 * HG_F features of its cell's 8 corners trilinearly.  A level of side
 * res[l] > 0 is stored densely (corner index x + y res + z res^2), a finer
 * one (res[l] = 0) by the spatial hash x ^ 2654435761 y ^ 805459861 z,
 * masked to its 2^log2t entries.  A work-item per (point, level):
 * SP_GRP(1) is the level; the output is [level][feature][point]. */
#define HG_F 2

SP_KERNEL void r_hashgrid_encode(SP_GLOBAL const float *SP_RESTRICT pos,
                                 SP_GLOBAL const float *SP_RESTRICT table,
                                 SP_GLOBAL const float *SP_RESTRICT scale,
                                 SP_GLOBAL const int *SP_RESTRICT res,
                                 SP_GLOBAL float *SP_RESTRICT out, int n, int log2t) {
  const int p = SP_GID(0), l = SP_GRP(1);
  if (p >= n) return;
  const float s = scale[l];
  const int side = res[l];
  const uint mask = (1u << log2t) - 1u;
  const float fx = pos[3 * (long)p] * s, fy = pos[3 * (long)p + 1] * s;
  const float fz = pos[3 * (long)p + 2] * s;
  const int ix = (int)fx, iy = (int)fy, iz = (int)fz; /* floor: all >= 0 */
  const float wx = fx - (float)ix, wy = fy - (float)iy, wz = fz - (float)iz;
  SP_GLOBAL const float *tl = table + ((long)l << log2t) * HG_F;
  float a0 = 0.0f, a1 = 0.0f;
  for (int c = 0; c < 8; ++c) {
    const int cx = ix + (c & 1), cy = iy + (c >> 1 & 1), cz = iz + (c >> 2);
    const float w =
        ((c & 1) ? wx : 1.0f - wx) * ((c & 2) ? wy : 1.0f - wy) * ((c & 4) ? wz : 1.0f - wz);
    const uint h = side > 0 ? (uint)((cz * side + cy) * side + cx)
                            : ((uint)cx ^ (uint)cy * 2654435761u ^ (uint)cz * 805459861u) & mask;
    a0 = SP_FMAF(w, tl[HG_F * h], a0);
    a1 = SP_FMAF(w, tl[HG_F * h + 1], a1);
  }
  out[((long)l * HG_F) * n + p] = a0;
  out[((long)l * HG_F + 1) * n + p] = a1;
}

/* ---- spectral normalisation, one power iteration -----------------------------------------------
 * For weight m (rows x cols, row-major): v = W^T u / |W^T u| (a work-item
 * per column, down the rows: coalesced), then w = W v (a work-item per row,
 * along it: each warp's rows share cache lines through L1), sigma = |w|,
 * u' = w / sigma.  One SN_T-wide group per weight; rows, cols <= SN_T. */
#define SN_T 1024

SP_KERNEL void r_specnorm_power_40(SP_GLOBAL const float *SP_RESTRICT w,
                                   SP_GLOBAL const float *SP_RESTRICT u0,
                                   SP_GLOBAL float *SP_RESTRICT u1,
                                   SP_GLOBAL float *SP_RESTRICT sigma, int rows, int cols) {
  SP_LOCAL float lu[SN_T];
  SP_LOCAL float lv[SN_T];
  SP_LOCAL float red[SN_T];
  const int t = SP_LID(0), m = SP_GRP(0);
  SP_GLOBAL const float *wm = w + (long)m * rows * cols;
  if (t < rows) lu[t] = u0[(long)m * rows + t];
  SP_BARRIER();
  float ss = 0.0f;
  if (t < cols) {
    float acc = 0.0f;
    for (int i = 0; i < rows; ++i) acc = SP_FMAF(wm[(long)i * cols + t], lu[i], acc);
    lv[t] = acc;
    ss = acc * acc;
  }
  red[t] = ss;
  SP_SUM(red, t, SN_T);
  const float inv_v = 1.0f / (SP_SQRTF(red[0]) + 1e-12f);
  ss = 0.0f;
  float wu = 0.0f;
  if (t < rows) {
    SP_GLOBAL const float *wr = wm + (long)t * cols;
    for (int j = 0; j < cols; ++j) wu = SP_FMAF(wr[j], lv[j], wu);
    wu *= inv_v;
    ss = wu * wu;
  }
  SP_BARRIER(); /* every work-item has read red[0] */
  red[t] = ss;
  SP_SUM(red, t, SN_T);
  const float sg = SP_SQRTF(red[0]);
  if (t < rows) u1[(long)m * rows + t] = wu / (sg + 1e-12f);
  if (t == 0) sigma[m] = sg;
}
