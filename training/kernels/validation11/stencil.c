/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stencil.c: host half of stencil.cl (Gray-Scott, the HPGMG operator, the
 * D3Q27 AA step).  The FP64 stencils are compared with the same formulas
 * in double (rtol 1e-12: contractions may round differently); the lattice
 * with the same collision in double (float sums of 27 populations). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation11.h"

/* ---- Gray-Scott -------------------------------------------------------------------------- */

static int grayscott_job(kjob *job, const kdesc *d, ksize size) {
  const int l = size == KSIZE_FULL ? 384 : 32;
  const size_t nc = (size_t)l * l * l, slab = (size_t)l * l * 8;
  const double du = 0.2, dv = 0.1, ff = 0.02, kk = 0.048, dt = 1.0;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stencil.cl", "k_grayscott3d_f64");
  int ub = kjob_buf(job, nc * 8, KB_IN), vb = kjob_buf(job, nc * 8, KB_IN);
  int u2 = kjob_buf(job, nc * 8, KB_OUT), v2 = kjob_buf(job, nc * 8, KB_OUT);
  double *ru = kjob_ref_sampled(job, u2, KC_F64, nc, K11_SAMPLES, 1e-12, 1e-14);
  double *rv = kjob_ref_sampled(job, v2, KC_F64, nc, K11_SAMPLES, 1e-12, 1e-14);
  if (job->buf[ub].host == NULL || job->buf[vb].host == NULL || ru == NULL || rv == NULL) return -1;
  double *u = job->buf[ub].host, *v = job->buf[vb].host;
  for (size_t c = 0; c < slab; ++c) { /* spots of v in a field of u, 8 planes repeated in z */
    const int spot = krng_below(&r, 40) == 0;
    u[c] = spot ? krng_uniform(&r, 0.2, 0.5) : krng_uniform(&r, 0.9, 1.0);
    v[c] = spot ? krng_uniform(&r, 0.2, 0.4) : krng_uniform(&r, 0.0, 0.05);
  }
  krepeat(u, slab * 8, nc * 8);
  krepeat(v, slab * 8, nc * 8);
  for (size_t s = 0; s < job->buf[u2].count; ++s) {
    const size_t c = job->buf[u2].sample[s];
    const size_t x = c % l, y = c / l % l, z = c / ((size_t)l * l), sy = l, sz = (size_t)l * l;
    const size_t xm = x == 0 ? c + l - 1 : c - 1, xp = x == (size_t)l - 1 ? c - (l - 1) : c + 1;
    const size_t ym = y == 0 ? c + (l - 1) * sy : c - sy,
                 yp = y == (size_t)l - 1 ? c - (l - 1) * sy : c + sy;
    const size_t zm = z == 0 ? c + (l - 1) * sz : c - sz,
                 zp = z == (size_t)l - 1 ? c - (l - 1) * sz : c + sz;
    const double uc = u[c], vc = v[c];
    const double lu = (u[xm] + u[xp] + u[ym] + u[yp] + u[zm] + u[zp] - 6.0 * uc) / 6.0;
    const double lv = (v[xm] + v[xp] + v[ym] + v[yp] + v[zm] + v[zp] - 6.0 * vc) / 6.0;
    const double uvv = uc * vc * vc;
    ru[s] = uc + dt * (du * lu - uvv + ff * (1.0 - uc));
    rv[s] = vc + dt * (dv * lv + uvv - (ff + kk) * vc);
  }
  kjob_arg_buf(job, ub);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, u2);
  kjob_arg_buf(job, v2);
  kjob_arg_i32(job, l);
  kjob_arg_f64(job, du);
  kjob_arg_f64(job, dv);
  kjob_arg_f64(job, ff);
  kjob_arg_f64(job, kk);
  kjob_arg_f64(job, dt);
  kjob_grid(job, (size_t)l / 32, (size_t)l / 4, (size_t)l, 32, 4, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- HPGMG Helmholtz operator ------------------------------------------------------------ */

static int hpgmg_job(kjob *job, const kdesc *d, ksize size) {
  const int l = size == KSIZE_FULL ? 320 : 32, p = l + 2;
  const size_t nc = (size_t)p * p * p, len = nc < ((size_t)1 << 20) ? nc : (size_t)1 << 20;
  const double a = 1.0, bh2inv = (double)l * l; /* b = 1, h = 1 / l */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stencil.cl", "k_hpgmg_helmholtz_f64");
  int bufs[5];
  for (int k = 0; k < 5; ++k) bufs[k] = kjob_buf(job, nc * 8, KB_IN);
  int ob = kjob_buf(job, nc * 8, KB_OUT);
  const size_t ncheck = K11_SAMPLES;
  size_t *idx;
  double *ref = kjob_ref_at(job, ob, KC_F64, ncheck, 1e-12, 1e-8, &idx);
  for (int k = 0; k < 5; ++k)
    if (job->buf[bufs[k]].host == NULL) return -1;
  if (ref == NULL) return -1;
  double *f[5];
  for (int k = 0; k < 5; ++k) { /* x in [-1, 1); alpha and the betas in [0.5, 1.5) */
    f[k] = job->buf[bufs[k]].host;
    kfill_f64(f[k], len, &r, k == 0 ? -1.0 : 0.5, k == 0 ? 1.0 : 1.5);
    krepeat(f[k], len * 8, nc * 8);
  }
  const double *x = f[0], *al = f[1], *bi = f[2], *bj = f[3], *bk = f[4];
  const size_t ni = (size_t)l * l * l, js = p, ks = (size_t)p * p;
  for (size_t s = 0; s < ncheck; ++s) { /* interior cells spread over the box, ascending */
    const size_t e = kspread(s, ncheck, ni), i = e % l + 1, j = e / l % l + 1,
                 k = e / ((size_t)l * l) + 1;
    const size_t c = k * ks + j * js + i;
    const double xc = x[c];
    const double sum = bi[c + 1] * (x[c + 1] - xc) + bi[c] * (x[c - 1] - xc) +
                       bj[c + js] * (x[c + js] - xc) + bj[c] * (x[c - js] - xc) +
                       bk[c + ks] * (x[c + ks] - xc) + bk[c] * (x[c - ks] - xc);
    idx[s] = c;
    ref[s] = a * al[c] * xc - bh2inv * sum;
  }
  for (int k = 0; k < 5; ++k) kjob_arg_buf(job, bufs[k]);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, l);
  kjob_arg_f64(job, a);
  kjob_arg_f64(job, bh2inv);
  kjob_grid(job, (size_t)l / 32, (size_t)l / 4, (size_t)l, 32, 4, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- D3Q27 AA odd step ------------------------------------------------------------------- */

enum { LB_Q = 27 };

static double lb_weight(int q) {
  const int cx = q % 3 - 1, cy = q / 3 % 3 - 1, cz = q / 9 - 1, nz = cx * cx + cy * cy + cz * cz;
  return nz == 0 ? 8.0 / 27 : nz == 1 ? 2.0 / 27 : nz == 2 ? 1.0 / 54 : 1.0 / 216;
}

static int lbm_job(kjob *job, const kdesc *d, ksize size) {
  const int l = size == KSIZE_FULL ? 192 : 16;
  const size_t nc = (size_t)l * l * l, len = nc < 65536 ? nc : 65536;
  const float omega = 1.0f / 0.6f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stencil.cl", "k_lbm_d3q27_aa");
  int fb = kjob_buf(job, nc * LB_Q * 4, KB_INOUT);
  float *ref = kjob_ref_sampled(job, fb, KC_F32, nc * LB_Q, K11_SAMPLES, 2e-5, 2e-7);
  if (job->buf[fb].host == NULL || ref == NULL) return -1;
  float *f = job->buf[fb].host;
  for (int q = 0; q < LB_Q; ++q) { /* near rest: weights times 1 +- 10% */
    float *fq = f + (size_t)q * nc;
    for (size_t c = 0; c < len; ++c) fq[c] = (float)(lb_weight(q) * krng_uniform(&r, 0.9, 1.1));
    krepeat(fq, len * 4, nc * 4);
  }
  for (size_t s = 0; s < job->buf[fb].count; ++s) {
    const size_t e = job->buf[fb].sample[s], q = e / nc, y = e % nc;
    const int cx = (int)q % 3 - 1, cy = (int)q / 3 % 3 - 1, cz = (int)q / 9 - 1;
    /* the cell that writes slot (q, y): x = y - c_q */
    const int x0 = ((int)(y % l) - cx + l) % l, y0 = ((int)(y / l % l) - cy + l) % l;
    const int z0 = ((int)(y / ((size_t)l * l)) - cz + l) % l;
    double fin[LB_Q], rho = 0, jx = 0, jy = 0, jz = 0;
    for (int p = 0; p < LB_Q; ++p) {
      const int px = p % 3 - 1, py = p / 3 % 3 - 1, pz = p / 9 - 1;
      const size_t sx = (size_t)((x0 - px + l) % l), sy = (size_t)((y0 - py + l) % l),
                   sz = (size_t)((z0 - pz + l) % l);
      fin[p] = f[(size_t)(LB_Q - 1 - p) * nc + (sz * l + sy) * l + sx];
      rho += fin[p];
      jx += px * fin[p];
      jy += py * fin[p];
      jz += pz * fin[p];
    }
    const double ux = jx / rho, uy = jy / rho, uz = jz / rho;
    const double cu = 3 * (cx * ux + cy * uy + cz * uz), usq = 1.5 * (ux * ux + uy * uy + uz * uz);
    const double feq = lb_weight((int)q) * rho * (1 + cu + 0.5 * cu * cu - usq);
    ref[s] = (float)(fin[q] - omega * (fin[q] - feq));
  }
  kjob_arg_buf(job, fb);
  kjob_arg_i32(job, l);
  kjob_arg_f32(job, omega);
  const size_t lx = l < 64 ? (size_t)l : 64;
  kjob_grid(job, (size_t)l / lx, (size_t)l, (size_t)l, lx, 1, 1);
  return 0;
}

SP_SETUP(k11setup_stencil) {
  switch (d->param) {
    case K11ST_GRAYSCOTT:
      return grayscott_job(job, d, size);
    case K11ST_HPGMG:
      return hpgmg_job(job, d, size);
    case K11ST_LBM:
      return lbm_job(job, d, size);
  }
  return -1;
}
