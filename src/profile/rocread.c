/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rocread.c: rocprofv3's counter collection CSV (rocprofv3 --pmc ...
 * --output-format csv: *_counter_collection.csv), one row per dispatch and
 * counter:
 *
 *   Correlation_Id,Dispatch_Id,Agent_Id,Queue_Id,Process_Id,Thread_Id,
 *   Grid_Size,Kernel_Id,Kernel_Name,Workgroup_Size,LDS_Block_Size,
 *   Scratch_Size,VGPR_Count,Accum_VGPR_Count,SGPR_Count,Counter_Name,
 *   Counter_Value,Start_Timestamp,End_Timestamp
 *
 * Columns are found by name, in any order.  The rows of one dispatch become
 * one launch: a wanted metric is either a column (Grid_Size, the stamps) or
 * a Counter_Name, whose values over the rows of the dispatch are summed
 * (rocprofv3 writes one row per counter unless asked for its dimensions).
 * Every row must be as wide as the header (a shorter one is a file cut
 * off), and its stamps must give a positive time. */
#include "rocread.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/status.h"

int sp__roc_is_header(const char *const *f, size_t n) {
  static const char *const need[] = {"Dispatch_Id", "Kernel_Name", "Counter_Name", "Counter_Value"};
  for (size_t i = 0; i < sizeof need / sizeof *need; i++)
    if (sp__profile_column(f, n, need[i]) < 0) return 0;
  return 1;
}

int sp__roc_header(sp_profile *p, const char *const *f, size_t n, sp_error *err) {
  (void)err;
  sp__columns *c = &p->cols;
  c->ncols = n;
  c->id = sp__profile_column(f, n, "Dispatch_Id");
  c->kernel = sp__profile_column(f, n, "Kernel_Name");
  c->grid = sp__profile_column(f, n, "Grid_Size");
  c->block = sp__profile_column(f, n, "Workgroup_Size");
  c->name = sp__profile_column(f, n, "Counter_Name");
  c->value = sp__profile_column(f, n, "Counter_Value");
  c->device = -1;
  for (size_t i = 0; i < p->nmetrics; i++) {
    c->metric[i] = sp__profile_column(f, n, p->metrics[i]);
    p->seen[i] = c->metric[i] >= 0;
  }
  return SP_OK;
}

static size_t hash(const char *s) {
  size_t h = 14695981039346656037u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

/* The slot of dispatch id: its launch, or the empty slot it would take. */
static size_t slot(const sp__columns *c, const char *id) {
  size_t i = hash(id) & (c->hcap - 1);
  while (c->hkey[i] && strcmp(c->hkey[i], id) != 0) i = (i + 1) & (c->hcap - 1);
  return i;
}

/* Keeps the table at most half full. */
static int grow(sp__columns *c, size_t used) {
  if (2 * (used + 1) <= c->hcap) return SP_OK;
  sp__columns big = *c;
  big.hcap = c->hcap ? 2 * c->hcap : 64;
  big.hkey = calloc(big.hcap, sizeof *big.hkey);
  big.hval = calloc(big.hcap, sizeof *big.hval);
  if (!big.hkey || !big.hval) {
    free(big.hkey);
    free(big.hval);
    return SP_ENOMEM;
  }
  for (size_t i = 0; i < c->hcap; i++)
    if (c->hkey[i]) {
      size_t s = slot(&big, c->hkey[i]);
      big.hkey[s] = c->hkey[i];
      big.hval[s] = c->hval[i];
    }
  free(c->hkey);
  free(c->hval);
  *c = big;
  return SP_OK;
}

/* The launch of the row's dispatch, made from its columns when new. */
static int dispatch(sp_profile *p, const char *const *f, long line, sp__launch **out,
                    sp_error *err) {
  sp__columns *c = &p->cols;
  if (grow(c, p->nlaunches))
    return sp__fail(err, SP_ENOMEM, p->path, line, 0, NULL, "out of memory");
  size_t s = slot(c, f[c->id]);
  if (c->hkey[s]) {
    *out = &p->launches[c->hval[s]];
    return SP_OK;
  }
  char shape[256];
  snprintf(shape, sizeof shape, "grid %s block %s", c->grid >= 0 ? f[c->grid] : "",
           c->block >= 0 ? f[c->block] : "");
  int st = sp__profile_push(p, f[c->kernel], shape, line, out, err);
  if (!st && !(c->hkey[s] = strdup(f[c->id])))
    return sp__fail(err, SP_ENOMEM, p->path, line, 0, NULL, "out of memory");
  c->hval[s] = p->nlaunches - 1;
  for (size_t i = 0; i < p->nmetrics && !st; i++)
    if (c->metric[i] >= 0) (*out)->v[i] = sp__metric_number(f[c->metric[i]]);
  return st;
}

/* The row's launch time, End_Timestamp - Start_Timestamp (ns), when the
 * profile has the stamps: both numbers, the end after the start. */
static int check_time(const sp_profile *p, const char *const *f, long line, sp_error *err) {
  const sp__columns *c = &p->cols;
  size_t t = p->ctx[CTX_TIME], e = p->ctx[CTX_TIME_END];
  long ct = c->metric[t], ce = c->metric[e];
  if (ct < 0 || ce < 0) return SP_OK;
  double start = sp__metric_number(f[ct]), end = sp__metric_number(f[ce]);
  if (isnan(start))
    return sp__fail(err, SP_EPARSE, p->path, line, ct + 1, p->metrics[t], "'%s' is not a number",
                    f[ct]);
  if (!(end - start > 0.0) || !isfinite(end - start))
    return sp__fail(err, SP_EPARSE, p->path, line, ce + 1, p->metrics[e],
                    "'%s' is not after %s %s: a launch time is positive", f[ce], p->metrics[t],
                    f[ct]);
  return sp__check_launch_ns(p, end - start, f[ce], line, ce, p->metrics[e], err);
}

int sp__roc_row(sp_profile *p, const char *const *f, size_t n, long line, sp_error *err) {
  const sp__columns *c = &p->cols;
  if (n != c->ncols)
    return sp__fail(err, SP_EPARSE, p->path, line, 0, NULL,
                    "row has %zu fields, the header %zu: the profile is cut off or damaged "
                    "(profile again)",
                    n, c->ncols);
  int st = check_time(p, f, line, err);
  if (!st && c->kernel >= 0) st = sp__check_kernel(p, f[c->kernel], line, c->kernel, err);
  if (st) return st;
  double v = sp__metric_number(f[c->value]);
  if (isnan(v))
    return sp__fail(err, SP_EPARSE, p->path, line, (long)c->value + 1, "Counter_Value",
                    "'%s' is not a number", f[c->value]);
  sp__launch *l;
  st = dispatch(p, f, line, &l, err);
  size_t i = st ? (size_t)-1 : sp__profile_metric(p, f[c->name]);
  if (i != (size_t)-1 && c->metric[i] < 0) {
    l->v[i] = isnan(l->v[i]) ? v : l->v[i] + v;
    p->seen[i] = 1;
  }
  return st;
}
