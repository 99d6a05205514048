/* SPDX-License-Identifier: GPL-3.0-or-later */
/* atomics.c: host half of atomics.cl (exact results). */
#include "suite.h"

enum { AT_ONE, AT_SPREAD, AT_GUPS };

#define SPREAD_WORDS 4096u

static int setup_gups(kjob *job, const kdesc *d, size_t words, size_t t, int iters) {
  krng r;
  kjob_init(job, "atomics.cl", "gups");
  int tab = kjob_buf(job, words * 4, KB_INOUT);
  uint32_t *h = job->buf[tab].host;
  uint32_t *ref = kjob_ref(job, tab, KC_U32, words, 0.0, 0.0);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_u32(h, words, &r);
  for (size_t i = 0; i < words; ++i) ref[i] = h[i];
  for (size_t g = 0; g < t; ++g) {
    uint32_t x = ((uint32_t)g * 2654435761u) | 1u;
    for (int k = 0; k < iters; ++k) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      ref[x & (words - 1)] ^= x;
    }
  }
  kjob_arg_buf(job, tab);
  kjob_arg_u32(job, (uint32_t)(words - 1));
  kjob_arg_i32(job, iters);
  kjob_grid1(job, t, 256);
  return 0;
}

int setup_atomics(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t n = full ? (size_t)1 << 22 : 4096;
  if (d->param == AT_GUPS)
    return setup_gups(job, d, full ? (size_t)1 << 24 : 4096, full ? (size_t)1 << 18 : 1024, 16);
  const int one = d->param == AT_ONE;
  const uint32_t words = one ? 1u : SPREAD_WORDS;
  kjob_init(job, "atomics.cl", one ? "atomic_one" : "atomic_spread");
  int c = kjob_buf(job, words * 4, KB_INOUT);
  uint32_t *ref = kjob_ref(job, c, KC_U32, words, 0.0, 0.0);
  if (!job->buf[c].host || !ref) return -1;
  for (size_t i = 0; i < n; ++i) ref[one ? 0 : ((uint32_t)i * 7919u) & (words - 1)]++;
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, (int)n);
  if (!one) kjob_arg_u32(job, words - 1);
  kjob_grid1(job, n, 256);
  return 0;
}
