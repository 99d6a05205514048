/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lowrank.c: low-rank completion of the (kernel x configuration) matrix of
 * log time (or power) ratios to each kernel's base, by alternating ridge
 * least squares (docs/sweeps.md, "The shared surrogate").
 *
 * The model of entry (k, j) is mu_j + U_k'V_j: a mean shape mu over the
 * grid plus r shapes V, which each kernel mixes with its own weights U_k.
 * The scaling surfaces of a suite of kernels are strongly related (compute
 * bound, memory bound, latency bound and their mixtures), so a few shapes
 * explain most of them, and a kernel measured at a few configurations
 * borrows the rest of its surface from the kernels measured elsewhere.
 * Alternating least squares fixes V and solves every U_k (an r x r ridge
 * regression on the kernel's observed entries), then fixes U and solves
 * every (mu_j, V_j); the ridge lambda keeps both sane where a kernel or a
 * column has fewer entries than unknowns.
 *
 * The rank (0 to SP_LOWRANK_MAX_RANK) and lambda are chosen by K-fold
 * cross-validation over the observed entries off the base column (the base
 * column is 0 by construction and always kept): the pair with the least
 * held-out squared error, the smaller rank and larger ridge on a tie.  The
 * same held-out errors, per column, are the completion's uncertainty.
 * Nothing is chosen on entries the caller has not observed.
 */
#include "lowrank.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "scalepredict.h"

/* The ridges tried: from nearly none to one that halves a column mean
 * seen once.  Entries are log ratios, mostly within +-2. */
static const double ridges[] = {0.01, 0.1, 1.0};
#define NRIDGE (sizeof ridges / sizeof ridges[0])

/* Cross-validation folds, and the fewest held-out entries worth a
 * choice: below it the rank is 0 and the ridge the largest. */
#define FOLDS 4
#define MIN_CV_ENTRIES (2 * FOLDS)
/* Sweeps of alternating least squares: each is a closed-form step that
 * cannot increase the objective, and the fits here settle within a few
 * dozen. */
#define ALS_SWEEPS 25
/* The starting shapes: small Gaussian values, so that no two are equal. */
#define INIT_SD 0.1
/* A column's own cross-validated error counts as this many entries
 * against the whole matrix's, so one held-out entry does not decide it. */
#define SHRINK_ENTRIES 2.0

#define R1 (SP_LOWRANK_MAX_RANK + 1)

struct sp_lowrank {
  size_t K, G, rank;
  double lambda, mse;
  double *mu;  /* G */
  double *U;   /* K x SP_LOWRANK_MAX_RANK */
  double *V;   /* G x SP_LOWRANK_MAX_RANK */
  double *err; /* G */
};

/* ---- alternating least squares ------------------------------------------- */

/* Solves A x = b in place (b becomes x) for a symmetric positive definite
 * A of order n <= R1, by Cholesky; A is overwritten. */
static void spd_solve(double *A, double *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j <= i; j++) {
      double s = A[i * n + j];
      for (size_t k = 0; k < j; k++) s -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = i == j ? sqrt(s > 0.0 ? s : 1e-300) : s / A[j * n + j];
    }
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < i; k++) b[i] -= A[i * n + k] * b[k];
    b[i] /= A[i * n + i];
  }
  for (size_t i = n; i-- > 0;) {
    for (size_t k = i + 1; k < n; k++) b[i] -= A[k * n + i] * b[k];
    b[i] /= A[i * n + i];
  }
}

static double predict(const sp_lowrank *m, size_t k, size_t j) {
  double v = m->mu[j];
  for (size_t l = 0; l < m->rank; l++)
    v += m->U[k * SP_LOWRANK_MAX_RANK + l] * m->V[j * SP_LOWRANK_MAX_RANK + l];
  return v;
}

/* U_k given mu and V, from the entries of row k that use marks. */
static void solve_row(sp_lowrank *m, const double *Y, const unsigned char *use, size_t k) {
  const size_t r = m->rank, G = m->G;
  double A[R1 * R1] = {0}, b[R1] = {0};
  for (size_t l = 0; l < r; l++) A[l * r + l] = m->lambda;
  for (size_t j = 0; j < G; j++) {
    if (!use[k * G + j]) continue;
    const double *v = m->V + j * SP_LOWRANK_MAX_RANK, y = Y[k * G + j] - m->mu[j];
    for (size_t a = 0; a < r; a++) {
      b[a] += y * v[a];
      for (size_t c = 0; c < r; c++) A[a * r + c] += v[a] * v[c];
    }
  }
  spd_solve(A, b, r);
  memcpy(m->U + k * SP_LOWRANK_MAX_RANK, b, r * sizeof *b);
}

/* (mu_j, V_j) given U, from the entries of column j that use marks. */
static void solve_column(sp_lowrank *m, const double *Y, const unsigned char *use, size_t j) {
  const size_t n = m->rank + 1, G = m->G;
  double A[R1 * R1] = {0}, b[R1] = {0}, x[R1];
  for (size_t l = 0; l < n; l++) A[l * n + l] = m->lambda;
  for (size_t k = 0; k < m->K; k++) {
    if (!use[k * G + j]) continue;
    x[0] = 1.0;
    memcpy(x + 1, m->U + k * SP_LOWRANK_MAX_RANK, m->rank * sizeof *x);
    for (size_t a = 0; a < n; a++) {
      b[a] += Y[k * G + j] * x[a];
      for (size_t c = 0; c < n; c++) A[a * n + c] += x[a] * x[c];
    }
  }
  spd_solve(A, b, n);
  m->mu[j] = b[0];
  memcpy(m->V + j * SP_LOWRANK_MAX_RANK, b + 1, m->rank * sizeof *b);
}

/* Fits m (rank and lambda set) to the entries use marks: the column means
 * first, starting shapes from rng, then ALS_SWEEPS sweeps. */
static void als(sp_lowrank *m, const double *Y, const unsigned char *use, gsl_rng *rng) {
  const size_t r = m->rank;
  m->rank = 0;
  for (size_t j = 0; j < m->G; j++) solve_column(m, Y, use, j);
  m->rank = r;
  for (size_t j = 0; j < m->G; j++)
    for (size_t l = 0; l < r; l++)
      m->V[j * SP_LOWRANK_MAX_RANK + l] = gsl_ran_gaussian(rng, INIT_SD);
  for (int s = 0; s < ALS_SWEEPS && r; s++) {
    for (size_t k = 0; k < m->K; k++) solve_row(m, Y, use, k);
    for (size_t j = 0; j < m->G; j++) solve_column(m, Y, use, j);
  }
}

/* ---- choosing the rank and the ridge -------------------------------------- */

typedef struct cv {
  size_t *entry; /* observed entries off the base column, shuffled */
  size_t n;
  unsigned char *use;
  double *sse, *cnt; /* per column, of the candidate being scored */
} cv;

/* The held-out squared error of (rank, lambda) over every fold; per
 * column into c->sse and c->cnt. */
static double cv_score(sp_lowrank *m, const double *Y, const unsigned char *obs, cv *c,
                       unsigned long seed) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!rng) return NAN;
  double total = 0.0;
  memset(c->sse, 0, m->G * sizeof *c->sse);
  memset(c->cnt, 0, m->G * sizeof *c->cnt);
  for (size_t f = 0; f < FOLDS; f++) {
    memcpy(c->use, obs, m->K * m->G);
    for (size_t i = f; i < c->n; i += FOLDS) c->use[c->entry[i]] = 0;
    gsl_rng_set(rng, seed + f);
    als(m, Y, c->use, rng);
    for (size_t i = f; i < c->n; i += FOLDS) {
      const size_t e = c->entry[i], k = e / m->G, j = e % m->G;
      const double d = predict(m, k, j) - Y[e];
      total += d * d;
      c->sse[j] += d * d;
      c->cnt[j] += 1.0;
    }
  }
  gsl_rng_free(rng);
  return total;
}

/* The per-column error variances of the chosen candidate. */
static void column_errors(sp_lowrank *m, const cv *c) {
  for (size_t j = 0; j < m->G; j++)
    m->err[j] = (c->sse[j] + SHRINK_ENTRIES * m->mse) / (c->cnt[j] + SHRINK_ENTRIES);
}

static int choose(sp_lowrank *m, const double *Y, const unsigned char *obs, cv *c,
                  unsigned long seed) {
  double best = INFINITY, *sse = malloc(m->G * sizeof *sse), *cnt = malloc(m->G * sizeof *cnt);
  if (!sse || !cnt) {
    free(sse);
    free(cnt);
    return SP_ENOMEM;
  }
  size_t best_r = 0;
  double best_l = ridges[NRIDGE - 1];
  for (size_t r = 0; r <= SP_LOWRANK_MAX_RANK; r++)
    for (size_t i = NRIDGE; i-- > 0;) {
      m->rank = r;
      m->lambda = ridges[i];
      const double s = cv_score(m, Y, obs, c, seed);
      if (!(s < best)) continue;
      best = s;
      best_r = r;
      best_l = ridges[i];
      memcpy(sse, c->sse, m->G * sizeof *sse);
      memcpy(cnt, c->cnt, m->G * sizeof *cnt);
    }
  m->rank = best_r;
  m->lambda = best_l;
  m->mse = best / (double)c->n;
  memcpy(c->sse, sse, m->G * sizeof *sse);
  memcpy(c->cnt, cnt, m->G * sizeof *cnt);
  free(sse);
  free(cnt);
  column_errors(m, c);
  return SP_OK;
}

/* The observed entries off the base column, in an order fixed by seed. */
static int shuffle_entries(const unsigned char *obs, size_t K, size_t G, size_t base,
                           unsigned long seed, cv *c) {
  c->n = 0;
  for (size_t e = 0; e < K * G; e++)
    if (obs[e] && e % G != base) c->entry[c->n++] = e;
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!rng) return SP_ENOMEM;
  gsl_rng_set(rng, seed);
  if (c->n > 1) gsl_ran_shuffle(rng, c->entry, c->n, sizeof *c->entry);
  gsl_rng_free(rng);
  return SP_OK;
}

/* ---- columns no kernel observed ------------------------------------------- */

/* Interpolates one coefficient of the columns (mu, or a shape: stride and
 * offset into vals) from the observed columns idx[0..n); with add_var the
 * interpolation's variance is added to err there. */
static int interpolate(sp_lowrank *m, const sp_gp_points *pts, const size_t *idx, size_t n,
                       double *vals, size_t stride, int add_var, double *y) {
  for (size_t i = 0; i < n; i++) y[i] = vals[idx[i] * stride];
  sp_gp *gp = NULL;
  int st = sp__gp_fit(pts, idx, y, n, &gp);
  if (st) return st;
  size_t i = 0;
  for (size_t j = 0; j < m->G; j++) {
    if (i < n && idx[i] == j) {
      i++;
      continue;
    }
    vals[j * stride] = sp__gp_mean(gp, j);
    if (add_var) m->err[j] = (isfinite(m->mse) ? m->mse : 0.0) + sp__gp_var(gp, j);
  }
  sp__gp_free(gp);
  return SP_OK;
}

static int fill_unobserved(sp_lowrank *m, const unsigned char *obs, const sp_gp_points *pts) {
  size_t *idx = malloc(m->G * sizeof *idx), n = 0;
  double *y = malloc(m->G * sizeof *y);
  int st = idx && y ? SP_OK : SP_ENOMEM;
  for (size_t j = 0; j < m->G && !st; j++) {
    size_t seen = 0;
    for (size_t k = 0; k < m->K && !seen; k++) seen = obs[k * m->G + j];
    if (seen) idx[n++] = j;
  }
  if (!st && n && n < m->G) {
    st = interpolate(m, pts, idx, n, m->mu, 1, 1, y);
    for (size_t l = 0; l < m->rank && !st; l++)
      st = interpolate(m, pts, idx, n, m->V + l, SP_LOWRANK_MAX_RANK, 0, y);
  }
  free(idx);
  free(y);
  return st;
}

/* ---- the fit ---------------------------------------------------------------- */

void sp__lowrank_free(sp_lowrank *lr) {
  if (!lr) return;
  free(lr->mu);
  free(lr->U);
  free(lr->V);
  free(lr->err);
  free(lr);
}

static sp_lowrank *lowrank_alloc(size_t K, size_t G) {
  sp_lowrank *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->K = K;
  m->G = G;
  m->mse = NAN;
  m->lambda = ridges[NRIDGE - 1];
  m->mu = calloc(G, sizeof *m->mu);
  m->U = calloc(K * SP_LOWRANK_MAX_RANK + 1, sizeof *m->U);
  m->V = calloc(G * SP_LOWRANK_MAX_RANK + 1, sizeof *m->V);
  m->err = calloc(G, sizeof *m->err);
  if (m->mu && m->U && m->V && m->err) return m;
  sp__lowrank_free(m);
  return NULL;
}

static int fit_all(sp_lowrank *m, const double *Y, unsigned char *obs, size_t base,
                   const sp_gp_points *pts, unsigned long seed) {
  cv c = {malloc((m->K * m->G + 1) * sizeof(size_t)), 0, malloc(m->K * m->G + 1),
          malloc(m->G * sizeof(double)), malloc(m->G * sizeof(double))};
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  int st = c.entry && c.use && c.sse && c.cnt && rng ? SP_OK : SP_ENOMEM;
  for (size_t e = 0; e < m->K * m->G; e++) obs[e] = isfinite(Y[e]);
  if (!st) st = shuffle_entries(obs, m->K, m->G, base, seed, &c);
  if (!st && c.n >= MIN_CV_ENTRIES) st = choose(m, Y, obs, &c, seed);
  if (!st) {
    gsl_rng_set(rng, seed);
    als(m, Y, obs, rng);
    st = fill_unobserved(m, obs, pts);
  }
  gsl_rng_free(rng);
  free(c.entry);
  free(c.use);
  free(c.sse);
  free(c.cnt);
  return st;
}

int sp__lowrank_fit(const double *Y, size_t K, size_t G, size_t base, const sp_gp_points *pts,
                    unsigned long seed, sp_lowrank **out) {
  assert(pts->n == G && base < G);
  *out = NULL;
  sp_lowrank *m = lowrank_alloc(K, G);
  unsigned char *obs = malloc(K * G + 1);
  int st = m && obs ? fit_all(m, Y, obs, base, pts, seed) : SP_ENOMEM;
  free(obs);
  if (st) {
    sp__lowrank_free(m);
    return st;
  }
  *out = m;
  return SP_OK;
}

double sp__lowrank_mean(const sp_lowrank *lr, size_t k, size_t j) { return predict(lr, k, j); }
double sp__lowrank_err(const sp_lowrank *lr, size_t j) { return lr->err[j]; }
size_t sp__lowrank_rank(const sp_lowrank *lr) { return lr->rank; }
double sp__lowrank_lambda(const sp_lowrank *lr) { return lr->lambda; }
double sp__lowrank_cv_rmse(const sp_lowrank *lr) { return sqrt(lr->mse); }
