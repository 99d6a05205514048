/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irr.cl: database, graph, sketching, cryptography and compression kernels
 * for the sixth validation suite (host half: irr.c): cuckoo hash probes, a
 * product-quantisation ADC scan, a HyperLogLog sketch, a confusion matrix,
 * voxel-grid downsampling, edge Jaccard similarity, ChaCha20 and LEB128
 * varint decoding.  Written for this suite, independently of
 * the core suite and the earlier validation suites. */
#include "sp_dev.h"

/* ---- cuckoo hash probes -------------------------------------------------------------
 * table holds (key, value) word pairs per bucket, key 0 empty; a key lives
 * in bucket h1 or h2.  Misses give 0xffffffff.  A work-item per probe. */
SP_KERNEL void q_cuckoo_probe(SP_GLOBAL const uint *SP_RESTRICT table,
                              SP_GLOBAL const uint *SP_RESTRICT keys,
                              SP_GLOBAL uint *SP_RESTRICT out, int n, uint mask) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const uint k = keys[i];
  const uint b1 = sp_fmix32(k) & mask, b2 = sp_fmix32(k ^ 0x9e3779b9u) & mask;
  uint v = 0xffffffffu;
  if (table[2 * b1] == k)
    v = table[2 * b1 + 1];
  else if (table[2 * b2] == k)
    v = table[2 * b2 + 1];
  out[i] = v;
}

/* ---- product-quantisation ADC scan ------------------------------------------------------
 * Each database vector is PQ_M one-byte codes (four words); its distance to
 * the query is the sum of PQ_M entries of the query's distance table (PQ_M x
 * 256 floats, staged in local memory), added in order m = 0..PQ_M-1. */
#define PQ_M 16

SP_KERNEL void q_pq_adc_scan(SP_GLOBAL const uint *SP_RESTRICT codes,
                             SP_GLOBAL const float *SP_RESTRICT lut,
                             SP_GLOBAL float *SP_RESTRICT dist, int n) {
  SP_LOCAL float tab[PQ_M * 256];
  const int t = SP_LID(0), i = SP_GID(0);
  for (int k = t; k < PQ_M * 256; k += SP_LSIZE(0)) tab[k] = lut[k];
  SP_BARRIER();
  if (i >= n) return;
  uint w[4];
  for (int k = 0; k < 4; ++k) w[k] = codes[4 * (long)i + k];
  float d = 0.0f;
  for (int m = 0; m < PQ_M; ++m) d += tab[m * 256 + (int)((w[m / 4] >> (8 * (m % 4))) & 255u)];
  dist[i] = d;
}

/* ---- HyperLogLog sketch --------------------------------------------------------------------
 * The top HL_P bits of an item's hash pick a register; the register keeps the
 * largest rank (1 + leading zeros of the other bits, at most 33 - HL_P) by
 * a global atomic max. */
#define HL_P 14

SP_KERNEL void q_hll_sketch(SP_GLOBAL const uint *SP_RESTRICT items,
                            SP_GLOBAL uint *SP_RESTRICT regs, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const uint h = sp_fmix32(items[i]);
  uint rest = h << HL_P, rank = 1;
  while (rank <= 32 - HL_P && (rest & 0x80000000u) == 0) {
    rest <<= 1;
    ++rank;
  }
  SP_ATOMIC_MAX(regs + (h >> (32 - HL_P)), rank);
}

/* ---- confusion matrix ------------------------------------------------------------------------
 * One global atomic per (prediction, label) pair on classes^2 counters. */
SP_KERNEL void q_confusion_matrix(SP_GLOBAL const uchar *SP_RESTRICT pred,
                                  SP_GLOBAL const uchar *SP_RESTRICT label,
                                  SP_GLOBAL uint *SP_RESTRICT cm, int n, int classes) {
  const int i = SP_GID(0);
  if (i >= n) return;
  SP_ATOMIC_ADD(cm + (int)label[i] * classes + (int)pred[i], 1u);
}

/* ---- voxel-grid downsampling
 * --------------------------------------------------------------------- Each point (x, y, z in [0,
 * 1)) adds 1 to its voxel's count and its coordinates in 16.16 fixed point to the voxel's sums, by
 * global atomics; points arrive in scan order, so neighbours share voxels. */
SP_KERNEL void q_voxel_downsample(SP_GLOBAL const float *SP_RESTRICT pts,
                                  SP_GLOBAL uint *SP_RESTRICT cnt, SP_GLOBAL uint *SP_RESTRICT sum,
                                  int n, int dim) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const float x = pts[3 * (long)i], y = pts[3 * (long)i + 1], z = pts[3 * (long)i + 2];
  const int vx = min((int)(x * (float)dim), dim - 1), vy = min((int)(y * (float)dim), dim - 1);
  const int vz = min((int)(z * (float)dim), dim - 1);
  const int v = (vz * dim + vy) * dim + vx;
  SP_ATOMIC_ADD(cnt + v, 1u);
  SP_ATOMIC_ADD(sum + 3 * v, (uint)(x * 65536.0f));
  SP_ATOMIC_ADD(sum + 3 * v + 1, (uint)(y * 65536.0f));
  SP_ATOMIC_ADD(sum + 3 * v + 2, (uint)(z * 65536.0f));
}

/* ---- Jaccard similarity of edges
 * ------------------------------------------------------------------ Edge e goes from src[e] to
 * adj[e] (CSR, sorted lists): |N(u) & N(v)| by a merge of the two lists, then inter / (du + dv -
 * inter).  A work-item per edge, so edges at hubs take far longer. */
SP_KERNEL void q_jaccard_edges(SP_GLOBAL const int *SP_RESTRICT rowptr,
                               SP_GLOBAL const int *SP_RESTRICT adj,
                               SP_GLOBAL const int *SP_RESTRICT src,
                               SP_GLOBAL float *SP_RESTRICT out, int nedges) {
  const int e = SP_GID(0);
  if (e >= nedges) return;
  const int u = src[e], v = adj[e];
  int a = rowptr[u], ae = rowptr[u + 1], b = rowptr[v], be = rowptr[v + 1];
  const int du = ae - a, dv = be - b;
  int inter = 0;
  while (a < ae && b < be) {
    const int x = adj[a], y = adj[b];
    inter += x == y;
    a += x <= y;
    b += y <= x;
  }
  out[e] = (float)inter / (float)(du + dv - inter);
}

/* ---- ChaCha20
 * ---------------------------------------------------------------------------------------- RFC
 * 8439: 16-word state (constants, 256-bit key, block counter, 96-bit nonce), 10 double rounds,
 * keystream xor the plaintext.  A work-item per 64-byte block (counter = 1 + block). */
#define CC_QR(a, b, c, d)   \
  do {                      \
    a += b;                 \
    d = SP_ROTL(d ^ a, 16); \
    c += d;                 \
    b = SP_ROTL(b ^ c, 12); \
    a += b;                 \
    d = SP_ROTL(d ^ a, 8);  \
    c += d;                 \
    b = SP_ROTL(b ^ c, 7);  \
  } while (0)

SP_KERNEL void q_chacha20_xor(SP_GLOBAL const uint *SP_RESTRICT in, SP_GLOBAL uint *SP_RESTRICT out,
                              SP_GLOBAL const uint *SP_RESTRICT key, uint n0, uint n1, uint n2,
                              int nblocks) {
  const int blk = SP_GID(0);
  if (blk >= nblocks) return;
  uint s[16];
  s[0] = 0x61707865u;
  s[1] = 0x3320646eu;
  s[2] = 0x79622d32u;
  s[3] = 0x6b206574u;
  for (int k = 0; k < 8; ++k) s[4 + k] = key[k];
  s[12] = (uint)blk + 1u;
  s[13] = n0;
  s[14] = n1;
  s[15] = n2;
  uint x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4], x5 = s[5], x6 = s[6], x7 = s[7];
  uint x8 = s[8], x9 = s[9], x10 = s[10], x11 = s[11], x12 = s[12], x13 = s[13], x14 = s[14],
       x15 = s[15];
  for (int r = 0; r < 10; ++r) {
    CC_QR(x0, x4, x8, x12);
    CC_QR(x1, x5, x9, x13);
    CC_QR(x2, x6, x10, x14);
    CC_QR(x3, x7, x11, x15);
    CC_QR(x0, x5, x10, x15);
    CC_QR(x1, x6, x11, x12);
    CC_QR(x2, x7, x8, x13);
    CC_QR(x3, x4, x9, x14);
  }
  SP_GLOBAL const uint *p = in + 16 * (long)blk;
  SP_GLOBAL uint *o = out + 16 * (long)blk;
  o[0] = p[0] ^ (x0 + s[0]);
  o[1] = p[1] ^ (x1 + s[1]);
  o[2] = p[2] ^ (x2 + s[2]);
  o[3] = p[3] ^ (x3 + s[3]);
  o[4] = p[4] ^ (x4 + s[4]);
  o[5] = p[5] ^ (x5 + s[5]);
  o[6] = p[6] ^ (x6 + s[6]);
  o[7] = p[7] ^ (x7 + s[7]);
  o[8] = p[8] ^ (x8 + s[8]);
  o[9] = p[9] ^ (x9 + s[9]);
  o[10] = p[10] ^ (x10 + s[10]);
  o[11] = p[11] ^ (x11 + s[11]);
  o[12] = p[12] ^ (x12 + s[12]);
  o[13] = p[13] ^ (x13 + s[13]);
  o[14] = p[14] ^ (x14 + s[14]);
  o[15] = p[15] ^ (x15 + s[15]);
}

/* ---- LEB128 varint decoding of postings
 * ------------------------------------------------------------ Block b's VI_B deltas start at byte
 * boff[b]; 7 bits per byte, the high bit set on all but a value's last byte.  The running sum
 * (document ids) is written out.  A work-item per block: a chain of dependent byte loads. */
#define VI_B 128

SP_KERNEL void q_varint_decode(SP_GLOBAL const uchar *SP_RESTRICT bytes,
                               SP_GLOBAL const uint *SP_RESTRICT boff,
                               SP_GLOBAL uint *SP_RESTRICT out, int nblocks) {
  const int b = SP_GID(0);
  if (b >= nblocks) return;
  uint p = boff[b], acc = 0;
  SP_GLOBAL uint *o = out + (long)b * VI_B;
  for (int k = 0; k < VI_B; ++k) {
    uint v = 0, sh = 0, c;
    do {
      c = bytes[p++];
      v |= (c & 127u) << sh;
      sh += 7;
    } while (c & 128u);
    acc += v;
    o[k] = acc;
  }
}
