/* SPDX-License-Identifier: GPL-3.0-or-later */
/* evaluation.c: sp_evaluation, the records of an accuracy study: what
 * scoring (score.c) appends to, the driver (evaluate.c) fills in and the
 * statistics (stats.c) and report (report.c) read. */
#include "evaluation.h"

#include <stdlib.h>

int sp__evaluation_push(sp_evaluation *e, const sp_eval_record *r) {
  if (e->n == e->cap) {
    size_t cap = e->cap ? 2 * e->cap : 4096;
    sp_eval_record *p = realloc(e->records, cap * sizeof *p);
    if (!p) return SP_ENOMEM;
    e->records = p;
    e->cap = cap;
  }
  e->records[e->n++] = *r;
  return SP_OK;
}

void sp_evaluation_free(sp_evaluation *e) {
  if (!e) return;
  free(e->records);
  free(e->note[0]);
  free(e->note[1]);
  free(e);
}

size_t sp_evaluation_count(const sp_evaluation *e) { return e->n; }
const sp_eval_record *sp_evaluation_records(const sp_evaluation *e) { return e->records; }
size_t sp_evaluation_splits(const sp_evaluation *e) { return e->splits; }
const char *sp_evaluation_note(const sp_evaluation *e, sp_quantity q) {
  return (unsigned)q < 2 ? e->note[q] : NULL;
}

int sp_evaluation_completion(const sp_evaluation *e, sp_quantity q, double *points, double *mape,
                             double *estimated) {
  if (!e->planned || (unsigned)q > 1) return SP_ENOTFOUND;
  *points = e->points;
  *mape = e->completion_mape[q];
  *estimated = e->completion_estimate[q];
  return SP_OK;
}
