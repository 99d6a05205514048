/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scan.c: host half of scan.cl (radix sort of tiles, tile-local
 * compaction, dnrm2, Welford statistics, the CFL step).  Sorted tiles,
 * compacted elements and counts are exact; the norm, the statistics and the
 * time step are compared with double arithmetic within tolerances that
 * cover float (or FP64) sums in another order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation11.h"

enum { K11_STRETCH = 1 << 20 };

static size_t stretch(size_t n) { return n < K11_STRETCH ? n : K11_STRETCH; }

/* ---- radix sort of tiles ----------------------------------------------------------------- */

enum { RS_TILE = 1024 };

static int cmp_u32(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static int radix_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : (size_t)64 << 10;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "scan.cl", "k_radix_split_tile");
  int ib = kjob_buf_u32(job, n, KB_IN), ob = kjob_buf_u32(job, n, KB_OUT);
  uint32_t *ref = kjob_ref_sampled(job, ob, KC_U32, n, K11_SAMPLES, 0, 0);
  uint32_t *tile = malloc(RS_TILE * sizeof *tile);
  if (ib < 0 || ref == NULL || tile == NULL) {
    free(tile);
    return -1;
  }
  uint32_t *k = job->buf[ib].host;
  for (size_t i = 0; i < stretch(n); ++i) /* keys with a few duplicates */
    k[i] = krng_below(&r, 8) == 0 ? krng_below(&r, 16) : krng_u32(&r);
  krepeat(k, stretch(n) * 4, n * 4);
  size_t last = (size_t)-1;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], t = e / RS_TILE;
    if (t != last) {
      memcpy(tile, k + t * RS_TILE, RS_TILE * sizeof *tile);
      qsort(tile, RS_TILE, sizeof *tile, cmp_u32);
      last = t;
    }
    ref[s] = tile[e % RS_TILE];
  }
  free(tile);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_grid(job, n / RS_TILE, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- tile-local compaction --------------------------------------------------------------- */

enum { SE_G = 1024 };

static int select_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : (size_t)64 << 10, ng = n / SE_G;
  const float thr = 0.7f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "scan.cl", "k_select_if_tile");
  int ib = kjob_buf(job, n * 4, KB_IN), ob = kjob_buf(job, n * 4, KB_OUT);
  int cb = kjob_buf_u32(job, ng, KB_OUT);
  uint32_t *cref = kjob_ref(job, cb, KC_U32, ng, 0, 0);
  const size_t step = ng > K11_SAMPLES ? ng / K11_SAMPLES : 1, nchk = (ng + step - 1) / step;
  size_t *idx;
  float *ref = kjob_ref_at(job, ob, KC_F32, nchk, 0, 0, &idx);
  if (job->buf[ib].host == NULL || cref == NULL || ref == NULL) return -1;
  float *v = job->buf[ib].host;
  /* Scores: uniform, but some tiles almost all pass and some almost none. */
  for (size_t i = 0; i < stretch(n); ++i) {
    const uint32_t kind = (uint32_t)(i / SE_G) % 7;
    const double u = krng_uniform(&r, 0, 1);
    v[i] = (float)(kind == 0 ? 0.69 * u : kind == 1 ? 0.71 + 0.29 * u : u);
  }
  krepeat(v, stretch(n) * 4, n * 4);
  size_t c = 0;
  for (size_t g = 0; g < ng; ++g) {
    uint32_t cnt = 0;
    size_t want = (size_t)-1;
    for (size_t t = 0; t < SE_G; ++t)
      if (v[g * SE_G + t] > thr) ++cnt;
    cref[g] = cnt;
    if (g % step != 0) continue;
    /* one selected element of this group, or its first slot if none passed */
    const uint32_t pick = cnt ? (uint32_t)((g * 37) % cnt) : 0;
    for (size_t t = 0, k = 0; t < SE_G && cnt; ++t)
      if (v[g * SE_G + t] > thr && k++ == pick) want = g * SE_G + t;
    if (want == (size_t)-1) continue;
    idx[c] = g * SE_G + pick;
    ref[c++] = v[want];
  }
  job->buf[ob].count = c;
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, cb);
  kjob_arg_f32(job, thr);
  kjob_grid(job, ng, 1, 1, SE_G, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- dnrm2 ------------------------------------------------------------------------------- */

static double nrm2_host(const double *x, size_t n) {
  const double tsml = ldexp(1, -511), tbig = ldexp(1, 486), ssml = ldexp(1, 537),
               sbig = ldexp(1, -538);
  double asml = 0, amed = 0, abig = 0;
  int notbig = 1;
  for (size_t i = 0; i < n; ++i) {
    const double ax = fabs(x[i]);
    if (ax > tbig) {
      abig += (ax * sbig) * (ax * sbig);
      notbig = 0;
    } else if (ax < tsml) {
      if (notbig) asml += (ax * ssml) * (ax * ssml);
    } else {
      amed += ax * ax;
    }
  }
  double scl, sumsq;
  if (abig > 0) {
    if (amed > 0) abig += (amed * sbig) * sbig;
    scl = 1 / sbig;
    sumsq = abig;
  } else if (asml > 0) {
    if (amed > 0) {
      amed = sqrt(amed);
      asml = sqrt(asml) / ssml;
      const double ymin = asml > amed ? amed : asml, ymax = asml > amed ? asml : amed;
      scl = 1;
      sumsq = ymax * ymax * (1 + (ymin / ymax) * (ymin / ymax));
    } else {
      scl = 1 / ssml;
      sumsq = asml;
    }
  } else {
    scl = 1;
    sumsq = amed;
  }
  return scl * sqrt(sumsq);
}

static int nrm2_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 20 : (size_t)64 << 10;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "scan.cl", "k_nrm2_blue_1block");
  int xb = kjob_buf(job, n * 8, KB_IN), ob = kjob_buf(job, 8, KB_OUT);
  double *ref = kjob_ref(job, ob, KC_F64, 1, 1e-12, 0);
  if (job->buf[xb].host == NULL || ref == NULL) return -1;
  double *x = job->buf[xb].host;
  for (size_t i = 0; i < n; ++i) { /* mostly moderate, 1 in 64 tiny, 1 in 4096 huge */
    const uint32_t k = krng_below(&r, 4096);
    const double m = krng_uniform(&r, -1, 1);
    x[i] = k == 0 ? m * 1e150 : k < 64 ? m * 1e-160 : m * ldexp(1, (int)krng_below(&r, 60) - 30);
  }
  ref[0] = nrm2_host(x, n);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid(job, 1, 1, 1, 1024, 1, 1);
  return 0;
}

/* ---- Welford statistics ------------------------------------------------------------------ */

enum { WF_G = 512, WF_I = 16, WF_SPAN = WF_G * WF_I };

/* count, mean and M2 of x[0..n) in double */
static void stats(const float *x, size_t n, double out[3]) {
  double s = 0, m2 = 0;
  for (size_t i = 0; i < n; ++i) s += x[i];
  const double mean = s / (double)n;
  for (size_t i = 0; i < n; ++i) m2 += (x[i] - mean) * (x[i] - mean);
  out[0] = (double)n;
  out[1] = mean;
  out[2] = m2;
}

static int welford_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)128 << 20 : (size_t)64 << 10, ng = n / WF_SPAN;
  const size_t len = stretch(n); /* a multiple of WF_SPAN that divides n */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "scan.cl", "k_welford_lastblock");
  int xb = kjob_buf(job, n * 4, KB_IN), pb = kjob_buf(job, ng * 3 * 4, KB_OUT);
  int tb = kjob_buf_u32(job, 1, KB_INOUT), ob = kjob_buf(job, 2 * 4, KB_OUT);
  float *pref = kjob_ref_sampled(job, pb, KC_F32, ng * 3, K11_SAMPLES, 1e-4, 1e-3);
  uint32_t *tref = kjob_ref(job, tb, KC_U32, 1, 0, 0);
  float *ref = kjob_ref(job, ob, KC_F32, 2, 1e-4, 1e-5);
  if (job->buf[xb].host == NULL || tb < 0 || pref == NULL || tref == NULL || ref == NULL) return -1;
  float *x = job->buf[xb].host;
  for (size_t i = 0; i < len; ++i) /* about 3 +- 2, bell-shaped */
    x[i] =
        (float)(3 +
                (krng_uniform(&r, -1, 1) + krng_uniform(&r, -1, 1) + krng_uniform(&r, -1, 1)) * 2);
  krepeat(x, len * 4, n * 4);
  for (size_t s = 0; s < job->buf[pb].count; ++s) {
    const size_t e = job->buf[pb].sample[s], g = e / 3;
    double st[3];
    stats(x + g * WF_SPAN, WF_SPAN, st);
    pref[s] = (float)st[e % 3];
  }
  double st[3];
  stats(x, len, st); /* the whole vector repeats the stretch n / len times */
  ref[0] = (float)st[1];
  ref[1] = (float)(st[2] * (double)(n / len) / (double)(n - 1));
  tref[0] = 0;
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, ob);
  kjob_grid(job, ng, 1, 1, WF_G, 1, 1);
  return 0;
}

/* ---- CFL time step ----------------------------------------------------------------------- */

static int cfl_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nx = full ? 8192 : 256, ny = full ? 4096 : 128;
  const size_t n = (size_t)nx * ny, len = stretch(n);
  const double gam = 1.4, dx = 1.0 / nx, dy = 2.0 / ny, cfl = 0.4;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "scan.cl", "k_cfl_dt_atomicmin");
  int qb = kjob_buf(job, 4 * n * 4, KB_IN), db = kjob_buf_u32(job, 1, KB_INOUT);
  float *ref = kjob_ref(job, db, KC_F32, 1, 1e-5, 0);
  if (job->buf[qb].host == NULL || db < 0 || ref == NULL) return -1;
  float *q = job->buf[qb].host;
  double best = INFINITY;
  for (size_t i = 0; i < len; ++i) { /* a blast-wave-like mix of states */
    const double rho = krng_uniform(&r, 0.5, 2), u = krng_uniform(&r, -1, 1),
                 v = krng_uniform(&r, -1, 1), p = krng_uniform(&r, 0.2, 3);
    q[i] = (float)rho;
    q[n + i] = (float)(rho * u);
    q[2 * n + i] = (float)(rho * v);
    q[3 * n + i] = (float)(p / (gam - 1) + 0.5 * rho * (u * u + v * v));
  }
  for (int c = 0; c < 4; ++c) krepeat(q + (size_t)c * n, len * 4, n * 4);
  for (size_t i = 0; i < len; ++i) { /* from the stored floats */
    const double rho = q[i], u = q[n + i] / rho, v = q[2 * n + i] / rho;
    const double p = (gam - 1) * (q[3 * n + i] - 0.5 * rho * (u * u + v * v));
    const double c = sqrt(gam * p / rho);
    const double dt = cfl * fmin(dx / (fabs(u) + c), dy / (fabs(v) + c));
    best = dt < best ? dt : best;
  }
  ref[0] = (float)best;
  ((uint32_t *)job->buf[db].host)[0] = 0x7F800000u; /* +inf */
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, db);
  kjob_arg_i32(job, (int)n);
  kjob_arg_f32(job, (float)gam);
  kjob_arg_f32(job, (float)dx);
  kjob_arg_f32(job, (float)dy);
  kjob_arg_f32(job, (float)cfl);
  kjob_grid1(job, n, 256);
  return 0;
}

SP_SETUP(k11setup_scan) {
  switch (d->param) {
    case K11SC_RADIX:
      return radix_job(job, d, size);
    case K11SC_SELECT:
      return select_job(job, d, size);
    case K11SC_NRM2:
      return nrm2_job(job, d, size);
    case K11SC_WELFORD:
      return welford_job(job, d, size);
    case K11SC_CFL:
      return cfl_job(job, d, size);
  }
  return -1;
}
