/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_dse.c: design-space exploration speed for docs/performance.md:
 * sp_dse_run over the model's grid and over a grid refined between clocks
 * (--grid-interp), and writing the report, for a workload of every kernel
 * in RUNS.  `make bench` runs it on the bundled model with 100 synthetic
 * kernels (training/synth --samples 100).  Timings use CLOCK_MONOTONIC; the
 * median of several repetitions is shown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"
#include "scalepredict.h"

#define REPS 3

/* Median seconds of REPS runs at one refinement; the last result in *keep. */
static int time_run(const sp_model *m, const sp_dataset *ds, unsigned interp, double *median,
                    sp_dse_result **keep, sp_error *err) {
  double t[REPS];
  sp_dse_params p;
  sp_dse_params_init(&p);
  p.grid_interp = interp;
  p.time_budget = 1.2;
  for (int r = 0; r < REPS; r++) {
    sp_dse_result *res = NULL;
    double t0 = bench_now();
    int st = sp_dse_run(m, ds, &p, &res, err);
    t[r] = bench_now() - t0;
    if (st) return st;
    if (r == REPS - 1)
      *keep = res;
    else
      sp_dse_result_free(res);
  }
  qsort(t, REPS, sizeof *t, bench_cmp_double);
  *median = t[REPS / 2];
  return SP_OK;
}

static int bench(const sp_model *m, const sp_dataset *ds, unsigned interp, const char *report) {
  sp_error err;
  sp_error_clear(&err);
  double median;
  sp_dse_result *r = NULL;
  if (time_run(m, ds, interp, &median, &r, &err)) return bench_die("bench_dse", &err);
  printf(
      "dse --grid-interp %-3u %8zu configurations x %zu kernels: %8.3f s  (%.1f ns per "
      "kernel-configuration)\n",
      interp, r->nconfigs, r->nkernels, median,
      1e9 * median / ((double)r->nconfigs * (double)r->nkernels));
  if (report) {
    double t0 = bench_now();
    if (sp_dse_report_write(r, report, &err)) return bench_die("bench_dse", &err);
    printf("  report (HTML, SVG, CSV of every table) written in %.3f s\n", bench_now() - t0);
  }
  sp_dse_result_free(r);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench_dse MODEL RUNS COUNTERS [INTERP [REPORT_DIR]]\n");
    return 2;
  }
  sp_model *m;
  sp_dataset *ds;
  if (bench_load("bench_dse", argv[1], argv[2], argv[3], &m, &ds)) return 1;
  unsigned interp = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 10) : 18;
  int rc = bench(m, ds, 1, NULL);
  if (!rc) rc = bench(m, ds, interp, argc > 5 ? argv[5] : NULL);
  sp_dataset_free(ds);
  sp_model_free(m);
  return rc;
}
