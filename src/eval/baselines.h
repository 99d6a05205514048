/* SPDX-License-Identifier: GPL-3.0-or-later */
/* baselines.h: the comparison methods of the evaluation that do not use the
 * cluster sets: nearest training kernel, k nearest kernels, per-target ridge
 * regression of the log ratio on counters, and constant.  Internal. */
#ifndef SP_BASELINES_H
#define SP_BASELINES_H

#include <stddef.h>

#include "model/surface.h"

/* Training data as the baselines see it: n kernels with normalized base
 * counters (n * p) and log-ratio surfaces relative to the base, one row of
 * g values per kernel (log(v(target) / v(base)), 0 at the base). */
typedef struct sp_baseline_data {
  size_t n, p, g;
  const double *x;    /* n * p */
  const double *logr; /* n * g */
} sp_baseline_data;

/* Log ratios of the nearest (Euclidean, normalized counters) kernel. */
void sp__baseline_nearest(const sp_baseline_data *d, const double *x, double *out);
/* Inverse-distance weighted mean of the log ratios of the nn nearest. */
void sp__baseline_knn(const sp_baseline_data *d, const double *x, size_t nn, double *out);

/* Ridge regression of each target's log ratio on the counters, with the
 * regularization chosen per target by generalized cross-validation (GSL
 * multifit).  When there are more counters than kernels the fit runs on
 * principal-component scores, which gives the same ridge solution. */
typedef struct sp_ridge sp_ridge;
int sp__ridge_fit(const sp_baseline_data *d, sp_ridge **out);
/* Predicted log ratios (g values) for normalized counters x. */
void sp__ridge_predict(const sp_ridge *r, const double *x, double *out);
void sp__ridge_free(sp_ridge *r);

/* The "mix" method: a kernel's value relative to the base is modelled as
 * 1 + a (E - 1) + b (M - 1) + c (C - 1), where E, M and C are the engine,
 * memory and CU ratios base/target for time (target/base for power), so a,
 * b and c are the shares of the base value that scale with each axis. */
#define SP_MIX_TERMS 3
/* Basis (E-1, M-1, C-1) of every grid point relative to base: g * 3. */
void sp__mix_basis(const sp_grid *g, const sp_grid_point *base, int forward, double *basis);
/* Least-squares shares of one kernel given its ratios to the base. */
void sp__mix_fit(const double *basis, const double *ratio, size_t g, double *coef);
/* Ratios predicted from shares; kept positive. */
void sp__mix_apply(const double *basis, const double *coef, size_t g, double *ratio);

#endif
