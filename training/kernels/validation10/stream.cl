/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream.cl: streaming kernels of the tenth validation suite (host half:
 * stream.c): bitshuffle, the Pan-Tompkins QRS front end, geohash encoding,
 * Sobol points, zone maps over few chunks and polyphase resampling.
 * Written for this suite, independently of the core suite and the
 * earlier validation suites. */
#include "sp_dev.h"

/* ---- bitshuffle ---------------------------------------------------------------------------------
 * Blocks of 256 one-byte elements are rearranged into 8 bit planes of 32
 * bytes: bit k of byte j of plane b is bit b of element 8 j + k (the
 * bitshuffle filter of HDF5 and Blosc, for 1-byte elements).  A work-item
 * per output byte gathers its 8 elements (1-byte loads, the block's other
 * planes hit the same lines in L1) and stores one byte. */
SP_KERNEL void u_bitshuffle_u8(SP_GLOBAL const uchar *SP_RESTRICT in, SP_GLOBAL uchar *SP_RESTRICT out,
                               int n) {
  const int g = SP_GID(0);
  if (g >= n) return;
  const int o = g & 255, plane = o >> 5, j = o & 31;
  SP_GLOBAL const uchar *e = in + (long)(g - o) + 8 * j;
  uint v = 0u;
  for (int k = 0; k < 8; ++k) v |= (((uint)e[k] >> plane) & 1u) << k;
  out[g] = (uchar)v;
}

/* ---- Pan-Tompkins front end ---------------------------------------------------------------------
 * The QRS detector's derivative d(i) = (2 x(i) + x(i-1) - x(i-3) - 2 x(i-4)) / 8,
 * its square (scaled by 2^-8) and the moving-window integral over the last
 * 30 squares, divided by 30 and saturated to 16 bits; x before the start is
 * 0.  A work-item takes 16 consecutive outputs: it loads the 49 samples they
 * need into registers (2-byte loads), slides the window, and stores 16
 * 2-byte outputs. */
#define PT_OUT 16
#define PT_WIN 30

SP_KERNEL void u_pan_tompkins_i16(SP_GLOBAL const short *SP_RESTRICT x,
                                  SP_GLOBAL ushort *SP_RESTRICT y, int nitems) {
  const int g = SP_GID(0);
  if (g >= nitems) return;
  const long i0 = (long)g * PT_OUT;
  int w[PT_OUT + PT_WIN + 3], s[PT_OUT + PT_WIN - 1];
#pragma unroll
  for (int k = 0; k < PT_OUT + PT_WIN + 3; ++k) {
    const long j = i0 - (PT_WIN + 3) + k;
    w[k] = j < 0 ? 0 : (int)x[j];
  }
#pragma unroll
  for (int m = 0; m < PT_OUT + PT_WIN - 1; ++m) {
    const int d = (2 * w[m + 4] + w[m + 3] - w[m + 1] - 2 * w[m]) / 8;
    s[m] = i0 - (PT_WIN - 1) + m < 0 ? 0 : (d * d) >> 8;
  }
  int acc = 0;
#pragma unroll
  for (int m = 0; m < PT_WIN; ++m) acc += s[m];
#pragma unroll
  for (int t = 0; t < PT_OUT; ++t) {
    if (t > 0) acc += s[PT_WIN - 1 + t] - s[t - 1];
    const int v = acc / PT_WIN;
    y[i0 + t] = (ushort)(v > 65535 ? 65535 : v);
  }
}

/* ---- geohash ------------------------------------------------------------------------------------
 * Longitude and latitude (FP64 pairs, latitude first) quantised to 26 bits
 * each over [-180, 180) and [-90, 90), their bits interleaved longitude
 * first into a 52-bit geohash (the integer form Redis's GEOADD stores).
 * Two 8-byte loads and one 8-byte store per work-item. */
SP_FN ulong u_spread26(uint x) {
  ulong v = x;
  v = (v | (v << 16)) & 0x0000FFFF0000FFFFul;
  v = (v | (v << 8)) & 0x00FF00FF00FF00FFul;
  v = (v | (v << 4)) & 0x0F0F0F0F0F0F0F0Ful;
  v = (v | (v << 2)) & 0x3333333333333333ul;
  v = (v | (v << 1)) & 0x5555555555555555ul;
  return v;
}

SP_FN uint u_quant26(double v, double lo, double scale) {
  const double q = (v - lo) * scale;
  return q <= 0.0 ? 0u : q >= 67108863.0 ? 67108863u : (uint)q;
}

SP_KERNEL void u_geohash_encode_f64(SP_GLOBAL const double *SP_RESTRICT ll,
                                    SP_GLOBAL ulong *SP_RESTRICT code, int n) {
  const int g = SP_GID(0);
  if (g >= n) return;
  const uint la = u_quant26(ll[2 * (long)g], -90.0, 67108864.0 / 180.0);
  const uint lo = u_quant26(ll[2 * (long)g + 1], -180.0, 67108864.0 / 360.0);
  code[g] = (u_spread26(lo) << 1) | u_spread26(la);
}

/* ---- Sobol points -------------------------------------------------------------------------------
 * Point i of a 4-dimensional Sobol sequence in Gray-code order: coordinate
 * d is the XOR of the direction numbers v[d][k] for the bits k set in
 * i ^ (i >> 1), kept to 24 bits and scaled to [0, 1).  The 512 bytes of
 * direction numbers are the only input: a write-only stream of four floats
 * per point. */
SP_KERNEL void u_sobol_points_wr(SP_GLOBAL const uint *SP_RESTRICT dir,
                                 SP_GLOBAL float *SP_RESTRICT pts, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const uint gray = (uint)i ^ ((uint)i >> 1);
  for (int d = 0; d < 4; ++d) {
    uint x = 0u;
    for (int k = 0; k < 32 && (gray >> k) != 0u; ++k)
      if ((gray >> k) & 1u) x ^= dir[32 * d + k];
    pts[4 * (long)i + d] = (float)(x >> 8) * (1.0f / 16777216.0f);
  }
}

/* ---- zone maps ----------------------------------------------------------------------------------
 * The minimum and maximum of each chunk of an int column (a column store's
 * zone map, Parquet's column-chunk statistics).  One group of ZM_G per
 * chunk, one load in flight per work-item (the loop is not unrolled), then
 * a local-memory reduction. */
#define ZM_G 256

SP_KERNEL SP_BOUNDS(ZM_G) void u_zonemap_minmax_131(SP_GLOBAL const int *SP_RESTRICT col,
                                                   SP_GLOBAL int *SP_RESTRICT zm, int chunk) {
  SP_LOCAL int lmin[ZM_G], lmax[ZM_G];
  const int t = SP_LID(0);
  SP_GLOBAL const int *c = col + (long)SP_GRP(0) * chunk;
  int mn = 2147483647, mx = -2147483647 - 1;
#pragma unroll 1
  for (int i = t; i < chunk; i += ZM_G) {
    const int v = c[i];
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
  }
  lmin[t] = mn;
  lmax[t] = mx;
  SP_BARRIER();
  for (int s = ZM_G / 2; s > 0; s >>= 1) {
    if (t < s) {
      lmin[t] = lmin[t + s] < lmin[t] ? lmin[t + s] : lmin[t];
      lmax[t] = lmax[t + s] > lmax[t] ? lmax[t + s] : lmax[t];
    }
    SP_BARRIER();
  }
  if (t == 0) {
    zm[2 * SP_GRP(0)] = lmin[0];
    zm[2 * SP_GRP(0) + 1] = lmax[0];
  }
}

/* ---- polyphase resampling -----------------------------------------------------------------------
 * Rational resampling by L / M = 160 / 147 with a windowed-sinc prototype of
 * 160 x 32 taps split into 160 phases (speexdsp's and libsamplerate's
 * scheme in fixed point): output j is the phase (j M mod L) filter's 32 Q14
 * taps against the 32 input samples ending at j M / L, rounded and
 * saturated to 16 bits. */
#define RS_L 160
#define RS_M 147
#define RS_T 32

SP_KERNEL void u_polyphase_resample_i16(SP_GLOBAL const short *SP_RESTRICT x,
                                        SP_GLOBAL const int *SP_RESTRICT h,
                                        SP_GLOBAL short *SP_RESTRICT y, int nout) {
  const int j = SP_GID(0);
  if (j >= nout) return;
  const long pos = (long)j * RS_M, n0 = pos / RS_L;
  SP_GLOBAL const int *hp = h + (int)(pos % RS_L) * RS_T;
  int acc = 0;
  for (int k = 0; k < RS_T; ++k) acc += n0 - k < 0 ? 0 : hp[k] * (int)x[n0 - k];
  const int v = (acc + 8192) >> 14;
  y[j] = (short)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}
