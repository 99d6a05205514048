/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpu.c: the analytic HD 7970 model (time, power, counters).
 *
 * The constants describe Tahiti (Radeon HD 7970): 64-lane CUs of four
 * SIMDs, 40 wavefront slots per CU, a 768 KiB L2 of 12 channels, and 12
 * channels of GDDR5 giving 264 GB/s at 1375 MHz.  docs/synthetic.md gives
 * the equations and the reasoning behind each figure.
 */
#include "gpu.h"

#include <assert.h>
#include <math.h>

/* ---- hardware ---------------------------------------------------------- */

static const double lanes = 64.0;               /* work-items per wavefront */
static const double wave_slots = 40.0;          /* 4 SIMDs x 10 wavefronts */
static const double lds_clocks = 2.0;           /* per wave LDS access: 256 B
                                                   at 128 B/clock */
static const double l1_bytes_per_clock = 64.0;  /* per CU */
static const double l2_bytes_per_clock = 768.0; /* 12 channels x 64 B */
static const double l2_capacity = 768.0 * 1024.0;
static const double l2_knee = 4.0;     /* sharpness of L2 overflow */
static const double dram_peak = 264e9; /* B/s at dram_ref_mhz */
static const double dram_ref_mhz = 1375.0;
static const double dram_efficiency = 0.85;
static const double inflight_per_cu = 8192.0; /* 128 misses x 64 B */
static const double hit_clocks = 250.0;       /* CU to L2 and back */
static const double miss_clocks = 300.0;      /* the same, plus the memory
                                                 controller's queues */
static const double latency_dram_ns = 80.0;   /* DRAM core access */
static const double latency_bus_ns = 8.0;     /* burst at dram_ref_mhz */
static const double launch_s = 4e-6;          /* driver and PCIe */
static const double launch_clocks = 3000.0;   /* command processor */

/* ---- power ------------------------------------------------------------- */

static const double volt_low = 0.85;  /* flat below the knee */
static const double volt_high = 1.17; /* at 1000 MHz */
static const double volt_knee_mhz = 500.0;
static const double board_w = 35.0; /* fans, VRM loss, PCIe, display */
static const double leak_w = 38.0;  /* at volt_high */
static const double cu_w = 3.6;     /* per fully active CU, 1 GHz,
                                       volt_high */
/* Switching activity of a CU, as a share of a fully active one: the clock
 * tree toggles even when idle; each unit adds its weight times its busy
 * share; a VALU instruction toggles a floor of logic whatever the lane
 * mask, the rest only in active lanes. */
static const double act_idle = 0.25;
static const double act_valu = 0.65, act_valu_floor = 0.4;
static const double act_salu = 0.1, act_lds = 0.15, act_memory = 0.15;
static const double l2_w = 14.0;          /* L2 and fabric, 1 GHz, busy */
static const double l2_idle_share = 0.3;  /* of l2_w, with no traffic */
static const double mem_idle_w = 4.0;     /* memory controller, PHY */
static const double mem_clock_w = 10.0;   /* GDDR5 I/O at 1375 MHz */
static const double mem_w_per_gbs = 0.11; /* access energy: 0.11 nJ/B */

static double hz(int mhz) { return mhz * 1e6; }

static double ratio(double num, double den) { return den > 0.0 ? num / den : 0.0; }

/* A dispatch runs in rounds of one work-group per CU; the last round, or a
 * dispatch with fewer work-groups than CUs, leaves CUs idle.  This is the
 * average number of CUs with work, which is what throughput scales with. */
static double busy_cus(double groups, int cu) { return groups / ceil(groups / cu); }

static double groups_per_cu(const kernel_params *k) {
  return floor(k->waves_per_cu / k->group_waves);
}

/* Round-trip latency of an access that misses the L2: mostly in the engine
 * clock domain (CU, L1, crossbar, L2 and controller queues), with a fixed
 * DRAM core part and a small part that shrinks with the memory clock (the
 * burst itself). */
static double miss_latency_s(const gpu_config *c) {
  double dram_ns = latency_dram_ns + latency_bus_ns * dram_ref_mhz / c->memory_mhz;
  return miss_clocks / hz(c->engine_mhz) + dram_ns * 1e-9;
}

/* The average fetch latency: L2 hits return in engine cycles only. */
static double fetch_latency_s(const gpu_config *c, const gpu_eval *e) {
  double miss = e->read_requested > 0.0 ? e->dram_read / e->read_requested : 1.0;
  return (1.0 - miss) * hit_clocks / hz(c->engine_mhz) + miss * miss_latency_s(c);
}

/* Every resident work-group keeps its own working set live in the L2, so
 * more CUs mean a larger footprint; past the capacity the re-reads start
 * missing (paper Fig. 1(d)).  The logistic in log(footprint) keeps the
 * knee smooth, as a set-associative cache's is. */
static double l2_hit_rate(const kernel_params *k, int cu) {
  double resident = fmin(k->groups, cu * groups_per_cu(k));
  double footprint = k->ws_shared + resident * k->ws_group;
  return k->hit_max / (1.0 + pow(footprint / l2_capacity, l2_knee));
}

static void compute_terms(const kernel_params *k, double fe, gpu_eval *e) {
  double rate = e->busy_cus * fe; /* wave-instructions per second */
  e->t_valu = k->waves * k->valu / rate;
  e->t_salu = k->waves * k->salu / rate;
  e->t_lds = k->waves * k->lds * lds_clocks * (1.0 + k->lds_conflict) / rate;
  e->t_lds_conflict = e->t_lds * k->lds_conflict / (1.0 + k->lds_conflict);
  e->t_compute = fmax(e->t_valu, fmax(e->t_salu, e->t_lds));
}

/* Distinct bytes are read from DRAM once; re-reads hit in the L2 at the
 * configuration's hit rate.  Writes go to DRAM once. */
static void memory_traffic(const kernel_params *k, int cu, gpu_eval *e) {
  double items = k->waves * lanes;
  e->read_requested = items * k->vfetch * k->fetch_bytes / k->coalesce;
  e->write_requested = items * k->vwrite * k->write_bytes / k->coalesce_write;
  double distinct = e->read_requested / k->reuse;
  double hit = l2_hit_rate(k, cu);
  e->dram_read = distinct + (e->read_requested - distinct) * (1.0 - hit);
  e->dram_write = e->write_requested;
}

/* The memory side is limited by whichever is slowest: DRAM bandwidth, L2
 * bandwidth, the CUs' L1 bandwidth, or how many read misses the busy CUs
 * can keep in flight (Little's law).  Writes are posted: no wavefront
 * waits for them, so they only count against bandwidth. */
static void memory_terms(const kernel_params *k, const gpu_config *c, double fe, gpu_eval *e) {
  double dram = e->dram_read + e->dram_write;
  double requested = e->read_requested + e->write_requested;
  double bandwidth = dram_efficiency * dram_peak * c->memory_mhz / dram_ref_mhz;
  double resident = fmin(k->waves_per_cu, k->waves / e->busy_cus);
  double inflight = fmin(inflight_per_cu, resident * k->ilp * lanes * k->fetch_bytes / k->coalesce);
  double t_inflight = e->dram_read * miss_latency_s(c) / (e->busy_cus * inflight);
  e->t_dram = dram / bandwidth;
  e->t_l2 = requested / (l2_bytes_per_clock * fe);
  e->t_l1 = requested / (l1_bytes_per_clock * e->busy_cus * fe);
  e->t_memory = fmax(fmax(e->t_dram, e->t_l2), fmax(e->t_l1, t_inflight));
}

/* Each round of resident work-groups waits at least for its chain of
 * dependent fetches (vfetch / ilp round trips), however wide the memory. */
static double latency_term(const kernel_params *k, const gpu_config *c, const gpu_eval *e) {
  double rounds = ceil(k->groups / (c->cu * groups_per_cu(k)));
  return rounds * (k->vfetch / k->ilp) * fetch_latency_s(c, e);
}

/* The limiting term sets the time; the others are mostly hidden behind
 * it, but not entirely (overlap_loss). */
static double combine(const kernel_params *k, const gpu_eval *e) {
  double terms[3] = {e->t_compute, e->t_memory, e->t_latency};
  double top = 0.0, sum = 0.0;
  for (int i = 0; i < 3; i++) {
    top = fmax(top, terms[i]);
    sum += terms[i];
  }
  return top + k->overlap_loss * (sum - top);
}

static double voltage(int engine_mhz) {
  double above = fmax(0.0, engine_mhz - volt_knee_mhz);
  return volt_low + (volt_high - volt_low) * above / (1000.0 - volt_knee_mhz);
}

/* Switching activity of a CU with work, from its units' busy shares. */
static double cu_activity(const kernel_params *k, const gpu_eval *e) {
  double lanes_on = act_valu_floor + (1.0 - act_valu_floor) * k->lane_util;
  return act_idle + act_valu * lanes_on * e->t_valu / e->time + act_salu * e->t_salu / e->time +
         act_lds * e->t_lds / e->time + act_memory * fmin(1.0, e->t_memory / e->time);
}

/* Board power: fixed, leakage (~V^3), dynamic (~f V^2 x activity) for the
 * CUs and the L2, and memory (interface ~ memory clock, plus energy per
 * byte moved). */
static double power(const kernel_params *k, const gpu_config *c, const gpu_eval *e) {
  double v = voltage(c->engine_mhz) / volt_high;
  double dynamic = c->engine_mhz / 1000.0 * v * v;
  double cus = e->busy_cus * cu_activity(k, e) + (c->cu - e->busy_cus) * act_idle;
  double l2 = l2_w * (l2_idle_share + (1.0 - l2_idle_share) * e->t_l2 / e->time);
  double gbs = (e->dram_read + e->dram_write) / e->time / 1e9;
  double mem = mem_idle_w + mem_clock_w * c->memory_mhz / dram_ref_mhz + mem_w_per_gbs * gbs;
  return board_w + leak_w * v * v * v + dynamic * (cu_w * cus + l2) + mem;
}

void gpu_eval_kernel(const kernel_params *k, const gpu_config *c, gpu_eval *out) {
  double fe = hz(c->engine_mhz);
  out->busy_cus = busy_cus(k->groups, c->cu);
  compute_terms(k, fe, out);
  memory_traffic(k, c->cu, out);
  memory_terms(k, c, fe, out);
  out->t_latency = latency_term(k, c, out);
  out->time = launch_s + launch_clocks / fe + combine(k, out);
  out->power = power(k, c, out);
  assert(isfinite(out->time) && out->time > 0.0);
  assert(isfinite(out->power) && out->power > 0.0);
}

/* ---- counters ------------------------------------------------------------ */

const gpu_counter_info gpu_counters[GPU_COUNTER_COUNT] = {
    [GPU_VALU_INSTS] = {"VALUInsts", 0, 1},
    [GPU_SALU_INSTS] = {"SALUInsts", 0, 1},
    [GPU_VFETCH_INSTS] = {"VFetchInsts", 0, 1},
    [GPU_SFETCH_INSTS] = {"SFetchInsts", 0, 1},
    [GPU_VWRITE_INSTS] = {"VWriteInsts", 0, 1},
    [GPU_LDS_INSTS] = {"LDSInsts", 0, 1},
    [GPU_VALU_UTILIZATION] = {"VALUUtilization", 0, 1},
    [GPU_VALU_BUSY] = {"VALUBusy", 1, 1},
    [GPU_SALU_BUSY] = {"SALUBusy", 1, 1},
    [GPU_CACHE_HIT] = {"CacheHit", 1, 1},
    [GPU_MEM_UNIT_BUSY] = {"MemUnitBusy", 1, 1},
    [GPU_MEM_UNIT_STALLED] = {"MemUnitStalled", 1, 1},
    [GPU_WRITE_UNIT_STALLED] = {"WriteUnitStalled", 1, 1},
    [GPU_LDS_BANK_CONFLICT] = {"LDSBankConflict", 1, 1},
    [GPU_OCCUPANCY] = {"Occupancy", 0, 1},
    [GPU_VIPC] = {"VIPC", 1, 0},
    [GPU_MEM_TIME] = {"MemTime", 1, 0},
    [GPU_FETCH_PER_LOAD_BYTE] = {"FetchPerLoadByte", 1, 0},
    [GPU_WRITE_PER_STORE_BYTE] = {"WritePerStoreByte", 1, 0},
    [GPU_NUM_WORK_GROUPS] = {"NumWorkGroups", 0, 0},
    [GPU_READ_BANDWIDTH] = {"ReadBandwidth", 1, 0},
    [GPU_WRITE_BANDWIDTH] = {"WriteBandwidth", 1, 0},
};

/* Instruction mix: each kind's share of all instructions issued. */
static void instruction_mix(const kernel_params *k, double *out) {
  double total = k->valu + k->salu + k->vfetch + k->sfetch + k->vwrite + k->lds;
  out[GPU_VALU_INSTS] = 100.0 * k->valu / total;
  out[GPU_SALU_INSTS] = 100.0 * k->salu / total;
  out[GPU_VFETCH_INSTS] = 100.0 * k->vfetch / total;
  out[GPU_SFETCH_INSTS] = 100.0 * k->sfetch / total;
  out[GPU_VWRITE_INSTS] = 100.0 * k->vwrite / total;
  out[GPU_LDS_INSTS] = 100.0 * k->lds / total;
}

/* Unit busy and stall shares are averaged over all CUs, as the hardware
 * counters are, so idle CUs (few work-groups) pull them down. */
static void unit_shares(const gpu_config *c, const gpu_eval *e, double *out) {
  double chip = 100.0 * e->busy_cus / c->cu / e->time;
  double stall = fmax(0.0, e->t_memory - e->t_l1);
  double dram = e->dram_read + e->dram_write;
  out[GPU_VALU_BUSY] = chip * e->t_valu;
  out[GPU_SALU_BUSY] = chip * e->t_salu;
  out[GPU_MEM_UNIT_BUSY] = chip * fmin(e->t_memory, e->time);
  out[GPU_MEM_UNIT_STALLED] = chip * stall;
  out[GPU_WRITE_UNIT_STALLED] = chip * ratio(e->dram_write, dram) * fmax(0.0, e->t_dram - e->t_l1);
  out[GPU_LDS_BANK_CONFLICT] = chip * e->t_lds_conflict;
}

static void memory_counters(const kernel_params *k, const gpu_eval *e, double *out) {
  double items = k->waves * lanes;
  double reads = e->read_requested;
  out[GPU_CACHE_HIT] = 100.0 * ratio(reads - e->dram_read, reads);
  out[GPU_MEM_TIME] = e->t_dram / e->time;
  out[GPU_FETCH_PER_LOAD_BYTE] = ratio(items * k->vfetch, e->dram_read);
  out[GPU_WRITE_PER_STORE_BYTE] = ratio(items * k->vwrite, e->dram_write);
  out[GPU_READ_BANDWIDTH] = e->dram_read / e->time / 1e9;
  out[GPU_WRITE_BANDWIDTH] = e->dram_write / e->time / 1e9;
}

void gpu_counter_values(const kernel_params *k, const gpu_config *c, const gpu_eval *e,
                        double out[GPU_COUNTER_COUNT]) {
  double vector = k->valu + k->vfetch + k->vwrite + k->lds;
  instruction_mix(k, out);
  unit_shares(c, e, out);
  memory_counters(k, e, out);
  out[GPU_VALU_UTILIZATION] = 100.0 * k->lane_util;
  out[GPU_OCCUPANCY] = 100.0 * k->waves_per_cu / wave_slots;
  out[GPU_VIPC] = k->waves * vector / (c->cu * hz(c->engine_mhz) * e->time);
  out[GPU_NUM_WORK_GROUPS] = fmin(k->groups, 320.0);
}
