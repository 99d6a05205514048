/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nvml.h: read-only NVIDIA management queries, loaded with dlopen so the
 * runner needs no NVIDIA library to build or to run elsewhere.
 *
 * Only queries are used: clocks, energy, temperature, names.  Nothing here
 * changes a device setting. */
#ifndef SP_NVML_H
#define SP_NVML_H

typedef struct nvml nvml;

typedef struct nvml_clocks {
  unsigned sm, mem, graphics; /* current, MHz */
  unsigned max_sm, max_mem;   /* maximum (boost ceiling), MHz */
  unsigned app_sm, app_mem;   /* application clocks, MHz */
  unsigned default_app_sm, default_app_mem;
  unsigned long long event_reasons; /* clock event (throttle) reasons */
  unsigned temperature_c;
} nvml_clocks;

/* Opens the device with this PCI bus id (or index 0 when bus_id is NULL or
 * empty).  Returns NULL when NVML or the device is not there. */
nvml *nvml_open(const char *bus_id);
void nvml_close(nvml *n);
/* Total energy since the driver loaded, in joules.  -1 when unsupported. */
int nvml_energy(nvml *n, double *joules);
/* Fields that cannot be read are 0. */
void nvml_read_clocks(nvml *n, nvml_clocks *c);
const char *nvml_driver(const nvml *n);
const char *nvml_name(const nvml *n);

#endif /* SP_NVML_H */
