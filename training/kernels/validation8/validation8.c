/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation8.c: the eighth validation suite's table, in run order, and the
 * helpers its setup functions share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation8.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION8[] = {
    {"s_dna_pack_2bit",
     "2-bit packing of 512M nucleotides (soft-masked ACGT text with N runs): 16 1-byte loads "
     "per work-item, a packed word and a 16-bit N mask stored (read-dominated)",
     "bandwidth", ssetup_stream, SST_DNA},
    {"s_mg_restrict_f64",
     "multigrid full-weighting restriction (NAS MG rprj3) in FP64 from a periodic 512^3 grid "
     "to 256^3: 27 8-byte loads per coarse point (read-dominated)",
     "bandwidth", ssetup_stream, SST_MG},
    {"s_coco_rle_decode",
     "COCO run-length mask decoding of 64 masks of 4096 x 2048: a binary search of the run "
     "starts per 16 pixels, four 4-byte stores (write-dominated)",
     "bandwidth", ssetup_stream, SST_RLE},
    {"s_aces_tonemap",
     "HDR to sRGB8: ASC CDL grade, ACES filmic fit, sRGB encoding (exp / log pow) and hash "
     "dither of 8192 x 4096 float RGB pixels: a stream limited by issue",
     "compute", ssetup_stream, SST_ACES},
    {"s_ewma_series_f64",
     "exponentially weighted moving average (pandas ewm, adjust=False) of 16384 FP64 series x "
     "2048 steps, time-major, a work-item per series in groups of 64: a dependent chain and "
     "few loads in flight",
     "latency", ssetup_stream, SST_EWMA},
    {"s_ep_gauss_pairs_f64",
     "NAS EP: 2^25 Gaussian pairs by the polar method from the 46-bit FP64 LCG (randlc, "
     "jump-ahead per work-item), annulus counts in private arrays, then local and rare global "
     "atomics",
     "compute", ssetup_sci, SSC_EP},
    {"s_pme_gather_bspline4",
     "smooth PME force gather: 4M unsorted charges, order-4 B-spline interpolation of the "
     "potential's gradient from a 192^3 float mesh (28 MB, L2)",
     "l2", ssetup_sci, SSC_PME},
    {"s_pcr_tridiag_60",
     "parallel cyclic reduction of 3840 diagonally dominant tridiagonal systems of 1024 "
     "unknowns, 60 groups of 1024 each solving 64 in turn (two barriers per step)",
     "latency", ssetup_sci, SSC_PCR},
    {"s_sinkhorn_24",
     "Sinkhorn-Knopp entropic optimal transport, 50 iterations on 24 384 x 384 problems (K and "
     "K^T, 28 MB re-read from L2), one group per problem (24 groups)",
     "occupancy", ssetup_sci, SSC_SINKHORN},
    {"s_imu_quat_integrate",
     "IMU attitude propagation: 128 bodies x 16 gyro samples of quaternion exponential "
     "integration, one group of 128 (a few microseconds)",
     "launch", ssetup_sci, SSC_IMU},
    {"s_bn_fold_conv",
     "batch-norm folding into a 128 x 64 x 3 x 3 convolution's weights and bias, 288 groups of "
     "256 (a few microseconds)",
     "launch", ssetup_sci, SSC_BNFOLD},
    {"s_degree_count_atomic",
     "COO to CSR first pass: in- and out-degree counts of 32M edges of a skewed graph on 4M "
     "vertices, two global atomic adds per edge (hubs moderately contended)",
     "atomic", ssetup_irr, SIR_DEGREE},
    {"s_bbox_minmax_atomic",
     "point-cloud bounding box: 1M points, six global atomic min / max per point on the same "
     "six words (fully contended)",
     "atomic", ssetup_irr, SIR_BBOX},
    {"s_gat_edge_softmax",
     "graph attention edge softmax over CSR rows of 2M vertices (mean degree 8, 24 hub rows of "
     "16K-32K edges), a work-item per row, three passes",
     "imbalance", ssetup_irr, SIR_GAT},
    {"s_fmindex_count",
     "FM-index backward search (BWA / Bowtie count) of 4M 32-base reads over a 64M-base "
     "occurrence table (24 MB, L2): two dependent occ lookups per step",
     "l2", ssetup_irr, SIR_FMINDEX},
    {"s_rsa512_verify_131",
     "RSA-512 public-key operation (s^65537 mod n) with 16-limb Montgomery CIOS, 4 signatures "
     "per work-item, 131 groups of 512 (register-limited, one group per SM)",
     "occupancy", ssetup_irr, SIR_RSA},
    {"s_splat_tile_blend",
     "3-D Gaussian splatting forward blend, 16 x 16 tiles of a 1920 x 1088 image, front-to-back "
     "alpha per pixel; 8 tiles hold 40K splats, the rest about 100",
     "imbalance", ssetup_irr, SIR_SPLAT},
    {"s_nlmeans_529",
     "non-local means denoising (11 x 11 search, 5 x 5 patches) of a 2162^2 float image, 529 "
     "tiles of 94^2 with a 108^2 halo tile in 45.6 KB of local memory (4 groups per SM)",
     "imbalance", ssetup_irr, SIR_NLM},
    {"s_raid6_pq_v4",
     "Linux RAID-6 P and Q syndromes of 8 data disks x 64 MB: 16-byte uint4 loads, GF(2^8) "
     "multiply-by-2 on packed bytes (CUDA only)",
     "bandwidth", ssetup_cuda, SCU_RAID6},
    {"s_knn_brute_265",
     "brute-force k-nearest neighbours (k 8) of 67840 queries among 24576 points, 96 KB of "
     "dynamic shared memory per block (2 per SM), 265 blocks (CUDA only)",
     "imbalance", ssetup_cuda, SCU_KNN},
    {"s_cdist_tf32",
     "pairwise Euclidean distances (torch.cdist) of 8192 x 8192 points of dimension 256 on "
     "TF32 tensor cores (CUDA only)",
     "compute", ssetup_cuda, SCU_CDIST},
    {"s_moe_gemm_bf16",
     "mixture-of-experts grouped GEMM: 8 experts with 128-2560 tokens each, 1024 -> 2048, "
     "bf16 WMMA, a block per 64 x 64 tile (CUDA only)",
     "compute", ssetup_cuda, SCU_MOE},
    {"s_fir256_h2",
     "256-tap FIR filter of 64M half samples in packed half2 FMAs, 8 outputs per thread from "
     "a shared-memory window (CUDA only)",
     "compute", ssetup_cuda, SCU_FIR},
    {"s_sw_affine_shfl",
     "Smith-Waterman local alignment with affine gaps (Gotoh), a warp per pair: 32768 pairs of "
     "128 x 512 bases, anti-diagonals pipelined through warp shuffles (CUDA only)",
     "compute", ssetup_cuda, SCU_SW},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation8_count(void) { return sizeof VALIDATION8 / sizeof *VALIDATION8 - 1; }

const kdesc *validation8_at(size_t i) { return i < validation8_count() ? &VALIDATION8[i] : NULL; }

void *sref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, size_t max, double rtol, double atol) {
  const size_t count = n < max ? n : max;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}

int sin_f32(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 4, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f32(job->buf[b].host, n, r, lo, hi);
  return b;
}

int sbuf_u32(kjob *job, size_t n, kb_role role) {
  int b = kjob_buf(job, n * 4, role);
  if (role != KB_OUT && job->buf[b].host == NULL) return -1;
  return b;
}

uint32_t s_hash_host(uint32_t h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

/* What scheck_u8x4 leaves in job->priv: one allocation. */
typedef struct u8x4_check {
  int buf, tol;
  size_t count;
  size_t *idx;
  uint32_t *want;
} u8x4_check;

static int check_u8x4(const kjob *job, char *msg, size_t size) {
  const u8x4_check *c = job->priv;
  const uint32_t *got = job->buf[c->buf].result;
  for (size_t s = 0; s < c->count; ++s) {
    const uint32_t g = got[c->idx[s]], w = c->want[s];
    for (int ch = 0; ch < 4; ++ch) {
      const int d = (int)(g >> 8 * ch & 255) - (int)(w >> 8 * ch & 255);
      if (d > c->tol || d < -c->tol) {
        snprintf(msg, size, "buffer %d word %zu: got %08x, expected %08x (channel %d off by %d)",
                 c->buf, c->idx[s], g, w, ch, d);
        return -1;
      }
    }
  }
  return 0;
}

int scheck_u8x4(kjob *job, int b, size_t count, size_t *idx, uint32_t *want, int tol) {
  u8x4_check *c = malloc(sizeof *c + count * (sizeof *idx + sizeof *want));
  if (c == NULL) {
    free(idx);
    free(want);
    return -1;
  }
  c->buf = b;
  c->tol = tol;
  c->count = count;
  c->idx = (size_t *)(c + 1);
  c->want = (uint32_t *)(c->idx + count);
  memcpy(c->idx, idx, count * sizeof *idx);
  memcpy(c->want, want, count * sizeof *want);
  free(idx);
  free(want);
  job->priv = c;
  job->check = check_u8x4;
  return 0;
}
