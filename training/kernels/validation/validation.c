/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation.c: the validation suite's table, in run order, and the helpers
 * its setup functions share. */
#include <string.h>

#include "validation.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement; they are not used by the model. */
static const kdesc VALIDATION[] = {
    {"v_sgemm_tiled", "SGEMM 2048^3, 64x64 shared-memory tiles, 4x4 per work-item", "compute",
     vsetup_ml, VML_SGEMM},
    {"v_gemm_tn_splitk", "split-K A^T B of two 1M x 64 matrices (weight gradient), 512 partials",
     "compute", vsetup_ml, VML_TN_SPLITK},
    {"v_batched_gemm16", "65536 independent 16x16 matrix products, one work-group each",
     "bandwidth", vsetup_ml, VML_BATCHED16},
    {"v_softmax_1k", "row softmax, 32768 rows of 1024, one 256-wide group per row", "bandwidth",
     vsetup_ml, VML_SOFTMAX_1K},
    {"v_softmax_8k", "row softmax, 4096 rows of 8192, one 512-wide group per row", "bandwidth",
     vsetup_ml, VML_SOFTMAX_8K},
    {"v_softmax_vocab265",
     "row softmax, 265 rows of 65536, 1024-wide groups (2 per SM: one past 264)", "imbalance",
     vsetup_ml, VML_SOFTMAX_265},
    {"v_layernorm768", "layer norm, 65536 rows of 768, row in registers", "bandwidth", vsetup_ml,
     VML_LAYERNORM},
    {"v_attention_head", "flash-style attention, 32 heads x 1024 tokens x 64, online softmax",
     "compute", vsetup_ml, VML_ATTENTION},
    {"v_conv2d_3x3", "direct 3x3 convolution NCHW 8x64x128x128 -> 64 channels", "compute",
     vsetup_ml, VML_CONV3},
    {"v_conv2d_5x5", "direct 5x5 convolution NCHW 8x64x128x128 -> 64 channels", "compute",
     vsetup_ml, VML_CONV5},
    {"v_wmma_f16",
     "tensor-core GEMM 4096^3, WMMA fp16 in / fp32 accumulate, 64x64 tiles (CUDA only)", "compute",
     vsetup_tensor, VTC_WMMA_F16},
    {"v_wmma_bf16", "tensor-core GEMM 8192x1024x4096, WMMA bf16 in / fp32 accumulate (CUDA only)",
     "compute", vsetup_tensor, VTC_WMMA_BF16},
    {"v_half2_bias_gelu", "bias + GELU on 64M halves as __half2 pairs (CUDA only)", "bandwidth",
     vsetup_tensor, VTC_HALF2_GELU},
    {"v_hotspot2",
     "Rodinia-style hotspot thermal stencil 8192^2 FP32, two steps per launch (pyramid)",
     "bandwidth", vsetup_science, VSC_HOTSPOT},
    {"v_heat3d", "7-point heat stencil 384^3 FP32, 2.5-D blocking (32x8 groups marching 96 planes)",
     "bandwidth", vsetup_science, VSC_HEAT3D},
    {"v_jacobi2d_f64", "PolyBench jacobi-2d sweep 6144^2 FP64, global loads only", "bandwidth",
     vsetup_science, VSC_JACOBI_F64},
    {"v_lj_cutoff", "Lennard-Jones forces, 49152 particles all pairs with a 2.5 cutoff (divergent)",
     "compute", vsetup_science, VSC_LJ},
    {"v_kmeans_assign", "k-means assignment, 2M points x 16 features, 32 centroids in local memory",
     "bandwidth", vsetup_science, VSC_KMEANS},
    {"v_backprop_forward", "Rodinia backprop layer forward, 4M inputs x 16 hidden, 16x16 groups",
     "bandwidth", vsetup_science, VSC_BACKPROP},
    {"v_lu_trailing_f64", "blocked LU rank-32 trailing update of a 6144^2 FP64 matrix, in place",
     "bandwidth", vsetup_science, VSC_LU_F64},
    {"v_cg_update_f64", "fused CG vector update (two axpys + r.r partials), 8M FP64, 1024 groups",
     "bandwidth", vsetup_science, VSC_CG_F64},
    {"v_nw_diagonal", "Needleman-Wunsch block anti-diagonal, 64 tiles of 64x64 (64 groups of 64)",
     "latency", vsetup_science, VSC_NW},
    {"v_pathfinder", "Rodinia pathfinder, 20-row pyramid over 4M columns, integer DP", "bandwidth",
     vsetup_science, VSC_PATHFINDER},
    {"v_pagerank_pull",
     "PageRank pull over in-edge CSR, power-law 2M vertices (rows up to 20000), thread per vertex",
     "imbalance", vsetup_graph, VGR_PAGERANK},
    {"v_spmv_coo_fixed", "SpMV in row-sorted COO, 27M nonzeros, 16.16 fixed-point integer atomics",
     "atomic", vsetup_graph, VGR_SPMV_COO},
    {"v_bfs_expand", "top-down BFS level expansion (atomic_min + counter), power-law 2M vertices",
     "imbalance", vsetup_graph, VGR_BFS},
    {"v_sssp_relax", "Bellman-Ford relaxation sweep, 2048^2 grid graph edge list, atomic_min",
     "atomic", vsetup_graph, VGR_SSSP},
    {"v_hist_spread", "256-bin histogram of a 128 Mpixel image, local atomics, broad value spread",
     "atomic", vsetup_contention, VCT_HIST_SPREAD},
    {"v_hist_dark", "256-bin histogram of a mostly black 128 Mpixel image (high local contention)",
     "atomic", vsetup_contention, VCT_HIST_DARK},
    {"v_sum_atomic", "sum and max of 64M uints, group partials folded with global atomics",
     "bandwidth", vsetup_contention, VCT_SUM},
    {"v_compact_counter",
     "stream compaction of 32M floats (25% kept), group-aggregated atomic counter", "bandwidth",
     vsetup_contention, VCT_COMPACT},
    {"v_bnstats100",
     "batch-norm statistics NCHW 64x100x112x112, one 512-wide group per channel (100 groups)",
     "occupancy", vsetup_shapes, VSH_BNSTATS},
    {"v_bias_gelu_1057",
     "bias + GELU over 17M floats, grid-stride with 1057 groups of 256 (one past 8 x 132)",
     "imbalance", vsetup_shapes, VSH_GELU_1057},
    {"v_cell_hist529",
     "particle binning into 12288 cells, 48 KB local histogram, 529 groups (one past 4 x 132)",
     "imbalance", vsetup_shapes, VSH_CELLHIST_529},
    {"v_l2_gather",
     "embedding-bag style hashed gathers, 32 per output, from a 16 MB table (L2-resident)", "l2",
     vsetup_shapes, VSH_L2_GATHER},
    {"v_reduce_oneblock_f64", "sum of squares of 2M doubles in a single 256-wide work-group",
     "latency", vsetup_shapes, VSH_ONEBLOCK},
    {"v_cg_scalars",
     "CG scalar step: reduce 1024 partials, form alpha and beta, one group (a few microseconds)",
     "launch", vsetup_shapes, VSH_CG_SCALARS},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation_count(void) { return sizeof VALIDATION / sizeof *VALIDATION - 1; }

const kdesc *validation_at(size_t i) { return i < validation_count() ? &VALIDATION[i] : NULL; }

void *vref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol) {
  const size_t count = n < V_SAMPLES ? n : V_SAMPLES;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}
