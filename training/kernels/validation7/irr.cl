/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.cl: text, graph, cryptography, number-theory and networking kernels
 * for the seventh validation suite (host half: irr.c): UTF-8 validation, a
 * word count, speculative greedy colouring, AES-128 in CTR mode,
 * Miller-Rabin primality and IPv4 longest-prefix match.  Written for this
 * suite, independently of the core suite and the earlier validation
 * suites. */
#include "sp_dev.h"

/* ---- UTF-8 validation --------------------------------------------------------------------------
 * Byte k of the text is bits 8 (k % 4) of word k / 4 (little-endian).  A
 * work-item per U8_B-byte block checks the sequences that start in it
 * (those that began in the block before are skipped, found by looking back
 * at most three bytes for their lead byte), a word of ASCII at a time where
 * it can; a sequence may run into the next block.  err[block] is 0, or 1 +
 * the offset in the block of the first sequence that is not well formed
 * (Unicode's table 3-7: no overlong forms, surrogates or code points above
 * U+10FFFF; truncated at the end of the text). */
#define U8_B 64

SP_FN uint r_byte(SP_GLOBAL const uint *t, long k) { return t[k >> 2] >> (8 * (k & 3)) & 255u; }

/* Length of the sequence that lead byte c starts, by its high bits alone. */
SP_FN int r_lead_len(uint c) { return c < 0xC0u ? 1 : c < 0xE0u ? 2 : c < 0xF0u ? 3 : 4; }

SP_KERNEL void r_utf8_validate(SP_GLOBAL const uint *SP_RESTRICT text,
                               SP_GLOBAL uint *SP_RESTRICT err, int nblocks, int nbytes) {
  const int b = SP_GID(0);
  if (b >= nblocks) return;
  const long base = (long)b * U8_B;
  int k = 0;
  for (int j = 1; j <= 3 && base - j >= 0; ++j) {
    const uint c = r_byte(text, base - j);
    if ((c & 0xC0u) != 0x80u) {
      const int len = c >= 0xC0u ? r_lead_len(c) : 1;
      k = len > j ? len - j : 0;
      break;
    }
  }
  uint bad = 0;
  while (k < U8_B && base + k < nbytes) {
    if ((k & 3) == 0 && (text[(base + k) >> 2] & 0x80808080u) == 0) {
      k += 4;
      continue;
    }
    const uint c = r_byte(text, base + k);
    if (c < 0x80u) {
      ++k;
      continue;
    }
    int len = 0;
    uint lo = 0x80u, hi = 0xBFu;
    if (c >= 0xC2u && c <= 0xDFu) {
      len = 2;
    } else if (c >= 0xE0u && c <= 0xEFu) {
      len = 3;
      lo = c == 0xE0u ? 0xA0u : 0x80u;
      hi = c == 0xEDu ? 0x9Fu : 0xBFu;
    } else if (c >= 0xF0u && c <= 0xF4u) {
      len = 4;
      lo = c == 0xF0u ? 0x90u : 0x80u;
      hi = c == 0xF4u ? 0x8Fu : 0xBFu;
    }
    int ok = len > 0;
    for (int j = 1; ok && j < len; ++j) {
      const uint cc = base + k + j < nbytes ? r_byte(text, base + k + j) : 0u;
      ok = j == 1 ? cc >= lo && cc <= hi : (cc & 0xC0u) == 0x80u;
    }
    if (!ok) {
      bad = (uint)k + 1u;
      break;
    }
    k += len;
  }
  err[b] = bad;
}

/* ---- word count -----------------------------------------------------------------------------
 * A work-item per word of 4 bytes counts the bytes that start a word (not
 * white space, after white space or at the start of the text) and adds them,
 * when any, to one global counter. */
SP_FN int r_space(uint c) { return c == 32u || c == 10u || c == 9u || c == 13u; }

SP_KERNEL void r_wc_words_atomic(SP_GLOBAL const uint *SP_RESTRICT text,
                                 SP_GLOBAL uint *SP_RESTRICT total, int nwords) {
  const int i = SP_GID(0);
  if (i >= nwords) return;
  const uint w = text[i];
  int prev = i > 0 ? r_space(text[i - 1] >> 24) : 1;
  uint starts = 0;
  for (int k = 0; k < 4; ++k) {
    const int sp = r_space(w >> (8 * k) & 255u);
    starts += (uint)(!sp && prev);
    prev = sp;
  }
  if (starts != 0) SP_ATOMIC_ADD(total, starts);
}

/* ---- speculative greedy colouring, tentative phase ------------------------------------------
 * A vertex still uncoloured (GC_NONE) takes the smallest colour no neighbour
 * has, found in windows of 64 colours with a bit mask; a coloured vertex
 * keeps its colour. A work-item per vertex, over its whole adjacency list:
 * hubs take as long as their degree. */
#define GC_NONE 0xffffffffu

SP_KERNEL void r_greedy_color_vb(SP_GLOBAL const int *SP_RESTRICT rowptr,
                                 SP_GLOBAL const int *SP_RESTRICT adj,
                                 SP_GLOBAL const uint *SP_RESTRICT color,
                                 SP_GLOBAL uint *SP_RESTRICT out, int n) {
  const int v = SP_GID(0);
  if (v >= n) return;
  const uint cv = color[v];
  if (cv != GC_NONE) {
    out[v] = cv;
    return;
  }
  const int e0 = rowptr[v], e1 = rowptr[v + 1];
  for (uint base = 0;; base += 64u) {
    ulong used = 0;
    for (int e = e0; e < e1; ++e) {
      const uint c = color[adj[e]] - base;
      if (c < 64u) used |= (ulong)1 << c;
    }
    if (used != ~(ulong)0) {
      uint k = 0;
      while (used >> k & 1) ++k;
      out[v] = base + k;
      return;
    }
  }
}

/* ---- AES-128, CTR mode ----------------------------------------------------------------------
 * Tables (from the host): Te0..Te3 and the S-box as words, 5 x 256; the 44
 * round-key words. Block b's counter block is the three nonce words and b
 * (big-endian words); its keystream is xored with the plaintext, whose words
 * hold bytes little-endian, hence the byte swap. A work-item per 16-byte
 * block, the tables in local memory. */
#define AES_T 256

SP_FN uint r_bswap(uint x) { return x >> 24 | (x >> 8 & 0xff00u) | (x << 8 & 0xff0000u) | x << 24; }

SP_KERNEL void r_aes128_ctr(SP_GLOBAL const uint *SP_RESTRICT in, SP_GLOBAL uint *SP_RESTRICT out,
                            SP_GLOBAL const uint *SP_RESTRICT tables,
                            SP_GLOBAL const uint *SP_RESTRICT rkey, uint n0, uint n1, uint n2,
                            int nblocks) {
  SP_LOCAL uint te[5 * 256];
  SP_LOCAL uint rk[44];
  const int t = SP_LID(0), b = SP_GID(0);
  for (int i = t; i < 5 * 256; i += SP_LSIZE(0)) te[i] = tables[i];
  if (t < 44) rk[t] = rkey[t];
  SP_BARRIER();
  if (b >= nblocks) return;
  uint s0 = n0 ^ rk[0], s1 = n1 ^ rk[1], s2 = n2 ^ rk[2], s3 = (uint)b ^ rk[3];
  for (int r = 1; r < 10; ++r) {
    const uint t0 = te[s0 >> 24] ^ te[256 + (s1 >> 16 & 255u)] ^ te[512 + (s2 >> 8 & 255u)] ^
                    te[768 + (s3 & 255u)] ^ rk[4 * r];
    const uint t1 = te[s1 >> 24] ^ te[256 + (s2 >> 16 & 255u)] ^ te[512 + (s3 >> 8 & 255u)] ^
                    te[768 + (s0 & 255u)] ^ rk[4 * r + 1];
    const uint t2 = te[s2 >> 24] ^ te[256 + (s3 >> 16 & 255u)] ^ te[512 + (s0 >> 8 & 255u)] ^
                    te[768 + (s1 & 255u)] ^ rk[4 * r + 2];
    const uint t3 = te[s3 >> 24] ^ te[256 + (s0 >> 16 & 255u)] ^ te[512 + (s1 >> 8 & 255u)] ^
                    te[768 + (s2 & 255u)] ^ rk[4 * r + 3];
    s0 = t0;
    s1 = t1;
    s2 = t2;
    s3 = t3;
  }
  const uint o0 = (te[1024 + (s0 >> 24)] << 24 | te[1024 + (s1 >> 16 & 255u)] << 16 |
                   te[1024 + (s2 >> 8 & 255u)] << 8 | te[1024 + (s3 & 255u)]) ^
                  rk[40];
  const uint o1 = (te[1024 + (s1 >> 24)] << 24 | te[1024 + (s2 >> 16 & 255u)] << 16 |
                   te[1024 + (s3 >> 8 & 255u)] << 8 | te[1024 + (s0 & 255u)]) ^
                  rk[41];
  const uint o2 = (te[1024 + (s2 >> 24)] << 24 | te[1024 + (s3 >> 16 & 255u)] << 16 |
                   te[1024 + (s0 >> 8 & 255u)] << 8 | te[1024 + (s1 & 255u)]) ^
                  rk[42];
  const uint o3 = (te[1024 + (s3 >> 24)] << 24 | te[1024 + (s0 >> 16 & 255u)] << 16 |
                   te[1024 + (s1 >> 8 & 255u)] << 8 | te[1024 + (s2 & 255u)]) ^
                  rk[43];
  const long w = 4 * (long)b;
  out[w] = in[w] ^ r_bswap(o0);
  out[w + 1] = in[w + 1] ^ r_bswap(o1);
  out[w + 2] = in[w + 2] ^ r_bswap(o2);
  out[w + 3] = in[w + 3] ^ r_bswap(o3);
}

/* ---- Miller-Rabin, 32-bit -------------------------------------------------------------------
 * n = first + 2 i is odd and below 2^31 (so that the Montgomery sums stay
 * below 2^64); bases 2, 7 and 61 decide every n below 4759123141. Montgomery
 * form with R = 2^32: mm(a, b) = a b / R mod n. */
SP_FN uint r_mm(uint a, uint b, uint n, uint ninv) {
  const ulong t = (ulong)a * b;
  const uint m = (uint)t * ninv;
  const ulong u = (t + (ulong)m * n) >> 32;
  return u >= n ? (uint)(u - n) : (uint)u;
}

/* Whether base a proves n composite. */
SP_FN int r_witness(uint a, uint n, uint d, int s, uint ninv, uint one, uint r2) {
  uint x = one, p = r_mm(a, r2, n, ninv);
  for (uint e = d; e != 0; e >>= 1) {
    if (e & 1u) x = r_mm(x, p, n, ninv);
    p = r_mm(p, p, n, ninv);
  }
  const uint minus1 = n - one;
  if (x == one || x == minus1) return 0;
  for (int i = 1; i < s; ++i) {
    x = r_mm(x, x, n, ninv);
    if (x == minus1) return 0;
  }
  return 1;
}

SP_KERNEL void r_miller_rabin_u32(SP_GLOBAL uint *SP_RESTRICT prime, uint first, int count) {
  const int i = SP_GID(0);
  if (i >= count) return;
  const uint n = first + 2u * (uint)i;
  uint inv = n; /* n^-1 mod 2^32 by Newton's iteration: 3, 6, 12, 24, 48 bits */
  for (int k = 0; k < 4; ++k) inv *= 2u - n * inv;
  const uint ninv = 0u - inv, one = (uint)(((ulong)1 << 32) % n);
  const uint r2 = (uint)((ulong)one * one % n);
  uint d = n - 1u;
  int s = 0;
  while ((d & 1u) == 0) {
    d >>= 1;
    ++s;
  }
  prime[i] = !r_witness(2u, n, d, s, ninv, one, r2) && !r_witness(7u, n, d, s, ninv, one, r2) &&
             !r_witness(61u, n, d, s, ninv, one, r2);
}

/* ---- IPv4 longest-prefix match in a binary trie ---------------------------------------------
 * Node i is (child 0, child 1, next hop) at node[3 i]; a child 0 means none
 * (the root, node 0, is nobody's child), a next hop LPM_NONE means the node
 * ends no prefix. The walk follows the address's bits from the top and keeps
 * the last next hop it passed. */
#define LPM_NONE 0xffffffffu

SP_KERNEL void r_lpm_trie_lookup(SP_GLOBAL const uint *SP_RESTRICT node,
                                 SP_GLOBAL const uint *SP_RESTRICT addr,
                                 SP_GLOBAL uint *SP_RESTRICT hop, int n, uint dflt) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const uint a = addr[i];
  uint best = dflt, cur = 0;
  for (int bit = 31;; --bit) {
    const uint h = node[3 * cur + 2];
    if (h != LPM_NONE) best = h;
    if (bit < 0) break;
    const uint next = node[3 * cur + (a >> bit & 1u)];
    if (next == 0) break;
    cur = next;
  }
  hop[i] = best;
}
