/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_dse.c: scalepredict dse, design-space exploration of a workload. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct dse_opts {
  const char *model_dir, *method, *runs, *counters, *report;
  int json;
  int rank_axis;    /* --rank-kernels: SP_AXIS_*, or -1 */
  cli_profile prof; /* --profile's files */
  sp_dse_params p;
} dse_opts;

/* ---- text output ---------------------------------------------------------- */

static void print_choice(const sp_dse_result *r, const char *label, const sp_dse_choice *c,
                         const sp_dse_choice *ref) {
  char cfg[64];
  sp_config_format(&r->configs[c->config], cfg, sizeof cfg);
  printf("%-19s %-15s %10.4g %10.4g %8.4g %8.4g %9.3f %9.3f\n", label, cfg, c->time_ms,
         c->energy_mj, c->avg_power_w, c->peak_power_w, c->time_ms / ref->time_ms,
         c->energy_mj / ref->energy_mj);
}

static void print_objectives(const sp_dse_result *r) {
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  printf("%-19s %-15s %10s %10s %8s %8s %9s %9s\n", "objective", "config", "time_ms", "energy_mJ",
         "avg_W", "peak_W", "time/ref", "energy/ref");
  print_choice(r, "reference", &ref, &ref);
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++)
    if (r->best[o].config != SP_NO_CONFIG)
      print_choice(r, sp_dse_objective_name(o), &r->best[o], &ref);
}

static void print_front(const sp_dse_result *r, const char *what, const size_t *f, size_t n) {
  char a[64], b[64];
  if (!n) {
    /* The library keeps sums finite, so a front has a configuration; a
     * result that has none is still printed as such, never indexed. */
    printf("Pareto front, time vs %s: empty (no configuration has a finite time and %s)\n", what,
           what);
    return;
  }
  sp_config_format(&r->configs[f[0]], a, sizeof a);
  sp_config_format(&r->configs[f[n - 1]], b, sizeof b);
  printf("Pareto front, time vs %s: %zu of %zu configurations, from %s (fastest) to %s\n", what, n,
         r->nconfigs, a, b);
}

/* An axis that was not varied has no elasticity: '-'. */
static void print_el(double v) {
  if (isnan(v))
    printf(" %7s", "-");
  else
    printf(" %7.3f", v);
}

/* The columns of kernel and candidate names: as wide as the longest name
 * (34 and 14 characters at least), at most 64 and 40; a longer name is
 * shortened in the middle (the JSON output and the report give it whole). */
#define KERNEL_COLUMN_MIN 34
#define KERNEL_COLUMN_MAX 64
#define CANDIDATE_COLUMN_MIN 14
#define CANDIDATE_COLUMN_MAX 40

static void print_elasticities(const char *label, size_t width, const sp_dse_sensitivity *s) {
  cli_put_cell(stdout, label, width);
  for (int a = 0; a < 3; a++) print_el(s->time[a]);
  for (int a = 0; a < 3; a++) print_el(s->energy[a]);
  printf("  %s\n", sp_dse_bound_name(s->bound));
}

/* The axes as the text output names them, by SP_AXIS_*. */
static const char *const axis_label[3] = {"CU count", "engine clock", "memory clock"};

static void note_not_varied(const sp_dse_result *r) {
  for (int a = 0; a < 3; a++)
    if (r->naxis[a] < 2)
      printf(
          "note: the %s was not varied (the model's grid has one value, %d): its "
          "elasticities are '-'%s\n",
          axis_label[a], r->axis[a][0],
          a ? ", and no kernel is classed compute- or bandwidth-bound (undetermined)" : "");
}

/* --rank-kernels: the kernels by the factor their time takes from the
 * lowest to the highest value of the axis (the ends through the reference,
 * as the elasticities), most gained first. */
typedef struct ranked_kernel {
  const sp_dse_kernel *k;
  double time, energy; /* factors, high end over low end */
} ranked_kernel;

static int cmp_gain(const void *a, const void *b) {
  const ranked_kernel *x = a, *y = b;
  if (x->time != y->time) return x->time < y->time ? -1 : 1;
  return strcmp(x->k->name, y->k->name);
}

static void print_kernel_ranking(const sp_dse_result *r, int axis, size_t width) {
  static const char *const units[3] = {"", " MHz", " MHz"};
  if (r->naxis[axis] < 2) {
    printf("\nkernels not ranked by the %s: the model's grid has one value of it\n",
           axis_label[axis]);
    return;
  }
  ranked_kernel *v = malloc((r->nkernels + 1) * sizeof *v);
  if (!v) {
    cli_say("kernels not ranked: out of memory");
    return;
  }
  double lo = r->axis[axis][0], hi = r->axis[axis][r->naxis[axis] - 1], ratio = log(hi / lo);
  for (size_t k = 0; k < r->nkernels; k++) {
    const sp_dse_sensitivity *s = &r->kernels[k].sens;
    v[k] =
        (ranked_kernel){&r->kernels[k], exp(s->time[axis] * ratio), exp(s->energy[axis] * ratio)};
  }
  qsort(v, r->nkernels, sizeof *v, cmp_gain);
  char ref[64];
  sp_config_format(&r->configs[r->reference], ref, sizeof ref);
  printf(
      "\nkernels ranked by what raising the %s from %g to %g%s buys them (the other axes at\n"
      "the reference %s)\n%4s ",
      axis_label[axis], lo, hi, units[axis], ref, "rank");
  cli_put_cell(stdout, "kernel", width);
  printf(" %9s %9s %9s\n", "speedup", "time x", "energy x");
  for (size_t i = 0; i < r->nkernels; i++) {
    printf("%4zu ", i + 1);
    cli_put_cell(stdout, v[i].k->name, width);
    printf(" %9.3f %9.3f %9.3f\n", 1 / v[i].time, v[i].time, v[i].energy);
  }
  free(v);
}

static void print_sensitivity(const sp_dse_result *r, int rank_axis) {
  size_t longest = 0;
  for (size_t k = 0; k < r->nkernels; k++) {
    size_t w = cli_text_width(r->kernels[k].name);
    if (w > longest) longest = w;
  }
  const size_t width = cli_column_width(longest, KERNEL_COLUMN_MIN, KERNEL_COLUMN_MAX);
  printf("\n%-*s%23s %23s\n", (int)width + 3, "elasticity (d ln value / d ln axis)",
         "time: cu engine memory", "energy: cu engine memory");
  print_elasticities("workload", width, &r->sens);
  for (size_t k = 0; k < r->nkernels; k++)
    print_elasticities(r->kernels[k].name, width, &r->kernels[k].sens);
  note_not_varied(r);
  if (rank_axis >= 0) print_kernel_ranking(r, rank_axis, width);
}

static void print_candidates(const sp_dse_result *r) {
  if (!r->ncandidates) return;
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  size_t longest = 0;
  for (size_t i = 0; i < r->ncandidates; i++) {
    size_t w = cli_text_width(r->candidates[i].name);
    if (w > longest) longest = w;
  }
  const int width = (int)cli_column_width(longest, CANDIDATE_COLUMN_MIN, CANDIDATE_COLUMN_MAX);
  printf("\ncandidates ranked by %s\n", sp_dse_objective_name(r->params.rank_by));
  printf("%4s %-*s %-15s %10s %10s %8s %8s %9s %9s\n", "rank", width, "name", "config", "time_ms",
         "energy_mJ", "avg_W", "peak_W", "time/ref", "energy/ref");
  for (size_t i = 0; i < r->ncandidates; i++) {
    const sp_dse_candidate *c = &r->candidates[i];
    sp_dse_choice ch = sp_dse_at(r, c->config);
    char cfg[64];
    sp_config_format(&r->configs[c->config], cfg, sizeof cfg);
    printf("%4zu ", c->rank);
    cli_put_cell(stdout, c->name, (size_t)width);
    printf(" %-15s %10.4g %10.4g %8.4g %8.4g %9.3f %9.3f%s%s\n", cfg, ch.time_ms, ch.energy_mj,
           ch.avg_power_w, ch.peak_power_w, ch.time_ms / ref.time_ms, ch.energy_mj / ref.energy_mj,
           c->meets_cap ? "" : "  over cap", c->meets_budget ? "" : "  over budget");
  }
}

static void print_text(const sp_dse_result *r, int rank_axis) {
  char ref[64];
  sp_config_format(&r->configs[r->reference], ref, sizeof ref);
  printf("model %s, %zu kernel%s, %zu configurations, reference %s\n", r->model_name, r->nkernels,
         r->nkernels == 1 ? "" : "s", r->nconfigs, ref);
  if (r->synthetic)
    printf("note: this model was trained on SYNTHETIC data (%s), not on measurements\n",
           r->model_source);
  print_objectives(r);
  putchar('\n');
  print_front(r, "energy", r->pareto_energy, r->npareto_energy);
  print_front(r, "average power", r->pareto_power, r->npareto_power);
  print_sensitivity(r, rank_axis);
  print_candidates(r);
}

/* ---- command -------------------------------------------------------------- */

static int run(const dse_opts *o) {
  sp_error err;
  sp_error_clear(&err);
  sp_model *m;
  sp_dataset *ds;
  sp_dse_result *r = NULL;
  int st = cli_load_inputs(o->model_dir, o->method, o->runs, o->counters, &m, &ds, &err);
  if (!st && o->p.weights_path == o->prof.launches)
    st = cli_profile_counts_check(o->prof.launches, o->prof.runs, ds, &err);
  if (!st) st = sp_dse_run(m, ds, &o->p, &r, &err);
  if (st && o->runs == o->prof.runs && !strcmp(err.field, "power_w")) {
    size_t n = strlen(err.message);
    snprintf(err.message + n, sizeof err.message - n,
             "; a profile records no power (ncu does not read it): fill in each kernel's "
             "power_w at the base from your own reading");
  }
  if (!st && o->report) st = sp_dse_report_write(r, o->report, &err);
  if (!st) {
    for (size_t k = 0; k < r->nkernels; k++)
      cli_note_clamped(r->kernels[k].name, r->kernels[k].clamped, r->kernels[k].first_clamped);
    if (o->json)
      st = sp_dse_write_json(r, stdout);
    else
      print_text(r, o->rank_axis);
    if (st) err.status = st;
  }
  int rc = st ? cli_fail(&err) : EXIT_OK;
  sp_dse_result_free(r);
  sp_dataset_free(ds);
  sp_model_free(m);
  return rc;
}

/* The options' setters that check their values (cli_option). */
static int set_profile(void *ctx, const char *arg, const char *cmd) {
  dse_opts *o = ctx;
  if (cli_profile_paths(arg, cmd, &o->prof)) return EXIT_USAGE;
  o->runs = o->prof.runs;
  o->counters = o->prof.counters;
  o->p.weights_path = o->prof.launches;
  return EXIT_OK;
}

static int set_format(void *ctx, const char *arg, const char *cmd) {
  return cli_parse_format_tables(cmd, arg, &((dse_opts *)ctx)->json);
}

static int set_reference(void *ctx, const char *arg, const char *cmd) {
  sp_error err;
  if (sp_config_parse(arg, &((dse_opts *)ctx)->p.reference, &err))
    return cli_usage_error(cmd, "--reference: %s", err.message);
  return EXIT_OK;
}

static int set_power_cap(void *ctx, const char *arg, const char *cmd) {
  if (cli_parse_positive(arg, &((dse_opts *)ctx)->p.power_cap_w))
    return cli_usage_error(cmd, "--power-cap must be a positive number of watts, not '%s'", arg);
  return EXIT_OK;
}

static int set_time_budget(void *ctx, const char *arg, const char *cmd) {
  if (cli_parse_positive(arg, &((dse_opts *)ctx)->p.time_budget))
    return cli_usage_error(cmd, "--time-budget must be a positive factor, not '%s'", arg);
  return EXIT_OK;
}

static int set_rank_by(void *ctx, const char *arg, const char *cmd) {
  if ((((dse_opts *)ctx)->p.rank_by = sp_dse_objective_parse(arg)) < 0)
    return cli_usage_error(cmd,
                           "--rank-by must be time, energy, edp, ed2p, "
                           "min-time-capped or min-energy-budget, not '%s'",
                           arg);
  return EXIT_OK;
}

static int set_rank_kernels(void *ctx, const char *arg, const char *cmd) {
  static const char *const names[3] = {"cu", "engine", "memory"};
  for (int a = 0; a < 3; a++)
    if (!strcmp(arg, names[a])) {
      ((dse_opts *)ctx)->rank_axis = a;
      return EXIT_OK;
    }
  return cli_usage_error(cmd, "--rank-kernels must be cu, engine or memory, not '%s'", arg);
}

static int set_grid_interp(void *ctx, const char *arg, const char *cmd) {
  return cli_set_grid_interp(arg, cmd, &((dse_opts *)ctx)->p.grid_interp);
}

#define ROW(kind, name, arg, field, help) CLI_ROW(kind, name, arg, dse_opts, field, help)
static const cli_option options[] = {
    ROW(CLI_STRING, "model", "DIR", model_dir,
        "saved model (from 'scalepredict train'); needs power"),
    ROW(CLI_STRING, "method", "NAME", method,
        "prediction method the model carries (default: the\n"
        "model's recommended method; 'scalepredict train'\n"
        "prints them)"),
    ROW(CLI_STRING, "runs", "FILE", runs, "the kernels' runs.csv (a row at the model's base)"),
    ROW(CLI_STRING, "counters", "FILE", counters,
        "the kernels' counters.csv (a row at the model's base)"),
    ROW(CLI_STRING, "weights", "FILE", p.weights_path,
        "CSV kernel,weight (or count/invocations): the workload;\n"
        "default every kernel of --runs, weight 1"),
    CLI_ROW_CALL("profile", "DIR", set_profile,
                 "what 'scalepredict profile' wrote: its runs.csv,\n"
                 "counters.csv and, as --weights, launches.csv (the\n"
                 "application's launch counts).  dse ranks by energy, so\n"
                 "runs.csv needs each kernel's power_w at the base, which\n"
                 "ncu does not record: fill it in from your own reading"),
    CLI_ROW_CALL("reference", "CFG", set_reference,
                 "configuration the budget and ratios refer to\n"
                 "(default: the model's base)"),
    CLI_ROW_CALL("power-cap", "W", set_power_cap, "cap on peak power for the capped objective"),
    CLI_ROW_CALL("time-budget", "X", set_time_budget,
                 "allowed time as a multiple of the reference's (1.2 = 20%\n"
                 "slower) for the budgeted objective"),
    ROW(CLI_STRING, "candidates", "FILE", p.candidates_path,
        "CSV name,config or name,cu,engine_mhz,memory_mhz"),
    CLI_ROW_CALL("rank-by", "OBJ", set_rank_by,
                 "candidate ranking: time, energy, edp (default), ed2p,\n"
                 "min-time-capped, min-energy-budget"),
    CLI_ROW_CALL("rank-kernels", "AXIS", set_rank_kernels,
                 "also rank the kernels by what raising AXIS (cu, engine\n"
                 "or memory) from its lowest to its highest value buys\n"
                 "each: the time and energy factors and the speedup, at\n"
                 "the reference's other axes (table output; the JSON and\n"
                 "the report carry the elasticities they come from)"),
    CLI_ROW_CALL("grid-interp", "N", set_grid_interp,
                 "N-1 extra clocks between neighbouring grid clocks,\n"
                 "predicted by log-linear interpolation (default 1: none)"),
    ROW(CLI_STRING, "report", "DIR", report,
        "write an HTML report with plots and every table as CSV\n"
        "(a new or empty directory or an older report, replaced\n"
        "atomically)"),
    ROW(CLI_FLAG, "json", NULL, json, "print JSON instead of tables"),
    CLI_ROW_CALL("format", "F", set_format, "table (default) or json (the same as --json)"),
    CLI_ROW_FORCE,
    CLI_ROWS_DATA,
};

static const cli_command command = {
    .prefix = "dse ",
    .optstring = ":h",
    .head =
        "Usage: scalepredict dse --model DIR --runs FILE --counters FILE\n"
        "       scalepredict dse --model DIR --profile DIR [options]\n"
        "                        [--method NAME] [--weights FILE] [--reference CFG] [--power-cap "
        "W]\n"
        "                        [--time-budget X] [--candidates FILE] [--rank-by OBJ]\n"
        "                        [--rank-kernels AXIS]\n"
        "                        [--grid-interp N] [--report DIR] [--json] [--force]\n"
        "                        [--ignore-counter NAME] [--skip-unknown-kernels]\n"
        "\n"
        "Predicts a workload (the kernels of runs.csv/counters.csv, measured once at\n"
        "the model's base configuration) at every configuration of the model's grid\n"
        "and reports the best configuration for each objective (minimum time, energy,\n"
        "energy-delay product, energy-delay-squared product, time under a power cap,\n"
        "energy within a time budget), the Pareto fronts of time vs energy and time vs\n"
        "power, how strongly each axis moves time, power and energy (per kernel and for\n"
        "the workload, with a compute-bound / bandwidth-bound / neither class) and a\n"
        "ranking of candidate products.  Energy is power x time (mJ); the workload's\n"
        "time and energy are weighted sums over its kernels; its peak power is the\n"
        "highest kernel power, which is what the power cap limits.\n"
        "\n",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .column = 22,
    .tail =
        "\n"
        "A constraint that no configuration meets is an error naming the closest\n"
        "configuration; nothing is written then.\n",
};

/* What dse reads, which its report never replaces. */
static int add_inputs(const dse_opts *o) {
  const char *data = o->runs == o->prof.runs ? "--profile" : "--runs";
  const char *weights = o->p.weights_path == o->prof.launches ? "--profile" : "--weights";
  return cli_add_inputs("--profile", o->prof.dir[0] ? o->prof.dir : NULL, "--model", o->model_dir,
                        data, o->runs, data, o->counters, weights, o->p.weights_path,
                        "--candidates", o->p.candidates_path, (char *)NULL);
}

/* The table's options, then what holds between them. */
int cmd_dse(int argc, char **argv) {
  dse_opts o = {.rank_axis = -1};
  sp_dse_params_init(&o.p);
  int done, rc = cli_parse_options(&command, &o, argc, argv, &done);
  if (rc || done) return rc;
  if (!o.model_dir || !o.runs || !o.counters)
    return cli_usage_error("dse ",
                           "--model, and --runs and --counters (or --profile), are "
                           "required");
  if (o.p.rank_by == SP_DSE_MIN_TIME_CAPPED && !(o.p.power_cap_w > 0))
    return cli_usage_error("dse ", "--rank-by min-time-capped needs --power-cap");
  if (o.p.rank_by == SP_DSE_MIN_ENERGY_BUDGET && !(o.p.time_budget > 0))
    return cli_usage_error("dse ", "--rank-by min-energy-budget needs --time-budget");
  rc = add_inputs(&o);
  if (!rc && o.report) rc = cli_check_output(o.report, SP_OUTPUT_REPORT);
  if (rc) return rc;
  return run(&o);
}
