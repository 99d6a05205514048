/* SPDX-License-Identifier: GPL-3.0-or-later */
/* star3d.c: host half of star3d.cl.  d->param is STAR3D_PARAM(radius,
 * z chunks): the 13-point (radius 2) or 25-point (radius 4) star on a
 * padded grid, each group walking the whole z extent or one of z chunks.
 * Interior sizes: 512 x 384 x 256 (radius 2: 192 groups) and 384^3
 * (radius 4: 144 groups, one per SM by registers, so 12 in a second wave
 * at 132 SMs); about 200-240 MB per array.
 *
 * Inputs are integers 0..15 and the coefficients powers of two, so every
 * output is exact whatever the order of the sum; 65536 spread interior
 * points are compared. */
#include "suite.h"

#define S3_EXACT 0.0
#define S3_CHECKED 65536
#define S3_TILE 32

static int radius_of(const kdesc *d) { return d->param / 100; }
static int zsplit_of(const kdesc *d) { return d->param % 100; }

int setup_star3d(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, r = radius_of(d), zs = zsplit_of(d);
  const int nx = full ? (r == 2 ? 512 : 384) : 32, ny = full ? 384 : 32;
  const int nz = full ? (r == 2 ? 256 : 384) : 8;
  const size_t px = (size_t)(nx + 2 * r), py = (size_t)(ny + 2 * r), pz = (size_t)(nz + 2 * r);
  const size_t total = px * py * pz, plane = px * py;
  const size_t interior = (size_t)nx * (size_t)ny * (size_t)nz;
  const size_t checked = interior < S3_CHECKED ? interior : S3_CHECKED;
  krng rng;
  krng_seed(&rng, d->name, 0);
  kjob_init(job, "star3d.cl", r == 2 ? "star3d_r2" : "star3d_r4");
  int in = kjob_buf(job, total * 4, KB_IN), out = kjob_buf(job, total * 4, KB_OUT);
  float *a = job->buf[in].host;
  float *ref = kjob_ref(job, out, KC_F32, checked, S3_EXACT, S3_EXACT);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  if (!a || !sample) return -1;
  for (size_t i = 0; i < total; ++i) a[i] = (float)krng_below(&rng, 16);
  for (size_t s = 0; s < checked; ++s) {
    const size_t c = kspread(s, checked, interior);
    const size_t x = c % (size_t)nx + (size_t)r, y = c / (size_t)nx % (size_t)ny + (size_t)r;
    const size_t z = c / ((size_t)nx * (size_t)ny) + (size_t)r;
    const size_t i = z * plane + y * px + x;
    float acc = -3.0f * a[i];
    for (int k = 1; k <= r; ++k) {
      const size_t dk = (size_t)k;
      acc +=
          (1.0f / (float)(1 << k)) * ((a[i - dk * plane] + a[i + dk * plane]) +
                                      (a[i - dk] + a[i + dk]) + (a[i - dk * px] + a[i + dk * px]));
    }
    ref[s] = acc;
    sample[s] = i;
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, nx);
  kjob_arg_i32(job, ny);
  kjob_arg_i32(job, nz / zs);
  kjob_grid(job, (size_t)(nx / S3_TILE), (size_t)(ny / S3_TILE), (size_t)zs, S3_TILE, S3_TILE, 1);
  return 0;
}
