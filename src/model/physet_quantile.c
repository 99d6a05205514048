/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_quantile.c: the weighted quantiles of the similar kernels'
 * residuals (physet_quantile.h).  The walk orders the kernels at a point
 * and adds their weights until each share is reached.  Over a whole grid
 * two ways give its answers without ordering each point afresh: on a grid
 * of clock pairs the order of neighbouring points mostly holds, so each
 * point is ordered by insertion from the previous one's; and often the
 * weights alone decide the tails, whatever the order. */
#include "physet_quantile.h"

#include <assert.h>
#include <float.h>
#include <string.h>

void sp__quantiles_walk(const wval *buf, size_t k, const double *w, double *lo, double *mid,
                        double *hi) {
  qwalk q = {{lo, mid, hi}, 0, INFINITY, 0};
  for (size_t t = 0; t < k && !sp__qwalk_add(&q, w[buf[t].j], buf[t].v); t++) continue;
  sp__qwalk_end(&q);
}

/* Moves the kernel at place t of the order (v, t_of: residuals and places
 * in nz; wt, row: weights and rows) down to where its residual x belongs,
 * equal residuals by kernel.  Each its own array: a {residual, kernel}
 * pair moved as one was read back before its two halves' stores had
 * landed (20% of the pass on one instruction). */
static void insert(double *v, size_t *t_of, double *wt, const double **row, size_t t, double x) {
  const size_t j = t_of[t];
  const double xw = wt[t], *xr = row[t];
  size_t u = t;
  for (; u > 0 && (x < v[u - 1] || (x == v[u - 1] && j < t_of[u - 1])); u--) {
    v[u] = v[u - 1];
    t_of[u] = t_of[u - 1];
    wt[u] = wt[u - 1];
    row[u] = row[u - 1];
  }
  v[u] = x;
  t_of[u] = j;
  wt[u] = xw;
  row[u] = xr;
}

void sp__quantiles_few(const double *res, size_t g, const size_t *nz, size_t k, const double *w,
                       double *lo, double *mid, double *hi) {
  /* the kernels in their order at the point before */
  const double *row[SP_QUANTILES_FEW];
  double v[SP_QUANTILES_FEW], wt[SP_QUANTILES_FEW];
  size_t t_of[SP_QUANTILES_FEW];
  assert(k <= SP_QUANTILES_FEW);
  for (size_t t = 0; t < k; t++) {
    row[t] = res + nz[t] * g;
    wt[t] = w[nz[t]];
    t_of[t] = t;
  }
  for (size_t i = 0; i < g; i++) {
    for (size_t t = 0; t < k; t++) insert(v, t_of, wt, row, t, row[t][i]);
    qwalk q = {{&lo[i], mid ? &mid[i] : NULL, &hi[i]}, 0, INFINITY, 0};
    for (size_t t = 0; t < k && !sp__qwalk_add(&q, wt[t], v[t]); t++) continue;
    sp__qwalk_end(&q);
  }
}

/* The walk's TAIL and 1 - TAIL quantiles depend on the order at a point
 * only through the light kernels (weighing under TAIL).  When those weigh
 * under TAIL together and the heavy ones each over TAIL, the walk reaches
 * TAIL at the first heavy kernel in order (the light ones before it
 * cannot, and it can alone); when besides no heavy kernel but one weighs
 * over 1 - TAIL with the light ones, it reaches 1 - TAIL at the last
 * heavy kernel and not before: the least and the greatest of the heavy
 * kernels' residuals.  Margins of 4 rounding errors per kernel keep every
 * comparison of the walk's running sum, in whatever order it adds, on the
 * same side. */
size_t sp__quantiles_heavy(const double *res, size_t g, const size_t *nz, size_t k, const double *w,
                           const double **rows) {
  const double m = 4 * DBL_EPSILON * (double)k;
  double total = 0, light = 0, least = INFINITY;
  size_t h = 0;
  for (size_t t = 0; t < k; t++) {
    const double x = w[nz[t]];
    total += x;
    if (x < TAIL + m) {
      light += x;
      continue;
    }
    if (h == SP_QUANTILES_HEAVY) return 0;
    rows[h++] = res + nz[t] * g;
    least = x < least ? x : least;
  }
  int decided =
      h && light < TAIL - m && total - least < 1 - TAIL - m && total - light >= 1 - TAIL + m;
  return decided ? h : 0;
}

/* Among equal residuals the walk's order puts the earlier kernel first:
 * the least is the first kernel's, the greatest the last's (0 and -0 are
 * equal and differ in sign). */
void sp__quantiles_extremes(const double **rows, size_t h, size_t g, double *lo, double *hi) {
  assert(h > 0);
  memcpy(lo, rows[0], g * sizeof *lo);
  memcpy(hi, rows[0], g * sizeof *hi);
  for (size_t t = 1; t < h; t++) {
    const double *r = rows[t];
    for (size_t i = 0; i < g; i++) {
      lo[i] = r[i] < lo[i] ? r[i] : lo[i];
      hi[i] = r[i] >= hi[i] ? r[i] : hi[i];
    }
  }
}
