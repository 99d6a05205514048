/* SPDX-License-Identifier: GPL-3.0-or-later */
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
 * A vocabulary's term may be optional (the launch-shape and SM-activity
 * columns that older counters files lack): the plan leaves it out when the
 * counters do not have it, so the feature count depends on the counters.
 *
 * The vocabulary also names the kernel's thread-block count (the grid) and
 * how many blocks one CU holds at once, when the counters have them: the
 * physical prior and bound of the CU axis need them; and its
 * achieved DRAM traffic (a throughput or a busy fraction at the base), which
 * the physical prior of the clock axes reads as how memory-bound it is; and
 * how busy the SMs' busiest pipe was, which bounds how much faster than in
 * proportion to the CU count the kernel can run on fewer CUs. */
#ifndef SP_FEATPLAN_H
#define SP_FEATPLAN_H

#include <stddef.h>

#define SP_FEATURES_MAX 64
#define SP_PIPES_MAX 5

typedef struct sp_featplan {
  const char *vocabulary; /* "nsight", "nvprof" or "generic" */
  size_t nfeat;           /* features, base time included */
  size_t ncounters;       /* the model's counters */
  /* Per feature: up to 4 counter indices summed in the numerator and the
   * denominator (-1: unused); den[0] == -1 means no denominator.  The
   * generic vocabulary maps each counter to one feature, in which case
   * nfeat - 1 == ncounters and the per-feature tables are unused. */
  int generic;
  long num[SP_FEATURES_MAX][4], den[SP_FEATURES_MAX][4];
  int logf[SP_FEATURES_MAX]; /* take log1p of the value */
  long blocks[2];            /* counters giving the grid size, in
                                order of preference (-1: none) */
  int base_cu;               /* > 0: the last feature is log(1 + blocks
                                per CU at the base) */
  long blocks_per_sm;        /* counter giving the thread blocks one
                                CU holds at once (-1: none) */
  long dram[4];              /* counters summed for the DRAM traffic
                                (-1: unused; dram[0] == -1: none) */
  long pipes[SP_PIPES_MAX];  /* counters giving pipe busy percentages
                                (-1: unused) */
  long sm_active;            /* counter giving the SMs' active percentage
                                (-1: none) */
  int pipe_feature;          /* the feature before the wave feature (or
                                the last) is the busiest pipe's busy
                                share (sp__features_pipe_busy) */
  int wave_feature;          /* the last feature is the log of the base
                                time per wave (sp__features_wave_time) */
} sp_featplan;

/* Chooses the vocabulary for the counters names[0..n) of a model whose
 * base has base_cu CUs.  Never fails. */
void sp__features_plan(const char *const *names, size_t n, int base_cu, sp_featplan *plan);

/* Features of one kernel: counters in the model's order (NaN for a value
 * not measured: the feature becomes 0) and its base time (ms, > 0). */
void sp__features_compute(const sp_featplan *plan, const double *counters, double base_time_ms,
                          double *f);

/* The kernel's thread-block count, or 0 when the counters do not say. */
double sp__features_blocks(const sp_featplan *plan, const double *counters);

/* The thread blocks one CU holds at once (occupancy), or 0 when the
 * counters do not say. */
double sp__features_blocks_per_sm(const sp_featplan *plan, const double *counters);

/* The kernel's DRAM traffic at the base in the vocabulary's unit (a value
 * not measured counts as 0), or NaN when the counters have none. */
double sp__features_dram(const sp_featplan *plan, const double *counters);

/* Leaves the busiest pipe's busy share out of the features (for method
 * files written before it was one). */
void sp__features_without_pipe(sp_featplan *plan);

/* Leaves the time per wave out of the features (for method files written
 * before it was one). */
void sp__features_without_wave(sp_featplan *plan);

/* The base time per wave of thread blocks (ms): the base time over
 * ceil(B / (cu_base bps)), the waves in which the grid of B blocks runs on
 * the base's CUs holding bps blocks each; the base time itself when the
 * counters do not give B and bps.  How long one block lives tells a grid
 * of short blocks, bound by how fast blocks launch and retire, from one of
 * long blocks, bound by its critical path. */
double sp__features_wave_time(const sp_featplan *plan, const double *counters, double base_time_ms);

/* The busiest pipe's busy share of the kernel's elapsed time at the base,
 * averaged over the CUs (its busy percentage times the CUs' active
 * percentage, over 100^2), in [0, 1]; 0 when the counters do not say
 * (no pipe or no active percentage).  The
 * pipe's work stays when CUs are taken away, so on cu CUs the kernel takes
 * at least busy * cu_base / cu of its base time (at the base clock). */
double sp__features_pipe_busy(const sp_featplan *plan, const double *counters);

#endif
