/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw.c: host half of rw.cl.  d->param is RW_PARAM(kind, unroll, grid):
 * grid is the number of work-groups of 256 (0: one pass, n / (256 unroll)
 * groups), or the stride for RW_STRIDE. */
#include "suite.h"

#include <stdlib.h>

/* Inputs are small integers (0..7) stored as floats, so every partial sum
 * below 2^24 is exact in any order: results must match exactly. */
#define RW_EXACT 0.0
#define RW_CHECKED 65536 /* sampled elements of large outputs */
#define RW_SMALL_GRID_MAX 64

static int kind_of(const kdesc *d) { return d->param / 10000000; }
static int unroll_of(const kdesc *d) { return d->param / 1000000 % 10; }
static int grid_of(const kdesc *d) { return d->param % 1000000; }

static float pattern(size_t i) { return (float)(((uint32_t)i * 2654435761u) >> 29); }

/* Work-groups of the launch: the given grid (capped for CI at the small
 * size), or one pass of n elements, unroll per work-item. */
static size_t groups_for(const kdesc *d, size_t n, ksize size) {
  size_t g = (size_t)grid_of(d);
  if (g == 0) return (n + 256 * (size_t)unroll_of(d) - 1) / (256 * (size_t)unroll_of(d));
  return size == KSIZE_SMALL && g > RW_SMALL_GRID_MAX ? RW_SMALL_GRID_MAX : g;
}

static const char *entry(int kind, int unroll) {
  static const char *rd[] = {"", "rd_ilp1", "rd_ilp2", "", "rd_ilp4", "", "", "", "rd_ilp8"};
  static const char *wr[] = {"", "wr_ilp1", "wr_ilp2", "", "wr_ilp4", "", "", "", "wr_ilp8"};
  switch (kind) {
    case RW_RD64:
      return unroll == 1 ? "rd_f64_ilp1" : "rd_f64_ilp4";
    case RW_WR:
      return wr[unroll];
    case RW_CP:
      return unroll == 1 ? "cp_ilp1" : "cp_ilp4";
    default:
      return rd[unroll];
  }
}

static int setup_rd(kjob *job, const kdesc *d, size_t n, size_t groups) {
  const int f64 = kind_of(d) == RW_RD64;
  const size_t es = f64 ? 8 : 4, t = groups * 256;
  kjob_init(job, "rw.cl", entry(kind_of(d), unroll_of(d)));
  int a = kjob_buf(job, n * es, KB_IN), p = kjob_buf(job, groups * es, KB_OUT);
  void *ref = kjob_ref(job, p, f64 ? KC_F64 : KC_F32, groups, RW_EXACT, RW_EXACT);
  double *sum = calloc(groups, sizeof *sum);
  if (!job->buf[a].host || !ref || !sum) {
    free(sum);
    return -1;
  }
  for (size_t i = 0; i < n; ++i) {
    float v = pattern(i);
    if (f64)
      ((double *)job->buf[a].host)[i] = v;
    else
      ((float *)job->buf[a].host)[i] = v;
    sum[(i % t) / 256] += v;
  }
  for (size_t g = 0; g < groups; ++g) {
    if (f64)
      ((double *)ref)[g] = sum[g];
    else
      ((float *)ref)[g] = (float)sum[g];
  }
  free(sum);
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, p);
  kjob_arg_i32(job, (int)n);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

/* A reference of RW_CHECKED elements spread over n (all when fewer). */
static float *sampled_ref(kjob *job, int b, size_t n, size_t **sample) {
  size_t count = n < RW_CHECKED ? n : RW_CHECKED;
  float *ref = kjob_ref(job, b, KC_F32, count, RW_EXACT, RW_EXACT);
  *sample = ref ? kjob_sample(job, b) : NULL;
  if (*sample)
    for (size_t j = 0; j < count; ++j) (*sample)[j] = kspread(j, count, n);
  return *sample ? ref : NULL;
}

static int setup_wr(kjob *job, const kdesc *d, size_t n, size_t groups) {
  const float v = 0.5f;
  size_t *sample;
  kjob_init(job, "rw.cl", entry(RW_WR, unroll_of(d)));
  int out = kjob_buf(job, n * 4, KB_OUT);
  float *ref = sampled_ref(job, out, n, &sample);
  if (!ref) return -1;
  for (size_t j = 0; j < job->buf[out].count; ++j) ref[j] = v + (float)(sample[j] & 1023);
  kjob_arg_buf(job, out);
  kjob_arg_f32(job, v);
  kjob_arg_i32(job, (int)n);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

static int setup_cp(kjob *job, const kdesc *d, size_t n, size_t groups) {
  size_t *sample;
  kjob_init(job, "rw.cl", entry(RW_CP, unroll_of(d)));
  int a = kjob_buf(job, n * 4, KB_IN), c = kjob_buf(job, n * 4, KB_OUT);
  float *ha = job->buf[a].host;
  float *ref = sampled_ref(job, c, n, &sample);
  if (!ha || !ref) return -1;
  for (size_t i = 0; i < n; ++i) ha[i] = pattern(i) - 3.25f;
  for (size_t j = 0; j < job->buf[c].count; ++j) ref[j] = ha[sample[j]];
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, (int)n);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

static int setup_stride(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t n = full ? (size_t)1 << 22 : 4096;
  const size_t nin = full ? (size_t)1 << 26 : (size_t)1 << 16;
  const uint32_t stride = (uint32_t)grid_of(d), mask = (uint32_t)(nin - 1);
  kjob_init(job, "rw.cl", "strided_read");
  int a = kjob_buf(job, nin * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  float *ha = job->buf[a].host;
  float *ref = kjob_ref(job, out, KC_F32, n, RW_EXACT, RW_EXACT);
  if (!ha || !ref) return -1;
  for (size_t i = 0; i < nin; ++i) ha[i] = pattern(i);
  for (size_t i = 0; i < n; ++i) ref[i] = ha[((uint32_t)i * stride) & mask];
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, (int)stride);
  kjob_arg_i32(job, (int)mask);
  kjob_grid1(job, n, 256);
  return 0;
}

int setup_rw(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, kind = kind_of(d);
  size_t n = full ? (size_t)1 << 26 : (size_t)1 << 14;
  if (kind == RW_STRIDE) return setup_stride(job, d, size);
  if (kind == RW_CP || kind == RW_RD64) n = full ? (size_t)1 << 25 : (size_t)1 << 14;
  if (kind == RW_RD_TINY) n = full ? (size_t)1 << 15 : (size_t)1 << 12;
  const size_t groups = groups_for(d, n, size);
  if (kind == RW_WR) return setup_wr(job, d, n, groups);
  if (kind == RW_CP) return setup_cp(job, d, n, groups);
  return setup_rd(job, d, n, groups);
}
