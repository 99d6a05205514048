/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_train.c: scalepredict train. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* The methods training can fit, after the options. */
static void print_methods(void) {
  fputs("\nMethods:", stdout);
  for (size_t i = 0; sp_train_method_name(i); i++) printf(" %s", sp_train_method_name(i));
  putchar('\n');
}

typedef struct train_cli {
  const char *runs, *counters, *base, *out, *memory, *name, *source;
  int synthetic, quiet, skip_incomplete, clusters_given;
  sp_train_params p;
  sp_config bases[8];
} train_cli;

/* The options' setters that check their values (cli_option). */
static int set_clusters(void *ctx, const char *arg, const char *cmd) {
  train_cli *c = ctx;
  unsigned long v;
  if (cli_parse_ulong(arg, &v) || v < 1)
    return cli_usage_error(cmd, "--clusters needs a positive integer, not '%s'", arg);
  c->p.clusters = v;
  c->clusters_given = 1;
  return EXIT_OK;
}

static int set_seed(void *ctx, const char *arg, const char *cmd) {
  unsigned long v;
  if (cli_parse_ulong(arg, &v))
    return cli_usage_error(cmd, "--seed needs a non-negative integer, not '%s'", arg);
  ((train_cli *)ctx)->p.seed = v;
  return EXIT_OK;
}

static int parse_count(const char *arg, const char *cmd, const char *name, unsigned *out) {
  unsigned long v;
  if (cli_parse_ulong(arg, &v) || v < 1 || v > 1000000)
    return cli_usage_error(cmd, "--%s needs an integer from 1 to 1000000", name);
  *out = (unsigned)v;
  return EXIT_OK;
}

static int set_restarts(void *ctx, const char *arg, const char *cmd) {
  return parse_count(arg, cmd, "restarts", &((train_cli *)ctx)->p.restarts);
}

static int set_epochs(void *ctx, const char *arg, const char *cmd) {
  return parse_count(arg, cmd, "epochs", &((train_cli *)ctx)->p.max_epochs);
}

static int set_methods(void *ctx, const char *arg, const char *cmd) {
  sp_error err;
  if (sp_train_params_set_methods(&((train_cli *)ctx)->p, arg, &err))
    return cli_usage_error(cmd, "--methods: %s", err.message);
  return EXIT_OK;
}

#define ROW(kind, name, arg, field, help) CLI_ROW(kind, name, arg, train_cli, field, help)
static const cli_option options[] = {
    ROW(CLI_STRING, "runs", "FILE", runs, "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w"),
    ROW(CLI_STRING, "counters", "FILE", counters, "kernel,cu,engine_mhz,memory_mhz,<counter>..."),
    ROW(CLI_STRING, "base", "CFG[,CFG...]", base,
        "base configuration, e.g. 32cu/1000/1375; with more than\n"
        "one (at most 8), the first is the model's base and\n"
        "physet is also fitted at each further one, on the\n"
        "kernels with counters there, so that the model predicts\n"
        "from a measurement at any of them (132cu/1980/2619,\n"
        "132cu/1980/3201: from an H100 run or an H200 run);\n"
        "wu2015 predicts from the first only"),
    ROW(CLI_STRING, "memory", "FILE", memory,
        "memory.csv: memory_mhz,name,type,bus_bits,peak_gbs,\n"
        "capacity_gb, one row per memory clock of the grid; the\n"
        "model records the memory systems and physet scales the\n"
        "memory step by peak bandwidth, not by the clock\n"
        "(docs/method.md, \"physet: the memory axis\")"),
    ROW(CLI_STRING, "out", "DIR", out,
        "model directory to write: a new or empty directory or an\n"
        "older model, replaced atomically"),
    CLI_ROW_CALL("clusters", "K", set_clusters,
                 "clusters per set (default 12, capped at the kernel count;\n"
                 "a larger K given here is an error)"),
    CLI_ROW_CALL("seed", "S", set_seed, "seed for k-means and network initialization (default 1)"),
    CLI_ROW_CALL("restarts", "N", set_restarts, "k-means restarts (default 10)"),
    CLI_ROW_CALL("epochs", "N", set_epochs, "network training epochs (default 500)"),
    ROW(CLI_STRING, "name", "NAME", name, "model name (default: the directory's name)"),
    ROW(CLI_STRING, "source", "TEXT", source, "where the training data came from"),
    ROW(CLI_FLAG, "synthetic", NULL, synthetic, "mark the training data as synthetic"),
    ROW(CLI_STRING, "floor-kernel", "NAME", p.floor_kernel,
        "the kernel whose power is the board's floor at every\n"
        "configuration (an idle or launch-only kernel): physet\n"
        "then predicts power as floor plus a dynamic part"),
    CLI_ROW_CALL("methods", "LIST", set_methods,
                 "comma-separated methods to fit besides wu2015, which\n"
                 "every model carries; the last is recommended\n"
                 "(default: physet)"),
    ROW(CLI_FLAG, "skip-incomplete", NULL, skip_incomplete,
        "leave out, and name, kernels whose grid has a hole (else\n"
        "an error naming the first missing configuration)"),
    CLI_ROWS_PHYSET(train_cli, p.trees, p.physet_median, p.physet_line),
    ROW(CLI_COUNT, "threads", "N", p.threads,
        "threads for the build's independent parts (default: 2\n"
        "where the machine has 2 CPUs); the model is the same for\n"
        "any count"),
    CLI_ROWS_DATA,
    ROW(CLI_FLAG, "quiet", NULL, quiet, "print nothing on success"),
    CLI_ROW_FORCE,
};

static const cli_command command = {
    .prefix = "train ",
    .optstring = ":h",
    .head =
        "Usage: scalepredict train --runs FILE --counters FILE --base CFG[,CFG...]\n"
        "                          --out DIR [--memory FILE]\n"
        "                          [--clusters K] [--seed S] [--restarts N]\n"
        "                          [--epochs N] [--name NAME] [--source TEXT]\n"
        "                          [--synthetic] [--floor-kernel NAME]\n"
        "                          [--methods LIST] [--skip-incomplete]\n"
        "                          [--ignore-counter NAME] [--skip-unknown-kernels]\n"
        "                          [--quiet] [--force]\n"
        "\n"
        "Builds scaling surfaces for every kernel of runs.csv, clusters them per CU\n"
        "count and over CU scaling (k-means++, best of N restarts), trains one\n"
        "neural-network classifier per cluster set on the counters measured at the\n"
        "base configuration, and saves the model to DIR atomically.  The model also\n"
        "carries the physet method (a physical prior plus the residuals of similar\n"
        "training kernels; docs/method.md), which it recommends for prediction.\n"
        "\n",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .column = 20,
    .more = print_methods,
};

/* What training found that the user should know: clusters capped by the
 * data, counters without information, classifiers that did not learn. */
static void report_training(const sp_model *m, size_t requested) {
  size_t constant = 0;
  for (int q = SP_TIME; q <= SP_POWER; q++) {
    sp_train_summary s;
    if (sp_model_summary(m, (sp_quantity)q, &s)) continue;
    const char *what = q == SP_TIME ? "time" : "power";
    printf("%s: %zu cluster set%s of %zu", what, s.sets, s.sets == 1 ? "" : "s", s.k_min);
    if (s.k_max != s.k_min) printf(" to %zu", s.k_max);
    printf(" clusters%s\n", s.k_max < requested ? " (fewer distinct scaling surfaces than k)" : "");
    if (s.misclassified)
      fprintf(stderr,
              "scalepredict: warning: the %s classifiers did not learn their training "
              "kernels: %zu of %zu assignments differ from k-means (worst training MSE "
              "%.3g); kernels like those are predicted from the wrong cluster\n",
              what, s.misclassified, s.assignments, s.worst_mse);
    constant = s.constant_counters;
  }
  if (constant)
    fprintf(stderr,
            "scalepredict: note: %zu of %zu counters have one value over all training "
            "kernels and carry no information\n",
            constant, sp_model_counter_count(m));
}

/* The further bases, each with the methods fitted there and on how many
 * kernels, and the memory systems described. */
static void report_bases(const sp_model *m) {
  for (size_t b = 1; b < sp_model_base_count(m); b++) {
    sp_config c = sp_model_base_at(m, b);
    char cfg[64];
    sp_config_format(&c, cfg, sizeof cfg);
    printf("further base %s:", cfg);
    for (size_t i = 0, n = 0; i < sp_model_method_count(m); i++)
      if (sp_model_method_at(m, sp_model_method_name(m, i), &c))
        printf("%s %s", n++ ? "," : "", sp_model_method_name(m, i));
    printf(" (%zu of %zu training kernels have counters there)\n", sp_model_base_kernels(m, b),
           sp_model_kernel_count(m));
  }
  for (size_t i = 0; i < sp_model_memory_count(m); i++) {
    const sp_memory_system *s = sp_model_memory_at(m, i);
    printf("memory %d MHz: %s, %s, %d bits, %g GB/s, %g GB\n", s->memory_mhz, s->name, s->type,
           s->bus_bits, s->peak_gbs, s->capacity_gb);
  }
}

/* --skip-incomplete: a kernel whose time grid has a hole is left out of
 * training (*use marks the others), each named on stderr with what it
 * lacks; without it the hole is an error. */
static int drop_incomplete(const sp_dataset *ds, unsigned char **use, sp_error *err) {
  size_t n = sp_dataset_kernel_count(ds);
  if (!(*use = malloc(n + 1)))
    return sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  int st = SP_OK;
  for (size_t k = 0; k < n && !st; k++) {
    sp_surface *s;
    sp_error e;
    sp_error_clear(&e);
    int bs = sp_surface_build(ds, k, SP_TIME, &s, &e);
    sp_surface_free(s);
    (*use)[k] = bs != SP_EGRID;
    if (bs == SP_EGRID)
      fprintf(stderr, "scalepredict: note: skipped: %s\n", e.message);
    else if (bs)
      *err = e, st = bs;
  }
  return st;
}

/* An explicit --clusters above the kernel count is refused, as evaluate
 * refuses it; the default is capped (and the summary says so). */
static int check_clusters(const sp_dataset *ds, const unsigned char *use, size_t k, sp_error *err) {
  size_t n = 0;
  for (size_t i = 0; i < sp_dataset_kernel_count(ds); i++) n += !use || use[i];
  if (k <= n) return SP_OK;
  return sp_error_set(err, SP_EINVAL, sp_dataset_runs_path(ds), 0, 0, "--clusters",
                      "%zu training kernels are too few for %zu clusters: give --clusters "
                      "%zu or fewer",
                      n, k, n);
}

/* The table's options, then what holds between them; the bases into
 * c->bases (a malformed configuration is a command-line error, not a data
 * error). */
static int parse_args(train_cli *c, int argc, char **argv, int *done) {
  int rc = cli_parse_options(&command, c, argc, argv, done);
  if (rc || *done) return rc;
  if (!c->runs || !c->counters || !c->base || !c->out)
    return cli_usage_error("train ", "--runs, --counters, --base and --out are required");
  rc = cli_add_inputs("--runs", c->runs, "--counters", c->counters, "--memory", c->memory,
                      (char *)NULL);
  if (!rc) rc = cli_check_output(c->out, SP_OUTPUT_MODEL);
  if (rc) return rc;
  sp_error err;
  sp_error_clear(&err);
  size_t nbases = 0;
  if (cli_parse_config_list(c->base, c->bases, 8, &nbases, &err) || nbases == 0) {
    if (!nbases) sp_error_set(&err, SP_EINVAL, NULL, 0, 0, NULL, "no configuration");
    snprintf(err.field, sizeof err.field, "--base");
    cli_fail(&err);
    return EXIT_USAGE;
  }
  c->p.base = c->bases[0];
  c->p.extra_bases = c->bases + 1;
  c->p.nextra_bases = nbases - 1;
  return EXIT_OK;
}

int cmd_train(int argc, char **argv) {
  train_cli c = {0};
  sp_train_params_init(&c.p);
  int done, rc = parse_args(&c, argc, argv, &done);
  if (rc || done) return rc;
  unsigned char *use = NULL;
  sp_error err;
  sp_error_clear(&err);
  sp_dataset *ds = NULL;
  sp_model *m = NULL;
  sp_memory_set *ms = NULL;
  clock_t t0 = clock();
  int st = c.memory ? sp_memory_load(c.memory, &ms, &err) : SP_OK;
  c.p.memory = ms;
  if (!st) st = cli_dataset_load(c.runs, c.counters, &ds, &err);
  if (!st && c.skip_incomplete) st = drop_incomplete(ds, &use, &err);
  c.p.use_kernel = use;
  if (!st && c.clusters_given) st = check_clusters(ds, use, c.p.clusters, &err);
  if (!st) st = sp_model_train(ds, &c.p, c.quiet ? NULL : cli_progress, NULL, &m, &err);
  if (!st && c.name) st = sp_model_set_name(m, c.name);
  if (!st && (c.source || c.synthetic)) st = sp_model_set_source(m, c.source, c.synthetic);
  if (!st) st = sp_model_save(m, c.out, &err);
  if (st && !err.status) err.status = st;
  rc = st ? cli_fail(&err) : EXIT_OK;
  if (!st && !c.quiet) {
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf(
        "trained %s: %zu kernels, %zu counters, %zu configurations, base %s, k <= %zu, seed %lu "
        "(%.2f s)\n",
        c.out, sp_dataset_kernel_count(ds), sp_model_counter_count(m),
        sp_model_config_count(m, SP_TIME), c.base, c.p.clusters, c.p.seed, secs);
    if (sp_model_has_power(m))
      printf("power model on %zu configurations\n", sp_model_config_count(m, SP_POWER));
    else
      printf("no power model: the data has no complete power grid around the base\n");
    report_training(m, c.p.clusters);
    fputs("methods:", stdout);
    for (size_t i = 0; i < sp_model_method_count(m); i++)
      printf("%s %s", i ? "," : "", sp_model_method_name(m, i));
    printf("; recommended: %s\n", sp_model_recommended_method(m));
    report_bases(m);
  }
  sp_model_free(m);
  sp_memory_free(ms);
  sp_dataset_free(ds);
  free(use);
  return rc;
}
