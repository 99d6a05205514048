/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bounds.c: the accepted range of each measured quantity (bounds.h). */
#include "bounds.h"

#include <assert.h>

#include "csvread.h"
#include "util/status.h"

static const sp_bound bounds[SP_BOUND_KIND_COUNT] = {
    [SP_BOUND_TIME_MS] = {1e-6, 1e7, "ms", "1 ns to about 2.8 hours"},
    [SP_BOUND_POWER_W] = {1e-3, 1e5, "W", "1 mW to 100 kW"},
    [SP_BOUND_CU] = {1, 100000, "", "compute units or SMs"},
    [SP_BOUND_CLOCK] = {1, 100000, "MHz", "1 MHz to 100 GHz"},
    [SP_BOUND_COUNTER] = {-1e20, 1e20, "", "beyond any 64-bit hardware counter"},
    [SP_BOUND_WEIGHT] = {1e-9, 1e15, "", "a launch count or a relative weight"},
    [SP_BOUND_BUS] = {1, 100000, "bits", "a memory bus width"},
    [SP_BOUND_GBS] = {1e-3, 1e6, "GB/s", "1 MB/s to 1 PB/s"},
    [SP_BOUND_GB] = {1e-6, 1e6, "GB", "1 kB to 1 PB"},
};

const sp_bound *sp__bound(sp_bound_kind kind) {
  assert(kind >= 0 && kind < SP_BOUND_KIND_COUNT);
  return &bounds[kind];
}

static int out_of_range(const char *text, const sp_bound *b, const sp_field_at *at, sp_error *err) {
  return sp__fail(err, SP_EPARSE, at->path, at->line, at->column, at->field,
                  "'%s' is outside the accepted range, %g to %g%s%s (%s)%s", text, b->lo, b->hi,
                  *b->unit ? " " : "", b->unit, b->range, *b->unit ? ": check its unit" : "");
}

int sp__read_bounded(const char *text, sp_bound_kind kind, const sp_field_at *at, double *out,
                     sp_error *err) {
  const sp_bound *b = sp__bound(kind);
  const int positive = b->lo > 0;
  if (sp__parse_double(text, out) || (positive && !(*out > 0)))
    return sp__fail(err, SP_EPARSE, at->path, at->line, at->column, at->field,
                    "'%s' is not a %sfinite number", text, positive ? "positive " : "");
  if (!(*out >= b->lo && *out <= b->hi)) return out_of_range(text, b, at, err);
  return SP_OK;
}

int sp__read_bounded_int(const char *text, sp_bound_kind kind, const sp_field_at *at, int *out,
                         sp_error *err) {
  const sp_bound *b = sp__bound(kind);
  assert(b->lo >= 1);
  if (sp__parse_int(text, out) || *out <= 0)
    return sp__fail(err, SP_EPARSE, at->path, at->line, at->column, at->field,
                    "'%s' is not a positive integer", text);
  if (*out > b->hi) return out_of_range(text, b, at, err);
  return SP_OK;
}
