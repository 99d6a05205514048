/* SPDX-License-Identifier: GPL-3.0-or-later */
/* contention.c: host half of contention.cl (image histograms at two
 * contention levels, a reduction finished with atomics, stream compaction
 * through an atomic counter). */
#include <stdio.h>
#include <stdlib.h>

#include "validation.h"

/* A 16384 x 8192 8-bit image, or 256 x 256 small, packed four per word.
 * spread: a diagonal gradient with noise, so every bin is used and a warp's
 * pixels rarely share one.  dark: seven pixels in eight are 0 (a night
 * frame), so most local atomics of a warp hit the same bin. */
static void fill_image(uint8_t *px, int w, int h, int dark, krng *r) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const uint32_t u = krng_u32(r);
      size_t i = (size_t)y * w + x;
      if (dark)
        px[i] = (u & 7) != 0 ? 0 : (uint8_t)(u >> 8);
      else
        px[i] = (uint8_t)((x / 64 + y / 32) + (u & 31));
    }
}

static int hist_job(kjob *job, const kdesc *d, ksize size, int dark) {
  const int w = size == KSIZE_FULL ? 16384 : 256, h = size == KSIZE_FULL ? 8192 : 256;
  const size_t n = (size_t)w * h;
  const int groups = size == KSIZE_FULL ? 2048 : 16;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "contention.cl", "v_hist_image");
  int img = kjob_buf(job, n, KB_IN), hb = kjob_buf(job, 256 * 4, KB_INOUT);
  uint32_t *ref = kjob_ref(job, hb, KC_U32, 256, 0, 0); /* counts: exact */
  uint8_t *px = job->buf[img].host;
  if (px == NULL || job->buf[hb].host == NULL || ref == NULL) return -1;
  fill_image(px, w, h, dark, &r);
  for (size_t i = 0; i < n; ++i) ++ref[px[i]];
  kjob_arg_buf(job, img);
  kjob_arg_buf(job, hb);
  kjob_arg_i32(job, (int)(n / 4));
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

static int sum_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 26 : (size_t)1 << 16;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "contention.cl", "v_sum_atomic");
  int x = kjob_buf(job, n * 4, KB_IN), t = kjob_buf(job, 8, KB_INOUT);
  uint32_t *ref = kjob_ref(job, t, KC_U32, 2, 0, 0); /* integers: exact */
  uint32_t *hx = job->buf[x].host;
  if (hx == NULL || job->buf[t].host == NULL || ref == NULL) return -1;
  for (size_t i = 0; i < n; ++i) {
    hx[i] = krng_below(&r, 1u << 24);
    ref[0] += hx[i]; /* wraps mod 2^32, as the device's sum does */
    ref[1] = hx[i] > ref[1] ? hx[i] : ref[1];
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, t);
  kjob_grid(job, n / (256 * 16), 1, 1, 256, 1, 1);
  return 0;
}

/* ---- compaction -------------------------------------------------------- */

typedef struct compact_data {
  float thresh;
  size_t n;
} compact_data;

/* The output order depends on which group wins the counter, so the check
 * asks for a set: every listed index selected, none twice (the count is
 * compared as a buffer). */
static int compact_check(const kjob *job, char *msg, size_t size) {
  const compact_data *cd = job->priv;
  const float *v = job->buf[0].host;
  const uint32_t *out = job->buf[1].result, count = *(uint32_t *)job->buf[2].result;
  uint8_t *seen = calloc(cd->n, 1);
  if (seen == NULL) {
    snprintf(msg, size, "out of memory");
    return -1;
  }
  for (uint32_t k = 0; k < count; ++k) {
    if (out[k] >= cd->n || !(v[out[k]] > cd->thresh) || seen[out[k]]) {
      snprintf(msg, size, "output %u: index %u is not a new selected element", k, out[k]);
      free(seen);
      return -1;
    }
    seen[out[k]] = 1;
  }
  free(seen);
  return 0;
}

static int compact_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 25 : (size_t)1 << 16;
  const float thresh = 0.75f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "contention.cl", "v_compact_counter");
  int v = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  int c = kjob_buf(job, 4, KB_INOUT);
  uint32_t *ref = kjob_ref(job, c, KC_U32, 1, 0, 0); /* a count: exact */
  float *hv = job->buf[v].host;
  compact_data *cd = job->priv = malloc(sizeof *cd);
  if (hv == NULL || job->buf[c].host == NULL || ref == NULL || cd == NULL) return -1;
  kfill_f32(hv, n, &r, 0, 1);
  for (size_t i = 0; i < n; ++i) *ref += hv[i] > thresh;
  cd->thresh = thresh;
  cd->n = n;
  job->check = compact_check;
  kjob_arg_buf(job, v);
  kjob_arg_buf(job, out);
  kjob_arg_buf(job, c);
  kjob_arg_f32(job, thresh);
  kjob_arg_i32(job, (int)n);
  kjob_grid(job, n / (256 * 8), 1, 1, 256, 1, 1);
  return 0;
}

int vsetup_contention(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case VCT_HIST_SPREAD:
      return hist_job(job, d, size, 0);
    case VCT_HIST_DARK:
      return hist_job(job, d, size, 1);
    case VCT_SUM:
      return sum_job(job, d, size);
    case VCT_COMPACT:
      return compact_job(job, d, size);
  }
  return -1;
}
