/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation6.c: the sixth validation suite's table, in run order, and the
 * helpers its setup functions share. */
#include <string.h>

#include "validation6.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION6[] = {
    {"q_kv_dequant_int4",
     "int4 KV-cache dequantisation: 256M 4-bit values with a scale and zero point per 32, a "
     "work-item per packed word (4 bytes in, 32 bytes out)",
     "bandwidth", qsetup_ml, QML_KVDQ},
    {"q_focal_loss",
     "sigmoid focal loss (alpha 0.25, gamma 2) over 128M logits with byte labels, a sum per "
     "256-wide group",
     "bandwidth", qsetup_ml, QML_FOCAL},
    {"q_gumbel_sample",
     "Gumbel-max sampling: 64 rows of 524288 logits, counter-based noise, one 1024-wide group "
     "per row (64 groups), argmax by local reduction",
     "occupancy", qsetup_ml, QML_GUMBEL},
    {"q_mamba_scan",
     "Mamba selective scan: 2 x 2048 channels x 16 states over 2048 steps, a work-item per "
     "channel (32 groups of 128), a dependent recurrence",
     "latency", qsetup_ml, QML_MAMBA},
    {"q_sgns_loss",
     "word2vec skip-gram negative-sampling loss: 2M (centre, context) pairs and 5 hashed "
     "negatives, 64-d rows of two 8 MB tables (L2)",
     "l2", qsetup_ml, QML_SGNS},
    {"q_rep_penalty_decode",
     "repetition penalty and temperature on one decode step's 32000 logits, 256 history "
     "tokens in local memory (a few microseconds)",
     "launch", qsetup_ml, QML_REPPEN},
    {"q_wave_o4_f64",
     "2-D acoustic wave equation in FP64, 4th-order Laplacian (radius-2 cross), one leapfrog "
     "step on 4096^2 cells",
     "bandwidth", qsetup_sci, QSC_WAVE},
    {"q_ell_spmv_f64",
     "ELLPACK SpMV in FP64: 4M rows padded to 16, column-major slabs, x of 32 MB gathered",
     "bandwidth", qsetup_sci, QSC_ELL},
    {"q_legendre_f64_265",
     "spherical-harmonic synthesis for one order m: normalised associated Legendre recurrence "
     "in FP64 to degree 4096 at 265 x 1024 colatitudes (265 groups of 1024)",
     "imbalance", qsetup_sci, QSC_LEGENDRE},
    {"q_kde_gauss_133",
     "2-D Gaussian kernel density estimation: 133 x 1024 evaluation points against 16384 "
     "samples staged in local memory (133 groups of 1024)",
     "occupancy", qsetup_sci, QSC_KDE},
    {"q_cordic_fixed",
     "CORDIC sine and cosine in Q2.30 fixed point: 64M angles, 30 shift-add rotations each",
     "compute", qsetup_sci, QSC_CORDIC},
    {"q_median3x3_u8",
     "3x3 median filter of a 16384^2 8-bit image (sorting network of 19 min/max), a "
     "work-item per pixel",
     "bandwidth", qsetup_sci, QSC_MEDIAN},
    {"q_gamma_lut_u8",
     "gamma correction of 512 MB of 8-bit pixels through a 256-entry table in local memory, "
     "a work-item per byte",
     "bandwidth", qsetup_sci, QSC_GAMMA},
    {"q_cuckoo_probe",
     "cuckoo hash table probes: 32M keys against a 2^21-bucket two-hash table (16 MB, L2)", "l2",
     qsetup_irr, QIR_CUCKOO},
    {"q_pq_adc_scan",
     "product-quantisation ADC scan (IVF-PQ style): 32M 16-byte codes, 16 x 256 distance "
     "table in local memory",
     "bandwidth", qsetup_irr, QIR_PQ},
    {"q_hll_sketch",
     "HyperLogLog sketch of 64M items: hash, 16384 registers updated by global atomic max",
     "atomic", qsetup_irr, QIR_HLL},
    {"q_confusion_matrix",
     "confusion matrix of 16M byte (prediction, label) pairs: one global atomic on 100 "
     "counters per pair (fully contended)",
     "atomic", qsetup_irr, QIR_CONFUSION},
    {"q_voxel_downsample",
     "voxel-grid point-cloud downsampling: 16M points into 128^3 voxels, count and "
     "fixed-point coordinate sums by global atomics",
     "atomic", qsetup_irr, QIR_VOXEL},
    {"q_jaccard_edges",
     "Jaccard similarity of the edges of a skewed graph (64K vertices, hubs of degree 4096), "
     "sorted-list intersection, a work-item per edge",
     "imbalance", qsetup_irr, QIR_JACCARD},
    {"q_chacha20_xor",
     "ChaCha20 stream encryption of 256 MB (RFC 8439 block function), a work-item per "
     "64-byte block",
     "compute", qsetup_irr, QIR_CHACHA},
    {"q_varint_decode",
     "LEB128 varint decoding of 512K postings blocks of 128 deltas with a running sum, a "
     "work-item per block",
     "bandwidth", qsetup_irr, QIR_VARINT},
    {"q_conv1x1_wmma_f16",
     "pointwise (1x1) convolution as fp16 WMMA GEMM: 65536 pixels x 512 -> 1024 channels, "
     "bias and ReLU epilogue (CUDA only)",
     "compute", qsetup_cuda, QCU_CONV1X1},
    {"q_lion_step_v4",
     "Lion optimizer step over 64M parameters with float4 loads (16 bytes per load, 3 "
     "streams in, 2 out; CUDA only)",
     "bandwidth", qsetup_cuda, QCU_LION},
    {"q_mi_joint_hist_397",
     "joint histogram of two 8-bit images for mutual information: 397 blocks each with a "
     "128 x 128 histogram in 64 KB of dynamic shared memory (3 per SM; CUDA only)",
     "imbalance", qsetup_cuda, QCU_MIHIST},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation6_count(void) { return sizeof VALIDATION6 / sizeof *VALIDATION6 - 1; }

const kdesc *validation6_at(size_t i) { return i < validation6_count() ? &VALIDATION6[i] : NULL; }

void *qref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol) {
  const size_t count = n < Q_SAMPLES ? n : Q_SAMPLES;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}

int qin_f32(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 4, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f32(job->buf[b].host, n, r, lo, hi);
  return b;
}

int qin_f64(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 8, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f64(job->buf[b].host, n, r, lo, hi);
  return b;
}

int qbuf_u32(kjob *job, size_t n, kb_role role) {
  int b = kjob_buf(job, n * 4, role);
  if (role != KB_OUT && job->buf[b].host == NULL) return -1;
  return b;
}

uint32_t q_hash_host(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}
