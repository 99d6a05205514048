/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ncu.c: Nsight Compute raw CSV (ncu --csv --page raw --print-units base)
 * to counters.csv.
 *
 * ncu numbers the profiled launches of a process in order; a runner in
 * --counters-base mode launches each (kernel, cu) exactly once and writes
 * the same order into its manifest.  Rows are paired by position, and the
 * kernel function name ncu reports must match the manifest's entry, so a
 * stray or missing launch is an error rather than a silent shift.
 *
 * The features are size-independent ratios that mirror the paper's Table II
 * (docs/harness.md maps each to its Table II counterpart), followed by the
 * launch shape (grid, block, registers, shared memory, occupancy limits,
 * waves).  Each is computed by the library's table of vendor metrics
 * (src/profile/metricmap.c, compiled in here), which `scalepredict profile`
 * uses on a user's application, so the two agree by construction.  The
 * launch columns were added later: ncu output collected with an older
 * metric list lacks most of them, and they are then left empty ("not
 * measured"), while a ratio feature whose metrics are missing is an error
 * naming every missing metric at once.  Lines of any width are read. */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvlog.h"
#include "metricmap.h"
#include "runner.h"

/* A parsed CSV line of any width (ncu --set full has ~2,300 columns):
 * fields point into buf. */
typedef struct csvline {
  char *raw;
  size_t rawcap;
  char *buf;
  size_t bufcap;
  char **f;
  size_t fcap;
  int n;
} csvline;

static void csvline_free(csvline *l) {
  if (l == NULL) return;
  free(l->raw);
  free(l->buf);
  free(l->f);
  free(l);
}

/* Room for one more field pointer. */
static int more_fields(csvline *l) {
  if ((size_t)l->n < l->fcap) return 0;
  size_t cap = l->fcap ? 2 * l->fcap : 256;
  char **f = realloc(l->f, cap * sizeof *f);
  if (f == NULL) return -1;
  l->f = f;
  l->fcap = cap;
  return 0;
}

/* Splits one line (RFC 4180 quoting, no embedded newlines).  Returns the
 * field count, or -1 at end of file (or out of memory). */
static int read_csv(FILE *fp, csvline *l) {
  ssize_t len = getline(&l->raw, &l->rawcap, fp);
  if (len < 0) return -1;
  if (l->bufcap < (size_t)len + 1) {
    char *b = realloc(l->buf, (size_t)len + 1);
    if (b == NULL) return -1;
    l->buf = b;
    l->bufcap = (size_t)len + 1;
  }
  size_t o = 0;
  int quoted = 0;
  l->n = 0;
  if (more_fields(l) != 0) return -1;
  l->f[l->n++] = l->buf;
  for (const char *p = l->raw; *p && *p != '\n' && *p != '\r'; ++p) {
    if (quoted && *p == '"' && p[1] == '"') {
      l->buf[o++] = '"';
      ++p;
    } else if (*p == '"') {
      quoted = !quoted;
    } else if (*p == ',' && !quoted) {
      if (more_fields(l) != 0) return -1;
      l->buf[o++] = '\0';
      l->f[l->n++] = l->buf + o;
    } else {
      l->buf[o++] = *p;
    }
  }
  l->buf[o] = '\0';
  return l->n;
}

typedef struct ncu_table {
  char **names;
  int ncols, col_kernel, col_id;
} ncu_table;

typedef struct ncu_row {
  const ncu_table *t;
  double *v;
} ncu_row;

static void table_free(ncu_table *t) {
  for (int c = 0; t && c < t->ncols; ++c) free(t->names[c]);
  if (t) free(t->names);
  free(t);
}

/* The column of metric name, or -1. */
static int column(const ncu_table *t, const char *name) {
  for (int c = 0; c < t->ncols; ++c)
    if (strcmp(t->names[c], name) == 0) return c;
  return -1;
}

static double m(const ncu_row *r, const char *name) {
  int c = column(r->t, name);
  return c < 0 ? NAN : r->v[c];
}

/* The counters.csv columns after the key, in three groups: the features
 * (every metric required), the launch shape and the SM activity (empty
 * where ncu did not report the metrics behind a column).  How each is
 * computed is the library's table (src/profile/metricmap.c), which user
 * profiles go through too. */
static const char *const FEATURES[] = {
    "valu_insts_pct",        "salu_insts_pct",       "vfetch_insts_pct",
    "vwrite_insts_pct",      "lds_insts_pct",        "atomic_insts_pct",
    "branch_insts_pct",      "valu_utilization_pct", "valu_busy_pct",
    "fma_busy_pct",          "fp64_busy_pct",        "xu_busy_pct",
    "salu_busy_pct",         "l2_hit_pct",           "l1_hit_pct",
    "mem_unit_busy_pct",     "l2_busy_pct",          "mem_unit_stalled",
    "write_unit_stalled",    "mio_stalled",          "barrier_stalled",
    "lds_bank_conflict_pct", "occupancy_pct",        "ipc",
    "mem_time_pct",          "fetch_per_load_byte",  "write_per_store_byte",
    "work_groups",           "read_bw_gbs",          "write_bw_gbs",
};
enum { NFEATURES = sizeof FEATURES / sizeof *FEATURES };

static const char *const LAUNCH[] = {
    "grid_blocks",   "block_threads", "regs_per_thread",           "smem_per_block",
    "blocks_per_sm", "waves",         "theoretical_occupancy_pct",
};
enum { NLAUNCH = sizeof LAUNCH / sizeof *LAUNCH };

static const char *const ACTIVITY[] = {
    "sm_active_pct",
    "sm_balance_pct",
    "tensor_busy_pct",
    "l2_bw_gbs",
};
enum { NACTIVITY = sizeof ACTIVITY / sizeof *ACTIVITY };

/* Counter name of the row by the library's rule; every metric of the rule
 * that the raw CSV lacks is appended to missing (", "-separated). */
static double counter(const ncu_row *r, const char *name, char *missing, size_t size) {
  const sp_counter_rule *rule = sp__metricmap_find(SP_VENDOR_NVIDIA, name);
  double v[SP_RULE_METRICS];
  assert(rule != NULL);
  for (size_t j = 0; j < sp__rule_metric_count(rule); j++) {
    v[j] = m(r, rule->metrics[j]);
    size_t o = strlen(missing);
    if (column(r->t, rule->metrics[j]) < 0 && !strstr(missing, rule->metrics[j]) && o < size)
      snprintf(missing + o, size - o, "%s%s", o ? ", " : "", rule->metrics[j]);
  }
  return rule->fn(v);
}

/* The column groups of counters.csv, in order; an older sp-runner wrote
 * only the first one or two. */
enum { GROUPS_FEATURES = 1, GROUPS_LAUNCH = 2, GROUPS_ALL = 3 };

static int read_header(FILE *fp, ncu_table *t, const char *path) {
  csvline *l = calloc(1, sizeof *l);
  int rc = -1;
  t->col_kernel = t->col_id = -1;
  /* ncu may print "==PROF==" lines before the table. */
  while (l && read_csv(fp, l) >= 0) {
    if (l->n < 2 || strcmp(l->f[0], "ID") != 0) continue;
    t->names = calloc((size_t)l->n, sizeof *t->names);
    for (int c = 0; t->names && c < l->n; ++c) {
      if ((t->names[c] = strdup(l->f[c])) == NULL) break;
      t->ncols = c + 1;
      if (strcmp(l->f[c], "Kernel Name") == 0) t->col_kernel = c;
    }
    t->col_id = 0;
    rc = t->ncols == l->n ? 0 : -1;
    break;
  }
  csvline_free(l);
  if (rc != 0 || t->col_kernel < 0)
    fprintf(stderr,
            "sp-runner: %s: no ncu raw CSV header (\"ID\",...,"
            "\"Kernel Name\",...)\n",
            path);
  return rc != 0 || t->col_kernel < 0 ? -1 : 0;
}

typedef struct manifest_row {
  char key[256]; /* kernel,cu,engine,memory */
  char entry[128];
  int checked; /* 0: the launch's result was wrong */
} manifest_row;

static manifest_row *read_manifest(const char *path, size_t *n) {
  FILE *fp = fopen(path, "r");
  csvline *l = calloc(1, sizeof *l);
  manifest_row *rows = NULL;
  size_t cap = 0;
  *n = 0;
  if (fp == NULL || l == NULL) {
    fprintf(stderr, "sp-runner: %s: %s\n", path, fp ? "out of memory" : strerror(errno));
    goto done;
  }
  for (int line = 1; read_csv(fp, l) >= 0; ++line) {
    if (line == 1) continue; /* header */
    if (l->n != 6) {
      fprintf(stderr, "sp-runner: %s:%d: expected 6 fields\n", path, line);
      free(rows);
      rows = NULL;
      goto done;
    }
    if (*n == cap) {
      cap = cap ? 2 * cap : 128;
      manifest_row *r = realloc(rows, cap * sizeof *r);
      if (r == NULL) goto done;
      rows = r;
    }
    snprintf(rows[*n].key, sizeof rows[*n].key, "%s,%s,%s,%s", l->f[0], l->f[1], l->f[2], l->f[3]);
    snprintf(rows[*n].entry, sizeof rows[*n].entry, "%s", l->f[4]);
    rows[*n].checked = strcmp(l->f[5], "1") == 0;
    (*n)++;
  }
done:
  if (fp) fclose(fp);
  csvline_free(l);
  return rows;
}

/* The kernel name ncu prints, up to an argument list. */
static int same_kernel(const char *ncu_name, const char *entry) {
  size_t n = strcspn(ncu_name, "(");
  return strlen(entry) == n && strncmp(ncu_name, entry, n) == 0;
}

/* ncu's SM count for the launch, when collected, must be the manifest's
 * level: otherwise the green context was not what the counters describe. */
static void check_sm_count(const manifest_row *mr, const ncu_row *r, const char *path, int line) {
  double sms = m(r, "launch__sm_count");
  const char *cu = strchr(mr->key, ',');
  if (!isnan(sms) && cu && sms != atof(cu + 1))
    fprintf(stderr,
            "sp-runner: %s:%d: warning: ncu reports %.0f SMs for "
            "%s\n",
            path, line, sms, mr->key);
}

/* Appends the columns of names[0..n) at buf + *o: empty where a column's
 * metrics are missing (its rule gives NaN). */
static void append_optional(char *buf, size_t size, size_t *o, const char *const *names, int n,
                            const ncu_row *r) {
  char missing[1024];
  for (int f = 0; f < n; ++f) {
    missing[0] = '\0';
    double v = counter(r, names[f], missing, sizeof missing);
    if (isnan(v))
      *o += (size_t)snprintf(buf + *o, size - *o, ",");
    else
      *o += (size_t)snprintf(buf + *o, size - *o, ",%.6g", v);
  }
}

static int write_row(csvlog *out, const manifest_row *mr, const ncu_row *r, const char *path,
                     int line) {
  char buf[4096], err[256], missing[4096] = "", unset[1024] = "";
  size_t o = (size_t)snprintf(buf, sizeof buf, "%s", mr->key);
  for (int f = 0; f < NFEATURES; ++f) {
    size_t before = strlen(missing), u = strlen(unset);
    double v = counter(r, FEATURES[f], missing, sizeof missing);
    if (isnan(v) && strlen(missing) == before && u < sizeof unset)
      snprintf(unset + u, sizeof unset - u, "%s%s", u ? ", " : "", FEATURES[f]);
    o += (size_t)snprintf(buf + o, sizeof buf - o, ",%.6g", v);
  }
  if (missing[0] || unset[0]) {
    fprintf(stderr, "sp-runner: %s:%d: %s%s%s%s%s\n", path, line,
            missing[0] ? "metrics missing from the raw CSV: " : "", missing,
            missing[0] && unset[0] ? "; " : "", unset[0] ? "n/a values behind " : "", unset);
    return -1;
  }
  append_optional(buf, sizeof buf, &o, LAUNCH, NLAUNCH, r);
  append_optional(buf, sizeof buf, &o, ACTIVITY, NACTIVITY, r);
  snprintf(buf + o, sizeof buf - o, "\n");
  check_sm_count(mr, r, path, line);
  if (csvlog_append(out, buf, err, sizeof err) != 0) {
    fprintf(stderr, "sp-runner: %s\n", err);
    return -1;
  }
  return 0;
}

/* The counters.csv header with the first `groups` column groups. */
static void counters_header(char *header, size_t size, int groups) {
  size_t o = (size_t)snprintf(header, size, "kernel,cu,engine_mhz,memory_mhz");
  for (int f = 0; f < NFEATURES; ++f)
    o += (size_t)snprintf(header + o, size - o, ",%s", FEATURES[f]);
  for (int f = 0; groups >= GROUPS_LAUNCH && f < NLAUNCH; ++f)
    o += (size_t)snprintf(header + o, size - o, ",%s", LAUNCH[f]);
  for (int f = 0; groups >= GROUPS_ALL && f < NACTIVITY; ++f)
    o += (size_t)snprintf(header + o, size - o, ",%s", ACTIVITY[f]);
  snprintf(header + o, size - o, "\n");
}

/* The column groups of an older sp-runner's header at the start of path,
 * or 0.  Its rows are shorter; appending longer ones would make it ragged. */
static int old_format(const char *path) {
  char old[4096], first[4096];
  FILE *fp = fopen(path, "r");
  int groups = 0;
  if (fp == NULL) return 0;
  if (fgets(first, sizeof first, fp))
    for (int g = GROUPS_FEATURES; g < GROUPS_ALL && groups == 0; ++g) {
      counters_header(old, sizeof old, g);
      if (strcmp(first, old) == 0) groups = g;
    }
  fclose(fp);
  return groups;
}

static int open_counters(const char *path, csvlog **out) {
  char header[4096], err[512];
  long dropped = 0;
  int groups = old_format(path);
  if (groups != 0) {
    fprintf(stderr,
            "sp-runner: %s has the counters.csv columns of an "
            "older sp-runner (%d features%s, without the %s columns "
            "%s); rows with the new columns are not appended to it: import "
            "into a new file\n",
            path, NFEATURES, groups == GROUPS_LAUNCH ? " and the launch columns" : "",
            groups == GROUPS_LAUNCH ? "SM activity" : "launch and SM activity",
            groups == GROUPS_LAUNCH ? "sm_active_pct...l2_bw_gbs" : "grid_blocks...l2_bw_gbs");
    return -1;
  }
  counters_header(header, sizeof header, GROUPS_ALL);
  if (csvlog_open(path, header, out, &dropped, err, sizeof err) != 0) {
    fprintf(stderr, "sp-runner: %s\n", err);
    return -1;
  }
  return 0;
}

/* Reads data rows in order, pairing the i-th with manifest row i. */
static int convert(FILE *fp, const ncu_table *t, const manifest_row *mr, size_t nman, csvlog *out,
                   const char *path) {
  csvline *l = calloc(1, sizeof *l);
  ncu_row *r = malloc(sizeof *r);
  double *v = malloc(((size_t)t->ncols + 1) * sizeof *v);
  size_t i = 0, written = 0;
  int rc = l && r && v ? 0 : -1;
  for (int line = 2; rc == 0 && read_csv(fp, l) >= 0; ++line) {
    if (l->n != t->ncols || !isfinite(sp__metric_number(l->f[t->col_id])))
      continue; /* the units row, blank or "==PROF==" lines */
    if (i == nman || !same_kernel(l->f[t->col_kernel], mr[i].entry)) {
      fprintf(stderr,
              "sp-runner: %s:%d: launch '%s' does not match the "
              "manifest (%s)\n",
              path, line, l->f[t->col_kernel],
              i < nman ? mr[i].entry : "no more launches expected");
      rc = -1;
      break;
    }
    r->t = t;
    r->v = v;
    for (int c = 0; c < t->ncols; ++c) r->v[c] = sp__metric_number(l->f[c]);
    if (!mr[i].checked)
      fprintf(stderr, "sp-runner: %s failed its check: no counters\n", mr[i].key);
    else if (csvlog_has(out, mr[i].key))
      fprintf(stderr, "sp-runner: %s already in the counters file: kept\n", mr[i].key);
    else if ((rc = write_row(out, &mr[i], r, path, line)) == 0)
      written++;
    i++;
  }
  if (rc == 0 && i != nman) {
    fprintf(stderr, "sp-runner: %s has %zu launches, the manifest %zu\n", path, i, nman);
    rc = -1;
  }
  if (rc == 0) fprintf(stderr, "sp-runner: %zu counter rows written\n", written);
  csvline_free(l);
  free(r);
  free(v);
  return rc;
}

int runner_import_ncu(const char *ncu_csv, const char *manifest, const char *counters) {
  size_t nman = 0;
  manifest_row *mr = read_manifest(manifest, &nman);
  FILE *fp = fopen(ncu_csv, "r");
  ncu_table *t = calloc(1, sizeof *t);
  csvlog *out = NULL;
  int rc = -1;
  if (fp == NULL) fprintf(stderr, "sp-runner: %s: %s\n", ncu_csv, strerror(errno));
  if (mr && fp && t && read_header(fp, t, ncu_csv) == 0 && open_counters(counters, &out) == 0)
    rc = convert(fp, t, mr, nman, out, ncu_csv);
  csvlog_close(out);
  if (fp) fclose(fp);
  table_free(t);
  free(mr);
  return rc == 0 ? RUNNER_OK : RUNNER_FAILED;
}
