/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lmem.c: host half of lmem.cl.  d->param is the stride in words; the
 * iteration count falls with the conflict degree so every variant takes a
 * few ms on 8 SMs. */
#include "suite.h"

#define LMEM_CHECK 4096

int setup_lmem(kjob *job, const kdesc *d, ksize size) {
  const size_t t = size == KSIZE_FULL ? (size_t)1 << 20 : 2048;
  const int stride = d->param;
  const int ways = stride >= 32 ? 32 : stride;
  const int iters = (size == KSIZE_FULL ? 1024 : 64) / ways;
  kjob_init(job, "lmem.cl", "lmem_stride");
  int out = kjob_buf(job, t * 4, KB_OUT);
  const size_t check = t < LMEM_CHECK ? t : LMEM_CHECK;
  uint32_t *ref = kjob_ref(job, out, KC_U32, check, 0.0, 0.0);
  size_t *sample = kjob_sample(job, out);
  if (!ref || !sample) return -1;
  for (size_t c = 0; c < check; ++c) {
    size_t g = kspread(c, check, t);
    uint32_t grp = (uint32_t)(g / 256), lid = (uint32_t)(g % 256), acc = 0;
    for (int k = 0; k < iters; ++k) {
      uint32_t w = (lid * (uint32_t)stride + (uint32_t)k) & 2047u;
      acc += (w * 2654435761u) ^ grp;
    }
    ref[c] = acc;
    sample[c] = g;
  }
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, stride);
  kjob_arg_i32(job, iters);
  kjob_grid1(job, t, 256);
  return 0;
}
