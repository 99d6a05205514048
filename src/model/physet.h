/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet.h: the "physet" prediction method: a physical prior for each
 * quantity plus the residual scaling of similar training kernels, where
 * similarity is learned by extremely randomized trees.  Internal.
 *
 * Time.  A kernel's log time ratio target/base is the prior
 *   log(ceil(B / cu_target) / ceil(B / cu_base))
 * (B thread blocks spread over the compute units: a grid smaller than the
 * CU count does not slow down until the CUs run out, and a grid of a few
 * waves slows down in steps), plus, where the grid varies the clocks, the
 *   lambda * log(u * m_base / m + (1 - u) * e_base / e)
 * of a kernel that spends the share u of its time waiting on DRAM (memory
 * clock m; with the memory systems described, method file version 9, m
 * reads as the peak bandwidth) and the rest on the SMs (engine clock e),
 * plus a residual.  u
 * comes from the kernel's DRAM traffic at the base (featplan.h) through a
 * sigmoid u = 1 / (1 + exp(-(s / s_max - mid) / width)) fitted to the u
 * that best explains each training kernel's own surface; lambda < 1
 * shrinks the prior toward the residual average, since DRAM traffic alone
 * does not tell a half memory-bound kernel's u.  The residual surfaces of
 * the training kernels are averaged with the forest's weights for the new
 * kernel's features (featplan.h).  Without a block count the CU prior is 0;
 * without DRAM counters, or on a grid of one clock pair, the clock prior is.
 *
 * Power.  Board power is a floor F (what the board draws with its clocks up
 * and nothing to do) plus a dynamic part whose energy per launch changes
 * little with the configuration, so
 *   P(c) / P(base) = phi(c) + (1 - phi(c)) * T(base) / T(c),
 *   phi(c) = F(c) / P(base),
 * times a learned residual as for time.  phi is a ratio, the same on two
 * boards of one model that read power differently; it comes from the
 * user's own floor measurement when given, else from the training kernels
 * that the forest finds similar.  Without a floor in the training data the
 * prior is 1 and power is learned as time is.
 *
 * Further measurements.  When the kernel was also measured at other
 * configurations, the training kernels are reweighted by how well their
 * residuals match those measurements (a Gaussian in log space of width
 * sigma), and the remaining mismatch is interpolated (inverse squared
 * distance in log-configuration space, zero at the base) so that the
 * prediction passes through every measured point. */
#ifndef SP_PHYSET_H
#define SP_PHYSET_H

#include <stddef.h>

#include "forest.h"
#include "scalepredict.h"
#include "surface.h"

typedef struct sp_physet sp_physet;

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
void sp__physet_free(sp_physet *p);

/* Predicts q at every point of its grid (out: grid size values).  lo and hi
 * (either may be NULL) receive a 90% interval.  SP_ENOPOWER when the
 * method has no power model or the observation no base power. */
int sp__physet_predict(const sp_physet *p, sp_quantity q, const sp_observation *obs, double *out,
                       double *lo, double *hi);

/* How unlike the training kernels the observed kernel is (novelty.h), or
 * NaN when the method file has no novelty measure (versions 1-3). */
double sp__physet_novelty(const sp_physet *p, const sp_observation *obs);

/* The memory step of the time prior between the base and memory clock
 * memory_mhz of the grid, base over target: the peak bandwidth ratio when
 * the memory systems are described (version 9), else the clock ratio. */
double sp__physet_memory_ratio(const sp_physet *p, int memory_mhz);

/* Vocabulary of features in use ("nsight", "nvprof", "generic"). */
const char *sp__physet_vocabulary(const sp_physet *p);
int sp__physet_has_floor(const sp_physet *p);

/* Text file of the method's state.  Load re-derives the feature plan from
 * the model's counter names and checks it against the file. */
int sp__physet_save(const sp_physet *p, const char *path, sp_error *err);
int sp__physet_load(const char *path, const char *const *counter_names, size_t ncounters,
                    const sp_config *base, const sp_grid *const grid[2],
                    const sp_memory_system *memory, sp_physet **out, sp_error *err);

#endif
