/* llm.cl: language-model building blocks for the second validation suite
 * (host half: llm.c): an optimizer step, a fused residual + RMSNorm, rotary
 * embeddings, a layout conversion, decode-time attention over an
 * L2-resident KV cache, ragged per-row top-k and greedy sampling.
 * Written for this suite, independently of the core suite and
 * the first validation suite. */
#include "sp_dev.h"

/* ---- AdamW --------------------------------------------------------------
 * One decoupled-weight-decay Adam step over n parameters, one element per
 * work-item: reads p, g, m, v and writes p, m, v in place (4 reads, 3
 * writes of 4 bytes).  bc1 and bc2 are the bias corrections 1/(1-beta^t). */
SP_KERNEL void w_adamw_step(SP_GLOBAL float *SP_RESTRICT p,
                            SP_GLOBAL const float *SP_RESTRICT g,
                            SP_GLOBAL float *SP_RESTRICT m,
                            SP_GLOBAL float *SP_RESTRICT v, float lr,
                            float beta1, float beta2, float eps, float wd,
                            float bc1, float bc2, int n)
{
  const int i = SP_GID(0);
  if (i >= n)
    return;
  const float gi = g[i];
  const float mi = beta1 * m[i] + (1.0f - beta1) * gi;
  const float vi = beta2 * v[i] + (1.0f - beta2) * gi * gi;
  m[i] = mi;
  v[i] = vi;
  const float pi = p[i];
  p[i] = pi - lr * (mi * bc1 / (SP_SQRTF(vi * bc2) + eps) + wd * pi);
}

/* ---- residual add + RMSNorm ---------------------------------------------
 * h = x + r (written back: the next residual), y = h / rms(h) * w, rows of
 * RMS_H elements, one 512-wide work-group per row, each work-item holding
 * RMS_H / 512 elements in registers. */
#define RMS_H 5120
#define RMS_T 512
#define RMS_PER (RMS_H / RMS_T)

SP_KERNEL void w_rmsnorm_residual(SP_GLOBAL const float *SP_RESTRICT x,
                                  SP_GLOBAL const float *SP_RESTRICT r,
                                  SP_GLOBAL const float *SP_RESTRICT w,
                                  SP_GLOBAL float *SP_RESTRICT h,
                                  SP_GLOBAL float *SP_RESTRICT y, float eps)
{
  SP_LOCAL float red[RMS_T];
  const int t = SP_LID(0);
  const long base = (long)SP_GRP(0) * RMS_H;
  float hv[RMS_PER];
  float ss = 0.0f;
  for (int j = 0; j < RMS_PER; ++j) {
    const long i = base + t + j * RMS_T;
    hv[j] = x[i] + r[i];
    h[i] = hv[j];
    ss += hv[j] * hv[j];
  }
  red[t] = ss;
  SP_TREE(red, t, RMS_T, SP_ADD);
  const float inv = SP_RSQRTF(red[0] / (float)RMS_H + eps);
  for (int j = 0; j < RMS_PER; ++j) {
    const int c = t + j * RMS_T;
    y[base + c] = hv[j] * inv * w[c];
  }
}

/* ---- rotary position embedding -------------------------------------------
 * q and k are [tokens][heads][128]; dimension pairs (i, i + 64) of a token
 * at position pos rotate by the angle in the cos/sin tables [positions][64]
 * (rotate-half convention).  One work-item per pair and head rotates the
 * pair of q and the pair of k in place. */
#define ROPE_D 128
#define ROPE_HALF 64

SP_KERNEL void w_rope_qk(SP_GLOBAL float *SP_RESTRICT q,
                         SP_GLOBAL float *SP_RESTRICT k,
                         SP_GLOBAL const float *SP_RESTRICT cosv,
                         SP_GLOBAL const float *SP_RESTRICT sinv, int heads,
                         int seq, int pairs)
{
  const int id = SP_GID(0);
  if (id >= pairs)
    return;
  const int i = id % ROPE_HALF, th = id / ROPE_HALF;
  const int tok = th / heads, pos = tok % seq;
  const float c = cosv[pos * ROPE_HALF + i], s = sinv[pos * ROPE_HALF + i];
  const long e = (long)th * ROPE_D + i;
  const float q0 = q[e], q1 = q[e + ROPE_HALF];
  const float k0 = k[e], k1 = k[e + ROPE_HALF];
  q[e] = q0 * c - q1 * s;
  q[e + ROPE_HALF] = q1 * c + q0 * s;
  k[e] = k0 * c - k1 * s;
  k[e + ROPE_HALF] = k1 * c + k0 * s;
}

/* ---- NCHW -> NHWC --------------------------------------------------------
 * Per image, the c x hw matrix is transposed through a 32x33 local tile by
 * a 32x8 work-group; c need not be a multiple of 32 (the edge tiles are
 * partly idle). */
SP_KERNEL void w_nchw_to_nhwc(SP_GLOBAL const float *SP_RESTRICT in,
                              SP_GLOBAL float *SP_RESTRICT out, int c, int hw)
{
  SP_LOCAL float tile[32][33];
  const int tx = SP_LID(0), ty = SP_LID(1);
  const int p0 = SP_GRP(0) * 32, c0 = SP_GRP(1) * 32;
  const long img = (long)SP_GRP(2) * c * hw;
  for (int j = ty; j < 32; j += 8) {
    const int ch = c0 + j, px = p0 + tx;
    if (ch < c && px < hw)
      tile[j][tx] = in[img + (long)ch * hw + px];
  }
  SP_BARRIER();
  for (int j = ty; j < 32; j += 8) {
    const int px = p0 + j, ch = c0 + tx;
    if (ch < c && px < hw)
      out[img + (long)px * c + ch] = tile[tx][j];
  }
}

/* ---- decode attention over an L2-resident KV cache -----------------------
 * Grouped-query attention at decode time with GQ_Q queries per KV head (the
 * query heads of a group times speculative tokens).  One 256-wide
 * work-group per query: scores against all seq keys (a work-item per key,
 * reading its 512-byte row), a softmax in local memory, then the weighted
 * sum of the values (a work-item per output dimension and half of the
 * keys).  K and V ([kvh][seq][128]) are re-read by every query of their
 * head, so after the first launch they are served from L2. */
#define GQ_D 128
#define GQ_T 256
#define GQ_MAXSEQ 2048

SP_KERNEL void w_gqa_decode(SP_GLOBAL const float *SP_RESTRICT q,
                            SP_GLOBAL const float *SP_RESTRICT kc,
                            SP_GLOBAL const float *SP_RESTRICT vc,
                            SP_GLOBAL float *SP_RESTRICT out, int seq,
                            int qperhead, float scale)
{
  SP_LOCAL float qs[GQ_D];
  SP_LOCAL float sc[GQ_MAXSEQ];
  SP_LOCAL float red[GQ_T];
  SP_LOCAL float part[2][GQ_D];
  const int t = SP_LID(0), g = SP_GRP(0), head = g / qperhead;
  if (t < GQ_D)
    qs[t] = q[(long)g * GQ_D + t] * scale;
  SP_BARRIER();
  SP_GLOBAL const float *kh = kc + (long)head * seq * GQ_D;
  SP_GLOBAL const float *vh = vc + (long)head * seq * GQ_D;
  float m = -3.0e38f;
  for (int tok = t; tok < seq; tok += GQ_T) {
    SP_GLOBAL const float *kr = kh + (long)tok * GQ_D;
    float s = 0.0f;
    for (int d = 0; d < GQ_D; ++d)
      s = SP_FMAF(qs[d], kr[d], s);
    sc[tok] = s;
    m = SP_FMAXF(m, s);
  }
  red[t] = m;
  SP_TREE(red, t, GQ_T, SP_FMAXF);
  m = red[0];
  SP_BARRIER(); /* red[0] read by all before it is reused */
  float l = 0.0f;
  for (int tok = t; tok < seq; tok += GQ_T) {
    const float e = SP_EXPF(sc[tok] - m);
    sc[tok] = e;
    l += e;
  }
  red[t] = l;
  SP_TREE(red, t, GQ_T, SP_ADD);
  l = red[0];
  const int d = t % GQ_D, hv = t / GQ_D;
  float acc = 0.0f;
  for (int tok = hv; tok < seq; tok += 2)
    acc = SP_FMAF(sc[tok], vh[(long)tok * GQ_D + d], acc);
  part[hv][d] = acc;
  SP_BARRIER();
  if (t < GQ_D)
    out[(long)g * GQ_D + t] = (part[0][t] + part[1][t]) / l;
}

/* ---- ragged per-row top-k -------------------------------------------------
 * Row r holds x[off[r] .. off[r+1]) (distinct values); the TK_K largest are
 * written in descending order with their positions in the row.  One
 * 128-wide work-group per row selects them one at a time: each pass every
 * work-item finds its largest element below the last one selected and a
 * local tree keeps the best.  Work grows with the row length, and a few
 * rows are very long. */
#define TK_K 16
#define TK_T 128

SP_KERNEL void w_topk_rows(SP_GLOBAL const float *SP_RESTRICT x,
                           SP_GLOBAL const int *SP_RESTRICT off,
                           SP_GLOBAL float *SP_RESTRICT vals,
                           SP_GLOBAL int *SP_RESTRICT idx)
{
  SP_LOCAL float bv[TK_T];
  SP_LOCAL int bi[TK_T];
  const int t = SP_LID(0), row = SP_GRP(0);
  const int lo = off[row], len = off[row + 1] - lo;
  SP_GLOBAL const float *xr = x + lo;
  float thr = 3.0e38f;
  for (int k = 0; k < TK_K; ++k) {
    float best = -3.0e38f;
    int at = -1;
    for (int i = t; i < len; i += TK_T) {
      const float e = xr[i];
      if (e < thr && e > best) {
        best = e;
        at = i;
      }
    }
    bv[t] = best;
    bi[t] = at;
    SP_BARRIER();
    for (int s = TK_T / 2; s > 0; s >>= 1) {
      if (t < s && bv[t + s] > bv[t]) {
        bv[t] = bv[t + s];
        bi[t] = bi[t + s];
      }
      SP_BARRIER();
    }
    thr = bv[0];
    if (t == 0) {
      vals[row * TK_K + k] = bv[0];
      idx[row * TK_K + k] = bi[0];
    }
    SP_BARRIER(); /* bv[0] read by all before the next pass writes it */
  }
}

/* ---- greedy sampling ------------------------------------------------------
 * The arg-max of one vocabulary of logits (lowest index on ties) by a
 * single 1024-wide work-group: the next token of a batch-1 decode step. */
#define AM_T 1024

SP_KERNEL void w_argmax_vocab(SP_GLOBAL const float *SP_RESTRICT logits,
                              SP_GLOBAL uint *SP_RESTRICT out, int n)
{
  SP_LOCAL float bv[AM_T];
  SP_LOCAL int bi[AM_T];
  const int t = SP_LID(0);
  float best = -3.0e38f;
  int at = n;
  for (int i = t; i < n; i += AM_T)
    if (logits[i] > best) {
      best = logits[i];
      at = i;
    }
  bv[t] = best;
  bi[t] = at;
  SP_BARRIER();
  for (int s = AM_T / 2; s > 0; s >>= 1) {
    if (t < s && (bv[t + s] > bv[t] ||
                  (bv[t + s] == bv[t] && bi[t + s] < bi[t]))) {
      bv[t] = bv[t + s];
      bi[t] = bi[t + s];
    }
    SP_BARRIER();
  }
  if (t == 0)
    out[0] = (uint)bi[0];
}
