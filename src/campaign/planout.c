/* SPDX-License-Identifier: GPL-3.0-or-later */
/* planout.c: a plan as CSV: the next batches, the kernels' status, and the
 * completed surfaces (runs.csv plus a source column).  '.' decimals
 * whatever the locale, LF line ends, names quoted when they need it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "util/fsutil.h"
#include "util/status.h"
#include "util/textout.h"

/* The header that marks a completed file, for sp_output_check too. */
#define COMPLETED_HEADER "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w,source"

/* Significant digits of a completed value: the surrogate is not better
 * than a part in a million anywhere. */
#define COMPLETED_DIGITS 6

/* A measured value as the shortest decimal that reads back as it, so that
 * it is copied as it was written (2.385, not 2.3849999999999998); a
 * completed one to COMPLETED_DIGITS. */
static void write_value(FILE *fp, double v, int measured) {
  char buf[40];
  if (!isfinite(v)) return;
  /* Fewer digits than a number's integer part would switch %g to an
   * exponent (6e+01 for 60): take the fewest that need none, unless the
   * number needs one anyway. */
  snprintf(buf, sizeof buf, "%.17g", v);
  const int exponent = strchr(buf, 'e') != NULL;
  for (int digits = measured ? 1 : COMPLETED_DIGITS; digits <= 17; digits++) {
    snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (!exponent && strchr(buf, 'e')) continue;
    if (!measured || strtod(buf, NULL) == v) break;
  }
  fputs(buf, fp);
}

static void write_config(FILE *fp, const char *kernel, const sp_config *c) {
  sp_csv_write_field(fp, kernel);
  fprintf(fp, ",%d,%d,%d", c->cu, c->engine_mhz, c->memory_mhz);
}

static int finish(FILE *fp) { return ferror(fp) ? SP_EIO : SP_OK; }

int sp_plan_write_next(const sp_plan *pl, FILE *fp) {
  sp_c_numeric loc;
  sp__c_numeric_begin(&loc);
  fputs("kernel,cu,engine_mhz,memory_mhz" SP_CSV_EOL, fp);
  for (size_t k = 0; k < pl->nk; k++)
    for (size_t i = 0; i < pl->k[k].pub.nnext; i++) {
      write_config(fp, pl->k[k].name, &pl->k[k].next[i]);
      fputs(SP_CSV_EOL, fp);
    }
  sp__c_numeric_end(&loc);
  return finish(fp);
}

int sp_plan_write_status(const sp_plan *pl, FILE *fp) {
  sp_c_numeric loc;
  sp__c_numeric_begin(&loc);
  fputs("kernel,measured,grid,error_time_pct,error_power_pct,state,next" SP_CSV_EOL, fp);
  for (size_t k = 0; k < pl->nk; k++) {
    const sp_plan_kernel *e = &pl->k[k].pub;
    sp_csv_write_field(fp, e->name);
    fprintf(fp, ",%zu,%zu,", e->measured, pl->grid.n);
    sp__csv_number(fp, e->error_time, 4);
    fputc(',', fp);
    sp__csv_number(fp, e->error_power, 4);
    fprintf(fp, ",%s,%zu" SP_CSV_EOL, sp_plan_state_name(e->state), e->nnext);
  }
  sp__c_numeric_end(&loc);
  return finish(fp);
}

static int check_completable(const sp_plan *pl, sp_error *err) {
  for (size_t k = 0; k < pl->nk; k++)
    if (!pl->k[k].ck.n)
      return sp__fail(err, SP_ENOTFOUND, NULL, 0, 0, "kernel",
                      "kernel '%s' has no measurement on the grid to complete its surface from",
                      pl->k[k].name);
  return SP_OK;
}

static void write_kernel(FILE *fp, const sp_plan *pl, const sp_plan_entry *e) {
  for (size_t j = 0; j < pl->grid.n; j++) {
    const sp_config c = sp__cgrid_config(&pl->grid, j);
    write_config(fp, e->name, &c);
    fputc(',', fp);
    write_value(fp, e->ck.fill[SP_TIME][j], e->ck.measured[j]);
    fputc(',', fp);
    write_value(fp, e->ck.fill[SP_POWER][j], e->ck.measured[j]);
    fputs(e->ck.measured[j] ? ",measured" SP_CSV_EOL : ",completed" SP_CSV_EOL, fp);
  }
}

int sp_plan_write_completed(const sp_plan *pl, FILE *fp, sp_error *err) {
  int st = check_completable(pl, err);
  if (st) return st;
  sp_c_numeric loc;
  sp__c_numeric_begin(&loc);
  fputs(COMPLETED_HEADER SP_CSV_EOL, fp);
  for (size_t k = 0; k < pl->nk; k++) write_kernel(fp, pl, &pl->k[k]);
  sp__c_numeric_end(&loc);
  return finish(fp) ? sp__fail(err, SP_EIO, NULL, 0, 0, NULL, "write error") : SP_OK;
}

int sp_plan_save_completed(const sp_plan *pl, const char *path, sp_error *err) {
  int st = check_completable(pl, err);
  if (st) return st;
  sp_atomic_file af;
  st = sp__atomic_open_output(&af, path, SP_OUTPUT_COMPLETED, err);
  if (st) return st;
  st = sp_plan_write_completed(pl, af.fp, err);
  /* A stream error fails the commit, which names the file and the cause. */
  if (st == SP_EIO && ferror(af.fp)) return sp__atomic_commit(&af, err);
  if (st) {
    sp__atomic_abort(&af);
    return st;
  }
  return sp__atomic_commit(&af, err);
}
