/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_governor.c: scalepredict governor, replaying a kernel trace through
 * DVFS / CU power-gating policies. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_POLICIES 16

typedef struct gov_opts {
  const char *model_dir, *method, *trace, *runs, *counters, *report, *policies;
  char *load_counters; /* copy of --load-counters, split in place */
  int json;
  sp_governor_params p;
} gov_opts;

/* Adds the policy called name: -1 when there is none, -2 when the list
 * has it already (its row would be printed twice). */
static int add_policy(const char *name, const sp_governor_policy **out, size_t *n) {
  const sp_governor_policy *p = sp_governor_builtin(name);
  if (!p) return -1;
  for (size_t i = 0; i < *n; i++)
    if (out[i] == p) return -2;
  if (*n == MAX_POLICIES) return -1;
  out[(*n)++] = p;
  return 0;
}

static int has_counter(const sp_model *m, const char *name) {
  for (size_t c = 0; c < sp_model_counter_count(m); c++)
    if (!strcmp(sp_model_counter_name(m, c), name)) return 1;
  return 0;
}

/* Whether a built-in policy can run by default: the oracle needs measured
 * data and the reactive policy its load counters. */
static int runs_by_default(const gov_opts *o, const sp_model *m, int measured,
                           const sp_governor_policy *p, const char **missing) {
  if (!strcmp(p->name, "oracle")) return measured;
  if (strcmp(p->name, "reactive")) return 1;
  *missing = !has_counter(m, o->p.engine_load_counter)   ? o->p.engine_load_counter
             : !has_counter(m, o->p.memory_load_counter) ? o->p.memory_load_counter
                                                         : NULL;
  return !*missing;
}

/* The policies to run; *missing names the load counter that kept the
 * reactive policy out of the default list, if one did. */
static int pick_policies(const gov_opts *o, const sp_model *m, int measured,
                         const sp_governor_policy **out, size_t *n, const char **missing) {
  *n = 0;
  *missing = NULL;
  if (!o->policies) {
    for (size_t i = 0; sp_governor_builtin_at(i); i++)
      if (runs_by_default(o, m, measured, sp_governor_builtin_at(i), missing))
        out[(*n)++] = sp_governor_builtin_at(i);
    return 0;
  }
  char *list = strdup(o->policies);
  if (!list) return -1;
  int rc = 0;
  for (char *save, *tok = strtok_r(list, ",", &save); tok && !rc;
       tok = strtok_r(NULL, ",", &save)) {
    int added = add_policy(tok, out, n);
    if (added == -2)
      rc = cli_usage_error("governor ", "--policies names '%s' twice", tok);
    else if (added)
      rc = cli_usage_error("governor ",
                           "unknown policy '%s' (reference, best-edp, model, "
                           "reactive, oracle)",
                           tok);
  }
  free(list);
  if (!rc && !*n) rc = cli_usage_error("governor ", "--policies names no policy");
  return rc;
}

static void print_table(const sp_governor_trace *t, const sp_governor_result *const *r, size_t n) {
  printf("model %s, %zu invocations of %zu kernels\n", sp_governor_trace_model_name(t),
         sp_governor_trace_length(t), sp_governor_trace_kernel_count(t));
  printf("%-10s %11s %11s %12s %8s %8s %8s %8s %9s %9s\n", "policy", "time_ms", "energy_mJ", "EDP",
         "avg_W", "peak_W", "over_cap", "switches", "time/ref", "energy/ref");
  const sp_governor_result *b = r[0];
  for (size_t i = 0; i < n; i++)
    if (!strcmp(r[i]->policy, "reference")) b = r[i];
  for (size_t i = 0; i < n; i++)
    printf("%-10s %11.5g %11.5g %12.5g %8.4g %8.4g %8zu %8zu %9.3f %9.3f\n", r[i]->policy,
           r[i]->time_ms, r[i]->energy_mj, r[i]->edp, r[i]->avg_power_w, r[i]->peak_power_w,
           r[i]->over_cap, r[i]->switches, r[i]->time_ms / b->time_ms,
           r[i]->energy_mj / b->energy_mj);
}

static void notes(const sp_governor_trace *t) {
  for (size_t k = 0; k < sp_governor_trace_kernel_count(t); k++) {
    const char *first;
    size_t c = sp_governor_trace_kernel_clamped(t, k, &first);
    cli_note_clamped(sp_governor_trace_kernel_name(t, k), c, first);
  }
}

static int replay_all(const gov_opts *o, const sp_governor_trace *t, const sp_governor_policy **pol,
                      size_t n, sp_governor_result **res, sp_error *err) {
  int st = SP_OK;
  for (size_t i = 0; i < n && !st; i++) st = sp_governor_replay(t, pol[i], &o->p, &res[i], err);
  if (!st && o->report)
    st = sp_governor_report_write(t, &o->p, (const sp_governor_result *const *)res, n, o->report,
                                  err);
  return st;
}

static int run(const gov_opts *o) {
  sp_error err;
  sp_error_clear(&err);
  sp_model *m;
  sp_dataset *ds;
  sp_governor_trace *t = NULL;
  sp_governor_result *res[MAX_POLICIES] = {0};
  const sp_governor_policy *pol[MAX_POLICIES];
  size_t n = 0;
  int st = cli_load_inputs(o->model_dir, o->method, o->runs, o->counters, &m, &ds, &err);
  if (st) return cli_fail(&err);
  const char *missing;
  int rc = pick_policies(o, m, ds != NULL, pol, &n, &missing);
  if (!rc) {
    st = sp_governor_trace_load(o->trace, m, ds, &t, &err);
    if (!st) st = replay_all(o, t, pol, n, res, &err);
    if (!st) {
      notes(t);
      if (missing)
        fprintf(stderr,
                "scalepredict: note: the model has no counter '%s'; the reactive "
                "policy was left out (see --load-counters)\n",
                missing);
      const sp_governor_result *const *cr = (const sp_governor_result *const *)res;
      if (o->json)
        st = err.status = sp_governor_write_json(t, &o->p, cr, n, stdout);
      else
        print_table(t, cr, n);
    }
    rc = st ? cli_fail(&err) : EXIT_OK;
  }
  for (size_t i = 0; i < n; i++) sp_governor_result_free(res[i]);
  sp_governor_trace_free(t);
  sp_dataset_free(ds);
  sp_model_free(m);
  return rc;
}

/* The options' setters that check their values (cli_option). */
static int parse_number(const char *arg, const char *opt, double *out, int positive) {
  if (positive ? cli_parse_positive(arg, out) : cli_parse_nonnegative(arg, out))
    return cli_usage_error("governor ", "%s must be a %s number, not '%s'", opt,
                           positive ? "positive" : "non-negative", arg);
  return 0;
}

static int set_power_cap(void *ctx, const char *arg, const char *cmd) {
  (void)cmd;
  return parse_number(arg, "--power-cap", &((gov_opts *)ctx)->p.power_cap_w, 1);
}

static int set_slowdown(void *ctx, const char *arg, const char *cmd) {
  (void)cmd;
  return parse_number(arg, "--slowdown", &((gov_opts *)ctx)->p.slowdown, 1);
}

static int set_switch_latency(void *ctx, const char *arg, const char *cmd) {
  (void)cmd;
  return parse_number(arg, "--switch-latency-us", &((gov_opts *)ctx)->p.switch_latency_us, 0);
}

static int set_switch_energy(void *ctx, const char *arg, const char *cmd) {
  (void)cmd;
  return parse_number(arg, "--switch-energy-mj", &((gov_opts *)ctx)->p.switch_energy_mj, 0);
}

static int set_load_counters(void *ctx, const char *arg, const char *cmd) {
  gov_opts *o = ctx;
  free(o->load_counters);
  o->load_counters = strdup(arg);
  char *comma = o->load_counters ? strchr(o->load_counters, ',') : NULL;
  if (!comma || comma == o->load_counters || !comma[1] || strchr(comma + 1, ','))
    return cli_usage_error(cmd, "--load-counters must be ENGINE,MEMORY, not '%s'", arg);
  *comma = '\0';
  o->p.engine_load_counter = o->load_counters;
  o->p.memory_load_counter = comma + 1;
  return 0;
}

static int set_format(void *ctx, const char *arg, const char *cmd) {
  return cli_parse_format_tables(cmd, arg, &((gov_opts *)ctx)->json);
}

static int set_reference(void *ctx, const char *arg, const char *cmd) {
  sp_error err;
  if (sp_config_parse(arg, &((gov_opts *)ctx)->p.reference, &err))
    return cli_usage_error(cmd, "--reference: %s", err.message);
  return 0;
}

#define ROW(kind, name, arg, field, help) CLI_ROW(kind, name, arg, gov_opts, field, help)
static const cli_option options[] = {
    ROW(CLI_STRING, "model", "DIR", model_dir, "saved model with a power model"),
    ROW(CLI_STRING, "method", "NAME", method,
        "prediction method the model carries (default: the\n"
        "model's recommended method; 'scalepredict train'\n"
        "prints them)"),
    ROW(CLI_STRING, "trace", "FILE", trace, "the kernel trace"),
    ROW(CLI_STRING, "policies", "LIST", policies, "comma-separated policy names"),
    ROW(CLI_STRING, "runs", "FILE", runs,
        "measurements: ground truth, the oracle's data and base\n"
        "data for trace kernels without it"),
    ROW(CLI_STRING, "counters", "FILE", counters, "counters for trace kernels without them"),
    CLI_ROW_CALL("reference", "CFG", set_reference,
                 "start and reference configuration (default: the\n"
                 "model's base)"),
    CLI_ROW_CALL("power-cap", "W", set_power_cap,
                 "power cap; violations are counted per invocation"),
    CLI_ROW_CALL("slowdown", "X", set_slowdown,
                 "per-kernel time limit as a multiple of the time at the\n"
                 "reference (1.1 = 10% slower)"),
    CLI_ROW_CALL("switch-latency-us", "U", set_switch_latency,
                 "time per changed axis (default 0; at most 1e9)"),
    CLI_ROW_CALL("switch-energy-mj", "E", set_switch_energy,
                 "energy per changed axis (default 0; at most 1e9)"),
    CLI_ROW_CALL("load-counters", "E,M", set_load_counters,
                 "the reactive policy's engine and memory load counters\n"
                 "(default VALUBusy,MemUnitBusy)"),
    ROW(CLI_STRING, "report", "DIR", report,
        "HTML report with plots, summary.csv and steps.csv\n"
        "(a new or empty directory or an older report)"),
    ROW(CLI_FLAG, "json", NULL, json, "print JSON instead of a table"),
    CLI_ROW_CALL("format", "F", set_format, "table (default) or json (the same as --json)"),
    CLI_ROW_FORCE,
    CLI_ROWS_DATA,
};

static const cli_command command = {
    .prefix = "governor ",
    .optstring = ":h",
    .head =
        "Usage: scalepredict governor --model DIR --trace FILE [--method NAME]\n"
        "                             [--policies LIST]\n"
        "                             [--runs FILE [--counters FILE]] [--reference CFG]\n"
        "                             [--power-cap W] [--slowdown X]\n"
        "                             [--switch-latency-us U] [--switch-energy-mj E]\n"
        "                             [--load-counters ENGINE,MEMORY]\n"
        "                             [--report DIR] [--json] [--force]\n"
        "                             [--ignore-counter NAME] [--skip-unknown-kernels]\n"
        "\n"
        "Replays a kernel trace through governor policies that pick a configuration\n"
        "(CU count, engine and memory clock) before each kernel, and compares their\n"
        "total time, energy, energy-delay product, average and peak power, power-cap\n"
        "violations and switching.  Each invocation's outcome is measured where --runs\n"
        "has the kernel at the chosen configuration and predicted by the model\n"
        "elsewhere.  The GPU starts at the reference configuration.\n"
        "\n"
        "The trace is CSV with the columns order,kernel and optionally base_time_ms,\n"
        "base_power_w and the model's counters (measured at the model's base\n"
        "configuration).  A kernel's first row that has them supplies its base data;\n"
        "kernels without any take it from --runs/--counters.\n"
        "\n"
        "Policies (default: all, oracle only with --runs):\n"
        "  reference   the reference configuration throughout\n"
        "  best-edp    one configuration with the least predicted EDP for the whole\n"
        "              trace (within the cap and the slowdown limit on total time)\n"
        "  model       per kernel, the least predicted energy within the cap and the\n"
        "              slowdown limit, switching costs included\n"
        "  reactive    ondemand-like: clocks follow the previous kernel's load\n"
        "              counters (percent busy); steps down after a cap overshoot; left\n"
        "              out of the default list when the model lacks the counters\n"
        "  oracle      as model, but choosing on measured data\n"
        "\n",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .column = 26,
};

/* What holds between the options. */
static int check_options(const gov_opts *o) {
  if (!o->model_dir || !o->trace)
    return cli_usage_error("governor ", "--model and --trace are required");
  if (o->counters && !o->runs) return cli_usage_error("governor ", "--counters needs --runs");
  if (o->policies && strstr(o->policies, "oracle") && !o->runs)
    return cli_usage_error("governor ", "the oracle policy needs measured data: give --runs");
  int rc = cli_add_inputs("--model", o->model_dir, "--trace", o->trace, "--runs", o->runs,
                          "--counters", o->counters, (char *)NULL);
  if (!rc && o->report) rc = cli_check_output(o->report, SP_OUTPUT_REPORT);
  return rc;
}

int cmd_governor(int argc, char **argv) {
  gov_opts o = {0};
  sp_governor_params_init(&o.p);
  int done, rc = cli_parse_options(&command, &o, argc, argv, &done);
  if (!rc && !done) rc = check_options(&o);
  if (!rc && !done) rc = run(&o);
  free(o.load_counters);
  return rc;
}
