/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stencil.c: host half of stencil.cl. */
#include "suite.h"

/* Weighted sums of up to 27 inputs in [0, 1) with positive weights summing
 * to 1: the result is in [0, 1) and off by a few roundings. */
#define STENCIL_RTOL 1e-5
#define STENCIL_ATOL 1e-6

enum { ST_5PT, ST_5PT_F64, ST_9PT, ST_5PT_TILED, ST_3D7, ST_3D27 };

static double at(const float *in, size_t i) { return in[i]; }

static void ref2d(const float *in, float *out, size_t nx, size_t ny, int kind) {
  for (size_t y = 0; y < ny; ++y)
    for (size_t x = 0; x < nx; ++x) {
      size_t i = y * nx + x;
      if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        out[i] = in[i];
        continue;
      }
      double e = at(in, i - 1) + at(in, i + 1) + at(in, i - nx) + at(in, i + nx);
      if (kind == ST_9PT) {
        double c =
            at(in, i - nx - 1) + at(in, i - nx + 1) + at(in, i + nx - 1) + at(in, i + nx + 1);
        out[i] = (float)(0.25 * in[i] + 0.125 * e + 0.0625 * c);
      } else {
        out[i] = (float)(0.5 * in[i] + 0.125 * e);
      }
    }
}

static void ref3d(const float *in, float *out, size_t n, int kind) {
  const size_t sy = n, sz = n * n;
  for (size_t z = 0; z < n; ++z)
    for (size_t y = 0; y < n; ++y)
      for (size_t x = 0; x < n; ++x) {
        size_t i = z * sz + y * sy + x;
        if (!x || !y || !z || x == n - 1 || y == n - 1 || z == n - 1) {
          out[i] = in[i];
          continue;
        }
        if (kind == ST_3D7) {
          double s = at(in, i - 1) + at(in, i + 1) + at(in, i - sy) + at(in, i + sy) +
                     at(in, i - sz) + at(in, i + sz);
          out[i] = (float)(0.4 * in[i] + 0.1 * s);
          continue;
        }
        double w[4] = {0.25, 0.0625, 0.03125, 0.015625}, s = 0.0;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              s += w[(dx != 0) + (dy != 0) + (dz != 0)] *
                   in[(size_t)((long)i + dz * (long)sz + dy * (long)sy + dx)];
        out[i] = (float)s;
      }
}

static int setup_f64(kjob *job, const kdesc *d, size_t nx) {
  krng r;
  const size_t n = nx * nx;
  kjob_init(job, "stencil.cl", "st2d_5pt_f64");
  int in = kjob_buf(job, n * 8, KB_IN), out = kjob_buf(job, n * 8, KB_OUT);
  double *h = job->buf[in].host;
  double *ref = kjob_ref(job, out, KC_F64, n, 1e-12, 1e-14);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f64(h, n, &r, 0.0, 1.0);
  for (size_t y = 0; y < nx; ++y)
    for (size_t x = 0; x < nx; ++x) {
      size_t i = y * nx + x;
      ref[i] = (!x || !y || x == nx - 1 || y == nx - 1)
                   ? h[i]
                   : 0.5 * h[i] + 0.125 * (h[i - 1] + h[i + 1] + h[i - nx] + h[i + nx]);
    }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)nx);
  kjob_arg_i32(job, (int)nx);
  kjob_grid(job, nx / 16, nx / 16, 1, 16, 16, 1);
  kjob_sampleable(job); /* one output point per work-item */
  return 0;
}

int setup_stencil(kjob *job, const kdesc *d, ksize size) {
  static const char *entries[] = {"st2d_5pt",       "st2d_5pt_f64", "st2d_9pt",
                                  "st2d_5pt_tiled", "st3d_7pt",     "st3d_27pt"};
  const int full = size == KSIZE_FULL;
  const int is3d = d->param == ST_3D7 || d->param == ST_3D27;
  const size_t nx = is3d ? (full ? 256 : 32) : (full ? 4096 : 128);
  const size_t n = is3d ? nx * nx * nx : nx * nx;
  krng r;
  if (d->param == ST_5PT_F64) return setup_f64(job, d, nx);
  kjob_init(job, "stencil.cl", entries[d->param]);
  int in = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  float *h = job->buf[in].host;
  float *ref = kjob_ref(job, out, KC_F32, n, STENCIL_RTOL, STENCIL_ATOL);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(h, n, &r, 0.0, 1.0);
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)nx);
  if (is3d) {
    ref3d(h, ref, nx, d->param);
    kjob_grid(job, nx / 32, nx / 8, nx, 32, 8, 1);
  } else {
    ref2d(h, ref, nx, nx, d->param);
    kjob_arg_i32(job, (int)nx);
    kjob_grid(job, nx / 16, nx / 16, 1, 16, 16, 1);
  }
  kjob_sampleable(job); /* one output point per work-item */
  return 0;
}
