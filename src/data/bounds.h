/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bounds.h: the range every measured quantity must lie in to be read at
 * all (runs.csv, counters.csv, a governor trace's base columns, a workload's
 * weights).  The one place these bounds live; README.md ("Data formats")
 * documents them.  Internal.
 *
 * The ranges are generous: each is several orders of magnitude beyond what
 * any GPU measures, so a real measurement never meets one, while a value in
 * the wrong unit or a corrupt field (1e308 ms) is refused where it is read,
 * with its file, line and column, rather than overflowing far away as a
 * "numerical failure" in a sum or a ratio.  Within them, every product the
 * tool forms (ratios of two times or powers, predicted energies, weighted
 * sums of a workload, EDP and ED2P) stays far inside a double's range. */
#ifndef SP_BOUNDS_H
#define SP_BOUNDS_H

#include "scalepredict.h"

typedef enum sp_bound_kind {
  SP_BOUND_TIME_MS, /* time_ms, base_time_ms: 1e-6 (1 ns) .. 1e7 (2.8 h) */
  SP_BOUND_POWER_W, /* power_w, base_power_w: 1e-3 (1 mW) .. 1e5 (100 kW) */
  SP_BOUND_CU,      /* cu: 1 .. 100000 */
  SP_BOUND_CLOCK,   /* engine_mhz, memory_mhz: 1 .. 100000 (100 GHz) */
  SP_BOUND_COUNTER, /* a counter: -1e20 .. 1e20 (a 64-bit counter ends at 1.8e19) */
  SP_BOUND_WEIGHT,  /* a workload's weight or launch count: 1e-9 .. 1e15 */
  SP_BOUND_BUS,     /* a memory bus width in bits: 1 .. 100000 */
  SP_BOUND_GBS,     /* a peak memory bandwidth: 1e-3 .. 1e6 GB/s (1 MB/s .. 1 PB/s) */
  SP_BOUND_GB,      /* a memory capacity: 1e-6 .. 1e6 GB (1 kB .. 1 PB) */
  SP_BOUND_KIND_COUNT
} sp_bound_kind;

typedef struct sp_bound {
  double lo, hi;
  const char *unit;  /* "ms", "W", "MHz" or "" */
  const char *range; /* the range in words, for messages */
} sp_bound;

const sp_bound *sp__bound(sp_bound_kind kind);

/* Where a field was read, for the error. */
typedef struct sp_field_at {
  const char *path;
  long line, column; /* 1-based */
  const char *field;
} sp_field_at;

/* Parses text (the whole field, spaces around it allowed) as a number of
 * the kind, inside its bounds; otherwise SP_EPARSE with err located at at.
 * Times, powers and weights must be positive, counters finite. */
int sp__read_bounded(const char *text, sp_bound_kind kind, const sp_field_at *at, double *out,
                     sp_error *err);
/* The same for the integer kinds (CU counts and clocks). */
int sp__read_bounded_int(const char *text, sp_bound_kind kind, const sp_field_at *at, int *out,
                         sp_error *err);

#endif
