/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vec.c: host half of vec.cu.  d->param is VEC_PARAM(kind, grid): grid
 * the blocks of 256 (0: one float4 per thread). */
#include "suite.h"

#include <math.h>
#include <stdlib.h>

#define VEC_EXACT 0.0
#define VEC_SAMPLES 65536
#define VEC_A (-0.9999847412109375f)
#define VEC_B 0.0009765625f

static int kind_of(const kdesc *d) { return d->param / 10000; }
static int grid_of(const kdesc *d) { return d->param % 10000; }

static float pattern(size_t i) { return (float)(((uint32_t)i * 2654435761u) >> 29); }

/* 2^26 floats (256 MiB); small integers, so each warp's sum is exact. */
static int setup_rd4(kjob *job, const kdesc *d, size_t n, size_t groups) {
  const size_t t = groups * 256, n4 = n / 4, warps = t / 32;
  kjob_init(job, "vec.cu", "vec_rd4");
  int a = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, warps * 4, KB_OUT);
  float *h = job->buf[a].host;
  float *ref = kjob_ref(job, out, KC_F32, warps, VEC_EXACT, VEC_EXACT);
  if (!h || !ref) return -1;
  for (size_t i = 0; i < n; ++i) {
    h[i] = pattern(i);
    ref[((i / 4) % t) / 32] += h[i];
  }
  (void)d;
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n4);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

static int setup_wr4(kjob *job, size_t n, size_t groups) {
  const float v = 0.5f;
  const size_t count = n < VEC_SAMPLES ? n : VEC_SAMPLES;
  kjob_init(job, "vec.cu", "vec_wr4");
  int out = kjob_buf(job, n * 4, KB_OUT);
  float *ref = kjob_ref(job, out, KC_F32, count, VEC_EXACT, VEC_EXACT);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  if (!sample) return -1;
  for (size_t j = 0; j < count; ++j) {
    size_t i = kspread(j, count, n);
    sample[j] = i;
    ref[j] = v + (float)((i & ~(size_t)3) & 1023) + (float)(i & 3);
  }
  kjob_arg_buf(job, out);
  kjob_arg_f32(job, v);
  kjob_arg_i32(job, (int)(n / 4));
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

/* One warp's shfl_rot: lane l takes lane l + 1's value each step. */
static void rot_warp(float *x, int g0, int iters) {
  float y[32];
  for (int l = 0; l < 32; ++l) x[l] = 1.0f + (float)((g0 + l) & 255) * (1.0f / 1024.0f);
  for (int it = 0; it < iters; ++it) {
    for (int l = 0; l < 32; ++l) y[l] = fmaf(x[(l + 1) & 31], VEC_A, VEC_B);
    for (int l = 0; l < 32; ++l) x[l] = y[l];
  }
}

static int setup_rot(kjob *job, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t groups = full ? 1056 : 4, n = groups * 256, warps = n / 32;
  const int iters = full ? 4096 : 16, checked = 4;
  kjob_init(job, "vec.cu", "shfl_rot");
  int out = kjob_buf(job, n * 4, KB_OUT);
  float *ref = kjob_ref(job, out, KC_F32, checked * 32, VEC_EXACT, VEC_EXACT);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  if (!sample) return -1;
  for (int w = 0; w < checked; ++w) {
    const size_t g0 = kspread((size_t)w, (size_t)checked, warps) * 32;
    rot_warp(ref + w * 32, (int)g0, iters);
    for (int l = 0; l < 32; ++l) sample[w * 32 + l] = g0 + (size_t)l;
  }
  kjob_arg_buf(job, out);
  kjob_arg_f32(job, VEC_A);
  kjob_arg_f32(job, VEC_B);
  kjob_arg_i32(job, iters);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

int setup_vec(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t n = full ? (size_t)1 << 26 : 4096;
  size_t groups = (size_t)grid_of(d);
  if (groups == 0) groups = n / 4 / 256;
  if (!full && groups > 4) groups = 4;
  switch (kind_of(d)) {
    case VEC_RD4:
      return setup_rd4(job, d, n, groups);
    case VEC_WR4:
      return setup_wr4(job, n, groups);
    default:
      return setup_rot(job, size);
  }
}
