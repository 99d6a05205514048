/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation3.c: the third validation suite's table, in run order, and the
 * helpers its setup functions share. */
#include <string.h>

#include "validation3.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION3[] = {
    {"x_layernorm_bwd",
     "LayerNorm backward, 65536 rows of 1024: dx and per-group dgamma/dbeta partials (3 streams "
     "read, 1 written)",
     "bandwidth", xsetup_ml, XML_LN_BWD},
    {"x_conv3x3_igemm",
     "implicit-GEMM 3x3 convolution NHWC 32x56x56x128 -> 128, im2col tiles gathered on the fly, "
     "4x4 per work-item",
     "compute", xsetup_ml, XML_CONV_IGEMM},
    {"x_quant_int8_rows",
     "per-row absmax int8 quantisation of 32768x4096 fp32 activations, 4 codes packed per word",
     "bandwidth", xsetup_ml, XML_QUANT_INT8},
    {"x_int4_gemm_b8",
     "weight-only int4 GEMM for 8 tokens: 32768x8192 packed weights, per-128 scales and zeros, "
     "activations staged in local memory",
     "compute", xsetup_ml, XML_INT4_GEMM},
    {"x_moe_dispatch",
     "MoE top-2 dispatch: 262144 tokens of 128 floats copied to 8 skewed experts, slots from 8 "
     "atomic counters",
     "atomic", xsetup_ml, XML_MOE_DISPATCH},
    {"x_beam_search64",
     "beam search step, 64 items x 8 beams x 128256 vocab: top-16 per item, one group each (64 "
     "groups)",
     "occupancy", xsetup_ml, XML_BEAM},
    {"x_topp_1group",
     "nucleus (top-p) sampling over 128256 probabilities, 4-pass radix select in one 1024-wide "
     "group",
     "latency", xsetup_ml, XML_TOPP},
    {"x_kv_append_decode",
     "paged KV-cache append of one decode token, 128 requests x 8 heads x 128 (a few "
     "microseconds)",
     "launch", xsetup_ml, XML_KV_APPEND},
    {"x_fdtd3d_yee",
     "3-D FDTD Yee E-field update 320^3 with per-cell material ids: 6 fields read, 3 written in "
     "place",
     "bandwidth", xsetup_sci, XSC_FDTD},
    {"x_lavamd_boxes",
     "Rodinia lavaMD: 16^3 boxes x 128 particles, 27 neighbour boxes staged in local memory, exp "
     "potential",
     "compute", xsetup_sci, XSC_LAVAMD},
    {"x_chem_rates",
     "S3D-like reaction rates: 2M grid points x 128 Arrhenius reactions (exp, log), 16 species",
     "compute", xsetup_sci, XSC_CHEM},
    {"x_binomial_265",
     "American put on a 2048-step binomial tree, 265 options, one 1024-wide group each (2 per SM: "
     "one past 264)",
     "imbalance", xsetup_sci, XSC_BINOMIAL},
    {"x_cfd_euler_flux",
     "Rodinia CFD Euler fluxes, unstructured 8M-cell mesh, 4 neighbours per cell (indirect "
     "gathers)",
     "bandwidth", xsetup_sci, XSC_CFD},
    {"x_pf_resample",
     "particle-filter resampling by linear CDF search (Rodinia find_index), 128 filters x 8192 "
     "particles",
     "compute", xsetup_sci, XSC_RESAMPLE},
    {"x_thomas_batched",
     "Thomas tridiagonal solves, 262144 systems of 128 in interleaved layout, a work-item per "
     "system",
     "bandwidth", xsetup_sci, XSC_THOMAS},
    {"x_sptrsv_levels",
     "level-scheduled sparse lower-triangular solves of 96 subdomains of 16384 rows, one group "
     "each "
     "(96 groups)",
     "latency", xsetup_sci, XSC_SPTRSV},
    {"x_lorenz96_rk4",
     "Lorenz-96 ensemble, 65536 members x 40 variables, 200 RK4 steps in registers "
     "(register-limited)",
     "compute", xsetup_sci, XSC_LORENZ},
    {"x_resize_bilinear",
     "bilinear resize + normalise of 64 RGB8 1080x1920 images to 3x512x512 floats (HWC -> CHW)",
     "bandwidth", xsetup_sci, XSC_RESIZE},
    {"x_bloom_count",
     "Bloom filter probe: 16M keys x 6 bits in a 32 MB filter (L2), hits counted on one global "
     "atomic counter",
     "atomic", xsetup_irr, XIR_BLOOM},
    {"x_merge_path",
     "merge of two sorted 32M-key arrays by merge-path partitions, 2048 outputs per group through "
     "local memory",
     "bandwidth", xsetup_irr, XIR_MERGE},
    {"x_radix_scatter",
     "LSD radix sort pass (8-bit digit) of 32M key-value pairs: local 1-bit splits, scatter to "
     "per-tile digit offsets",
     "bandwidth", xsetup_irr, XIR_RADIX},
    {"x_segreduce_keys",
     "reduce-by-key of 64M sorted pairs, power-law segments, runs folded per work-item, atomic "
     "carries",
     "bandwidth", xsetup_irr, XIR_SEGRED},
    {"x_spgemm_symbolic",
     "SpGEMM symbolic phase: nnz of the rows of A*A through local hash tables, power-law 1M-row "
     "matrix",
     "l2", xsetup_irr, XIR_SPGEMM},
    {"x_grep_dfa",
     "multi-keyword DFA grep over 4M log lines, a work-item per line; one group's lines 10x longer",
     "imbalance", xsetup_irr, XIR_REGEX},
    {"x_hash_build_cas",
     "hash table build: 16M Zipf-duplicated keys into 8M slots, linear probing with atomic CAS, "
     "atomic counts",
     "atomic", xsetup_irr, XIR_HASHBUILD},
    {"x_crc32_pages",
     "CRC-32 (slicing by 4) of 32768 pages of 16 KB, a work-item per page: 128 groups (fewer than "
     "the SMs)",
     "latency", xsetup_irr, XIR_CRC32},
    {"x_flash_attn_f16",
     "causal flash attention forward, fp16 WMMA, 32 heads x 4096 x 64, online softmax, 64-row "
     "query tiles (CUDA only)",
     "compute", xsetup_cuda, XCU_FLASH},
    {"x_dmma_f64", "FP64 tensor-core GEMM 2048^3 (DMMA 8x8x4), 64x64 tiles of 4 warps (CUDA only)",
     "compute", xsetup_cuda, XCU_DMMA},
    {"x_xent_bf16",
     "cross-entropy loss and gradient, 8192 rows x 32768 bf16 logits, a warp per row, online "
     "logsumexp (CUDA only)",
     "bandwidth", xsetup_cuda, XCU_XENT},
    {"x_chol_136",
     "Cholesky of 136 SPD 200x200 fp32 matrices in 160 KB of dynamic shared memory: 1 per SM, 4 "
     "past 132 (CUDA only)",
     "imbalance", xsetup_cuda, XCU_CHOL},
    {"x_pagerank_push",
     "push-style PageRank step, power-law 4M vertices / 30M edges, float atomicAdd into a 16 MB "
     "vector (CUDA only)",
     "atomic", xsetup_cuda, XCU_PAGERANK},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation3_count(void) { return sizeof VALIDATION3 / sizeof *VALIDATION3 - 1; }

const kdesc *validation3_at(size_t i) { return i < validation3_count() ? &VALIDATION3[i] : NULL; }

void *xref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol) {
  const size_t count = n < X_SAMPLES ? n : X_SAMPLES;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}

int xin_f32(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 4, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f32(job->buf[b].host, n, r, lo, hi);
  return b;
}

int xbuf_u32(kjob *job, size_t n, kb_role role) {
  int b = kjob_buf(job, n * 4, role);
  if (role != KB_OUT && job->buf[b].host == NULL) return -1;
  return b;
}
