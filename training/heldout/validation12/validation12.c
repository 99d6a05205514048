/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation12.c: the twelfth validation suite's table, in run order, and
 * the helpers its setup functions share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation12.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION12[] = {
    {"m_goertzel_dtmf_96",
     "Goertzel detector (ITU-T Q.24 DTMF: 8 tones and their 2nd harmonics) over 24576 "
     "sample-interleaved channels of 4096 samples, a work-item per channel: 96 groups of 256",
     "occupancy", m12setup_shape, M12SH_GOERTZEL},
    {"m_hmm_forward_112",
     "scaled HMM forward algorithm (Rabiner) of 112 sequences of 4096 symbols, 64 states: a group "
     "of 64 per sequence, transition matrix in local memory, 2 barriers per step",
     "occupancy", m12setup_shape, M12SH_HMM},
    {"m_adler32_files_136",
     "zlib Adler-32 of 136 files of 4 MB, a group of 1024 per file (partial sums combined as "
     "adler32_combine): 136 groups, about one wave at 132 SMs",
     "occupancy", m12setup_shape, M12SH_ADLER},
    {"m_census5x5_b16",
     "5 x 5 census transform (Zabih-Woodfill) of 16 frames of 3840 x 2160 8-bit video, a work-item "
     "per pixel, groups of 16",
     "latency", m12setup_shape, M12SH_CENSUS},
    {"m_slab_ray_aabb_b32",
     "ray/box slab test (Kay-Kajiya, Williams et al.) of 16M rays against 16 boxes, nearest hit "
     "kept, SoA rays, groups of 32",
     "compute", m12setup_shape, M12SH_SLAB},
    {"m_spline_eval_tiny",
     "natural cubic spline (Numerical Recipes splint) of 64 knots at 6144 points, binary search "
     "per point: 24 groups of 256 (a few microseconds)",
     "launch", m12setup_shape, M12SH_SPLINE},
    {"m_equalize_lut_tiny",
     "histogram equalisation LUTs (OpenCV equalizeHist) of 48 256-bin histograms: a Hillis-Steele "
     "scan per group of 256 (a few microseconds)",
     "launch", m12setup_shape, M12SH_EQUALIZE},
    {"m_xnor_gemm_reg4x4",
     "binary (XNOR-Net) product of 4096 x 4096 bit matrices over 4096 bits: xor and popcount, 64 x "
     "64 tiles, 4 x 4 per work-item, 4096 groups of 256",
     "compute", m12setup_dense, M12DN_XNOR},
    {"m_cdist_l1_reg4x4",
     "L1 (cityblock) distance matrix (scipy cdist) of 2048 x 2048 float points in 2048 dimensions: "
     "64 x 64 tiles, 4 x 4 per work-item, 1024 groups of 256",
     "compute", m12setup_dense, M12DN_CDIST},
    {"m_donorcell3d_f64",
     "donor-cell (first-order upwind, MPDATA's first pass) flux-form advection step on a periodic "
     "320^3 FP64 grid: q and three face velocities in, q out",
     "bandwidth", m12setup_stencil, M12ST_DONOR},
    {"m_peronamalik3d_f32",
     "Perona-Malik anisotropic diffusion step on a 512 x 512 x 384 float volume: 6 face "
     "conductances exp(-(d/K)^2), zero-flux borders",
     "bandwidth", m12setup_stencil, M12ST_PERONA},
    {"m_lbm_d3q7_advdiff",
     "D3Q7 lattice Boltzmann advection-diffusion of a scalar (BGK, pull, two SoA arrays) on a "
     "periodic 288^3 float lattice: 7 values in and out per cell",
     "bandwidth", m12setup_stencil, M12ST_D3Q7},
    {"m_cr_tridiag_512",
     "cyclic reduction (Hockney; Zhang-Cohen-Owens) of 65536 tridiagonal systems of 512 unknowns "
     "in local memory, a group of 256 each, 18 barriers",
     "compute", m12setup_block, M12BL_CR},
    {"m_cdf97_lift_rows",
     "JPEG 2000 CDF 9/7 lifting DWT, 5 levels, of 32768 rows of 2048 floats in local memory, a "
     "group of 256 per row (31 barriers)",
     "compute", m12setup_block, M12BL_CDF97},
    {"m_lse_last_w4k",
     "logsumexp of 256M floats, online max-and-sum per work-item (16 each), 65536 groups of 256; "
     "the last group (atomic ticket) merges the 65536 partials",
     "bandwidth", m12setup_block, M12BL_LSE + 4},
    {"m_lse_last_w64k",
     "logsumexp of 256M floats, online max-and-sum per work-item (256 each), 4096 groups of 256; "
     "the last group (atomic ticket) merges the 4096 partials",
     "bandwidth", m12setup_block, M12BL_LSE + 8},
    {"m_dot2_f64_last",
     "compensated FP64 dot product (Ogita-Rump-Oishi Dot2: TwoProduct by fma, TwoSum) of two 64M "
     "vectors, 16384 groups; the last group merges the partials",
     "bandwidth", m12setup_block, M12BL_DOT2},
    {"m_half_widen_f16",
     "IEEE half to float widening (OpenEXR / numpy bit conversion, subnormals and NaNs) of 256M "
     "values: 2-byte loads, 4-byte stores",
     "bandwidth", m12setup_stream, M12SM_HALF},
    {"m_onehot_u8_wr",
     "one-hot targets with label smoothing (PyTorch one_hot, label_smoothing 0.1) of 16M byte "
     "labels into 16 classes: 64 bytes written per byte read",
     "bandwidth", m12setup_stream, M12SM_ONEHOT},
    {"m_ema_f64_rmw",
     "EMA of model weights (timm ModelEmaV2, ema.lerp_(p, 1 - decay)) of 64M FP64 weights in "
     "place: two 8-byte loads, one 8-byte store",
     "bandwidth", m12setup_stream, M12SM_EMA},
    {"m_aos_soa_xyz",
     "AoS to SoA split of 32M xyz float points: loads at a 12-byte stride, three unit-stride "
     "stores",
     "bandwidth", m12setup_stream, M12SM_AOS},
    {"m_bessj0_f32",
     "Bessel J0 in float (Numerical Recipes bessj0: rational below 8, Hankel asymptotics with a "
     "sine, a cosine and a square root above) of 128M values",
     "bandwidth", m12setup_stream, M12SM_J0},
    {"m_as241_f64",
     "normal quantiles by Wichura's AS241 (PPND16) in FP64: degree-7 rationals, a log and a square "
     "root in the tails, 64M values",
     "bandwidth", m12setup_stream, M12SM_AS241},
    {"m_searchsorted_30mb",
     "searchsorted (thrust lower_bound) of 8M uint32 queries in a sorted 30 MB table (fits the 50 "
     "MB L2): about 23 dependent loads each",
     "l2", m12setup_stream, M12SM_SEARCH + 30},
    {"m_searchsorted_120mb",
     "searchsorted (thrust lower_bound) of 8M uint32 queries in a sorted 120 MB table (larger than "
     "the L2): about 25 dependent loads each",
     "latency", m12setup_stream, M12SM_SEARCH + 120},
    {"m_uf_find_16mb",
     "union-find roots of 4M queries in a 4M-node forest of 64-node chains (16 MB parent array, "
     "inside the L2), a dependent load per link, no compression",
     "l2", m12setup_stream, M12SM_UF + 22},
    {"m_uf_find_128mb",
     "union-find roots of 4M queries in a 32M-node forest of 64-node chains (128 MB parent array, "
     "larger than the L2), a dependent load per link, no compression",
     "latency", m12setup_stream, M12SM_UF + 25},
    {"m_coo_spmv_casadd",
     "COO SpMV (row-sorted, 16.8M nonzeros, 1M rows) with float adds by compare-and-swap loops on "
     "y, the lanes of a row contending",
     "atomic", m12setup_stream, M12SM_COO},
    {"m_quat_rotate_v4",
     "rotation of 32M float4 vectors by per-element unit quaternions (Eigen / glm formula): two "
     "16-byte loads, one 16-byte store (CUDA only)",
     "bandwidth", m12setup_cuda, M12CU_QUAT},
    {"m_l2norm_rows_b32",
     "L2 normalisation (faiss normalize_L2, F.normalize) of 1.5M rows of 128 floats, a warp per "
     "row: float4 loads, xor-shuffle sum, blocks of 32 (CUDA only)",
     "latency", m12setup_cuda, M12CU_L2NORM},
    {"m_scatter_argmax_u64",
     "scatter argmax (torch_scatter scatter_max) of 64M floats into 1M random segments by 64-bit "
     "atomicMax of packed (value, index) keys (CUDA only)",
     "atomic", m12setup_cuda, M12CU_ARGMAX},
    {"m_knapsack_smem_200",
     "0/1 knapsack DP of 200 instances (512 items, capacity 16383), two 64 KB rows in 128 KB of "
     "dynamic shared memory: one block per SM, 1.5 waves (CUDA only)",
     "compute", m12setup_cuda, M12CU_KNAPSACK},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation12_count(void) { return sizeof VALIDATION12 / sizeof *VALIDATION12 - 1; }

const kdesc *validation12_at(size_t i) {
  return i < validation12_count() ? &VALIDATION12[i] : NULL;
}

size_t m12_stretch(size_t n) { return n < M12_STRETCH ? n : M12_STRETCH; }
