/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_export.c: scalepredict export, the prediction matrix as CSV. */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct export_opts {
  const char *model_dir, *method, *runs, *counters, *out;
  const char *launches; /* --profile's launches.csv, or NULL */
  sp_export_params p;
} export_opts;

static void usage(void) {
  puts(
      "Usage: scalepredict export --model DIR --runs FILE --counters FILE\n"
      "       scalepredict export --model DIR --profile DIR\n"
      "                           [--method NAME] [--layout long|wide]\n"
      "                           [--with-measured] [--grid-interp N] [--out FILE]\n"
      "                           [--ignore-counter NAME] [--skip-unknown-kernels]\n"
      "                           [--force]\n"
      "\n"
      "Writes every kernel's predicted time, power and energy at every configuration\n"
      "of the model's grid as CSV that spreadsheets open without fuss: RFC 4180\n"
      "quoting where needed, LF line ends as every CSV of the tool, a header row\n"
      "whose names carry the units (time_ms, power_w, energy_mj), '.' as the\n"
      "decimal separator whatever the locale.  Every kernel is checked before anything is "
      "written.\n"
      "\n"
      "  --model DIR       saved model\n"
      "  --method NAME     prediction method the model carries (default: the model's\n"
      "                    recommended method; 'scalepredict train' prints them)\n"
      "  --runs FILE       the kernels' runs.csv (a row at the model's base)\n"
      "  --counters FILE   the kernels' counters.csv (a row at the model's base)\n"
      "  --profile DIR     what 'scalepredict profile' wrote: its runs.csv and\n"
      "                    counters.csv, and after the kernels the whole application,\n"
      "                    '(application)': time and energy summed over the kernels\n"
      "                    times launches.csv's counts, power = energy / time\n"
      "  --layout L        long (default): one row per kernel and configuration;\n"
      "                    wide: one row per kernel, columns QUANTITY@CONFIG\n"
      "  --with-measured   add the measured time and power where --runs has them and\n"
      "                    the signed errors, 100 x (predicted - measured) / measured\n"
      "  --grid-interp N   N-1 extra clocks between neighbouring grid clocks\n"
      "  --out FILE        write FILE atomically instead of standard output (a new or\n"
      "                    empty file or an older export)\n" CLI_DATA_HELP "\n" CLI_FORCE_HELP);
}

/* Notes about counters outside the training range, before the output. */
static void notes(const sp_model *m, const sp_dataset *ds) {
  double *c = malloc((sp_model_counter_count(m) + 1) * sizeof *c);
  for (size_t k = 0; c && k < sp_dataset_kernel_count(ds); k++) {
    sp_observation obs;
    sp_predict_info info;
    double t;
    sp_error err;
    sp_config base = sp_model_base(m);
    if (sp_model_observe(m, ds, k, c, &obs, &err) == SP_OK &&
        sp_model_predict(m, SP_TIME, &obs, &base, &t, &info) == SP_OK)
      cli_note_clamped(obs.kernel, info.clamped,
                       info.clamped ? sp_model_counter_name(m, info.first_clamped) : NULL);
  }
  free(c);
}

static int run(const export_opts *o) {
  sp_error err;
  sp_error_clear(&err);
  sp_model *m;
  sp_dataset *ds;
  int st = cli_load_inputs(o->model_dir, o->method, o->runs, o->counters, &m, &ds, &err);
  double *weights = NULL;
  sp_export_params p = o->p;
  if (!st && o->launches) {
    weights = malloc((sp_dataset_kernel_count(ds) + 1) * sizeof *weights);
    st = weights ? sp_workload_load(o->launches, ds, weights, &err) : (err.status = SP_ENOMEM);
    p.weights = weights;
  }
  if (!st) {
    notes(m, ds);
    st =
        o->out ? sp_export_save(m, ds, &p, o->out, &err) : sp_export_write(m, ds, &p, stdout, &err);
  }
  int rc = st ? cli_fail(&err) : EXIT_OK;
  free(weights);
  sp_dataset_free(ds);
  sp_model_free(m);
  return rc;
}

int cmd_export(int argc, char **argv) {
  static const struct option opts[] = {{"model", required_argument, 0, 'm'},
                                       {"runs", required_argument, 0, 'r'},
                                       {"counters", required_argument, 0, 'c'},
                                       {"layout", required_argument, 0, 'l'},
                                       {"with-measured", no_argument, 0, 'w'},
                                       {"grid-interp", required_argument, 0, 'g'},
                                       {"out", required_argument, 0, 'o'},
                                       {"method", required_argument, 0, 'M'},
                                       {"help", no_argument, 0, 'h'},
                                       {"force", no_argument, 0, CLI_OPT_FORCE},
                                       {"profile", required_argument, 0, 'P'},
                                       CLI_DATA_OPTIONS,
                                       {0, 0, 0, 0}};
  export_opts o = {0};
  cli_profile prof;
  sp_export_params_init(&o.p);
  unsigned long v;
  int c, rc;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    if ((rc = cli_data_option(c, optarg, "export ")) >= 0) {
      if (rc) return rc;
      continue;
    }
    switch (c) {
      case 'm':
        o.model_dir = optarg;
        break;
      case 'M':
        o.method = optarg;
        break;
      case 'r':
        o.runs = optarg;
        break;
      case 'c':
        o.counters = optarg;
        break;
      case 'o':
        o.out = optarg;
        break;
      case 'P':
        if (cli_profile_paths(optarg, "export ", &prof)) return EXIT_USAGE;
        o.runs = prof.runs;
        o.counters = prof.counters;
        o.launches = prof.launches;
        break;
      case 'w':
        o.p.with_measured = 1;
        break;
      case CLI_OPT_FORCE:
        sp_output_set_force(1);
        break;
      case 'l':
        if (!strcmp(optarg, "long"))
          o.p.layout = SP_EXPORT_LONG;
        else if (!strcmp(optarg, "wide"))
          o.p.layout = SP_EXPORT_WIDE;
        else
          return cli_usage_error("export ", "--layout must be long or wide, not '%s'", optarg);
        break;
      case 'g':
        if (cli_parse_ulong(optarg, &v) || v < 1 || v > 1000)
          return cli_usage_error("export ",
                                 "--grid-interp must be a whole number from 1 to "
                                 "1000, not '%s'",
                                 optarg);
        o.p.grid_interp = (unsigned)v;
        break;
      case 'h':
        usage();
        return EXIT_OK;
      default:
        return cli_bad_option("export ", c, argv);
    }
  }
  if (optind < argc) return cli_usage_error("export ", "unexpected argument '%s'", argv[optind]);
  if (!o.model_dir || !o.runs || !o.counters)
    return cli_usage_error("export ",
                           "--model, and --runs and --counters (or --profile), are "
                           "required");
  const char *data = o.launches ? "--profile" : "--runs";
  rc = cli_add_inputs("--profile", o.launches ? prof.dir : NULL, "--model", o.model_dir, data,
                      o.runs, data, o.counters, data, o.launches, (char *)NULL);
  if (!rc && o.out) rc = cli_check_output(o.out, SP_OUTPUT_EXPORT);
  if (rc) return rc;
  return run(&o);
}
