/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ensemble.h: the "stack" method of the evaluation, a stacked ensemble
 * (Wolpert 1992; Breiman 1996) of the counter-driven baselines.  Each
 * member predicts a kernel's log ratios; the stack predicts their weighted
 * sum, with non-negative weights that sum to one, chosen to minimize the
 * absolute log error of leave-one-out predictions over the training kernels
 * alone.  Held-out kernels never touch the weights.  Internal. */
#ifndef SP_ENSEMBLE_H
#define SP_ENSEMBLE_H

#include <stddef.h>

#include "baselines.h"

/* The members, in the order of their weights. */
enum {
  SP_STACK_NEAREST,
  SP_STACK_KNN,
  SP_STACK_LINEAR,
  SP_STACK_MIX,
  SP_STACK_CONSTANT,
  SP_STACK_MEMBERS
};

/* Neighbours of the k-nearest method (and of its stack member). */
#define SP_KNN_NEIGHBOURS 3

/* What the members are fitted from: n training kernels, g targets. */
typedef struct sp_stack_data {
  const sp_baseline_data *bd; /* normalized counters and log ratios */
  const sp_baseline_data *zd; /* asinh z-scored counters, same log ratios */
  const double *shares;       /* n * SP_MIX_TERMS: each kernel's mix shares */
  const double *basis;        /* g * SP_MIX_TERMS: the mix basis */
} sp_stack_data;

/* The fitted members for predicting a new kernel: one ridge fit whose
 * g + SP_MIX_TERMS targets are the log ratios (the linear member) followed
 * by the mix shares.  Ridge fits each target on its own, so this predicts
 * what separate linear and mix fits would, with one decomposition of the
 * counters instead of two. */
typedef struct sp_stack_fit {
  sp_ridge *joint;
} sp_stack_fit;

/* Fits the joint ridge member on d; SP_ENUMERIC when the fit fails. */
int sp__stack_fit_members(const sp_stack_data *d, sp_stack_fit *f);
void sp__stack_fit_free(sp_stack_fit *f);

/* Every member's log ratios for a kernel with normalized counters x and
 * z-scored counters z: SP_STACK_MEMBERS rows of g values in out, which
 * must have room for SP_MIX_TERMS values more (working space). */
void sp__stack_members(const sp_stack_data *d, const sp_stack_fit *f, const double *x,
                       const double *z, double *out);

/* Weights from leave-one-out over d's kernels: each kernel predicted by
 * members fitted on the others, scored on every target but skip (the base),
 * weights minimizing the absolute log error (sp__stack_solve_l1).
 * w gets SP_STACK_MEMBERS values.  SP_ENOMEM or SP_ENUMERIC on failure. */
int sp__stack_weights_loo(const sp_stack_data *d, size_t skip, double *w);

/* Non-negative weights summing to one that minimize |P^T w - y|^2, where
 * row j of P (m rows of n values) is member j's prediction of y.  Exact: every
 * subset of members is tried (m <= 16).  Ties go to the smaller subset. */
void sp__stack_solve(const double *P, const double *y, size_t m, size_t n, double *w);
/* The same constraints, minimizing sum |P^T w - y| (absolute log error, close
 * to the percentage error the evaluation scores) by iteratively reweighted
 * least squares.  SP_ENOMEM when its buffer cannot be allocated. */
int sp__stack_solve_l1(const double *P, const double *y, size_t m, size_t n, double *w);

#endif
