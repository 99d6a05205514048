/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp_greenctx.c: the calling thread's CUDA work on a green context of N SMs
 * (scalepredict_greenctx.h).  The same driver calls as the harness's CUDA
 * backend (training/runner/backend_cuda.c): the device's SM resource, one
 * group of N SMs split off it (the default split first, then without SM
 * co-scheduling), a descriptor, the green context with its default stream,
 * its sp_cu_context made current.  libcuda is opened with dlopen and the few
 * types the calls need are declared here as cuda.h (CUDA 12.4 and later,
 * resource ABI version 1) lays them out, so no CUDA header is needed to
 * build; where cuda.h is present the layout is checked against it. */
#define _POSIX_C_SOURCE 200809L
#include "scalepredict_greenctx.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int sp_cu_result;
typedef int sp_cu_device;
typedef struct sp_opaque *sp_cu_context, *sp_cu_green, *sp_cu_desc;

/* CUdevResource, resource ABI version 1: a type, padding, and a 48-byte
 * union whose SM member starts with the SM count. */
typedef struct sp_dev_resource {
  int type;
  unsigned char padding[92];
  union {
    struct {
      unsigned sm_count, min_partition, coscheduled_alignment;
    } sm;
    unsigned char oversize[48];
  } u;
} sp_dev_resource;

#if defined(__has_include)
#if __has_include(<cuda.h>)
#include <cuda.h>
#if CUDA_VERSION >= 12040
#include <stddef.h>
_Static_assert(sizeof(sp_dev_resource) == sizeof(CUdevResource), "CUdevResource size");
_Static_assert(offsetof(sp_dev_resource, u.sm.sm_count) == offsetof(CUdevResource, sm.smCount),
               "CUdevResource smCount offset");
#endif
#endif
#endif

enum { RESOURCE_SM = 1, GREEN_DEFAULT_STREAM = 1, SPLIT_IGNORE_COSCHEDULING = 1 };

typedef struct api {
  sp_cu_result (*init)(unsigned);
  sp_cu_result (*device_get)(sp_cu_device *, int);
  sp_cu_result (*get_resource)(sp_cu_device, sp_dev_resource *, int);
  sp_cu_result (*split)(sp_dev_resource *, unsigned *, const sp_dev_resource *, sp_dev_resource *,
                        unsigned, unsigned);
  sp_cu_result (*desc)(sp_cu_desc *, sp_dev_resource *, unsigned);
  sp_cu_result (*create)(sp_cu_green *, sp_cu_desc, sp_cu_device, unsigned);
  sp_cu_result (*to_ctx)(sp_cu_context *, sp_cu_green);
  sp_cu_result (*green_resource)(sp_cu_green, sp_dev_resource *, int);
  sp_cu_result (*set_current)(sp_cu_context);
} api;

static int load(api *a, char *err, size_t size) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  static const char *const names[] = {"cuInit",
                                      "cuDeviceGet",
                                      "cuDeviceGetDevResource",
                                      "cuDevSmResourceSplitByCount",
                                      "cuDevResourceGenerateDesc",
                                      "cuGreenCtxCreate",
                                      "cuCtxFromGreenCtx",
                                      "cuGreenCtxGetDevResource",
                                      "cuCtxSetCurrent"};
  void *f[sizeof names / sizeof *names];
  if (!lib) {
    snprintf(err, size, "the CUDA driver (libcuda.so.1) cannot be loaded: %s", dlerror());
    return -1;
  }
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!(f[i] = dlsym(lib, names[i]))) {
      snprintf(err, size,
               "libcuda.so.1 lacks %s: green contexts need a CUDA 12.4 or "
               "later driver",
               names[i]);
      return -1;
    }
  memcpy(&a->init, &f[0], sizeof f[0]);
  memcpy(&a->device_get, &f[1], sizeof f[1]);
  memcpy(&a->get_resource, &f[2], sizeof f[2]);
  memcpy(&a->split, &f[3], sizeof f[3]);
  memcpy(&a->desc, &f[4], sizeof f[4]);
  memcpy(&a->create, &f[5], sizeof f[5]);
  memcpy(&a->to_ctx, &f[6], sizeof f[6]);
  memcpy(&a->green_resource, &f[7], sizeof f[7]);
  memcpy(&a->set_current, &f[8], sizeof f[8]);
  return 0;
}

/* A group of exactly sms SMs split off all; the whole device unsplit. */
static int split(const api *a, const sp_dev_resource *all, int sms, sp_dev_resource *group,
                 unsigned *got) {
  static const unsigned flags[] = {0, SPLIT_IGNORE_COSCHEDULING};
  *got = 0;
  if ((unsigned)sms == all->u.sm.sm_count) {
    *group = *all;
    *got = all->u.sm.sm_count;
    return 0;
  }
  for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
    unsigned n = 1;
    sp_dev_resource rest;
    memset(group, 0, sizeof *group);
    if (a->split(group, &n, all, &rest, flags[i], (unsigned)sms) == 0 && n == 1) {
      *got = group->u.sm.sm_count;
      if (*got == (unsigned)sms) return 0;
    }
  }
  return -1;
}

#define CALL(what, call)                                           \
  do {                                                             \
    sp_cu_result rc_ = (call);                                     \
    if (rc_ != 0) {                                                \
      snprintf(err, size, "%s failed (CUDA error %d)", what, rc_); \
      return -1;                                                   \
    }                                                              \
  } while (0)

int sp_greenctx_enter(int device, int sms, int *actual, char *err, size_t size) {
  api a;
  sp_cu_device dev;
  sp_dev_resource all, group, check;
  sp_cu_desc desc;
  sp_cu_green green;
  sp_cu_context ctx;
  unsigned got = 0;
  if (load(&a, err, size)) return -1;
  CALL("cuInit", a.init(0));
  CALL("cuDeviceGet", a.device_get(&dev, device));
  CALL("cuDeviceGetDevResource", a.get_resource(dev, &all, RESOURCE_SM));
  if (sms < 1 || (unsigned)sms > all.u.sm.sm_count || split(&a, &all, sms, &group, &got)) {
    snprintf(err, size,
             "no green context of exactly %d SMs: the split gives %u (device %u "
             "SMs, partitions of at least %u, aligned to %u)",
             sms, got, all.u.sm.sm_count, all.u.sm.min_partition, all.u.sm.coscheduled_alignment);
    return -1;
  }
  CALL("cuDevResourceGenerateDesc", a.desc(&desc, &group, 1));
  CALL("cuGreenCtxCreate", a.create(&green, desc, dev, GREEN_DEFAULT_STREAM));
  CALL("cuCtxFromGreenCtx", a.to_ctx(&ctx, green));
  CALL("cuGreenCtxGetDevResource", a.green_resource(green, &check, RESOURCE_SM));
  CALL("cuCtxSetCurrent", a.set_current(ctx));
  if (actual) *actual = (int)check.u.sm.sm_count;
  return 0;
}

int sp_greenctx_from_env(int *actual, char *err, size_t size) {
  const char *s = getenv("SP_GREEN_SMS");
  char *end;
  if (!s || !*s) return 0;
  long n = strtol(s, &end, 10);
  if (*end || n < 1 || n > 100000) {
    snprintf(err, size, "SP_GREEN_SMS must be a positive SM count, not '%s'", s);
    return -1;
  }
  return sp_greenctx_enter(0, (int)n, actual, err, size);
}
