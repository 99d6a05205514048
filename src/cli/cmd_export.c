/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_export.c: scalepredict export, the prediction matrix as CSV. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct export_opts {
  const char *model_dir, *method, *runs, *counters, *out;
  const char *launches; /* --profile's launches.csv, or NULL */
  sp_export_params p;
  cli_profile prof;
} export_opts;

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
  if (!st && o->launches) st = cli_profile_counts_check(o->launches, o->runs, ds, &err);
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

/* The options' setters that check their values (cli_option). */
static int set_profile(void *ctx, const char *arg, const char *cmd) {
  export_opts *o = ctx;
  if (cli_profile_paths(arg, cmd, &o->prof)) return EXIT_USAGE;
  o->runs = o->prof.runs;
  o->counters = o->prof.counters;
  o->launches = o->prof.launches;
  return EXIT_OK;
}

static int set_layout(void *ctx, const char *arg, const char *cmd) {
  export_opts *o = ctx;
  if (!strcmp(arg, "long"))
    o->p.layout = SP_EXPORT_LONG;
  else if (!strcmp(arg, "wide"))
    o->p.layout = SP_EXPORT_WIDE;
  else
    return cli_usage_error(cmd, "--layout must be long or wide, not '%s'", arg);
  return EXIT_OK;
}

static int set_grid_interp(void *ctx, const char *arg, const char *cmd) {
  return cli_set_grid_interp(arg, cmd, &((export_opts *)ctx)->p.grid_interp);
}

#define ROW(kind, name, arg, field, help) CLI_ROW(kind, name, arg, export_opts, field, help)
static const cli_option options[] = {
    ROW(CLI_STRING, "model", "DIR", model_dir, "saved model"),
    ROW(CLI_STRING, "method", "NAME", method,
        "prediction method the model carries (default: the model's\n"
        "recommended method; 'scalepredict train' prints them)"),
    ROW(CLI_STRING, "runs", "FILE", runs, "the kernels' runs.csv (a row at the model's base)"),
    ROW(CLI_STRING, "counters", "FILE", counters,
        "the kernels' counters.csv (a row at the model's base)"),
    CLI_ROW_CALL("profile", "DIR", set_profile,
                 "what 'scalepredict profile' wrote: its runs.csv and\n"
                 "counters.csv, and after the kernels the whole application,\n"
                 "'(application)': time and energy summed over the kernels\n"
                 "times launches.csv's counts, power = energy / time"),
    CLI_ROW_CALL("layout", "L", set_layout,
                 "long (default): one row per kernel and configuration;\n"
                 "wide: one row per kernel, columns QUANTITY@CONFIG"),
    ROW(CLI_FLAG, "with-measured", NULL, p.with_measured,
        "add the measured time and power where --runs has them and\n"
        "the signed errors, 100 x (predicted - measured) / measured"),
    CLI_ROW_CALL("grid-interp", "N", set_grid_interp,
                 "N-1 extra clocks between neighbouring grid clocks"),
    ROW(CLI_STRING, "out", "FILE", out,
        "write FILE atomically instead of standard output (a new or\n"
        "empty file or an older export)"),
    CLI_ROWS_DATA,
    CLI_ROW_FORCE,
};

static const cli_command command = {
    .prefix = "export ",
    .optstring = ":h",
    .head =
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
        "decimal separator whatever the locale.  Every kernel is checked before "
        "anything is written.\n"
        "\n",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .column = 20,
};

/* The table's options, then what holds between them. */
int cmd_export(int argc, char **argv) {
  export_opts o = {0};
  sp_export_params_init(&o.p);
  int done, rc = cli_parse_options(&command, &o, argc, argv, &done);
  if (rc || done) return rc;
  if (!o.model_dir || !o.runs || !o.counters)
    return cli_usage_error("export ",
                           "--model, and --runs and --counters (or --profile), are "
                           "required");
  /* Each input by the option that named it: --profile names all three. */
  const int prof = o.launches != NULL;
  rc = cli_add_inputs("--profile", prof ? o.prof.dir : NULL, "--model", o.model_dir,
                      prof ? "--profile" : "--runs", o.runs, prof ? "--profile" : "--counters",
                      o.counters, "--profile", o.launches, (char *)NULL);
  if (!rc && o.out) rc = cli_check_output(o.out, SP_OUTPUT_EXPORT);
  if (rc) return rc;
  return run(&o);
}
