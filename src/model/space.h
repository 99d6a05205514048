/* SPDX-License-Identifier: GPL-3.0-or-later */
/* space.h: the configuration space of dse, governor and export: a model's
 * grid, optionally refined between grid clocks, and one kernel's predicted
 * time and power over it.  Internal.
 *
 * Refinement (grid_interp N > 1) inserts N-1 evenly spaced clocks between
 * neighbouring engine clocks and between neighbouring memory clocks.  A
 * refined point takes the model's predictions at the four surrounding grid
 * clocks (same CU count) and interpolates their logarithms bilinearly in the
 * logarithms of the clocks: a power law between grid points, which is the
 * shape frequency scaling curves have, and exact on the grid itself. */
#ifndef SP_SPACE_H
#define SP_SPACE_H

#include <stddef.h>

#include "scalepredict.h"
#include "surface.h"

/* One refined axis position: the grid interval it lies in and where. */
typedef struct sp_space_pos {
  size_t lo; /* grid index at or below */
  double w;  /* 0 at grid value lo, 1 at lo + 1 (log-clock weight) */
} sp_space_pos;

typedef struct sp_space {
  const sp_model *model;
  unsigned interp;
  sp_grid grid;          /* the space's axes */
  size_t n;              /* configurations */
  const sp_grid *coarse; /* the model's time grid */
  size_t ncoarse;
  int has_power;
  size_t *power_map;     /* coarse index -> power grid index or SP_NO_CONFIG */
  sp_space_pos *pos[3];  /* per space axis value (CU axis: identity) */
  double *ct, *cp, *raw; /* coarse workspaces: time, power, power grid */
  double *row;           /* one coarse memory row, blended */
} sp_space;

/* Builds the space of m refined by interp (1 = the model's grid).
 * SP_EINVAL when interp is 0 or so large that clocks would repeat. */
int sp__space_init(sp_space *s, const sp_model *m, unsigned interp, sp_error *err);
void sp__space_free(sp_space *s);

sp_config sp__space_config(const sp_space *s, size_t i);
/* Index of cfg in the space, or SP_NO_CONFIG. */
size_t sp__space_index(const sp_space *s, const sp_config *cfg);
/* The configuration of the space nearest cfg (in log clocks and CUs). */
size_t sp__space_nearest(const sp_space *s, const sp_config *cfg);

/* Predicts obs over the space: time into t, power into p (NaN everywhere
 * when the observation or the model has no power; p may be NULL).  Uses
 * the space's workspaces, so one space serves one thread.  A failure fills
 * err (field "kernel", no file) naming the kernel and, for a numerical
 * failure, the quantity and the configuration. */
int sp__space_predict(sp_space *s, const sp_observation *obs, double *t, double *p,
                      sp_predict_info *info, sp_error *err);

/* The measured value of dataset kernel k at every configuration of the
 * space (NaN where not measured); returns how many were found. */
size_t sp__space_measured(const sp_space *s, const sp_dataset *ds, size_t k, sp_quantity q,
                          double *out);

#endif
