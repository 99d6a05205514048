/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.cl: irregular kernels of the ninth validation suite (host half:
 * irr.c): list ranking by sublists, BC1 texture compression, a label-
 * propagation step on a graph with hubs, scrypt's ROMix, Myers' bit-vector
 * edit distance and a Hough transform in local memory.  Written for this
 * suite, independently of the core suite and the earlier validation
 * suites. */
#include "sp_dev.h"

/* ---- list ranking by sublists -------------------------------------------------------------------
 * The second phase of Helman and JaJa's list ranking: the list is cut at
 * splitters (heads[s], the first the list's head), and work-item s walks
 * its sublist from heads[s], storing each node's sublist and rank in it,
 * until the link says the next node is a splitter (bit 31 set) or the list
 * ends (all bits set).  One dependent load per node, scattered stores. */
SP_KERNEL void t_list_rank_sublist(SP_GLOBAL const uint *SP_RESTRICT succ,
                                   SP_GLOBAL const uint *SP_RESTRICT heads,
                                   SP_GLOBAL uint *SP_RESTRICT sub,
                                   SP_GLOBAL uint *SP_RESTRICT rank, int nsub) {
  const int s = SP_GID(0);
  if (s >= nsub) return;
  uint u = heads[s], k = 0;
  for (;;) {
    sub[u] = (uint)s;
    rank[u] = k++;
    const uint nx = succ[u];
    if (nx & 0x80000000u) break;
    u = nx;
  }
}

/* ---- BC1 texture compression --------------------------------------------------------------------
 * A work-item per 4 x 4 block of RGBA8 pixels (alpha ignored), all in
 * integer arithmetic: the colour covariance, its principal axis by 6 power
 * iterations (renormalised by shifts), the pixels with the least and the
 * greatest projection on it as the two RGB565 endpoints (the larger first,
 * 4-colour mode), the palette of the endpoints and their 1/3 and 2/3
 * mixes, and each pixel's nearest palette entry (2 bits).  out per block:
 * c0 | c1 << 16, then the 32 index bits. */
SP_FN int t_norm10(int *v) {
  int m = sp_iabs(v[0]);
  m = sp_iabs(v[1]) > m ? sp_iabs(v[1]) : m;
  m = sp_iabs(v[2]) > m ? sp_iabs(v[2]) : m;
  while (m >= 1024) {
    m >>= 1;
    v[0] >>= 1;
    v[1] >>= 1;
    v[2] >>= 1;
  }
  return m;
}

SP_FN uint t_to565(int r, int g, int b) {
  return (uint)((r * 31 + 127) / 255 << 11 | (g * 63 + 127) / 255 << 5 | (b * 31 + 127) / 255);
}

SP_KERNEL void t_bc1_encode(SP_GLOBAL const uint *SP_RESTRICT rgba, SP_GLOBAL uint *SP_RESTRICT out,
                            int width, int nblocks) {
  const int b = SP_GID(0);
  if (b >= nblocks) return;
  const int nbx = width / 4, bx = b % nbx, by = b / nbx;
  int px[16][3], s[3] = {0, 0, 0};
  for (int i = 0; i < 16; ++i) {
    const uint p = rgba[((long)by * 4 + i / 4) * width + bx * 4 + i % 4];
    for (int c = 0; c < 3; ++c) {
      px[i][c] = (int)(p >> (8 * c) & 0xFFu);
      s[c] += px[i][c];
    }
  }
  int cv[3][3];
  for (int c = 0; c < 3; ++c)
    for (int e = c; e < 3; ++e) {
      int acc = 0;
      for (int i = 0; i < 16; ++i) acc += px[i][c] * px[i][e];
      cv[c][e] = cv[e][c] = (16 * acc - s[c] * s[e]) >> 8;
    }
  int v[3] = {cv[0][0] + cv[0][1] + cv[0][2], cv[1][0] + cv[1][1] + cv[1][2],
              cv[2][0] + cv[2][1] + cv[2][2]};
  for (int it = 0; it < 6; ++it) {
    if (t_norm10(v) == 0) v[0] = v[1] = v[2] = 1;
    const int a0 = cv[0][0] * v[0] + cv[0][1] * v[1] + cv[0][2] * v[2];
    const int a1 = cv[1][0] * v[0] + cv[1][1] * v[1] + cv[1][2] * v[2];
    const int a2 = cv[2][0] * v[0] + cv[2][1] * v[1] + cv[2][2] * v[2];
    v[0] = a0;
    v[1] = a1;
    v[2] = a2;
  }
  if (t_norm10(v) == 0) v[0] = v[1] = v[2] = 1;
  int plo = 0, phi = 0;
  uint c0 = 0, c1 = 0;
  for (int i = 0; i < 16; ++i) {
    const int p = v[0] * px[i][0] + v[1] * px[i][1] + v[2] * px[i][2];
    if (i == 0 || p < plo) {
      plo = p;
      c1 = t_to565(px[i][0], px[i][1], px[i][2]);
    }
    if (i == 0 || p > phi) {
      phi = p;
      c0 = t_to565(px[i][0], px[i][1], px[i][2]);
    }
  }
  if (c0 < c1) {
    const uint tmp = c0;
    c0 = c1;
    c1 = tmp;
  }
  uint idx = 0;
  if (c0 != c1) {
    int pal[4][3];
    pal[0][0] = (int)(c0 >> 11 << 3 | c0 >> 13);
    pal[0][1] = (int)((c0 >> 5 & 63u) << 2 | (c0 >> 9 & 3u));
    pal[0][2] = (int)((c0 & 31u) << 3 | (c0 >> 2 & 7u));
    pal[1][0] = (int)(c1 >> 11 << 3 | c1 >> 13);
    pal[1][1] = (int)((c1 >> 5 & 63u) << 2 | (c1 >> 9 & 3u));
    pal[1][2] = (int)((c1 & 31u) << 3 | (c1 >> 2 & 7u));
    for (int c = 0; c < 3; ++c) {
      pal[2][c] = (2 * pal[0][c] + pal[1][c]) / 3;
      pal[3][c] = (pal[0][c] + 2 * pal[1][c]) / 3;
    }
    for (int i = 0; i < 16; ++i) {
      int best = 0, bd = 0;
      for (int k = 0; k < 4; ++k) {
        const int dr = px[i][0] - pal[k][0], dg = px[i][1] - pal[k][1], db = px[i][2] - pal[k][2];
        const int dd = dr * dr + dg * dg + db * db;
        if (k == 0 || dd < bd) {
          bd = dd;
          best = k;
        }
      }
      idx |= (uint)best << (2 * i);
    }
  }
  out[2 * (long)b] = c0 | c1 << 16;
  out[2 * (long)b + 1] = idx;
}

/* ---- label propagation --------------------------------------------------------------------------
 * One synchronous step of label propagation (Raghavan, Albert and Kumara):
 * vertex v takes the label most frequent among its neighbours (CSR rows;
 * ties to the smaller label; none: its own), counted in a private array of
 * LP_L counters.  Labels are bytes.  A work-item per vertex: the hubs'
 * rows, far longer than the rest, are the critical path. */
#define LP_L 64

SP_KERNEL void t_lpa_mode_hubs(SP_GLOBAL const int *SP_RESTRICT rowptr,
                               SP_GLOBAL const int *SP_RESTRICT col,
                               SP_GLOBAL const uchar *SP_RESTRICT lab,
                               SP_GLOBAL uchar *SP_RESTRICT out, int nv) {
  const int v = SP_GID(0);
  if (v >= nv) return;
  uint cnt[LP_L];
  for (int l = 0; l < LP_L; ++l) cnt[l] = 0;
  const int e = rowptr[v + 1];
  for (int k = rowptr[v]; k < e; ++k) cnt[lab[col[k]]] += 1u;
  uint best = lab[v], bc = 0;
  for (int l = 0; l < LP_L; ++l)
    if (cnt[l] > bc) {
      bc = cnt[l];
      best = (uint)l;
    }
  out[v] = (uchar)best;
}

/* ---- scrypt's ROMix -----------------------------------------------------------------------------
 * Percival's scrypt SMix with r = 1 on one 128-byte block B per work-item:
 * N BlockMix steps (Salsa20/8 twice) storing every second state in V (the
 * "lookup gap" of GPU scrypt codes: 64 bytes x N of scratch per work-item,
 * contiguous), then N steps X = BlockMix(X ^ V_j), j = Integerify(X) mod N,
 * V_j recomputed by one BlockMix when j is odd.  V is scratch: written
 * before it is read. */
SP_FN void t_salsa8(uint *b) {
  uint x[16];
  for (int k = 0; k < 16; ++k) x[k] = b[k];
  for (int i = 0; i < 8; i += 2) {
    x[4] ^= SP_ROTL(x[0] + x[12], 7);
    x[8] ^= SP_ROTL(x[4] + x[0], 9);
    x[12] ^= SP_ROTL(x[8] + x[4], 13);
    x[0] ^= SP_ROTL(x[12] + x[8], 18);
    x[9] ^= SP_ROTL(x[5] + x[1], 7);
    x[13] ^= SP_ROTL(x[9] + x[5], 9);
    x[1] ^= SP_ROTL(x[13] + x[9], 13);
    x[5] ^= SP_ROTL(x[1] + x[13], 18);
    x[14] ^= SP_ROTL(x[10] + x[6], 7);
    x[2] ^= SP_ROTL(x[14] + x[10], 9);
    x[6] ^= SP_ROTL(x[2] + x[14], 13);
    x[10] ^= SP_ROTL(x[6] + x[2], 18);
    x[3] ^= SP_ROTL(x[15] + x[11], 7);
    x[7] ^= SP_ROTL(x[3] + x[15], 9);
    x[11] ^= SP_ROTL(x[7] + x[3], 13);
    x[15] ^= SP_ROTL(x[11] + x[7], 18);
    x[1] ^= SP_ROTL(x[0] + x[3], 7);
    x[2] ^= SP_ROTL(x[1] + x[0], 9);
    x[3] ^= SP_ROTL(x[2] + x[1], 13);
    x[0] ^= SP_ROTL(x[3] + x[2], 18);
    x[6] ^= SP_ROTL(x[5] + x[4], 7);
    x[7] ^= SP_ROTL(x[6] + x[5], 9);
    x[4] ^= SP_ROTL(x[7] + x[6], 13);
    x[5] ^= SP_ROTL(x[4] + x[7], 18);
    x[11] ^= SP_ROTL(x[10] + x[9], 7);
    x[8] ^= SP_ROTL(x[11] + x[10], 9);
    x[9] ^= SP_ROTL(x[8] + x[11], 13);
    x[10] ^= SP_ROTL(x[9] + x[8], 18);
    x[12] ^= SP_ROTL(x[15] + x[14], 7);
    x[13] ^= SP_ROTL(x[12] + x[15], 9);
    x[14] ^= SP_ROTL(x[13] + x[12], 13);
    x[15] ^= SP_ROTL(x[14] + x[13], 18);
  }
  for (int k = 0; k < 16; ++k) b[k] += x[k];
}

SP_FN void t_blockmix(uint *x) {
  uint t[16];
  for (int k = 0; k < 16; ++k) t[k] = x[16 + k] ^ x[k];
  t_salsa8(t);
  for (int k = 0; k < 16; ++k) {
    x[k] = t[k];
    t[k] ^= x[16 + k];
  }
  t_salsa8(t);
  for (int k = 0; k < 16; ++k) x[16 + k] = t[k];
}

SP_KERNEL void t_scrypt_romix(SP_GLOBAL const uint *SP_RESTRICT bin, SP_GLOBAL uint *SP_RESTRICT v,
                              SP_GLOBAL uint *SP_RESTRICT out, int n, int nr) {
  const int q = SP_GID(0);
  if (q >= n) return;
  SP_GLOBAL uint *vq = v + (long)q * (nr / 2) * 32;
  uint x[32], y[32];
  for (int k = 0; k < 32; ++k) x[k] = bin[32 * (long)q + k];
  for (int i = 0; i < nr; ++i) {
    if (i % 2 == 0)
      for (int k = 0; k < 32; ++k) vq[(long)(i / 2) * 32 + k] = x[k];
    t_blockmix(x);
  }
  for (int i = 0; i < nr; ++i) {
    const uint j = x[16] & (uint)(nr - 1);
    for (int k = 0; k < 32; ++k) y[k] = vq[(long)(j / 2) * 32 + k];
    if (j & 1u) t_blockmix(y);
    for (int k = 0; k < 32; ++k) x[k] ^= y[k];
    t_blockmix(x);
  }
  for (int k = 0; k < 32; ++k) out[32 * (long)q + k] = x[k];
}

/* ---- Myers' bit-vector edit distance ------------------------------------------------------------
 * Levenshtein distance of a pattern of m <= 64 letters against a text (64-
 * byte slots, lengths packed m | n << 8) by Myers' bit-parallel algorithm
 * in Hyyro's formulation for global distance: a 64-bit match mask per
 * letter (private, 26 words), then per text letter the vertical and
 * horizontal delta vectors and the score in row m.  Each work-item does
 * per pairs, interleaved over the grid. */
SP_KERNEL SP_BOUNDS(1024) void t_myers_levenshtein_263(SP_GLOBAL const uchar *SP_RESTRICT pat,
                                                      SP_GLOBAL const uchar *SP_RESTRICT txt,
                                                      SP_GLOBAL const uint *SP_RESTRICT lens,
                                                      SP_GLOBAL uint *SP_RESTRICT dist, int npairs,
                                                      int per) {
  ulong peq[26];
  for (int c = 0; c < 26; ++c) peq[c] = 0;
  for (int p = 0; p < per; ++p) {
    const int q = SP_GID(0) + p * SP_GSIZE(0);
    if (q >= npairs) return;
    const int m = (int)(lens[q] & 0xFFu), n = (int)(lens[q] >> 8);
    SP_GLOBAL const uchar *ps = pat + 64 * (long)q, *ts = txt + 64 * (long)q;
    for (int i = 0; i < m; ++i) peq[ps[i] - 'a'] |= (ulong)1 << i;
    const ulong last = (ulong)1 << (m - 1);
    ulong pv = ~(ulong)0, mv = 0;
    uint score = (uint)m;
    for (int j = 0; j < n; ++j) {
      const ulong eq = peq[ts[j] - 'a'], xv = eq | mv;
      const ulong xh = (((eq & pv) + pv) ^ pv) | eq;
      ulong ph = mv | ~(xh | pv), mh = pv & xh;
      if (ph & last)
        ++score;
      else if (mh & last)
        --score;
      ph = ph << 1 | 1;
      mh <<= 1;
      pv = mh | ~(xv | ph);
      mv = ph & xv;
    }
    dist[q] = score;
    for (int i = 0; i < m; ++i) peq[ps[i] - 'a'] = 0;
  }
}

/* ---- Hough transform in local memory ------------------------------------------------------------
 * A group per angle theta (its cosine and sine in Q16: trig[2 g], trig[2 g
 * + 1]) votes every edge point (x | y << 16) into a local histogram of rho
 * = x cos + y sin, bins of 2 pixels offset by roff (Q16), with local
 * atomics; the histogram then goes to acc[g] (OpenCV CUDA HoughLines'
 * shared-memory accumulation). */
#define HG_MAXR 5794

SP_KERNEL SP_BOUNDS(1024) void t_hough_lines_smem(SP_GLOBAL const uint *SP_RESTRICT pts,
                                                 SP_GLOBAL const int *SP_RESTRICT trig,
                                                 SP_GLOBAL uint *SP_RESTRICT acc, int npts,
                                                 int nrho, int roff) {
  SP_LOCAL uint hist[HG_MAXR];
  const int g = SP_GRP(0), t = SP_LID(0);
  for (int k = t; k < nrho; k += 1024) hist[k] = 0;
  SP_BARRIER();
  const int c = trig[2 * g], s = trig[2 * g + 1];
  for (int i = t; i < npts; i += 1024) {
    const uint p = pts[i];
    const int r = (int)(p & 0xFFFFu) * c + (int)(p >> 16) * s;
    SP_ATOMIC_ADD(hist + ((r + roff) >> 17), 1u);
  }
  SP_BARRIER();
  for (int k = t; k < nrho; k += 1024) acc[(long)g * nrho + k] = hist[k];
}
