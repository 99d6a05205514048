/* SPDX-License-Identifier: GPL-3.0-or-later */
/* energy.h: cumulative energy counters used to compute average power.
 *
 * Sources: NVML's total-energy counter (NVIDIA GPUs) and Linux powercap
 * (RAPL package domains, for CPU devices).  A counter only moves when the
 * hardware updates it, so the runner polls it during a measurement and uses
 * the span between the first and last update it saw (see measure.c). */
#ifndef SP_ENERGY_H
#define SP_ENERGY_H

#include "nvml.h"

typedef struct energy energy;

/* kind: "nvml", "rapl" or "none".  For "nvml" the caller passes the open
 * NVML handle (not owned).  Returns NULL when the source cannot be read. */
energy *energy_open(const char *kind, nvml *nv);
void energy_close(energy *e);
/* Cumulative energy in joules (wrap-arounds of RAPL counters handled). */
int energy_read(energy *e, double *joules);
/* "nvml-total-energy", "powercap-rapl (N domains)", ... */
const char *energy_name(const energy *e);

#endif /* SP_ENERGY_H */
