/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dataset.h: the in-memory form of runs.csv and counters.csv.  Internal. */
#ifndef SP_DATASET_H
#define SP_DATASET_H

#include <stddef.h>

#include "scalepredict.h"

typedef struct sp_run {
  size_t kernel;
  sp_config cfg;
  double time_ms;
  double power_w; /* NaN when the row has none */
  long line;
  int completed; /* the source column says a surrogate filled it in */
} sp_run;

typedef struct sp_counter_row {
  size_t kernel;
  sp_config cfg;
  long line;
  size_t offset; /* into sp_dataset.counter_values */
} sp_counter_row;

/* Open-addressing map from (kernel, configuration) to a row index. */
typedef struct sp_rowmap {
  size_t *slots; /* row index + 1; 0 = empty */
  size_t mask;
} sp_rowmap;

struct sp_dataset {
  char *runs_path;
  char *counters_path;
  char **kernels;
  size_t nkernels, kernels_cap;
  sp_rowmap kernel_map; /* name hash -> kernel index + 1 */
  sp_run *runs;
  size_t nruns, runs_cap;
  sp_rowmap run_map;
  char **counter_names;
  size_t ncounters;
  sp_counter_row *crows;
  size_t ncrows, crows_cap;
  double *counter_values;
  size_t nvalues, values_cap;
  sp_rowmap crow_map;
  int *axis[3];
  size_t naxis[3];
  char **notes; /* what sp_dataset_options skipped */
  size_t nnotes;
};

/* Row index of kernel k at cfg, or (size_t)-1. */
size_t sp__dataset_find_run(const sp_dataset *ds, size_t k, const sp_config *cfg);
size_t sp__dataset_find_counters(const sp_dataset *ds, size_t k, const sp_config *cfg);
/* A deep copy of ds (the same kernels, rows, counters, axes and notes),
 * whose run values a caller may then change; NULL when out of memory. */
sp_dataset *sp__dataset_clone(const sp_dataset *ds);

#endif
