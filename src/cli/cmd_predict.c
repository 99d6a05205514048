/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_predict.c: scalepredict predict, and the output of predictions. */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One predicted (kernel, target) pair. */
typedef struct row {
  const char *kernel;
  sp_config target;
  sp_config base; /* the base the kernel was measured at (cu 0: none) */
  int off_grid;   /* the target's memory system was described, not measured */
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
  unsigned char *off;   /* per target: its memory system is mem, not measured */
  sp_memory_system mem; /* --target-memory */
} targets;

/* The application of a profile at each target: sums over its kernels
 * weighted by their launch counts (time, and energy = time x power), and
 * the time interval's ends summed likewise (docs/profile.md). */
typedef struct app_sum {
  double base_time, time, time_lo, time_hi, base_energy, energy;
} app_sum;

/* What one kernel's rows need besides its values at the targets. */
typedef struct kernel_pred {
  size_t k;       /* in the dataset */
  sp_config base; /* the model's base its rows are read at */
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
  double *v;          /* nk x nt x NVAL */
  app_sum *app;       /* per target, with weights */
  sp_config app_base; /* the kernels' base, cu 0 when they have several */
} predictions;

typedef struct printer {
  const predict_opts *o;
  const sp_model *m;
  size_t count;
  size_t in_training; /* rows of kernels the model was trained on */
  size_t name_width;  /* the table's kernel column, in characters */
  int multi;          /* the model has several bases: a 'from' column */
  int memaxis;        /* ... or memory systems: speedup, base, outside_grid */
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

/* JSON's list of the bases, for a model with a memory axis only: older
 * models' output stays byte for byte what it was (issue 27). */
static void print_bases(const printer *p) {
  char base[64];
  if (!p->memaxis) return;
  fputs(",\"bases\":[", stdout);
  for (size_t b = 0; b < sp_model_base_count(p->m); b++) {
    sp_config c = sp_model_base_at(p->m, b);
    sp_config_format(&c, base, sizeof base);
    printf("%s\"%s\"", b ? "," : "", base);
  }
  putchar(']');
}

/* A JSON row's memory-axis fields: the speedup over the base, the base the
 * kernel was measured at (null: the model's) and the off-grid flag. */
static void print_json_memaxis(FILE *o, double speedup, const char *base, int off_grid) {
  fputs(",\"speedup\":", o);
  put_num(o, speedup, "%.6g", "null");
  if (*base)
    fprintf(o, ",\"base\":\"%s\"", base);
  else
    fputs(",\"base\":null", o);
  fprintf(o, ",\"outside_grid\":%s", off_grid ? "true" : "false");
}

static void print_begin(printer *p) {
  const sp_model *m = p->m;
  char base[64];
  sp_config cb = sp_model_base(m);
  sp_config_format(&cb, base, sizeof base);
  if (p->o->format == FMT_CSV) {
    printf(
        "kernel,target,base_time_ms,time_ms,measured_time_ms,time_error_pct,"
        "base_power_w,power_w,measured_power_w,power_error_pct,"
        "time_lo90_ms,time_hi90_ms,power_lo90_w,power_hi90_w,novelty,outside_training,"
        "in_training,clamped_counters%s\n",
        p->memaxis ? ",speedup,base,outside_grid" : "");
  } else if (p->o->format == FMT_JSON) {
    printf("{\"model\":");
    sp_json_write_string(stdout, sp_model_name(m));
    printf(",\"synthetic\":%s,\"source\":", sp_model_is_synthetic(m) ? "true" : "false");
    sp_json_write_string(stdout, sp_model_source(m));
    printf(",\"base\":\"%s\"", base);
    print_bases(p);
    printf(",\"has_power\":%s,\"predictions\":[", sp_model_has_power(m) ? "true" : "false");
  } else {
    if (p->multi) {
      printf("model %s, bases", sp_model_name(m));
      for (size_t b = 0; b < sp_model_base_count(m); b++) {
        sp_config c = sp_model_base_at(m, b);
        const sp_memory_system *ms = sp_model_memory_of(m, c.memory_mhz);
        sp_config_format(&c, base, sizeof base);
        printf("%s %s%s%s%s", b ? "," : "", base, ms ? " (" : "", ms ? ms->name : "",
               ms ? ")" : "");
      }
      puts("; 'from': the base each kernel was measured at");
    } else {
      printf("model %s, base %s\n", sp_model_name(m), base);
    }
    if (sp_model_is_synthetic(m))
      printf("note: this model was trained on SYNTHETIC data (%s), not on measurements\n",
             *sp_model_source(m) ? sp_model_source(m) : "no source recorded");
    if (!sp_model_has_power(m)) puts("this model has no power model: power is not predicted");
    printf("%-*s %-15s ", (int)p->name_width, "kernel", "target");
    if (p->multi) printf("%-15s ", "from");
    printf("%11s %11s %23s ", "base_ms", "pred_ms", "90% interval ms");
    if (p->memaxis) printf("%8s ", "speedup");
    printf("%11s %7s %9s %9s %7s\n", "meas_ms", "err%", "pred_W", "meas_W", "err%");
  }
}

static void print_row(printer *p, const row *r) {
  char target[64], base[64] = "";
  sp_config_format(&r->target, target, sizeof target);
  if (r->base.cu) sp_config_format(&r->base, base, sizeof base);
  double te = pct_error(r->time, r->measured_time);
  double pe = pct_error(r->power, r->measured_power);
  double speedup = r->base_time / r->time; /* NaN when either is */
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
    fprintf(o, "%d,%d,%zu", r->outside, r->in_training, r->clamped);
    if (p->memaxis) {
      fputc(',', o);
      put_num(o, speedup, "%.6g", "");
      fprintf(o, ",%s,%d", base, r->off_grid);
    }
    fputc('\n', o);
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
    fprintf(o, ",\"outside_training\":%s,\"in_training\":%s,\"clamped_counters\":%zu",
            r->outside ? "true" : "false", r->in_training ? "true" : "false", r->clamped);
    if (p->memaxis) print_json_memaxis(o, speedup, base, r->off_grid);
    fputc('}', o);
  } else {
    cli_put_cell(o, r->kernel, p->name_width);
    fprintf(o, " %-15s ", target);
    if (p->multi) fprintf(o, "%-15s ", *base ? base : "-");
    put_num(o, r->base_time, "%11.4g ", "          - ");
    put_num(o, r->time, "%11.4g ", "          - ");
    if (isnan(r->time_lo))
      fprintf(o, "%23s ", "-");
    else
      fprintf(o, "%10.4g .. %-10.4g ", r->time_lo, r->time_hi);
    if (p->memaxis) put_num(o, speedup, "%8.4g ", "       - ");
    put_num(o, r->measured_time, "%11.4g ", "          - ");
    put_num(o, one_decimal(te), "%7.1f ", "      - ");
    put_num(o, r->power, "%9.4g ", "        - ");
    put_num(o, r->measured_power, "%9.4g ", "        - ");
    put_num(o, one_decimal(pe), "%7.1f", "      -");
    fputs(r->in_training ? "  *" : "", o);
    fputs(r->outside ? "  outside the training data" : "", o);
    fputs(r->off_grid ? "  outside the measured grid\n" : "\n", o);
  }
  p->count++;
  p->in_training += r->in_training != 0;
}

/* One row per target for the whole application: its time with an interval,
 * and its average power (energy / time; energy itself is time x power). */
static void print_application(printer *p, const predictions *pd, const targets *t) {
  for (size_t i = 0; pd->app && i < t->n; i++) {
    const app_sum *a = &pd->app[i];
    row r = {.kernel = "(application)",
             .target = t->cfg[i],
             .base = pd->app_base,
             .off_grid = t->off[i],
             .base_time = a->base_time,
             .time = a->time,
             .measured_time = NAN,
             .base_power = a->base_energy / a->base_time,
             .power = a->energy / a->time,
             .measured_power = NAN,
             .time_lo = a->time_lo,
             .time_hi = a->time_hi,
             .power_lo = NAN,
             .power_hi = NAN,
             .novelty = NAN};
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
  const sp_config *base; /* --base, or NULL: any of the model's */
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

/* The values at target j, whose memory system is described, not measured:
 * interpolated in log bandwidth (sp_model_memory_interpolate). */
static int keep_off_grid(predictor *pr, size_t j, int power, double *v, sp_error *err) {
  const sp_model *m = pr->m;
  const size_t gt = sp_model_config_count(m, SP_TIME), gp = sp_model_config_count(m, SP_POWER);
  const double *t = pr->st_time, *p = pr->st_power;
  const sp_config *c = &pr->t->cfg[j];
  int st = sp_model_memory_interpolate(m, SP_TIME, t, t + gt, t + 2 * gt, NULL, c, &pr->t->mem,
                                       &v[V_TIME], &v[V_TIME_LO], &v[V_TIME_HI], err);
  v[V_POWER] = v[V_POWER_LO] = v[V_POWER_HI] = NAN;
  if (!st && power)
    st = sp_model_memory_interpolate(m, SP_POWER, p, p + gp, p + 2 * gp, t, c, &pr->t->mem,
                                     &v[V_POWER], &v[V_POWER_LO], &v[V_POWER_HI], err);
  return st;
}

/* The values at each target of kernel k, into row i of the predictions. */
static int keep_values(predictor *pr, size_t i, int power, sp_error *err) {
  const sp_model *m = pr->m;
  const size_t gt = sp_model_config_count(m, SP_TIME), gp = sp_model_config_count(m, SP_POWER);
  for (size_t j = 0; j < pr->t->n; j++) {
    double *v = pr->pd->v + (i * pr->t->n + j) * NVAL;
    if (pr->t->off[j]) {
      int st = keep_off_grid(pr, j, power, v, err);
      if (st) return st;
      continue;
    }
    size_t ti = sp_model_config_index(m, SP_TIME, &pr->t->cfg[j]);
    size_t pi = power ? sp_model_config_index(m, SP_POWER, &pr->t->cfg[j]) : (size_t)-1;
    v[V_TIME] = pr->st_time[ti];
    v[V_TIME_LO] = pr->st_time[gt + ti];
    v[V_TIME_HI] = pr->st_time[2 * gt + ti];
    v[V_POWER] = pi != (size_t)-1 ? pr->st_power[pi] : NAN;
    v[V_POWER_LO] = pi != (size_t)-1 ? pr->st_power[gp + pi] : NAN;
    v[V_POWER_HI] = pi != (size_t)-1 ? pr->st_power[2 * gp + pi] : NAN;
  }
  return SP_OK;
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
/* The memory clock whose board --target-floor-w gives the floor of, for
 * a kernel measured at base: the target's, or with several targets the
 * grid's other memory clock (there is one: cli_predict_run checks). */
static int target_floor_mhz(const predictor *pr, const sp_config *base) {
  const targets *t = pr->t;
  if (t->n == 1) return t->cfg[0].memory_mhz;
  for (size_t i = 0; i < sp_model_config_count(pr->m, SP_TIME); i++) {
    sp_config c = sp_model_config_at(pr->m, SP_TIME, i);
    if (c.memory_mhz != base->memory_mhz) return c.memory_mhz;
  }
  return 0;
}

static int predict_kernel(predictor *pr, size_t i, size_t k, sp_error *err) {
  const sp_model *m = pr->m;
  const measured_set *ms = pr->ms;
  sp_observation obs;
  kernel_pred *kp = &pr->pd->kern[i];
  const sp_config base = kp->base;
  int st = sp_model_observe_at(m, pr->ds, k, &base, pr->counters, &obs, err);
  if (st) return st;
  if (ms->n)
    sp_model_observe_more(m, pr->ds, k, ms->cfg, ms->n, ms->got, ms->time, ms->power, &obs);
  obs.floor_w = pr->o->floor_w;
  if (pr->o->target_floor_w > 0) {
    obs.target_floor_w = pr->o->target_floor_w;
    obs.target_floor_mhz = target_floor_mhz(pr, &base);
  }
  st = predict_grid(pr, SP_TIME, &obs, pr->st_time, &kp->info, err);
  int pst = st ? st : predict_grid(pr, SP_POWER, &obs, pr->st_power, NULL, err);
  if (st || pst == SP_ENUMERIC) return st ? st : pst;
  *kp = (kernel_pred){k,
                      base,
                      obs.kernel,
                      obs.base_time_ms,
                      obs.base_power_w,
                      kp->info,
                      sp_model_trained_on(m, obs.kernel)};
  st = keep_values(pr, i, pst == SP_OK, err);
  if (st) return st;
  return pr->weights ? add_application(pr, i, err) : SP_OK;
}

/* The model's bases that kernel k could be predicted from with the
 * method in use: bit b for base b where it has a time and complete
 * counters (--base: that base only). */
static unsigned usable_bases(const predictor *pr, size_t k, unsigned *measured) {
  const sp_model *m = pr->m;
  unsigned use = 0;
  *measured = 0;
  for (size_t b = 0; b < sp_model_base_count(m); b++) {
    sp_config c = sp_model_base_at(m, b);
    if (pr->base && !sp_config_equal(&c, pr->base)) continue;
    if (!sp_model_observable(m, pr->ds, k, &c)) continue;
    *measured |= 1u << b;
    if (sp_model_method_at(m, NULL, &c)) use |= 1u << b;
  }
  return use;
}

/* Kernel k has rows at base b only, where the method in use does not
 * predict from: the error says which method does. */
static int method_not_at(const predictor *pr, size_t k, unsigned measured, sp_error *err) {
  const sp_model *m = pr->m;
  size_t b = 0;
  while (!((measured >> b) & 1u)) b++;
  sp_config c = sp_model_base_at(m, b), mb = sp_model_base(m);
  char cfg[64], first[64];
  sp_config_format(&c, cfg, sizeof cfg);
  sp_config_format(&mb, first, sizeof first);
  const char *other = NULL;
  for (size_t i = 0; i < sp_model_method_count(m) && !other; i++)
    if (sp_model_method_at(m, sp_model_method_name(m, i), &c)) other = sp_model_method_name(m, i);
  return sp_error_set(err, SP_ENOTFOUND, pr->o->runs, 0, 0, "kernel",
                      "kernel '%s' is measured at %s, which the method %s does not predict "
                      "from (it predicts from the model's base %s)%s%s%s",
                      sp_dataset_kernel_name(pr->ds, k), cfg, sp_model_method(m), first,
                      other ? ": --method " : "", other ? other : "",
                      other ? " predicts from there" : "");
}

/* Each kernel's base, before anything is predicted: the first of the
 * model's bases (or --base) where it has a time and complete counters and
 * the method in use predicts from; a kernel without one fails the command
 * as sp_model_observe_at does, naming the first base.  A note says how
 * many kernels had rows at several bases. */
static int choose_bases(predictor *pr, size_t k0, size_t k1, sp_error *err) {
  const sp_model *m = pr->m;
  size_t several = 0, first_several = 0;
  int mixed = 0;
  for (size_t k = k0; k < k1; k++) {
    unsigned measured, use = usable_bases(pr, k, &measured);
    kernel_pred *kp = &pr->pd->kern[k - k0];
    if (!use && measured) return method_not_at(pr, k, measured, err);
    if (!use) {
      sp_observation obs;
      sp_config c = pr->base ? *pr->base : sp_model_base(m);
      int st = sp_model_observe_at(m, pr->ds, k, &c, pr->counters, &obs, err);
      if (st) return st;
      return sp_error_set(err, SP_ENOTFOUND, pr->o->runs, 0, 0, "kernel",
                          "kernel '%s' cannot be predicted: %s", sp_dataset_kernel_name(pr->ds, k),
                          sp_strerror(SP_ENOTFOUND));
    }
    size_t b = 0;
    while (!((use >> b) & 1u)) b++;
    kp->base = sp_model_base_at(m, b);
    if (use & (use - 1) && !several++) first_several = k;
    if (k > k0 && !sp_config_equal(&kp->base, &pr->pd->kern[0].base)) mixed = 1;
  }
  pr->pd->app_base = mixed || k1 == k0 ? (sp_config){0, 0, 0} : pr->pd->kern[0].base;
  if (several) {
    sp_config c = pr->pd->kern[first_several - k0].base;
    char cfg[64];
    sp_config_format(&c, cfg, sizeof cfg);
    fprintf(stderr,
            "scalepredict: note: %zu kernel%s rows at several of the model's bases (the first: "
            "'",
            several, several == 1 ? " has" : "s have");
    cli_put_text(stderr, sp_dataset_kernel_name(pr->ds, first_several));
    fprintf(stderr, "'): each is predicted from the first of them (%s); --base chooses\n", cfg);
  }
  return SP_OK;
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
  int st = choose_bases(pr, k0, k1, err);
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
      row r = {.kernel = kp->name,
               .target = *c,
               .base = kp->base,
               .off_grid = pr->t->off[j],
               .base_time = kp->base_time,
               .time = v[V_TIME],
               .measured_time = measured(pr->ds, kp->k, c, SP_TIME),
               .base_power = kp->base_power,
               .power = v[V_POWER],
               .measured_power = measured(pr->ds, kp->k, c, SP_POWER),
               .time_lo = v[V_TIME_LO],
               .time_hi = v[V_TIME_HI],
               .power_lo = v[V_POWER_LO],
               .power_hi = v[V_POWER_HI],
               .novelty = kp->info.novelty,
               .outside = kp->info.outside,
               .in_training = kp->in_training,
               .clamped = kp->info.clamped};
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

/* The model's measured memory systems, "2619 (NVIDIA H100 80GB HBM3), 3201
 * (NVIDIA H200)", or its memory clocks. */
static void measured_systems(const sp_model *m, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  int last = -1;
  for (size_t i = 0; i < sp_model_config_count(m, SP_TIME) && used < size; i++) {
    sp_config c = sp_model_config_at(m, SP_TIME, i);
    int seen = c.memory_mhz == last;
    for (size_t j = 0; j < i && !seen; j++)
      seen = sp_model_config_at(m, SP_TIME, j).memory_mhz == c.memory_mhz;
    last = c.memory_mhz;
    if (seen) continue;
    const sp_memory_system *ms = sp_model_memory_of(m, c.memory_mhz);
    int n = snprintf(buf + used, size - used, "%s%d MHz%s%s%s", used ? ", " : "", c.memory_mhz,
                     ms ? " (" : "", ms ? ms->name : "", ms ? ")" : "");
    used += n > 0 ? (size_t)n : 0;
  }
}

/* A target whose CU count and engine clock are on the grid but whose
 * memory clock is not: predicted through --target-memory's description,
 * else an error that says what to give. */
static int off_grid_memory(const sp_model *m, const char *spec, const sp_config *c, targets *t,
                           sp_error *err) {
  int on = 0;
  for (size_t i = 0; i < sp_model_config_count(m, SP_TIME) && !on; i++) {
    sp_config g = sp_model_config_at(m, SP_TIME, i);
    on = g.cu == c->cu && g.engine_mhz == c->engine_mhz;
  }
  if (!on) return SP_ENOTFOUND;
  char have[512];
  measured_systems(m, have, sizeof have);
  if (!t->mem.memory_mhz)
    return sp_error_set(
        err, SP_EGRID, NULL, 0, 0, "target",
        "memory clock %d of %s is not a measured memory system of the model (%s): "
        "describe it with --target-memory bus=BITS[,type=TYPE][,peak=GBS]%s",
        c->memory_mhz, spec, have,
        sp_model_memory_count(m) ? "" : " (and train the model with --memory FILE)");
  if (t->mem.memory_mhz != c->memory_mhz)
    return sp_error_set(err, SP_EINVAL, NULL, 0, 0, "--target-memory",
                        "mhz=%d disagrees with the target's memory clock %d", t->mem.memory_mhz,
                        c->memory_mhz);
  return SP_OK;
}

/* --target all --target-memory mhz=M,...: after the grid, every CU count
 * and engine clock of the grid at the described memory clock M. */
static int add_described(const sp_model *m, targets *t, sp_error *err) {
  const size_t n = t->n;
  if (sp_model_memory_of(m, t->mem.memory_mhz))
    return sp_error_set(err, SP_EINVAL, NULL, 0, 0, "--target-memory",
                        "memory clock %d is a measured memory system of the model: --target all "
                        "predicts it already",
                        t->mem.memory_mhz);
  for (size_t i = 0; i < n; i++) {
    sp_config c = t->cfg[i];
    c.memory_mhz = t->mem.memory_mhz;
    int dup = sp_model_config_index(m, SP_TIME, &c) != (size_t)-1;
    for (size_t j = n; j < t->n && !dup; j++) dup = sp_config_equal(&t->cfg[j], &c);
    if (dup) continue;
    t->off[t->n] = 1;
    t->cfg[t->n++] = c;
  }
  return SP_OK;
}

static int resolve_targets(const sp_model *m, const char *spec, const char *memspec, targets *t,
                           sp_error *err) {
  size_t n = sp_model_config_count(m, SP_TIME);
  t->cfg = malloc(2 * n * sizeof *t->cfg);
  t->off = calloc(2 * n, 1);
  if (!t->cfg || !t->off) return SP_ENOMEM;
  if (!strcmp(spec, "all")) {
    for (size_t i = 0; i < n; i++) t->cfg[i] = sp_model_config_at(m, SP_TIME, i);
    t->n = n;
    if (!memspec) return SP_OK;
    if (sp_memory_parse(memspec, 0, &t->mem, err)) return usage_config(err, "--target-memory");
    return add_described(m, t, err);
  }
  int st = sp_config_parse(spec, &t->cfg[0], err);
  if (st) return usage_config(err, "--target");
  if (memspec) {
    sp_error_clear(err);
    if (sp_memory_parse(memspec, t->cfg[0].memory_mhz, &t->mem, err))
      return usage_config(err, "--target-memory");
  }
  t->n = 1;
  if (sp_model_config_index(m, SP_TIME, &t->cfg[0]) != (size_t)-1) {
    if (memspec)
      return sp_error_set(err, SP_EINVAL, NULL, 0, 0, "--target-memory",
                          "%s is on the model's grid: its memory system is measured", spec);
    return SP_OK;
  }
  st = off_grid_memory(m, spec, &t->cfg[0], t, err);
  if (st != SP_ENOTFOUND) {
    t->off[0] = !st;
    return st;
  }
  sp_config lo = sp_model_config_at(m, SP_TIME, 0), hi = sp_model_config_at(m, SP_TIME, n - 1);
  char a[64], b[64];
  sp_config_format(&lo, a, sizeof a);
  sp_config_format(&hi, b, sizeof b);
  return sp_error_set(err, SP_EGRID, NULL, 0, 0, "target",
                      "%s is not on the model's grid (%s .. %s; see 'scalepredict predict "
                      "--target all' for every configuration)",
                      spec, a, b);
}

/* --base: one of the model's bases, whose rows every kernel is read at. */
static int check_base(const sp_model *m, const char *spec, sp_config *out, sp_error *err) {
  sp_config b, mb = sp_model_base(m);
  if (!spec) return SP_OK;
  if (sp_config_parse(spec, &b, err)) return usage_config(err, "--base");
  for (size_t i = 0; i < sp_model_base_count(m); i++) {
    sp_config c = sp_model_base_at(m, i);
    if (sp_config_equal(&b, &c)) {
      *out = c;
      return SP_OK;
    }
  }
  char want[64];
  sp_config_format(&mb, want, sizeof want);
  if (sp_model_base_count(m) == 1)
    return sp_error_set(err, SP_EGRID, NULL, 0, 0, "base",
                        "the model was trained for base %s, not %s: measure the kernels at %s "
                        "or train a model with --base %s",
                        want, spec, want, spec);
  char have[256] = "";
  size_t used = 0;
  for (size_t i = 0; i < sp_model_base_count(m) && used < sizeof have; i++) {
    sp_config c = sp_model_base_at(m, i);
    char one[64];
    sp_config_format(&c, one, sizeof one);
    int k = snprintf(have + used, sizeof have - used, "%s%s", i ? ", " : "", one);
    used += k > 0 ? (size_t)k : 0;
  }
  return sp_error_set(err, SP_EGRID, NULL, 0, 0, "base",
                      "%s is not one of the model's bases (%s): measure the kernels at one of "
                      "them or train a model with --base %s",
                      spec, have, spec);
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
  if (!spec || !strcmp(spec, "none")) return SP_OK;
  if (!strcmp(spec, "all")) {
    for (size_t i = 0; i + 1 < n; i++) ms->cfg[ms->n++] = sp_model_config_at(m, SP_TIME, i);
    return SP_OK;
  }
  int st = cli_parse_config_list(spec, ms->cfg, n - 1, &ms->n, err);
  return st == SP_ENOMEM ? st : st ? usage_config(err, "--use-measured") : SP_OK;
}

/* A profile's further points (docs/profile.md, "Two points"): without
 * --use-measured, the configurations its profile.txt names ("second:
 * CFG" lines), those on the model's grid, are used as --use-measured uses
 * them. */
static void profile_measured(const sp_model *m, const char *dir, measured_set *ms) {
  size_t max = sp_model_config_count(m, SP_TIME), n = 0;
  if (!dir || sp_profile_dir_seconds(dir, ms->cfg, max, &n) != SP_OK) return;
  for (size_t i = 0; i < n; i++)
    if (sp_model_config_index(m, SP_TIME, &ms->cfg[i]) != (size_t)-1) ms->cfg[ms->n++] = ms->cfg[i];
}

/* Says that the prediction passed through the profile's further points. */
static void note_profile_measured(const measured_set *ms) {
  char list[512];
  size_t o = 0;
  list[0] = '\0';
  for (size_t i = 0; i < ms->n && o + 64 < sizeof list; i++) {
    if (i) list[o++] = ',';
    sp_config_format(&ms->cfg[i], list + o, sizeof list - o);
    o += strlen(list + o);
  }
  fprintf(stderr,
          "scalepredict: note: the profile measured %s too: the predictions pass through %s "
          "(as --use-measured %s; --use-measured none to predict from the base alone)\n",
          list, ms->n > 1 ? "them" : "it", list);
}

/* --target-floor-w: the floor of another memory system's board, which
 * the target names, or with --target all the grid's one other memory
 * clock; not a described (unmeasured) one. */
static int check_target_floor(const sp_model *m, const predict_opts *o, const targets *t,
                              sp_error *err) {
  if (!(o->target_floor_w > 0)) return SP_OK;
  if (t->n == 1 && t->off[0])
    return sp_error_set(err, SP_EINVAL, NULL, 0, 0, "--target-floor-w",
                        "the target's memory system is described, not measured: "
                        "--target-floor-w applies to a measured one");
  if (t->n == 1) return SP_OK;
  int seen[3] = {0, 0, 0}, n = 0; /* the distinct memory clocks, up to 3 */
  for (size_t i = 0; i < sp_model_config_count(m, SP_TIME) && n < 3; i++) {
    int c = sp_model_config_at(m, SP_TIME, i).memory_mhz, j = 0;
    while (j < n && seen[j] != c) j++;
    if (j == n) seen[n++] = c;
  }
  if (n == 2) return SP_OK;
  return sp_error_set(err, SP_EINVAL, NULL, 0, 0, "--target-floor-w",
                      "with --target all it is the floor of the grid's other memory system, but "
                      "the grid has %s: give --target CFG",
                      n < 2 ? "one memory clock" : "more than two memory clocks");
}

int cli_predict_run(const predict_opts *o) {
  sp_error err;
  sp_error_clear(&err);
  sp_model *m = NULL;
  sp_dataset *ds = NULL;
  targets t = {0, NULL, NULL, {0}};
  measured_set ms = {0};
  sp_config base = {0, 0, 0};
  char dir[4096];
  int st = cli_find_model(o->model_dir, dir, sizeof dir, &err);
  if (!st) st = sp_model_load(dir, &m, &err);
  if (!st && o->method) st = cli_use_method(m, o->method, o->model_dir, &err);
  if (!st) st = check_base(m, o->base, &base, &err);
  if (!st) st = resolve_measured(m, o->use_measured, &ms, &err);
  if (!st) st = resolve_targets(m, o->target, o->target_memory, &t, &err);
  if (!st) st = check_target_floor(m, o, &t, &err);
  if (!st) st = cli_dataset_load(o->runs, o->counters, &ds, &err);
  if (!st && !o->use_measured) profile_measured(m, o->profile_dir, &ms);
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
  if (!st && o->profile_dir) st = cli_profile_counts_check(o->weights, o->runs, ds, &err);
  if (!st && o->weights) {
    weights = malloc((sp_dataset_kernel_count(ds) + 1) * sizeof *weights);
    st = weights ? sp_workload_load(o->weights, ds, weights, &err) : (err.status = SP_ENOMEM);
  }
  predictions pd = {0};
  predictor pr = {m, ds, o, base.cu ? &base : NULL, &t, &ms, weights, NULL, NULL, NULL, &pd};
  if (!st) st = predict_all(&pr, k0, k1, &err);
  const int multi = m && sp_model_base_count(m) > 1;
  printer p = {o, m, 0, 0, NAME_COLUMN_MIN, multi, multi || (m && sp_model_memory_count(m) > 0)};
  if (!st) print_all(&p, &pr);
  if (!st && ms.n && !o->use_measured) note_profile_measured(&ms);
  predictor_free(&pr);
  free(weights);
  if (st && !err.status) err.status = st;
  int rc = st ? cli_fail(&err) : EXIT_OK;
  free(t.cfg);
  free(t.off);
  measured_free(&ms);
  sp_dataset_free(ds);
  sp_model_free(m);
  return rc;
}

typedef struct predict_cli {
  predict_opts o;
  cli_profile prof;
} predict_cli;

/* The options' setters that check their values (cli_option). */
static int set_profile(void *ctx, const char *arg, const char *cmd) {
  predict_cli *c = ctx;
  if (cli_profile_paths(arg, cmd, &c->prof)) return EXIT_USAGE;
  c->o.runs = c->prof.runs;
  c->o.counters = c->prof.counters;
  c->o.weights = c->prof.launches;
  c->o.profile_dir = c->prof.dir;
  return EXIT_OK;
}

static int set_floor_w(void *ctx, const char *arg, const char *cmd) {
  if (cli_parse_positive(arg, &((predict_cli *)ctx)->o.floor_w))
    return cli_usage_error(cmd, "--floor-w must be a positive number of watts, not '%s'", arg);
  return EXIT_OK;
}

static int set_target_floor_w(void *ctx, const char *arg, const char *cmd) {
  if (cli_parse_positive(arg, &((predict_cli *)ctx)->o.target_floor_w))
    return cli_usage_error(cmd, "--target-floor-w must be a positive number of watts, not '%s'",
                           arg);
  return EXIT_OK;
}

static int set_format(void *ctx, const char *arg, const char *cmd) {
  if (cli_parse_format(arg, &((predict_cli *)ctx)->o.format))
    return cli_usage_error(cmd, "--format must be table, csv or json, not '%s'", arg);
  return EXIT_OK;
}

#define ROW(kind, name, arg, field, help) CLI_ROW(kind, name, arg, predict_cli, field, help)
static const cli_option options[] = {
    ROW(CLI_STRING, "model", "DIR", o.model_dir, "saved model (from 'scalepredict train')"),
    CLI_ROW_CALL("profile", "DIR", set_profile,
                 "what 'scalepredict profile' wrote: its runs.csv and\n"
                 "counters.csv, and after the kernels one row per target\n"
                 "for the whole application, '(application)': the sum of\n"
                 "its kernels' times weighted by launches.csv's counts, its\n"
                 "90% interval (the kernels' interval ends summed alike:\n"
                 "docs/profile.md), and its average power (energy / time)\n"
                 "where power is known"),
    ROW(CLI_STRING, "runs", "FILE", o.runs, "the new kernels' runs.csv"),
    ROW(CLI_STRING, "counters", "FILE", o.counters, "the new kernels' counters.csv"),
    ROW(CLI_STRING, "base", "CFG", o.base,
        "the base whose rows every kernel is predicted from: the\n"
        "model's base or one of its further bases"),
    ROW(CLI_STRING, "target", "CFG|all", o.target, "configuration to predict, or all of them"),
    ROW(CLI_STRING, "target-memory", "mhz=MHZ,bus=BITS[,type=T][,peak=GBS][,capacity=GB][,name=N]",
        o.target_memory,
        "a memory system the model has not measured, described: a\n"
        "--target whose memory clock is off the grid (mhz= may then\n"
        "be left out), or with --target all every CU count and\n"
        "engine clock of the grid at MHZ too; each value is\n"
        "interpolated in log peak bandwidth (default 2 x MHZ x\n"
        "BITS / 8) between the model's measured memory systems\n"
        "(beyond them, time between the nearest one's and that\n"
        "time in proportion to the bandwidth, power its dynamic\n"
        "energy over that time above the training board's floor),\n"
        "with a wider 90% interval, and the row is flagged\n"
        "'outside the measured grid' (outside_grid in CSV and\n"
        "JSON; docs/method.md, \"physet: the memory axis\")"),
    ROW(CLI_STRING, "kernel", "NAME", o.kernel, "only this kernel"),
    CLI_ROW_CALL("format", "FMT", set_format, "table (default), csv or json"),
    ROW(CLI_STRING, "method", "NAME", o.method,
        "prediction method the model carries, e.g. wu2015 or physet\n"
        "(default: the model's recommended method; see the\n"
        "manifest's 'recommended' line)"),
    ROW(CLI_STRING, "use-measured", "CFG[,CFG...]|all", o.use_measured,
        "also use each kernel's measured rows at these\n"
        "configurations: physet passes its prediction through\n"
        "them (a second SM count cuts the H100 error about 3x,\n"
        "docs/accuracy.md); their errors then read 0; none:\n"
        "no other.  With --profile, the profile's further SM\n"
        "counts (profile.txt's 'second:' lines, 'scalepredict\n"
        "profile') are used unless this is given, and a note\n"
        "says so"),
    CLI_ROW_CALL("floor-w", "WATTS", set_floor_w,
                 "the board's power at the base configuration with nothing\n"
                 "but an idle kernel running, measured with the kernels\n"
                 "(e.g. sp-runner's idle_spin): physet then anchors the\n"
                 "predicted power on this board's own floor rather than\n"
                 "on the training board's (two boards of one model can\n"
                 "read 10-15% apart); with the floor known, the power\n"
                 "interval is narrower (docs/method.md)"),
    CLI_ROW_CALL("target-floor-w", "WATTS", set_target_floor_w,
                 "the same floor measured on the board of the target's\n"
                 "memory system (with --target all: the grid's other one),\n"
                 "when you have that card too: physet's power there is\n"
                 "put on that board, times your floor over the training\n"
                 "board's (over the same ratio of --floor-w at the base)"),
    CLI_ROWS_DATA,
};

static const cli_command command = {
    .prefix = "predict ",
    .optstring = ":h",
    .head =
        "Usage: scalepredict predict --model DIR --runs FILE --counters FILE\n"
        "                            --target CFG|all [--base CFG] [--kernel NAME]\n"
        "                            [--format table|csv|json] [--method NAME]\n"
        "                            [--use-measured CFG,...] [--floor-w WATTS]\n"
        "                            [--target-memory SPEC] [--target-floor-w WATTS]\n"
        "       scalepredict predict --model DIR --profile DIR --target CFG|all [...]\n"
        "                            [--ignore-counter NAME] [--skip-unknown-kernels]\n"
        "\n"
        "Predicts each kernel's time (and power, when the model has a power model and\n"
        "the kernel's base row has power) at the target configuration, or at every\n"
        "configuration of the model's grid with --target all.  Each kernel needs a\n"
        "runs.csv row and a counters.csv row at the model's base configuration, or at\n"
        "any of its bases when it has several (train --base A,B: an H100 run or an H200\n"
        "run): each kernel is predicted from the first base where it has both (noted\n"
        "when it has them at several; --base chooses), shown as 'from' in the table.\n"
        "Rows at other configurations, when present, are shown as measured values\n"
        "with the prediction's signed percentage error,\n"
        "100 x (predicted - measured) / measured.  A model with a memory axis (several\n"
        "bases, or memory systems described: train --memory) adds, in CSV and JSON,\n"
        "speedup, base (the base the kernel was predicted from) and outside_grid, and\n"
        "in the table a speedup column: the base time over the predicted time (at\n"
        "132cu/1980/3201 from an H100 run at 132 SMs: what the H200 buys the kernel);\n"
        "other models print the columns they always did.\n"
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
        "\n",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .column = 20,
};

/* The table's options, then what holds between them. */
int cmd_predict(int argc, char **argv) {
  predict_cli c = {0};
  int done, rc = cli_parse_options(&command, &c, argc, argv, &done);
  if (rc || done) return rc;
  if (!c.o.model_dir || !c.o.runs || !c.o.counters || !c.o.target)
    return cli_usage_error("predict ",
                           "--model, --runs and --counters (or --profile), and "
                           "--target are required");
  return cli_predict_run(&c.o);
}
