/* ml.cl: machine-learning kernels for the third validation suite (host
 * half: ml.c): a LayerNorm backward pass, an implicit-GEMM convolution,
 * row-wise int8 quantisation, a weight-only int4 GEMM for a few tokens, a
 * mixture-of-experts dispatch, a beam-search step, nucleus sampling in one
 * work-group and a paged KV-cache append.  Written for this suite,
 * independently of the core suite and the first two
 * validation suites. */
#include "sp_dev.h"

/* ---- LayerNorm backward ---------------------------------------------------
 * Rows of LN_H; the forward pass saved each row's mean and 1/std.  One
 * 256-wide work-group takes LN_ROWS consecutive rows, each work-item
 * LN_PER columns: dx needs two row sums (of g = dy*gamma and of g*xhat),
 * and the group's share of dgamma = sum(dy*xhat) and dbeta = sum(dy) over
 * its rows is written as one partial row each (a second pass, not here,
 * adds the partials). */
#define LN_H 1024
#define LN_T 256
#define LN_PER (LN_H / LN_T)
#define LN_ROWS 32

SP_KERNEL void x_layernorm_bwd(SP_GLOBAL const float *SP_RESTRICT x,
                               SP_GLOBAL const float *SP_RESTRICT dy,
                               SP_GLOBAL const float *SP_RESTRICT gamma,
                               SP_GLOBAL const float *SP_RESTRICT mean,
                               SP_GLOBAL const float *SP_RESTRICT rstd,
                               SP_GLOBAL float *SP_RESTRICT dx,
                               SP_GLOBAL float *SP_RESTRICT dgamma_part,
                               SP_GLOBAL float *SP_RESTRICT dbeta_part)
{
  SP_LOCAL float r1[LN_T];
  SP_LOCAL float r2[LN_T];
  const int t = SP_LID(0), g = SP_GRP(0);
  float gm[LN_PER], dg[LN_PER], db[LN_PER];
  for (int j = 0; j < LN_PER; ++j) {
    gm[j] = gamma[t + j * LN_T];
    dg[j] = 0.0f;
    db[j] = 0.0f;
  }
  for (int r = 0; r < LN_ROWS; ++r) {
    const long row = (long)g * LN_ROWS + r, base = row * LN_H;
    const float mu = mean[row], rs = rstd[row];
    float xh[LN_PER], gg[LN_PER];
    float s1 = 0.0f, s2 = 0.0f;
    for (int j = 0; j < LN_PER; ++j) {
      const long i = base + t + j * LN_T;
      const float d = dy[i];
      xh[j] = (x[i] - mu) * rs;
      gg[j] = d * gm[j];
      dg[j] = SP_FMAF(d, xh[j], dg[j]);
      db[j] += d;
      s1 += gg[j];
      s2 = SP_FMAF(gg[j], xh[j], s2);
    }
    r1[t] = s1;
    r2[t] = s2;
    SP_BARRIER();
    for (int s = LN_T / 2; s > 0; s >>= 1) {
      if (t < s) {
        r1[t] += r1[t + s];
        r2[t] += r2[t + s];
      }
      SP_BARRIER();
    }
    const float a = r1[0] * (1.0f / LN_H), b = r2[0] * (1.0f / LN_H);
    for (int j = 0; j < LN_PER; ++j)
      dx[base + t + j * LN_T] = rs * (gg[j] - a - xh[j] * b);
    SP_BARRIER(); /* r1[0], r2[0] read by all before the next row */
  }
  for (int j = 0; j < LN_PER; ++j) {
    dgamma_part[(long)g * LN_H + t + j * LN_T] = dg[j];
    dbeta_part[(long)g * LN_H + t + j * LN_T] = db[j];
  }
}

/* ---- implicit-GEMM 3x3 convolution -----------------------------------------
 * NHWC input, KRSC filters, NHWC output, padding 1, stride 1, as a GEMM of
 * (output pixels) x (output channels) x (9 C): the A tile (64 pixels x 16
 * of the 9 C taps and channels) is gathered from the input on the fly (the
 * im2col matrix is never stored), the B tile (16 x 64 channels) read from
 * the filters; 256 work-items each own 4 x 4 outputs.  C is a multiple of
 * 16, so a 16-wide k step stays inside one filter tap. */
#define CV_BM 64
#define CV_BN 64
#define CV_BK 16

SP_KERNEL void x_conv3x3_igemm(SP_GLOBAL const float *SP_RESTRICT in,
                               SP_GLOBAL const float *SP_RESTRICT wt,
                               SP_GLOBAL float *SP_RESTRICT out, int h, int w,
                               int c, int k)
{
  SP_LOCAL float as[CV_BK][CV_BM + 4];
  SP_LOCAL float bs[CV_BK][CV_BN + 4];
  const int t = SP_LID(0), tx = t % 16, ty = t / 16;
  const int m0 = SP_GRP(0) * CV_BM, n0 = SP_GRP(1) * CV_BN;
  const int lp = t / 4, lq = (t % 4) * 4; /* loads: pixel / channel quad */
  const int pm = m0 + lp, hw = h * w;
  const int img = pm / hw, py = pm % hw / w, px = pm % w;
  const int kdim = 9 * c;
  SP_GLOBAL const float *wrow = wt + (long)(n0 + lp) * kdim;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k0 = 0; k0 < kdim; k0 += CV_BK) {
    const int tap = k0 / c, c0 = k0 % c + lq;
    const int iy = py + tap / 3 - 1, ix = px + tap % 3 - 1;
    const int ok = iy >= 0 && iy < h && ix >= 0 && ix < w;
    const long ib = (((long)img * h + iy) * w + ix) * c + c0;
    for (int i = 0; i < 4; ++i) {
      as[lq + i][lp] = ok ? in[ib + i] : 0.0f;
      bs[lq + i][lp] = wrow[k0 + lq + i];
    }
    SP_BARRIER();
    for (int kk = 0; kk < CV_BK; ++kk) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i) {
        a[i] = as[kk][ty + 16 * i];
        b[i] = bs[kk][tx + 16 * i];
      }
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] = SP_FMAF(a[i], b[j], acc[i][j]);
    }
    SP_BARRIER();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      out[(long)(m0 + ty + 16 * i) * k + n0 + tx + 16 * j] = acc[i][j];
}

/* ---- row-wise int8 quantisation -----------------------------------------
 * Symmetric per-row quantisation of activations: scale = absmax / 127,
 * code = round(x / scale).  One 256-wide work-group per row of QZ_H, the
 * row in registers; each work-item packs 4 neighbouring codes into one
 * word, so the codes are stored with coalesced 32-bit writes. */
#define QZ_H 4096
#define QZ_T 256
#define QZ_J (QZ_H / (4 * QZ_T))

SP_KERNEL void x_quant_int8_rows(SP_GLOBAL const float *SP_RESTRICT x,
                                 SP_GLOBAL uint *SP_RESTRICT q,
                                 SP_GLOBAL float *SP_RESTRICT scale)
{
  SP_LOCAL float red[QZ_T];
  const int t = SP_LID(0);
  const long row = SP_GRP(0), base = row * QZ_H;
  float v[QZ_J][4];
  float m = 0.0f;
  for (int j = 0; j < QZ_J; ++j)
    for (int i = 0; i < 4; ++i) {
      v[j][i] = x[base + j * 4 * QZ_T + 4 * t + i];
      m = SP_FMAXF(m, SP_FABSF(v[j][i]));
    }
  red[t] = m;
  SP_TREE(red, t, QZ_T, SP_FMAXF);
  const float amax = red[0];
  const float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
  for (int j = 0; j < QZ_J; ++j) {
    uint word = 0u;
    for (int i = 0; i < 4; ++i) {
      int code = (int)SP_RINTF(v[j][i] * inv);
      code = code > 127 ? 127 : code < -127 ? -127 : code;
      word |= ((uint)code & 255u) << (8 * i);
    }
    q[row * (QZ_H / 4) + j * QZ_T + t] = word;
  }
  if (t == 0)
    scale[row] = amax / 127.0f;
}

/* ---- weight-only int4 GEMM for a few tokens --------------------------------
 * y[b][n] = sum_k x[b][k] * (q[n][k] - z[n][k/128]) * s[n][k/128] for
 * I4_B tokens (speculative decoding, small batches): 4-bit weights packed
 * eight to a word, a scale and a zero point per 128 weights of a row.  A
 * 256-wide work-group owns 32 output rows, eight work-items per row each
 * taking every eighth word; the activations of I4_KC k at a time are staged
 * in local memory as [k][token], so every weight is dequantised once and
 * used for all tokens.  The eight partial sums of a row meet in local
 * memory at the end. */
#define I4_B 8
#define I4_T 256
#define I4_ROWS 32
#define I4_KC 1024
#define I4_G 128

SP_KERNEL void x_int4_gemm_b8(SP_GLOBAL const uint *SP_RESTRICT wq,
                              SP_GLOBAL const float *SP_RESTRICT sc,
                              SP_GLOBAL const float *SP_RESTRICT zp,
                              SP_GLOBAL const float *SP_RESTRICT xb,
                              SP_GLOBAL float *SP_RESTRICT y, int n, int k)
{
  SP_LOCAL float xs[I4_KC][I4_B];
  SP_LOCAL float part[I4_T][I4_B + 1];
  const int t = SP_LID(0), r = t / 8, p = t % 8;
  const int row = SP_GRP(0) * I4_ROWS + r;
  const int wpr = k / 8, gpr = k / I4_G; /* words, groups per row */
  SP_GLOBAL const uint *wr = wq + (long)row * wpr;
  float acc[I4_B];
  for (int b = 0; b < I4_B; ++b)
    acc[b] = 0.0f;
  for (int c0 = 0; c0 < k; c0 += I4_KC) {
    for (int e = t; e < I4_KC * I4_B; e += I4_T)
      xs[e % I4_KC][e / I4_KC] = xb[(long)(e / I4_KC) * k + c0 + e % I4_KC];
    SP_BARRIER();
    for (int wi = p; wi < I4_KC / 8; wi += 8) {
      const uint word = wr[c0 / 8 + wi];
      const int grp = (c0 + wi * 8) / I4_G;
      const float s = sc[(long)row * gpr + grp];
      const float zs = zp[(long)row * gpr + grp] * s;
      for (int i = 0; i < 8; ++i) {
        const float wv = (float)((word >> (4 * i)) & 15u) * s - zs;
        const int kk = wi * 8 + i;
        for (int b = 0; b < I4_B; ++b)
          acc[b] = SP_FMAF(wv, xs[kk][b], acc[b]);
      }
    }
    SP_BARRIER();
  }
  for (int b = 0; b < I4_B; ++b)
    part[t][b] = acc[b];
  SP_BARRIER();
  float sum = 0.0f; /* work-item p of the row adds token p's partials */
  for (int i = 0; i < 8; ++i)
    sum += part[r * 8 + i][p];
  y[(long)p * n + row] = sum;
}

/* ---- mixture-of-experts dispatch ------------------------------------------
 * Top-2 routing has given every token two experts (route[2 t], route[2 t +
 * 1]); expert e owns rows off[e] .. off[e+1] of the dispatch buffer, as
 * many as it was given.  Each (token, choice) pair takes the next row of
 * its expert from the expert's counter (modulo its size, so back-to-back
 * launches fill the same rows) and 32 work-items copy the token's MOE_D
 * floats there; src records which token a row holds.  The counters of the
 * few popular experts are hot. */
#define MOE_D 128
#define MOE_PPG 8 /* pairs per 256-wide group */

SP_KERNEL void x_moe_dispatch(SP_GLOBAL const float *SP_RESTRICT x,
                              SP_GLOBAL const int *SP_RESTRICT route,
                              SP_GLOBAL const int *SP_RESTRICT off,
                              SP_GLOBAL uint *SP_RESTRICT counter,
                              SP_GLOBAL float *SP_RESTRICT out,
                              SP_GLOBAL int *SP_RESTRICT src, int npairs)
{
  SP_LOCAL int slot[MOE_PPG];
  const int t = SP_LID(0), lp = t / 32, lane = t % 32;
  const int pair = SP_GRP(0) * MOE_PPG + lp;
  if (lane == 0 && pair < npairs) {
    const int e = route[pair], lo = off[e];
    const uint cap = (uint)(off[e + 1] - lo);
    const uint old = SP_ATOMIC_ADD(&counter[e], 1u);
    const int s = lo + (int)(old % cap);
    slot[lp] = s;
    src[s] = pair / 2;
  }
  SP_BARRIER();
  if (pair >= npairs)
    return;
  const long from = (long)(pair / 2) * MOE_D, to = (long)slot[lp] * MOE_D;
  for (int i = 0; i < MOE_D / 32; ++i)
    out[to + lane + 32 * i] = x[from + lane + 32 * i];
}

/* ---- beam-search step --------------------------------------------------------
 * For each batch item, the BS_K best continuations over its BS_W beams:
 * score = beam score + log-probability of the token, a candidate per
 * (beam, token).  One 256-wide work-group per item: each work-item keeps a
 * sorted list of its BS_K best candidates in local memory (insertions are
 * rare once the list is full), then the lists are merged pairwise in a
 * tree.  Ties go to the lower candidate index.  The batch is smaller than
 * the SM count. */
#define BS_W 8
#define BS_K 16
#define BS_T 256
#define BS_NEG (-3.0e38f)

SP_FN int bs_better(float a, int ai, float b, int bi)
{
  return a > b || (a == b && ai < bi);
}

SP_KERNEL void x_beam_search(SP_GLOBAL const float *SP_RESTRICT logp,
                             SP_GLOBAL const float *SP_RESTRICT beam,
                             SP_GLOBAL float *SP_RESTRICT out_score,
                             SP_GLOBAL int *SP_RESTRICT out_beam,
                             SP_GLOBAL int *SP_RESTRICT out_tok, int vocab)
{
  SP_LOCAL float ls[BS_T * BS_K];
  SP_LOCAL int li[BS_T * BS_K];
  const int t = SP_LID(0), item = SP_GRP(0), me = t * BS_K;
  for (int j = 0; j < BS_K; ++j) {
    ls[me + j] = BS_NEG;
    li[me + j] = 0x7fffffff;
  }
  float thr = BS_NEG;
  for (int w = 0; w < BS_W; ++w) {
    const float bsc = beam[item * BS_W + w];
    SP_GLOBAL const float *row = logp + (long)(item * BS_W + w) * vocab;
    for (int v = t; v < vocab; v += BS_T) {
      const float s = bsc + row[v];
      if (s > thr) { /* later candidates have higher indices: > is enough */
        const int id = w * vocab + v;
        int j = BS_K - 1;
        while (j > 0 && s > ls[me + j - 1]) {
          ls[me + j] = ls[me + j - 1];
          li[me + j] = li[me + j - 1];
          --j;
        }
        ls[me + j] = s;
        li[me + j] = id;
        thr = ls[me + BS_K - 1];
      }
    }
  }
  SP_BARRIER();
  for (int s = BS_T / 2; s > 0; s >>= 1) {
    if (t < s) {
      const int o = (t + s) * BS_K;
      float ms[BS_K];
      int mi[BS_K];
      int a = 0, b = 0;
      for (int j = 0; j < BS_K; ++j) {
        if (bs_better(ls[o + b], li[o + b], ls[me + a], li[me + a])) {
          ms[j] = ls[o + b];
          mi[j] = li[o + b];
          ++b;
        } else {
          ms[j] = ls[me + a];
          mi[j] = li[me + a];
          ++a;
        }
      }
      for (int j = 0; j < BS_K; ++j) {
        ls[me + j] = ms[j];
        li[me + j] = mi[j];
      }
    }
    SP_BARRIER();
  }
  if (t < BS_K) {
    out_score[item * BS_K + t] = ls[t];
    out_beam[item * BS_K + t] = li[t] / vocab;
    out_tok[item * BS_K + t] = li[t] % vocab;
  }
}

/* ---- nucleus (top-p) sampling in one work-group ------------------------------
 * Finds the cutoff probability of the smallest set of largest
 * probabilities whose mass reaches `need` (fixed point, 2^30 = 1) by a
 * radix select on the probabilities' bits (positive floats order as their
 * bits): four passes of 8 bits, each a local histogram of mass.  Then
 * draws a token from the kept set with the uniform u (32-bit fraction): a
 * scan of each work-item's kept mass over contiguous chunks, and the
 * work-item whose chunk holds the target walks it.  Writes the token, the
 * cutoff's bits and the kept mass.  One 1024-wide group: a batch-1 decode
 * step's sampler. */
#define TP_T 1024
#define TP_ONE 1073741824.0f /* 2^30 */

SP_KERNEL void x_topp_1group(SP_GLOBAL const float *SP_RESTRICT prob,
                             SP_GLOBAL uint *SP_RESTRICT out, int n, uint need,
                             uint u)
{
  SP_LOCAL uint hist[256];
  SP_LOCAL uint part[TP_T];
  SP_LOCAL uint sel[2];
  const int t = SP_LID(0);
  uint prefix = 0u, rem = need;
  for (int pass = 0; pass < 4; ++pass) {
    const int shift = 24 - 8 * pass;
    const uint hmask = pass == 0 ? 0u : 0xffffffffu << (shift + 8);
    if (t < 256)
      hist[t] = 0u;
    SP_BARRIER();
    for (int i = t; i < n; i += TP_T) {
      const float pv = prob[i];
      const uint key = SP_F2U(pv);
      if ((key & hmask) == prefix)
        SP_ATOMIC_ADD(&hist[(key >> shift) & 255u], (uint)(pv * TP_ONE));
    }
    SP_BARRIER();
    if (t == 0) {
      uint acc = 0u;
      int d = 255;
      for (; d > 0; --d) {
        if (acc + hist[d] >= rem)
          break;
        acc += hist[d];
      }
      sel[0] = prefix | ((uint)d << shift);
      sel[1] = rem - acc;
    }
    SP_BARRIER();
    prefix = sel[0];
    rem = sel[1];
    SP_BARRIER(); /* sel and hist are rewritten by the next pass */
  }
  const int chunk = (n + TP_T - 1) / TP_T;
  const int lo = t * chunk, hi = lo + chunk < n ? lo + chunk : n;
  uint mine = 0u;
  for (int i = lo; i < hi; ++i) {
    const float pv = prob[i];
    if (SP_F2U(pv) >= prefix)
      mine += (uint)(pv * TP_ONE);
  }
  part[t] = mine;
  SP_BARRIER();
  for (int s = 1; s < TP_T; s <<= 1) { /* inclusive Hillis-Steele scan */
    const uint add = t >= s ? part[t - s] : 0u;
    SP_BARRIER();
    part[t] += add;
    SP_BARRIER();
  }
  const uint total = part[TP_T - 1];
  const uint target = (uint)(((ulong)u * (ulong)total) >> 32);
  const uint before = part[t] - mine;
  if (target >= before && target < part[t]) {
    uint run = before;
    for (int i = lo; i < hi; ++i) {
      const float pv = prob[i];
      if (SP_F2U(pv) < prefix)
        continue;
      run += (uint)(pv * TP_ONE);
      if (run > target) {
        out[0] = (uint)i;
        break;
      }
    }
  }
  if (t == 0) {
    out[1] = prefix;
    out[2] = total;
  }
}

/* ---- paged KV-cache append -------------------------------------------------
 * A decode step's new key and value vectors ([request][head][KV_D]) are
 * written into the paged cache ([block][head][KV_BS][KV_D]) at each
 * request's current position, through its block table (vLLM's
 * reshape_and_cache).  One work-item per element: a few microseconds. */
#define KV_D 128
#define KV_BS 16

SP_KERNEL void x_kv_append(SP_GLOBAL const float *SP_RESTRICT kn,
                           SP_GLOBAL const float *SP_RESTRICT vn,
                           SP_GLOBAL const int *SP_RESTRICT pos,
                           SP_GLOBAL const int *SP_RESTRICT table,
                           SP_GLOBAL float *SP_RESTRICT kc,
                           SP_GLOBAL float *SP_RESTRICT vc, int heads,
                           int maxblk, int total)
{
  const int id = SP_GID(0);
  if (id >= total)
    return;
  const int r = id / (heads * KV_D), h = id / KV_D % heads, d = id % KV_D;
  const int p = pos[r], blk = table[r * maxblk + p / KV_BS];
  const long dst = (((long)blk * heads + h) * KV_BS + p % KV_BS) * KV_D + d;
  kc[dst] = kn[id];
  vc[dst] = vn[id];
}
