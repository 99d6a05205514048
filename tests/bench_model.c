/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_model.c: prediction speed of a saved model, per method it carries:
 * one kernel's whole design space (time at every configuration of the
 * model's grid), time plus power, and time with its 90% intervals and the
 * kernel's novelty (sp_model_predict_interval), and time and power with
 * their intervals and the novelty (the whole answer).  Run by `make bench` on the bundled
 * H100 model (models/h100-sm) and the suite's first kernel; see
 * docs/performance.md.  Timings use CLOCK_MONOTONIC; the median of several
 * rounds is shown. */
#include <stdio.h>
#include <stdlib.h>

#include "benchutil.h"
#include "scalepredict.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: bench_model MODEL_DIR RUNS COUNTERS\n");
    return 2;
  }
  sp_error err;
  sp_error_clear(&err);
  sp_model *m;
  sp_dataset *ds;
  if (bench_load("bench_model", argv[1], argv[2], argv[3], &m, &ds)) return 1;
  size_t ncfg = sp_model_config_count(m, SP_TIME);
  double *counters = malloc((sp_model_counter_count(m) + 1) * sizeof(double));
  double *out = malloc(ncfg * sizeof(double));
  double *lo = malloc(ncfg * sizeof(double)), *hi = malloc(ncfg * sizeof(double));
  double *pout = malloc((sp_model_config_count(m, SP_POWER) + 1) * sizeof(double));
  sp_observation obs;
  if (!counters || !out || !lo || !hi || !pout)
    return fprintf(stderr, "bench_model: out of memory\n"), 1;
  if (sp_model_observe(m, ds, 0, counters, &obs, &err)) return bench_die("bench_model", &err);
  int power = sp_model_has_power(m) && obs.base_power_w > 0;
  double sink = 0;
  for (size_t i = 0; i < sp_model_method_count(m); i++) {
    const char *name = sp_model_method_name(m, i);
    sp_model_use_method(m, name);
    double t = bench_design_space(m, &obs, 0, out, pout, 20000, &sink);
    double tp = power ? bench_design_space(m, &obs, 1, out, pout, 10000, &sink) : 0;
    double ti = bench_interval(m, &obs, out, lo, hi, 2000, &sink);
    double tf = bench_full(m, &obs, power, out, pout, lo, hi, 2000, &sink);
    printf("%s (%s, %zu configurations): time design space median %.2f us", argv[1], name, ncfg,
           1e6 * t);
    if (power) printf(", time and power %.2f us", 1e6 * tp);
    printf(", time with 90%% intervals and novelty %.2f us", 1e6 * ti);
    printf(", time%s with 90%% intervals and novelty %.2f us\n", power ? " and power" : "",
           1e6 * tf);
  }
  printf("(checksum %.3g)\n", sink);
  free(counters);
  free(out);
  free(lo);
  free(hi);
  free(pout);
  sp_model_free(m);
  sp_dataset_free(ds);
  return 0;
}
