/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sort.c: host half of sort.cl (exact results). */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

int setup_sort(kjob *job, const kdesc *d, ksize size) {
  const int local = d->param == 0;
  const size_t n = size == KSIZE_FULL ? (size_t)1 << (local ? 22 : 24) : 8192;
  krng r;
  kjob_init(job, "sort.cl", local ? "bitonic_local" : "bitonic_step");
  int in = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  uint32_t *h = job->buf[in].host;
  uint32_t *ref = kjob_ref(job, out, KC_U32, n, 0.0, 0.0);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_u32(h, n, &r);
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  if (local) {
    memcpy(ref, h, n * 4);
    for (size_t c = 0; c < n; c += 1024) qsort(ref + c, 1024, 4, cmp_u32);
    kjob_grid(job, n / 1024, 1, 1, 512, 1, 1);
    return 0;
  }
  /* The step of a large merge: partners n/16 apart in sequences of n/8. */
  const size_t j = n / 16, k = n / 8;
  for (size_t i = 0; i < n; ++i) {
    size_t p = i ^ j;
    uint32_t a = h[i], b = h[p];
    int keep_min = (i < p) == ((i & k) == 0);
    ref[i] = keep_min ? (a < b ? a : b) : (a < b ? b : a);
  }
  kjob_arg_i32(job, (int)j);
  kjob_arg_i32(job, (int)k);
  kjob_grid1(job, n, 256);
  return 0;
}
