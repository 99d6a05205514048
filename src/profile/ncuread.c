/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ncuread.c: Nsight Compute's raw page (ncu --csv --page raw
 * --print-units base), of any width: `--set full` on the H100 gives about
 * 2,300 columns.  The header row starts with "ID" and names "Kernel Name";
 * a units row and the profiler's "==PROF==" lines are not launches (their
 * first field is not a number); every other row of the header's width is
 * one launch. */
#include "profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/status.h"

int sp__ncu_is_header(const char *const *f, size_t n) {
  return n >= 2 && strcmp(f[0], "ID") == 0 && sp__profile_column(f, n, "Kernel Name") >= 0;
}

int sp__ncu_header(sp_profile *p, const char *const *f, size_t n, sp_error *err) {
  (void)err;
  sp__columns *c = &p->cols;
  c->ncols = n;
  c->id = 0;
  c->kernel = sp__profile_column(f, n, "Kernel Name");
  c->grid = sp__profile_column(f, n, "Grid Size");
  c->block = sp__profile_column(f, n, "Block Size");
  c->device = sp__profile_column(f, n, "device__attribute_display_name");
  for (size_t i = 0; i < p->nmetrics; i++) {
    c->metric[i] = sp__profile_column(f, n, p->metrics[i]);
    p->seen[i] = c->metric[i] >= 0;
  }
  return SP_OK;
}

static const char *field(const char *const *f, long col) { return col >= 0 ? f[col] : ""; }

int sp__ncu_row(sp_profile *p, const char *const *f, size_t n, long line, sp_error *err) {
  const sp__columns *c = &p->cols;
  if (n != c->ncols || isnan(sp__metric_number(f[c->id])))
    return SP_OK; /* the units row, the profiler's messages */
  char shape[256];
  snprintf(shape, sizeof shape, "grid %s block %s", field(f, c->grid), field(f, c->block));
  sp__launch *l;
  int st = sp__profile_push(p, f[c->kernel], shape, line, &l, err);
  for (size_t i = 0; i < p->nmetrics && !st; i++)
    if (c->metric[i] >= 0) l->v[i] = sp__metric_number(f[c->metric[i]]);
  if (!st && !p->device && c->device >= 0 && !(p->device = strdup(f[c->device])))
    st = sp__fail(err, SP_ENOMEM, p->path, line, 0, NULL, "out of memory");
  return st;
}
