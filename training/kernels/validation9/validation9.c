/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation9.c: the ninth validation suite's table, in run order, and the
 * helpers its setup functions share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation9.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION9[] = {
    {"t_mulaw_decode_g711",
     "G.711 mu-law decoding of 256M 8-bit telephony samples to 16-bit PCM: four 1-byte loads "
     "and four 2-byte stores per work-item (write-dominated, 1:2)",
     "bandwidth", tsetup_stream, TST_MULAW},
    {"t_nerf_ray_gen",
     "NeRF ray generation for 16 cameras of 1600 x 1200: pinhole direction, rotation, "
     "normalisation, origin and direction stored (24 bytes per ray, write-only)",
     "bandwidth", tsetup_stream, TST_RAYS},
    {"t_rsync_block_sums",
     "rsync weak rolling checksums (get_checksum1) of a 1 GB file in 2 KB blocks: a group of 128 "
     "per block reading 4-byte words, sums in local memory (read-only)",
     "bandwidth", tsetup_stream, TST_RSYNC},
    {"t_zfs_fletcher4_96",
     "ZFS fletcher-4 of 96 records of 4 MB, one group of 1024 per record (96 groups): 64-bit "
     "weighted sums per word, folded in local memory",
     "occupancy", tsetup_stream, TST_FLETCHER},
    {"t_jpeg_fdct_quant",
     "JPEG encoding front end: libjpeg's integer forward DCT (islow) and quantisation of the "
     "8 x 8 blocks of a 16384^2 8-bit image, a work-item per block",
     "compute", tsetup_stream, TST_JPEG},
    {"t_jagged_segment_mean",
     "mean pooling of 131072 jagged segments of 64-wide float rows (1-48 rows, 8 of 16K-32K), "
     "one 256-wide group per segment: the long segments are the critical path",
     "imbalance", tsetup_stream, TST_JAGGED},
    {"t_sph_density_cells",
     "SPH density summation (cubic spline) for 2M particles over a 128 x 128 x 64 cell list, "
     "27 neighbour cells per particle from a 32 MB L2-resident particle array",
     "l2", tsetup_sci, TSC_SPH},
    {"t_kepler_newton_f64",
     "Kepler's equation by Newton's method in FP64 for 1M orbits x 16 epochs (sin and cos per "
     "step, Danby's start), positions in the orbital plane",
     "compute", tsetup_sci, TSC_KEPLER},
    {"t_ssd_box_decode",
     "SSD anchor-box decoding of 1917 anchors (scales 10, 10, 5, 5) and the best of 90 class "
     "logits with its sigmoid, 8 groups of 256 (a few microseconds)",
     "launch", tsetup_sci, TSC_SSD},
    {"t_icp_normal_eq",
     "ICP point-to-plane normal equations (6 x 6 J^T J, J^T r, r^2) of 16384 correspondences "
     "in one group of 1024 (a few microseconds)",
     "launch", tsetup_sci, TSC_ICP},
    {"t_qr_householder_48",
     "Householder QR (R only) of 768 128 x 64 float matrices held in 32 KB of local memory, 48 "
     "groups of 256 each factoring 16 in turn (three barriers per column)",
     "occupancy", tsetup_sci, TSC_QR},
    {"t_fem_p1_assemble",
     "P1 finite-element stiffness assembly of 8.4M triangles into a CSR matrix: 9 fixed-point "
     "32-bit atomic adds per triangle at precomputed slots (rarely contended)",
     "atomic", tsetup_sci, TSC_FEM},
    {"t_list_rank_sublist",
     "list ranking (Helman-JaJa sublist walk) of a random 16M-node linked list from 262144 "
     "splitters: one dependent 4-byte load per node, scattered stores",
     "latency", tsetup_irr, TIR_LISTRANK},
    {"t_bc1_encode",
     "BC1 (DXT1) texture compression of an 8192^2 RGBA8 image in integer arithmetic: "
     "covariance, principal axis by power iteration, endpoints, 2-bit indices",
     "compute", tsetup_irr, TIR_BC1},
    {"t_lpa_mode_hubs",
     "label propagation step on a 2M-vertex graph (degrees 1-16, 32 hubs of 8K-16K): the mode of "
     "the neighbours' byte labels in a private counter array, a work-item per vertex",
     "imbalance", tsetup_irr, TIR_LPA},
    {"t_scrypt_romix",
     "scrypt ROMix (N 1024, r 1, Salsa20/8) of 16384 blocks with a lookup gap of 2: 64 KB of "
     "scratch per work-item written then read at data-dependent indices",
     "compute", tsetup_irr, TIR_SCRYPT},
    {"t_myers_levenshtein_263",
     "Myers' bit-vector Levenshtein distance of 1.1M pairs of strings of 16-64 letters, 64-bit "
     "words, 263 groups of 1024 (one short of 2 x 132)",
     "compute", tsetup_irr, TIR_MYERS},
    {"t_hough_lines_smem",
     "Hough line transform of 1M edge points of a 4096^2 image: a group of 1024 per angle (264 "
     "angles), votes by local-memory atomics into 5794 rho bins",
     "atomic", tsetup_irr, TIR_HOUGH},
    {"t_orb_match_b1",
     "brute-force Hamming matching of 32768 x 32768 256-bit ORB descriptors on b1 tensor cores "
     "(bmma AND + POPC), nearest per query (CUDA only)",
     "compute", tsetup_cuda, TCU_ORB},
    {"t_qsim_gate4_tf32",
     "a 4-qubit gate on a 26-qubit state vector (512 MB of complex64) as a 32 x 32 real product on "
     "TF32 tensor cores, out of place (CUDA only)",
     "bandwidth", tsetup_cuda, TCU_QSIM},
    {"t_flow_warp_h2",
     "optical-flow warping (bilinear grid_sample) of a 512 x 768 x 32 fp16 NHWC feature map by 8 "
     "flow fields: 16-byte corner loads, half2 blends (CUDA only)",
     "l2", tsetup_cuda, TCU_WARP},
    {"t_fp8_e4m3_quant_v4",
     "FP8 E4M3 cast with saturation of 256M floats and their amax: 16-byte loads and stores, "
     "warp max and one atomic per warp (CUDA only)",
     "bandwidth", tsetup_cuda, TCU_FP8},
    {"t_kmer_count_match_397",
     "canonical 7-mer counting of 104M bases into a 64 KB shared histogram per block with "
     "__match_any_sync aggregation, 397 blocks at 3 per SM (CUDA only)",
     "atomic", tsetup_cuda, TCU_KMER},
    {"t_sgm_path_133",
     "semi-global matching aggregation along one path of 1064 rows x 4096 pixels x 64 "
     "disparities, a warp per row, a warp reduction per pixel, 133 blocks (CUDA only)",
     "latency", tsetup_cuda, TCU_SGM},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation9_count(void) { return sizeof VALIDATION9 / sizeof *VALIDATION9 - 1; }

const kdesc *validation9_at(size_t i) { return i < validation9_count() ? &VALIDATION9[i] : NULL; }

void *tref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, size_t max, double rtol, double atol) {
  const size_t count = n < max ? n : max;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}

int tin_f32(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 4, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f32(job->buf[b].host, n, r, lo, hi);
  return b;
}

int tbuf_u32(kjob *job, size_t n, kb_role role) {
  int b = kjob_buf(job, n * 4, role);
  if (role != KB_OUT && job->buf[b].host == NULL) return -1;
  return b;
}

uint32_t t_hash_host(uint32_t h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

void trepeat(void *p, size_t len, size_t n) {
  unsigned char *b = p;
  for (size_t q = len; q < n; q += len) memcpy(b + q, b, n - q < len ? n - q : len);
}
