/* SPDX-License-Identifier: GPL-3.0-or-later */
/* conv.c: host half of conv.cl.  d->param: number of taps of the 1-D
 * convolution, or 0 / 1 for the x / y pass of the 9-tap blur. */
#include "suite.h"

/* Positive weights and inputs in [0, 1): sums of <= 64 positive terms. */
#define CONV_RTOL 1e-5
#define CONV_ATOL 1e-6

static const double BLUR_W[5] = {0.2270270, 0.1945946, 0.1216216, 0.0540540, 0.0162162};

static int setup_blur(kjob *job, const kdesc *d, size_t nx) {
  const int dir = d->param;
  const size_t n = nx * nx;
  krng r;
  kjob_init(job, "conv.cl", "blur9");
  int in = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  float *h = job->buf[in].host;
  float *ref = kjob_ref(job, out, KC_F32, n, CONV_RTOL, CONV_ATOL);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(h, n, &r, 0.0, 1.0);
  for (long y = 0; y < (long)nx; ++y)
    for (long x = 0; x < (long)nx; ++x) {
      double acc = BLUR_W[0] * h[y * (long)nx + x];
      for (long k = 1; k <= 4; ++k) {
        long xa = x, xb = x, ya = y, yb = y, last = (long)nx - 1;
        if (dir == 0) {
          xa = x - k < 0 ? 0 : x - k;
          xb = x + k > last ? last : x + k;
        } else {
          ya = y - k < 0 ? 0 : y - k;
          yb = y + k > last ? last : y + k;
        }
        acc += BLUR_W[k] * ((double)h[ya * (long)nx + xa] + h[yb * (long)nx + xb]);
      }
      ref[y * (long)nx + x] = (float)acc;
    }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)nx);
  kjob_arg_i32(job, (int)nx);
  kjob_arg_i32(job, dir);
  kjob_grid(job, nx / 16, nx / 16, 1, 16, 16, 1);
  return 0;
}

int setup_conv(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  if (d->param <= 1) return setup_blur(job, d, full ? 4096 : 128);
  const int taps = d->param;
  const size_t n = full ? (size_t)1 << 24 : 4096;
  krng r;
  kjob_init(job, "conv.cl", "conv1d");
  int in = kjob_buf(job, (n + (size_t)taps) * 4, KB_IN);
  int w = kjob_buf(job, (size_t)taps * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  float *h = job->buf[in].host, *hw = job->buf[w].host;
  float *ref = kjob_ref(job, out, KC_F32, n, CONV_RTOL, CONV_ATOL);
  if (!h || !hw || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(h, n + (size_t)taps, &r, 0.0, 1.0);
  kfill_f32(hw, (size_t)taps, &r, 0.0, 1.0 / taps);
  for (size_t i = 0; i < n; ++i) {
    double acc = 0.0;
    for (int k = 0; k < taps; ++k) acc += (double)hw[k] * h[i + (size_t)k];
    ref[i] = (float)acc;
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, w);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, taps);
  kjob_grid1(job, n, 256);
  return 0;
}
