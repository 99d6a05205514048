/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_prior.h: the physical priors of the physet method (physet.h):
 * the CU and clock terms of time, the floor share of power, the CU
 * axis's cap and the pipe floor, and the caches of the grid they read.
 * Internal to the physet files. */
#ifndef SP_PHYSET_PRIOR_H
#define SP_PHYSET_PRIOR_H

#include <stddef.h>

#include "physet_state.h"

/* The time grid's clock pairs (its points per CU count, varying fastest). */
size_t sp__physet_clock_pairs(const sp_physet *p);

/* cap[i]: the most the log time ratio may be at time grid point i (the
 * block bound, the slower clock ratio, the slack); axis: room for one
 * term per CU count. */
void sp__physet_time_cap(const sp_physet *p, double blocks, double bps, double *axis, double *cap);

/* floor[i]: the least the log time ratio may be at time grid point i
 * (the busiest pipe, busy the share of the base time). */
void sp__physet_time_floor(const sp_physet *p, double busy, double *floor);

/* prior[i]: the prior log time ratio at each time grid point for a kernel
 * of blocks thread blocks and DRAM traffic dram; lt (version 9, or NULL)
 * its log time ratios over the grid; axis: room for one term per CU count
 * and one per clock pair. */
void sp__physet_time_prior(const sp_physet *p, double blocks, double dram, const double *lt,
                           double *axis, double *prior);

/* The memory step of the time prior between the base and memory clock
 * memory_mhz of the grid, base over target: the peak bandwidth ratio when
 * the memory systems are described (version 9), else the clock ratio. */
double sp__physet_memory_ratio(const sp_physet *p, int memory_mhz);

/* Fills t_cu, t_er, t_mr, t_logclock, t_logfast, cu_at and (version 9)
 * t_j from the time grid (SP_ENOMEM, SP_EGRID). */
int sp__physet_cache_time_grid(sp_physet *p);

/* map[i]: the time grid point of power grid point i; SP_EGRID when the
 * power grid is not a sub-grid of the time grid. */
int sp__physet_power_to_time(const sp_physet *p, size_t *map);

/* The base's point of q's grid, or (size_t)-1. */
size_t sp__physet_base_index(const sp_physet *p, sp_quantity q);

/* log(phi(c) + (1 - phi(c)) * time_ratio_inv), phi(c) = phi_base * F(c) / F(base). */
double sp__physet_power_prior(double phi_base, double floor_c, double floor_b,
                              double time_ratio_inv);

/* Squared distance between two configurations in log space. */
double sp__physet_config_dist2(const sp_config *a, const sp_config *b);

#endif
