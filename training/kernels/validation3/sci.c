/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.c: host half of sci.cl (FDTD update, lavaMD, reaction rates,
 * binomial American puts, CFD fluxes, particle-filter resampling, Thomas
 * solves, level-scheduled triangular solves, Lorenz-96, image resize).
 * References are computed in double on sampled outputs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validation3.h"
#include "chem.h"

/* Gives buffers b[0..nb) one shared explicit sample list of count indices
 * (filled by the caller through the returned array) and compared with
 * cmp; the references are in job->buf[b[i]].ref.  NULL: no memory. */
static size_t *xsamples(kjob *job, const int *b, int nb, kb_cmp cmp, size_t count, double rtol,
                        double atol) {
  size_t *first = NULL;
  for (int i = 0; i < nb; ++i) {
    if (kjob_ref(job, b[i], cmp, count, rtol, atol) == NULL) return NULL;
    size_t *s = kjob_sample(job, b[i]);
    if (s == NULL) return NULL;
    if (first == NULL) first = s;
  }
  return first;
}

/* Copies buffer b[0]'s sample list to the other buffers. */
static void xsamples_share(kjob *job, const int *b, int nb) {
  for (int i = 1; i < nb; ++i)
    memcpy(job->buf[b[i]].sample, job->buf[b[0]].sample, job->buf[b[0]].count * sizeof(size_t));
}

/* ---- FDTD -------------------------------------------------------------------- */

enum { FD_MAT = 16 };

static int fdtd_job(kjob *job, const kdesc *d, ksize size) {
  const int nx = size == KSIZE_FULL ? 320 : 32, ny = nx, nz = size == KSIZE_FULL ? 320 : 6;
  const size_t n = (size_t)nx * ny * nz;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "x_fdtd3d_yee");
  int e[3], h[3];
  for (int c = 0; c < 3; ++c) e[c] = kjob_buf(job, n * 4, KB_INOUT);
  for (int c = 0; c < 3; ++c) h[c] = xin_f32(job, n, &r, -1, 1);
  int mb = kjob_buf(job, n, KB_IN);
  int cf = kjob_buf(job, 2 * FD_MAT * 4, KB_IN); /* E factors, then curl H factors */
  uint8_t *hm = job->buf[mb].host;
  float *ref[3];
  for (int c = 0; c < 3; ++c) {
    if (job->buf[e[c]].host == NULL || h[c] < 0) return -1;
    kfill_f32(job->buf[e[c]].host, n, &r, -1, 1);
    /* a few products and sums of O(1) values, FMA or not */
    if ((ref[c] = xref_sampled(job, e[c], KC_F32, n, 1e-5, 1e-6)) == NULL) return -1;
  }
  float *fa = job->buf[cf].host, *fb = fa ? fa + FD_MAT : NULL;
  if (hm == NULL || fa == NULL) return -1;
  kfill_f32(fa, FD_MAT, &r, 0.5, 0.99);
  kfill_f32(fb, FD_MAT, &r, 0.1, 0.5);
  /* Materials in slabs along z with random inclusions. */
  for (size_t i = 0; i < n; ++i)
    hm[i] = (uint8_t)(krng_below(&r, 8) == 0 ? krng_below(&r, FD_MAT) : i / ((size_t)nx * ny) % 4);
  const float *hx = job->buf[h[0]].host, *hy = job->buf[h[1]].host, *hz = job->buf[h[2]].host;
  const long sy = nx, sz = (long)nx * ny;
  for (size_t s = 0; s < job->buf[e[0]].count; ++s) {
    const long q = (long)job->buf[e[0]].sample[s];
    const int i = (int)(q % nx), j = (int)(q / nx % ny), k = (int)(q / sz);
    const double a = fa[hm[q]], b = fb[hm[q]];
    const double hxj = j > 0 ? hx[q - sy] : 0, hxk = k > 0 ? hx[q - sz] : 0;
    const double hyi = i > 0 ? hy[q - 1] : 0, hyk = k > 0 ? hy[q - sz] : 0;
    const double hzi = i > 0 ? hz[q - 1] : 0, hzj = j > 0 ? hz[q - sy] : 0;
    const float *ex = job->buf[e[0]].host, *ey = job->buf[e[1]].host, *ez = job->buf[e[2]].host;
    ref[0][s] = (float)(a * ex[q] + b * ((hz[q] - hzj) - (hy[q] - hyk)));
    ref[1][s] = (float)(a * ey[q] + b * ((hx[q] - hxk) - (hz[q] - hzi)));
    ref[2][s] = (float)(a * ez[q] + b * ((hy[q] - hyi) - (hx[q] - hxj)));
  }
  for (int c = 0; c < 3; ++c) kjob_arg_buf(job, e[c]);
  for (int c = 0; c < 3; ++c) kjob_arg_buf(job, h[c]);
  kjob_arg_buf(job, mb);
  kjob_arg_buf(job, cf);
  kjob_arg_i32(job, nx);
  kjob_arg_i32(job, ny);
  kjob_grid(job, (size_t)nx / 32, (size_t)ny / 8, (size_t)nz, 32, 8, 1);
  return 0;
}

/* ---- lavaMD ---------------------------------------------------------------------- */

enum { LV_NP = 128, LV_CHECKED = 1024 };

static int lavamd_job(kjob *job, const kdesc *d, ksize size) {
  const int nb = size == KSIZE_FULL ? 16 : 3, boxes = nb * nb * nb;
  const size_t n = (size_t)boxes * LV_NP;
  const float a2 = 0.5f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "x_lavamd");
  int p[4], f[4];
  for (int c = 0; c < 4; ++c) p[c] = kjob_buf(job, n * 4, KB_IN);
  for (int c = 0; c < 4; ++c) f[c] = kjob_buf(job, n * 4, KB_OUT);
  const size_t nchk = n < LV_CHECKED ? n : LV_CHECKED;
  /* Sums of 3456 terms; the forces cancel, so an absolute floor. */
  size_t *smp = xsamples(job, f, 4, KC_F32, nchk, 1e-4, 2e-3);
  if (smp == NULL) return -1;
  float *hp[4];
  for (int c = 0; c < 4; ++c)
    if ((hp[c] = job->buf[p[c]].host) == NULL) return -1;
  for (int b = 0; b < boxes; ++b) { /* positions inside the unit box */
    const int bx = b % nb, by = b / nb % nb, bz = b / (nb * nb);
    for (int k = 0; k < LV_NP; ++k) {
      const size_t i = (size_t)b * LV_NP + k;
      hp[0][i] = (float)(bx + krng_uniform(&r, 0, 1));
      hp[1][i] = (float)(by + krng_uniform(&r, 0, 1));
      hp[2][i] = (float)(bz + krng_uniform(&r, 0, 1));
      hp[3][i] = (float)krng_uniform(&r, 0.1, 1.0);
    }
  }
  for (size_t s = 0; s < nchk; ++s) {
    const size_t i = kspread(s, nchk, n);
    const int b = (int)(i / LV_NP), bx = b % nb, by = b / nb % nb, bz = b / (nb * nb);
    double av = 0, ax = 0, ay = 0, az = 0;
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int cx = bx + dx, cy = by + dy, cz = bz + dz;
          if (cx < 0 || cx >= nb || cy < 0 || cy >= nb || cz < 0 || cz >= nb) continue;
          const size_t j0 = ((size_t)(cz * nb + cy) * nb + cx) * LV_NP;
          for (size_t j = j0; j < j0 + LV_NP; ++j) {
            const double ddx = (double)hp[0][i] - hp[0][j], ddy = (double)hp[1][i] - hp[1][j];
            const double ddz = (double)hp[2][i] - hp[2][j];
            const double v = exp(-a2 * (ddx * ddx + ddy * ddy + ddz * ddz));
            av += hp[3][j] * v;
            ax += 2 * v * hp[3][j] * ddx;
            ay += 2 * v * hp[3][j] * ddy;
            az += 2 * v * hp[3][j] * ddz;
          }
        }
    smp[s] = i;
    ((float *)job->buf[f[0]].ref)[s] = (float)av;
    ((float *)job->buf[f[1]].ref)[s] = (float)ax;
    ((float *)job->buf[f[2]].ref)[s] = (float)ay;
    ((float *)job->buf[f[3]].ref)[s] = (float)az;
  }
  xsamples_share(job, f, 4);
  for (int c = 0; c < 4; ++c) kjob_arg_buf(job, p[c]);
  for (int c = 0; c < 4; ++c) kjob_arg_buf(job, f[c]);
  kjob_arg_i32(job, nb);
  kjob_arg_f32(job, a2);
  kjob_grid(job, (size_t)boxes, 1, 1, LV_NP, 1, 1);
  return 0;
}

/* ---- reaction rates ---------------------------------------------------------------- */

/* The production rates of one point and the sum of their terms' sizes
 * (the scale of the cancellation), in double. */
static void chem_point(double tk, double p, const double *y, double *wdot, double *mag) {
  static const double wt[CHEM_NS] = {
#define X(s, w, a, b, c) w,
      CHEM_SPECIES(X)
#undef X
  };
  static const double ga[CHEM_NS] = {
#define X(s, w, a, b, c) a,
      CHEM_SPECIES(X)
#undef X
  };
  static const double gb[CHEM_NS] = {
#define X(s, w, a, b, c) b,
      CHEM_SPECIES(X)
#undef X
  };
  static const double gc[CHEM_NS] = {
#define X(s, w, a, b, c) c,
      CHEM_SPECIES(X)
#undef X
  };
  const double lnt = log(tk), invt = 1.0 / tk;
  double syw = 0, cc[CHEM_NS], g[CHEM_NS];
  for (int s = 0; s < CHEM_NS; ++s) syw += y[s] / wt[s];
  const double rho = p / (tk * syw);
  for (int s = 0; s < CHEM_NS; ++s) {
    cc[s] = rho * y[s] / wt[s];
    g[s] = ga[s] * (1 - lnt) + gb[s] * tk + gc[s] * invt;
    wdot[s] = mag[s] = 0;
  }
#define X(a, b, c, d, lna, beta, eor)                                                          \
  {                                                                                            \
    const double kf = exp((lna) + (beta)*lnt - (eor)*invt);                                    \
    const double q = kf * cc[a] * cc[b] - kf * exp(g[a] + g[b] - g[c] - g[d]) * cc[c] * cc[d]; \
    wdot[a] -= q;                                                                              \
    wdot[b] -= q;                                                                              \
    wdot[c] += q;                                                                              \
    wdot[d] += q;                                                                              \
    mag[a] += fabs(q);                                                                         \
    mag[b] += fabs(q);                                                                         \
    mag[c] += fabs(q);                                                                         \
    mag[d] += fabs(q);                                                                         \
  }
  CHEM_REACTIONS(X)
#undef X
}

static int chem_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 21 : 4096, ny = n * CHEM_NS;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "x_chem_rates");
  int tb = xin_f32(job, n, &r, 1000, 2500), pb = xin_f32(job, n, &r, 800, 1200);
  int yb = kjob_buf(job, ny * 4, KB_IN), wb = kjob_buf(job, ny * 4, KB_OUT);
  float *hy = job->buf[yb].host;
  float *ref = xref_sampled(job, wb, KC_F32, ny, 1e-4, 0);
  if (tb < 0 || pb < 0 || hy == NULL || ref == NULL) return -1;
  for (size_t i = 0; i < n; ++i) { /* mass fractions summing to 1 */
    double y[CHEM_NS], sum = 0;
    for (int s = 0; s < CHEM_NS; ++s) sum += y[s] = krng_uniform(&r, 0.01, 1);
    for (int s = 0; s < CHEM_NS; ++s) hy[(size_t)s * n + i] = (float)(y[s] / sum);
  }
  const float *ht = job->buf[tb].host, *hp = job->buf[pb].host;
  double scale = 0;
  for (size_t s = 0; s < job->buf[wb].count; ++s) {
    const size_t e = job->buf[wb].sample[s], sp = e / n, i = e % n;
    double y[CHEM_NS], w[CHEM_NS], mag[CHEM_NS];
    for (int k = 0; k < CHEM_NS; ++k) y[k] = hy[(size_t)k * n + i];
    chem_point(ht[i], hp[i], y, w, mag);
    ref[s] = (float)w[sp];
    scale = fmax(scale, mag[sp]);
  }
  /* float exp and float sums: errors of a few 1e-6 of the largest terms */
  job->buf[wb].atol = 2e-5 * scale;
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, wb);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 128);
  return 0;
}

/* ---- binomial American puts ------------------------------------------------------------ */

enum { BN_N = 2048, BN_CHECKED = 16 };

/* The tree of the kernel in double, with its float parameters. */
static double binomial_put(double s, double k, double pu, double pd, double lu) {
  double *v = malloc((BN_N + 1) * sizeof *v), *pw = malloc((2 * BN_N + 1) * sizeof *pw);
  double out = NAN;
  if (v && pw) {
    for (int j = -BN_N; j <= BN_N; ++j) pw[j + BN_N] = s * exp(j * lu);
    for (int i = 0; i <= BN_N; ++i) v[i] = fmax(k - pw[2 * i], 0);
    for (int step = BN_N - 1; step >= 0; --step)
      for (int i = 0; i <= step; ++i)
        v[i] = fmax(pu * v[i + 1] + pd * v[i], k - pw[2 * i - step + BN_N]);
    out = v[0];
  }
  free(v);
  free(pw);
  return out;
}

static int binomial_job(kjob *job, const kdesc *d, ksize size) {
  const int nopt = size == KSIZE_FULL ? 265 : 3;
  const int nchk = nopt < BN_CHECKED ? nopt : BN_CHECKED;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "x_binomial");
  int sb = xin_f32(job, (size_t)nopt, &r, 20, 40), kb = xin_f32(job, (size_t)nopt, &r, 20, 40);
  int ub = kjob_buf(job, (size_t)nopt * 4, KB_IN), db = kjob_buf(job, (size_t)nopt * 4, KB_IN);
  int lb = kjob_buf(job, (size_t)nopt * 4, KB_IN), ob = kjob_buf(job, (size_t)nopt * 4, KB_OUT);
  /* 2048 float steps against double ones */
  float *ref = kjob_ref(job, ob, KC_F32, (size_t)nchk, 2e-3, 2e-3);
  size_t *smp = ref ? kjob_sample(job, ob) : NULL;
  float *pu = job->buf[ub].host, *pd = job->buf[db].host, *lu = job->buf[lb].host;
  if (sb < 0 || kb < 0 || smp == NULL || pu == NULL || pd == NULL || lu == NULL) return -1;
  for (int o = 0; o < nopt; ++o) {
    const double t = krng_uniform(&r, 0.25, 2), rate = krng_uniform(&r, 0.02, 0.06);
    const double sig = krng_uniform(&r, 0.1, 0.5), dt = t / BN_N;
    const double u = exp(sig * sqrt(dt)), dn = 1 / u, p = (exp(rate * dt) - dn) / (u - dn);
    const double disc = exp(-rate * dt);
    pu[o] = (float)(p * disc);
    pd[o] = (float)((1 - p) * disc);
    lu[o] = (float)log(u);
  }
  const float *hs = job->buf[sb].host, *hk = job->buf[kb].host;
  for (int q = 0; q < nchk; ++q) {
    const int o = nchk > 1 ? q * (nopt - 1) / (nchk - 1) : 0;
    smp[q] = (size_t)o;
    ref[q] = (float)binomial_put(hs[o], hk[o], pu[o], pd[o], lu[o]);
  }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, ub);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, ob);
  kjob_grid(job, (size_t)nopt, 1, 1, 1024, 1, 1);
  return 0;
}

/* ---- CFD fluxes ------------------------------------------------------------------------ */

enum { CF_NNB = 4 };

/* The flux of cell i (Rodinia's compute_flux), in double. */
static void cfd_cell(const float *var, const int32_t *nbr, const float *nrm, const float *ff,
                     size_t n, size_t i, double out[5]) {
  const double g = 1.4, sm = 0.2;
  const double rho = var[i], mx = var[n + i], my = var[2 * n + i], mz = var[3 * n + i];
  const double en = var[4 * n + i], vx = mx / rho, vy = my / rho, vz = mz / rho;
  const double sp2 = vx * vx + vy * vy + vz * vz, p = (g - 1) * (en - 0.5 * rho * sp2);
  const double c = sqrt(g * p / rho);
  const double fm[3][3] = {{mx * vx + p, mx * vy, mx * vz},
                           {mx * vy, my * vy + p, my * vz},
                           {mx * vz, my * vz, mz * vz + p}};
  const double fe[3] = {vx * (en + p), vy * (en + p), vz * (en + p)};
  const double m[3] = {mx, my, mz};
  double f[5] = {0, 0, 0, 0, 0}; /* density, momentum x y z, energy */
  for (int j = 0; j < CF_NNB; ++j) {
    const int nb = nbr[j * n + i];
    const double nv[3] = {nrm[3 * j * n + i], nrm[(3 * j + 1) * n + i], nrm[(3 * j + 2) * n + i]};
    const double len = sqrt(nv[0] * nv[0] + nv[1] * nv[1] + nv[2] * nv[2]);
    if (nb == -1) {
      for (int a = 0; a < 3; ++a) f[1 + a] += nv[a] * p;
      continue;
    }
    double o[5];
    for (int k = 0; k < 5; ++k) o[k] = nb >= 0 ? var[k * n + (size_t)nb] : ff[k];
    const double u[3] = {o[1] / o[0], o[2] / o[0], o[3] / o[0]};
    const double s2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    const double p2 = (g - 1) * (o[4] - 0.5 * o[0] * s2), c2 = sqrt(g * p2 / o[0]);
    const double fct = -len * sm * 0.5 * (sqrt(sp2) + sqrt(s2) + c + c2);
    f[0] += fct * (rho - o[0]);
    f[4] += fct * (en - o[4]);
    for (int a = 0; a < 3; ++a) f[1 + a] += fct * (m[a] - o[1 + a]);
    for (int b = 0; b < 3; ++b) { /* face normal component b */
      const double h = 0.5 * nv[b];
      f[0] += h * (o[1 + b] + m[b]);
      f[4] += h * (u[b] * (o[4] + p2) + fe[b]);
      for (int a = 0; a < 3; ++a) f[1 + a] += h * (o[1 + a] * u[b] + (a == b ? p2 : 0) + fm[a][b]);
    }
  }
  memcpy(out, f, sizeof f);
}

static int cfd_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nx = size == KSIZE_FULL ? 2048 : 64, nyr = size == KSIZE_FULL ? 4096 : 16;
  const size_t n = nx * nyr;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "x_cfd_flux");
  int vb = kjob_buf(job, 5 * n * 4, KB_IN), nbb = xbuf_u32(job, CF_NNB * n, KB_IN);
  int nb = kjob_buf(job, 3 * CF_NNB * n * 4, KB_IN), fb = kjob_buf(job, 5 * 4, KB_IN);
  int ob = kjob_buf(job, 5 * n * 4, KB_OUT);
  float *var = job->buf[vb].host, *nrm = job->buf[nb].host, *ff = job->buf[fb].host;
  int32_t *nbr = job->buf[nbb].host;
  /* Sums of 4 faces' terms of O(1-10) with cancellation. */
  float *ref = xref_sampled(job, ob, KC_F32, 5 * n, 1e-4, 1e-3);
  if (var == NULL || nbb < 0 || nrm == NULL || ff == NULL || ref == NULL) return -1;
  const float far[5] = {1.4f, 1.4f * 0.6f, 1.4f * 0.05f, 0.0f, 2.6f};
  memcpy(ff, far, sizeof far);
  for (size_t i = 0; i < n; ++i) { /* a perturbed uniform flow */
    const double rho = 1.4 * krng_uniform(&r, 0.9, 1.1);
    const double u = krng_uniform(&r, 0.4, 0.8), v = krng_uniform(&r, -0.1, 0.1);
    const double w = krng_uniform(&r, -0.1, 0.1);
    var[i] = (float)rho;
    var[n + i] = (float)(rho * u);
    var[2 * n + i] = (float)(rho * v);
    var[3 * n + i] = (float)(rho * w);
    var[4 * n + i] = (float)(krng_uniform(&r, 2.4, 2.8) + 0.5 * rho * (u * u + v * v + w * w));
  }
  /* Neighbours: a reordered structured mesh, left/right/down/up, one in
   * ten moved to a random cell; walls at the bottom and top rows, the far
   * field at the left and right columns. */
  for (size_t i = 0; i < n; ++i) {
    const size_t x = i % nx, y = i / nx;
    const long cand[CF_NNB] = {x > 0 ? (long)i - 1 : -2, x + 1 < nx ? (long)i + 1 : -2,
                               y > 0 ? (long)(i - nx) : -1, y + 1 < nyr ? (long)(i + nx) : -1};
    for (int j = 0; j < CF_NNB; ++j) {
      long c = cand[j];
      if (c >= 0 && krng_below(&r, 10) == 0) c = (long)krng_below(&r, (uint32_t)n);
      nbr[j * n + i] = (int32_t)c;
      const double ang = krng_uniform(&r, 0, 6.283185307179586), len = krng_uniform(&r, 0.5, 1);
      nrm[(3 * j) * n + i] = (float)(len * cos(ang) * (j % 2 ? 1 : -1));
      nrm[(3 * j + 1) * n + i] = (float)(len * sin(ang) * 0.5);
      nrm[(3 * j + 2) * n + i] = (float)(len * krng_uniform(&r, -0.3, 0.3));
    }
  }
  size_t cell = (size_t)-1;
  double f[5];
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    if (e % n != cell) cfd_cell(var, nbr, nrm, ff, n, cell = e % n, f);
    ref[s] = (float)f[e / n];
  }
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, nbb);
  kjob_arg_buf(job, nb);
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 192);
  return 0;
}

/* ---- particle-filter resampling ----------------------------------------------------- */

static int resample_job(kjob *job, const kdesc *d, ksize size) {
  const int nf = size == KSIZE_FULL ? 128 : 2, np = size == KSIZE_FULL ? 8192 : 512;
  const size_t n = (size_t)nf * np;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "x_pf_resample");
  int cb = kjob_buf(job, n * 4, KB_IN), ub = kjob_buf(job, (size_t)nf * 4, KB_IN);
  int xb = xin_f32(job, n, &r, 0, 640), yb = xin_f32(job, n, &r, 0, 480);
  int ib = xbuf_u32(job, n, KB_OUT), xo = kjob_buf(job, n * 4, KB_OUT);
  int yo = kjob_buf(job, n * 4, KB_OUT);
  float *cdf = job->buf[cb].host, *u0 = job->buf[ub].host;
  uint32_t *ri = xref_sampled(job, ib, KC_U32, n, 0, 0); /* exact float comparisons */
  float *rx = xref_sampled(job, xo, KC_F32, n, 0, 0), *ry = xref_sampled(job, yo, KC_F32, n, 0, 0);
  if (!cdf || !u0 || xb < 0 || yb < 0 || !ri || !rx || !ry) return -1;
  for (int f = 0; f < nf; ++f) {
    /* Likelihood weights: most particles far from the target. */
    float *c = cdf + (size_t)f * np;
    double sum = 0;
    for (int j = 0; j < np; ++j) sum += c[j] = (float)exp(-krng_uniform(&r, 0, 4));
    float run = 0;
    for (int j = 0; j < np; ++j) c[j] = run += (float)(c[j] / sum);
    c[np - 1] = 1.0f;
    u0[f] = (float)krng_uniform(&r, 0, 1.0 / np);
  }
  const float *hx = job->buf[xb].host, *hyy = job->buf[yb].host;
  for (size_t s = 0; s < job->buf[ib].count; ++s) {
    const size_t id = job->buf[ib].sample[s], f = id / np, j = id % np;
    const float u = u0[f] + (float)j * (1.0f / (float)np);
    const float *c = cdf + f * np;
    int lo = 0, hi = np - 1; /* the first c[x] >= u (c[np-1] = 1 > u) */
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (c[mid] >= u)
        hi = mid;
      else
        lo = mid + 1;
    }
    ri[s] = (uint32_t)lo;
    rx[s] = hx[f * np + lo];
    ry[s] = hyy[f * np + lo];
  }
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ub);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, xo);
  kjob_arg_buf(job, yo);
  kjob_arg_i32(job, np);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* ---- Thomas solves ------------------------------------------------------------------- */

static int thomas_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 128 : 32, ns = size == KSIZE_FULL ? 262144 : 1024;
  const size_t tot = (size_t)n * ns;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "x_thomas");
  int a = xin_f32(job, tot, &r, -1, 1), b = xin_f32(job, tot, &r, 3, 5);
  int c = xin_f32(job, tot, &r, -1, 1), dd = xin_f32(job, tot, &r, -1, 1);
  int cp = kjob_buf(job, tot * 4, KB_OUT), dp = kjob_buf(job, tot * 4, KB_OUT);
  int x = kjob_buf(job, tot * 4, KB_OUT);
  /* diagonally dominant: well conditioned, errors near float rounding */
  float *ref = xref_sampled(job, x, KC_F32, tot, 1e-4, 1e-6);
  double *sol = malloc((size_t)n * sizeof *sol), *cw = malloc((size_t)n * sizeof *cw);
  if (a < 0 || b < 0 || c < 0 || dd < 0 || ref == NULL || sol == NULL || cw == NULL) {
    free(sol);
    free(cw);
    return -1;
  }
  const float *ha = job->buf[a].host, *hb = job->buf[b].host, *hc = job->buf[c].host;
  const float *hd = job->buf[dd].host;
  size_t last = (size_t)-1;
  for (size_t q = 0; q < job->buf[x].count; ++q) {
    const size_t e = job->buf[x].sample[q], s = e % ns;
    if (s != last) { /* solve system s in double */
      double cprev = 0, dprev = 0;
      for (int i = 0; i < n; ++i) {
        const size_t k = (size_t)i * ns + s;
        const double ai = i > 0 ? ha[k] : 0, m = 1 / (hb[k] - ai * cprev);
        cw[i] = cprev = hc[k] * m;
        sol[i] = dprev = (hd[k] - ai * dprev) * m;
      }
      for (int i = n - 2; i >= 0; --i) sol[i] -= cw[i] * sol[i + 1];
      last = s;
    }
    ref[q] = (float)sol[e / ns];
  }
  free(sol);
  free(cw);
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_buf(job, dd);
  kjob_arg_buf(job, cp);
  kjob_arg_buf(job, dp);
  kjob_arg_buf(job, x);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, ns);
  kjob_grid1(job, (size_t)ns, 128);
  return 0;
}

/* ---- level-scheduled triangular solves ------------------------------------------------ */

enum { TS_DEPS = 5 };

/* A subdomain's strictly lower part: row i depends on up to TS_DEPS rows
 * 16 or more before it (gaps geometric around 400), as a locality-ordered
 * unstructured mesh gives.  Appends to the CSR arrays; returns the new
 * entry count. */
static size_t ts_rows(krng *r, int n, long base, int32_t *rowptr, int32_t *col, float *val,
                      size_t nnz) {
  for (int i = 0; i < n; ++i) {
    rowptr[base + i] = (int32_t)nnz;
    int prev[TS_DEPS], k = 0;
    for (int t = 0; t < TS_DEPS; ++t) {
      const int gap = 16 + (int)(-400.0 * log(krng_uniform(r, 1e-9, 1)));
      const int j = i - gap;
      int dup = j < 0;
      for (int q = 0; q < k && !dup; ++q) dup = prev[q] == j;
      if (dup) continue;
      prev[k++] = j;
      col[nnz] = j;
      val[nnz++] = (float)(krng_uniform(r, -0.4, 0.4) / TS_DEPS);
    }
  }
  return nnz;
}

/* Levels of subdomain sd (rows base..base+n): level lists appended to
 * lptr/lrows from *nl on; returns the subdomain's level count. */
static int ts_levels(const int32_t *rowptr, const int32_t *col, int n, long base, int *lev,
                     int32_t *lptr, int32_t *lrows, int nl, int32_t *fill) {
  int nlev = 0;
  for (int i = 0; i < n; ++i) {
    int l = 0;
    for (int32_t e = rowptr[base + i]; e < rowptr[base + i + 1]; ++e)
      if (lev[col[e]] + 1 > l) l = lev[col[e]] + 1;
    lev[i] = l;
    if (l + 1 > nlev) nlev = l + 1;
  }
  memset(fill, 0, (size_t)(nlev + 1) * sizeof *fill);
  for (int i = 0; i < n; ++i) fill[lev[i] + 1]++;
  for (int l = 0; l < nlev; ++l) fill[l + 1] += fill[l];
  const int32_t start = lptr[nl];
  for (int l = 0; l <= nlev; ++l) lptr[nl + l] = start + fill[l];
  for (int i = 0; i < n; ++i) lrows[start + fill[lev[i]]++] = i;
  return nlev;
}

static int sptrsv_job(kjob *job, const kdesc *d, ksize size) {
  const int nsd = size == KSIZE_FULL ? 96 : 3, n = size == KSIZE_FULL ? 16384 : 2048;
  const size_t rows = (size_t)nsd * n, maxnnz = rows * TS_DEPS;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "x_sptrsv");
  int rp = xbuf_u32(job, rows + 1, KB_IN), cb = xbuf_u32(job, maxnnz, KB_IN);
  int vb = kjob_buf(job, maxnnz * 4, KB_IN), db = kjob_buf(job, 2 * rows * 4, KB_IN);
  int lo = xbuf_u32(job, (size_t)nsd + 1, KB_IN);
  int lp = xbuf_u32(job, rows + 1, KB_IN), lr = xbuf_u32(job, rows, KB_IN);
  int xb = kjob_buf(job, rows * 4, KB_OUT);
  float *ref = xref_sampled(job, xb, KC_F32, rows, 1e-4, 1e-6);
  int *lev = malloc((size_t)n * sizeof *lev);
  int32_t *fill = malloc(((size_t)n + 2) * sizeof *fill);
  double *xs = malloc(rows * sizeof *xs);
  int rc = -1;
  if (rp < 0 || cb < 0 || job->buf[vb].host == NULL || job->buf[db].host == NULL || lo < 0 ||
      lp < 0 || lr < 0 || ref == NULL || lev == NULL || fill == NULL || xs == NULL)
    goto out;
  int32_t *rowptr = job->buf[rp].host, *col = job->buf[cb].host, *loff = job->buf[lo].host;
  int32_t *lptr = job->buf[lp].host, *lrows = job->buf[lr].host;
  float *val = job->buf[vb].host;
  float *dg = job->buf[db].host, *rhs = dg + rows; /* diagonal, then b */
  kfill_f32(dg, rows, &r, 2, 3);
  kfill_f32(rhs, rows, &r, -1, 1);
  size_t nnz = 0;
  int nl = 0;
  for (int sd = 0; sd < nsd; ++sd) {
    const long base = (long)sd * n;
    nnz = ts_rows(&r, n, base, rowptr, col, val, nnz);
    rowptr[base + n] = (int32_t)nnz;
    loff[sd] = nl;
    nl += ts_levels(rowptr, col, n, base, lev, lptr, lrows, nl, fill);
  }
  loff[nsd] = nl;
  for (size_t i = 0; i < rows; ++i) { /* forward substitution in double */
    const size_t base = i / n * n;
    double s = rhs[i];
    for (int32_t e = rowptr[i]; e < rowptr[i + 1]; ++e) s -= val[e] * xs[base + col[e]];
    xs[i] = s / dg[i];
  }
  for (size_t s = 0; s < job->buf[xb].count; ++s) ref[s] = (float)xs[job->buf[xb].sample[s]];
  rc = 0;
  kjob_arg_buf(job, rp);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, lo);
  kjob_arg_buf(job, lp);
  kjob_arg_buf(job, lr);
  kjob_arg_buf(job, xb);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, (int)rows);
  kjob_grid(job, (size_t)nsd, 1, 1, 256, 1, 1);
out:
  free(lev);
  free(fill);
  free(xs);
  return rc;
}

/* ---- Lorenz-96 ------------------------------------------------------------------------- */

enum { L96_N = 40, L96_CHECKED = 64 };

static void l96_rhs(const double *y, double *k) {
  for (int i = 0; i < L96_N; ++i)
    k[i] =
        (y[(i + 1) % L96_N] - y[(i + L96_N - 2) % L96_N]) * y[(i + L96_N - 1) % L96_N] - y[i] + 8.0;
}

static void l96_run(double *x, int steps, double dt) {
  double y[L96_N], k[L96_N], acc[L96_N];
  for (int s = 0; s < steps; ++s) {
    l96_rhs(x, k);
    for (int i = 0; i < L96_N; ++i) acc[i] = k[i], y[i] = x[i] + 0.5 * dt * k[i];
    l96_rhs(y, k);
    for (int i = 0; i < L96_N; ++i) acc[i] += 2 * k[i], y[i] = x[i] + 0.5 * dt * k[i];
    l96_rhs(y, k);
    for (int i = 0; i < L96_N; ++i) acc[i] += 2 * k[i], y[i] = x[i] + dt * k[i];
    l96_rhs(y, k);
    for (int i = 0; i < L96_N; ++i) x[i] += dt / 6 * (acc[i] + k[i]);
  }
}

static int lorenz_job(kjob *job, const kdesc *d, ksize size) {
  const int m = size == KSIZE_FULL ? 65536 : 256, steps = size == KSIZE_FULL ? 200 : 20;
  const float dt = 0.005f;
  const int nchk = m < L96_CHECKED ? m : L96_CHECKED;
  const size_t n = (size_t)m * L96_N;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "x_lorenz96");
  int xb = kjob_buf(job, n * 4, KB_IN), ob = kjob_buf(job, n * 4, KB_OUT);
  float *hx = job->buf[xb].host;
  /* a chaotic system over one time unit: float and double drift apart by
   * some 1e-5 of the O(10) state */
  float *ref = kjob_ref(job, ob, KC_F32, (size_t)nchk * L96_N, 1e-3, 2e-3);
  size_t *smp = ref ? kjob_sample(job, ob) : NULL;
  if (hx == NULL || smp == NULL) return -1;
  for (size_t i = 0; i < n; ++i) hx[i] = (float)(8.0 + krng_uniform(&r, -2, 2));
  for (int q = 0; q < nchk; ++q) {
    const int mem = nchk > 1 ? (int)((long)q * (m - 1) / (nchk - 1)) : 0;
    double x[L96_N];
    for (int i = 0; i < L96_N; ++i) x[i] = hx[(size_t)i * m + mem];
    l96_run(x, steps, dt);
    for (int i = 0; i < L96_N; ++i) {
      smp[q * L96_N + i] = (size_t)i * m + mem;
      ref[q * L96_N + i] = (float)x[i];
    }
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, m);
  kjob_arg_i32(job, steps);
  kjob_arg_f32(job, dt);
  kjob_grid1(job, (size_t)m, 128);
  return 0;
}

/* ---- resize ------------------------------------------------------------------------------ */

static int resize_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const int nb = full ? 64 : 2, w = full ? 1920 : 80, h = full ? 1080 : 45;
  const int ow = full ? 512 : 32, oh = full ? 512 : 24;
  const size_t nin = (size_t)nb * h * w * 3, nout = (size_t)nb * 3 * oh * ow;
  const float scx = (float)w / ow, scy = (float)h / oh;
  static const double mean[3] = {0.485, 0.456, 0.406}, sd[3] = {0.229, 0.224, 0.225};
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "x_resize");
  int ib = kjob_buf(job, nin, KB_IN), ob = kjob_buf(job, nout * 4, KB_OUT);
  uint8_t *hi = job->buf[ib].host;
  /* interpolation of bytes: float against double, outputs O(1) */
  float *ref = xref_sampled(job, ob, KC_F32, nout, 1e-5, 1e-4);
  if (hi == NULL || ref == NULL) return -1;
  /* Smooth gradients with noise, so neighbouring pixels differ. */
  for (size_t i = 0; i < nin; ++i) {
    const size_t px = i / 3, x = px % w, y = px / w % h;
    hi[i] =
        (uint8_t)((x * 255 / w + y * 128 / h + (i % 3) * 60 + ((uint32_t)i * 2654435761u >> 27)) %
                  256);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    const int ox = (int)(e % ow), oy = (int)(e / ow % oh), ch = (int)(e / ((size_t)ow * oh) % 3);
    const size_t b = e / ((size_t)ow * oh * 3);
    const float sx = fmaxf(((float)ox + 0.5f) * scx - 0.5f, 0.0f);
    const float sy = fmaxf(((float)oy + 0.5f) * scy - 0.5f, 0.0f);
    const int x0 = (int)sx, y0 = (int)sy, x1 = x0 + 1 < w ? x0 + 1 : w - 1;
    const int y1 = y0 + 1 < h ? y0 + 1 : h - 1;
    const double fx = sx - x0, fy = sy - y0;
    const uint8_t *img = hi + b * h * w * 3;
#define PX(yy, xx) ((double)img[((size_t)(yy)*w + (xx)) * 3 + ch])
    const double top = PX(y0, x0) + fx * (PX(y0, x1) - PX(y0, x0));
    const double bot = PX(y1, x0) + fx * (PX(y1, x1) - PX(y1, x0));
#undef PX
    ref[s] = (float)(((top + fy * (bot - top)) / 255.0 - mean[ch]) / sd[ch]);
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_arg_i32(job, ow);
  kjob_arg_i32(job, oh);
  kjob_arg_f32(job, scx);
  kjob_arg_f32(job, scy);
  kjob_grid(job, (size_t)ow / 32, (size_t)oh / 8, (size_t)nb, 32, 8, 1);
  return 0;
}

int xsetup_sci(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case XSC_FDTD:
      return fdtd_job(job, d, size);
    case XSC_LAVAMD:
      return lavamd_job(job, d, size);
    case XSC_CHEM:
      return chem_job(job, d, size);
    case XSC_BINOMIAL:
      return binomial_job(job, d, size);
    case XSC_CFD:
      return cfd_job(job, d, size);
    case XSC_RESAMPLE:
      return resample_job(job, d, size);
    case XSC_THOMAS:
      return thomas_job(job, d, size);
    case XSC_SPTRSV:
      return sptrsv_job(job, d, size);
    case XSC_LORENZ:
      return lorenz_job(job, d, size);
    case XSC_RESIZE:
      return resize_job(job, d, size);
  }
  return -1;
}
