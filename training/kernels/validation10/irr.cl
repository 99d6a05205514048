/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.cl: irregular kernels of the tenth validation suite (host half:
 * irr.c): MinHash signatures, a step of Luby's maximal independent set,
 * Soundex codes, a SHA-256d Merkle level, the column pass of an exact
 * Euclidean distance transform and canonical Huffman decoding.  Written
 * for this suite, independently of the core suite and the earlier
 * validation suites. */
#include "sp_dev.h"

/* ---- MinHash signatures -------------------------------------------------------------------------
 * Document d (MH_L bytes) is staged in local memory; work-item k of the
 * group computes min over its 4-byte shingles x (every byte offset) of
 * (a_k x + b_k) mod (2^31 - 1), with 64-bit products and two folds.  Each
 * group signs per documents in turn. */
#define MH_K 128
#define MH_L 1024
#define MH_P 2147483647ul

SP_FN uint u_modp(ulong v) {
  v = (v & MH_P) + (v >> 31);
  v = (v & MH_P) + (v >> 31);
  return (uint)(v >= MH_P ? v - MH_P : v);
}

SP_KERNEL SP_BOUNDS(MH_K) void u_minhash_sig_264(SP_GLOBAL const uint *SP_RESTRICT docs,
                                                SP_GLOBAL const uint *SP_RESTRICT ab,
                                                SP_GLOBAL uint *SP_RESTRICT sig, int per) {
  SP_LOCAL uint dw[MH_L / 4];
  const int k = SP_LID(0);
  const ulong a = ab[2 * k], b = ab[2 * k + 1];
  for (int d = SP_GRP(0) * per; d < (SP_GRP(0) + 1) * per; ++d) {
    SP_BARRIER();
    for (int i = k; i < MH_L / 4; i += MH_K) dw[i] = docs[(long)d * (MH_L / 4) + i];
    SP_BARRIER();
    uint best = 0xFFFFFFFFu;
    for (int i = 0; i <= MH_L - 4; ++i) {
      const int w = i >> 2, sh = (i & 3) * 8;
      const uint x = sh == 0 ? dw[w] : (dw[w] >> sh) | (dw[w + 1] << (32 - sh));
      const uint hv = u_modp(a * x + b);
      best = hv < best ? hv : best;
    }
    sig[(long)d * MH_K + k] = best;
  }
}

/* ---- a step of Luby's maximal independent set ---------------------------------------------------
 * State 0: undecided, 1: in the set, 2: out.  An undecided vertex with a
 * neighbour in the set goes out (the scan stops there); one whose hashed
 * priority beats every undecided neighbour's (ties to the higher index)
 * joins; the rest stay undecided.  A work-item per vertex; a few hubs make
 * the longest scans. */
SP_FN int u_beats(uint u, uint v) {
  const uint hu = sp_mueller32(u), hv = sp_mueller32(v);
  return hu > hv || (hu == hv && u > v);
}

SP_KERNEL void u_mis_luby_step(SP_GLOBAL const int *SP_RESTRICT rowptr,
                               SP_GLOBAL const int *SP_RESTRICT col,
                               SP_GLOBAL const uint *SP_RESTRICT state,
                               SP_GLOBAL uint *SP_RESTRICT next, int n) {
  const int v = SP_GID(0);
  if (v >= n) return;
  const uint s = state[v];
  if (s != 0u) {
    next[v] = s;
    return;
  }
  int lost = 0;
  for (int e = rowptr[v]; e < rowptr[v + 1]; ++e) {
    const int u = col[e];
    const uint su = state[u];
    if (su == 1u) {
      next[v] = 2u;
      return;
    }
    if (su == 0u && u_beats((uint)u, (uint)v)) lost = 1;
  }
  next[v] = lost ? 0u : 1u;
}

/* ---- Soundex ------------------------------------------------------------------------------------
 * American Soundex of a lowercase word in a 16-byte NUL-padded slot: the
 * first letter (upper case), then the digits of the following letters
 * (b f p v 1, c g j k q s x z 2, d t 3, l 4, m n 5, r 6), a digit equal to
 * the previous one dropped, vowels separating equal digits and h and w
 * not, padded with '0' to four characters, stored as one 32-bit word.  The
 * letter classes are 3-bit fields of two constants (7: h, w). */
#define SDX_A 0x6b222d890e88688ul
#define SDX_B 0x20b9ul

SP_FN int u_sdx(int c) {
  const int i = c - 'a';
  return (int)((i < 21 ? SDX_A >> (3 * i) : SDX_B >> (3 * (i - 21))) & 7ul);
}

SP_KERNEL void u_soundex_words(SP_GLOBAL const uchar *SP_RESTRICT words,
                               SP_GLOBAL uint *SP_RESTRICT code, int n) {
  const int g = SP_GID(0);
  if (g >= n) return;
  SP_GLOBAL const uchar *w = words + 16 * (long)g;
  const int c0 = w[0];
  uint out = (uint)(c0 - 'a' + 'A');
  int nout = 1, last = u_sdx(c0);
  for (int i = 1; i < 16 && nout < 4; ++i) {
    const int c = w[i];
    if (c == 0) break;
    const int cd = u_sdx(c);
    if (cd == 7) continue;
    if (cd != 0 && cd != last) out |= (uint)('0' + cd) << (8 * nout++);
    last = cd;
  }
  for (; nout < 4; ++nout) out |= (uint)'0' << (8 * nout);
  code[g] = out;
}

/* ---- SHA-256d Merkle level ----------------------------------------------------------------------
 * Parent i = SHA-256(SHA-256(left || right)) of its two 32-byte children
 * (Bitcoin's Merkle tree), digests as 8 big-endian words: the 64-byte
 * message block, its padding block, then the 32-byte digest with its
 * padding: three compressions. */
#define SH_ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

SP_FN void u_sha256_block(uint h[8], uint w[16], SP_GLOBAL const uint *SP_RESTRICT kc) {
  uint a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
#pragma unroll
  for (int i = 0; i < 64; ++i) {
    if (i >= 16) {
      const uint w15 = w[(i - 15) & 15], w2 = w[(i - 2) & 15];
      const uint s0 = SH_ROTR(w15, 7) ^ SH_ROTR(w15, 18) ^ (w15 >> 3);
      const uint s1 = SH_ROTR(w2, 17) ^ SH_ROTR(w2, 19) ^ (w2 >> 10);
      w[i & 15] += s0 + w[(i - 7) & 15] + s1;
    }
    const uint t1 = hh + (SH_ROTR(e, 6) ^ SH_ROTR(e, 11) ^ SH_ROTR(e, 25)) + ((e & f) ^ (~e & g)) +
                    kc[i] + w[i & 15];
    const uint t2 = (SH_ROTR(a, 2) ^ SH_ROTR(a, 13) ^ SH_ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += hh;
}

SP_FN void u_sha256_init(uint h[8]) {
  h[0] = 0x6a09e667u;
  h[1] = 0xbb67ae85u;
  h[2] = 0x3c6ef372u;
  h[3] = 0xa54ff53au;
  h[4] = 0x510e527fu;
  h[5] = 0x9b05688cu;
  h[6] = 0x1f83d9abu;
  h[7] = 0x5be0cd19u;
}

SP_KERNEL void u_sha256_merkle_level(SP_GLOBAL const uint *SP_RESTRICT child,
                                     SP_GLOBAL const uint *SP_RESTRICT kc,
                                     SP_GLOBAL uint *SP_RESTRICT parent, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  uint h[8], w[16], d1[8];
  for (int k = 0; k < 16; ++k) w[k] = child[16 * (long)i + k];
  u_sha256_init(h);
  u_sha256_block(h, w, kc);
  for (int k = 0; k < 16; ++k) w[k] = k == 0 ? 0x80000000u : k == 15 ? 512u : 0u;
  u_sha256_block(h, w, kc);
  for (int k = 0; k < 8; ++k) d1[k] = h[k];
  for (int k = 0; k < 16; ++k) w[k] = k < 8 ? d1[k] : k == 8 ? 0x80000000u : k == 15 ? 256u : 0u;
  u_sha256_init(h);
  u_sha256_block(h, w, kc);
  for (int k = 0; k < 8; ++k) parent[8 * (long)i + k] = h[k];
}

/* ---- exact Euclidean distance transform, column pass --------------------------------------------
 * Felzenszwalb and Huttenlocher's 1-D transform over each column of f (the
 * row pass's squared distances, h rows of w): the lower envelope of the
 * parabolas (q - y)^2 + f(q) (their vertices in v, the boundaries in z,
 * both in global scratch laid out [k][column]), then d(y) = (y - v)^2 + f(v)
 * of the parabola below each y.  The intersections are FP64 quotients of
 * exact integers (both sides round them identically).  A work-item per
 * column: two dependent sweeps of h steps. */
SP_KERNEL SP_BOUNDS(128) void u_edt_columns_128(SP_GLOBAL const int *SP_RESTRICT f,
                                               SP_GLOBAL int *SP_RESTRICT dist,
                                               SP_GLOBAL int *SP_RESTRICT vs,
                                               SP_GLOBAL double *SP_RESTRICT zs, int w, int h) {
  const int x = SP_GID(0);
  if (x >= w) return;
  int k = 0;
  vs[x] = 0;
  zs[x] = -1e300;
  zs[(long)w + x] = 1e300;
  for (int q = 1; q < h; ++q) {
    const double fq = (double)f[(long)q * w + x] + (double)q * q;
    double s;
    for (;;) {
      const int vk = vs[(long)k * w + x];
      s = (fq - ((double)f[(long)vk * w + x] + (double)vk * vk)) / (double)(2 * q - 2 * vk);
      if (s > zs[(long)k * w + x]) break;
      --k;
    }
    ++k;
    vs[(long)k * w + x] = q;
    zs[(long)k * w + x] = s;
    zs[(long)(k + 1) * w + x] = 1e300;
  }
  k = 0;
  for (int q = 0; q < h; ++q) {
    while (zs[(long)(k + 1) * w + x] < (double)q) ++k;
    const int vk = vs[(long)k * w + x];
    dist[(long)q * w + x] = (q - vk) * (q - vk) + f[(long)vk * w + x];
  }
}

/* ---- canonical Huffman decoding -----------------------------------------------------------------
 * Chunk c of a stream of byte symbols, coded MSB first in 32-bit words from
 * word off[c], holds HF_C symbols.  A work-item per chunk keeps a 64-bit
 * bit buffer, looks its top HF_B bits up in the decoding table (symbol |
 * length << 8) and consumes the code's length: every lookup waits for the
 * one before.  Four symbols are stored per 32-bit word. */
#define HF_B 10
#define HF_C 4096

SP_KERNEL void u_huffman_decode_chunks(SP_GLOBAL const uint *SP_RESTRICT bits,
                                       SP_GLOBAL const uint *SP_RESTRICT off,
                                       SP_GLOBAL const uint *SP_RESTRICT lut,
                                       SP_GLOBAL uint *SP_RESTRICT out, int nchunk) {
  const int c = SP_GID(0);
  if (c >= nchunk) return;
  SP_GLOBAL const uint *p = bits + off[c];
  ulong buf = 0ul;
  int nb = 0;
  for (int i = 0; i < HF_C / 4; ++i) {
    uint word = 0u;
    for (int k = 0; k < 4; ++k) {
      if (nb < 32) {
        buf |= (ulong)(*p++) << (32 - nb);
        nb += 32;
      }
      const uint e = lut[(uint)(buf >> (64 - HF_B))];
      word |= (e & 255u) << (8 * k);
      buf <<= e >> 8;
      nb -= (int)(e >> 8);
    }
    out[(long)c * (HF_C / 4) + i] = word;
  }
}
