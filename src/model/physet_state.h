/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_state.h: the physet method's state (struct sp_physet) and the
 * constants its files share: the prior (physet_prior.c), the fit
 * (physet_fit.c), the method file (physet_file.c), the scratch pool
 * (physet_pool.c) and prediction (physet.c).  Internal to the physet files. */
#ifndef SP_PHYSET_STATE_H
#define SP_PHYSET_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "featplan.h"
#include "forest.h"
#include "novelty.h"
#include "scalepredict.h"
#include "surface.h"

typedef struct sp_physet sp_physet;

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
  /* Time only: the timing jitter of one measurement, in ms (0: none).
   * Each half of a time interval also holds, in quadrature, jitter / T
   * for the base's measured time T and for the point's predicted one
   * (and, across memory systems, for the other card's): a launch of a
   * few microseconds reads a microsecond apart from run to run and from
   * board to board, which no neighbour's spread shows. */
  double jitter;
} widths;
static const widths OLD_WIDTHS = {1, 1, 0.02, 0.04, 0};
/* Version 9: each half of an interval also holds, in quadrature, this
 * much per log unit of peak bandwidth between a point's memory system and
 * the nearest measured one (docs/method.md, "physet: the memory axis"). */
#define MEMORY_WIDTH_TIME 0.08
#define MEMORY_WIDTH_POWER 0.2
static const widths TIME_WIDTHS = {0.8, 1, 0.03, 0.06, 0.001};
static const widths POWER_WIDTHS = {0.8, 1, 0.02, 0.05, 0};

/* Features of the block-count line's check after the kernel's own
 * (physet_affine.h). */
#define AFFINE_FEATS 4
/* The kinds of round a line counts (physet_affine.h). */
enum { LINE_BLOCKS, LINE_WAVES, LINE_KINDS };
typedef struct pool pool; /* physet_pool.h */

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
  int point_median;             /* ... and, from the base alone, the median
                                   of the neighbours' residuals, the time
                                   (not its interval) under the block bound
                                   without slack and, on fewer CUs than the
                                   base, not under the base time scaled by
                                   the faster clock ratio (method file line
                                   "cu bounded median") */
  double clock_w;               /* its weight lambda */
  double s_max, u_mid, u_width; /* u = sigmoid((s / s_max - u_mid) / u_width) */
  /* Per time grid point: its CU count and base/target engine and memory
   * clock ratios, so that the prior reads no grid on the prediction path. */
  int *t_cu;
  double *t_er, *t_mr;
  double *t_logclock; /* log of the slower clock ratio, per clock pair */
  double *t_logfast;  /* log of the faster one (point_median's bound) */
  /* Per CU count of the time grid (axis order), the point at the base's
   * clocks with that CU count, or NULL when the grid lacks one; and,
   * version 9, the same per time grid point (t_j: the point at the base's
   * clocks with the point's CU count). */
  size_t *cu_at;
  size_t *t_j;
  /* Version 10: the forest of the time's memory steps (physet_step.h), or
   * NULL. */
  sp_forest *step_forest;
  /* Version 11: a second step forest, curve_forest, whose features end
   * with step_curve more, the kernel's log time ratio at each CU count at
   * the base's clocks (sp__physet_step_features), read when the kernel was
   * measured at another configuration of the base's memory system;
   * step_curve 0 and curve_forest NULL: none. */
  size_t step_curve;
  sp_forest *curve_forest;
  /* The block-count lines' checks (physet_affine.h), per kind of round:
   * a forest over aff_n samples and their labels aff_y, or NULL. */
  sp_forest *aff_forest[LINE_KINDS]; /* over nfeat + AFFINE_FEATS features */
  double *aff_y[LINE_KINDS];
  size_t aff_n[LINE_KINDS];
  /* With two or more further CU counts measured: the largest relative
   * residual at a measured point under which their least-squares line is
   * followed (physet_affine.h), or 0: never. */
  double line_fit;
  /* The peak bandwidth (GB/s) of each memory clock of the time grid, in
   * axis order (version 9), or NULL: t_mr is the clock ratio. */
  double *bw;
  double mem_width[2]; /* version 9: interval half width per log bandwidth
                          of the memory step, per quantity */
  double *res[2];      /* n * gsize[q] residual surfaces (log units) */
  sp_forest *forest[2];
  double *floor_w;     /* gsize[SP_POWER] floor watts on our board, or NULL */
  double *logphi;      /* n: log floor share at the base, or NULL */
  double floor_spread; /* with a measured floor (version 7 on), else 1 */
  widths widths[2];    /* the interval's widths per quantity */
  sp_novelty *novelty; /* the training kernels' features, or NULL (v1-v3) */
  /* Derived when fitted or read (sp__physet_index_model), for the prediction path: */
  size_t *map;        /* power grid point -> time grid point, or NULL */
  size_t base_at[2];  /* the base's grid point */
  int logphi_finite;  /* every logphi is finite (a fit can underflow one) */
  double *d2base[2];  /* squared log distance of each grid point to the base */
  double *extra0[2];  /* the interval's widths for that distance (index_extra) */
  uint32_t *rank[2];  /* gsize[q] * n: kernel j's place at point i, residuals */
  uint32_t *order[2]; /* ascending (ties by kernel), and the kernel in place r */
  double *sorted[2];  /* gsize[q] * n: the residual in place r */
  /* Version 9, per grid point i of q: step_to, the point at the base's
   * memory clock with i's CU count and engine clock (SIZE_MAX at the
   * base's memory clock, or where the grid lacks it), and as rank and
   * order, the kernels' order by their memory step res(i) - res(step_to)
   * (memory_step). */
  size_t *step_to[2];
  uint32_t *step_rank[2], *step_order[2];
  pool *pool;
};

#endif
