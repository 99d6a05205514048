/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scan.c: host half of scan.cl. */
#include "suite.h"

/* Prefix sums of up to 512 inputs in [0, 1): each output is a sum of
 * non-negative terms combined in at most 9 levels, so its relative rounding
 * error stays below about 10 x 2^-24. */
#define SCAN_RTOL 1e-5
#define SCAN_ATOL 1e-6

enum { S_HS, S_BLELLOCH, S_SEQ4 };

static int setup_u32(kjob *job, const kdesc *d, size_t n) {
  krng r;
  kjob_init(job, "scan.cl", "scan_seq4_u32");
  int in = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  uint32_t *h = job->buf[in].host;
  uint32_t *ref = kjob_ref(job, out, KC_U32, n, 0.0, 0.0);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  for (size_t i = 0; i < n; ++i) {
    h[i] = krng_u32(&r) & 0xFFFFF;
    ref[i] = (i % 1024 ? ref[i - 1] : 0) + h[i];
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_grid(job, n / 1024, 1, 1, 256, 1, 1);
  return 0;
}

int setup_scan(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 24 : (size_t)1 << 14;
  const int hs = d->param == S_HS;
  const size_t chunk = hs ? 256 : 512;
  krng r;
  if (d->param == S_SEQ4) return setup_u32(job, d, n);
  kjob_init(job, "scan.cl", hs ? "scan_hs_f32" : "scan_blelloch_f32");
  int in = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  float *h = job->buf[in].host;
  float *ref = kjob_ref(job, out, KC_F32, n, SCAN_RTOL, SCAN_ATOL);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(h, n, &r, 0.0, 1.0);
  double run = 0.0;
  for (size_t i = 0; i < n; ++i) {
    if (i % chunk == 0) run = 0.0;
    if (hs) run += h[i];
    ref[i] = (float)run; /* inclusive (HS) or exclusive (Blelloch) */
    if (!hs) run += h[i];
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_grid(job, n / chunk, 1, 1, 256, 1, 1);
  return 0;
}
