/* benchutil.h: what the benchmarks (bench_*.c, `make bench`) share: a
 * monotonic clock, a comparison for qsort of doubles (medians), and the
 * one-line report of a library error. */
#ifndef SP_BENCHUTIL_H
#define SP_BENCHUTIL_H

#include "scalepredict.h"

/* Seconds on CLOCK_MONOTONIC. */
double bench_now(void);

/* qsort comparison of two doubles, ascending. */
int bench_cmp_double(const void *a, const void *b);

/* Prints "PROGRAM: <error>" on standard error; returns 1 (the exit status). */
int bench_die(const char *program, const sp_error *e);

#endif
