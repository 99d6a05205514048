/* SPDX-License-Identifier: GPL-3.0-or-later */
/* workload.c: the workload weights and candidate product files of dse. */
#include "workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/bounds.h"
#include "data/csvhead.h"
#include "data/csvread.h"
#include "util/status.h"
#include "util/textout.h"

/* ---- weights: kernel,weight --------------------------------------------- */

typedef struct weights_ctx {
  const char *path;
  const sp_dataset *ds;
  long col_kernel, col_weight;
  size_t width; /* fields per row, from the header */
  sp_dse_weight *w;
  size_t n, cap;
  unsigned char *seen; /* per dataset kernel */
} weights_ctx;

/* A header that names a column twice, by one name or two (count and
 * weight), would have one of them read and the other ignored without a
 * word: which one the user meant is theirs to say. */
static int twice(const char *path, const sp_csv_row *row, long first, const char *const *names,
                 const char *field, sp_error *err) {
  long again = first < 0 ? -1 : sp__csv_column_after(row, first, names);
  if (again < 0) return SP_OK;
  const char *a = row->fields[first], *b = row->fields[again];
  if (!strcmp(a, b))
    return sp__fail(err, SP_EPARSE, path, row->line, again + 1, field,
                    "the header has a '%s' column twice (columns %ld and %ld): keep one", a,
                    first + 1, again + 1);
  return sp__fail(err, SP_EPARSE, path, row->line, again + 1, field,
                  "the header has both a '%s' and a '%s' column, either of which gives the %s: "
                  "keep one and delete the other",
                  a, b, field);
}

static int weights_header(weights_ctx *c, const sp_csv_row *row, sp_error *err) {
  static const char *const kernel[] = {"kernel", NULL};
  static const char *const weight[] = {"weight", "count", "invocations", NULL};
  c->col_kernel = sp__csv_column(row, kernel);
  c->col_weight = sp__csv_column(row, weight);
  c->width = row->nfields;
  if (c->col_kernel < 0 || c->col_weight < 0)
    return sp__fail(err, SP_EPARSE, c->path, row->line, 0, c->col_kernel < 0 ? "kernel" : "weight",
                    "required column missing from the header (expected "
                    "kernel,weight; weight may be called count or invocations)");
  int st = twice(c->path, row, c->col_kernel, kernel, "kernel", err);
  return st ? st : twice(c->path, row, c->col_weight, weight, "weight", err);
}

static int weights_push(weights_ctx *c, size_t k, double w) {
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 16;
    sp_dse_weight *p = realloc(c->w, cap * sizeof *p);
    if (!p) return SP_ENOMEM;
    c->w = p;
    c->cap = cap;
  }
  c->w[c->n].kernel = k;
  c->w[c->n++].weight = w;
  return SP_OK;
}

static int on_weight_row(void *user, const sp_csv_row *row, sp_error *err) {
  weights_ctx *c = user;
  if (c->col_kernel < 0) return weights_header(c, row, err);
  if (row->nfields != c->width)
    return sp__fail(err, SP_EPARSE, c->path, row->line, 0, NULL,
                    "row has %zu fields but the header has %zu", row->nfields, c->width);
  const char *name = sp__csv_trim(row->fields[c->col_kernel]);
  size_t k = sp_dataset_kernel_index(c->ds, name);
  if (k == (size_t)-1)
    return sp__fail(err, SP_ENOTFOUND, c->path, row->line, c->col_kernel + 1, "kernel",
                    "kernel '%s' of the workload is not in the measurements %s", name,
                    sp_dataset_runs_path(c->ds));
  if (c->seen[k])
    return sp__fail(err, SP_EPARSE, c->path, row->line, c->col_kernel + 1, "kernel",
                    "kernel '%s' is listed twice", name);
  /* A weight inside its bounds (data/bounds.h) keeps the workload's
   * weighted sums, and its EDP and ED2P, finite. */
  double w;
  sp_field_at at = {c->path, row->line, c->col_weight + 1, "weight"};
  int st = sp__read_bounded(row->fields[c->col_weight], SP_BOUND_WEIGHT, &at, &w, err);
  if (st) return st;
  c->seen[k] = 1;
  if (weights_push(c, k, w))
    return sp__fail(err, SP_ENOMEM, c->path, row->line, 0, NULL, "out of memory");
  return SP_OK;
}

int sp__dse_read_weights(const char *path, const sp_dataset *ds, sp_dse_weight **out, size_t *n,
                         sp_error *err) {
  weights_ctx c = {.path = path, .ds = ds, .col_kernel = -1, .col_weight = -1};
  c.seen = calloc(sp_dataset_kernel_count(ds) + 1, 1);
  if (!c.seen) return sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  /* strtod follows LC_NUMERIC; files always use '.' decimals. */
  sp_c_numeric loc;
  sp__c_numeric_begin(&loc);
  int st = sp__csv_read(path, on_weight_row, &c, err);
  sp__c_numeric_end(&loc);
  if (!st && c.col_kernel < 0)
    st = sp__fail(err, SP_EPARSE, path, 1, 0, NULL, "empty file: no kernel,weight header");
  if (!st && c.n == 0)
    st = sp__fail(err, SP_EPARSE, path, 2, 0, NULL, "no kernels: the workload is empty");
  free(c.seen);
  if (st) {
    free(c.w);
    return st;
  }
  *out = c.w;
  *n = c.n;
  return SP_OK;
}

/* ---- candidates: name,config or name,cu,engine_mhz,memory_mhz ----------- */

typedef struct cand_ctx {
  const char *path;
  long col_name, col_config, col_axis[3];
  size_t width;
  sp_dse_named_config *c;
  size_t n, cap;
} cand_ctx;

/* A config column and the axis columns both say where a candidate is:
 * with both, one of them would be ignored. */
static int cand_both(cand_ctx *c, const sp_csv_row *row, sp_error *err) {
  long axis = -1, naxes = 0;
  for (int a = 0; a < 3; a++) {
    naxes += c->col_axis[a] >= 0;
    if (axis < 0) axis = c->col_axis[a];
  }
  if (c->col_config < 0 || axis < 0) return SP_OK;
  return sp__fail(err, SP_EPARSE, c->path, row->line, axis + 1, "config",
                  "the header gives the configuration twice, in '%s' and in '%s'%s: keep "
                  "either %s or cu,engine_mhz,memory_mhz and delete the other",
                  row->fields[c->col_config],
                  naxes == 3 ? "cu,engine_mhz,memory_mhz" : row->fields[axis],
                  naxes == 3 ? "" : " (an axis)", row->fields[c->col_config]);
}

static int cand_header(cand_ctx *c, const sp_csv_row *row, sp_error *err) {
  static const char *const name[] = {"name", "product", NULL};
  static const char *const config[] = {"config", "configuration", NULL};
  static const char *const axes[3][2] = {{"cu", NULL}, {"engine_mhz", NULL}, {"memory_mhz", NULL}};
  c->col_name = sp__csv_column(row, name);
  c->col_config = sp__csv_column(row, config);
  int all_axes = 1;
  for (int a = 0; a < 3; a++) {
    c->col_axis[a] = sp__csv_column(row, axes[a]);
    all_axes = all_axes && c->col_axis[a] >= 0;
  }
  c->width = row->nfields;
  if (c->col_name < 0 || (c->col_config < 0 && !all_axes))
    return sp__fail(err, SP_EPARSE, c->path, row->line, 0, c->col_name < 0 ? "name" : "config",
                    "required column missing from the header (expected name,config "
                    "or name,cu,engine_mhz,memory_mhz)");
  int st = twice(c->path, row, c->col_name, name, "name", err);
  if (!st) st = twice(c->path, row, c->col_config, config, "config", err);
  for (int a = 0; a < 3 && !st; a++)
    st = twice(c->path, row, c->col_axis[a], axes[a], axes[a][0], err);
  return st ? st : cand_both(c, row, err);
}

static int cand_config(cand_ctx *c, const sp_csv_row *row, sp_config *cfg, sp_error *err) {
  if (c->col_config >= 0) {
    int st = sp_config_parse(sp__csv_trim(row->fields[c->col_config]), cfg, err);
    if (st) {
      err->line = row->line;
      err->column = c->col_config + 1;
      snprintf(err->file, sizeof err->file, "%.500s", c->path);
    }
    return st;
  }
  static const char *const names[3] = {"cu", "engine_mhz", "memory_mhz"};
  int *dst[3] = {&cfg->cu, &cfg->engine_mhz, &cfg->memory_mhz};
  for (int a = 0; a < 3; a++) {
    const char *text = row->fields[c->col_axis[a]];
    if (sp__parse_int(text, dst[a]) || *dst[a] <= 0)
      return sp__fail(err, SP_EPARSE, c->path, row->line, c->col_axis[a] + 1, names[a],
                      "'%s' is not a positive integer", text);
  }
  return SP_OK;
}

static int cand_push(cand_ctx *c, const char *name, const sp_config *cfg, long line) {
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 8;
    sp_dse_named_config *p = realloc(c->c, cap * sizeof *p);
    if (!p) return SP_ENOMEM;
    c->c = p;
    c->cap = cap;
  }
  char *copy = strdup(name);
  if (!copy) return SP_ENOMEM;
  c->c[c->n++] = (sp_dse_named_config){copy, *cfg, line};
  return SP_OK;
}

static int on_cand_row(void *user, const sp_csv_row *row, sp_error *err) {
  cand_ctx *c = user;
  if (c->col_name < 0) return cand_header(c, row, err);
  if (row->nfields != c->width)
    return sp__fail(err, SP_EPARSE, c->path, row->line, 0, NULL,
                    "row has %zu fields but the header has %zu", row->nfields, c->width);
  const char *name = sp__csv_trim(row->fields[c->col_name]);
  if (!*name)
    return sp__fail(err, SP_EPARSE, c->path, row->line, c->col_name + 1, "name",
                    "empty candidate name");
  sp_config cfg;
  int st = cand_config(c, row, &cfg, err);
  if (!st && cand_push(c, name, &cfg, row->line))
    st = sp__fail(err, SP_ENOMEM, c->path, row->line, 0, NULL, "out of memory");
  return st;
}

void sp__dse_named_free(sp_dse_named_config *c, size_t n) {
  for (size_t i = 0; c && i < n; i++) free(c[i].name);
  free(c);
}

int sp__dse_read_candidates(const char *path, sp_dse_named_config **out, size_t *n, sp_error *err) {
  cand_ctx c = {.path = path, .col_name = -1};
  sp_c_numeric loc;
  sp__c_numeric_begin(&loc);
  int st = sp__csv_read(path, on_cand_row, &c, err);
  sp__c_numeric_end(&loc);
  if (!st && c.col_name < 0)
    st = sp__fail(err, SP_EPARSE, path, 1, 0, NULL, "empty file: no name,config header");
  /* As an empty workload: asked to rank, the user gets a ranking or why not. */
  if (!st && c.n == 0)
    st = sp__fail(err, SP_EPARSE, path, 2, 0, NULL, "no candidates: the file names no product");
  if (st) {
    sp__dse_named_free(c.c, c.n);
    return st;
  }
  *out = c.c;
  *n = c.n;
  return SP_OK;
}

/* ---- the workload for callers: a weight per dataset kernel --------------- */

int sp_workload_load(const char *path, const sp_dataset *ds, double *weights, sp_error *err) {
  sp_dse_weight *w = NULL;
  size_t n = 0;
  int st = sp__dse_read_weights(path, ds, &w, &n, err);
  for (size_t k = 0; !st && k < sp_dataset_kernel_count(ds); k++) weights[k] = 0.0;
  for (size_t i = 0; !st && i < n; i++) weights[w[i].kernel] = w[i].weight;
  free(w);
  return st;
}
