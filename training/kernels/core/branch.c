/* SPDX-License-Identifier: GPL-3.0-or-later */
/* branch.c: host half of branch.cl.  d->param is the mode (0 uniform,
 * 1 lane-divergent, 2 data-dependent trip counts). */
#include "suite.h"

#define BRANCH_ITERS 256
#define BRANCH_CHECK 8192

static uint32_t path_work(uint32_t x, int path, int iters) {
  for (int k = 0; k < iters; ++k) {
    if (path == 0)
      x = x * 1664525u + 1013904223u;
    else if (path == 1)
      x = (x ^ (x >> 7)) * 2246822519u;
    else if (path == 2)
      x = (x << 3) + (x >> 5) + 0x7F4A7C15u;
    else
      x = (x ^ 0xA5A5A5A5u) * 3266489917u + (uint32_t)k;
  }
  return x;
}

int setup_branch(kjob *job, const kdesc *d, ksize size) {
  const size_t t = size == KSIZE_FULL ? (size_t)1 << 22 : 4096;
  const int iters = size == KSIZE_FULL ? BRANCH_ITERS : 16;
  krng r;
  kjob_init(job, "branch.cl", "branch_paths");
  int in = kjob_buf(job, t * 4, KB_IN), out = kjob_buf(job, t * 4, KB_OUT);
  uint32_t *h = job->buf[in].host;
  const size_t check = t < BRANCH_CHECK ? t : BRANCH_CHECK;
  uint32_t *ref = kjob_ref(job, out, KC_U32, check, 0.0, 0.0);
  size_t *sample = kjob_sample(job, out);
  if (!h || !ref || !sample) return -1;
  krng_seed(&r, d->name, 0);
  kfill_u32(h, t, &r);
  for (size_t c = 0; c < check; ++c) {
    size_t g = kspread(c, check, t);
    uint32_t x = h[g];
    int path = d->param == 1 ? (int)(g % 256) & 3 : (int)(g / 256) & 3;
    int n = d->param == 2 ? (int)((x & 7u) + 1u) * (iters / 4) : iters;
    ref[c] = path_work(x, path, n);
    sample[c] = g;
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, d->param);
  kjob_arg_i32(job, iters);
  kjob_grid1(job, t, 256);
  return 0;
}
