/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.c: host half of sci.cl (4th-order wave step, ELL SpMV, Legendre
 * synthesis, Gaussian KDE, CORDIC, 3x3 median, gamma table).  Floating-point
 * references are computed in double on sampled outputs; the integer ones
 * (CORDIC, the median, the table) are exact. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation6.h"

/* ---- wave equation ---------------------------------------------------------------- */

static int wave_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 4096 : 256;
  const size_t cells = (size_t)n * n;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "q_wave_o4_f64");
  int ab = qin_f64(job, cells, &r, -1, 1), pb = qin_f64(job, cells, &r, -1, 1);
  int cb = qin_f64(job, cells, &r, 0.01, 0.1), ob = kjob_buf(job, cells * 8, KB_OUT);
  double *ref = qref_sampled(job, ob, KC_F64, cells, 1e-12, 1e-12);
  if (ab < 0 || pb < 0 || cb < 0 || ref == NULL) return -1;
  const double *pp = job->buf[ab].host, *p = job->buf[pb].host, *c2 = job->buf[cb].host;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], y = e / n, x = e % n;
    if (x < 2 || y < 2 || x >= (size_t)n - 2 || y >= (size_t)n - 2) {
      ref[s] = 0;
      continue;
    }
    const double near = p[e - 1] + p[e + 1] + p[e - n] + p[e + n];
    const double far = p[e - 2] + p[e + 2] + p[e - 2 * n] + p[e + 2 * n];
    ref[s] = 2 * p[e] - pp[e] + c2[e] * ((4.0 / 3.0) * near - (1.0 / 12.0) * far - 5 * p[e]);
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, n);
  kjob_grid1(job, cells, 256);
  return 0;
}

/* ---- ELLPACK SpMV ------------------------------------------------------------------------ */

enum { ELL_W = 16 };

static int ell_job(kjob *job, const kdesc *d, ksize size) {
  const int rows = size == KSIZE_FULL ? 4 << 20 : 4096;
  const size_t slots = (size_t)rows * ELL_W;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "q_ell_spmv_f64");
  int vb = kjob_buf(job, slots * 8, KB_IN), cb = qbuf_u32(job, slots, KB_IN);
  int xb = qin_f64(job, (size_t)rows, &r, -1, 1), yb = kjob_buf(job, (size_t)rows * 8, KB_OUT);
  double *ref = qref_sampled(job, yb, KC_F64, (size_t)rows, 1e-12, 1e-12);
  if (job->buf[vb].host == NULL || cb < 0 || xb < 0 || ref == NULL) return -1;
  double *hv = job->buf[vb].host;
  int32_t *hc = job->buf[cb].host;
  const double *hx = job->buf[xb].host;
  for (int row = 0; row < rows; ++row) {
    const int nnz = 4 + (int)krng_below(&r, ELL_W - 3);
    for (int k = 0; k < ELL_W; ++k) {
      const size_t i = (size_t)k * rows + row;
      hc[i] = k < nnz ? (int32_t)krng_below(&r, (uint32_t)rows) : row;
      hv[i] = k < nnz ? krng_uniform(&r, -1, 1) : 0.0;
    }
  }
  for (size_t s = 0; s < job->buf[yb].count; ++s) {
    const size_t row = job->buf[yb].sample[s];
    double acc = 0;
    for (int k = 0; k < ELL_W; ++k) {
      const size_t i = (size_t)k * rows + row;
      acc += hv[i] * hx[hc[i]];
    }
    ref[s] = acc;
  }
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, rows);
  kjob_arg_i32(job, ELL_W);
  kjob_grid1(job, (size_t)rows, 256);
  return 0;
}

/* ---- Legendre synthesis -------------------------------------------------------------------- */

enum { LG_M = 8 };

static int legendre_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, groups = full ? 265 : 3, lmax = full ? 4096 : 256;
  const int n = groups * 1024, m = LG_M;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "q_legendre_f64_265");
  int cb = kjob_buf(job, (size_t)(lmax + 1) * 3 * 8, KB_IN),
      xb = kjob_buf(job, (size_t)n * 8, KB_IN);
  int fb = kjob_buf(job, (size_t)n * 8, KB_OUT);
  double *ref = qref_sampled(job, fb, KC_F64, (size_t)n, 1e-9, 1e-9);
  if (job->buf[cb].host == NULL || job->buf[xb].host == NULL || ref == NULL) return -1;
  double *hc = job->buf[cb].host, *hx = job->buf[xb].host;
  for (int l = 0; l <= lmax; ++l) {
    const double ll = l, mm = m;
    hc[3 * l] = l > m ? sqrt((4 * ll * ll - 1) / (ll * ll - mm * mm)) : 0;
    hc[3 * l + 1] =
        l > m ? sqrt(((ll - 1) * (ll - 1) - mm * mm) / (4 * (ll - 1) * (ll - 1) - 1)) : 0;
    hc[3 * l + 2] = krng_uniform(&r, -1, 1) / sqrt(ll + 1);
  }
  for (int i = 0; i < n; ++i) hx[i] = cos(krng_uniform(&r, 0.01, 3.13));
  for (size_t s = 0; s < job->buf[fb].count; ++s) {
    const double x = hx[job->buf[fb].sample[s]], sn = sqrt(1 - x * x);
    double p1 = 1, p0 = 0;
    for (int k = 0; k < m; ++k) p1 *= sn;
    double sum = hc[3 * m + 2] * p1;
    for (int l = m + 1; l <= lmax; ++l) {
      const double p2 = hc[3 * l] * (x * p1 - hc[3 * l + 1] * p0);
      sum += hc[3 * l + 2] * p2;
      p0 = p1;
      p1 = p2;
    }
    ref[s] = sum;
  }
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, fb);
  kjob_arg_i32(job, m);
  kjob_arg_i32(job, lmax);
  kjob_arg_i32(job, n);
  kjob_grid(job, (size_t)groups, 1, 1, 1024, 1, 1);
  return 0;
}

/* ---- Gaussian KDE ---------------------------------------------------------------------------- */

static int kde_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, groups = full ? 133 : 3, ns = full ? 16384 : 2048;
  const size_t nq = (size_t)groups * 1024;
  const float inv2h2 = 200.0f; /* bandwidth h = 0.05 */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "q_kde_gauss_133");
  int sxb = kjob_buf(job, (size_t)ns * 4, KB_IN), syb = kjob_buf(job, (size_t)ns * 4, KB_IN);
  int qxb = qin_f32(job, nq, &r, 0, 1), qyb = qin_f32(job, nq, &r, 0, 1);
  int ob = kjob_buf(job, nq * 4, KB_OUT);
  float *ref = qref_sampled(job, ob, KC_F32, nq, 5e-4, 1e-6);
  if (job->buf[sxb].host == NULL || job->buf[syb].host == NULL || qxb < 0 || qyb < 0 || ref == NULL)
    return -1;
  float *sx = job->buf[sxb].host, *sy = job->buf[syb].host;
  for (int k = 0; k < ns; ++k) { /* a mixture of 8 clusters */
    const int c = (int)krng_below(&r, 8);
    const double u1 = krng_uniform(&r, 1e-9, 1), u2 = krng_uniform(&r, 0, 6.283185307179586);
    const double rad = 0.08 * sqrt(-2 * log(u1));
    sx[k] = (float)(0.15 + 0.1 * c + rad * cos(u2));
    sy[k] = (float)(0.2 + 0.6 * ((c * 5) % 8) / 8.0 + rad * sin(u2));
  }
  const float *qx = job->buf[qxb].host, *qy = job->buf[qyb].host;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t i = job->buf[ob].sample[s];
    double acc = 0;
    for (int k = 0; k < ns; ++k) {
      const double dx = (double)qx[i] - sx[k], dy = (double)qy[i] - sy[k];
      acc += exp(-(dx * dx + dy * dy) * inv2h2);
    }
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, sxb);
  kjob_arg_buf(job, syb);
  kjob_arg_buf(job, qxb);
  kjob_arg_buf(job, qyb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, ns);
  kjob_arg_f32(job, inv2h2);
  kjob_grid(job, (size_t)groups, 1, 1, 1024, 1, 1);
  return 0;
}

/* ---- CORDIC -----------------------------------------------------------------------------------
 */

enum { CD_ITERS = 30 };

static int cordic_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : 65536;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "q_cordic_fixed");
  int ab = qbuf_u32(job, n, KB_IN), tb = qbuf_u32(job, CD_ITERS, KB_IN);
  int ob = qbuf_u32(job, 2 * n, KB_OUT);
  uint32_t *ref = qref_sampled(job, ob, KC_U32, 2 * n, 0, 0);
  if (ab < 0 || tb < 0 || ref == NULL) return -1;
  int32_t *ha = job->buf[ab].host, *ht = job->buf[tb].host;
  double k = 1;
  for (int i = 0; i < CD_ITERS; ++i) {
    ht[i] = (int32_t)llround(atan(ldexp(1, -i)) * 1073741824.0);
    k /= sqrt(1 + ldexp(1, -2 * i));
  }
  const int32_t gain = (int32_t)llround(k * 1073741824.0);
  for (size_t i = 0; i < n; ++i)
    ha[i] = (int32_t)llround(krng_uniform(&r, -1.5707963, 1.5707963) * 1073741824.0);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t o = job->buf[ob].sample[s];
    int32_t x = gain, y = 0, z = ha[o / 2];
    for (int i = 0; i < CD_ITERS; ++i) {
      const int32_t dx = x >> i, dy = y >> i;
      if (z >= 0) {
        x -= dy;
        y += dx;
        z -= ht[i];
      } else {
        x += dy;
        y -= dx;
        z += ht[i];
      }
    }
    ref[s] = (uint32_t)(o % 2 ? y : x);
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, CD_ITERS);
  kjob_arg_i32(job, gain);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- 3x3 median
 * ----------------------------------------------------------------------------------- */

static int cmp_u8(const void *a, const void *b) {
  return *(const uint8_t *)a - *(const uint8_t *)b;
}

static int median_job(kjob *job, const kdesc *d, ksize size) {
  const int w = size == KSIZE_FULL ? 16384 : 256, h = w;
  const size_t n = (size_t)w * h;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "q_median3x3_u8");
  int ib = kjob_buf(job, n, KB_IN), ob = kjob_buf(job, n, KB_OUT);
  uint32_t *ref = qref_sampled(job, ob, KC_U32, n / 4, 0, 0);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  uint8_t *in = job->buf[ib].host;
  for (size_t i = 0; i < n; ++i) { /* a smooth gradient with salt-and-pepper noise */
    const size_t y = i / w, x = i % w;
    const uint32_t u = krng_u32(&r);
    in[i] = u % 16 == 0 ? (uint8_t)(u >> 8) : (uint8_t)((x + y) / 64 + (u >> 28));
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t wd = job->buf[ob].sample[s];
    uint32_t v = 0;
    for (int b = 0; b < 4; ++b) {
      const long e = (long)(4 * wd + b), y = e / w, x = e % w;
      uint8_t p[9];
      int k = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          long yy = y + dy, xx = x + dx;
          yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
          xx = xx < 0 ? 0 : xx >= w ? w - 1 : xx;
          p[k++] = in[yy * w + xx];
        }
      qsort(p, 9, 1, cmp_u8);
      v |= (uint32_t)p[4] << (8 * b);
    }
    ref[s] = v;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- gamma table
 * ------------------------------------------------------------------------------------ */

static int gamma_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)512 << 20 : 65536;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "q_gamma_lut_u8");
  int ib = kjob_buf(job, n, KB_IN), lb = kjob_buf(job, 256, KB_IN), ob = kjob_buf(job, n, KB_OUT);
  uint32_t *ref = qref_sampled(job, ob, KC_U32, n / 4, 0, 0);
  if (job->buf[ib].host == NULL || job->buf[lb].host == NULL || ref == NULL) return -1;
  uint8_t *in = job->buf[ib].host, *lut = job->buf[lb].host;
  for (size_t i = 0; i < n; i += 8) {
    const uint64_t u = krng_u64(&r);
    memcpy(in + i, &u, n - i < 8 ? n - i : 8);
  }
  for (int v = 0; v < 256; ++v) lut[v] = (uint8_t)lround(255 * pow(v / 255.0, 1 / 2.2));
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t wd = job->buf[ob].sample[s];
    uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= (uint32_t)lut[in[4 * wd + b]] << (8 * b);
    ref[s] = v;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

SP_SETUP(qsetup_sci) {
  switch (d->param) {
    case QSC_WAVE:
      return wave_job(job, d, size);
    case QSC_ELL:
      return ell_job(job, d, size);
    case QSC_LEGENDRE:
      return legendre_job(job, d, size);
    case QSC_KDE:
      return kde_job(job, d, size);
    case QSC_CORDIC:
      return cordic_job(job, d, size);
    case QSC_MEDIAN:
      return median_job(job, d, size);
    case QSC_GAMMA:
      return gamma_job(job, d, size);
  }
  return -1;
}
