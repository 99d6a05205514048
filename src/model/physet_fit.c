/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_fit.c: fitting the physet method (physet_fit.h). */
#include "physet_fit.h"

#include <math.h>
#include <stdlib.h>

#include "data/dataset.h"
#include "featplan.h"
#include "novelty.h"
#include "physet_prior.h"
#include "physet_affine.h"
#include "physet_step.h"
#include "util/status.h"

void sp__physet_params_init(sp_physet_params *pp) {
  sp__forest_params_init(&pp->forest);
  pp->sigma = 0.05;
  pp->clock_weight = 0.75;
  pp->floor_kernel = NULL;
  pp->cu_mode = SP_PHYSET_CU_AUTO;
  pp->pipe_floor = 1;
  pp->point_median = 0;
  pp->line = 0;
}

/* ---- fitting ------------------------------------------------------------- */

typedef struct fitter {
  const sp_physet_data *d;
  sp_physet *p;
  double *feat;   /* n * nfeat */
  double *blocks; /* n */
  double *bps;    /* n: blocks one CU holds at once (0: unknown) */
  double *dram;   /* n: DRAM traffic at the base */
  double *lt;     /* n * gsize[TIME]: measured log time ratios */
  sp_error *err;
} fitter;

static int missing(const fitter *f, size_t k, const sp_config *c, const char *what) {
  char cfg[64];
  sp_config_format(c, cfg, sizeof cfg);
  return sp__fail(f->err, SP_EGRID, sp_dataset_runs_path(f->d->ds), 0, 0, "kernel",
                  "kernel '%s' has no %s at %s", sp_dataset_kernel_name(f->d->ds, k), what, cfg);
}

/* Features, block count and log time ratios of every training kernel. */
static int gather_time(fitter *f) {
  const sp_physet_data *d = f->d;
  sp_physet *p = f->p;
  const size_t g = p->gsize[SP_TIME], nf = p->plan.nfeat;
  for (size_t j = 0; j < d->n; j++) {
    size_t k = d->kernels[j];
    const double *row;
    double tb, t;
    if (sp_dataset_time(d->ds, k, &d->base, &tb)) return missing(f, k, &d->base, "time");
    if (sp_dataset_counters(d->ds, k, &d->base, &row)) return missing(f, k, &d->base, "counters");
    sp__features_compute(&p->plan, row, tb, f->feat + j * nf);
    f->blocks[j] = sp__features_blocks(&p->plan, row);
    f->bps[j] = sp__features_blocks_per_sm(&p->plan, row);
    f->dram[j] = sp__features_dram(&p->plan, row);
    for (size_t i = 0; i < g; i++) {
      sp_config c = sp__grid_config(&p->grid[SP_TIME], i);
      if (sp_dataset_time(d->ds, k, &c, &t)) return missing(f, k, &c, "time");
      f->lt[j * g + i] = log(t / tb);
    }
  }
  return SP_OK;
}

/* Squared misfit of the clock term with share u to the log ratios y; scale
 * (NULL: 1 everywhere) scales the share per grid point, min 1. */
static double u_misfit(const double *et, const double *mt, const double *scale, const double *y,
                       size_t g, double u) {
  double e = 0;
  for (size_t i = 0; i < g; i++) {
    double ui = scale ? fmin(1, u * scale[i]) : u;
    double r = log(ui * mt[i] + (1 - ui) * et[i]) - y[i];
    e += r * r;
  }
  return e;
}

/* The u in [0, 1] that best explains the log ratios y: a coarse scan, then
 * golden-section search around the best point. */
static double best_u(const double *et, const double *mt, const double *scale, const double *y,
                     size_t g) {
  enum { SCAN = 20, GOLDEN = 40 };
  double best = INFINITY, ub = 0;
  for (int k = 0; k <= SCAN; k++) {
    double e = u_misfit(et, mt, scale, y, g, (double)k / SCAN);
    if (e < best) best = e, ub = (double)k / SCAN;
  }
  double a = fmax(0, ub - 1.0 / SCAN), b = fmin(1, ub + 1.0 / SCAN), r = (sqrt(5) - 1) / 2;
  double c = b - r * (b - a), d = a + r * (b - a);
  double fc = u_misfit(et, mt, scale, y, g, c), fd = u_misfit(et, mt, scale, y, g, d);
  for (int k = 0; k < GOLDEN; k++) {
    if (fc < fd)
      b = d, d = c, fd = fc, c = b - r * (b - a), fc = u_misfit(et, mt, scale, y, g, c);
    else
      a = c, c = d, fc = fd, d = a + r * (b - a), fd = u_misfit(et, mt, scale, y, g, d);
  }
  double um = (a + b) / 2;
  return u_misfit(et, mt, scale, y, g, um) < best ? um : ub;
}

static double sigmoid_misfit(const double *x, const double *u, size_t n, double mid, double width) {
  double e = 0;
  for (size_t j = 0; j < n; j++) {
    double r = 1 / (1 + exp(-(x[j] - mid) / width)) - u[j];
    e += r * r;
  }
  return e;
}

/* Least-squares sigmoid through (x_j, u_j): a grid over the midpoint and
 * the log width, then a pattern search that halves its steps. */
static void fit_sigmoid(const double *x, const double *u, size_t n, double *mid, double *width) {
  enum { NM = 60, NW = 40, PATTERN = 200 };
  const double lw0 = log(U_WIDTH_LO), lw1 = log(U_WIDTH_HI);
  double best = INFINITY, bm = 0, blw = 0;
  for (int a = 0; a <= NM; a++)
    for (int b = 0; b <= NW; b++) {
      double m = U_MID_LO + (U_MID_HI - U_MID_LO) * a / NM, lw = lw0 + (lw1 - lw0) * b / NW;
      double e = sigmoid_misfit(x, u, n, m, exp(lw));
      if (e < best) best = e, bm = m, blw = lw;
    }
  double dm = (U_MID_HI - U_MID_LO) / NM, dw = (lw1 - lw0) / NW;
  for (int k = 0; k < PATTERN && dm > 1e-7; k++) {
    static const int step[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    int moved = 0;
    for (int s = 0; s < 4; s++) {
      double m = bm + step[s][0] * dm, lw = blw + step[s][1] * dw;
      if (m < U_MID_LO || m > U_MID_HI || lw < lw0 || lw > lw1) continue;
      double e = sigmoid_misfit(x, u, n, m, exp(lw));
      if (e < best) best = e, bm = m, blw = lw, moved = 1;
    }
    if (!moved) dm /= 2, dw /= 2;
  }
  *mid = bm;
  *width = exp(blw);
}

/* The clock prior: on when the grid varies a clock, the counters give DRAM
 * traffic and some training kernel has any; its sigmoid is fitted to each
 * training kernel's best u (after the CU prior). */
static int fit_clock(fitter *f, const sp_physet_params *pp) {
  sp_physet *p = f->p;
  const size_t g = p->gsize[SP_TIME], n = f->d->n;
  int varies = 0;
  for (size_t i = 0; i < g && !varies; i++) {
    sp_config c = sp__grid_config(&p->grid[SP_TIME], i);
    varies = c.engine_mhz != p->base.engine_mhz || c.memory_mhz != p->base.memory_mhz;
  }
  p->s_max = 0;
  for (size_t j = 0; j < n; j++)
    if (isfinite(f->dram[j]) && f->dram[j] > p->s_max) p->s_max = f->dram[j];
  if (!varies || !(pp->clock_weight > 0) || !(p->s_max > 0)) return SP_OK;
  const double *et = p->t_er, *mt = p->t_mr;
  double *y = malloc(g * sizeof *y), *x = malloc(n * sizeof *x), *u = malloc(n * sizeof *u);
  double *axis = malloc((g + 1) * sizeof *axis);
  double *scale = p->t_j ? malloc(g * sizeof *scale) : NULL;
  int st = y && x && u && axis && (scale || !p->t_j) ? SP_OK : sp__oom(f->err);
  for (size_t j = 0; !st && j < n; j++) {
    const double *lt = f->lt + j * g;
    /* The CU prior alone: the clock is still off. */
    sp__physet_time_prior(p, f->blocks[j], 0, NULL, axis, y);
    for (size_t i = 0; i < g; i++) y[i] = lt[i] - y[i];
    /* Version 9: each clock step at its own CU count, against the kernel's
     * time there at the base's clocks (sp__physet_time_prior). */
    for (size_t i = 0; scale && i < g; i++) {
      y[i] = lt[i] - lt[p->t_j[i]];
      scale[i] = exp(-lt[p->t_j[i]]);
    }
    x[j] = (isfinite(f->dram[j]) ? f->dram[j] : 0) / p->s_max;
    u[j] = best_u(et, mt, scale, y, g);
  }
  if (!st) {
    fit_sigmoid(x, u, n, &p->u_mid, &p->u_width);
    p->clock = 1;
    p->clock_w = pp->clock_weight > 1 ? 1 : pp->clock_weight;
  }
  free(y);
  free(x);
  free(u);
  free(axis);
  free(scale);
  return st;
}

/* The CU axis is bounded (no prior, the block bound as a cap) when asked,
 * or by default when every training kernel's launch shape is known: the
 * block prior alone misjudges kernels limited by DRAM bandwidth, critical
 * paths or occupancy (docs/method.md), which the features then describe. */
static void choose_cu_mode(fitter *f, const sp_physet_params *pp) {
  int known = 1;
  for (size_t j = 0; j < f->d->n; j++) known = known && f->blocks[j] >= 1 && f->bps[j] >= 1;
  f->p->cu_bounded =
      pp->cu_mode == SP_PHYSET_CU_BOUNDED || (pp->cu_mode == SP_PHYSET_CU_AUTO && known);
  f->p->pipe_floor = f->p->cu_bounded && pp->pipe_floor;
  f->p->point_median = f->p->cu_bounded && pp->point_median;
  /* The interval widths go with the axis they were chosen on: version 8's
   * with the bounded CU axis (the H100's SM counts); the widths of version
   * 7 elsewhere (the clock axes of the DVFS sets, counters without the
   * launch shape), where the DVFS sets checked them (docs/method.md). */
  f->p->widths[SP_TIME] = f->p->cu_bounded ? TIME_WIDTHS : OLD_WIDTHS;
  f->p->widths[SP_POWER] = f->p->cu_bounded ? POWER_WIDTHS : OLD_WIDTHS;
  f->p->floor_spread = f->p->cu_bounded ? FLOOR_KNOWN_SPREAD : OLD_FLOOR_SPREAD;
}

static int fit_time(fitter *f, const sp_physet_params *pp) {
  sp_physet *p = f->p;
  const size_t g = p->gsize[SP_TIME];
  choose_cu_mode(f, pp);
  int st = fit_clock(f, pp);
  if (st) return st;
  p->res[SP_TIME] = malloc(f->d->n * g * sizeof(double));
  double *prior = malloc((2 * g + 1) * sizeof *prior);
  if (!p->res[SP_TIME] || !prior) {
    free(prior);
    return sp__oom(f->err);
  }
  for (size_t j = 0; j < f->d->n; j++) {
    sp__physet_time_prior(p, f->blocks[j], f->dram[j], f->lt + j * g, prior + g, prior);
    for (size_t i = 0; i < g; i++) p->res[SP_TIME][j * g + i] = f->lt[j * g + i] - prior[i];
  }
  free(prior);
  st = sp__forest_fit(f->feat, f->d->n, p->plan.nfeat, p->res[SP_TIME], g, &pp->forest,
                      &p->forest[SP_TIME]);
  if (!st && p->bw) st = sp__physet_fit_step(p, f->feat, f->lt, &pp->forest);
  if (!st && pp->line && p->cu_bounded)
    st = sp__physet_fit_affine(p, f->feat, f->blocks, f->bps, f->lt, &pp->forest);
  return st == SP_ENOMEM ? sp__oom(f->err) : st;
}

/* The floor kernel's power at every power grid point, or none. */
static int gather_floor(fitter *f, const char *floor_kernel) {
  const sp_physet_data *d = f->d;
  sp_physet *p = f->p;
  if (!floor_kernel) return SP_OK;
  size_t k = sp_dataset_kernel_index(d->ds, floor_kernel);
  if (k == (size_t)-1)
    return sp__fail(f->err, SP_ENOTFOUND, sp_dataset_runs_path(d->ds), 0, 0, "kernel",
                    "the floor kernel '%s' is not in the data", floor_kernel);
  if (!(p->floor_w = malloc(p->gsize[SP_POWER] * sizeof(double)))) return sp__oom(f->err);
  for (size_t i = 0; i < p->gsize[SP_POWER]; i++) {
    sp_config c = sp__grid_config(&p->grid[SP_POWER], i);
    if (sp_dataset_power(d->ds, k, &c, &p->floor_w[i]) || !(p->floor_w[i] > 0))
      return missing(f, k, &c, "power");
  }
  return SP_OK;
}

/* Residual power surfaces; the forest also learns log phi as one more
 * output, so that kernels with a similar floor share end up together. */
static int fit_power(fitter *f, const sp_physet_params *pp) {
  const sp_physet_data *d = f->d;
  sp_physet *p = f->p;
  const size_t g = p->gsize[SP_POWER], gt = p->gsize[SP_TIME], m = g + 1;
  size_t *map = malloc(g * sizeof *map);
  double *y = malloc(d->n * m * sizeof *y);
  p->res[SP_POWER] = malloc(d->n * g * sizeof(double));
  p->logphi = malloc(d->n * sizeof(double));
  int st = map && y && p->res[SP_POWER] && p->logphi ? sp__physet_power_to_time(p, map)
                                                     : sp__oom(f->err);
  size_t bp = sp__physet_base_index(p, SP_POWER);
  for (size_t j = 0; j < d->n && !st; j++) {
    size_t k = d->kernels[j];
    double pb, pc;
    if (sp_dataset_power(d->ds, k, &d->base, &pb) || !(pb > 0)) {
      st = missing(f, k, &d->base, "power");
      break;
    }
    double phi = p->floor_w ? p->floor_w[bp] / pb : 0;
    phi = phi > PHI_MAX ? PHI_MAX : phi;
    p->logphi[j] = p->floor_w ? log(phi) : 0;
    for (size_t i = 0; i < g && !st; i++) {
      sp_config c = sp__grid_config(&p->grid[SP_POWER], i);
      if (sp_dataset_power(d->ds, k, &c, &pc) || !(pc > 0)) {
        st = missing(f, k, &c, "power");
        break;
      }
      double prior = p->floor_w ? sp__physet_power_prior(phi, p->floor_w[i], p->floor_w[bp],
                                                         exp(-f->lt[j * gt + map[i]]))
                                : 0;
      p->res[SP_POWER][j * g + i] = y[j * m + i] = log(pc / pb) - prior;
    }
    y[j * m + g] = p->logphi[j];
  }
  if (!st) {
    st = sp__forest_fit(f->feat, d->n, p->plan.nfeat, y, m, &pp->forest, &p->forest[SP_POWER]);
    if (st == SP_ENOMEM) st = sp__oom(f->err);
  }
  free(map);
  free(y);
  return st;
}

static int init_physet(sp_physet *p, const sp_physet_data *d, const sp_physet_params *pp) {
  const char **names = malloc((sp_dataset_counter_count(d->ds) + 1) * sizeof *names);
  if (!names) return SP_ENOMEM;
  for (size_t c = 0; c < sp_dataset_counter_count(d->ds); c++)
    names[c] = sp_dataset_counter_name(d->ds, c);
  sp__features_plan(names, sp_dataset_counter_count(d->ds), d->base.cu, &p->plan);
  free(names);
  p->n = d->n;
  p->base = d->base;
  p->sigma = pp->sigma;
  p->has_power = d->grid[SP_POWER] != NULL;
  for (int q = 0; q < 1 + p->has_power; q++) {
    if (sp__grid_copy(&p->grid[q], d->grid[q])) return SP_ENOMEM;
    p->gsize[q] = sp__grid_size(&p->grid[q]);
  }
  if (d->memory) {
    const size_t nm = p->grid[SP_TIME].n[2];
    if (!(p->bw = malloc(nm * sizeof *p->bw))) return SP_ENOMEM;
    for (size_t i = 0; i < nm; i++) p->bw[i] = d->memory[i].peak_gbs;
    p->mem_width[SP_TIME] = MEMORY_WIDTH_TIME;
    p->mem_width[SP_POWER] = MEMORY_WIDTH_POWER;
  }
  return sp__physet_cache_time_grid(p);
}

int sp__physet_fit(const sp_physet_data *d, const sp_physet_params *pp, sp_physet **out,
                   sp_error *err) {
  *out = NULL;
  if (!d->n) return sp__fail(err, SP_EINVAL, NULL, 0, 0, NULL, "no training kernels");
  sp_physet *p = calloc(1, sizeof *p);
  fitter f = {.d = d, .p = p, .err = err};
  int st = p && !init_physet(p, d, pp) ? SP_OK : sp__oom(err);
  if (!st) {
    f.feat = malloc(d->n * p->plan.nfeat * sizeof(double));
    f.blocks = malloc(d->n * sizeof(double));
    f.bps = malloc(d->n * sizeof(double));
    f.dram = malloc(d->n * sizeof(double));
    f.lt = malloc(d->n * p->gsize[SP_TIME] * sizeof(double));
    if (!f.feat || !f.blocks || !f.bps || !f.dram || !f.lt) st = sp__oom(err);
  }
  if (!st) st = gather_time(&f);
  if (!st) st = fit_time(&f, pp);
  if (!st && d->n > 1 && sp__novelty_fit(f.feat, d->n, p->plan.nfeat, &p->novelty))
    st = sp__oom(err);
  if (!st && p->has_power) st = gather_floor(&f, pp->floor_kernel);
  if (!st && p->has_power) st = fit_power(&f, pp);
  if (!st && sp__physet_index_model(p)) st = sp__oom(err);
  free(f.feat);
  free(f.blocks);
  free(f.bps);
  free(f.dram);
  free(f.lt);
  if (st) {
    sp__physet_free(p);
    return st;
  }
  *out = p;
  return SP_OK;
}
