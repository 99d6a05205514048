/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bigblock.c: host half of bigblock.cl.  d->param is BIGBLOCK_PARAM(kind,
 * images): one group of 1024 per image of 2^19 floats (2 MiB), so the
 * grid has `images` groups.
 *
 * Pixels are integers 0..3: every sum and sum of squares of an image is
 * exact in float in any order, so the mean is exact and only the variance,
 * square root and division round (tolerance 1e-5).  The scale kernel's
 * coefficients are dyadic: exact.  65536 spread pixels are compared. */
#include "suite.h"

#include <math.h>
#include <stdlib.h>

#define BB_RTOL 1e-5
#define BB_ATOL 1e-5
#define BB_CHECKED 65536
#define BB_PIXELS_FULL ((size_t)1 << 19)
#define BB_PIXELS_SMALL ((size_t)8192)
#define BB_IMAGES_SMALL 3

static int kind_of(const kdesc *d) { return d->param / 10000; }
static int images_of(const kdesc *d) { return d->param % 10000; }

int setup_bigblock(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, norm = kind_of(d) == BB_NORM;
  const size_t s = full ? BB_PIXELS_FULL : BB_PIXELS_SMALL;
  const size_t images = full ? (size_t)images_of(d) : BB_IMAGES_SMALL, n = s * images;
  const size_t checked = n < BB_CHECKED ? n : BB_CHECKED;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "bigblock.cl", norm ? "bigblock_norm" : "bigblock_scale");
  int in = kjob_buf(job, n * 4, KB_IN), ab = norm ? -1 : kjob_buf(job, images * 8, KB_IN);
  int out = kjob_buf(job, n * 4, KB_OUT);
  float *hin = job->buf[in].host, *hab = norm ? NULL : job->buf[ab].host;
  float *ref = kjob_ref(job, out, KC_F32, checked, norm ? BB_RTOL : 0.0, norm ? BB_ATOL : 0.0);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  float *mean = malloc(images * sizeof *mean), *rstd = malloc(images * sizeof *rstd);
  if (!hin || (!norm && !hab) || !sample || !mean || !rstd) {
    free(mean);
    free(rstd);
    return -1;
  }
  for (size_t i = 0; i < n; ++i) hin[i] = (float)krng_below(&r, 4);
  for (size_t m = 0; m < images; ++m) {
    float sum = 0.0f, sq = 0.0f; /* exact: integers below 2^24 */
    for (size_t i = m * s; i < (m + 1) * s; ++i) {
      sum += hin[i];
      sq += hin[i] * hin[i];
    }
    mean[m] = sum / (float)s;
    rstd[m] = 1.0f / sqrtf(sq / (float)s - mean[m] * mean[m] + 1e-5f);
    if (!norm) {
      hab[2 * m] = 0.5f + (float)(m % 8) * 0.125f;
      hab[2 * m + 1] = -1.25f + (float)(m % 5) * 0.25f;
    }
  }
  for (size_t c = 0; c < checked; ++c) {
    const size_t i = kspread(c, checked, n), m = i / s;
    sample[c] = i;
    ref[c] = norm ? (hin[i] - mean[m]) * rstd[m] : fmaf(hin[i], hab[2 * m], hab[2 * m + 1]);
  }
  free(mean);
  free(rstd);
  kjob_arg_buf(job, in);
  if (!norm) kjob_arg_buf(job, ab);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)s);
  kjob_grid(job, images, 1, 1, 1024, 1, 1);
  return 0;
}
