/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.cl: irregular kernels of the eighth validation suite (host half:
 * irr.c): degree counting and a bounding box by global atomics, a graph
 * attention edge softmax, FM-index backward search, RSA-512 public-key
 * operations, Gaussian-splat tile blending and non-local means.  Written for
 * this suite, independently of the core suite and the earlier validation
 * suites. */
#include "sp_dev.h"

/* ---- degree counting ---------------------------------------------------------------------------
 * The first pass of a COO to CSR conversion: every edge (src[e], dst[e])
 * adds one to its source's out-degree and its target's in-degree. */
SP_KERNEL void s_degree_count_atomic(SP_GLOBAL const uint *SP_RESTRICT src,
                                     SP_GLOBAL const uint *SP_RESTRICT dst,
                                     SP_GLOBAL uint *SP_RESTRICT outdeg,
                                     SP_GLOBAL uint *SP_RESTRICT indeg, int ne) {
  const int e = SP_GID(0);
  if (e >= ne) return;
  SP_ATOMIC_ADD(outdeg + src[e], 1u);
  SP_ATOMIC_ADD(indeg + dst[e], 1u);
}

/* ---- bounding box by atomics ------------------------------------------------------------------
 * Each point's coordinates, mapped to unsigned integers that order as the
 * floats do (sign bit flipped for positives, all bits for negatives), go to
 * atomic minima (box[0..2]) and maxima (box[3..5]) of the same six words. */
SP_FN uint s_ordered(float f) {
  const uint u = SP_F2U(f);
  return (u & 0x80000000u) ? ~u : u | 0x80000000u;
}

SP_KERNEL void s_bbox_minmax_atomic(SP_GLOBAL const float *SP_RESTRICT xyz,
                                    SP_GLOBAL uint *SP_RESTRICT box, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  for (int a = 0; a < 3; ++a) {
    const uint v = s_ordered(xyz[(long)a * n + i]);
    SP_ATOMIC_MIN(box + a, v);
    SP_ATOMIC_MAX(box + 3 + a, v);
  }
}

/* ---- graph attention edge softmax --------------------------------------------------------------
 * For every row (destination vertex) of a CSR graph, its edges' scores
 * become softmax weights: max, then the sum of exp(score - max), then the
 * normalized weights, a work-item per row in three passes. */
SP_KERNEL void s_gat_edge_softmax(SP_GLOBAL const int *SP_RESTRICT rowptr,
                                  SP_GLOBAL const float *SP_RESTRICT score,
                                  SP_GLOBAL float *SP_RESTRICT alpha, int nrows) {
  const int v = SP_GID(0);
  if (v >= nrows) return;
  const int b = rowptr[v], e = rowptr[v + 1];
  float m = -3.0e38f;
  for (int k = b; k < e; ++k) m = SP_FMAXF(m, score[k]);
  float s = 0.0f;
  for (int k = b; k < e; ++k) s += SP_EXPF(score[k] - m);
  const float inv = 1.0f / s;
  for (int k = b; k < e; ++k) alpha[k] = SP_EXPF(score[k] - m) * inv;
}

/* ---- FM-index backward search ------------------------------------------------------------------
 * occ holds, per 128 bases of the BWT, the counts of A C G T before the
 * block (4 words) and the block's bases, 2 bits each, 16 per word (8
 * words).  A read of FM_LEN bases (2 bits each, two words) is searched from
 * its last base: [sp, ep) = C[c] + occ(c, sp), C[c] + occ(c, ep), until the
 * range empties; out gets the range's size and the bases matched. */
#define FM_LEN 32

SP_FN uint s_occ(SP_GLOBAL const uint *SP_RESTRICT occ, uint c, uint i) {
  SP_GLOBAL const uint *blk = occ + (long)(i >> 7) * 12;
  const uint r = i & 127u, pat = 0x55555555u * c;
  uint n = blk[c];
  for (uint w = 0; w * 16 + 16 <= r; ++w) {
    const uint x = ~(blk[4 + w] ^ pat);
    n += SP_POPCOUNT(x & (x >> 1) & 0x55555555u);
  }
  if (r & 15u) {
    const uint x = ~(blk[4 + (r >> 4)] ^ pat);
    n += SP_POPCOUNT(x & (x >> 1) & 0x55555555u & ((1u << (2 * (r & 15u))) - 1u));
  }
  return n;
}

SP_KERNEL void s_fmindex_count(SP_GLOBAL const uint *SP_RESTRICT occ,
                               SP_GLOBAL const uint *SP_RESTRICT cnt,
                               SP_GLOBAL const uint *SP_RESTRICT reads,
                               SP_GLOBAL uint *SP_RESTRICT out, int nreads, uint len) {
  const int q = SP_GID(0);
  if (q >= nreads) return;
  const uint lo = reads[2 * (long)q], hi = reads[2 * (long)q + 1];
  uint sp = 0, ep = len, matched = 0;
  for (int k = FM_LEN - 1; k >= 0 && sp < ep; --k) {
    const uint c = (k < 16 ? lo >> (2 * k) : hi >> (2 * (k - 16))) & 3u;
    sp = cnt[c] + s_occ(occ, c, sp);
    ep = cnt[c] + s_occ(occ, c, ep);
    ++matched;
  }
  out[2 * (long)q] = sp < ep ? ep - sp : 0u;
  out[2 * (long)q + 1] = matched;
}

/* ---- RSA-512 public-key operation --------------------------------------------------------------
 * s^65537 mod n by Montgomery multiplication (CIOS, 16 32-bit limbs, R =
 * 2^512): to Montgomery form with R^2 mod n, 16 squarings, one
 * multiplication, back with 1.  Key k = signature % nkeys: n, R^2 mod n
 * (16 words each) and -n^-1 mod 2^32.  Each work-item does per signatures,
 * interleaved over the grid. */
#define RSA_L 16

SP_FN void s_montmul(const uint *a, const uint *b, const uint *n, uint ninv, uint *res) {
  uint t[RSA_L + 2];
  for (int j = 0; j < RSA_L + 2; ++j) t[j] = 0;
  for (int i = 0; i < RSA_L; ++i) {
    ulong c = 0;
    for (int j = 0; j < RSA_L; ++j) {
      c += (ulong)t[j] + (ulong)a[j] * b[i];
      t[j] = (uint)c;
      c >>= 32;
    }
    c += t[RSA_L];
    t[RSA_L] = (uint)c;
    t[RSA_L + 1] = (uint)(c >> 32);
    const uint m = t[0] * ninv;
    c = ((ulong)t[0] + (ulong)m * n[0]) >> 32;
    for (int j = 1; j < RSA_L; ++j) {
      c += (ulong)t[j] + (ulong)m * n[j];
      t[j - 1] = (uint)c;
      c >>= 32;
    }
    c += t[RSA_L];
    t[RSA_L - 1] = (uint)c;
    t[RSA_L] = t[RSA_L + 1] + (uint)(c >> 32);
  }
  int ge = t[RSA_L] != 0;
  if (!ge) {
    ge = 1;
    for (int j = RSA_L - 1; j >= 0; --j)
      if (t[j] != n[j]) {
        ge = t[j] > n[j];
        break;
      }
  }
  ulong br = 0;
  for (int j = 0; j < RSA_L; ++j) {
    const ulong d = (ulong)t[j] - (ge ? n[j] : 0u) - br;
    res[j] = (uint)d;
    br = (d >> 63) & 1u;
  }
}

SP_KERNEL SP_BOUNDS(512) void s_rsa512_verify_131(SP_GLOBAL const uint *SP_RESTRICT sig,
                                                 SP_GLOBAL const uint *SP_RESTRICT keys,
                                                 SP_GLOBAL uint *SP_RESTRICT out, int nsig,
                                                 int nkeys, int per) {
  for (int p = 0; p < per; ++p) {
    const int s = SP_GID(0) + p * SP_GSIZE(0);
    if (s >= nsig) return;
    SP_GLOBAL const uint *key = keys + (long)(s % nkeys) * (2 * RSA_L + 1);
    uint n[RSA_L], r2[RSA_L], x[RSA_L], y[RSA_L], one[RSA_L];
    for (int j = 0; j < RSA_L; ++j) {
      n[j] = key[j];
      r2[j] = key[RSA_L + j];
      x[j] = sig[(long)s * RSA_L + j];
      one[j] = j == 0;
    }
    const uint ninv = key[2 * RSA_L];
    s_montmul(x, r2, n, ninv, y); /* y = s R */
    for (int j = 0; j < RSA_L; ++j) x[j] = y[j];
    for (int k = 0; k < 16; ++k) {
      s_montmul(y, y, n, ninv, r2);
      for (int j = 0; j < RSA_L; ++j) y[j] = r2[j];
    }
    s_montmul(y, x, n, ninv, r2); /* s^65537 R */
    s_montmul(r2, one, n, ninv, y);
    for (int j = 0; j < RSA_L; ++j) out[(long)s * RSA_L + j] = y[j];
  }
}

/* ---- Gaussian-splat tile blending --------------------------------------------------------------
 * A group per 16 x 16 tile; the tile's splats (ids in depth order at
 * list[toff[t] .. toff[t + 1])) are fetched into local memory 256 at a time
 * and blended front to back into each pixel (alpha = min(0.99, opacity
 * exp(power)), skipped under 1/255, a pixel stopping once its transmittance
 * would fall under 1e-4).  A splat: mean x, y, conic a, b, c, opacity, r,
 * g, b (9 floats).  out: r, g, b planes, then the final transmittance. */
#define SPL_B 256

SP_KERNEL void s_splat_tile_blend(SP_GLOBAL const float *SP_RESTRICT splat,
                                  SP_GLOBAL const int *SP_RESTRICT list,
                                  SP_GLOBAL const int *SP_RESTRICT toff,
                                  SP_GLOBAL float *SP_RESTRICT out, int w, int h) {
  SP_LOCAL float sp[9 * SPL_B];
  const int tx = SP_GRP(0), ty = SP_GRP(1), lx = SP_LID(0), ly = SP_LID(1), t = ly * 16 + lx;
  const int tile = ty * SP_NGRP(0) + tx, px = tx * 16 + lx, py = ty * 16 + ly;
  const float fx = (float)px + 0.5f, fy = (float)py + 0.5f;
  const int b = toff[tile], e = toff[tile + 1];
  float T = 1.0f, cr = 0.0f, cg = 0.0f, cb = 0.0f;
  int done = 0;
  for (int start = b; start < e; start += SPL_B) {
    const int cnt = e - start < SPL_B ? e - start : SPL_B;
    SP_BARRIER();
    if (t < cnt) {
      SP_GLOBAL const float *g = splat + 9 * (long)list[start + t];
      for (int k = 0; k < 9; ++k) sp[k * SPL_B + t] = g[k];
    }
    SP_BARRIER();
    for (int j = 0; j < cnt && !done; ++j) {
      const float dx = sp[j] - fx, dy = sp[SPL_B + j] - fy;
      const float power = -0.5f * (sp[2 * SPL_B + j] * dx * dx + sp[4 * SPL_B + j] * dy * dy) -
                          sp[3 * SPL_B + j] * dx * dy;
      if (power > 0.0f) continue;
      const float a = SP_FMINF(0.99f, sp[5 * SPL_B + j] * SP_EXPF(power));
      if (a < 1.0f / 255.0f) continue;
      const float nt = T * (1.0f - a);
      if (nt < 0.0001f) {
        done = 1;
        continue;
      }
      cr += sp[6 * SPL_B + j] * a * T;
      cg += sp[7 * SPL_B + j] * a * T;
      cb += sp[8 * SPL_B + j] * a * T;
      T = nt;
    }
  }
  if (px < w && py < h) {
    const long i = (long)py * w + px, plane = (long)w * h;
    out[i] = cr;
    out[plane + i] = cg;
    out[2 * plane + i] = cb;
    out[3 * plane + i] = T;
  }
}

/* ---- non-local means ---------------------------------------------------------------------------
 * A group per NL_T x NL_T output tile; the tile and a halo of NL_H = NL_R +
 * NL_P pixels (clamped at the image border) sit in local memory (NL_S^2
 * floats, 45.6 KB).  Each pixel averages its (2 NL_R + 1)^2 neighbours
 * weighted by exp(-max(d / 25 - 2 sigma^2, 0) / h^2), d the squared distance
 * of the 5 x 5 patches around the two. */
#define NL_T 94
#define NL_R 5
#define NL_P 2
#define NL_H (NL_R + NL_P)
#define NL_S (NL_T + 2 * NL_H)

SP_KERNEL void s_nlmeans_529(SP_GLOBAL const float *SP_RESTRICT img,
                             SP_GLOBAL float *SP_RESTRICT out, int w, int h, float sigma2,
                             float inv_h2) {
  SP_LOCAL float tile[NL_S * NL_S];
  const int x0 = SP_GRP(0) * NL_T, y0 = SP_GRP(1) * NL_T, t = SP_LID(0), nt = SP_LSIZE(0);
  for (int k = t; k < NL_S * NL_S; k += nt) {
    const int gx = min(max(x0 - NL_H + k % NL_S, 0), w - 1);
    const int gy = min(max(y0 - NL_H + k / NL_S, 0), h - 1);
    tile[k] = img[(long)gy * w + gx];
  }
  SP_BARRIER();
  for (int k = t; k < NL_T * NL_T; k += nt) {
    const int cx = k % NL_T + NL_H, cy = k / NL_T + NL_H;
    float acc = 0.0f, wsum = 0.0f;
    for (int oy = -NL_R; oy <= NL_R; ++oy)
      for (int ox = -NL_R; ox <= NL_R; ++ox) {
        float dist = 0.0f;
        for (int py = -NL_P; py <= NL_P; ++py)
          for (int px = -NL_P; px <= NL_P; ++px) {
            const float diff =
                tile[(cy + py) * NL_S + cx + px] - tile[(cy + oy + py) * NL_S + cx + ox + px];
            dist += diff * diff;
          }
        const float wgt = SP_EXPF(-SP_FMAXF(dist * (1.0f / 25.0f) - 2.0f * sigma2, 0.0f) * inv_h2);
        acc += wgt * tile[(cy + oy) * NL_S + cx + ox];
        wsum += wgt;
      }
    if (x0 + k % NL_T < w && y0 + k / NL_T < h)
      out[(long)(y0 + k / NL_T) * w + x0 + k % NL_T] = acc / wsum;
  }
}
