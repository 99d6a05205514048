/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shape.cl: kernels of the twelfth validation suite chosen for their launch
 * shape (host half: shape.c): a Goertzel tone detector in 96 groups, an
 * HMM forward pass in 112, Adler-32 of 136 files in 136 groups of 1024, a
 * census transform in groups of 16, a ray/box slab test in groups of 32,
 * and two launches of a few microseconds (spline evaluation, histogram
 * equalisation LUTs).  Written for this suite, independently of the core
 * suite and the earlier validation suites. */
#include "sp_dev.h"

/* ---- Goertzel DTMF detector ---------------------------------------------------------------------
 * The Goertzel algorithm (1958) as DTMF receivers run it (ITU-T Q.23/Q.24;
 * spandsp's dtmf.c): per tone the second-order recursion
 * s = x + c s1 - s2 with c = 2 cos(2 pi f / fs), and at the end the power
 * s1^2 + s2^2 - c s1 s2.  A work-item per channel of sample-interleaved
 * audio (x[t nch + ch]), GZ_K tones (the 8 DTMF tones and their second
 * harmonics, for talk-off rejection) in registers. */
#define GZ_K 16

SP_KERNEL SP_BOUNDS(256) void m_goertzel_dtmf_96(SP_GLOBAL const float *SP_RESTRICT x,
                                                 SP_GLOBAL const float *SP_RESTRICT cf,
                                                 SP_GLOBAL float *SP_RESTRICT pw, int nch, int nt) {
  const int ch = SP_GID(0);
  float c[GZ_K], s1[GZ_K], s2[GZ_K];
#pragma unroll
  for (int k = 0; k < GZ_K; ++k) {
    c[k] = cf[k];
    s1[k] = 0.0f;
    s2[k] = 0.0f;
  }
  for (int t = 0; t < nt; ++t) {
    const float v = x[(long)t * nch + ch];
#pragma unroll
    for (int k = 0; k < GZ_K; ++k) {
      const float s0 = SP_FMAF(c[k], s1[k], v - s2[k]);
      s2[k] = s1[k];
      s1[k] = s0;
    }
  }
#pragma unroll
  for (int k = 0; k < GZ_K; ++k)
    pw[(long)k * nch + ch] = SP_FMAF(-c[k] * s1[k], s2[k], SP_FMAF(s1[k], s1[k], s2[k] * s2[k]));
}

/* ---- HMM forward algorithm ----------------------------------------------------------------------
 * The scaled forward recursion of Rabiner's tutorial (1989):
 * alpha_t(j) = b_j(o_t) sum_i alpha_{t-1}(i) a_ij, scaled to sum 1 at each
 * step, log-likelihood = sum of the logs of the scales.  A group of HM_S
 * work-items (one per state) per sequence, the transition matrix and the
 * emission table in local memory: per step a 64-term matrix-vector column,
 * a barrier, the scale summed by every work-item, a barrier. */
#define HM_S 64
#define HM_O 16

SP_KERNEL SP_BOUNDS(HM_S) void m_hmm_forward_112(SP_GLOBAL const float *SP_RESTRICT a,
                                                 SP_GLOBAL const float *SP_RESTRICT b,
                                                 SP_GLOBAL const float *SP_RESTRICT pi,
                                                 SP_GLOBAL const uchar *SP_RESTRICT obs,
                                                 SP_GLOBAL float *SP_RESTRICT ll,
                                                 SP_GLOBAL float *SP_RESTRICT alpha, int nt) {
  SP_LOCAL float la[HM_S][HM_S];
  SP_LOCAL float lb[HM_O][HM_S];
  SP_LOCAL float al[HM_S], nx[HM_S];
  const int j = SP_LID(0), g = SP_GRP(0);
  for (int i = 0; i < HM_S; ++i) la[i][j] = a[i * HM_S + j];
  for (int o = 0; o < HM_O; ++o) lb[o][j] = b[j * HM_O + o];
  SP_GLOBAL const uchar *ob = obs + (long)g * nt;
  SP_BARRIER();
  nx[j] = pi[j] * lb[ob[0]][j];
  SP_BARRIER();
  float c = 0.0f;
  for (int k = 0; k < HM_S; ++k) c += nx[k];
  al[j] = nx[j] / c;
  float lsum = SP_LOGF(c);
  SP_BARRIER();
  for (int t = 1; t < nt; ++t) {
    const int o = ob[t];
    float acc = 0.0f;
    for (int i = 0; i < HM_S; ++i) acc = SP_FMAF(al[i], la[i][j], acc);
    nx[j] = acc * lb[o][j];
    SP_BARRIER();
    c = 0.0f;
    for (int k = 0; k < HM_S; ++k) c += nx[k];
    al[j] = nx[j] / c;
    lsum += SP_LOGF(c);
    SP_BARRIER();
  }
  alpha[g * HM_S + j] = al[j];
  if (j == 0) ll[g] = lsum;
}

/* ---- Adler-32 of files --------------------------------------------------------------------------
 * zlib's adler32 of each of 136 files, a group of AD_G per file: each
 * work-item sums its words' bytes (A) and their weights (B's terms
 * (L - i) b_i, in 64 bits), reduces them mod 65521, and the group adds
 * them in a local tree, which is what adler32_combine does for adjacent
 * pieces.  Four independent coalesced 4-byte loads per work-item at a
 * time; words is a multiple of 4 AD_G. */
#define AD_G 1024
#define AD_MOD 65521u

SP_KERNEL SP_BOUNDS(AD_G) void m_adler32_files_136(SP_GLOBAL const uint *SP_RESTRICT data,
                                                   SP_GLOBAL uint *SP_RESTRICT out, int words) {
  SP_LOCAL uint la[AD_G], lb[AD_G];
  const int t = SP_LID(0);
  SP_GLOBAL const uint *p = data + (long)SP_GRP(0) * words;
  const ulong len = 4 * (ulong)words;
  ulong sa = 0, sb = 0;
  for (int w0 = t; w0 < words; w0 += 4 * AD_G) {
    uint v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = p[w0 + u * AD_G];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const uint s = (v[u] & 255u) + ((v[u] >> 8) & 255u) + ((v[u] >> 16) & 255u) + (v[u] >> 24);
      const uint tt = ((v[u] >> 8) & 255u) + 2u * ((v[u] >> 16) & 255u) + 3u * (v[u] >> 24);
      sa += s;
      sb += (len - 4 * (ulong)(w0 + u * AD_G)) * s - tt;
    }
  }
  la[t] = (uint)(sa % AD_MOD);
  lb[t] = (uint)(sb % AD_MOD);
  SP_BARRIER();
  for (int h = AD_G / 2; h > 0; h >>= 1) {
    if (t < h) {
      la[t] = (la[t] + la[t + h]) % AD_MOD;
      lb[t] = (lb[t] + lb[t + h]) % AD_MOD;
    }
    SP_BARRIER();
  }
  if (t == 0) {
    const uint aa = (1u + la[0]) % AD_MOD, bb = (uint)((len % AD_MOD + lb[0]) % AD_MOD);
    out[SP_GRP(0)] = bb << 16 | aa;
  }
}

/* ---- census transform ---------------------------------------------------------------------------
 * The 5 x 5 census transform of Zabih and Woodfill (1994), the matching
 * cost of stereo pipelines (libSGM, OpenCV's StereoSGBM census option): a
 * 24-bit signature per pixel, bit k set when the k-th neighbour (row-major,
 * the centre skipped) is darker than the centre; borders clamped.  A
 * work-item per pixel, a group of 16 per row piece: groups (w / 16,
 * h frames). */
SP_KERNEL SP_BOUNDS(16) void m_census5x5_b16(SP_GLOBAL const uchar *SP_RESTRICT img,
                                             SP_GLOBAL uint *SP_RESTRICT out, int w, int h) {
  const int x = SP_GRP(0) * 16 + SP_LID(0), row = SP_GRP(1), y = row % h;
  SP_GLOBAL const uchar *fr = img + (long)(row - y) * w;
  const int cv = fr[(long)y * w + x];
  uint sig = 0u;
  int k = 0;
  for (int dy = -2; dy <= 2; ++dy) {
    const int yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
    for (int dx = -2; dx <= 2; ++dx) {
      if (dx == 0 && dy == 0) continue;
      const int xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
      sig |= (uint)((int)fr[(long)yy * w + xx] < cv) << k;
      ++k;
    }
  }
  out[(long)row * w + x] = sig;
}

/* ---- ray/box slab test --------------------------------------------------------------------------
 * The slab method (Kay and Kajiya 1986; Williams et al. 2005, with the
 * reciprocal direction) as BVH traversals run it at their leaves: per ray
 * the entry and exit distances of each of SL_B axis-aligned boxes, a hit
 * when exit >= max(entry, 0), the nearest entry kept.  Rays in SoA planes
 * (origin, direction: 24 bytes), the boxes read by every work-item (L1
 * broadcasts); the box index (-1: none) and the entry distance out.
 * Groups of 32. */
#define SL_B 16

SP_KERNEL SP_BOUNDS(32) void m_slab_ray_aabb_b32(SP_GLOBAL const float *SP_RESTRICT ray,
                                                 SP_GLOBAL const float *SP_RESTRICT box,
                                                 SP_GLOBAL int *SP_RESTRICT hit,
                                                 SP_GLOBAL float *SP_RESTRICT tout, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const float ox = ray[i], oy = ray[n + i], oz = ray[2 * (long)n + i];
  const float ix = 1.0f / ray[3 * (long)n + i], iy = 1.0f / ray[4 * (long)n + i],
              iz = 1.0f / ray[5 * (long)n + i];
  float best = 3.0e38f;
  int id = -1;
  for (int b = 0; b < SL_B; ++b) {
    const float t1x = (box[6 * b] - ox) * ix, t2x = (box[6 * b + 3] - ox) * ix;
    const float t1y = (box[6 * b + 1] - oy) * iy, t2y = (box[6 * b + 4] - oy) * iy;
    const float t1z = (box[6 * b + 2] - oz) * iz, t2z = (box[6 * b + 5] - oz) * iz;
    const float tmin =
        SP_FMAXF(SP_FMAXF(SP_FMINF(t1x, t2x), SP_FMINF(t1y, t2y)), SP_FMINF(t1z, t2z));
    const float tmax =
        SP_FMINF(SP_FMINF(SP_FMAXF(t1x, t2x), SP_FMAXF(t1y, t2y)), SP_FMAXF(t1z, t2z));
    const float te = SP_FMAXF(tmin, 0.0f);
    if (tmax >= te && te < best) {
      best = te;
      id = b;
    }
  }
  hit[i] = id;
  tout[i] = id < 0 ? -1.0f : best;
}

/* ---- cubic spline evaluation --------------------------------------------------------------------
 * Numerical Recipes' splint: the natural cubic spline through SPL_N knots
 * (second derivatives y2 precomputed by spline on the host) at each query
 * point, the interval found by bisection. */
#define SPL_N 64

SP_KERNEL SP_BOUNDS(256) void m_spline_eval_tiny(SP_GLOBAL const float *SP_RESTRICT xa,
                                                 SP_GLOBAL const float *SP_RESTRICT ya,
                                                 SP_GLOBAL const float *SP_RESTRICT y2,
                                                 SP_GLOBAL const float *SP_RESTRICT xq,
                                                 SP_GLOBAL float *SP_RESTRICT yq, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const float x = xq[i];
  int lo = 0, hi = SPL_N - 1;
  while (hi - lo > 1) {
    const int k = (hi + lo) >> 1;
    if (xa[k] > x)
      hi = k;
    else
      lo = k;
  }
  const float h = xa[hi] - xa[lo], a = (xa[hi] - x) / h, b = (x - xa[lo]) / h;
  yq[i] = a * ya[lo] + b * ya[hi] +
          ((a * a * a - a) * y2[lo] + (b * b * b - b) * y2[hi]) * (h * h) / 6.0f;
}

/* ---- histogram equalisation LUTs ----------------------------------------------------------------
 * OpenCV's equalizeHist, from a 256-bin histogram to the lookup table: the
 * cumulative histogram by an inclusive Hillis-Steele scan in local memory
 * (8 steps, ping-pong, a barrier each), the first non-empty bin's count
 * cmin, and lut[v] = round((cdf[v] - cmin) 255 / (total - cmin)) (0 below
 * the first non-empty bin).  A group of 256 per histogram. */
SP_KERNEL SP_BOUNDS(256) void m_equalize_lut_tiny(SP_GLOBAL const uint *SP_RESTRICT hist,
                                                  SP_GLOBAL uint *SP_RESTRICT lut) {
  SP_LOCAL uint sc[2][256];
  SP_LOCAL uint cmin;
  const int t = SP_LID(0);
  const long base = (long)SP_GRP(0) * 256;
  sc[0][t] = hist[base + t];
  SP_BARRIER();
  int pin = 0;
  for (int off = 1; off < 256; off <<= 1) {
    sc[pin ^ 1][t] = sc[pin][t] + (t >= off ? sc[pin][t - off] : 0u);
    pin ^= 1;
    SP_BARRIER();
  }
  const uint cdf = sc[pin][t], total = sc[pin][255];
  if (cdf > 0u && (t == 0 || sc[pin][t - 1] == 0u)) cmin = cdf;
  SP_BARRIER();
  const uint den = total - cmin;
  lut[base + t] = cdf <= cmin || den == 0u ? 0u : ((cdf - cmin) * 255u + den / 2u) / den;
}
