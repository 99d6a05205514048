/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation4.c: the fourth validation suite's table, in run order, and the
 * helpers its setup functions share. */
#include <string.h>

#include "validation4.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION4[] = {
    {"y_groupnorm_nhwc",
     "GroupNorm + SiLU over NHWC 32x64x64x512, 32 groups: one group per (image, group), two passes "
     "of 64-byte pieces",
     "bandwidth", ysetup_ml, YML_GN},
    {"y_embbag_sum",
     "weighted embedding bag: 65536 bags of 1-80 rows of a 500000x128 table (hot tenth), a "
     "work-item per dimension",
     "bandwidth", ysetup_ml, YML_EMBBAG},
    {"y_moe_topk_gate",
     "MoE router: softmax over 64 experts for 1M tokens, top-2 renormalised, per-expert counts via "
     "local histograms",
     "bandwidth", ysetup_ml, YML_MOE},
    {"y_adam_bf16_clip",
     "mixed-precision AdamW on 32M fp32 master weights, bf16 gradients clipped by their global "
     "norm, bf16 copy written",
     "bandwidth", ysetup_ml, YML_ADAM},
    {"y_paged_decode_splitk",
     "paged decode attention split-K stage: 32 seqs (512-4096 tokens) x 8 KV heads x 4 q heads, "
     "RoPE on q, 16-token pages",
     "bandwidth", ysetup_ml, YML_PAGED},
    {"y_dwsep_conv",
     "fused MobileNet block: depthwise 3x3 + ReLU6 in local memory, then pointwise 64 -> 128, NHWC "
     "32x112x112",
     "compute", ysetup_ml, YML_DWSEP},
    {"y_spec_verify",
     "speculative decoding verification: 128 requests x 4 drafts, residual resampling over 128256 "
     "tokens, one group each",
     "occupancy", ysetup_ml, YML_SPEC},
    {"y_template_ncc",
     "heart-wall-like tracking: 270 points, 48x48 templates correlated (NCC) over 48x48 offsets in "
     "8 frames, 1024-wide groups (2 per SM: 6 past 264)",
     "imbalance", ysetup_sci, YSC_TEMPLATE},
    {"y_streamcluster_gain",
     "streamcluster pgain: weighted distance of 4M 32-d points (dimension-major) to a candidate, "
     "switch flags and per-group gains",
     "bandwidth", ysetup_sci, YSC_STREAMCLUSTER},
    {"y_bptree_range",
     "B+tree range search (fan-out 128, 1M keys, 4 MB of leaves in L2): 500000 queries, one "
     "128-wide group each, both ends descend together",
     "l2", ysetup_sci, YSC_BPTREE},
    {"y_hh_neuron",
     "Hodgkin-Huxley population: 262144 cells x 4000 forward-Euler steps, six exps per step, a "
     "work-item per cell",
     "compute", ysetup_sci, YSC_HH},
    {"y_nw_batched",
     "batched Needleman-Wunsch scores of 65536 pairs of 128-base reads, a group per pair, a "
     "barrier "
     "per anti-diagonal",
     "latency", ysetup_sci, YSC_NW},
    {"y_photon_mc",
     "MCML-like photon transport: 524288 photons in a scattering slab, HG phase function, integer "
     "weights deposited by atomics into a 64x64 (r, z) grid",
     "atomic", ysetup_sci, YSC_PHOTON},
    {"y_su3_dslash",
     "staggered Dslash in FP64: SU(3) links x colour vectors in 8 directions on a 24^3 x 48 "
     "lattice, a work-item per site",
     "bandwidth", ysetup_sci, YSC_DSLASH},
    {"y_ising_checker",
     "checkerboard Metropolis half sweep of a 16384^2 byte-spin Ising lattice, counter-based "
     "random numbers, 4 sites per work-item",
     "bandwidth", ysetup_sci, YSC_ISING},
    {"y_clahe_tiles",
     "tile-wise adaptive histogram equalisation of 4 8192^2 8-bit images: local-atomic histograms "
     "of 64x64 tiles, clip, CDF, map",
     "bandwidth", ysetup_sci, YSC_CLAHE},
    {"y_bc_bfs_level",
     "betweenness-centrality forward BFS level: 4M vertices (30% in the frontier), ~36M edges, "
     "CAS claims and path-count atomics",
     "atomic", ysetup_irr, YIR_BC},
    {"y_sa_rank_flags",
     "suffix-array prefix doubling: flag rank-pair changes of 32M sorted suffixes, four random "
     "rank gathers each",
     "bandwidth", ysetup_irr, YIR_SA},
    {"y_csv_tokenize",
     "CSV tokenizer: 256 MB in 4 KB blocks, quote parity by local scans, field ends compacted per "
     "block",
     "bandwidth", ysetup_irr, YIR_CSV},
    {"y_lz77_match",
     "LZ77 match finder: 8 MB of word text, up to 16 hash-chain candidates per position in a 32 KB "
     "window, byte compares",
     "compute", ysetup_irr, YIR_LZ77},
    {"y_strsort_keys",
     "string sort keys: first 8 bytes big-endian and the length of 16M strings of 1-24 bytes "
     "(unaligned gathers)",
     "bandwidth", ysetup_irr, YIR_STRKEYS},
    {"y_kmeans_atomic",
     "k-means update: 2M integer 8-d points assigned to 32 centroids, sums and counts by global "
     "atomics (288 words)",
     "atomic", ysetup_irr, YIR_KMEANS},
    {"y_hgemm_splitk",
     "fp16 WMMA GEMM 512x512x32768 split-K in 32 slices (2048 blocks), fragments from global, "
     "float "
     "atomicAdd into C (CUDA only)",
     "compute", ysetup_cuda, YCU_HGEMM},
    {"y_json_ballot",
     "JSON structural index (simdjson stage 1) of 64 MB: a warp per 4 KB segment, ballots and a "
     "prefix XOR of quote masks (CUDA only)",
     "bandwidth", ysetup_cuda, YCU_JSON},
    {"y_lstm_cell_h16",
     "fused fp16 LSTM cell for 8 sequences x 1024 hidden: gates + bias, sigmoid/tanh, c and h (a "
     "few microseconds, CUDA only)",
     "launch", ysetup_cuda, YCU_LSTM},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation4_count(void) { return sizeof VALIDATION4 / sizeof *VALIDATION4 - 1; }

const kdesc *validation4_at(size_t i) { return i < validation4_count() ? &VALIDATION4[i] : NULL; }

void *yref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol) {
  const size_t count = n < Y_SAMPLES ? n : Y_SAMPLES;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}

int yin_f32(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 4, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f32(job->buf[b].host, n, r, lo, hi);
  return b;
}

int ybuf_u32(kjob *job, size_t n, kb_role role) {
  int b = kjob_buf(job, n * 4, role);
  if (role != KB_OUT && job->buf[b].host == NULL) return -1;
  return b;
}
