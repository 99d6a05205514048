/* SPDX-License-Identifier: GPL-3.0-or-later */
/* evaluation.h: the evaluation object (evaluation.c): the driver
 * (evaluate.c) fills it, scoring (score.c) appends records to it, stats.c
 * and report.c read it.  Internal. */
#ifndef SP_EVALUATION_H
#define SP_EVALUATION_H

#include "scalepredict.h"

struct sp_evaluation {
  sp_eval_record *records;
  size_t n, cap;
  size_t splits;
  char *note[2]; /* per quantity: why some or all of it was not scored */
  int planned;   /* trained from a train plan's completions: */
  double points, completion_mape[2], completion_estimate[2];
};

/* Appends a record, growing the array; SP_ENOMEM on failure. */
int sp__evaluation_push(sp_evaluation *e, const sp_eval_record *r);

#endif
