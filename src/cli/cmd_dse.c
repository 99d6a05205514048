/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_dse.c: scalepredict dse, design-space exploration of a workload. */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct dse_opts {
  const char *model_dir, *method, *runs, *counters, *report;
  int json;
  cli_profile prof; /* --profile's files */
  sp_dse_params p;
} dse_opts;

static void usage(void) {
  puts(
      "Usage: scalepredict dse --model DIR --runs FILE --counters FILE\n"
      "       scalepredict dse --model DIR --profile DIR [options]\n"
      "                        [--method NAME] [--weights FILE] [--reference CFG] [--power-cap W]\n"
      "                        [--time-budget X] [--candidates FILE] [--rank-by OBJ]\n"
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
      "\n"
      "  --model DIR         saved model (from 'scalepredict train'); needs power\n"
      "  --method NAME       prediction method the model carries (default: the\n"
      "                      model's recommended method; 'scalepredict train'\n"
      "                      prints them)\n"
      "  --runs FILE         the kernels' runs.csv (a row at the model's base)\n"
      "  --counters FILE     the kernels' counters.csv (a row at the model's base)\n"
      "  --weights FILE      CSV kernel,weight (or count/invocations): the workload;\n"
      "                      default every kernel of --runs, weight 1\n"
      "  --profile DIR       what 'scalepredict profile' wrote: its runs.csv,\n"
      "                      counters.csv and, as --weights, launches.csv (the\n"
      "                      application's launch counts).  dse ranks by energy, so\n"
      "                      runs.csv needs each kernel's power_w at the base, which\n"
      "                      ncu does not record: fill it in from your own reading\n"
      "  --reference CFG     configuration the budget and ratios refer to\n"
      "                      (default: the model's base)\n"
      "  --power-cap W       cap on peak power for the capped objective\n"
      "  --time-budget X     allowed time as a multiple of the reference's (1.2 = 20%\n"
      "                      slower) for the budgeted objective\n"
      "  --candidates FILE   CSV name,config or name,cu,engine_mhz,memory_mhz\n"
      "  --rank-by OBJ       candidate ranking: time, energy, edp (default), ed2p,\n"
      "                      min-time-capped, min-energy-budget\n"
      "  --grid-interp N     N-1 extra clocks between neighbouring grid clocks,\n"
      "                      predicted by log-linear interpolation (default 1: none)\n"
      "  --report DIR        write an HTML report with plots and every table as CSV\n"
      "                      (a new or empty directory or an older report, replaced\n"
      "                      atomically)\n"
      "  --json              print JSON instead of tables\n"
      "  --format F          table (default) or json (the same as --json)\n" CLI_FORCE_HELP
      "\n" CLI_DATA_HELP
      "\n"
      "\n"
      "A constraint that no configuration meets is an error naming the closest\n"
      "configuration; nothing is written then.");
}

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

static void note_not_varied(const sp_dse_result *r) {
  static const char *const names[3] = {"CU count", "engine clock", "memory clock"};
  for (int a = 0; a < 3; a++)
    if (r->naxis[a] < 2)
      printf(
          "note: the %s was not varied (the model's grid has one value, %d): its "
          "elasticities are '-'%s\n",
          names[a], r->axis[a][0],
          a ? ", and no kernel is classed compute- or bandwidth-bound (undetermined)" : "");
}

static void print_sensitivity(const sp_dse_result *r) {
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

static void print_text(const sp_dse_result *r) {
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
  print_sensitivity(r);
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
      print_text(r);
    if (st) err.status = st;
  }
  int rc = st ? cli_fail(&err) : EXIT_OK;
  sp_dse_result_free(r);
  sp_dataset_free(ds);
  sp_model_free(m);
  return rc;
}

static int set_option(dse_opts *o, int c, const char *arg) {
  unsigned long v;
  sp_error err;
  switch (c) {
    case 'm':
      o->model_dir = arg;
      break;
    case 'M':
      o->method = arg;
      break;
    case 'r':
      o->runs = arg;
      break;
    case 'c':
      o->counters = arg;
      break;
    case 'w':
      o->p.weights_path = arg;
      break;
    case 'F':
      if (cli_profile_paths(arg, "dse ", &o->prof)) return EXIT_USAGE;
      o->runs = o->prof.runs;
      o->counters = o->prof.counters;
      o->p.weights_path = o->prof.launches;
      break;
    case 'C':
      o->p.candidates_path = arg;
      break;
    case 'o':
      o->report = arg;
      break;
    case 'j':
      o->json = 1;
      break;
    case 'f':
      return cli_parse_format_tables("dse ", arg, &o->json);
    case CLI_OPT_FORCE:
      sp_output_set_force(1);
      break;
    case 'R':
      if (sp_config_parse(arg, &o->p.reference, &err))
        return cli_usage_error("dse ", "--reference: %s", err.message);
      break;
    case 'P':
      if (cli_parse_positive(arg, &o->p.power_cap_w))
        return cli_usage_error("dse ", "--power-cap must be a positive number of watts, not '%s'",
                               arg);
      break;
    case 'T':
      if (cli_parse_positive(arg, &o->p.time_budget))
        return cli_usage_error("dse ", "--time-budget must be a positive factor, not '%s'", arg);
      break;
    case 'k':
      if ((o->p.rank_by = sp_dse_objective_parse(arg)) < 0)
        return cli_usage_error("dse ",
                               "--rank-by must be time, energy, edp, ed2p, "
                               "min-time-capped or min-energy-budget, not '%s'",
                               arg);
      break;
    case 'g':
      if (cli_parse_ulong(arg, &v) || v < 1 || v > 1000)
        return cli_usage_error(
            "dse ", "--grid-interp must be a whole number from 1 to 1000, not '%s'", arg);
      o->p.grid_interp = (unsigned)v;
      break;
    default:
      return -1;
  }
  return 0;
}

/* What dse reads, which its report never replaces. */
static int add_inputs(const dse_opts *o) {
  const char *data = o->runs == o->prof.runs ? "--profile" : "--runs";
  const char *weights = o->p.weights_path == o->prof.launches ? "--profile" : "--weights";
  return cli_add_inputs("--profile", o->prof.dir[0] ? o->prof.dir : NULL, "--model", o->model_dir,
                        data, o->runs, data, o->counters, weights, o->p.weights_path,
                        "--candidates", o->p.candidates_path, (char *)NULL);
}

int cmd_dse(int argc, char **argv) {
  static const struct option opts[] = {{"model", required_argument, 0, 'm'},
                                       {"runs", required_argument, 0, 'r'},
                                       {"counters", required_argument, 0, 'c'},
                                       {"weights", required_argument, 0, 'w'},
                                       {"reference", required_argument, 0, 'R'},
                                       {"power-cap", required_argument, 0, 'P'},
                                       {"time-budget", required_argument, 0, 'T'},
                                       {"candidates", required_argument, 0, 'C'},
                                       {"rank-by", required_argument, 0, 'k'},
                                       {"grid-interp", required_argument, 0, 'g'},
                                       {"report", required_argument, 0, 'o'},
                                       {"json", no_argument, 0, 'j'},
                                       {"format", required_argument, 0, 'f'},
                                       {"method", required_argument, 0, 'M'},
                                       {"help", no_argument, 0, 'h'},
                                       {"force", no_argument, 0, CLI_OPT_FORCE},
                                       {"profile", required_argument, 0, 'F'},
                                       CLI_DATA_OPTIONS,
                                       {0, 0, 0, 0}};
  dse_opts o = {0};
  sp_dse_params_init(&o.p);
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    if (c == 'h') {
      usage();
      return EXIT_OK;
    }
    int rc = cli_data_option(c, optarg, "dse ");
    if (rc < 0) rc = set_option(&o, c, optarg);
    if (rc > 0) return rc;
    if (rc < 0) return cli_bad_option("dse ", c, argv);
  }
  if (optind < argc) return cli_usage_error("dse ", "unexpected argument '%s'", argv[optind]);
  if (!o.model_dir || !o.runs || !o.counters)
    return cli_usage_error("dse ",
                           "--model, and --runs and --counters (or --profile), are "
                           "required");
  if (o.p.rank_by == SP_DSE_MIN_TIME_CAPPED && !(o.p.power_cap_w > 0))
    return cli_usage_error("dse ", "--rank-by min-time-capped needs --power-cap");
  if (o.p.rank_by == SP_DSE_MIN_ENERGY_BUDGET && !(o.p.time_budget > 0))
    return cli_usage_error("dse ", "--rank-by min-energy-budget needs --time-budget");
  int rc = add_inputs(&o);
  if (!rc && o.report) rc = cli_check_output(o.report, SP_OUTPUT_REPORT);
  if (rc) return rc;
  return run(&o);
}
