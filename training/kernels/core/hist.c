/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hist.c: host half of hist.cl.  d->param is the number of bins of the
 * global-atomics variant; 0 selects the local-memory variant. */
#include "suite.h"

int setup_hist(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 24 : (size_t)1 << 14;
  const int local = d->param == 0;
  const uint32_t bins = local ? 256 : (uint32_t)d->param;
  krng r;
  kjob_init(job, "hist.cl", local ? "hist_local256" : "hist_global");
  int data = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, bins * 4, KB_INOUT);
  uint32_t *h = job->buf[data].host;
  uint32_t *ref = kjob_ref(job, out, KC_U32, bins, 0.0, 0.0);
  if (!h || !ref || !job->buf[out].host) return -1;
  krng_seed(&r, d->name, 0);
  kfill_u32(h, n, &r);
  for (size_t i = 0; i < n; ++i) ref[h[i] & (bins - 1)]++;
  kjob_arg_buf(job, data);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  if (local) {
    kjob_grid(job, n / (256 * 16), 1, 1, 256, 1, 1);
  } else {
    kjob_arg_u32(job, bins - 1);
    kjob_grid1(job, n, 256);
  }
  return 0;
}
