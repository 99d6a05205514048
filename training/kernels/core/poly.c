/* SPDX-License-Identifier: GPL-3.0-or-later */
/* poly.c: host half of poly.cl.  d->param is the degree; negative for
 * double precision.  The reference (deg multiply-adds per element) is
 * computed for POLY_CHECK elements spread over the array. */
#include "suite.h"

/* x in [-0.95, 0.95] and coefficients C = 1/pi: the series stays below
 * C/(1-0.95) ~ 6.4 and Horner's rounding error below deg x 2^-24 x 6.4. */
#define POLY_RTOL 1e-5
#define POLY_ATOL 2e-4
#define POLY_C 0.3183099
#define POLY_CHECK 65536

int setup_poly(kjob *job, const kdesc *d, ksize size) {
  const int f64 = d->param < 0, deg = f64 ? -d->param : d->param;
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 24 : 4096;
  const size_t es = f64 ? 8 : 4;
  krng r;
  kjob_init(job, "poly.cl", f64 ? "poly_f64" : "poly_f32");
  int x = kjob_buf(job, n * es, KB_IN), y = kjob_buf(job, n * es, KB_OUT);
  const size_t check = n < POLY_CHECK ? n : POLY_CHECK;
  void *hx = job->buf[x].host;
  void *ref = f64 ? kjob_ref(job, y, KC_F64, check, 1e-12, 1e-12)
                  : kjob_ref(job, y, KC_F32, check, POLY_RTOL, POLY_ATOL);
  size_t *sample = kjob_sample(job, y);
  if (!hx || !ref || !sample) return -1;
  krng_seed(&r, d->name, 0);
  for (size_t i = 0; i < n; ++i) {
    double xi = krng_uniform(&r, -0.95, 0.95);
    if (f64)
      ((double *)hx)[i] = xi;
    else
      ((float *)hx)[i] = (float)xi;
  }
  const double c = f64 ? POLY_C : (float)POLY_C;
  for (size_t s = 0; s < check; ++s) {
    size_t i = kspread(s, check, n);
    double xi = f64 ? ((double *)hx)[i] : ((float *)hx)[i], acc = c;
    for (int k = 0; k < deg; ++k) acc = acc * xi + c;
    if (f64)
      ((double *)ref)[s] = acc;
    else
      ((float *)ref)[s] = (float)acc;
    sample[s] = i;
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, deg);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}
