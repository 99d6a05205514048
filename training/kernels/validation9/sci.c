/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.c: host half of sci.cl (SPH density, Kepler's equation, SSD box
 * decoding, ICP normal equations, Householder QR, FEM assembly).  The
 * float and FP64 kernels are compared with double references within
 * tolerances that cover their rounding (the QR against a double
 * Householder QR with the same signs); the assembled matrix is exact (the
 * same integer arithmetic, after the first launch only: later launches keep
 * adding). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation9.h"

static const double T_PI = 3.14159265358979323846;

/* ---- SPH density ------------------------------------------------------------------------- */

static double cubic_spline(double q) {
  return q <= 0.5 ? 1 - 6 * q * q + 6 * q * q * q : q < 1 ? 2 * (1 - q) * (1 - q) * (1 - q) : 0;
}

static int sph_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, gx = full ? 128 : 16, gy = gx, gz = full ? 64 : 8;
  const int ncell = gx * gy * gz;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "t_sph_density_cells");
  int cb = kjob_buf(job, (size_t)(ncell + 1) * 4, KB_IN);
  if (job->buf[cb].host == NULL) return -1;
  int *cstart = job->buf[cb].host;
  cstart[0] = 0;
  for (int c = 0; c < ncell; ++c) cstart[c + 1] = cstart[c] + 1 + (int)krng_below(&r, 3);
  const int n = cstart[ncell];
  int pb = kjob_buf(job, (size_t)n * 16, KB_IN), ob = kjob_buf(job, (size_t)n * 4, KB_OUT);
  float *ref = tref_sampled(job, ob, KC_F32, (size_t)n, T_SAMPLES, 1e-4, 1e-6);
  if (job->buf[pb].host == NULL || ref == NULL) return -1;
  float *pos = job->buf[pb].host;
  for (int c = 0; c < ncell; ++c) /* h = 1: a particle's cell is its coordinates' integer parts */
    for (int i = cstart[c]; i < cstart[c + 1]; ++i) {
      pos[4 * i] = (float)(c % gx + krng_uniform(&r, 0.01, 0.99));
      pos[4 * i + 1] = (float)(c / gx % gy + krng_uniform(&r, 0.01, 0.99));
      pos[4 * i + 2] = (float)(c / (gx * gy) + krng_uniform(&r, 0.01, 0.99));
      pos[4 * i + 3] = (float)krng_uniform(&r, 0.8, 1.2);
    }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t i = job->buf[ob].sample[s];
    const int c0[3] = {(int)pos[4 * i], (int)pos[4 * i + 1], (int)pos[4 * i + 2]};
    double acc = 0;
    for (int z = c0[2] - 1; z <= c0[2] + 1; ++z) /* the 27 cells around i's */
      for (int y = c0[1] - 1; y <= c0[1] + 1; ++y)
        for (int x = c0[0] - 1; x <= c0[0] + 1; ++x) {
          if (x < 0 || y < 0 || z < 0 || x >= gx || y >= gy || z >= gz) continue;
          const int c = (z * gy + y) * gx + x;
          for (int k = cstart[c]; k < cstart[c + 1]; ++k) {
            double r2 = 0;
            for (int a = 0; a < 3; ++a) {
              const double dd = (double)pos[4 * k + a] - pos[4 * i + a];
              r2 += dd * dd;
            }
            acc += pos[4 * k + 3] * cubic_spline(sqrt(r2));
          }
        }
    ref[s] = (float)(acc * 8 / T_PI);
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, gx);
  kjob_arg_i32(job, gy);
  kjob_arg_i32(job, gz);
  kjob_arg_f32(job, 1.0f);
  kjob_grid1(job, (size_t)n, 128);
  kjob_sampleable(job);
  return 0;
}

/* ---- Kepler's equation ------------------------------------------------------------------- */

static int kepler_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nobj = full ? 1 << 20 : 2048, nep = full ? 16 : 4;
  const double dt = 3.7;
  const size_t ni = (size_t)nobj * nep;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "t_kepler_newton_f64");
  int eb = kjob_buf(job, (size_t)nobj * 32, KB_IN), ob = kjob_buf(job, ni * 16, KB_OUT);
  double *ref = tref_sampled(job, ob, KC_F64, ni * 2, T_SAMPLES, 1e-9, 1e-8);
  if (job->buf[eb].host == NULL || ref == NULL) return -1;
  double *el = job->buf[eb].host;
  for (int o = 0; o < nobj; ++o) { /* asteroids and comets: a 0.4-40 AU, e up to 0.95 */
    const double a = exp(krng_uniform(&r, log(0.4), log(40)));
    el[4 * o] = a;
    el[4 * o + 1] = o % 8 == 0 ? krng_uniform(&r, 0.5, 0.95) : krng_uniform(&r, 0, 0.35);
    el[4 * o + 2] = krng_uniform(&r, 0, 2 * T_PI);
    el[4 * o + 3] = 0.0172021 / (a * sqrt(a)); /* radians per day */
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e2 = job->buf[ob].sample[s], g = e2 / 2;
    const double *p = el + 4 * (g / nep), e = p[1];
    double m = fmod(p[2] + p[3] * (double)(g % nep) * dt, 2 * T_PI);
    if (m < 0) m += 2 * T_PI;
    double ea = m + (sin(m) >= 0 ? 0.85 : -0.85) * e;
    for (int it = 0; it < 60; ++it) {
      const double step = (ea - e * sin(ea) - m) / (1 - e * cos(ea));
      ea -= step;
      if (fabs(step) < 1e-15) break;
    }
    ref[s] = e2 % 2 == 0 ? p[0] * (cos(ea) - e) : p[0] * sqrt(1 - e * e) * sin(ea);
  }
  kjob_arg_buf(job, eb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, nobj);
  kjob_arg_i32(job, nep);
  kjob_arg_f64(job, dt);
  kjob_grid1(job, ni, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- SSD box decoding -------------------------------------------------------------------- */

static int ssd_job(kjob *job, const kdesc *d, ksize size) {
  (void)size; /* a tiny launch at both sizes */
  static const int fmap[6] = {19, 10, 5, 3, 2, 1};
  const int na = 1917, nclass = 91;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "t_ssd_box_decode");
  int ab = kjob_buf(job, (size_t)na * 16, KB_IN), lb = tin_f32(job, (size_t)na * 4, &r, -2, 2);
  int gb = tin_f32(job, (size_t)na * nclass, &r, -8, 3);
  int ob = kjob_buf(job, (size_t)na * 24, KB_OUT);
  float *ref = kjob_ref(job, ob, KC_F32, (size_t)na * 6, 1e-5, 1e-6);
  if (job->buf[ab].host == NULL || lb < 0 || gb < 0 || ref == NULL) return -1;
  float *an = job->buf[ab].host;
  int k = 0;
  for (int l = 0; l < 6; ++l) { /* MobileNet-SSD's 300 x 300 anchor grids: 3 then 6 per cell */
    const double scale = 0.2 + 0.7 * l / 5.0;
    for (int y = 0; y < fmap[l]; ++y)
      for (int x = 0; x < fmap[l]; ++x)
        for (int a = 0; a < (l == 0 ? 3 : 6); ++a) {
          const double ar = a == 0   ? 1
                            : a == 1 ? 2
                            : a == 2 ? 0.5
                            : a == 3 ? 3
                            : a == 4 ? 1 / 3.0
                                     : 1;
          const double s = a == 5 ? sqrt(scale * (scale + 0.14)) : (l == 0 && a == 0 ? 0.1 : scale);
          an[4 * k] = (float)((y + 0.5) / fmap[l]);
          an[4 * k + 1] = (float)((x + 0.5) / fmap[l]);
          an[4 * k + 2] = (float)(s / sqrt(ar));
          an[4 * k + 3] = (float)(s * sqrt(ar));
          ++k;
        }
  }
  const float *loc = job->buf[lb].host, *lg = job->buf[gb].host;
  for (int i = 0; i < na; ++i) {
    const float *a = an + 4 * i, *t = loc + 4 * i, *row = lg + (size_t)i * nclass;
    const double yc = t[0] / 10.0 * a[2] + a[0], xc = t[1] / 10.0 * a[3] + a[1];
    const double hh = 0.5 * exp(t[2] / 5.0) * a[2], hw = 0.5 * exp(t[3] / 5.0) * a[3];
    const double box[4] = {yc - hh, xc - hw, yc + hh, xc + hw};
    int cls = 1;
    for (int c = 2; c < nclass; ++c)
      if (row[c] > row[cls]) cls = c;
    for (int q = 0; q < 4; ++q) ref[6 * i + q] = (float)fmin(fmax(box[q], 0), 1);
    ref[6 * i + 4] = (float)(1 / (1 + exp(-(double)row[cls])));
    ref[6 * i + 5] = (float)cls;
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, na);
  kjob_arg_i32(job, nclass);
  kjob_grid1(job, (size_t)na, 256);
  return 0;
}

/* ---- ICP normal equations ---------------------------------------------------------------- */

enum { IC_S = 28 };

static int icp_job(kjob *job, const kdesc *d, ksize size) {
  (void)size; /* a tiny launch at both sizes */
  const int n = 16384;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "t_icp_normal_eq");
  int cb = kjob_buf(job, (size_t)n * 36, KB_IN), ob = kjob_buf(job, IC_S * 4, KB_OUT);
  double *sum = calloc(IC_S, sizeof *sum);
  if (job->buf[cb].host == NULL || sum == NULL) {
    free(sum);
    return -1;
  }
  float *c = job->buf[cb].host;
  for (int k = 0; k < n; ++k) { /* a depth frame against its model: small offsets, tilted normals */
    float *p = c + 9 * k;
    const double u = krng_uniform(&r, -1, 1), v = krng_uniform(&r, -0.75, 0.75);
    const double z = 1.5 + 0.3 * sin(2 * u) * cos(3 * v);
    double nn[3] = {-0.3 * cos(2 * u), 0.45 * sin(3 * v), -1}, len = 0;
    for (int a = 0; a < 3; ++a) len += nn[a] * nn[a];
    p[0] = (float)(u * z);
    p[1] = (float)(v * z);
    p[2] = (float)z;
    for (int a = 0; a < 3; ++a) p[3 + a] = (float)(p[a] + krng_uniform(&r, -0.01, 0.01));
    for (int a = 0; a < 3; ++a) p[6 + a] = (float)(nn[a] / sqrt(len));
  }
  for (int k = 0; k < n; ++k) {
    const float *p = c + 9 * k;
    const double r0 =
        ((double)p[0] - p[3]) * p[6] + ((double)p[1] - p[4]) * p[7] + ((double)p[2] - p[5]) * p[8];
    const double j[6] = {(double)p[1] * p[8] - (double)p[2] * p[7],
                         (double)p[2] * p[6] - (double)p[0] * p[8],
                         (double)p[0] * p[7] - (double)p[1] * p[6],
                         p[6],
                         p[7],
                         p[8]};
    int s = 0;
    for (int a = 0; a < 6; ++a)
      for (int b = a; b < 6; ++b) sum[s++] += j[a] * j[b];
    for (int a = 0; a < 6; ++a) sum[21 + a] += j[a] * r0;
    sum[27] += r0 * r0;
  }
  double big = 0;
  for (int s = 0; s < IC_S; ++s) big = fmax(big, fabs(sum[s]));
  float *ref = kjob_ref(job, ob, KC_F32, IC_S, 1e-4, 2e-5 * big);
  if (ref == NULL) {
    free(sum);
    return -1;
  }
  for (int s = 0; s < IC_S; ++s) ref[s] = (float)sum[s];
  free(sum);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_grid(job, 1, 1, 1, 1024, 1, 1);
  return 0;
}

/* ---- Householder QR ---------------------------------------------------------------------- */

enum { QR_M = 128, QR_N = 64 };

/* R of the matrix at a (QR_M x QR_N, row-major) by the kernel's Householder
 * steps in double, into rr (QR_N x QR_N, zeros below the diagonal). */
static void householder_r(const float *a, double *w, double *rr) {
  for (int e = 0; e < QR_M * QR_N; ++e) w[e] = a[e];
  for (int k = 0; k < QR_N; ++k) {
    double s = 0;
    for (int i = k; i < QR_M; ++i) s += w[i * QR_N + k] * w[i * QR_N + k];
    const double x0 = w[k * QR_N + k], alpha = x0 >= 0 ? -sqrt(s) : sqrt(s);
    const double vtv = 2 * alpha * (alpha - x0), beta = vtv > 0 ? 2 / vtv : 0;
    w[k * QR_N + k] = x0 - alpha; /* v, kept in column k for the update */
    for (int j = k + 1; j < QR_N; ++j) {
      double dot = 0;
      for (int i = k; i < QR_M; ++i) dot += w[i * QR_N + k] * w[i * QR_N + j];
      for (int i = k; i < QR_M; ++i) w[i * QR_N + j] -= beta * dot * w[i * QR_N + k];
    }
    w[k * QR_N + k] = alpha;
  }
  for (int e = 0; e < QR_N * QR_N; ++e) rr[e] = e % QR_N >= e / QR_N ? w[e] : 0;
}

static int qr_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, groups = full ? 48 : 2, per = full ? 16 : 2;
  const size_t nmat = (size_t)groups * per;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "t_qr_householder_48");
  int ab = tin_f32(job, nmat * QR_M * QR_N, &r, -1, 1);
  int ob = kjob_buf(job, nmat * QR_N * QR_N * 4, KB_OUT);
  float *ref = tref_sampled(job, ob, KC_F32, nmat * QR_N * QR_N, T_SAMPLES, 1e-3, 1e-3);
  double *w = malloc((QR_M * QR_N + QR_N * QR_N) * sizeof *w);
  if (ab < 0 || ref == NULL || w == NULL) {
    free(w);
    return -1;
  }
  size_t last = (size_t)-1;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], m = e / (QR_N * QR_N);
    if (m != last) {
      householder_r((const float *)job->buf[ab].host + m * QR_M * QR_N, w, w + QR_M * QR_N);
      last = m;
    }
    ref[s] = (float)w[QR_M * QR_N + e % (QR_N * QR_N)];
  }
  free(w);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, per);
  kjob_grid(job, (size_t)groups, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- FEM assembly ------------------------------------------------------------------------ */

/* The mesh: (nx + 1)^2 jittered lattice vertices, two triangles per square
 * (split along the rising diagonal), rows of the CSR matrix in vertex
 * order; slot[9 e + 3 i + j] is where entry (i, j) of triangle e goes. */
typedef struct fem_mesh {
  int nx, nv, ntri, nnz;
  int *tri, *slot, *xy, *kap, *rowptr, *cols;
} fem_mesh;

/* Column offsets of a vertex's neighbours in the lattice, ascending. */
static const int FEM_DX[7] = {-1, 0, -1, 0, 1, 0, 1}, FEM_DY[7] = {-1, -1, 0, 0, 0, 1, 1};

static int fem_slot(const fem_mesh *m, int a, int b) {
  for (int k = m->rowptr[a]; k < m->rowptr[a + 1]; ++k)
    if (m->cols[k] == b) return k;
  return -1;
}

static void fem_build(fem_mesh *m, krng *r) {
  const int n1 = m->nx + 1;
  for (int v = 0; v < m->nv; ++v) { /* spacing 64, jitter up to 16 */
    m->xy[2 * v] = (v % n1) * 64 + (int)krng_below(r, 33) - 16;
    m->xy[2 * v + 1] = (v / n1) * 64 + (int)krng_below(r, 33) - 16;
  }
  m->rowptr[0] = 0;
  for (int v = 0; v < m->nv; ++v) {
    int k = m->rowptr[v];
    for (int q = 0; q < 7; ++q) {
      const int x = v % n1 + FEM_DX[q], y = v / n1 + FEM_DY[q];
      if (x >= 0 && y >= 0 && x < n1 && y < n1) m->cols[k++] = y * n1 + x;
    }
    m->rowptr[v + 1] = k;
  }
  m->nnz = m->rowptr[m->nv];
  for (int e = 0; e < m->ntri; ++e) {
    const int sq = e / 2, x = sq % m->nx, y = sq / m->nx, v00 = y * n1 + x;
    int *t = m->tri + 3 * e;
    t[0] = v00;
    t[1] = e % 2 == 0 ? v00 + 1 : v00 + n1 + 1;
    t[2] = e % 2 == 0 ? v00 + n1 + 1 : v00 + n1;
    for (int i = 0; i < 9; ++i) m->slot[9 * e + i] = fem_slot(m, t[i / 3], t[i % 3]);
    m->kap[e] = 1 + (int)krng_below(r, 8);
  }
}

/* The kernel's arithmetic: entries of triangle e added into val. */
static void fem_add(const fem_mesh *m, int e, uint32_t *val) {
  int x[3], y[3], b[3], c[3];
  for (int k = 0; k < 3; ++k) {
    x[k] = m->xy[2 * m->tri[3 * e + k]];
    y[k] = m->xy[2 * m->tri[3 * e + k] + 1];
  }
  for (int k = 0; k < 3; ++k) {
    b[k] = y[(k + 1) % 3] - y[(k + 2) % 3];
    c[k] = x[(k + 2) % 3] - x[(k + 1) % 3];
  }
  const int det2 = 2 * ((x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      val[m->slot[9 * e + 3 * i + j]] +=
          (uint32_t)((m->kap[e] * (b[i] * b[j] + c[i] * c[j]) * 8192) / det2);
}

static int fem_job(kjob *job, const kdesc *d, ksize size) {
  fem_mesh m;
  m.nx = size == KSIZE_FULL ? 2048 : 32;
  m.nv = (m.nx + 1) * (m.nx + 1);
  m.ntri = 2 * m.nx * m.nx;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "t_fem_p1_assemble");
  int tb = tbuf_u32(job, (size_t)m.ntri * 3, KB_IN), sb = tbuf_u32(job, (size_t)m.ntri * 9, KB_IN);
  int xb = tbuf_u32(job, (size_t)m.nv * 2, KB_IN), kb = tbuf_u32(job, (size_t)m.ntri, KB_IN);
  m.rowptr = malloc((size_t)(m.nv + 1) * sizeof *m.rowptr);
  m.cols = malloc((size_t)m.nv * 7 * sizeof *m.cols);
  if (tb < 0 || sb < 0 || xb < 0 || kb < 0 || m.rowptr == NULL || m.cols == NULL) {
    free(m.rowptr);
    free(m.cols);
    return -1;
  }
  m.tri = job->buf[tb].host;
  m.slot = job->buf[sb].host;
  m.xy = job->buf[xb].host;
  m.kap = job->buf[kb].host;
  fem_build(&m, &r);
  int vb = tbuf_u32(job, (size_t)m.nnz, KB_INOUT);
  uint32_t *all = calloc((size_t)m.nnz, sizeof *all);
  uint32_t *ref = vb < 0 ? NULL : tref_sampled(job, vb, KC_U32, (size_t)m.nnz, T_SAMPLES, 0, 0);
  if (all == NULL || ref == NULL) {
    free(m.rowptr);
    free(m.cols);
    free(all);
    return -1;
  }
  for (int e = 0; e < m.ntri; ++e) fem_add(&m, e, all);
  for (size_t s = 0; s < job->buf[vb].count; ++s) ref[s] = all[job->buf[vb].sample[s]];
  free(all);
  free(m.rowptr);
  free(m.cols);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, vb);
  kjob_arg_i32(job, m.ntri);
  kjob_grid1(job, (size_t)m.ntri, 256);
  return 0;
}

SP_SETUP(tsetup_sci) {
  switch (d->param) {
    case TSC_SPH:
      return sph_job(job, d, size);
    case TSC_KEPLER:
      return kepler_job(job, d, size);
    case TSC_SSD:
      return ssd_job(job, d, size);
    case TSC_ICP:
      return icp_job(job, d, size);
    case TSC_QR:
      return qr_job(job, d, size);
    case TSC_FEM:
      return fem_job(job, d, size);
  }
  return -1;
}
