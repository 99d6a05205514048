/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ml.cl: machine-learning kernels for the sixth validation suite (host
 * half: ml.c): int4 KV-cache dequantisation, a sigmoid focal loss, Gumbel-max
 * sampling, the Mamba selective scan, the word2vec skip-gram negative
 * sampling loss and a decode step's repetition penalty.  Written for this
 * suite, independently of the core suite and the earlier validation
 * suites. */
#include "sp_dev.h"

/* ---- int4 KV-cache dequantisation -------------------------------------------
 * q holds 8 unsigned nibbles per word; every 32 values (4 words) share a
 * scale and a zero point (sz[2g], sz[2g + 1]): x = (q - zero) * scale.  A
 * work-item per word, 8 floats out. */
SP_KERNEL void q_kv_dequant_int4(SP_GLOBAL const uint *SP_RESTRICT q,
                                 SP_GLOBAL const float *SP_RESTRICT sz,
                                 SP_GLOBAL float *SP_RESTRICT out, int nwords) {
  const int w = SP_GID(0);
  if (w >= nwords) return;
  const uint v = q[w];
  const int g = w / 4;
  const float s = sz[2 * g], z = sz[2 * g + 1];
  for (int b = 0; b < 8; ++b) out[8 * (long)w + b] = ((float)((v >> (4 * b)) & 15u) - z) * s;
}

/* ---- sigmoid focal loss -------------------------------------------------------
 * loss = alpha_t (1 - p_t)^2 (-log p_t), p_t = sigmoid(+-x) by the label;
 * one sum per 256-wide group (part[group]). */
#define FL_T 256

SP_KERNEL void q_focal_loss(SP_GLOBAL const float *SP_RESTRICT x,
                            SP_GLOBAL const uchar *SP_RESTRICT y, SP_GLOBAL float *SP_RESTRICT part,
                            int n, float alpha) {
  SP_LOCAL float red[FL_T];
  const int t = SP_LID(0), i = SP_GID(0);
  float l = 0.0f;
  if (i < n) {
    const int pos = y[i] != 0;
    const float s = pos ? x[i] : -x[i];
    const float e = SP_EXPF(-s), pt = 1.0f / (1.0f + e), at = pos ? alpha : 1.0f - alpha;
    l = at * (1.0f - pt) * (1.0f - pt) * SP_LOGF(1.0f + e);
  }
  red[t] = l;
  SP_SUM(red, t, FL_T);
  if (t == 0) part[SP_GRP(0)] = red[0];
}

/* ---- Gumbel-max sampling ----------------------------------------------------------
 * One GS_T-wide group per row: argmax over j of logit * inv_temp + Gumbel
 * noise, the noise -log(-log(u)) from a counter-based hash of (row, j);
 * ties go to the lower index. */
#define GS_T 1024

SP_KERNEL void q_gumbel_sample(SP_GLOBAL const float *SP_RESTRICT logits,
                               SP_GLOBAL uint *SP_RESTRICT out, int vocab, float inv_temp,
                               uint seed) {
  SP_LOCAL float bv[GS_T];
  SP_LOCAL int bi[GS_T];
  const int t = SP_LID(0), row = SP_GRP(0);
  SP_GLOBAL const float *x = logits + (long)row * vocab;
  float best = -3.0e38f;
  int idx = 0;
  for (int j = t; j < vocab; j += GS_T) {
    const uint h = sp_fmix32((uint)row * (uint)vocab + (uint)j + seed);
    const float u = ((float)(h >> 9) + 0.5f) * (1.0f / 8388608.0f);
    const float v = x[j] * inv_temp - SP_LOGF(-SP_LOGF(u));
    if (v > best) {
      best = v;
      idx = j;
    }
  }
  bv[t] = best;
  bi[t] = idx;
  SP_BARRIER();
  for (int s = GS_T / 2; s > 0; s >>= 1) {
    if (t < s) {
      const float o = bv[t + s];
      if (o > bv[t] || (o == bv[t] && bi[t + s] < bi[t])) {
        bv[t] = o;
        bi[t] = bi[t + s];
      }
    }
    SP_BARRIER();
  }
  if (t == 0) out[row] = (uint)bi[0];
}

/* ---- Mamba selective scan ------------------------------------------------------------
 * A work-item per (batch, channel): h_n <- exp(dt A_n) h_n + dt B_n x,
 * y = sum_n C_n h_n over MS_N states, step after step (x, dt, y are
 * [batch][L][D]; B, C are [batch][L][MS_N]). */
#define MS_N 16

SP_KERNEL void q_mamba_scan(SP_GLOBAL const float *SP_RESTRICT x,
                            SP_GLOBAL const float *SP_RESTRICT dt,
                            SP_GLOBAL const float *SP_RESTRICT a,
                            SP_GLOBAL const float *SP_RESTRICT bm,
                            SP_GLOBAL const float *SP_RESTRICT cm, SP_GLOBAL float *SP_RESTRICT y,
                            int len, int dim, int nch) {
  const int c = SP_GID(0);
  if (c >= nch) return;
  const int b = c / dim, d = c - b * dim;
  float h[MS_N], av[MS_N];
  for (int n = 0; n < MS_N; ++n) {
    h[n] = 0.0f;
    av[n] = a[d * MS_N + n];
  }
  for (int t = 0; t < len; ++t) {
    const long row = (long)b * len + t, i = row * dim + d;
    const float xv = x[i], dv = dt[i];
    SP_GLOBAL const float *bt = bm + row * MS_N;
    SP_GLOBAL const float *ct = cm + row * MS_N;
    float acc = 0.0f;
    for (int n = 0; n < MS_N; ++n) {
      h[n] = SP_EXPF(dv * av[n]) * h[n] + dv * bt[n] * xv;
      acc += ct[n] * h[n];
    }
    y[i] = acc;
  }
}

/* ---- skip-gram negative-sampling loss ---------------------------------------------------
 * A work-item per (centre, context) pair: -log sigmoid(u_o . v_c) minus
 * log sigmoid(-u_k . v_c) for SG_NEG negatives hashed from the pair index;
 * rows of SG_D floats. */
#define SG_D 64
#define SG_NEG 5

SP_FN float q_sg_dot(SP_GLOBAL const float *u, SP_GLOBAL const float *v) {
  float s = 0.0f;
  for (int k = 0; k < SG_D; ++k) s = SP_FMAF(u[k], v[k], s);
  return s;
}

SP_KERNEL void q_sgns_loss(SP_GLOBAL const float *SP_RESTRICT win,
                           SP_GLOBAL const float *SP_RESTRICT wout,
                           SP_GLOBAL const uint *SP_RESTRICT pairs,
                           SP_GLOBAL float *SP_RESTRICT loss, int npairs, int vocab) {
  const int p = SP_GID(0);
  if (p >= npairs) return;
  SP_GLOBAL const float *vc = win + (long)pairs[2 * p] * SG_D;
  float l = SP_LOGF(1.0f + SP_EXPF(-q_sg_dot(wout + (long)pairs[2 * p + 1] * SG_D, vc)));
  for (int k = 0; k < SG_NEG; ++k) {
    const uint nk = sp_fmix32((uint)p * SG_NEG + (uint)k + 0x5bd1e995u) % (uint)vocab;
    l += SP_LOGF(1.0f + SP_EXPF(q_sg_dot(wout + (long)nk * SG_D, vc)));
  }
  loss[p] = l;
}

/* ---- repetition penalty for one decode step ----------------------------------------------
 * Logits of tokens already generated (the history, staged in local memory)
 * are divided (positive) or multiplied (negative) by the penalty; all are
 * then scaled by 1 / temperature.  A work-item per vocabulary entry. */
#define RP_T 256

SP_KERNEL void q_rep_penalty_decode(SP_GLOBAL const float *SP_RESTRICT logits,
                                    SP_GLOBAL const uint *SP_RESTRICT hist,
                                    SP_GLOBAL float *SP_RESTRICT out, int vocab, int nhist,
                                    float penalty, float inv_temp) {
  SP_LOCAL uint hs[RP_T];
  const int t = SP_LID(0), j = SP_GID(0);
  for (int i = t; i < nhist; i += RP_T) hs[i] = hist[i];
  SP_BARRIER();
  if (j >= vocab) return;
  int seen = 0;
  for (int i = 0; i < nhist; ++i) seen |= hs[i] == (uint)j;
  float v = logits[j];
  if (seen) v = v > 0.0f ? v / penalty : v * penalty;
  out[j] = v * inv_temp;
}
