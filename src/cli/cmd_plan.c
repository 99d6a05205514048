/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_plan.c: scalepredict plan, the next configurations of an adaptive
 * measurement campaign, and scalepredict complete, every kernel's surface
 * completed from what was measured (docs/sweeps.md, "Adaptive plans"). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Room for an axis's values and the kernels named on the command line. */
#define MAX_AXIS 4096
#define MAX_KERNELS 100000
/* A sweep plan's lines (a line of MAX_AXIS values fits many times over),
 * and how many: far beyond any plan, and an end for endless input. */
#define MAX_PLAN_LINE ((size_t)1 << 20)
#define MAX_PLAN_LINES 1000000L

typedef struct plan_cli {
  const char *cmd; /* "plan " or "complete ", for messages */
  const char *runs, *grid_file, *axis_spec[3], *kernels, *base, *budget, *out;
  int status, quiet;
  sp_plan_params p;
  int axis[3][MAX_AXIS];
  char *kernel_buf;
  const char **kernel_list;
} plan_cli;

static const char *const axis_option[3] = {"--cu", "--engine-mhz", "--memory-mhz"};
static const char *const axis_key[3] = {"cu", "engine_mhz", "memory_mhz"};

/* ---- the grid ------------------------------------------------------------------ */

/* Whether v is among the first n values of axis a. */
static int seen(const plan_cli *c, int a, size_t n, long v) {
  for (size_t i = 0; i < n; i++)
    if (c->axis[a][i] == v) return 1;
  return 0;
}

/* "8,16,24", distinct positive integers, from where (a sweep plan's line)
 * or, where NULL, the command line. */
static int parse_axis(plan_cli *c, int a, const char *spec, const char *where, long line,
                      sp_error *err) {
  /* strtok_r would pass over an empty value as if it were not there. */
  const size_t len = strlen(spec);
  if (strstr(spec, ",,") || spec[0] == ',' || (len && spec[len - 1] == ','))
    return sp_error_set(err, SP_EPARSE, where, line, 0, axis_key[a], "'%s' has an empty value",
                        spec);
  char *list = strdup(spec), *save = NULL;
  if (!list) return sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  size_t n = 0;
  int st = SP_OK;
  for (char *t = strtok_r(list, ",", &save); t && !st; t = strtok_r(NULL, ",", &save)) {
    while (isspace((unsigned char)*t)) t++;
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    if (*end || errno || v < 1 || v > 1000000 || end == t)
      st = sp_error_set(err, SP_EPARSE, where, line, 0, axis_key[a],
                        "'%s' is not a positive integer", t);
    else if (n == MAX_AXIS)
      st = sp_error_set(err, SP_EINVAL, where, line, 0, axis_key[a], "more than %d values",
                        MAX_AXIS);
    else if (seen(c, a, n, v))
      st = sp_error_set(err, SP_EPARSE, where, line, 0, axis_key[a], "%ld is listed twice", v);
    else
      c->axis[a][n++] = (int)v;
  }
  free(list);
  if (!st && !n) st = sp_error_set(err, SP_EPARSE, where, line, 0, axis_key[a], "no values");
  c->p.axis[a] = c->axis[a];
  c->p.naxis[a] = n;
  return st;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
  return s;
}

/* One KEY=VALUE line of a sweep plan; keys other than the grid's are the
 * sweep's business. */
static int grid_line(void *user, char *line, long ln, sp_error *err) {
  plan_cli *c = user;
  line[strcspn(line, "#")] = '\0';
  char *s = trim(line), *eq = strchr(s, '=');
  if (!*s) return SP_OK;
  if (!eq) return sp_error_set(err, SP_EPARSE, c->grid_file, ln, 0, NULL, "expected KEY=VALUE");
  *eq = '\0';
  const char *key = trim(s);
  for (int a = 0; a < 3; a++)
    if (!strcmp(key, axis_key[a])) {
      if (c->axis_spec[a]) return SP_OK; /* the command line wins */
      return parse_axis(c, a, trim(eq + 1), c->grid_file, ln, err);
    }
  return SP_OK;
}

static int read_grid(plan_cli *c, sp_error *err) {
  int st = cli_read_lines(c->grid_file, MAX_PLAN_LINE, MAX_PLAN_LINES, grid_line, c, err);
  for (int a = 0; a < 3 && !st; a++)
    if (!c->p.naxis[a] && !c->axis_spec[a])
      st = sp_error_set(err, SP_EPARSE, c->grid_file, 0, 0, axis_key[a], "the plan has no '%s' key",
                        axis_key[a]);
  return st;
}

/* --cu, --engine-mhz and --memory-mhz: a value that is not a list of
 * distinct positive integers is a malformed option, a usage error, where
 * the same in a sweep plan is bad input (read_grid). */
static int axis_options(plan_cli *c) {
  for (int a = 0; a < 3; a++) {
    sp_error err;
    sp_error_clear(&err);
    int st = c->axis_spec[a] ? parse_axis(c, a, c->axis_spec[a], NULL, 0, &err) : SP_OK;
    if (st == SP_ENOMEM) return cli_fail(&err);
    if (st) return cli_usage_error(c->cmd, "%s: %s", axis_option[a], err.message);
  }
  return EXIT_OK;
}

/* ---- kernels, base and budget ---------------------------------------------------- */

static int resolve_kernels(plan_cli *c, sp_error *err) {
  if (!c->kernels) return SP_OK;
  size_t n = 1;
  for (const char *s = c->kernels; *s; s++) n += *s == ',';
  c->kernel_buf = strdup(c->kernels);
  c->kernel_list = calloc(n + 1, sizeof *c->kernel_list);
  if (!c->kernel_buf || !c->kernel_list || n > MAX_KERNELS)
    return sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  char *s = c->kernel_buf;
  for (size_t i = 0; i < n; i++) {
    c->kernel_list[i] = s;
    s += strcspn(s, ",");
    if (*s) *s++ = '\0';
  }
  c->p.kernels = c->kernel_list;
  return SP_OK;
}

/* N, or A/B of the grid's size. */
static int resolve_budget(plan_cli *c, size_t grid) {
  if (!c->budget || !cli_parse_share(c->budget, grid, &c->p.budget)) return EXIT_OK;
  return cli_usage_error(c->cmd,
                         "--budget needs a positive count N or a fraction A/B of at most "
                         "1, not '%s'",
                         c->budget);
}

/* ---- the command line ------------------------------------------------------------ */

/* The options' setters that check their values (cli_option). */
static int set_surrogate(void *ctx, const char *arg, const char *cmd) {
  if ((((plan_cli *)ctx)->p.surrogate = sp_surrogate_parse(arg)) < 0)
    return cli_usage_error(cmd, "--surrogate must be gp or shared, not '%s'", arg);
  return EXIT_OK;
}

static int set_seed(void *ctx, const char *arg, const char *cmd) {
  if (cli_parse_ulong(arg, &((plan_cli *)ctx)->p.seed))
    return cli_usage_error(cmd, "--seed: '%s' is not a whole number", arg);
  return EXIT_OK;
}

static int set_batch(void *ctx, const char *arg, const char *cmd) {
  unsigned long v;
  if (cli_parse_ulong(arg, &v) || v < 1 || v > 1000000)
    return cli_usage_error(cmd, "--batch needs an integer from 1 to 1000000, not '%s'", arg);
  ((plan_cli *)ctx)->p.batch = v;
  return EXIT_OK;
}

static int set_total_budget(void *ctx, const char *arg, const char *cmd) {
  unsigned long v;
  if (cli_parse_ulong(arg, &v) || v < 1)
    return cli_usage_error(cmd, "--total-budget needs a positive integer, not '%s'", arg);
  ((plan_cli *)ctx)->p.total_budget = v;
  return EXIT_OK;
}

static int set_target_error(void *ctx, const char *arg, const char *cmd) {
  plan_cli *c = ctx;
  char *end;
  c->p.target_error = strtod(arg, &end);
  if (*end || end == arg || !(c->p.target_error > 0) || !isfinite(c->p.target_error))
    return cli_usage_error(cmd, "--target-error needs a positive percentage, not '%s'", arg);
  return EXIT_OK;
}

/* Each command takes its own options only: the other's are rows of kind
 * CLI_OTHER, refused by their whole name. */
#define ROW(kind, name, arg, field, help) CLI_ROW(kind, name, arg, plan_cli, field, help)
static const cli_option plan_options[] = {
    ROW(CLI_STRING, "runs", "FILE", runs,
        "runs.csv measured so far; rows marked completed in a\n"
        "source column do not count.  A missing or empty FILE\n"
        "means nothing measured yet (then give --kernels)"),
    ROW(CLI_STRING, "grid", "PLAN", grid_file,
        "the grid of an sp-sweep plan: its cu, engine_mhz and\n"
        "memory_mhz keys"),
    ROW(CLI_STRING, "cu", "L", axis_spec[0], NULL),
    ROW(CLI_STRING, "engine-mhz", "L", axis_spec[1], NULL),
    ROW(CLI_STRING, "memory-mhz", "L", axis_spec[2], NULL),
    CLI_ROW_TEXT("  --cu L, --engine-mhz L, --memory-mhz L\n"
                 "                     the grid's values, comma-separated (an axis not given\n"
                 "                     takes FILE's values)\n"),
    ROW(CLI_STRING, "kernels", "LIST", kernels,
        "the kernels to plan, comma-separated (default: FILE's)"),
    ROW(CLI_STRING, "base", "CFG", base,
        "measured first (default: the middle of the grid, the\n"
        "lower-middle value of every axis)"),
    CLI_ROW_CALL("batch", "B", set_batch, "configurations per kernel and round (default 4)"),
    ROW(CLI_STRING, "budget", "N|A/B", budget,
        "measured configurations per kernel at which it is done;\n"
        "A/B: that fraction of the grid (default: none)"),
    CLI_ROW_CALL("target-error", "E", set_target_error,
                 "estimated surface error, in percent, at which a kernel\n"
                 "is done (default: none)"),
    CLI_ROW_CALL("total-budget", "N", set_total_budget,
                 "measured configurations over all the kernels at which\n"
                 "the campaign is done: a round names at most what is\n"
                 "left, the kernels' bases first, then the kernels whose\n"
                 "estimated error is largest (default: none)"),
    CLI_ROW_CALL("surrogate", "gp|shared", set_surrogate,
                 "gp (the default): a process per kernel, on its own\n"
                 "measurements; shared: the kernels' log ratios to their\n"
                 "base completed together at low rank, the prior mean of\n"
                 "a process per kernel on the residual, and each round's\n"
                 "first configuration common to every kernel measuring\n"
                 "(docs/sweeps.md, \"The shared surrogate\")"),
    CLI_ROW_CALL("seed", "S", set_seed,
                 "the shared surrogate's cross-validation folds (default 1):\n"
                 "the same seed and rows give the same plan"),
    ROW(CLI_FLAG, "status", NULL, status,
        "print one row per kernel instead:\n"
        "kernel,measured,grid,error_time_pct,error_power_pct,\n"
        "state,next (state: measuring, budget, target or grid)"),
    ROW(CLI_FLAG, "quiet", NULL, quiet, "no summary on standard error"),
    CLI_ROW_OTHER("out", "FILE"),
    CLI_ROW_OTHER("force", NULL),
};

static const cli_option complete_options[] = {
    ROW(CLI_STRING, "runs", "FILE", runs, "runs.csv measured so far"),
    ROW(CLI_STRING, "grid", "PLAN", grid_file, NULL),
    ROW(CLI_STRING, "cu", "L", axis_spec[0], NULL),
    ROW(CLI_STRING, "engine-mhz", "L", axis_spec[1], NULL),
    ROW(CLI_STRING, "memory-mhz", "L", axis_spec[2], NULL),
    ROW(CLI_STRING, "kernels", "LIST", kernels, NULL),
    CLI_ROW_CALL("surrogate", "gp|shared", set_surrogate, NULL),
    CLI_ROW_CALL("seed", "S", set_seed, NULL),
    CLI_ROW_TEXT("  --grid PLAN, --cu L, --engine-mhz L, --memory-mhz L, --kernels LIST,\n"
                 "  --surrogate gp|shared, --seed S\n"
                 "                     as for 'scalepredict plan' (default: FILE's grid and\n"
                 "                     kernels, gp, seed 1)\n"),
    ROW(CLI_STRING, "out", "FILE", out,
        "write FILE atomically instead of standard output (a new\n"
        "or empty file or an older completion)"),
    CLI_ROW_FORCE,
    CLI_ROW_OTHER("base", "CFG"),
    CLI_ROW_OTHER("batch", "B"),
    CLI_ROW_OTHER("budget", "N|A/B"),
    CLI_ROW_OTHER("target-error", "E"),
    CLI_ROW_OTHER("total-budget", "N"),
    CLI_ROW_OTHER("status", NULL),
    CLI_ROW_OTHER("quiet", NULL),
};

static const cli_command plan_command = {
    .prefix = "plan ",
    .optstring = ":h",
    .head =
        "Usage: scalepredict plan [--runs FILE] --grid PLAN | --cu L --engine-mhz L\n"
        "                         --memory-mhz L [--kernels LIST] [--base CFG]\n"
        "                         [--batch B] [--budget N|A/B] [--target-error E]\n"
        "                         [--total-budget N]\n"
        "                         [--surrogate gp|shared] [--seed S] [--status] [--quiet]\n"
        "\n"
        "An adaptive measurement plan: fits, per kernel, a surrogate of its scaling\n"
        "surface (a Gaussian process on log time and log power over the logarithms of\n"
        "the three axes) to the rows of FILE measured on the grid, and prints the\n"
        "configurations to measure next, where the surrogate is least sure, as CSV:\n"
        "  kernel,cu,engine_mhz,memory_mhz\n"
        "A kernel's base configuration comes first.  A kernel is done when the whole\n"
        "grid is measured, at the budget, or once its estimated surface error (the\n"
        "surrogate's mean predicted relative standard deviation over the grid\n"
        "configurations not measured) is within the target.  Only the header is\n"
        "printed once every kernel is done.  Measure the configurations, append their\n"
        "rows to FILE and run plan again.\n"
        "\n",
    .opts = plan_options,
    .nopts = sizeof plan_options / sizeof *plan_options,
    .column = 21,
};

static const cli_command complete_command = {
    .prefix = "complete ",
    .optstring = ":h",
    .head =
        "Usage: scalepredict complete --runs FILE [--grid PLAN | --cu L --engine-mhz L\n"
        "                             --memory-mhz L] [--kernels LIST] [--out FILE]\n"
        "                             [--surrogate gp|shared] [--seed S] [--force]\n"
        "\n"
        "Completes every kernel's surface from the rows of FILE measured on the grid:\n"
        "one row per kernel and grid configuration, the runs.csv columns plus source,\n"
        "  kernel,cu,engine_mhz,memory_mhz,time_ms,power_w,source\n"
        "measured configurations as measured (source 'measured'), the others the\n"
        "surrogate of 'scalepredict plan' (source 'completed'; power empty for a\n"
        "kernel without power).  train and evaluate read such a file as runs.csv\n"
        "(plan does not count its completed rows as measured).  A kernel with\n"
        "nothing measured on the grid is an error.\n"
        "\n",
    .opts = complete_options,
    .nopts = sizeof complete_options / sizeof *complete_options,
    .column = 21,
};

/* The table's options, then what holds between them. */
static int parse_args(plan_cli *c, int argc, char **argv, int *done) {
  const int complete = !strcmp(c->cmd, "complete ");
  int rc = cli_parse_options(complete ? &complete_command : &plan_command, c, argc, argv, done);
  if (rc || *done) return rc;
  if (complete && !c->runs) return cli_usage_error(c->cmd, "--runs is required");
  if (!c->runs && !c->kernels) return cli_usage_error(c->cmd, "--runs or --kernels is required");
  for (int a = 0; a < 3 && !c->grid_file; a++)
    if (!c->axis_spec[a] && !c->runs)
      return cli_usage_error(c->cmd, "%s or --grid is required without --runs", axis_option[a]);
  rc = cli_add_inputs("--runs", c->runs, "--grid", c->grid_file, (char *)NULL);
  return !rc && c->out ? cli_check_output(c->out, SP_OUTPUT_COMPLETED) : rc;
}

/* Counts the lines that are not blank, up to two (a header and a row). */
static int count_line(void *user, char *line, long ln, sp_error *err) {
  int *rows = user;
  (void)ln, (void)err;
  *rows += line[strspn(line, " \t")] != '\0';
  return *rows == 2 ? -1 : SP_OK;
}

/* A runs file with no data row yet (missing, empty or a header alone) is
 * a campaign that has measured nothing; one that cannot be read as text is
 * left to the CSV reader, which says why. */
static int nothing_measured(const char *path) {
  if (access(path, F_OK) && errno == ENOENT) return 1;
  int rows = 0;
  sp_error ignore;
  int st = cli_read_lines(path, MAX_PLAN_LINE, MAX_PLAN_LINES, count_line, &rows, &ignore);
  return !st && rows < 2;
}

static int load_runs(const plan_cli *c, sp_dataset **ds, sp_error *err) {
  *ds = NULL;
  if (!c->runs) return SP_OK;
  if (!strcmp(c->cmd, "plan ") && c->kernels && nothing_measured(c->runs)) {
    if (!c->quiet) cli_say("note: %s holds no measurement yet", c->runs);
    return SP_OK;
  }
  return cli_dataset_load(c->runs, NULL, ds, err);
}

/* The grid's size before the plan checks it, for --budget A/B. */
static size_t grid_size(const plan_cli *c, const sp_dataset *ds) {
  size_t n = 1;
  for (int a = 0; a < 3; a++) {
    const int *v;
    n *= c->p.naxis[a] ? c->p.naxis[a] : ds ? sp_dataset_axis(ds, a, &v) : 1;
  }
  return n;
}

static void summary(const sp_plan *pl) {
  size_t done = 0, measured = 0, nk = sp_plan_kernel_count(pl);
  for (size_t k = 0; k < nk; k++) {
    done += sp_plan_kernel_at(pl, k)->state != SP_PLAN_MEASURING;
    measured += sp_plan_kernel_at(pl, k)->measured;
  }
  fprintf(stderr,
          "scalepredict: plan: %zu of %zu kernels done, %zu of %zu configurations "
          "measured, %zu named next\n",
          done, nk, measured, nk * sp_plan_grid_size(pl), sp_plan_next_count(pl));
}

static int run(plan_cli *c) {
  sp_error err;
  sp_error_clear(&err);
  sp_dataset *ds = NULL;
  sp_plan *pl = NULL;
  int rc = axis_options(c), st = SP_OK;
  if (rc) return rc;
  if (c->grid_file) st = read_grid(c, &err);
  if (!st) st = resolve_kernels(c, &err);
  if (!st && c->base && strcmp(c->base, "middle")) st = sp_config_parse(c->base, &c->p.base, &err);
  if (!st) st = load_runs(c, &ds, &err);
  if (!st) rc = resolve_budget(c, grid_size(c, ds));
  if (!st && !rc) st = sp_plan_make(ds, &c->p, &pl, &err);
  if (!st && !rc) {
    if (!strcmp(c->cmd, "complete "))
      st = c->out ? sp_plan_save_completed(pl, c->out, &err)
                  : sp_plan_write_completed(pl, stdout, &err);
    else {
      st = c->status ? sp_plan_write_status(pl, stdout) : sp_plan_write_next(pl, stdout);
      if (st)
        sp_error_set(&err, st, NULL, 0, 0, NULL, "cannot write standard output");
      else if (!c->quiet)
        summary(pl);
    }
  }
  if (st && !err.status) err.status = st;
  sp_plan_free(pl);
  sp_dataset_free(ds);
  return st ? cli_fail(&err) : rc;
}

static int command(const char *name, int argc, char **argv) {
  plan_cli *c = calloc(1, sizeof *c);
  if (!c) return cli_usage_error(NULL, "out of memory");
  c->cmd = name;
  sp_plan_params_init(&c->p);
  int done, rc = parse_args(c, argc, argv, &done);
  if (!rc && !done) rc = run(c);
  free(c->kernel_buf);
  free(c->kernel_list);
  free(c);
  return rc;
}

int cmd_plan(int argc, char **argv) { return command("plan ", argc, argv); }
int cmd_complete(int argc, char **argv) { return command("complete ", argc, argv); }
