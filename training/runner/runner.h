/* SPDX-License-Identifier: GPL-3.0-or-later */
/* runner.h: what the runner's modules share (options, the sweep, metadata,
 * the Nsight Compute import). */
#ifndef SP_RUNNER_H
#define SP_RUNNER_H

#include "backend.h"
#include "measure.h"
#include "nvml.h"

/* Exit statuses of sp-runner. */
enum {
  RUNNER_OK = 0,
  RUNNER_FAILED = 1,     /* a kernel failed to build, run or verify */
  RUNNER_USAGE = 2,      /* bad command line */
  RUNNER_UNAVAILABLE = 3 /* the backend or device is not on this machine */
};

enum { RUNNER_MAX_CU = 64, RUNNER_MAX_KERNELS = 1024 };

/* Which kernel table --suite selects: the training suite
 * (training/kernels/suite.c), the held-out validation suite
 * (training/validation/validation.c), the second to tenth held-out
 * validation suites (training/validation2/validation2.c,
 * training/validation3/validation3.c, training/validation4/validation4.c,
 * training/validation5/validation5.c, training/validation6/validation6.c,
 * training/validation7/validation7.c, training/validation8/validation8.c,
 * training/validation9/validation9.c, training/validation10/validation10.c),
 * or all eleven, in that order. */
typedef enum runner_suite {
  RUNNER_SUITE_TRAIN,
  RUNNER_SUITE_VALIDATION,
  RUNNER_SUITE_VALIDATION2,
  RUNNER_SUITE_VALIDATION3,
  RUNNER_SUITE_VALIDATION4,
  RUNNER_SUITE_VALIDATION5,
  RUNNER_SUITE_VALIDATION6,
  RUNNER_SUITE_VALIDATION7,
  RUNNER_SUITE_VALIDATION8,
  RUNNER_SUITE_VALIDATION9,
  RUNNER_SUITE_VALIDATION10,
  RUNNER_SUITE_ALL
} runner_suite;
enum { RUNNER_VALIDATION_SUITES = RUNNER_SUITE_ALL - RUNNER_SUITE_VALIDATION };

typedef struct runner_opts {
  const char *backend;
  const char *runs, *meta, *detail, *manifest, *counters, *import_ncu;
  const char *kernel_dir; /* training/kernels: sources and sp_port.h */
  /* The validation suites' sources: [0] training/validation's, [n - 1]
   * training/validationN's (the suite RUNNER_SUITE_VALIDATION + i). */
  const char *validation_dir[RUNNER_VALIDATION_SUITES];
  runner_suite suite;
  const char *power; /* auto, nvml, rapl, none */
  const char *arch;  /* --compile-only target for CUDA */
  const kdesc *kernels[RUNNER_MAX_KERNELS];
  size_t nkernels;
  int cu[RUNNER_MAX_CU];
  int ncu;
  int engine_mhz, memory_mhz; /* -1: auto */
  int device;
  ksize size;
  int counters_base;
  mparams mp;
  char command[2048]; /* the command line, for the metadata */
} runner_opts;

/* The kernels of a suite selection, in run order, and a lookup by name
 * (the training suite first under RUNNER_SUITE_ALL). */
size_t runner_suite_count(runner_suite s);
const kdesc *runner_suite_at(runner_suite s, size_t i);
const kdesc *runner_suite_find(runner_suite s, const char *name);
/* The folder holding d's device source: validation_dir[i] for a kernel
 * of the (i + 1)th validation suite, else kernel_dir. */
const char *runner_source_dir(const runner_opts *o, const kdesc *d);
/* The folders device sources include from (NULL-terminated): the kernel
 * folder (sp_port.h) and the ten validation folders.  The backends copy
 * at most BK_MAX_DIRS of them (backend.h; suites.c asserts they fit). */
enum { RUNNER_INCLUDE_DIRS = RUNNER_VALIDATION_SUITES + 2 };
void runner_include_dirs(const runner_opts *o, const char *dirs[RUNNER_INCLUDE_DIRS]);
/* The --suite name of s ("train", "validation", "validation2",
 * "validation3", "validation4", "validation5", "validation6",
 * "validation7", "validation8", "validation9", "validation10", "all"). */
const char *runner_suite_name(runner_suite s);
/* The suite called name (a runner_suite_name) in *out: 0, or -1 when no
 * suite has that name. */
int runner_suite_parse(const char *name, runner_suite *out);

/* Measures (or, with counters_base, launches once for a profiler) every
 * selected kernel at every --cu level.  Returns a RUNNER_* status. */
int runner_sweep(const runner_opts *o);

/* Appends a session block to the metadata file. */
typedef struct meta_state {
  const runner_opts *o;
  bk_info info;
  nvml *nv;
  const char *power_source;
  const char *started;
} meta_state;
/* What a session did, for the end of its metadata block. */
typedef struct meta_tally {
  size_t written; /* rows (or checked launches) written */
  size_t skipped; /* configurations already in the runs file */
  size_t failed;
  size_t unsupported; /* kernels the backend cannot compile (CUDA-only) */
  int interrupted;    /* stopped by a signal */
  double counter_period_ms;
  int counter_intervals;
} meta_tally;
void meta_begin(const meta_state *m);
void meta_end(const meta_state *m, const meta_tally *t);
/* ISO 8601 UTC time into buf. */
void meta_now(char *buf, size_t size);

/* Converts ncu --csv --page raw output into counters.csv rows.  Returns a
 * RUNNER_* status. */
int runner_import_ncu(const char *ncu_csv, const char *manifest, const char *counters);

#endif /* SP_RUNNER_H */
