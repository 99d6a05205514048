/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream.cl: streaming kernels of the eighth validation suite (host half:
 * stream.c): 2-bit nucleotide packing, multigrid restriction in FP64, COCO
 * run-length mask decoding, HDR tone mapping and an exponentially weighted
 * moving average.  Written for this suite, independently of the core suite
 * and the earlier validation suites. */
#include "sp_dev.h"

/* ---- 2-bit nucleotide packing ------------------------------------------------------------------
 * The 2bit / UCSC layout: A C G T (either case) become 0 1 3 2 by bits 1-2
 * of the character, 16 bases per word (base k in bits 2k, 2k+1); any other
 * character packs as 0 and sets bit k of the word's N mask. */
SP_KERNEL void s_dna_pack_2bit(SP_GLOBAL const uchar *SP_RESTRICT seq,
                               SP_GLOBAL uint *SP_RESTRICT packed,
                               SP_GLOBAL ushort *SP_RESTRICT nmask, int nwords) {
  const int w = SP_GID(0);
  if (w >= nwords) return;
  SP_GLOBAL const uchar *s = seq + (long)w * 16;
  uint word = 0, mask = 0;
  for (int k = 0; k < 16; ++k) {
    const uint c = s[k], u = c & 0xDFu;
    const int acgt = u == 'A' || u == 'C' || u == 'G' || u == 'T';
    word |= (acgt ? (c >> 1 & 3u) : 0u) << (2 * k);
    mask |= (acgt ? 0u : 1u) << k;
  }
  packed[w] = word;
  nmask[w] = (ushort)mask;
}

/* ---- multigrid full-weighting restriction, FP64 ----------------------------------------------
 * Coarse point (i, j, k) of an nc^3 grid is the 27-point weighted mean of
 * the fine grid (2 nc)^3 around (2i, 2j, 2k), weights 1/2 per unit offset in
 * each direction (1/8 at the centre), periodic (NAS MG's rprj3). */
SP_KERNEL void s_mg_restrict_f64(SP_GLOBAL const double *SP_RESTRICT fine,
                                 SP_GLOBAL double *SP_RESTRICT coarse, int nc) {
  const int e = SP_GID(0);
  if (e >= nc * nc * nc) return;
  const int nf = 2 * nc, i = e % nc, j = e / nc % nc, k = e / (nc * nc);
  double acc = 0.0;
  for (int dz = -1; dz <= 1; ++dz) {
    const int z = (2 * k + dz + nf) % nf;
    const double wz = dz == 0 ? 0.5 : 0.25;
    for (int dy = -1; dy <= 1; ++dy) {
      const int y = (2 * j + dy + nf) % nf;
      const double wzy = wz * (dy == 0 ? 0.5 : 0.25);
      SP_GLOBAL const double *row = fine + ((long)z * nf + y) * nf;
      const int x0 = (2 * i - 1 + nf) % nf, x2 = (2 * i + 1) % nf;
      acc += wzy * (0.25 * row[x0] + 0.5 * row[2 * i] + 0.25 * row[x2]);
    }
  }
  coarse[e] = acc;
}

/* ---- COCO run-length mask decoding ------------------------------------------------------------
 * Mask m's runs start at starts[roff[m] .. roff[m + 1]) (ascending, the
 * first at 0); runs alternate 0 and 1, beginning with 0, as in COCO's
 * counts.  A work-item decodes 16 pixels: a binary search for the run
 * holding the first, then a walk; it stores four words of four 0/1 bytes. */
SP_KERNEL void s_coco_rle_decode(SP_GLOBAL const uint *SP_RESTRICT starts,
                                 SP_GLOBAL const int *SP_RESTRICT roff,
                                 SP_GLOBAL uint *SP_RESTRICT out, int npix, int nitems) {
  const int g = SP_GID(0);
  if (g >= nitems) return;
  const int per = npix / 16, m = g / per;
  const uint p0 = (uint)(g - m * per) * 16u;
  const int base = roff[m], nr = roff[m + 1] - base;
  SP_GLOBAL const uint *st = starts + base;
  int lo = 0, hi = nr - 1; /* the last run starting at or before p0 */
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (st[mid] <= p0)
      lo = mid;
    else
      hi = mid - 1;
  }
  int r = lo;
  uint next = r + 1 < nr ? st[r + 1] : 0xFFFFFFFFu;
  for (int q = 0; q < 4; ++q) {
    uint word = 0;
    for (int b = 0; b < 4; ++b) {
      const uint p = p0 + (uint)(4 * q + b);
      while (p >= next) {
        ++r;
        next = r + 1 < nr ? st[r + 1] : 0xFFFFFFFFu;
      }
      word |= (uint)(r & 1) << (8 * b);
    }
    out[(long)g * 4 + q] = word;
  }
}

/* ---- HDR tone mapping to sRGB8 -----------------------------------------------------------------
 * Per pixel: exposure, an ASC CDL grade (slope, offset, power per channel,
 * then saturation about Rec. 709 luma), Hill's fit of the ACES RRT + ODT
 * (input and output matrices around a rational curve), the sRGB transfer
 * function, and a triangular dither from two hashes of the pixel index
 * before 8-bit quantization.  pow(x, y) is exp(y log x). */
SP_FN float s_powf(float x, float y) { return x > 0.0f ? SP_EXPF(y * SP_LOGF(x)) : 0.0f; }

SP_FN float s_aces_curve(float v) {
  const float a = v * (v + 0.0245786f) - 0.000090537f;
  const float b = v * (0.983729f * v + 0.4329510f) + 0.238081f;
  return a / b;
}

SP_FN float s_srgb(float c) {
  c = SP_FMINF(SP_FMAXF(c, 0.0f), 1.0f);
  return c <= 0.0031308f ? 12.92f * c : 1.055f * s_powf(c, 1.0f / 2.4f) - 0.055f;
}

SP_KERNEL void s_aces_tonemap(SP_GLOBAL const float *SP_RESTRICT rgb,
                              SP_GLOBAL uint *SP_RESTRICT out, int n, float exposure) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const float slope[3] = {1.08f, 1.0f, 0.94f}, offset[3] = {0.01f, 0.0f, -0.005f};
  const float power[3] = {0.95f, 1.0f, 1.04f};
  float c[3];
  for (int k = 0; k < 3; ++k)
    c[k] = s_powf(SP_FMAXF(rgb[3 * (long)i + k] * exposure * slope[k] + offset[k], 0.0f), power[k]);
  const float luma = 0.2126f * c[0] + 0.7152f * c[1] + 0.0722f * c[2];
  for (int k = 0; k < 3; ++k) c[k] = luma + 1.1f * (c[k] - luma);
  const float r0 = 0.59719f * c[0] + 0.35458f * c[1] + 0.04823f * c[2];
  const float g0 = 0.07600f * c[0] + 0.90834f * c[1] + 0.01566f * c[2];
  const float b0 = 0.02840f * c[0] + 0.13383f * c[1] + 0.83777f * c[2];
  const float r1 = s_aces_curve(r0), g1 = s_aces_curve(g0), b1 = s_aces_curve(b0);
  const float o[3] = {1.60475f * r1 - 0.53108f * g1 - 0.07367f * b1,
                      -0.10208f * r1 + 1.10813f * g1 - 0.00605f * b1,
                      -0.00327f * r1 - 0.07276f * g1 + 1.07602f * b1};
  const uint h1 = sp_lowbias32((uint)i), h2 = sp_lowbias32((uint)i ^ 0x9e3779b9u);
  const float dither = ((float)(h1 >> 8) + (float)(h2 >> 8)) * (1.0f / 16777216.0f) - 1.0f;
  uint word = 255u << 24;
  for (int k = 0; k < 3; ++k) {
    const float q = SP_FMINF(SP_FMAXF(s_srgb(o[k]) * 255.0f + 0.5f + 0.5f * dither, 0.0f), 255.0f);
    word |= (uint)q << (8 * k);
  }
  out[i] = word;
}

/* ---- exponentially weighted moving average, FP64 ----------------------------------------------
 * pandas' ewm(alpha, adjust=False).mean(): y_0 = x_0, y_t = y_{t-1} +
 * alpha (x_t - y_{t-1}), for ns series of nt steps stored time-major
 * (x[t ns + s]), a work-item per series walking the steps in order. */
SP_KERNEL void s_ewma_series_f64(SP_GLOBAL const double *SP_RESTRICT x,
                                 SP_GLOBAL double *SP_RESTRICT y, int ns, int nt, double alpha) {
  const int s = SP_GID(0);
  if (s >= ns) return;
  double m = x[s];
  y[s] = m;
  for (int t = 1; t < nt; ++t) {
    const long i = (long)t * ns + s;
    m = m + alpha * (x[i] - m);
    y[i] = m;
  }
}
