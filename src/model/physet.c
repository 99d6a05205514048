/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet.c: physical prior + forest-weighted residuals (physet.h): the
 * type's life, what prediction reads, and prediction. */
#include "physet.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "featplan.h"
#include "novelty.h"
#include "physet_affine.h"
#include "physet_pool.h"
#include "physet_quantile.h"
#include "physet_step.h"
#include "vexp.h"
#include "util/status.h"

void sp__physet_free(sp_physet *p) {
  if (!p) return;
  for (int q = 0; q < 2; q++) {
    sp__grid_free(&p->grid[q]);
    free(p->res[q]);
    sp__forest_free(p->forest[q]);
  }
  sp__forest_free(p->step_forest);
  sp__forest_free(p->curve_forest);
  for (int k = 0; k < LINE_KINDS; k++) {
    sp__forest_free(p->aff_forest[k]);
    free(p->aff_y[k]);
  }
  free(p->floor_w);
  free(p->logphi);
  sp__novelty_free(p->novelty);
  free(p->t_cu);
  free(p->t_er);
  free(p->t_mr);
  free(p->t_logfast);
  free(p->t_logclock);
  free(p->t_j);
  free(p->cu_at);
  free(p->bw);
  free(p->map);
  for (int q = 0; q < 2; q++) {
    free(p->d2base[q]);
    free(p->extra0[q]);
    free(p->rank[q]);
    free(p->order[q]);
    free(p->sorted[q]);
    free(p->step_to[q]);
    free(p->step_rank[q]);
    free(p->step_order[q]);
  }
  sp__physet_pool_free(p->pool);
  free(p);
}

const char *sp__physet_vocabulary(const sp_physet *p) { return p->plan.vocabulary; }
int sp__physet_has_floor(const sp_physet *p) { return p->floor_w != NULL; }

int sp__physet_floor_at(const sp_physet *p, const sp_config *c, double *watts) {
  sp_grid_point gp;
  if (!p->floor_w || !p->has_power || sp__grid_locate(&p->grid[SP_POWER], c, &gp))
    return SP_ENOTFOUND;
  *watts = p->floor_w[sp__grid_flat(&p->grid[SP_POWER], &gp)];
  return SP_OK;
}

/* ---- what prediction reads, derived when fitted or read ------------------ */

/* One residual and its kernel, for ranking the kernels at one grid point. */
typedef struct ranked {
  double v;
  uint32_t j;
} ranked;

/* Residuals in ascending order, equal ones (0 and -0 too) by kernel: what
 * a stable sort of them in kernel order gives. */
static int cmp_ranked(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  int c = (x->v > y->v) - (x->v < y->v);
  return c ? c : (x->j > y->j) - (x->j < y->j);
}

/* rank[q], order[q] and sorted[q]: the kernels' order by residual at each
 * grid point and the residuals in that order, so that the weighted
 * quantiles (point_quantiles) need no sort. */
static int index_residuals(sp_physet *p, sp_quantity q) {
  const size_t n = p->n, g = p->gsize[q];
  if (n >= UINT32_MAX) return SP_ENOMEM;
  p->rank[q] = malloc(g * n * sizeof *p->rank[q]);
  p->order[q] = malloc(g * n * sizeof *p->order[q]);
  p->sorted[q] = malloc(g * n * sizeof *p->sorted[q]);
  ranked *r = malloc(n * sizeof *r);
  int st = p->rank[q] && p->order[q] && p->sorted[q] && r ? SP_OK : SP_ENOMEM;
  for (size_t i = 0; !st && i < g; i++) {
    for (size_t j = 0; j < n; j++) r[j] = (ranked){p->res[q][j * g + i], (uint32_t)j};
    qsort(r, n, sizeof *r, cmp_ranked);
    for (size_t k = 0; k < n; k++) {
      p->order[q][i * n + k] = r[k].j;
      p->sorted[q][i * n + k] = r[k].v;
      p->rank[q][i * n + r[k].j] = (uint32_t)k;
    }
  }
  free(r);
  return st;
}

/* Version 9: step_to[q], and step_rank[q] and step_order[q] at each point
 * that takes a memory step, the kernels' order by their step there, so
 * that memory_step's interval needs no sort either. */
static int index_steps(sp_physet *p, sp_quantity q) {
  const size_t n = p->n, g = p->gsize[q];
  const sp_grid *gr = &p->grid[q];
  const double *res = p->res[q];
  p->step_to[q] = malloc(g * sizeof *p->step_to[q]);
  p->step_rank[q] = malloc(g * n * sizeof *p->step_rank[q]);
  p->step_order[q] = malloc(g * n * sizeof *p->step_order[q]);
  ranked *r = malloc(n * sizeof *r);
  int st = p->step_to[q] && p->step_rank[q] && p->step_order[q] && r ? SP_OK : SP_ENOMEM;
  for (size_t i = 0; !st && i < g; i++) {
    sp_config c = sp__grid_config(gr, i), cb = {c.cu, c.engine_mhz, p->base.memory_mhz};
    sp_grid_point gp;
    p->step_to[q][i] = SIZE_MAX;
    if (c.memory_mhz == p->base.memory_mhz || sp__grid_locate(gr, &cb, &gp)) continue;
    const size_t to = p->step_to[q][i] = sp__grid_flat(gr, &gp);
    for (size_t j = 0; j < n; j++) r[j] = (ranked){res[j * g + i] - res[j * g + to], (uint32_t)j};
    qsort(r, n, sizeof *r, cmp_ranked);
    for (size_t k = 0; k < n; k++) {
      p->step_order[q][i * n + k] = r[k].j;
      p->step_rank[q][i * n + r[k].j] = (uint32_t)k;
    }
  }
  free(r);
  return st;
}

/* d2base[q]: each grid point's squared log distance to the base. */
static int index_distances(sp_physet *p, sp_quantity q) {
  if (!(p->d2base[q] = malloc(p->gsize[q] * sizeof *p->d2base[q]))) return SP_ENOMEM;
  for (size_t i = 0; i < p->gsize[q]; i++) {
    sp_config c = sp__grid_config(&p->grid[q], i);
    p->d2base[q][i] = sp__physet_config_dist2(&c, &p->base);
  }
  return SP_OK;
}

static void widths_from(const sp_physet *p, sp_quantity q, const size_t *obs, size_t nobs,
                        double *extra);

/* extra0[q]: the interval's squared widths for the distance from the base
 * alone (widths_from), what a prediction with nothing measured besides
 * the base adds at each grid point. */
static int index_extra(sp_physet *p, sp_quantity q) {
  if (!(p->extra0[q] = malloc(p->gsize[q] * sizeof *p->extra0[q]))) return SP_ENOMEM;
  widths_from(p, q, NULL, 0, p->extra0[q]);
  return SP_OK;
}

/* Index in the time grid of each power grid point (the power grid is a
 * sub-grid of the time grid); map stays NULL, and power predictions fail
 * with SP_EGRID, when it is not. */
static int index_power_grid(sp_physet *p) {
  if (!(p->map = malloc(p->gsize[SP_POWER] * sizeof *p->map))) return SP_ENOMEM;
  if (sp__physet_power_to_time(p, p->map)) {
    free(p->map);
    p->map = NULL;
  }
  return SP_OK;
}

/* Everything the prediction path reads besides the fitted or saved state,
 * and the pool of scratch (empty until the first prediction). */
int sp__physet_index_model(sp_physet *p) {
  int st = sp__physet_pool_new(p);
  for (int q = 0; q < 1 + p->has_power && !st; q++) {
    p->base_at[q] = sp__physet_base_index(p, (sp_quantity)q);
    st = index_distances(p, (sp_quantity)q);
    if (!st) st = index_extra(p, (sp_quantity)q);
    if (!st) st = index_residuals(p, (sp_quantity)q);
    if (!st && p->bw) st = index_steps(p, (sp_quantity)q);
  }
  if (!st && p->has_power) st = index_power_grid(p);
  p->logphi_finite = 1;
  for (size_t j = 0; p->logphi && j < p->n; j++) p->logphi_finite &= isfinite(p->logphi[j]) != 0;
  return st;
}

/* ---- prediction ------------------------------------------------------------ */

/* The kernels with a weight, in ascending order (branch-free: most have
 * none). */
static void list_weighted(size_t n, scratch *s) {
  size_t k = 0;
  for (size_t j = 0; j < n; j++) {
    s->nz[k] = j;
    k += s->w[j] != 0;
  }
  s->nnz = k;
}

/* Multiplies w by the likelihood of the observed residuals under each
 * training kernel's residual surface, then renormalizes. */
static void reweight(const sp_physet *p, sp_quantity q, scratch *s) {
  const size_t g = p->gsize[q];
  const double *res = p->res[q];
  double *w = s->w, best = -INFINITY, total = 0;
  for (size_t j = 0; j < p->n; j++) {
    double ll = 0;
    for (size_t o = 0; o < s->nobs; o++) {
      double z = (res[j * g + s->obs_idx[o]] - s->obs_val[o]) / p->sigma;
      ll -= 0.5 * z * z;
    }
    w[j] = w[j] > 0 ? ll + log(w[j]) : -INFINITY;
    best = w[j] > best ? w[j] : best;
  }
  for (size_t j = 0; j < p->n; j++) {
    double d = w[j] - best;
    w[j] = d > LOGLIK_FLOOR ? exp(d) : 0;
    total += w[j];
  }
  for (size_t j = 0; j < p->n; j++) w[j] /= total;
  list_weighted(p->n, s);
}

/* Version 9 with further measurements: the memory step is taken apart
 * (memory_step), with the forest's weights as they are before the
 * measurements reweight them.  Version 10 takes the time's apart always,
 * with the memory step forest's weights (physet_step.h). */
static int steps_apart(const sp_physet *p, sp_quantity q, const scratch *s) {
  return p->bw && (s->nobs || (q == SP_TIME && p->step_forest));
}

/* Keeps the weights (and their kernels) for memory_step when it is taken
 * apart (steps_apart): the step forest's for time in version 10, or in
 * version 11 the curve forest's when the curve was measured. */
static void keep_weights(const sp_physet *p, sp_quantity q, scratch *s) {
  if (!steps_apart(p, q, s)) return;
  if (q == SP_TIME && p->step_forest) {
    if (s->curve)
      sp__forest_weights(p->curve_forest, s->step_feat, s->w0);
    else
      sp__forest_weights(p->step_forest, s->feat, s->w0);
    size_t k = 0;
    for (size_t j = 0; j < p->n; j++) {
      s->nz0[k] = j;
      k += s->w0[j] != 0;
    }
    s->nnz0 = k;
    return;
  }
  memcpy(s->w0, s->w, p->n * sizeof *s->w0);
  memcpy(s->nz0, s->nz, s->nnz * sizeof *s->nz0);
  s->nnz0 = s->nnz;
}

/* The weights of q's forest for the kernel's features (or, reuse, those
 * s->w holds: the first time pass's, when nothing reweighted them), those
 * memory_step reads when it is to be taken (keep: the first time pass
 * takes none), then reweighted by the observed points when there are
 * any. */
static void weigh(const sp_physet *p, sp_quantity q, scratch *s, int reuse, int keep) {
  if (!reuse) {
    sp__forest_weights(p->forest[q], s->feat, s->w);
    list_weighted(p->n, s);
  }
  if (keep) keep_weights(p, q, s);
  if (s->nobs) reweight(p, q, s);
}

/* Sums over the kernels with a weight only, in ascending order: the same
 * sums as over every kernel skipping the zero weights. */
static void weighted_mean(const sp_physet *p, sp_quantity q, scratch *s) {
  const size_t g = p->gsize[q];
  double *mean = s->mean;
  memset(mean, 0, g * sizeof *mean);
  for (size_t t = 0; t < s->nnz; t++) {
    const double w = s->w[s->nz[t]], *r = p->res[q] + s->nz[t] * g;
    for (size_t i = 0; i < g; i++) mean[i] += w * r[i];
  }
}

/* corr[i]: the mismatch at the observed points, interpolated by inverse
 * squared distance with the base as a point of zero mismatch; 0 without
 * observed points. */
static void correction(const sp_physet *p, sp_quantity q, scratch *s) {
  const sp_grid *g = &p->grid[q];
  if (!s->nobs) {
    memset(s->corr, 0, p->gsize[q] * sizeof *s->corr);
    return;
  }
  for (size_t i = 0; i < p->gsize[q]; i++) {
    sp_config c = sp__grid_config(g, i);
    double db = p->d2base[q][i], num = 0, den = db > 0 ? 1 / db : INFINITY;
    if (isinf(den)) {
      s->corr[i] = 0;
      continue;
    }
    int exact = 0;
    for (size_t o = 0; o < s->nobs && !exact; o++) {
      sp_config oc = sp__grid_config(g, s->obs_idx[o]);
      double d = sp__physet_config_dist2(&c, &oc), mis = s->obs_val[o] - s->mean[s->obs_idx[o]];
      if (d == 0) {
        s->corr[i] = mis;
        exact = 1;
      }
      num += mis / d;
      den += 1 / d;
    }
    if (!exact) s->corr[i] = num / den;
  }
}

/* The observation's extra measurements of q that fall on the grid, as
 * residuals from the prior (prior must be filled). */
static void observe_extra(const sp_physet *p, sp_quantity q, const sp_observation *obs,
                          double base_value, scratch *s) {
  s->nobs = 0;
  const double *v = q == SP_TIME ? obs->extra_time_ms : obs->extra_power_w;
  for (size_t e = 0; v && e < obs->nextra; e++) {
    sp_grid_point gp;
    if (!(v[e] > 0) || !isfinite(v[e]) || sp_config_equal(&obs->extra_config[e], &p->base) ||
        sp__grid_locate(&p->grid[q], &obs->extra_config[e], &gp))
      continue;
    size_t i = sp__grid_flat(&p->grid[q], &gp);
    s->obs_idx[s->nobs] = i;
    s->obs_val[s->nobs++] = log(v[e] / base_value) - s->prior[i];
  }
}

/* bits: a bitmap of the ranks rank[nz[t]] of the nnz kernels listed in nz
 * (words 64-bit words), whose set bits in turn list those kernels in the
 * order the ranks say. */
static void mark_ranks(const uint32_t *rank, const size_t *nz, size_t nnz, size_t words,
                       uint64_t *bits) {
  for (size_t b = 0; b < words; b++) bits[b] = 0;
  for (size_t t = 0; t < nnz; t++) {
    uint32_t r = rank[nz[t]];
    bits[r / 64] |= (uint64_t)1 << (r % 64);
  }
}

/* The kernels with a weight at grid point i into s->pairs, ordered by
 * residual and, among equal residuals, by kernel: the order a stable sort
 * of the residuals in kernel order gives.  It is read off the order and
 * the residuals sorted at load (index_residuals) through a bitmap of the
 * ranks present, without sorting. */
static void ranked_pairs(const sp_physet *p, sp_quantity q, size_t i, scratch *s) {
  const size_t n = p->n, words = (n + 63) / 64;
  const uint32_t *order = p->order[q] + i * n;
  const double *v = p->sorted[q] + i * n;
  const uint64_t *bits = s->bits;
  wval *pairs = s->pairs;
  mark_ranks(p->rank[q] + i * n, s->nz, s->nnz, words, s->bits);
  size_t k = 0;
  for (size_t b = 0; b < words; b++)
    for (uint64_t m = bits[b]; m; m &= m - 1) {
      const size_t r = b * 64 + (size_t)__builtin_ctzll(m);
      pairs[k++] = (wval){v[r], order[r]};
    }
}

static int before(const wval *a, const wval *b) {
  return a->v < b->v || (a->v == b->v && a->j < b->j);
}

/* The same order at grid point i from the order of point i - 1 in
 * s->pairs, by insertion: neighbouring points mostly order the kernels
 * alike, so this is a pass over them.  Gives up (0) after a few moves per
 * kernel, leaving the pairs to ranked_pairs. */
static int resorted_pairs(const sp_physet *p, sp_quantity q, size_t i, scratch *s) {
  const size_t g = p->gsize[q], k = s->nnz;
  const double *res = p->res[q] + i;
  wval *b = s->pairs;
  size_t moves = 0;
  if (k) b[0].v = res[b[0].j * g];
  for (size_t t = 1; t < k; t++) {
    b[t].v = res[b[t].j * g];
    if (b[t].v > b[t - 1].v || !before(&b[t], &b[t - 1])) continue;
    wval x = b[t];
    size_t u = t;
    for (; u > 0 && before(&x, &b[u - 1]); u--) b[u] = b[u - 1];
    b[u] = x;
    if ((moves += t - u) > k) return 0;
  }
  return 1;
}

/* The pairs of grid point i in order: by insertion from point i - 1's
 * order where that is cheap (the clock axes of a DVFS grid), else from
 * the ranks: at the first point of each CU count (the H100's SM counts,
 * where the insertion mostly gave up after a pass), and for 1, 2, 4, ...
 * points after the insertion gives up. */
static void sort_pairs(const sp_physet *p, sp_quantity q, size_t i, scratch *s) {
  const sp_grid *g = &p->grid[q];
  if (i % (g->n[1] * g->n[2]) == 0) {
    s->skip = s->wait = 0;
  } else if (s->wait) {
    s->wait--;
  } else if (resorted_pairs(p, q, i, s)) {
    s->skip = 0;
    return;
  } else {
    s->skip = s->skip ? 2 * s->skip : 1;
    s->wait = s->skip;
  }
  ranked_pairs(p, q, i, s);
}

/* The quantiles of the residuals at grid point i over the kernels with a
 * weight.  Called for i = 0, 1, ... in turn (the order at i - 1 is where
 * resorted_pairs starts).  On a grid of CU counts alone every point is
 * the first of its CU count, where sort_pairs reads the ranks: the walk
 * reads them itself, without the pairs. */
static void point_quantiles(const sp_physet *p, sp_quantity q, size_t i, scratch *s, double *lo,
                            double *mid, double *hi) {
  const sp_grid *g = &p->grid[q];
  if (g->n[1] * g->n[2] > 1) {
    sort_pairs(p, q, i, s);
    sp__quantiles_walk(s->pairs, s->nnz, s->w, lo, mid, hi);
    return;
  }
  const size_t n = p->n, words = (n + 63) / 64;
  const uint32_t *order = p->order[q] + i * n;
  const double *v = p->sorted[q] + i * n;
  qwalk w = {{lo, mid, hi}, 0, INFINITY, 0};
  mark_ranks(p->rank[q] + i * n, s->nz, s->nnz, words, s->bits);
  for (size_t b = 0; b < words; b++)
    for (uint64_t m = s->bits[b]; m; m &= m - 1) {
      const size_t r = b * 64 + (size_t)__builtin_ctzll(m);
      if (sp__qwalk_add(&w, s->w[order[r]], v[r])) return;
    }
  sp__qwalk_end(&w);
}

/* The quantiles of the residuals at every grid point into lo, mid (or
 * NULL) and hi: the tails off the weights alone where they decide them
 * (not the median), by insertion on a grid of clock pairs with few
 * kernels, else point by point. */
static void walk_points(const sp_physet *p, sp_quantity q, scratch *s, double *lo, double *mid,
                        double *hi) {
  const sp_grid *g = &p->grid[q];
  const size_t gs = p->gsize[q];
  const double *rows[SP_QUANTILES_HEAVY];
  const size_t h = mid ? 0 : sp__quantiles_heavy(p->res[q], gs, s->nz, s->nnz, s->w, rows);
  if (h) {
    sp__quantiles_extremes(rows, h, gs, lo, hi);
    return;
  }
  if (g->n[1] * g->n[2] > 1 && s->nnz <= SP_QUANTILES_FEW) {
    sp__quantiles_few(p->res[q], gs, s->nz, s->nnz, s->w, lo, mid, hi);
    return;
  }
  for (size_t i = 0; i < gs; i++) point_quantiles(p, q, i, s, &lo[i], mid ? &mid[i] : NULL, &hi[i]);
}

/* Whether the point prediction is the weighted median (point_median, and
 * nothing measured besides the base) rather than the weighted mean. */
static int median_applies(const sp_physet *p, const scratch *s) {
  return p->point_median && !s->nobs && s->nnz;
}

/* mean[i]: the point prediction's residual at every grid point.  The
 * weighted mean of the similar kernels' residuals, or, where
 * median_applies, their weighted median: where they split between two
 * behaviours (following the block bound or held by a shared resource) the
 * median takes one of them, the mean the space between.  A further
 * measured configuration reweighs them by how they agree with it, and the
 * mean stays.  The median's walk over each point's residuals in order
 * keeps their quantiles too (qlo, qhi), which the interval (tails) then
 * reads instead of walking them again. */
static void point_residuals(const sp_physet *p, sp_quantity q, scratch *s) {
  if (median_applies(p, s))
    walk_points(p, q, s, s->qlo, s->mean, s->qhi);
  else
    weighted_mean(p, q, s);
}

/* s->qlo and s->qhi: the quantiles of the residuals at every grid point,
 * for the interval: those point_residuals kept where the median applies
 * (nothing since has changed what it reads: the same pass). */
static void tails(const sp_physet *p, sp_quantity q, scratch *s) {
  if (!median_applies(p, s)) walk_points(p, q, s, s->qlo, NULL, s->qhi);
}

/* prior + residual at grid point i, kept above the floor and under the cap
 * (the cap wins where measurement noise puts the floor above it). */
static double capped(const scratch *s, size_t i, double residual) {
  double v = s->prior[i] + residual;
  if (s->floor && v < s->floor[i]) v = s->floor[i];
  return s->cap && v > s->cap[i] ? s->cap[i] : v;
}

/* The point bounds (point_median, nothing measured besides the base) of
 * log ratio v at time grid point i:
 * under the cap less its slack (the block bound itself), and, on no more
 * CUs than the base, not under the faster of the two clock ratios (a
 * kernel does not get faster on fewer CUs).  The interval keeps the cap's
 * slack: measured ratios scatter a few percent about the bound. */
static double point_bounded(const sp_physet *p, const scratch *s, size_t i, double v) {
  if (s->cap && v > s->cap[i] - CU_BOUND_SLACK) v = s->cap[i] - CU_BOUND_SLACK;
  if (p->t_cu[i] > p->base.cu) return v;
  return v < p->t_logfast[i] ? p->t_logfast[i] : v;
}

/* Keeps the mean residual between the floor and the cap (and, with
 * point_median, within the point bounds), before the correction sees it:
 * the prediction still passes through every measured point. */
static void apply_cap(const sp_physet *p, sp_quantity q, scratch *s) {
  for (size_t i = 0; (s->cap || s->floor) && i < p->gsize[q]; i++)
    s->mean[i] = capped(s, i, s->mean[i]) - s->prior[i];
  for (size_t i = 0; q == SP_TIME && p->point_median && !s->nobs && i < p->gsize[q]; i++)
    s->mean[i] = point_bounded(p, s, i, s->prior[i] + s->mean[i]) - s->prior[i];
}

/* extra[i]: the squared width, in log units, that the interval at grid
 * point i adds for its distance from the nearest measured configuration
 * (the base, or one of the nobs grid points obs); -1 at a measured point,
 * where the prediction is the measurement and the interval shrinks to
 * it. */
static void widths_memory(const sp_physet *p, sp_quantity q, const size_t *obs, size_t nobs,
                          double *extra);

static void widths_from(const sp_physet *p, sp_quantity q, const size_t *obs, size_t nobs,
                        double *extra) {
  const sp_grid *g = &p->grid[q];
  const widths *w = &p->widths[q];
  if (p->bw) {
    widths_memory(p, q, obs, nobs, extra);
    return;
  }
  for (size_t i = 0; i < p->gsize[q]; i++) {
    double d2 = p->d2base[q][i];
    for (size_t o = 0; o < nobs; o++) {
      sp_config c = sp__grid_config(g, i), oc = sp__grid_config(g, obs[o]);
      double d = sp__physet_config_dist2(&c, &oc);
      d2 = d < d2 ? d : d2;
    }
    extra[i] = d2 > 0 ? w->floor * w->floor + w->per_log * w->per_log * d2 : -1;
  }
}

/* s->extra: widths_from for the points observed, or with none the
 * model's own (extra0, index_extra). */
static void extra_width(const sp_physet *p, sp_quantity q, scratch *s) {
  if (s->nobs)
    widths_from(p, q, s->obs_idx, s->nobs, s->extra);
  else
    memcpy(s->extra, p->extra0[q], p->gsize[q] * sizeof *s->extra);
}

/* The interval at grid point i around the log ratio mid, in log units
 * (ends): the half widths, whose squares are dl2 and dh2, widened by
 * extra in quadrature, the upper end kept under the cap and the lower end
 * above the floor (log units, +-INFINITY for none); mid itself at a
 * measured point (extra < 0).  ends_to_values makes them values. */
static void widen(double mid, double dl2, double dh2, double extra, double cap, double floor,
                  double *lo, double *hi) {
  if (extra < 0) {
    *lo = *hi = mid;
    return;
  }
  double h = mid + sqrt(dh2 + extra), l = mid - sqrt(dl2 + extra);
  *lo = l > floor ? l : floor < mid ? floor : mid;
  *hi = h < cap ? h : cap > mid ? cap : mid;
}

/* The interval's ends over q's grid from log units (widen) to values,
 * base_value times their exponentials, all at once (vexp.h: within an
 * ulp or two of libm's exp, which the point predictions keep); a measured
 * point's ends are its prediction out[i] itself. */
static void ends_to_values(const sp_physet *p, sp_quantity q, const scratch *s, double base_value,
                           const double *out, double *lo, double *hi) {
  const size_t g = p->gsize[q];
  sp__vexp_scaled(lo, g, base_value);
  sp__vexp_scaled(hi, g, base_value);
  for (size_t i = 0; i < g; i++)
    if (s->extra[i] < 0) lo[i] = hi[i] = out[i];
}

/* The jitter's share of time t (ms), at most 1: a time under the jitter
 * itself is outside what it was chosen on (every training time is over
 * 2.8 us), and an interval of a nanosecond's base would otherwise span
 * hundreds of orders of magnitude. */
static double jitter_share(const sp_physet *p, sp_quantity q, double t) {
  const double r = p->widths[q].jitter / t;
  return r < 1 ? r : 1;
}

/* extra with the timing jitter of the base's measured time and of the
 * point's predicted one added (widths.jitter, time only); -1, a measured
 * point, stays. */
static double jittered(const sp_physet *p, sp_quantity q, double extra, double base_ms,
                       double point_ms) {
  const double j = p->widths[q].jitter;
  if (extra < 0 || !(j > 0)) return extra;
  const double a = jitter_share(p, q, base_ms), b = jitter_share(p, q, point_ms);
  return extra + a * a + b * b;
}

static void finish(const sp_physet *p, sp_quantity q, scratch *s, double base_value, double *out,
                   double *lo, double *hi) {
  if (lo && hi) tails(p, q, s);
  for (size_t i = 0; i < p->gsize[q]; i++) {
    double c = s->corr[i], mid = s->prior[i] + s->mean[i] + c;
    out[i] = base_value * exp(mid);
    if (!lo || !hi) continue;
    double l = capped(s, i, s->qlo[i]) + c, h = capped(s, i, s->qhi[i]) + c;
    double k = p->widths[q].spread, dl = k * (mid - l), dh = k * (h - mid);
    widen(mid, dl * dl, dh * dh, jittered(p, q, s->extra[i], base_value, out[i]),
          s->cap ? s->cap[i] + c : INFINITY, s->floor ? s->floor[i] + c : -INFINITY, &lo[i],
          &hi[i]);
  }
  if (lo && hi) ends_to_values(p, q, s, base_value, out, lo, hi);
}

/* ---- the memory axis (version 9: the memory systems described) ---------- */

/* The log peak bandwidth of memory clock mhz of the grid. */
static double log_bw(const sp_physet *p, int mhz) {
  const sp_grid *g = &p->grid[SP_TIME];
  for (size_t i = 0; i < g->n[2]; i++)
    if (g->v[2][i] == mhz) return log(p->bw[i]);
  return NAN;
}

/* Squared log distance of two configurations over the CU count and the
 * engine clock alone. */
static double cu_engine_dist2(const sp_config *a, const sp_config *b) {
  double d0 = log((double)a->cu / b->cu), d1 = log((double)a->engine_mhz / b->engine_mhz);
  return d0 * d0 + d1 * d1;
}

/* widths_from with the memory systems described: a point's distance from
 * the nearest measured configuration over the CU count and engine clock,
 * as before, and apart from it the log bandwidth step to the nearest
 * measured memory system, with a width of its own per log unit (the
 * memory step is a card's step: another board, whose power reads apart,
 * and kernels whose neighbours' steps disagree more than their SM
 * scaling does); -1 only at a measured configuration itself. */
static void widths_memory(const sp_physet *p, sp_quantity q, const size_t *obs, size_t nobs,
                          double *extra) {
  const sp_grid *g = &p->grid[q];
  const widths *w = &p->widths[q];
  for (size_t i = 0; i < p->gsize[q]; i++) {
    sp_config c = sp__grid_config(g, i);
    int measured = sp_config_equal(&c, &p->base);
    double d2 = cu_engine_dist2(&c, &p->base);
    double dm = fabs(log_bw(p, c.memory_mhz) - log_bw(p, p->base.memory_mhz));
    for (size_t o = 0; o < nobs; o++) {
      sp_config oc = sp__grid_config(g, obs[o]);
      measured |= obs[o] == i;
      d2 = fmin(d2, cu_engine_dist2(&c, &oc));
      dm = fmin(dm, fabs(log_bw(p, c.memory_mhz) - log_bw(p, oc.memory_mhz)));
    }
    double wm = p->mem_width[q] * dm;
    extra[i] = measured ? -1 : w->floor * w->floor + w->per_log * w->per_log * d2 + wm * wm;
  }
}

/* The kernels weighed before reweighting (nz0) into s->pairs with their
 * memory step at grid point i (from point to), in ascending order, equal
 * ones by kernel: read off the ranks computed at load (index_steps)
 * without sorting. */
static void step_pairs(const sp_physet *p, sp_quantity q, size_t i, size_t to, scratch *s) {
  const size_t n = p->n, g = p->gsize[q], words = (n + 63) / 64;
  const uint32_t *order = p->step_order[q] + i * n;
  const double *res = p->res[q];
  const uint64_t *bits = s->bits;
  mark_ranks(p->step_rank[q] + i * n, s->nz0, s->nnz0, words, s->bits);
  size_t k = 0;
  for (size_t b = 0; b < words; b++)
    for (uint64_t m = bits[b]; m; m &= m - 1) {
      size_t j = order[b * 64 + (size_t)__builtin_ctzll(m)];
      s->pairs[k++] = (wval){res[j * g + i] - res[j * g + to], j};
    }
}

/* Version 9 with further measurements (steps_apart): at a point of a
 * memory system where nothing was measured, the prediction is the one at
 * the base's memory system at the same CU count and engine clock (which
 * the measurements there correct) times the memory step the kernels
 * similar by their counters take between the two (the forest's weights
 * w0, not reweighted: measurements on one memory system say how the
 * kernel scales with SMs, not what the other memory system buys it).  Its
 * interval: the step's spread among those kernels and that point's own
 * interval, in quadrature, widened as extra_width says. */
static void memory_step(const sp_physet *p, sp_quantity q, scratch *s, double base_value,
                        double *out, double *lo, double *hi) {
  const sp_grid *g = &p->grid[q];
  const size_t gs = p->gsize[q];
  const double *res = p->res[q];
  for (size_t i = 0; i < gs; i++) {
    const size_t j = p->step_to[q][i];
    if (j == SIZE_MAX) continue; /* the base's memory system, or none to step from */
    const int mhz = sp__grid_config(g, i).memory_mhz;
    int seen = 0;
    for (size_t o = 0; o < s->nobs && !seen; o++)
      seen = sp__grid_config(g, s->obs_idx[o]).memory_mhz == mhz;
    if (seen) continue;
    double mu = 0;
    for (size_t t = 0; t < s->nnz0; t++) {
      const size_t n = s->nz0[t];
      double d = res[n * gs + i] - res[n * gs + j];
      mu += s->w0[n] * d;
    }
    double v = log(out[j] / base_value) + s->prior[i] - s->prior[j] + mu;
    if (s->floor && v < s->floor[i]) v = s->floor[i];
    if (s->cap && v > s->cap[i]) v = s->cap[i];
    out[i] = base_value * exp(v);
    if (!lo || !hi) continue;
    double ql, qh, k2 = p->widths[q].spread;
    step_pairs(p, q, i, j, s);
    sp__quantiles_walk(s->pairs, s->nnz0, s->w0, &ql, NULL, &qh);
    double jl = log(out[j] / lo[j]), jh = log(hi[j] / out[j]);
    double dl = k2 * (mu - ql), dh = k2 * (qh - mu), e = s->extra[i] > 0 ? s->extra[i] : 0;
    /* the other card's own jitter (that of the base and of point j are
     * in point j's interval already) */
    const double jt = jitter_share(p, q, out[i]);
    e += jt * jt;
    lo[i] = out[i] * exp(-sqrt(dl * dl + jl * jl + e));
    hi[i] = out[i] * exp(sqrt(dh * dh + jh * jh + e));
  }
}

/* Version 11: whether the kernel's time was measured at another point of
 * the time grid at the base's memory system (as observe_extra takes a
 * measurement), which the curve among the curve forest's features then
 * rests on; else that curve is the counters' prediction alone, which says
 * no more of the step than the counters, and version 10's step forest is
 * read. */
static int curve_measured(const sp_physet *p, const sp_observation *obs) {
  const double *v = obs->extra_time_ms;
  for (size_t e = 0; p->curve_forest && v && e < obs->nextra; e++) {
    sp_grid_point gp;
    if (v[e] > 0 && isfinite(v[e]) && !sp_config_equal(&obs->extra_config[e], &p->base) &&
        obs->extra_config[e].memory_mhz == p->base.memory_mhz &&
        !sp__grid_locate(&p->grid[SP_TIME], &obs->extra_config[e], &gp))
      return 1;
  }
  return 0;
}

/* What the counters say about the kernel's launch and memory traffic. */
typedef struct shape {
  double blocks, bps, dram;
  double busy; /* the busiest pipe's share of the base time (featplan.h) */
} shape;

/* One pass of the time prediction into out (lo and hi: its interval, or
 * NULL), the prior reading lt (sp__physet_time_prior), the memory step taken apart
 * (memory_step) when step says so, the forest's weights those s->w holds
 * when reuse says so (weigh). */
static void time_pass(const sp_physet *p, const sp_observation *obs, const shape *sh, scratch *s,
                      const double *lt, int step, int reuse, double *out, double *lo, double *hi) {
  sp__physet_time_prior(p, sh->blocks, sh->dram, lt, s->axis, s->prior);
  if (s->curve) sp__physet_step_features(p, s->feat, lt, s->step_feat);
  observe_extra(p, SP_TIME, obs, obs->base_time_ms, s);
  weigh(p, SP_TIME, s, reuse, step);
  point_residuals(p, SP_TIME, s);
  apply_cap(p, SP_TIME, s);
  correction(p, SP_TIME, s);
  if (lo && hi) extra_width(p, SP_TIME, s);
  finish(p, SP_TIME, s, obs->base_time_ms, out, lo, hi);
  if (step) sp__physet_apply_affine(p, obs, sh->blocks, sh->bps, s, out, lo, hi);
  if (step && steps_apart(p, SP_TIME, s))
    memory_step(p, SP_TIME, s, obs->base_time_ms, out, lo, hi);
}

/* Time over the time grid into out (lo and hi: its interval, or NULL),
 * from the features in s->feat.  Version 9 with a clock prior takes two
 * passes: the first predicts the times at the base's clocks (the points
 * t_j, which neither its interval nor its memory step changes, so it
 * takes neither), whose log ratios the second pass's prior reads, and
 * version 11's curve forest (without the clock prior too). */
static void predict_time(const sp_physet *p, const sp_observation *obs, const shape *sh, scratch *s,
                         double *out, double *lo, double *hi) {
  s->cap = s->floor = NULL;
  if (p->cu_bounded && sh->blocks >= 1 && sh->bps >= 1) {
    s->cap = s->cap_buf;
    sp__physet_time_cap(p, sh->blocks, sh->bps, s->axis, s->cap);
  }
  if (p->pipe_floor && sh->busy > 0) {
    s->floor = s->floor_buf;
    sp__physet_time_floor(p, sh->busy, s->floor);
  }
  const double *lt = NULL;
  s->curve = curve_measured(p, obs);
  if (p->t_j && (p->clock || s->curve)) {
    const size_t ncu = p->grid[SP_TIME].n[0], nclk = sp__physet_clock_pairs(p);
    time_pass(p, obs, sh, s, NULL, 0, 0, out, NULL, NULL);
    for (size_t c = 0; c < ncu; c++) {
      const size_t j = p->t_j[c * nclk];
      s->lt[j] = log(out[j] / obs->base_time_ms);
    }
    lt = s->lt;
  }
  /* the features are the same in both passes, so are the forest's weights */
  time_pass(p, obs, sh, s, lt, 1, lt && !s->nobs, out, lo, hi);
}

/* s->key: everything the time prediction reads besides the model: the
 * base time, the launch shape, the features and the extra time
 * measurements (nkey 0, nothing to remember, when there are too many). */
static void memo_key(const sp_physet *p, const sp_observation *obs, const shape *sh, scratch *s) {
  double *k = s->key;
  s->nkey = 0;
  if (obs->nextra > MEMO_EXTRA) return;
  *k++ = obs->base_time_ms;
  *k++ = sh->blocks;
  *k++ = sh->bps;
  *k++ = sh->dram;
  *k++ = sh->busy;
  memcpy(k, s->feat, p->plan.nfeat * sizeof *k);
  k += p->plan.nfeat;
  for (size_t e = 0; e < obs->nextra; e++) {
    *k++ = obs->extra_config[e].cu;
    *k++ = obs->extra_config[e].engine_mhz;
    *k++ = obs->extra_config[e].memory_mhz;
    *k++ = obs->extra_time_ms ? obs->extra_time_ms[e] : NAN;
  }
  s->nkey = (size_t)(k - s->key);
}

/* Whether s->time holds the time prediction for this key, with its
 * interval when asked (bit for bit the same inputs: the same outputs). */
static int memo_holds(const scratch *s, int interval) {
  return s->nkey && s->held > interval && s->nmemo == s->nkey &&
         !memcmp(s->memo, s->key, s->nkey * sizeof *s->key);
}

/* Keeps the time prediction just made (out, and lo and hi when not NULL)
 * in s->time under this prediction's key. */
static void memo_keep(const sp_physet *p, scratch *s, const double *out, const double *lo,
                      const double *hi) {
  const size_t g = p->gsize[SP_TIME];
  s->held = 0;
  if (!s->nkey) return;
  if (out != s->time) memcpy(s->time, out, g * sizeof *out);
  if (lo && hi && lo != s->time + g) {
    memcpy(s->time + g, lo, g * sizeof *lo);
    memcpy(s->time + 2 * g, hi, g * sizeof *hi);
  }
  memcpy(s->memo, s->key, s->nkey * sizeof *s->key);
  s->nmemo = s->nkey;
  s->held = lo && hi ? 2 : 1;
}

/* Time over the time grid, as predict_time, from the memo when it holds
 * this kernel's, else predicted and kept. */
static void time_of(const sp_physet *p, const sp_observation *obs, const shape *sh, scratch *s,
                    double *out, double *lo, double *hi) {
  const size_t g = p->gsize[SP_TIME];
  const int interval = lo && hi;
  if (memo_holds(s, interval)) {
    if (out != s->time) memcpy(out, s->time, g * sizeof *out);
    if (interval && lo != s->time + g) {
      memcpy(lo, s->time + g, g * sizeof *lo);
      memcpy(hi, s->time + 2 * g, g * sizeof *hi);
    }
    return;
  }
  predict_time(p, obs, sh, s, out, lo, hi);
  memo_keep(p, s, out, lo, hi);
}

/* phi at the base: the user's floor when measured, else the similar
 * training kernels'.  A kernel without weight adds a zero, which changes
 * no sum, unless its log phi is infinite (0 * inf is NaN). */
static double base_phi(const sp_physet *p, const sp_observation *obs, const scratch *s) {
  if (obs->floor_w > 0) return obs->floor_w / obs->base_power_w;
  double lp = 0;
  if (!p->logphi_finite)
    for (size_t j = 0; j < p->n; j++) lp += s->w[j] * p->logphi[j];
  else
    for (size_t t = 0; t < s->nnz; t++) lp += s->w[s->nz[t]] * p->logphi[s->nz[t]];
  return exp(lp);
}

/* The power interval: the spread of the similar kernels' residuals and the
 * uncertainty the time interval carries into the prior (pa, pb: the prior
 * at the slow and the fast end of the time interval), added in quadrature
 * and multiplied by k. */
static void finish_power(const sp_physet *p, scratch *s, double base_value, const double *out,
                         const double *pa, const double *pb, double k, double *lo, double *hi) {
  tails(p, SP_POWER, s);
  for (size_t i = 0; i < p->gsize[SP_POWER]; i++) {
    double mid = s->prior[i] + s->mean[i] + s->corr[i];
    const widths *v = &p->widths[SP_POWER];
    double dl = v->spread * (s->mean[i] - s->qlo[i]), dp = v->prior * (s->prior[i] - pa[i]);
    double dh = v->spread * (s->qhi[i] - s->mean[i]), dq = v->prior * (pb[i] - s->prior[i]);
    widen(mid, k * k * (dl * dl + dp * dp), k * k * (dh * dh + dq * dq), s->extra[i], INFINITY,
          -INFINITY, &lo[i], &hi[i]);
  }
  ends_to_values(p, SP_POWER, s, base_value, out, lo, hi);
}

/* With the floor of another memory system's board measured by the user
 * (sp_observation.target_floor_w): what the prediction at that memory
 * clock is multiplied by, b / a, 0 without.  Two boards of one model read
 * apart by a factor at every configuration, the floor's (the training
 * set is put on one board of each card that way: training/data/h100h200/
 * merge.sh), so the prediction, on the training boards' scale, goes onto
 * the user's: b, the user's floor there over the training floor at the
 * base's CU count and engine clock, and a, the user's floor at the base
 * (--floor-w) over the training floor there (1 without: the user's base
 * board read as the training one). */
static double target_board_scale(const sp_physet *p, const sp_observation *obs) {
  if (!p->floor_w || !(obs->target_floor_w > 0) || !isfinite(obs->target_floor_w) ||
      obs->target_floor_mhz == p->base.memory_mhz)
    return 0;
  sp_config c = {p->base.cu, p->base.engine_mhz, obs->target_floor_mhz};
  sp_grid_point gp;
  if (sp__grid_locate(&p->grid[SP_POWER], &c, &gp)) return 0;
  double b = obs->target_floor_w / p->floor_w[sp__grid_flat(&p->grid[SP_POWER], &gp)];
  double a = obs->floor_w > 0 && isfinite(obs->floor_w)
                 ? obs->floor_w / p->floor_w[p->base_at[SP_POWER]]
                 : 1;
  return b / a;
}

/* The power prior at every point of the power grid for the time
 * prediction time (over the time grid, through map); 0 without a floor. */
static void power_priors(const sp_physet *p, double phi, const double *time, double base_time,
                         double *prior) {
  const size_t bp = p->base_at[SP_POWER];
  for (size_t i = 0; i < p->gsize[SP_POWER]; i++)
    prior[i] = p->floor_w ? sp__physet_power_prior(phi, p->floor_w[i], p->floor_w[bp],
                                                   base_time / time[p->map[i]])
                          : 0;
}

/* out, and lo and hi when not NULL, at the memory clock of the user's
 * other board, onto that board (target_board_scale). */
static void onto_target_board(const sp_physet *p, const sp_observation *obs, double *out,
                              double *lo, double *hi) {
  const double k = target_board_scale(p, obs);
  for (size_t i = 0; k > 0 && i < p->gsize[SP_POWER]; i++) {
    if (sp__grid_config(&p->grid[SP_POWER], i).memory_mhz != obs->target_floor_mhz) continue;
    out[i] *= k;
    if (lo && hi) {
      lo[i] *= k;
      hi[i] *= k;
    }
  }
}

/* Power over the power grid.  The prior needs the time prediction (and,
 * for the interval, its interval) only with a floor: without one it is 0
 * whatever the time. */
static int predict_power(const sp_physet *p, const sp_observation *obs, const shape *sh, scratch *s,
                         double *out, double *lo, double *hi) {
  const size_t gt = p->gsize[SP_TIME], g = p->gsize[SP_POWER];
  const int interval = lo && hi;
  double *time = s->time, *pab = s->pab;
  if (!p->map) return SP_EGRID;
  if (p->floor_w)
    time_of(p, obs, sh, s, time, interval ? time + gt : NULL, interval ? time + 2 * gt : NULL);
  s->cap = s->floor = NULL;
  sp__forest_weights(p->forest[SP_POWER], s->feat, s->w);
  list_weighted(p->n, s);
  double phi = p->floor_w ? base_phi(p, obs, s) : 0;
  power_priors(p, phi, time, obs->base_time_ms, s->prior);
  observe_extra(p, SP_POWER, obs, obs->base_power_w, s);
  keep_weights(p, SP_POWER, s);
  if (s->nobs) reweight(p, SP_POWER, s);
  point_residuals(p, SP_POWER, s);
  correction(p, SP_POWER, s);
  finish(p, SP_POWER, s, obs->base_power_w, out, NULL, NULL);
  if (interval) {
    extra_width(p, SP_POWER, s);
    power_priors(p, phi, time + 2 * gt, obs->base_time_ms, pab);
    power_priors(p, phi, time + gt, obs->base_time_ms, pab + g);
    double k = obs->floor_w > 0 ? p->floor_spread : 1;
    finish_power(p, s, obs->base_power_w, out, pab, pab + g, k, lo, hi);
  }
  if (steps_apart(p, SP_POWER, s)) memory_step(p, SP_POWER, s, obs->base_power_w, out, lo, hi);
  onto_target_board(p, obs, out, interval ? lo : NULL, interval ? hi : NULL);
  return SP_OK;
}

int sp__physet_predict(const sp_physet *p, sp_quantity q, const sp_observation *obs, double *out,
                       double *lo, double *hi) {
  if (q == SP_POWER && (!p->has_power || !(obs->base_power_w > 0))) return SP_ENOPOWER;
  if (!(obs->base_time_ms > 0) || !isfinite(obs->base_time_ms)) return SP_EINVAL;
  int slot;
  scratch *s = sp__physet_scratch_get(p, obs->nextra, &slot);
  if (!s) return SP_ENOMEM;
  sp__features_compute(&p->plan, obs->counters, obs->base_time_ms, s->feat);
  shape sh = {sp__features_blocks(&p->plan, obs->counters),
              sp__features_blocks_per_sm(&p->plan, obs->counters),
              sp__features_dram(&p->plan, obs->counters),
              sp__features_pipe_busy(&p->plan, obs->counters)};
  int st = SP_OK;
  memo_key(p, obs, &sh, s);
  if (q == SP_TIME)
    time_of(p, obs, &sh, s, out, lo, hi);
  else
    st = predict_power(p, obs, &sh, s, out, lo, hi);
  sp__physet_scratch_put(p, s, slot);
  return st;
}

double sp__physet_novelty(const sp_physet *p, const sp_observation *obs) {
  if (!p->novelty || !(obs->base_time_ms > 0) || !isfinite(obs->base_time_ms)) return NAN;
  int slot;
  scratch *s = sp__physet_scratch_get(p, 0, &slot);
  if (!s) return NAN;
  sp__features_compute(&p->plan, obs->counters, obs->base_time_ms, s->feat);
  double v = sp__novelty_of(p->novelty, s->feat);
  sp__physet_scratch_put(p, s, slot);
  return v;
}
