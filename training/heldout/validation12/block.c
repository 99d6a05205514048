/* SPDX-License-Identifier: GPL-3.0-or-later */
/* block.c: host half of block.cl (cyclic reduction, the 9/7 lifting
 * transform, logsumexp and Dot2 merged by the last group).  The lifting is
 * repeated here operation for operation (the same fmaf calls), so it
 * matches to rounding of nothing; the tridiagonal solutions are compared
 * with the Thomas algorithm in double, the logsumexp and the dot product
 * with double (and compensated) sums, within tolerances that cover float
 * (FP64) rounding in another order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation12.h"

/* ---- cyclic reduction -------------------------------------------------------------------- */

enum { CR_N = 512 };

static void thomas(const float *a, const float *b, const float *c, const float *d, double *x) {
  double cp[CR_N], dp[CR_N];
  cp[0] = c[0] / (double)b[0];
  dp[0] = d[0] / (double)b[0];
  for (int i = 1; i < CR_N; ++i) {
    const double m = b[i] - a[i] * cp[i - 1];
    cp[i] = c[i] / m;
    dp[i] = (d[i] - a[i] * dp[i - 1]) / m;
  }
  x[CR_N - 1] = dp[CR_N - 1];
  for (int i = CR_N - 2; i >= 0; --i) x[i] = dp[i] - cp[i] * x[i + 1];
}

static int cr_job(kjob *job, const kdesc *d, ksize size) {
  const size_t ns = size == KSIZE_FULL ? 65536 : 64, n = ns * CR_N, len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "block.cl", "m_cr_tridiag_512");
  int ib[4];
  for (int k = 0; k < 4; ++k) {
    ib[k] = kjob_buf(job, n * 4, KB_IN);
    if (job->buf[ib[k]].host == NULL) return -1;
  }
  int xb = kjob_buf(job, n * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, xb, KC_F32, n, M12_SAMPLES, 1e-4, 1e-5);
  if (ref == NULL) return -1;
  float *a = job->buf[ib[0]].host, *b = job->buf[ib[1]].host, *c = job->buf[ib[2]].host,
        *dd = job->buf[ib[3]].host;
  for (size_t i = 0; i < len; ++i) { /* diagonally dominant: |a| + |c| <= 3 < b */
    const size_t k = i % CR_N;
    a[i] = k == 0 ? 0.0f : (float)krng_uniform(&r, -1.5, 1.5);
    c[i] = k == CR_N - 1 ? 0.0f : (float)krng_uniform(&r, -1.5, 1.5);
    b[i] = (float)krng_uniform(&r, 3.5, 6);
    dd[i] = (float)krng_uniform(&r, -10, 10);
  }
  for (int k = 0; k < 4; ++k) krepeat(job->buf[ib[k]].host, len * 4, n * 4);
  double x[CR_N];
  size_t lastsys = (size_t)-1;
  for (size_t s = 0; s < job->buf[xb].count; ++s) {
    const size_t e = job->buf[xb].sample[s], sys = e / CR_N;
    if (sys != lastsys) {
      const size_t o = sys * CR_N;
      thomas(a + o, b + o, c + o, dd + o, x);
      lastsys = sys;
    }
    ref[s] = (float)x[e % CR_N];
  }
  for (int k = 0; k < 4; ++k) kjob_arg_buf(job, ib[k]);
  kjob_arg_buf(job, xb);
  kjob_grid(job, ns, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- CDF 9/7 lifting --------------------------------------------------------------------- */

enum { DW_N = 2048, DW_L = 5 };

static void cdf97_row(const float *in, float *s) {
  static const float AL = -1.586134342059924f, BE = -0.052980118572961f, GA = 0.882911075530934f,
                     DE = 0.443506852043971f, K1 = 0.812893066115961f, K2 = 0.615087052457000f;
  float u[DW_N];
  memcpy(s, in, DW_N * sizeof *s);
  for (int lev = 0, len = DW_N; lev < DW_L; ++lev, len >>= 1) {
    const int half = len / 2;
    for (int i = 1; i < len; i += 2)
      s[i] = fmaf(AL, s[i - 1] + (i + 1 < len ? s[i + 1] : s[i - 1]), s[i]);
    for (int i = 0; i < len; i += 2)
      s[i] = fmaf(BE, (i > 0 ? s[i - 1] : s[i + 1]) + s[i + 1], s[i]);
    for (int i = 1; i < len; i += 2)
      s[i] = fmaf(GA, s[i - 1] + (i + 1 < len ? s[i + 1] : s[i - 1]), s[i]);
    for (int i = 0; i < len; i += 2)
      s[i] = fmaf(DE, (i > 0 ? s[i - 1] : s[i + 1]) + s[i + 1], s[i]);
    for (int j = 0; j < half; ++j) {
      u[j] = s[2 * j] * K1;
      u[half + j] = s[2 * j + 1] * K2;
    }
    memcpy(s, u, (size_t)len * sizeof *s);
  }
}

static int cdf97_job(kjob *job, const kdesc *d, ksize size) {
  const size_t rows = size == KSIZE_FULL ? 32768 : 64, n = rows * DW_N, len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "block.cl", "m_cdf97_lift_rows");
  int ib = kjob_buf(job, n * 4, KB_IN), ob = kjob_buf(job, n * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, ob, KC_F32, n, M12_SAMPLES, 1e-6, 1e-6);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  float *in = job->buf[ib].host, row[DW_N];
  for (size_t i = 0; i < len; ++i) { /* image rows: smooth shading, edges and grain */
    const double xx = (double)(i % DW_N), y = (double)(i / DW_N);
    in[i] = (float)(128 + 80 * sin(xx * 0.01 + y * 0.3) + ((int)(xx / 97) % 2 ? 40 : -40) +
                    krng_uniform(&r, -8, 8));
  }
  krepeat(in, len * 4, n * 4);
  size_t lastrow = (size_t)-1;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], rw = e / DW_N;
    if (rw != lastrow) {
      cdf97_row(in + rw * DW_N, row);
      lastrow = rw;
    }
    ref[s] = row[e % DW_N];
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_grid(job, rows, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- logsumexp --------------------------------------------------------------------------- */

enum { LS_G = 256 };

/* max and sum of exp(x - max) of x[0..n) in double */
static void lse_pair(const float *x, size_t n, double *m, double *s) {
  double mm = -HUGE_VAL, ss = 0;
  for (size_t i = 0; i < n; ++i) mm = fmax(mm, x[i]);
  for (size_t i = 0; i < n; ++i) ss += exp(x[i] - mm);
  *m = mm;
  *s = ss;
}

static int lse_job(kjob *job, const kdesc *d, ksize size, int log2per) {
  const size_t per = (size_t)1 << log2per, span = LS_G * per;
  const size_t n = size == KSIZE_FULL ? (size_t)256 << 20 : (size_t)256 << 10, ng = n / span;
  const size_t len = m12_stretch(n); /* a multiple of span that divides n */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "block.cl", "m_lse_last");
  int xb = kjob_buf(job, n * 4, KB_IN), pb = kjob_buf(job, ng * 2 * 4, KB_OUT);
  int tb = kjob_buf_u32(job, 1, KB_INOUT), ob = kjob_buf(job, 4, KB_OUT);
  /* 256 of the partials (a group's pair costs span exponentials here) */
  float *pref = kjob_ref_sampled(job, pb, KC_F32, ng * 2, 256, 1e-4, 0);
  uint32_t *tref = kjob_ref(job, tb, KC_U32, 1, 0, 0);
  float *ref = kjob_ref(job, ob, KC_F32, 1, 1e-5, 1e-4);
  if (job->buf[xb].host == NULL || tb < 0 || pref == NULL || tref == NULL || ref == NULL) return -1;
  float *x = job->buf[xb].host;
  for (size_t i = 0; i < len; ++i) /* logits: mostly -10..10, 1 in 4096 a spike up to 25 */
    x[i] = (float)(krng_below(&r, 4096) ? krng_uniform(&r, -10, 10) : krng_uniform(&r, 10, 25));
  krepeat(x, len * 4, n * 4);
  double m = 0, sum = 0;
  size_t lastg = (size_t)-1;
  for (size_t s = 0; s < job->buf[pb].count; ++s) {
    const size_t e = job->buf[pb].sample[s], g = e / 2;
    if (g != lastg) lse_pair(x + g * span, span, &m, &sum);
    lastg = g;
    pref[s] = (float)(e % 2 ? sum : m);
  }
  lse_pair(x, len, &m, &sum); /* the vector repeats the stretch n / len times */
  ref[0] = (float)(m + log(sum * (double)(n / len)));
  tref[0] = 0;
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)per);
  kjob_grid(job, ng, 1, 1, LS_G, 1, 1);
  return 0;
}

/* ---- Dot2 -------------------------------------------------------------------------------- */

enum { D2_SPAN = 256 * 16 };

/* Dot2 of x and y over [0, n) (sequential, in double), as sum + error. */
static double dot2(const double *x, const double *y, size_t n) {
  double s = 0, c = 0;
  for (size_t i = 0; i < n; ++i) {
    const double p = x[i] * y[i], ep = fma(x[i], y[i], -p);
    const double ns = s + p, z = ns - s;
    c += ((s - (ns - z)) + (p - z)) + ep;
    s = ns;
  }
  return s + c;
}

static int dot2_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : (size_t)256 << 10, ng = n / D2_SPAN;
  const size_t len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "block.cl", "m_dot2_f64_last");
  int xb = kjob_buf(job, n * 8, KB_IN), yb = kjob_buf(job, n * 8, KB_IN);
  int pb = kjob_buf(job, ng * 2 * 8, KB_OUT), tb = kjob_buf_u32(job, 1, KB_INOUT);
  int ob = kjob_buf(job, 8, KB_OUT);
  size_t *idx;
  const size_t nchk = ng < M12_SAMPLES ? ng : M12_SAMPLES;
  /* the groups' sums without their errors: 1e-6 covers the naive part */
  double *pref = kjob_ref_at(job, pb, KC_F64, nchk, 1e-6, 0, &idx);
  uint32_t *tref = kjob_ref(job, tb, KC_U32, 1, 0, 0);
  double *ref = kjob_ref(job, ob, KC_F64, 1, 1e-13, 0);
  if (job->buf[xb].host == NULL || job->buf[yb].host == NULL || tb < 0 || pref == NULL ||
      tref == NULL || ref == NULL)
    return -1;
  double *x = job->buf[xb].host, *y = job->buf[yb].host;
  /* Ill-conditioned (about 1e6): products of 2^-40 to 2^38 in pairs that
   * nearly cancel, p and -p (1 + d) with |d| < 2^-20, so that a plain FP64
   * sum in any order is off by far more than the check allows and only the
   * compensated sum passes. */
  for (size_t i = 0; i < len; i += 2) {
    x[i] = ldexp(krng_uniform(&r, -1, 1), (int)krng_below(&r, 40) - 20);
    y[i] = ldexp(krng_uniform(&r, -1, 1), (int)krng_below(&r, 40) - 20);
    x[i + 1] = x[i] * (1 + ldexp(krng_uniform(&r, -1, 1), -20));
    y[i + 1] = -y[i];
  }
  krepeat(x, len * 8, n * 8);
  krepeat(y, len * 8, n * 8);
  for (size_t c = 0; c < nchk; ++c) { /* groups spread over the vector */
    const size_t g = kspread(c, nchk, ng);
    idx[c] = 2 * g;
    pref[c] = dot2(x + g * D2_SPAN, y + g * D2_SPAN, D2_SPAN);
  }
  ref[0] = dot2(x, y, len) * (double)(n / len); /* a power of two */
  tref[0] = 0;
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, ob);
  kjob_grid(job, ng, 1, 1, 256, 1, 1);
  return 0;
}

SP_SETUP(m12setup_block) {
  if (d->param >= M12BL_LSE) return lse_job(job, d, size, d->param - M12BL_LSE);
  switch (d->param) {
    case M12BL_CR:
      return cr_job(job, d, size);
    case M12BL_CDF97:
      return cdf97_job(job, d, size);
    case M12BL_DOT2:
      return dot2_job(job, d, size);
  }
  return -1;
}
