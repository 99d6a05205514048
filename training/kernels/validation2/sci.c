/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.c: host half of sci.cl (lattice Boltzmann, SRAD, MRI-Q, FP64
 * covariance, Philox Asian options, 8th-order wave step, small-batch RNN,
 * bilateral filter).  References are computed in double on sampled
 * outputs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validation2.h"

#define W_2PI 6.283185307179586476925

/* ---- lattice Boltzmann ----------------------------------------------------- */

static const int LB_EX[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
static const int LB_EY[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
static const int LB_OPP[9] = {0, 3, 4, 1, 2, 7, 8, 5, 6};
static const double LB_W[9] = {4.0 / 9,  1.0 / 9,  1.0 / 9,  1.0 / 9, 1.0 / 9,
                               1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36};

static int lbm_job(kjob *job, const kdesc *d, ksize size) {
  const int nx = size == KSIZE_FULL ? 3072 : 128, ny = size == KSIZE_FULL ? 3072 : 48;
  const size_t plane = (size_t)nx * ny, n = 9 * plane;
  const float omega = 1.25f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "w_lbm_d2q9");
  int fi = kjob_buf(job, n * 4, KB_IN), fo = kjob_buf(job, n * 4, KB_OUT);
  int sb = kjob_buf(job, plane, KB_IN);
  float *f = job->buf[fi].host;
  uint8_t *solid = job->buf[sb].host;
  float *ref = wref_sampled(job, fo, KC_F32, n, 1e-5, 1e-7);
  if (f == NULL || solid == NULL || ref == NULL) return -1;
  /* Near-equilibrium populations of a slightly perturbed flow. */
  for (size_t c = 0; c < plane; ++c) {
    const double rho = krng_uniform(&r, 0.98, 1.02);
    const double ux = krng_uniform(&r, -0.05, 0.05), uy = krng_uniform(&r, -0.05, 0.05);
    for (int q = 0; q < 9; ++q) {
      const double eu = 3.0 * (LB_EX[q] * ux + LB_EY[q] * uy);
      f[q * plane + c] =
          (float)(LB_W[q] * rho * (1.0 + eu + 0.5 * eu * eu - 1.5 * (ux * ux + uy * uy)) *
                  krng_uniform(&r, 0.99, 1.01));
    }
  }
  /* Solid discs on a coarse lattice of centres (about 8% of the cells). */
  const int pitch = nx / 16, rad = pitch * 4 / 25;
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const int dx = x % pitch - pitch / 2, dy = y % pitch - pitch / 2;
      solid[(size_t)y * nx + x] = dx * dx + dy * dy <= rad * rad;
    }
  for (size_t s = 0; s < job->buf[fo].count; ++s) {
    const size_t e = job->buf[fo].sample[s], qo = e / plane, c = e % plane;
    const int x = (int)(c % nx), y = (int)(c / nx);
    double fp[9];
    for (int q = 0; q < 9; ++q) {
      const int sx = (x - LB_EX[q] + nx) % nx, sy = (y - LB_EY[q] + ny) % ny;
      fp[q] = f[q * plane + (size_t)sy * nx + sx];
    }
    if (solid[c]) {
      ref[s] = (float)fp[LB_OPP[qo]];
      continue;
    }
    double rho = 0, ux = 0, uy = 0;
    for (int q = 0; q < 9; ++q) {
      rho += fp[q];
      ux += fp[q] * LB_EX[q];
      uy += fp[q] * LB_EY[q];
    }
    ux /= rho;
    uy /= rho;
    const double eu = 3.0 * (LB_EX[qo] * ux + LB_EY[qo] * uy);
    const double feq = LB_W[qo] * rho * (1.0 + eu + 0.5 * eu * eu - 1.5 * (ux * ux + uy * uy));
    ref[s] = (float)(fp[qo] - omega * (fp[qo] - feq));
  }
  kjob_arg_buf(job, fi);
  kjob_arg_buf(job, fo);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, nx);
  kjob_arg_i32(job, ny);
  kjob_arg_f32(job, omega);
  kjob_grid(job, nx / 128, ny, 1, 128, 1, 1);
  return 0;
}

/* ---- SRAD ------------------------------------------------------------------ */

static int srad_job(kjob *job, const kdesc *d, ksize size) {
  const int rows = size == KSIZE_FULL ? 6144 : 48, cols = size == KSIZE_FULL ? 6144 : 80;
  const size_t n = (size_t)rows * cols;
  const float q0sqr = 0.04f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "w_srad_coeff");
  int j = kjob_buf(job, n * 4, KB_IN);
  int ob[5];
  float *ref[5];
  for (int i = 0; i < 5; ++i) ob[i] = kjob_buf(job, n * 4, KB_OUT);
  /* Differences are one float subtraction (exact in the reference's float);
   * the coefficient has divisions and a clamp. */
  for (int i = 0; i < 4; ++i) ref[i] = wref_sampled(job, ob[i], KC_F32, n, 0, 0);
  ref[4] = wref_sampled(job, ob[4], KC_F32, n, 1e-4, 1e-5);
  float *hj = job->buf[j].host;
  if (hj == NULL || !ref[0] || !ref[1] || !ref[2] || !ref[3] || !ref[4]) return -1;
  /* An ultrasound-like image: exp of a smooth field plus speckle. */
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x)
      hj[(size_t)y * cols + x] =
          (float)exp(0.3 * sin(x * 0.01) * cos(y * 0.013) + krng_uniform(&r, -0.25, 0.25));
  for (size_t s = 0; s < job->buf[ob[4]].count; ++s) {
    const size_t k = job->buf[ob[4]].sample[s];
    const int x = (int)(k % cols), y = (int)(k / cols);
    const float jc = hj[k];
    const float dn = hj[(size_t)(y > 0 ? y - 1 : 0) * cols + x] - jc;
    const float ds = hj[(size_t)(y < rows - 1 ? y + 1 : y) * cols + x] - jc;
    const float dw = hj[(size_t)y * cols + (x > 0 ? x - 1 : 0)] - jc;
    const float de = hj[(size_t)y * cols + (x < cols - 1 ? x + 1 : x)] - jc;
    const double g2 =
        ((double)dn * dn + (double)ds * ds + (double)dw * dw + (double)de * de) / ((double)jc * jc);
    const double l = ((double)dn + ds + dw + de) / jc;
    const double num = 0.5 * g2 - 0.0625 * l * l;
    double den = 1.0 + 0.25 * l;
    const double qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0 + q0sqr));
    double c = 1.0 / (1.0 + den);
    c = c < 0.0 ? 0.0 : c > 1.0 ? 1.0 : c;
    ref[0][s] = dn;
    ref[1][s] = ds;
    ref[2][s] = dw;
    ref[3][s] = de;
    ref[4][s] = (float)c;
  }
  kjob_arg_buf(job, j);
  for (int i = 0; i < 5; ++i) kjob_arg_buf(job, ob[i]);
  kjob_arg_i32(job, rows);
  kjob_arg_i32(job, cols);
  kjob_arg_f32(job, q0sqr);
  kjob_grid(job, (cols + 31) / 32, (rows + 7) / 8, 1, 32, 8, 1);
  return 0;
}

/* ---- MRI-Q ------------------------------------------------------------------ */

static int mriq_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nx = size == KSIZE_FULL ? 262144 : 1024;
  const int nk = size == KSIZE_FULL ? 2048 : 256;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "w_mriq");
  /* k in [-8, 8) cycles per unit, |phi|^2 in [0, 1), voxels in
   * [-0.5, 0.5)^3. */
  int kb = kjob_buf(job, (size_t)nk * 4 * 4, KB_IN), xb = win_f32(job, nx * 3, &r, -0.5, 0.5);
  int qr = kjob_buf(job, nx * 4, KB_OUT), qi = kjob_buf(job, nx * 4, KB_OUT);
  /* The phase 2 pi k.x (up to about 75) is rounded in float on the device:
   * about 1e-5 per term, over nk terms of weight below 1. */
  float *rr = wref_sampled(job, qr, KC_F32, nx, 1e-4, 5e-3);
  float *ri = wref_sampled(job, qi, KC_F32, nx, 1e-4, 5e-3);
  float *hk = job->buf[kb].host;
  if (hk == NULL || xb < 0 || rr == NULL || ri == NULL) return -1;
  kfill_f32(hk, (size_t)nk * 3, &r, -8, 8);
  kfill_f32(hk + (size_t)nk * 3, nk, &r, 0, 1);
  const float *hkx = hk, *hky = hk + nk, *hkz = hk + 2 * nk, *hpm = hk + 3 * nk;
  const float *hx = job->buf[xb].host, *hy = hx + nx, *hz = hx + 2 * nx;
  for (size_t s = 0; s < job->buf[qr].count; ++s) {
    const size_t v = job->buf[qr].sample[s];
    double ar = 0, ai = 0;
    for (int k = 0; k < nk; ++k) {
      const double a =
          W_2PI * ((double)hkx[k] * hx[v] + (double)hky[k] * hy[v] + (double)hkz[k] * hz[v]);
      ar += hpm[k] * cos(a);
      ai += hpm[k] * sin(a);
    }
    rr[s] = (float)ar;
    ri[s] = (float)ai;
  }
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, qr);
  kjob_arg_buf(job, qi);
  kjob_arg_i32(job, nk);
  kjob_arg_i32(job, (int)nx);
  kjob_grid(job, nx / 256, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- covariance -------------------------------------------------------------- */

static int covar_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 2048 : 64, m = size == KSIZE_FULL ? 2048 : 128;
  const size_t nm = (size_t)n * m, mm = (size_t)m * m;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "w_covariance");
  int db = kjob_buf(job, nm * 8, KB_IN), cb = kjob_buf(job, mm * 8, KB_OUT);
  double *dat = job->buf[db].host;
  /* Double sums of n products below 1 in another order: 1e-12 of n. */
  double *ref = wref_sampled(job, cb, KC_F64, mm, 1e-11, 1e-12 * n);
  if (dat == NULL || ref == NULL) return -1;
  kfill_f64(dat, nm, &r, 0, 1);
  for (int j = 0; j < m; ++j) { /* centre each variable */
    double mean = 0;
    for (int k = 0; k < n; ++k) mean += dat[(size_t)k * m + j];
    mean /= n;
    for (int k = 0; k < n; ++k) dat[(size_t)k * m + j] -= mean;
  }
  for (size_t s = 0; s < job->buf[cb].count; ++s) {
    const size_t e = job->buf[cb].sample[s], i = e / m, j = e % m;
    double acc = 0;
    for (int k = 0; k < n; ++k) acc += dat[(size_t)k * m + i] * dat[(size_t)k * m + j];
    ref[s] = acc / (n - 1);
  }
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, m);
  kjob_grid(job, m / 64, m / 64, 1, 16, 16, 1);
  return 0;
}

/* ---- Philox Asian options --------------------------------------------------- */

static uint32_t mulhi32(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }

static double asian_paths(uint32_t id, int npath, int nstep, double s0, double strike, double drift,
                          double vol, uint32_t seed) {
  double total = 0;
  for (int p = 0; p < npath; ++p) {
    double sp = s0, sum = 0;
    for (int st = 0; st < nstep; st += 4) {
      uint32_t c[4] = {id, (uint32_t)p, (uint32_t)st, 0x5eedu};
      uint32_t k0 = seed, k1 = seed ^ 0xA5A5A5A5u;
      for (int rd = 0; rd < 10; ++rd) {
        const uint32_t h0 = mulhi32(0xD2511F53u, c[0]), l0 = 0xD2511F53u * c[0];
        const uint32_t h1 = mulhi32(0xCD9E8D57u, c[2]), l1 = 0xCD9E8D57u * c[2];
        c[0] = h1 ^ c[1] ^ k0;
        c[1] = l1;
        c[2] = h0 ^ c[3] ^ k1;
        c[3] = l0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
      }
      double u[4];
      for (int j = 0; j < 4; ++j) u[j] = (double)((c[j] >> 8) + 1u) / 16777216.0;
      const double r0 = sqrt(-2.0 * log(u[0])), r1 = sqrt(-2.0 * log(u[2]));
      const double a0 = W_2PI * u[1], a1 = W_2PI * u[3];
      const double z[4] = {r0 * cos(a0), r0 * sin(a0), r1 * cos(a1), r1 * sin(a1)};
      for (int j = 0; j < 4; ++j) {
        sp *= exp(drift + vol * z[j]);
        sum += sp;
      }
    }
    const double avg = sum / nstep;
    total += avg > strike ? avg - strike : 0.0;
  }
  return total;
}

static int philox_job(kjob *job, const kdesc *d, ksize size) {
  const size_t items = size == KSIZE_FULL ? (size_t)1 << 20 : 1024;
  const int npath = size == KSIZE_FULL ? 4 : 2, nstep = size == KSIZE_FULL ? 64 : 16;
  /* S0 100, strike 100, r 3%, sigma 25%, one year in nstep steps. */
  const double dt = 1.0 / nstep, sig = 0.25;
  const float s0 = 100.0f, strike = 100.0f;
  const float drift = (float)((0.03 - 0.5 * sig * sig) * dt);
  const float vol = (float)(sig * sqrt(dt));
  const uint32_t seed = 20261201u;
  kjob_init(job, "sci.cl", "w_philox_asian");
  int pb = kjob_buf(job, items * 4, KB_OUT);
  /* Float paths drift from double ones by about nstep float roundings
   * (1e-5 of S) per path; a payoff near the strike may just change sign. */
  float *ref = wref_sampled(job, pb, KC_F32, items, 1e-4, 0.02 * npath);
  if (ref == NULL) return -1;
  for (size_t s = 0; s < job->buf[pb].count; ++s)
    ref[s] = (float)asian_paths((uint32_t)job->buf[pb].sample[s], npath, nstep, s0, strike, drift,
                                vol, seed);
  (void)d;
  kjob_arg_buf(job, pb);
  kjob_arg_i32(job, npath);
  kjob_arg_i32(job, nstep);
  kjob_arg_f32(job, s0);
  kjob_arg_f32(job, strike);
  kjob_arg_f32(job, drift);
  kjob_arg_f32(job, vol);
  kjob_arg_u32(job, seed);
  kjob_grid1(job, items, 256);
  return 0;
}

/* ---- 8th-order wave step ------------------------------------------------------ */

static const double RT_C[5] = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};

static int rtm_job(kjob *job, const kdesc *d, ksize size) {
  const int nx = size == KSIZE_FULL ? 512 : 64, ny = size == KSIZE_FULL ? 512 : 64;
  const int nz = size == KSIZE_FULL ? 256 : 24;
  const size_t plane = (size_t)nx * ny, n = plane * nz;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "w_rtm_step");
  int p = win_f32(job, n, &r, -1, 1), pv = win_f32(job, n, &r, -1, 1);
  int vel = win_f32(job, n, &r, 0.05, 0.2), nb = kjob_buf(job, n * 4, KB_OUT);
  /* 25 terms of size up to 3: a few float roundings of 10. */
  float *ref = wref_sampled(job, nb, KC_F32, n, 1e-5, 2e-5);
  if (p < 0 || pv < 0 || vel < 0 || ref == NULL) return -1;
  const float *hp = job->buf[p].host, *hpv = job->buf[pv].host, *hv = job->buf[vel].host;
  for (size_t s = 0; s < job->buf[nb].count; ++s) {
    const size_t e = job->buf[nb].sample[s];
    const int x = (int)(e % nx), y = (int)(e / nx % ny), z = (int)(e / plane);
    if (x < 4 || x >= nx - 4 || y < 4 || y >= ny - 4 || z < 4 || z >= nz - 4) {
      ref[s] = 0.0f;
      continue;
    }
    double lap = 3.0 * RT_C[0] * hp[e];
    for (int k = 1; k <= 4; ++k)
      lap += RT_C[k] * ((double)hp[e - k] + hp[e + k] + hp[e - k * nx] + hp[e + k * nx] +
                        hp[e - k * plane] + hp[e + k * plane]);
    ref[s] = (float)(2.0 * hp[e] - hpv[e] + (double)hv[e] * lap);
  }
  kjob_arg_buf(job, p);
  kjob_arg_buf(job, pv);
  kjob_arg_buf(job, vel);
  kjob_arg_buf(job, nb);
  kjob_arg_i32(job, nx);
  kjob_arg_i32(job, ny);
  kjob_arg_i32(job, nz);
  for (int k = 0; k < 5; ++k) kjob_arg_f32(job, (float)RT_C[k]);
  kjob_grid(job, nx / 32, ny / 32, 1, 32, 32, 1);
  return 0;
}

/* ---- small-batch RNN ------------------------------------------------------------ */

enum { RN_H = 256, RN_CHECKED = 4 };

static int rnn_job(kjob *job, const kdesc *d, ksize size) {
  const int batch = size == KSIZE_FULL ? 40 : 2, steps = size == KSIZE_FULL ? 512 : 16;
  const int nseq = batch < RN_CHECKED ? batch : RN_CHECKED;
  const size_t nx = (size_t)batch * steps * RN_H;
  /* Spectral radius of W about 0.5 (entries of variance a^2/3, times
   * sqrt(256)): the recurrence contracts, so rounding does not grow. */
  const double a = 0.5 * sqrt(3.0 / RN_H);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "w_rnn_tanh");
  int wt = win_f32(job, (size_t)RN_H * RN_H, &r, -a, a);
  int xp = win_f32(job, nx, &r, -1, 1), ho = kjob_buf(job, nx * 4, KB_OUT);
  const size_t count = (size_t)nseq * steps * RN_H;
  float *ref = kjob_ref(job, ho, KC_F32, count, 1e-4, 1e-5);
  size_t *smp = ref ? kjob_sample(job, ho) : NULL;
  double *h = malloc(2 * RN_H * sizeof *h);
  if (wt < 0 || xp < 0 || smp == NULL || h == NULL) {
    free(h);
    return -1;
  }
  const float *hw = job->buf[wt].host, *hx = job->buf[xp].host;
  size_t c = 0;
  for (int q = 0; q < nseq; ++q) {
    const size_t b = (size_t)q * (batch - 1) / (nseq > 1 ? nseq - 1 : 1);
    double *hp = h, *hn = h + RN_H;
    for (int j = 0; j < RN_H; ++j) hp[j] = 0;
    for (int t = 0; t < steps; ++t) {
      const size_t base = (b * steps + t) * RN_H;
      for (int j = 0; j < RN_H; ++j) {
        double acc = hx[base + j];
        for (int k = 0; k < RN_H; ++k) acc += (double)hw[k * RN_H + j] * hp[k];
        hn[j] = tanh(acc);
        ref[c] = (float)hn[j];
        smp[c++] = base + j;
      }
      double *tmp = hp;
      hp = hn;
      hn = tmp;
    }
  }
  free(h);
  kjob_arg_buf(job, wt);
  kjob_arg_buf(job, xp);
  kjob_arg_buf(job, ho);
  kjob_arg_i32(job, steps);
  kjob_grid(job, batch, 1, 1, RN_H, 1, 1);
  return 0;
}

/* ---- bilateral filter ----------------------------------------------------------- */

static int bilateral_job(kjob *job, const kdesc *d, ksize size) {
  const int imgs = size == KSIZE_FULL ? 133 : 3, w = size == KSIZE_FULL ? 512 : 48;
  const int h = size == KSIZE_FULL ? 512 : 40;
  const size_t n = (size_t)imgs * w * h;
  const float rw = 50.0f; /* range sigma 0.1: 1 / (2 sigma^2) */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "w_bilateral");
  int in = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  float *hi = job->buf[in].host;
  float *ref = wref_sampled(job, out, KC_F32, n, 1e-5, 1e-6);
  if (hi == NULL || ref == NULL) return -1;
  /* Piecewise-constant blocks with noise: edges for the range weight. */
  for (int i = 0; i < imgs; ++i)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        hi[((size_t)i * h + y) * w + x] =
            (float)(0.25 * ((x / 37 + y / 23 + i) % 4) + krng_uniform(&r, -0.05, 0.05));
  for (size_t s = 0; s < job->buf[out].count; ++s) {
    const size_t e = job->buf[out].sample[s], img = e / ((size_t)w * h);
    const int x = (int)(e % w), y = (int)(e / w % h);
    const float *im = hi + img * w * h;
    const double c = hi[e];
    double num = 0, den = 0;
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx) {
        const int yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
        const int xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
        const double v = im[(size_t)yy * w + xx];
        const double wt = exp(-(dx * dx + dy * dy) / 8.0) * exp(-(v - c) * (v - c) * rw);
        num += wt * v;
        den += wt;
      }
    ref[s] = (float)(num / den);
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_arg_f32(job, rw);
  kjob_grid(job, imgs, 1, 1, 1024, 1, 1);
  return 0;
}

int wsetup_sci(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case WSC_LBM:
      return lbm_job(job, d, size);
    case WSC_SRAD:
      return srad_job(job, d, size);
    case WSC_MRIQ:
      return mriq_job(job, d, size);
    case WSC_COVAR:
      return covar_job(job, d, size);
    case WSC_PHILOX:
      return philox_job(job, d, size);
    case WSC_RTM:
      return rtm_job(job, d, size);
    case WSC_RNN:
      return rnn_job(job, d, size);
    case WSC_BILATERAL:
      return bilateral_job(job, d, size);
  }
  return -1;
}
