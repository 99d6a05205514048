/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet.c: physical prior + forest-weighted residuals (physet.h), and the
 * method's type for the table of method.h (at the end). */
#include "physet.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "data/dataset.h"
#include "featplan.h"
#include "method.h"
#include "mfread.h"
#include "novelty.h"
#include "util/fsutil.h"
#include "util/inread.h"
#include "util/status.h"

/* A method file's first line is "physet N", N the version this code
 * writes.  Version 1 files (no clock prior), version 2 files (no CU mode:
 * the block prior), version 3 files (no novelty measure), version 4 files
 * (no pipe floor), version 5 files (no time per wave among the features)
 * version 6 files (no narrower power interval for a measured floor) and
 * version 7 files (the interval widths of version 7, OLD_WIDTHS) still
 * load, and predict as they did. */
#define PHYSET_VERSION 8
/* How far (log units: 5%) the bound of the CU axis lets a prediction rise
 * above max(ceil(B / cu), waves) / base: on the H100 suite 8 of 3132
 * measured ratios exceed the bound by more than 5%. */
#define CU_BOUND_SLACK 0.04879016416943205
/* What the power interval's half widths are multiplied by when the user
 * measured the board's floor (sp_observation.floor_w): the floor share of
 * the base power is then known, not estimated from similar kernels, and
 * the widths, calibrated without it, are too wide.  OLD_FLOOR_SPREAD was
 * chosen with OLD_WIDTHS (version 7), FLOOR_KNOWN_SPREAD with POWER_WIDTHS
 * on the H100 training set (docs/method.md, "physet: interval widths"). */
#define FLOOR_KNOWN_SPREAD 0.7
#define OLD_FLOOR_SPREAD 0.75
/* The floor share phi stays below this: a kernel measured at the floor
 * itself would otherwise leave no dynamic part to scale. */
#define PHI_MAX 0.98
/* Reweighting keeps every kernel within this many log-likelihood units of
 * the best one from vanishing entirely (exp(-700) is near DBL_MIN). */
#define LOGLIK_FLOOR (-700.0)
/* Share of the weight left out of each tail of the 90% interval. */
#define TAIL 0.05
/* Search ranges of the sigmoid that maps DRAM traffic to u. */
#define U_MID_LO (-1.0)
#define U_MID_HI 2.0
#define U_WIDTH_LO 1e-3
#define U_WIDTH_HI 10.0

/* How a 90% interval is built around a prediction (log units): the
 * similar kernels' residual spread times spread (for power, with the
 * spread the time interval carries into the prior, times prior, added in
 * quadrature); then each half also holds, in quadrature, floor plus
 * per_log times the log distance from the nearest measured configuration,
 * which no neighbour's spread shows.  TIME_WIDTHS and POWER_WIDTHS are
 * version 8's for the bounded CU axis, chosen on the H100 training set
 * (docs/method.md, "physet: interval widths"); OLD_WIDTHS are those of
 * versions 1-7, kept for the other axes. */
typedef struct widths {
  double spread, prior, floor, per_log;
} widths;
static const widths OLD_WIDTHS = {1, 1, 0.02, 0.04};
static const widths TIME_WIDTHS = {0.8, 1, 0.03, 0.06};
static const widths POWER_WIDTHS = {0.8, 1, 0.02, 0.05};

/* Predictions take their scratch from a pool of this many (scratch_get):
 * as many threads predict at once without allocating; more allocate. */
#define SLOTS 4
/* A slot remembers its last time prediction (the power prior needs it)
 * for observations with at most this many extra measurements. */
#define MEMO_EXTRA 16

typedef struct scratch scratch;
typedef struct pool {
  atomic_int busy[SLOTS];
  scratch *slot[SLOTS];
} pool;

struct sp_physet {
  sp_featplan plan;
  size_t n; /* training kernels */
  sp_config base;
  sp_grid grid[2];
  size_t gsize[2];
  int has_power;
  double sigma;
  int clock;                    /* the clock prior is on */
  int cu_bounded;               /* CU axis: no prior, capped by the block bound */
  int pipe_floor;               /* ... and kept above the busiest pipe's bound */
  double clock_w;               /* its weight lambda */
  double s_max, u_mid, u_width; /* u = sigmoid((s / s_max - u_mid) / u_width) */
  /* Per time grid point: its CU count and base/target engine and memory
   * clock ratios, so that the prior reads no grid on the prediction path. */
  int *t_cu;
  double *t_er, *t_mr;
  double *t_logclock; /* log of the slower clock ratio, per clock pair */
  double *res[2];     /* n * gsize[q] residual surfaces (log units) */
  sp_forest *forest[2];
  double *floor_w;     /* gsize[SP_POWER] floor watts on our board, or NULL */
  double *logphi;      /* n: log floor share at the base, or NULL */
  double floor_spread; /* with a measured floor (version 7 on), else 1 */
  widths widths[2];    /* the interval's widths per quantity */
  sp_novelty *novelty; /* the training kernels' features, or NULL (v1-v3) */
  /* Derived when fitted or read (index_model), for the prediction path: */
  size_t *map;        /* power grid point -> time grid point, or NULL */
  size_t base_at[2];  /* the base's grid point */
  int logphi_finite;  /* every logphi is finite (a fit can underflow one) */
  double *d2base[2];  /* squared log distance of each grid point to the base */
  uint32_t *rank[2];  /* gsize[q] * n: kernel j's place at point i, residuals */
  uint32_t *order[2]; /* ascending (ties by kernel), and the kernel in place r */
  pool *pool;
};

void sp__physet_params_init(sp_physet_params *pp) {
  sp__forest_params_init(&pp->forest);
  pp->sigma = 0.05;
  pp->clock_weight = 0.75;
  pp->floor_kernel = NULL;
  pp->cu_mode = SP_PHYSET_CU_AUTO;
  pp->pipe_floor = 1;
}

static void scratch_free(scratch *s);

void sp__physet_free(sp_physet *p) {
  if (!p) return;
  for (int q = 0; q < 2; q++) {
    sp__grid_free(&p->grid[q]);
    free(p->res[q]);
    sp__forest_free(p->forest[q]);
  }
  free(p->floor_w);
  free(p->logphi);
  sp__novelty_free(p->novelty);
  free(p->t_cu);
  free(p->t_er);
  free(p->t_mr);
  free(p->t_logclock);
  free(p->map);
  for (int q = 0; q < 2; q++) {
    free(p->d2base[q]);
    free(p->rank[q]);
    free(p->order[q]);
  }
  for (int i = 0; p->pool && i < SLOTS; i++) scratch_free(p->pool->slot[i]);
  free(p->pool);
  free(p);
}

const char *sp__physet_vocabulary(const sp_physet *p) { return p->plan.vocabulary; }
int sp__physet_has_floor(const sp_physet *p) { return p->floor_w != NULL; }

/* ---- the time prior ---------------------------------------------------- */

/* log(ceil(B / cu) / ceil(B / cu_base)): the busiest CU's share of blocks. */
static double block_prior(double blocks, int cu, int cu_base) {
  if (blocks < 1 || cu == cu_base) return 0;
  return log(ceil(blocks / cu) / ceil(blocks / cu_base));
}

/* The memory-bound share u of a kernel with DRAM traffic s; the clock
 * prior is log(u * m_base / m + (1 - u) * e_base / e): the share u of the
 * time follows the memory clock, the rest the engine clock. */
static double share_u(const sp_physet *p, double s) {
  double x = (isfinite(s) ? s : 0) / p->s_max;
  return 1 / (1 + exp(-(x - p->u_mid) / p->u_width));
}

/* The bound of the CU axis: B blocks over cu CUs, each CU holding at most
 * bps blocks at once.  Relative to the base, time grows at most like the
 * busiest CU's share of blocks run one at a time (ceil(B / cu)), or like
 * the number of waves of bps blocks per CU (ceil(B / (cu bps))), whichever
 * grows more: log max(ceil(B / cu) / ceil(B / cu_b),
 * ceil(B / (cu bps)) / ceil(B / (cu_b bps))). */
static double block_bound(double blocks, double bps, int cu, int cu_base) {
  if (blocks < 1 || cu == cu_base) return 0;
  double waves = log(ceil(blocks / (cu * bps)) / ceil(blocks / (cu_base * bps)));
  double one = block_prior(blocks, cu, cu_base);
  return one > waves ? one : waves;
}

/* The time grid is CU counts x clock pairs, the clock pair varying
 * fastest: the prior's and the cap's terms depend on one of the two alone,
 * so each is computed once per CU count into axis[0..ncu) and summed per
 * grid point, the same sums as term by term. */
static size_t clock_pairs(const sp_physet *p) {
  return p->grid[SP_TIME].n[1] * p->grid[SP_TIME].n[2];
}

/* cap[i]: the most the log time ratio may be at grid point i (block_bound,
 * plus the slower of the two clock ratios, plus the slack). */
static void time_cap(const sp_physet *p, double blocks, double bps, double *axis, double *cap) {
  const size_t ncu = p->grid[SP_TIME].n[0], nclk = clock_pairs(p);
  for (size_t c = 0; c < ncu; c++)
    axis[c] = block_bound(blocks, bps, p->grid[SP_TIME].v[0][c], p->base.cu);
  for (size_t c = 0; c < ncu; c++)
    for (size_t e = 0; e < nclk; e++)
      cap[c * nclk + e] = axis[c] + p->t_logclock[e] + CU_BOUND_SLACK;
}

/* floor[i]: the least the log time ratio may be at grid point i: the
 * busiest pipe, busy the share busy of the base time on cu_base CUs, does
 * the same work on the target's CUs at the target's engine clock. */
static void time_floor(const sp_physet *p, double busy, double *floor) {
  for (size_t i = 0; i < p->gsize[SP_TIME]; i++)
    floor[i] = log(busy * p->base.cu / p->t_cu[i] * p->t_er[i]);
}

/* axis: room for one term per CU count and one per clock pair. */
static void time_prior(const sp_physet *p, double blocks, double dram, double *axis,
                       double *prior) {
  const size_t ncu = p->grid[SP_TIME].n[0], nclk = clock_pairs(p);
  double *clk = axis + ncu;
  for (size_t c = 0; c < ncu; c++)
    axis[c] = p->cu_bounded ? 0 : block_prior(blocks, p->grid[SP_TIME].v[0][c], p->base.cu);
  for (size_t c = 0; c < ncu; c++)
    for (size_t e = 0; e < nclk; e++) prior[c * nclk + e] = axis[c];
  if (!p->clock) return;
  double u = share_u(p, dram), w = p->clock_w;
  /* t_mr and t_er of the first nclk points are those of every clock pair. */
  for (size_t e = 0; e < nclk; e++) clk[e] = log(u * p->t_mr[e] + (1 - u) * p->t_er[e]);
  for (size_t c = 0; c < ncu; c++)
    for (size_t e = 0; e < nclk; e++) prior[c * nclk + e] += w * clk[e];
}

/* Fills t_cu, t_er, t_mr and t_logclock from the time grid. */
static int cache_time_grid(sp_physet *p) {
  const size_t g = p->gsize[SP_TIME];
  p->t_cu = malloc(g * sizeof *p->t_cu);
  p->t_er = malloc(g * sizeof *p->t_er);
  p->t_mr = malloc(g * sizeof *p->t_mr);
  p->t_logclock = malloc(g * sizeof *p->t_logclock);
  if (!p->t_cu || !p->t_er || !p->t_mr || !p->t_logclock) return SP_ENOMEM;
  for (size_t i = 0; i < g; i++) {
    sp_config c = sp__grid_config(&p->grid[SP_TIME], i);
    p->t_cu[i] = c.cu;
    p->t_er[i] = (double)p->base.engine_mhz / c.engine_mhz;
    p->t_mr[i] = (double)p->base.memory_mhz / c.memory_mhz;
    p->t_logclock[i] = log(p->t_er[i] > p->t_mr[i] ? p->t_er[i] : p->t_mr[i]);
  }
  return SP_OK;
}

/* Index in the time grid of each power grid point (the power grid is a
 * sub-grid of the time grid). */
static int power_to_time(const sp_physet *p, size_t *map) {
  for (size_t i = 0; i < p->gsize[SP_POWER]; i++) {
    sp_config c = sp__grid_config(&p->grid[SP_POWER], i);
    sp_grid_point gp;
    if (sp__grid_locate(&p->grid[SP_TIME], &c, &gp)) return SP_EGRID;
    map[i] = sp__grid_flat(&p->grid[SP_TIME], &gp);
  }
  return SP_OK;
}

static size_t base_index(const sp_physet *p, sp_quantity q) {
  sp_grid_point gp;
  if (sp__grid_locate(&p->grid[q], &p->base, &gp)) return (size_t)-1;
  return sp__grid_flat(&p->grid[q], &gp);
}

/* log(phi(c) + (1 - phi(c)) * ratio), phi(c) = phi_base * F(c) / F(base). */
static double power_prior(double phi_base, double floor_c, double floor_b, double time_ratio_inv) {
  double phi = phi_base * floor_c / floor_b;
  phi = phi < 0 ? 0 : phi > PHI_MAX ? PHI_MAX : phi;
  return log(phi + (1 - phi) * time_ratio_inv);
}

/* Squared distance between two configurations in log space. */
static double config_dist2(const sp_config *a, const sp_config *b) {
  double d0 = log((double)a->cu / b->cu), d1 = log((double)a->engine_mhz / b->engine_mhz),
         d2 = log((double)a->memory_mhz / b->memory_mhz);
  return d0 * d0 + d1 * d1 + d2 * d2;
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

/* rank[q] and order[q]: the kernels' order by residual at each grid point,
 * so that the interval's weighted quantiles (tails) need no sort. */
static int index_residuals(sp_physet *p, sp_quantity q) {
  const size_t n = p->n, g = p->gsize[q];
  if (n >= UINT32_MAX) return SP_ENOMEM;
  p->rank[q] = malloc(g * n * sizeof *p->rank[q]);
  p->order[q] = malloc(g * n * sizeof *p->order[q]);
  ranked *r = malloc(n * sizeof *r);
  int st = p->rank[q] && p->order[q] && r ? SP_OK : SP_ENOMEM;
  for (size_t i = 0; !st && i < g; i++) {
    for (size_t j = 0; j < n; j++) r[j] = (ranked){p->res[q][j * g + i], (uint32_t)j};
    qsort(r, n, sizeof *r, cmp_ranked);
    for (size_t k = 0; k < n; k++) {
      p->order[q][i * n + k] = r[k].j;
      p->rank[q][i * n + r[k].j] = (uint32_t)k;
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
    p->d2base[q][i] = config_dist2(&c, &p->base);
  }
  return SP_OK;
}

/* Index in the time grid of each power grid point (the power grid is a
 * sub-grid of the time grid); map stays NULL, and power predictions fail
 * with SP_EGRID, when it is not. */
static int index_power_grid(sp_physet *p) {
  if (!(p->map = malloc(p->gsize[SP_POWER] * sizeof *p->map))) return SP_ENOMEM;
  if (power_to_time(p, p->map)) {
    free(p->map);
    p->map = NULL;
  }
  return SP_OK;
}

/* Everything the prediction path reads besides the fitted or saved state,
 * and the pool of scratch (empty until the first prediction). */
static int index_model(sp_physet *p) {
  int st = (p->pool = calloc(1, sizeof *p->pool)) ? SP_OK : SP_ENOMEM;
  for (int i = 0; !st && i < SLOTS; i++) atomic_init(&p->pool->busy[i], 0);
  for (int q = 0; q < 1 + p->has_power && !st; q++) {
    p->base_at[q] = base_index(p, (sp_quantity)q);
    st = index_distances(p, (sp_quantity)q);
    if (!st) st = index_residuals(p, (sp_quantity)q);
  }
  if (!st && p->has_power) st = index_power_grid(p);
  p->logphi_finite = 1;
  for (size_t j = 0; p->logphi && j < p->n; j++) p->logphi_finite &= isfinite(p->logphi[j]) != 0;
  return st;
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

/* Squared misfit of the clock term with share u to the log ratios y. */
static double u_misfit(const double *et, const double *mt, const double *y, size_t g, double u) {
  double e = 0;
  for (size_t i = 0; i < g; i++) {
    double r = log(u * mt[i] + (1 - u) * et[i]) - y[i];
    e += r * r;
  }
  return e;
}

/* The u in [0, 1] that best explains the log ratios y: a coarse scan, then
 * golden-section search around the best point. */
static double best_u(const double *et, const double *mt, const double *y, size_t g) {
  enum { SCAN = 20, GOLDEN = 40 };
  double best = INFINITY, ub = 0;
  for (int k = 0; k <= SCAN; k++) {
    double e = u_misfit(et, mt, y, g, (double)k / SCAN);
    if (e < best) best = e, ub = (double)k / SCAN;
  }
  double a = fmax(0, ub - 1.0 / SCAN), b = fmin(1, ub + 1.0 / SCAN), r = (sqrt(5) - 1) / 2;
  double c = b - r * (b - a), d = a + r * (b - a);
  double fc = u_misfit(et, mt, y, g, c), fd = u_misfit(et, mt, y, g, d);
  for (int k = 0; k < GOLDEN; k++) {
    if (fc < fd)
      b = d, d = c, fd = fc, c = b - r * (b - a), fc = u_misfit(et, mt, y, g, c);
    else
      a = c, c = d, fc = fd, d = a + r * (b - a), fd = u_misfit(et, mt, y, g, d);
  }
  double um = (a + b) / 2;
  return u_misfit(et, mt, y, g, um) < best ? um : ub;
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
  int st = y && x && u && axis ? SP_OK : sp__oom(f->err);
  for (size_t j = 0; !st && j < n; j++) {
    time_prior(p, f->blocks[j], 0, axis, y); /* the CU prior alone: clock is still off */
    for (size_t i = 0; i < g; i++) y[i] = f->lt[j * g + i] - y[i];
    x[j] = (isfinite(f->dram[j]) ? f->dram[j] : 0) / p->s_max;
    u[j] = best_u(et, mt, y, g);
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
    time_prior(p, f->blocks[j], f->dram[j], prior + g, prior);
    for (size_t i = 0; i < g; i++) p->res[SP_TIME][j * g + i] = f->lt[j * g + i] - prior[i];
  }
  free(prior);
  st = sp__forest_fit(f->feat, f->d->n, p->plan.nfeat, p->res[SP_TIME], g, &pp->forest,
                      &p->forest[SP_TIME]);
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
  int st = map && y && p->res[SP_POWER] && p->logphi ? power_to_time(p, map) : sp__oom(f->err);
  size_t bp = base_index(p, SP_POWER);
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
      double prior =
          p->floor_w ? power_prior(phi, p->floor_w[i], p->floor_w[bp], exp(-f->lt[j * gt + map[i]]))
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
  return cache_time_grid(p);
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
  if (!st && index_model(p)) st = sp__oom(err);
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

/* ---- prediction ------------------------------------------------------------ */

/* A training kernel's residual at one grid point, and the kernel. */
typedef struct wval {
  double v;
  size_t j;
} wval;

/* Scratch for one prediction, sized by the model: its pool (scratch_get)
 * keeps SLOTS of them, so that a prediction allocates nothing. */
typedef struct scratch {
  double *w;       /* n: the forest's weights */
  size_t *nz, nnz; /* the kernels whose weight is not 0, ascending */
  wval *pairs;     /* n: residuals and kernels, sorted for the interval */
  uint64_t *bits;  /* n bits: ranks present at one grid point */
  double *prior, *mean, *corr;
  double *cap;   /* most the log ratio may be at each point, or NULL */
  double *floor; /* least the log ratio may be at each point, or NULL */
  double *cap_buf, *floor_buf;
  double *extra;            /* squared width added to the interval (extra_width) */
  double *axis;             /* the prior's terms per CU count and per clock pair */
  double *time;             /* 3 gsize[TIME]: time and its interval (power's prior) */
  double *pab;              /* 2 gsize[POWER]: the prior at the interval's ends */
  double *feat;             /* nfeat: the kernel's features */
  double *obs_val;          /* residual seen at each observed grid point */
  size_t *obs_idx, obs_cap; /* ... room for obs_cap of them */
  size_t nobs;
  size_t skip, wait; /* sort_pairs' back-off */
  /* What the time prediction depends on (memo_key), for this prediction
   * (key, nkey: 0 when too long to keep) and for the one in time (memo,
   * nmemo), and what time holds: 0 nothing, 1 time, 2 with its interval. */
  double *key, *memo;
  size_t nkey, nmemo;
  int held;
} scratch;

static void scratch_free(scratch *s) {
  if (!s) return;
  free(s->w);
  free(s->nz);
  free(s->pairs);
  free(s->bits);
  free(s->prior);
  free(s->obs_val);
  free(s->obs_idx);
  free(s->key);
  free(s);
}

/* Room for the observation's extra measurements: the arrays grow once for
 * a caller that gives more than the grid has points, then stay. */
static int scratch_fit_obs(scratch *s, size_t nextra) {
  if (nextra + 1 <= s->obs_cap) return SP_OK;
  double *v = realloc(s->obs_val, (nextra + 1) * sizeof *v);
  if (v) s->obs_val = v;
  size_t *i = realloc(s->obs_idx, (nextra + 1) * sizeof *i);
  if (i) s->obs_idx = i;
  if (!v || !i) return SP_ENOMEM;
  s->obs_cap = nextra + 1;
  return SP_OK;
}

/* The longest memo key: the base time, the shape, the features and four
 * values per extra measurement (memo_key). */
static size_t memo_room(const sp_physet *p) { return 5 + p->plan.nfeat + 4 * MEMO_EXTRA; }

/* One block of doubles for every per-point array: g for prior, mean,
 * corr, cap, floor and extra each, g + 1 for axis, 3 g for time, 2 g for
 * pab, and the features; another for the two memo keys. */
static scratch *scratch_new(const sp_physet *p) {
  const size_t n = p->n, g = p->gsize[SP_TIME], words = (n + 63) / 64;
  scratch *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->w = malloc(n * sizeof *s->w);
  s->nz = malloc(n * sizeof *s->nz);
  s->pairs = malloc(n * sizeof *s->pairs);
  s->bits = malloc(words * sizeof *s->bits);
  s->prior = malloc((12 * g + 1 + p->plan.nfeat) * sizeof *s->prior);
  s->key = malloc(2 * memo_room(p) * sizeof *s->key);
  if (!s->w || !s->nz || !s->pairs || !s->bits || !s->prior || !s->key || scratch_fit_obs(s, g)) {
    scratch_free(s);
    return NULL;
  }
  s->mean = s->prior + g;
  s->corr = s->mean + g;
  s->cap_buf = s->corr + g;
  s->floor_buf = s->cap_buf + g;
  s->extra = s->floor_buf + g;
  s->axis = s->extra + g;
  s->time = s->axis + g + 1;
  s->pab = s->time + 3 * g;
  s->feat = s->pab + 2 * g;
  s->memo = s->key + memo_room(p);
  return s;
}

/* Scratch for one prediction: a free slot of the model's pool (made on its
 * first use), or, when every slot is taken by another thread, a scratch of
 * its own; *slot says which, for scratch_put. */
static scratch *scratch_get(const sp_physet *p, size_t nextra, int *slot) {
  pool *pl = p->pool;
  for (int i = 0; i < SLOTS; i++) {
    if (atomic_exchange_explicit(&pl->busy[i], 1, memory_order_acquire)) continue;
    if (!pl->slot[i]) pl->slot[i] = scratch_new(p);
    if (pl->slot[i] && !scratch_fit_obs(pl->slot[i], nextra)) {
      *slot = i;
      return pl->slot[i];
    }
    atomic_store_explicit(&pl->busy[i], 0, memory_order_release);
    return NULL;
  }
  *slot = -1;
  scratch *s = scratch_new(p);
  if (s && scratch_fit_obs(s, nextra)) {
    scratch_free(s);
    return NULL;
  }
  return s;
}

static void scratch_put(const sp_physet *p, scratch *s, int slot) {
  if (slot < 0)
    scratch_free(s);
  else
    atomic_store_explicit(&p->pool->busy[slot], 0, memory_order_release);
}

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

/* The weights of q's forest for the kernel's features, then reweighted by
 * the observed points when there are any. */
static void weigh(const sp_physet *p, sp_quantity q, scratch *s) {
  sp__forest_weights(p->forest[q], s->feat, s->w);
  list_weighted(p->n, s);
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
      double d = config_dist2(&c, &oc), mis = s->obs_val[o] - s->mean[s->obs_idx[o]];
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

/* The kernels with a weight at grid point i into s->pairs, ordered by
 * residual and, among equal residuals, by kernel: the order a stable sort
 * of the residuals in kernel order gives.  It is read off the ranks
 * computed at load (index_residuals) through a bitmap of the ranks
 * present, without sorting. */
static void ranked_pairs(const sp_physet *p, sp_quantity q, size_t i, scratch *s) {
  const size_t n = p->n, g = p->gsize[q], words = (n + 63) / 64, nnz = s->nnz;
  const uint32_t *rank = p->rank[q] + i * n, *order = p->order[q] + i * n;
  const size_t *nz = s->nz;
  const double *res = p->res[q] + i;
  uint64_t *bits = s->bits;
  wval *pairs = s->pairs;
  for (size_t b = 0; b < words; b++) bits[b] = 0;
  for (size_t t = 0; t < nnz; t++) {
    uint32_t r = rank[nz[t]];
    bits[r / 64] |= (uint64_t)1 << (r % 64);
  }
  size_t k = 0;
  for (size_t b = 0; b < words; b++)
    for (uint64_t m = bits[b]; m; m &= m - 1) {
      size_t j = order[b * 64 + (size_t)__builtin_ctzll(m)];
      pairs[k++] = (wval){res[j * g], j};
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
 * the ranks (the H100's SM counts, and where the CU count changes).  After
 * the insertion gives up, it is not tried for 1, 2, 4, ... points. */
static void sort_pairs(const sp_physet *p, sp_quantity q, size_t i, scratch *s) {
  if (i == 0) {
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

/* The TAIL and 1 - TAIL weighted quantiles of the residuals at grid point
 * i: for each, the smallest residual whose cumulative weight (over every
 * residual not above it, added in order) reaches the share.  Called for
 * i = 0, 1, ... in turn (the order at i - 1 is where resorted_pairs
 * starts). */
static void tails(const sp_physet *p, sp_quantity q, size_t i, scratch *s, double *lo, double *hi) {
  sort_pairs(p, q, i, s);
  const size_t k = s->nnz;
  const wval *buf = s->pairs;
  const double *w = s->w;
  double acc = 0;
  *lo = *hi = INFINITY;
  for (size_t j = 0, e = 0; j < k; j = e) {
    const double v = buf[j].v;
    do acc += w[buf[e++].j]; /* ties count together */
    while (e < k && buf[e].v == v);
    if (!(acc >= TAIL)) continue;
    if (isinf(*lo)) *lo = v;
    if (acc >= 1 - TAIL) {
      *hi = v;
      break;
    }
  }
  if (isinf(*hi) && k) *hi = buf[k - 1].v; /* rounding left the total under 1 - TAIL */
  if (isinf(*lo) && k) *lo = buf[k - 1].v;
}

/* prior + residual at grid point i, kept above the floor and under the cap
 * (the cap wins where measurement noise puts the floor above it). */
static double capped(const scratch *s, size_t i, double residual) {
  double v = s->prior[i] + residual;
  if (s->floor && v < s->floor[i]) v = s->floor[i];
  return s->cap && v > s->cap[i] ? s->cap[i] : v;
}

/* Keeps the mean residual between the floor and the cap, before the
 * correction sees it: the prediction still passes through every measured
 * point. */
static void apply_cap(const sp_physet *p, sp_quantity q, scratch *s) {
  for (size_t i = 0; (s->cap || s->floor) && i < p->gsize[q]; i++)
    s->mean[i] = capped(s, i, s->mean[i]) - s->prior[i];
}

/* extra[i]: the squared width, in log units, that the interval at grid
 * point i adds for its distance from the nearest measured configuration
 * (the base or an observed point); -1 at a measured point, where the
 * prediction is the measurement and the interval shrinks to it. */
static void extra_width(const sp_physet *p, sp_quantity q, scratch *s) {
  const sp_grid *g = &p->grid[q];
  const widths *w = &p->widths[q];
  for (size_t i = 0; i < p->gsize[q]; i++) {
    double d2 = p->d2base[q][i];
    for (size_t o = 0; o < s->nobs; o++) {
      sp_config c = sp__grid_config(g, i), oc = sp__grid_config(g, s->obs_idx[o]);
      double d = config_dist2(&c, &oc);
      d2 = d < d2 ? d : d2;
    }
    s->extra[i] = d2 > 0 ? w->floor * w->floor + w->per_log * w->per_log * d2 : -1;
  }
}

/* The interval at grid point i around the log ratio mid: the half widths
 * dl and dh widened by extra in quadrature, the upper end kept under the
 * cap and the lower end above the floor (log units, +-INFINITY for none). */
static void widen(double base_value, double mid, double dl, double dh, double extra, double cap,
                  double floor, double *lo, double *hi) {
  if (extra < 0) {
    *lo = *hi = base_value * exp(mid);
    return;
  }
  double h = mid + sqrt(dh * dh + extra), l = mid - sqrt(dl * dl + extra);
  *lo = base_value * exp(l > floor ? l : floor < mid ? floor : mid);
  *hi = base_value * exp(h < cap ? h : cap > mid ? cap : mid);
}

static void finish(const sp_physet *p, sp_quantity q, scratch *s, double base_value, double *out,
                   double *lo, double *hi) {
  for (size_t i = 0; i < p->gsize[q]; i++) {
    double c = s->corr[i], mid = s->prior[i] + s->mean[i] + c;
    out[i] = base_value * exp(mid);
    if (!lo || !hi) continue;
    double ql, qh;
    tails(p, q, i, s, &ql, &qh);
    double l = capped(s, i, ql) + c, h = capped(s, i, qh) + c, k = p->widths[q].spread;
    widen(base_value, mid, k * (mid - l), k * (h - mid), s->extra[i],
          s->cap ? s->cap[i] + c : INFINITY, s->floor ? s->floor[i] + c : -INFINITY, &lo[i],
          &hi[i]);
  }
}

/* What the counters say about the kernel's launch and memory traffic. */
typedef struct shape {
  double blocks, bps, dram;
  double busy; /* the busiest pipe's share of the base time (featplan.h) */
} shape;

/* Time over the time grid into out (lo and hi: its interval, or NULL),
 * from the features in s->feat. */
static void predict_time(const sp_physet *p, const sp_observation *obs, const shape *sh, scratch *s,
                         double *out, double *lo, double *hi) {
  s->cap = s->floor = NULL;
  if (p->cu_bounded && sh->blocks >= 1 && sh->bps >= 1) {
    s->cap = s->cap_buf;
    time_cap(p, sh->blocks, sh->bps, s->axis, s->cap);
  }
  if (p->pipe_floor && sh->busy > 0) {
    s->floor = s->floor_buf;
    time_floor(p, sh->busy, s->floor);
  }
  time_prior(p, sh->blocks, sh->dram, s->axis, s->prior);
  observe_extra(p, SP_TIME, obs, obs->base_time_ms, s);
  weigh(p, SP_TIME, s);
  weighted_mean(p, SP_TIME, s);
  apply_cap(p, SP_TIME, s);
  correction(p, SP_TIME, s);
  if (lo && hi) extra_width(p, SP_TIME, s);
  finish(p, SP_TIME, s, obs->base_time_ms, out, lo, hi);
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
static void finish_power(const sp_physet *p, scratch *s, double base_value, const double *pa,
                         const double *pb, double k, double *lo, double *hi) {
  for (size_t i = 0; i < p->gsize[SP_POWER]; i++) {
    double mid = s->prior[i] + s->mean[i] + s->corr[i];
    double ql, qh;
    tails(p, SP_POWER, i, s, &ql, &qh);
    const widths *v = &p->widths[SP_POWER];
    double dl = v->spread * (s->mean[i] - ql), dp = v->prior * (s->prior[i] - pa[i]);
    double dh = v->spread * (qh - s->mean[i]), dq = v->prior * (pb[i] - s->prior[i]);
    widen(base_value, mid, k * sqrt(dl * dl + dp * dp), k * sqrt(dh * dh + dq * dq), s->extra[i],
          INFINITY, -INFINITY, &lo[i], &hi[i]);
  }
}

/* The power prior at every point of the power grid for the time
 * prediction time (over the time grid, through map); 0 without a floor. */
static void power_priors(const sp_physet *p, const sp_observation *obs, double phi,
                         const double *time, double *prior) {
  const size_t bp = p->base_at[SP_POWER];
  for (size_t i = 0; i < p->gsize[SP_POWER]; i++)
    prior[i] = p->floor_w ? power_prior(phi, p->floor_w[i], p->floor_w[bp],
                                        obs->base_time_ms / time[p->map[i]])
                          : 0;
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
  power_priors(p, obs, phi, time, s->prior);
  observe_extra(p, SP_POWER, obs, obs->base_power_w, s);
  if (s->nobs) reweight(p, SP_POWER, s);
  weighted_mean(p, SP_POWER, s);
  correction(p, SP_POWER, s);
  finish(p, SP_POWER, s, obs->base_power_w, out, NULL, NULL);
  if (interval) {
    extra_width(p, SP_POWER, s);
    power_priors(p, obs, phi, time + 2 * gt, pab);
    power_priors(p, obs, phi, time + gt, pab + g);
    double k = obs->floor_w > 0 ? p->floor_spread : 1;
    finish_power(p, s, obs->base_power_w, pab, pab + g, k, lo, hi);
  }
  return SP_OK;
}

int sp__physet_predict(const sp_physet *p, sp_quantity q, const sp_observation *obs, double *out,
                       double *lo, double *hi) {
  if (q == SP_POWER && (!p->has_power || !(obs->base_power_w > 0))) return SP_ENOPOWER;
  if (!(obs->base_time_ms > 0) || !isfinite(obs->base_time_ms)) return SP_EINVAL;
  int slot;
  scratch *s = scratch_get(p, obs->nextra, &slot);
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
  scratch_put(p, s, slot);
  return st;
}

double sp__physet_novelty(const sp_physet *p, const sp_observation *obs) {
  if (!p->novelty || !(obs->base_time_ms > 0) || !isfinite(obs->base_time_ms)) return NAN;
  int slot;
  scratch *s = scratch_get(p, 0, &slot);
  if (!s) return NAN;
  sp__features_compute(&p->plan, obs->counters, obs->base_time_ms, s->feat);
  double v = sp__novelty_of(p->novelty, s->feat);
  scratch_put(p, s, slot);
  return v;
}

/* ---- text form ----------------------------------------------------------- */

static void write_row(FILE *fp, const char *key, const double *v, size_t n) {
  fprintf(fp, "%s", key);
  for (size_t i = 0; i < n; i++) fprintf(fp, " %.17g", v[i]);
  fprintf(fp, "\n");
}

static void write_quantity(const sp_physet *p, sp_quantity q, FILE *fp) {
  const size_t g = p->gsize[q];
  fprintf(fp, "quantity %s %zu\n", q == SP_TIME ? "time" : "power", g);
  if (q == SP_POWER) {
    if (p->floor_w)
      write_row(fp, "floor", p->floor_w, g);
    else
      fprintf(fp, "floor none\n");
    if (p->floor_w) write_row(fp, "logphi", p->logphi, p->n);
  }
  for (size_t j = 0; j < p->n; j++) write_row(fp, "r", p->res[q] + j * g, g);
  sp__forest_save(p->forest[q], fp);
}

int sp__physet_save(const sp_physet *p, const char *path, sp_error *err) {
  sp_atomic_file af;
  int st = sp__atomic_open(&af, path, err);
  if (st) return st;
  char base[64];
  sp_config_format(&p->base, base, sizeof base);
  fprintf(af.fp, "physet %d\nvocabulary %s features %zu\nbase %s\nsigma %.17g\n", PHYSET_VERSION,
          p->plan.vocabulary, p->plan.nfeat, base, p->sigma);
  if (p->clock)
    fprintf(af.fp, "clock %.17g %.17g %.17g %.17g\n", p->clock_w, p->s_max, p->u_mid, p->u_width);
  else
    fprintf(af.fp, "clock none\n");
  fprintf(af.fp, "cu %s\npipes %s\nfloor spread %.17g\n", p->cu_bounded ? "bounded" : "blocks",
          p->pipe_floor ? "floor" : "none", p->floor_spread);
  for (int q = 0; q < 2; q++) {
    const widths *w = &p->widths[q];
    fprintf(af.fp, "widths %s %.17g %.17g %.17g %.17g\n", q == SP_TIME ? "time" : "power",
            w->spread, w->prior, w->floor, w->per_log);
  }
  fprintf(af.fp, "train %zu\n", p->n);
  write_quantity(p, SP_TIME, af.fp);
  if (p->has_power)
    write_quantity(p, SP_POWER, af.fp);
  else
    fprintf(af.fp, "quantity power absent\n");
  if (p->novelty)
    sp__novelty_save(p->novelty, af.fp);
  else
    fprintf(af.fp, "novelty none\n");
  fprintf(af.fp, "end\n");
  return sp__atomic_commit(&af, err);
}

typedef sp_mf_reader reader;

static int parse_values(reader *r, char *s, double *v, size_t n) {
  char *end;
  for (size_t i = 0; i < n; i++) {
    errno = 0;
    v[i] = strtod(s, &end);
    if (end == s || errno || !isfinite(v[i]))
      return sp__mf_bad(r, "a value is missing or not finite");
    s = end;
  }
  return *s == '\n' || *s == '\0' ? SP_OK : sp__mf_bad(r, "more values than expected");
}

static int read_values(reader *r, const char *key, double *v, size_t n) {
  char *s = sp__mf_line(r, key);
  return s ? parse_values(r, s, v, n)
           : sp__mf_bad(r, "unexpected line: the method file is damaged");
}

/* "floor none", or the floor watts followed by the kernels' log phi. */
static int read_floor(reader *r, sp_physet *p, size_t g) {
  char *s = sp__mf_line(r, "floor");
  if (!s) return sp__mf_bad(r, "expected the floor line");
  if (!strcmp(s, " none\n")) return SP_OK;
  p->floor_w = malloc(g * sizeof(double));
  p->logphi = malloc(p->n * sizeof(double));
  if (!p->floor_w || !p->logphi) return sp__oom(r->err);
  int st = parse_values(r, s, p->floor_w, g);
  for (size_t i = 0; !st && i < g; i++)
    if (!(p->floor_w[i] > 0)) st = sp__mf_bad(r, "a floor power is not positive");
  return st ? st : read_values(r, "logphi", p->logphi, p->n);
}

/* Returns 1 for "quantity power absent" in a model without power. */
static int read_quantity(reader *r, sp_physet *p, sp_quantity q) {
  char *s = sp__mf_line(r, "quantity");
  size_t g;
  const char *name = q == SP_TIME ? "time" : "power";
  char want[32];
  snprintf(want, sizeof want, " %s absent\n", name);
  if (s && q == SP_POWER && !strcmp(s, want))
    return p->has_power ? sp__mf_bad(r, "the power part is missing") : 1;
  snprintf(want, sizeof want, " %s %%zu", name);
  if (!s || sscanf(s, want, &g) != 1 || g != p->gsize[q] || (q == SP_POWER && !p->has_power))
    return sp__mf_bad(r, "the quantity does not match the model's grid");
  int st = q == SP_POWER ? read_floor(r, p, g) : SP_OK;
  if (!st && !(p->res[q] = malloc(p->n * g * sizeof(double)))) st = sp__oom(r->err);
  for (size_t j = 0; j < p->n && !st; j++) st = read_values(r, "r", p->res[q] + j * g, g);
  return st ? st : sp__mf_forest(r, &p->forest[q], p->n, p->plan.nfeat);
}

/* "novelty none", or the novelty measure (novelty.h). */
static int read_novelty(reader *r, sp_physet *p) {
  long pos = ftell(r->fp), line;
  if (sp__mf_line(r, "novelty") && !strcmp(r->buf, "novelty none\n")) return SP_OK;
  if (pos < 0 || fseek(r->fp, pos, SEEK_SET))
    return sp__mf_bad(r, "cannot read the novelty measure");
  int st = sp__novelty_load(r->fp, p->plan.nfeat, r->line, &line, &p->novelty);
  r->line = line;
  if (st == SP_ENOMEM) return sp__oom(r->err);
  return st ? sp__mf_bad(r, "the novelty measure is damaged or does not match the model") : SP_OK;
}

static int read_header(reader *r, sp_physet *p, const sp_config *base) {
  char voc[32], cfgtext[64];
  size_t nf;
  char *s;
  sp_config cfg;
  sp_error ignore;
  r->line++;
  r->version = 0;
  if (getline(&r->buf, &r->cap, r->fp) > 0)
    for (int v = 1; v <= PHYSET_VERSION && !r->version; v++) {
      char magic[32];
      snprintf(magic, sizeof magic, "physet %d\n", v);
      if (!strcmp(r->buf, magic)) r->version = v;
    }
  if (!r->version) return sp__mf_bad(r, "not a physet method file (or another version)");
  const int v1 = r->version == 1, v2 = r->version == 2;
  /* not features before */
  if (r->version < 5) sp__features_without_pipe(&p->plan);
  if (r->version < 6) sp__features_without_wave(&p->plan);
  if (!(s = sp__mf_line(r, "vocabulary")) || sscanf(s, " %31s features %zu", voc, &nf) != 2 ||
      strcmp(voc, p->plan.vocabulary) || nf != p->plan.nfeat)
    return sp__mf_bad(r, "the features do not match the model's counters");
  if (!(s = sp__mf_line(r, "base")) || sscanf(s, " %63s", cfgtext) != 1 ||
      sp_config_parse(cfgtext, &cfg, &ignore) || !sp_config_equal(&cfg, base))
    return sp__mf_bad(r, "the base configuration does not match the model's");
  if (!(s = sp__mf_line(r, "sigma")) || sscanf(s, " %lf", &p->sigma) != 1 || !(p->sigma > 0))
    return sp__mf_bad(r, "sigma is missing or not positive");
  if (!v1 && !(s = sp__mf_line(r, "clock"))) return sp__mf_bad(r, "expected the clock line");
  if (!v1 && strcmp(s, " none\n")) {
    if (sscanf(s, " %lf %lf %lf %lf", &p->clock_w, &p->s_max, &p->u_mid, &p->u_width) != 4 ||
        !(p->clock_w > 0 && p->clock_w <= 1) || !(p->s_max > 0 && isfinite(p->s_max)) ||
        !(p->u_mid >= U_MID_LO && p->u_mid <= U_MID_HI) ||
        !(p->u_width >= U_WIDTH_LO && p->u_width <= U_WIDTH_HI))
      return sp__mf_bad(r, "the clock prior is damaged");
    p->clock = 1;
  }
  if (!v1 && !v2) {
    if (!(s = sp__mf_line(r, "cu")) || (strcmp(s, " bounded\n") && strcmp(s, " blocks\n")))
      return sp__mf_bad(r, "expected 'cu bounded' or 'cu blocks'");
    p->cu_bounded = !strcmp(s, " bounded\n");
  }
  if (r->version >= 5) {
    if (!(s = sp__mf_line(r, "pipes")) || (strcmp(s, " floor\n") && strcmp(s, " none\n")))
      return sp__mf_bad(r, "expected 'pipes floor' or 'pipes none'");
    p->pipe_floor = !strcmp(s, " floor\n");
  }
  p->floor_spread = 1;
  if (r->version >= 7 &&
      (!(s = sp__mf_line(r, "floor")) || sscanf(s, " spread %lf", &p->floor_spread) != 1 ||
       !(p->floor_spread > 0 && p->floor_spread <= 1)))
    return sp__mf_bad(r, "expected 'floor spread' with a value in (0, 1]");
  for (int q = 0; q < 2; q++) {
    widths *w = &p->widths[q];
    *w = OLD_WIDTHS;
    if (r->version >= 8 &&
        (!(s = sp__mf_line(r, "widths")) ||
         sscanf(s, q == SP_TIME ? " time %lf %lf %lf %lf" : " power %lf %lf %lf %lf", &w->spread,
                &w->prior, &w->floor, &w->per_log) != 4 ||
         !(w->spread > 0 && w->spread <= 10) || !(w->prior >= 0 && w->prior <= 10) ||
         !(w->floor >= 0 && w->floor <= 10) || !(w->per_log >= 0 && w->per_log <= 10)))
      return sp__mf_bad(r, q == SP_TIME ? "expected 'widths time' and four widths in [0, 10]"
                                        : "expected 'widths power' and four widths in [0, 10]");
  }
  if (!(s = sp__mf_line(r, "train")) || sscanf(s, " %zu", &p->n) != 1 || !p->n || p->n > 1000000)
    return sp__mf_bad(r, "the training kernel count is missing or out of range");
  return SP_OK;
}

int sp__physet_load(const char *path, const char *const *counter_names, size_t ncounters,
                    const sp_config *base, const sp_grid *const grid[2], sp_physet **out,
                    sp_error *err) {
  *out = NULL;
  sp_physet *p = calloc(1, sizeof *p);
  if (!p) return sp__oom(err);
  reader r = {.path = path, .err = err};
  sp__features_plan(counter_names, ncounters, base->cu, &p->plan);
  p->base = *base;
  p->has_power = grid[SP_POWER] != NULL;
  int st = SP_OK;
  for (int q = 0; q < 1 + p->has_power && !st; q++) {
    if (sp__grid_copy(&p->grid[q], grid[q]))
      st = sp__oom(err);
    else
      p->gsize[q] = sp__grid_size(&p->grid[q]);
  }
  if (!st && cache_time_grid(p)) st = sp__oom(err);
  if (!st &&
      !(r.fp = sp__open_bounded(path, SP_METHOD_FILE_MAX_BYTES, SP_EMODEL, "method file", err)))
    st = err->status;
  if (!st) st = read_header(&r, p, base);
  if (!st) st = read_quantity(&r, p, SP_TIME);
  if (!st) {
    st = read_quantity(&r, p, SP_POWER);
    if (st == 1) st = SP_OK;
  }
  if (!st && r.version >= 4) st = read_novelty(&r, p);
  if (!st && !sp__mf_line(&r, "end")) st = sp__mf_bad(&r, "expected 'end'");
  if (!st && index_model(p)) st = sp__oom(err);
  if (r.fp) fclose(r.fp);
  free(r.buf);
  if (st) {
    sp__physet_free(p);
    return st;
  }
  *out = p;
  return SP_OK;
}

/* ---- the method's type (method.h) ------------------------------------------ */

static int physet_fit(const sp_method_data *d, const sp_train_params *p, void **state,
                      sp_error *err) {
  sp_physet_params pp;
  sp__physet_params_init(&pp);
  pp.floor_kernel = p->floor_kernel;
  pp.forest.seed = p->seed;
  sp_physet_data pd = {d->ds, d->kernels, d->n, d->ctx.base, {d->ctx.grid[0], d->ctx.grid[1]}};
  sp_physet *ps = NULL;
  int st = sp__physet_fit(&pd, &pp, &ps, err);
  *state = ps;
  return st;
}

static int physet_predict(const sp_model *m, const void *state, sp_quantity q,
                          const sp_observation *obs, double *out) {
  (void)m;
  return sp__physet_predict(state, q, obs, out, NULL, NULL);
}

static int physet_interval(const sp_model *m, const void *state, sp_quantity q,
                           const sp_observation *obs, double *out, double *lo, double *hi) {
  (void)m;
  return sp__physet_predict(state, q, obs, out, lo, hi);
}

static double physet_novelty(const void *state, const sp_observation *obs) {
  return sp__physet_novelty(state, obs);
}

static int physet_save(const void *state, const char *path, sp_error *err) {
  return sp__physet_save(state, path, err);
}

static int physet_load(const sp_method_context *ctx, const char *path, void **state,
                       sp_error *err) {
  sp_physet *ps = NULL;
  int st =
      sp__physet_load(path, ctx->counter_names, ctx->ncounters, &ctx->base, ctx->grid, &ps, err);
  *state = ps;
  return st;
}

static void physet_free(void *state) { sp__physet_free(state); }

const sp_method_type sp__method_physet = {
    .name = "physet",
    .needs = SP_NEEDS_COUNTERS | SP_USES_MEASURED | SP_USES_FLOOR,
    .fit = physet_fit,
    .predict = physet_predict,
    .save = physet_save,
    .load = physet_load,
    .free = physet_free,
    .predict_interval = physet_interval,
    .novelty = physet_novelty,
};
