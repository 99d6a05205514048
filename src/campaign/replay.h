/* SPDX-License-Identifier: GPL-3.0-or-later */
/* replay.h: campaigns replayed on a recorded dataset, for the evaluation
 * of training from fewer measurements (eval/).  Internal. */
#ifndef SP_REPLAY_H
#define SP_REPLAY_H

#include <stddef.h>

#include "scalepredict.h"

typedef struct sp_replay_params {
  int mode;           /* SP_TRAIN_PLAN_ADAPTIVE or SP_TRAIN_PLAN_RANDOM */
  size_t points;      /* configurations measured per kernel (at most,
                         with a target) */
  double target;      /* adaptive: the plan's target error, 0: none */
  size_t batch;       /* adaptive: the plan's batch */
  sp_config base;     /* always measured first */
  unsigned long seed; /* random: kernel k draws from seed + k */
  unsigned threads;   /* kernels replayed at once */
  int surrogate;      /* sp_surrogate */
  /* The kernels replayed (1) and those left as recorded (0), which the
   * surrogate never sees; NULL: every kernel. */
  const unsigned char *include;
} sp_replay_params;

/* How the completions compare with the recording, per quantity: the mean
 * over kernels of the completed values' absolute percentage error over the
 * configurations not measured, and of the plans' estimated error. */
typedef struct sp_replay_stats {
  double points; /* measured per kernel, mean */
  double mape[2];
  double estimated[2];
} sp_replay_stats;

/* A copy of ds in which each (included) kernel's rows hold the completion from
 * rp->points of its own configurations (fewer where an adaptive plan
 * reaches its target first), chosen as rp->mode says and
 * "measured" by reading ds; the rows not measured are marked completed.
 * The statistics cover the included kernels.
 * Only values ds has are replaced (a row without power keeps none).  The
 * grid is ds's; a configuration of it that ds lacks for a kernel is
 * SP_ENOTFOUND naming both. */
int sp__replay_complete(const sp_dataset *ds, const sp_replay_params *rp, sp_dataset **out,
                        sp_replay_stats *stats, sp_error *err);

#endif
