/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gsync.c: host half of gsync.cu.  d->param is GSYNC_PARAM(per_cu, log2n,
 * steps): a resident grid of at most per_cu blocks of 256 per SM (the
 * runner sizes it at every SM count from the occupancy calculator and the
 * SMs actually in use), n = 2^log2n words, `steps` grid barriers.
 *
 * The host repeats the steps; every word of the result and the barrier's
 * state after the launch (arrivals 0, generation = steps, no abort) are
 * compared exactly. */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

#define GS_LOCAL 256
#define GS_LOG2N_SMALL 12
#define GS_STEPS_SMALL 6

static int per_cu_of(const kdesc *d) { return d->param / 100000; }
static int log2n_of(const kdesc *d) { return d->param / 1000 % 100; }
static int steps_of(const kdesc *d) { return d->param % 1000; }

static uint32_t update(uint32_t l, uint32_t c, uint32_t r) {
  return (l ^ (c * 2654435761u)) + (r >> 3) + 0x9e3779b9u;
}

int setup_gsync(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, per_cu = per_cu_of(d);
  const size_t n = (size_t)1 << (full ? log2n_of(d) : GS_LOG2N_SMALL);
  const int steps = full ? steps_of(d) : GS_STEPS_SMALL; /* even: the result ends in a */
  kjob_init(job, "gsync.cu", "gsync_step");
  int a = kjob_buf(job, n * 4, KB_INOUT), b = kjob_buf(job, n * 4, KB_IN);
  int bar = kjob_buf(job, 4 * 4, KB_INOUT);
  uint32_t *ha = job->buf[a].host;
  uint32_t *ref = kjob_ref(job, a, KC_U32, n, 0.0, 0.0);
  uint32_t *bref = kjob_ref(job, bar, KC_U32, 3, 0.0, 0.0);
  uint32_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  if (!ha || !ref || !bref || !x || !y) {
    free(x);
    free(y);
    return -1;
  }
  for (size_t i = 0; i < n; ++i) ha[i] = x[i] = (uint32_t)i * 2246822519u + 374761393u;
  for (int s = 0; s < steps; ++s) {
    for (size_t i = 0; i < n; ++i)
      y[i] = update(x[i == 0 ? n - 1 : i - 1], x[i], x[i == n - 1 ? 0 : i + 1]);
    uint32_t *t = x;
    x = y;
    y = t;
  }
  memcpy(ref, x, n * sizeof *ref);
  free(x);
  free(y);
  bref[0] = 0;
  bref[1] = (uint32_t)steps;
  bref[2] = 0;
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, bar);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, steps);
  /* The grid of one SM; the runner sizes it at every SM count. */
  kjob_grid(job, (size_t)per_cu, 1, 1, GS_LOCAL, 1, 1);
  kjob_resident(job, per_cu);
  return 0;
}
