/* featplan.h: what a kernel's base measurement says about its hardware use,
 * as a fixed-length feature vector.  Internal.
 *
 * Counter sets differ between tools (this project's Nsight Compute features,
 * nvprof metrics, DCGM fields and PTX opcode counts), so the features are
 * built by a "vocabulary": a list of physically meaningful quantities, each
 * a counter, a sum of counters, or a ratio of two sums, recognised by the
 * counter names.  The first vocabulary whose required counters are all in
 * the model's counter list is used; the generic one takes every counter.
 * Every vocabulary starts with the logarithm of the base time.
 *
 * The vocabulary also names the kernel's thread-block count (the grid), when
 * the counters have it: the physical prior of the CU axis needs it; and its
 * achieved DRAM traffic (a throughput or a busy fraction at the base), which
 * the physical prior of the clock axes reads as how memory-bound it is. */
#ifndef SP_FEATPLAN_H
#define SP_FEATPLAN_H

#include <stddef.h>

#define SP_FEATURES_MAX 64

typedef struct sp_featplan {
  const char *vocabulary;          /* "nsight", "nvprof" or "generic" */
  size_t nfeat;                    /* features, base time included */
  size_t ncounters;                /* the model's counters */
  /* Per feature: up to 4 counter indices summed in the numerator and the
   * denominator (-1: unused); den[0] == -1 means no denominator.  The
   * generic vocabulary maps each counter to one feature, in which case
   * nfeat - 1 == ncounters and the per-feature tables are unused. */
  int generic;
  long num[SP_FEATURES_MAX][4], den[SP_FEATURES_MAX][4];
  int logf[SP_FEATURES_MAX];       /* take log1p of the value */
  long blocks[2];                  /* counters giving the grid size, in
                                      order of preference (-1: none) */
  long dram[4];                    /* counters summed for the DRAM traffic
                                      (-1: unused; dram[0] == -1: none) */
} sp_featplan;

/* Chooses the vocabulary for the counters names[0..n).  Never fails. */
void sp__features_plan(const char *const *names, size_t n, sp_featplan *plan);

/* Features of one kernel: counters in the model's order (NaN for a value
 * not measured: the feature becomes 0) and its base time (ms, > 0). */
void sp__features_compute(const sp_featplan *plan, const double *counters,
                          double base_time_ms, double *f);

/* The kernel's thread-block count, or 0 when the counters do not say. */
double sp__features_blocks(const sp_featplan *plan, const double *counters);

/* The kernel's DRAM traffic at the base in the vocabulary's unit (a value
 * not measured counts as 0), or NaN when the counters have none. */
double sp__features_dram(const sp_featplan *plan, const double *counters);

#endif
