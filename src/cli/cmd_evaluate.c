/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_evaluate.c: scalepredict evaluate, the held-out accuracy study. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The library's methods, one line each, from its method table. */
static void print_methods(void) {
  puts("\nMethods (--methods; * only when named):");
  for (size_t i = 0; i < sp_method_count(); i++) {
    char name[64];
    snprintf(name, sizeof name, "%s%s", sp_method_name((sp_method)i),
             sp_method_flags((sp_method)i) & SP_METHOD_FLAG_OPT_IN ? "*" : "");
    printf("  %-10s %s\n", name, sp_method_about((sp_method)i));
  }
}

typedef struct eval_cli {
  const char *runs, *counters, *base_spec, *cluster_spec, *methods, *report;
  const char *train_points;
  const char *families, *also, *memory;
  unsigned *groups;
  sp_config *extra;
  int json, quiet;
  sp_eval_report_options report_opts;
  sp_eval_params p;
  sp_config *bases;
  size_t *clusters;
} eval_cli;

static int parse_clusters(eval_cli *c) {
  unsigned long a, b, s = 1;
  char *spec = strdup(c->cluster_spec), *colon = strchr(spec, ':');
  int bad = 0;
  if (colon) {
    *colon = '\0';
    char *colon2 = strchr(colon + 1, ':');
    if (colon2) *colon2 = '\0';
    bad = cli_parse_ulong(spec, &a) || cli_parse_ulong(colon + 1, &b) ||
          (colon2 && cli_parse_ulong(colon2 + 1, &s));
  } else {
    bad = cli_parse_ulong(spec, &a);
    b = a;
  }
  free(spec);
  if (bad || a < 1 || b < a || s < 1 || b > 100000)
    return cli_usage_error(
        "evaluate ", "--clusters needs K or FIRST:LAST[:STEP] with 1 <= FIRST <= LAST, not '%s'",
        c->cluster_spec);
  c->clusters = malloc(((b - a) / s + 1) * sizeof(size_t));
  for (unsigned long k = a; k <= b; k += s) c->clusters[c->p.nclusters++] = k;
  c->p.clusters = c->clusters;
  return EXIT_OK;
}

static int parse_methods(eval_cli *c) {
  if (!c->methods) return EXIT_OK;
  char *list = strdup(c->methods), *save = NULL;
  c->p.methods = 0;
  for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    sp_method m;
    if (sp_method_parse(t, &m)) {
      char known[1024];
      size_t used = 0;
      for (size_t i = 0; i < sp_method_count() && used < sizeof known; i++)
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                 sp_method_name((sp_method)i));
      int rc = cli_usage_error("evaluate ", "unknown method '%s' (known: %s)", t, known);
      free(list);
      return rc;
    }
    c->p.methods |= 1u << m;
  }
  free(list);
  return c->p.methods ? EXIT_OK : cli_usage_error("evaluate ", "--methods is empty");
}

/* Resolves 'middle', 'all' or a list of configurations against the data. */
static int resolve_bases(eval_cli *c, const sp_dataset *ds, sp_error *err) {
  const int *v[3];
  size_t n[3];
  for (int a = 0; a < 3; a++) n[a] = sp_dataset_axis(ds, a, &v[a]);
  size_t total = n[0] * n[1] * n[2], count = 0;
  const char *spec = c->base_spec ? c->base_spec : "middle";
  c->bases = malloc((total + strlen(spec) + 1) * sizeof(sp_config));
  if (!c->bases) return SP_ENOMEM;
  if (!strcmp(spec, "all")) {
    for (size_t i = 0; i < n[0]; i++)
      for (size_t j = 0; j < n[1]; j++)
        for (size_t k = 0; k < n[2]; k++)
          c->bases[count++] = (sp_config){v[0][i], v[1][j], v[2][k]};
  } else if (!strcmp(spec, "middle")) {
    c->bases[count++] =
        (sp_config){v[0][(n[0] - 1) / 2], v[1][(n[1] - 1) / 2], v[2][(n[2] - 1) / 2]};
  } else {
    int st = cli_parse_config_list(spec, c->bases, total + strlen(spec) + 1, &count, err);
    if (st) return st;
  }
  c->p.bases = c->bases;
  c->p.nbases = count;
  return SP_OK;
}

static void print_stats_json(const sp_evaluation *e, sp_method m, int q) {
  static const char *const qn[3] = {"time", "power", "energy"};
  sp_eval_filter f;
  sp_eval_stats s;
  sp_eval_filter_init(&f);
  f.method = m;
  f.quantity = q < 2 ? (size_t)q : SP_EVAL_ANY;
  if (q < 2)
    sp_evaluation_stats(e, &f, &s);
  else
    sp_evaluation_energy_stats(e, &f, &s);
  if (!s.n) {
    printf("\"%s_mape_pct\":null,\"%s_median_ape_pct\":null,\"%s_p90_ape_pct\":null,\"%s_n\":0",
           qn[q], qn[q], qn[q], qn[q]);
    return;
  }
  printf("\"%s_mape_pct\":", qn[q]);
  cli_json_number(s.mape);
  printf(",\"%s_median_ape_pct\":", qn[q]);
  cli_json_number(s.median);
  printf(",\"%s_p90_ape_pct\":", qn[q]);
  cli_json_number(s.p90);
  printf(",\"%s_n\":%zu,\"%s_histogram\":[", qn[q], s.n, qn[q]);
  for (int b = 0; b < SP_EVAL_HIST_BINS; b++) printf("%s%zu", b ? "," : "", s.hist[b]);
  printf("]");
  if (q == 2) return;
  printf(",\"%s_coverage90_pct\":", qn[q]);
  cli_json_number(s.coverage);
  printf(",\"%s_outside_n\":%zu,\"%s_outside_mape_pct\":", qn[q], s.n_outside, qn[q]);
  cli_json_number(s.mape_outside);
}

static void print_json(const eval_cli *c, const sp_dataset *ds, const sp_evaluation *e) {
  printf("{\"runs\":");
  sp_json_write_string(stdout, c->runs);
  printf(",\"counters\":");
  sp_json_write_string(stdout, c->counters);
  printf(",\"protocol\":\"%s\",\"holdout\":%g,\"splits\":%zu,\"seed\":%lu,\"kernels\":[",
         c->p.groups          ? "leave-one-family-out"
         : c->p.leave_one_out ? "leave-one-out"
                              : "holdout",
         c->p.leave_one_out ? 0.0 : c->p.holdout, sp_evaluation_splits(e), c->p.seed);
  for (size_t k = 0; k < sp_dataset_kernel_count(ds); k++) {
    if (k) putchar(',');
    sp_json_write_string(stdout, sp_dataset_kernel_name(ds, k));
  }
  printf("],\"bases\":[");
  for (size_t b = 0; b < c->p.nbases; b++) {
    char cfg[64];
    sp_config_format(&c->p.bases[b], cfg, sizeof cfg);
    printf("%s\"%s\"", b ? "," : "", cfg);
  }
  printf("],\"clusters\":[");
  for (size_t i = 0; i < c->p.nclusters; i++) printf("%s%zu", i ? "," : "", c->p.clusters[i]);
  printf("]");
  double points, mape, est;
  if (!sp_evaluation_completion(e, SP_TIME, &points, &mape, &est)) {
    printf(",\"train_plan\":{\"plan\":\"%s\",\"target_error_pct\":",
           c->p.train_plan == SP_TRAIN_PLAN_RANDOM ? "random" : "adaptive");
    cli_json_number(c->p.train_target > 0 ? c->p.train_target : NAN);
    printf(",\"surrogate\":\"%s\",\"points\":", sp_surrogate_name(c->p.train_surrogate));
    cli_json_number(points);
    for (int q = 0; q < 2; q++) {
      sp_evaluation_completion(e, (sp_quantity)q, &points, &mape, &est);
      printf(",\"%s_completion_mape_pct\":", q ? "power" : "time");
      cli_json_number(mape);
      printf(",\"%s_estimated_error_pct\":", q ? "power" : "time");
      cli_json_number(est);
    }
    putchar('}');
  }
  printf(",\"methods\":{");
  int first = 1;
  for (int m = 0; m < (int)sp_method_count(); m++) {
    if (!((c->p.methods >> m) & 1u)) continue;
    printf("%s\"%s\":{", first ? "" : ",", sp_method_name((sp_method)m));
    first = 0;
    print_stats_json(e, (sp_method)m, SP_TIME);
    putchar(',');
    print_stats_json(e, (sp_method)m, SP_POWER);
    putchar(',');
    print_stats_json(e, (sp_method)m, 2);
    putchar('}');
  }
  printf("},\"predictions\":[");
  const sp_eval_record *r = sp_evaluation_records(e);
  for (size_t i = 0; i < sp_evaluation_count(e); i++, r++) {
    char base[64], target[64];
    sp_config_format(&c->p.bases[r->base], base, sizeof base);
    sp_config_format(&r->target, target, sizeof target);
    printf("%s\n{\"method\":\"%s\",\"quantity\":\"%s\",\"split\":%u,\"k\":%u,\"kernel\":",
           i ? "," : "", sp_method_name((sp_method)r->method), r->quantity ? "power" : "time",
           (unsigned)r->split, r->k);
    sp_json_write_string(stdout, sp_dataset_kernel_name(ds, r->kernel));
    printf(",\"base\":\"%s\",\"target\":\"%s\",\"predicted\":", base, target);
    cli_json_number(r->predicted);
    fputs(",\"measured\":", stdout);
    cli_json_number(r->measured);
    fputs(",\"lo90\":", stdout);
    cli_json_number(r->lo);
    fputs(",\"hi90\":", stdout);
    cli_json_number(r->hi);
    fputs(",\"novelty\":", stdout);
    cli_json_number(r->novelty);
    printf(",\"outside_training\":%s}", r->outside ? "true" : "false");
  }
  printf("\n]}\n");
}

static const char *protocol_name(const eval_cli *c) {
  return c->p.groups          ? "leave-one-family-out"
         : c->p.leave_one_out ? "leave-one-out"
                              : "random splits";
}

/* Coverage of the 90% intervals and the error outside the training data,
 * for the methods that give intervals. */
static void print_intervals(const eval_cli *c, const sp_evaluation *e) {
  int header = 0;
  for (int m = 0; m < (int)sp_method_count(); m++) {
    for (int q = 0; q < 2 && ((c->p.methods >> m) & 1u); q++) {
      sp_eval_filter f;
      sp_eval_stats s;
      sp_eval_filter_init(&f);
      f.method = (size_t)m;
      f.quantity = (size_t)q;
      sp_evaluation_stats(e, &f, &s);
      if (!s.n_interval) continue;
      if (!header++)
        printf("\n%-10s %-8s %12s %10s %12s %14s\n", "method", "quantity", "coverage90", "n",
               "outside_n", "outside_mape");
      printf("%-10s %-8s %11.2f%% %10zu %12zu ", sp_method_name((sp_method)m), q ? "power" : "time",
             s.coverage, s.n_interval, s.n_outside);
      if (s.n_outside)
        printf("%13.2f%%\n", s.mape_outside);
      else
        printf("%14s\n", "-");
    }
  }
}

/* Under a train plan: how many configurations each training surface was
 * completed from, and how far the completions are from the data. */
static void print_completion(const eval_cli *c, const sp_evaluation *e) {
  double points, mape, est;
  if (sp_evaluation_completion(e, SP_TIME, &points, &mape, &est)) return;
  printf(
      "\ntraining surfaces: %s plans, %.1f configurations measured per kernel, the rest "
      "completed",
      c->p.train_plan == SP_TRAIN_PLAN_RANDOM ? "random" : "adaptive", points);
  if (c->p.train_target > 0) printf(" (target %g%%)", c->p.train_target);
  printf(", %s surrogate\n", sp_surrogate_name(c->p.train_surrogate));
  printf("%-8s %16s %16s\n", "quantity", "completion_mape", "estimated_error");
  for (int q = 0; q < 2; q++) {
    if (sp_evaluation_completion(e, (sp_quantity)q, &points, &mape, &est) || isnan(mape)) continue;
    printf("%-8s %15.2f%% %15.2f%%\n", q ? "power" : "time", mape, est);
  }
}

static void print_table(const eval_cli *c, const sp_evaluation *e) {
  printf("held-out evaluation: %s, %zu split%s, %zu base%s, k = %zu", protocol_name(c),
         sp_evaluation_splits(e), sp_evaluation_splits(e) == 1 ? "" : "s", c->p.nbases,
         c->p.nbases == 1 ? "" : "s", c->p.clusters[0]);
  if (c->p.nclusters > 1) printf("..%zu", c->p.clusters[c->p.nclusters - 1]);
  printf("\n%-10s %10s %10s %10s %10s %10s %10s %10s %11s\n", "method", "time_mape", "time_med",
         "time_p90", "n", "power_mape", "power_med", "n", "energy_mape");
  for (int m = 0; m < (int)sp_method_count(); m++) {
    if (!((c->p.methods >> m) & 1u)) continue;
    sp_eval_filter f;
    sp_eval_stats t, p, en;
    sp_eval_filter_init(&f);
    f.method = (size_t)m;
    f.quantity = SP_TIME;
    sp_evaluation_stats(e, &f, &t);
    f.quantity = SP_POWER;
    sp_evaluation_stats(e, &f, &p);
    sp_evaluation_energy_stats(e, &f, &en);
    printf("%-10s %9.2f%% %9.2f%% %9.2f%% %10zu ", sp_method_name((sp_method)m), t.mape, t.median,
           t.p90, t.n);
    if (p.n)
      printf("%9.2f%% %9.2f%% %10zu %10.2f%%\n", p.mape, p.median, p.n, en.mape);
    else
      printf("%10s %10s %10s %11s\n", "-", "-", "0", "-");
  }
  print_intervals(c, e);
  print_completion(c, e);
  for (int q = 0; q < 2; q++)
    if (sp_evaluation_note(e, (sp_quantity)q))
      printf("note: %s\n", sp_evaluation_note(e, (sp_quantity)q));
}

/* The options' setters that check their values (cli_option). */
static int set_format(void *ctx, const char *arg, const char *cmd) {
  return cli_parse_format_tables(cmd, arg, &((eval_cli *)ctx)->json);
}

static int set_train_plan(void *ctx, const char *arg, const char *cmd) {
  eval_cli *c = ctx;
  if (!strcmp(arg, "adaptive"))
    c->p.train_plan = SP_TRAIN_PLAN_ADAPTIVE;
  else if (!strcmp(arg, "random"))
    c->p.train_plan = SP_TRAIN_PLAN_RANDOM;
  else
    return cli_usage_error(cmd, "--train-plan must be adaptive or random, not '%s'", arg);
  return EXIT_OK;
}

static int set_train_surrogate(void *ctx, const char *arg, const char *cmd) {
  eval_cli *c = ctx;
  if ((c->p.train_surrogate = sp_surrogate_parse(arg)) < 0)
    return cli_usage_error(cmd, "--train-surrogate must be gp or shared, not '%s'", arg);
  return EXIT_OK;
}

static int set_train_batch(void *ctx, const char *arg, const char *cmd) {
  unsigned long v;
  if (cli_parse_ulong(arg, &v) || v < 1 || v > 1000000)
    return cli_usage_error(cmd, "--train-batch needs an integer from 1 to 1000000");
  ((eval_cli *)ctx)->p.train_batch = v;
  return EXIT_OK;
}

static int set_train_target(void *ctx, const char *arg, const char *cmd) {
  eval_cli *c = ctx;
  char *end;
  c->p.train_target = strtod(arg, &end);
  if (*end || end == arg || !(c->p.train_target > 0) || !isfinite(c->p.train_target))
    return cli_usage_error(cmd, "--train-target needs a positive percentage, not '%s'", arg);
  return EXIT_OK;
}

static int set_holdout(void *ctx, const char *arg, const char *cmd) {
  eval_cli *c = ctx;
  char *end;
  c->p.holdout = strtod(arg, &end);
  if (*end || !(c->p.holdout > 0 && c->p.holdout < 1))
    return cli_usage_error(cmd, "--holdout needs a fraction between 0 and 1, not '%s'", arg);
  return EXIT_OK;
}

static int set_quantity(void *ctx, const char *arg, const char *cmd) {
  eval_cli *c = ctx;
  if (!strcmp(arg, "time"))
    c->p.quantities = 1u << SP_TIME;
  else if (!strcmp(arg, "power"))
    c->p.quantities = 1u << SP_POWER;
  else if (!strcmp(arg, "both"))
    c->p.quantities = (1u << SP_TIME) | (1u << SP_POWER);
  else
    return cli_usage_error(cmd, "--quantity must be time, power or both");
  return EXIT_OK;
}

static int set_seed(void *ctx, const char *arg, const char *cmd) {
  unsigned long v;
  if (cli_parse_ulong(arg, &v)) return cli_usage_error(cmd, "--seed needs a non-negative integer");
  ((eval_cli *)ctx)->p.seed = v;
  return EXIT_OK;
}

#define ROW(kind, name, arg, field, help) CLI_ROW(kind, name, arg, eval_cli, field, help)
static const cli_option options[] = {
    ROW(CLI_STRING, "runs", "FILE", runs, NULL),
    ROW(CLI_STRING, "counters", "FILE", counters, NULL),
    CLI_ROW_TEXT("Protocol:\n"),
    CLI_ROW_CALL("holdout", "F", set_holdout, "fraction held out per random split (default 0.2)"),
    ROW(CLI_COUNT, "repeats", "N", p.repeats, "random splits (default 5)"),
    ROW(CLI_FLAG, "leave-one-out", NULL, p.leave_one_out, "hold out each kernel once instead"),
    ROW(CLI_STRING, "families", "FILE", families,
        "leave one family out: FILE is CSV with the columns\n"
        "kernel,family, a row for each kernel of the data\n"
        "and none for others, 2 families or more; every\n"
        "kernel of a family is held out together (no\n"
        "variant of it is trained on)"),
    ROW(CLI_STRING, "also-measured", "CFG[,CFG...]", also,
        "held-out kernels count as measured at these\n"
        "configurations too (methods that use further\n"
        "measurements, physet, see them; they are not scored)"),
    ROW(CLI_STRING, "floor-kernel", "NAME", p.floor_kernel,
        "the kernel whose power is the board's floor at each\n"
        "configuration (physet's power prior)"),
    ROW(CLI_STRING, "memory", "FILE", memory,
        "memory.csv describing the data's memory clocks (train\n"
        "--memory): physet's memory step by peak bandwidth"),
    ROW(CLI_FLAG, "floor-known", NULL, p.floor_known,
        "with --floor-kernel: each held-out kernel's power is\n"
        "predicted as by a user who measured the floor at\n"
        "the base (predict --floor-w): that kernel's power\n"
        "at the base"),
    CLI_ROW_CALL("seed", "S", set_seed, "seed for splits, k-means and networks (default 1)"),
    CLI_ROW_CALL("train-plan", "adaptive|random", set_train_plan,
                 "train from fewer measurements: every kernel's\n"
                 "surface is first completed from --train-points of\n"
                 "its configurations (the base among them), chosen by\n"
                 "an adaptive plan or at random, read from the data;\n"
                 "held-out kernels are still scored against every\n"
                 "measurement (one base only)"),
    ROW(CLI_STRING, "train-points", "N|A/B", train_points,
        "configurations measured per kernel: N, or the\n"
        "fraction A/B of the grid (rounded, at least 1)"),
    CLI_ROW_CALL("train-batch", "B", set_train_batch, "the adaptive plan's batch (default 4)"),
    CLI_ROW_CALL("train-target", "E", set_train_target,
                 "adaptive: a kernel is done once its estimated surface\n"
                 "error is within E percent; --train-points is then\n"
                 "the most it may measure (default: the whole grid)"),
    CLI_ROW_CALL("train-surrogate", "gp|shared", set_train_surrogate,
                 "what completes the surfaces: a Gaussian process per\n"
                 "kernel (gp, the default), or a low-rank completion\n"
                 "shared by the training kernels of each split plus a\n"
                 "process per kernel on the residual (shared)"),
    CLI_ROW_TEXT("Models:\n"),
    ROW(CLI_STRING, "base", "B[,B...]", base_spec,
        "base configuration(s): CFG, 'middle' (default: the\n"
        "middle value of every axis) or 'all'"),
    ROW(CLI_STRING, "clusters", "K|A:B:S", cluster_spec,
        "cluster count, or a range such as 2:20:2 (default 12)"),
    ROW(CLI_COUNT, "epochs", "N", p.max_epochs, "network training epochs (default 500)"),
    ROW(CLI_COUNT, "restarts", "N", p.restarts, "k-means restarts (default 10)"),
    CLI_ROW_TEXT("Scoring:\n"),
    ROW(CLI_STRING, "methods", "LIST", methods,
        "comma-separated methods to compare (default: all\n"
        "those listed below but the ones marked *)"),
    CLI_ROW_CALL("quantity", "Q", set_quantity, "time, power or both (default both)"),
    CLI_ROW_TEXT("Output:\n"),
    ROW(CLI_FLAG, "json", NULL, json, "one JSON object on standard output"),
    CLI_ROW_CALL("format", "F", set_format, "table (default) or json (the same as --json)"),
    ROW(CLI_STRING, "report", "DIR", report,
        "CSV tables, SVG plots and index.html in DIR (a new or\n"
        "empty directory or an older report); index.html\n"
        "shows the plots inline"),
    ROW(CLI_FLAG, "report-predictions", NULL, report_opts.predictions,
        "with --report: also predictions.csv, every\n"
        "prediction (kernel, target, method, predicted,\n"
        "measured, error, interval): large, about 100 MB\n"
        "on the synthetic set (every method)"),
    CLI_ROW_FORCE,
    CLI_ROWS_DATA,
    CLI_ROWS_PHYSET(eval_cli, p.trees, p.physet_median, p.physet_line),
    ROW(CLI_COUNT, "threads", "N", p.threads, "worker threads (default: the online CPUs)"),
    ROW(CLI_FLAG, "quiet", NULL, quiet, "no progress on standard error"),
};

static const cli_command command = {
    .prefix = "evaluate ",
    .optstring = ":h",
    .head =
        "Usage: scalepredict evaluate --runs FILE --counters FILE [options]\n"
        "\n"
        "Measures prediction accuracy on kernels the model never saw (the paper's\n"
        "Section V): kernels are held out, a model is trained on the rest for every\n"
        "base configuration and cluster count, and each held-out kernel is predicted\n"
        "at every other configuration by every method.  Held-out kernels never touch\n"
        "clustering, normalization or classifier training.\n"
        "\n",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .column = 23,
    .tail =
        "\n"
        "Errors are absolute percentage errors per (kernel, base, target): mean\n"
        "(MAPE), median, 90th percentile and a 10%-wide histogram.\n",
    .more = print_methods,
};

/* The table's options, then what holds between them. */
static int parse_args(eval_cli *c, int argc, char **argv, int *done) {
  int rc = cli_parse_options(&command, c, argc, argv, done);
  if (rc || *done) return rc;
  if (!c->runs || !c->counters)
    return cli_usage_error("evaluate ", "--runs and --counters are required");
  if (c->p.train_target > 0 && c->p.train_plan != SP_TRAIN_PLAN_ADAPTIVE)
    return cli_usage_error("evaluate ", "--train-target needs --train-plan adaptive");
  if (c->p.train_target > 0 && !c->train_points) c->train_points = "1/1";
  if (c->p.train_surrogate && !c->p.train_plan)
    return cli_usage_error("evaluate ", "--train-surrogate needs --train-plan");
  if (!c->p.train_plan != !c->train_points)
    return cli_usage_error("evaluate ", "--train-plan and --train-points go together");
  if (c->p.floor_known && !c->p.floor_kernel)
    return cli_usage_error("evaluate ", "--floor-known needs --floor-kernel (the floor's kernel)");
  if (c->report_opts.predictions && !c->report)
    return cli_usage_error("evaluate ", "--report-predictions needs --report DIR");
  rc = cli_add_inputs("--runs", c->runs, "--counters", c->counters, "--families", c->families,
                      "--memory", c->memory, (char *)NULL);
  if (!rc && c->report) rc = cli_check_output(c->report, SP_OUTPUT_REPORT);
  if (!rc) rc = parse_clusters(c);
  return rc ? rc : parse_methods(c);
}

/* --train-points N or A/B: a count, or a fraction of the data's grid. */
static int resolve_train_points(eval_cli *c, const sp_dataset *ds) {
  const int *v;
  size_t grid = 1;
  for (int x = 0; x < 3; x++) grid *= sp_dataset_axis(ds, x, &v);
  if (!cli_parse_share(c->train_points, grid, &c->p.train_points) && c->p.train_points <= grid)
    return EXIT_OK;
  return cli_usage_error("evaluate ",
                         "--train-points needs N or A/B between 1 and the grid's "
                         "%zu configurations, not '%s'",
                         grid, c->train_points);
}

/* --also-measured: a comma-separated list of configurations. */
static int parse_also(eval_cli *c, sp_error *err) {
  size_t cap = strlen(c->also) + 1; /* a list never has more entries than characters */
  if (!(c->extra = calloc(cap, sizeof *c->extra)))
    return sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  c->p.extra = c->extra;
  return cli_parse_config_list(c->also, c->extra, cap, &c->p.nextra, err);
}

/* --families FILE: kernel,family rows; every kernel of the data needs one.
 * Lines are bounded as the CSV reader bounds a field, and their number far
 * beyond any suite's. */
#define MAX_FAMILY_LINE ((size_t)2 << 20)
#define MAX_FAMILY_LINES 10000000L
/* A split per family, and sp_eval_record numbers splits in 16 bits. */
#define MAX_FAMILIES 65535u

typedef struct families {
  eval_cli *c;
  const sp_dataset *ds;
  char **fam;
  size_t nf, cap;
} families;

static int family_index(families *f, const char *name, size_t *g, sp_error *err) {
  for (*g = 0; *g < f->nf; ++*g)
    if (!strcmp(f->fam[*g], name)) return SP_OK;
  if (f->nf == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 64;
    char **nfam = realloc(f->fam, cap * sizeof *nfam);
    if (!nfam) return sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    f->fam = nfam;
    f->cap = cap;
  }
  if (!(f->fam[f->nf] = strdup(name)))
    return sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  f->nf++;
  return SP_OK;
}

/* The CSV field at *p, unquoted in place (RFC 4180: a quoted field may hold
 * commas and doubled quotes); *p moves past its comma, or to NULL at the
 * end of the line.  NULL when a quote is not closed before the line ends or
 * is followed by anything but a comma. */
static char *csv_cell(char **p) {
  char *field = *p, *r = *p, *w = *p;
  if (*r != '"') {
    char *comma = strchr(r, ',');
    *p = comma ? comma + 1 : NULL;
    if (comma) *comma = '\0';
    return field;
  }
  for (r++;; r++) {
    if (!*r) return NULL;
    if (*r == '"' && r[1] != '"') break;
    if (*r == '"') r++;
    *w++ = *r;
  }
  if (r[1] && r[1] != ',') return NULL;
  *p = r[1] ? r + 2 : NULL;
  *w = '\0';
  return field;
}

static int family_line(void *user, char *line, long ln, sp_error *err) {
  families *f = user;
  char *p = line;
  char *kernel = csv_cell(&p);
  char *family = kernel && p ? csv_cell(&p) : NULL; /* further columns are read past */
  if (ln == 1 && family && !strcmp(kernel, "kernel") && !strcmp(family, "family")) return SP_OK;
  if (!family || !*kernel || !*family)
    return sp_error_set(err, SP_EPARSE, f->c->families, ln, 0, NULL,
                        "expected 'kernel,family' (CSV: quote a name that holds a comma)");
  size_t k = sp_dataset_kernel_index(f->ds, kernel), g;
  /* A kernel the data lacks is a typo or the wrong file, which would
   * otherwise change the families without a word; only kernels that
   * --skip-kernels-without-counters may have left out are passed over. */
  if (k == (size_t)-1 && cli_data_skips_kernels()) return SP_OK;
  if (k == (size_t)-1)
    return sp_error_set(err, SP_ENOTFOUND, f->c->families, ln, 1, "kernel",
                        "kernel '%s' of the families is not in the measurements %s", kernel,
                        f->c->runs);
  int st = family_index(f, family, &g, err);
  if (!st) f->c->groups[k] = (unsigned)g;
  return st;
}

static int read_families(eval_cli *c, const sp_dataset *ds, sp_error *err) {
  size_t nk = sp_dataset_kernel_count(ds);
  families f = {c, ds, NULL, 0, 0};
  c->groups = malloc((nk + 1) * sizeof *c->groups);
  int st = c->groups ? SP_OK : sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  for (size_t k = 0; k < nk && !st; k++) c->groups[k] = (unsigned)-1;
  if (!st)
    st = cli_read_lines(c->families, MAX_FAMILY_LINE, MAX_FAMILY_LINES, family_line, &f, err);
  for (size_t k = 0; k < nk && !st; k++)
    if (c->groups[k] == (unsigned)-1)
      st = sp_error_set(err, SP_ENOTFOUND, c->families, 0, 0, "kernel",
                        "kernel '%s' of the data has no family in this file",
                        sp_dataset_kernel_name(ds, k));
  /* Said here, of the file, rather than by the library of its groups. */
  if (!st && f.nf < 2)
    st = sp_error_set(err, SP_EPARSE, c->families, 0, 0, "family",
                      "leave-one-family-out needs at least 2 families, the file gives %zu", f.nf);
  if (!st && f.nf > MAX_FAMILIES)
    st = sp_error_set(err, SP_EPARSE, c->families, 0, 0, "family",
                      "leave-one-family-out holds out at most %u families, the file gives %zu",
                      MAX_FAMILIES, f.nf);
  for (size_t g = 0; g < f.nf; g++) free(f.fam[g]);
  free(f.fam);
  c->p.groups = c->groups;
  return st;
}

int cmd_evaluate(int argc, char **argv) {
  eval_cli c = {0};
  c.cluster_spec = "12";
  sp_eval_params_init(&c.p);
  sp_eval_report_options_init(&c.report_opts);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  c.p.threads = cpus > 0 ? (unsigned)cpus : 1;
  int done, rc = parse_args(&c, argc, argv, &done);
  if (rc || done) {
    free(c.clusters);
    return rc;
  }
  sp_error err;
  sp_error_clear(&err);
  sp_dataset *ds = NULL;
  sp_evaluation *e = NULL;
  sp_memory_set *ms = NULL;
  int st = c.memory ? sp_memory_load(c.memory, &ms, &err) : SP_OK;
  c.p.memory = ms;
  if (!st) st = cli_dataset_load(c.runs, c.counters, &ds, &err);
  if (!st && c.train_points && (rc = resolve_train_points(&c, ds))) {
    sp_dataset_free(ds);
    sp_memory_free(ms);
    free(c.clusters);
    return rc;
  }
  if (!st) st = resolve_bases(&c, ds, &err);
  if (!st && c.families) st = read_families(&c, ds, &err);
  if (!st && c.also) st = parse_also(&c, &err);
  if (!st) st = sp_evaluate(ds, &c.p, c.quiet ? NULL : cli_progress, NULL, &e, &err);
  if (!st && c.report)
    st = sp_evaluation_write_report_with(e, ds, &c.p, c.report, &c.report_opts, &err);
  if (st && !err.status) err.status = st;
  if (!st) {
    if (c.json)
      print_json(&c, ds, e);
    else
      print_table(&c, e);
    if (c.report && !c.json) printf("report: %s/index.html\n", c.report);
  }
  rc = st ? cli_fail(&err) : EXIT_OK;
  sp_evaluation_free(e);
  sp_dataset_free(ds);
  sp_memory_free(ms);
  free(c.bases);
  free(c.clusters);
  free(c.groups);
  free(c.extra);
  return rc;
}
