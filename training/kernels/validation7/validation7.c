/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation7.c: the seventh validation suite's table, in run order, and the
 * helpers its setup functions share. */
#include <stdlib.h>
#include <string.h>

#include "validation7.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION7[] = {
    {"r_alibi_bias_fill",
     "ALiBi attention bias with a causal mask for 32 heads x 2048 queries x 4096 keys (1 GB "
     "written, nothing read but 32 slopes), a work-item per element",
     "bandwidth", rsetup_ml, RML_ALIBI},
    {"r_ctc_alpha_96",
     "CTC loss forward (alpha) recursion in log space: 96 utterances of up to 2000 frames, "
     "one 256-wide group per utterance, a barrier per frame",
     "latency", rsetup_ml, RML_CTC},
    {"r_lora_bgmv_shrink",
     "Punica BGMV LoRA shrink: 16384 tokens x 4096 -> rank 16, each token's adapter (of 64, "
     "16 MB in all) re-read from L2, a group per token",
     "l2", rsetup_ml, RML_LORA},
    {"r_softcap_decode",
     "Gemma-2 final logit soft-capping (30 tanh(x / 30)) of one decode step's 256000 logits "
     "(a few microseconds)",
     "launch", rsetup_ml, RML_SOFTCAP},
    {"r_hashgrid_encode",
     "instant-NGP multiresolution hash encoding: 2M ray samples x 16 levels, 8 trilinear "
     "corner gathers per level from 32 MB of tables (L2), a work-item per (sample, level)",
     "l2", rsetup_ml, RML_HASHGRID},
    {"r_specnorm_power_40",
     "spectral normalisation, one power iteration (v = W^T u, u = W v) for 40 1024 x 1024 "
     "weights, one 1024-wide group per weight (40 groups)",
     "occupancy", rsetup_ml, RML_SPECNORM},
    {"r_rbgs_poisson3d_f64",
     "red half-sweep of red-black SOR for the 3-D Poisson equation in FP64, 384^3 points "
     "in place (8-byte loads, 7-point stencil)",
     "bandwidth", rsetup_sci, RSC_RBGS},
    {"r_weno5_burgers_f64",
     "WENO5-JS reconstruction of the Lax-Friedrichs split Burgers flux in FP64 on 8192 x "
     "4096 cells (two 5-point reconstructions, eight divisions per interface)",
     "compute", rsetup_sci, RSC_WENO},
    {"r_simpson_lines_f64_133",
     "adaptive Simpson quadrature in FP64 of 133 x 1024 Lorentzian line profiles with an "
     "explicit per-work-item stack; 5 of the 133 groups of 1024 hold narrow lines",
     "imbalance", rsetup_sci, RSC_SIMPSON},
    {"r_pic_deposit_cic",
     "particle-in-cell cloud-in-cell charge deposition: 16M particles of a Gaussian beam "
     "onto a 1024^2 grid, four fixed-point global atomics each",
     "atomic", rsetup_sci, RSC_CIC},
    {"r_bayer_demosaic_u8",
     "bilinear demosaicing of a 16384 x 12288 RGGB 8-bit mosaic to RGBA8: 1-byte loads of a "
     "3x3 neighbourhood, a 4-byte store per pixel",
     "bandwidth", rsetup_img, RIM_BAYER},
    {"r_depth_backproject_u16",
     "back-projection of 32 16-bit depth frames (1920 x 1080) to 3-D points with pinhole "
     "intrinsics: one 2-byte load, 12 bytes stored per pixel",
     "bandwidth", rsetup_img, RIM_DEPTH},
    {"r_haar_stage_529",
     "Viola-Jones Haar cascade (5 stages, 184 features) on 529 tiles (23 x 23) of a 1955^2 "
     "image, each tile's integral image in 45.6 KB of local memory (4 groups per SM)",
     "imbalance", rsetup_img, RIM_HAAR},
    {"r_peak_find_append",
     "star / keypoint detection: strict 8-neighbour local maxima above a threshold in a "
     "16384 x 8192 float image, appended through one global counter (rare atomics)",
     "bandwidth", rsetup_img, RIM_PEAK},
    {"r_utf8_validate",
     "UTF-8 validation of 512 MB of mixed-script text, a work-item per 64-byte block with an "
     "ASCII fast path per word, one error offset written per block (read-dominated)",
     "bandwidth", rsetup_irr, RIR_UTF8},
    {"r_wc_words_atomic",
     "word count of 64 MB of text (wc -w): a work-item per 4 bytes, one global atomic add on "
     "a single counter per work-item that starts a word (fully contended)",
     "atomic", rsetup_irr, RIR_WC},
    {"r_greedy_color_vb",
     "speculative greedy graph colouring, tentative phase (Kokkos VB): 4M vertices of a "
     "power-law graph with 32 hubs of degree 32K-64K, a work-item per vertex",
     "imbalance", rsetup_irr, RIR_COLOR},
    {"r_aes128_ctr",
     "AES-128 in CTR mode over 256 MB: T-table rounds (5 KB of tables in local memory), a "
     "work-item per 16-byte block",
     "compute", rsetup_irr, RIR_AES},
    {"r_miller_rabin_u32",
     "deterministic Miller-Rabin (bases 2, 7, 61) of 32M odd numbers above 2^30 with 32-bit "
     "Montgomery multiplication, a flag per number",
     "compute", rsetup_irr, RIR_MR},
    {"r_lpm_trie_lookup",
     "IPv4 longest-prefix match of 16M addresses in a binary trie of 600K prefixes (2.0M "
     "nodes, 24 MB: L2), a chain of dependent node loads per address",
     "l2", rsetup_irr, RIR_LPM},
    {"r_linattn_chunk_bf16",
     "chunked causal linear attention output (O = Q h + tril(Q K^T) V) with bf16 WMMA: 64 "
     "heads x 16384 tokens, d 64, a block per 64-token chunk (CUDA only)",
     "bandwidth", rsetup_cuda, RCU_LINATTN},
    {"r_tinymlp_h2",
     "fully fused tiny MLP (32 -> 64 -> 64 -> 16, ReLU) in packed half2 FMAs for 4M points, "
     "weights in shared memory (CUDA only)",
     "compute", rsetup_cuda, RCU_TINYMLP},
    {"r_life_tblock_265",
     "Game of Life with temporal blocking: 16 generations per launch on a 10176 x 960 torus, "
     "265 blocks each with two 224^2 tiles in 98 KB of dynamic shared memory (2 per SM; "
     "CUDA only)",
     "imbalance", rsetup_cuda, RCU_LIFE},
    {"r_kv_copy_blocks_v4",
     "vLLM copy_blocks (beam fork) of 3072 KV-cache block pairs x 4 layers, 16 KB per block "
     "per cache, 16-byte uint4 loads and stores (CUDA only)",
     "bandwidth", rsetup_cuda, RCU_KVCOPY},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation7_count(void) { return sizeof VALIDATION7 / sizeof *VALIDATION7 - 1; }

const kdesc *validation7_at(size_t i) { return i < validation7_count() ? &VALIDATION7[i] : NULL; }

void *rref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol) {
  const size_t count = n < R_SAMPLES ? n : R_SAMPLES;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}

int rin_f32(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 4, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f32(job->buf[b].host, n, r, lo, hi);
  return b;
}

int rbuf_u32(kjob *job, size_t n, kb_role role) {
  int b = kjob_buf(job, n * 4, role);
  if (role != KB_OUT && job->buf[b].host == NULL) return -1;
  return b;
}

uint32_t r_hash_host(uint32_t h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

/* Appends the UTF-8 encoding of code point cp at p; returns its length. */
static size_t put_utf8(uint8_t *p, uint32_t cp) {
  if (cp < 0x80) {
    p[0] = (uint8_t)cp;
    return 1;
  }
  if (cp < 0x800) {
    p[0] = (uint8_t)(0xC0 | cp >> 6);
    p[1] = (uint8_t)(0x80 | (cp & 63));
    return 2;
  }
  if (cp < 0x10000) {
    p[0] = (uint8_t)(0xE0 | cp >> 12);
    p[1] = (uint8_t)(0x80 | (cp >> 6 & 63));
    p[2] = (uint8_t)(0x80 | (cp & 63));
    return 3;
  }
  p[0] = (uint8_t)(0xF0 | cp >> 18);
  p[1] = (uint8_t)(0x80 | (cp >> 12 & 63));
  p[2] = (uint8_t)(0x80 | (cp >> 6 & 63));
  p[3] = (uint8_t)(0x80 | (cp & 63));
  return 4;
}

/* A code point of one word's script (0 ASCII, 1 Cyrillic, 2 CJK, 3 emoji). */
static uint32_t script_cp(int script, krng *r) {
  switch (script) {
    case 1:
      return 0x430 + krng_below(r, 32);
    case 2:
      return 0x4E00 + krng_below(r, 0x5000);
    case 3:
      return 0x1F600 + krng_below(r, 80);
  }
  return 'a' + krng_below(r, 26);
}

uint8_t *rtext_utf8(size_t n, krng *r) {
  const size_t stretch = (size_t)1 << 20, len = n < stretch ? n : stretch;
  uint8_t *t = malloc(n);
  if (t == NULL) return NULL;
  size_t p = 0;
  while (p + 4 * 12 + 1 < len) { /* a word of 1-12 characters, then a space or newline */
    const uint32_t u = krng_below(r, 100);
    const int script = u < 80 ? 0 : u < 92 ? 1 : u < 99 ? 2 : 3;
    const uint32_t chars = 1 + krng_below(r, script == 0 ? 10 : script == 2 ? 3 : 8);
    for (uint32_t c = 0; c < chars; ++c) p += put_utf8(t + p, script_cp(script, r));
    t[p++] = krng_below(r, 12) == 0 ? '\n' : ' ';
  }
  memset(t + p, ' ', len - p);
  for (size_t q = len; q < n; q += len) memcpy(t + q, t, n - q < len ? n - q : len);
  return t;
}
