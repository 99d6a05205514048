/* SPDX-License-Identifier: GPL-3.0-or-later */
/* floor.c: host half of floor.cu, the power-floor probes.  d->param: 0
 * idle_spin (asleep), 1 busy_spin (spinning on the timer). */
#include "suite.h"

/* One block per SM of the full H100, one warp each, sleeping 2 ms
 * (20 us at the small size). */
enum { FLOOR_BLOCKS = 132, FLOOR_THREADS = 32 };

int setup_floor(kjob *job, const kdesc *d, ksize size) {
  kjob_init(job, "floor.cu", d->param ? "busy_spin" : "idle_spin");
  int out = kjob_buf(job, FLOOR_BLOCKS * 4, KB_OUT);
  uint32_t *ref = kjob_ref(job, out, KC_U32, FLOOR_BLOCKS, 0.0, 0.0);
  if (!ref) return -1;
  for (uint32_t b = 0; b < FLOOR_BLOCKS; ++b) ref[b] = b;
  kjob_arg_buf(job, out);
  kjob_arg_u32(job, size == KSIZE_FULL ? 2000000u : 20000u);
  kjob_grid(job, FLOOR_BLOCKS, 1, 1, FLOOR_THREADS, 1, 1);
  return 0;
}
