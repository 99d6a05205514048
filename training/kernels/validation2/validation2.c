/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation2.c: the second validation suite's table, in run order, and the
 * helpers its setup functions share. */
#include <string.h>

#include "validation2.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION2[] = {
    {"w_adamw_step", "AdamW optimizer step over 32M fp32 parameters (4 streams read, 3 written)",
     "bandwidth", wsetup_llm, WLM_ADAMW},
    {"w_rmsnorm_residual",
     "residual add + RMSNorm, 8192 rows of 5120, row in registers (2 read, 2 written)", "bandwidth",
     wsetup_llm, WLM_RMSNORM},
    {"w_rope_qk",
     "rotary embedding of q and k in place, 16384 tokens x 32 heads x 128, cos/sin tables",
     "bandwidth", wsetup_llm, WLM_ROPE},
    {"w_nchw_to_nhwc",
     "layout change NCHW -> NHWC of 48x120x112x112 floats through 32x33 tiles (ragged channel "
     "tiles)",
     "bandwidth", wsetup_llm, WLM_NHWC},
    {"w_gqa_decode_l2",
     "decode attention, 512 queries over an L2-resident 16 MB KV cache (8 KV heads x 2048 x 128)",
     "l2", wsetup_llm, WLM_GQA_DECODE},
    {"w_topk_rows",
     "top-16 per row by repeated selection, 16384 ragged rows (64-8192) plus 8 rows of 512k",
     "imbalance", wsetup_llm, WLM_TOPK},
    {"w_argmax_vocab",
     "greedy sampling: arg-max over 128256 logits in one 1024-wide group (a few microseconds)",
     "launch", wsetup_llm, WLM_ARGMAX},
    {"w_lbm_d2q9",
     "lattice-Boltzmann D2Q9 collide+stream (pull, SoA), 3072^2 periodic lattice with bounce-back "
     "discs",
     "bandwidth", wsetup_sci, WSC_LBM},
    {"w_srad_coeff",
     "Rodinia SRAD derivatives and diffusion coefficient, 6144^2 image: 1 image read, 5 written",
     "bandwidth", wsetup_sci, WSC_SRAD},
    {"w_mriq", "Parboil MRI-Q: 262144 voxels x 2048 k-space samples, sin and cos per term",
     "compute", wsetup_sci, WSC_MRIQ},
    {"w_covariance_f64",
     "PolyBench covariance D^T D of 2048x2048 FP64 data, upper-triangle 64x64 tiles", "compute",
     wsetup_sci, WSC_COVAR},
    {"w_philox_asian",
     "Monte-Carlo Asian call, 1M work-items x 4 paths x 64 steps, Philox4x32-10 + Box-Muller",
     "compute", wsetup_sci, WSC_PHILOX},
    {"w_rtm_25pt",
     "8th-order acoustic wave step 512x512x256, z register queue, 1024-wide groups "
     "(register-limited)",
     "bandwidth", wsetup_sci, WSC_RTM},
    {"w_rnn_batch40",
     "tanh RNN recurrence, 40 sequences x 512 steps, hidden 256: 40 groups (fewer than the SMs)",
     "occupancy", wsetup_sci, WSC_RNN},
    {"w_bilateral_133img",
     "5x5 bilateral filter of 133 images 512^2, one 1024-wide group per image (one past 132)",
     "imbalance", wsetup_sci, WSC_BILATERAL},
    {"w_nqueens15",
     "15-queens: 89k board prefixes of 5 rows completed by bitmask backtracking, one per work-item",
     "compute", wsetup_irr, WIR_NQUEENS},
    {"w_hashjoin_probe",
     "hash-join probe: 32M keys into a 16 MB linear-probing table (L2-resident), half hit", "l2",
     wsetup_irr, WIR_HASHJOIN},
    {"w_spmm8_l2",
     "CSR SpMV with 8 right-hand sides, scrambled 512^2 5-point matrix: 28 MB, L2-resident", "l2",
     wsetup_irr, WIR_SPMM8},
    {"w_cc_hook_atomic",
     "connected components label sweep: atomic_min over 32M edges of a skewed 4M-vertex graph",
     "atomic", wsetup_irr, WIR_CC},
    {"w_raycast_queue",
     "ray casting 4096^2 against 64 spheres with shadows, 16x16 tiles from a global atomic queue",
     "compute", wsetup_irr, WIR_RAYQUEUE},
    {"w_pairlist_append",
     "neighbour pairs of 1M points in a cell grid, every pair appended through one atomic counter",
     "atomic", wsetup_irr, WIR_PAIRLIST},
    {"w_triangle_count",
     "triangle counting, merge per oriented edge, power-law 1M-vertex graph with hubs", "imbalance",
     wsetup_irr, WIR_TRIANGLE},
    {"w_rowscan_397",
     "inclusive scans of 397 rows of 512000 uints, one 640-wide group per row (3 per SM: one past "
     "396)",
     "imbalance", wsetup_irr, WIR_ROWSCAN},
    {"w_nms_1group",
     "greedy non-maximum suppression of 256 boxes in one work-group (256 barrier steps)", "latency",
     wsetup_irr, WIR_NMS},
    {"w_gemv_f16_decode",
     "fp16 GEMV for decoding, 28672x8192 weights (470 MB), a warp per row, 16-byte loads (CUDA "
     "only)",
     "bandwidth", wsetup_cuda, WCU_GEMV_F16},
    {"w_wmma_tf32_128x64",
     "tensor-core tf32 GEMM 4096x2048x4096, 128x64 block tiles of 8 warps (CUDA only)", "compute",
     wsetup_cuda, WCU_TF32},
    {"w_imma_int8",
     "tensor-core int8 GEMM (s8 -> s32) 4096^3 in TN layout, 64x128 block tiles (CUDA only)",
     "compute", wsetup_cuda, WCU_IMMA},
    {"w_dp4a_int8",
     "int8 GEMM on CUDA cores with __dp4a, 4096x4096x2048, 4x4 outputs per thread (CUDA only)",
     "compute", wsetup_cuda, WCU_DP4A},
    {"w_dwconv7_f16",
     "depthwise 7x7 convolution NHWC fp16 (half2), 128x56x56x128, fp32 accumulation (CUDA only)",
     "bandwidth", wsetup_cuda, WCU_DWCONV},
    {"w_attn_scores_f16",
     "causal attention scores Q K^T in fp16, 32 heads x 2048^2, 64x128 WMMA tiles, masked tiles "
     "only write (CUDA only)",
     "bandwidth", wsetup_cuda, WCU_SCORES},
    {"w_embed_bwd_atomic",
     "embedding backward: 67M float atomicAdds of Zipf-distributed tokens into a 50304x256 table "
     "(CUDA only)",
     "atomic", wsetup_cuda, WCU_EMBED_BWD},
    {"w_batched_inv_f64",
     "Gauss-Jordan inversion of 265 FP64 116x116 matrices, 108 KB dynamic shared each: 2 per SM, "
     "one past 264 (CUDA only)",
     "occupancy", wsetup_cuda, WCU_INV_F64},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation2_count(void) { return sizeof VALIDATION2 / sizeof *VALIDATION2 - 1; }

const kdesc *validation2_at(size_t i) { return i < validation2_count() ? &VALIDATION2[i] : NULL; }

void *wref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol) {
  const size_t count = n < W_SAMPLES ? n : W_SAMPLES;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}

int win_f32(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 4, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f32(job->buf[b].host, n, r, lo, hi);
  return b;
}

int win_f64(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 8, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f64(job->buf[b].host, n, r, lo, hi);
  return b;
}
