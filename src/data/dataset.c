/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dataset.c: loading and validating runs.csv and counters.csv. */
#include "dataset.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "csvhead.h"
#include "csvread.h"
#include "util/status.h"

#define NOT_FOUND ((size_t)-1)

/* ---- hashing ------------------------------------------------------------ */

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

static uint64_t hash_row(size_t k, const sp_config *c) {
  uint64_t h = mix((uint64_t)k + 0x9e3779b97f4a7c15ULL);
  h = mix(h ^ (uint64_t)(unsigned)c->cu);
  h = mix(h ^ (uint64_t)(unsigned)c->engine_mhz);
  return mix(h ^ (uint64_t)(unsigned)c->memory_mhz);
}

static uint64_t hash_name(const char *s) {
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return mix(h);
}

/* Grows map to keep the load factor under one half.  keys(i) rehashes. */
typedef uint64_t (*key_fn)(const sp_dataset *ds, size_t index);

static int map_reserve(sp_rowmap *m, size_t count, const sp_dataset *ds, key_fn key) {
  if (m->slots && 2 * (count + 1) <= m->mask + 1) return SP_OK;
  size_t cap = m->slots ? 2 * (m->mask + 1) : 64;
  while (2 * (count + 1) > cap) cap *= 2;
  size_t *slots = calloc(cap, sizeof *slots);
  if (!slots) return SP_ENOMEM;
  for (size_t i = 0; m->slots && i <= m->mask; i++) {
    if (!m->slots[i]) continue;
    size_t at = key(ds, m->slots[i] - 1) & (cap - 1);
    while (slots[at]) at = (at + 1) & (cap - 1);
    slots[at] = m->slots[i];
  }
  free(m->slots);
  m->slots = slots;
  m->mask = cap - 1;
  return SP_OK;
}

static uint64_t run_key(const sp_dataset *ds, size_t i) {
  return hash_row(ds->runs[i].kernel, &ds->runs[i].cfg);
}
static uint64_t crow_key(const sp_dataset *ds, size_t i) {
  return hash_row(ds->crows[i].kernel, &ds->crows[i].cfg);
}
static uint64_t kernel_key(const sp_dataset *ds, size_t i) { return hash_name(ds->kernels[i]); }

size_t sp__dataset_find_run(const sp_dataset *ds, size_t k, const sp_config *cfg) {
  if (!ds->run_map.slots) return NOT_FOUND;
  for (size_t at = hash_row(k, cfg) & ds->run_map.mask;; at = (at + 1) & ds->run_map.mask) {
    size_t s = ds->run_map.slots[at];
    if (!s) return NOT_FOUND;
    const sp_run *r = &ds->runs[s - 1];
    if (r->kernel == k && sp_config_equal(&r->cfg, cfg)) return s - 1;
  }
}

size_t sp__dataset_find_counters(const sp_dataset *ds, size_t k, const sp_config *cfg) {
  if (!ds->crow_map.slots) return NOT_FOUND;
  for (size_t at = hash_row(k, cfg) & ds->crow_map.mask;; at = (at + 1) & ds->crow_map.mask) {
    size_t s = ds->crow_map.slots[at];
    if (!s) return NOT_FOUND;
    const sp_counter_row *r = &ds->crows[s - 1];
    if (r->kernel == k && sp_config_equal(&r->cfg, cfg)) return s - 1;
  }
}

size_t sp_dataset_kernel_index(const sp_dataset *ds, const char *name) {
  if (!ds->kernel_map.slots) return NOT_FOUND;
  for (size_t at = hash_name(name) & ds->kernel_map.mask;; at = (at + 1) & ds->kernel_map.mask) {
    size_t s = ds->kernel_map.slots[at];
    if (!s) return NOT_FOUND;
    if (!strcmp(ds->kernels[s - 1], name)) return s - 1;
  }
}

static void map_insert(sp_rowmap *m, uint64_t h, size_t index) {
  size_t at = h & m->mask;
  while (m->slots[at]) at = (at + 1) & m->mask;
  m->slots[at] = index + 1;
}

/* ---- growth helpers ------------------------------------------------------ */

static int grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return SP_OK;
  size_t n = *cap ? *cap : 64;
  while (n < need) n *= 2;
  void *q = realloc(*p, n * elem);
  if (!q) return SP_ENOMEM;
  *p = q;
  *cap = n;
  return SP_OK;
}

static int intern_kernel(sp_dataset *ds, const char *name, size_t *out) {
  size_t k = sp_dataset_kernel_index(ds, name);
  if (k != NOT_FOUND) {
    *out = k;
    return SP_OK;
  }
  if (grow((void **)&ds->kernels, &ds->kernels_cap, ds->nkernels + 1, sizeof *ds->kernels) ||
      map_reserve(&ds->kernel_map, ds->nkernels + 1, ds, kernel_key))
    return SP_ENOMEM;
  char *copy = strdup(name);
  if (!copy) return SP_ENOMEM;
  ds->kernels[ds->nkernels] = copy;
  map_insert(&ds->kernel_map, hash_name(copy), ds->nkernels);
  *out = ds->nkernels++;
  return SP_OK;
}

/* ---- header handling ----------------------------------------------------- */

/* source is optional and belongs to runs.csv only: "measured" or
 * "completed" (what a plan's completion wrote). */
enum { COL_KERNEL, COL_CU, COL_ENGINE, COL_MEMORY, COL_TIME, COL_POWER, COL_SOURCE, NCOLS };
static const char *const col_names[NCOLS] = {"kernel",  "cu",      "engine_mhz", "memory_mhz",
                                             "time_ms", "power_w", "source"};

typedef struct load_ctx {
  sp_dataset *ds;
  const char *path;
  const sp_dataset_options *opt;
  int have_header;
  size_t width;        /* fields per row, from the header */
  long col[NCOLS];     /* field index of each known column, -1 if absent */
  unsigned char *drop; /* counters.csv: fields of ignored counters */
  size_t unknown_rows; /* counters.csv rows skipped: kernel not in runs.csv */
  long first_unknown;  /* the line of the first */
} load_ctx;

static int read_header(load_ctx *c, const sp_csv_row *row, size_t required, sp_error *err) {
  for (size_t j = 0; j < NCOLS; j++) c->col[j] = -1;
  for (size_t i = 0; i < row->nfields; i++) {
    sp__csv_trim(row->fields[i]);
    for (size_t j = 0; j < NCOLS; j++)
      if (!strcmp(row->fields[i], col_names[j])) {
        if (c->col[j] >= 0)
          return sp__fail(err, SP_EPARSE, c->path, row->line, (long)i + 1, col_names[j],
                          "column appears twice in the header");
        c->col[j] = (long)i;
      }
  }
  for (size_t j = 0; j < required; j++)
    if (c->col[j] < 0)
      return sp__fail(err, SP_EPARSE, c->path, row->line, 0, col_names[j],
                      "required column missing from the header (expected "
                      "kernel,cu,engine_mhz,memory_mhz%s)",
                      required > COL_MEMORY + 1 ? ",time_ms,power_w" : ",<counters>...");
  c->width = row->nfields;
  c->have_header = 1;
  return SP_OK;
}

static int check_width(const load_ctx *c, const sp_csv_row *row, sp_error *err) {
  if (row->nfields == c->width) return SP_OK;
  return sp__fail(err, SP_EPARSE, c->path, row->line, 0, NULL,
                  "row has %zu fields but the header has %zu", row->nfields, c->width);
}

/* Reads kernel name and configuration, common to both files. */
static int read_key(load_ctx *c, const sp_csv_row *row, size_t *kernel, sp_config *cfg, int intern,
                    sp_error *err) {
  const char *name = row->fields[c->col[COL_KERNEL]];
  if (!*name)
    return sp__fail(err, SP_EPARSE, c->path, row->line, c->col[COL_KERNEL] + 1, "kernel",
                    "empty kernel name");
  int *dst[3] = {&cfg->cu, &cfg->engine_mhz, &cfg->memory_mhz};
  for (int a = 0; a < 3; a++) {
    long col = c->col[COL_CU + a];
    sp_field_at at = {c->path, row->line, col + 1, col_names[COL_CU + a]};
    int st =
        sp__read_bounded_int(row->fields[col], a ? SP_BOUND_CLOCK : SP_BOUND_CU, &at, dst[a], err);
    if (st) return st;
  }
  if (intern) {
    if (intern_kernel(c->ds, name, kernel))
      return sp__fail(err, SP_ENOMEM, c->path, row->line, 0, NULL, "out of memory");
    return SP_OK;
  }
  *kernel = sp_dataset_kernel_index(c->ds, name);
  if (*kernel == NOT_FOUND)
    return sp__fail(err, SP_ENOTFOUND, c->path, row->line, c->col[COL_KERNEL] + 1, "kernel",
                    "kernel '%s' is not in %s (--skip-unknown-kernels skips "
                    "such rows)",
                    name, c->ds->runs_path);
  return SP_OK;
}

/* A time or a power: positive and inside its bounds (bounds.h), which also
 * keeps out subnormal values, whose ratios to other measurements overflow. */
static int read_measure(const load_ctx *c, const sp_csv_row *row, int col_id, double *out,
                        sp_error *err) {
  long col = c->col[col_id];
  sp_field_at at = {c->path, row->line, col + 1, col_names[col_id]};
  return sp__read_bounded(row->fields[col],
                          col_id == COL_TIME ? SP_BOUND_TIME_MS : SP_BOUND_POWER_W, &at, out, err);
}

/* ---- runs.csv ------------------------------------------------------------ */

static int read_source(const load_ctx *c, const sp_csv_row *row, int *completed, sp_error *err) {
  const long col = c->col[COL_SOURCE];
  const char *v = col >= 0 ? row->fields[col] : "";
  *completed = !strcmp(v, "completed");
  if (*completed || !*v || !strcmp(v, "measured")) return SP_OK;
  return sp__fail(err, SP_EPARSE, c->path, row->line, col + 1, "source",
                  "'%s' is neither 'measured' nor 'completed'", v);
}

static int on_run_row(void *user, const sp_csv_row *row, sp_error *err) {
  load_ctx *c = user;
  sp_dataset *ds = c->ds;
  if (!c->have_header) return read_header(c, row, COL_TIME + 1, err);
  int st = check_width(c, row, err);
  sp_run r = {.line = row->line, .power_w = NAN};
  if (!st) st = read_key(c, row, &r.kernel, &r.cfg, 1, err);
  if (!st) st = read_measure(c, row, COL_TIME, &r.time_ms, err);
  if (!st && c->col[COL_POWER] >= 0 && row->fields[c->col[COL_POWER]][0])
    st = read_measure(c, row, COL_POWER, &r.power_w, err);
  if (!st) st = read_source(c, row, &r.completed, err);
  if (st) return st;
  size_t dup = sp__dataset_find_run(ds, r.kernel, &r.cfg);
  if (dup != NOT_FOUND) {
    char cfg[64];
    sp_config_format(&r.cfg, cfg, sizeof cfg);
    return sp__fail(err, SP_EPARSE, c->path, row->line, 0, NULL,
                    "duplicate row: kernel '%s' at %s already on line %ld", ds->kernels[r.kernel],
                    cfg, ds->runs[dup].line);
  }
  if (grow((void **)&ds->runs, &ds->runs_cap, ds->nruns + 1, sizeof *ds->runs) ||
      map_reserve(&ds->run_map, ds->nruns + 1, ds, run_key))
    return sp__fail(err, SP_ENOMEM, c->path, row->line, 0, NULL, "out of memory");
  ds->runs[ds->nruns] = r;
  map_insert(&ds->run_map, hash_row(r.kernel, &r.cfg), ds->nruns);
  ds->nruns++;
  return SP_OK;
}

/* ---- notes on what the options skipped ---------------------------------------- */

static int add_note(sp_dataset *ds, const char *note) {
  char **n = realloc(ds->notes, (ds->nnotes + 1) * sizeof *n);
  if (!n) return SP_ENOMEM;
  ds->notes = n;
  return (n[ds->nnotes] = strdup(note)) ? (ds->nnotes++, SP_OK) : SP_ENOMEM;
}

size_t sp_dataset_note_count(const sp_dataset *ds) { return ds->nnotes; }

const char *sp_dataset_note(const sp_dataset *ds, size_t i) {
  return i < ds->nnotes ? ds->notes[i] : NULL;
}

void sp_dataset_options_init(sp_dataset_options *o) { memset(o, 0, sizeof *o); }

/* --ignore-counter: marks the fields of each ignored name in c->drop; a
 * name the header lacks is an error, so a typo does not pass unnoticed. */
static int mark_ignored(load_ctx *c, const sp_csv_row *row, sp_error *err) {
  if (!(c->drop = calloc(row->nfields + 1, 1)))
    return sp__fail(err, SP_ENOMEM, c->path, row->line, 0, NULL, "out of memory");
  const char *const *names = c->opt ? c->opt->ignore_counters : NULL;
  for (size_t j = 0; names && names[j]; j++) {
    size_t hits = 0;
    for (size_t i = 0; i < row->nfields; i++)
      if (!strcmp(row->fields[i], names[j])) c->drop[i] = 1, hits++;
    if (!hits)
      return sp__fail(err, SP_ENOTFOUND, c->path, row->line, 0, names[j],
                      "no counter column of this name to ignore");
    char note[512];
    snprintf(note, sizeof note, "%s: ignored the counter '%s' (%zu column%s)", c->path, names[j],
             hits, hits == 1 ? "" : "s");
    if (add_note(c->ds, note))
      return sp__fail(err, SP_ENOMEM, c->path, row->line, 0, NULL, "out of memory");
  }
  return SP_OK;
}

/* ---- counters.csv -------------------------------------------------------- */

static int is_key(const load_ctx *c, size_t i) {
  int key = 0;
  for (int j = COL_KERNEL; j <= COL_MEMORY; j++) key |= c->col[j] == (long)i;
  return key;
}

static int read_counter_header(load_ctx *c, const sp_csv_row *row, sp_error *err) {
  int st = read_header(c, row, COL_MEMORY + 1, err);
  if (!st) st = mark_ignored(c, row, err);
  if (st) return st;
  sp_dataset *ds = c->ds;
  /* Counters are every column that is not one of the four key columns. */
  ds->counter_names = calloc(row->nfields, sizeof *ds->counter_names);
  if (!ds->counter_names)
    return sp__fail(err, SP_ENOMEM, c->path, row->line, 0, NULL, "out of memory");
  for (size_t i = 0; i < row->nfields; i++) {
    if (is_key(c, i) || c->drop[i]) continue;
    const char *name = row->fields[i];
    if (!*name)
      return sp__fail(err, SP_EPARSE, c->path, row->line, (long)i + 1, NULL,
                      "empty counter name in the header");
    for (size_t j = 0; j < ds->ncounters; j++)
      if (!strcmp(ds->counter_names[j], name))
        return sp__fail(err, SP_EPARSE, c->path, row->line, (long)i + 1, name,
                        "counter appears twice in the header (--ignore-counter %s drops "
                        "both)",
                        name);
    if (!(ds->counter_names[ds->ncounters++] = strdup(name)))
      return sp__fail(err, SP_ENOMEM, c->path, row->line, 0, NULL, "out of memory");
  }
  return SP_OK;
}

static int on_counter_row(void *user, const sp_csv_row *row, sp_error *err) {
  load_ctx *c = user;
  sp_dataset *ds = c->ds;
  if (!c->have_header) return read_counter_header(c, row, err);
  int st = check_width(c, row, err);
  sp_counter_row r = {.line = row->line, .offset = ds->nvalues};
  if (!st) st = read_key(c, row, &r.kernel, &r.cfg, 0, err);
  if (st == SP_ENOTFOUND && c->opt && c->opt->skip_unknown_kernels) {
    if (!c->unknown_rows++) c->first_unknown = row->line;
    return SP_OK;
  }
  if (st) return st;
  size_t dup = sp__dataset_find_counters(ds, r.kernel, &r.cfg);
  if (dup != NOT_FOUND) {
    char cfg[64];
    sp_config_format(&r.cfg, cfg, sizeof cfg);
    return sp__fail(err, SP_EPARSE, c->path, row->line, 0, NULL,
                    "duplicate row: kernel '%s' at %s already on line %ld", ds->kernels[r.kernel],
                    cfg, ds->crows[dup].line);
  }
  if (grow((void **)&ds->counter_values, &ds->values_cap, ds->nvalues + ds->ncounters + 1,
           sizeof(double)) ||
      grow((void **)&ds->crows, &ds->crows_cap, ds->ncrows + 1, sizeof *ds->crows) ||
      map_reserve(&ds->crow_map, ds->ncrows + 1, ds, crow_key))
    return sp__fail(err, SP_ENOMEM, c->path, row->line, 0, NULL, "out of memory");
  size_t at = 0;
  for (size_t i = 0; i < row->nfields; i++) {
    if (is_key(c, i) || c->drop[i]) continue;
    /* An empty field is a reading the tool did not take: kept as NaN, and
     * rejected only where a model needs it (at its base configuration). */
    if (!row->fields[i][0])
      ds->counter_values[r.offset + at] = NAN;
    else if ((st = sp__read_bounded(
                  row->fields[i], SP_BOUND_COUNTER,
                  &(sp_field_at){c->path, row->line, (long)i + 1, ds->counter_names[at]},
                  &ds->counter_values[r.offset + at], err)))
      return st;
    at++;
  }
  ds->nvalues += ds->ncounters;
  ds->crows[ds->ncrows] = r;
  map_insert(&ds->crow_map, hash_row(r.kernel, &r.cfg), ds->ncrows);
  ds->ncrows++;
  return SP_OK;
}

/* ---- axes and cross-file checks ------------------------------------------ */

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static int build_axes(sp_dataset *ds) {
  for (int a = 0; a < 3; a++) {
    int *v = malloc((ds->nruns ? ds->nruns : 1) * sizeof *v);
    if (!v) return SP_ENOMEM;
    for (size_t i = 0; i < ds->nruns; i++) {
      const sp_config *c = &ds->runs[i].cfg;
      v[i] = a == 0 ? c->cu : a == 1 ? c->engine_mhz : c->memory_mhz;
    }
    qsort(v, ds->nruns, sizeof *v, cmp_int);
    size_t n = 0;
    for (size_t i = 0; i < ds->nruns; i++)
      if (!n || v[n - 1] != v[i]) v[n++] = v[i];
    ds->axis[a] = v;
    ds->naxis[a] = n;
  }
  return SP_OK;
}

/* Every kernel of runs.csv needs at least one counter row. */
static int check_counter_coverage(const sp_dataset *ds, sp_error *err) {
  unsigned char *seen = calloc(ds->nkernels + 1, 1);
  if (!seen) return sp__oom(err);
  for (size_t i = 0; i < ds->ncrows; i++) seen[ds->crows[i].kernel] = 1;
  int st = SP_OK;
  for (size_t k = 0; k < ds->nkernels && !st; k++)
    if (!seen[k])
      st = sp__fail(err, SP_ENOTFOUND, ds->counters_path, 0, 0, "kernel",
                    "kernel '%s' of %s has no counter rows (--skip-kernels-without-counters "
                    "leaves such kernels out)",
                    ds->kernels[k], ds->runs_path);
  free(seen);
  return st;
}

/* Rebuilds a map from scratch over count rows. */
static int rebuild_map(sp_rowmap *m, size_t count, const sp_dataset *ds, key_fn key) {
  free(m->slots);
  m->slots = NULL;
  if (map_reserve(m, count, ds, key)) return SP_ENOMEM;
  for (size_t i = 0; i < count; i++) map_insert(m, key(ds, i), i);
  return SP_OK;
}

/* Keeps the kernels whose keep[k] is set, renumbered in order, and their
 * runs; every counter row's kernel is kept. */
static int keep_kernels(sp_dataset *ds, const unsigned char *keep) {
  size_t *to = malloc((ds->nkernels + 1) * sizeof *to);
  if (!to) return SP_ENOMEM;
  size_t n = 0;
  for (size_t k = 0; k < ds->nkernels; k++) {
    to[k] = keep[k] ? n : NOT_FOUND;
    if (keep[k])
      ds->kernels[n++] = ds->kernels[k];
    else
      free(ds->kernels[k]);
  }
  ds->nkernels = n;
  n = 0;
  for (size_t i = 0; i < ds->nruns; i++)
    if (to[ds->runs[i].kernel] != NOT_FOUND) {
      ds->runs[n] = ds->runs[i];
      ds->runs[n++].kernel = to[ds->runs[i].kernel];
    }
  ds->nruns = n;
  for (size_t i = 0; i < ds->ncrows; i++) ds->crows[i].kernel = to[ds->crows[i].kernel];
  free(to);
  if (rebuild_map(&ds->kernel_map, ds->nkernels, ds, kernel_key) ||
      rebuild_map(&ds->run_map, ds->nruns, ds, run_key) ||
      rebuild_map(&ds->crow_map, ds->ncrows, ds, crow_key))
    return SP_ENOMEM;
  return SP_OK;
}

/* --skip-kernels-without-counters: leaves out the kernels of runs.csv that
 * have no counter row, and notes how many and the first. */
static int skip_uncounted(sp_dataset *ds, sp_error *err) {
  unsigned char *seen = calloc(ds->nkernels + 1, 1);
  if (!seen) return sp__oom(err);
  for (size_t i = 0; i < ds->ncrows; i++) seen[ds->crows[i].kernel] = 1;
  size_t skipped = 0, first = NOT_FOUND;
  for (size_t k = 0; k < ds->nkernels; k++)
    if (!seen[k] && !skipped++) first = k;
  int st = SP_OK;
  if (skipped == ds->nkernels)
    st = sp__fail(err, SP_ENOTFOUND, ds->counters_path, 0, 0, "kernel",
                  "no kernel of %s has a counter row", ds->runs_path);
  else if (skipped) {
    char note[512];
    snprintf(
        note, sizeof note, "%s: left out %zu kernel%s without counter rows in %s (the first: '%s')",
        ds->runs_path, skipped, skipped == 1 ? "" : "s", ds->counters_path, ds->kernels[first]);
    if (add_note(ds, note) || keep_kernels(ds, seen)) st = sp__oom(err);
  }
  free(seen);
  return st;
}

static int load_file(sp_dataset *ds, const char *path, sp_csv_row_fn fn,
                     const sp_dataset_options *opt, const char *what, sp_error *err) {
  load_ctx c = {.ds = ds, .path = path, .opt = opt};
  int st = sp__csv_read(path, fn, &c, err);
  if (!st && !c.have_header)
    st = sp__fail(err, SP_EPARSE, path, 1, 0, NULL, "empty file: no %s header", what);
  if (!st && c.unknown_rows) {
    char note[512];
    snprintf(note, sizeof note,
             "%s: skipped %zu row%s of kernels that %s lacks (the first "
             "on line %ld)",
             path, c.unknown_rows, c.unknown_rows == 1 ? "" : "s", ds->runs_path, c.first_unknown);
    if (add_note(ds, note)) st = sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  }
  free(c.drop);
  return st;
}

int sp_dataset_load(const char *runs_path, const char *counters_path, sp_dataset **out,
                    sp_error *err) {
  return sp_dataset_load_with(runs_path, counters_path, NULL, out, err);
}

int sp_dataset_load_with(const char *runs_path, const char *counters_path,
                         const sp_dataset_options *opts, sp_dataset **out, sp_error *err) {
  *out = NULL;
  sp_dataset *ds = calloc(1, sizeof *ds);
  if (!ds) return sp__fail(err, SP_ENOMEM, runs_path, 0, 0, NULL, "out of memory");
  int st = (ds->runs_path = strdup(runs_path)) ? SP_OK : SP_ENOMEM;
  if (!st && counters_path && !(ds->counters_path = strdup(counters_path))) st = SP_ENOMEM;
  if (st) st = sp__fail(err, st, runs_path, 0, 0, NULL, "out of memory");
  if (!st) st = load_file(ds, runs_path, on_run_row, opts, "runs.csv", err);
  if (!st && ds->nruns == 0) st = sp__fail(err, SP_EPARSE, runs_path, 2, 0, NULL, "no data rows");
  if (!st && counters_path)
    st = load_file(ds, counters_path, on_counter_row, opts, "counters.csv", err);
  if (!st && counters_path && opts && opts->skip_kernels_without_counters)
    st = skip_uncounted(ds, err);
  if (!st && counters_path) st = check_counter_coverage(ds, err);
  if (!st && build_axes(ds)) st = sp__fail(err, SP_ENOMEM, runs_path, 0, 0, NULL, "out of memory");
  if (st) {
    sp_dataset_free(ds);
    return st;
  }
  *out = ds;
  return SP_OK;
}

void sp_dataset_free(sp_dataset *ds) {
  if (!ds) return;
  for (size_t k = 0; k < ds->nkernels; k++) free(ds->kernels[k]);
  for (size_t c = 0; c < ds->ncounters; c++) free(ds->counter_names[c]);
  for (int a = 0; a < 3; a++) free(ds->axis[a]);
  free(ds->kernels);
  free(ds->counter_names);
  free(ds->kernel_map.slots);
  free(ds->runs);
  free(ds->run_map.slots);
  free(ds->crows);
  free(ds->crow_map.slots);
  free(ds->counter_values);
  free(ds->runs_path);
  free(ds->counters_path);
  for (size_t i = 0; i < ds->nnotes; i++) free(ds->notes[i]);
  free(ds->notes);
  free(ds);
}

/* ---- copies ------------------------------------------------------------- */

static int copy_block(void **dst, const void *src, size_t bytes) {
  if (!bytes) return SP_OK;
  if (!(*dst = malloc(bytes))) return SP_ENOMEM;
  memcpy(*dst, src, bytes);
  return SP_OK;
}

static int copy_map(sp_rowmap *dst, const sp_rowmap *src) {
  dst->mask = src->mask;
  return src->slots
             ? copy_block((void **)&dst->slots, src->slots, (src->mask + 1) * sizeof *src->slots)
             : SP_OK;
}

/* *count is set once the array exists, so that sp_dataset_free can free
 * a half-made copy. */
static int copy_strings(char ***dst, size_t *count, char *const *src, size_t n) {
  if (!n) return SP_OK;
  if (!(*dst = calloc(n, sizeof **dst))) return SP_ENOMEM;
  *count = n;
  for (size_t i = 0; i < n; i++)
    if (!((*dst)[i] = strdup(src[i]))) return SP_ENOMEM;
  return SP_OK;
}

sp_dataset *sp__dataset_clone(const sp_dataset *ds) {
  sp_dataset *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->kernels_cap = ds->nkernels;
  c->nruns = c->runs_cap = ds->nruns;
  c->ncrows = c->crows_cap = ds->ncrows;
  c->nvalues = c->values_cap = ds->nvalues;
  int st = (c->runs_path = strdup(ds->runs_path)) ? SP_OK : SP_ENOMEM;
  if (!st && ds->counters_path && !(c->counters_path = strdup(ds->counters_path))) st = SP_ENOMEM;
  if (!st) st = copy_strings(&c->kernels, &c->nkernels, ds->kernels, ds->nkernels);
  if (!st) st = copy_strings(&c->counter_names, &c->ncounters, ds->counter_names, ds->ncounters);
  if (!st) st = copy_strings(&c->notes, &c->nnotes, ds->notes, ds->nnotes);
  if (!st) st = copy_map(&c->kernel_map, &ds->kernel_map);
  if (!st) st = copy_map(&c->run_map, &ds->run_map);
  if (!st) st = copy_map(&c->crow_map, &ds->crow_map);
  if (!st) st = copy_block((void **)&c->runs, ds->runs, ds->nruns * sizeof *ds->runs);
  if (!st) st = copy_block((void **)&c->crows, ds->crows, ds->ncrows * sizeof *ds->crows);
  if (!st)
    st = copy_block((void **)&c->counter_values, ds->counter_values, ds->nvalues * sizeof(double));
  for (int a = 0; a < 3 && !st; a++) {
    c->naxis[a] = ds->naxis[a];
    st = copy_block((void **)&c->axis[a], ds->axis[a],
                    (ds->naxis[a] ? ds->naxis[a] : 1) * sizeof(int));
  }
  if (!st) return c;
  sp_dataset_free(c);
  return NULL;
}

/* ---- accessors ----------------------------------------------------------- */

size_t sp_dataset_kernel_count(const sp_dataset *ds) { return ds->nkernels; }
const char *sp_dataset_kernel_name(const sp_dataset *ds, size_t k) {
  return k < ds->nkernels ? ds->kernels[k] : NULL;
}
size_t sp_dataset_counter_count(const sp_dataset *ds) { return ds->ncounters; }
const char *sp_dataset_counter_name(const sp_dataset *ds, size_t c) {
  return c < ds->ncounters ? ds->counter_names[c] : NULL;
}
const char *sp_dataset_runs_path(const sp_dataset *ds) { return ds->runs_path; }
const char *sp_dataset_counters_path(const sp_dataset *ds) { return ds->counters_path; }

size_t sp_dataset_axis(const sp_dataset *ds, int axis, const int **values) {
  if (axis < 0 || axis > 2) {
    *values = NULL;
    return 0;
  }
  *values = ds->axis[axis];
  return ds->naxis[axis];
}

int sp_dataset_time(const sp_dataset *ds, size_t k, const sp_config *cfg, double *time_ms) {
  size_t i = sp__dataset_find_run(ds, k, cfg);
  if (i == NOT_FOUND) return SP_ENOTFOUND;
  *time_ms = ds->runs[i].time_ms;
  return SP_OK;
}

int sp_dataset_power(const sp_dataset *ds, size_t k, const sp_config *cfg, double *power_w) {
  size_t i = sp__dataset_find_run(ds, k, cfg);
  if (i == NOT_FOUND) return SP_ENOTFOUND;
  if (isnan(ds->runs[i].power_w)) return SP_ENOPOWER;
  *power_w = ds->runs[i].power_w;
  return SP_OK;
}

int sp_dataset_measured(const sp_dataset *ds, size_t k, const sp_config *cfg) {
  size_t i = sp__dataset_find_run(ds, k, cfg);
  return i != NOT_FOUND && !ds->runs[i].completed;
}

int sp_dataset_counters(const sp_dataset *ds, size_t k, const sp_config *cfg,
                        const double **values) {
  size_t i = sp__dataset_find_counters(ds, k, cfg);
  if (i == NOT_FOUND) return SP_ENOTFOUND;
  *values = ds->counter_values + ds->crows[i].offset;
  return SP_OK;
}
