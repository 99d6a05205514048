/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.c: host half of sci.cl (NAS EP, PME gather, parallel cyclic
 * reduction, Sinkhorn-Knopp, IMU integration, batch-norm folding).  EP's
 * generator is exact in double, so its sums are replayed to 1e-9 and its
 * annulus counts (after the first launch; later ones keep adding) exactly;
 * the float kernels are compared with double references within tolerances
 * that cover float rounding (PCR against the Thomas algorithm). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation8.h"

/* ---- NAS EP ------------------------------------------------------------------------------- */

enum { EP_NQ = 10 };

static double randlc(double *x, double a) {
  const double r23 = 1.0 / 8388608.0, t23 = 8388608.0, r46 = r23 * r23, t46 = t23 * t23;
  double t1 = r23 * a;
  const double a1 = (double)(int)t1, a2 = a - t23 * a1;
  t1 = r23 * *x;
  const double x1 = (double)(int)t1, x2 = *x - t23 * x1;
  t1 = a1 * x2 + a2 * x1;
  const double t2 = (double)(int)(r23 * t1), z = t1 - t23 * t2;
  const double t3 = t23 * z + a2 * x2, t4 = (double)(int)(r46 * t3);
  *x = t3 - t46 * t4;
  return r46 * *x;
}

/* Work-item k's pairs: its sums into sxy, its counts added to q. */
static void ep_item(int k, int npairs, double seed, double a, double an, double sxy[2],
                    uint32_t *q) {
  double x = seed, m = an;
  for (int kk = k; kk > 0; kk >>= 1) {
    if (kk & 1) randlc(&x, m);
    randlc(&m, m);
  }
  sxy[0] = sxy[1] = 0;
  for (int p = 0; p < npairs; ++p) {
    const double x1 = 2.0 * randlc(&x, a) - 1.0, x2 = 2.0 * randlc(&x, a) - 1.0;
    const double tt = x1 * x1 + x2 * x2;
    if (tt <= 1.0) {
      const double f = sqrt(-2.0 * log(tt) / tt), gx = x1 * f, gy = x2 * f;
      const int l = (int)fmax(fabs(gx), fabs(gy));
      if (l < EP_NQ) q[l] += 1;
      sxy[0] += gx;
      sxy[1] += gy;
    }
  }
}

static int ep_job(kjob *job, const kdesc *d, ksize size) {
  (void)d;
  const int full = size == KSIZE_FULL, npairs = 512, nitems = full ? 65536 : 512;
  const double a = 1220703125.0, seed = 271828183.0;
  double an = a;
  for (int i = 0; i < 10; ++i) randlc(&an, an); /* a^(2^10) = a^(2 npairs) */
  kjob_init(job, "sci.cl", "s_ep_gauss_pairs_f64");
  int sb = kjob_buf(job, (size_t)nitems * 16, KB_OUT), qb = sbuf_u32(job, EP_NQ, KB_INOUT);
  double *rs = sref_sampled(job, sb, KC_F64, (size_t)nitems * 2, S_SAMPLES, 1e-9, 1e-9);
  uint32_t *rq = kjob_ref(job, qb, KC_U32, EP_NQ, 0, 0);
  if (rs == NULL || qb < 0 || rq == NULL) return -1;
  size_t s = 0;
  for (int k = 0; k < nitems; ++k) { /* every item for the counts, the sampled ones' sums */
    double sxy[2];
    ep_item(k, npairs, seed, a, an, sxy, rq);
    for (; s < job->buf[sb].count && job->buf[sb].sample[s] / 2 == (size_t)k; ++s)
      rs[s] = sxy[job->buf[sb].sample[s] % 2];
  }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, qb);
  kjob_arg_i32(job, nitems);
  kjob_arg_i32(job, npairs);
  kjob_arg_f64(job, seed);
  kjob_arg_f64(job, a);
  kjob_arg_f64(job, an);
  kjob_grid1(job, (size_t)nitems, 128);
  return 0;
}

/* ---- PME gather --------------------------------------------------------------------------- */

static void bspline4(double w, double *th, double *dth) {
  const double v = 1.0 - w;
  th[0] = v * v * v / 6.0;
  th[1] = (3.0 * w * w * w - 6.0 * w * w + 4.0) / 6.0;
  th[2] = (-3.0 * w * w * w + 3.0 * w * w + 3.0 * w + 1.0) / 6.0;
  th[3] = w * w * w / 6.0;
  dth[0] = -0.5 * v * v;
  dth[1] = 0.5 * (3.0 * w * w - 4.0 * w);
  dth[2] = 0.5 * (-3.0 * w * w + 2.0 * w + 1.0);
  dth[3] = 0.5 * w * w;
}

static void pme_force(const float *p, const float *phi, int k, double *out) {
  double t[3][4], dt[3][4];
  int fl[3];
  for (int a = 0; a < 3; ++a) {
    fl[a] = (int)p[a];
    bspline4((double)(p[a] - (float)fl[a]), t[a], dt[a]);
  }
  double g[3] = {0, 0, 0};
  for (int c = 0; c < 4; ++c)
    for (int b = 0; b < 4; ++b)
      for (int a = 0; a < 4; ++a) {
        const int x = (fl[0] - 1 + a + k) % k, y = (fl[1] - 1 + b + k) % k;
        const int z = (fl[2] - 1 + c + k) % k;
        const double v = phi[((size_t)z * k + y) * k + x];
        g[0] += dt[0][a] * t[1][b] * t[2][c] * v;
        g[1] += t[0][a] * dt[1][b] * t[2][c] * v;
        g[2] += t[0][a] * t[1][b] * dt[2][c] * v;
      }
  for (int a = 0; a < 3; ++a) out[a] = -p[3] * g[a];
}

static int pme_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, k = full ? 192 : 24;
  const size_t n = full ? (size_t)4 << 20 : 8192, mesh = (size_t)k * k * k;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "s_pme_gather_bspline4");
  int pb = kjob_buf(job, n * 16, KB_IN), mb = sin_f32(job, mesh, &r, -1, 1);
  int fb = kjob_buf(job, n * 12, KB_OUT);
  float *ref = sref_sampled(job, fb, KC_F32, n * 3, S_SAMPLES, 1e-3, 1e-4);
  if (job->buf[pb].host == NULL || mb < 0 || ref == NULL) return -1;
  float *pos = job->buf[pb].host;
  for (size_t i = 0; i < n; ++i) { /* charges anywhere in the box, +-1 */
    for (int a = 0; a < 3; ++a) {
      const float v = (float)krng_uniform(&r, 0, k);
      pos[4 * i + a] = v < (float)k ? v : 0.0f;
    }
    pos[4 * i + 3] = krng_below(&r, 2) ? 1.0f : -1.0f;
  }
  for (size_t s = 0; s < job->buf[fb].count; ++s) {
    const size_t e = job->buf[fb].sample[s];
    double f3[3];
    pme_force(pos + 4 * (e / 3), job->buf[mb].host, k, f3);
    ref[s] = (float)f3[e % 3];
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, mb);
  kjob_arg_buf(job, fb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, k);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- parallel cyclic reduction ------------------------------------------------------------ */

enum { PCR_N = 1024 };

/* The Thomas algorithm in double on one system (a, b, c, d: PCR_N floats
 * each, consecutive); x gets the solution. */
static void thomas(const float *sys, double *x) {
  const float *a = sys, *b = sys + PCR_N, *c = sys + 2 * PCR_N, *dd = sys + 3 * PCR_N;
  double cp[PCR_N], dp[PCR_N];
  cp[0] = c[0] / (double)b[0];
  dp[0] = dd[0] / (double)b[0];
  for (int i = 1; i < PCR_N; ++i) {
    const double m = b[i] - a[i] * cp[i - 1];
    cp[i] = c[i] / m;
    dp[i] = (dd[i] - a[i] * dp[i - 1]) / m;
  }
  x[PCR_N - 1] = dp[PCR_N - 1];
  for (int i = PCR_N - 2; i >= 0; --i) x[i] = dp[i] - cp[i] * x[i + 1];
}

static int pcr_job(kjob *job, const kdesc *d, ksize size) {
  const int groups = size == KSIZE_FULL ? 60 : 2, per = size == KSIZE_FULL ? 64 : 2;
  const size_t nsys = (size_t)groups * per, n = nsys * PCR_N;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "s_pcr_tridiag_60");
  int ab = kjob_buf(job, n * 16, KB_IN), xb = kjob_buf(job, n * 4, KB_OUT);
  float *ref = sref_sampled(job, xb, KC_F32, n, S_SAMPLES, 1e-3, 1e-5);
  double *x = malloc(PCR_N * sizeof *x);
  if (job->buf[ab].host == NULL || ref == NULL || x == NULL) {
    free(x);
    return -1;
  }
  float *abcd = job->buf[ab].host;
  for (size_t s = 0; s < nsys; ++s) { /* |b| > |a| + |c| + 0.5: diagonally dominant */
    float *sys = abcd + s * 4 * PCR_N;
    for (int i = 0; i < PCR_N; ++i) {
      sys[i] = i == 0 ? 0.0f : (float)krng_uniform(&r, -1, 1);
      sys[2 * PCR_N + i] = i == PCR_N - 1 ? 0.0f : (float)krng_uniform(&r, -1, 1);
      sys[PCR_N + i] =
          (float)((krng_below(&r, 2) ? 1 : -1) *
                  (fabs(sys[i]) + fabs(sys[2 * PCR_N + i]) + krng_uniform(&r, 0.5, 2)));
      sys[3 * PCR_N + i] = (float)krng_uniform(&r, -1, 1);
    }
  }
  size_t last = (size_t)-1;
  for (size_t s = 0; s < job->buf[xb].count; ++s) {
    const size_t e = job->buf[xb].sample[s];
    if (e / PCR_N != last) {
      last = e / PCR_N;
      thomas(abcd + last * 4 * PCR_N, x);
    }
    ref[s] = (float)x[e % PCR_N];
  }
  free(x);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, xb);
  kjob_arg_i32(job, per);
  kjob_grid(job, (size_t)groups, 1, 1, PCR_N, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- Sinkhorn-Knopp ----------------------------------------------------------------------- */

enum { SK_N = 384 };

static int sinkhorn_job(kjob *job, const kdesc *d, ksize size) {
  const int np = size == KSIZE_FULL ? 24 : 2, iters = size == KSIZE_FULL ? 50 : 10;
  const double eps = 0.1;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "s_sinkhorn_24");
  int kb = kjob_buf(job, (size_t)np * 2 * SK_N * SK_N * 4, KB_IN);
  int ob = kjob_buf(job, (size_t)np * 2 * SK_N * 4, KB_OUT);
  float *ref = kjob_ref(job, ob, KC_F32, (size_t)np * 2 * SK_N, 1e-3, 0);
  double *pts = malloc(4 * SK_N * sizeof *pts), *u = malloc(2 * SK_N * sizeof *u);
  if (job->buf[kb].host == NULL || ref == NULL || pts == NULL || u == NULL) {
    free(pts);
    free(u);
    return -1;
  }
  double *v = u + SK_N;
  for (int p = 0; p < np; ++p) { /* two clouds of 2-D points; C = squared distance */
    float *kt = (float *)job->buf[kb].host + (size_t)p * 2 * SK_N * SK_N, *km = kt + SK_N * SK_N;
    for (int i = 0; i < 4 * SK_N; ++i) pts[i] = krng_uniform(&r, 0, 1);
    for (int i = 0; i < SK_N; ++i)
      for (int j = 0; j < SK_N; ++j) {
        const double dx = pts[2 * i] - pts[2 * SK_N + 2 * j];
        const double dy = pts[2 * i + 1] - pts[2 * SK_N + 2 * j + 1];
        km[i * SK_N + j] = kt[j * SK_N + i] = (float)exp(-(dx * dx + dy * dy) / eps);
      }
    for (int j = 0; j < SK_N; ++j) v[j] = 1;
    for (int it = 0; it < iters; ++it) {
      for (int i = 0; i < SK_N; ++i) {
        double s = 0;
        for (int j = 0; j < SK_N; ++j) s += km[i * SK_N + j] * v[j];
        u[i] = 1.0 / SK_N / s;
      }
      for (int j = 0; j < SK_N; ++j) {
        double s = 0;
        for (int i = 0; i < SK_N; ++i) s += km[i * SK_N + j] * u[i];
        v[j] = 1.0 / SK_N / s;
      }
    }
    for (int i = 0; i < 2 * SK_N; ++i) ref[(size_t)p * 2 * SK_N + i] = (float)u[i];
  }
  free(pts);
  free(u);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, iters);
  kjob_grid(job, (size_t)np, 1, 1, SK_N, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- IMU integration ---------------------------------------------------------------------- */

static int imu_job(kjob *job, const kdesc *d, ksize size) {
  (void)size; /* a tiny launch at both sizes */
  const int nb = 128, nsamp = 16;
  const float dt = 0.005f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "s_imu_quat_integrate");
  int qb = kjob_buf(job, (size_t)nb * 16, KB_IN);
  int gb = sin_f32(job, (size_t)nb * nsamp * 3, &r, -6, 6);
  int ob = kjob_buf(job, (size_t)nb * 16, KB_OUT);
  float *ref = kjob_ref(job, ob, KC_F32, (size_t)nb * 4, 1e-5, 1e-5);
  if (job->buf[qb].host == NULL || gb < 0 || ref == NULL) return -1;
  float *q0 = job->buf[qb].host;
  const float *gyro = job->buf[gb].host;
  for (int b = 0; b < nb; ++b) {
    double q[4], nn = 0;
    for (int k = 0; k < 4; ++k) {
      q[k] = krng_uniform(&r, -1, 1);
      nn += q[k] * q[k];
    }
    for (int k = 0; k < 4; ++k) q0[4 * b + k] = (float)(q[k] / sqrt(nn));
    double w = q0[4 * b], x = q0[4 * b + 1], y = q0[4 * b + 2], z = q0[4 * b + 3];
    for (int s = 0; s < nsamp; ++s) {
      const float *g = gyro + 3 * ((size_t)b * nsamp + s);
      const double mag = sqrt((double)g[0] * g[0] + (double)g[1] * g[1] + (double)g[2] * g[2]);
      const double h = 0.5 * mag * dt, cw = cos(h), sk = mag > 0 ? sin(h) / mag : 0;
      const double dx = g[0] * sk, dy = g[1] * sk, dz = g[2] * sk;
      const double nw = w * cw - x * dx - y * dy - z * dz, nx = w * dx + x * cw + y * dz - z * dy;
      const double ny = w * dy - x * dz + y * cw + z * dx, nz = w * dz + x * dy - y * dx + z * cw;
      const double inv = 1 / sqrt(nw * nw + nx * nx + ny * ny + nz * nz);
      w = nw * inv;
      x = nx * inv;
      y = ny * inv;
      z = nz * inv;
    }
    ref[4 * b] = (float)w;
    ref[4 * b + 1] = (float)x;
    ref[4 * b + 2] = (float)y;
    ref[4 * b + 3] = (float)z;
  }
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, nb);
  kjob_arg_i32(job, nsamp);
  kjob_arg_f32(job, dt);
  kjob_grid(job, 1, 1, 1, (size_t)nb, 1, 1);
  return 0;
}

/* ---- batch-norm folding ------------------------------------------------------------------- */

static int bnfold_job(kjob *job, const kdesc *d, ksize size) {
  (void)size; /* a tiny launch at both sizes */
  const int nout = 128, per = 64 * 9;
  const float eps = 1e-5f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "s_bn_fold_conv");
  int wb = sin_f32(job, (size_t)nout * per, &r, -0.2, 0.2);
  int bb = kjob_buf(job, (size_t)nout * 20, KB_IN);
  int ob = kjob_buf(job, (size_t)nout * per * 4, KB_OUT),
      cb = kjob_buf(job, (size_t)nout * 4, KB_OUT);
  float *rw = kjob_ref(job, ob, KC_F32, (size_t)nout * per, 1e-5, 1e-7);
  float *rb = kjob_ref(job, cb, KC_F32, (size_t)nout, 1e-5, 1e-6);
  if (wb < 0 || job->buf[bb].host == NULL || rw == NULL || rb == NULL) return -1;
  float *bn = job->buf[bb].host;
  const float *w = job->buf[wb].host;
  for (int o = 0; o < nout; ++o) { /* gamma, beta, running mean, running var, conv bias */
    bn[5 * o] = (float)krng_uniform(&r, 0.5, 1.5);
    bn[5 * o + 1] = (float)krng_uniform(&r, -0.3, 0.3);
    bn[5 * o + 2] = (float)krng_uniform(&r, -0.5, 0.5);
    bn[5 * o + 3] = (float)krng_uniform(&r, 0.01, 2);
    bn[5 * o + 4] = (float)krng_uniform(&r, -0.1, 0.1);
    const double s = bn[5 * o] / sqrt((double)bn[5 * o + 3] + eps);
    for (int i = 0; i < per; ++i) rw[o * per + i] = (float)(w[o * per + i] * s);
    rb[o] = (float)(((double)bn[5 * o + 4] - bn[5 * o + 2]) * s + bn[5 * o + 1]);
  }
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, nout);
  kjob_arg_i32(job, per);
  kjob_arg_f32(job, eps);
  kjob_grid1(job, (size_t)nout * per, 256);
  return 0;
}

SP_SETUP(ssetup_sci) {
  switch (d->param) {
    case SSC_EP:
      return ep_job(job, d, size);
    case SSC_PME:
      return pme_job(job, d, size);
    case SSC_PCR:
      return pcr_job(job, d, size);
    case SSC_SINKHORN:
      return sinkhorn_job(job, d, size);
    case SSC_IMU:
      return imu_job(job, d, size);
    case SSC_BNFOLD:
      return bnfold_job(job, d, size);
  }
  return -1;
}
