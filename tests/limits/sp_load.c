/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp_load.c: loads runs.csv (and counters.csv) through the library and
 * prints what it found and how long it took; tests/limits/measure.sh runs
 * it under /usr/bin/time -v to measure loading a million-row file.
 *
 * Usage: sp_load RUNS [COUNTERS]
 * Exit status: 0 loaded, 2 the library refused the input (its error on
 * stderr), 1 usage. */
#include <stdio.h>
#include <time.h>

#include "scalepredict.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: sp_load RUNS [COUNTERS]\n");
    return 1;
  }
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  const double t0 = now();
  if (sp_dataset_load(argv[1], argc > 2 ? argv[2] : NULL, &ds, &err)) {
    char line[2048];
    sp_error_format(&err, line, sizeof line);
    fprintf(stderr, "sp_load: %s\n", line);
    return 2;
  }
  const double secs = now() - t0;
  const int *v;
  size_t n[3];
  for (int a = 0; a < 3; a++) n[a] = sp_dataset_axis(ds, a, &v);
  printf("loaded %zu kernels, %zu counters, grid %zu x %zu x %zu in %.3f s\n",
         sp_dataset_kernel_count(ds), sp_dataset_counter_count(ds), n[0], n[1], n[2], secs);
  sp_dataset_free(ds);
  return 0;
}
