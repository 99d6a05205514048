/* SPDX-License-Identifier: GPL-3.0-or-later */
/* metricmap.c: the vendor metrics behind every model counter, one table per
 * vendor (docs/profile.md).
 *
 * NVIDIA (Hopper, Nsight Compute metric names): the counters are
 * size-independent ratios that mirror the paper's Table II, then the launch
 * shape and the SM activity; these are the formulas the H100 model was
 * trained with (docs/harness.md, "Counters").  AMD (CDNA, rocprofv3 counter
 * and derived-metric names): the Table II counters under both their Table II
 * names (the synthetic HD 7970 model's) and the Hopper-style names, where
 * CDNA has a counterpart; a counter without one has no rule, and a profile
 * is then refused naming it.
 *
 * This file uses the C library only: the harness (sp-runner), which links
 * none of the library's dependencies, compiles it as it is. */
#include "metricmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* a / b x scale; 0 when the denominator is not positive (no shared-memory
 * wavefronts, no global stores), as the harness always computed it. */
static double ratio(double a, double b, double scale) { return b > 0.0 ? scale * a / b : 0.0; }

/* ratio(), but NaN when either value is NaN. */
static double ratio_measured(double a, double b, double scale) {
  return isnan(a) || isnan(b) ? NAN : ratio(a, b, scale);
}

static double max4(double a, double b, double c, double d) {
  double x = a > b ? a : b, y = c > d ? c : d;
  return x > y ? x : y;
}

static double min4(double a, double b, double c, double d) {
  if (isnan(a) || isnan(b) || isnan(c) || isnan(d)) return NAN;
  double x = a < b ? a : b, y = c < d ? c : d;
  return x < y ? x : y;
}

/* ---- NVIDIA ------------------------------------------------------------- */

#define INST "smsp__inst_executed.sum"
#define OP(x) "smsp__sass_inst_executed_op_" x ".sum"
#define PIPE(x) "smsp__inst_executed_pipe_" x ".sum"
#define BUSY(x) "sm__pipe_" x "_cycles_active.avg.pct_of_peak_sustained_active"
#define STALL(x) "smsp__average_warps_issue_stalled_" x "_per_issue_active.ratio"
#define XU_BUSY "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"

/* Blocks resident at once on a full H100 (32 per SM x 132 SMs): the grid
 * size saturates here, as Table II's NumWorkGroups saturates at 320. */
#define WORK_GROUPS_CAP 4224.0

/* The value itself, for counters that are one metric. */
static double same(const double *v) { return v[0]; }
/* v[0] / v[1] in percent. */
static double pct(const double *v) { return ratio(v[0], v[1], 100.0); }
/* (v[0] + v[1]) / v[2] in percent. */
static double pct2(const double *v) { return ratio(v[0] + v[1], v[2], 100.0); }
static double per(const double *v) { return ratio(v[0], v[1], 1.0); }
static double giga(const double *v) { return v[0] * 1e-9; }
static double nv_valu(const double *v) { return ratio(v[0] + v[1] + v[2] + v[3], v[4], 100.0); }
static double nv_valu_util(const double *v) { return 100.0 / 32.0 * v[0]; }
static double nv_valu_busy(const double *v) { return max4(v[0], v[1], v[2], v[3]); }
static double nv_groups(const double *v) { return v[0] > WORK_GROUPS_CAP ? WORK_GROUPS_CAP : v[0]; }
static double sum2(const double *v) { return v[0] + v[1]; }
static double nv_blocks_per_sm(const double *v) { return min4(v[0], v[1], v[2], v[3]); }
static double pct_measured(const double *v) { return ratio_measured(v[0], v[1], 100.0); }

static const sp_counter_rule NVIDIA[] = {
    {"valu_insts_pct",
     {PIPE("fma"), PIPE("alu"), PIPE("fp64"), PIPE("xu"), INST},
     nv_valu,
     "VALUInsts"},
    {"salu_insts_pct", {PIPE("uniform"), INST}, pct, "SALUInsts"},
    {"vfetch_insts_pct", {OP("global_ld"), INST}, pct, "VFetchInsts"},
    {"vwrite_insts_pct", {OP("global_st"), INST}, pct, "VWriteInsts"},
    {"lds_insts_pct", {OP("shared_ld"), OP("shared_st"), INST}, pct2, "LDSInsts"},
    {"atomic_insts_pct", {OP("global_atom"), OP("global_red"), INST}, pct2, ""},
    {"branch_insts_pct", {OP("branch"), INST}, pct, ""},
    {"valu_utilization_pct",
     {"smsp__thread_inst_executed_per_inst_executed.ratio"},
     nv_valu_util,
     "VALUUtilization"},
    {"valu_busy_pct", {BUSY("fma"), BUSY("alu"), BUSY("fp64"), XU_BUSY}, nv_valu_busy, "VALUBusy"},
    {"fma_busy_pct", {BUSY("fma")}, same, "VALUBusy"},
    {"fp64_busy_pct", {BUSY("fp64")}, same, "VALUBusy"},
    {"xu_busy_pct", {XU_BUSY}, same, "VALUBusy"},
    {"salu_busy_pct",
     {"sm__inst_executed_pipe_uniform.avg.pct_of_peak_sustained_active"},
     same,
     "SALUBusy"},
    {"l2_hit_pct", {"lts__t_sector_hit_rate.pct"}, same, "CacheHit"},
    {"l1_hit_pct", {"l1tex__t_sector_hit_rate.pct"}, same, ""},
    {"mem_unit_busy_pct",
     {"l1tex__throughput.avg.pct_of_peak_sustained_active"},
     same,
     "MemUnitBusy"},
    {"l2_busy_pct", {"lts__throughput.avg.pct_of_peak_sustained_elapsed"}, same, ""},
    {"mem_unit_stalled", {STALL("long_scoreboard")}, same, "MemUnitStalled"},
    {"write_unit_stalled", {STALL("lg_throttle")}, same, "WriteUnitStalled"},
    {"mio_stalled", {STALL("mio_throttle")}, same, ""},
    {"barrier_stalled", {STALL("barrier")}, same, ""},
    {"lds_bank_conflict_pct",
     {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"},
     pct,
     "LDSBankConflict"},
    {"occupancy_pct", {"sm__warps_active.avg.pct_of_peak_sustained_active"}, same, "Occupancy"},
    {"ipc", {"sm__inst_executed.avg.per_cycle_active"}, same, "VIPC"},
    {"mem_time_pct", {"dram__throughput.avg.pct_of_peak_sustained_elapsed"}, same, "MemTime"},
    {"fetch_per_load_byte",
     {OP("global_ld"), "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"},
     per,
     "FetchPerLoadByte"},
    {"write_per_store_byte",
     {OP("global_st"), "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum"},
     per,
     "WritePerStoreByte"},
    {"work_groups", {"launch__grid_size"}, nv_groups, "NumWorkGroups"},
    {"read_bw_gbs", {"dram__bytes_read.sum.per_second"}, giga, "ReadBandwidth"},
    {"write_bw_gbs", {"dram__bytes_write.sum.per_second"}, giga, "WriteBandwidth"},
    /* The launch shape: launch statistics, no replay pass. */
    {"grid_blocks", {"launch__grid_size"}, same, ""},
    {"block_threads", {"launch__block_size"}, same, ""},
    {"regs_per_thread", {"launch__registers_per_thread"}, same, ""},
    {"smem_per_block",
     {"launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic"},
     sum2,
     ""},
    {"blocks_per_sm",
     {"launch__occupancy_limit_blocks", "launch__occupancy_limit_registers",
      "launch__occupancy_limit_shared_mem", "launch__occupancy_limit_warps"},
     nv_blocks_per_sm,
     ""},
    {"waves", {"launch__waves_per_multiprocessor"}, same, ""},
    {"theoretical_occupancy_pct", {"sm__maximum_warps_per_active_cycle_pct"}, same, ""},
    /* SM activity: how evenly the SMs were kept busy (a few long blocks
     * show as a low balance), the tensor pipe, the L2's bytes per second. */
    {"sm_active_pct", {"sm__cycles_active.avg", "sm__cycles_elapsed.max"}, pct_measured, ""},
    {"sm_balance_pct", {"sm__cycles_active.avg", "sm__cycles_active.max"}, pct_measured, ""},
    {"tensor_busy_pct",
     {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"},
     same,
     ""},
    {"l2_bw_gbs", {"lts__t_bytes.sum.per_second"}, giga, ""},
    {NULL, {NULL}, NULL, NULL}};

/* What `ncu --set full` lacks of the above but gives in other units: the
 * L2's and L1's bytes as 32-byte sectors (Nsight Compute defines
 * lts__t_bytes and l1tex__t_bytes as 32 x their sectors). */
static const sp_metric_alternatives NVIDIA_ALTS[] = {
    {"lts__t_bytes.sum.per_second", {"lts__t_sectors.sum.per_second"}, {32.0}},
    {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum",
     {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
     {32.0}},
    {"l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum",
     {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"},
     {32.0}},
    {NULL, {NULL}, {0.0}}};

/* ---- AMD ---------------------------------------------------------------- */

/* The instruction mix: each kind's share of the seven kinds CDNA counts. */
#define SQ_MIX                                                                                \
  {                                                                                           \
    "SQ_INSTS_VALU", "SQ_INSTS_SALU", "SQ_INSTS_VMEM_RD", "SQ_INSTS_VMEM_WR", "SQ_INSTS_LDS", \
        "SQ_INSTS_SMEM", "SQ_INSTS_BRANCH"                                                    \
  }
enum { MIX_VALU, MIX_SALU, MIX_VMEM_RD, MIX_VMEM_WR, MIX_LDS, MIX_SMEM, MIX_BRANCH, MIX_N };

static double mix_share(const double *v, int kind) {
  double total = 0.0;
  for (int i = 0; i < MIX_N; i++) total += v[i];
  return ratio(v[kind], total, 100.0);
}
static double mix_valu(const double *v) { return mix_share(v, MIX_VALU); }
static double mix_salu(const double *v) { return mix_share(v, MIX_SALU); }
static double mix_vfetch(const double *v) { return mix_share(v, MIX_VMEM_RD); }
static double mix_vwrite(const double *v) { return mix_share(v, MIX_VMEM_WR); }
static double mix_lds(const double *v) { return mix_share(v, MIX_LDS); }
static double mix_sfetch(const double *v) { return mix_share(v, MIX_SMEM); }
static double mix_branch(const double *v) { return mix_share(v, MIX_BRANCH); }
/* rocprofv3's Grid_Size counts work-items. */
static double amd_groups(const double *v) { return ratio(v[0], v[1], 1.0); }

static const sp_counter_rule AMD[] = {
    {"valu_insts_pct", SQ_MIX, mix_valu, "VALUInsts"},
    {"VALUInsts", SQ_MIX, mix_valu, "VALUInsts"},
    {"salu_insts_pct", SQ_MIX, mix_salu, "SALUInsts"},
    {"SALUInsts", SQ_MIX, mix_salu, "SALUInsts"},
    {"vfetch_insts_pct", SQ_MIX, mix_vfetch, "VFetchInsts"},
    {"VFetchInsts", SQ_MIX, mix_vfetch, "VFetchInsts"},
    {"SFetchInsts", SQ_MIX, mix_sfetch, "SFetchInsts"},
    {"vwrite_insts_pct", SQ_MIX, mix_vwrite, "VWriteInsts"},
    {"VWriteInsts", SQ_MIX, mix_vwrite, "VWriteInsts"},
    {"lds_insts_pct", SQ_MIX, mix_lds, "LDSInsts"},
    {"LDSInsts", SQ_MIX, mix_lds, "LDSInsts"},
    {"branch_insts_pct", SQ_MIX, mix_branch, ""},
    {"valu_utilization_pct", {"VALUUtilization"}, same, "VALUUtilization"},
    {"VALUUtilization", {"VALUUtilization"}, same, "VALUUtilization"},
    {"valu_busy_pct", {"VALUBusy"}, same, "VALUBusy"},
    {"VALUBusy", {"VALUBusy"}, same, "VALUBusy"},
    {"salu_busy_pct", {"SALUBusy"}, same, "SALUBusy"},
    {"SALUBusy", {"SALUBusy"}, same, "SALUBusy"},
    {"l2_hit_pct", {"L2CacheHit"}, same, "CacheHit"},
    {"CacheHit", {"L2CacheHit"}, same, "CacheHit"},
    {"mem_unit_busy_pct", {"MemUnitBusy"}, same, "MemUnitBusy"},
    {"MemUnitBusy", {"MemUnitBusy"}, same, "MemUnitBusy"},
    {"mem_unit_stalled", {"MemUnitStalled"}, same, "MemUnitStalled"},
    {"MemUnitStalled", {"MemUnitStalled"}, same, "MemUnitStalled"},
    {"write_unit_stalled", {"WriteUnitStalled"}, same, "WriteUnitStalled"},
    {"WriteUnitStalled", {"WriteUnitStalled"}, same, "WriteUnitStalled"},
    {"lds_bank_conflict_pct", {"LDSBankConflict"}, same, "LDSBankConflict"},
    {"LDSBankConflict", {"LDSBankConflict"}, same, "LDSBankConflict"},
    {"grid_blocks", {"Grid_Size", "Workgroup_Size"}, amd_groups, ""},
    {"NumWorkGroups", {"Grid_Size", "Workgroup_Size"}, amd_groups, "NumWorkGroups"},
    {"block_threads", {"Workgroup_Size"}, same, ""},
    {"regs_per_thread", {"VGPR_Count"}, same, ""},
    {"smem_per_block", {"LDS_Block_Size"}, same, ""},
    {NULL, {NULL}, NULL, NULL}};

static const sp_counter_rule *table(int vendor) {
  return vendor == SP_VENDOR_NVIDIA ? NVIDIA : vendor == SP_VENDOR_AMD ? AMD : NULL;
}

const sp_counter_rule *sp__metricmap_at(int vendor, size_t i) {
  const sp_counter_rule *t = table(vendor);
  for (size_t j = 0; t && t[j].counter; j++)
    if (j == i) return &t[j];
  return NULL;
}

const char *sp__metric_alternative(int vendor, const char *metric, size_t i, double *scale) {
  const sp_metric_alternatives *a = vendor == SP_VENDOR_NVIDIA ? NVIDIA_ALTS : NULL;
  for (; a && a->metric; a++)
    if (strcmp(a->metric, metric) == 0) {
      if (i >= SP_METRIC_ALTS || !a->alt[i]) return NULL;
      if (scale) *scale = a->scale[i];
      return a->alt[i];
    }
  return NULL;
}

const char *sp_metric_alternative(int vendor, const char *metric, size_t i, double *scale) {
  return sp__metric_alternative(vendor, metric, i, scale);
}

const sp_counter_rule *sp__metricmap_find(int vendor, const char *counter) {
  const sp_counter_rule *r;
  for (size_t i = 0; (r = sp__metricmap_at(vendor, i)) != NULL; i++)
    if (strcmp(r->counter, counter) == 0) return r;
  return NULL;
}

double sp__metric_number(const char *s) {
  char clean[128];
  size_t o = 0;
  for (; *s && o + 1 < sizeof clean; ++s)
    if (*s != ',' && *s != ' ') clean[o++] = *s;
  clean[o] = '\0';
  char *end;
  double v = strtod(clean, &end);
  return o > 0 && *s == '\0' && *end == '\0' && isfinite(v) ? v : NAN;
}

size_t sp__rule_metric_count(const sp_counter_rule *r) {
  size_t n = 0;
  while (n < SP_RULE_METRICS && r->metrics[n]) n++;
  return n;
}

const char *sp_vendor_name(int vendor) {
  return vendor == SP_VENDOR_NVIDIA ? "nvidia" : vendor == SP_VENDOR_AMD ? "amd" : NULL;
}

size_t sp_counter_metrics(int vendor, const char *counter, const char *const **metrics) {
  const sp_counter_rule *r = sp__metricmap_find(vendor, counter);
  if (metrics) *metrics = r ? r->metrics : NULL;
  return r ? sp__rule_metric_count(r) : 0;
}

const char *sp_counter_analogue(int vendor, const char *counter) {
  const sp_counter_rule *r = sp__metricmap_find(vendor, counter);
  return r ? r->analogue : NULL;
}
