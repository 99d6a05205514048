/* SPDX-License-Identifier: GPL-3.0-or-later */
/* benchutil.h: what the benchmarks (bench_*.c, `make bench`) share: a
 * monotonic clock, a comparison for qsort of doubles (medians), the
 * one-line report of a library error, loading a model with its kernels,
 * and timing one kernel's design space. */
#ifndef SP_BENCHUTIL_H
#define SP_BENCHUTIL_H

#include "scalepredict.h"

/* Seconds on CLOCK_MONOTONIC. */
double bench_now(void);

/* qsort comparison of two doubles, ascending. */
int bench_cmp_double(const void *a, const void *b);

/* Prints "PROGRAM: <error>" on standard error; returns 1 (the exit status). */
int bench_die(const char *program, const sp_error *e);

/* Loads the model MODEL_DIR and the kernels of RUNS/COUNTERS; on failure
 * reports it as program does and returns 1 (nothing to free). */
int bench_load(const char *program, const char *model_dir, const char *runs, const char *counters,
               sp_model **m, sp_dataset **ds);

/* Median seconds (of 7 rounds of iters calls) of predicting time at every
 * configuration of m's grid into out, and power into pout too when
 * with_power; the base time is varied so that no call can be folded, and
 * the last time predicted is added to *sink. */
double bench_design_space(const sp_model *m, sp_observation *obs, int with_power, double *out,
                          double *pout, long iters, double *sink);

/* The same for sp_model_predict_interval of time (lo, hi: the grid's size),
 * with the novelty asked for. */
double bench_interval(const sp_model *m, sp_observation *obs, double *out, double *lo, double *hi,
                      long iters, double *sink);

/* The whole design space with everything a prediction can give: time and
 * its 90% intervals with the novelty, then power and its intervals when
 * with_power (sp_model_predict_interval twice); lo and hi hold the larger
 * grid.  Median seconds of 7 rounds of iters such calls, as above. */
double bench_full(const sp_model *m, sp_observation *obs, int with_power, double *out, double *pout,
                  double *lo, double *hi, long iters, double *sink);

/* bench_full with the base time varied about base_ms instead of 1 ms. */
double bench_full_at(const sp_model *m, sp_observation *obs, double base_ms, int with_power,
                     double *out, double *pout, double *lo, double *hi, long iters, double *sink);

#endif
