/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nbody.c: host half of nbody.cl.  The O(n^2) reference is computed for
 * NBODY_CHECK bodies spread over the set. */
#include "suite.h"

#include <math.h>

/* Accelerations sum n = 16384 terms of either sign in single precision with
 * an approximate reciprocal square root (2 ulp in CUDA): compare against
 * NBODY_TOL times the largest reference component. */
#define NBODY_TOL 1e-3
#define NBODY_CHECK 256
#define NBODY_EPS2 0.01f

int setup_nbody(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? 16384 : 512;
  krng r;
  kjob_init(job, "nbody.cl", d->param ? "nbody_tiled" : "nbody_naive");
  int p[4], a[3];
  for (int i = 0; i < 4; ++i) p[i] = kjob_buf(job, n * 4, KB_IN);
  for (int i = 0; i < 3; ++i) a[i] = kjob_buf(job, n * 4, KB_OUT);
  float *h[4];
  for (int i = 0; i < 4; ++i)
    if ((h[i] = job->buf[p[i]].host) == NULL) return -1;
  krng_seed(&r, d->name, 0);
  for (int i = 0; i < 3; ++i) kfill_f32(h[i], n, &r, -1.0, 1.0);
  kfill_f32(h[3], n, &r, 0.5, 1.0);
  double acc[NBODY_CHECK][3], big = 0.0;
  for (size_t s = 0; s < NBODY_CHECK; ++s) {
    size_t i = kspread(s, NBODY_CHECK, n);
    acc[s][0] = acc[s][1] = acc[s][2] = 0.0;
    for (size_t j = 0; j < n; ++j) {
      double dx = (double)h[0][j] - h[0][i], dy = (double)h[1][j] - h[1][i];
      double dz = (double)h[2][j] - h[2][i];
      double inv = 1.0 / sqrt(dx * dx + dy * dy + dz * dz + NBODY_EPS2);
      double sc = h[3][j] * inv * inv * inv;
      acc[s][0] += dx * sc;
      acc[s][1] += dy * sc;
      acc[s][2] += dz * sc;
    }
    for (int c = 0; c < 3; ++c) big = fabs(acc[s][c]) > big ? fabs(acc[s][c]) : big;
  }
  for (int c = 0; c < 3; ++c) {
    float *ref = kjob_ref(job, a[c], KC_F32, NBODY_CHECK, NBODY_TOL, NBODY_TOL * big);
    size_t *sample = kjob_sample(job, a[c]);
    if (!ref || !sample) return -1;
    for (size_t s = 0; s < NBODY_CHECK; ++s) {
      ref[s] = (float)acc[s][c];
      sample[s] = kspread(s, NBODY_CHECK, n);
    }
  }
  for (int i = 0; i < 4; ++i) kjob_arg_buf(job, p[i]);
  for (int i = 0; i < 3; ++i) kjob_arg_buf(job, a[i]);
  kjob_arg_i32(job, (int)n);
  kjob_arg_f32(job, NBODY_EPS2);
  kjob_grid(job, n / 256, 1, 1, 256, 1, 1);
  return 0;
}
