/* SPDX-License-Identifier: GPL-3.0-or-later */
/* transpose.c: host half of transpose.cl (exact results). */
#include "suite.h"

enum { TR_NAIVE, TR_TILED, TR_TILED_PAD };

int setup_transpose(kjob *job, const kdesc *d, ksize size) {
  static const char *entries[] = {"transpose_naive", "transpose_tiled", "transpose_tiled_pad"};
  const size_t n = size == KSIZE_FULL ? 4096 : 128;
  krng r;
  kjob_init(job, "transpose.cl", entries[d->param]);
  int in = kjob_buf(job, n * n * 4, KB_IN), out = kjob_buf(job, n * n * 4, KB_OUT);
  float *h = job->buf[in].host;
  float *ref = kjob_ref(job, out, KC_F32, n * n, 0.0, 0.0);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(h, n * n, &r, -1.0, 1.0);
  for (size_t y = 0; y < n; ++y)
    for (size_t x = 0; x < n; ++x) ref[x * n + y] = h[y * n + x];
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  if (d->param == TR_NAIVE)
    kjob_grid(job, n / 16, n / 16, 1, 16, 16, 1);
  else
    kjob_grid(job, n / 32, n / 32, 1, 32, 8, 1);
  kjob_sampleable(job); /* one tile per work-group */
  return 0;
}
