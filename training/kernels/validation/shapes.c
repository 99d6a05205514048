/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shapes.c: host half of shapes.cl, the kernels chosen for launch shape. */
#include <math.h>
#include <stdlib.h>

#include "validation.h"

static int bnstats_job(kjob *job, const kdesc *d, ksize size) {
  const int batch = size == KSIZE_FULL ? 64 : 2, channels = 100;
  const int plane = size == KSIZE_FULL ? 112 * 112 : 16 * 16;
  const size_t n = (size_t)batch * channels * plane;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shapes.cl", "v_bnstats");
  int x = kjob_buf(job, n * 4, KB_IN), st = kjob_buf(job, channels * 8, KB_OUT);
  /* Each work-item adds ~1600 floats in [0, 1), then a 512-way tree: the
   * rounding is near 1e-6 relative, 1e-4 in the worst case; the variance
   * (1/12) loses another factor 4 to E[x^2] - mean^2. */
  float *ref = kjob_ref(job, st, KC_F32, channels * 2, 4e-4, 0.0);
  float *hx = job->buf[x].host;
  if (hx == NULL || ref == NULL) return -1;
  kfill_f32(hx, n, &r, 0, 1);
  for (int c = 0; c < channels; ++c) {
    double s1 = 0.0, s2 = 0.0;
    for (int img = 0; img < batch; ++img)
      for (int i = 0; i < plane; ++i) {
        const double v = hx[((size_t)img * channels + c) * plane + i];
        s1 += v;
        s2 += v * v;
      }
    const double count = (double)batch * plane;
    ref[2 * c] = (float)(s1 / count);
    ref[2 * c + 1] = (float)(s2 / count - (s1 / count) * (s1 / count));
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, st);
  kjob_arg_i32(job, batch);
  kjob_arg_i32(job, channels);
  kjob_arg_i32(job, plane);
  kjob_grid(job, channels, 1, 1, 512, 1, 1);
  return 0;
}

/* Host GELU with the device's tanh approximation, in double. */
static double gelu(double x) {
  return 0.5 * x * (1.0 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
}

static int bias_gelu_job(kjob *job, const kdesc *d, ksize size) {
  const int groups = size == KSIZE_FULL ? 1057 : 9, per = size == KSIZE_FULL ? 64 : 4;
  const int cols = 3072, n = groups * 256 * per;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shapes.cl", "v_bias_gelu_grid");
  int x = kjob_buf(job, (size_t)n * 4, KB_IN), b = kjob_buf(job, cols * 4, KB_IN);
  int y = kjob_buf(job, (size_t)n * 4, KB_OUT);
  /* expf differs by a few ulp between the device and the host; outputs are
   * O(1) and the tanh-through-exp form cancels near zero. */
  float *ref = vref_sampled(job, y, KC_F32, n, 1e-5, 2e-6);
  float *hx = job->buf[x].host, *hb = job->buf[b].host;
  if (hx == NULL || hb == NULL || ref == NULL) return -1;
  kfill_f32(hx, n, &r, -4, 4);
  kfill_f32(hb, cols, &r, -1, 1);
  for (size_t s = 0; s < job->buf[y].count; ++s) {
    const size_t i = job->buf[y].sample[s];
    ref[s] = (float)gelu((double)(hx[i] + hb[i % cols]));
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, cols);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

enum { CH_X = 24, CH_Y = 32, CH_Z = 16, CH_BINS = CH_X * CH_Y * CH_Z };

/* The cell of a coordinate in [0, 1] (kfill_f32's float rounding can give
 * exactly 1.0, which belongs to the last cell), as the kernel computes it. */
static int cell(float x, int cells) {
  const int c = (int)(x * cells);
  return c < cells ? c : cells - 1;
}

static int cell_hist_job(kjob *job, const kdesc *d, ksize size) {
  const int groups = 529, n = groups * 256 * (size == KSIZE_FULL ? 64 : 1);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shapes.cl", "v_cell_hist");
  int p[3];
  for (int k = 0; k < 3; ++k) {
    p[k] = kjob_buf(job, (size_t)n * 4, KB_IN);
    if (job->buf[p[k]].host == NULL) return -1;
    kfill_f32(job->buf[p[k]].host, n, &r, 0, 1);
  }
  int c = kjob_buf(job, CH_BINS * 4, KB_INOUT);
  uint32_t *ref = kjob_ref(job, c, KC_U32, CH_BINS, 0, 0); /* counts: exact */
  if (job->buf[c].host == NULL || ref == NULL) return -1;
  const float *x = job->buf[p[0]].host, *y = job->buf[p[1]].host, *z = job->buf[p[2]].host;
  for (int i = 0; i < n; ++i)
    ++ref[(cell(z[i], CH_Z) * CH_Y + cell(y[i], CH_Y)) * CH_X + cell(x[i], CH_X)];
  for (int k = 0; k < 3; ++k) kjob_arg_buf(job, p[k]);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, n);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

/* The device's hash (shapes.cl g2_hash), bit for bit. */
static uint32_t g2_hash(uint32_t i, uint32_t k) {
  uint32_t h = i * 0x9E3779B1u ^ (k + 0x7F4A7C15u) * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 13;
  return h;
}

static int l2_gather_job(kjob *job, const kdesc *d, ksize size) {
  const uint32_t entries = size == KSIZE_FULL ? 1u << 22 : 1u << 14;
  const int n = size == KSIZE_FULL ? 1 << 21 : 4096;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shapes.cl", "v_l2_gather");
  int t = kjob_buf(job, (size_t)entries * 4, KB_IN), o = kjob_buf(job, (size_t)n * 4, KB_OUT);
  /* A 32-term float sum of values in [-1, 1), in the device's order. */
  float *ref = vref_sampled(job, o, KC_F32, n, 1e-6, 1e-6);
  float *ht = job->buf[t].host;
  if (ht == NULL || ref == NULL) return -1;
  kfill_f32(ht, entries, &r, -1, 1);
  for (size_t s = 0; s < job->buf[o].count; ++s) {
    float acc = 0.0f;
    for (uint32_t k = 0; k < 32; ++k)
      acc += ht[g2_hash((uint32_t)job->buf[o].sample[s], k) & (entries - 1)];
    ref[s] = acc;
  }
  kjob_arg_buf(job, t);
  kjob_arg_buf(job, o);
  kjob_arg_i32(job, n);
  kjob_arg_u32(job, entries - 1);
  kjob_grid1(job, n, 256);
  return 0;
}

static int oneblock_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 1 << 21 : 1 << 16;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shapes.cl", "v_reduce_oneblock_f64");
  int x = kjob_buf(job, (size_t)n * 8, KB_IN), s = kjob_buf(job, 8, KB_OUT);
  /* A sum of positive doubles in another order: 1e-16 per addition. */
  double *ref = kjob_ref(job, s, KC_F64, 1, 1e-12, 0.0);
  double *hx = job->buf[x].host;
  if (hx == NULL || ref == NULL) return -1;
  kfill_f64(hx, n, &r, -1, 1);
  for (int i = 0; i < n; ++i) *ref += hx[i] * hx[i];
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, s);
  kjob_arg_i32(job, n);
  kjob_grid(job, 1, 1, 1, 256, 1, 1);
  return 0;
}

static int cg_scalars_job(kjob *job, const kdesc *d, ksize size) {
  const int parts = 1024;
  (void)size; /* the same tiny launch at both sizes */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "shapes.cl", "v_cg_scalars");
  int a = kjob_buf(job, parts * 8, KB_IN), b = kjob_buf(job, parts * 8, KB_IN);
  int sc = kjob_buf(job, 4 * 8, KB_INOUT);
  /* Sums of 1024 positive doubles and two divisions. */
  double *ref = kjob_ref(job, sc, KC_F64, 4, 1e-13, 0.0);
  double *ha = job->buf[a].host, *hb = job->buf[b].host, *hs = job->buf[sc].host;
  if (!ha || !hb || !hs || !ref) return -1;
  kfill_f64(ha, parts, &r, 0.5, 1.5);
  kfill_f64(hb, parts, &r, 0.5, 1.5);
  ref[0] = hs[0] = 2385.0; /* the previous iteration's r.r */
  for (int i = 0; i < parts; ++i) {
    ref[1] += ha[i];
    ref[2] += hb[i];
  }
  ref[3] = ref[1] / ref[0];
  ref[2] = ref[1] / ref[2];
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, sc);
  kjob_arg_i32(job, parts);
  kjob_grid(job, 1, 1, 1, 256, 1, 1);
  return 0;
}

int vsetup_shapes(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case VSH_BNSTATS:
      return bnstats_job(job, d, size);
    case VSH_GELU_1057:
      return bias_gelu_job(job, d, size);
    case VSH_CELLHIST_529:
      return cell_hist_job(job, d, size);
    case VSH_L2_GATHER:
      return l2_gather_job(job, d, size);
    case VSH_ONEBLOCK:
      return oneblock_job(job, d, size);
    case VSH_CG_SCALARS:
      return cg_scalars_job(job, d, size);
  }
  return -1;
}
