/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_core.c: the core speed goals of docs/performance.md.
 *   - time to build a model (surfaces, k-means, classifiers) from a data set;
 *   - time to predict one kernel at every configuration of the model's grid;
 *   - the same with power, the 90% intervals and the novelty.
 * Run by `make bench` on the synthetic 108-kernel x 448-configuration set.
 * Timings use CLOCK_MONOTONIC; the median of several repetitions is shown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "scalepredict.h"

enum { BUILDS = 5 };

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: bench_core RUNS COUNTERS BASE\n");
    return 2;
  }
  sp_error err;
  sp_error_clear(&err);
  sp_dataset *ds;
  if (sp_dataset_load(argv[1], argv[2], &ds, &err)) return bench_die("bench_core", &err);
  sp_train_params p;
  sp_train_params_init(&p);
  if (sp_config_parse(argv[3], &p.base, &err)) return bench_die("bench_core", &err);
  /* The build on the default threads (two where the machine has two
   * CPUs), then on one, as before issue 29: the same model either way. */
  sp_model *m = NULL;
  double build[2][BUILDS];
  for (int th = 0; th < 2; th++) {
    p.threads = th == 0 ? 0 : 1;
    for (int i = 0; i < BUILDS; i++) {
      sp_model_free(m);
      double t0 = bench_now();
      if (sp_model_train(ds, &p, NULL, NULL, &m, &err)) return bench_die("bench_core", &err);
      build[th][i] = bench_now() - t0;
    }
    qsort(build[th], BUILDS, sizeof *build[th], bench_cmp_double);
  }
  size_t nk = sp_dataset_kernel_count(ds), ncfg = sp_model_config_count(m, SP_TIME);
  printf(
      "model build: %zu kernels x %zu configurations, k = %zu: median %.3f s (min %.3f, max %.3f) "
      "over %d builds; on one thread %.3f s\n",
      nk, ncfg, p.clusters, build[0][BUILDS / 2], build[0][0], build[0][BUILDS - 1], BUILDS,
      build[1][BUILDS / 2]);

  double *counters = malloc(sp_model_counter_count(m) * sizeof(double));
  double *out = malloc(ncfg * sizeof(double));
  sp_observation obs;
  if (!counters || !out || sp_model_observe(m, ds, 0, counters, &obs, &err))
    return bench_die("bench_core", &err);
  double sink = 0, t = bench_design_space(m, &obs, 0, out, NULL, 20000, &sink);
  printf(
      "design space of one kernel (time at all %zu configurations, classifiers included): "
      "median %.2f us, %.0f design spaces/s, %.0f predictions/s (checksum %.3g)\n",
      ncfg, 1e6 * t, 1.0 / t, (double)(ncfg - 1) / t, sink);
  /* The whole answer: time and power with their 90% intervals and the
   * kernel's novelty (issue 29's goal, 20 us). */
  int power = sp_model_has_power(m) && obs.base_power_w > 0;
  double *pout = malloc(ncfg * sizeof(double)), *lo = malloc(ncfg * sizeof(double));
  double *hi = malloc(ncfg * sizeof(double));
  if (!pout || !lo || !hi) return fprintf(stderr, "bench_core: out of memory\n"), 1;
  double tf = bench_full(m, &obs, power, out, pout, lo, hi, 2000, &sink);
  printf(
      "design space of one kernel (time%s with 90%% intervals and novelty at all %zu "
      "configurations): median %.2f us (checksum %.3g)\n",
      power ? " and power" : "", ncfg, 1e6 * tf, sink);
  /* The same for every kernel of the set, each at 1.3 times its own
   * base time: no training kernel matches it, so the forest spreads its
   * weights as for a new kernel (at its own time a training kernel finds
   * itself alone), and the paths the interval takes differ by kernel. */
  double *per = malloc(nk * sizeof *per);
  size_t nper = 0;
  if (!per) return fprintf(stderr, "bench_core: out of memory\n"), 1;
  for (size_t k = 0; k < nk; k++) {
    sp_observation ok;
    if (sp_model_observe(m, ds, k, counters, &ok, &err)) continue;
    int pw = power && ok.base_power_w > 0;
    per[nper++] = bench_full_at(m, &ok, 1.3 * ok.base_time_ms, pw, out, pout, lo, hi, 200, &sink);
  }
  qsort(per, nper, sizeof *per, bench_cmp_double);
  if (nper)
    printf(
        "the same for each of %zu kernels at 1.3 times its base time: median %.2f us, p90 "
        "%.2f us, max %.2f us\n",
        nper, 1e6 * per[nper / 2], 1e6 * per[nper * 9 / 10], 1e6 * per[nper - 1]);
  free(per);
  free(pout);
  free(lo);
  free(hi);
  free(counters);
  free(out);
  sp_model_free(m);
  sp_dataset_free(ds);
  return 0;
}
