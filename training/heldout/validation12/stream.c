/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream.c: host half of stream.cl (half widening, one-hot targets, the
 * EMA, AoS to SoA, Bessel J0, AS241, sorted search, union-find roots, COO
 * SpMV).  The widening, the one-hot rows, the split, the EMA (one fma),
 * the search positions and the roots are exact; J0 and AS241 are compared
 * with double arithmetic within tolerances that cover float (FP64)
 * rounding, the SpMV (sums of positive terms in any order) within 1e-5. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation12.h"

/* ---- half to float ----------------------------------------------------------------------- */

/* An independent path: the value by ldexp, its bits by memcpy; NaNs keep
 * their payload. */
static uint32_t half_bits(uint16_t h) {
  const uint32_t s = (uint32_t)(h >> 15), e = (h >> 10) & 31u, m = h & 1023u;
  if (e == 31) return s << 31 | 0x7F800000u | m << 13;
  const float v = (float)ldexp(e ? 1024.0 + m : (double)m, e ? (int)e - 25 : -24);
  uint32_t b;
  memcpy(&b, &v, 4);
  return b | s << 31;
}

static int half_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)256 << 20 : (size_t)64 << 10, len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "m_half_widen_f16");
  int hb = kjob_buf(job, n * 2, KB_IN), fb = kjob_buf_u32(job, n, KB_OUT);
  uint32_t *ref = kjob_ref_sampled(job, fb, KC_U32, n, M12_SAMPLES, 0, 0);
  if (job->buf[hb].host == NULL || ref == NULL) return -1;
  uint16_t *h = job->buf[hb].host;
  for (size_t i = 0; i < len; ++i) /* every class: 1/32 subnormal or zero, 1/32 inf or NaN */
    h[i] = (uint16_t)krng_u32(&r);
  krepeat(h, len * 2, n * 2);
  for (size_t s = 0; s < job->buf[fb].count; ++s) ref[s] = half_bits(h[job->buf[fb].sample[s]]);
  kjob_arg_buf(job, hb);
  kjob_arg_buf(job, fb);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- one-hot targets --------------------------------------------------------------------- */

enum { OH_C = 16 };

static int onehot_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)16 << 20 : 4096, len = m12_stretch(n);
  const float eps = 0.1f, lo = eps / OH_C, hi = 1.0f - eps + lo;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "m_onehot_u8_wr");
  int lb = kjob_buf(job, n, KB_IN), ob = kjob_buf(job, n * OH_C * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, ob, KC_F32, n * OH_C, M12_SAMPLES, 0, 0);
  if (job->buf[lb].host == NULL || ref == NULL) return -1;
  uint8_t *lab = job->buf[lb].host;
  for (size_t i = 0; i < len; ++i) lab[i] = (uint8_t)krng_below(&r, OH_C);
  krepeat(lab, len, n);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    ref[s] = lab[e / OH_C] == e % OH_C ? hi : lo;
  }
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_arg_f32(job, hi);
  kjob_arg_f32(job, lo);
  kjob_grid1(job, n * OH_C, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- EMA of weights ---------------------------------------------------------------------- */

static int ema_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : (size_t)64 << 10, len = m12_stretch(n);
  const double w = 1.0 - 0.9998;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "m_ema_f64_rmw");
  int eb = kjob_buf(job, n * 8, KB_INOUT), pb = kjob_buf(job, n * 8, KB_IN);
  double *ref = kjob_ref_sampled(job, eb, KC_F64, n, M12_SAMPLES, 0, 0);
  if (job->buf[eb].host == NULL || job->buf[pb].host == NULL || ref == NULL) return -1;
  double *e = job->buf[eb].host, *p = job->buf[pb].host;
  for (size_t i = 0; i < len; ++i) { /* weights, the average a little behind */
    p[i] = krng_uniform(&r, -0.2, 0.2);
    e[i] = p[i] + krng_uniform(&r, -0.01, 0.01);
  }
  krepeat(e, len * 8, n * 8);
  krepeat(p, len * 8, n * 8);
  for (size_t s = 0; s < job->buf[eb].count; ++s) {
    const size_t i = job->buf[eb].sample[s];
    ref[s] = fma(w, p[i] - e[i], e[i]);
  }
  kjob_arg_buf(job, eb);
  kjob_arg_buf(job, pb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_f64(job, w);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- AoS to SoA -------------------------------------------------------------------------- */

static int aos_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)32 << 20 : 4096, len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "m_aos_soa_xyz");
  int ab = kjob_buf(job, 3 * n * 4, KB_IN), ob[3];
  float *ref[3];
  for (int c = 0; c < 3; ++c) {
    ob[c] = kjob_buf(job, n * 4, KB_OUT);
    ref[c] = kjob_ref_sampled(job, ob[c], KC_F32, n, M12_SAMPLES, 0, 0);
    if (ref[c] == NULL) return -1;
  }
  if (job->buf[ab].host == NULL) return -1;
  float *a = job->buf[ab].host;
  kfill_f32(a, 3 * len, &r, -50, 50);
  krepeat(a, 3 * len * 4, 3 * n * 4);
  for (int c = 0; c < 3; ++c)
    for (size_t s = 0; s < job->buf[ob[c]].count; ++s)
      ref[c][s] = a[3 * job->buf[ob[c]].sample[s] + (size_t)c];
  kjob_arg_buf(job, ab);
  for (int c = 0; c < 3; ++c) kjob_arg_buf(job, ob[c]);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- Bessel J0 --------------------------------------------------------------------------- */

static double j0_nr(double x) {
  const double ax = fabs(x);
  if (ax < 8) {
    const double y = x * x;
    const double p =
        57568490574.0 +
        y * (-13362590354.0 +
             y * (651619640.7 + y * (-11214424.18 + y * (77392.33017 + y * -184.9052456))));
    const double q =
        57568490411.0 +
        y * (1029532985.0 + y * (9494680.718 + y * (59272.64853 + y * (267.8532712 + y))));
    return p / q;
  }
  const double z = 8 / ax, y = z * z, xx = ax - 0.785398164;
  const double p = 1.0 + y * (-0.1098628627e-2 +
                              y * (0.2734510407e-4 + y * (-0.2073370639e-5 + y * 0.2093887211e-6)));
  const double q =
      -0.1562499995e-1 +
      y * (0.1430488765e-3 + y * (-0.6911147651e-5 + y * (0.7621095161e-6 - y * 0.934935152e-7)));
  return sqrt(0.636619772 / ax) * (cos(xx) * p - z * sin(xx) * q);
}

static int j0_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)128 << 20 : (size_t)64 << 10, len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "m_bessj0_f32");
  int xb = kjob_buf(job, n * 4, KB_IN), ob = kjob_buf(job, n * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, ob, KC_F32, n, M12_SAMPLES, 0, 3e-5);
  if (job->buf[xb].host == NULL || ref == NULL) return -1;
  float *x = job->buf[xb].host;
  kfill_f32(x, len, &r, -32, 32); /* both branches, mixed within a warp */
  krepeat(x, len * 4, n * 4);
  for (size_t s = 0; s < job->buf[ob].count; ++s) ref[s] = (float)j0_nr(x[job->buf[ob].sample[s]]);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- AS241 ------------------------------------------------------------------------------- */

static double poly7(double x, const double c[8]) {
  double v = c[7];
  for (int k = 6; k >= 0; --k) v = v * x + c[k];
  return v;
}

static double as241(double p) {
  static const double A[8] = {3.3871328727963666080e0,  1.3314166789178437745e+2,
                              1.9715909503065514427e+3, 1.3731693765509461125e+4,
                              4.5921953931549871457e+4, 6.7265770927008700853e+4,
                              3.3430575583588128105e+4, 2.5090809287301226727e+3},
                      B[8] = {1.0,
                              4.2313330701600911252e+1,
                              6.8718700749205790830e+2,
                              5.3941960214247511077e+3,
                              2.1213794301586595867e+4,
                              3.9307895800092710610e+4,
                              2.8729085735721942674e+4,
                              5.2264952788528545610e+3},
                      C[8] = {1.42343711074968357734e0,  4.63033784615654529590e0,
                              5.76949722146069140550e0,  3.64784832476320460504e0,
                              1.27045825245236838258e0,  2.41780725177450611770e-1,
                              2.27238449892691845833e-2, 7.74545014278341407640e-4},
                      D[8] = {1.0,
                              2.05319162663775882187e0,
                              1.67638483018380384940e0,
                              6.89767334985100004550e-1,
                              1.48103976427480074590e-1,
                              1.51986665636164571966e-2,
                              5.47593808499534494600e-4,
                              1.05075007164441684324e-9},
                      E[8] = {6.65790464350110377720e0,  5.46378491116411436990e0,
                              1.78482653991729133580e0,  2.96560571828504891230e-1,
                              2.65321895265761230930e-2, 1.24266094738807843860e-3,
                              2.71155556874348757815e-5, 2.01033439929228813265e-7},
                      F[8] = {1.0,
                              5.99832206555887937690e-1,
                              1.36929880922735805310e-1,
                              1.48753612908506148525e-2,
                              7.86869131145613259100e-4,
                              1.84631831751005468180e-5,
                              1.42151175831644588870e-7,
                              2.04426310338993978564e-15};
  const double q = p - 0.5;
  if (fabs(q) <= 0.425) {
    const double r = 0.180625 - q * q;
    return q * poly7(r, A) / poly7(r, B);
  }
  double r = sqrt(-log(q < 0 ? p : 1 - p)), v;
  if (r <= 5) {
    r -= 1.6;
    v = poly7(r, C) / poly7(r, D);
  } else {
    r -= 5;
    v = poly7(r, E) / poly7(r, F);
  }
  return q < 0 ? -v : v;
}

static int as241_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : (size_t)64 << 10, len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "m_as241_f64");
  int pb = kjob_buf(job, n * 8, KB_IN), ob = kjob_buf(job, n * 8, KB_OUT);
  double *ref = kjob_ref_sampled(job, ob, KC_F64, n, M12_SAMPLES, 1e-13, 1e-13);
  if (job->buf[pb].host == NULL || ref == NULL) return -1;
  double *p = job->buf[pb].host;
  /* 3 in 4 central, 1 in 8 in the lower tail down to 1e-300, 1 in 8 in the
   * upper one (1 - p down to 1e-15, where p is still below 1). */
  for (size_t i = 0; i < len; ++i) {
    const uint32_t k = krng_below(&r, 8);
    const double u = krng_uniform(&r, 0, 1);
    const double t = k < 6 ? 0.075 + 0.85 * u : pow(10.0, -1.3 - (k == 6 ? 298.7 : 13.7) * u);
    p[i] = k == 7 ? 1 - t : t;
  }
  krepeat(p, len * 8, n * 8);
  for (size_t s = 0; s < job->buf[ob].count; ++s) ref[s] = as241(p[job->buf[ob].sample[s]]);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- sorted search ----------------------------------------------------------------------- */

static int search_job(kjob *job, const kdesc *d, ksize size, int mib) {
  const int full = size == KSIZE_FULL;
  const size_t nt = full ? (size_t)mib << 18 : 4096 + (size_t)mib,
               nq = full ? (size_t)8 << 20 : 4096;
  const size_t len = m12_stretch(nq);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "m_searchsorted");
  int tb = kjob_buf_u32(job, nt, KB_IN), qb = kjob_buf_u32(job, nq, KB_IN);
  int ob = kjob_buf_u32(job, nq, KB_OUT);
  uint32_t *ref = kjob_ref_sampled(job, ob, KC_U32, nq, M12_SAMPLES, 0, 0);
  if (tb < 0 || qb < 0 || ref == NULL) return -1;
  uint32_t *t = job->buf[tb].host, *q = job->buf[qb].host, key = 0;
  /* Increasing keys, gaps 1-200: 3.2e9 at the end of the larger table. */
  for (size_t i = 0; i < nt; ++i) {
    key += 1 + krng_below(&r, 200);
    t[i] = key;
  }
  for (size_t i = 0; i < len; ++i) /* queries over the keys' range, some beyond it */
    q[i] = (uint32_t)(krng_u64(&r) % ((uint64_t)key + key / 64));
  krepeat(q, len * 4, nq * 4);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const uint32_t v = q[job->buf[ob].sample[s]];
    size_t lo = 0, hi = nt;
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (t[mid] < v)
        lo = mid + 1;
      else
        hi = mid;
    }
    ref[s] = (uint32_t)lo;
  }
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)nt);
  kjob_arg_i32(job, (int)nq);
  kjob_grid1(job, nq, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- union-find roots -------------------------------------------------------------------- */

enum { UF_CHAIN = 64 };

/* A bijection of [0, 2^bits): odd multiplications and xor-shifts. */
static uint32_t uf_perm(uint32_t k, int bits) {
  const uint32_t mask = (uint32_t)((1ull << bits) - 1);
  k = (k * 0x9E3779B1u) & mask;
  k ^= k >> (bits / 2 + 1);
  k = (k * 0x85EBCA77u) & mask;
  k ^= k >> (bits / 3 + 1);
  return (k * 0xC2B2AE3Du) & mask;
}

static int uf_job(kjob *job, const kdesc *d, ksize size, int log2n) {
  const int bits = size == KSIZE_FULL ? log2n : 16;
  const size_t n = (size_t)1 << bits, nq = size == KSIZE_FULL ? (size_t)4 << 20 : 4096;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "m_uf_find");
  int pb = kjob_buf_u32(job, n, KB_IN), qb = kjob_buf_u32(job, nq, KB_IN);
  int ob = kjob_buf_u32(job, nq, KB_OUT);
  uint32_t *ref = kjob_ref_sampled(job, ob, KC_U32, nq, M12_SAMPLES, 0, 0);
  uint32_t *kq = malloc(nq * sizeof *kq);
  if (pb < 0 || qb < 0 || ref == NULL || kq == NULL) {
    free(kq);
    return -1;
  }
  uint32_t *par = job->buf[pb].host, *q = job->buf[qb].host;
  /* Chains of UF_CHAIN nodes in the order of the bijection: the k-th node's
   * parent is the (k - 1)-th, the first of each chain its own root. */
  for (uint32_t k = 0; k < n; ++k) par[uf_perm(k, bits)] = uf_perm(k % UF_CHAIN ? k - 1 : k, bits);
  for (size_t i = 0; i < nq; ++i) {
    kq[i] = krng_below(&r, (uint32_t)n);
    q[i] = uf_perm(kq[i], bits);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const uint32_t k = kq[job->buf[ob].sample[s]];
    ref[s] = uf_perm(k - k % UF_CHAIN, bits);
  }
  free(kq);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)nq);
  kjob_grid1(job, nq, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- COO SpMV ---------------------------------------------------------------------------- */

static int coo_job(kjob *job, const kdesc *d, ksize size) {
  const size_t m = size == KSIZE_FULL ? (size_t)1 << 20 : 2048, ncol = m;
  krng r;
  krng_seed(&r, d->name, 0);
  /* Row lengths 8-24 (16 on average), drawn first to size the arrays. */
  uint8_t *rl = malloc(m);
  double *acc = calloc(m, sizeof *acc);
  if (rl == NULL || acc == NULL) {
    free(rl);
    free(acc);
    return -1;
  }
  size_t nnz = 0;
  for (size_t i = 0; i < m; ++i) nnz += rl[i] = (uint8_t)(8 + krng_below(&r, 17));
  kjob_init(job, "stream.cl", "m_coo_spmv_casadd");
  int rb = kjob_buf_u32(job, nnz, KB_IN), cb = kjob_buf_u32(job, nnz, KB_IN);
  int vb = kjob_buf(job, nnz * 4, KB_IN), xb = kjob_buf(job, ncol * 4, KB_IN);
  int yb = kjob_buf_u32(job, m, KB_INOUT);
  float *ref = kjob_ref(job, yb, KC_F32, m, 1e-5, 0);
  if (rb < 0 || cb < 0 || job->buf[vb].host == NULL || job->buf[xb].host == NULL || yb < 0 ||
      ref == NULL) {
    free(rl);
    free(acc);
    return -1;
  }
  uint32_t *row = job->buf[rb].host, *col = job->buf[cb].host;
  float *val = job->buf[vb].host, *x = job->buf[xb].host;
  kfill_f32(x, ncol, &r, 0.5, 1.5);
  size_t e = 0;
  for (size_t i = 0; i < m; ++i)
    for (int k = 0; k < rl[i]; ++k, ++e) { /* positive terms: any order sums within 1e-5 */
      row[e] = (uint32_t)i;
      col[e] = krng_below(&r, (uint32_t)ncol);
      val[e] = (float)krng_uniform(&r, 0.5, 1.5);
      acc[i] += (double)(val[e] * x[col[e]]);
    }
  for (size_t i = 0; i < m; ++i) ref[i] = (float)acc[i]; /* y starts at 0 */
  free(rl);
  free(acc);
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, (int)nnz);
  kjob_grid1(job, nnz, 256);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(m12setup_stream) {
  if (d->param > M12SM_UF) return uf_job(job, d, size, d->param - M12SM_UF);
  if (d->param > M12SM_SEARCH) return search_job(job, d, size, d->param - M12SM_SEARCH);
  switch (d->param) {
    case M12SM_HALF:
      return half_job(job, d, size);
    case M12SM_ONEHOT:
      return onehot_job(job, d, size);
    case M12SM_EMA:
      return ema_job(job, d, size);
    case M12SM_AOS:
      return aos_job(job, d, size);
    case M12SM_J0:
      return j0_job(job, d, size);
    case M12SM_AS241:
      return as241_job(job, d, size);
    case M12SM_COO:
      return coo_job(job, d, size);
  }
  return -1;
}
