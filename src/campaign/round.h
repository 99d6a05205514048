/* SPDX-License-Identifier: GPL-3.0-or-later */
/* round.h: a campaign's grid and one kernel's round (fit the surrogate,
 * estimate the error, complete the surface, name the next batch), shared by
 * plans (plan.c), the shared surrogate (shared.c) and replays (replay.c).
 * Internal. */
#ifndef SP_ROUND_H
#define SP_ROUND_H

#include <stddef.h>

#include "gp.h"
#include "scalepredict.h"

/* The grid in grid order (CU count, then engine clock, then memory clock
 * varying fastest) and its points in normalised log coordinates: each
 * varied axis maps log(value) linearly onto [0, 1]; an axis of one value
 * is left out (dim counts the others). */
typedef struct sp_cgrid {
  int *axis[3];
  size_t naxis[3];
  size_t n, dim;
  double *z;
  sp_gp_points pts;
} sp_cgrid;

/* Sorts copies of the axes; SP_EINVAL naming the axis for an empty one, a
 * value that is not positive or a repeated value. */
int sp__cgrid_init(sp_cgrid *g, const int *const axis[3], const size_t naxis[3], sp_error *err);
void sp__cgrid_free(sp_cgrid *g);
sp_config sp__cgrid_config(const sp_cgrid *g, size_t j);
/* The index of c in the grid, or (size_t)-1. */
size_t sp__cgrid_index(const sp_cgrid *g, const sp_config *c);
/* The middle of the grid: the lower-middle value of every axis. */
size_t sp__cgrid_middle(const sp_cgrid *g);

/* When a kernel is done, and how much a round may name. */
typedef struct sp_round_params {
  size_t base; /* grid index */
  size_t batch, budget;
  double target_error;
} sp_round_params;

/* One kernel: its measurements on the grid, and what its round made of
 * them. */
typedef struct sp_ckernel {
  size_t G;
  double *value[2];        /* measured time and power, NaN where not */
  unsigned char *measured; /* 1 where time is measured */
  size_t n;                /* how many */
  double error[2];         /* estimated surface error, %; NaN: unknown */
  double *fill[2];         /* the completed surface (measured as measured);
                              NaN where nothing can be said */
  size_t *next, nnext;     /* the next batch (grid indices) */
  int state;               /* sp_plan_state */
} sp_ckernel;

int sp__ckernel_alloc(sp_ckernel *k, size_t G);
void sp__ckernel_free(sp_ckernel *k);
/* Forgets every measurement. */
void sp__ckernel_reset(sp_ckernel *k);
/* Records a measurement at grid index j (power NaN when none). */
void sp__ckernel_set(sp_ckernel *k, size_t j, double time_ms, double power_w);

/* The per-kernel surrogate of quantity q: a process fitted to the log
 * values measured (minus prior[j] where prior is not NULL); *gp stays NULL
 * when nothing of q is measured.  idx and y are scratch of g->n. */
int sp__ckernel_fit(const sp_ckernel *k, const sp_cgrid *g, int q, const double *prior, size_t *idx,
                    double *y, sp_gp **gp);
/* The state k's estimated errors and counts put it in (its base must be
 * measured): grid, budget, target, in that order, else measuring. */
int sp__ckernel_decide(const sp_ckernel *k, const sp_round_params *rp);

/* Fits the surrogates to what k holds, then fills error, fill, state and
 * the next batch: the base first; then, unless the kernel is done (the
 * whole grid, the budget, or an error within the target, tested in that
 * order), up to batch configurations by maximum posterior variance of log
 * time plus log power.  SP_ENOMEM or SP_ENUMERIC. */
int sp__campaign_round(sp_ckernel *k, const sp_cgrid *g, const sp_round_params *rp);

#endif
