/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memory.c: memory.csv, the memory systems a grid's memory clocks name
 * (scalepredict.h, "memory systems"). */
#include "memory.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "csvhead.h"
#include "csvread.h"
#include "dataset.h"
#include "util/status.h"

enum { C_MHZ, C_NAME, C_TYPE, C_BUS, C_PEAK, C_CAPACITY, NCOL };
static const char *const col_names[NCOL] = {"memory_mhz", "name",     "type",
                                            "bus_bits",   "peak_gbs", "capacity_gb"};

/* The file holds at most this many rows: more memory systems than any
 * grid has, so that an endless file ends at once. */
#define MAX_SYSTEMS 1000

typedef struct reader {
  sp_memory_set *ms;
  long col[NCOL];
  size_t width;
  int have_header;
} reader;

void sp_memory_free(sp_memory_set *ms) {
  if (!ms) return;
  free(ms->path);
  free(ms->sys);
  free(ms->line);
  free(ms);
}

size_t sp_memory_count(const sp_memory_set *ms) { return ms->n; }
const char *sp_memory_path(const sp_memory_set *ms) { return ms->path; }

const sp_memory_system *sp_memory_at(const sp_memory_set *ms, size_t i) {
  return i < ms->n ? &ms->sys[i] : NULL;
}

const sp_memory_system *sp_memory_find(const sp_memory_set *ms, int memory_mhz) {
  for (size_t i = 0; i < ms->n; i++)
    if (ms->sys[i].memory_mhz == memory_mhz) return &ms->sys[i];
  return NULL;
}

static int read_header(reader *r, const sp_csv_row *row, sp_error *err) {
  for (size_t i = 0; i < row->nfields; i++) sp__csv_trim(row->fields[i]);
  for (size_t j = 0; j < NCOL; j++) {
    r->col[j] = -1;
    for (size_t i = 0; i < row->nfields; i++) {
      if (strcmp(row->fields[i], col_names[j])) continue;
      if (r->col[j] >= 0)
        return sp__fail(err, SP_EPARSE, r->ms->path, row->line, (long)i + 1, col_names[j],
                        "column appears twice in the header");
      r->col[j] = (long)i;
    }
    if (r->col[j] < 0)
      return sp__fail(err, SP_EPARSE, r->ms->path, row->line, 0, col_names[j],
                      "required column missing from the header (expected "
                      "memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb)");
  }
  r->width = row->nfields;
  r->have_header = 1;
  return SP_OK;
}

static int check_name(const char *s, size_t size);

static int read_name(const reader *r, const sp_csv_row *row, char *dst, size_t size,
                     sp_error *err) {
  long col = r->col[C_NAME];
  const char *s = sp__csv_trim(row->fields[col]);
  if (check_name(s, size))
    return sp__fail(err, SP_EPARSE, r->ms->path, row->line, col + 1, "name",
                    "a name of 1 to %zu bytes without control characters is needed", size - 1);
  memcpy(dst, s, strlen(s) + 1);
  return SP_OK;
}

/* A type: 1 to size - 1 letters, digits, '.', '-' or '_'. */
static int check_type(const char *s, size_t size) {
  size_t n = strlen(s);
  if (!n || n >= size) return -1;
  for (const char *p = s; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-' && *p != '_') return -1;
  return 0;
}

static int read_type(const reader *r, const sp_csv_row *row, char *dst, size_t size,
                     sp_error *err) {
  long col = r->col[C_TYPE];
  const char *s = sp__csv_trim(row->fields[col]);
  if (check_type(s, size))
    return sp__fail(err, SP_EPARSE, r->ms->path, row->line, col + 1, "type",
                    "'%s' is not a memory type: 1 to %zu letters, digits, '.', '-' or '_' "
                    "(HBM3, HBM3e, GDDR6X ...)",
                    s, size - 1);
  memcpy(dst, s, strlen(s) + 1);
  return SP_OK;
}

static int read_int(const reader *r, const sp_csv_row *row, int c, sp_bound_kind kind, int *out,
                    sp_error *err) {
  sp_field_at at = {r->ms->path, row->line, r->col[c] + 1, col_names[c]};
  return sp__read_bounded_int(row->fields[r->col[c]], kind, &at, out, err);
}

static int read_real(const reader *r, const sp_csv_row *row, int c, sp_bound_kind kind, double *out,
                     sp_error *err) {
  sp_field_at at = {r->ms->path, row->line, r->col[c] + 1, col_names[c]};
  return sp__read_bounded(row->fields[r->col[c]], kind, &at, out, err);
}

static int on_row(void *user, const sp_csv_row *row, sp_error *err) {
  reader *r = user;
  sp_memory_set *ms = r->ms;
  if (!r->have_header) return read_header(r, row, err);
  if (row->nfields != r->width)
    return sp__fail(err, SP_EPARSE, ms->path, row->line, 0, NULL,
                    "row has %zu fields but the header has %zu", row->nfields, r->width);
  if (ms->n == MAX_SYSTEMS)
    return sp__fail(err, SP_EPARSE, ms->path, row->line, 0, NULL, "more than %d memory systems",
                    MAX_SYSTEMS);
  sp_memory_system s;
  memset(&s, 0, sizeof s);
  int st = read_int(r, row, C_MHZ, SP_BOUND_CLOCK, &s.memory_mhz, err);
  if (!st) st = read_name(r, row, s.name, sizeof s.name, err);
  if (!st) st = read_type(r, row, s.type, sizeof s.type, err);
  if (!st) st = read_int(r, row, C_BUS, SP_BOUND_BUS, &s.bus_bits, err);
  if (!st) st = read_real(r, row, C_PEAK, SP_BOUND_GBS, &s.peak_gbs, err);
  if (!st) st = read_real(r, row, C_CAPACITY, SP_BOUND_GB, &s.capacity_gb, err);
  if (st) return st;
  for (size_t i = 0; i < ms->n; i++)
    if (ms->sys[i].memory_mhz == s.memory_mhz)
      return sp__fail(err, SP_EPARSE, ms->path, row->line, r->col[C_MHZ] + 1, "memory_mhz",
                      "memory clock %d is described twice (already on line %ld)", s.memory_mhz,
                      ms->line[i]);
  sp_memory_system *sys = realloc(ms->sys, (ms->n + 1) * sizeof *sys);
  if (sys) ms->sys = sys;
  long *line = sys ? realloc(ms->line, (ms->n + 1) * sizeof *line) : NULL;
  if (!line) return sp__oom(err);
  ms->line = line;
  ms->sys[ms->n] = s;
  ms->line[ms->n++] = row->line;
  return SP_OK;
}

int sp_memory_load(const char *path, sp_memory_set **out, sp_error *err) {
  *out = NULL;
  sp_memory_set *ms = calloc(1, sizeof *ms);
  if (!ms || !(ms->path = strdup(path))) {
    free(ms);
    return sp__oom(err);
  }
  reader r = {.ms = ms};
  int st = sp__csv_read(path, on_row, &r, err);
  if (!st && !r.have_header)
    st = sp__fail(err, SP_EPARSE, path, 1, 0, NULL, "empty file: no memory.csv header");
  if (!st && !ms->n) st = sp__fail(err, SP_EPARSE, path, 2, 0, NULL, "no memory system rows");
  if (st) {
    sp_memory_free(ms);
    return st;
  }
  *out = ms;
  return SP_OK;
}

long sp__memory_line(const sp_memory_set *ms, size_t i) { return i < ms->n ? ms->line[i] : 0; }

int sp_memory_check(const sp_memory_set *ms, const sp_dataset *ds, sp_error *err) {
  const int *v;
  size_t n = sp_dataset_axis(ds, SP_AXIS_MEMORY, &v);
  for (size_t i = 0; i < n; i++)
    if (!sp_memory_find(ms, v[i]))
      return sp__fail(err, SP_EGRID, ms->path, 0, 0, "memory_mhz",
                      "no row describes the memory clock %d of %s's grid", v[i],
                      sp_dataset_runs_path(ds));
  for (size_t j = 0; j < ms->n; j++) {
    size_t i = 0;
    while (i < n && v[i] != ms->sys[j].memory_mhz) i++;
    if (i == n)
      return sp__fail(err, SP_EGRID, ms->path, ms->line[j], 1, "memory_mhz",
                      "memory clock %d is not a memory clock of %s's grid", ms->sys[j].memory_mhz,
                      sp_dataset_runs_path(ds));
  }
  return SP_OK;
}

/* ---- a memory system given as text (predict --target-memory) -------------- */

/* A name of 1 to size - 1 bytes without control characters. */
static int check_name(const char *s, size_t size) {
  size_t n = strlen(s);
  if (!n || n >= size) return -1;
  for (const char *p = s; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) return -1;
  return 0;
}

static int parse_pair(const char *key, const char *v, sp_memory_system *out, unsigned *given,
                      sp_error *err) {
  static const char *const keys[] = {"mhz", "bus", "peak", "capacity", "type", "name"};
  sp_field_at at = {NULL, 0, 0, key};
  size_t k = 0;
  while (k < 6 && strcmp(key, keys[k])) k++;
  if (k == 6)
    return sp__fail(err, SP_EPARSE, NULL, 0, 0, NULL,
                    "unknown key '%s' (the keys: mhz, bus, type, peak, capacity, name)", key);
  if (*given & 1u << k)
    return sp__fail(err, SP_EPARSE, NULL, 0, 0, key,
                    "'%s' is given twice: each key once (the description would take the last)",
                    key);
  *given |= 1u << k;
  switch (k) {
    case 0:
      return sp__read_bounded_int(v, SP_BOUND_CLOCK, &at, &out->memory_mhz, err);
    case 1:
      return sp__read_bounded_int(v, SP_BOUND_BUS, &at, &out->bus_bits, err);
    case 2:
      return sp__read_bounded(v, SP_BOUND_GBS, &at, &out->peak_gbs, err);
    case 3:
      return sp__read_bounded(v, SP_BOUND_GB, &at, &out->capacity_gb, err);
    case 4:
      if (check_type(v, sizeof out->type))
        return sp__fail(err, SP_EPARSE, NULL, 0, 0, key,
                        "'%s' is not a memory type: 1 to 15 letters, digits, '.', '-' or '_' "
                        "(HBM3, HBM3e, GDDR6X ...)",
                        v);
      snprintf(out->type, sizeof out->type, "%s", v);
      return SP_OK;
    default:
      if (check_name(v, sizeof out->name))
        return sp__fail(err, SP_EPARSE, NULL, 0, 0, key,
                        "'%s' is not a name of 1 to 95 bytes without control characters", v);
      snprintf(out->name, sizeof out->name, "%s", v);
      return SP_OK;
  }
}

int sp_memory_parse(const char *text, int mhz_default, sp_memory_system *out, sp_error *err) {
  enum { MHZ = 1u << 0, BUS = 1u << 1, PEAK = 1u << 2 };
  memset(out, 0, sizeof *out);
  snprintf(out->type, sizeof out->type, "unknown");
  snprintf(out->name, sizeof out->name, "described");
  char *copy = strdup(text), *save = NULL;
  if (!copy) return sp__oom(err);
  int st = SP_OK;
  unsigned given = 0;
  for (char *t = strtok_r(copy, ",", &save); t && !st; t = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(t, '=');
    if (!eq)
      st = sp__fail(err, SP_EPARSE, NULL, 0, 0, NULL,
                    "'%s' is not KEY=VALUE (mhz=, bus=, type=, peak=, capacity=, name=)", t);
    else
      *eq = '\0', st = parse_pair(t, eq + 1, out, &given, err);
  }
  free(copy);
  if (st) return st;
  if ((given & MHZ) && mhz_default > 0 && out->memory_mhz != mhz_default)
    return sp__fail(err, SP_EPARSE, NULL, 0, 0, "mhz",
                    "mhz=%d disagrees with the target's memory clock %d", out->memory_mhz,
                    mhz_default);
  if (!(given & MHZ)) out->memory_mhz = mhz_default;
  if (out->memory_mhz <= 0)
    return sp__fail(err, SP_EPARSE, NULL, 0, 0, "mhz", "the memory clock is missing: give mhz=MHZ");
  if (!(given & BUS))
    return sp__fail(err, SP_EPARSE, NULL, 0, 0, "bus", "the bus width is missing: give bus=BITS");
  if (!(given & PEAK)) out->peak_gbs = 2.0 * out->memory_mhz * out->bus_bits / 8 / 1000;
  if (out->peak_gbs > sp__bound(SP_BOUND_GBS)->hi)
    return sp__fail(err, SP_EPARSE, NULL, 0, 0, "peak",
                    "2 x %d MHz x %d bits / 8 is %g GB/s, beyond 1 PB/s: give peak=GBS",
                    out->memory_mhz, out->bus_bits, out->peak_gbs);
  return SP_OK;
}
