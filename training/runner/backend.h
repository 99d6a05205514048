/* SPDX-License-Identifier: GPL-3.0-or-later */
/* backend.h: what the runner needs from a compute API.
 *
 * A backend owns one device.  It compiles the suite's device sources (each
 * file once per session), turns a kjob into device buffers and launches,
 * restricts work to a number of compute units where the API can (CUDA green
 * contexts), and times launches with device events.
 *
 * Timing protocol: timing_begin(n) prepares n samples; timing_group(k)
 * enqueues one sample of k back-to-back launches; timing_end() waits and
 * returns each sample's device time in milliseconds.  flush(bytes), between
 * two timing_group calls, enqueues untimed writes to a scratch buffer so
 * that the next sample reads its data from memory, not from the cache.
 *
 * Every function returns 0 on success and -1 on failure, with the reason in
 * bk_error(b).
 */
#ifndef SP_BACKEND_H
#define SP_BACKEND_H

#include <stddef.h>
#include <stdio.h>

#include "suite.h"

typedef struct bk bk;

enum { BK_PATH_MAX = 1024 };

/* The folders device sources include headers from (the shared headers'
 * folder and every suite's, runner_include_dirs): given to open as a
 * NULL-terminated list of any length, searched in order after the source's
 * own folder.  A backend keeps a copy. */
typedef struct bk_dirs {
  char **dir;
  int n;
} bk_dirs;

typedef struct bk_info {
  char api[32];     /* "opencl" or "cuda" */
  char device[256]; /* device name */
  char vendor[128];
  char driver[128];      /* driver version */
  char api_version[128]; /* platform / CUDA driver API version */
  char pci_bus_id[64];   /* "0000:41:00.0", empty when unknown */
  int compute_units;     /* CUs / SMs of the whole device */
  size_t cache_bytes;    /* the device's last-level cache (L2), 0: unknown */
  int is_gpu;
  int is_nvidia;
  char cu_method[256]; /* how --cu is applied */
} bk_info;

typedef struct bk_ops {
  const char *name;
  /* Opens device `device`.  Returns 1 (not -1) when the API or the device
   * is not available on this machine, so callers can skip. */
  int (*open)(bk **out, int device, const char *const *include_dirs, char *err, size_t size);
  void (*close)(bk *b);
  void (*info)(bk *b, bk_info *info);
  /* Restricts the following launches to cu compute units.  *actual gets
   * what the device granted (backends that cannot restrict just record
   * cu). */
  int (*set_cu)(bk *b, int cu, int *actual);
  /* Whether this backend can compile the device source file (the OpenCL
   * backend refuses CUDA-only .cu sources). */
  int (*accepts)(const char *file);
  /* Builds the job's kernel from dir/job->source and the device buffers,
   * and uploads KB_IN and KB_INOUT contents. */
  int (*prepare)(bk *b, kjob *job, const char *dir);
  /* Re-uploads KB_INOUT contents and poisons KB_OUT buffers. */
  int (*reset)(bk *b, kjob *job);
  int (*launch)(bk *b, kjob *job);
  /* Waits for the queue, then reads KB_OUT and KB_INOUT into result. */
  int (*read)(bk *b, kjob *job);
  void (*release)(bk *b, kjob *job);
  int (*timing_begin)(bk *b, kjob *job, int samples);
  int (*timing_group)(bk *b, kjob *job, int launches);
  int (*timing_end)(bk *b, double *sample_ms);
  /* Enqueues writes of bytes to a scratch buffer (allocated on first use,
   * kept until close), outside any timed sample. */
  int (*flush)(bk *b, size_t bytes);
  /* Compiles every named source file (paths, NULL-terminated) without
   * running anything (a GPU is not needed for CUDA: NVRTC alone). */
  int (*compile_only)(const char *const *include_dirs, const char *const *paths, const char *arch,
                      char *err, size_t size);
  /* How many of the prepared job's work-groups one compute unit holds at
   * once (CUDA: the occupancy API), so that a wave is CUs x that many
   * groups.  OpenCL has no occupancy query: 1 (see backend_opencl.c). */
  int (*groups_per_cu)(bk *b, kjob *job, int *groups);
} bk_ops;

/* Common head of every backend's private struct. */
struct bk {
  const bk_ops *ops;
  char err[1024];
};

const char *bk_error(const bk *b);

extern const bk_ops bk_opencl_ops;
#ifdef SP_HAVE_CUDA
extern const bk_ops bk_cuda_ops;
/* Prints which SM counts a green-context split can give exactly. */
int bk_cuda_probe_cu(bk *b, FILE *out);
#endif

/* Prints the OpenCL devices, one per line with the index --device takes. */
int bk_opencl_list(FILE *out);

/* The backend called name, or NULL. */
const bk_ops *bk_find(const char *name);

/* Reads path into a NUL-terminated malloc'd string. */
char *bk_read_source(const char *path, char *err, size_t size);

/* Whether file is a CUDA-only device source (CUDA C++, name ending in .cu):
 * NVRTC compiles it, OpenCL cannot. */
int bk_cuda_only(const char *file);

/* Copies a NULL-terminated folder list into d: 0, or -1 when out of memory
 * (d then empty).  bk_dirs_free releases the copy. */
int bk_dirs_set(bk_dirs *d, const char *const *dirs);
void bk_dirs_free(bk_dirs *d);

/* The folder part of path ("." when it has none) into buf. */
void bk_dirname(const char *path, char *buf, size_t size);

#endif /* SP_BACKEND_H */
