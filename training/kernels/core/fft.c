/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fft.c: host half of fft.cl.  d->param: log2 of the butterfly distance of
 * one stage (negative: log2(n) + param, so -1 is the top stage), or 99 for
 * the 1024-point local-memory FFT. */
#include "suite.h"

#include <math.h>
#include <stdlib.h>

/* One stage: one complex multiply-add of values in [-1, 1) with a
 * single-precision twiddle (angle rounding ~1e-7). */
#define FFT_STAGE_ATOL 1e-5
/* 1024 points, 10 stages: outputs up to ~100 in size, errors ~1e-5. */
#define FFT_LOCAL_ATOL 1e-3
#define FFT_LOCAL 99
#define FFT_PI 3.14159265358979323846

static void fft1024(const float *in, double *re, double *im) {
  for (int i = 0; i < 1024; ++i) {
    int r = 0;
    for (int b = 0; b < 10; ++b) r |= ((i >> b) & 1) << (9 - b);
    re[r] = in[2 * i];
    im[r] = in[2 * i + 1];
  }
  for (int half = 1; half < 1024; half <<= 1)
    for (int i0 = 0; i0 < 1024; i0 += 2 * half)
      for (int p = 0; p < half; ++p) {
        double ang = -FFT_PI * p / half, c = cos(ang), s = sin(ang);
        int a = i0 + p, b = a + half;
        double tr = c * re[b] - s * im[b], ti = c * im[b] + s * re[b];
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
      }
}

static int setup_local(kjob *job, const float *h, int in, int out, size_t n) {
  float *ref = kjob_ref(job, out, KC_F32, 2 * n, 1e-4, FFT_LOCAL_ATOL);
  double *re = malloc(1024 * sizeof *re), *im = malloc(1024 * sizeof *im);
  if (!ref || !re || !im) {
    free(re);
    free(im);
    return -1;
  }
  for (size_t c = 0; c < n / 1024; ++c) {
    fft1024(h + 2 * 1024 * c, re, im);
    for (int i = 0; i < 1024; ++i) {
      ref[2 * (1024 * c + i)] = (float)re[i];
      ref[2 * (1024 * c + i) + 1] = (float)im[i];
    }
  }
  free(re);
  free(im);
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_grid(job, n / 1024, 1, 1, 512, 1, 1);
  return 0;
}

static void stage_ref(const float *h, float *ref, size_t n, int lh) {
  const size_t half = (size_t)1 << lh;
  for (size_t b = 0; b < n / 2; ++b) {
    size_t pos = b & (half - 1), i0 = ((b >> lh) << (lh + 1)) + pos;
    size_t i1 = i0 + half;
    double ang = -FFT_PI * (double)pos / (double)half;
    double c = cos(ang), s = sin(ang);
    double tr = c * h[2 * i1] - s * h[2 * i1 + 1];
    double ti = c * h[2 * i1 + 1] + s * h[2 * i1];
    ref[2 * i0] = (float)(h[2 * i0] + tr);
    ref[2 * i0 + 1] = (float)(h[2 * i0 + 1] + ti);
    ref[2 * i1] = (float)(h[2 * i0] - tr);
    ref[2 * i1 + 1] = (float)(h[2 * i0 + 1] - ti);
  }
}

int setup_fft(kjob *job, const kdesc *d, ksize size) {
  const int log_n = size == KSIZE_FULL ? 23 : 12; /* complex points */
  const size_t n = (size_t)1 << log_n;
  krng r;
  const int local = d->param == FFT_LOCAL;
  kjob_init(job, "fft.cl", local ? "fft_local1024" : "fft_stage");
  int in = kjob_buf(job, 2 * n * 4, KB_IN), out = kjob_buf(job, 2 * n * 4, KB_OUT);
  float *h = job->buf[in].host;
  if (!h) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(h, 2 * n, &r, -1.0, 1.0);
  if (local) return setup_local(job, h, in, out, n);
  int lh = d->param >= 0 ? d->param : log_n + d->param;
  float *ref = kjob_ref(job, out, KC_F32, 2 * n, 1e-5, FFT_STAGE_ATOL);
  if (!ref) return -1;
  stage_ref(h, ref, n, lh);
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, lh);
  kjob_arg_i32(job, (int)(n / 2));
  kjob_grid1(job, n / 2, 256);
  return 0;
}
