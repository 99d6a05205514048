/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lowrank.h: low-rank completion of a (kernel x configuration) matrix of
 * log ratios, the part of the shared surrogate (shared.c) that carries
 * information from kernel to kernel.  Internal. */
#ifndef SP_LOWRANK_H
#define SP_LOWRANK_H

#include <stddef.h>

#include "gp.h"

/* The ranks tried, 0 (every kernel the mean shape) to this. */
#define SP_LOWRANK_MAX_RANK 3

typedef struct sp_lowrank sp_lowrank;

/* Completes Y (K rows of G, NaN where not observed; column base is every
 * kernel's reference, 0 where observed) as mu_j + U_k'V_j.  The rank and
 * the ridge are chosen by cross-validation on the observed entries off the
 * base column; columns no kernel observed take mu and V by Gaussian-process
 * interpolation over pts (the columns' coordinates).  seed fixes the
 * folds and the starting factors.  SP_ENOMEM, or SP_ENUMERIC from the
 * interpolation. */
int sp__lowrank_fit(const double *Y, size_t K, size_t G, size_t base, const sp_gp_points *pts,
                    unsigned long seed, sp_lowrank **out);
void sp__lowrank_free(sp_lowrank *lr);

/* The completed entry (k, j). */
double sp__lowrank_mean(const sp_lowrank *lr, size_t k, size_t j);
/* The completion's error variance at column j (log units squared): the
 * cross-validated squared error of its entries, shrunk toward that of the
 * whole matrix; where no kernel observed j, the whole matrix's plus the
 * interpolation's variance; 0 when too little is observed to tell (then
 * the completion is the column means shrunk toward 0). */
double sp__lowrank_err(const sp_lowrank *lr, size_t j);
size_t sp__lowrank_rank(const sp_lowrank *lr);
double sp__lowrank_lambda(const sp_lowrank *lr);
/* The cross-validated root mean squared error; NaN when not estimated. */
double sp__lowrank_cv_rmse(const sp_lowrank *lr);

#endif
