/* ml.cl: machine-learning building blocks for the validation suite (host
 * half: ml.c).  Written for this suite, independently of the core suite. */
#include "sp_dev.h"

/* ---- GEMM ---------------------------------------------------------------
 * C = A B, row-major, M and N multiples of 64, K a multiple of 16.  A 16x16
 * work-group owns a 64x64 block of C, each work-item a 4x4 sub-block strided
 * by 16 so that neighbouring work-items read neighbouring shared words.  The
 * A tile is stored transposed so the inner loop reads both tiles by rows. */
#define SG_T 64
#define SG_K 16

SP_KERNEL void v_sgemm_tiled(SP_GLOBAL const float *SP_RESTRICT a,
                             SP_GLOBAL const float *SP_RESTRICT b,
                             SP_GLOBAL float *SP_RESTRICT c, int n, int k)
{
  SP_LOCAL float at[SG_K][SG_T + 4];
  SP_LOCAL float bt[SG_K][SG_T + 4];
  const int tx = SP_LID(0), ty = SP_LID(1), tid = ty * 16 + tx;
  const int row0 = SP_GRP(1) * SG_T, col0 = SP_GRP(0) * SG_T;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k0 = 0; k0 < k; k0 += SG_K) {
    for (int l = 0; l < 4; ++l) {
      const int e = tid + 256 * l;
      at[e & 15][e >> 4] = a[(row0 + (e >> 4)) * k + k0 + (e & 15)];
      bt[e >> 6][e & 63] = b[(k0 + (e >> 6)) * n + col0 + (e & 63)];
    }
    SP_BARRIER();
    for (int kk = 0; kk < SG_K; ++kk) {
      float av[4], bv[4];
      for (int i = 0; i < 4; ++i) {
        av[i] = at[kk][ty + 16 * i];
        bv[i] = bt[kk][tx + 16 * i];
      }
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] = SP_FMAF(av[i], bv[j], acc[i][j]);
    }
    SP_BARRIER();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      c[(row0 + ty + 16 * i) * n + col0 + tx + 16 * j] = acc[i][j];
}

/* Split-K product of two tall matrices, P_g = A_g^T B_g, where A and B are
 * m x 64 and group g owns rows [g*chunk, (g+1)*chunk): the weight-gradient
 * shape dW = X^T dY of a 64-wide layer.  Each group writes its 64x64 partial
 * to its own slice of p; a second pass (not timed here) would sum them. */
#define TN_W 64
#define TN_R 32

SP_KERNEL void v_gemm_tn_splitk(SP_GLOBAL const float *SP_RESTRICT a,
                                SP_GLOBAL const float *SP_RESTRICT b,
                                SP_GLOBAL float *SP_RESTRICT p, int chunk)
{
  SP_LOCAL float as[TN_R][TN_W + 1];
  SP_LOCAL float bs[TN_R][TN_W + 1];
  const int tx = SP_LID(0), ty = SP_LID(1), tid = ty * 16 + tx;
  const int r0 = SP_GRP(0) * chunk;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int rr = 0; rr < chunk; rr += TN_R) {
    for (int l = 0; l < 8; ++l) {
      const int e = tid + 256 * l;
      as[e >> 6][e & 63] = a[(r0 + rr + (e >> 6)) * TN_W + (e & 63)];
      bs[e >> 6][e & 63] = b[(r0 + rr + (e >> 6)) * TN_W + (e & 63)];
    }
    SP_BARRIER();
    for (int r = 0; r < TN_R; ++r)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] = SP_FMAF(as[r][ty + 16 * i], bs[r][tx + 16 * j], acc[i][j]);
    SP_BARRIER();
  }
  SP_GLOBAL float *pg = p + SP_GRP(0) * TN_W * TN_W;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      pg[(ty + 16 * i) * TN_W + tx + 16 * j] = acc[i][j];
}

/* Batched 16x16 products, one work-group of 16x16 per matrix triple: the
 * shape of per-element dense blocks in finite-element and block-sparse
 * codes. */
SP_KERNEL void v_batched_gemm16(SP_GLOBAL const float *SP_RESTRICT a,
                                SP_GLOBAL const float *SP_RESTRICT b,
                                SP_GLOBAL float *SP_RESTRICT c)
{
  SP_LOCAL float as[16][17];
  SP_LOCAL float bs[16][17];
  const int tx = SP_LID(0), ty = SP_LID(1);
  const int base = SP_GRP(0) * 256 + ty * 16 + tx;
  as[ty][tx] = a[base];
  bs[ty][tx] = b[base];
  SP_BARRIER();
  float s = 0.0f;
  for (int k = 0; k < 16; ++k)
    s = SP_FMAF(as[ty][k], bs[k][tx], s);
  c[base] = s;
}

/* ---- normalisations -----------------------------------------------------
 * Row softmax, one work-group per row of len elements: a max pass, a sum
 * pass and a write pass over the row (the later passes mostly hit cache).
 * The work-group size is a power of two up to 1024. */
SP_KERNEL void v_softmax_rows(SP_GLOBAL const float *SP_RESTRICT x,
                              SP_GLOBAL float *SP_RESTRICT y, int len)
{
  SP_LOCAL float red[1024];
  const int t = SP_LID(0), nt = SP_LSIZE(0);
  SP_GLOBAL const float *xr = x + SP_GRP(0) * len;
  SP_GLOBAL float *yr = y + SP_GRP(0) * len;
  float m = -3.0e38f;
  for (int i = t; i < len; i += nt)
    m = SP_FMAXF(m, xr[i]);
  red[t] = m;
  SP_TREE(red, t, nt, SP_FMAXF);
  m = red[0];
  SP_BARRIER(); /* everyone has read red[0] before it is reused */
  float s = 0.0f;
  for (int i = t; i < len; i += nt)
    s += SP_EXPF(xr[i] - m);
  red[t] = s;
  SP_TREE(red, t, nt, SP_ADD);
  const float inv = 1.0f / red[0];
  for (int i = t; i < len; i += nt)
    yr[i] = SP_EXPF(xr[i] - m) * inv;
}

/* Layer normalisation over rows of h = 256 * LN_PER elements (768 here, a
 * BERT-base hidden size), one 256-wide work-group per row.  The row stays in
 * registers, so the variance is a true second pass over centred values. */
#define LN_PER 3

SP_KERNEL void v_layernorm(SP_GLOBAL const float *SP_RESTRICT x,
                           SP_GLOBAL const float *SP_RESTRICT gamma,
                           SP_GLOBAL const float *SP_RESTRICT beta,
                           SP_GLOBAL float *SP_RESTRICT y, float eps)
{
  SP_LOCAL float red[256];
  const int t = SP_LID(0), h = 256 * LN_PER;
  const int base = SP_GRP(0) * h;
  float v[LN_PER], s = 0.0f;
  for (int k = 0; k < LN_PER; ++k) {
    v[k] = x[base + t + 256 * k];
    s += v[k];
  }
  red[t] = s;
  SP_TREE(red, t, 256, SP_ADD);
  const float mean = red[0] / (float)h;
  SP_BARRIER();
  float q = 0.0f;
  for (int k = 0; k < LN_PER; ++k)
    q += (v[k] - mean) * (v[k] - mean);
  red[t] = q;
  SP_TREE(red, t, 256, SP_ADD);
  const float inv = SP_RSQRTF(red[0] / (float)h + eps);
  for (int k = 0; k < LN_PER; ++k) {
    const int col = t + 256 * k;
    y[base + col] = (v[k] - mean) * inv * gamma[col] + beta[col];
  }
}

/* ---- attention ----------------------------------------------------------
 * One head's softmax(Q K^T / sqrt(64)) V with the online softmax of flash
 * attention: a work-group of 128 owns 32 query rows and walks the keys in
 * tiles of 32.  Work-item t serves row t/4 and a quarter of the keys (scores)
 * or of the 64 output columns (P V).  Layout [head][seq][64]; grid
 * (seq/32, heads). */
#define AT_D 64
#define AT_B 32

SP_KERNEL void v_attention_head(SP_GLOBAL const float *SP_RESTRICT q,
                                SP_GLOBAL const float *SP_RESTRICT kk,
                                SP_GLOBAL const float *SP_RESTRICT v,
                                SP_GLOBAL float *SP_RESTRICT o, int seq,
                                float scale)
{
  SP_LOCAL float qs[AT_B][AT_D + 1];
  SP_LOCAL float ks[AT_B][AT_D + 1];
  SP_LOCAL float vs[AT_B][AT_D];
  SP_LOCAL float ps[AT_B][AT_B + 1];
  const int t = SP_LID(0), r = t >> 2, qt = t & 3;
  const int base = SP_GRP(1) * seq * AT_D, q0 = SP_GRP(0) * AT_B;
  for (int l = 0; l < 16; ++l) {
    const int e = t + 128 * l;
    qs[e >> 6][e & 63] = q[base + (q0 + (e >> 6)) * AT_D + (e & 63)] * scale;
  }
  float m = -3.0e38f, lsum = 0.0f, acc[16];
  for (int c = 0; c < 16; ++c)
    acc[c] = 0.0f;
  for (int k0 = 0; k0 < seq; k0 += AT_B) {
    SP_BARRIER(); /* the previous tile is no longer read */
    for (int l = 0; l < 16; ++l) {
      const int e = t + 128 * l, src = base + (k0 + (e >> 6)) * AT_D + (e & 63);
      ks[e >> 6][e & 63] = kk[src];
      vs[e >> 6][e & 63] = v[src];
    }
    SP_BARRIER();
    float sc[8];
    for (int j = 0; j < 8; ++j) {
      float s = 0.0f;
      for (int d = 0; d < AT_D; ++d)
        s = SP_FMAF(qs[r][d], ks[qt * 8 + j][d], s);
      sc[j] = s;
      ps[r][qt * 8 + j] = s;
    }
    SP_BARRIER();
    float mt = m;
    for (int j = 0; j < AT_B; ++j)
      mt = SP_FMAXF(mt, ps[r][j]);
    const float corr = SP_EXPF(m - mt);
    m = mt;
    SP_BARRIER(); /* the row's scores are read before they become weights */
    for (int j = 0; j < 8; ++j)
      ps[r][qt * 8 + j] = SP_EXPF(sc[j] - m);
    SP_BARRIER();
    float rs = 0.0f;
    for (int c = 0; c < 16; ++c)
      acc[c] *= corr;
    for (int j = 0; j < AT_B; ++j) {
      const float pj = ps[r][j];
      rs += pj;
      for (int c = 0; c < 16; ++c)
        acc[c] = SP_FMAF(pj, vs[j][qt * 16 + c], acc[c]);
    }
    lsum = lsum * corr + rs;
  }
  for (int c = 0; c < 16; ++c)
    o[base + (q0 + r) * AT_D + qt * 16 + c] = acc[c] / lsum;
}

/* ---- convolution --------------------------------------------------------
 * Direct 'same' convolution, NCHW, stride 1, zero padding.  A 16x16
 * work-group computes a 16x16 output tile for CV_OC output channels, staging
 * one input channel's haloed tile and its filters in local memory at a time.
 * Grid (w/16, h/16, n * oc / CV_OC).  The filter size is a compile-time
 * constant per entry point so that the tap loops unroll, as a library's
 * templated kernels would. */
#define CV_OC 8
#define CV_T 16

#define V_CONV_KERNEL(NAME, R)                                                 \
  SP_KERNEL void NAME(SP_GLOBAL const float *SP_RESTRICT in,                   \
                      SP_GLOBAL const float *SP_RESTRICT w,                    \
                      SP_GLOBAL float *SP_RESTRICT out, int ic, int oc, int h, \
                      int wd)                                                  \
  {                                                                            \
    SP_LOCAL float tile[CV_T + R - 1][CV_T + R - 1];                           \
    SP_LOCAL float ws[CV_OC][R * R];                                           \
    const int tx = SP_LID(0), ty = SP_LID(1), tid = ty * CV_T + tx;            \
    const int x0 = SP_GRP(0) * CV_T, y0 = SP_GRP(1) * CV_T;                    \
    const int groups = oc / CV_OC, img = SP_GRP(2) / groups;                   \
    const int o0 = (SP_GRP(2) % groups) * CV_OC, side = CV_T + R - 1;          \
    float acc[CV_OC];                                                          \
    for (int o = 0; o < CV_OC; ++o)                                            \
      acc[o] = 0.0f;                                                           \
    for (int c = 0; c < ic; ++c) {                                             \
      SP_GLOBAL const float *plane = in + (img * ic + c) * h * wd;             \
      for (int e = tid; e < side * side; e += CV_T * CV_T) {                   \
        const int yy = y0 + e / side - R / 2, xx = x0 + e % side - R / 2;      \
        tile[e / side][e % side] =                                             \
            yy >= 0 && yy < h && xx >= 0 && xx < wd ? plane[yy * wd + xx]      \
                                                    : 0.0f;                    \
      }                                                                        \
      for (int e = tid; e < CV_OC * R * R; e += CV_T * CV_T)                   \
        ws[e / (R * R)][e % (R * R)] =                                         \
            w[((o0 + e / (R * R)) * ic + c) * R * R + e % (R * R)];            \
      SP_BARRIER();                                                            \
      for (int ky = 0; ky < R; ++ky)                                           \
        for (int kx = 0; kx < R; ++kx) {                                       \
          const float pix = tile[ty + ky][tx + kx];                            \
          for (int o = 0; o < CV_OC; ++o)                                      \
            acc[o] = SP_FMAF(pix, ws[o][ky * R + kx], acc[o]);                 \
        }                                                                      \
      SP_BARRIER();                                                            \
    }                                                                          \
    for (int o = 0; o < CV_OC; ++o)                                            \
      out[((img * oc + o0 + o) * h + y0 + ty) * wd + x0 + tx] = acc[o];        \
  }

V_CONV_KERNEL(v_conv2d_3x3, 3)
V_CONV_KERNEL(v_conv2d_5x5, 5)
