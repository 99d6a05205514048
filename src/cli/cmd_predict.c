/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_predict.c: scalepredict predict, and the output of predictions. */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One predicted (kernel, target) pair. */
typedef struct row {
  const char *kernel;
  sp_config target;
  double base_time, time, measured_time; /* NaN when absent */
  double base_power, power, measured_power;
  double time_lo, time_hi, power_lo, power_hi; /* 90% intervals, NaN: none */
  double novelty;                              /* sp_predict_info */
  int outside;
  int in_training; /* the kernel was in the model's training data */
  size_t clamped;  /* its counters clamped to the training range */
} row;

typedef struct targets {
  size_t n;
  sp_config *cfg;
} targets;

/* The application of a profile at each target: sums over its kernels
 * weighted by their launch counts (time, and energy = time x power), and
 * the time interval's ends summed likewise (docs/profile.md). */
typedef struct app_sum {
  double base_time, time, time_lo, time_hi, base_energy, energy;
} app_sum;

/* What one kernel's rows need besides its values at the targets. */
typedef struct kernel_pred {
  size_t k; /* in the dataset */
  const char *name;
  double base_time, base_power;
  sp_predict_info info;
  int in_training;
} kernel_pred;

/* A kernel's values at one target: the predictions and their intervals. */
enum { V_TIME, V_TIME_LO, V_TIME_HI, V_POWER, V_POWER_LO, V_POWER_HI, NVAL };

/* Every prediction of the command, made before the first byte is printed,
 * so that a kernel that cannot be predicted leaves no partial output. */
typedef struct predictions {
  size_t nk, nt;
  kernel_pred *kern;
  double *v;    /* nk x nt x NVAL */
  app_sum *app; /* per target, with weights */
} predictions;

typedef struct printer {
  const predict_opts *o;
  const sp_model *m;
  size_t count;
  size_t in_training; /* rows of kernels the model was trained on */
  size_t name_width;  /* the table's kernel column, in characters */
} printer;

/* The table's kernel column: as wide as the longest name shown (34
 * characters at least), but no wider than 64; a longer name is shortened
 * in the middle (CSV and JSON give it whole). */
#define NAME_COLUMN_MIN 34
#define NAME_COLUMN_MAX 64

/* Signed, as export and the evaluation's records: positive when the
 * prediction is above the measurement. */
static double pct_error(double pred, double meas) {
  return isnan(pred) || isnan(meas) ? NAN : 100.0 * (pred - meas) / meas;
}

/* A value that has none, or none that is finite, is written as none. */
/* A signed error shown to one decimal: one that rounds to zero is 0.0,
 * not -0.0. */
static double one_decimal(double v) {
  double r = round(v * 10.0) / 10.0;
  return r == 0 ? 0.0 : r;
}

static void put_num(FILE *fp, double v, const char *fmt, const char *none) {
  if (!isfinite(v))
    fputs(none, fp);
  else
    fprintf(fp, fmt, v);
}

static void print_begin(printer *p) {
  const sp_model *m = p->m;
  char base[64];
  sp_config cb = sp_model_base(m);
  sp_config_format(&cb, base, sizeof base);
  if (p->o->format == FMT_CSV) {
    puts(
        "kernel,target,base_time_ms,time_ms,measured_time_ms,time_error_pct,"
        "base_power_w,power_w,measured_power_w,power_error_pct,"
        "time_lo90_ms,time_hi90_ms,power_lo90_w,power_hi90_w,novelty,outside_training,"
        "in_training,clamped_counters");
  } else if (p->o->format == FMT_JSON) {
    printf("{\"model\":");
    sp_json_write_string(stdout, sp_model_name(m));
    printf(",\"synthetic\":%s,\"source\":", sp_model_is_synthetic(m) ? "true" : "false");
    sp_json_write_string(stdout, sp_model_source(m));
    printf(",\"base\":\"%s\",\"has_power\":%s,\"predictions\":[", base,
           sp_model_has_power(m) ? "true" : "false");
  } else {
    printf("model %s, base %s\n", sp_model_name(m), base);
    if (sp_model_is_synthetic(m))
      printf("note: this model was trained on SYNTHETIC data (%s), not on measurements\n",
             *sp_model_source(m) ? sp_model_source(m) : "no source recorded");
    if (!sp_model_has_power(m)) puts("this model has no power model: power is not predicted");
    printf("%-*s %-15s %11s %11s %23s %11s %7s %9s %9s %7s\n", (int)p->name_width, "kernel",
           "target", "base_ms", "pred_ms", "90% interval ms", "meas_ms", "err%", "pred_W", "meas_W",
           "err%");
  }
}

static void print_row(printer *p, const row *r) {
  char target[64];
  sp_config_format(&r->target, target, sizeof target);
  double te = pct_error(r->time, r->measured_time);
  double pe = pct_error(r->power, r->measured_power);
  FILE *o = stdout;
  if (p->o->format == FMT_CSV) {
    sp_csv_write_field(o, r->kernel);
    fprintf(o, ",%s,", target);
    const double v[13] = {r->base_time,  r->time,    r->measured_time,  te,
                          r->base_power, r->power,   r->measured_power, pe,
                          r->time_lo,    r->time_hi, r->power_lo,       r->power_hi,
                          r->novelty};
    for (int i = 0; i < 13; i++) {
      put_num(o, v[i], "%.6g", "");
      fputc(',', o);
    }
    fprintf(o, "%d,%d,%zu\n", r->outside, r->in_training, r->clamped);
  } else if (p->o->format == FMT_JSON) {
    static const char *const keys[13] = {
        "base_time_ms", "time_ms",          "measured_time_ms", "time_error_pct", "base_power_w",
        "power_w",      "measured_power_w", "power_error_pct",  "time_lo90_ms",   "time_hi90_ms",
        "power_lo90_w", "power_hi90_w",     "novelty"};
    const double v[13] = {r->base_time,  r->time,    r->measured_time,  te,
                          r->base_power, r->power,   r->measured_power, pe,
                          r->time_lo,    r->time_hi, r->power_lo,       r->power_hi,
                          r->novelty};
    fputs(p->count ? ",\n{\"kernel\":" : "\n{\"kernel\":", o);
    sp_json_write_string(o, r->kernel);
    fprintf(o, ",\"target\":\"%s\"", target);
    for (int i = 0; i < 13; i++) {
      fprintf(o, ",\"%s\":", keys[i]);
      put_num(o, v[i], "%.6g", "null");
    }
    fprintf(o, ",\"outside_training\":%s,\"in_training\":%s,\"clamped_counters\":%zu}",
            r->outside ? "true" : "false", r->in_training ? "true" : "false", r->clamped);
  } else {
    cli_put_cell(o, r->kernel, p->name_width);
    fprintf(o, " %-15s ", target);
    put_num(o, r->base_time, "%11.4g ", "          - ");
    put_num(o, r->time, "%11.4g ", "          - ");
    if (isnan(r->time_lo))
      fprintf(o, "%23s ", "-");
    else
      fprintf(o, "%10.4g .. %-10.4g ", r->time_lo, r->time_hi);
    put_num(o, r->measured_time, "%11.4g ", "          - ");
    put_num(o, one_decimal(te), "%7.1f ", "      - ");
    put_num(o, r->power, "%9.4g ", "        - ");
    put_num(o, r->measured_power, "%9.4g ", "        - ");
    put_num(o, one_decimal(pe), "%7.1f", "      -");
    fputs(r->in_training ? "  *" : "", o);
    fputs(r->outside ? "  outside the training data\n" : "\n", o);
  }
  p->count++;
  p->in_training += r->in_training != 0;
}

/* One row per target for the whole application: its time with an interval,
 * and its average power (energy / time; energy itself is time x power). */
static void print_application(printer *p, const predictions *pd, const targets *t) {
  for (size_t i = 0; pd->app && i < t->n; i++) {
    const app_sum *a = &pd->app[i];
    row r = {"(application)",
             t->cfg[i],
             a->base_time,
             a->time,
             NAN,
             a->base_energy / a->base_time,
             a->energy / a->time,
             NAN,
             a->time_lo,
             a->time_hi,
             NAN,
             NAN,
             NAN,
             0,
             0,
             0};
    print_row(p, &r);
  }
}

static void print_end(printer *p) {
  if (p->o->format == FMT_JSON) puts("\n]}");
  if (p->o->format == FMT_TABLE && p->in_training)
    puts(
        "* a kernel of the model's training data: its errors are in-sample and say "
        "nothing of\n  the model's accuracy on new kernels (scalepredict evaluate "
        "measures that)");
}

/* Measured value of kernel k at cfg, NaN when the data has none. */
static double measured(const sp_dataset *ds, size_t k, const sp_config *c, sp_quantity q) {
  double v;
  int st = q == SP_TIME ? sp_dataset_time(ds, k, c, &v) : sp_dataset_power(ds, k, c, &v);
  return st ? NAN : v;
}

static void warn_clamped(const sp_model *m, const char *kernel, const sp_predict_info *info) {
  if (info->novelty > 1) {
    fputs("scalepredict: note: kernel '", stderr);
    cli_put_text(stderr, kernel);
    fprintf(stderr,
            "' is unlike every training kernel (novelty %.2f > 1): trust its prediction less "
            "than the accuracy tables say\n",
            info->novelty);
  }
  if (info->clamped)
    cli_note_clamped(kernel, info->clamped, sp_model_counter_name(m, info->first_clamped));
}

/* The configurations --use-measured names (all: the model's grid). */
typedef struct measured_set {
  size_t n;
  sp_config *cfg; /* requested */
  sp_config *got; /* scratch for sp_model_observe_more */
  double *time, *power;
} measured_set;

/* Where the scratch for one kernel lives while it is predicted. */
typedef struct predictor {
  const sp_model *m;
  const sp_dataset *ds;
  const predict_opts *o;
  const targets *t;
  const measured_set *ms;
  const double *weights; /* per dataset kernel, or NULL */
  double *counters, *st_time, *st_power;
  predictions *pd;
} predictor;

/* A prediction that is not a positive finite number: named by kernel,
 * quantity and the first configuration of the model's grid where it
 * failed (a method fills its output before it is checked). */
static int numeric_failure(const predictor *pr, sp_quantity q, const char *kernel, const double *v,
                           sp_error *err) {
  size_t n = sp_model_config_count(pr->m, q), i = 0;
  while (i < n && isfinite(v[i]) && v[i] > 0) i++;
  char cfg[64] = "a configuration of the model's grid";
  if (i < n) {
    sp_config c = sp_model_config_at(pr->m, q, i);
    sp_config_format(&c, cfg, sizeof cfg);
  }
  return sp_error_set(err, SP_ENUMERIC, pr->o->runs, 0, 0, "kernel",
                      "kernel '%s': its predicted %s at %s is not a positive finite number "
                      "(numerical failure: the model's scaling values or the kernel's base "
                      "measurements are extreme)",
                      kernel, q == SP_TIME ? "time" : "power", cfg);
}

/* Predicts q over the model's grid with intervals into scratch (values,
 * then lows, then highs); SP_ENOPOWER when the kernel has no power. */
static int predict_grid(const predictor *pr, sp_quantity q, const sp_observation *obs,
                        double *scratch, sp_predict_info *info, sp_error *err) {
  const size_t g = sp_model_config_count(pr->m, q);
  if (q == SP_POWER && (!sp_model_has_power(pr->m) || isnan(obs->base_power_w))) return SP_ENOPOWER;
  int st = sp_model_predict_interval(pr->m, q, obs, scratch, scratch + g, scratch + 2 * g, info);
  if (st == SP_ENUMERIC) return numeric_failure(pr, q, obs->kernel, scratch, err);
  if (st && q == SP_TIME && !err->status)
    sp_error_set(err, st, pr->o->runs, 0, 0, "kernel", "kernel '%s' cannot be predicted: %s",
                 obs->kernel, sp_strerror(st));
  return st;
}

/* The values at each target of kernel k, into row i of the predictions. */
static void keep_values(predictor *pr, size_t i, int power) {
  const sp_model *m = pr->m;
  const size_t gt = sp_model_config_count(m, SP_TIME), gp = sp_model_config_count(m, SP_POWER);
  for (size_t j = 0; j < pr->t->n; j++) {
    double *v = pr->pd->v + (i * pr->t->n + j) * NVAL;
    size_t ti = sp_model_config_index(m, SP_TIME, &pr->t->cfg[j]);
    size_t pi = power ? sp_model_config_index(m, SP_POWER, &pr->t->cfg[j]) : (size_t)-1;
    v[V_TIME] = pr->st_time[ti];
    v[V_TIME_LO] = pr->st_time[gt + ti];
    v[V_TIME_HI] = pr->st_time[2 * gt + ti];
    v[V_POWER] = pi != (size_t)-1 ? pr->st_power[pi] : NAN;
    v[V_POWER_LO] = pi != (size_t)-1 ? pr->st_power[gp + pi] : NAN;
    v[V_POWER_HI] = pi != (size_t)-1 ? pr->st_power[2 * gp + pi] : NAN;
  }
}

/* Adds row i's kernel, times its launch count, to the application (a kernel
 * the workload does not launch adds nothing); the sums must stay finite. */
static int add_application(predictor *pr, size_t i, sp_error *err) {
  const kernel_pred *kp = &pr->pd->kern[i];
  double w = pr->weights[kp->k];
  if (!(w > 0)) return SP_OK;
  for (size_t j = 0; j < pr->t->n; j++) {
    const double *v = pr->pd->v + (i * pr->t->n + j) * NVAL;
    app_sum *a = &pr->pd->app[j];
    a->base_time += w * kp->base_time;
    a->time += w * v[V_TIME];
    a->time_lo += w * v[V_TIME_LO];
    a->time_hi += w * v[V_TIME_HI];
    a->base_energy += w * kp->base_time * kp->base_power;
    a->energy += w * v[V_TIME] * v[V_POWER];
    if (isinf(a->time) || isinf(a->energy)) {
      char cfg[64];
      sp_config_format(&pr->t->cfg[j], cfg, sizeof cfg);
      return sp_error_set(err, SP_ENUMERIC, pr->o->runs, 0, 0, "kernel",
                          "the application's time or energy at %s overflows with kernel '%s' "
                          "(numerical failure)",
                          cfg, kp->name);
    }
  }
  return SP_OK;
}

/* Predicts dataset kernel k at every target into row i. */
static int predict_kernel(predictor *pr, size_t i, size_t k, sp_error *err) {
  const sp_model *m = pr->m;
  const measured_set *ms = pr->ms;
  sp_observation obs;
  kernel_pred *kp = &pr->pd->kern[i];
  int st = sp_model_observe(m, pr->ds, k, pr->counters, &obs, err);
  if (st) return st;
  if (ms->n)
    sp_model_observe_more(m, pr->ds, k, ms->cfg, ms->n, ms->got, ms->time, ms->power, &obs);
  obs.floor_w = pr->o->floor_w;
  st = predict_grid(pr, SP_TIME, &obs, pr->st_time, &kp->info, err);
  int pst = st ? st : predict_grid(pr, SP_POWER, &obs, pr->st_power, NULL, err);
  if (st || pst == SP_ENUMERIC) return st ? st : pst;
  *kp = (kernel_pred){k,
                      obs.kernel,
                      obs.base_time_ms,
                      obs.base_power_w,
                      kp->info,
                      sp_model_trained_on(m, obs.kernel)};
  keep_values(pr, i, pst == SP_OK);
  return pr->weights ? add_application(pr, i, err) : SP_OK;
}

/* Every kernel from k0 to k1 at every target, before anything is printed. */
static int predict_all(predictor *pr, size_t k0, size_t k1, sp_error *err) {
  predictions *pd = pr->pd;
  const sp_model *m = pr->m;
  pd->nk = k1 - k0;
  pd->nt = pr->t->n;
  pd->kern = calloc(pd->nk + 1, sizeof *pd->kern);
  pd->v = malloc((pd->nk * pd->nt * NVAL + 1) * sizeof *pd->v);
  pd->app = pr->weights ? calloc(pd->nt + 1, sizeof *pd->app) : NULL;
  pr->counters = malloc((sp_model_counter_count(m) + 1) * sizeof(double));
  pr->st_time = malloc((3 * sp_model_config_count(m, SP_TIME) + 1) * sizeof(double));
  pr->st_power = malloc((3 * sp_model_config_count(m, SP_POWER) + 1) * sizeof(double));
  if (!pd->kern || !pd->v || (pr->weights && !pd->app) || !pr->counters || !pr->st_time ||
      !pr->st_power)
    return err->status = SP_ENOMEM;
  int st = SP_OK;
  for (size_t k = k0; k < k1 && !st; k++) st = predict_kernel(pr, k - k0, k, err);
  if (st && !err->status) err->status = st;
  return st;
}

static void predictor_free(predictor *pr) {
  free(pr->counters);
  free(pr->st_time);
  free(pr->st_power);
  free(pr->pd->kern);
  free(pr->pd->v);
  free(pr->pd->app);
}

/* Prints what predict_all made: the kernels' rows, then the application's. */
static void print_all(printer *p, const predictor *pr) {
  const predictions *pd = pr->pd;
  /* The notes come once every prediction has succeeded: a failure is one
   * line on standard error. */
  for (size_t i = 0; i < pd->nk; i++) warn_clamped(pr->m, pd->kern[i].name, &pd->kern[i].info);
  size_t longest = pd->app ? strlen("(application)") : 0;
  for (size_t i = 0; i < pd->nk; i++) {
    size_t w = cli_text_width(pd->kern[i].name);
    if (w > longest) longest = w;
  }
  p->name_width = cli_column_width(longest, NAME_COLUMN_MIN, NAME_COLUMN_MAX);
  print_begin(p);
  for (size_t i = 0; i < pd->nk; i++) {
    const kernel_pred *kp = &pd->kern[i];
    for (size_t j = 0; j < pd->nt; j++) {
      const double *v = pd->v + (i * pd->nt + j) * NVAL;
      const sp_config *c = &pr->t->cfg[j];
      row r = {kp->name,
               *c,
               kp->base_time,
               v[V_TIME],
               measured(pr->ds, kp->k, c, SP_TIME),
               kp->base_power,
               v[V_POWER],
               measured(pr->ds, kp->k, c, SP_POWER),
               v[V_TIME_LO],
               v[V_TIME_HI],
               v[V_POWER_LO],
               v[V_POWER_HI],
               kp->info.novelty,
               kp->info.outside,
               kp->in_training,
               kp->info.clamped};
      print_row(p, &r);
    }
  }
  print_application(p, pd, pr->t);
  print_end(p);
}

/* A malformed configuration is a command-line error (exit 1), not a data
 * error; the message names the option. */
static int usage_config(sp_error *err, const char *option) {
  err->status = SP_EINVAL;
  snprintf(err->field, sizeof err->field, "%s", option);
  return SP_EINVAL;
}

static int resolve_targets(const sp_model *m, const char *spec, targets *t, sp_error *err) {
  size_t n = sp_model_config_count(m, SP_TIME);
  t->cfg = malloc(n * sizeof *t->cfg);
  if (!t->cfg) return SP_ENOMEM;
  if (!strcmp(spec, "all")) {
    for (size_t i = 0; i < n; i++) t->cfg[i] = sp_model_config_at(m, SP_TIME, i);
    t->n = n;
    return SP_OK;
  }
  int st = sp_config_parse(spec, &t->cfg[0], err);
  if (st) return usage_config(err, "--target");
  if (sp_model_config_index(m, SP_TIME, &t->cfg[0]) == (size_t)-1) {
    sp_config lo = sp_model_config_at(m, SP_TIME, 0), hi = sp_model_config_at(m, SP_TIME, n - 1);
    char a[64], b[64];
    sp_config_format(&lo, a, sizeof a);
    sp_config_format(&hi, b, sizeof b);
    return sp_error_set(err, SP_EGRID, NULL, 0, 0, "target",
                        "%s is not on the model's grid (%s .. %s; see 'scalepredict predict "
                        "--target all' for every configuration)",
                        spec, a, b);
  }
  t->n = 1;
  return SP_OK;
}

static int check_base(const sp_model *m, const char *spec, sp_error *err) {
  sp_config b, mb = sp_model_base(m);
  if (!spec) return SP_OK;
  if (sp_config_parse(spec, &b, err)) return usage_config(err, "--base");
  if (sp_config_equal(&b, &mb)) return SP_OK;
  char want[64];
  sp_config_format(&mb, want, sizeof want);
  return sp_error_set(err, SP_EGRID, NULL, 0, 0, "base",
                      "the model was trained for base %s, not %s: measure the kernels at %s "
                      "or train a model with --base %s",
                      want, spec, want, spec);
}

/* Observes every kernel before anything is printed, so that a kernel that
 * cannot be predicted (say, without counters at the base) fails the command
 * without leaving the other kernels' rows behind as partial output. */
static int observe_all(const sp_model *m, const sp_dataset *ds, size_t k0, size_t k1,
                       sp_error *err) {
  double *counters = malloc((sp_model_counter_count(m) + 1) * sizeof(double));
  if (!counters) return err->status = SP_ENOMEM;
  sp_observation obs;
  int st = SP_OK;
  for (size_t k = k0; k < k1 && !st; k++) st = sp_model_observe(m, ds, k, counters, &obs, err);
  free(counters);
  return st;
}

static void measured_free(measured_set *ms) {
  free(ms->cfg);
  free(ms->got);
  free(ms->time);
  free(ms->power);
}

/* --use-measured all|CFG[,CFG...]: configurations whose measured rows the
 * prediction passes through (the model's method must use them: physet). */
static int resolve_measured(const sp_model *m, const char *spec, measured_set *ms, sp_error *err) {
  size_t n = sp_model_config_count(m, SP_TIME) + 1;
  ms->cfg = malloc(n * sizeof *ms->cfg);
  ms->got = malloc(n * sizeof *ms->got);
  ms->time = malloc(n * sizeof *ms->time);
  ms->power = malloc(n * sizeof *ms->power);
  if (!ms->cfg || !ms->got || !ms->time || !ms->power) return err->status = SP_ENOMEM;
  if (!spec) return SP_OK;
  if (!strcmp(spec, "all")) {
    for (size_t i = 0; i + 1 < n; i++) ms->cfg[ms->n++] = sp_model_config_at(m, SP_TIME, i);
    return SP_OK;
  }
  int st = cli_parse_config_list(spec, ms->cfg, n - 1, &ms->n, err);
  return st == SP_ENOMEM ? st : st ? usage_config(err, "--use-measured") : SP_OK;
}

int cli_predict_run(const predict_opts *o) {
  sp_error err;
  sp_error_clear(&err);
  sp_model *m = NULL;
  sp_dataset *ds = NULL;
  targets t = {0, NULL};
  measured_set ms = {0};
  char dir[4096];
  int st = cli_find_model(o->model_dir, dir, sizeof dir, &err);
  if (!st) st = sp_model_load(dir, &m, &err);
  if (!st && o->method) st = cli_use_method(m, o->method, o->model_dir, &err);
  if (!st) st = check_base(m, o->base, &err);
  if (!st) st = resolve_measured(m, o->use_measured, &ms, &err);
  if (!st) st = resolve_targets(m, o->target, &t, &err);
  if (!st) st = cli_dataset_load(o->runs, o->counters, &ds, &err);
  size_t k0 = 0, k1 = ds ? sp_dataset_kernel_count(ds) : 0;
  if (!st && o->kernel) {
    k0 = sp_dataset_kernel_index(ds, o->kernel);
    k1 = k0 + 1;
    if (k0 == (size_t)-1) {
      st = sp_error_set(&err, SP_ENOTFOUND, o->runs, 0, 0, "kernel", "no kernel named '%s'",
                        o->kernel);
    }
  }
  double *weights = NULL;
  if (!st && o->weights) {
    weights = malloc((sp_dataset_kernel_count(ds) + 1) * sizeof *weights);
    st = weights ? sp_workload_load(o->weights, ds, weights, &err) : (err.status = SP_ENOMEM);
  }
  if (!st) st = observe_all(m, ds, k0, k1, &err);
  predictions pd = {0};
  predictor pr = {m, ds, o, &t, &ms, weights, NULL, NULL, NULL, &pd};
  if (!st) st = predict_all(&pr, k0, k1, &err);
  printer p = {o, m, 0, 0, NAME_COLUMN_MIN};
  if (!st) print_all(&p, &pr);
  predictor_free(&pr);
  free(weights);
  if (st && !err.status) err.status = st;
  int rc = st ? cli_fail(&err) : EXIT_OK;
  free(t.cfg);
  measured_free(&ms);
  sp_dataset_free(ds);
  sp_model_free(m);
  return rc;
}

static void usage(void) {
  puts(
      "Usage: scalepredict predict --model DIR --runs FILE --counters FILE\n"
      "                            --target CFG|all [--base CFG] [--kernel NAME]\n"
      "                            [--format table|csv|json] [--method NAME]\n"
      "                            [--use-measured CFG,...] [--floor-w WATTS]\n"
      "       scalepredict predict --model DIR --profile DIR --target CFG|all [...]\n"
      "                            [--ignore-counter NAME] [--skip-unknown-kernels]\n"
      "\n"
      "Predicts each kernel's time (and power, when the model has a power model and\n"
      "the kernel's base row has power) at the target configuration, or at every\n"
      "configuration of the model's grid with --target all.  Each kernel needs a\n"
      "runs.csv row and a counters.csv row at the model's base configuration; rows\n"
      "at other configurations, when present, are shown as measured values with the\n"
      "prediction's signed percentage error, 100 x (predicted - measured) / measured.\n"
      "Rows of kernels the model was trained on are\n"
      "marked (in_training in CSV and JSON, '*' in the table): their errors are\n"
      "in-sample.  clamped_counters (CSV, JSON) counts the kernel's counters outside\n"
      "the training range, clamped to it (also noted on standard error).\n"
      "With physet, each prediction has a 90% interval (time_lo90_ms .. time_hi90_ms,\n"
      "power_lo90_w .. power_hi90_w; the table shows time's) and the kernel a\n"
      "novelty: its distance to the nearest training kernel over the training\n"
      "kernels' own spacing.  Above 1, or with a clamped counter, the kernel is\n"
      "outside the training data (outside_training; noted in the table and on\n"
      "standard error): trust its prediction less (docs/method.md).\n"
      "The table shows a kernel name with control characters escaped (\\n) and,\n"
      "beyond 64 characters, shortened in the middle ('...'); CSV and JSON give\n"
      "every name exactly.\n"
      "\n"
      "  --model DIR       saved model (from 'scalepredict train')\n"
      "  --profile DIR     what 'scalepredict profile' wrote: its runs.csv and\n"
      "                    counters.csv, and after the kernels one row per target\n"
      "                    for the whole application, '(application)': the sum of\n"
      "                    its kernels' times weighted by launches.csv's counts, its\n"
      "                    90% interval (the kernels' interval ends summed alike:\n"
      "                    docs/profile.md), and its average power (energy / time)\n"
      "                    where power is known\n"
      "  --runs FILE       the new kernels' runs.csv\n"
      "  --counters FILE   the new kernels' counters.csv\n"
      "  --base CFG        checked against the model's base configuration\n"
      "  --target CFG|all  configuration to predict, or all of them\n"
      "  --kernel NAME     only this kernel\n"
      "  --format FMT      table (default), csv or json\n"
      "  --method NAME     prediction method the model carries, e.g. wu2015 or physet\n"
      "                    (default: the model's recommended method; see the\n"
      "                    manifest's 'recommended' line)\n"
      "  --use-measured CFG[,CFG...]|all\n"
      "                    also use each kernel's measured rows at these\n"
      "                    configurations: physet passes its prediction through\n"
      "                    them (a second SM count cuts the H100 error about 3x,\n"
      "                    docs/accuracy.md); their errors then read 0\n"
      "  --floor-w WATTS   the board's power at the base configuration with nothing\n"
      "                    but an idle kernel running, measured with the kernels\n"
      "                    (e.g. sp-runner's idle_spin): physet then anchors the\n"
      "                    predicted power on this board's own floor rather than\n"
      "                    on the training board's (two boards of one model can\n"
      "                    read 10-15% apart); with the floor known, the power\n"
      "                    interval is narrower (docs/method.md)\n" CLI_DATA_HELP);
}

int cmd_predict(int argc, char **argv) {
  static const struct option opts[] = {{"model", required_argument, 0, 'm'},
                                       {"runs", required_argument, 0, 'r'},
                                       {"counters", required_argument, 0, 'c'},
                                       {"base", required_argument, 0, 'b'},
                                       {"target", required_argument, 0, 't'},
                                       {"kernel", required_argument, 0, 'k'},
                                       {"format", required_argument, 0, 'f'},
                                       {"help", no_argument, 0, 'h'},
                                       {"method", required_argument, 0, 'M'},
                                       {"use-measured", required_argument, 0, 'u'},
                                       {"floor-w", required_argument, 0, 'F'},
                                       {"profile", required_argument, 0, 'P'},
                                       CLI_DATA_OPTIONS,
                                       {0, 0, 0, 0}};
  predict_opts o = {0};
  cli_profile prof;
  int c, rc;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    if ((rc = cli_data_option(c, optarg, "predict ")) >= 0) {
      if (rc) return rc;
      continue;
    }
    switch (c) {
      case 'm':
        o.model_dir = optarg;
        break;
      case 'r':
        o.runs = optarg;
        break;
      case 'c':
        o.counters = optarg;
        break;
      case 'b':
        o.base = optarg;
        break;
      case 't':
        o.target = optarg;
        break;
      case 'k':
        o.kernel = optarg;
        break;
      case 'M':
        o.method = optarg;
        break;
      case 'u':
        o.use_measured = optarg;
        break;
      case 'P':
        if (cli_profile_paths(optarg, "predict ", &prof)) return EXIT_USAGE;
        o.runs = prof.runs;
        o.counters = prof.counters;
        o.weights = prof.launches;
        break;
      case 'F':
        if (cli_parse_positive(optarg, &o.floor_w))
          return cli_usage_error("predict ",
                                 "--floor-w must be a positive number of watts, not '%s'", optarg);
        break;
      case 'f':
        if (cli_parse_format(optarg, &o.format))
          return cli_usage_error("predict ", "--format must be table, csv or json, not '%s'",
                                 optarg);
        break;
      case 'h':
        usage();
        return EXIT_OK;
      default:
        return cli_bad_option("predict ", c, argv);
    }
  }
  if (optind < argc) return cli_usage_error("predict ", "unexpected argument '%s'", argv[optind]);
  if (!o.model_dir || !o.runs || !o.counters || !o.target)
    return cli_usage_error("predict ",
                           "--model, --runs and --counters (or --profile), and "
                           "--target are required");
  return cli_predict_run(&o);
}
