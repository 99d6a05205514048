/* SPDX-License-Identifier: GPL-3.0-or-later */
/* persist.c: host half of persist.cl.  d->param is PERSIST_PARAM(groups,
 * H, steps): that many work-groups of 256 (one sequence each) step an
 * H x H recurrence (W: 1, 2.25 or 4 MB) `steps` times.
 *
 * W is uniform in +-0.5/sqrt(H) (spectral norm near 0.58: the map
 * contracts, so rounding does not grow along the sequence) and the inputs
 * uniform in +-1.  The host repeats three sequences (the first, middle and
 * last group) with fmaf in the kernel's order; the division may round
 * differently on an OpenCL device, hence the small tolerances. */
#include "suite.h"

#include <math.h>
#include <stdlib.h>

#define PS_RTOL 1e-5
#define PS_ATOL 1e-6
#define PS_CHECKED_GROUPS 3

static int groups_of(const kdesc *d) { return d->param / 1000000; }
static int hidden_of(const kdesc *d) { return d->param / 1000 % 1000 * 4; }
static int steps_of(const kdesc *d) { return d->param % 1000; }

static int run_sequence(const float *wt, const float *x, int h, int steps, int g, float *y) {
  float *hs = calloc((size_t)h, sizeof *hs), *acc = malloc((size_t)h * sizeof *acc);
  if (!hs || !acc) {
    free(hs);
    free(acc);
    return -1;
  }
  for (int t = 0; t < steps; ++t) {
    const float *xt = x + ((size_t)g * (size_t)steps + (size_t)t) * (size_t)h;
    for (int r = 0; r < h; ++r) acc[r] = xt[r];
    for (int k = 0; k < h; ++k)
      for (int r = 0; r < h; ++r)
        acc[r] = fmaf(wt[(size_t)k * (size_t)h + (size_t)r], hs[k], acc[r]);
    for (int r = 0; r < h; ++r) {
      hs[r] = acc[r] / (1.0f + fabsf(acc[r]));
      y[(size_t)t * (size_t)h + (size_t)r] = hs[r];
    }
  }
  free(hs);
  free(acc);
  return 0;
}

int setup_persist(kjob *job, const kdesc *d, ksize size) {
  static const char *entries[] = {"persist_h512", "persist_h768", "persist_h1024"};
  const int full = size == KSIZE_FULL, h = hidden_of(d);
  const int groups = full ? groups_of(d) : 4, steps = full ? steps_of(d) : 4;
  const size_t hh = (size_t)h * (size_t)h, seq = (size_t)steps * (size_t)h;
  const size_t nx = (size_t)groups * seq;
  const float a = 0.5f / sqrtf((float)h);
  const int checked[PS_CHECKED_GROUPS] = {0, groups / 2, groups - 1};
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "persist.cl", entries[h == 512 ? 0 : h == 768 ? 1 : 2]);
  int w = kjob_buf(job, hh * 4, KB_IN), x = kjob_buf(job, nx * 4, KB_IN);
  int y = kjob_buf(job, nx * 4, KB_OUT);
  float *ref = kjob_ref(job, y, KC_F32, PS_CHECKED_GROUPS * seq, PS_RTOL, PS_ATOL);
  size_t *sample = ref ? kjob_sample(job, y) : NULL;
  float *hw = job->buf[w].host, *hx = job->buf[x].host;
  if (!sample || !hw || !hx) return -1;
  kfill_f32(hw, hh, &r, -a, a);
  kfill_f32(hx, nx, &r, -1.0, 1.0);
  for (int c = 0; c < PS_CHECKED_GROUPS; ++c) {
    if (run_sequence(hw, hx, h, steps, checked[c], ref + (size_t)c * seq) != 0) return -1;
    for (size_t i = 0; i < seq; ++i) sample[(size_t)c * seq + i] = (size_t)checked[c] * seq + i;
  }
  kjob_arg_buf(job, w);
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, steps);
  kjob_grid(job, (size_t)groups, 1, 1, 256, 1, 1);
  return 0;
}
