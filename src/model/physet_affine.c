/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_affine.c: the block-count line (physet_affine.h). */
#include "physet_affine.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/status.h"

/* The line through the base (ratio 1) and ratio r at a CU count whose
 * busiest CU runs w blocks in turn (wb at the base): its constant share
 * *a and step *b, both of the base time.  0 when there is no such line
 * with a >= AFFINE_A_MIN and b > 0. */
static int line_through(double r, double w, double wb, double *a, double *b) {
  if (w == wb || !(r > 0) || !isfinite(r)) return 0;
  *b = (r - 1) / (w - wb);
  *a = 1 - *b * wb;
  return *b > 0 && *a >= AFFINE_A_MIN;
}

/* The check's features after the kernel's own nf in x (nf + AFFINE_FEATS):
 * the measured log ratio, the line's log step in blocks, the log CU ratio
 * and the constant share. */
static void check_features(const double *feat, size_t nf, double r, double w, double wb,
                           double cu_ratio, double a, double *x) {
  memcpy(x, feat, nf * sizeof *x);
  x[nf] = log(r);
  x[nf + 1] = log(w / wb);
  x[nf + 2] = log(cu_ratio);
  x[nf + 3] = a;
}

/* Mean |line / measured - 1| of kernel j's CU counts other than the base
 * and c2 (indices into the CU axis), or NaN when none is measured. */
static double line_error(const sp_physet *p, const double *lt, double blocks, size_t c2, double a,
                         double b) {
  const sp_grid *g = &p->grid[SP_TIME];
  double sum = 0;
  size_t k = 0;
  for (size_t c = 0; c < g->n[0]; c++) {
    double y = lt[p->cu_at[c]];
    if (c == c2 || g->v[0][c] == p->base.cu || !isfinite(y)) continue;
    sum += fabs((a + b * ceil(blocks / g->v[0][c])) / exp(y) - 1);
    k++;
  }
  return k ? sum / (double)k : NAN;
}

int sp__physet_fit_affine(sp_physet *p, const double *feat, const double *blocks, const double *lt,
                          const sp_forest_params *fp) {
  const sp_grid *g = &p->grid[SP_TIME];
  const size_t ncu = g->n[0], nf = p->plan.nfeat, w = nf + AFFINE_FEATS, gs = p->gsize[SP_TIME];
  if (ncu < 3 || !p->cu_at) return SP_OK;
  int st = SP_OK;
  double *x = malloc(p->n * ncu * w * sizeof *x), *y = malloc(p->n * ncu * sizeof *y);
  size_t n = 0;
  if (!x || !y) st = SP_ENOMEM;
  for (size_t j = 0; !st && j < p->n; j++) {
    const double *l = lt + j * gs, bl = blocks[j];
    if (!(bl >= 1)) continue;
    const double wb = ceil(bl / p->base.cu);
    for (size_t c = 0; c < ncu; c++) {
      const int cu = g->v[0][c];
      double a, b, r = exp(l[p->cu_at[c]]), wc = ceil(bl / cu);
      if (cu == p->base.cu || !line_through(r, wc, wb, &a, &b)) continue;
      double e = line_error(p, l, bl, c, a, b);
      if (!isfinite(e)) continue;
      check_features(feat + j * nf, nf, r, wc, wb, (double)cu / p->base.cu, a, x + n * w);
      y[n++] = e < AFFINE_WITHIN;
    }
  }
  if (!st && n) {
    sp_forest_params f = *fp;
    f.min_leaf = 5;
    f.trees = f.trees > 50 ? 50 : f.trees;
    st = sp__forest_fit(x, n, w, y, 1, &f, &p->aff_forest);
    if (!st && !(p->aff_y = malloc(n * sizeof *p->aff_y))) st = SP_ENOMEM;
    if (!st) {
      memcpy(p->aff_y, y, n * sizeof *y);
      p->aff_n = n;
    }
  }
  if (st || !n) {
    sp__forest_free(p->aff_forest);
    p->aff_forest = NULL;
  }
  free(x);
  free(y);
  return st;
}

/* The one further time measurement on the CU axis at the base's clocks:
 * its index on the CU axis into *c2 and its ratio to the base time into
 * *r; 0 when there is none or more than one. */
static int one_on_axis(const sp_physet *p, const sp_observation *obs, size_t *c2, double *r) {
  const sp_grid *g = &p->grid[SP_TIME];
  size_t found = 0;
  for (size_t e = 0; obs->extra_time_ms && e < obs->nextra; e++) {
    const sp_config *c = &obs->extra_config[e];
    double v = obs->extra_time_ms[e];
    if (!(v > 0) || !isfinite(v) || sp_config_equal(c, &p->base)) continue;
    if (c->engine_mhz != p->base.engine_mhz || c->memory_mhz != p->base.memory_mhz) continue;
    for (size_t k = 0; k < g->n[0]; k++)
      if (g->v[0][k] == c->cu) {
        *c2 = k;
        *r = v / obs->base_time_ms;
        found++;
      }
  }
  return found == 1;
}

void sp__physet_apply_affine(const sp_physet *p, const sp_observation *obs, double blocks,
                             scratch *s, double *out, double *lo, double *hi) {
  const sp_grid *g = &p->grid[SP_TIME];
  const size_t nf = p->plan.nfeat;
  size_t c2 = 0;
  double r = 0, a, b;
  if (!p->aff_forest || !(blocks >= 1) || !one_on_axis(p, obs, &c2, &r)) return;
  const int cu2 = g->v[0][c2];
  const double wb = ceil(blocks / p->base.cu), w2 = ceil(blocks / cu2);
  if (!line_through(r, w2, wb, &a, &b)) return;
  check_features(s->feat, nf, r, w2, wb, (double)cu2 / p->base.cu, a, s->aff_feat);
  if (!(sp__forest_mean(p->aff_forest, s->aff_feat, p->aff_y) > 0.5)) return;
  for (size_t c = 0; c < g->n[0]; c++) {
    const size_t i = p->cu_at[c];
    const double t = obs->base_time_ms * (a + b * ceil(blocks / g->v[0][c]));
    if (g->v[0][c] == p->base.cu || c == c2 || !(out[i] > 0)) continue;
    const double k = t / out[i];
    out[i] = t;
    if (lo) lo[i] *= k;
    if (hi) hi[i] *= k;
  }
}
