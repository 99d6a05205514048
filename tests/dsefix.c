/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dsefix.c: the power-law data set of dsefix.h. */
#include "dsefix.h"

#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const int cus[] = {16, 32}, engines[] = {500, 750, 1000}, memories[] = {475, 925, 1375};
static const sp_config base = {32, 1000, 1375};

/* Exponents of time and power in (cu, engine, memory), per class. */
static const double time_exp[FIX_CLASSES][3] = {
    {-0.93, -0.97, -0.02}, {-0.15, -0.08, -0.91}, {-0.52, -0.47, -0.44}};
static const double power_exp[FIX_CLASSES][3] = {
    {0.61, 1.37, 0.08}, {0.21, 0.33, 0.83}, {0.43, 0.79, 0.46}};

static double law(const double *e, const sp_config *c) {
  return pow((double)c->cu / base.cu, e[0]) * pow((double)c->engine_mhz / base.engine_mhz, e[1]) *
         pow((double)c->memory_mhz / base.memory_mhz, e[2]);
}

static const double new_time[FIX_NEW] = {4.385, 2.715, 1.2385};
static const double new_power[FIX_NEW] = {187.5, 143.25, 161.75};
static const char *const new_names[FIX_NEW] = {"fft \"radix-4\"", "stream, copy", "histogram"};

double dsefix_base_time(int k) { return new_time[k]; }
double dsefix_base_power(int k) { return new_power[k]; }
double dsefix_time(int k, const sp_config *c) { return new_time[k] * law(time_exp[k], c); }
double dsefix_power(int k, const sp_config *c) { return new_power[k] * law(power_exp[k], c); }
const char *dsefix_name(int k) { return new_names[k]; }

/* Counters that identify the class: ALU busy, memory busy, and noise. */
static void counters(int cls, int j, double *v) {
  static const double valu[FIX_CLASSES] = {91.5, 11.25, 51.75};
  static const double mem[FIX_CLASSES] = {7.5, 89.25, 49.5};
  v[0] = valu[cls] + 1.7 * j;
  v[1] = mem[cls] - 1.3 * j;
  v[2] = 0.31 + 0.113 * ((cls * 5 + j * 3) % 7);
}

typedef struct buf {
  char *s;
  size_t n, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
  va_end(ap);
  ck_assert(n >= 0 && (size_t)n < b->cap - b->n);
  b->n += (size_t)n;
}

static void csv_name(buf *b, const char *name) {
  if (!strpbrk(name, ",\"")) {
    put(b, "%s", name);
    return;
  }
  put(b, "\"");
  for (const char *p = name; *p; p++) put(b, *p == '"' ? "\"\"" : "%c", *p);
  put(b, "\"");
}

/* One kernel of class cls with base values t0, p0 at every configuration. */
static void kernel_rows(buf *runs, buf *ctr, const char *name, int cls, int j, double t0,
                        double p0) {
  for (int ic = 0; ic < 2; ic++)
    for (int ie = 0; ie < 3; ie++)
      for (int im = 0; im < 3; im++) {
        sp_config c = {cus[ic], engines[ie], memories[im]};
        csv_name(runs, name);
        put(runs, ",%d,%d,%d,%.17g,%.17g\n", c.cu, c.engine_mhz, c.memory_mhz,
            t0 * law(time_exp[cls], &c), p0 * law(power_exp[cls], &c));
      }
  double v[3];
  counters(cls, j, v);
  csv_name(ctr, name);
  put(ctr, ",%d,%d,%d,%.17g,%.17g,%.17g\n", base.cu, base.engine_mhz, base.memory_mhz, v[0], v[1],
      v[2]);
}

static void write_set(const char *dir, const char *stem, int fresh, char **runs_path,
                      char **ctr_path) {
  buf runs = {malloc(1 << 16), 0, 1 << 16}, ctr = {malloc(1 << 14), 0, 1 << 14};
  ck_assert(runs.s && ctr.s);
  put(&runs, "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n");
  put(&ctr, "kernel,cu,engine_mhz,memory_mhz,VALUBusy,MemUnitBusy,CacheHit\n");
  for (int k = 0; k < (fresh ? FIX_NEW : 9); k++) {
    char name[64];
    int cls = k % FIX_CLASSES, j = fresh ? 1 : k / FIX_CLASSES;
    snprintf(name, sizeof name, "train_%d_%d", cls, j);
    double t0 = fresh ? new_time[k] : 1.5 + 0.73 * k, p0 = fresh ? new_power[k] : 120 + 9.5 * k;
    kernel_rows(&runs, &ctr, fresh ? new_names[k] : name, cls, j, t0, p0);
  }
  char file[64];
  snprintf(file, sizeof file, "%s-runs.csv", stem);
  *runs_path = tu_write(dir, file, runs.s);
  snprintf(file, sizeof file, "%s-counters.csv", stem);
  *ctr_path = tu_write(dir, file, ctr.s);
  free(runs.s);
  free(ctr.s);
}

static void check_ok(int st, const sp_error *err) {
  char msg[1024];
  sp_error_format(err, msg, sizeof msg);
  ck_assert_msg(st == SP_OK, "fixture: %s", msg);
}

void dsefix_setup(dsefix *f) {
  memset(f, 0, sizeof *f);
  f->dir = tu_mkdtemp();
  char *train_runs, *train_ctr;
  write_set(f->dir, "train", 0, &train_runs, &train_ctr);
  write_set(f->dir, "new", 1, &f->new_runs, &f->new_counters);
  sp_error err;
  sp_error_clear(&err);
  sp_dataset *train = NULL;
  check_ok(sp_dataset_load(train_runs, train_ctr, &train, &err), &err);
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = base;
  tp.clusters = FIX_CLASSES;
  tp.seed = 2385;
  check_ok(sp_model_train(train, &tp, NULL, NULL, &f->model, &err), &err);
  check_ok(sp_dataset_load(f->new_runs, f->new_counters, &f->fresh, &err), &err);
  sp_dataset_free(train);
  free(train_runs);
  free(train_ctr);
}

void dsefix_teardown(dsefix *f) {
  sp_model_free(f->model);
  sp_dataset_free(f->fresh);
  tu_rmtree(f->dir);
  free(f->dir);
  free(f->new_runs);
  free(f->new_counters);
  memset(f, 0, sizeof *f);
}
