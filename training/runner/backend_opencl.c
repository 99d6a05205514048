/* SPDX-License-Identifier: GPL-3.0-or-later */
/* backend_opencl.c: the OpenCL backend (any platform behind the ICD loader).
 *
 * OpenCL has no portable way to run a kernel on fewer compute units, so
 * set_cu only records the count: on pocl's CPU device the caller applies it
 * by starting the runner with POCL_CPU_MAX_CU_COUNT=N. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

enum { MAX_PROGRAMS = 128, BUILD_LOG_MAX = 4000 };

typedef struct program {
  char path[BK_PATH_MAX];
  cl_program prog;
} program;

typedef struct bk_cl {
  bk base;
  bk_dirs inc;
  cl_platform_id platform;
  cl_device_id device;
  cl_context ctx;
  cl_command_queue queue;
  program programs[MAX_PROGRAMS];
  int nprograms;
  cl_kernel kernel;
  cl_mem mem[KJOB_MAX_BUFS];
  int cu;
  /* timing */
  cl_event *first, *last;
  int samples, enqueued;
  cl_mem scratch; /* flush's buffer (NULL: none yet) */
  size_t scratch_bytes;
  cl_uint flushes;
} bk_cl;

static int fail(bk_cl *c, const char *what, cl_int rc) {
  snprintf(c->base.err, sizeof c->base.err, "%s failed (OpenCL error %d)", what, (int)rc);
  return -1;
}

/* The index-th device over all platforms, in platform order. */
static int pick_device(int index, cl_platform_id *pf, cl_device_id *dev) {
  cl_platform_id plats[16];
  cl_uint np = 0;
  if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || np == 0) return 1;
  for (cl_uint p = 0; p < np; ++p) {
    cl_device_id devs[16];
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS) continue;
    if (index < (int)nd) {
      *pf = plats[p];
      *dev = devs[index];
      return 0;
    }
    index -= (int)nd;
  }
  return 1;
}

int bk_opencl_list(FILE *out) {
  cl_platform_id plats[16];
  cl_uint np = 0;
  int index = 0;
  if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || np == 0) return 1;
  for (cl_uint p = 0; p < np; ++p) {
    cl_device_id devs[16];
    cl_uint nd = 0;
    char pname[256] = "";
    clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) != CL_SUCCESS) continue;
    for (cl_uint d = 0; d < nd; ++d) {
      char dname[256] = "";
      clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
      fprintf(out, "%d\t%s\t%s\n", index++, pname, dname);
    }
  }
  return 0;
}

/* "-cl-std=CL1.2 -I <the source's folder> -I <each include folder>",
 * malloc'd (NULL: out of memory). */
static char *build_options(const bk_cl *c, const char *path) {
  char own[BK_PATH_MAX];
  bk_dirname(path, own, sizeof own);
  size_t size = sizeof "-cl-std=CL1.2 -I " + strlen(own);
  for (int i = 0; i < c->inc.n; ++i) size += 4 + strlen(c->inc.dir[i]);
  char *opts = malloc(size);
  if (opts == NULL) return NULL;
  size_t o = (size_t)snprintf(opts, size, "-cl-std=CL1.2 -I %s", own);
  for (int i = 0; i < c->inc.n; ++i)
    o += (size_t)snprintf(opts + o, size - o, " -I %s", c->inc.dir[i]);
  return opts;
}

static int build_program(bk_cl *c, cl_context ctx, cl_device_id dev, const char *path,
                         cl_program *out) {
  char *src = bk_read_source(path, c->base.err, sizeof c->base.err);
  if (src == NULL) return -1;
  cl_int rc;
  const char *srcs[1] = {src};
  cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, NULL, &rc);
  free(src);
  if (rc != CL_SUCCESS) return fail(c, "clCreateProgramWithSource", rc);
  char *opts = build_options(c, path);
  if (opts == NULL) {
    clReleaseProgram(prog);
    snprintf(c->base.err, sizeof c->base.err, "out of memory");
    return -1;
  }
  rc = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
  free(opts);
  if (rc != CL_SUCCESS) {
    char log[BUILD_LOG_MAX] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    snprintf(c->base.err, sizeof c->base.err, "building %s failed: %.900s", path, log);
    clReleaseProgram(prog);
    return -1;
  }
  *out = prog;
  return 0;
}

static int get_program(bk_cl *c, const char *path, cl_program *out) {
  for (int i = 0; i < c->nprograms; ++i)
    if (strcmp(c->programs[i].path, path) == 0) {
      *out = c->programs[i].prog;
      return 0;
    }
  if (c->nprograms == MAX_PROGRAMS) {
    snprintf(c->base.err, sizeof c->base.err, "too many device sources");
    return -1;
  }
  if (build_program(c, c->ctx, c->device, path, out) != 0) return -1;
  program *p = &c->programs[c->nprograms++];
  snprintf(p->path, sizeof p->path, "%s", path);
  p->prog = *out;
  return 0;
}

static int cl_open(bk **out, int device, const char *const *include_dirs, char *err, size_t size) {
  bk_cl *c = calloc(1, sizeof *c);
  if (c == NULL) {
    snprintf(err, size, "out of memory");
    return -1;
  }
  c->base.ops = &bk_opencl_ops;
  if (bk_dirs_set(&c->inc, include_dirs) != 0) {
    snprintf(err, size, "out of memory");
    free(c);
    return -1;
  }
  if (pick_device(device, &c->platform, &c->device) != 0) {
    snprintf(err, size,
             "no OpenCL device %d (no platform registered with "
             "the ICD loader, or fewer devices)",
             device);
    bk_dirs_free(&c->inc);
    free(c);
    return 1;
  }
  cl_int rc;
  c->ctx = clCreateContext(NULL, 1, &c->device, NULL, NULL, &rc);
  if (rc == CL_SUCCESS)
    c->queue = clCreateCommandQueue(c->ctx, c->device, CL_QUEUE_PROFILING_ENABLE, &rc);
  if (rc != CL_SUCCESS) {
    snprintf(err, size,
             "creating an OpenCL context and queue failed "
             "(error %d)",
             (int)rc);
    if (c->ctx) clReleaseContext(c->ctx);
    bk_dirs_free(&c->inc);
    free(c);
    return -1;
  }
  *out = &c->base;
  return 0;
}

static void cl_release(bk *b, kjob *job) {
  bk_cl *c = (bk_cl *)b;
  (void)job;
  for (int i = 0; i < KJOB_MAX_BUFS; ++i)
    if (c->mem[i]) {
      clReleaseMemObject(c->mem[i]);
      c->mem[i] = NULL;
    }
  if (c->kernel) {
    clReleaseKernel(c->kernel);
    c->kernel = NULL;
  }
}

static void cl_close(bk *b) {
  bk_cl *c = (bk_cl *)b;
  if (c == NULL) return;
  cl_release(b, NULL);
  if (c->scratch) clReleaseMemObject(c->scratch);
  for (int i = 0; i < c->nprograms; ++i) clReleaseProgram(c->programs[i].prog);
  if (c->queue) clReleaseCommandQueue(c->queue);
  if (c->ctx) clReleaseContext(c->ctx);
  free(c->first);
  free(c->last);
  bk_dirs_free(&c->inc);
  free(c);
}

static void dev_str(cl_device_id d, cl_device_info what, char *buf, size_t n) {
  buf[0] = '\0';
  clGetDeviceInfo(d, what, n - 1, buf, NULL);
  buf[n - 1] = '\0';
}

static void cl_info(bk *b, bk_info *info) {
  bk_cl *c = (bk_cl *)b;
  memset(info, 0, sizeof *info);
  snprintf(info->api, sizeof info->api, "opencl");
  dev_str(c->device, CL_DEVICE_NAME, info->device, sizeof info->device);
  dev_str(c->device, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
  dev_str(c->device, CL_DRIVER_VERSION, info->driver, sizeof info->driver);
  dev_str(c->device, CL_DEVICE_VERSION, info->api_version, sizeof info->api_version);
  cl_uint cus = 0;
  cl_device_type type = 0;
  clGetDeviceInfo(c->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  clGetDeviceInfo(c->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  info->compute_units = (int)cus;
  cl_ulong cache = 0;
  if (clGetDeviceInfo(c->device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL) ==
      CL_SUCCESS)
    info->cache_bytes = (size_t)cache;
  info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  info->is_nvidia = strstr(info->vendor, "NVIDIA") != NULL;
  snprintf(info->cu_method, sizeof info->cu_method,
           "recorded only: the caller restricts compute units (pocl: "
           "POCL_CPU_MAX_CU_COUNT)");
}

static int cl_set_cu(bk *b, int cu, int *actual) {
  ((bk_cl *)b)->cu = cu;
  *actual = cu;
  return 0;
}

static int set_args(bk_cl *c, const kjob *job) {
  for (int i = 0; i < job->narg; ++i) {
    const karg *a = &job->arg[i];
    cl_int rc;
    switch (a->kind) {
      case KA_BUF:
        rc = clSetKernelArg(c->kernel, i, sizeof(cl_mem), &c->mem[a->buf]);
        break;
      case KA_F64:
        rc = clSetKernelArg(c->kernel, i, sizeof(double), &a->v.d);
        break;
      default: /* the 4-byte scalars share one union slot */
        rc = clSetKernelArg(c->kernel, i, 4, &a->v.u);
        break;
    }
    if (rc != CL_SUCCESS) {
      snprintf(c->base.err, sizeof c->base.err,
               "setting argument %d of %s failed (OpenCL error %d)", i, job->entry, (int)rc);
      return -1;
    }
  }
  return 0;
}

static int cl_reset(bk *b, kjob *job) {
  bk_cl *c = (bk_cl *)b;
  const cl_uint poison = 0xFFFFFFFFu;
  for (int i = 0; i < job->nbuf; ++i) {
    const kbuf *kb = &job->buf[i];
    cl_int rc = CL_SUCCESS;
    if (kb->role == KB_INOUT)
      rc =
          clEnqueueWriteBuffer(c->queue, c->mem[i], CL_TRUE, 0, kb->bytes, kb->host, 0, NULL, NULL);
    else if (kb->role == KB_OUT)
      rc = clEnqueueFillBuffer(c->queue, c->mem[i], &poison, sizeof poison, 0, kb->bytes, 0, NULL,
                               NULL);
    if (rc != CL_SUCCESS) return fail(c, "resetting a buffer", rc);
  }
  cl_int rc = clFinish(c->queue);
  return rc == CL_SUCCESS ? 0 : fail(c, "clFinish", rc);
}

/* OpenCL C only: CUDA-only sources are for the CUDA backend. */
static int cl_accepts(const char *file) { return !bk_cuda_only(file); }

static int cl_prepare(bk *b, kjob *job, const char *dir) {
  bk_cl *c = (bk_cl *)b;
  char path[BK_PATH_MAX];
  cl_program prog;
  cl_int rc;
  snprintf(path, sizeof path, "%s/%s", dir, job->source);
  if (!cl_accepts(job->source) || job->dyn_local > 0) {
    snprintf(c->base.err, sizeof c->base.err,
             "%.900s is CUDA C++ or uses dynamic shared memory (CUDA "
             "backend only)",
             path);
    return -1;
  }
  if (get_program(c, path, &prog) != 0) return -1;
  c->kernel = clCreateKernel(prog, job->entry, &rc);
  if (rc != CL_SUCCESS) return fail(c, job->entry, rc);
  for (int i = 0; i < job->nbuf; ++i) {
    const kbuf *kb = &job->buf[i];
    c->mem[i] = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, kb->bytes, NULL, &rc);
    if (rc != CL_SUCCESS) return fail(c, "clCreateBuffer", rc);
    if (kb->role == KB_IN) {
      rc =
          clEnqueueWriteBuffer(c->queue, c->mem[i], CL_TRUE, 0, kb->bytes, kb->host, 0, NULL, NULL);
      if (rc != CL_SUCCESS) return fail(c, "clEnqueueWriteBuffer", rc);
    }
  }
  if (set_args(c, job) != 0) return -1;
  return cl_reset(b, job);
}

static int enqueue(bk_cl *c, const kjob *job, cl_event *ev) {
  size_t global[3];
  for (int d = 0; d < 3; ++d) global[d] = job->groups[d] * job->local[d];
  cl_int rc = clEnqueueNDRangeKernel(c->queue, c->kernel, 3, NULL, global, job->local, 0, NULL, ev);
  if (rc != CL_SUCCESS) {
    snprintf(c->base.err, sizeof c->base.err, "launching %s failed (OpenCL error %d)", job->entry,
             (int)rc);
    return -1;
  }
  return 0;
}

static int cl_launch(bk *b, kjob *job) { return enqueue((bk_cl *)b, job, NULL); }

static int cl_read(bk *b, kjob *job) {
  bk_cl *c = (bk_cl *)b;
  cl_int rc = clFinish(c->queue);
  if (rc != CL_SUCCESS) return fail(c, "waiting for the kernel", rc);
  for (int i = 0; i < job->nbuf; ++i) {
    kbuf *kb = &job->buf[i];
    if (kb->role == KB_IN) continue;
    if (kb->result == NULL && (kb->result = malloc(kb->bytes)) == NULL) {
      snprintf(c->base.err, sizeof c->base.err, "out of memory");
      return -1;
    }
    rc = clEnqueueReadBuffer(c->queue, c->mem[i], CL_TRUE, 0, kb->bytes, kb->result, 0, NULL, NULL);
    if (rc != CL_SUCCESS) return fail(c, "clEnqueueReadBuffer", rc);
  }
  return 0;
}

static int cl_timing_begin(bk *b, kjob *job, int samples) {
  bk_cl *c = (bk_cl *)b;
  (void)job;
  free(c->first);
  free(c->last);
  c->first = calloc((size_t)samples, sizeof *c->first);
  c->last = calloc((size_t)samples, sizeof *c->last);
  if (c->first == NULL || c->last == NULL) {
    snprintf(c->base.err, sizeof c->base.err, "out of memory");
    return -1;
  }
  c->samples = samples;
  c->enqueued = 0;
  return 0;
}

static int cl_timing_group(bk *b, kjob *job, int launches) {
  bk_cl *c = (bk_cl *)b;
  int s = c->enqueued;
  if (s >= c->samples) {
    snprintf(c->base.err, sizeof c->base.err, "more samples than prepared");
    return -1;
  }
  for (int j = 0; j < launches; ++j) {
    cl_event *ev = NULL;
    if (j == 0)
      ev = &c->first[s];
    else if (j == launches - 1)
      ev = &c->last[s];
    if (enqueue(c, job, ev) != 0) return -1;
  }
  if (launches == 1) {
    c->last[s] = c->first[s];
    clRetainEvent(c->last[s]);
  }
  c->enqueued++;
  clFlush(c->queue);
  return 0;
}

static int cl_timing_end(bk *b, double *sample_ms) {
  bk_cl *c = (bk_cl *)b;
  cl_int rc = clFinish(c->queue);
  int ok = rc == CL_SUCCESS;
  for (int s = 0; s < c->enqueued; ++s) {
    cl_ulong t0 = 0, t1 = 0;
    if (ok)
      ok = clGetEventProfilingInfo(c->first[s], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) ==
               CL_SUCCESS &&
           clGetEventProfilingInfo(c->last[s], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) ==
               CL_SUCCESS;
    sample_ms[s] = (double)(t1 - t0) * 1e-6;
    clReleaseEvent(c->first[s]);
    clReleaseEvent(c->last[s]);
  }
  c->enqueued = 0;
  if (!ok) {
    snprintf(c->base.err, sizeof c->base.err, "reading OpenCL profiling events failed");
    return -1;
  }
  return 0;
}

static int cl_compile_only(const char *const *include_dirs, const char *const *paths,
                           const char *arch, char *err, size_t size) {
  bk *b = NULL;
  (void)arch;
  int rc = cl_open(&b, 0, include_dirs, err, size);
  if (rc != 0) return rc;
  bk_cl *c = (bk_cl *)b;
  cl_program prog;
  for (const char *const *s = paths; *s; ++s)
    if (get_program(c, *s, &prog) != 0) {
      snprintf(err, size, "%s", c->base.err);
      cl_close(b);
      return -1;
    }
  cl_close(b);
  return 0;
}

/* OpenCL has no occupancy query.  The approximation is one work-group per
 * compute unit at a time, which is what pocl's CPU device does (a core runs
 * one work-group to its end); on a GPU several are resident, so a "wave"
 * here is a fraction of a hardware wave.  The extrapolation only needs the
 * same unit for the partial and the full grid, so it stays linear in it;
 * only the first points' lead-in effects are measured on fewer groups. */
static int cl_groups_per_cu(bk *b, kjob *job, int *groups) {
  (void)b;
  (void)job;
  *groups = 1;
  return 0;
}

static int cl_flush(bk *b, size_t bytes) {
  bk_cl *c = (bk_cl *)b;
  cl_int rc = CL_SUCCESS;
  bytes = (bytes + 3) / 4 * 4;
  if (c->scratch_bytes < bytes) {
    if (c->scratch) clReleaseMemObject(c->scratch);
    c->scratch_bytes = 0;
    c->scratch = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, bytes, NULL, &rc);
    if (rc != CL_SUCCESS) return fail(c, "clCreateBuffer", rc);
    c->scratch_bytes = bytes;
  }
  /* A different value each time: every line is written anew. */
  cl_uint v = 0x5a5a0000u + (++c->flushes & 0xffffu);
  rc = clEnqueueFillBuffer(c->queue, c->scratch, &v, sizeof v, 0, bytes, 0, NULL, NULL);
  if (rc != CL_SUCCESS) return fail(c, "clEnqueueFillBuffer", rc);
  return 0;
}

const bk_ops bk_opencl_ops = {
    "opencl",        cl_open,       cl_close,  cl_info,         cl_set_cu,        cl_accepts,
    cl_prepare,      cl_reset,      cl_launch, cl_read,         cl_release,       cl_timing_begin,
    cl_timing_group, cl_timing_end, cl_flush,  cl_compile_only, cl_groups_per_cu,
};
