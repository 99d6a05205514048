/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation5.c: the fifth validation suite's table, in run order, and the
 * helpers its setup functions share. */
#include <string.h>

#include "validation5.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION5[] = {
    {"z_swiglu_fwd",
     "fused SwiGLU activation: silu(gate) * up over an 8192 x (2 x 8192) fp32 projection, a "
     "work-item per output",
     "bandwidth", zsetup_ml, ZML_SWIGLU},
    {"z_w8_gemv_decode",
     "int8 weight-only GEMV for decoding: 65536 x 8192 signed bytes with per-row scales, one "
     "128-wide group per row, packed words unpacked",
     "bandwidth", zsetup_ml, ZML_W8GEMV},
    {"z_crf_viterbi",
     "batched CRF Viterbi decoding: 96 sequences x 2048 steps x 64 tags, one 64-wide group per "
     "sequence, a barrier per step, serial back-pointer walk",
     "occupancy", zsetup_ml, ZML_VITERBI},
    {"z_sddmm_csr",
     "SDDMM: dot products of 64-d rows of two 65536 x 64 matrices (32 MB, L2) at ~8M sparse "
     "positions, a work-item per non-zero",
     "l2", zsetup_ml, ZML_SDDMM},
    {"z_gnn_scatter_fixed",
     "GNN scatter-sum: 8M edges x 16 fixed-point features added by global atomics into 1M "
     "destination nodes (rare conflicts)",
     "atomic", zsetup_ml, ZML_GNN},
    {"z_tfidf_rows",
     "TF-IDF row normalisation of 262144 documents (8-168 terms, and 6 of 3M terms), one "
     "256-wide group per document, two passes",
     "imbalance", zsetup_ml, ZML_TFIDF},
    {"z_shallow_water_f64",
     "shallow-water equations in FP64 on a 4096^2 C-grid (h, u, v), one forward step with "
     "Coriolis and friction, a work-item per cell",
     "bandwidth", zsetup_sci, ZSC_SWE},
    {"z_doitgen_f64",
     "PolyBench doitgen in FP64: 256 x 256 rows of 256 times a 256 x 256 matrix (512 KB, L1/L2), "
     "one 256-wide group per 4 rows",
     "compute", zsetup_sci, ZSC_DOITGEN},
    {"z_kalman_batch_f64",
     "batched 4-state constant-velocity Kalman filters in FP64: 4096 tracks x 2048 steps, a "
     "work-item per track (32 groups)",
     "latency", zsetup_sci, ZSC_KALMAN},
    {"z_xsbench_lookup",
     "XSBench-like macroscopic cross-section lookups: 4M lookups, binary search of a 196608-point "
     "unionised grid, 4-19 of 24 nuclides interpolated (~30 MB of tables)",
     "l2", zsetup_sci, ZSC_XS},
    {"z_tpacf_pairs",
     "two-point angular correlation: 8192 x 8192 point pairs on the sphere, binary search into "
     "32 angular bins, local-atomic histograms",
     "compute", zsetup_sci, ZSC_TPACF},
    {"z_lut3d_trilinear",
     "3D colour LUT: a 65^3 RGBA fp32 table (4.4 MB, L2) trilinearly interpolated for 32M random "
     "8-bit RGBA pixels",
     "l2", zsetup_sci, ZSC_LUT3D},
    {"z_rbf_tps_265",
     "thin-plate-spline RBF evaluation: 265 tiles of 1024 points against 4096 centres staged in "
     "local memory, 1024-wide groups",
     "imbalance", zsetup_sci, ZSC_TPS},
    {"z_tpch_q6",
     "TPC-H Q6 scan: filter 64M lineitems on ship date, discount and quantity, sum price x "
     "discount, per-group partial sums",
     "bandwidth", zsetup_irr, ZIR_Q6},
    {"z_groupby_agg",
     "hash GROUP BY aggregation: 16M rows with Zipf-skewed keys (2048) into a 4096-slot "
     "open-addressing table (count, sum) by CAS and global atomics",
     "atomic", zsetup_irr, ZIR_GROUPBY},
    {"z_ransac_inliers",
     "RANSAC inlier counting: 8M 2-D points against 8 line hypotheses, one global atomic per "
     "inlier on 8 adjacent counters (fully contended)",
     "atomic", zsetup_irr, ZIR_RANSAC},
    {"z_bitunpack7",
     "frame-of-reference bit-unpacking of 256M 7-bit packed integers (Parquet/FastPFor style), a "
     "work-item per value, 32-bit outputs",
     "bandwidth", zsetup_irr, ZIR_UNPACK},
    {"z_base64_decode",
     "base64 decoding of 512 MB of text: 16 characters to 12 bytes per work-item through a "
     "local table",
     "bandwidth", zsetup_irr, ZIR_B64},
    {"z_gear_cdc",
     "content-defined chunking (FastCDC gear hash) of 256 MB: boundary bitmasks, a 256-byte "
     "slice per work-item with a 32-byte look-back",
     "bandwidth", zsetup_irr, ZIR_CDC},
    {"z_sha3_keccak",
     "SHA3-256 of 262144 messages of 1088 bytes (8 Keccak-f[1600] absorptions each), a "
     "work-item per message, 25 64-bit lanes in registers",
     "compute", zsetup_irr, ZIR_SHA3},
    {"z_rgb_nv12",
     "RGBA to NV12 colour conversion (BT.601, integer) of 16 3840x2160 frames: a work-item per 2x2 "
     "block, byte outputs",
     "bandwidth", zsetup_irr, ZIR_NV12},
    {"z_syrk_wmma_f16",
     "fp16 WMMA SYRK/Gram matrix C = A A^T, 4096 x 4096 x 4096, lower-triangle 64x64 tiles only "
     "(2080 blocks), shared-memory staging (CUDA only)",
     "compute", zsetup_cuda, ZCU_SYRK},
    {"z_segsort_smem_133",
     "segmented sort: 133 blocks of 1024 (one per SM) each sorting 8 segments of 32768 keys, "
     "bitonic in 128 KB of dynamic shared memory (CUDA only)",
     "occupancy", zsetup_cuda, ZCU_SEGSORT},
    {"z_rmsnorm_h16_decode",
     "RMSNorm of one decode token (4096 fp16) with weight, one block, half2 loads (a few "
     "microseconds, CUDA only)",
     "launch", zsetup_cuda, ZCU_RMSNORM},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation5_count(void) { return sizeof VALIDATION5 / sizeof *VALIDATION5 - 1; }

const kdesc *validation5_at(size_t i) { return i < validation5_count() ? &VALIDATION5[i] : NULL; }

void *zref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol) {
  const size_t count = n < Z_SAMPLES ? n : Z_SAMPLES;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}

int zin_f32(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 4, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f32(job->buf[b].host, n, r, lo, hi);
  return b;
}

int zin_f64(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 8, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f64(job->buf[b].host, n, r, lo, hi);
  return b;
}

int zbuf_u32(kjob *job, size_t n, kb_role role) {
  int b = kjob_buf(job, n * 4, role);
  if (role != KB_OUT && job->buf[b].host == NULL) return -1;
  return b;
}
