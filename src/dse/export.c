/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export.c: the prediction matrix (kernels x configurations) as CSV that
 * spreadsheets open as they are: RFC 4180 quoting, LF line ends as every
 * CSV of the tool, a header row whose names carry the units, '.' decimals
 * whatever the locale. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/space.h"
#include "util/fsutil.h"
#include "util/status.h"
#include "util/textout.h"

/* Seven significant digits keep measured inputs (usually four to six
 * digits) exact while staying short. */
#define DIGITS 7

void sp_export_params_init(sp_export_params *p) {
  memset(p, 0, sizeof *p);
  p->layout = SP_EXPORT_LONG;
  p->grid_interp = 1;
}

typedef struct exporter {
  const sp_model *m;
  const sp_dataset *ds;
  const sp_export_params *p;
  FILE *fp;
  sp_space space;
  double *counters;
  double *v[7];   /* t, p, e, mt, mp, te, pe over the space */
  double *app[4]; /* the application's t, e, mt, me (with weights) */
  sp_error *err;
} exporter;

enum { V_T, V_P, V_E, V_MT, V_MP, V_TE, V_PE, NV };
static const char *const names[NV] = {"time_ms",          "power_w",          "energy_mj",
                                      "measured_time_ms", "measured_power_w", "time_error_pct",
                                      "power_error_pct"};
/* Columns written per configuration: predictions, then measurements and
 * errors when asked for (measured energy is implied by time and power). */
static const int plain[] = {V_T, V_P, V_E};
static const int measured[] = {V_T, V_P, V_E, V_MT, V_MP, V_TE, V_PE};

static size_t column_count(const exporter *x) { return x->p->with_measured ? 7 : 3; }
static int column(const exporter *x, size_t j) {
  return x->p->with_measured ? measured[j] : plain[j];
}

static int check_params(const sp_export_params *p, sp_error *err) {
  if (p->layout != SP_EXPORT_LONG && p->layout != SP_EXPORT_WIDE)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "layout", "must be long or wide");
  return SP_OK;
}

static int exporter_init(exporter *x, sp_error *err) {
  int st = sp__space_init(&x->space, x->m, x->p->grid_interp, err);
  if (st) return st;
  x->counters = malloc((sp_model_counter_count(x->m) + 1) * sizeof(double));
  int ok = x->counters != NULL;
  for (int i = 0; i < NV && ok; i++) ok = (x->v[i] = malloc(x->space.n * sizeof(double))) != NULL;
  for (int i = 0; i < 4 && ok && x->p->weights; i++)
    ok = (x->app[i] = calloc(x->space.n, sizeof(double))) != NULL;
  return ok ? SP_OK : sp__oom(err);
}

static void exporter_free(exporter *x) {
  sp__space_free(&x->space);
  free(x->counters);
  for (int i = 0; i < NV; i++) free(x->v[i]);
  for (int i = 0; i < 4; i++) free(x->app[i]);
}

/* Signed percentage error, rounded to 0.0001 points: finer digits are
 * rounding noise of the scaling walk and would only make "0" look like
 * "-2.7e-14". */
static double pct(double pred, double meas) {
  double v = round(1e4 * 100.0 * (pred - meas) / meas) / 1e4;
  return v + 0.0; /* no negative zero */
}

static int fill_kernel(exporter *x, size_t k) {
  sp_observation obs;
  int st = sp_model_observe(x->m, x->ds, k, x->counters, &obs, x->err);
  if (st) return st;
  st = sp__space_predict(&x->space, &obs, x->v[V_T], x->v[V_P], NULL, x->err);
  if (st) {
    snprintf(x->err->file, sizeof x->err->file, "%.500s", sp_dataset_runs_path(x->ds));
    return st;
  }
  for (size_t i = 0; i < x->space.n; i++) x->v[V_E][i] = x->v[V_T][i] * x->v[V_P][i];
  if (!x->p->with_measured) return SP_OK;
  sp__space_measured(&x->space, x->ds, k, SP_TIME, x->v[V_MT]);
  sp__space_measured(&x->space, x->ds, k, SP_POWER, x->v[V_MP]);
  for (size_t i = 0; i < x->space.n; i++) {
    x->v[V_TE][i] = pct(x->v[V_T][i], x->v[V_MT][i]);
    x->v[V_PE][i] = pct(x->v[V_P][i], x->v[V_MP][i]);
  }
  return SP_OK;
}

/* Adds kernel k's values, times its launch count, to the application's
 * (an unknown value makes the sum unknown). */
static void add_to_application(exporter *x, size_t k) {
  double w = x->p->weights[k];
  if (!(w > 0)) return;
  for (size_t i = 0; i < x->space.n; i++) {
    x->app[0][i] += w * x->v[V_T][i];
    x->app[1][i] += w * x->v[V_E][i];
    x->app[2][i] += w * (x->p->with_measured ? x->v[V_MT][i] : NAN);
    x->app[3][i] += w * (x->p->with_measured ? x->v[V_MT][i] * x->v[V_MP][i] : NAN);
  }
}

/* The application's sums stay finite for what the bounds on the inputs
 * let through (data/bounds.h); a model whose scaling values are extreme
 * can still overflow them, and kernel k is the one that did. */
static int check_application(exporter *x, size_t k) {
  for (size_t i = 0; i < x->space.n; i++) {
    /* NaN is a sum without power (a profile records none), not a failure. */
    if (!isinf(x->app[0][i]) && !isinf(x->app[1][i])) continue;
    char cfg[64];
    sp_config c = sp__space_config(&x->space, i);
    sp_config_format(&c, cfg, sizeof cfg);
    return sp__fail(x->err, SP_ENUMERIC, sp_dataset_runs_path(x->ds), 0, 0, "kernel",
                    "the application's time or energy at %s overflows with kernel '%s' "
                    "(numerical failure: the model's scaling values are extreme)",
                    cfg, sp_dataset_kernel_name(x->ds, k));
  }
  return SP_OK;
}

/* Predicts every kernel, and sums the application, before anything is
 * written: a kernel that cannot be predicted fails the export with no
 * partial output, naming the kernel (and where the failure is numerical,
 * the configuration). */
static int predict_all(exporter *x) {
  size_t n = sp_dataset_kernel_count(x->ds);
  if (!n) return sp__fail(x->err, SP_EPARSE, sp_dataset_runs_path(x->ds), 0, 0, NULL, "no kernels");
  for (size_t k = 0; k < n; k++) {
    int st = fill_kernel(x, k);
    if (!st && x->p->weights) {
      add_to_application(x, k);
      st = check_application(x, k);
    }
    if (st) return st;
  }
  return SP_OK;
}

/* The application's sums as a kernel's values: power = energy / time. */
static void fill_application(exporter *x) {
  for (size_t i = 0; i < x->space.n; i++) {
    x->v[V_T][i] = x->app[0][i];
    x->v[V_E][i] = x->app[1][i];
    x->v[V_P][i] = x->app[1][i] / x->app[0][i];
    x->v[V_MT][i] = x->app[2][i];
    x->v[V_MP][i] = x->app[3][i] / x->app[2][i];
    x->v[V_TE][i] = pct(x->v[V_T][i], x->v[V_MT][i]);
    x->v[V_PE][i] = pct(x->v[V_P][i], x->v[V_MP][i]);
  }
}

/* ---- long: one row per kernel and configuration ---------------------------------- */

static void long_header(exporter *x) {
  fputs("kernel,config,cu,engine_mhz,memory_mhz", x->fp);
  for (size_t j = 0; j < column_count(x); j++) fprintf(x->fp, ",%s", names[column(x, j)]);
  fputs(SP_CSV_EOL, x->fp);
}

static void long_rows(exporter *x, const char *kernel) {
  for (size_t i = 0; i < x->space.n; i++) {
    sp_config c = sp__space_config(&x->space, i);
    sp_csv_write_field(x->fp, kernel);
    fprintf(x->fp, ",%dcu/%d/%d,%d,%d,%d", c.cu, c.engine_mhz, c.memory_mhz, c.cu, c.engine_mhz,
            c.memory_mhz);
    for (size_t j = 0; j < column_count(x); j++) {
      fputc(',', x->fp);
      sp__csv_number(x->fp, x->v[column(x, j)][i], DIGITS);
    }
    fputs(SP_CSV_EOL, x->fp);
  }
}

/* ---- wide: one row per kernel, a block of columns per quantity ---------------------- */

static void wide_header(exporter *x) {
  fputs("kernel", x->fp);
  for (size_t j = 0; j < column_count(x); j++)
    for (size_t i = 0; i < x->space.n; i++) {
      sp_config c = sp__space_config(&x->space, i);
      fprintf(x->fp, ",%s@%dcu/%d/%d", names[column(x, j)], c.cu, c.engine_mhz, c.memory_mhz);
    }
  fputs(SP_CSV_EOL, x->fp);
}

static void wide_row(exporter *x, const char *kernel) {
  sp_csv_write_field(x->fp, kernel);
  for (size_t j = 0; j < column_count(x); j++)
    for (size_t i = 0; i < x->space.n; i++) {
      fputc(',', x->fp);
      sp__csv_number(x->fp, x->v[column(x, j)][i], DIGITS);
    }
  fputs(SP_CSV_EOL, x->fp);
}

static int write_all(exporter *x) {
  int wide = x->p->layout == SP_EXPORT_WIDE;
  if (wide)
    wide_header(x);
  else
    long_header(x);
  for (size_t k = 0; k < sp_dataset_kernel_count(x->ds); k++) {
    int st = fill_kernel(x, k);
    if (st) return st;
    const char *name = sp_dataset_kernel_name(x->ds, k);
    if (wide)
      wide_row(x, name);
    else
      long_rows(x, name);
  }
  if (x->p->weights) {
    fill_application(x);
    if (wide)
      wide_row(x, "(application)");
    else
      long_rows(x, "(application)");
  }
  if (ferror(x->fp)) return sp__fail(x->err, SP_EIO, NULL, 0, 0, NULL, "write error");
  return SP_OK;
}

int sp_export_write(const sp_model *m, const sp_dataset *ds, const sp_export_params *p, FILE *fp,
                    sp_error *err) {
  sp_error local;
  if (!err) err = &local;
  sp_error_clear(err);
  exporter x = {.m = m, .ds = ds, .p = p, .fp = fp, .err = err};
  int st = check_params(p, err);
  if (st) return st;
  sp_c_numeric loc;
  if (sp__c_numeric_begin(&loc)) return sp__oom(err);
  st = exporter_init(&x, err);
  if (!st) st = predict_all(&x);
  if (!st) st = write_all(&x);
  exporter_free(&x);
  sp__c_numeric_end(&loc);
  return st;
}

int sp_export_save(const sp_model *m, const sp_dataset *ds, const sp_export_params *p,
                   const char *path, sp_error *err) {
  sp_error local;
  if (!err) err = &local;
  sp_atomic_file af;
  int st = sp__atomic_open_output(&af, path, SP_OUTPUT_EXPORT, err);
  if (st) return st;
  st = sp_export_write(m, ds, p, af.fp, err);
  /* A stream error fails the commit, which names the file and the cause. */
  if (st == SP_EIO && ferror(af.fp)) return sp__atomic_commit(&af, err);
  if (st) {
    sp__atomic_abort(&af);
    return st;
  }
  return sp__atomic_commit(&af, err);
}
