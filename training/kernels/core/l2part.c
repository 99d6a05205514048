/* SPDX-License-Identifier: GPL-3.0-or-later */
/* l2part.c: host half of l2part.cl (read sweeps) and l2partx.cu
 * (read-modify-write sweeps).  d->param is L2PART_PARAM(kind, MiB): the
 * buffer's size (20, 36 or 48 MiB at the full size).
 *
 * Reads: 1056 groups of 256 take 124 steps of one 16 KiB chunk each, about
 * 2 GiB read per launch whatever the buffer; every group's sum (modulo
 * 2^32) is compared exactly.  Read-modify-writes: a resident grid of up to
 * 8 blocks of 256 per SM, 16 passes over the buffer (1.1 GiB read and as
 * much written at 36 MiB); every word is compared exactly.  Relaunching
 * goes on stepping the words: the check is of the first launch. */
#include "suite.h"

#include <stdlib.h>

#define L2P_LOCAL 256
#define L2P_CHUNK_WORDS 4096 /* read sweep: 16 KiB */
#define L2P_GROUPS_FULL 1056
#define L2P_STEPS_FULL 124
#define L2P_RMW_CHUNK_WORDS 1024 /* read-modify-write: 4 KiB */
#define L2P_RMW_PASSES_FULL 16
#define L2P_RMW_PER_CU 8

static int kind_of(const kdesc *d) { return d->param / 10000; }
static int mib_of(const kdesc *d) { return d->param % 10000; }

static int setup_sweep(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t words = full ? (size_t)mib_of(d) << 18 : (size_t)1 << 15;
  const size_t chunks = words / L2P_CHUNK_WORDS, groups = full ? L2P_GROUPS_FULL : 6;
  const int steps = full ? L2P_STEPS_FULL : 5;
  kjob_init(job, "l2part.cl", "l2part_sweep");
  int buf = kjob_buf(job, words * 4, KB_IN), p = kjob_buf(job, groups * 4, KB_OUT);
  uint32_t *h = job->buf[buf].host;
  uint32_t *ref = kjob_ref(job, p, KC_U32, groups, 0.0, 0.0);
  uint32_t *sums = calloc(chunks, sizeof *sums);
  if (!h || !ref || !sums) {
    free(sums);
    return -1;
  }
  for (size_t i = 0; i < words; ++i) {
    h[i] = ((uint32_t)i * 2654435761u) >> 24;
    sums[i / L2P_CHUNK_WORDS] += h[i];
  }
  for (size_t g = 0; g < groups; ++g) {
    uint32_t s = 0;
    for (int j = 0; j < steps; ++j) s += sums[(g + (size_t)j * groups) % chunks];
    ref[g] = s;
  }
  free(sums);
  kjob_arg_buf(job, buf);
  kjob_arg_buf(job, p);
  kjob_arg_i32(job, (int)chunks);
  kjob_arg_i32(job, steps);
  kjob_grid(job, groups, 1, 1, L2P_LOCAL, 1, 1);
  return 0;
}

static int setup_rmw(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t words = full ? (size_t)mib_of(d) << 18 : (size_t)1 << 14;
  const int passes = full ? L2P_RMW_PASSES_FULL : 3;
  kjob_init(job, "l2partx.cu", "l2part_rmw");
  int x = kjob_buf(job, words * 4, KB_INOUT);
  uint32_t *h = job->buf[x].host;
  uint32_t *ref = kjob_ref(job, x, KC_U32, words, 0.0, 0.0);
  if (!h || !ref) return -1;
  for (size_t i = 0; i < words; ++i) {
    uint32_t v = (uint32_t)i * 2246822519u;
    h[i] = v;
    for (int p = 0; p < passes; ++p) v = v * 1664525u + 1013904223u;
    ref[i] = v;
  }
  kjob_arg_buf(job, x);
  kjob_arg_i32(job, (int)(words / L2P_RMW_CHUNK_WORDS));
  kjob_arg_i32(job, passes);
  /* The grid of the first SM count; the runner sizes it at every count. */
  kjob_grid(job, L2P_RMW_PER_CU, 1, 1, L2P_LOCAL, 1, 1);
  kjob_resident(job, L2P_RMW_PER_CU);
  return 0;
}

int setup_l2part(kjob *job, const kdesc *d, ksize size) {
  return kind_of(d) == L2P_RMW ? setup_rmw(job, d, size) : setup_sweep(job, d, size);
}
