/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_quantile.h: the weighted quantiles of the similar kernels'
 * residuals (their TAIL, 1/2 and 1 - TAIL shares), which physet's median
 * and its 90% interval read at every grid point: the walk over values in
 * order, and two ways over a whole grid that give the walk's answers bit
 * for bit without ordering every point afresh (docs/performance.md).
 * Residuals come as physet keeps them, one row of g grid points per
 * training kernel (res), the kernels with a weight listed ascending in nz
 * (k of them), kernel j weighing w[j] (the weights sum to 1).  Internal
 * to the physet files. */
#ifndef SP_PHYSET_QUANTILE_H
#define SP_PHYSET_QUANTILE_H

#include <math.h>
#include <stddef.h>

#include "physet_state.h"

/* A training kernel's residual at one grid point, and the kernel. */
typedef struct wval {
  double v;
  size_t j;
} wval;

/* A walk over values in ascending order for their TAIL, 1/2 and 1 - TAIL
 * weighted quantiles: for each share, the smallest value whose cumulative
 * weight, over every value not above it, reaches it.  Equal values need
 * not be added together before the test: the walk reaches a share within
 * a run of them where the run's end would, at the same value.  Start one
 * as {{lo, mid, hi}, 0, INFINITY, 0} (any of the three may be NULL). */
typedef struct qwalk {
  double *out[3]; /* where each quantile goes, or NULL */
  double acc, last;
  int stage; /* the shares reached */
} qwalk;

/* Adds value v of weight w; whether every share is reached.  Inline: the
 * H100 model's walks call it per kernel and grid point. */
static inline int sp__qwalk_add(qwalk *q, double w, double v) {
  static const double share[3] = {TAIL, 0.5, 1 - TAIL};
  q->acc += w;
  q->last = v;
  for (; q->stage < 3 && q->acc >= share[q->stage]; q->stage++)
    if (q->out[q->stage]) *q->out[q->stage] = v;
  return q->stage == 3;
}

/* The shares rounding left the total under: the last value (INFINITY
 * when there was none). */
static inline void sp__qwalk_end(qwalk *q) {
  for (; q->stage < 3; q->stage++)
    if (q->out[q->stage]) *q->out[q->stage] = q->last;
}

/* The quantiles of the k values of buf, in order, kernel j weighing w[j]
 * (mid may be NULL). */
void sp__quantiles_walk(const wval *buf, size_t k, const double *w, double *lo, double *mid,
                        double *hi);

/* The most weighted kernels sp__quantiles_few orders on the stack. */
#define SP_QUANTILES_FEW 16

/* The quantiles at every grid point into lo[0..g), mid[0..g) (or NULL)
 * and hi[0..g), for k <= SP_QUANTILES_FEW kernels: each point's order by
 * insertion from the previous point's, which on a grid of clock pairs
 * mostly holds.  The order is the walk's (residual, then kernel), so are
 * the sums and the quantiles. */
void sp__quantiles_few(const double *res, size_t g, const size_t *nz, size_t k, const double *w,
                       double *lo, double *mid, double *hi);

/* The most kernels that can each weigh at least TAIL (1 / TAIL). */
#define SP_QUANTILES_HEAVY 20

/* The kernels whose weights alone decide the walk's TAIL and 1 - TAIL
 * quantiles at every point, into rows (their rows of res, in kernel
 * order, at most SP_QUANTILES_HEAVY); how many, or 0 when the order at
 * each point decides them.  sp__quantiles_extremes then gives them. */
size_t sp__quantiles_heavy(const double *res, size_t g, const size_t *nz, size_t k, const double *w,
                           const double **rows);

/* The least and the greatest of the h rows' residuals at every one of g
 * grid points into lo and hi, equal ones as the walk takes them. */
void sp__quantiles_extremes(const double **rows, size_t h, size_t g, double *lo, double *hi);

#endif
