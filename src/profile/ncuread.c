/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ncuread.c: Nsight Compute's raw page (ncu --csv --page raw
 * --print-units base), of any width: `--set full` on the H100 gives about
 * 2,300 columns.  The header row starts with "ID" and names "Kernel Name";
 * the units row (an empty ID) and the profiler's own lines ("==PROF==",
 * "==WARNING==") are not launches; every other row is one launch, and must
 * be as wide as the header: a shorter or longer row is a profile cut off
 * or damaged (ncu killed, a full disk), which is refused rather than read
 * as a smaller application.  So is a launch whose time is not a positive
 * number.  Values are read in the base units (ns, hz, byte): a units row
 * of scaled times or frequencies (ncu without --print-units base) is taken
 * back to them, other scaled units refused. */
#include "ncuread.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

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
    /* A metric the profile lacks, read from an exact equivalent it has. */
    const char *alt;
    for (size_t a = 0; c->metric[i] < 0 &&
                       (alt = sp__metric_alternative(p->vendor, p->metrics[i], a, &p->scale[i]));
         a++)
      if ((c->metric[i] = sp__profile_column(f, n, alt)) >= 0) p->source[i] = alt;
    if (c->metric[i] < 0) p->scale[i] = 1.0;
    p->seen[i] = c->metric[i] >= 0;
  }
  return SP_OK;
}

static const char *field(const char *const *f, long col) { return col >= 0 ? f[col] : ""; }

/* A row that is no launch: the profiler's messages, the units row. */
static int not_launch(const sp__columns *c, const char *const *f, size_t n) {
  return n == 0 || strncmp(f[0], "==", 2) == 0 || (n == c->ncols && f[c->id][0] == '\0');
}

/* The factor that takes a value in unit u to the base unit ncu prints
 * with --print-units base (ns, hz, byte, ...), into *f; -1 for a scaled
 * unit that cannot be taken back for certain.  Times and frequencies are
 * SI; a scaled byte, instruction or cycle count (Kbyte, Minst) is
 * refused, as is a rate per scaled time (byte/usecond). */
static int unit_factor(const char *u, double *f) {
  static const struct {
    const char *name;
    double f;
  } exact[] = {{"ns", 1},   {"nsecond", 1},   {"us", 1e3},  {"usecond", 1e3},
               {"ms", 1e6}, {"msecond", 1e6}, {"s", 1e9},   {"second", 1e9},
               {"hz", 1},   {"khz", 1e3},     {"mhz", 1e6}, {"ghz", 1e9}};
  static const char *const counted[] = {"byte", "inst",   "cycle", "sector", "request",
                                        "warp", "thread", "block", "pass",   "hz"};
  *f = 1.0;
  for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
    if (strcasecmp(u, exact[i].name) == 0) {
      *f = exact[i].f;
      return 0;
    }
  const char *slash = strchr(u, '/');
  if (slash && (!strcmp(slash + 1, "usecond") || !strcmp(slash + 1, "msecond") ||
                !strcmp(slash + 1, "nsecond")))
    return -1;
  if (strchr("KMGTkmgt", u[0]) && u[0] != '\0')
    for (size_t i = 0; i < sizeof counted / sizeof *counted; i++)
      if (strncmp(u + 1, counted[i], strlen(counted[i])) == 0) return -1;
  return 0;
}

/* The units row: each wanted metric's unit taken back to the base unit the
 * model's rules read (ncu without --print-units base prints usecond, Ghz,
 * Kbyte, ...), or refused at its column. */
static int read_units(sp_profile *p, const char *const *f, long line, sp_error *err) {
  const sp__columns *c = &p->cols;
  for (size_t i = 0; i < p->nmetrics; i++) {
    double k;
    if (c->metric[i] < 0) continue;
    const char *u = f[c->metric[i]];
    if (unit_factor(u, &k))
      return sp__fail(err, SP_EPARSE, p->path, line, c->metric[i] + 1, p->metrics[i],
                      "unit '%s' is a scaled one that cannot be read back for certain: "
                      "profile with ncu --print-units base (as scalepredict profile does)",
                      u);
    p->scale[i] *= k;
  }
  p->cols.units = 1;
  return SP_OK;
}

/* The launch time (gpu__time_duration.sum, in ns once scaled by its unit)
 * at 0-based column col: a positive number inside runs.csv's bounds. */
static int check_time(const sp_profile *p, const char *s, long line, long col, sp_error *err) {
  const size_t t = p->ctx[CTX_TIME];
  if (sp__metric_number(s) > 0.0)
    return sp__check_launch_ns(p, sp__metric_number(s) * p->scale[t], s, line, col, p->metrics[t],
                               err);
  return sp__fail(err, SP_EPARSE, p->path, line, col + 1, p->metrics[t],
                  "'%s' is not a launch time (a positive number of nanoseconds)", s);
}

/* The SM count a launch ran on, where the profile has the column: a number
 * (the check against the base reads it). */
static int check_sms(const sp_profile *p, const char *const *f, long line, sp_error *err) {
  const size_t k = p->ctx[CTX_SMS];
  const long col = k == (size_t)-1 ? -1 : p->cols.metric[k];
  if (col < 0 || sp__metric_number(f[col]) >= 1.0) return SP_OK;
  return sp__fail(err, SP_EPARSE, p->path, line, col + 1, p->metrics[k], "'%s' is not an SM count",
                  f[col]);
}

/* The row's shape, its ID and its time: a row of the header's width whose
 * ID is a launch number and whose time (when the profile has one) is a
 * positive, finite number of nanoseconds. */
static int check_row(const sp_profile *p, const char *const *f, size_t n, long line,
                     sp_error *err) {
  const sp__columns *c = &p->cols;
  if (n != c->ncols)
    return sp__fail(err, SP_EPARSE, p->path, line, 0, NULL,
                    "row has %zu fields, the header %zu: the profile is cut off or "
                    "damaged (profile again)",
                    n, c->ncols);
  if (isnan(sp__metric_number(f[c->id])))
    return sp__fail(err, SP_EPARSE, p->path, line, (long)c->id + 1, "ID",
                    "'%s' is not a launch number", f[c->id]);
  int st = sp__check_kernel(p, f[c->kernel], line, c->kernel, err);
  if (!st) st = check_sms(p, f, line, err);
  size_t t = p->ctx[CTX_TIME];
  long col = t == (size_t)-1 ? -1 : c->metric[t];
  return st || col < 0 ? st : check_time(p, f[col], line, col, err);
}

int sp__ncu_row(sp_profile *p, const char *const *f, size_t n, long line, sp_error *err) {
  const sp__columns *c = &p->cols;
  if (n == c->ncols && f[c->id][0] == '\0' && !c->units) return read_units(p, f, line, err);
  if (not_launch(c, f, n)) return SP_OK;
  int st = check_row(p, f, n, line, err);
  if (st) return st;
  char shape[256];
  snprintf(shape, sizeof shape, "grid %s block %s", field(f, c->grid), field(f, c->block));
  sp__launch *l;
  st = sp__profile_push(p, f[c->kernel], shape, line, &l, err);
  if (!st) l->id = sp__metric_number(f[c->id]);
  for (size_t i = 0; i < p->nmetrics && !st; i++)
    if (c->metric[i] >= 0) l->v[i] = sp__metric_number(f[c->metric[i]]) * p->scale[i];
  if (!st && !p->device && c->device >= 0 && !(p->device = strdup(f[c->device])))
    st = sp__fail(err, SP_ENOMEM, p->path, line, 0, NULL, "out of memory");
  return st;
}
