/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scan.cl: scans and reductions of the eleventh validation suite (host
 * half: scan.c): a block-local radix sort by one-bit splits, tile-local
 * stream compaction, LAPACK's dnrm2 in one group, Welford statistics
 * merged by the last group, and a CFL time step taken with one atomic per
 * group.  Written for this suite, independently of the core suite and the
 * earlier validation suites. */
#include "sp_dev.h"

/* ---- radix sort of tiles by one-bit splits ------------------------------------------------------
 * Blelloch's split as in Satish, Harris and Garland's block-local radix
 * sort: a group of RS_G sorts its tile of RS_TILE 32-bit keys (RS_I per
 * work-item, blocked) by 32 stable splits on one bit each, least
 * significant first.  Per bit each work-item counts its keys with the bit
 * clear, an inclusive Hillis-Steele scan of the counts in local memory
 * (8 steps, ping-pong, a barrier each) gives every key its new place (keys
 * with the bit clear first), and the keys are scattered through local
 * memory and read back: 10 barriers per bit (the next bit's scatter comes
 * 9 barriers after this read). */
#define RS_G 256
#define RS_I 4
#define RS_TILE (RS_G * RS_I)

SP_KERNEL SP_BOUNDS(RS_G) void k_radix_split_tile(SP_GLOBAL const uint *SP_RESTRICT in,
                                                  SP_GLOBAL uint *SP_RESTRICT out) {
  SP_LOCAL uint keys[RS_TILE];
  SP_LOCAL int sc[2][RS_G];
  const int t = SP_LID(0);
  const long base = (long)SP_GRP(0) * RS_TILE + RS_I * t;
  uint k[RS_I];
#pragma unroll
  for (int i = 0; i < RS_I; ++i) k[i] = in[base + i];
  for (int bit = 0; bit < 32; ++bit) {
    int zero[RS_I], z = 0;
#pragma unroll
    for (int i = 0; i < RS_I; ++i) {
      zero[i] = ((k[i] >> bit) & 1u) == 0u;
      z += zero[i];
    }
    sc[0][t] = z;
    SP_BARRIER();
    int pin = 0;
    for (int off = 1; off < RS_G; off <<= 1) {
      const int v = sc[pin][t] + (t >= off ? sc[pin][t - off] : 0);
      sc[pin ^ 1][t] = v;
      pin ^= 1;
      SP_BARRIER();
    }
    const int zbefore = sc[pin][t] - z, zeros = sc[pin][RS_G - 1];
    int rz = zbefore, ro = zeros + RS_I * t - zbefore;
#pragma unroll
    for (int i = 0; i < RS_I; ++i) {
      if (zero[i])
        keys[rz++] = k[i];
      else
        keys[ro++] = k[i];
    }
    SP_BARRIER();
#pragma unroll
    for (int i = 0; i < RS_I; ++i) k[i] = keys[RS_I * t + i];
  }
#pragma unroll
  for (int i = 0; i < RS_I; ++i) out[base + i] = k[i];
}

/* ---- tile-local stream compaction ---------------------------------------------------------------
 * The first pass of a stream compaction (Billeter et al.; CUB's
 * DeviceSelect::If tiles): work-item t of a group of SE_G flags whether
 * its element passes (v > threshold), an inclusive Hillis-Steele scan of
 * the flags in local memory (10 steps, ping-pong) gives each passing
 * element its place in the group's segment of the output, and the last
 * work-item stores the group's count. */
#define SE_G 1024

SP_KERNEL SP_BOUNDS(SE_G) void k_select_if_tile(SP_GLOBAL const float *SP_RESTRICT in,
                                                SP_GLOBAL float *SP_RESTRICT out,
                                                SP_GLOBAL uint *SP_RESTRICT count, float thr) {
  SP_LOCAL int sc[2][SE_G];
  const int t = SP_LID(0);
  const long at = (long)SP_GRP(0) * SE_G + t;
  const float v = in[at];
  const int flag = v > thr;
  sc[0][t] = flag;
  SP_BARRIER();
  int pin = 0;
  for (int off = 1; off < SE_G; off <<= 1) {
    const int s = sc[pin][t] + (t >= off ? sc[pin][t - off] : 0);
    sc[pin ^ 1][t] = s;
    pin ^= 1;
    SP_BARRIER();
  }
  const int incl = sc[pin][t];
  if (flag) out[(long)SP_GRP(0) * SE_G + incl - 1] = v;
  if (t == SE_G - 1) count[SP_GRP(0)] = (uint)incl;
}

/* ---- dnrm2 with Blue's scaling ------------------------------------------------------------------
 * LAPACK 3.10's dnrm2 (Anderson's safe scaling, after Blue): |x| above tbig
 * is accumulated scaled down by sbig, below tsml scaled up by ssml (only
 * while no big value was seen), the rest as is; the three sums are then
 * combined as LAPACK does.  One group of NR_G: each work-item strides
 * over the vector, the sums are tree-reduced in local memory, and work-item
 * 0 combines them. */
#define NR_G 1024
#define NR_TSML 1.4916681462400413e-154 /* 2^-511 */
#define NR_TBIG 1.9979190722022350e+146 /* 2^486 */
#define NR_SSML 4.4989137945431964e+161 /* 2^537 */
#define NR_SBIG 1.1113793747425387e-162 /* 2^-538 */

SP_KERNEL SP_BOUNDS(NR_G) void k_nrm2_blue_1block(SP_GLOBAL const double *SP_RESTRICT x,
                                                  SP_GLOBAL double *SP_RESTRICT out, int n) {
  SP_LOCAL double sml[NR_G], med[NR_G], big[NR_G];
  const int t = SP_LID(0);
  double asml = 0.0, amed = 0.0, abig = 0.0;
  int notbig = 1;
  for (int i = t; i < n; i += NR_G) {
    const double ax = fabs(x[i]);
    if (ax > NR_TBIG) {
      const double s = ax * NR_SBIG;
      abig = fma(s, s, abig);
      notbig = 0;
    } else if (ax < NR_TSML) {
      if (notbig) {
        const double s = ax * NR_SSML;
        asml = fma(s, s, asml);
      }
    } else {
      amed = fma(ax, ax, amed);
    }
  }
  sml[t] = asml;
  med[t] = amed;
  big[t] = abig;
  SP_BARRIER();
  for (int s = NR_G / 2; s > 0; s >>= 1) {
    if (t < s) {
      sml[t] += sml[t + s];
      med[t] += med[t + s];
      big[t] += big[t + s];
    }
    SP_BARRIER();
  }
  if (t == 0) {
    double as = sml[0], am = med[0], ab = big[0], scl, sumsq;
    if (ab > 0.0) {
      if (am > 0.0) ab += (am * NR_SBIG) * NR_SBIG;
      scl = 1.0 / NR_SBIG;
      sumsq = ab;
    } else if (as > 0.0) {
      if (am > 0.0) {
        am = sqrt(am);
        as = sqrt(as) / NR_SSML;
        const double ymin = as > am ? am : as, ymax = as > am ? as : am;
        scl = 1.0;
        sumsq = ymax * ymax * (1.0 + (ymin / ymax) * (ymin / ymax));
      } else {
        scl = 1.0 / NR_SSML;
        sumsq = as;
      }
    } else {
      scl = 1.0;
      sumsq = am;
    }
    out[0] = scl * sqrt(sumsq);
  }
}

/* ---- Welford statistics, merged by the last group -----------------------------------------------
 * Mean and variance of a float vector as PyTorch's var_mean reduces one on
 * the GPU: each work-item runs Welford's update over its WF_I elements
 * (count, mean, M2), the group merges its work-items' triples by Chan's
 * formula in a local tree (empty triples skipped) and stores them, then
 * takes a ticket; the group that draws the last ticket merges every
 * group's triple (volatile reads) the same way, stores the mean and the
 * unbiased variance, and sets the ticket counter back to 0 for the next
 * launch. */
#define WF_G 512
#define WF_I 16

SP_KERNEL SP_BOUNDS(WF_G) void k_welford_lastblock(SP_GLOBAL const float *SP_RESTRICT x,
                                                   SP_GLOBAL float *part, SP_GLOBAL uint *ticket,
                                                   SP_GLOBAL float *SP_RESTRICT res) {
  SP_LOCAL float cn[WF_G], cm[WF_G], c2[WF_G];
  SP_LOCAL int last;
  const int t = SP_LID(0), g = SP_GRP(0), ng = SP_NGRP(0);
  float n = 0.0f, mean = 0.0f, m2 = 0.0f;
  for (int k = 0; k < WF_I; ++k) {
    const float v = x[(long)g * (WF_G * WF_I) + t + k * WF_G];
    n += 1.0f;
    const float dlt = v - mean;
    mean += dlt / n;
    m2 += dlt * (v - mean);
  }
  for (int pass = 0; pass < 2; ++pass) {
    cn[t] = n;
    cm[t] = mean;
    c2[t] = m2;
    SP_BARRIER();
    for (int s = WF_G / 2; s > 0; s >>= 1) {
      if (t < s && cn[t + s] > 0.0f) {
        const float na = cn[t], nb = cn[t + s], nn = na + nb;
        const float dlt = cm[t + s] - cm[t];
        cm[t] = cm[t] + dlt * (nb / nn);
        c2[t] = c2[t] + c2[t + s] + dlt * dlt * (na * nb / nn);
        cn[t] = nn;
      }
      SP_BARRIER();
    }
    if (pass == 1) break;
    if (t == 0) {
      part[3 * g] = cn[0];
      part[3 * g + 1] = cm[0];
      part[3 * g + 2] = c2[0];
      SP_FENCE_GLOBAL();
      last = SP_ATOMIC_ADD(ticket, 1u) == (uint)(ng - 1);
    }
    SP_BARRIER();
    if (!last) return;
    /* The last group: merge every group's triple, WF_G at a time. */
    SP_GLOBAL volatile const float *vp = part;
    n = 0.0f;
    mean = 0.0f;
    m2 = 0.0f;
    for (int q = t; q < ng; q += WF_G) {
      const float nb = vp[3 * q], mb = vp[3 * q + 1], m2b = vp[3 * q + 2], nn = n + nb;
      const float dlt = mb - mean;
      mean = mean + dlt * (nb / nn);
      m2 = m2 + m2b + dlt * dlt * (n * nb / nn);
      n = nn;
    }
  }
  if (t == 0) {
    res[0] = cm[0];
    res[1] = c2[0] / (cn[0] - 1.0f);
    ticket[0] = 0u;
  }
}

/* ---- CFL time step ------------------------------------------------------------------------------
 * The largest stable explicit time step of a 2-D Euler solver (as every
 * hydro code takes it each step): per cell, from the conserved density,
 * momenta and energy, the pressure (ideal gas, gamma), the sound speed and
 * dt = cfl min(dx / (|u| + c), dy / (|v| + c)); the group's minimum by a
 * local tree, then one atomic min on the single result word (the float's
 * bits as an unsigned integer: dt > 0 orders the same). */
#define CF_G 256
#define CF_MIN(a, b) ((a) < (b) ? (a) : (b))

SP_KERNEL SP_BOUNDS(CF_G) void k_cfl_dt_atomicmin(SP_GLOBAL const float *SP_RESTRICT q,
                                                  SP_GLOBAL uint *dt, int n, float gam, float dx,
                                                  float dy, float cfl) {
  SP_LOCAL float red[CF_G];
  const int t = SP_LID(0), i = SP_GID(0);
  float v = 3.0e38f;
  if (i < n) {
    const float rho = q[i], mx = q[(long)n + i], my = q[2 * (long)n + i], e = q[3 * (long)n + i];
    const float u = mx / rho, w = my / rho;
    const float p = (gam - 1.0f) * (e - 0.5f * rho * (u * u + w * w));
    const float c = SP_SQRTF(gam * p / rho);
    v = cfl * CF_MIN(dx / (SP_FABSF(u) + c), dy / (SP_FABSF(w) + c));
  }
  red[t] = v;
  SP_TREE(red, t, CF_G, CF_MIN);
  if (t == 0) SP_ATOMIC_MIN(&dt[0], SP_F2U(red[0]));
}
