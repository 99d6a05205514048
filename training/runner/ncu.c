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
 * waves).  The launch columns were added later: ncu output collected with
 * an older metric list lacks most of them, and they are then left empty
 * ("not measured"), while a ratio feature whose metrics are missing is an
 * error. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvlog.h"
#include "runner.h"

/* ncu's raw page has ~400 columns (device attributes and the metrics). */
enum { MAX_FIELDS = 2048, LINE_MAX_LEN = 1 << 18 };

/* A parsed CSV line: fields point into buf. */
typedef struct csvline {
  char raw[LINE_MAX_LEN];
  char buf[LINE_MAX_LEN];
  char *f[MAX_FIELDS];
  int n;
} csvline;

/* Splits one line (RFC 4180 quoting, no embedded newlines).  Returns the
 * field count, or -1 at end of file. */
static int read_csv(FILE *fp, csvline *l)
{
  const char *raw = l->raw;
  if (fgets(l->raw, sizeof l->raw, fp) == NULL)
    return -1;
  size_t o = 0;
  int quoted = 0;
  l->n = 0;
  l->f[l->n++] = l->buf;
  for (const char *p = raw; *p && *p != '\n' && *p != '\r'; ++p) {
    if (quoted && *p == '"' && p[1] == '"') {
      l->buf[o++] = '"';
      ++p;
    } else if (*p == '"') {
      quoted = !quoted;
    } else if (*p == ',' && !quoted && l->n < MAX_FIELDS) {
      l->buf[o++] = '\0';
      l->f[l->n++] = l->buf + o;
    } else {
      l->buf[o++] = *p;
    }
  }
  l->buf[o] = '\0';
  return l->n;
}

/* A number as ncu prints it ("1,234.5", "n/a", ""): NAN when not one. */
static double number(const char *s)
{
  char clean[128];
  size_t o = 0;
  for (; *s && o + 1 < sizeof clean; ++s)
    if (*s != ',' && *s != ' ')
      clean[o++] = *s;
  clean[o] = '\0';
  char *end;
  double v = strtod(clean, &end);
  return o > 0 && *end == '\0' ? v : NAN;
}

typedef struct ncu_table {
  char names[MAX_FIELDS][160];
  int ncols, col_kernel, col_id;
} ncu_table;

typedef struct ncu_row {
  const ncu_table *t;
  double v[MAX_FIELDS];
} ncu_row;

static double m(const ncu_row *r, const char *name)
{
  for (int c = 0; c < r->t->ncols; ++c)
    if (strcmp(r->t->names[c], name) == 0)
      return r->v[c];
  return NAN;
}

static double ratio(double a, double b, double scale)
{
  return b > 0.0 ? scale * a / b : 0.0;
}

static double max4(double a, double b, double c, double d)
{
  double x = a > b ? a : b, y = c > d ? c : d;
  return x > y ? x : y;
}

#define INST "smsp__inst_executed.sum"
#define OP(x) "smsp__sass_inst_executed_op_" x ".sum"
#define PIPE(x) "smsp__inst_executed_pipe_" x ".sum"
#define BUSY(x) "sm__pipe_" x "_cycles_active.avg.pct_of_peak_sustained_active"
#define STALL(x) \
  "smsp__average_warps_issue_stalled_" x "_per_issue_active.ratio"

/* Blocks resident at once on a full H100 (32 per SM x 132 SMs): the grid
 * size saturates here, as Table II's NumWorkGroups saturates at 320. */
#define WORK_GROUPS_CAP 4224.0

static double f_valu(const ncu_row *r)
{
  return ratio(m(r, PIPE("fma")) + m(r, PIPE("alu")) + m(r, PIPE("fp64")) +
                   m(r, PIPE("xu")),
               m(r, INST), 100.0);
}
static double f_salu(const ncu_row *r) { return ratio(m(r, PIPE("uniform")), m(r, INST), 100.0); }
static double f_vfetch(const ncu_row *r) { return ratio(m(r, OP("global_ld")), m(r, INST), 100.0); }
static double f_vwrite(const ncu_row *r) { return ratio(m(r, OP("global_st")), m(r, INST), 100.0); }
static double f_lds(const ncu_row *r)
{
  return ratio(m(r, OP("shared_ld")) + m(r, OP("shared_st")), m(r, INST), 100.0);
}
static double f_atomic(const ncu_row *r)
{
  return ratio(m(r, OP("global_atom")) + m(r, OP("global_red")), m(r, INST), 100.0);
}
static double f_branch(const ncu_row *r) { return ratio(m(r, OP("branch")), m(r, INST), 100.0); }
static double f_valu_util(const ncu_row *r)
{
  return 100.0 / 32.0 * m(r, "smsp__thread_inst_executed_per_inst_executed.ratio");
}
static double f_valu_busy(const ncu_row *r)
{
  return max4(m(r, BUSY("fma")), m(r, BUSY("alu")), m(r, BUSY("fp64")),
              m(r, "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"));
}
static double f_fma(const ncu_row *r) { return m(r, BUSY("fma")); }
static double f_fp64(const ncu_row *r) { return m(r, BUSY("fp64")); }
static double f_xu(const ncu_row *r)
{
  return m(r, "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active");
}
static double f_salu_busy(const ncu_row *r)
{
  return m(r, "sm__inst_executed_pipe_uniform.avg.pct_of_peak_sustained_active");
}
static double f_l2_hit(const ncu_row *r) { return m(r, "lts__t_sector_hit_rate.pct"); }
static double f_l1_hit(const ncu_row *r) { return m(r, "l1tex__t_sector_hit_rate.pct"); }
static double f_mem_busy(const ncu_row *r)
{
  return m(r, "l1tex__throughput.avg.pct_of_peak_sustained_active");
}
static double f_l2_busy(const ncu_row *r)
{
  return m(r, "lts__throughput.avg.pct_of_peak_sustained_elapsed");
}
static double f_mem_stall(const ncu_row *r) { return m(r, STALL("long_scoreboard")); }
static double f_write_stall(const ncu_row *r) { return m(r, STALL("lg_throttle")); }
static double f_mio_stall(const ncu_row *r) { return m(r, STALL("mio_throttle")); }
static double f_barrier_stall(const ncu_row *r) { return m(r, STALL("barrier")); }
static double f_bank(const ncu_row *r)
{
  return ratio(m(r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"),
               m(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"), 100.0);
}
static double f_occupancy(const ncu_row *r)
{
  return m(r, "sm__warps_active.avg.pct_of_peak_sustained_active");
}
static double f_ipc(const ncu_row *r) { return m(r, "sm__inst_executed.avg.per_cycle_active"); }
static double f_mem_time(const ncu_row *r)
{
  return m(r, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
}
static double f_fetch_per_byte(const ncu_row *r)
{
  return ratio(m(r, OP("global_ld")),
               m(r, "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"), 1.0);
}
static double f_write_per_byte(const ncu_row *r)
{
  return ratio(m(r, OP("global_st")),
               m(r, "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum"), 1.0);
}
static double f_groups(const ncu_row *r)
{
  double g = m(r, "launch__grid_size");
  return g > WORK_GROUPS_CAP ? WORK_GROUPS_CAP : g;
}
static double f_grid(const ncu_row *r) { return m(r, "launch__grid_size"); }
static double f_block(const ncu_row *r) { return m(r, "launch__block_size"); }
static double f_regs(const ncu_row *r) { return m(r, "launch__registers_per_thread"); }
/* Static plus dynamic shared memory (the suite uses only static). */
static double f_smem(const ncu_row *r)
{
  return m(r, "launch__shared_mem_per_block_static") +
         m(r, "launch__shared_mem_per_block_dynamic");
}
/* Resident blocks per SM in theory: the tightest of ncu's four limits. */
static double f_blocks_per_sm(const ncu_row *r)
{
  double a = m(r, "launch__occupancy_limit_blocks");
  double b = m(r, "launch__occupancy_limit_registers");
  double c = m(r, "launch__occupancy_limit_shared_mem");
  double d = m(r, "launch__occupancy_limit_warps");
  if (isnan(a) || isnan(b) || isnan(c) || isnan(d))
    return NAN;
  double x = a < b ? a : b, y = c < d ? c : d;
  return x < y ? x : y;
}
static double f_waves(const ncu_row *r) { return m(r, "launch__waves_per_multiprocessor"); }
static double f_theo_occ(const ncu_row *r)
{
  return m(r, "sm__maximum_warps_per_active_cycle_pct");
}
static double f_read_bw(const ncu_row *r) { return m(r, "dram__bytes_read.sum.per_second") * 1e-9; }
static double f_write_bw(const ncu_row *r) { return m(r, "dram__bytes_write.sum.per_second") * 1e-9; }

/* SM activity: how evenly the SMs were kept busy, how busy the tensor
 * pipe and the L2 were.  A few long blocks (a critical path) show as a low
 * balance: the busiest SM is active for the whole launch, the average one
 * for much less. */
/* ratio(), but NaN when either metric is missing (ratio() gives 0 for a
 * missing denominator): the column is then left empty. */
static double ratio_measured(double a, double b, double scale)
{
  return isnan(a) || isnan(b) ? NAN : ratio(a, b, scale);
}
static double f_sm_active(const ncu_row *r)
{
  return ratio_measured(m(r, "sm__cycles_active.avg"), m(r, "sm__cycles_elapsed.max"), 100.0);
}
static double f_sm_balance(const ncu_row *r)
{
  return ratio_measured(m(r, "sm__cycles_active.avg"), m(r, "sm__cycles_active.max"), 100.0);
}
static double f_tensor_busy(const ncu_row *r)
{
  return m(r, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active");
}
static double f_l2_bw(const ncu_row *r) { return m(r, "lts__t_bytes.sum.per_second") * 1e-9; }

typedef struct feature {
  const char *name;
  double (*fn)(const ncu_row *r);
} feature;

static const feature FEATURES[] = {
    {"valu_insts_pct", f_valu},        {"salu_insts_pct", f_salu},
    {"vfetch_insts_pct", f_vfetch},    {"vwrite_insts_pct", f_vwrite},
    {"lds_insts_pct", f_lds},          {"atomic_insts_pct", f_atomic},
    {"branch_insts_pct", f_branch},    {"valu_utilization_pct", f_valu_util},
    {"valu_busy_pct", f_valu_busy},    {"fma_busy_pct", f_fma},
    {"fp64_busy_pct", f_fp64},         {"xu_busy_pct", f_xu},
    {"salu_busy_pct", f_salu_busy},    {"l2_hit_pct", f_l2_hit},
    {"l1_hit_pct", f_l1_hit},          {"mem_unit_busy_pct", f_mem_busy},
    {"l2_busy_pct", f_l2_busy},        {"mem_unit_stalled", f_mem_stall},
    {"write_unit_stalled", f_write_stall}, {"mio_stalled", f_mio_stall},
    {"barrier_stalled", f_barrier_stall}, {"lds_bank_conflict_pct", f_bank},
    {"occupancy_pct", f_occupancy},    {"ipc", f_ipc},
    {"mem_time_pct", f_mem_time},      {"fetch_per_load_byte", f_fetch_per_byte},
    {"write_per_store_byte", f_write_per_byte}, {"work_groups", f_groups},
    {"read_bw_gbs", f_read_bw},        {"write_bw_gbs", f_write_bw},
};
enum { NFEATURES = sizeof FEATURES / sizeof *FEATURES };

/* The launch shape, after the features; empty where ncu did not report
 * the metrics behind a column. */
static const feature LAUNCH[] = {
    {"grid_blocks", f_grid},           {"block_threads", f_block},
    {"regs_per_thread", f_regs},       {"smem_per_block", f_smem},
    {"blocks_per_sm", f_blocks_per_sm}, {"waves", f_waves},
    {"theoretical_occupancy_pct", f_theo_occ},
};
enum { NLAUNCH = sizeof LAUNCH / sizeof *LAUNCH };

/* SM activity, after the launch columns; empty where ncu did not report
 * the metrics (a raw CSV collected with an older metric list). */
static const feature ACTIVITY[] = {
    {"sm_active_pct", f_sm_active},    {"sm_balance_pct", f_sm_balance},
    {"tensor_busy_pct", f_tensor_busy}, {"l2_bw_gbs", f_l2_bw},
};
enum { NACTIVITY = sizeof ACTIVITY / sizeof *ACTIVITY };

/* The column groups of counters.csv, in order; an older sp-runner wrote
 * only the first one or two. */
enum { GROUPS_FEATURES = 1, GROUPS_LAUNCH = 2, GROUPS_ALL = 3 };

static int read_header(FILE *fp, ncu_table *t, const char *path)
{
  csvline *l = malloc(sizeof *l);
  int rc = -1;
  t->col_kernel = t->col_id = -1;
  /* ncu may print "==PROF==" lines before the table. */
  while (l && read_csv(fp, l) >= 0) {
    if (l->n < 2 || strcmp(l->f[0], "ID") != 0)
      continue;
    t->ncols = l->n;
    for (int c = 0; c < l->n; ++c) {
      snprintf(t->names[c], sizeof t->names[c], "%s", l->f[c]);
      if (strcmp(l->f[c], "Kernel Name") == 0)
        t->col_kernel = c;
    }
    t->col_id = 0;
    rc = 0;
    break;
  }
  free(l);
  if (rc != 0 || t->col_kernel < 0)
    fprintf(stderr, "sp-runner: %s: no ncu raw CSV header (\"ID\",...,"
            "\"Kernel Name\",...)\n", path);
  return rc != 0 || t->col_kernel < 0 ? -1 : 0;
}

typedef struct manifest_row {
  char key[256];    /* kernel,cu,engine,memory */
  char entry[128];
  int checked;      /* 0: the launch's result was wrong */
} manifest_row;

static manifest_row *read_manifest(const char *path, size_t *n)
{
  FILE *fp = fopen(path, "r");
  csvline *l = malloc(sizeof *l);
  manifest_row *rows = NULL;
  size_t cap = 0;
  *n = 0;
  if (fp == NULL || l == NULL) {
    fprintf(stderr, "sp-runner: %s: %s\n", path, fp ? "out of memory" : strerror(errno));
    goto done;
  }
  for (int line = 1; read_csv(fp, l) >= 0; ++line) {
    if (line == 1)
      continue; /* header */
    if (l->n != 6) {
      fprintf(stderr, "sp-runner: %s:%d: expected 6 fields\n", path, line);
      free(rows);
      rows = NULL;
      goto done;
    }
    if (*n == cap) {
      cap = cap ? 2 * cap : 128;
      manifest_row *r = realloc(rows, cap * sizeof *r);
      if (r == NULL)
        goto done;
      rows = r;
    }
    snprintf(rows[*n].key, sizeof rows[*n].key, "%s,%s,%s,%s", l->f[0],
             l->f[1], l->f[2], l->f[3]);
    snprintf(rows[*n].entry, sizeof rows[*n].entry, "%s", l->f[4]);
    rows[*n].checked = strcmp(l->f[5], "1") == 0;
    (*n)++;
  }
done:
  if (fp)
    fclose(fp);
  free(l);
  return rows;
}

/* The kernel name ncu prints, up to an argument list. */
static int same_kernel(const char *ncu_name, const char *entry)
{
  size_t n = strcspn(ncu_name, "(");
  return strlen(entry) == n && strncmp(ncu_name, entry, n) == 0;
}

/* ncu's SM count for the launch, when collected, must be the manifest's
 * level: otherwise the green context was not what the counters describe. */
static void check_sm_count(const manifest_row *mr, const ncu_row *r,
                           const char *path, int line)
{
  double sms = m(r, "launch__sm_count");
  const char *cu = strchr(mr->key, ',');
  if (!isnan(sms) && cu && sms != atof(cu + 1))
    fprintf(stderr, "sp-runner: %s:%d: warning: ncu reports %.0f SMs for "
            "%s\n", path, line, sms, mr->key);
}

/* Appends the columns of table[0..n) at buf + *o: empty where a column's
 * metrics are missing (its function gives NaN). */
static void append_optional(char *buf, size_t size, size_t *o, const feature *table, int n,
                            const ncu_row *r)
{
  for (int f = 0; f < n; ++f) {
    double v = table[f].fn(r);
    if (isnan(v))
      *o += (size_t)snprintf(buf + *o, size - *o, ",");
    else
      *o += (size_t)snprintf(buf + *o, size - *o, ",%.6g", v);
  }
}

static int write_row(csvlog *out, const manifest_row *mr, const ncu_row *r,
                     const char *path, int line)
{
  char buf[4096], err[256];
  size_t o = (size_t)snprintf(buf, sizeof buf, "%s", mr->key);
  for (int f = 0; f < NFEATURES; ++f) {
    double v = FEATURES[f].fn(r);
    if (isnan(v)) {
      fprintf(stderr, "sp-runner: %s:%d: a metric behind %s is missing\n",
              path, line, FEATURES[f].name);
      return -1;
    }
    o += (size_t)snprintf(buf + o, sizeof buf - o, ",%.6g", v);
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
static void counters_header(char *header, size_t size, int groups)
{
  size_t o = (size_t)snprintf(header, size, "kernel,cu,engine_mhz,memory_mhz");
  for (int f = 0; f < NFEATURES; ++f)
    o += (size_t)snprintf(header + o, size - o, ",%s", FEATURES[f].name);
  for (int f = 0; groups >= GROUPS_LAUNCH && f < NLAUNCH; ++f)
    o += (size_t)snprintf(header + o, size - o, ",%s", LAUNCH[f].name);
  for (int f = 0; groups >= GROUPS_ALL && f < NACTIVITY; ++f)
    o += (size_t)snprintf(header + o, size - o, ",%s", ACTIVITY[f].name);
  snprintf(header + o, size - o, "\n");
}

/* The column groups of an older sp-runner's header at the start of path,
 * or 0.  Its rows are shorter; appending longer ones would make it ragged. */
static int old_format(const char *path)
{
  char old[4096], first[4096];
  FILE *fp = fopen(path, "r");
  int groups = 0;
  if (fp == NULL)
    return 0;
  if (fgets(first, sizeof first, fp))
    for (int g = GROUPS_FEATURES; g < GROUPS_ALL && groups == 0; ++g) {
      counters_header(old, sizeof old, g);
      if (strcmp(first, old) == 0)
        groups = g;
    }
  fclose(fp);
  return groups;
}

static int open_counters(const char *path, csvlog **out)
{
  char header[4096], err[512];
  long dropped = 0;
  int groups = old_format(path);
  if (groups != 0) {
    fprintf(stderr, "sp-runner: %s has the counters.csv columns of an "
            "older sp-runner (%d features%s, without the %s columns "
            "%s); rows with the new columns are not appended to it: import "
            "into a new file\n", path, NFEATURES,
            groups == GROUPS_LAUNCH ? " and the launch columns" : "",
            groups == GROUPS_LAUNCH ? "SM activity" : "launch and SM activity",
            groups == GROUPS_LAUNCH ? "sm_active_pct...l2_bw_gbs"
                                    : "grid_blocks...l2_bw_gbs");
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
static int convert(FILE *fp, const ncu_table *t, const manifest_row *mr,
                   size_t nman, csvlog *out, const char *path)
{
  csvline *l = malloc(sizeof *l);
  ncu_row *r = malloc(sizeof *r);
  size_t i = 0, written = 0;
  int rc = l && r ? 0 : -1;
  for (int line = 2; rc == 0 && read_csv(fp, l) >= 0; ++line) {
    if (l->n != t->ncols || !isfinite(number(l->f[t->col_id])))
      continue; /* the units row, blank or "==PROF==" lines */
    if (i == nman || !same_kernel(l->f[t->col_kernel], mr[i].entry)) {
      fprintf(stderr, "sp-runner: %s:%d: launch '%s' does not match the "
              "manifest (%s)\n", path, line, l->f[t->col_kernel],
              i < nman ? mr[i].entry : "no more launches expected");
      rc = -1;
      break;
    }
    r->t = t;
    for (int c = 0; c < t->ncols; ++c)
      r->v[c] = number(l->f[c]);
    if (!mr[i].checked)
      fprintf(stderr, "sp-runner: %s failed its check: no counters\n",
              mr[i].key);
    else if (csvlog_has(out, mr[i].key))
      fprintf(stderr, "sp-runner: %s already in the counters file: kept\n",
              mr[i].key);
    else if ((rc = write_row(out, &mr[i], r, path, line)) == 0)
      written++;
    i++;
  }
  if (rc == 0 && i != nman) {
    fprintf(stderr, "sp-runner: %s has %zu launches, the manifest %zu\n",
            path, i, nman);
    rc = -1;
  }
  if (rc == 0)
    fprintf(stderr, "sp-runner: %zu counter rows written\n", written);
  free(l);
  free(r);
  return rc;
}

int runner_import_ncu(const char *ncu_csv, const char *manifest,
                      const char *counters)
{
  size_t nman = 0;
  manifest_row *mr = read_manifest(manifest, &nman);
  FILE *fp = fopen(ncu_csv, "r");
  ncu_table *t = malloc(sizeof *t);
  csvlog *out = NULL;
  int rc = -1;
  if (fp == NULL)
    fprintf(stderr, "sp-runner: %s: %s\n", ncu_csv, strerror(errno));
  if (mr && fp && t && read_header(fp, t, ncu_csv) == 0 &&
      open_counters(counters, &out) == 0)
    rc = convert(fp, t, mr, nman, out, ncu_csv);
  csvlog_close(out);
  if (fp)
    fclose(fp);
  free(t);
  free(mr);
  return rc == 0 ? RUNNER_OK : RUNNER_FAILED;
}
