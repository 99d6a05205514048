/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream.cl: streaming kernels of the ninth validation suite (host half:
 * stream.c): G.711 mu-law decoding, NeRF ray generation, rsync's weak
 * block checksums, ZFS's fletcher-4 over few records, JPEG's integer
 * forward DCT with quantisation, and mean pooling of jagged segments.
 * Written for this suite, independently of the core suite and the
 * earlier validation suites. */
#include "sp_dev.h"

/* ---- G.711 mu-law decoding ----------------------------------------------------------------------
 * Each byte is a complemented sign / 3-bit segment / 4-bit step code; the
 * 16-bit linear sample is ((step << 3) + 0x84) << segment, less the bias
 * 0x84, negated for the sign bit.  A work-item decodes four bytes (1-byte
 * loads) into four 16-bit samples (2-byte stores). */
SP_FN int t_ulaw(uint u) {
  u = ~u & 0xFFu;
  const int t = (int)((((u & 0x0Fu) << 3) + 0x84u) << ((u & 0x70u) >> 4));
  return (u & 0x80u) ? 0x84 - t : t - 0x84;
}

SP_KERNEL void t_mulaw_decode_g711(SP_GLOBAL const uchar *SP_RESTRICT in,
                                   SP_GLOBAL short *SP_RESTRICT out, int nquads) {
  const int q = SP_GID(0);
  if (q >= nquads) return;
  for (int k = 0; k < 4; ++k) out[4 * (long)q + k] = (short)t_ulaw(in[4 * (long)q + k]);
}

/* ---- NeRF ray generation ------------------------------------------------------------------------
 * Camera c (cam[16 c ..]: a camera-to-world rotation R (row-major 3 x 3), its
 * centre t, then fx, fy, cx, cy) casts a ray through the centre of each of
 * its w x h pixels: direction R (i + 1/2 - cx) / fx, -(j + 1/2 - cy) / fy, -1)
 * (the OpenGL camera of NeRF's get_rays), normalised.  Each ray is stored as
 * origin then direction, six floats: a write-only stream. */
SP_KERNEL void t_nerf_ray_gen(SP_GLOBAL const float *SP_RESTRICT cam,
                              SP_GLOBAL float *SP_RESTRICT rays, int w, int h, int ncam) {
  const int g = SP_GID(0), npix = w * h;
  if (g >= npix * ncam) return;
  SP_GLOBAL const float *p = cam + 16 * (g / npix);
  const int pix = g % npix, i = pix % w, j = pix / w;
  const float dx = ((float)i + 0.5f - p[14]) / p[12], dy = -((float)j + 0.5f - p[15]) / p[13];
  const float rx = p[0] * dx + p[1] * dy - p[2], ry = p[3] * dx + p[4] * dy - p[5];
  const float rz = p[6] * dx + p[7] * dy - p[8];
  const float inv = 1.0f / SP_SQRTF(rx * rx + ry * ry + rz * rz);
  SP_GLOBAL float *o = rays + 6 * (long)g;
  o[0] = p[9];
  o[1] = p[10];
  o[2] = p[11];
  o[3] = rx * inv;
  o[4] = ry * inv;
  o[5] = rz * inv;
}

/* ---- rsync's weak block checksum ----------------------------------------------------------------
 * rsync's get_checksum1 over each RS_B-byte block of a file, bytes taken as
 * signed: s1 = sum x_i, s2 = sum (RS_B - i) x_i (mod 2^32), checksum =
 * (s1 & 0xffff) + (s2 << 16).  A group of RS_G per block reads it as 4-byte
 * words (consecutive work-items on consecutive words), then sums s1 and s2
 * in local memory: a read-only stream. */
#define RS_B 2048
#define RS_G 128

SP_KERNEL SP_BOUNDS(RS_G) void t_rsync_block_sums(SP_GLOBAL const uint *SP_RESTRICT data,
                                                 SP_GLOBAL uint *SP_RESTRICT sums) {
  SP_LOCAL uint l1[RS_G], l2[RS_G];
  const int t = SP_LID(0);
  SP_GLOBAL const uint *w = data + (long)SP_GRP(0) * (RS_B / 4);
  uint s1 = 0u, s2 = 0u;
  for (int q = 0; q < RS_B / 4 / RS_G; ++q) {
    const int wi = t + q * RS_G;
    const uint word = w[wi];
    for (int k = 0; k < 4; ++k) {
      const uint x = (((word >> (8 * k)) & 0xFFu) ^ 0x80u) - 0x80u; /* sign-extended */
      s1 += x;
      s2 += (uint)(RS_B - 4 * wi - k) * x;
    }
  }
  l1[t] = s1;
  l2[t] = s2;
  SP_BARRIER();
  for (int s = RS_G / 2; s > 0; s >>= 1) {
    if (t < s) {
      l1[t] += l1[t + s];
      l2[t] += l2[t + s];
    }
    SP_BARRIER();
  }
  if (t == 0) sums[SP_GRP(0)] = (l1[0] & 0xFFFFu) + (l2[0] << 16);
}

/* ---- ZFS fletcher-4 -----------------------------------------------------------------------------
 * ZFS's fletcher-4 of a record of n 32-bit words: a += w, b += a, c += b,
 * d += c in order (mod 2^64).  Unrolled, word i (from 0) adds to them w,
 * m w, m (m + 1) / 2 w and m (m + 1) (m + 2) / 6 w with m = n - i, so a group
 * of FL_G per record takes the words in any order (consecutive work-items
 * on consecutive words) and sums the four in local memory.  out gets a, b,
 * c, d per record as pairs of 32-bit words, low first. */
#define FL_G 1024

SP_KERNEL SP_BOUNDS(FL_G) void t_zfs_fletcher4_96(SP_GLOBAL const uint *SP_RESTRICT data,
                                                 SP_GLOBAL uint *SP_RESTRICT out, int n) {
  SP_LOCAL ulong la[FL_G], lb[FL_G], lc[FL_G], ld[FL_G];
  const int t = SP_LID(0);
  SP_GLOBAL const uint *w = data + (long)SP_GRP(0) * n;
  ulong a = 0, b = 0, c = 0, d = 0;
  for (int i = t; i < n; i += FL_G) {
    const ulong x = w[i], m = (ulong)(n - i);
    const ulong cm = m * (m + 1) / 2, dm = cm * (m + 2) / 3;
    a += x;
    b += m * x;
    c += cm * x;
    d += dm * x;
  }
  la[t] = a;
  lb[t] = b;
  lc[t] = c;
  ld[t] = d;
  SP_BARRIER();
  for (int s = FL_G / 2; s > 0; s >>= 1) {
    if (t < s) {
      la[t] += la[t + s];
      lb[t] += lb[t + s];
      lc[t] += lc[t + s];
      ld[t] += ld[t + s];
    }
    SP_BARRIER();
  }
  if (t < 4) {
    const ulong v = t == 0 ? la[0] : t == 1 ? lb[0] : t == 2 ? lc[0] : ld[0];
    out[8 * (long)SP_GRP(0) + 2 * t] = (uint)v;
    out[8 * (long)SP_GRP(0) + 2 * t + 1] = (uint)(v >> 32);
  }
}

/* ---- JPEG forward DCT and quantisation ----------------------------------------------------------
 * libjpeg's accurate integer DCT (the Loeffler-Ligtenberg-Moschytz
 * factorisation, 13-bit constants, 2 extra bits between the passes) of each
 * 8 x 8 block of an 8-bit image, level-shifted by 128, rows then columns;
 * the coefficients (8 times the true DCT) are divided by 8 q[k] with
 * rounding, as libjpeg's forward_DCT does, and stored as 16-bit values in
 * natural order.  A work-item per block. */
#define JP_CB 13
#define JP_P1 2
#define JP_DESCALE(x, n) (((x) + (1 << ((n)-1))) >> (n))

SP_FN void t_fdct8(int *p, int st, int pass) {
  const int tmp0 = p[0] + p[7 * st], tmp7 = p[0] - p[7 * st];
  const int tmp1 = p[st] + p[6 * st], tmp6 = p[st] - p[6 * st];
  const int tmp2 = p[2 * st] + p[5 * st], tmp5 = p[2 * st] - p[5 * st];
  const int tmp3 = p[3 * st] + p[4 * st], tmp4 = p[3 * st] - p[4 * st];
  const int tmp10 = tmp0 + tmp3, tmp13 = tmp0 - tmp3, tmp11 = tmp1 + tmp2, tmp12 = tmp1 - tmp2;
  const int sh = pass == 0 ? JP_CB - JP_P1 : JP_CB + JP_P1;
  if (pass == 0) {
    p[0] = (tmp10 + tmp11) << JP_P1;
    p[4 * st] = (tmp10 - tmp11) << JP_P1;
  } else {
    p[0] = JP_DESCALE(tmp10 + tmp11, JP_P1);
    p[4 * st] = JP_DESCALE(tmp10 - tmp11, JP_P1);
  }
  const int z1 = (tmp12 + tmp13) * 4433;
  p[2 * st] = JP_DESCALE(z1 + tmp13 * 6270, sh);
  p[6 * st] = JP_DESCALE(z1 - tmp12 * 15137, sh);
  const int z5 = (tmp4 + tmp6 + tmp5 + tmp7) * 9633;
  const int o1 = -(tmp4 + tmp7) * 7373, o2 = -(tmp5 + tmp6) * 20995;
  const int o3 = -(tmp4 + tmp6) * 16069 + z5, o4 = -(tmp5 + tmp7) * 3196 + z5;
  p[7 * st] = JP_DESCALE(tmp4 * 2446 + o1 + o3, sh);
  p[5 * st] = JP_DESCALE(tmp5 * 16819 + o2 + o4, sh);
  p[3 * st] = JP_DESCALE(tmp6 * 25172 + o2 + o3, sh);
  p[st] = JP_DESCALE(tmp7 * 12299 + o1 + o4, sh);
}

SP_KERNEL void t_jpeg_fdct_quant(SP_GLOBAL const uchar *SP_RESTRICT img,
                                 SP_GLOBAL const int *SP_RESTRICT qt,
                                 SP_GLOBAL short *SP_RESTRICT coef, int width, int nblocks) {
  const int b = SP_GID(0);
  if (b >= nblocks) return;
  const int nbx = width / 8, bx = b % nbx, by = b / nbx;
  int d[64];
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c)
      d[8 * r + c] = (int)img[((long)by * 8 + r) * width + bx * 8 + c] - 128;
  for (int r = 0; r < 8; ++r) t_fdct8(d + 8 * r, 1, 0);
  for (int c = 0; c < 8; ++c) t_fdct8(d + c, 8, 1);
  for (int k = 0; k < 64; ++k) {
    const int q = qt[k] << 3, v = d[k], m = (sp_iabs(v) + (q >> 1)) / q;
    coef[64 * (long)b + k] = (short)(v < 0 ? -m : m);
  }
}

/* ---- mean pooling of jagged segments ------------------------------------------------------------
 * Segment s holds rows off[s] .. off[s + 1] of a (rows x JG_D) float matrix;
 * its output row is their column means.  A group of 256 per segment: four
 * row phases of JG_D columns, each with four rows in flight, then the four
 * phases summed in local memory.  A few segments are far longer than the
 * rest, so their groups are the launch's critical path. */
#define JG_D 64

SP_KERNEL SP_BOUNDS(256) void t_jagged_segment_mean(SP_GLOBAL const int *SP_RESTRICT off,
                                                   SP_GLOBAL const float *SP_RESTRICT val,
                                                   SP_GLOBAL float *SP_RESTRICT out) {
  SP_LOCAL float part[256];
  const int s = SP_GRP(0), t = SP_LID(0), col = t % JG_D, ph = t / JG_D;
  const int b = off[s], e = off[s + 1];
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
  int r = b + ph;
  for (; r + 12 < e; r += 16) {
    a0 += val[(long)r * JG_D + col];
    a1 += val[(long)(r + 4) * JG_D + col];
    a2 += val[(long)(r + 8) * JG_D + col];
    a3 += val[(long)(r + 12) * JG_D + col];
  }
  for (; r < e; r += 4) a0 += val[(long)r * JG_D + col];
  part[t] = (a0 + a1) + (a2 + a3);
  SP_BARRIER();
  if (t < JG_D)
    out[(long)s * JG_D + t] =
        ((part[t] + part[t + JG_D]) + (part[t + 2 * JG_D] + part[t + 3 * JG_D])) / (float)(e - b);
}
