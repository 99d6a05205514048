/* SPDX-License-Identifier: GPL-3.0-or-later */
/* load.c: reading a vendor profile for a model: the metrics its counters
 * need (metricmap.c), the format the header row tells (ncuread.c,
 * rocread.c; rows before it, ncu's "==PROF==" lines, are skipped), every
 * launch through that reader, and the launches grouped into entries
 * (group.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/csvread.h"
#include "group.h"
#include "load.h"
#include "ncuread.h"
#include "profile.h"
#include "rocread.h"
#include "util/status.h"

/* What a profile says besides the model's metrics (enum CTX_*). */
static const char *const CONTEXT[SP_VENDOR_COUNT][CTX_N] = {
    [SP_VENDOR_NVIDIA] = {"gpu__time_duration.sum", NULL, "launch__sm_count",
                          "sm__cycles_elapsed.avg.per_second",
                          "dram__cycles_elapsed.avg.per_second"},
    [SP_VENDOR_AMD] = {"Start_Timestamp", "End_Timestamp", NULL, NULL, NULL},
};

/* The index of name among the wanted metrics, added when new. */
static int want(sp_profile *p, const char *name, size_t *at) {
  *at = sp__profile_metric(p, name);
  if (*at != (size_t)-1) return SP_OK;
  char **m = realloc(p->metrics, (p->nmetrics + 1) * sizeof *m);
  if (!m) return SP_ENOMEM;
  p->metrics = m;
  if (!(m[p->nmetrics] = strdup(name))) return SP_ENOMEM;
  *at = p->nmetrics++;
  return SP_OK;
}

static int add_missing(sp_profile *p, const char *what) {
  char **m = realloc(p->missing, (p->nmissing + 1) * sizeof *m);
  if (!m) return SP_ENOMEM;
  p->missing = m;
  if (!(m[p->nmissing] = strdup(what))) return SP_ENOMEM;
  p->nmissing++;
  return SP_OK;
}

/* The metrics of every model counter's rule, then the context metrics.  A
 * counter the vendor has no metric for is missing as a whole. */
static int want_model(sp_profile *p, const sp_model *m) {
  int st = SP_OK;
  p->ncounters = m ? sp_model_counter_count(m) : 0;
  p->rules = calloc(p->ncounters + 1, sizeof *p->rules);
  p->at = calloc(p->ncounters + 1, sizeof *p->at);
  if (!p->rules || !p->at) return SP_ENOMEM;
  for (size_t c = 0; c < p->ncounters && !st; c++) {
    const char *name = sp_model_counter_name(m, c);
    const sp_counter_rule *r = p->rules[c] = sp__metricmap_find(p->vendor, name);
    char what[256];
    snprintf(what, sizeof what, "%s (no %s metric gives it)", name, sp_vendor_name(p->vendor));
    for (size_t j = 0; r && j < sp__rule_metric_count(r) && !st; j++)
      st = want(p, r->metrics[j], &p->at[c][j]);
    if (!r && !st) st = add_missing(p, what);
  }
  for (int k = 0; k < CTX_N && !st; k++) {
    const char *name = CONTEXT[p->vendor][k];
    p->ctx[k] = (size_t)-1;
    if (name) st = want(p, name, &p->ctx[k]);
  }
  return st;
}

/* Sets up the wanted metrics once the header tells the vendor. */
static int begin(sp_profile *p, const sp_model *m, int vendor, long line) {
  p->vendor = vendor;
  p->header_line = line;
  int st = want_model(p, m);
  if (!st && !(p->seen = calloc(p->nmetrics + 1, 1))) st = SP_ENOMEM;
  if (!st && !(p->source = calloc(p->nmetrics + 1, sizeof *p->source))) st = SP_ENOMEM;
  if (!st && !(p->scale = malloc((p->nmetrics + 1) * sizeof *p->scale))) st = SP_ENOMEM;
  for (size_t i = 0; !st && i < p->nmetrics; i++) p->scale[i] = 1.0;
  if (!st && !(p->cols.metric = malloc((p->nmetrics + 1) * sizeof *p->cols.metric))) st = SP_ENOMEM;
  return st;
}

typedef struct loader {
  sp_profile *p;
  const sp_model *m;
} loader;

static int on_row(void *user, const sp_csv_row *row, sp_error *err) {
  loader *ld = user;
  sp_profile *p = ld->p;
  const char *const *f = (const char *const *)row->fields;
  size_t n = row->nfields;
  if (p->header_line == 0) {
    int vendor = sp__ncu_is_header(f, n)   ? SP_VENDOR_NVIDIA
                 : sp__roc_is_header(f, n) ? SP_VENDOR_AMD
                                           : -1;
    if (vendor < 0) return SP_OK; /* the profiler's own lines before the table */
    int st = begin(p, ld->m, vendor, row->line);
    if (st) return sp__fail(err, st, p->path, row->line, 0, NULL, "out of memory");
    return vendor == SP_VENDOR_NVIDIA ? sp__ncu_header(p, f, n, err) : sp__roc_header(p, f, n, err);
  }
  return p->vendor == SP_VENDOR_NVIDIA ? sp__ncu_row(p, f, n, row->line, err)
                                       : sp__roc_row(p, f, n, row->line, err);
}

/* Every wanted metric the profile lacks (the time is wanted even when no
 * model counter reads it; the device's SM count and clocks are not). */
static int list_missing(sp_profile *p) {
  int st = SP_OK;
  for (size_t i = 0; i < p->nmetrics && !st; i++) {
    int optional = i == p->ctx[CTX_SMS] || i == p->ctx[CTX_SM_HZ] || i == p->ctx[CTX_MEM_HZ];
    if (!p->seen[i] && !optional) st = add_missing(p, p->metrics[i]);
  }
  return st;
}

typedef struct id_line {
  double id;
  long line;
} id_line;

static int by_id(const void *a, const void *b) {
  const id_line *x = a, *y = b;
  return x->id < y->id ? -1 : x->id > y->id ? 1 : (x->line > y->line) - (x->line < y->line);
}

/* ncu numbers each launch once: a row twice (an edited file) would count
 * its launch twice in launches.csv and weigh it so in the application. */
static int check_ids(const sp_profile *p, sp_error *err) {
  if (p->vendor != SP_VENDOR_NVIDIA || p->nlaunches < 2) return SP_OK;
  id_line *v = malloc(p->nlaunches * sizeof *v);
  if (!v) return sp__fail(err, SP_ENOMEM, p->path, 0, 0, NULL, "out of memory");
  for (size_t i = 0; i < p->nlaunches; i++)
    v[i] = (id_line){p->launches[i].id, p->launches[i].line};
  qsort(v, p->nlaunches, sizeof *v, by_id);
  int st = SP_OK;
  for (size_t i = 1; i < p->nlaunches && !st; i++)
    if (v[i].id == v[i - 1].id)
      st = sp__fail(err, SP_EPARSE, p->path, v[i].line, (long)p->cols.id + 1, "ID",
                    "launch %.0f is listed twice (lines %ld and %ld): the profile holds a row "
                    "twice (edited?); profile again",
                    v[i].id, v[i - 1].line, v[i].line);
  free(v);
  return st;
}

int sp__profile_load(const char *path, const sp_model *m, sp_profile **out, sp_error *err) {
  sp_profile *p = calloc(1, sizeof *p);
  *out = NULL;
  if (!p || !(p->path = strdup(path))) {
    free(p);
    return sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  }
  loader ld = {p, m};
  int st = sp__csv_read(path, on_row, &ld, err);
  if (!st && p->header_line == 0)
    st = sp__fail(err, SP_EPARSE, path, 0, 0, NULL,
                  "neither an Nsight Compute raw CSV (a header row \"ID\",...,\"Kernel "
                  "Name\",..., from ncu --csv --page raw) nor a rocprofv3 counter CSV "
                  "(Dispatch_Id,...,Kernel_Name,...,Counter_Name,Counter_Value)");
  if (!st && list_missing(p)) st = sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  if (!st) st = check_ids(p, err);
  if (!st) st = sp__profile_group(p, err);
  if (st) {
    sp_profile_free(p);
    return st;
  }
  *out = p;
  return SP_OK;
}

int sp_profile_load(const char *path, const sp_model *m, sp_profile **out, sp_error *err) {
  if (!m) return sp__fail(err, SP_EINVAL, path, 0, 0, "model", "no model");
  return sp__profile_load(path, m, out, err);
}

int sp_profile_metric_list(const sp_model *m, int vendor, char **out, sp_error *err) {
  sp_profile p = {0};
  size_t size = 1, o = 0;
  *out = NULL;
  if (!sp_vendor_name(vendor))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "vendor", "no vendor %d", vendor);
  p.vendor = vendor;
  int st = want_model(&p, m);
  for (size_t i = 0; i < p.nmetrics && !st; i++) size += strlen(p.metrics[i]) + 1;
  char *list = st ? NULL : malloc(size);
  if (!st && !list) st = SP_ENOMEM;
  for (size_t i = 0; i < p.nmetrics && list; i++)
    o += (size_t)snprintf(list + o, size - o, "%s%s", i ? "," : "", p.metrics[i]);
  if (!st && p.nmissing) {
    st = sp__fail(err, SP_ENOTFOUND, NULL, 0, 0, "counter",
                  "the model needs %zu counter(s) no %s metric gives, the first %s", p.nmissing,
                  sp_vendor_name(vendor), p.missing[0]);
  } else if (st) {
    st = sp__fail(err, st, NULL, 0, 0, NULL, "out of memory");
  }
  for (size_t i = 0; i < p.nmetrics; i++) free(p.metrics[i]);
  for (size_t i = 0; i < p.nmissing; i++) free(p.missing[i]);
  free(p.metrics);
  free(p.missing);
  free(p.rules);
  free(p.at);
  if (st)
    free(list);
  else
    *out = list;
  return st;
}
