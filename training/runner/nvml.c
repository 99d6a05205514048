/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nvml.c: see nvml.h.  The few NVML types and entry points used are declared
 * here (they are part of NVML's stable C ABI), so nvml.h from the CUDA
 * toolkit is not needed either. */
#include "nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *nvml_device;
typedef int nvml_ret; /* NVML_SUCCESS is 0 */

enum { NV_CLOCK_GRAPHICS = 0, NV_CLOCK_SM = 1, NV_CLOCK_MEM = 2 };
enum { NV_TEMPERATURE_GPU = 0 };

typedef struct nvml_api {
  nvml_ret (*init)(void);
  nvml_ret (*shutdown)(void);
  nvml_ret (*by_index)(unsigned, nvml_device *);
  nvml_ret (*by_bus)(const char *, nvml_device *);
  nvml_ret (*energy)(nvml_device, unsigned long long *);
  nvml_ret (*clock)(nvml_device, int, unsigned *);
  nvml_ret (*max_clock)(nvml_device, int, unsigned *);
  nvml_ret (*app_clock)(nvml_device, int, unsigned *);
  nvml_ret (*default_app_clock)(nvml_device, int, unsigned *);
  nvml_ret (*reasons)(nvml_device, unsigned long long *);
  nvml_ret (*temperature)(nvml_device, int, unsigned *);
  nvml_ret (*driver)(char *, unsigned);
  nvml_ret (*name)(nvml_device, char *, unsigned);
} nvml_api;

struct nvml {
  void *lib;
  nvml_api f;
  nvml_device dev;
  char driver[96];
  char name[128];
};

static void *sym(void *lib, const char *a, const char *b) {
  void *p = dlsym(lib, a);
  return p || !b ? p : dlsym(lib, b);
}

static int load(nvml *n) {
  void *l = n->lib;
  *(void **)&n->f.init = sym(l, "nvmlInit_v2", "nvmlInit");
  *(void **)&n->f.shutdown = sym(l, "nvmlShutdown", NULL);
  *(void **)&n->f.by_index = sym(l, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
  *(void **)&n->f.by_bus =
      sym(l, "nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId");
  *(void **)&n->f.energy = sym(l, "nvmlDeviceGetTotalEnergyConsumption", NULL);
  *(void **)&n->f.clock = sym(l, "nvmlDeviceGetClockInfo", NULL);
  *(void **)&n->f.max_clock = sym(l, "nvmlDeviceGetMaxClockInfo", NULL);
  *(void **)&n->f.app_clock = sym(l, "nvmlDeviceGetApplicationsClock", NULL);
  *(void **)&n->f.default_app_clock = sym(l, "nvmlDeviceGetDefaultApplicationsClock", NULL);
  *(void **)&n->f.reasons =
      sym(l, "nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons");
  *(void **)&n->f.temperature = sym(l, "nvmlDeviceGetTemperature", NULL);
  *(void **)&n->f.driver = sym(l, "nvmlSystemGetDriverVersion", NULL);
  *(void **)&n->f.name = sym(l, "nvmlDeviceGetName", NULL);
  return n->f.init && n->f.shutdown && n->f.by_index ? 0 : -1;
}

nvml *nvml_open(const char *bus_id) {
  nvml *n = calloc(1, sizeof *n);
  if (n == NULL) return NULL;
  n->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (n->lib == NULL || load(n) != 0 || n->f.init() != 0) {
    if (n->lib) dlclose(n->lib);
    free(n);
    return NULL;
  }
  int found = bus_id && *bus_id && n->f.by_bus && n->f.by_bus(bus_id, &n->dev) == 0;
  if (!found && n->f.by_index(0, &n->dev) != 0) {
    nvml_close(n);
    return NULL;
  }
  if (n->f.driver) n->f.driver(n->driver, sizeof n->driver);
  if (n->f.name) n->f.name(n->dev, n->name, sizeof n->name);
  return n;
}

void nvml_close(nvml *n) {
  if (n == NULL) return;
  n->f.shutdown();
  dlclose(n->lib);
  free(n);
}

int nvml_energy(nvml *n, double *joules) {
  unsigned long long mj = 0;
  if (n->f.energy == NULL || n->f.energy(n->dev, &mj) != 0) return -1;
  *joules = (double)mj * 1e-3;
  return 0;
}

static unsigned q(nvml_ret (*fn)(nvml_device, int, unsigned *), nvml_device d, int which) {
  unsigned v = 0;
  if (fn == NULL || fn(d, which, &v) != 0) return 0;
  return v;
}

void nvml_read_clocks(nvml *n, nvml_clocks *c) {
  memset(c, 0, sizeof *c);
  c->sm = q(n->f.clock, n->dev, NV_CLOCK_SM);
  c->mem = q(n->f.clock, n->dev, NV_CLOCK_MEM);
  c->graphics = q(n->f.clock, n->dev, NV_CLOCK_GRAPHICS);
  c->max_sm = q(n->f.max_clock, n->dev, NV_CLOCK_SM);
  c->max_mem = q(n->f.max_clock, n->dev, NV_CLOCK_MEM);
  c->app_sm = q(n->f.app_clock, n->dev, NV_CLOCK_SM);
  c->app_mem = q(n->f.app_clock, n->dev, NV_CLOCK_MEM);
  c->default_app_sm = q(n->f.default_app_clock, n->dev, NV_CLOCK_SM);
  c->default_app_mem = q(n->f.default_app_clock, n->dev, NV_CLOCK_MEM);
  c->temperature_c = q(n->f.temperature, n->dev, NV_TEMPERATURE_GPU);
  if (n->f.reasons) n->f.reasons(n->dev, &c->event_reasons);
}

const char *nvml_driver(const nvml *n) { return n->driver; }
const char *nvml_name(const nvml *n) { return n->name; }
