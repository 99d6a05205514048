/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_affine.c: the block-count lines (physet_affine.h). */
#include "physet_affine.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/status.h"

/* The rounds the busiest CU of cu runs of a kernel of `blocks` blocks:
 * blocks one after another (LINE_BLOCKS), or waves of bps blocks at once
 * (LINE_WAVES); 0 when the kind does not apply. */
static double rounds(int kind, double blocks, double bps, int cu) {
  if (kind == LINE_WAVES) return bps >= 2 ? ceil(blocks / (cu * bps)) : 0;
  return ceil(blocks / cu);
}

/* The line through the base (ratio 1) and ratio r at a CU count whose
 * busiest CU runs w rounds (wb at the base): its constant share
 * *a and step *b, both of the base time.  0 when there is no such line
 * with a >= AFFINE_A_MIN and b > 0. */
static int line_through(double r, double w, double wb, double *a, double *b) {
  if (w == wb || !(wb >= 1) || !(r > 0) || !isfinite(r)) return 0;
  *b = (r - 1) / (w - wb);
  *a = 1 - *b * wb;
  return *b > 0 && *a >= AFFINE_A_MIN;
}

/* The check's features after the kernel's own nf in x (nf + AFFINE_FEATS):
 * the measured log ratio, the line's log step in rounds, the log CU ratio
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
static double line_error(const sp_physet *p, const double *lt, int kind, double blocks, double bps,
                         size_t c2, double a, double b) {
  const sp_grid *g = &p->grid[SP_TIME];
  double sum = 0;
  size_t k = 0;
  for (size_t c = 0; c < g->n[0]; c++) {
    double y = lt[p->cu_at[c]];
    if (c == c2 || g->v[0][c] == p->base.cu || !isfinite(y)) continue;
    sum += fabs((a + b * rounds(kind, blocks, bps, g->v[0][c])) / exp(y) - 1);
    k++;
  }
  return k ? sum / (double)k : NAN;
}

/* Fits the check of one kind of line (physet_affine.h). */
static int fit_kind(sp_physet *p, int kind, const double *feat, const double *blocks,
                    const double *bps, const double *lt, const sp_forest_params *fp) {
  const sp_grid *g = &p->grid[SP_TIME];
  const size_t ncu = g->n[0], nf = p->plan.nfeat, w = nf + AFFINE_FEATS, gs = p->gsize[SP_TIME];
  int st = SP_OK;
  double *x = malloc(p->n * ncu * w * sizeof *x), *y = malloc(p->n * ncu * sizeof *y);
  size_t n = 0;
  if (!x || !y) st = SP_ENOMEM;
  for (size_t j = 0; !st && j < p->n; j++) {
    const double *l = lt + j * gs, bl = blocks[j], bs = bps[j];
    if (!(bl >= 1)) continue;
    const double wb = rounds(kind, bl, bs, p->base.cu);
    for (size_t c = 0; c < ncu; c++) {
      const int cu = g->v[0][c];
      double a, b, r = exp(l[p->cu_at[c]]), wc = rounds(kind, bl, bs, cu);
      if (cu == p->base.cu || !line_through(r, wc, wb, &a, &b)) continue;
      double e = line_error(p, l, kind, bl, bs, c, a, b);
      if (!isfinite(e)) continue;
      check_features(feat + j * nf, nf, r, wc, wb, (double)cu / p->base.cu, a, x + n * w);
      y[n++] = e < AFFINE_WITHIN;
    }
  }
  if (!st && n) {
    sp_forest_params f = *fp;
    f.min_leaf = 5;
    f.trees = f.trees > 50 ? 50 : f.trees;
    st = sp__forest_fit(x, n, w, y, 1, &f, &p->aff_forest[kind]);
    if (!st && !(p->aff_y[kind] = malloc(n * sizeof *y))) st = SP_ENOMEM;
    if (!st) {
      memcpy(p->aff_y[kind], y, n * sizeof *y);
      p->aff_n[kind] = n;
    }
  }
  if (st || !n) {
    sp__forest_free(p->aff_forest[kind]);
    p->aff_forest[kind] = NULL;
  }
  free(x);
  free(y);
  return st;
}

int sp__physet_fit_affine(sp_physet *p, const double *feat, const double *blocks, const double *bps,
                          const double *lt, const sp_forest_params *fp) {
  if (p->grid[SP_TIME].n[0] < 3 || !p->cu_at) return SP_OK;
  p->line_fit = LINE_FIT;
  int st = SP_OK;
  for (int kind = 0; !st && kind < LINE_KINDS; kind++)
    st = fit_kind(p, kind, feat, blocks, bps, lt, fp);
  return st;
}

/* 1 when the observation's further time measurement e is on the CU axis
 * at the base's clocks: its index on that axis into *c and its ratio to
 * the base time into *r. */
static int on_axis(const sp_physet *p, const sp_observation *obs, size_t e, size_t *c, double *r) {
  const sp_grid *g = &p->grid[SP_TIME];
  const sp_config *x = &obs->extra_config[e];
  const double v = obs->extra_time_ms[e];
  if (!(v > 0) || !isfinite(v) || sp_config_equal(x, &p->base)) return 0;
  if (x->engine_mhz != p->base.engine_mhz || x->memory_mhz != p->base.memory_mhz) return 0;
  for (size_t k = 0; k < g->n[0]; k++)
    if (g->v[0][k] == x->cu) {
      *c = k;
      *r = v / obs->base_time_ms;
      return 1;
    }
  return 0;
}

/* The further time measurements on the CU axis at the base's clocks; the
 * last one's index on that axis into *c2 and its ratio into *r, the least
 * and the most CU count measured (the base's included) into *lo and *hi. */
static size_t count_on_axis(const sp_physet *p, const sp_observation *obs, size_t *c2, double *r,
                            int *lo, int *hi) {
  const int *v = p->grid[SP_TIME].v[0];
  size_t found = 0;
  *lo = *hi = p->base.cu;
  for (size_t e = 0; obs->extra_time_ms && e < obs->nextra; e++) {
    if (!on_axis(p, obs, e, c2, r)) continue;
    found++;
    *lo = v[*c2] < *lo ? v[*c2] : *lo;
    *hi = v[*c2] > *hi ? v[*c2] : *hi;
  }
  return found;
}

/* Whether CU count index c was measured (the base or a further point). */
static int measured_at(const sp_physet *p, const sp_observation *obs, size_t c) {
  size_t k;
  double r;
  if (p->grid[SP_TIME].v[0][c] == p->base.cu) return 1;
  for (size_t e = 0; obs->extra_time_ms && e < obs->nextra; e++)
    if (on_axis(p, obs, e, &k, &r) && k == c) return 1;
  return 0;
}

/* Whether a line of kind's rounds may be tried for the kernel: the line in
 * waves only where the base runs at most WAVES_MAX of them. */
static int kind_tried(const sp_physet *p, int kind, double blocks, double bps) {
  return kind != LINE_WAVES || rounds(kind, blocks, bps, p->base.cu) <= WAVES_MAX;
}

/* Two or more further points: the line of kind's rounds through the base
 * and them that least squares fits in relative terms (the sum of
 * ((a + b x) / y - 1)^2 over the points (x rounds, y ratio), the base's
 * (x_base, 1) included); 1 and its *a and *b when it has two distinct
 * round counts, a >= AFFINE_A_MIN, b > 0 and every point within
 * p->line_fit of it. */
static int fit_measured(const sp_physet *p, const sp_observation *obs, int kind, double blocks,
                        double bps, double *a, double *b) {
  const sp_grid *g = &p->grid[SP_TIME];
  const double xb = rounds(kind, blocks, bps, p->base.cu);
  double suu = 1, suv = xb, svv = xb * xb, su = 1, sv = xb, r;
  size_t c;
  int distinct = 0;
  for (size_t e = 0; obs->extra_time_ms && e < obs->nextra; e++) {
    if (!on_axis(p, obs, e, &c, &r)) continue;
    const double x = rounds(kind, blocks, bps, g->v[0][c]), u = 1 / r, v = x / r;
    distinct |= x != xb;
    suu += u * u;
    suv += u * v;
    svv += v * v;
    su += u;
    sv += v;
  }
  const double det = suu * svv - suv * suv;
  if (!distinct || !(xb >= 1) || !(fabs(det) > 0)) return 0;
  *a = (su * svv - sv * suv) / det;
  *b = (suu * sv - suv * su) / det;
  if (!(*b > 0) || !(*a >= AFFINE_A_MIN) || fabs(*a + *b * xb - 1) > p->line_fit) return 0;
  for (size_t e = 0; obs->extra_time_ms && e < obs->nextra; e++)
    if (on_axis(p, obs, e, &c, &r) &&
        !(fabs((*a + *b * rounds(kind, blocks, bps, g->v[0][c])) / r - 1) <= p->line_fit))
      return 0;
  return 1;
}

/* One further point: the first kind whose line through the base and it
 * exists and whose check says it holds, or -1. */
static int check_one(const sp_physet *p, double blocks, double bps, size_t c2, double r, scratch *s,
                     double *a, double *b) {
  const int cu2 = p->grid[SP_TIME].v[0][c2];
  for (int k = 0; k < LINE_KINDS; k++) {
    const double wb = rounds(k, blocks, bps, p->base.cu), w2 = rounds(k, blocks, bps, cu2);
    if (!kind_tried(p, k, blocks, bps) || !p->aff_forest[k] || !line_through(r, w2, wb, a, b))
      continue;
    check_features(s->feat, p->plan.nfeat, r, w2, wb, (double)cu2 / p->base.cu, *a, s->aff_feat);
    if (sp__forest_mean(p->aff_forest[k], s->aff_feat, p->aff_y[k]) > 0.5) return k;
  }
  return -1;
}

void sp__physet_apply_affine(const sp_physet *p, const sp_observation *obs, double blocks,
                             double bps, scratch *s, double *out, double *lo, double *hi) {
  const sp_grid *g = &p->grid[SP_TIME];
  size_t c2 = 0;
  double r = 0, a = 0, b = 0;
  int kind = -1, lo_cu, hi_cu;
  if (!(blocks >= 1)) return;
  const size_t m = count_on_axis(p, obs, &c2, &r, &lo_cu, &hi_cu);
  if (m == 1) kind = check_one(p, blocks, bps, c2, r, s, &a, &b);
  for (int k = 0; m > 1 && p->line_fit > 0 && kind < 0 && k < LINE_KINDS; k++)
    if (kind_tried(p, k, blocks, bps) && fit_measured(p, obs, k, blocks, bps, &a, &b)) kind = k;
  if (kind < 0) return;
  for (size_t c = 0; c < g->n[0]; c++) {
    const size_t i = p->cu_at[c];
    const int cu = g->v[0][c];
    const double t = obs->base_time_ms * (a + b * rounds(kind, blocks, bps, cu));
    if (!(out[i] > 0) || measured_at(p, obs, c)) continue;
    if (m > 1 && (cu < lo_cu || cu > hi_cu)) continue;
    const double k = t / out[i];
    out[i] = t;
    if (lo) lo[i] *= k;
    if (hi) hi[i] *= k;
  }
}
