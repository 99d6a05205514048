/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lrate.c: host half of lrate.cl.  d->param is LRATE_PARAM(kind, local,
 * per_item, log2 n): groups of `local` work-items, each copying or scaling
 * per_item floats, over n = 2^log2n floats, so the grid has
 * n / (local x per_item) groups (256K to 2M at the full sizes).
 *
 * A copy is exact and a scale is one rounded multiply, the same on the
 * host: 65536 spread elements are compared exactly. */
#include "suite.h"

#include <stdlib.h>

#define LRATE_SAMPLES 65536
#define LRATE_S 1.7364f
#define LRATE_EXACT 0.0
#define LRATE_LOG2N_SMALL 14

static int kind_of(const kdesc *d) { return d->param / 1000000; }
static int local_of(const kdesc *d) { return d->param / 10000 % 100; }
static int per_item_of(const kdesc *d) { return d->param / 100 % 100; }
static int log2n_of(const kdesc *d) { return d->param % 100; }

static const char *entry_of(int scale, int per_item) {
  if (scale) return per_item == 1 ? "lrate_scale_e1" : "lrate_scale_e16";
  return per_item == 2 ? "lrate_copy_e2" : "lrate_copy_e4";
}

int setup_lrate(kjob *job, const kdesc *d, ksize size) {
  const int scale = kind_of(d) == LR_SCALE, local = local_of(d), e = per_item_of(d);
  const size_t n = (size_t)1 << (size == KSIZE_FULL ? log2n_of(d) : LRATE_LOG2N_SMALL);
  const size_t count = n < LRATE_SAMPLES ? n : LRATE_SAMPLES, span = (size_t)local * (size_t)e;
  kjob_init(job, "lrate.cl", entry_of(scale, e));
  int in = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  float *h = job->buf[in].host;
  float *ref = kjob_ref(job, out, KC_F32, count, LRATE_EXACT, LRATE_EXACT);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  if (!h || !sample) return -1;
  for (size_t i = 0; i < n; ++i) h[i] = (float)(((uint32_t)i * 2654435761u) >> 8) * 0x1p-24f;
  for (size_t j = 0; j < count; ++j) {
    sample[j] = kspread(j, count, n);
    ref[j] = scale ? LRATE_S * h[sample[j]] : h[sample[j]];
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_f32(job, LRATE_S);
  kjob_grid(job, n / span, 1, 1, (size_t)local, 1, 1);
  return 0;
}
