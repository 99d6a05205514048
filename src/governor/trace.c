/* SPDX-License-Identifier: GPL-3.0-or-later */
/* trace.c: the kernel trace object: reading the trace file
 * (order,kernel[,base_time_ms,base_power_w,<counters>...]), predicting its
 * kernels over the configuration space, and the public accessors.  The
 * replay (governor.c) and the output (governorout.c) read it. */
#include "trace.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/bounds.h"
#include "data/csvhead.h"
#include "data/csvread.h"
#include "util/status.h"
#include "util/textout.h"

typedef struct trace_ctx {
  sp_governor_trace *t;
  const char *path;
  int have_header;
  size_t width;
  long col_order, col_kernel, col_time, col_power;
  long *col_counter; /* per model counter, -1 when absent */
} trace_ctx;

static int header(trace_ctx *c, const sp_csv_row *row, sp_error *err) {
  static const char *const order[] = {"order", NULL}, *const kernel[] = {"kernel", NULL};
  static const char *const time[] = {"base_time_ms", NULL};
  static const char *const power[] = {"base_power_w", NULL};
  c->col_order = sp__csv_column(row, order);
  c->col_kernel = sp__csv_column(row, kernel);
  c->col_time = sp__csv_column(row, time);
  c->col_power = sp__csv_column(row, power);
  if (c->col_order < 0 || c->col_kernel < 0)
    return sp__fail(err, SP_EPARSE, c->path, row->line, 0, c->col_order < 0 ? "order" : "kernel",
                    "required column missing from the header (expected order,kernel and "
                    "optionally base_time_ms,base_power_w,<counters>...)");
  const sp_model *m = c->t->model;
  for (size_t k = 0; k < sp_model_counter_count(m); k++) {
    const char *names[2] = {sp_model_counter_name(m, k), NULL};
    c->col_counter[k] = sp__csv_column(row, names);
  }
  c->width = row->nfields;
  c->have_header = 1;
  return SP_OK;
}

static size_t find_kernel(const sp_governor_trace *t, const char *name) {
  for (size_t k = 0; k < t->nkernels; k++)
    if (!strcmp(t->kernels[k].name, name)) return k;
  return SP_NO_CONFIG;
}

static int add_kernel(sp_governor_trace *t, const char *name, long line, size_t *out) {
  if (t->nkernels == t->kernels_cap) {
    size_t cap = t->kernels_cap ? 2 * t->kernels_cap : 16;
    sp_gov_kernel *k = realloc(t->kernels, cap * sizeof *k);
    if (!k) return SP_ENOMEM;
    t->kernels = k;
    t->kernels_cap = cap;
  }
  sp_gov_kernel *k = &t->kernels[t->nkernels];
  memset(k, 0, sizeof *k);
  k->line = line;
  k->name = strdup(name);
  k->counters = malloc((sp_model_counter_count(t->model) + 1) * sizeof(double));
  t->nkernels++;
  if (!k->name || !k->counters) return SP_ENOMEM;
  *out = t->nkernels - 1;
  return SP_OK;
}

static int add_entry(sp_governor_trace *t, long order, long line, size_t kernel) {
  if (t->length == t->entries_cap) {
    size_t cap = t->entries_cap ? 2 * t->entries_cap : 64;
    sp_gov_entry *e = realloc(t->entries, cap * sizeof *e);
    if (!e) return SP_ENOMEM;
    t->entries = e;
    t->entries_cap = cap;
  }
  t->entries[t->length++] = (sp_gov_entry){order, line, kernel};
  return SP_OK;
}

static int parse_field(const trace_ctx *c, const sp_csv_row *row, long col, const char *name,
                       sp_bound_kind kind, double *out, sp_error *err) {
  sp_field_at at = {c->path, row->line, col + 1, name};
  return sp__read_bounded(row->fields[col], kind, &at, out, err);
}

/* Base time, power and counters of a row that has them, each inside the
 * bounds of its quantity (data/bounds.h). */
static int read_base(const trace_ctx *c, const sp_csv_row *row, sp_gov_kernel *k, sp_error *err) {
  const sp_model *m = c->t->model;
  k->obs.base_power_w = NAN;
  int st =
      parse_field(c, row, c->col_time, "base_time_ms", SP_BOUND_TIME_MS, &k->obs.base_time_ms, err);
  if (!st && c->col_power >= 0 && *sp__csv_trim(row->fields[c->col_power]))
    st = parse_field(c, row, c->col_power, "base_power_w", SP_BOUND_POWER_W, &k->obs.base_power_w,
                     err);
  for (size_t j = 0; j < sp_model_counter_count(m) && !st; j++) {
    if (c->col_counter[j] < 0)
      return sp__fail(err, SP_EPARSE, c->path, 1, 0, sp_model_counter_name(m, j),
                      "the trace gives base measurements but not this counter, which the "
                      "model needs");
    st = parse_field(c, row, c->col_counter[j], sp_model_counter_name(m, j), SP_BOUND_COUNTER,
                     &k->counters[j], err);
  }
  k->have_base = !st;
  return st;
}

static int parse_order(const trace_ctx *c, const sp_csv_row *row, long *order, sp_error *err) {
  const char *s = sp__csv_trim(row->fields[c->col_order]);
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end)
    return sp__fail(err, SP_EPARSE, c->path, row->line, c->col_order + 1, "order",
                    "'%s' is not a whole number", s);
  if (errno == ERANGE)
    return sp__fail(err, SP_EPARSE, c->path, row->line, c->col_order + 1, "order",
                    "'%s' is out of range (at most %ld either way)", s, LONG_MAX);
  *order = v;
  return SP_OK;
}

static int on_row(void *user, const sp_csv_row *row, sp_error *err) {
  trace_ctx *c = user;
  if (!c->have_header) return header(c, row, err);
  if (row->nfields != c->width)
    return sp__fail(err, SP_EPARSE, c->path, row->line, 0, NULL,
                    "row has %zu fields but the header has %zu", row->nfields, c->width);
  long order = 0;
  int st = parse_order(c, row, &order, err);
  if (st) return st;
  const char *name = sp__csv_trim(row->fields[c->col_kernel]);
  if (!*name)
    return sp__fail(err, SP_EPARSE, c->path, row->line, c->col_kernel + 1, "kernel",
                    "empty kernel name");
  size_t k = find_kernel(c->t, name);
  if (k == SP_NO_CONFIG && add_kernel(c->t, name, row->line, &k))
    return sp__fail(err, SP_ENOMEM, c->path, row->line, 0, NULL, "out of memory");
  sp_gov_kernel *kn = &c->t->kernels[k];
  if (!kn->have_base && c->col_time >= 0 && *sp__csv_trim(row->fields[c->col_time]))
    st = read_base(c, row, kn, err);
  if (!st && add_entry(c->t, order, row->line, k))
    st = sp__fail(err, SP_ENOMEM, c->path, row->line, 0, NULL, "out of memory");
  return st;
}

/* Reads the trace file into t->kernels and t->entries (unsorted). */
static int read_trace(sp_governor_trace *t, const char *path, sp_error *err) {
  trace_ctx c = {.t = t, .path = path};
  c.col_counter = malloc((sp_model_counter_count(t->model) + 1) * sizeof(long));
  if (!c.col_counter) return sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  sp_c_numeric loc;
  sp__c_numeric_begin(&loc);
  int st = sp__csv_read(path, on_row, &c, err);
  sp__c_numeric_end(&loc);
  free(c.col_counter);
  if (!st && !c.have_header)
    st = sp__fail(err, SP_EPARSE, path, 1, 0, NULL, "empty file: no order,kernel header");
  if (!st && !t->length)
    st = sp__fail(err, SP_EPARSE, path, 2, 0, NULL, "the trace has no invocations");
  return st;
}

/* ---- loading, accessors and release
 * ---------------------------------------------------------------- */

void sp_governor_trace_free(sp_governor_trace *t) {
  if (!t) return;
  for (size_t k = 0; k < t->nkernels; k++) {
    sp_gov_kernel *kn = &t->kernels[k];
    free(kn->name);
    free(kn->counters);
    free(kn->t);
    free(kn->p);
    free(kn->mt);
    free(kn->mp);
  }
  free(t->kernels);
  free(t->entries);
  free(t->configs);
  free(t->path);
  sp__space_free(&t->space);
  free(t);
}

static int cmp_entry(const void *a, const void *b) {
  const sp_gov_entry *p = a, *q = b;
  if (p->order != q->order) return p->order < q->order ? -1 : 1;
  return p->line < q->line ? -1 : p->line > q->line;
}

static int sort_entries(sp_governor_trace *t, sp_error *err) {
  qsort(t->entries, t->length, sizeof *t->entries, cmp_entry);
  for (size_t i = 1; i < t->length; i++)
    if (t->entries[i].order == t->entries[i - 1].order)
      return sp__fail(err, SP_EPARSE, t->path, t->entries[i].line, 0, "order",
                      "order %ld appears twice (also on line %ld)", t->entries[i].order,
                      t->entries[i - 1].line);
  return SP_OK;
}

/* Base data from the dataset for a kernel whose trace rows have none. */
static int base_from_dataset(sp_governor_trace *t, sp_gov_kernel *kn, const sp_dataset *ds,
                             sp_error *err) {
  size_t k = ds ? sp_dataset_kernel_index(ds, kn->name) : (size_t)-1;
  if (k == (size_t)-1)
    return sp__fail(err, SP_ENOTFOUND, t->path, kn->line, 0, "kernel",
                    "kernel '%s' has no base measurements: the trace gives no "
                    "base_time_ms and counters for it and %s",
                    kn->name,
                    ds ? "the measurements do not have it" : "no measurements were given");
  int st = sp_model_observe(t->model, ds, k, kn->counters, &kn->obs, err);
  kn->have_base = !st;
  return st;
}

static int alloc_values(sp_gov_kernel *kn, size_t n, int measured) {
  kn->t = malloc(n * sizeof(double));
  kn->p = malloc(n * sizeof(double));
  if (measured) {
    kn->mt = malloc(n * sizeof(double));
    kn->mp = malloc(n * sizeof(double));
  }
  return kn->t && kn->p && (!measured || (kn->mt && kn->mp)) ? SP_OK : SP_ENOMEM;
}

static int predict_kernel(sp_governor_trace *t, sp_gov_kernel *kn, const sp_dataset *ds,
                          sp_error *err) {
  int st = kn->have_base ? SP_OK : base_from_dataset(t, kn, ds, err);
  if (st) return st;
  kn->obs.kernel = kn->name;
  kn->obs.counters = kn->counters;
  if (isnan(kn->obs.base_power_w))
    return sp__fail(err, SP_ENOPOWER, t->path, kn->line, 0, "base_power_w",
                    "kernel '%s' has no base power; the governor needs it for energy", kn->name);
  size_t dk = ds ? sp_dataset_kernel_index(ds, kn->name) : (size_t)-1;
  if (alloc_values(kn, t->space.n, dk != (size_t)-1)) return sp__oom(err);
  sp_predict_info info;
  st = sp__space_predict(&t->space, &kn->obs, kn->t, kn->p, &info, err);
  if (st) {
    snprintf(err->file, sizeof err->file, "%.500s", t->path);
    err->line = kn->line;
    return st;
  }
  kn->clamped = info.clamped;
  kn->first_clamped = info.clamped ? sp_model_counter_name(t->model, info.first_clamped) : NULL;
  if (kn->mt && !sp__space_measured(&t->space, ds, dk, SP_TIME, kn->mt)) {
    free(kn->mt);
    free(kn->mp);
    kn->mt = kn->mp = NULL;
  } else if (kn->mt) {
    sp__space_measured(&t->space, ds, dk, SP_POWER, kn->mp);
  }
  return SP_OK;
}

static int finish_load(sp_governor_trace *t, const sp_dataset *ds, sp_error *err) {
  if (!sp_model_has_power(t->model))
    return sp__fail(err, SP_ENOPOWER, NULL, 0, 0, NULL,
                    "the model has no power model; the governor needs predicted power");
  int st = sp__space_init(&t->space, t->model, 1, err);
  if (st) return st;
  t->configs = malloc(t->space.n * sizeof *t->configs);
  if (!t->configs) return sp__oom(err);
  for (size_t i = 0; i < t->space.n; i++) t->configs[i] = sp__space_config(&t->space, i);
  st = sort_entries(t, err);
  for (size_t k = 0; k < t->nkernels && !st; k++) st = predict_kernel(t, &t->kernels[k], ds, err);
  return st;
}

int sp_governor_trace_load(const char *path, const sp_model *m, const sp_dataset *ds,
                           sp_governor_trace **out, sp_error *err) {
  sp_error local;
  if (!err) err = &local;
  sp_error_clear(err);
  *out = NULL;
  sp_governor_trace *t = calloc(1, sizeof *t);
  if (!t || !(t->path = strdup(path))) {
    free(t);
    return sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  }
  t->model = m;
  int st = read_trace(t, path, err);
  if (!st) st = finish_load(t, ds, err);
  if (st) {
    sp_governor_trace_free(t);
    return st;
  }
  *out = t;
  return SP_OK;
}

size_t sp_governor_trace_length(const sp_governor_trace *t) { return t->length; }
size_t sp_governor_trace_kernel_count(const sp_governor_trace *t) { return t->nkernels; }
const char *sp_governor_trace_kernel_name(const sp_governor_trace *t, size_t k) {
  return k < t->nkernels ? t->kernels[k].name : NULL;
}
size_t sp_governor_trace_kernel_clamped(const sp_governor_trace *t, size_t k, const char **first) {
  if (first) *first = k < t->nkernels ? t->kernels[k].first_clamped : NULL;
  return k < t->nkernels ? t->kernels[k].clamped : 0;
}
int sp_governor_trace_kernel_measured(const sp_governor_trace *t, size_t k) {
  return k < t->nkernels && t->kernels[k].mt != NULL;
}
size_t sp_governor_trace_kernel_at(const sp_governor_trace *t, size_t i) {
  return i < t->length ? t->entries[i].kernel : SP_NO_CONFIG;
}
long sp_governor_trace_order_at(const sp_governor_trace *t, size_t i) {
  return i < t->length ? t->entries[i].order : 0;
}
size_t sp_governor_trace_config_count(const sp_governor_trace *t) { return t->space.n; }
sp_config sp_governor_trace_config_at(const sp_governor_trace *t, size_t i) {
  return t->configs[i < t->space.n ? i : 0];
}
const char *sp_governor_trace_model_name(const sp_governor_trace *t) {
  return sp_model_name(t->model);
}
