/* SPDX-License-Identifier: GPL-3.0-or-later */
/* chase.c: host half of chase.cl.  d->param is log2 of the number of
 * 4-byte links (table of 16 KiB, 4 MiB, 256 MiB). */
#include "suite.h"

#include <stdlib.h>

#define CHASE_THREADS ((size_t)32768)

int setup_chase(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t n = (size_t)1 << (full ? d->param : 10);
  const size_t t = full ? CHASE_THREADS : 1024;
  /* Fewer steps where each is cheap, so every variant runs a few ms on 8
   * SMs: 16 KiB stays in L1, 4 MiB in L2, 256 MiB goes to DRAM. */
  const int steps = !full ? 64 : d->param <= 12 ? 8192 : d->param <= 20 ? 2048 : 512;
  krng r;
  kjob_init(job, "chase.cl", "chase");
  int next = kjob_buf(job, n * 4, KB_IN), start = kjob_buf(job, t * 4, KB_IN);
  int out = kjob_buf(job, t * 4, KB_OUT);
  uint32_t *hn = job->buf[next].host, *hs = job->buf[start].host;
  uint32_t *ref = kjob_ref(job, out, KC_U32, t, 0.0, 0.0);
  uint32_t *order = malloc(n * sizeof *order);
  if (!hn || !hs || !ref || !order) {
    free(order);
    return -1;
  }
  /* A random order of all n slots, linked into one cycle. */
  krng_seed(&r, d->name, 0);
  for (size_t i = 0; i < n; ++i) order[i] = (uint32_t)i;
  for (size_t i = n - 1; i > 0; --i) {
    size_t j = krng_below(&r, (uint32_t)(i + 1));
    uint32_t tmp = order[i];
    order[i] = order[j];
    order[j] = tmp;
  }
  for (size_t i = 0; i < n; ++i) hn[order[i]] = order[(i + 1) % n];
  /* Work-item g starts at cycle position p and ends `steps` further on. */
  for (size_t g = 0; g < t; ++g) {
    size_t p = n >= t ? g * (n / t) : g % n;
    hs[g] = order[p];
    ref[g] = order[(p + (size_t)steps) % n];
  }
  free(order);
  kjob_arg_buf(job, next);
  kjob_arg_buf(job, start);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, steps);
  kjob_grid1(job, t, 256);
  return 0;
}
