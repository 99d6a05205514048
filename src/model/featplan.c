/* SPDX-License-Identifier: GPL-3.0-or-later */
/* featplan.c: feature vocabularies (featplan.h).
 *
 * The quantities are those that decide how time responds to fewer compute
 * units or slower clocks: achieved DRAM and L2 traffic (how close the kernel
 * is to the memory system's limits), pipe utilisation and IPC (how close to
 * the SMs' limits), occupancy and the grid size (how much parallelism is
 * left to spread), atomics, stalls and memory operations per instruction.
 * Absolute power is never a feature: two boards of one model read power
 * differently, while these counters do not depend on the board. */
#include "featplan.h"

#include <math.h>
#include <string.h>

typedef struct term {
  const char *num[4], *den[4];
  int logf;
  int optional; /* left out of the plan when the counters lack it */
} term;

typedef struct vocabulary {
  const char *name;
  const char *blocks[2];
  const char *blocks_per_sm;
  const char *dram[4];
  const char *pipes[SP_PIPES_MAX]; /* busy percentages of the SMs' pipes */
  const char *sm_active;           /* percentage of the time the SMs were active */
  term t[SP_FEATURES_MAX];
  size_t nt;
} vocabulary;

/* This project's Nsight Compute features (docs/harness.md, "Counters"). */
static const vocabulary NSIGHT = {
    "nsight",
    {"grid_blocks", "work_groups"},
    "blocks_per_sm",
    {"read_bw_gbs", "write_bw_gbs"},
    {"valu_busy_pct", "fma_busy_pct", "fp64_busy_pct", "xu_busy_pct", "mem_unit_busy_pct"},
    "sm_active_pct",
    {{{"mem_time_pct"}, {NULL}, 0, 0},
     {{"read_bw_gbs", "write_bw_gbs"}, {NULL}, 0, 0},
     {{"l2_busy_pct"}, {NULL}, 0, 0},
     {{"l2_hit_pct"}, {NULL}, 0, 0},
     {{"ipc"}, {NULL}, 0, 0},
     {{"occupancy_pct"}, {NULL}, 0, 0},
     {{"valu_busy_pct"}, {NULL}, 0, 0},
     {{"fma_busy_pct"}, {NULL}, 0, 0},
     {{"fp64_busy_pct"}, {NULL}, 0, 0},
     {{"xu_busy_pct"}, {NULL}, 0, 0},
     {{"mem_unit_busy_pct"}, {NULL}, 0, 0},
     {{"atomic_insts_pct"}, {NULL}, 0, 0},
     {{"mem_unit_stalled"}, {NULL}, 0, 0},
     {{"lds_insts_pct"}, {NULL}, 0, 0},
     {{"valu_insts_pct"}, {NULL}, 0, 0},
     {{"work_groups"}, {NULL}, 1, 0},
     /* The launch shape and SM activity (docs/harness.md, "Counters"):
      * counters files from before these columns still get a plan. */
     {{"grid_blocks"}, {NULL}, 1, 1},
     {{"blocks_per_sm"}, {NULL}, 0, 1},
     {{"waves"}, {NULL}, 1, 1},
     {{"theoretical_occupancy_pct"}, {NULL}, 0, 1},
     {{"sm_active_pct"}, {NULL}, 0, 1},
     {{"sm_balance_pct"}, {NULL}, 0, 1},
     {{"tensor_busy_pct"}, {NULL}, 0, 1},
     {{"l2_bw_gbs"}, {NULL}, 1, 1},
     {{"mio_stalled"}, {NULL}, 0, 1},
     {{"barrier_stalled"}, {NULL}, 0, 1}},
    26};

/* nvprof metrics (the GeForce sets of ../shared/datasets). */
static const vocabulary NVPROF = {
    "nvprof",
    {"num_blocks", NULL},
    NULL,
    {"dram_read_throughput", "dram_write_throughput"},
    {NULL},
    NULL,
    {{{"dram_read_throughput", "dram_write_throughput"}, {NULL}, 0, 0},
     {{"l2_read_throughput", "l2_write_throughput"}, {NULL}, 0, 0},
     {{"ipc"}, {NULL}, 0, 0},
     {{"achieved_occupancy"}, {NULL}, 0, 0},
     {{"sm_efficiency"}, {NULL}, 0, 0},
     {{"eligible_warps_per_cycle"}, {NULL}, 0, 0},
     {{"num_blocks"}, {NULL}, 1, 0},
     {{"dram_read_transactions", "dram_write_transactions"},
      {"inst_executed", "inst_issued"},
      1,
      0},
     {{"l2_read_transactions", "l2_write_transactions"}, {"inst_executed", "inst_issued"}, 1, 0},
     {{"shared_load_transactions", "shared_store_transactions"},
      {"inst_executed", "inst_issued"},
      1,
      0},
     {{"gld_throughput", "gst_throughput"}, {NULL}, 0, 0},
     {{"dram_read_transactions", "dram_write_transactions"}, {NULL}, 1, 0},
     {{"inst_executed", "inst_issued"}, {NULL}, 1, 0}},
    13};

static long find(const char *const *names, size_t n, const char *want) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(names[i], want)) return (long)i;
  return -1;
}

/* Maps a list of counter names to indices; names missing from the data are
 * dropped.  Returns how many were found. */
static int map_names(const char *const *names, size_t n, const char *const *want, long *idx) {
  int found = 0;
  for (int i = 0; i < 4; i++) idx[i] = -1;
  for (int i = 0; i < 4 && want[i]; i++) {
    long j = find(names, n, want[i]);
    if (j >= 0) idx[found++] = j;
  }
  return found;
}

/* A vocabulary applies when every one of its terms that is not optional
 * finds a numerator. */
static int try_vocabulary(const vocabulary *v, const char *const *names, size_t n, int base_cu,
                          sp_featplan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->vocabulary = v->name;
  plan->ncounters = n;
  size_t f = 1;
  for (size_t i = 0; i < v->nt; i++) {
    if (!map_names(names, n, v->t[i].num, plan->num[f])) {
      if (v->t[i].optional) continue;
      return -1;
    }
    map_names(names, n, v->t[i].den, plan->den[f]);
    plan->logf[f++] = v->t[i].logf;
  }
  for (int b = 0; b < 2; b++) plan->blocks[b] = v->blocks[b] ? find(names, n, v->blocks[b]) : -1;
  /* Blocks per CU at the base: whether the grid fills the CUs, and how
   * many times over, whatever the CU count of the base. */
  plan->base_cu = v->blocks_per_sm && plan->blocks[0] >= 0 ? base_cu : 0;
  plan->nfeat = f + (plan->base_cu > 0);
  plan->blocks_per_sm = v->blocks_per_sm ? find(names, n, v->blocks_per_sm) : -1;
  map_names(names, n, v->dram, plan->dram);
  for (int i = 0; i < SP_PIPES_MAX; i++)
    plan->pipes[i] = v->pipes[i] ? find(names, n, v->pipes[i]) : -1;
  plan->sm_active = v->sm_active ? find(names, n, v->sm_active) : -1;
  int pipe = 0;
  for (int i = 0; i < SP_PIPES_MAX; i++) pipe = pipe || plan->pipes[i] >= 0;
  plan->pipe_feature = pipe && plan->sm_active >= 0;
  plan->nfeat += (size_t)plan->pipe_feature;
  plan->wave_feature = plan->base_cu > 0 && plan->blocks_per_sm >= 0;
  plan->nfeat += (size_t)plan->wave_feature;
  return 0;
}

void sp__features_without_pipe(sp_featplan *plan) {
  if (!plan->pipe_feature) return;
  plan->pipe_feature = 0;
  plan->nfeat--;
}

void sp__features_without_wave(sp_featplan *plan) {
  if (!plan->wave_feature) return;
  plan->wave_feature = 0;
  plan->nfeat--;
}

/* DRAM traffic for the generic vocabulary: the first of these found (DCGM's
 * DRAM-active fraction; nvprof's, this project's or CodeXL's throughputs). */
static const char *const GENERIC_DRAM[][4] = {{"DRAMA"},
                                              {"dram_read_throughput", "dram_write_throughput"},
                                              {"read_bw_gbs", "write_bw_gbs"},
                                              {"ReadBandwidth", "WriteBandwidth"}};

void sp__features_plan(const char *const *names, size_t n, int base_cu, sp_featplan *plan) {
  if (!try_vocabulary(&NSIGHT, names, n, base_cu, plan) ||
      !try_vocabulary(&NVPROF, names, n, base_cu, plan))
    return;
  memset(plan, 0, sizeof *plan);
  plan->vocabulary = "generic";
  plan->generic = 1;
  plan->ncounters = n;
  plan->nfeat = n + 1;
  plan->blocks[0] = plan->blocks[1] = plan->blocks_per_sm = plan->sm_active = -1;
  for (int i = 0; i < SP_PIPES_MAX; i++) plan->pipes[i] = -1;
  plan->pipe_feature = plan->wave_feature = 0;
  for (size_t i = 0; i < sizeof GENERIC_DRAM / sizeof GENERIC_DRAM[0]; i++)
    if (map_names(names, n, GENERIC_DRAM[i], plan->dram)) break;
}

static double sum(const long *idx, const double *c) {
  double s = 0;
  for (int i = 0; i < 4 && idx[i] >= 0; i++) s += isfinite(c[idx[i]]) ? c[idx[i]] : 0;
  return s;
}

void sp__features_compute(const sp_featplan *plan, const double *counters, double base_time_ms,
                          double *f) {
  f[0] = log(base_time_ms);
  if (plan->generic) {
    /* asinh keeps counters that span decades comparable without losing
     * the sign; trees only need the order, but the order of a sum of
     * features does not survive a monotone map, so a fixed one is used. */
    for (size_t c = 0; c < plan->ncounters; c++)
      f[c + 1] = isfinite(counters[c]) ? asinh(counters[c]) : 0;
    return;
  }
  size_t wave = (size_t)plan->wave_feature, pipe = (size_t)plan->pipe_feature;
  size_t last = plan->nfeat - (plan->base_cu > 0) - pipe - wave;
  if (plan->base_cu > 0) f[last] = log1p(sp__features_blocks(plan, counters) / plan->base_cu);
  if (pipe) f[plan->nfeat - 1 - wave] = sp__features_pipe_busy(plan, counters);
  if (wave) f[plan->nfeat - 1] = log(sp__features_wave_time(plan, counters, base_time_ms));
  for (size_t i = 1; i < last; i++) {
    double v = sum(plan->num[i], counters);
    if (plan->den[i][0] >= 0) {
      double d = sum(plan->den[i], counters);
      v = d > 0 ? v / d : 0;
    }
    f[i] = plan->logf[i] ? log1p(fabs(v)) : v;
  }
}

/* The count in counter i (blocks), or 0 when there is no such counter or
 * it holds no count of at least one. */
static double count_at(long i, const double *counters) {
  return i >= 0 && isfinite(counters[i]) && counters[i] >= 1 ? counters[i] : 0;
}

double sp__features_blocks(const sp_featplan *plan, const double *counters) {
  double b = count_at(plan->blocks[0], counters);
  return b > 0 ? b : count_at(plan->blocks[1], counters);
}

double sp__features_blocks_per_sm(const sp_featplan *plan, const double *counters) {
  return count_at(plan->blocks_per_sm, counters);
}

double sp__features_dram(const sp_featplan *plan, const double *counters) {
  return plan->dram[0] >= 0 ? sum(plan->dram, counters) : NAN;
}

double sp__features_pipe_busy(const sp_featplan *plan, const double *counters) {
  double busy = 0;
  for (int i = 0; i < SP_PIPES_MAX; i++) {
    long c = plan->pipes[i];
    if (c >= 0 && isfinite(counters[c]) && counters[c] > busy) busy = counters[c];
  }
  /* The busy percentages are of the CUs' active cycles: without the
   * active share there is no bound. */
  long a = plan->sm_active;
  if (a < 0 || !isfinite(counters[a]) || counters[a] < 0) return 0;
  double active = counters[a] > 100 ? 1 : counters[a] / 100;
  return (busy > 100 ? 1 : busy / 100) * active;
}

double sp__features_wave_time(const sp_featplan *plan, const double *counters,
                              double base_time_ms) {
  double b = sp__features_blocks(plan, counters);
  double bps = sp__features_blocks_per_sm(plan, counters);
  if (b < 1 || bps < 1 || plan->base_cu <= 0) return base_time_ms;
  return base_time_ms / ceil(b / (plan->base_cu * bps));
}
