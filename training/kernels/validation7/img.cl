/* SPDX-License-Identifier: GPL-3.0-or-later */
/* img.cl: imaging and vision kernels for the seventh validation suite (host
 * half: img.c): bilinear Bayer demosaicing, depth-image back-projection, a
 * Viola-Jones Haar cascade on tiles with their integral images in local
 * memory, and local-maximum detection with an appended list.  Written for
 * this suite, independently of the core suite and the earlier validation
 * suites. */
#include "sp_dev.h"

/* ---- bilinear demosaicing of an RGGB mosaic ---------------------------------------------------
 * Red on even rows and even columns, blue on odd rows and odd columns,
 * green elsewhere; the two missing colours of a pixel are the rounded means
 * of its nearest neighbours of those colours (edges mirrored, which keeps
 * the pattern).  A work-item per pixel: nine 1-byte loads, one RGBA8 word
 * stored. */
SP_FN int r_mirror(int v, int n) { return v < 0 ? 1 : v >= n ? n - 2 : v; }

SP_KERNEL void r_bayer_demosaic_u8(SP_GLOBAL const uchar *SP_RESTRICT raw,
                                   SP_GLOBAL uint *SP_RESTRICT rgba, int w, int h) {
  const int e = SP_GID(0);
  if (e >= w * h) return;
  const int y = e / w, x = e - y * w;
  const int xm = r_mirror(x - 1, w), xp = r_mirror(x + 1, w);
  SP_GLOBAL const uchar *rm = raw + (long)r_mirror(y - 1, h) * w;
  SP_GLOBAL const uchar *rc = raw + (long)y * w;
  SP_GLOBAL const uchar *rp = raw + (long)r_mirror(y + 1, h) * w;
  const int c = rc[x], l = rc[xm], r = rc[xp], u = rm[x], d = rp[x];
  const int ul = rm[xm], ur = rm[xp], dl = rp[xm], dr = rp[xp];
  const int cross = (l + r + u + d + 2) >> 2, diag = (ul + ur + dl + dr + 2) >> 2;
  const int horiz = (l + r + 1) >> 1, vert = (u + d + 1) >> 1;
  int red, green, blue;
  if ((y & 1) == 0 && (x & 1) == 0) {
    red = c;
    green = cross;
    blue = diag;
  } else if ((y & 1) == 1 && (x & 1) == 1) {
    red = diag;
    green = cross;
    blue = c;
  } else if ((y & 1) == 0) { /* green on a red row */
    red = horiz;
    green = c;
    blue = vert;
  } else { /* green on a blue row */
    red = vert;
    green = c;
    blue = horiz;
  }
  rgba[e] = (uint)red | (uint)green << 8 | (uint)blue << 16 | 0xff000000u;
}

/* ---- depth back-projection ---------------------------------------------------------------------
 * Pixel (u, v) of a frame with depth d (16-bit, in units of dscale metres)
 * becomes the point ((u - cx) z / fx, (v - cy) z / fy, z), z = d dscale;
 * a missing (0) or too distant (> dmax) depth gives the origin.  A
 * work-item per pixel of a batch of frames: one 2-byte load, three floats
 * stored. */
SP_KERNEL void r_depth_backproject_u16(SP_GLOBAL const ushort *SP_RESTRICT depth,
                                       SP_GLOBAL float *SP_RESTRICT xyz, int w, int h, int n,
                                       float inv_fx, float inv_fy, float cx, float cy, float dscale,
                                       int dmax) {
  const int e = SP_GID(0);
  if (e >= n) return;
  const int u = e % w, v = e / w % h, dv = depth[e];
  const float z = dv <= dmax ? (float)dv * dscale : 0.0f;
  xyz[3 * (long)e] = ((float)u - cx) * inv_fx * z;
  xyz[3 * (long)e + 1] = ((float)v - cy) * inv_fy * z;
  xyz[3 * (long)e + 2] = z;
}

/* ---- Viola-Jones Haar cascade on tiles ----------------------------------------------------------
 * A group per tile of HA_OUT x HA_OUT window positions: the tile's pixels
 * (HA_IN per side, windows of HA_WIN) go into local memory, become an
 * integral image with a zero first row and column (prefix sums along rows,
 * then down columns, a work-item per row or column), and every window then
 * runs the cascade: a stage sums its features' votes (a feature is up to
 * HA_R weighted rectangles; its value below the feature threshold votes
 * left, else right) and the window leaves at the first stage whose sum is
 * below the stage threshold.  The output is the number of stages passed.
 * Feature records are HA_FW ints: threshold, left, right, then HA_R x (x,
 * y, w, h, weight). */
#define HA_OUT 84
#define HA_WIN 24
#define HA_IN (HA_OUT + HA_WIN - 1)
#define HA_II (HA_IN + 1)
#define HA_R 3
#define HA_FW (3 + 5 * HA_R)

SP_KERNEL void r_haar_stage_529(SP_GLOBAL const uchar *SP_RESTRICT img,
                                SP_GLOBAL const int *SP_RESTRICT feat,
                                SP_GLOBAL const int *SP_RESTRICT stage,
                                SP_GLOBAL uint *SP_RESTRICT out, int width, int tiles_x,
                                int nstages) {
  SP_LOCAL uint ii[HA_II * HA_II];
  const int t = SP_LID(0), nt = SP_LSIZE(0), g = SP_GRP(0);
  const int x0 = g % tiles_x * HA_OUT, y0 = g / tiles_x * HA_OUT;
  for (int k = t; k < HA_II * HA_II; k += nt) {
    const int yy = k / HA_II, xx = k - yy * HA_II;
    ii[k] = yy == 0 || xx == 0 ? 0u : (uint)img[(long)(y0 + yy - 1) * width + x0 + xx - 1];
  }
  SP_BARRIER();
  if (t >= 1 && t < HA_II) {
    uint s = 0;
    for (int xx = 1; xx < HA_II; ++xx) {
      s += ii[t * HA_II + xx];
      ii[t * HA_II + xx] = s;
    }
  }
  SP_BARRIER();
  if (t >= 1 && t < HA_II) {
    uint s = 0;
    for (int yy = 1; yy < HA_II; ++yy) {
      s += ii[yy * HA_II + t];
      ii[yy * HA_II + t] = s;
    }
  }
  SP_BARRIER();
  const int ow = tiles_x * HA_OUT;
  for (int k = t; k < HA_OUT * HA_OUT; k += nt) {
    const int wy = k / HA_OUT, wx = k - wy * HA_OUT;
    int passed = 0;
    SP_GLOBAL const int *f = feat;
    for (int s = 0; s < nstages; ++s) {
      int sum = 0;
      for (int j = 0; j < stage[2 * s]; ++j, f += HA_FW) {
        int v = 0;
        for (int q = 0; q < HA_R; ++q) {
          SP_GLOBAL const int *rc = f + 3 + 5 * q;
          const int ax = wx + rc[0], ay = wy + rc[1], bx = ax + rc[2], by = ay + rc[3];
          const uint box =
              ii[by * HA_II + bx] - ii[ay * HA_II + bx] - ii[by * HA_II + ax] + ii[ay * HA_II + ax];
          v += rc[4] * (int)box;
        }
        sum += v < f[0] ? f[1] : f[2];
      }
      if (sum < stage[2 * s + 1]) break;
      ++passed;
    }
    out[(long)(y0 + wy) * ow + x0 + wx] = (uint)passed;
  }
}

/* ---- local maxima above a threshold, appended -----------------------------------------------
 * A pixel (not on the border) brighter than thr and than each of its 8
 * neighbours takes the next slot of the list through one global counter
 * (slots past cap are dropped, so launches may follow one another). Most
 * pixels are dark and read nothing else. */
SP_KERNEL void r_peak_find_append(SP_GLOBAL const float *SP_RESTRICT img,
                                  SP_GLOBAL uint *SP_RESTRICT count,
                                  SP_GLOBAL uint *SP_RESTRICT list, int w, int h, float thr,
                                  uint cap) {
  const int e = SP_GID(0);
  if (e >= w * h) return;
  const int y = e / w, x = e - y * w;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) return;
  const float c = img[e];
  if (!(c > thr)) return;
  const long up = (long)e - w, dn = (long)e + w;
  if (c > img[up - 1] && c > img[up] && c > img[up + 1] && c > img[e - 1] && c > img[e + 1] &&
      c > img[dn - 1] && c > img[dn] && c > img[dn + 1]) {
    const uint slot = SP_ATOMIC_ADD(count, 1u);
    if (slot < cap) list[slot] = (uint)e;
  }
}
