/* ml.cl: machine-learning kernels for the fourth validation suite (host
 * half: ml.c): GroupNorm with SiLU, a weighted embedding bag, MoE top-2
 * gating, a mixed-precision Adam step with gradient clipping, paged decode
 * attention (split-K first stage), a fused depthwise-separable convolution
 * and speculative-decoding verification.  Written for this suite,
 * independently of the core suite and the earlier validation suites. */
#include "sp_dev.h"

/* ---- GroupNorm + SiLU, NHWC ---------------------------------------------
 * x is [n][hw][c] with GN_G groups of GN_CG channels.  One 256-wide group
 * per (image, channel group): a first pass over its hw x GN_CG values
 * gathers the sum and the sum of squares, a second normalises, applies
 * gamma/beta and SiLU.  16 pixels x 16 channels per step: 64-byte pieces
 * of 2 KB pixel rows. */
#define GN_T 256
#define GN_CG 16

SP_KERNEL void y_groupnorm_nhwc(SP_GLOBAL const float *SP_RESTRICT x,
                                SP_GLOBAL const float *SP_RESTRICT gamma,
                                SP_GLOBAL const float *SP_RESTRICT beta,
                                SP_GLOBAL float *SP_RESTRICT y, int hw, int c)
{
  SP_LOCAL float r1[GN_T];
  SP_LOCAL float r2[GN_T];
  const int t = SP_LID(0), groups = c / GN_CG;
  const int img = SP_GRP(0) / groups, g = SP_GRP(0) % groups;
  const int ch = g * GN_CG + t % GN_CG;
  const long base = (long)img * hw * c + ch;
  float s = 0.0f, ss = 0.0f;
  for (int p = t / GN_CG; p < hw; p += GN_T / GN_CG) {
    const float v = x[base + (long)p * c];
    s += v;
    ss = SP_FMAF(v, v, ss);
  }
  r1[t] = s;
  r2[t] = ss;
  SP_BARRIER();
  for (int k = GN_T / 2; k > 0; k >>= 1) {
    if (t < k) {
      r1[t] += r1[t + k];
      r2[t] += r2[t + k];
    }
    SP_BARRIER();
  }
  const float inv = 1.0f / (float)(hw * GN_CG);
  const float mean = r1[0] * inv;
  const float var = SP_FMAXF(r2[0] * inv - mean * mean, 0.0f);
  const float rs = SP_RSQRTF(var + 1e-5f);
  const float a = rs * gamma[ch], b = beta[ch] - mean * a;
  for (int p = t / GN_CG; p < hw; p += GN_T / GN_CG) {
    const float v = SP_FMAF(x[base + (long)p * c], a, b);
    y[base + (long)p * c] = v / (1.0f + SP_EXPF(-v));
  }
}

/* ---- weighted embedding bag ------------------------------------------------
 * out[b] = sum over the bag's entries i of w[i] * table[idx[i]], bags given
 * by offsets (lengths vary).  One 128-wide group per bag, a work-item per
 * dimension: each entry is one 512-byte row gather. */
#define EB_D 128

SP_KERNEL void y_embbag_sum(SP_GLOBAL const float *SP_RESTRICT table,
                            SP_GLOBAL const int *SP_RESTRICT idx,
                            SP_GLOBAL const float *SP_RESTRICT w,
                            SP_GLOBAL const int *SP_RESTRICT off,
                            SP_GLOBAL float *SP_RESTRICT out)
{
  const int b = SP_GRP(0), d = SP_LID(0);
  const int lo = off[b], hi = off[b + 1];
  float acc = 0.0f;
  for (int i = lo; i < hi; ++i)
    acc = SP_FMAF(w[i], table[(long)idx[i] * EB_D + d], acc);
  out[(long)b * EB_D + d] = acc;
}

/* ---- MoE top-2 gating ----------------------------------------------------------
 * Per token: softmax over MG_E router logits, the two largest probabilities
 * (ties to the lower expert), renormalised to sum to 1; tokens per expert
 * counted in local memory and added to the global counts once per group. */
#define MG_E 64
#define MG_T 256

SP_KERNEL void y_moe_topk_gate(SP_GLOBAL const float *SP_RESTRICT logits,
                               SP_GLOBAL uint *SP_RESTRICT ids,
                               SP_GLOBAL float *SP_RESTRICT wts,
                               SP_GLOBAL uint *SP_RESTRICT counts, int tokens)
{
  SP_LOCAL uint hist[MG_E];
  const int t = SP_LID(0), tok = SP_GID(0);
  if (t < MG_E) hist[t] = 0;
  SP_BARRIER();
  if (tok < tokens) {
    SP_GLOBAL const float *row = logits + (long)tok * MG_E;
    float mx = -3.0e38f, b1 = -3.0e38f, b2 = -3.0e38f;
    int i1 = 0, i2 = 0;
    for (int e = 0; e < MG_E; ++e) {
      const float v = row[e];
      mx = SP_FMAXF(mx, v);
      if (v > b1) {
        b2 = b1;
        i2 = i1;
        b1 = v;
        i1 = e;
      } else if (v > b2) {
        b2 = v;
        i2 = e;
      }
    }
    float sum = 0.0f;
    for (int e = 0; e < MG_E; ++e)
      sum += SP_EXPF(row[e] - mx);
    const float p1 = SP_EXPF(b1 - mx) / sum, p2 = SP_EXPF(b2 - mx) / sum;
    ids[2 * (long)tok] = (uint)i1;
    ids[2 * (long)tok + 1] = (uint)i2;
    wts[2 * (long)tok] = p1 / (p1 + p2);
    wts[2 * (long)tok + 1] = p2 / (p1 + p2);
    SP_ATOMIC_ADD(&hist[i1], 1u);
    SP_ATOMIC_ADD(&hist[i2], 1u);
  }
  SP_BARRIER();
  if (t < MG_E && hist[t] != 0) SP_ATOMIC_ADD(&counts[t], hist[t]);
}

/* ---- mixed-precision AdamW with gradient clipping ---------------------------
 * fp32 master weights, moments m and v, bf16 gradients (two per word); the
 * clip factor min(1, max_norm / ||g||) comes from AD_PARTS partial sums of
 * squares that an earlier pass wrote, and every group adds them up itself.
 * The updated weights are also written as bf16 (round to nearest even) for
 * the next forward pass. */
#define AD_T 256
#define AD_PARTS 1024

SP_FN uint y_bf16_rne(float f)
{
  const uint u = SP_F2U(f);
  return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}

SP_KERNEL void y_adam_bf16_clip(SP_GLOBAL float *SP_RESTRICT p,
                                SP_GLOBAL float *SP_RESTRICT m,
                                SP_GLOBAL float *SP_RESTRICT v,
                                SP_GLOBAL const uint *SP_RESTRICT g2,
                                SP_GLOBAL const float *SP_RESTRICT parts,
                                SP_GLOBAL uint *SP_RESTRICT pb16, int nwords,
                                float lr, float bc1, float bc2)
{
  SP_LOCAL float red[AD_T];
  const int t = SP_LID(0), i = SP_GID(0);
  float s = 0.0f;
  for (int k = t; k < AD_PARTS; k += AD_T)
    s += parts[k];
  red[t] = s;
  SP_SUM(red, t, AD_T);
  const float norm = SP_SQRTF(red[0]);
  const float clip = SP_FMINF(1.0f, 1.0f / (norm + 1e-6f));
  if (i >= nwords) return;
  const uint gw = g2[i];
  uint outw = 0;
  for (int h = 0; h < 2; ++h) {
    const long e = 2 * (long)i + h;
    const float g = SP_U2F(h ? (gw & 0xffff0000u) : (gw << 16)) * clip;
    const float mm = 0.9f * m[e] + 0.1f * g;
    const float vv = 0.999f * v[e] + 0.001f * g * g;
    const float upd = (mm / bc1) / (SP_SQRTF(vv / bc2) + 1e-8f);
    const float pp = p[e] - lr * (upd + 0.01f * p[e]);
    m[e] = mm;
    v[e] = vv;
    p[e] = pp;
    outw |= y_bf16_rne(pp) << (16 * h);
  }
  pb16[i] = outw;
}

/* ---- paged decode attention, split-K first stage ------------------------------
 * One decode query per sequence, PD_QH query heads over PD_KVH KV heads
 * (grouped), head dimension 128, the KV cache in pages of 16 tokens found
 * through a block table.  A 128-wide group takes (split, KV head, sequence):
 * the split's PD_SPLIT tokens, in tiles of 32 staged in local memory.  q
 * gets rotary embedding (NeoX halves) from a cos/sin table at the
 * sequence's last position; every work-item owns one dimension of the four
 * query heads' outputs; online softmax.  Written out: the unnormalised
 * outputs and each head's max and sum, for a second pass to combine. */
#define PD_D 128
#define PD_PAGE 16
#define PD_TILE 32
#define PD_G 4 /* query heads per KV head */
#define PD_SPLIT 512
#define PD_NEG (-1.0e30f)

SP_KERNEL void y_paged_decode_splitk(SP_GLOBAL const float *SP_RESTRICT q,
                                     SP_GLOBAL const float *SP_RESTRICT kc,
                                     SP_GLOBAL const float *SP_RESTRICT vc,
                                     SP_GLOBAL const int *SP_RESTRICT btab,
                                     SP_GLOBAL const int *SP_RESTRICT lens,
                                     SP_GLOBAL const float *SP_RESTRICT cs,
                                     SP_GLOBAL float *SP_RESTRICT oacc,
                                     SP_GLOBAL float *SP_RESTRICT oml,
                                     int kvh, int maxpages)
{
  SP_LOCAL float qs[PD_G][PD_D];
  SP_LOCAL float ks[PD_TILE][PD_D + 1];
  SP_LOCAL float sc[PD_G][PD_TILE];
  const int t = SP_LID(0), split = SP_GRP(0), hk = SP_GRP(1), s = SP_GRP(2);
  const int nsplit = SP_NGRP(0), len = lens[s];
  const int lo = split * PD_SPLIT;
  const int hi = lo + PD_SPLIT < len ? lo + PD_SPLIT : len;
  float acc[PD_G], mx[PD_G], l[PD_G];
  for (int h = 0; h < PD_G; ++h) {
    const int qh = hk * PD_G + h;
    const long qb = ((long)s * kvh * PD_G + qh) * PD_D;
    const int i = t % (PD_D / 2), pos = len - 1;
    const float c = cs[(long)pos * PD_D + i], sn = cs[(long)pos * PD_D + PD_D / 2 + i];
    const float x0 = q[qb + i], x1 = q[qb + i + PD_D / 2];
    qs[h][t] = t < PD_D / 2 ? x0 * c - x1 * sn : x1 * c + x0 * sn;
    acc[h] = 0.0f;
    mx[h] = PD_NEG;
    l[h] = 0.0f;
  }
  const float scale = 0.08838834764f; /* 1/sqrt(128) */
  for (int j0 = lo; j0 < hi; j0 += PD_TILE) {
    SP_BARRIER();
    for (int r = 0; r < PD_TILE; ++r) {
      const int tok = j0 + r;
      float kv = 0.0f;
      if (tok < hi) {
        const int page = btab[s * maxpages + tok / PD_PAGE];
        kv = kc[(((long)page * kvh + hk) * PD_PAGE + tok % PD_PAGE) * PD_D + t];
      }
      ks[r][t] = kv;
    }
    SP_BARRIER();
    {
      const int h = t / PD_TILE, r = t % PD_TILE;
      float d = 0.0f;
      for (int k = 0; k < PD_D; ++k)
        d = SP_FMAF(qs[h][k], ks[r][k], d);
      sc[h][r] = j0 + r < hi ? d * scale : PD_NEG;
    }
    SP_BARRIER();
    for (int h = 0; h < PD_G; ++h) {
      float tm = PD_NEG;
      for (int r = 0; r < PD_TILE; ++r)
        tm = SP_FMAXF(tm, sc[h][r]);
      const float mn = SP_FMAXF(mx[h], tm), corr = SP_EXPF(mx[h] - mn);
      float ls = 0.0f, a = 0.0f;
      for (int r = 0; r < PD_TILE && j0 + r < hi; ++r) {
        const int tok = j0 + r;
        const int page = btab[s * maxpages + tok / PD_PAGE];
        const float pr = SP_EXPF(sc[h][r] - mn);
        ls += pr;
        a = SP_FMAF(pr, vc[(((long)page * kvh + hk) * PD_PAGE + tok % PD_PAGE) * PD_D + t], a);
      }
      acc[h] = SP_FMAF(acc[h], corr, a);
      l[h] = SP_FMAF(l[h], corr, ls);
      mx[h] = mn;
    }
  }
  for (int h = 0; h < PD_G; ++h) {
    const long o = ((long)s * kvh * PD_G + hk * PD_G + h) * nsplit + split;
    oacc[o * PD_D + t] = acc[h];
    if (t == 0) {
      oml[2 * o] = mx[h];
      oml[2 * o + 1] = l[h];
    }
  }
}

/* ---- fused depthwise-separable convolution (MobileNet block) ---------------
 * NHWC, DS_CI channels: depthwise 3x3 (padding 1) + bias + ReLU6 into local
 * memory, then the pointwise 1x1 convolution to DS_CO channels + bias.  A
 * 256-wide group takes DS_W consecutive pixels of one row: the 3 x (DS_W +
 * 2) input patch is staged in local memory; pointwise weights are read
 * through the cache. */
#define DS_CI 64
#define DS_CO 128
#define DS_W 16

SP_KERNEL void y_dwsep_conv(SP_GLOBAL const float *SP_RESTRICT x,
                            SP_GLOBAL const float *SP_RESTRICT wd,
                            SP_GLOBAL const float *SP_RESTRICT bd,
                            SP_GLOBAL const float *SP_RESTRICT wp,
                            SP_GLOBAL const float *SP_RESTRICT bp,
                            SP_GLOBAL float *SP_RESTRICT y, int h, int w)
{
  SP_LOCAL float patch[3][DS_W + 2][DS_CI];
  SP_LOCAL float dws[DS_W][DS_CI + 1];
  const int t = SP_LID(0), tiles = w / DS_W;
  const int tile = SP_GRP(0) % tiles, row = SP_GRP(0) / tiles % h, img = SP_GRP(0) / tiles / h;
  const int x0 = tile * DS_W;
  for (int e = t; e < 3 * (DS_W + 2) * DS_CI; e += 256) {
    const int c = e % DS_CI, px = e / DS_CI % (DS_W + 2), ry = e / DS_CI / (DS_W + 2);
    const int iy = row + ry - 1, ix = x0 + px - 1;
    patch[ry][px][c] =
        iy >= 0 && iy < h && ix >= 0 && ix < w ? x[(((long)img * h + iy) * w + ix) * DS_CI + c]
                                               : 0.0f;
  }
  SP_BARRIER();
  for (int e = t; e < DS_W * DS_CI; e += 256) {
    const int c = e % DS_CI, px = e / DS_CI;
    float a = bd[c];
    for (int k = 0; k < 9; ++k)
      a = SP_FMAF(patch[k / 3][px + k % 3][c], wd[k * DS_CI + c], a);
    dws[px][c] = SP_FMINF(SP_FMAXF(a, 0.0f), 6.0f);
  }
  SP_BARRIER();
  const int co = t % DS_CO, p0 = t / DS_CO; /* 2 pixel phases */
  float acc[DS_W / 2];
  for (int i = 0; i < DS_W / 2; ++i)
    acc[i] = bp[co];
  for (int c = 0; c < DS_CI; ++c) {
    const float wv = wp[c * DS_CO + co];
    for (int i = 0; i < DS_W / 2; ++i)
      acc[i] = SP_FMAF(dws[p0 + 2 * i][c], wv, acc[i]);
  }
  for (int i = 0; i < DS_W / 2; ++i)
    y[(((long)img * h + row) * w + x0 + p0 + 2 * i) * DS_CO + co] = acc[i];
}

/* ---- speculative decoding verification -------------------------------------
 * Per request, SV_K draft tokens: draft i is accepted while u_i q_i(x) <
 * p_i(x); at the first rejection a token is drawn from max(0, p_i - q_i)
 * (unnormalised), else the bonus token from p_K.  The draw: each of the
 * 256 work-items sums a contiguous chunk, work-item 0 scans the chunk sums
 * in order, the chunk holding the threshold walks its entries.  One group
 * per request. */
#define SV_T 256

SP_KERNEL void y_spec_verify(SP_GLOBAL const float *SP_RESTRICT pt,
                             SP_GLOBAL const float *SP_RESTRICT qd,
                             SP_GLOBAL const int *SP_RESTRICT draft,
                             SP_GLOBAL const float *SP_RESTRICT u,
                             SP_GLOBAL uint *SP_RESTRICT out, int k, int vocab)
{
  SP_LOCAL float part[SV_T];
  SP_LOCAL float base[SV_T];
  SP_LOCAL int nacc;
  const int t = SP_LID(0), r = SP_GRP(0);
  if (t == 0) {
    int i = 0;
    for (; i < k; ++i) {
      const int x = draft[r * k + i];
      const float pv = pt[((long)r * (k + 1) + i) * vocab + x];
      const float qv = qd[((long)r * k + i) * vocab + x];
      if (!(u[r * (k + 1) + i] * qv < pv)) break;
    }
    nacc = i;
  }
  SP_BARRIER();
  const int i = nacc;
  SP_GLOBAL const float *prow = pt + ((long)r * (k + 1) + i) * vocab;
  SP_GLOBAL const float *qrow = qd + ((long)r * k + (i < k ? i : 0)) * vocab;
  const int chunk = (vocab + SV_T - 1) / SV_T, lo = t * chunk;
  const int hi = lo + chunk < vocab ? lo + chunk : vocab;
  float s = 0.0f;
  for (int v = lo; v < hi; ++v)
    s += i < k ? SP_FMAXF(prow[v] - qrow[v], 0.0f) : prow[v];
  part[t] = s;
  SP_BARRIER();
  if (t == 0) {
    float run = 0.0f;
    for (int c = 0; c < SV_T; ++c) {
      base[c] = run;
      run += part[c];
    }
    part[0] = run * u[r * (k + 1) + k]; /* the threshold */
    base[0] = 0.0f;
  }
  SP_BARRIER();
  const float thr = part[0];
  const float b0 = base[t], b1 = t + 1 < SV_T ? base[t + 1] : 3.0e38f;
  if (b0 <= thr && thr < b1) {
    float run = b0;
    int pick = hi - 1;
    for (int v = lo; v < hi; ++v) {
      run += i < k ? SP_FMAXF(prow[v] - qrow[v], 0.0f) : prow[v];
      if (run > thr) {
        pick = v;
        break;
      }
    }
    out[2 * r] = (uint)i;
    out[2 * r + 1] = (uint)(pick < lo ? lo : pick);
  }
}
