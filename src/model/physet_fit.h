/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_fit.h: fitting the physet method (physet.h) to training kernels:
 * the clock prior's sigmoid, the residual surfaces and their forests, the
 * floor shares.  Internal. */
#ifndef SP_PHYSET_FIT_H
#define SP_PHYSET_FIT_H

#include <stddef.h>

#include "forest.h"
#include "physet.h"
#include "scalepredict.h"
#include "surface.h"

/* The CU axis: the block prior (log ceil(B / cu) / ceil(B / cu_base)), or
 * no prior with the block bound as a cap ("bounded"); AUTO takes bounded
 * when every training kernel's launch shape (blocks, blocks per CU) is
 * known. */
typedef enum { SP_PHYSET_CU_AUTO, SP_PHYSET_CU_BLOCKS, SP_PHYSET_CU_BOUNDED } sp_physet_cu_mode;

typedef struct sp_physet_params {
  sp_forest_params forest;
  sp_physet_cu_mode cu_mode;
  double sigma;             /* reweighting width, log units */
  double clock_weight;      /* lambda of the clock prior, [0, 1]; 0: none */
  const char *floor_kernel; /* kernel whose power is the floor, or NULL */
  int pipe_floor;           /* with a bounded CU axis, keep time above the
                               busiest pipe's bound (featplan.h) */
  int point_median;         /* with a bounded CU axis, the median point
                               prediction (physet_state.h) */
  int line;                 /* with a bounded CU axis, the block-count
                               line's check (physet_affine.h) */
} sp_physet_params;

/* The forest defaults, sigma 0.05, clock weight 0.75, no floor kernel,
 * CU mode AUTO, the pipe floor on. */
void sp__physet_params_init(sp_physet_params *pp);

/* Training input: kernels[0..n) of ds, measured at base, over the time grid
 * and the power grid (NULL: no power model).  Counters are ds's, in ds's
 * order, which is the model's. */
typedef struct sp_physet_data {
  const sp_dataset *ds;
  const size_t *kernels;
  size_t n;
  sp_config base;
  const sp_grid *grid[2];
  /* The memory systems of the time grid's memory clocks, in axis order
   * (NULL: the memory clock stands for the memory system). */
  const sp_memory_system *memory;
} sp_physet_data;

int sp__physet_fit(const sp_physet_data *d, const sp_physet_params *pp, sp_physet **out,
                   sp_error *err);

#endif
