/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_dataset.c: the runs.csv + counters.csv loader.
 *
 * Input: runs.csv, optionally followed by the line "@@counters@@" and
 * counters.csv.  Properties: loading either fails with a located error and
 * no dataset, or gives a dataset whose every accessor is consistent; every
 * kernel's scaling surfaces either build or fail with an error, and a built
 * surface holds only positive finite values; every value read lies in the
 * bounds of data/bounds.h. */
#define _GNU_SOURCE /* memmem */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data/bounds.h"
#include "fuzz.h"
#include "scalepredict.h"

#define SEPARATOR "\n@@counters@@\n"
/* Surfaces are built for this many kernels at most, to keep executions
 * fast; the loader itself sees the whole input. */
#define MAX_SURFACE_KERNELS 4

static void check_error(int st, const sp_error *err) {
  FZ_CHECK(st > SP_OK && st < SP_STATUS_COUNT);
  FZ_CHECK(err->status == st);
  char line[2048];
  FZ_CHECK(sp_error_format(err, line, sizeof line) > 0);
}

static void print_error(const sp_error *err) {
  char line[2048];
  sp_error_format(err, line, sizeof line);
  fz_print(line);
}

static void check_surfaces(const sp_dataset *ds, size_t k, FILE *sink) {
  for (int q = SP_TIME; q <= SP_POWER; q++) {
    sp_surface *s = NULL;
    sp_error err;
    sp_error_clear(&err);
    int st = sp_surface_build(ds, k, (sp_quantity)q, &s, &err);
    if (st != SP_OK) {
      FZ_CHECK(s == NULL);
      check_error(st, &err);
      continue;
    }
    FZ_CHECK(sp_surface_write_csv(s, sink) == SP_OK);
    const int *cu;
    sp_dataset_axis(ds, SP_AXIS_CU, &cu);
    sp_config base = {cu[0], 0, 0}, top;
    const int *v;
    sp_dataset_axis(ds, SP_AXIS_ENGINE, &v);
    base.engine_mhz = v[0];
    top.engine_mhz = v[sp_dataset_axis(ds, SP_AXIS_ENGINE, &v) - 1];
    sp_dataset_axis(ds, SP_AXIS_MEMORY, &v);
    base.memory_mhz = v[0];
    top.memory_mhz = v[sp_dataset_axis(ds, SP_AXIS_MEMORY, &v) - 1];
    top.cu = cu[sp_dataset_axis(ds, SP_AXIS_CU, &cu) - 1];
    double measured, predicted;
    int have = q == SP_TIME ? sp_dataset_time(ds, k, &base, &measured)
                            : sp_dataset_power(ds, k, &base, &measured);
    FZ_CHECK(have == SP_OK);
    FZ_CHECK(sp_surface_scale(s, &base, &top, measured, &predicted) == SP_OK);
    /* The surface reproduces its own data: no NaN, however extreme. */
    FZ_CHECK(!isnan(predicted));
    sp_surface_free(s);
  }
}

/* Every value an accepted dataset holds lies in its bounds (data/bounds.h):
 * the axes, and kernel k's times and powers at the first configurations. */
static void check_bounds(const sp_dataset *ds, size_t k) {
  const int *v[3];
  size_t n[3];
  for (int a = SP_AXIS_CU; a <= SP_AXIS_MEMORY; a++) {
    n[a] = sp_dataset_axis(ds, a, &v[a]);
    const sp_bound *b = sp__bound(a == SP_AXIS_CU ? SP_BOUND_CU : SP_BOUND_CLOCK);
    for (size_t i = 0; i < n[a]; i++) FZ_CHECK(v[a][i] >= b->lo && v[a][i] <= b->hi);
  }
  const sp_bound *bt = sp__bound(SP_BOUND_TIME_MS), *bp = sp__bound(SP_BOUND_POWER_W);
  for (size_t i = 0; i < n[0] && i < 4; i++)
    for (size_t j = 0; j < n[1] && j < 4; j++)
      for (size_t m = 0; m < n[2] && m < 4; m++) {
        sp_config c = {v[0][i], v[1][j], v[2][m]};
        double x;
        if (sp_dataset_time(ds, k, &c, &x) == SP_OK) FZ_CHECK(x >= bt->lo && x <= bt->hi);
        if (sp_dataset_power(ds, k, &c, &x) == SP_OK) FZ_CHECK(x >= bp->lo && x <= bp->hi);
      }
}

static void check_dataset(const sp_dataset *ds, FILE *sink) {
  size_t nk = sp_dataset_kernel_count(ds);
  FZ_CHECK(nk > 0);
  for (size_t k = 0; k < nk; k++) {
    const char *name = sp_dataset_kernel_name(ds, k);
    FZ_CHECK(name && *name);
    FZ_CHECK(sp_dataset_kernel_index(ds, name) == k);
  }
  FZ_CHECK(sp_dataset_kernel_name(ds, nk) == NULL);
  for (size_t c = 0; c < sp_dataset_counter_count(ds); c++)
    FZ_CHECK(sp_dataset_counter_name(ds, c) != NULL);
  for (int a = SP_AXIS_CU; a <= SP_AXIS_MEMORY; a++) {
    const int *v;
    size_t n = sp_dataset_axis(ds, a, &v);
    FZ_CHECK(n > 0);
    for (size_t i = 0; i < n; i++) FZ_CHECK(v[i] > 0 && (i == 0 || v[i] > v[i - 1]));
  }
  for (size_t k = 0; k < nk && k < MAX_SURFACE_KERNELS; k++) {
    check_bounds(ds, k);
    check_surfaces(ds, k, sink);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *sink;
  if (!sink && !(sink = fopen("/dev/null", "w"))) return 0;
  const uint8_t *sep = memmem(data, size, SEPARATOR, strlen(SEPARATOR));
  size_t nruns = sep ? (size_t)(sep - data) : size;
  /* fz_path's buffer is reused: keep the two paths apart. */
  char runs_path[8192];
  snprintf(runs_path, sizeof runs_path, "%s", fz_write("runs.csv", data, nruns));
  const char *counters = NULL;
  if (sep) {
    size_t skip = nruns + strlen(SEPARATOR);
    counters = fz_write("counters.csv", data + skip, size - skip);
  }
  sp_dataset *ds = (sp_dataset *)&ds; /* must be reset by the loader */
  sp_error err;
  sp_error_clear(&err);
  int st = sp_dataset_load(runs_path, counters, &ds, &err);
  if (st != SP_OK) {
    FZ_CHECK(ds == NULL);
    check_error(st, &err);
    if (fz_verbose()) print_error(&err);
    return 0;
  }
  FZ_CHECK(ds != NULL);
  if (fz_verbose())
    printf("loaded: %zu kernels, %zu counters\n", sp_dataset_kernel_count(ds),
           sp_dataset_counter_count(ds));
  check_dataset(ds, sink);
  sp_dataset_free(ds);
  return 0;
}
