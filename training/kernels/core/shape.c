/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shape.c: new launch shapes and problem sizes for existing device code,
 * leaving the original entries as they were: stream_copy with other
 * work-group sizes, stream_triad at other array sizes, and the CSR SpMV
 * kernels of spmv.cl on a matrix with power-law row lengths.  d->param is
 * SHAPE_PARAM(kind, value). */
#include "suite.h"

#include <math.h>
#include <stdlib.h>

#define SHAPE_SAMPLES 65536
/* As stream.c: one rounding, or a fused multiply-add. */
#define SHAPE_STREAM_RTOL 1e-6
#define SHAPE_STREAM_ATOL 1e-6

static int kind_of(const kdesc *d) { return d->param / 100000; }
static int value_of(const kdesc *d) { return d->param % 100000; }

static size_t *sample_all(kjob *job, int b, size_t n, size_t count) {
  size_t *s = kjob_sample(job, b);
  for (size_t j = 0; s && j < count; ++j) s[j] = kspread(j, count, n);
  return s;
}

/* stream_copy of 2^25 floats in work-groups of value work-items. */
static int setup_copy(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 25 : (size_t)1 << 14;
  const size_t count = n < SHAPE_SAMPLES ? n : SHAPE_SAMPLES;
  kjob_init(job, "stream.cl", "stream_copy");
  int a = kjob_buf(job, n * 4, KB_IN), c = kjob_buf(job, n * 4, KB_OUT);
  float *ha = job->buf[a].host;
  float *ref = kjob_ref(job, c, KC_F32, count, 0.0, 0.0);
  size_t *s = ref ? sample_all(job, c, n, count) : NULL;
  if (!ha || !s) return -1;
  for (size_t i = 0; i < n; ++i) ha[i] = (float)(((uint32_t)i * 2654435761u) >> 8) * 0x1p-24f;
  for (size_t j = 0; j < count; ++j) ref[j] = ha[s[j]];
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, (size_t)value_of(d));
  return 0;
}

/* stream_triad with arrays of value MiB each. */
static int setup_triad(kjob *job, const kdesc *d, ksize size) {
  const float sc = 1.7364f;
  const size_t n = size == KSIZE_FULL ? (size_t)value_of(d) << 18 : 4096;
  const size_t count = n < SHAPE_SAMPLES ? n : SHAPE_SAMPLES;
  krng r;
  kjob_init(job, "stream.cl", "stream_triad");
  int b = kjob_buf(job, n * 4, KB_IN), c = kjob_buf(job, n * 4, KB_IN);
  int a = kjob_buf(job, n * 4, KB_OUT);
  float *hb = job->buf[b].host, *hc = job->buf[c].host;
  float *ref = kjob_ref(job, a, KC_F32, count, SHAPE_STREAM_RTOL, SHAPE_STREAM_ATOL);
  size_t *s = ref ? sample_all(job, a, n, count) : NULL;
  if (!hb || !hc || !s) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(hb, n, &r, -1.0, 1.0);
  kfill_f32(hc, n, &r, -1.0, 1.0);
  for (size_t j = 0; j < count; ++j) ref[j] = (float)((double)hb[s[j]] + (double)sc * hc[s[j]]);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_buf(job, a);
  kjob_arg_f32(job, sc);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* Row lengths of a power law: the row of rank k (rows in random order) has
 * max(2, top / (k + 1)^0.9) nonzeros, so a few rows hold top/5 to top and
 * most hold 2-4: about 6.5M nonzeros over 2^20 rows for top = 100000.
 * The scalar kernel (a row per work-item) gets top = 25000: its longest
 * row is a serial chain of dependent loads, and 100000 of them would take
 * some 10-30 ms at any SM count.  Values are
 * multiples of 1/4 in [0, 1] and x multiples of 1/4 in [0, 0.75]: every
 * row sum is exact in float, whatever the order. */
static int row_len(size_t rank, int full, double top) {
  if (!full) return rank < 4 ? 200 >> rank : 2;
  double len = top / pow((double)rank + 1.0, 0.9);
  return len < 2.0 ? 2 : (int)len;
}

static void shuffle(size_t *p, size_t n, krng *r) {
  for (size_t i = 0; i < n; ++i) p[i] = i;
  for (size_t i = n - 1; i > 0; --i) {
    size_t j = krng_below(r, (uint32_t)(i + 1)), t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
}

static int setup_spmv_pl(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, vector = value_of(d);
  const size_t n = full ? (size_t)1 << 20 : 1024;
  const double top = vector ? 100000.0 : 25000.0;
  size_t *rank = malloc(n * sizeof *rank), nnz = 0;
  krng r;
  if (!rank) return -1;
  krng_seed(&r, d->name, 0);
  shuffle(rank, n, &r);
  for (size_t i = 0; i < n; ++i) nnz += (size_t)row_len(rank[i], full, top);
  kjob_init(job, "spmv.cl", vector ? "spmv_csr_vector" : "spmv_csr_scalar");
  int rp = kjob_buf(job, (n + 1) * 4, KB_IN), col = kjob_buf(job, nnz * 4, KB_IN);
  int val = kjob_buf(job, nnz * 4, KB_IN), x = kjob_buf(job, n * 4, KB_IN);
  int y = kjob_buf(job, n * 4, KB_OUT);
  int *hr = job->buf[rp].host, *hcol = job->buf[col].host;
  float *hv = job->buf[val].host, *hx = job->buf[x].host;
  float *ref = kjob_ref(job, y, KC_F32, n, 0.0, 0.0);
  if (!hr || !hcol || !hv || !hx || !ref) {
    free(rank);
    return -1;
  }
  for (size_t i = 0; i < n; ++i) hx[i] = (float)krng_below(&r, 4) * 0.25f;
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    double s = 0.0;
    hr[i] = (int)k;
    for (int j = row_len(rank[i], full, top); j > 0; --j, ++k) {
      hcol[k] = (int)krng_below(&r, (uint32_t)n);
      hv[k] = (float)(1 + krng_below(&r, 4)) * 0.25f;
      s += (double)hv[k] * hx[hcol[k]];
    }
    ref[i] = (float)s;
  }
  hr[n] = (int)k;
  free(rank);
  for (int b = 0; b < 4; ++b) kjob_arg_buf(job, b);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, (int)n);
  if (vector)
    kjob_grid(job, (n + 7) / 8, 1, 1, 256, 1, 1);
  else
    kjob_grid1(job, n, 256);
  return 0;
}

int setup_shape(kjob *job, const kdesc *d, ksize size) {
  switch (kind_of(d)) {
    case SHAPE_COPY:
      return setup_copy(job, d, size);
    case SHAPE_TRIAD:
      return setup_triad(job, d, size);
    default:
      return setup_spmv_pl(job, d, size);
  }
}
