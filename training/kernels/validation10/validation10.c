/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation10.c: the tenth validation suite's table, in run order, and the
 * helpers its setup functions share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation10.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION10[] = {
    {"u_bitshuffle_u8",
     "bitshuffle of 512 MB of 1-byte elements in blocks of 256: each output byte gathers one bit "
     "plane of 8 elements (1-byte loads and 1-byte stores)",
     "bandwidth", usetup_stream, UST_BITSHUF},
    {"u_pan_tompkins_i16",
     "Pan-Tompkins QRS front end on 256M 16-bit ECG samples: five-point derivative, squaring, "
     "30-sample moving-window integration, 16 outputs per work-item (2-byte loads and stores)",
     "bandwidth", usetup_stream, UST_ECG},
    {"u_geohash_encode_f64",
     "52-bit geohash (Morton interleave of quantised longitude and latitude) of 64M FP64 "
     "points: two 8-byte loads and one 8-byte store per work-item",
     "bandwidth", usetup_stream, UST_GEOHASH},
    {"u_sobol_points_wr",
     "4-dimensional Sobol points (Joe-Kuo direction numbers, Gray-code XOR) for 64M indices, "
     "four floats stored per point, nothing read but 512 bytes (write-only)",
     "bandwidth", usetup_stream, UST_SOBOL},
    {"u_zonemap_minmax_131",
     "zone maps (min, max) of 131 chunks of a 512 MB int column, one group of 256 per chunk "
     "(131 groups) with one 4-byte load in flight per work-item",
     "latency", usetup_stream, UST_ZONEMAP},
    {"u_polyphase_resample_i16",
     "polyphase resampling 44.1 to 48 kHz (160/147) of 16-bit audio in fixed point: 32 taps of "
     "the phase's Q14 filter per output, 32M outputs",
     "compute", usetup_stream, UST_RESAMPLE},
    {"u_igamc_lentz_f64",
     "regularised upper incomplete gamma Q(a, x) of 8M pairs in FP64: series or modified "
     "Lentz continued fraction until converged (data-dependent trip counts, divisions)",
     "compute", usetup_sci, USC_IGAMC},
    {"u_jacobi_eig3_sym",
     "eigenvalues of 16M symmetric 3 x 3 float matrices by five cyclic Jacobi sweeps (square "
     "roots and divisions per rotation), sorted",
     "compute", usetup_sci, USC_EIG3},
    {"u_mcubes_classify_l2",
     "marching-cubes classification of a 256^3 8-bit volume at 8 isovalues: crossed edges per "
     "cube from its 8 corners (1-byte loads), a 32 MB L2-resident working set",
     "l2", usetup_sci, USC_MCUBES},
    {"u_raster_zbuf_atomicmin",
     "software rasterisation of 2M small triangles into a 2048^2 visibility buffer: integer "
     "edge functions, one 32-bit atomic min of depth and id per covered pixel",
     "atomic", usetup_sci, USC_RASTER},
    {"u_bezier_flatten_tiny",
     "de Casteljau flattening of 128 cubic Bezier curves at 32 points each, 16 groups of 256 "
     "(a few microseconds)",
     "launch", usetup_sci, USC_BEZIER},
    {"u_lu_slogdet_40",
     "sign and log-determinant of 640 float 64 x 64 matrices by LU with partial pivoting in 16 KB "
     "of local memory, 40 groups of 256 factoring 16 each (fewer groups than SMs)",
     "occupancy", usetup_sci, USC_SLOGDET},
    {"u_minhash_sig_264",
     "MinHash signatures (128 universal hashes mod 2^31 - 1, minimum over 4-byte shingles) of "
     "16896 1 KB documents, 264 groups of 128 (two per SM at 132)",
     "compute", usetup_irr, UIR_MINHASH},
    {"u_mis_luby_step",
     "one step of Luby's maximal independent set on a 4M-vertex graph with 32 hubs: a "
     "work-item per vertex compares hashed priorities with its undecided neighbours",
     "imbalance", usetup_irr, UIR_MIS},
    {"u_soundex_words",
     "American Soundex codes of 32M words in 16-byte slots, a work-item per word reading it "
     "byte by byte (letter classes, collapsing, h/w rule)",
     "bandwidth", usetup_irr, UIR_SOUNDEX},
    {"u_sha256_merkle_level",
     "one Bitcoin Merkle tree level: SHA-256d of 4M pairs of 32-byte child digests (three "
     "compressions per parent)",
     "compute", usetup_irr, UIR_SHA256},
    {"u_edt_columns_128",
     "exact squared Euclidean distance transform, column pass (Felzenszwalb's lower envelope of "
     "parabolas) of a 16384 x 1024 image, a work-item per column, 128 groups of 128",
     "latency", usetup_irr, UIR_EDT},
    {"u_huffman_decode_chunks",
     "canonical Huffman decoding of 64K independently coded chunks of 4096 byte symbols, a "
     "work-item per chunk, one 1024-entry table lookup per symbol (a dependent chain)",
     "latency", usetup_irr, UIR_HUFFMAN},
    {"u_dct16_wmma_f16",
     "2-D orthonormal DCT-II of the 16 x 16 tiles of a 16384 x 8192 fp16 image as C X C^T on "
     "fp16 tensor cores (two m16n16k16 products per tile), fp32 out (CUDA only)",
     "bandwidth", usetup_cuda, UCU_DCT},
    {"u_hsv_from_rgb_h2",
     "RGBA to HSVA conversion of 64M fp16 pixels in half2 arithmetic (two pixels per "
     "work-item), 16-byte loads and stores (CUDA only)",
     "bandwidth", usetup_cuda, UCU_HSV},
    {"u_countmin_smem_395",
     "Count-Min sketch (4 rows of 4608) of 52M skewed keys in 72 KB of dynamic shared memory per "
     "block with shared atomics, merged by global atomics, 395 blocks at 3 per SM (CUDA only)",
     "atomic", usetup_cuda, UCU_CMS},
    {"u_xxh64_pages_v4",
     "XXH64 of 256K 4 KB pages, a thread per page reading 32-byte stripes as two 16-byte loads, "
     "64-bit multiply-rotate rounds (CUDA only)",
     "bandwidth", usetup_cuda, UCU_XXH},
    {"u_ntt_dilithium_265",
     "Dilithium NTTs (q 8380417, Montgomery) of 4-polynomial vectors and their pointwise "
     "products with a matrix row, a warp per row, shuffles across lanes, 265 blocks (CUDA only)",
     "compute", usetup_cuda, UCU_NTT},
    {"u_cholqr_gram_bf16",
     "Gram matrix A^T A of a 4M x 64 bf16 matrix (CholeskyQR's first step) on bf16 tensor "
     "cores, per-block 64 x 64 sums merged by global float atomics (CUDA only)",
     "bandwidth", usetup_cuda, UCU_GRAM},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation10_count(void) { return sizeof VALIDATION10 / sizeof *VALIDATION10 - 1; }

const kdesc *validation10_at(size_t i) {
  return i < validation10_count() ? &VALIDATION10[i] : NULL;
}

void *uref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, size_t max, double rtol, double atol) {
  const size_t count = n < max ? n : max;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}

int ubuf_u32(kjob *job, size_t n, kb_role role) {
  int b = kjob_buf(job, n * 4, role);
  if (role != KB_OUT && job->buf[b].host == NULL) return -1;
  return b;
}

uint32_t u_hash_host(uint32_t h) {
  h = ((h >> 16) ^ h) * 0x45d9f3bu;
  h = ((h >> 16) ^ h) * 0x45d9f3bu;
  return (h >> 16) ^ h;
}

void urepeat(void *p, size_t len, size_t n) {
  unsigned char *b = p;
  for (size_t q = len; q < n; q += len) memcpy(b + q, b, n - q < len ? n - q : len);
}
