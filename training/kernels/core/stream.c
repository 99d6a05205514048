/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream.c: host half of stream.cl. */
#include "suite.h"

/* Copies and single multiply-adds are exact or off by one rounding (when the
 * device contracts b + s*c into one fused multiply-add); inputs lie in
 * [-1, 1), so a rounding of s*c is at most about 1e-7 in absolute terms even
 * where b + s*c cancels. */
#define STREAM_RTOL 1e-6
#define STREAM_ATOL 1e-6

enum { ST_COPY, ST_SCALE, ST_ADD, ST_TRIAD, ST_TRIAD_F64, ST_STRIDE32 };

static int setup_f64(kjob *job, const kdesc *d, size_t n) {
  krng r;
  const double s = 1.7364;
  kjob_init(job, "stream.cl", "stream_triad_f64");
  int b = kjob_buf(job, n * 8, KB_IN), c = kjob_buf(job, n * 8, KB_IN);
  int a = kjob_buf(job, n * 8, KB_OUT);
  double *hb = job->buf[b].host, *hc = job->buf[c].host;
  double *ref = kjob_ref(job, a, KC_F64, n, STREAM_RTOL, STREAM_ATOL);
  if (!hb || !hc || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f64(hb, n, &r, -1.0, 1.0);
  kfill_f64(hc, n, &r, -1.0, 1.0);
  for (size_t i = 0; i < n; ++i) ref[i] = hb[i] + s * hc[i];
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_buf(job, a);
  kjob_arg_f64(job, s);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job); /* one element per work-item, no grid-stride loop */
  return 0;
}

static int setup_stride(kjob *job, const kdesc *d, size_t n) {
  krng r;
  size_t nin = n * 8; /* 8x more input than output: stays in range */
  kjob_init(job, "stream.cl", "stream_stride32");
  int a = kjob_buf(job, nin * 4, KB_IN), c = kjob_buf(job, n * 4, KB_OUT);
  float *ha = job->buf[a].host;
  float *ref = kjob_ref(job, c, KC_F32, n, STREAM_RTOL, STREAM_ATOL);
  if (!ha || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(ha, nin, &r, -1.0, 1.0);
  size_t mask = nin - 1;
  for (size_t i = 0; i < n; ++i) ref[i] = ha[(i * 32) & mask] + ha[(i * 32 + 1) & mask];
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, (int)mask);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job); /* one element per work-item, no grid-stride loop */
  return 0;
}

int setup_stream(kjob *job, const kdesc *d, ksize size) {
  static const char *entries[] = {"stream_copy", "stream_scale", "stream_add", "stream_triad"};
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 25 : (size_t)1 << 16;
  const float s = 1.7364f;
  krng r;
  if (d->param == ST_TRIAD_F64) return setup_f64(job, d, n);
  if (d->param == ST_STRIDE32) return setup_stride(job, d, n / 8);
  kjob_init(job, "stream.cl", entries[d->param]);
  const int two_inputs = d->param == ST_ADD || d->param == ST_TRIAD;
  int x = kjob_buf(job, n * 4, KB_IN);
  int y = two_inputs ? kjob_buf(job, n * 4, KB_IN) : x;
  int out = kjob_buf(job, n * 4, KB_OUT);
  float *hx = job->buf[x].host, *hy = job->buf[y].host;
  float *ref = kjob_ref(job, out, KC_F32, n, STREAM_RTOL, STREAM_ATOL);
  if (!hx || !hy || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(hx, n, &r, -1.0, 1.0);
  if (two_inputs) kfill_f32(hy, n, &r, -1.0, 1.0);
  for (size_t i = 0; i < n; ++i) {
    switch (d->param) {
      case ST_COPY:
        ref[i] = hx[i];
        break;
      case ST_SCALE:
        ref[i] = s * hx[i];
        break;
      case ST_ADD:
        ref[i] = hx[i] + hy[i];
        break;
      default:
        ref[i] = (float)((double)hx[i] + (double)s * hy[i]);
        break;
    }
  }
  kjob_arg_buf(job, x);
  if (two_inputs) kjob_arg_buf(job, y);
  kjob_arg_buf(job, out);
  if (d->param == ST_SCALE || d->param == ST_TRIAD) kjob_arg_f32(job, s);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job); /* one element per work-item, no grid-stride loop */
  return 0;
}
