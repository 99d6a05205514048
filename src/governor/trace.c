/* govtrace.c: reading a kernel trace (order,kernel[,base_time_ms,
 * base_power_w,<counters>...]). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/csvhead.h"
#include "data/csvread.h"
#include "governor.h"
#include "util/status.h"
#include "util/textout.h"

typedef struct trace_ctx {
  sp_governor_trace *t;
  const char *path;
  int have_header;
  size_t width;
  long col_order, col_kernel, col_time, col_power;
  long *col_counter;  /* per model counter, -1 when absent */
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
                       double *out, sp_error *err) {
  if (sp__parse_double(row->fields[col], out) || !(*out >= 0))
    return sp__fail(err, SP_EPARSE, c->path, row->line, col + 1, name,
                    "'%s' is not a non-negative finite number", row->fields[col]);
  return SP_OK;
}

/* Base time, power and counters of a row that has them. */
static int read_base(const trace_ctx *c, const sp_csv_row *row, sp_gov_kernel *k,
                     sp_error *err) {
  const sp_model *m = c->t->model;
  k->obs.base_power_w = NAN;
  int st = parse_field(c, row, c->col_time, "base_time_ms", &k->obs.base_time_ms, err);
  if (!st && !(k->obs.base_time_ms > 0))
    st = sp__fail(err, SP_EPARSE, c->path, row->line, c->col_time + 1, "base_time_ms",
                  "must be positive");
  if (!st && c->col_power >= 0 && *sp__csv_trim(row->fields[c->col_power]))
    st = parse_field(c, row, c->col_power, "base_power_w", &k->obs.base_power_w, err);
  for (size_t j = 0; j < sp_model_counter_count(m) && !st; j++) {
    if (c->col_counter[j] < 0)
      return sp__fail(err, SP_EPARSE, c->path, 1, 0, sp_model_counter_name(m, j),
                      "the trace gives base measurements but not this counter, which the "
                      "model needs");
    st = parse_field(c, row, c->col_counter[j], sp_model_counter_name(m, j),
                     &k->counters[j], err);
  }
  k->have_base = !st;
  return st;
}

static int parse_order(const trace_ctx *c, const sp_csv_row *row, long *order, sp_error *err) {
  const char *s = sp__csv_trim(row->fields[c->col_order]);
  char *end;
  long v = strtol(s, &end, 10);
  if (!*s || *end)
    return sp__fail(err, SP_EPARSE, c->path, row->line, c->col_order + 1, "order",
                    "'%s' is not a whole number", s);
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

int sp__gov_read_trace(sp_governor_trace *t, const char *path, sp_error *err) {
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
