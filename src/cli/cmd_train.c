/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_train.c: scalepredict train. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static void usage(void) {
  puts(
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
      "\n"
      "  --runs FILE       kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
      "  --counters FILE   kernel,cu,engine_mhz,memory_mhz,<counter>...\n"
      "  --base CFG[,CFG...]\n"
      "                    base configuration, e.g. 32cu/1000/1375; with more than\n"
      "                    one (at most 8), the first is the model's base and\n"
      "                    physet is also fitted at each further one, on the\n"
      "                    kernels with counters there, so that the model predicts\n"
      "                    from a measurement at any of them (132cu/1980/2619,\n"
      "                    132cu/1980/3201: from an H100 run or an H200 run);\n"
      "                    wu2015 predicts from the first only\n"
      "  --memory FILE     memory.csv: memory_mhz,name,type,bus_bits,peak_gbs,\n"
      "                    capacity_gb, one row per memory clock of the grid; the\n"
      "                    model records the memory systems and physet scales the\n"
      "                    memory step by peak bandwidth, not by the clock\n"
      "                    (docs/method.md, \"physet: the memory axis\")\n"
      "  --out DIR         model directory to write: a new or empty directory or an\n"
      "                    older model, replaced atomically\n"
      "  --clusters K      clusters per set (default 12, capped at the kernel count;\n"
      "                    a larger K given here is an error)\n"
      "  --seed S          seed for k-means and network initialization (default 1)\n"
      "  --restarts N      k-means restarts (default 10)\n"
      "  --epochs N        network training epochs (default 500)\n"
      "  --name NAME       model name (default: the directory's name)\n"
      "  --source TEXT     where the training data came from\n"
      "  --synthetic       mark the training data as synthetic\n"
      "  --floor-kernel NAME\n"
      "                    the kernel whose power is the board's floor at every\n"
      "                    configuration (an idle or launch-only kernel): physet\n"
      "                    then predicts power as floor plus a dynamic part\n"
      "  --methods LIST    comma-separated methods to fit besides wu2015, which\n"
      "                    every model carries; the last is recommended\n"
      "                    (default: physet)\n"
      "  --skip-incomplete leave out, and name, kernels whose grid has a hole (else\n"
      "                    an error naming the first missing configuration)\n" CLI_DATA_HELP
      "\n"
      "  --quiet           print nothing on success\n" CLI_FORCE_HELP);
  fputs("\nMethods:", stdout);
  for (size_t i = 0; sp_train_method_name(i); i++) printf(" %s", sp_train_method_name(i));
  putchar('\n');
}

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

int cmd_train(int argc, char **argv) {
  static const struct option opts[] = {{"runs", required_argument, 0, 'r'},
                                       {"counters", required_argument, 0, 'c'},
                                       {"base", required_argument, 0, 'b'},
                                       {"out", required_argument, 0, 'o'},
                                       {"clusters", required_argument, 0, 'k'},
                                       {"seed", required_argument, 0, 's'},
                                       {"restarts", required_argument, 0, 'R'},
                                       {"epochs", required_argument, 0, 'e'},
                                       {"name", required_argument, 0, 'n'},
                                       {"source", required_argument, 0, 'S'},
                                       {"synthetic", no_argument, 0, 'y'},
                                       {"quiet", no_argument, 0, 'q'},
                                       {"floor-kernel", required_argument, 0, 'f'},
                                       {"methods", required_argument, 0, 'M'},
                                       {"skip-incomplete", no_argument, 0, 'I'},
                                       {"memory", required_argument, 0, 'Y'},
                                       CLI_DATA_OPTIONS,
                                       {"help", no_argument, 0, 'h'},
                                       {"force", no_argument, 0, CLI_OPT_FORCE},
                                       {0, 0, 0, 0}};
  const char *runs = NULL, *counters = NULL, *base = NULL, *out = NULL, *memory = NULL;
  sp_error merr; /* --methods */
  const char *name = NULL, *source = NULL;
  int synthetic = 0, quiet = 0, skip_incomplete = 0, clusters_given = 0, c, rc;
  unsigned char *use = NULL;
  unsigned long v;
  sp_train_params p;
  sp_train_params_init(&p);
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    if ((rc = cli_data_option(c, optarg, "train ")) >= 0) {
      if (rc) return rc;
      continue;
    }
    switch (c) {
      case 'r':
        runs = optarg;
        break;
      case 'c':
        counters = optarg;
        break;
      case 'b':
        base = optarg;
        break;
      case 'o':
        out = optarg;
        break;
      case 'n':
        name = optarg;
        break;
      case 'S':
        source = optarg;
        break;
      case 'y':
        synthetic = 1;
        break;
      case 'q':
        quiet = 1;
        break;
      case 'I':
        skip_incomplete = 1;
        break;
      case 'Y':
        memory = optarg;
        break;
      case CLI_OPT_FORCE:
        sp_output_set_force(1);
        break;
      case 'f':
        p.floor_kernel = optarg;
        break;
      case 'M':
        if (sp_train_params_set_methods(&p, optarg, &merr))
          return cli_usage_error("train ", "--methods: %s", merr.message);
        break;
      case 'k':
        if (cli_parse_ulong(optarg, &v) || v < 1)
          return cli_usage_error("train ", "--clusters needs a positive integer, not '%s'", optarg);
        p.clusters = v;
        clusters_given = 1;
        break;
      case 's':
        if (cli_parse_ulong(optarg, &v))
          return cli_usage_error("train ", "--seed needs a non-negative integer, not '%s'", optarg);
        p.seed = v;
        break;
      case 'R':
      case 'e':
        if (cli_parse_ulong(optarg, &v) || v < 1 || v > 1000000)
          return cli_usage_error("train ", "--%s needs an integer from 1 to 1000000",
                                 c == 'R' ? "restarts" : "epochs");
        if (c == 'R')
          p.restarts = (unsigned)v;
        else
          p.max_epochs = (unsigned)v;
        break;
      case 'h':
        usage();
        return EXIT_OK;
      default:
        return cli_bad_option("train ", c, argv);
    }
  }
  if (optind < argc) return cli_usage_error("train ", "unexpected argument '%s'", argv[optind]);
  if (!runs || !counters || !base || !out)
    return cli_usage_error("train ", "--runs, --counters, --base and --out are required");
  rc = cli_add_inputs("--runs", runs, "--counters", counters, "--memory", memory, (char *)NULL);
  if (!rc) rc = cli_check_output(out, SP_OUTPUT_MODEL);
  if (rc) return rc;
  sp_error err;
  sp_error_clear(&err);
  /* A malformed configuration is a command-line error, not a data error. */
  sp_config bases[8];
  size_t nbases = 0;
  if (cli_parse_config_list(base, bases, 8, &nbases, &err) || nbases == 0) {
    if (!nbases) sp_error_set(&err, SP_EINVAL, NULL, 0, 0, NULL, "no configuration");
    snprintf(err.field, sizeof err.field, "--base");
    cli_fail(&err);
    return EXIT_USAGE;
  }
  p.base = bases[0];
  p.extra_bases = bases + 1;
  p.nextra_bases = nbases - 1;
  sp_dataset *ds = NULL;
  sp_model *m = NULL;
  sp_memory_set *ms = NULL;
  clock_t t0 = clock();
  int st = memory ? sp_memory_load(memory, &ms, &err) : SP_OK;
  p.memory = ms;
  if (!st) st = cli_dataset_load(runs, counters, &ds, &err);
  if (!st && skip_incomplete) st = drop_incomplete(ds, &use, &err);
  p.use_kernel = use;
  if (!st && clusters_given) st = check_clusters(ds, use, p.clusters, &err);
  if (!st) st = sp_model_train(ds, &p, quiet ? NULL : cli_progress, NULL, &m, &err);
  if (!st && name) st = sp_model_set_name(m, name);
  if (!st && (source || synthetic)) st = sp_model_set_source(m, source, synthetic);
  if (!st) st = sp_model_save(m, out, &err);
  if (st && !err.status) err.status = st;
  rc = st ? cli_fail(&err) : EXIT_OK;
  if (!st && !quiet) {
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf(
        "trained %s: %zu kernels, %zu counters, %zu configurations, base %s, k <= %zu, seed %lu "
        "(%.2f s)\n",
        out, sp_dataset_kernel_count(ds), sp_model_counter_count(m),
        sp_model_config_count(m, SP_TIME), base, p.clusters, p.seed, secs);
    if (sp_model_has_power(m))
      printf("power model on %zu configurations\n", sp_model_config_count(m, SP_POWER));
    else
      printf("no power model: the data has no complete power grid around the base\n");
    report_training(m, p.clusters);
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
