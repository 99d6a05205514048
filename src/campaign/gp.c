/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gp.c: Gaussian-process regression over a fixed set of candidates, the
 * surrogate behind adaptive measurement plans (docs/sweeps.md).
 *
 * The model of an observed value y (a log time or log power) at normalised
 * log coordinates z is
 *
 *     y(z) = h(z)'beta + f(z) + e,   h(z) = (1, z_1, ..., z_dim),
 *
 * a linear mean in the logarithms of the CU count and the clocks (the
 * physical expectation: a time is close to a power law in each), plus f, a
 * zero-mean process with an anisotropic Matern 5/2 covariance (twice
 * differentiable, rougher than the squared exponential, so a roofline's
 * bend does not force tiny length scales), plus Gaussian noise e.  beta has
 * a weak Gaussian prior and is integrated out (Rasmussen and Williams,
 * "Gaussian processes for machine learning", 2006, section 2.7), so the
 * predictive variance includes the uncertainty of the trend: with few
 * points it is largest at the far corners of the grid, where a slope
 * matters most, which is where a plan should measure first.
 *
 * The hyperparameters (signal variance, length scales, noise variance) are
 * the maximum of their posterior: the marginal likelihood times a weak
 * log-normal prior that keeps fits from a handful of points sane.  The
 * optimiser is GSL's Nelder-Mead simplex on their logarithms, from the
 * prior's centre, within fixed bounds.
 */
#include "gp.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multimin.h>

#include "scalepredict.h"

/* The prior of beta: the intercept (of the centred values) and the slopes,
 * standard deviations in log units per unit of normalised coordinate.  A
 * slope of 2 over a normalised axis is a factor of 7.4 between its ends,
 * about what 4 to 32 CUs do to a compute-bound kernel; the prior lets the
 * data move it freely. */
#define PRIOR_SD_INTERCEPT 1.0
#define PRIOR_SD_SLOPE 2.0

/* The hyperprior: centres and standard deviations of the logarithms.  The
 * centres are a 10% residual around the trend, a length scale of half an
 * axis and a 1% measurement noise; the spreads are wide (a factor of 20 in
 * standard deviation, e for length scales). */
#define HYPER_SF2_MEAN (2.0 * -2.302585093) /* log(0.1^2) */
#define HYPER_SF2_SD 3.0
#define HYPER_ELL_MEAN (-0.693147181) /* log(0.5) */
#define HYPER_ELL_SD 1.0
#define HYPER_SN2_MEAN (2.0 * -4.605170186) /* log(0.01^2) */
#define HYPER_SN2_SD 3.0

/* Bounds of the search, as logarithms: outside them the objective is a
 * wall.  Length scales from 3% to 30 axis spans; noise down to a 0.001%
 * standard deviation (data computed, not measured) and up to 100%. */
#define LOG_SF2_MIN (-18.42) /* 1e-8 */
#define LOG_SF2_MAX 3.22     /* 25 */
#define LOG_ELL_MIN (-3.51)  /* 0.03 */
#define LOG_ELL_MAX 3.40     /* 30 */
#define LOG_SN2_MIN (-23.03) /* 1e-10 */
#define LOG_SN2_MAX 0.0      /* 1 */
#define WALL 1e30

/* Added to the diagonal, relative to the signal variance, so that a
 * noise-free fit on nearby points still factorises. */
#define JITTER 1e-10

/* The simplex stops when its size (in log units) falls below SIMPLEX_TOL,
 * or after SIMPLEX_MAX_ITER steps; a first step of SIMPLEX_STEP explores a
 * factor of e in every hyperparameter. */
#define SIMPLEX_TOL 1e-3
#define SIMPLEX_MAX_ITER 400
#define SIMPLEX_STEP 1.0

/* Fewer points than this cannot tell a length scale from noise: the prior
 * centre is used as it is. */
#define MIN_POINTS_TO_FIT 3

/* K, its factor and the trend's solves for m observations. */
typedef struct post {
  size_t m, p;
  gsl_matrix *L;     /* m x m: Cholesky factor of K (lower triangle) */
  gsl_matrix *H;     /* m x p: the trend's basis at the observations */
  gsl_matrix *KH;    /* m x p: K^-1 H */
  gsl_matrix *LA;    /* p x p: Cholesky factor of A = B^-1 + H' K^-1 H */
  gsl_vector *alpha; /* K^-1 y */
  gsl_vector *c, *u; /* H' alpha and A^-1 c, the posterior mean of beta */
} post;

struct sp_gp {
  const sp_gp_points *pts;
  sp_gp_hyper hyper;
  size_t n, p;
  double ybar;
  double *mean, *var; /* per candidate */
  double *V;          /* n x G: L^-1 k(x_i, candidate j) */
  double *R;          /* p x G: h(z_j) - H' K^-1 k_j */
  double *AR;         /* p x G: A^-1 R */
  double sf2, sn2;
  double inv_ell[SP_GP_MAX_DIM];
};

/* ---- covariance ---------------------------------------------------------- */

static double matern52(const double *a, const double *b, size_t dim, const double *inv_ell) {
  double r2 = 0.0;
  for (size_t d = 0; d < dim; d++) {
    const double t = (a[d] - b[d]) * inv_ell[d];
    r2 += t * t;
  }
  const double s = sqrt(5.0 * r2);
  return (1.0 + s + s * s / 3.0) * exp(-s);
}

static const double *point_at(const sp_gp_points *pts, size_t j) { return pts->z + j * pts->dim; }

static void basis(const sp_gp_points *pts, size_t j, double *h) {
  h[0] = 1.0;
  for (size_t d = 0; d < pts->dim; d++) h[1 + d] = point_at(pts, j)[d];
}

static double prior_var(size_t k) {
  return k == 0 ? PRIOR_SD_INTERCEPT * PRIOR_SD_INTERCEPT : PRIOR_SD_SLOPE * PRIOR_SD_SLOPE;
}

/* ---- the factorisation shared by the objective and the final fit -------- */

static void post_free(post *q) {
  gsl_matrix_free(q->L);
  gsl_matrix_free(q->H);
  gsl_matrix_free(q->KH);
  gsl_matrix_free(q->LA);
  gsl_vector_free(q->alpha);
  gsl_vector_free(q->c);
  gsl_vector_free(q->u);
  memset(q, 0, sizeof *q);
}

static int post_alloc(post *q, size_t m, size_t p) {
  memset(q, 0, sizeof *q);
  q->m = m;
  q->p = p;
  q->L = gsl_matrix_alloc(m, m);
  q->H = gsl_matrix_alloc(m, p);
  q->KH = gsl_matrix_alloc(m, p);
  q->LA = gsl_matrix_alloc(p, p);
  q->alpha = gsl_vector_alloc(m);
  q->c = gsl_vector_alloc(p);
  q->u = gsl_vector_alloc(p);
  if (q->L && q->H && q->KH && q->LA && q->alpha && q->c && q->u) return SP_OK;
  post_free(q);
  return SP_ENOMEM;
}

static void set_scales(const sp_gp_hyper *h, size_t dim, double *sf2, double *sn2,
                       double *inv_ell) {
  *sf2 = exp(h->log_sf2);
  *sn2 = exp(h->log_sn2);
  for (size_t d = 0; d < dim; d++) inv_ell[d] = exp(-h->log_ell[d]);
}

/* Factorises K for the observations idx (centred values y) under h and
 * returns the negative log marginal likelihood without its constants, or
 * NAN when K or A is not positive definite. */
static double factor(post *q, const sp_gp_points *pts, const size_t *idx, const double *y,
                     const sp_gp_hyper *h) {
  double sf2, sn2, inv_ell[SP_GP_MAX_DIM];
  set_scales(h, pts->dim, &sf2, &sn2, inv_ell);
  const size_t m = q->m, p = q->p;
  for (size_t i = 0; i < m; i++) {
    for (size_t j = 0; j <= i; j++)
      gsl_matrix_set(
          q->L, i, j,
          sf2 * matern52(point_at(pts, idx[i]), point_at(pts, idx[j]), pts->dim, inv_ell));
    *gsl_matrix_ptr(q->L, i, i) += sn2 + JITTER * sf2;
    basis(pts, idx[i], gsl_matrix_ptr(q->H, i, 0));
    gsl_vector_set(q->alpha, i, y[i]);
  }
  if (gsl_linalg_cholesky_decomp1(q->L)) return NAN;
  gsl_linalg_cholesky_svx(q->L, q->alpha);
  gsl_matrix_memcpy(q->KH, q->H);
  gsl_blas_dtrsm(CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, 1.0, q->L, q->KH);
  gsl_blas_dtrsm(CblasLeft, CblasLower, CblasTrans, CblasNonUnit, 1.0, q->L, q->KH);
  gsl_blas_dgemm(CblasTrans, CblasNoTrans, 1.0, q->H, q->KH, 0.0, q->LA);
  for (size_t k = 0; k < p; k++) *gsl_matrix_ptr(q->LA, k, k) += 1.0 / prior_var(k);
  if (gsl_linalg_cholesky_decomp1(q->LA)) return NAN;
  gsl_blas_dgemv(CblasTrans, 1.0, q->H, q->alpha, 0.0, q->c);
  gsl_vector_memcpy(q->u, q->c);
  gsl_linalg_cholesky_svx(q->LA, q->u);
  double ya = 0.0, cu, logdet = 0.0;
  for (size_t i = 0; i < m; i++) ya += y[i] * gsl_vector_get(q->alpha, i);
  gsl_blas_ddot(q->c, q->u, &cu);
  for (size_t i = 0; i < m; i++) logdet += log(gsl_matrix_get(q->L, i, i));
  for (size_t k = 0; k < p; k++) logdet += log(gsl_matrix_get(q->LA, k, k));
  return 0.5 * (ya - cu) + logdet;
}

/* ---- hyperparameters ------------------------------------------------------ */

typedef struct objective_ctx {
  post q;
  const sp_gp_points *pts;
  const size_t *idx;
  const double *y;
} objective_ctx;

static void unpack(const gsl_vector *x, size_t dim, sp_gp_hyper *h) {
  h->log_sf2 = gsl_vector_get(x, 0);
  for (size_t d = 0; d < dim; d++) h->log_ell[d] = gsl_vector_get(x, 1 + d);
  h->log_sn2 = gsl_vector_get(x, 1 + dim);
}

static double sq_z(double v, double mean, double sd) {
  return 0.5 * (v - mean) * (v - mean) / (sd * sd);
}

static int in_bounds(const sp_gp_hyper *h, size_t dim) {
  int ok = h->log_sf2 >= LOG_SF2_MIN && h->log_sf2 <= LOG_SF2_MAX && h->log_sn2 >= LOG_SN2_MIN &&
           h->log_sn2 <= LOG_SN2_MAX;
  for (size_t d = 0; d < dim; d++)
    ok = ok && h->log_ell[d] >= LOG_ELL_MIN && h->log_ell[d] <= LOG_ELL_MAX;
  return ok;
}

static double hyperprior(const sp_gp_hyper *h, size_t dim) {
  double s = sq_z(h->log_sf2, HYPER_SF2_MEAN, HYPER_SF2_SD) +
             sq_z(h->log_sn2, HYPER_SN2_MEAN, HYPER_SN2_SD);
  for (size_t d = 0; d < dim; d++) s += sq_z(h->log_ell[d], HYPER_ELL_MEAN, HYPER_ELL_SD);
  return s;
}

static double objective(const gsl_vector *x, void *user) {
  objective_ctx *o = user;
  sp_gp_hyper h;
  unpack(x, o->pts->dim, &h);
  if (!in_bounds(&h, o->pts->dim)) return WALL;
  const double nll = factor(&o->q, o->pts, o->idx, o->y, &h);
  return isfinite(nll) ? nll + hyperprior(&h, o->pts->dim) : WALL;
}

static void prior_centre(sp_gp_hyper *h) {
  h->log_sf2 = HYPER_SF2_MEAN;
  for (size_t d = 0; d < SP_GP_MAX_DIM; d++) h->log_ell[d] = HYPER_ELL_MEAN;
  h->log_sn2 = HYPER_SN2_MEAN;
}

/* Nelder-Mead over the m observations (idx, centred y) from the prior's
 * centre; h keeps the centre when the optimiser cannot be set up. */
static int maximise(const sp_gp_points *pts, const size_t *idx, const double *y, size_t m,
                    sp_gp_hyper *h) {
  const size_t np = 2 + pts->dim;
  objective_ctx o = {.pts = pts, .idx = idx, .y = y};
  if (post_alloc(&o.q, m, 1 + pts->dim)) return SP_ENOMEM;
  gsl_multimin_fminimizer *s =
      gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, np);
  gsl_vector *x = gsl_vector_alloc(np), *step = gsl_vector_alloc(np);
  int st = s && x && step ? SP_OK : SP_ENOMEM;
  if (!st) {
    gsl_vector_set(x, 0, h->log_sf2);
    for (size_t d = 0; d < pts->dim; d++) gsl_vector_set(x, 1 + d, h->log_ell[d]);
    gsl_vector_set(x, 1 + pts->dim, h->log_sn2);
    gsl_vector_set_all(step, SIMPLEX_STEP);
    gsl_multimin_function f = {objective, np, &o};
    gsl_multimin_fminimizer_set(s, &f, x, step);
    for (int it = 0; it < SIMPLEX_MAX_ITER; it++)
      if (gsl_multimin_fminimizer_iterate(s) ||
          gsl_multimin_test_size(gsl_multimin_fminimizer_size(s), SIMPLEX_TOL) == GSL_SUCCESS)
        break;
    if (gsl_multimin_fminimizer_minimum(s) < WALL)
      unpack(gsl_multimin_fminimizer_x(s), pts->dim, h);
  }
  gsl_multimin_fminimizer_free(s);
  gsl_vector_free(x);
  gsl_vector_free(step);
  post_free(&o.q);
  return st;
}

/* The hyperparameters from at most SP_GP_FIT_MAX observations, spread
 * evenly over idx. */
static int estimate(const sp_gp_points *pts, const size_t *idx, const double *y, size_t n,
                    sp_gp_hyper *h) {
  prior_centre(h);
  if (n < MIN_POINTS_TO_FIT) return SP_OK;
  const size_t m = n < SP_GP_FIT_MAX ? n : SP_GP_FIT_MAX;
  size_t *sub = malloc(m * sizeof *sub);
  double *ys = malloc(m * sizeof *ys);
  int st = sub && ys ? SP_OK : SP_ENOMEM;
  for (size_t i = 0; !st && i < m; i++) {
    const size_t at = i * n / m;
    sub[i] = idx[at];
    ys[i] = y[at];
  }
  if (!st) st = maximise(pts, sub, ys, m, h);
  free(sub);
  free(ys);
  return st;
}

/* ---- the posterior over every candidate ---------------------------------- */

/* The mean at every candidate, with V holding K_x (the covariances of the
 * observations with the candidates) and R the trend's basis h(z_j). */
static int mean_all(sp_gp *gp, const post *q, const size_t *idx) {
  const sp_gp_points *pts = gp->pts;
  const size_t G = pts->n, n = q->m, p = q->p;
  gsl_vector *w = gsl_vector_alloc(n);
  if (!w) return SP_ENOMEM;
  /* w = K^-1 (y - H beta): the weights of the observations in the mean. */
  gsl_vector_memcpy(w, q->alpha);
  gsl_blas_dgemv(CblasNoTrans, -1.0, q->KH, q->u, 1.0, w);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < G; j++)
      gp->V[i * G + j] =
          gp->sf2 * matern52(point_at(pts, idx[i]), point_at(pts, j), pts->dim, gp->inv_ell);
  for (size_t j = 0; j < G; j++) {
    double h[1 + SP_GP_MAX_DIM], m = gp->ybar;
    basis(pts, j, h);
    for (size_t k = 0; k < p; k++) m += h[k] * gsl_vector_get(q->u, k);
    for (size_t i = 0; i < n; i++) m += gp->V[i * G + j] * gsl_vector_get(w, i);
    gp->mean[j] = m;
    for (size_t k = 0; k < p; k++) gp->R[k * G + j] = h[k];
  }
  gsl_vector_free(w);
  return SP_OK;
}

/* From K_x in V and h in R: R = h - (K^-1 H)' K_x, V = L^-1 K_x,
 * AR = A^-1 R, and the variance at every candidate,
 * sf2 - |V_j|^2 + R_j' A^-1 R_j. */
static void variance_all(sp_gp *gp, const post *q) {
  const size_t G = gp->pts->n, n = q->m, p = q->p;
  gsl_matrix_view V = gsl_matrix_view_array(gp->V, n, G);
  gsl_matrix_view R = gsl_matrix_view_array(gp->R, p, G);
  gsl_matrix_view AR = gsl_matrix_view_array(gp->AR, p, G);
  gsl_blas_dgemm(CblasTrans, CblasNoTrans, -1.0, q->KH, &V.matrix, 1.0, &R.matrix);
  gsl_blas_dtrsm(CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, 1.0, q->L, &V.matrix);
  gsl_matrix_memcpy(&AR.matrix, &R.matrix);
  gsl_blas_dtrsm(CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, 1.0, q->LA, &AR.matrix);
  gsl_blas_dtrsm(CblasLeft, CblasLower, CblasTrans, CblasNonUnit, 1.0, q->LA, &AR.matrix);
  for (size_t j = 0; j < G; j++) {
    double v = gp->sf2;
    for (size_t i = 0; i < n; i++) v -= gp->V[i * G + j] * gp->V[i * G + j];
    for (size_t k = 0; k < p; k++) v += gp->R[k * G + j] * gp->AR[k * G + j];
    gp->var[j] = v > 0.0 ? v : 0.0;
  }
}

void sp__gp_free(sp_gp *gp) {
  if (!gp) return;
  free(gp->mean);
  free(gp->var);
  free(gp->V);
  free(gp->R);
  free(gp->AR);
  free(gp);
}

static sp_gp *gp_alloc(const sp_gp_points *pts, size_t n) {
  sp_gp *gp = calloc(1, sizeof *gp);
  if (!gp) return NULL;
  const size_t G = pts->n, p = 1 + pts->dim;
  gp->pts = pts;
  gp->n = n;
  gp->p = p;
  gp->mean = malloc(G * sizeof(double));
  gp->var = malloc(G * sizeof(double));
  gp->V = malloc(n * G * sizeof(double));
  gp->R = malloc(p * G * sizeof(double));
  gp->AR = malloc(p * G * sizeof(double));
  if (gp->mean && gp->var && gp->V && gp->R && gp->AR) return gp;
  sp__gp_free(gp);
  return NULL;
}

int sp__gp_fit(const sp_gp_points *pts, const size_t *idx, const double *y, size_t n, sp_gp **out) {
  *out = NULL;
  assert(pts->dim <= SP_GP_MAX_DIM);
  if (n == 0) return SP_EINVAL;
  sp_gp *gp = gp_alloc(pts, n);
  double *yc = malloc(n * sizeof *yc);
  post q = {0};
  int st = gp && yc ? post_alloc(&q, n, 1 + pts->dim) : SP_ENOMEM;
  if (!st) {
    for (size_t i = 0; i < n; i++) gp->ybar += y[i] / (double)n;
    for (size_t i = 0; i < n; i++) yc[i] = y[i] - gp->ybar;
    st = estimate(pts, idx, yc, n, &gp->hyper);
  }
  if (!st) {
    set_scales(&gp->hyper, pts->dim, &gp->sf2, &gp->sn2, gp->inv_ell);
    st = isfinite(factor(&q, pts, idx, yc, &gp->hyper)) ? SP_OK : SP_ENUMERIC;
  }
  if (!st) st = mean_all(gp, &q, idx);
  if (!st) variance_all(gp, &q);
  post_free(&q);
  free(yc);
  if (st) {
    sp__gp_free(gp);
    return st;
  }
  *out = gp;
  return SP_OK;
}

double sp__gp_mean(const sp_gp *gp, size_t j) { return gp->mean[j]; }
double sp__gp_var(const sp_gp *gp, size_t j) { return gp->var[j]; }
const sp_gp_hyper *sp__gp_hyper(const sp_gp *gp) { return &gp->hyper; }

/* ---- batches ---------------------------------------------------------------- */

/* The posterior covariance of every candidate with candidate s, conditioned
 * on the t picks before it (their columns and variances-plus-noise d). */
static void cov_column(const sp_gp *gp, size_t s, const double *cols, const double *d, size_t t,
                       double *c) {
  const sp_gp_points *pts = gp->pts;
  const size_t G = pts->n;
  for (size_t j = 0; j < G; j++)
    c[j] = gp->sf2 * matern52(point_at(pts, j), point_at(pts, s), pts->dim, gp->inv_ell);
  for (size_t i = 0; i < gp->n; i++) {
    const double vs = gp->V[i * G + s];
    for (size_t j = 0; j < G; j++) c[j] -= gp->V[i * G + j] * vs;
  }
  for (size_t k = 0; k < gp->p; k++) {
    const double as = gp->AR[k * G + s];
    for (size_t j = 0; j < G; j++) c[j] += gp->R[k * G + j] * as;
  }
  for (size_t u = 0; u < t; u++) {
    const double f = cols[u * G + s] / d[u];
    for (size_t j = 0; j < G; j++) c[j] -= cols[u * G + j] * f;
  }
}

static size_t argmax_free(const double *score, const unsigned char *taken, size_t G) {
  size_t best = G;
  for (size_t j = 0; j < G; j++)
    if (!taken[j] && (best == G || score[j] > score[best])) best = j;
  return best;
}

/* Conditions process g's variances on a measurement at s, the t-th pick:
 * its covariance column goes to cols (batch columns per process) and its
 * variance plus noise to d, for the picks after it. */
static void condition(const sp_gp *gp, size_t s, size_t t, double *cols, double *d, double *var,
                      double *score) {
  const size_t G = gp->pts->n;
  double *c = cols + t * G;
  cov_column(gp, s, cols, d, t, c);
  d[t] = c[s] + gp->sn2;
  for (size_t j = 0; j < G; j++) {
    const double drop = c[j] * c[j] / d[t];
    var[j] -= drop;
    score[j] -= drop;
  }
}

/* A batch being picked: the processes, their variances conditioned on the
 * picks so far, and those picks' covariance columns (cols, batch per
 * process) and variances plus noise (d). */
struct sp_gp_picker {
  const sp_gp *const *gps;
  size_t ngp, batch, t, G;
  double *score, *var, *cols, *d;
};

void sp__gp_picker_free(sp_gp_picker *pk) {
  if (!pk) return;
  free(pk->score);
  free(pk->var);
  free(pk->cols);
  free(pk->d);
  free(pk);
}

sp_gp_picker *sp__gp_picker_alloc(const sp_gp *const *gps, size_t ngp, size_t batch) {
  assert(ngp >= 1);
  sp_gp_picker *pk = calloc(1, sizeof *pk);
  if (!pk) return NULL;
  const size_t G = gps[0]->pts->n;
  *pk = (sp_gp_picker){gps, ngp, batch, 0, G, NULL, NULL, NULL, NULL};
  pk->score = calloc(G, sizeof *pk->score);
  pk->var = malloc(ngp * G * sizeof *pk->var);
  pk->cols = malloc((batch * ngp * G + 1) * sizeof *pk->cols);
  pk->d = malloc((batch * ngp + 1) * sizeof *pk->d);
  if (!pk->score || !pk->var || !pk->cols || !pk->d) {
    sp__gp_picker_free(pk);
    return NULL;
  }
  for (size_t g = 0; g < ngp; g++)
    for (size_t j = 0; j < G; j++) pk->score[j] += pk->var[g * G + j] = gps[g]->var[j];
  return pk;
}

const double *sp__gp_picker_var(const sp_gp_picker *pk) { return pk->score; }

void sp__gp_picker_take(sp_gp_picker *pk, size_t s) {
  assert(pk->t < pk->batch && s < pk->G);
  const size_t G = pk->G;
  for (size_t g = 0; g < pk->ngp; g++)
    condition(pk->gps[g], s, pk->t, pk->cols + g * pk->batch * G, pk->d + g * pk->batch,
              pk->var + g * G, pk->score);
  pk->t++;
}

size_t sp__gp_pick(const sp_gp *const *gps, size_t ngp, const unsigned char *measured, size_t batch,
                   size_t *out) {
  const size_t G = gps[0]->pts->n;
  sp_gp_picker *pk = sp__gp_picker_alloc(gps, ngp, batch);
  unsigned char *taken = malloc(G + 1);
  size_t got = (size_t)-1;
  if (pk && taken) {
    memcpy(taken, measured, G);
    for (got = 0; got < batch; got++) {
      const size_t s = argmax_free(pk->score, taken, G);
      if (s == G) break;
      out[got] = s;
      taken[s] = 1;
      sp__gp_picker_take(pk, s);
    }
  }
  sp__gp_picker_free(pk);
  free(taken);
  return got;
}
