/* SPDX-License-Identifier: GPL-3.0-or-later */
/* inflight.c: host half of inflight.cu.  d->param is INFLIGHT_PARAM(kind,
 * bytes, warps): a read (sum) or write (fill) stream of 512 MiB with
 * `bytes`-wide accesses (4 or 16) and `warps` resident warps per SM
 * (2, 4, 8 or 16), in blocks of 2 warps: the dynamic shared memory per
 * block lets warps / 2 blocks share an SM's 228 KiB (1 KiB of it reserved
 * per block) and not one more, with a few KiB to spare either way.  8192
 * blocks of 64 KiB each.
 *
 * Words are integers, every sum is modulo 2^32: the block sums and the
 * filled words (65536 spread ones) are compared exactly. */
#include "suite.h"

#include <stdlib.h>

#define IF_LOCAL 64
#define IF_SPAN_FULL ((size_t)65536) /* bytes per block */
#define IF_SPAN_SMALL ((size_t)8192)
#define IF_GROUPS_FULL 8192
#define IF_GROUPS_SMALL 4
#define IF_SAMPLES 65536
#define IF_SEED 0x2545f491u

static int kind_of(const kdesc *d) { return d->param / 10000; }
static int bytes_of(const kdesc *d) { return d->param / 100 % 100; }
static int warps_of(const kdesc *d) { return d->param % 100; }

/* KiB of dynamic shared memory for b blocks per SM: b (s + 1) <= 228 - 20
 * and (b + 1)(s + 1) > 228 + 5. */
static size_t smem_kib(int blocks) {
  switch (blocks) {
    case 1:
      return 150;
    case 2:
      return 90;
    case 4:
      return 48;
    default:
      return 25; /* 8 blocks: 208 KiB, 9 would need 234 */
  }
}

static uint32_t word_of(size_t i) { return ((uint32_t)i * 2654435761u) >> 24; }

int setup_inflight(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, rd = kind_of(d) == IF_READ, bytes = bytes_of(d);
  const size_t groups = full ? IF_GROUPS_FULL : IF_GROUPS_SMALL;
  const size_t span = full ? IF_SPAN_FULL : IF_SPAN_SMALL, words = groups * span / 4;
  if (rd) {
    kjob_init(job, "inflight.cu", bytes == 16 ? "inflight_rd16" : "inflight_rd4");
    int in = kjob_buf(job, words * 4, KB_IN), p = kjob_buf(job, groups * 4, KB_OUT);
    uint32_t *h = job->buf[in].host;
    uint32_t *ref = kjob_ref(job, p, KC_U32, groups, 0.0, 0.0);
    if (!h || !ref) return -1;
    for (size_t i = 0; i < words; ++i) {
      h[i] = word_of(i);
      ref[i / (span / 4)] += h[i];
    }
    kjob_arg_buf(job, in);
    kjob_arg_buf(job, p);
  } else {
    const size_t count = words < IF_SAMPLES ? words : IF_SAMPLES;
    kjob_init(job, "inflight.cu", "inflight_wr16");
    int out = kjob_buf(job, words * 4, KB_OUT);
    uint32_t *ref = kjob_ref(job, out, KC_U32, count, 0.0, 0.0);
    size_t *sample = ref ? kjob_sample(job, out) : NULL;
    if (!sample) return -1;
    for (size_t j = 0; j < count; ++j) {
      sample[j] = kspread(j, count, words);
      ref[j] = (uint32_t)sample[j] * 2654435761u + IF_SEED;
    }
    kjob_arg_buf(job, out);
  }
  kjob_arg_i32(job, (int)(span / (size_t)bytes));
  if (!rd) kjob_arg_u32(job, IF_SEED);
  job->dyn_local = smem_kib(warps_of(d) / 2) * 1024;
  kjob_grid(job, groups, 1, 1, IF_LOCAL, 1, 1);
  return 0;
}
