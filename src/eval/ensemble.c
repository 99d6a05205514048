/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ensemble.c: see ensemble.h. */
#include "ensemble.h"

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

/* A pivot below this is zero: the subset's system is singular (the ridge
 * below keeps a regular one's pivots far above it). */
#define PIVOT_ZERO 1e-300
/* The ridge, relative to the Gram matrix's trace, that keeps two identical
 * members from making a subset singular, yet moves no weight measurably. */
#define RIDGE_REL 1e-12
/* A weight below -WEIGHT_TOL is negative (the subset is infeasible); above
 * it, rounding of a zero weight. */
#define WEIGHT_TOL 1e-12
/* A subset must beat the best so far by this relative margin, so that
 * rounding cannot make the choice depend on the enumeration order. */
#define OBJ_MARGIN 1e-12

/* Solves the (k+1) x (k+1) system a x = rhs in place by Gaussian
 * elimination with partial pivoting; -1 when it is singular. */
static int gauss(double a[MAXM + 1][MAXM + 2], size_t k) {
  for (size_t c = 0; c < k; c++) {
    size_t piv = c;
    for (size_t r = c + 1; r < k; r++)
      if (fabs(a[r][c]) > fabs(a[piv][c])) piv = r;
    if (fabs(a[piv][c]) < PIVOT_ZERO) return -1;
    if (piv != c)
      for (size_t j = 0; j <= k; j++) {
        double t = a[c][j];
        a[c][j] = a[piv][j];
        a[piv][j] = t;
      }
    for (size_t r = 0; r < k; r++) {
      if (r == c) continue;
      double f = a[r][c] / a[c][c];
      for (size_t j = c; j <= k; j++) a[r][j] -= f * a[c][j];
    }
  }
  for (size_t r = 0; r < k; r++) a[r][k] /= a[r][r];
  return 0;
}

static int popcount(unsigned v) {
  int n = 0;
  for (; v; v &= v - 1) n++;
  return n;
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
      double a[MAXM + 1][MAXM + 2];
      for (size_t r = 0; r < k; r++) {
        for (size_t c = 0; c < k; c++) a[r][c] = G[idx[r] * m + idx[c]] + (r == c ? eps : 0);
        a[r][k] = 1.0;
        a[r][k + 1] = b[idx[r]];
      }
      for (size_t c = 0; c < k; c++) a[k][c] = 1.0;
      a[k][k] = 0.0;
      a[k][k + 1] = 1.0;
      if (gauss(a, k + 1)) continue;
      int feasible = 1;
      double obj = 0, v[MAXM];
      for (size_t r = 0; r < k; r++) {
        v[r] = a[r][k + 1];
        if (v[r] < -WEIGHT_TOL) feasible = 0;
      }
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
static void gram(const double *P, const double *y, const double *r, size_t m, size_t n,
                 double *G, double *b) {
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
