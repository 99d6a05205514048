/* SPDX-License-Identifier: GPL-3.0-or-later */
/* compare.h: how evaluation scores a method of the table
 * (model/method-table.h) that it does not reach through a model's method
 * type: the compared methods and the core, whose cluster choices it scores
 * (compare.c).  Each is one sp_compare object named sp__compare_<name>,
 * which method-rows.c finds by the table's name.  Internal. */
#ifndef SP_COMPARE_H
#define SP_COMPARE_H

#include <stddef.h>

#include "job.h"
#include "scalepredict.h"

/* What a method needs of the job's cache besides surfaces and counters:
 * the fits cache_build (score.c) makes for it. */
enum { SP_CACHE_RIDGE = 1u << 0, SP_CACHE_MIX = 1u << 1, SP_CACHE_STACK = 1u << 2 };

/* Scores held-out kernel k into pred (one value per grid point of q); *none
 * is set when the method has nothing to say about this kernel (no power,
 * no row at the base), which is not an error. */
typedef int sp_score_fn(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                        size_t k, double *pred, int *none);

typedef struct sp_compare {
  unsigned cache; /* SP_CACHE_* */
  sp_score_fn *score;
} sp_compare;

#endif
