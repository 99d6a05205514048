/* SPDX-License-Identifier: GPL-3.0-or-later */
/* l2.c: host half of l2.cl (reads) and l2x.cu (read-modify-write).
 * d->param is L2_PARAM(kind, MiB): the buffer size in MiB. */
#include "suite.h"

#include <stdlib.h>

#define L2_EXACT 0.0
#define L2_GROUPS 1056

static int kind_of(const kdesc *d) { return d->param / 10000; }
static int mib_of(const kdesc *d) { return d->param % 10000; }

/* Every group reads per_block floats of the n-float buffer from offset
 * group x per_block (mod n): about 2^28 reads (1 GiB) per launch.  The
 * values are small integers, so every window sum is exact; the reference
 * takes it from prefix sums. */
static int setup_read(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t n = full ? (size_t)mib_of(d) << 18 : (size_t)1 << 14;
  const size_t groups = full ? L2_GROUPS : 16;
  const size_t per_block = full ? 254976 : 4096; /* multiples of 1024 */
  kjob_init(job, "l2.cl", "l2_read");
  int buf = kjob_buf(job, n * 4, KB_IN), p = kjob_buf(job, groups * 4, KB_OUT);
  float *h = job->buf[buf].host;
  float *ref = kjob_ref(job, p, KC_F32, groups, L2_EXACT, L2_EXACT);
  uint64_t *prefix = malloc((n + 1) * sizeof *prefix);
  if (!h || !ref || !prefix) {
    free(prefix);
    return -1;
  }
  prefix[0] = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t v = ((uint32_t)i * 2654435761u) >> 30;
    h[i] = (float)v;
    prefix[i + 1] = prefix[i] + v;
  }
  for (size_t g = 0; g < groups; ++g) {
    size_t s = (g * per_block) % n, e = s + per_block;
    uint64_t sum = e <= n ? prefix[e] - prefix[s] : prefix[n] - prefix[s] + prefix[e - n];
    ref[g] = (float)sum;
  }
  free(prefix);
  kjob_arg_buf(job, buf);
  kjob_arg_buf(job, p);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, (int)per_block);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

/* 1024 groups of 256 own n / 1024 words each; passes x n x 8 bytes of
 * L2 traffic = 1 GiB per launch. */
static int setup_rmw(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t n = full ? (size_t)mib_of(d) << 18 : (size_t)1 << 14;
  const size_t groups = full ? 1024 : 16, m = n / groups;
  const int passes = full ? 512 / mib_of(d) : 3;
  kjob_init(job, "l2x.cu", "l2_rmw");
  int x = kjob_buf(job, n * 4, KB_INOUT);
  uint32_t *h = job->buf[x].host;
  uint32_t *ref = kjob_ref(job, x, KC_U32, n, 0.0, 0.0);
  if (!h || !ref) return -1;
  for (size_t i = 0; i < n; ++i) {
    uint32_t v = (uint32_t)i * 2246822519u;
    h[i] = v;
    for (int p = 0; p < passes; ++p) v = v * 1664525u + 1013904223u;
    ref[i] = v;
  }
  kjob_arg_buf(job, x);
  kjob_arg_i32(job, (int)m);
  kjob_arg_i32(job, passes);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

int setup_l2(kjob *job, const kdesc *d, ksize size) {
  return kind_of(d) == L2_RMW ? setup_rmw(job, d, size) : setup_read(job, d, size);
}
