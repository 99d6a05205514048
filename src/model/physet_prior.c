/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_prior.c: the physical priors of time and power (physet.h) and
 * the per-point caches of the time grid they read. */
#include "physet_prior.h"

#include <math.h>
#include <stdlib.h>

/* ---- the time prior ---------------------------------------------------- */

/* log(ceil(B / cu) / ceil(B / cu_base)): the busiest CU's share of blocks. */
static double block_prior(double blocks, int cu, int cu_base) {
  if (blocks < 1 || cu == cu_base) return 0;
  return log(ceil(blocks / cu) / ceil(blocks / cu_base));
}

/* The memory-bound share u of a kernel with DRAM traffic s; the clock
 * prior is log(u * m_base / m + (1 - u) * e_base / e): the share u of the
 * time follows the memory clock, the rest the engine clock. */
static double share_u(const sp_physet *p, double s) {
  double x = (isfinite(s) ? s : 0) / p->s_max;
  return 1 / (1 + exp(-(x - p->u_mid) / p->u_width));
}

/* The bound of the CU axis: B blocks over cu CUs, each CU holding at most
 * bps blocks at once.  Relative to the base, time grows at most like the
 * busiest CU's share of blocks run one at a time (ceil(B / cu)), or like
 * the number of waves of bps blocks per CU (ceil(B / (cu bps))), whichever
 * grows more: log max(ceil(B / cu) / ceil(B / cu_b),
 * ceil(B / (cu bps)) / ceil(B / (cu_b bps))). */
static double block_bound(double blocks, double bps, int cu, int cu_base) {
  if (blocks < 1 || cu == cu_base) return 0;
  double waves = log(ceil(blocks / (cu * bps)) / ceil(blocks / (cu_base * bps)));
  double one = block_prior(blocks, cu, cu_base);
  return one > waves ? one : waves;
}

/* The time grid is CU counts x clock pairs, the clock pair varying
 * fastest: the prior's and the cap's terms depend on one of the two alone,
 * so each is computed once per CU count into axis[0..ncu) and summed per
 * grid point, the same sums as term by term. */
size_t sp__physet_clock_pairs(const sp_physet *p) {
  return p->grid[SP_TIME].n[1] * p->grid[SP_TIME].n[2];
}

/* cap[i]: the most the log time ratio may be at grid point i (block_bound,
 * plus the slower of the two clock ratios, plus the slack). */
void sp__physet_time_cap(const sp_physet *p, double blocks, double bps, double *axis, double *cap) {
  const size_t ncu = p->grid[SP_TIME].n[0], nclk = sp__physet_clock_pairs(p);
  for (size_t c = 0; c < ncu; c++)
    axis[c] = block_bound(blocks, bps, p->grid[SP_TIME].v[0][c], p->base.cu);
  for (size_t c = 0; c < ncu; c++)
    for (size_t e = 0; e < nclk; e++)
      cap[c * nclk + e] = axis[c] + p->t_logclock[e] + CU_BOUND_SLACK;
}

/* floor[i]: the least the log time ratio may be at grid point i: the
 * busiest pipe, busy the share busy of the base time on cu_base CUs, does
 * the same work on the target's CUs at the target's engine clock. */
void sp__physet_time_floor(const sp_physet *p, double busy, double *floor) {
  for (size_t i = 0; i < p->gsize[SP_TIME]; i++)
    floor[i] = log(busy * p->base.cu / p->t_cu[i] * p->t_er[i]);
}

/* axis: room for one term per CU count and one per clock pair.  lt, when
 * not NULL (version 9), is the kernel's log time ratio over the time grid
 * (measured, or predicted at the base's clocks): the memory-bound share at
 * a CU count is then u times the base time over the time there, min 1
 * (the DRAM's busy time stays as the SMs' grows), and the clock term is
 * taken per grid point. */
void sp__physet_time_prior(const sp_physet *p, double blocks, double dram, const double *lt,
                           double *axis, double *prior) {
  const size_t ncu = p->grid[SP_TIME].n[0], nclk = sp__physet_clock_pairs(p);
  double *clk = axis + ncu;
  for (size_t c = 0; c < ncu; c++)
    axis[c] = p->cu_bounded ? 0 : block_prior(blocks, p->grid[SP_TIME].v[0][c], p->base.cu);
  for (size_t c = 0; c < ncu; c++)
    for (size_t e = 0; e < nclk; e++) prior[c * nclk + e] = axis[c];
  if (!p->clock) return;
  double u = share_u(p, dram), w = p->clock_w;
  /* t_mr and t_er of the first nclk points are those of every clock pair;
   * t_j of every point of a CU count is the same point. */
  if (lt && p->t_j) {
    for (size_t c = 0; c < ncu; c++) {
      double uc = fmin(1, u * exp(-lt[p->t_j[c * nclk]]));
      for (size_t e = 0; e < nclk; e++)
        prior[c * nclk + e] += w * log(uc * p->t_mr[e] + (1 - uc) * p->t_er[e]);
    }
    return;
  }
  for (size_t e = 0; e < nclk; e++) clk[e] = log(u * p->t_mr[e] + (1 - u) * p->t_er[e]);
  for (size_t c = 0; c < ncu; c++)
    for (size_t e = 0; e < nclk; e++) prior[c * nclk + e] += w * clk[e];
}

/* The memory step of the prior, base over target: the peak bandwidth
 * ratio when the memory systems are described, else the clock ratio. */
static double memory_ratio(const sp_physet *p, int target_mhz) {
  if (!p->bw) return (double)p->base.memory_mhz / target_mhz;
  const sp_grid *g = &p->grid[SP_TIME];
  double b = NAN, t = NAN;
  for (size_t i = 0; i < g->n[2]; i++) {
    if (g->v[2][i] == p->base.memory_mhz) b = p->bw[i];
    if (g->v[2][i] == target_mhz) t = p->bw[i];
  }
  return b / t;
}

double sp__physet_memory_ratio(const sp_physet *p, int memory_mhz) {
  return memory_ratio(p, memory_mhz);
}

/* cu_at: the time grid point at the base's clocks of each CU count, or
 * NULL when the grid lacks one. */
static int index_cu_axis(sp_physet *p) {
  const sp_grid *g = &p->grid[SP_TIME];
  if (!(p->cu_at = malloc(g->n[0] * sizeof *p->cu_at))) return SP_ENOMEM;
  for (size_t c = 0; c < g->n[0]; c++) {
    sp_config cfg = {g->v[0][c], p->base.engine_mhz, p->base.memory_mhz};
    sp_grid_point gp;
    if (sp__grid_locate(g, &cfg, &gp)) {
      free(p->cu_at);
      p->cu_at = NULL;
      return SP_OK;
    }
    p->cu_at[c] = sp__grid_flat(g, &gp);
  }
  return SP_OK;
}

/* Fills t_cu, t_er, t_mr, t_logclock, t_logfast, cu_at and (version 9)
 * t_j from the time grid. */
int sp__physet_cache_time_grid(sp_physet *p) {
  const size_t g = p->gsize[SP_TIME], per_cu = g / p->grid[SP_TIME].n[0];
  p->t_cu = malloc(g * sizeof *p->t_cu);
  p->t_er = malloc(g * sizeof *p->t_er);
  p->t_mr = malloc(g * sizeof *p->t_mr);
  p->t_logclock = malloc(g * sizeof *p->t_logclock);
  p->t_logfast = malloc(g * sizeof *p->t_logfast);
  p->t_j = p->bw ? malloc(g * sizeof *p->t_j) : NULL;
  if (!p->t_cu || !p->t_er || !p->t_mr || !p->t_logclock || !p->t_logfast || (p->bw && !p->t_j) ||
      index_cu_axis(p))
    return SP_ENOMEM;
  if (p->t_j && !p->cu_at) return SP_EGRID;
  for (size_t i = 0; i < g; i++) {
    sp_config c = sp__grid_config(&p->grid[SP_TIME], i);
    p->t_cu[i] = c.cu;
    p->t_er[i] = (double)p->base.engine_mhz / c.engine_mhz;
    p->t_mr[i] = memory_ratio(p, c.memory_mhz);
    p->t_logclock[i] = log(p->t_er[i] > p->t_mr[i] ? p->t_er[i] : p->t_mr[i]);
    p->t_logfast[i] = log(p->t_er[i] < p->t_mr[i] ? p->t_er[i] : p->t_mr[i]);
    if (p->t_j) p->t_j[i] = p->cu_at[i / per_cu];
  }
  return SP_OK;
}

/* Index in the time grid of each power grid point (the power grid is a
 * sub-grid of the time grid). */
int sp__physet_power_to_time(const sp_physet *p, size_t *map) {
  for (size_t i = 0; i < p->gsize[SP_POWER]; i++) {
    sp_config c = sp__grid_config(&p->grid[SP_POWER], i);
    sp_grid_point gp;
    if (sp__grid_locate(&p->grid[SP_TIME], &c, &gp)) return SP_EGRID;
    map[i] = sp__grid_flat(&p->grid[SP_TIME], &gp);
  }
  return SP_OK;
}

size_t sp__physet_base_index(const sp_physet *p, sp_quantity q) {
  sp_grid_point gp;
  if (sp__grid_locate(&p->grid[q], &p->base, &gp)) return (size_t)-1;
  return sp__grid_flat(&p->grid[q], &gp);
}

/* log(phi(c) + (1 - phi(c)) * ratio), phi(c) = phi_base * F(c) / F(base). */
double sp__physet_power_prior(double phi_base, double floor_c, double floor_b,
                              double time_ratio_inv) {
  double phi = phi_base * floor_c / floor_b;
  phi = phi < 0 ? 0 : phi > PHI_MAX ? PHI_MAX : phi;
  return log(phi + (1 - phi) * time_ratio_inv);
}

/* Squared distance between two configurations in log space. */
double sp__physet_config_dist2(const sp_config *a, const sp_config *b) {
  double d0 = log((double)a->cu / b->cu), d1 = log((double)a->engine_mhz / b->engine_mhz),
         d2 = log((double)a->memory_mhz / b->memory_mhz);
  return d0 * d0 + d1 * d1 + d2 * d2;
}
