/* SPDX-License-Identifier: GPL-3.0-or-later */
/* misc.c: host half of misc.cl. */
#include "suite.h"

#include <stdio.h>
#include <stdlib.h>

/* Escape counts near the set's boundary depend on the last bit of every
 * iterate (fused multiply-adds change it), so a small share of pixels may
 * differ; a wrong kernel changes most of them. */
#define MANDEL_MISMATCH_FRACTION 0.01
#define MANDEL_CHECK_EVERY 16 /* reference rows: every 16th */

enum { MI_TINY, MI_MANDEL_F32, MI_MANDEL_F64, MI_SOBEL, MI_DIVMOD };

typedef struct mandel_ref {
  size_t w, h;
  uint32_t rows[]; /* (h / MANDEL_CHECK_EVERY) x w counts */
} mandel_ref;

static int mandel_check(const kjob *job, char *msg, size_t size) {
  const mandel_ref *m = job->priv;
  const uint32_t *got = job->buf[0].result;
  size_t diff = 0, total = 0;
  for (size_t y = 0; y < m->h; y += MANDEL_CHECK_EVERY)
    for (size_t x = 0; x < m->w; ++x, ++total) diff += got[y * m->w + x] != m->rows[total];
  if ((double)diff <= MANDEL_MISMATCH_FRACTION * (double)total) return 0;
  snprintf(msg, size, "%zu of %zu checked pixels differ (more than %g)", diff, total,
           MANDEL_MISMATCH_FRACTION);
  return -1;
}

static int setup_mandel(kjob *job, int f64, size_t w, int maxit) {
  const size_t h = w, nrows = h / MANDEL_CHECK_EVERY;
  kjob_init(job, "misc.cl", f64 ? "mandel_f64" : "mandel_f32");
  int out = kjob_buf(job, w * h * 4, KB_OUT);
  mandel_ref *m = malloc(sizeof *m + nrows * w * sizeof(uint32_t));
  if (!m) return -1;
  m->w = w;
  m->h = h;
  job->priv = m;
  job->check = mandel_check;
  for (size_t r = 0; r < nrows; ++r)
    for (size_t x = 0; x < w; ++x) {
      size_t y = r * MANDEL_CHECK_EVERY;
      double cr = -2.0 + 3.0 * (double)x / (double)w;
      double ci = -1.5 + 3.0 * (double)y / (double)h;
      if (!f64) {
        cr = (float)(-2.0f + 3.0f * (float)x / (float)w);
        ci = (float)(-1.5f + 3.0f * (float)y / (float)h);
      }
      double zr = 0.0, zi = 0.0;
      int it = 0;
      while (it < maxit && zr * zr + zi * zi <= 4.0) {
        double t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        if (!f64) {
          zr = (float)zr;
          zi = (float)zi;
        }
        ++it;
      }
      m->rows[r * w + x] = (uint32_t)it;
    }
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)w);
  kjob_arg_i32(job, (int)h);
  kjob_arg_i32(job, maxit);
  kjob_grid(job, w / 16, h / 16, 1, 16, 16, 1);
  return 0;
}

static int setup_sobel(kjob *job, const kdesc *d, size_t w) {
  krng r;
  kjob_init(job, "misc.cl", "sobel");
  int img = kjob_buf(job, w * w, KB_IN), out = kjob_buf(job, w * w * 4, KB_OUT);
  unsigned char *p = job->buf[img].host;
  uint32_t *ref = kjob_ref(job, out, KC_U32, w * w, 0.0, 0.0);
  if (!p || !ref) return -1;
  krng_seed(&r, d->name, 0);
  for (size_t i = 0; i < w * w; ++i) p[i] = (unsigned char)(krng_u32(&r) >> 24);
  for (size_t y = 1; y + 1 < w; ++y)
    for (size_t x = 1; x + 1 < w; ++x) {
#define P(dy, dx) ((int)p[(y + (dy)) * w + x + (dx)])
      int gx = P(-1, 1) + 2 * P(0, 1) + P(1, 1) - P(-1, -1) - 2 * P(0, -1) - P(1, -1);
      int gy = P(1, -1) + 2 * P(1, 0) + P(1, 1) - P(-1, -1) - 2 * P(-1, 0) - P(-1, 1);
#undef P
      ref[y * w + x] = (uint32_t)(abs(gx) + abs(gy));
    }
  kjob_arg_buf(job, img);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)w);
  kjob_arg_i32(job, (int)w);
  kjob_grid(job, w / 16, w / 16, 1, 16, 16, 1);
  return 0;
}

static int setup_divmod(kjob *job, const kdesc *d, size_t n, int iters) {
  krng r;
  kjob_init(job, "misc.cl", "int_divmod");
  int in = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  uint32_t *h = job->buf[in].host;
  uint32_t *ref = kjob_ref(job, out, KC_U32, n, 0.0, 0.0);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_u32(h, n, &r);
  for (size_t i = 0; i < n; ++i) {
    uint32_t x = h[i], acc = 0;
    for (int k = 0; k < iters; ++k) {
      uint32_t dv = (x & 1023u) + 3u;
      acc += x / dv + x % dv;
      x = x * 1103515245u + 12345u;
    }
    ref[i] = acc;
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, iters);
  kjob_grid1(job, n, 256);
  return 0;
}

int setup_misc(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  switch (d->param) {
    case MI_TINY: {
      kjob_init(job, "misc.cl", "tiny");
      int out = kjob_buf(job, 64 * 4, KB_OUT);
      uint32_t *ref = kjob_ref(job, out, KC_U32, 64, 0.0, 0.0);
      if (!ref) return -1;
      for (uint32_t l = 0; l < 64; ++l) ref[l] = l * 3u + 1u;
      kjob_arg_buf(job, out);
      kjob_grid(job, 1, 1, 1, 64, 1, 1);
      return 0;
    }
    case MI_MANDEL_F32:
      return setup_mandel(job, 0, full ? 4096 : 128, full ? 512 : 64);
    case MI_MANDEL_F64:
      return setup_mandel(job, 1, full ? 2048 : 128, full ? 256 : 64);
    case MI_SOBEL:
      return setup_sobel(job, d, full ? 8192 : 128);
    default:
      return setup_divmod(job, d, full ? (size_t)1 << 22 : 4096, full ? 32 : 8);
  }
}
