/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lbm.c: host half of lbm.cl.  d->param is LBM_PARAM(lattice, f64):
 * LBM_D2Q9 on a 4096 x 2048 lattice, LBM_D3Q19 on 128 x 128 x 256 (float)
 * or 128^3 (double); about 300 MB read and 300 MB written per step.
 *
 * Every f starts at w_q (1 + noise) with noise uniform in +-0.1, so rho is
 * near 1 and the velocities small.  The host repeats the step for 16384
 * spread cells (every direction of each) in the same order of operations;
 * contractions into fused multiply-adds may differ, hence the tolerances:
 * the results are near w_q (0.03-0.45), one step deep. */
#include "suite.h"

#include <stdlib.h>

#define LBM_RTOL32 1e-5
#define LBM_ATOL32 1e-6
#define LBM_RTOL64 1e-12
#define LBM_ATOL64 1e-14
#define LBM_OMEGA 1.25
#define LBM_CELLS_CHECKED 16384

static const int C9[9][3] = {{0, 0, 0}, {1, 0, 0},  {0, 1, 0},   {-1, 0, 0}, {0, -1, 0},
                             {1, 1, 0}, {-1, 1, 0}, {-1, -1, 0}, {1, -1, 0}};
static const double W9[9] = {4.0 / 9.0,  1.0 / 9.0,  1.0 / 9.0,  1.0 / 9.0, 1.0 / 9.0,
                             1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0};
static const int C19[19][3] = {{0, 0, 0},  {1, 0, 0},   {-1, 0, 0},  {0, 1, 0},   {0, -1, 0},
                               {0, 0, 1},  {0, 0, -1},  {1, 1, 0},   {-1, -1, 0}, {1, -1, 0},
                               {-1, 1, 0}, {1, 0, 1},   {-1, 0, -1}, {1, 0, -1},  {-1, 0, 1},
                               {0, 1, 1},  {0, -1, -1}, {0, 1, -1},  {0, -1, 1}};
static const double W19[19] = {1.0 / 3.0,  1.0 / 18.0, 1.0 / 18.0, 1.0 / 18.0, 1.0 / 18.0,
                               1.0 / 18.0, 1.0 / 18.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0,
                               1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0,
                               1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0};

typedef struct lattice {
  int q;
  const int (*c)[3];
  const double *w;
  int nx, ny, nz;
} lattice;

static int wrap(int v, int n) { return v < 0 ? v + n : v >= n ? v - n : v; }

/* The source cell of direction k for cell (x, y, z): the neighbour at -c. */
static size_t from(const lattice *l, int k, int x, int y, int z) {
  const int *c = l->c[k];
  return ((size_t)wrap(z - c[2], l->nz) * (size_t)l->ny + (size_t)wrap(y - c[1], l->ny)) *
             (size_t)l->nx +
         (size_t)wrap(x - c[0], l->nx);
}

/* One cell's step in float, as the kernel does it; out gets q values. */
static void cell_f32(const lattice *l, const float *fin, size_t n, int x, int y, int z,
                     float *out) {
  float f[19], rho = 0.0f, j[3] = {0.0f, 0.0f, 0.0f};
  for (int k = 0; k < l->q; ++k) f[k] = fin[(size_t)k * n + from(l, k, x, y, z)];
  for (int k = 0; k < l->q; ++k) {
    rho += f[k];
    for (int a = 0; a < 3; ++a) {
      if (l->c[k][a] == 1) j[a] += f[k];
      if (l->c[k][a] == -1) j[a] -= f[k];
    }
  }
  const float ir = 1.0f / rho, ux = j[0] * ir, uy = j[1] * ir, uz = j[2] * ir;
  const float usq = 1.5f * (ux * ux + uy * uy + uz * uz);
  for (int k = 0; k < l->q; ++k) {
    const float cu =
        3.0f * ((float)l->c[k][0] * ux + (float)l->c[k][1] * uy + (float)l->c[k][2] * uz);
    const float feq = (float)l->w[k] * rho * (1.0f + cu + 0.5f * cu * cu - usq);
    out[k] = f[k] + (float)LBM_OMEGA * (feq - f[k]);
  }
}

static void cell_f64(const lattice *l, const double *fin, size_t n, int x, int y, int z,
                     double *out) {
  double f[19], rho = 0.0, j[3] = {0.0, 0.0, 0.0};
  for (int k = 0; k < l->q; ++k) f[k] = fin[(size_t)k * n + from(l, k, x, y, z)];
  for (int k = 0; k < l->q; ++k) {
    rho += f[k];
    for (int a = 0; a < 3; ++a) {
      if (l->c[k][a] == 1) j[a] += f[k];
      if (l->c[k][a] == -1) j[a] -= f[k];
    }
  }
  const double ir = 1.0 / rho, ux = j[0] * ir, uy = j[1] * ir, uz = j[2] * ir;
  const double usq = 1.5 * (ux * ux + uy * uy + uz * uz);
  for (int k = 0; k < l->q; ++k) {
    const double cu = 3.0 * (l->c[k][0] * ux + l->c[k][1] * uy + l->c[k][2] * uz);
    const double feq = l->w[k] * rho * (1.0 + cu + 0.5 * cu * cu - usq);
    out[k] = f[k] + LBM_OMEGA * (feq - f[k]);
  }
}

int setup_lbm(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, f64 = d->param % 10 == 1;
  lattice l;
  int lx;
  if (d->param / 10 == LBM_D2Q9) {
    l = (lattice){9, C9, W9, full ? 4096 : 64, full ? 2048 : 32, 1};
  } else {
    l = (lattice){19, C19, W19, full ? 128 : 16, full ? 128 : 8, full ? (f64 ? 128 : 256) : 8};
  }
  lx = l.nx < 128 ? l.nx : 128;
  const size_t n = (size_t)l.nx * (size_t)l.ny * (size_t)l.nz, es = f64 ? 8 : 4;
  const size_t total = n * (size_t)l.q;
  const size_t cells = n < LBM_CELLS_CHECKED ? n : LBM_CELLS_CHECKED;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "lbm.cl", l.q == 9 ? "lbm_d2q9" : f64 ? "lbm_d3q19_f64" : "lbm_d3q19");
  int in = kjob_buf(job, total * es, KB_IN), out = kjob_buf(job, total * es, KB_OUT);
  void *ref = kjob_ref(job, out, f64 ? KC_F64 : KC_F32, cells * (size_t)l.q,
                       f64 ? LBM_RTOL64 : LBM_RTOL32, f64 ? LBM_ATOL64 : LBM_ATOL32);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  void *fin = job->buf[in].host;
  if (!fin || !sample) return -1;
  for (int k = 0; k < l.q; ++k)
    for (size_t c = 0; c < n; ++c) {
      double v = l.w[k] * (1.0 + krng_uniform(&r, -0.1, 0.1));
      if (f64)
        ((double *)fin)[(size_t)k * n + c] = v;
      else
        ((float *)fin)[(size_t)k * n + c] = (float)v;
    }
  for (size_t s = 0; s < cells; ++s) {
    const size_t c = kspread(s, cells, n);
    const int x = (int)(c % (size_t)l.nx), y = (int)(c / (size_t)l.nx % (size_t)l.ny);
    const int z = (int)(c / ((size_t)l.nx * (size_t)l.ny));
    if (f64)
      cell_f64(&l, fin, n, x, y, z, (double *)ref + s * (size_t)l.q);
    else
      cell_f32(&l, fin, n, x, y, z, (float *)ref + s * (size_t)l.q);
    for (int k = 0; k < l.q; ++k) sample[s * (size_t)l.q + (size_t)k] = (size_t)k * n + c;
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, l.nx);
  kjob_arg_i32(job, l.ny);
  kjob_arg_i32(job, l.nz);
  if (f64)
    kjob_arg_f64(job, LBM_OMEGA);
  else
    kjob_arg_f32(job, (float)LBM_OMEGA);
  kjob_grid(job, (size_t)(l.nx / lx), (size_t)l.ny, (size_t)l.nz, (size_t)lx, 1, 1);
  return 0;
}
