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

/* The suites of training/suites.txt, in its order: configure writes their
 * table to suites.def (training/suites.sh def), one SP_SUITE(name, prefix,
 * folder, role, retired) line each. */
typedef enum runner_role { RUNNER_TRAINING, RUNNER_HELDOUT } runner_role;
typedef struct runner_suite_info {
  const char *name;    /* the --suite name */
  const char *prefix;  /* the start of every kernel name ("": none) */
  const char *folder;  /* its sources, from the top of the source tree */
  runner_role role;    /* training, or held out */
  const char *retired; /* the day it was retired into training ("": not) */
  size_t (*count)(void);
  const kdesc *(*at)(size_t i);
} runner_suite_info;

#define SP_SUITE(name, prefix, folder, role, retired) +1
enum {
  RUNNER_NSUITES = 0
#include "suites.def"
};
#undef SP_SUITE

/* Suite i of the registry (0 <= i < RUNNER_NSUITES). */
const runner_suite_info *runner_suite_info_at(int i);

/* What --suite selects: one registry suite (its index), or every suite
 * (ALL), every training suite (TRAINING) or every held-out one (HELDOUT),
 * in registry order. */
typedef int runner_suite;
enum { RUNNER_SEL_ALL = -1, RUNNER_SEL_TRAINING = -2, RUNNER_SEL_HELDOUT = -3 };

/* The folder index of the shared device headers (training/kernels/common)
 * in runner_opts.suite_dir, after the suites'. */
enum { RUNNER_COMMON_DIR = RUNNER_NSUITES };

typedef struct runner_opts {
  const char *backend;
  const char *runs, *meta, *detail, *manifest, *counters, *import_ncu;
  /* Each suite's source folder, in registry order, then the shared device
   * headers' ([RUNNER_COMMON_DIR]). */
  const char *suite_dir[RUNNER_NSUITES + 1];
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

/* The kernels of a suite selection, in run order, and a lookup by name. */
size_t runner_suite_count(runner_suite s);
const kdesc *runner_suite_at(runner_suite s, size_t i);
const kdesc *runner_suite_find(runner_suite s, const char *name);
/* The folder holding d's device source: suite_dir of d's suite. */
const char *runner_source_dir(const runner_opts *o, const kdesc *d);
/* The folders device sources include from (NULL-terminated): the shared
 * headers' (training/kernels/common), then every suite's. */
enum { RUNNER_INCLUDE_DIRS = RUNNER_NSUITES + 2 };
void runner_include_dirs(const runner_opts *o, const char *dirs[RUNNER_INCLUDE_DIRS]);
/* The --suite name of s: a registry name, "all", "training" or "heldout". */
const char *runner_suite_name(runner_suite s);
/* The selection called name (a runner_suite_name, or "train", the core
 * suite's old name) in *out: 0, or -1 when nothing has that name. */
int runner_suite_parse(const char *name, runner_suite *out);
/* The registry index of the suite called name ("common":
 * RUNNER_COMMON_DIR), or -1: for --suite-dir. */
int runner_dir_index(const char *name);

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
