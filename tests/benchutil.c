/* SPDX-License-Identifier: GPL-3.0-or-later */
/* benchutil.c: see benchutil.h. */
#include "benchutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int bench_die(const char *program, const sp_error *e) {
  char buf[1024];
  sp_error_format(e, buf, sizeof buf);
  fprintf(stderr, "%s: %s\n", program, buf);
  return 1;
}

int bench_load(const char *program, const char *model_dir, const char *runs, const char *counters,
               sp_model **m, sp_dataset **ds) {
  sp_error err;
  sp_error_clear(&err);
  *m = NULL;
  *ds = NULL;
  if (!sp_model_load(model_dir, m, &err) && !sp_dataset_load(runs, counters, ds, &err)) return 0;
  sp_model_free(*m);
  return bench_die(program, &err);
}

double bench_design_space(const sp_model *m, sp_observation *obs, int with_power, double *out,
                          double *pout, long iters, double *sink) {
  enum { ROUNDS = 7 };
  double per[ROUNDS];
  size_t last = sp_model_config_count(m, SP_TIME) - 1;
  for (int r = 0; r < ROUNDS; r++) {
    double t0 = bench_now();
    for (long i = 0; i < iters; i++) {
      obs->base_time_ms = 1.0 + 1e-9 * (double)i;
      sp_model_predict_all(m, SP_TIME, obs, out, NULL);
      if (with_power) sp_model_predict_all(m, SP_POWER, obs, pout, NULL);
      *sink += out[last];
    }
    per[r] = (bench_now() - t0) / (double)iters;
  }
  qsort(per, ROUNDS, sizeof *per, bench_cmp_double);
  return per[ROUNDS / 2];
}

double bench_interval(const sp_model *m, sp_observation *obs, double *out, double *lo, double *hi,
                      long iters, double *sink) {
  enum { ROUNDS = 7 };
  double per[ROUNDS];
  sp_predict_info info;
  for (int r = 0; r < ROUNDS; r++) {
    double t0 = bench_now();
    for (long i = 0; i < iters; i++) {
      obs->base_time_ms = 1.0 + 1e-9 * (double)i;
      sp_model_predict_interval(m, SP_TIME, obs, out, lo, hi, &info);
      *sink += isfinite(hi[0]) ? hi[0] : out[0]; /* wu2015 gives no interval */
    }
    per[r] = (bench_now() - t0) / (double)iters;
  }
  qsort(per, ROUNDS, sizeof *per, bench_cmp_double);
  return per[ROUNDS / 2];
}

double bench_full(const sp_model *m, sp_observation *obs, int with_power, double *out, double *pout,
                  double *lo, double *hi, long iters, double *sink) {
  return bench_full_at(m, obs, 1.0, with_power, out, pout, lo, hi, iters, sink);
}

double bench_full_at(const sp_model *m, sp_observation *obs, double base_ms, int with_power,
                     double *out, double *pout, double *lo, double *hi, long iters, double *sink) {
  enum { ROUNDS = 7 };
  double per[ROUNDS];
  sp_predict_info info;
  for (int r = 0; r < ROUNDS; r++) {
    double t0 = bench_now();
    for (long i = 0; i < iters; i++) {
      obs->base_time_ms = base_ms * (1.0 + 1e-9 * (double)i);
      sp_model_predict_interval(m, SP_TIME, obs, out, lo, hi, &info);
      *sink += isfinite(hi[0]) ? hi[0] : out[0];
      if (!with_power) continue;
      sp_model_predict_interval(m, SP_POWER, obs, pout, lo, hi, NULL);
      *sink += isfinite(hi[0]) ? hi[0] : pout[0];
    }
    per[r] = (bench_now() - t0) / (double)iters;
  }
  qsort(per, ROUNDS, sizeof *per, bench_cmp_double);
  return per[ROUNDS / 2];
}
