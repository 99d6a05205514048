/* SPDX-License-Identifier: GPL-3.0-or-later */
/* backend_cuda.c: the CUDA driver-API backend.
 *
 * libcuda and libnvrtc are loaded with dlopen, so the runner builds wherever
 * cuda.h is present and starts on machines without a GPU (the backend then
 * reports itself unavailable).  Device sources are compiled once per session
 * by NVRTC for the device's own architecture and loaded as
 * context-independent libraries (cuLibraryLoadData), so one compiled kernel
 * runs in every green context.
 *
 * SM count: each --cu level gets a green context built from an SM partition
 * of the device (cuDevSmResourceSplitByCount, cuDevResourceGenerateDesc,
 * cuGreenCtxCreate) and a stream of its own (cuGreenCtxStreamCreate).  The
 * whole device is a green context over the unsplit SM resource, so every
 * level is measured the same way.  Green contexts share the primary
 * context's memory, so buffers are allocated once per kernel.  Nothing here
 * changes a device setting.
 *
 * Sources: the portable .cl files are compiled as CUDA C++ through
 * sp_port.h; CUDA-only .cu files (tensor cores, half precision, __nanosleep)
 * may include the toolkit's device headers (<mma.h>, <cuda_fp16.h>), which
 * NVRTC does not carry: the toolkit's include folder is located at run time
 * (find_cuda_include) and put on their include path.
 */
#define _GNU_SOURCE /* dladdr */
#include <cuda.h>
#include <nvrtc.h>

#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend.h"

/* Driver entry points.  Each is looked up under the symbol name cuda.h maps
 * it to (cuMemAlloc -> cuMemAlloc_v2, ...), so the pointer and cuda.h's
 * prototype (kept in step by __typeof__) describe the same ABI.  Asking
 * cuGetProcAddress for the newest version instead can return a different
 * ABI: with CUDA 13, cuCtxSynchronize becomes cuCtxSynchronize(CUcontext). */
/* The two X-macro lists keep their hand wrapping. */
// clang-format off
#define CU_FUNCS(X)                                                        \
  X(cuInit) X(cuDriverGetVersion) X(cuDeviceGet) X(cuDeviceGetCount)       \
  X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceGetPCIBusId)        \
  X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease)                 \
  X(cuCtxSetCurrent) X(cuCtxSynchronize) X(cuMemAlloc) X(cuMemFree)        \
  X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemsetD32) X(cuMemsetD32Async)      \
  X(cuStreamCreate)                                                        \
  X(cuStreamDestroy) X(cuStreamSynchronize) X(cuEventCreate)               \
  X(cuEventDestroy) X(cuEventRecord) X(cuEventQuery)                       \
  X(cuEventElapsedTime) X(cuLibraryLoadData) X(cuLibraryUnload)            \
  X(cuLibraryGetKernel) X(cuLaunchKernel) X(cuGetErrorString)              \
  X(cuDeviceGetDevResource) X(cuDevSmResourceSplitByCount)                 \
  X(cuDevResourceGenerateDesc) X(cuGreenCtxCreate) X(cuGreenCtxDestroy)    \
  X(cuCtxFromGreenCtx) X(cuGreenCtxGetDevResource)                         \
  X(cuGreenCtxStreamCreate) X(cuKernelSetAttribute)                       \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)

#define NVRTC_FUNCS(X)                                                     \
  X(nvrtcVersion) X(nvrtcCreateProgram) X(nvrtcCompileProgram)             \
  X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcGetCUBINSize)     \
  X(nvrtcGetCUBIN) X(nvrtcDestroyProgram) X(nvrtcGetErrorString)
// clang-format on

#define DECLARE(name) __typeof__(&name) name;
typedef struct cu_api {
  CU_FUNCS(DECLARE)
} cu_api;
typedef struct nvrtc_api {
  void *lib;
  char cuda_include[PATH_MAX]; /* the toolkit's headers; empty: not found */
  NVRTC_FUNCS(DECLARE)
} nvrtc_api;
#undef DECLARE

enum { MAX_LEVELS = 64, MAX_LIBS = 128 };

typedef struct level {
  int requested, actual;
  CUgreenCtx green; /* NULL: the primary context (fallback) */
  CUcontext ctx;
  CUstream stream;
} level;

typedef struct cu_lib {
  char path[BK_PATH_MAX];
  CUlibrary lib;
} cu_lib;

typedef struct bk_cuda {
  bk base;
  void *libcuda;
  cu_api f;
  nvrtc_api rtc;
  bk_dirs inc;
  CUdevice dev;
  CUcontext primary;
  char arch[32];
  CUdevResource sm_all;
  level levels[MAX_LEVELS];
  int nlevels;
  level *cur;
  cu_lib libs[MAX_LIBS];
  int nlibs;
  CUkernel kernel;
  CUdeviceptr dptr[KJOB_MAX_BUFS];
  void *params[KJOB_MAX_ARGS];
  CUevent *events; /* per sample: its start, then its end */
  int samples, enqueued;
  CUdeviceptr scratch; /* flush's buffer (0: none yet) */
  size_t scratch_bytes;
  unsigned flushes;
} bk_cuda;

static int cufail(bk_cuda *c, const char *what, CUresult rc) {
  const char *s = NULL;
  if (c->f.cuGetErrorString) c->f.cuGetErrorString(rc, &s);
  snprintf(c->base.err, sizeof c->base.err, "%s failed: %s (CUDA error %d)", what, s ? s : "?",
           (int)rc);
  return -1;
}

#define CK(call)                                           \
  do {                                                     \
    CUresult rc_ = (call);                                 \
    if (rc_ != CUDA_SUCCESS) return cufail(c, #call, rc_); \
  } while (0)

#define SYMBOL_(name) #name
#define SYMBOL(name) SYMBOL_(name) /* the name after cuda.h's macros */

static int load_driver(bk_cuda *c) {
  c->libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (c->libcuda == NULL) return 1;
#define LOAD(name)                                                                                \
  if ((*(void **)&c->f.name = dlsym(c->libcuda, SYMBOL(name))) == NULL) {                         \
    snprintf(c->base.err, sizeof c->base.err, "the CUDA driver lacks %s (older than CUDA 12.5?)", \
             SYMBOL(name));                                                                       \
    return -1;                                                                                    \
  }
  CU_FUNCS(LOAD)
#undef LOAD
  return 0;
}

static int has_cuda_headers(const char *dir) {
  char path[PATH_MAX + 16];
  struct stat st;
  snprintf(path, sizeof path, "%.4000s/cuda_fp16.h", dir);
  return dir[0] && stat(path, &st) == 0;
}

/* The toolkit's include folder: $SP_CUDA_INCLUDE, $CUDA_HOME/include,
 * $CUDA_PATH/include, beside the libnvrtc that was loaded (lib64/../include,
 * also for targets/<arch>/lib), then /usr/local/cuda/include; the first that
 * holds cuda_fp16.h.  Left empty when none does. */
static void find_cuda_include(nvrtc_api *r) {
  char cand[6][PATH_MAX];
  const char *env[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH")};
  int n = 0;
  Dl_info info;
  char lib[PATH_MAX];
  memset(cand, 0, sizeof cand);
  if (getenv("SP_CUDA_INCLUDE")) snprintf(cand[n++], PATH_MAX, "%s", getenv("SP_CUDA_INCLUDE"));
  for (int i = 0; i < 2; ++i)
    if (env[i] && *env[i]) snprintf(cand[n++], PATH_MAX, "%.4000s/include", env[i]);
  if (dladdr(*(void **)&r->nvrtcVersion, &info) && info.dli_fname &&
      realpath(info.dli_fname, lib)) {
    char dir[PATH_MAX];
    bk_dirname(lib, dir, sizeof dir);
    snprintf(cand[n++], PATH_MAX, "%.4000s/../include", dir);
  }
  snprintf(cand[n++], PATH_MAX, "/usr/local/cuda/include");
  r->cuda_include[0] = '\0';
  for (int i = 0; i < n && !r->cuda_include[0]; ++i)
    if (has_cuda_headers(cand[i]))
      snprintf(r->cuda_include, sizeof r->cuda_include, "%.4000s", cand[i]);
}

/* Loads NVRTC: $SP_NVRTC_LIB, then the usual sonames.  1: not found. */
static int load_nvrtc(nvrtc_api *r, char *err, size_t size) {
  const char *names[] = {getenv("SP_NVRTC_LIB"), "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
                         "/usr/local/cuda/lib64/libnvrtc.so"};
  for (size_t i = 0; i < sizeof names / sizeof *names && !r->lib; ++i)
    if (names[i] && *names[i]) r->lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (r->lib == NULL) {
    snprintf(err, size, "NVRTC (libnvrtc.so) not found; set SP_NVRTC_LIB");
    return 1;
  }
#define LOAD(name)                                           \
  if ((*(void **)&r->name = dlsym(r->lib, #name)) == NULL) { \
    snprintf(err, size, "NVRTC lacks %s", #name);            \
    return -1;                                               \
  }
  NVRTC_FUNCS(LOAD)
#undef LOAD
  find_cuda_include(r);
  return 0;
}

/* A malloc'd "<a><b>" (NULL: out of memory). */
static char *concat(const char *a, const char *b) {
  const size_t n = strlen(a) + strlen(b) + 1;
  char *s = malloc(n);
  if (s) snprintf(s, n, "%s%s", a, b);
  return s;
}

/* Frees the first n options of opt, and opt. */
static void free_options(char **opt, int n) {
  for (int i = 0; opt && i < n; ++i) free(opt[i]);
  free(opt);
}

/* NVRTC options for path into *out (malloc'd, for free_options): the
 * architecture, the source's own folder, the include folders and, for
 * CUDA-only sources, the toolkit's headers.  Returns the option count, or
 * -1 (err set) when a .cu source needs the toolkit's headers and none were
 * found, or memory ran out. */
static int rtc_options(const nvrtc_api *r, const char *path, const bk_dirs *inc, const char *arch,
                       char ***out, char *err, size_t size) {
  char own[BK_PATH_MAX];
  int n = 0;
  if (bk_cuda_only(path) && !r->cuda_include[0]) {
    snprintf(err, size,
             "%s is CUDA C++ and needs the CUDA toolkit's headers "
             "(cuda_fp16.h, mma.h), which were not found: set "
             "SP_CUDA_INCLUDE or CUDA_HOME (tried $CUDA_HOME/include, "
             "$CUDA_PATH/include, beside libnvrtc, /usr/local/cuda/include)",
             path);
    return -1;
  }
  char **opt = calloc((size_t)inc->n + 3, sizeof *opt);
  bk_dirname(path, own, sizeof own);
  int ok = opt != NULL && (opt[n++] = concat("--gpu-architecture=", arch)) != NULL &&
           (opt[n++] = concat("--include-path=", own)) != NULL;
  for (int i = 0; ok && i < inc->n; ++i)
    ok = (opt[n++] = concat("--include-path=", inc->dir[i])) != NULL;
  if (ok && bk_cuda_only(path))
    ok = (opt[n++] = concat("--include-path=", r->cuda_include)) != NULL;
  if (!ok) {
    free_options(opt, n);
    snprintf(err, size, "out of memory");
    return -1;
  }
  *out = opt;
  return n;
}

static int rtc_failed(nvrtc_api *r, nvrtcProgram *prog, const char *path, const char *arch,
                      char *err, size_t size) {
  size_t n = 0;
  r->nvrtcGetProgramLogSize(*prog, &n);
  char *log = malloc(n + 1);
  if (log) {
    r->nvrtcGetProgramLog(*prog, log);
    log[n] = '\0';
  }
  snprintf(err, size, "compiling %s for %s failed:\n%s", path, arch, log ? log : "");
  free(log);
  r->nvrtcDestroyProgram(prog);
  return -1;
}

/* Compiles one device source to a cubin for arch (e.g. "sm_90"). */
static int nvrtc_compile(nvrtc_api *r, const char *path, const bk_dirs *inc, const char *arch,
                         char **cubin, char *err, size_t size) {
  char **opt = NULL;
  int nopt = rtc_options(r, path, inc, arch, &opt, err, size);
  if (nopt < 0) return -1;
  char *src = bk_read_source(path, err, size);
  if (src == NULL) {
    free_options(opt, nopt);
    return -1;
  }
  const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  nvrtcProgram prog;
  nvrtcResult rc = r->nvrtcCreateProgram(&prog, src, name, 0, NULL, NULL);
  free(src);
  if (rc != NVRTC_SUCCESS) {
    free_options(opt, nopt);
    snprintf(err, size, "%s: %s", path, r->nvrtcGetErrorString(rc));
    return -1;
  }
  rc = r->nvrtcCompileProgram(prog, nopt, (const char *const *)opt);
  free_options(opt, nopt);
  if (rc != NVRTC_SUCCESS) return rtc_failed(r, &prog, path, arch, err, size);
  size_t n = 0;
  r->nvrtcGetCUBINSize(prog, &n);
  *cubin = malloc(n);
  if (*cubin == NULL) {
    snprintf(err, size, "out of memory");
    r->nvrtcDestroyProgram(&prog);
    return -1;
  }
  r->nvrtcGetCUBIN(prog, *cubin);
  r->nvrtcDestroyProgram(&prog);
  return 0;
}

static int get_library(bk_cuda *c, const char *path, CUlibrary *out) {
  for (int i = 0; i < c->nlibs; ++i)
    if (strcmp(c->libs[i].path, path) == 0) {
      *out = c->libs[i].lib;
      return 0;
    }
  if (c->nlibs == MAX_LIBS) {
    snprintf(c->base.err, sizeof c->base.err, "too many device sources");
    return -1;
  }
  char *cubin = NULL;
  if (nvrtc_compile(&c->rtc, path, &c->inc, c->arch, &cubin, c->base.err, sizeof c->base.err) != 0)
    return -1;
  CUresult rc = c->f.cuLibraryLoadData(out, cubin, NULL, NULL, 0, NULL, NULL, 0);
  free(cubin);
  if (rc != CUDA_SUCCESS) return cufail(c, "cuLibraryLoadData", rc);
  cu_lib *l = &c->libs[c->nlibs++];
  snprintf(l->path, sizeof l->path, "%s", path);
  l->lib = *out;
  return 0;
}

static int open_device(bk_cuda *c, int device) {
  int count = 0, major = 0, minor = 0;
  CK(c->f.cuInit(0));
  CK(c->f.cuDeviceGetCount(&count));
  if (device >= count) {
    snprintf(c->base.err, sizeof c->base.err, "no CUDA device %d (%d found)", device, count);
    return 1;
  }
  CK(c->f.cuDeviceGet(&c->dev, device));
  CK(c->f.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, c->dev));
  CK(c->f.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, c->dev));
  snprintf(c->arch, sizeof c->arch, "sm_%d%d", major, minor);
  CK(c->f.cuDevicePrimaryCtxRetain(&c->primary, c->dev));
  CK(c->f.cuCtxSetCurrent(c->primary));
  CK(c->f.cuDeviceGetDevResource(c->dev, &c->sm_all, CU_DEV_RESOURCE_TYPE_SM));
  return 0;
}

static void cuda_close(bk *b);

static int cuda_open(bk **out, int device, const char *const *include_dirs, char *err,
                     size_t size) {
  bk_cuda *c = calloc(1, sizeof *c);
  if (c == NULL) {
    snprintf(err, size, "out of memory");
    return -1;
  }
  c->base.ops = &bk_cuda_ops;
  if (bk_dirs_set(&c->inc, include_dirs) != 0) {
    snprintf(err, size, "out of memory");
    free(c);
    return -1;
  }
  int rc = load_driver(c);
  if (rc == 1)
    snprintf(c->base.err, sizeof c->base.err, "the CUDA driver (libcuda.so.1) is not installed");
  if (rc == 0) rc = load_nvrtc(&c->rtc, c->base.err, sizeof c->base.err);
  if (rc == 0) rc = open_device(c, device);
  if (rc != 0) {
    /* cuInit failing with no device is "unavailable" too. */
    if (rc < 0 && strstr(c->base.err, "cuInit") != NULL) rc = 1;
    snprintf(err, size, "%s", c->base.err);
    cuda_close(&c->base);
    return rc;
  }
  *out = &c->base;
  return 0;
}

static void cuda_release(bk *b, kjob *job) {
  bk_cuda *c = (bk_cuda *)b;
  (void)job;
  for (int i = 0; i < KJOB_MAX_BUFS; ++i)
    if (c->dptr[i]) {
      c->f.cuMemFree(c->dptr[i]);
      c->dptr[i] = 0;
    }
  c->kernel = NULL;
}

static void cuda_close(bk *b) {
  bk_cuda *c = (bk_cuda *)b;
  if (c == NULL) return;
  if (c->f.cuCtxSetCurrent && c->primary) {
    c->f.cuCtxSetCurrent(c->primary);
    cuda_release(b, NULL);
    if (c->scratch) c->f.cuMemFree(c->scratch);
    for (int i = 0; i < c->nlibs; ++i) c->f.cuLibraryUnload(c->libs[i].lib);
    for (int i = 0; i < c->nlevels; ++i) {
      c->f.cuStreamDestroy(c->levels[i].stream);
      if (c->levels[i].green) c->f.cuGreenCtxDestroy(c->levels[i].green);
    }
    c->f.cuDevicePrimaryCtxRelease(c->dev);
  }
  free(c->events);
  /* NVRTC stays loaded: unloading it strands its C++ runtime's emergency
   * pool, which leak checkers then report. */
  if (c->libcuda) dlclose(c->libcuda);
  bk_dirs_free(&c->inc);
  free(c);
}

static void cuda_info(bk *b, bk_info *info) {
  bk_cuda *c = (bk_cuda *)b;
  int ver = 0, rtc_major = 0, rtc_minor = 0;
  memset(info, 0, sizeof *info);
  snprintf(info->api, sizeof info->api, "cuda");
  c->f.cuDeviceGetName(info->device, sizeof info->device, c->dev);
  snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
  c->f.cuDriverGetVersion(&ver);
  c->rtc.nvrtcVersion(&rtc_major, &rtc_minor);
  snprintf(info->api_version, sizeof info->api_version,
           "CUDA driver API %d.%d, NVRTC %d.%d, code for %s", ver / 1000, (ver % 1000) / 10,
           rtc_major, rtc_minor, c->arch);
  c->f.cuDeviceGetPCIBusId(info->pci_bus_id, sizeof info->pci_bus_id, c->dev);
  info->compute_units = (int)c->sm_all.sm.smCount;
  int l2 = 0;
  if (c->f.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, c->dev) == CUDA_SUCCESS &&
      l2 > 0)
    info->cache_bytes = (size_t)l2;
  info->is_gpu = 1;
  info->is_nvidia = 1;
  snprintf(info->cu_method, sizeof info->cu_method,
           "green context per SM count (cuDevSmResourceSplitByCount, "
           "minSmPartitionSize %u, smCoscheduledAlignment %u; the whole "
           "device: a green context over the unsplit SM resource)",
           c->sm_all.sm.minSmPartitionSize, c->sm_all.sm.smCoscheduledAlignment);
}

/* An SM resource of exactly cu SMs split off the device; *got is what the
 * split produced (it rounds to the partition granularity). */
static int split_sms(bk_cuda *c, int cu, CUdevResource *res, unsigned *got) {
  static const unsigned flags[] = {0, CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING};
  *got = 0;
  if ((unsigned)cu == c->sm_all.sm.smCount) {
    *res = c->sm_all;
    *got = c->sm_all.sm.smCount;
    return 0;
  }
  for (size_t i = 0; i < sizeof flags / sizeof *flags; ++i) {
    unsigned nb = 1;
    CUdevResource rem;
    memset(res, 0, sizeof *res);
    if (c->f.cuDevSmResourceSplitByCount(res, &nb, &c->sm_all, &rem, flags[i], (unsigned)cu) ==
            CUDA_SUCCESS &&
        nb == 1) {
      *got = res->sm.smCount;
      if (*got == (unsigned)cu) return 0;
    }
  }
  return -1;
}

static int make_level(bk_cuda *c, int cu, level *lv) {
  CUdevResource res;
  CUdevResourceDesc desc;
  unsigned got = 0;
  memset(lv, 0, sizeof *lv);
  lv->requested = cu;
  if (cu < 1 || (unsigned)cu > c->sm_all.sm.smCount || split_sms(c, cu, &res, &got) != 0) {
    snprintf(c->base.err, sizeof c->base.err,
             "no green context of exactly %d SMs: the split gives %u "
             "(device %u SMs, minSmPartitionSize %u, alignment %u; "
             "sp-runner --backend cuda --probe-cu lists the exact counts)",
             cu, got, c->sm_all.sm.smCount, c->sm_all.sm.minSmPartitionSize,
             c->sm_all.sm.smCoscheduledAlignment);
    return -1;
  }
  CK(c->f.cuDevResourceGenerateDesc(&desc, &res, 1));
  CK(c->f.cuGreenCtxCreate(&lv->green, desc, c->dev, CU_GREEN_CTX_DEFAULT_STREAM));
  CK(c->f.cuCtxFromGreenCtx(&lv->ctx, lv->green));
  CUdevResource check;
  CK(c->f.cuGreenCtxGetDevResource(lv->green, &check, CU_DEV_RESOURCE_TYPE_SM));
  lv->actual = (int)check.sm.smCount;
  CK(c->f.cuGreenCtxStreamCreate(&lv->stream, lv->green, CU_STREAM_NON_BLOCKING, 0));
  return 0;
}

static int cuda_set_cu(bk *b, int cu, int *actual) {
  bk_cuda *c = (bk_cuda *)b;
  level *lv = NULL;
  for (int i = 0; i < c->nlevels && !lv; ++i)
    if (c->levels[i].requested == cu) lv = &c->levels[i];
  if (lv == NULL) {
    if (c->nlevels == MAX_LEVELS) {
      snprintf(c->base.err, sizeof c->base.err, "too many SM levels");
      return -1;
    }
    if (make_level(c, cu, &c->levels[c->nlevels]) != 0) return -1;
    lv = &c->levels[c->nlevels++];
  }
  CK(c->f.cuCtxSetCurrent(lv->ctx));
  c->cur = lv;
  *actual = lv->actual;
  return 0;
}

static int cuda_reset(bk *b, kjob *job) {
  bk_cuda *c = (bk_cuda *)b;
  for (int i = 0; i < job->nbuf; ++i) {
    const kbuf *kb = &job->buf[i];
    if (kb->role == KB_INOUT)
      CK(c->f.cuMemcpyHtoD(c->dptr[i], kb->host, kb->bytes));
    else if (kb->role == KB_OUT)
      CK(c->f.cuMemsetD32(c->dptr[i], 0xFFFFFFFFu, kb->bytes / 4));
  }
  CK(c->f.cuCtxSynchronize());
  return 0;
}

/* NVRTC compiles both the portable sources and the CUDA-only ones. */
static int cuda_accepts(const char *file) {
  (void)file;
  return 1;
}

static int cuda_prepare(bk *b, kjob *job, const char *dir) {
  bk_cuda *c = (bk_cuda *)b;
  char path[BK_PATH_MAX];
  CUlibrary lib;
  snprintf(path, sizeof path, "%s/%s", dir, job->source);
  if (get_library(c, path, &lib) != 0) return -1;
  CK(c->f.cuLibraryGetKernel(&c->kernel, lib, job->entry));
  /* Above 48 KiB a kernel must opt in to its dynamic shared memory. */
  if (job->dyn_local > 0)
    CK(c->f.cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 (int)job->dyn_local, c->kernel, c->dev));
  for (int i = 0; i < job->nbuf; ++i) {
    const kbuf *kb = &job->buf[i];
    CK(c->f.cuMemAlloc(&c->dptr[i], kb->bytes));
    if (kb->role == KB_IN) CK(c->f.cuMemcpyHtoD(c->dptr[i], kb->host, kb->bytes));
  }
  for (int i = 0; i < job->narg; ++i) {
    karg *a = &job->arg[i];
    c->params[i] = a->kind == KA_BUF ? (void *)&c->dptr[a->buf] : (void *)&a->v;
  }
  return cuda_reset(b, job);
}

static int cuda_launch(bk *b, kjob *job) {
  bk_cuda *c = (bk_cuda *)b;
  if (c->cur == NULL) {
    snprintf(c->base.err, sizeof c->base.err, "internal: no SM level set");
    return -1;
  }
  CK(c->f.cuLaunchKernel((CUfunction)c->kernel, (unsigned)job->groups[0], (unsigned)job->groups[1],
                         (unsigned)job->groups[2], (unsigned)job->local[0], (unsigned)job->local[1],
                         (unsigned)job->local[2], (unsigned)job->dyn_local, c->cur->stream,
                         c->params, NULL));
  return 0;
}

static int cuda_read(bk *b, kjob *job) {
  bk_cuda *c = (bk_cuda *)b;
  CK(c->f.cuStreamSynchronize(c->cur->stream));
  for (int i = 0; i < job->nbuf; ++i) {
    kbuf *kb = &job->buf[i];
    if (kb->role == KB_IN) continue;
    if (kb->result == NULL && (kb->result = malloc(kb->bytes)) == NULL) {
      snprintf(c->base.err, sizeof c->base.err, "out of memory");
      return -1;
    }
    CK(c->f.cuMemcpyDtoH(kb->result, c->dptr[i], kb->bytes));
  }
  return 0;
}

static void destroy_events(bk_cuda *c) {
  for (int i = 0; c->events && i < 2 * c->samples; ++i)
    if (c->events[i]) c->f.cuEventDestroy(c->events[i]);
  free(c->events);
  c->events = NULL;
  c->samples = 0;
}

static int cuda_timing_begin(bk *b, kjob *job, int samples) {
  bk_cuda *c = (bk_cuda *)b;
  (void)job;
  destroy_events(c);
  c->events = calloc(2 * (size_t)samples, sizeof *c->events);
  if (c->events == NULL) {
    snprintf(c->base.err, sizeof c->base.err, "out of memory");
    return -1;
  }
  c->samples = samples;
  for (int i = 0; i < 2 * samples; ++i) CK(c->f.cuEventCreate(&c->events[i], CU_EVENT_DEFAULT));
  c->enqueued = 0;
  return 0;
}

static int cuda_timing_group(bk *b, kjob *job, int launches) {
  bk_cuda *c = (bk_cuda *)b;
  if (c->enqueued >= c->samples) {
    snprintf(c->base.err, sizeof c->base.err, "more samples than prepared");
    return -1;
  }
  CK(c->f.cuEventRecord(c->events[2 * c->enqueued], c->cur->stream));
  for (int j = 0; j < launches; ++j)
    if (cuda_launch(b, job) != 0) return -1;
  CK(c->f.cuEventRecord(c->events[2 * c->enqueued + 1], c->cur->stream));
  c->enqueued++;
  return 0;
}

static int cuda_timing_end(bk *b, double *sample_ms) {
  bk_cuda *c = (bk_cuda *)b;
  CK(c->f.cuStreamSynchronize(c->cur->stream));
  for (int s = 0; s < c->enqueued; ++s) {
    float ms = 0.0f;
    CK(c->f.cuEventElapsedTime(&ms, c->events[2 * s], c->events[2 * s + 1]));
    sample_ms[s] = ms;
  }
  destroy_events(c);
  return 0;
}

static int cuda_flush(bk *b, size_t bytes) {
  bk_cuda *c = (bk_cuda *)b;
  if (c->cur == NULL) {
    snprintf(c->base.err, sizeof c->base.err, "flush before any SM count was set");
    return -1;
  }
  bytes = (bytes + 3) / 4 * 4;
  if (c->scratch_bytes < bytes) {
    if (c->scratch) CK(c->f.cuMemFree(c->scratch));
    c->scratch = 0;
    c->scratch_bytes = 0;
    CK(c->f.cuMemAlloc(&c->scratch, bytes));
    c->scratch_bytes = bytes;
  }
  /* A different value each time: every line is written anew. */
  CK(c->f.cuMemsetD32Async(c->scratch, 0x5a5a0000u + (++c->flushes & 0xffffu), bytes / 4,
                           c->cur->stream));
  return 0;
}

static int cuda_compile_only(const char *const *include_dirs, const char *const *paths,
                             const char *arch, char *err, size_t size) {
  nvrtc_api r;
  bk_dirs inc;
  memset(&r, 0, sizeof r);
  if (bk_dirs_set(&inc, include_dirs) != 0) {
    snprintf(err, size, "out of memory");
    return -1;
  }
  int rc = load_nvrtc(&r, err, size);
  for (const char *const *s = paths; rc == 0 && *s; ++s) {
    char *cubin = NULL;
    rc = nvrtc_compile(&r, *s, &inc, arch ? arch : "sm_90", &cubin, err, size);
    free(cubin);
  }
  bk_dirs_free(&inc);
  return rc; /* NVRTC stays loaded (see cuda_close) */
}

/* Blocks per SM from the occupancy calculator: registers, shared memory
 * (static and the job's dynamic) and block size. */
static int cuda_groups_per_cu(bk *b, kjob *job, int *groups) {
  bk_cuda *c = (bk_cuda *)b;
  int threads = (int)(job->local[0] * job->local[1] * job->local[2]);
  CK(c->f.cuOccupancyMaxActiveBlocksPerMultiprocessor(groups, (CUfunction)c->kernel, threads,
                                                      job->dyn_local));
  return 0;
}

const bk_ops bk_cuda_ops = {
    "cuda",
    cuda_open,
    cuda_close,
    cuda_info,
    cuda_set_cu,
    cuda_accepts,
    cuda_prepare,
    cuda_reset,
    cuda_launch,
    cuda_read,
    cuda_release,
    cuda_timing_begin,
    cuda_timing_group,
    cuda_timing_end,
    cuda_flush,
    cuda_compile_only,
    cuda_groups_per_cu,
};

/* Prints, for every count 1..N, the SM count a one-group split produces
 * with and without SM co-scheduling, so sweep plans can pick exact levels. */
int bk_cuda_probe_cu(bk *b, FILE *out) {
  bk_cuda *c = (bk_cuda *)b;
  fprintf(out, "sm_total=%u min_partition=%u coscheduled_alignment=%u\n", c->sm_all.sm.smCount,
          c->sm_all.sm.minSmPartitionSize, c->sm_all.sm.smCoscheduledAlignment);
  fprintf(out, "requested,default_split,ignore_coscheduling_split\n");
  for (unsigned n = 1; n <= c->sm_all.sm.smCount; ++n) {
    unsigned got[2] = {0, 0};
    for (unsigned f = 0; f < 2; ++f) {
      unsigned nb = 1;
      CUdevResource res, rem;
      if (c->f.cuDevSmResourceSplitByCount(&res, &nb, &c->sm_all, &rem, f, n) == CUDA_SUCCESS &&
          nb == 1)
        got[f] = res.sm.smCount;
    }
    fprintf(out, "%u,%u,%u\n", n, got[0], got[1]);
  }
  return 0;
}
