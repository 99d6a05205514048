/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpu.h: an analytic model of an AMD Radeon HD 7970-like GPU.
 *
 * Given what a kernel asks of the hardware (kernel_params) and a hardware
 * configuration, the model gives the kernel's run time, board power and
 * performance-counter values.  All three come from the same mechanics, so
 * the counters carry real information about how the time scales.  The
 * equations are written out in docs/synthetic.md; the names there match the
 * fields here.  Nothing in this file is random: measurement noise is added
 * by the caller.
 */
#ifndef SYNTH_GPU_H
#define SYNTH_GPU_H

typedef struct gpu_config {
  int cu;
  int engine_mhz;
  int memory_mhz;
} gpu_config;

/* One kernel launch.  Instruction counts are per wavefront (64 work-items);
 * byte sizes are per lane per instruction. */
typedef struct kernel_params {
  double waves;        /* wavefronts in the dispatch */
  double groups;       /* work-groups */
  double group_waves;  /* wavefronts per work-group */
  double waves_per_cu; /* resident wavefronts per CU (a multiple of
                          group_waves, at most 40) */
  double valu, salu, vfetch, sfetch, vwrite, lds;
  double lane_util;      /* fraction of lanes active (1 - divergence) */
  double lds_conflict;   /* extra LDS cycles per access, bank conflicts */
  double fetch_bytes;    /* bytes per lane per vector fetch */
  double write_bytes;    /* bytes per lane per vector write */
  double coalesce;       /* useful / transferred bytes, reads */
  double coalesce_write; /* useful / transferred bytes, writes */
  double reuse;          /* L2 read requests per distinct byte read */
  double hit_max;        /* L2 hit rate of re-reads when all fits */
  double ws_group;       /* bytes each resident work-group keeps live */
  double ws_shared;      /* bytes all work-groups share */
  double ilp;            /* fetches a wavefront has in flight at once */
  double overlap_loss;   /* share of non-limiting time not hidden */
} kernel_params;

/* Noise-free model results at one configuration: the terms the time is
 * made of (seconds) and the traffic (bytes) that the counters and the
 * power are derived from. */
typedef struct gpu_eval {
  double busy_cus; /* average CUs with work */
  double t_valu, t_salu, t_lds, t_lds_conflict, t_compute;
  double read_requested, write_requested, dram_read, dram_write;
  double t_dram, t_l2, t_l1, t_memory;
  double t_latency;
  double time;
  double power; /* watts */
} gpu_eval;

/* Evaluates time and power of kernel k at configuration c. */
void gpu_eval_kernel(const kernel_params *k, const gpu_config *c, gpu_eval *out);

/* The counters of the paper's Table II, in output column order. */
enum gpu_counter {
  GPU_VALU_INSTS,
  GPU_SALU_INSTS,
  GPU_VFETCH_INSTS,
  GPU_SFETCH_INSTS,
  GPU_VWRITE_INSTS,
  GPU_LDS_INSTS,
  GPU_VALU_UTILIZATION,
  GPU_VALU_BUSY,
  GPU_SALU_BUSY,
  GPU_CACHE_HIT,
  GPU_MEM_UNIT_BUSY,
  GPU_MEM_UNIT_STALLED,
  GPU_WRITE_UNIT_STALLED,
  GPU_LDS_BANK_CONFLICT,
  GPU_OCCUPANCY,
  GPU_VIPC,
  GPU_MEM_TIME,
  GPU_FETCH_PER_LOAD_BYTE,
  GPU_WRITE_PER_STORE_BYTE,
  GPU_NUM_WORK_GROUPS,
  GPU_READ_BANDWIDTH,
  GPU_WRITE_BANDWIDTH,
  GPU_COUNTER_COUNT
};

typedef struct gpu_counter_info {
  const char *name;
  int dynamic; /* depends on timing, so a real reading would be noisy */
  int percent; /* a percentage: 0..100 */
} gpu_counter_info;

extern const gpu_counter_info gpu_counters[GPU_COUNTER_COUNT];

/* Computes the noise-free counter values of kernel k at c from the
 * evaluation e of that same kernel and configuration. */
void gpu_counter_values(const kernel_params *k, const gpu_config *c, const gpu_eval *e,
                        double out[GPU_COUNTER_COUNT]);

#endif /* SYNTH_GPU_H */
