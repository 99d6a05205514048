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
  RUNNER_FAILED = 1,      /* a kernel failed to build, run or verify */
  RUNNER_USAGE = 2,       /* bad command line */
  RUNNER_UNAVAILABLE = 3  /* the backend or device is not on this machine */
};

enum { RUNNER_MAX_CU = 64, RUNNER_MAX_KERNELS = 256 };

typedef struct runner_opts {
  const char *backend;
  const char *runs, *meta, *detail, *manifest, *counters, *import_ncu;
  const char *kernel_dir;
  const char *power;      /* auto, nvml, rapl, none */
  const char *arch;       /* --compile-only target for CUDA */
  const kdesc *kernels[RUNNER_MAX_KERNELS];
  size_t nkernels;
  int cu[RUNNER_MAX_CU];
  int ncu;
  int engine_mhz, memory_mhz; /* -1: auto */
  int device;
  ksize size;
  int counters_base;
  mparams mp;
  char command[2048];     /* the command line, for the metadata */
} runner_opts;

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
void meta_begin(const meta_state *m);
void meta_end(const meta_state *m, size_t written, size_t skipped,
              size_t failed, int interrupted, double counter_period_ms,
              int counter_intervals);
/* ISO 8601 UTC time into buf. */
void meta_now(char *buf, size_t size);

/* Converts ncu --csv --page raw output into counters.csv rows.  Returns a
 * RUNNER_* status. */
int runner_import_ncu(const char *ncu_csv, const char *manifest,
                      const char *counters);

#endif /* SP_RUNNER_H */
