/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.cl: database, text, compression, hashing, vision and imaging kernels
 * for the fifth validation suite (host half: irr.c): a TPC-H Q6 scan, a
 * hash GROUP BY aggregation, RANSAC inlier counting, frame-of-reference
 * bit-unpacking, base64 decoding, gear-hash content-defined chunking,
 * SHA3-256 and RGBA to NV12 conversion.  Written for this suite,
 * independently of the core suite and the earlier validation suites. */
#include "sp_dev.h"

/* ---- TPC-H Q6 ------------------------------------------------------------------
 * sum(price * discount) over rows with ship date in [d0, d0 + 365), discount
 * in [5, 7] (percent) and quantity < 24, four 4-byte columns.  Each
 * 256-wide group scans Q6_PER x 256 consecutive rows (coalesced), reduces
 * 64-bit partial sums in local memory and writes one partial. */
#define Q6_T 256
#define Q6_PER 4

SP_KERNEL void z_tpch_q6(SP_GLOBAL const int *SP_RESTRICT date,
                         SP_GLOBAL const uint *SP_RESTRICT disc,
                         SP_GLOBAL const uint *SP_RESTRICT qty,
                         SP_GLOBAL const uint *SP_RESTRICT price, SP_GLOBAL ulong *SP_RESTRICT part,
                         int d0) {
  SP_LOCAL ulong red[Q6_T];
  const int t = SP_LID(0);
  const long base = (long)SP_GRP(0) * Q6_T * Q6_PER;
  ulong acc = 0;
  for (int k = 0; k < Q6_PER; ++k) {
    const long i = base + k * Q6_T + t;
    const int dt = date[i];
    const uint ds = disc[i];
    if (dt >= d0 && dt < d0 + 365 && ds >= 5u && ds <= 7u && qty[i] < 24u)
      acc += (ulong)price[i] * ds;
  }
  red[t] = acc;
  SP_SUM(red, t, Q6_T);
  if (t == 0) part[SP_GRP(0)] = red[0];
}

/* ---- hash GROUP BY ------------------------------------------------------------------
 * count(*) and sum(val) per key into an open-addressing table (linear
 * probing, keys claimed by compare-and-swap); the keys are skewed, so the
 * hottest slots take a large share of the atomics. */
#define GB_EMPTY 0xffffffffu

SP_KERNEL void z_groupby_agg(SP_GLOBAL const uint *SP_RESTRICT key,
                             SP_GLOBAL const uint *SP_RESTRICT val,
                             SP_GLOBAL uint *SP_RESTRICT slot_key, SP_GLOBAL uint *SP_RESTRICT cnt,
                             SP_GLOBAL uint *SP_RESTRICT sum, int rows, int slots) {
  const int i = SP_GID(0);
  if (i >= rows) return;
  const uint k = key[i];
  int h = (int)(sp_lowbias32(k) & (uint)(slots - 1));
  for (;;) {
    const uint cur = slot_key[h];
    if (cur == k) break;
    if (cur == GB_EMPTY) {
      const uint prev = SP_ATOMIC_CAS(&slot_key[h], GB_EMPTY, k);
      if (prev == GB_EMPTY || prev == k) break;
    }
    h = (h + 1) & (slots - 1);
  }
  SP_ATOMIC_ADD(&cnt[h], 1u);
  SP_ATOMIC_ADD(&sum[h], val[i]);
}

/* ---- RANSAC inlier counting ------------------------------------------------------------
 * Every point against RS_H line hypotheses a x + b y + c = 0 (unit
 * normals): an inlier adds one to its hypothesis' counter, a global atomic
 * on one of RS_H words. */
#define RS_H 8

SP_KERNEL void z_ransac_inliers(SP_GLOBAL const float *SP_RESTRICT pts,
                                SP_GLOBAL const float *SP_RESTRICT lines,
                                SP_GLOBAL uint *SP_RESTRICT count, int n, float thr) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const float x = pts[2 * i], y = pts[2 * i + 1];
  for (int h = 0; h < RS_H; ++h) {
    const float dist = SP_FMAF(lines[3 * h], x, SP_FMAF(lines[3 * h + 1], y, lines[3 * h + 2]));
    if (SP_FABSF(dist) < thr) SP_ATOMIC_ADD(&count[h], 1u);
  }
}

/* ---- frame-of-reference bit-unpacking ---------------------------------------------------
 * Values packed UP_BITS bits each, little-endian across 32-bit words, with a
 * base per block of UP_BLOCK values: out[i] = base[i / UP_BLOCK] + field i.
 * A work-item per value (a field may straddle two words). */
#define UP_BITS 7
#define UP_BLOCK 128

SP_KERNEL void z_bitunpack7(SP_GLOBAL const uint *SP_RESTRICT packed,
                            SP_GLOBAL const uint *SP_RESTRICT base, SP_GLOBAL uint *SP_RESTRICT out,
                            int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const long bit = (long)i * UP_BITS;
  const long w = bit >> 5;
  const int sh = (int)(bit & 31);
  uint v = packed[w] >> sh;
  if (sh > 32 - UP_BITS) v |= packed[w + 1] << (32 - sh);
  out[i] = base[i / UP_BLOCK] + (v & ((1u << UP_BITS) - 1u));
}

/* ---- base64 decoding ----------------------------------------------------------------------
 * 16 characters (four words) to 12 bytes (three words) per work-item, the
 * 256-entry decoding table in local memory. */
#define B64_T 256

SP_KERNEL void z_base64_decode(SP_GLOBAL const uint *SP_RESTRICT text,
                               SP_GLOBAL const uint *SP_RESTRICT table,
                               SP_GLOBAL uint *SP_RESTRICT out, int quads) {
  SP_LOCAL uchar dec[256];
  const int t = SP_LID(0), q = SP_GID(0);
  dec[t] = (uchar)(table[t / 4] >> (8 * (t % 4)));
  SP_BARRIER();
  if (q >= quads) return;
  uint bytes[12];
  for (int w = 0; w < 4; ++w) {
    const uint c = text[4L * q + w];
    const uint bits = ((uint)dec[c & 255u] << 18) | ((uint)dec[(c >> 8) & 255u] << 12) |
                      ((uint)dec[(c >> 16) & 255u] << 6) | (uint)dec[c >> 24];
    bytes[3 * w] = bits >> 16;
    bytes[3 * w + 1] = (bits >> 8) & 255u;
    bytes[3 * w + 2] = bits & 255u;
  }
  for (int w = 0; w < 3; ++w)
    out[3L * q + w] = bytes[4 * w] | (bytes[4 * w + 1] << 8) | (bytes[4 * w + 2] << 16) |
                      (bytes[4 * w + 3] << 24);
}

/* ---- gear-hash content-defined chunking ----------------------------------------------------
 * h = (h << 1) + gear[byte] over the text; a chunk boundary wherever the
 * bits of CDC_MASK are all zero (8 KB chunks on average).  The hash at a
 * position depends only on the 32 bytes before it, so each work-item
 * re-hashes the 32 bytes before its CDC_SLICE-byte slice and writes the
 * slice's boundary bits (CDC_SLICE / 32 words). */
#define CDC_SLICE 256
#define CDC_MASK 0x1fffu

SP_KERNEL void z_gear_cdc(SP_GLOBAL const uint *SP_RESTRICT text,
                          SP_GLOBAL const uint *SP_RESTRICT gear, SP_GLOBAL uint *SP_RESTRICT marks,
                          int slices) {
  SP_LOCAL uint g[256];
  const int t = SP_LID(0), s = SP_GID(0);
  g[t] = gear[t];
  SP_BARRIER();
  if (s >= slices) return;
  const long w0 = (long)s * (CDC_SLICE / 4);
  uint h = 0u;
  if (s > 0)
    for (long w = w0 - 8; w < w0; ++w) {
      const uint c = text[w];
      for (int b = 0; b < 4; ++b) h = (h << 1) + g[(c >> (8 * b)) & 255u];
    }
  for (int m = 0; m < CDC_SLICE / 32; ++m) {
    uint bits = 0u;
    for (int w = 0; w < 8; ++w) {
      const uint c = text[w0 + m * 8 + w];
      for (int b = 0; b < 4; ++b) {
        h = (h << 1) + g[(c >> (8 * b)) & 255u];
        if ((h & CDC_MASK) == 0u) bits |= 1u << (4 * w + b);
      }
    }
    marks[(long)s * (CDC_SLICE / 32) + m] = bits;
  }
}

/* ---- SHA3-256 ----------------------------------------------------------------------------
 * Keccak-f[1600] sponge, rate 136 bytes: a work-item per message of
 * SHA3_BLOCKS already padded blocks (17 lanes each), the 25 lanes in
 * registers; the round constants in local memory; 4 lanes of digest. */
#define SHA3_BLOCKS 8

SP_FN ulong z_rotl64(ulong x, int n) { return (x << n) | (x >> (64 - n)); }

SP_KERNEL void z_sha3_keccak(SP_GLOBAL const ulong *SP_RESTRICT msg,
                             SP_GLOBAL const ulong *SP_RESTRICT rc,
                             SP_GLOBAL ulong *SP_RESTRICT digest, int n) {
  SP_LOCAL ulong RC[24];
  const int t = SP_LID(0), m = SP_GID(0);
  if (t < 24) RC[t] = rc[t];
  SP_BARRIER();
  if (m >= n) return;
  SP_GLOBAL const ulong *p = msg + (long)m * 17 * SHA3_BLOCKS;
  ulong a00 = 0, a01 = 0, a02 = 0, a03 = 0, a04 = 0, a05 = 0, a06 = 0, a07 = 0, a08 = 0, a09 = 0;
  ulong a10 = 0, a11 = 0, a12 = 0, a13 = 0, a14 = 0, a15 = 0, a16 = 0, a17 = 0, a18 = 0, a19 = 0;
  ulong a20 = 0, a21 = 0, a22 = 0, a23 = 0, a24 = 0;
  for (int blk = 0; blk < SHA3_BLOCKS; ++blk, p += 17) {
    a00 ^= p[0];
    a01 ^= p[1];
    a02 ^= p[2];
    a03 ^= p[3];
    a04 ^= p[4];
    a05 ^= p[5];
    a06 ^= p[6];
    a07 ^= p[7];
    a08 ^= p[8];
    a09 ^= p[9];
    a10 ^= p[10];
    a11 ^= p[11];
    a12 ^= p[12];
    a13 ^= p[13];
    a14 ^= p[14];
    a15 ^= p[15];
    a16 ^= p[16];
    for (int r = 0; r < 24; ++r) {
      /* theta */
      const ulong c0 = a00 ^ a05 ^ a10 ^ a15 ^ a20, c1 = a01 ^ a06 ^ a11 ^ a16 ^ a21;
      const ulong c2 = a02 ^ a07 ^ a12 ^ a17 ^ a22, c3 = a03 ^ a08 ^ a13 ^ a18 ^ a23;
      const ulong c4 = a04 ^ a09 ^ a14 ^ a19 ^ a24;
      const ulong d0 = c4 ^ z_rotl64(c1, 1), d1 = c0 ^ z_rotl64(c2, 1), d2 = c1 ^ z_rotl64(c3, 1);
      const ulong d3 = c2 ^ z_rotl64(c4, 1), d4 = c3 ^ z_rotl64(c0, 1);
      /* rho and pi: b[y][2x+3y] = rot(a[x][y]) (lane index x + 5 y) */
      const ulong b00 = a00 ^ d0;
      const ulong b10 = z_rotl64(a01 ^ d1, 1);
      const ulong b20 = z_rotl64(a02 ^ d2, 62);
      const ulong b05 = z_rotl64(a03 ^ d3, 28);
      const ulong b15 = z_rotl64(a04 ^ d4, 27);
      const ulong b16 = z_rotl64(a05 ^ d0, 36);
      const ulong b01 = z_rotl64(a06 ^ d1, 44);
      const ulong b11 = z_rotl64(a07 ^ d2, 6);
      const ulong b21 = z_rotl64(a08 ^ d3, 55);
      const ulong b06 = z_rotl64(a09 ^ d4, 20);
      const ulong b07 = z_rotl64(a10 ^ d0, 3);
      const ulong b17 = z_rotl64(a11 ^ d1, 10);
      const ulong b02 = z_rotl64(a12 ^ d2, 43);
      const ulong b12 = z_rotl64(a13 ^ d3, 25);
      const ulong b22 = z_rotl64(a14 ^ d4, 39);
      const ulong b23 = z_rotl64(a15 ^ d0, 41);
      const ulong b08 = z_rotl64(a16 ^ d1, 45);
      const ulong b18 = z_rotl64(a17 ^ d2, 15);
      const ulong b03 = z_rotl64(a18 ^ d3, 21);
      const ulong b13 = z_rotl64(a19 ^ d4, 8);
      const ulong b14 = z_rotl64(a20 ^ d0, 18);
      const ulong b24 = z_rotl64(a21 ^ d1, 2);
      const ulong b09 = z_rotl64(a22 ^ d2, 61);
      const ulong b19 = z_rotl64(a23 ^ d3, 56);
      const ulong b04 = z_rotl64(a24 ^ d4, 14);
      /* chi and iota */
      a00 = b00 ^ (~b01 & b02) ^ RC[r];
      a01 = b01 ^ (~b02 & b03);
      a02 = b02 ^ (~b03 & b04);
      a03 = b03 ^ (~b04 & b00);
      a04 = b04 ^ (~b00 & b01);
      a05 = b05 ^ (~b06 & b07);
      a06 = b06 ^ (~b07 & b08);
      a07 = b07 ^ (~b08 & b09);
      a08 = b08 ^ (~b09 & b05);
      a09 = b09 ^ (~b05 & b06);
      a10 = b10 ^ (~b11 & b12);
      a11 = b11 ^ (~b12 & b13);
      a12 = b12 ^ (~b13 & b14);
      a13 = b13 ^ (~b14 & b10);
      a14 = b14 ^ (~b10 & b11);
      a15 = b15 ^ (~b16 & b17);
      a16 = b16 ^ (~b17 & b18);
      a17 = b17 ^ (~b18 & b19);
      a18 = b18 ^ (~b19 & b15);
      a19 = b19 ^ (~b15 & b16);
      a20 = b20 ^ (~b21 & b22);
      a21 = b21 ^ (~b22 & b23);
      a22 = b22 ^ (~b23 & b24);
      a23 = b23 ^ (~b24 & b20);
      a24 = b24 ^ (~b20 & b21);
    }
  }
  digest[4L * m] = a00;
  digest[4L * m + 1] = a01;
  digest[4L * m + 2] = a02;
  digest[4L * m + 3] = a03;
}

/* ---- RGBA to NV12 --------------------------------------------------------------------------
 * BT.601 limited range in integers: a work-item per 2x2 block writes four
 * luma bytes and the block's interleaved (U, V) pair from the averaged
 * colour. */
SP_KERNEL void z_rgb_nv12(SP_GLOBAL const uint *SP_RESTRICT rgba, SP_GLOBAL uchar *SP_RESTRICT luma,
                          SP_GLOBAL uchar *SP_RESTRICT chroma, int w, int h) {
  const int bx = SP_GID(0), by = SP_GID(1), f = SP_GID(2);
  if (bx >= w / 2 || by >= h / 2) return;
  SP_GLOBAL const uint *src = rgba + (long)f * w * h;
  SP_GLOBAL uchar *yp = luma + (long)f * w * h;
  int sr = 0, sg = 0, sb = 0;
  for (int dy = 0; dy < 2; ++dy)
    for (int dx = 0; dx < 2; ++dx) {
      const long at = (long)(2 * by + dy) * w + 2 * bx + dx;
      const uint p = src[at];
      const int r = (int)(p & 255u), g = (int)((p >> 8) & 255u), b = (int)((p >> 16) & 255u);
      yp[at] = (uchar)(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
      sr += r;
      sg += g;
      sb += b;
    }
  const int r = (sr + 2) >> 2, g = (sg + 2) >> 2, b = (sb + 2) >> 2;
  SP_GLOBAL uchar *uv = chroma + (long)f * (w * h / 2) + (long)by * w + 2 * bx;
  uv[0] = (uchar)((-38 * r - 74 * g + 112 * b + 128 + 32768) >> 8);
  uv[1] = (uchar)((112 * r - 94 * g - 18 * b + 128 + 32768) >> 8);
}
