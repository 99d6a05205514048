/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c: scalepredict's entry point and subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *fp) {
  fputs(
      "Usage: scalepredict [--base CFG] --target CFG|all [--format table|csv|json]\n"
      "       scalepredict COMMAND [OPTIONS]\n"
      "\n"
      "Predicts a GPU kernel's run time and power at other hardware configurations\n"
      "(compute units x engine clock x memory clock) from one measurement at a base\n"
      "configuration.  Configurations are written CUcu/ENGINE/MEMORY, for example\n"
      "32cu/1000/1375 (32 compute units, 1000 MHz engine, 1375 MHz memory).\n"
      "\n"
      "Without a command it runs the bundled default model on its bundled sample\n"
      "kernels and prints, per kernel, the base time, the predicted time and power at\n"
      "the target, and the measured values where the sample data has them.\n"
      "\n"
      "Commands:\n"
      "  train     build a model from runs.csv and counters.csv\n"
      "  predict   predict new kernels with a saved model\n"
      "  surfaces  write the kernels' scaling surfaces as CSV\n"
      "  evaluate  measure accuracy on held-out kernels, with baselines and plots\n"
      "  dse       design-space exploration: best configurations, Pareto fronts,\n"
      "            sensitivity, candidate ranking, HTML report\n"
      "  governor  replay a kernel trace through DVFS / power-gating policies\n"
      "  export    the prediction matrix (kernels x configurations) as CSV\n"
      "  plan      the next configurations of an adaptive measurement campaign\n"
      "  complete  every kernel's surface completed from what was measured\n"
      "  profile   profile your own application for a model (ncu, rocprofv3)\n"
      "  estimate  a kernel's times from its code alone (PTX): a static estimate\n"
      "  info      what a model needs and gives: grid, base, methods, counters and\n"
      "            the profiler metrics behind them, training kernels, provenance\n"
      "  models    list the bundled models\n"
      "\n"
      "Run 'scalepredict COMMAND --help' for a command's options.\n"
      "  -h, --help     show this help\n"
      "  -V, --version  show the version\n"
      "\n"
      "Exit status: 0 success, 1 usage error, 2 invalid input data, 3 invalid model,\n"
      "4 I/O or system error, 5 numerical failure.\n",
      fp);
}

static int dispatch(int argc, char **argv) {
  if (argc >= 2) {
    const char *c = argv[1];
    if (!strcmp(c, "train")) return cmd_train(argc - 1, argv + 1);
    if (!strcmp(c, "predict")) return cmd_predict(argc - 1, argv + 1);
    if (!strcmp(c, "surfaces")) return cmd_surfaces(argc - 1, argv + 1);
    if (!strcmp(c, "evaluate")) return cmd_evaluate(argc - 1, argv + 1);
    if (!strcmp(c, "dse")) return cmd_dse(argc - 1, argv + 1);
    if (!strcmp(c, "governor")) return cmd_governor(argc - 1, argv + 1);
    if (!strcmp(c, "export")) return cmd_export(argc - 1, argv + 1);
    if (!strcmp(c, "plan")) return cmd_plan(argc - 1, argv + 1);
    if (!strcmp(c, "complete")) return cmd_complete(argc - 1, argv + 1);
    if (!strcmp(c, "profile")) return cmd_profile(argc - 1, argv + 1);
    if (!strcmp(c, "estimate")) return cmd_estimate(argc - 1, argv + 1);
    if (!strcmp(c, "info")) return cmd_info(argc - 1, argv + 1);
    if (!strcmp(c, "models")) return cmd_models(argc - 1, argv + 1);
    if (!strcmp(c, "-h") || !strcmp(c, "--help") || !strcmp(c, "help")) {
      usage(stdout);
      return EXIT_OK;
    }
    if (!strcmp(c, "-V") || !strcmp(c, "--version")) {
      printf("scalepredict %s\n", SP_VERSION_STRING);
      return EXIT_OK;
    }
    if (c[0] != '-') return cli_usage_error(NULL, "unknown command '%s'", c);
  }
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  return cmd_default(argc, argv);
}

int main(int argc, char **argv) {
  cli_install_cleanup();
  return cli_close_stdout(dispatch(argc, argv));
}
