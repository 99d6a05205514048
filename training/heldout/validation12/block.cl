/* SPDX-License-Identifier: GPL-3.0-or-later */
/* block.cl: barrier-bound block algorithms and reductions that end in one
 * group, of the twelfth validation suite (host half: block.c): cyclic
 * reduction of tridiagonal systems, the JPEG 2000 9/7 lifting transform,
 * logsumexp and a compensated dot product merged by the last group.
 * Written for this suite, independently of the core suite and the earlier
 * validation suites. */
#include "sp_dev.h"

/* ---- cyclic reduction ---------------------------------------------------------------------------
 * Hockney's cyclic reduction as Zhang, Cohen and Owens (2010) run it in
 * shared memory: a group of CR_G per system of CR_N unknowns (a_i x_{i-1} +
 * b_i x_i + c_i x_{i+1} = d_i).  Forward reduction at strides 1, 2, ...,
 * CR_N / 4 eliminates the neighbours of the equations at 2s - 1 mod 2s (half
 * of the work-items idle at each step more), two unknowns are solved, and
 * back substitution at strides CR_N / 4, ..., 1 fills in the rest: 18
 * barriers, mostly idle work-items. */
#define CR_N 512
#define CR_G 256

SP_KERNEL SP_BOUNDS(CR_G) void m_cr_tridiag_512(SP_GLOBAL const float *SP_RESTRICT a,
                                                SP_GLOBAL const float *SP_RESTRICT b,
                                                SP_GLOBAL const float *SP_RESTRICT c,
                                                SP_GLOBAL const float *SP_RESTRICT d,
                                                SP_GLOBAL float *SP_RESTRICT x) {
  SP_LOCAL float la[CR_N], lb[CR_N], lc[CR_N], ld[CR_N], lx[CR_N];
  const int t = SP_LID(0);
  const long base = (long)SP_GRP(0) * CR_N;
  for (int e = t; e < CR_N; e += CR_G) {
    la[e] = a[base + e];
    lb[e] = b[base + e];
    lc[e] = c[base + e];
    ld[e] = d[base + e];
  }
  SP_BARRIER();
  for (int s = 1; s < CR_N / 2; s <<= 1) {
    const int i = 2 * s * t + 2 * s - 1;
    if (i < CR_N) {
      const int l = i - s, r = i + s;
      const float k1 = la[i] / lb[l];
      float na = -la[l] * k1, nb = lb[i] - lc[l] * k1, nc = 0.0f, nd = ld[i] - ld[l] * k1;
      if (r < CR_N) {
        const float k2 = lc[i] / lb[r];
        nb -= la[r] * k2;
        nc = -lc[r] * k2;
        nd -= ld[r] * k2;
      }
      la[i] = na;
      lb[i] = nb;
      lc[i] = nc;
      ld[i] = nd;
    }
    SP_BARRIER();
  }
  if (t == 0) {
    const int i1 = CR_N / 2 - 1, i2 = CR_N - 1;
    const float det = lb[i1] * lb[i2] - lc[i1] * la[i2];
    lx[i1] = (ld[i1] * lb[i2] - lc[i1] * ld[i2]) / det;
    lx[i2] = (lb[i1] * ld[i2] - ld[i1] * la[i2]) / det;
  }
  SP_BARRIER();
  for (int s = CR_N / 4; s > 0; s >>= 1) {
    const int i = 2 * s * t + s - 1;
    if (i < CR_N) {
      float v = ld[i];
      if (i - s >= 0) v -= la[i] * lx[i - s];
      if (i + s < CR_N) v -= lc[i] * lx[i + s];
      lx[i] = v / lb[i];
    }
    SP_BARRIER();
  }
  for (int e = t; e < CR_N; e += CR_G) x[base + e] = lx[e];
}

/* ---- CDF 9/7 lifting ----------------------------------------------------------------------------
 * The irreversible 9/7 wavelet of JPEG 2000 (Daubechies and Sweldens'
 * lifting; OpenJPEG's dwt.c): per level two predict and two update steps
 * (x_odd += alpha (x_even left + right), x_even += beta (...), gamma,
 * delta) with whole-sample symmetric extension, then the bands scaled (low
 * by 1/K, high by K/2) and deinterleaved, low half first; the next level
 * works on the low half.  A group of DW_G per row of DW_N floats, the row in
 * local memory, DW_L levels: 6 barriers per level. */
#define DW_N 2048
#define DW_G 256
#define DW_L 5
#define DW_ALPHA -1.586134342059924f
#define DW_BETA -0.052980118572961f
#define DW_GAMMA 0.882911075530934f
#define DW_DELTA 0.443506852043971f
#define DW_K1 0.812893066115961f /* 1 / K */
#define DW_K2 0.615087052457000f /* K / 2 */

SP_KERNEL SP_BOUNDS(DW_G) void m_cdf97_lift_rows(SP_GLOBAL const float *SP_RESTRICT in,
                                                 SP_GLOBAL float *SP_RESTRICT out) {
  SP_LOCAL float s[DW_N], u[DW_N];
  const int t = SP_LID(0);
  const long base = (long)SP_GRP(0) * DW_N;
  for (int e = t; e < DW_N; e += DW_G) s[e] = in[base + e];
  SP_BARRIER();
  for (int lev = 0, len = DW_N; lev < DW_L; ++lev, len >>= 1) {
    const int hw = len >> 1;
    for (int j = t; j < hw; j += DW_G) { /* predict 1 */
      const int i = 2 * j + 1;
      s[i] = SP_FMAF(DW_ALPHA, s[i - 1] + (i + 1 < len ? s[i + 1] : s[i - 1]), s[i]);
    }
    SP_BARRIER();
    for (int j = t; j < hw; j += DW_G) { /* update 1 */
      const int i = 2 * j;
      s[i] = SP_FMAF(DW_BETA, (i > 0 ? s[i - 1] : s[i + 1]) + s[i + 1], s[i]);
    }
    SP_BARRIER();
    for (int j = t; j < hw; j += DW_G) { /* predict 2 */
      const int i = 2 * j + 1;
      s[i] = SP_FMAF(DW_GAMMA, s[i - 1] + (i + 1 < len ? s[i + 1] : s[i - 1]), s[i]);
    }
    SP_BARRIER();
    for (int j = t; j < hw; j += DW_G) { /* update 2 */
      const int i = 2 * j;
      s[i] = SP_FMAF(DW_DELTA, (i > 0 ? s[i - 1] : s[i + 1]) + s[i + 1], s[i]);
    }
    SP_BARRIER();
    for (int j = t; j < hw; j += DW_G) {
      u[j] = s[2 * j] * DW_K1;
      u[hw + j] = s[2 * j + 1] * DW_K2;
    }
    SP_BARRIER();
    for (int e = t; e < len; e += DW_G) s[e] = u[e];
    SP_BARRIER();
  }
  for (int e = t; e < DW_N; e += DW_G) out[base + e] = s[e];
}

/* ---- logsumexp, merged by the last group --------------------------------------------------------
 * log sum exp(x) as PyTorch's logsumexp reduces a long vector, with the
 * online (max, scaled sum) pair of Milakov and Gimelshein (2018): each
 * work-item folds its per elements (strided by the group's size) into
 * (m, s), the group merges its pairs by a local tree and stores them, then
 * takes a ticket; the group that draws the last ticket merges every
 * group's pair (volatile reads) the same way, stores m + log s and sets the
 * ticket counter back to 0 for the next launch. */
#define LS_G 256
#define LS_LOW -3.0e38f

SP_KERNEL SP_BOUNDS(LS_G) void m_lse_last(SP_GLOBAL const float *SP_RESTRICT x,
                                          SP_GLOBAL float *part, SP_GLOBAL uint *ticket,
                                          SP_GLOBAL float *SP_RESTRICT res, int per) {
  SP_LOCAL float lm[LS_G], ls[LS_G];
  SP_LOCAL int last;
  const int t = SP_LID(0), g = SP_GRP(0), ng = SP_NGRP(0);
  const long base = (long)g * LS_G * per + t;
  float m = LS_LOW, s = 0.0f;
  for (int k = 0; k < per; ++k) {
    const float v = x[base + (long)k * LS_G];
    if (v > m) {
      s = s * SP_EXPF(m - v) + 1.0f;
      m = v;
    } else {
      s += SP_EXPF(v - m);
    }
  }
  for (int pass = 0; pass < 2; ++pass) {
    lm[t] = m;
    ls[t] = s;
    SP_BARRIER();
    for (int h = LS_G / 2; h > 0; h >>= 1) {
      if (t < h) {
        const float m1 = lm[t], m2 = lm[t + h], mm = m1 > m2 ? m1 : m2;
        ls[t] = ls[t] * SP_EXPF(m1 - mm) + ls[t + h] * SP_EXPF(m2 - mm);
        lm[t] = mm;
      }
      SP_BARRIER();
    }
    if (pass == 1) break;
    if (t == 0) {
      part[2 * g] = lm[0];
      part[2 * g + 1] = ls[0];
      SP_FENCE_GLOBAL();
      last = SP_ATOMIC_ADD(ticket, 1u) == (uint)(ng - 1);
    }
    SP_BARRIER();
    if (!last) return;
    /* The last group: merge every group's pair, LS_G at a time. */
    SP_GLOBAL volatile const float *vp = part;
    m = LS_LOW;
    s = 0.0f;
    for (int q = t; q < ng; q += LS_G) {
      const float m2 = vp[2 * q], s2 = vp[2 * q + 1], mm = m > m2 ? m : m2;
      s = s * SP_EXPF(m - mm) + s2 * SP_EXPF(m2 - mm);
      m = mm;
    }
  }
  if (t == 0) {
    res[0] = lm[0] + SP_LOGF(ls[0]);
    ticket[0] = 0u;
  }
}

/* ---- compensated dot product, merged by the last group ------------------------------------------
 * Ogita, Rump and Oishi's Dot2 (2005) in FP64: each product split exactly
 * by TwoProduct (the product rounded, its error by fma), the running sum by
 * Knuth's TwoSum, the errors summed apart; pairs merged by TwoSum in a
 * local tree, per-group pairs stored, an atomic ticket, and the last group
 * merges the pairs and stores sum + error.  The product is rounded by an
 * fma with 0 so that no compiler contracts it into the sum. */
#define D2_G 256
#define D2_I 16

SP_KERNEL SP_BOUNDS(D2_G) void m_dot2_f64_last(SP_GLOBAL const double *SP_RESTRICT x,
                                               SP_GLOBAL const double *SP_RESTRICT y,
                                               SP_GLOBAL double *part, SP_GLOBAL uint *ticket,
                                               SP_GLOBAL double *SP_RESTRICT res) {
  SP_LOCAL double lsum[D2_G], lerr[D2_G];
  SP_LOCAL int last;
  const int t = SP_LID(0), g = SP_GRP(0), ng = SP_NGRP(0);
  const long base = (long)g * D2_G * D2_I + t;
  double s = 0.0, c = 0.0;
  for (int k = 0; k < D2_I; ++k) {
    const double a = x[base + (long)k * D2_G], b = y[base + (long)k * D2_G];
    const double p = fma(a, b, 0.0), ep = fma(a, b, -p);
    const double ns = s + p, z = ns - s, es = (s - (ns - z)) + (p - z);
    s = ns;
    c += es + ep;
  }
  for (int pass = 0; pass < 2; ++pass) {
    lsum[t] = s;
    lerr[t] = c;
    SP_BARRIER();
    for (int h = D2_G / 2; h > 0; h >>= 1) {
      if (t < h) {
        const double s1 = lsum[t], s2 = lsum[t + h], ns = s1 + s2, z = ns - s1;
        lerr[t] = lerr[t] + lerr[t + h] + ((s1 - (ns - z)) + (s2 - z));
        lsum[t] = ns;
      }
      SP_BARRIER();
    }
    if (pass == 1) break;
    if (t == 0) {
      part[2 * g] = lsum[0];
      part[2 * g + 1] = lerr[0];
      SP_FENCE_GLOBAL();
      last = SP_ATOMIC_ADD(ticket, 1u) == (uint)(ng - 1);
    }
    SP_BARRIER();
    if (!last) return;
    SP_GLOBAL volatile const double *vp = part;
    s = 0.0;
    c = 0.0;
    for (int q = t; q < ng; q += D2_G) {
      const double p = vp[2 * q], ns = s + p, z = ns - s;
      c += vp[2 * q + 1] + ((s - (ns - z)) + (p - z));
      s = ns;
    }
  }
  if (t == 0) {
    res[0] = lsum[0] + lerr[0];
    ticket[0] = 0u;
  }
}
