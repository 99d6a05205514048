/* SPDX-License-Identifier: GPL-3.0-or-later */
/* score.h: scoring the evaluation's methods, between the driver
 * (evaluate.c: splits, jobs, worker threads) and the per-method scoring
 * (score.c).  Internal. */
#ifndef SP_SCORE_H
#define SP_SCORE_H

#include <stddef.h>

#include "baselines.h"
#include "ensemble.h"
#include "evaluation.h"
#include "model/model.h"
#include "scalepredict.h"

/* What a job computes once per quantity, on its first cluster count, and
 * every later cluster count reuses: every kernel's surface and counters,
 * the training kernels' data, and the fits of the methods that use no
 * clusters (linear, mix, stack). */
typedef struct sp_eval_cache {
  int ready;
  size_t g, base_flat;
  sp_surface **surf;   /* per dataset kernel; NULL when it lacks data */
  double *xs;          /* per dataset kernel: normalized base counters */
  double *zs;          /* per dataset kernel: asinh counters, z-scored */
  sp_baseline_data zd; /* training kernels in the z-scored space */
  double *zx;
  sp_baseline_data bd; /* training kernels only */
  double *bx, *blogr;
  sp_ridge *ridge;
  double *basis;  /* mix method: g * SP_MIX_TERMS */
  double *shares; /* mix method: training kernels' shares */
  sp_ridge *mix;
  double stack_w[SP_STACK_MEMBERS]; /* stack method: the members' weights */
  sp_stack_fit stack;               /* and its fit on every training kernel */
} sp_eval_cache;

/* One (split, base) job: what it trains on, its own records and error, and
 * scratch buffers that grow to the largest grid it meets. */
typedef struct sp_eval_job {
  const sp_dataset *ds;
  const sp_dataset *tds; /* what training kernels are read from: ds, or
                            its completion under a train plan */
  const sp_eval_params *p;
  size_t split, base;
  const unsigned char *train; /* 1 = training kernel */
  const unsigned char *skip;  /* 1 = no complete counters at the base */
  size_t dropped;             /* kernels skipped for that reason */
  sp_evaluation out;
  sp_error err;
  int status;
  double *pred, *scratch; /* 3 g (values, lo, hi) and g values */
  double novelty;         /* of the kernel a carried method last scored */
  int outside;            /* and whether it lay outside the training data */
  double *blend;          /* soft method: every set's blended features */
  double *members;        /* stack method: every member's log ratios */
  size_t pred_cap, scratch_cap, blend_cap, members_cap;
} sp_eval_job;

/* Scores every held-out kernel of j with every requested method for
 * quantity q of model m (trained with nclusters clusters); the cache c is
 * built on first use.  first_count: whether nclusters is the job's first
 * cluster count, when the methods that use no clusters are scored too.  Fills j->err on failure. */
int sp__eval_score_quantity(sp_eval_job *j, const sp_model *m, sp_quantity q, sp_eval_cache *c,
                            unsigned nclusters, int first_count);
void sp__eval_cache_free(sp_eval_cache *c, size_t nk);
/* The bits of sp_train_params.methods that fit the methods of p the model
 * carries (physet), for the training of a job's first cluster count. */
unsigned sp__eval_train_methods(const sp_eval_params *p);

#endif
