/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stencil.c: host half of stencil.cl (donor-cell advection, Perona-Malik
 * diffusion, the D3Q7 advection-diffusion step).  Each is compared at
 * sampled cells with double arithmetic, within tolerances that cover the
 * kernels' rounding (FP64 with other contractions, float exponentials and
 * sums). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation12.h"

/* periodic neighbour of i by d in [0, n) */
static size_t wrap(size_t i, int d, size_t n) { return (i + n + (size_t)(long)d) % n; }

/* ---- donor-cell advection ---------------------------------------------------------------- */

static double flux(double c, double l, double r) { return fmax(c, 0) * l + fmin(c, 0) * r; }

static int donor_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nx = size == KSIZE_FULL ? 320 : 64, ny = nx, nz = size == KSIZE_FULL ? 320 : 16;
  const size_t n = nx * ny * nz, len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stencil.cl", "m_donorcell3d_f64");
  int fb[4];
  for (int k = 0; k < 4; ++k) {
    fb[k] = kjob_buf(job, n * 8, KB_IN);
    if (job->buf[fb[k]].host == NULL) return -1;
  }
  int ob = kjob_buf(job, n * 8, KB_OUT);
  double *ref = kjob_ref_sampled(job, ob, KC_F64, n, M12_SAMPLES, 1e-12, 1e-12);
  if (ref == NULL) return -1;
  double *q = job->buf[fb[0]].host, *u = job->buf[fb[1]].host, *v = job->buf[fb[2]].host,
         *w = job->buf[fb[3]].host;
  for (size_t i = 0; i < len; ++i) { /* a tracer blob, a swirling flow, Courant numbers < 1/3 */
    const double x = (double)(i % nx) / nx, y = (double)(i / nx % ny) / ny;
    q[i] = exp(-20 * ((x - 0.5) * (x - 0.5) + (y - 0.4) * (y - 0.4))) + krng_uniform(&r, 0, 0.01);
    u[i] = 0.3 * sin(6.2831853 * y) + krng_uniform(&r, -0.02, 0.02);
    v[i] = -0.3 * sin(6.2831853 * x) + krng_uniform(&r, -0.02, 0.02);
    w[i] = krng_uniform(&r, -0.3, 0.3);
  }
  for (int k = 0; k < 4; ++k) krepeat(job->buf[fb[k]].host, len * 8, n * 8);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t c = job->buf[ob].sample[s], x = c % nx, y = c / nx % ny, z = c / (nx * ny);
    const size_t xm = wrap(x, -1, nx) + (c - x), xp = wrap(x, 1, nx) + (c - x);
    const size_t ym = c - y * nx + wrap(y, -1, ny) * nx, yp = c - y * nx + wrap(y, 1, ny) * nx;
    const size_t zm = c - z * nx * ny + wrap(z, -1, nz) * nx * ny,
                 zp = c - z * nx * ny + wrap(z, 1, nz) * nx * ny;
    const double fx = flux(u[c], q[c], q[xp]) - flux(u[xm], q[xm], q[c]);
    const double fy = flux(v[c], q[c], q[yp]) - flux(v[ym], q[ym], q[c]);
    const double fz = flux(w[c], q[c], q[zp]) - flux(w[zm], q[zm], q[c]);
    ref[s] = q[c] - fx - fy - fz;
  }
  for (int k = 0; k < 4; ++k) kjob_arg_buf(job, fb[k]);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)nx);
  kjob_arg_i32(job, (int)ny);
  kjob_arg_i32(job, (int)nz);
  kjob_grid(job, nx / 32, ny / 4, nz, 32, 4, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- Perona-Malik ------------------------------------------------------------------------ */

static int perona_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t nx = full ? 512 : 64, ny = nx, nz = full ? 384 : 16, n = nx * ny * nz;
  const size_t len = m12_stretch(n);
  const float lambda = 1.0f / 7.0f, kk = 20.0f, ik2 = 1.0f / (kk * kk);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stencil.cl", "m_peronamalik3d_f32");
  int ib = kjob_buf(job, n * 4, KB_IN), ob = kjob_buf(job, n * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, ob, KC_F32, n, M12_SAMPLES, 2e-6, 1e-4);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  float *in = job->buf[ib].host;
  for (size_t i = 0; i < len; ++i) { /* a scan: soft tissue, an edge, noise */
    const double x = (double)(i % nx), y = (double)(i / nx % ny);
    in[i] = (float)(90 + 60 * (x + y > (double)nx ? 1 : 0) + 10 * sin(0.05 * x) +
                    krng_uniform(&r, -25, 25));
  }
  krepeat(in, len * 4, n * 4);
  const size_t sy = nx, sz = nx * ny;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t c = job->buf[ob].sample[s], x = c % nx, y = c / nx % ny, z = c / sz;
    const double uc = in[c];
    const double dd[6] = {x > 0 ? in[c - 1] - uc : 0,  x < nx - 1 ? in[c + 1] - uc : 0,
                          y > 0 ? in[c - sy] - uc : 0, y < ny - 1 ? in[c + sy] - uc : 0,
                          z > 0 ? in[c - sz] - uc : 0, z < nz - 1 ? in[c + sz] - uc : 0};
    double acc = 0;
    for (int k = 0; k < 6; ++k) acc += exp(-dd[k] * dd[k] * ik2) * dd[k];
    ref[s] = (float)(uc + lambda * acc);
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)nx);
  kjob_arg_i32(job, (int)ny);
  kjob_arg_i32(job, (int)nz);
  kjob_arg_f32(job, lambda);
  kjob_arg_f32(job, ik2);
  kjob_grid(job, nx / 32, ny / 4, nz, 32, 4, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- D3Q7 advection-diffusion ------------------------------------------------------------ */

static int d3q7_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nx = size == KSIZE_FULL ? 288 : 64, ny = nx, nz = size == KSIZE_FULL ? 288 : 16;
  const size_t n = nx * ny * nz, len = m12_stretch(n);
  const float ux = 0.05f, uy = -0.03f, uz = 0.02f, omega = 1.2f;
  static const int E[7][3] = {{0, 0, 0},  {1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                              {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stencil.cl", "m_lbm_d3q7_advdiff");
  int fb = kjob_buf(job, 7 * n * 4, KB_IN), gb = kjob_buf(job, 7 * n * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, gb, KC_F32, 7 * n, M12_SAMPLES, 2e-5, 1e-6);
  if (job->buf[fb].host == NULL || ref == NULL) return -1;
  float *f = job->buf[fb].host;
  for (size_t i = 0; i < len; ++i) { /* near equilibrium around a varying concentration */
    const double c0 = 1 + 0.5 * sin(0.01 * (double)i);
    for (int k = 0; k < 7; ++k)
      f[(size_t)k * n + i] = (float)((k ? 0.125 : 0.25) * c0 * (1 + krng_uniform(&r, -0.1, 0.1)));
  }
  for (int k = 0; k < 7; ++k) krepeat(f + (size_t)k * n, len * 4, n * 4);
  for (size_t s = 0; s < job->buf[gb].count; ++s) {
    const size_t e = job->buf[gb].sample[s], i = e / n, c = e % n;
    const size_t x = c % nx, y = c / nx % ny, z = c / (nx * ny);
    double p[7], cc = 0;
    for (int k = 0; k < 7; ++k) {
      const size_t src =
          wrap(x, -E[k][0], nx) + wrap(y, -E[k][1], ny) * nx + wrap(z, -E[k][2], nz) * nx * ny;
      p[k] = f[(size_t)k * n + src];
      cc += p[k];
    }
    const double eu = E[i][0] * ux + E[i][1] * uy + E[i][2] * uz;
    const double eq = (i ? 0.125 : 0.25) * cc * (1 + 4 * eu);
    ref[s] = (float)(p[i] - omega * (p[i] - eq));
  }
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, gb);
  kjob_arg_i32(job, (int)nx);
  kjob_arg_i32(job, (int)ny);
  kjob_arg_i32(job, (int)nz);
  kjob_arg_f32(job, ux);
  kjob_arg_f32(job, uy);
  kjob_arg_f32(job, uz);
  kjob_arg_f32(job, omega);
  kjob_grid(job, nx / 32, ny / 4, nz, 32, 4, 1);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(m12setup_stencil) {
  switch (d->param) {
    case M12ST_DONOR:
      return donor_job(job, d, size);
    case M12ST_PERONA:
      return perona_job(job, d, size);
    case M12ST_D3Q7:
      return d3q7_job(job, d, size);
  }
  return -1;
}
