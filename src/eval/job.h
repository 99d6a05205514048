/* SPDX-License-Identifier: GPL-3.0-or-later */
/* job.h: one (split, base) job of an evaluation and its per-quantity
 * cache, which the driver (evaluate.c) runs, scoring (score.c) fills and
 * the compared methods (compare.c) read.  Internal. */
#ifndef SP_JOB_H
#define SP_JOB_H

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

#endif
