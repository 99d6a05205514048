/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_default.c: the main job, "scalepredict --base CFG --target CFG", on the
 * bundled default model and its bundled sample kernels. */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define DEFAULT_MODEL "hd7970-synth"

int cmd_default(int argc, char **argv) {
  static const struct option opts[] = {{"base", required_argument, 0, 'b'},
                                       {"target", required_argument, 0, 't'},
                                       {"kernel", required_argument, 0, 'k'},
                                       {"format", required_argument, 0, 'f'},
                                       {0, 0, 0, 0}};
  predict_opts o = {0};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
    switch (c) {
      case 'b':
        o.base = optarg;
        break;
      case 't':
        o.target = optarg;
        break;
      case 'k':
        o.kernel = optarg;
        break;
      case 'f':
        if (cli_parse_format(optarg, &o.format))
          return cli_usage_error(NULL, "--format must be table, csv or json, not '%s'", optarg);
        break;
      default:
        return cli_bad_option(NULL, c, argv);
    }
  }
  if (optind < argc) return cli_usage_error(NULL, "unexpected argument '%s'", argv[optind]);
  if (!o.target) return cli_usage_error(NULL, "--target is required (a configuration or 'all')");
  const char *root = cli_data_root();
  if (!root) {
    fprintf(stderr,
            "scalepredict: the bundled model '%s' was not found (looked under "
            "$SCALEPREDICT_DATADIR, beside the program, and %s/models); build it "
            "with 'make' or set SCALEPREDICT_DATADIR\n",
            DEFAULT_MODEL, SP_PKGDATADIR);
    return EXIT_MODEL;
  }
  char model[PATH_MAX], runs[PATH_MAX], counters[PATH_MAX];
  snprintf(model, sizeof model, "%s/models/%s", root, DEFAULT_MODEL);
  snprintf(runs, sizeof runs, "%s/models/%s-samples/runs.csv", root, DEFAULT_MODEL);
  snprintf(counters, sizeof counters, "%s/models/%s-samples/counters.csv", root, DEFAULT_MODEL);
  o.model_dir = model;
  o.runs = runs;
  o.counters = counters;
  o.main_job = 1;
  return cli_predict_run(&o);
}
