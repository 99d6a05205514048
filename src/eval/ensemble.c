/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ensemble.c: see ensemble.h. */
#include "ensemble.h"

#include <assert.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scalepredict.h"

enum { MAXM = 16 };

int sp__stack_fit_members(const sp_stack_data *d, sp_stack_fit *f) {
  const size_t n = d->bd->n, g = d->bd->g, w = g + SP_MIX_TERMS;
  memset(f, 0, sizeof *f);
  double *y = malloc((n * w + 1) * sizeof *y);
  if (!y) return SP_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    memcpy(y + i * w, d->bd->logr + i * g, g * sizeof *y);
    memcpy(y + i * w + g, d->shares + i * SP_MIX_TERMS, SP_MIX_TERMS * sizeof *y);
  }
  sp_baseline_data jd = {n, d->bd->p, w, d->bd->x, y};
  int st = sp__ridge_fit(&jd, &f->joint);
  free(y);
  return st;
}

void sp__stack_fit_free(sp_stack_fit *f) {
  sp__ridge_free(f->joint);
  memset(f, 0, sizeof *f);
}

void sp__stack_members(const sp_stack_data *d, const sp_stack_fit *f, const double *x,
                       const double *z, double *out) {
  const size_t g = d->bd->g;
  double *lin = out + SP_STACK_LINEAR * g, *mix = out + SP_STACK_MIX * g;
  double shares[SP_MIX_TERMS];
  sp__baseline_nearest(d->bd, x, out + SP_STACK_NEAREST * g);
  sp__baseline_knn(d->zd, z, SP_KNN_NEIGHBOURS, out + SP_STACK_KNN * g);
  /* The last row (constant, zeroed below) and the SP_MIX_TERMS values
   * after it hold the joint fit's predictions meanwhile. */
  double *joint = out + SP_STACK_CONSTANT * g;
  sp__ridge_predict(f->joint, x, joint);
  memcpy(lin, joint, g * sizeof *lin);
  memcpy(shares, joint + g, sizeof shares);
  sp__mix_apply(d->basis, shares, g, mix);
  for (size_t t = 0; t < g; t++) mix[t] = log(mix[t]);
  memset(out + SP_STACK_CONSTANT * g, 0, g * sizeof(double));
}

/* The ridge, relative to the Gram matrix's trace, that keeps two identical
 * members from making a subset singular, yet moves no weight measurably. */
#define RIDGE_REL 1e-12
/* A weight below -WEIGHT_TOL is negative (the subset is infeasible); above
 * it, rounding of a zero weight. */
#define WEIGHT_TOL 1e-12
/* A subset must beat the best so far by this relative margin, so that
 * rounding cannot make the choice depend on the enumeration order. */
#define OBJ_MARGIN 1e-12

/* Solves the n x n system a x = rhs (a row-major, overwritten by its LU
 * factors; rhs overwritten by x) by GSL's LU decomposition with partial
 * pivoting; -1 when it is singular. */
static int lu_solve(double *a, double *rhs, size_t n) {
  assert(n <= MAXM + 1);
  gsl_matrix_view A = gsl_matrix_view_array(a, n, n);
  gsl_vector_view x = gsl_vector_view_array(rhs, n);
  size_t order[MAXM + 1];
  gsl_permutation perm = {n, order};
  int signum;
  if (gsl_linalg_LU_decomp(&A.matrix, &perm, &signum)) return -1;
  return gsl_linalg_LU_svx(&A.matrix, &perm, &x.vector) ? -1 : 0;
}

static int popcount(unsigned v) {
  int n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

/* The weights v (k values) of the subset idx (k of the m members) with
 * sum(v) = 1 that minimize v'(G + eps I)v - 2b'v: the optimality conditions
 * (G + eps I) v + mu 1 = b and 1'v = 1 are one (k+1) x (k+1) system in v
 * and the multiplier mu.  -1 when it is singular. */
static int subset_weights(const double *G, const double *b, size_t m, const size_t *idx, size_t k,
                          double eps, double *v) {
  const size_t n = k + 1;
  double a[(MAXM + 1) * (MAXM + 1)];
  for (size_t r = 0; r < k; r++) {
    for (size_t c = 0; c < k; c++) a[r * n + c] = G[idx[r] * m + idx[c]] + (r == c ? eps : 0);
    a[r * n + k] = 1.0;
    v[r] = b[idx[r]];
  }
  for (size_t c = 0; c < k; c++) a[k * n + c] = 1.0;
  a[k * n + k] = 0.0;
  v[k] = 1.0;
  return lu_solve(a, v, n);
}

/* The constrained least squares on the Gram form: minimize
 * w'Gw - 2b'w subject to sum(w) = 1, w >= 0, over every subset. */
static void solve_gram(const double *G, const double *b, size_t m, double *w) {
  double best = INFINITY, trace = 0;
  for (size_t i = 0; i < m; i++) trace += G[i * m + i];
  /* A relative ridge keeps identical members (nearest and knn can agree
   * everywhere) from making every subset holding both singular. */
  const double eps = RIDGE_REL * (trace > 0 ? trace : 1.0);
  for (size_t i = 0; i < m; i++) w[i] = i == 0 ? 1.0 : 0.0;
  for (int size = 1; size <= (int)m; size++)
    for (unsigned s = 1; s < (1u << m); s++) {
      if (popcount(s) != size) continue;
      size_t idx[MAXM], k = 0;
      for (size_t i = 0; i < m; i++)
        if (s >> i & 1u) idx[k++] = i;
      double v[MAXM + 1]; /* the weights, then the multiplier */
      if (subset_weights(G, b, m, idx, k, eps, v)) continue;
      int feasible = 1;
      double obj = 0;
      for (size_t r = 0; r < k; r++)
        if (v[r] < -WEIGHT_TOL) feasible = 0;
      if (!feasible) continue;
      for (size_t r = 0; r < k; r++) {
        for (size_t c = 0; c < k; c++) obj += v[r] * G[idx[r] * m + idx[c]] * v[c];
        obj -= 2.0 * b[idx[r]] * v[r];
      }
      if (isinf(best) || obj < best - OBJ_MARGIN * fabs(best)) {
        best = obj;
        memset(w, 0, m * sizeof *w);
        for (size_t r = 0; r < k; r++) w[idx[r]] = v[r] > 0 ? v[r] : 0.0;
      }
    }
}

/* Member-weighted Gram matrix and cross products of P (m rows of n) and y,
 * each column t counted with weight r[t] (1 when r is NULL). */
static void gram(const double *P, const double *y, const double *r, size_t m, size_t n, double *G,
                 double *b) {
  memset(G, 0, m * m * sizeof *G);
  memset(b, 0, m * sizeof *b);
  for (size_t i = 0; i < m; i++) {
    for (size_t j = 0; j <= i; j++) {
      double acc = 0;
      for (size_t t = 0; t < n; t++) acc += (r ? r[t] : 1.0) * P[i * n + t] * P[j * n + t];
      G[i * m + j] = G[j * m + i] = acc;
    }
    for (size_t t = 0; t < n; t++) b[i] += (r ? r[t] : 1.0) * P[i * n + t] * y[t];
  }
}

void sp__stack_solve(const double *P, const double *y, size_t m, size_t n, double *w) {
  double G[MAXM * MAXM], b[MAXM];
  /* GSL's default handler aborts on a singular subset; it is skipped. */
  gsl_set_error_handler_off();
  if (m > MAXM) m = MAXM;
  gram(P, y, NULL, m, n, G, b);
  solve_gram(G, b, m, w);
}

/* Copies the rows of src (rows of width w) other than row skip into dst. */
static void drop_row(const double *src, size_t n, size_t w, size_t skip, double *dst) {
  memcpy(dst, src, skip * w * sizeof(double));
  memcpy(dst + skip * w, src + (skip + 1) * w, (n - skip - 1) * w * sizeof(double));
}

/* Iterations of reweighted least squares and the residual below which an
 * error counts as this small (a hundredth of a percent in log ratio). */
#define L1_ITERATIONS 30
#define L1_FLOOR 1e-4

int sp__stack_solve_l1(const double *P, const double *y, size_t m, size_t n, double *w) {
  double G[MAXM * MAXM], b[MAXM];
  double *r = malloc((n + 1) * sizeof *r);
  if (!r) return SP_ENOMEM;
  if (m > MAXM) m = MAXM;
  sp__stack_solve(P, y, m, n, w); /* the least-squares start */
  for (int it = 0; it < L1_ITERATIONS; it++) {
    for (size_t t = 0; t < n; t++) {
      double e = -y[t];
      for (size_t i = 0; i < m; i++) e += w[i] * P[i * n + t];
      r[t] = 1.0 / fmax(fabs(e), L1_FLOOR);
    }
    gram(P, y, r, m, n, G, b);
    solve_gram(G, b, m, w);
  }
  free(r);
  return SP_OK;
}

int sp__stack_weights_loo(const sp_stack_data *d, size_t skip, double *w) {
  enum { M = SP_STACK_MEMBERS };
  const size_t n = d->bd->n, p = d->bd->p, g = d->bd->g;
  if (n < 3) { /* too few kernels to leave one out: the nearest kernel */
    for (size_t i = 0; i < M; i++) w[i] = i == SP_STACK_NEAREST;
    return SP_OK;
  }
  const size_t cols = n * (g - 1);
  double *x = malloc(((n - 1) * p + 1) * sizeof(double));
  double *z = malloc(((n - 1) * p + 1) * sizeof(double));
  double *logr = malloc(((n - 1) * g + 1) * sizeof(double));
  double *shares = malloc(((n - 1) * SP_MIX_TERMS + 1) * sizeof(double));
  double *pred = malloc((M * g + SP_MIX_TERMS) * sizeof(double));
  double *P = malloc((M * cols + 1) * sizeof(double)), *y = malloc((cols + 1) * sizeof(double));
  int st = (!x || !z || !logr || !shares || !pred || !P || !y) ? SP_ENOMEM : SP_OK;
  size_t col = 0;
  for (size_t i = 0; i < n && !st; i++) {
    drop_row(d->bd->x, n, p, i, x);
    drop_row(d->zd->x, n, p, i, z);
    drop_row(d->bd->logr, n, g, i, logr);
    drop_row(d->shares, n, SP_MIX_TERMS, i, shares);
    sp_baseline_data bd = {n - 1, p, g, x, logr}, zd = {n - 1, p, g, z, logr};
    sp_stack_data inner = {&bd, &zd, shares, d->basis};
    sp_stack_fit f;
    st = sp__stack_fit_members(&inner, &f);
    if (st) break;
    sp__stack_members(&inner, &f, d->bd->x + i * p, d->zd->x + i * p, pred);
    sp__stack_fit_free(&f);
    for (size_t t = 0; t < g; t++) {
      if (t == skip) continue;
      for (size_t a = 0; a < M; a++) P[a * cols + col] = pred[a * g + t];
      y[col++] = d->bd->logr[i * g + t];
    }
  }
  if (!st) st = sp__stack_solve_l1(P, y, M, col, w);
  free(x);
  free(z);
  free(logr);
  free(shares);
  free(pred);
  free(P);
  free(y);
  return st;
}
