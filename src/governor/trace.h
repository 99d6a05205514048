/* SPDX-License-Identifier: GPL-3.0-or-later */
/* trace.h: the kernel trace behind sp_governor_replay, owned by trace.c
 * (reading, prediction, accessors) and read by governor.c (replay) and
 * governorout.c (output).  Internal. */
#ifndef SP_GOVERNOR_TRACE_H
#define SP_GOVERNOR_TRACE_H

#include <stddef.h>

#include "model/space.h"
#include "scalepredict.h"

/* A distinct kernel of the trace with its predictions and measurements
 * over the space (nconfigs values each). */
typedef struct sp_gov_kernel {
  char *name;
  long line;        /* first trace line naming it */
  int have_base;    /* base data found (trace or dataset) */
  double *counters; /* in the model's counter order */
  sp_observation obs;
  double *t, *p;   /* predicted */
  double *mt, *mp; /* measured (NaN where not), NULL when none */
  size_t clamped;
  const char *first_clamped; /* model-owned */
} sp_gov_kernel;

typedef struct sp_gov_entry {
  long order;
  long line;
  size_t kernel;
} sp_gov_entry;

struct sp_governor_trace {
  const sp_model *model;
  char *path;
  sp_space space;
  sp_config *configs;
  size_t nkernels, kernels_cap;
  sp_gov_kernel *kernels;
  size_t length, entries_cap;
  sp_gov_entry *entries;
};

#endif
