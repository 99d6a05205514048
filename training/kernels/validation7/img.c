/* SPDX-License-Identifier: GPL-3.0-or-later */
/* img.c: host half of img.cl (Bayer demosaicing, depth back-projection,
 * Haar cascade, local maxima).  Pixels, cascade results and the peak list
 * are integers and exact (the list is compared as a set: the order of the
 * appends is the device's); the back-projected points are the same float
 * products. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation7.h"

/* Fills n bytes from r, eight at a time. */
static void fill_bytes(uint8_t *p, size_t n, krng *r) {
  for (size_t i = 0; i < n; i += 8) {
    const uint64_t v = krng_u64(r);
    for (size_t k = 0; k < 8 && i + k < n; ++k) p[i + k] = (uint8_t)(v >> (8 * k));
  }
}

/* ---- Bayer demosaicing --------------------------------------------------------------------------
 */

static int mirror(int v, int n) { return v < 0 ? 1 : v >= n ? n - 2 : v; }

static uint32_t demosaic_pixel(const uint8_t *raw, int w, int h, int x, int y) {
  const int xm = mirror(x - 1, w), xp = mirror(x + 1, w);
  const uint8_t *rm = raw + (size_t)mirror(y - 1, h) * w, *rc = raw + (size_t)y * w;
  const uint8_t *rp = raw + (size_t)mirror(y + 1, h) * w;
  const int c = rc[x], l = rc[xm], r = rc[xp], u = rm[x], d = rp[x];
  const int cross = (l + r + u + d + 2) >> 2, diag = (rm[xm] + rm[xp] + rp[xm] + rp[xp] + 2) >> 2;
  const int horiz = (l + r + 1) >> 1, vert = (u + d + 1) >> 1;
  int red = vert, green = c, blue = horiz; /* green on a blue row */
  if (y % 2 == 0 && x % 2 == 0) {
    red = c;
    green = cross;
    blue = diag;
  } else if (y % 2 == 1 && x % 2 == 1) {
    red = diag;
    green = cross;
    blue = c;
  } else if (y % 2 == 0) {
    red = horiz;
    blue = vert;
  }
  return (uint32_t)red | (uint32_t)green << 8 | (uint32_t)blue << 16 | 0xff000000u;
}

static int bayer_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 16384 : 256, h = full ? 12288 : 128;
  const size_t n = (size_t)w * h;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "img.cl", "r_bayer_demosaic_u8");
  int ib = kjob_buf(job, n, KB_IN), ob = kjob_buf(job, n * 4, KB_OUT);
  uint32_t *ref = rref_sampled(job, ob, KC_U32, n, 0, 0);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  uint8_t *raw = job->buf[ib].host;
  fill_bytes(raw, n, &r);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    ref[s] = demosaic_pixel(raw, w, h, (int)(e % w), (int)(e / w));
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- depth back-projection --------------------------------------------------------------- */

static int depth_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, frames = full ? 32 : 2, w = full ? 1920 : 160;
  const int h = full ? 1080 : 120, dmax = 8000;
  const size_t n = (size_t)frames * w * h;
  const float fx = 0.9f * w, fy = 0.9f * w, cx = 0.5f * w - 0.5f, cy = 0.5f * h - 0.5f;
  const float inv_fx = 1.0f / fx, inv_fy = 1.0f / fy, dscale = 0.001f;
  (void)d; /* the frames are a function of the pixel index */
  kjob_init(job, "img.cl", "r_depth_backproject_u16");
  int db = kjob_buf(job, n * 2, KB_IN), ob = kjob_buf(job, n * 12, KB_OUT);
  float *ref = rref_sampled(job, ob, KC_F32, n * 3, 0, 0);
  if (job->buf[db].host == NULL || ref == NULL) return -1;
  uint16_t *dep = job->buf[db].host;
  for (size_t e = 0; e < n; ++e) { /* a tilted floor and wall, holes, and far (invalid) rows */
    const int u = (int)(e % w), v = (int)(e / w % h), f = (int)(e / ((size_t)w * h));
    const uint32_t hsh = r_hash_host((uint32_t)e);
    int z = 1200 + 3 * u / 2 + v + 40 * f + (int)(hsh & 15);
    if (v < h / 20) z = 9000 + (int)(hsh & 255);
    dep[e] = hsh % 33 == 0 ? 0 : (uint16_t)z;
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t k = job->buf[ob].sample[s], e = k / 3;
    const int u = (int)(e % w), v = (int)(e / w % h), dv = dep[e];
    const float z = dv <= dmax ? (float)dv * dscale : 0.0f;
    ref[s] = k % 3 == 0   ? ((float)u - cx) * inv_fx * z
             : k % 3 == 1 ? ((float)v - cy) * inv_fy * z
                          : z;
  }
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_arg_i32(job, (int)n);
  kjob_arg_f32(job, inv_fx);
  kjob_arg_f32(job, inv_fy);
  kjob_arg_f32(job, cx);
  kjob_arg_f32(job, cy);
  kjob_arg_f32(job, dscale);
  kjob_arg_i32(job, dmax);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- Haar cascade ------------------------------------------------------------------------ */

enum { HA_OUT = 84, HA_WIN = 24, HA_R = 3, HA_FW = 3 + 5 * HA_R, HA_STAGES = 5, HA_TRAIN = 2048 };
static const int HA_STAGE_FEATURES[HA_STAGES] = {12, 24, 36, 48, 64};

typedef struct haar {
  const uint32_t *ii; /* integral image, (width + 1)^2, zero first row and column */
  int stride;
  int *feat, *stage, nfeat;
} haar;

static int32_t feature_value(const haar *c, const int *f, int x, int y) {
  int32_t v = 0;
  for (int q = 0; q < HA_R; ++q) {
    const int *rc = f + 3 + 5 * q, ax = x + rc[0], ay = y + rc[1], bx = ax + rc[2], by = ay + rc[3];
    const uint32_t box = c->ii[(size_t)by * c->stride + bx] - c->ii[(size_t)ay * c->stride + bx] -
                         c->ii[(size_t)by * c->stride + ax] + c->ii[(size_t)ay * c->stride + ax];
    v += rc[4] * (int32_t)box;
  }
  return v;
}

/* Stage s's sum for the window at (x, y); f is the stage's first feature. */
static int stage_sum(const haar *c, const int *f, int s, int x, int y) {
  int sum = 0;
  for (int j = 0; j < c->stage[2 * s]; ++j, f += HA_FW)
    sum += feature_value(c, f, x, y) < f[0] ? f[1] : f[2];
  return sum;
}

static uint32_t cascade(const haar *c, int x, int y) {
  const int *f = c->feat;
  uint32_t passed = 0;
  for (int s = 0; s < HA_STAGES; ++s) {
    if (stage_sum(c, f, s, x, y) < c->stage[2 * s + 1]) break;
    f += HA_FW * c->stage[2 * s];
    ++passed;
  }
  return passed;
}

/* A random two-, three- or four-part Haar feature inside the window. */
static void random_feature(int *f, krng *r) {
  memset(f, 0, HA_FW * sizeof *f);
  const int type = (int)krng_below(r, 4), k = 2 + (int)krng_below(r, 6),
            m = 2 + (int)krng_below(r, 8);
  int w = 2 * k, h = m, mid[5] = {k, 0, k, m, 2};
  if (type == 1) { /* vertical edge */
    w = m;
    h = 2 * k;
    mid[0] = 0;
    mid[1] = k;
    mid[2] = m;
    mid[3] = k;
  } else if (type == 2) { /* three-part line */
    w = 3 * k;
    mid[4] = 3;
  } else if (type == 3) { /* diagonal: two quarters against the whole */
    h = 2 * m;
    mid[0] = 0;
  }
  const int x = (int)krng_below(r, (uint32_t)(HA_WIN - w + 1)),
            y = (int)krng_below(r, (uint32_t)(HA_WIN - h + 1));
  const int whole[5] = {x, y, w, h, -1};
  memcpy(f + 3, whole, sizeof whole);
  const int part[5] = {x + mid[0], y + mid[1], mid[2], mid[3], mid[4]};
  memcpy(f + 8, part, sizeof part);
  if (type == 3) {
    const int other[5] = {x + k, y + m, k, m, 2};
    memcpy(f + 13, other, sizeof other);
  }
}

static int cmp_int(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Feature thresholds at the median of the feature's value over training
 * windows, stage thresholds at the median stage sum of the windows that
 * passed the stages before: about half the windows leave at each stage. */
static void train_cascade(haar *c, int span, krng *r) {
  int xs[HA_TRAIN], ys[HA_TRAIN], vals[HA_TRAIN], alive = HA_TRAIN;
  for (int i = 0; i < HA_TRAIN; ++i) {
    xs[i] = (int)krng_below(r, (uint32_t)span);
    ys[i] = (int)krng_below(r, (uint32_t)span);
  }
  int *f = c->feat;
  for (int s = 0; s < HA_STAGES; ++s) {
    int *first = f;
    for (int j = 0; j < c->stage[2 * s]; ++j, f += HA_FW) {
      random_feature(f, r);
      for (int i = 0; i < alive; ++i) vals[i] = feature_value(c, f, xs[i], ys[i]);
      qsort(vals, (size_t)alive, sizeof *vals, cmp_int);
      f[0] = vals[alive / 2];
      f[1] = -1 - (int)krng_below(r, 15);
      f[2] = 1 + (int)krng_below(r, 15);
    }
    for (int i = 0; i < alive; ++i) vals[i] = stage_sum(c, first, s, xs[i], ys[i]);
    qsort(vals, (size_t)alive, sizeof *vals, cmp_int);
    c->stage[2 * s + 1] = vals[alive / 2];
    int kept = 0;
    for (int i = 0; i < alive; ++i)
      if (stage_sum(c, first, s, xs[i], ys[i]) >= c->stage[2 * s + 1]) {
        xs[kept] = xs[i];
        ys[kept++] = ys[i];
      }
    alive = kept > 16 ? kept : 16;
  }
}

/* A scene of smooth blobs with noise. */
static void haar_image(uint8_t *img, int side, krng *r) {
  double bx[64], by[64], br[64], ba[64];
  for (int b = 0; b < 64; ++b) {
    bx[b] = krng_uniform(r, 0, side);
    by[b] = krng_uniform(r, 0, side);
    br[b] = krng_uniform(r, 10, 80);
    ba[b] = krng_uniform(r, -90, 90);
  }
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      double v = 110 + 30 * sin(x * 0.013) * cos(y * 0.017);
      for (int b = 0; b < 64; ++b) {
        const double dx = (x - bx[b]) / br[b], dy = (y - by[b]) / br[b];
        if (dx * dx + dy * dy < 1) v += ba[b] * (1 - dx * dx - dy * dy);
      }
      v += (double)krng_below(r, 21) - 10;
      img[(size_t)y * side + x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

static int haar_job(kjob *job, const kdesc *d, ksize size) {
  const int tiles = size == KSIZE_FULL ? 23 : 2, span = tiles * HA_OUT, side = span + HA_WIN - 1;
  int nfeat = 0;
  for (int s = 0; s < HA_STAGES; ++s) nfeat += HA_STAGE_FEATURES[s];
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "img.cl", "r_haar_stage_529");
  int ib = kjob_buf(job, (size_t)side * side, KB_IN),
      fb = rbuf_u32(job, (size_t)nfeat * HA_FW, KB_IN);
  int sb = rbuf_u32(job, 2 * HA_STAGES, KB_IN), ob = rbuf_u32(job, (size_t)span * span, KB_OUT);
  uint32_t *ref = rref_sampled(job, ob, KC_U32, (size_t)span * span, 0, 0);
  const int stride = side + 1;
  uint32_t *ii = calloc((size_t)stride * stride, sizeof *ii);
  if (job->buf[ib].host == NULL || fb < 0 || sb < 0 || ref == NULL || ii == NULL) {
    free(ii);
    return -1;
  }
  uint8_t *img = job->buf[ib].host;
  haar_image(img, side, &r);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      ii[(size_t)(y + 1) * stride + x + 1] =
          img[(size_t)y * side + x] + ii[(size_t)y * stride + x + 1] +
          ii[(size_t)(y + 1) * stride + x] - ii[(size_t)y * stride + x];
  haar c = {ii, stride, job->buf[fb].host, job->buf[sb].host, nfeat};
  for (int s = 0; s < HA_STAGES; ++s) c.stage[2 * s] = HA_STAGE_FEATURES[s];
  train_cascade(&c, span, &r);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    ref[s] = cascade(&c, (int)(e % span), (int)(e / span));
  }
  free(ii);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, side);
  kjob_arg_i32(job, tiles);
  kjob_arg_i32(job, HA_STAGES);
  kjob_grid(job, (size_t)tiles * tiles, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- local maxima ------------------------------------------------------------------------ */

typedef struct peak_chk {
  int cb, lb;
  uint32_t count;
  uint32_t list[]; /* ascending */
} peak_chk;

static int cmp_u32(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static int peak_check(const kjob *job, char *msg, size_t size) {
  const peak_chk *c = job->priv;
  uint32_t *got = job->buf[c->lb].result;
  qsort(got, c->count, sizeof *got, cmp_u32);
  for (uint32_t i = 0; i < c->count; ++i)
    if (got[i] != c->list[i]) {
      snprintf(msg, size, "peak %u of %u: pixel %u listed, %u expected", i, c->count, got[i],
               c->list[i]);
      return -1;
    }
  return 0;
}

static int is_peak(const float *img, int w, int h, int x, int y, float thr) {
  const float *p = img + (size_t)y * w + x, c = *p;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1 || !(c > thr)) return 0;
  return c > p[-w - 1] && c > p[-w] && c > p[-w + 1] && c > p[-1] && c > p[1] && c > p[w - 1] &&
         c > p[w] && c > p[w + 1];
}

/* Faint noisy sky with a gradient, and Gaussian stars. */
static void star_field(float *img, int w, int h, int stars, krng *r) {
  for (size_t i = 0; i < (size_t)w * h; ++i) {
    const uint32_t v = r_hash_host((uint32_t)i * 2654435761u + 7u);
    img[i] = (float)(v >> 8) * (10.0f / 16777216.0f) + 15.0f * (float)(i % (size_t)w) / (float)w;
  }
  for (int s = 0; s < stars; ++s) {
    const double sx = krng_uniform(r, 4, w - 4), sy = krng_uniform(r, 4, h - 4);
    const double amp = krng_uniform(r, 60, 500);
    for (int y = (int)sy - 3; y <= (int)sy + 3; ++y)
      for (int x = (int)sx - 3; x <= (int)sx + 3; ++x)
        img[(size_t)y * w + x] +=
            (float)(amp * exp(-((x - sx) * (x - sx) + (y - sy) * (y - sy)) / (2 * 1.2 * 1.2)));
  }
}

static int peak_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 16384 : 512, h = full ? 8192 : 256;
  const int stars = full ? 60000 : 120;
  const float thr = 40.0f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "img.cl", "r_peak_find_append");
  int ib = kjob_buf(job, (size_t)w * h * 4, KB_IN), cb = rbuf_u32(job, 1, KB_INOUT);
  uint32_t *rc = kjob_ref(job, cb, KC_U32, 1, 0, 0);
  if (job->buf[ib].host == NULL || cb < 0 || rc == NULL) return -1;
  float *img = job->buf[ib].host;
  star_field(img, w, h, stars, &r);
  uint32_t count = 0;
  for (int y = 1; y < h - 1; ++y)
    for (int x = 1; x < w - 1; ++x) count += (uint32_t)is_peak(img, w, h, x, y, thr);
  const uint32_t cap = 2 * count + 1024;
  peak_chk *c = job->priv = malloc(sizeof *c + (size_t)count * sizeof(uint32_t));
  if (c == NULL) return -1;
  c->cb = cb;
  c->lb = rbuf_u32(job, cap, KB_OUT);
  c->count = count;
  for (uint32_t k = 0, y = 1; y < (uint32_t)h - 1; ++y)
    for (int x = 1; x < w - 1; ++x)
      if (is_peak(img, w, h, x, (int)y, thr)) c->list[k++] = y * (uint32_t)w + (uint32_t)x;
  *rc = count;
  job->check = peak_check;
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, c->lb);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_arg_f32(job, thr);
  kjob_arg_u32(job, cap);
  kjob_grid1(job, (size_t)w * h, 256);
  return 0;
}

SP_SETUP(rsetup_img) {
  switch (d->param) {
    case RIM_BAYER:
      return bayer_job(job, d, size);
    case RIM_DEPTH:
      return depth_job(job, d, size);
    case RIM_HAAR:
      return haar_job(job, d, size);
    case RIM_PEAK:
      return peak_job(job, d, size);
  }
  return -1;
}
