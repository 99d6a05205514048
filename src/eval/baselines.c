/* SPDX-License-Identifier: GPL-3.0-or-later */
/* baselines.c: nearest-kernel, k-nearest and ridge-regression baselines. */
#include "baselines.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/kmeans.h"
#include "scalepredict.h"

/* Singular values below this share of the largest are rank deficiency
 * (counters that are sums of others), not signal: the ridge fit keeps the
 * directions above it. */
#define SV_REL_RANK 1e-10

static double dist2(const double *a, const double *b, size_t p) {
  double s = 0;
  for (size_t i = 0; i < p; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
  return s;
}

void sp__baseline_nearest(const sp_baseline_data *d, const double *x, double *out) {
  size_t best = sp__kmeans_nearest(d->x, d->n, d->p, x, NULL);
  memcpy(out, d->logr + best * d->g, d->g * sizeof(double));
}

void sp__baseline_knn(const sp_baseline_data *d, const double *x, size_t nn, double *out) {
  enum { MAXNN = 16 };
  size_t idx[MAXNN];
  double dd[MAXNN];
  size_t m = 0;
  if (nn > MAXNN) nn = MAXNN;
  /* Insertion into a short sorted list: nn is tiny. */
  for (size_t i = 0; i < d->n; i++) {
    double di = sqrt(dist2(d->x + i * d->p, x, d->p));
    size_t at = m < nn ? m++ : nn;
    while (at > 0 && dd[at - 1] > di) {
      if (at < nn) {
        dd[at] = dd[at - 1];
        idx[at] = idx[at - 1];
      }
      at--;
    }
    if (at < nn) {
      dd[at] = di;
      idx[at] = i;
    }
  }
  double wsum = 0;
  memset(out, 0, d->g * sizeof(double));
  for (size_t j = 0; j < m; j++) {
    /* The scale 1e-6 keeps an exact counter match from dividing by zero. */
    double w = 1.0 / (dd[j] + 1e-6);
    wsum += w;
    const double *r = d->logr + idx[j] * d->g;
    for (size_t t = 0; t < d->g; t++) out[t] += w * r[t];
  }
  for (size_t t = 0; t < d->g; t++) out[t] /= wsum;
}

/* ---- ridge regression ----------------------------------------------------- */

struct sp_ridge {
  size_t p, r, g;
  double *lo, *hi; /* g: allowed prediction range per target */
  double *mean_x;  /* p */
  double *proj;    /* p * r: counters -> scores (identity when r == p) */
  double *coef;    /* g * r */
  double *mean_y;  /* g */
};

void sp__ridge_free(sp_ridge *r) {
  if (!r) return;
  free(r->mean_x);
  free(r->proj);
  free(r->coef);
  free(r->mean_y);
  free(r->lo);
  free(r->hi);
  free(r);
}

/* Centered scores Z (n * r) of the training counters and the projection. */
static int project(const sp_baseline_data *d, sp_ridge *rg, gsl_matrix **zout) {
  const size_t n = d->n, p = d->p;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < p; j++) rg->mean_x[j] += d->x[i * p + j] / (double)n;
  /* Enough kernels: regress on the centered counters themselves. */
  if (p + 1 < n) {
    rg->r = p;
    for (size_t j = 0; j < p; j++) rg->proj[j * p + j] = 1.0;
  } else {
    /* SVD of the p x n transpose (GSL needs rows >= columns): X^T = U S V^T,
     * so the scores X U = V S span the row space ridge works in. */
    gsl_matrix *a = gsl_matrix_alloc(p, n), *v = gsl_matrix_alloc(n, n);
    gsl_vector *s = gsl_vector_alloc(n), *work = gsl_vector_alloc(n);
    int st = !a || !v || !s || !work;
    for (size_t i = 0; !st && i < n; i++)
      for (size_t j = 0; j < p; j++) gsl_matrix_set(a, j, i, d->x[i * p + j] - rg->mean_x[j]);
    if (!st) st = gsl_linalg_SV_decomp(a, v, s, work);
    size_t r = 0;
    double top = st ? 0 : gsl_vector_get(s, 0);
    while (!st && r < n && r + 2 < n && gsl_vector_get(s, r) > SV_REL_RANK * top) r++;
    rg->r = r;
    for (size_t j = 0; !st && j < p; j++)
      for (size_t c = 0; c < r; c++) rg->proj[j * p + c] = gsl_matrix_get(a, j, c);
    gsl_matrix_free(a);
    gsl_matrix_free(v);
    gsl_vector_free(s);
    gsl_vector_free(work);
    if (st) return SP_ENUMERIC;
  }
  *zout = NULL;
  if (!rg->r) return SP_OK;
  gsl_matrix *z = gsl_matrix_alloc(n, rg->r);
  if (!z) return SP_ENOMEM;
  for (size_t i = 0; i < n; i++)
    for (size_t c = 0; c < rg->r; c++) {
      double acc = 0;
      for (size_t j = 0; j < p; j++) acc += (d->x[i * p + j] - rg->mean_x[j]) * rg->proj[j * p + c];
      gsl_matrix_set(z, i, c, acc);
    }
  *zout = z;
  return SP_OK;
}

/* Smallest regularization relative to the largest singular value.  With
 * nearly collinear counters GCV can choose a regularization near zero and
 * coefficients that cancel on the training kernels but explode on a new one
 * (seen on the synthetic set); 1e-3 of the top singular value still fits
 * every shared data set as well as GCV alone. */
#define MIN_LAMBDA_REL 1e-3

/* Fits one target's coefficients with the GCV-chosen regularization.
 * GSL's GCV grid ends at the smallest singular value, which is thus a second
 * floor: a grid reaching down to MIN_LAMBDA_REL fits exact relations better
 * but lost 1.8 points on the GTX 980 set (docs/accuracy.md), so it stays. */
static int fit_target(gsl_matrix *z, gsl_vector *y, gsl_multifit_linear_workspace *w,
                      gsl_vector *reg, gsl_vector *gcv, gsl_vector *c) {
  double lambda, g_lambda, rnorm, snorm;
  if (gsl_multifit_linear_gcv(y, reg, gcv, &lambda, &g_lambda, w)) return SP_ENUMERIC;
  double floor = MIN_LAMBDA_REL * gsl_vector_get(w->S, 0);
  if (lambda < floor) lambda = floor;
  if (gsl_multifit_linear_solve(lambda, z, y, c, &rnorm, &snorm, w)) return SP_ENUMERIC;
  return SP_OK;
}

int sp__ridge_fit(const sp_baseline_data *d, sp_ridge **out) {
  *out = NULL;
  gsl_set_error_handler_off();
  sp_ridge *rg = calloc(1, sizeof *rg);
  if (!rg) return SP_ENOMEM;
  rg->p = d->p;
  rg->g = d->g;
  rg->mean_x = calloc(d->p, sizeof(double));
  rg->proj = calloc(d->p * d->p + 1, sizeof(double));
  rg->mean_y = calloc(d->g, sizeof(double));
  rg->lo = malloc((d->g + 1) * sizeof(double));
  rg->hi = malloc((d->g + 1) * sizeof(double));
  if (!rg->lo || !rg->hi) {
    sp__ridge_free(rg);
    return SP_ENOMEM;
  }
  /* A linear model extrapolates without bound; its predictions are kept
   * within the training targets' span, widened by half of it. */
  for (size_t t = 0; t < d->g; t++) {
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < d->n; i++) {
      lo = fmin(lo, d->logr[i * d->g + t]);
      hi = fmax(hi, d->logr[i * d->g + t]);
    }
    rg->lo[t] = lo - 0.5 * (hi - lo);
    rg->hi[t] = hi + 0.5 * (hi - lo);
  }
  gsl_matrix *z = NULL;
  int st = (!rg->mean_x || !rg->proj || !rg->mean_y) ? SP_ENOMEM : project(d, rg, &z);
  if (!st && !(rg->coef = calloc(d->g * rg->r + 1, sizeof(double)))) st = SP_ENOMEM;
  for (size_t t = 0; t < d->g && !st; t++) {
    double mean = 0;
    for (size_t i = 0; i < d->n; i++) mean += d->logr[i * d->g + t] / (double)d->n;
    rg->mean_y[t] = mean;
  }
  /* No counter varies over the training kernels (no scores, or all 0):
   * nothing to regress on, and every kernel is predicted the training
   * mean, the limit of ridge as its regularization grows. */
  if (!st && (!z || gsl_matrix_isnull(z))) {
    gsl_matrix_free(z);
    rg->r = 0;
    *out = rg;
    return SP_OK;
  }
  gsl_multifit_linear_workspace *w = st ? NULL : gsl_multifit_linear_alloc(d->n, rg->r);
  gsl_vector *y = gsl_vector_alloc(d->n), *c = gsl_vector_alloc(rg->r ? rg->r : 1);
  gsl_vector *reg = gsl_vector_alloc(40), *gcv = gsl_vector_alloc(40);
  if (!st && (!w || !y || !c || !reg || !gcv)) st = SP_ENOMEM;
  if (!st && gsl_multifit_linear_svd(z, w)) st = SP_ENUMERIC;
  for (size_t t = 0; t < d->g && !st; t++) {
    for (size_t i = 0; i < d->n; i++) gsl_vector_set(y, i, d->logr[i * d->g + t] - rg->mean_y[t]);
    if (gsl_blas_dnrm2(y) == 0) continue; /* every kernel scales alike here */
    st = fit_target(z, y, w, reg, gcv, c);
    for (size_t j = 0; !st && j < rg->r; j++) rg->coef[t * rg->r + j] = gsl_vector_get(c, j);
  }
  if (w) gsl_multifit_linear_free(w);
  gsl_matrix_free(z);
  gsl_vector_free(y);
  gsl_vector_free(c);
  gsl_vector_free(reg);
  gsl_vector_free(gcv);
  if (st) {
    sp__ridge_free(rg);
    return st;
  }
  *out = rg;
  return SP_OK;
}

void sp__ridge_predict(const sp_ridge *r, const double *x, double *out) {
  enum { MAXR = 4096 };
  double zbuf[MAXR];
  const size_t nr = r->r < MAXR ? r->r : MAXR;
  for (size_t c = 0; c < nr; c++) {
    double acc = 0;
    for (size_t j = 0; j < r->p; j++) acc += (x[j] - r->mean_x[j]) * r->proj[j * r->p + c];
    zbuf[c] = acc;
  }
  for (size_t t = 0; t < r->g; t++) {
    double acc = r->mean_y[t];
    for (size_t c = 0; c < nr; c++) acc += r->coef[t * r->r + c] * zbuf[c];
    out[t] = acc < r->lo[t] ? r->lo[t] : acc > r->hi[t] ? r->hi[t] : acc;
  }
}

/* ---- the share ("mix") model ---------------------------------------------------- */

void sp__mix_basis(const sp_grid *g, const sp_grid_point *base, int forward, double *basis) {
  const size_t n = sp__grid_size(g);
  for (size_t i = 0; i < n; i++) {
    sp_config t = sp__grid_config(g, i);
    const double tv[3] = {t.engine_mhz, t.memory_mhz, t.cu};
    const double bv[3] = {g->v[1][base->i[1]], g->v[2][base->i[2]], g->v[0][base->i[0]]};
    for (int a = 0; a < SP_MIX_TERMS; a++)
      basis[i * SP_MIX_TERMS + a] = (forward ? tv[a] / bv[a] : bv[a] / tv[a]) - 1.0;
  }
}

/* A tiny ridge keeps an axis with one value (an all-zero column) solvable
 * and gives it a zero share. */
#define MIX_RIDGE 1e-9

void sp__mix_fit(const double *basis, const double *ratio, size_t g, double *coef) {
  enum { T = SP_MIX_TERMS };
  double a[T * T] = {0};
  memset(coef, 0, T * sizeof *coef);
  for (size_t i = 0; i < g; i++)
    for (int r = 0; r < T; r++) {
      for (int c = 0; c < T; c++) a[r * T + c] += basis[i * T + r] * basis[i * T + c];
      coef[r] += basis[i * T + r] * (ratio[i] - 1.0);
    }
  for (int r = 0; r < T; r++) a[r * T + r] += MIX_RIDGE;
  /* The normal equations, positive definite by the ridge: Cholesky.  GSL's
   * default handler would abort where rounding broke that; no share then. */
  gsl_set_error_handler_off();
  gsl_matrix_view A = gsl_matrix_view_array(a, T, T);
  gsl_vector_view x = gsl_vector_view_array(coef, T);
  if (gsl_linalg_cholesky_decomp1(&A.matrix) || gsl_linalg_cholesky_svx(&A.matrix, &x.vector))
    memset(coef, 0, T * sizeof *coef);
}

void sp__mix_apply(const double *basis, const double *coef, size_t g, double *ratio) {
  for (size_t i = 0; i < g; i++) {
    double v = 1.0;
    for (int a = 0; a < SP_MIX_TERMS; a++) v += coef[a] * basis[i * SP_MIX_TERMS + a];
    /* A negative or zero prediction is meaningless; floor it at 5% of the base. */
    ratio[i] = v > 0.05 ? v : 0.05;
  }
}
