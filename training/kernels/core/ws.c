/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ws.c: host half of ws.cl.  d->param is the buffer size in MiB. */
#include "suite.h"

/* The device adds in the same order as the reference (sequential float
 * sum per work-item), so results agree to rounding of single operations. */
#define WS_RTOL 1e-5
#define WS_ATOL 1e-5

int setup_ws(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  /* 2^20 work-items x 128 reads = 512 MiB read per launch (full). */
  const size_t t = full ? (size_t)1 << 20 : (size_t)1 << 12;
  const int passes = full ? 128 : 8;
  const size_t n = full ? (size_t)d->param << 18 : (size_t)1 << 14;
  const size_t mask = n - 1; /* n is a power of two */
  krng r;
  kjob_init(job, "ws.cl", "ws_read");
  int buf = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, t * 4, KB_OUT);
  float *h = job->buf[buf].host;
  float *ref = kjob_ref(job, out, KC_F32, t, WS_RTOL, WS_ATOL);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(h, n, &r, 0.0, 1.0);
  for (size_t g = 0; g < t; ++g) {
    float acc = 0.0f;
    for (int p = 0; p < passes; ++p) acc += h[(g + (size_t)p * t) & mask];
    ref[g] = acc;
  }
  kjob_arg_buf(job, buf);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)mask);
  kjob_arg_i32(job, passes);
  kjob_grid1(job, t, 256);
  return 0;
}
