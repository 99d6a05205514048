/* SPDX-License-Identifier: GPL-3.0-or-later */
/* family.h: the synthetic kernel suite.
 *
 * Kernels come from families (compute-bound, bandwidth-bound, ...), each a
 * few named variants with parameter ranges.  A set of N kernels is spread
 * over the families in fixed shares; each kernel's parameters are drawn
 * from its own random stream, so a kernel such as stream/triad_01 is the
 * same whatever N is.
 */
#ifndef SYNTH_FAMILY_H
#define SYNTH_FAMILY_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "gpu.h"

/* Which set a kernel belongs to: its names and random streams differ. */
enum family_set { FAMILY_TRAINING = 0, FAMILY_SAMPLES = 1 };

typedef struct synth_kernel {
  char name[64]; /* "family/variant_NN" */
  kernel_params params;
  unsigned long noise_seed; /* seeds this kernel's measurement noise */
} synth_kernel;

/* Draws a set of count kernels for seed into out[0..count-1], using r (a
 * gsl_rng_mt19937, reseeded for every kernel). */
void family_draw_set(gsl_rng *r, unsigned long seed, enum family_set set, size_t count,
                     synth_kernel *out);

#endif /* SYNTH_FAMILY_H */
