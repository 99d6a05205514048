/* SPDX-License-Identifier: GPL-3.0-or-later */
/* score.h: scoring a job's held-out kernels with every requested method
 * (score.c), for the driver (evaluate.c).  Internal. */
#ifndef SP_SCORE_H
#define SP_SCORE_H

#include <stddef.h>

#include "job.h"
#include "scalepredict.h"

/* Scores every held-out kernel of j with every requested method for
 * quantity q of model m (trained with nclusters clusters); the cache c is
 * built on first use.  first_count: whether nclusters is the job's first
 * cluster count, when the methods that use no clusters are scored too.  Fills j->err on failure. */
int sp__eval_score_quantity(sp_eval_job *j, const sp_model *m, sp_quantity q, sp_eval_cache *c,
                            unsigned nclusters, int first_count);
void sp__eval_cache_free(sp_eval_cache *c, size_t nk);

#endif
