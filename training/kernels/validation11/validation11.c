/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation11.c: the eleventh validation suite's table, in run order, and
 * the helpers its setup functions share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation11.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION11[] = {
    {"k_sosfilt_biquad_100",
     "IIR filter bank (scipy sosfilt, 4 biquads in transposed direct form II) over 12800 "
     "sample-interleaved traces of 8192 samples, a work-item per trace: 100 groups of 128",
     "occupancy", k11setup_shape, K11SH_SOSFILT},
    {"k_flac_lpc_120",
     "FLAC LPC analysis of 7680 frames of 4096 samples: window, 33-lag autocorrelation "
     "reduced by local trees, Levinson-Durbin in FP64 by one work-item; 120 groups of 256",
     "occupancy", k11setup_shape, K11SH_LPC},
    {"k_h264_dct4x4_b16",
     "H.264 4 x 4 integer transform and quantisation (x264 sub4x4_dct, quant_4x4) of 64 "
     "1080p frames, a work-item per 4 x 4 block, a group of 16 per macroblock",
     "latency", k11setup_shape, K11SH_H264},
    {"k_boris_push_b32",
     "relativistic Boris push of 16M particles in a plane wave and a guide field (SoA, "
     "24 bytes in and out per particle, a cosine, two square roots), groups of 32",
     "bandwidth", k11setup_shape, K11SH_BORIS},
    {"k_gauss_fan1_tiny",
     "Rodinia gaussian Fan1: multipliers of one column of a 2048 x 2048 system, 1535 "
     "strided rows in 3 groups of 512 (a few microseconds)",
     "launch", k11setup_shape, K11SH_FAN1},
    {"k_amp_unscale_tiny",
     "PyTorch AMP unscale and inf check of 24 gradient tensors (about 370K floats) through "
     "multi_tensor_apply: a group of 256 per chunk of 2048 (a few microseconds)",
     "launch", k11setup_shape, K11SH_AMP},
    {"k_symm_reg4x4",
     "PolyBench symm (C = alpha A B + beta C, A symmetric, lower triangle stored) at M 2048, "
     "N 2176: 64 x 64 tiles, 4 x 4 per work-item, 1088 groups of 256",
     "compute", k11setup_dense, K11DN_SYMM},
    {"k_xgpu_corr_4bit",
     "xGPU-style correlator: Hermitian visibilities of 256 inputs (4-bit complex) over 1024 "
     "samples in 128 channels, lower-triangle 64 x 64 tiles, 4 x 4 complex per work-item",
     "compute", k11setup_dense, K11DN_XGPU},
    {"k_minplus_landmark_400",
     "min-plus product (GraphBLAS MIN_PLUS) of 2560 x 1024 and 1024 x 2560 int32 distance "
     "matrices through landmarks: 128 x 128 tiles, 8 x 8 per work-item, 400 groups of 256",
     "compute", k11setup_dense, K11DN_MINPLUS},
    {"k_lombscargle_529",
     "Lomb-Scargle periodograms (Press-Rybicki sums) of 529 light curves of 1024 irregular "
     "samples at 1024 frequencies: a group of 1024 per curve (2 per SM: 2 x 264 + 1)",
     "compute", k11setup_dense, K11DN_LOMB},
    {"k_grayscott3d_f64",
     "Gray-Scott reaction-diffusion step (ADIOS2 tutorial) on a periodic 384^3 FP64 grid: "
     "two 7-point Laplacians, two fields in and two out",
     "bandwidth", k11setup_stencil, K11ST_GRAYSCOTT},
    {"k_hpgmg_helmholtz_f64",
     "HPGMG-FV variable-coefficient Helmholtz operator on a 320^3 FP64 box with ghosts: "
     "x with 6 neighbours, alpha and three face betas in, Ax out",
     "bandwidth", k11setup_stencil, K11ST_HPGMG},
    {"k_lbm_d3q27_aa",
     "D3Q27 BGK lattice Boltzmann odd step of the AA pattern (in place, one array, SoA) on "
     "a periodic 192^3 float lattice: 27 values read and written per cell",
     "bandwidth", k11setup_stencil, K11ST_LBM},
    {"k_radix_split_tile",
     "block-local LSD radix sort of 1024-key tiles by 32 one-bit splits (Hillis-Steele scans "
     "in local memory, 10 barriers per bit), 65536 groups of 256",
     "compute", k11setup_scan, K11SC_RADIX},
    {"k_select_if_tile",
     "stream compaction (CUB DeviceSelect::If pattern) of 64M floats: per group of 1024 a "
     "Hillis-Steele scan of the flags, scatter, one count per group",
     "compute", k11setup_scan, K11SC_SELECT},
    {"k_nrm2_blue_1block",
     "LAPACK dnrm2 (Blue's scaled accumulators) of 1M FP64 values spanning 1e-160 to 1e150, "
     "one group of 1024",
     "occupancy", k11setup_scan, K11SC_NRM2},
    {"k_welford_lastblock",
     "Welford mean and variance of 128M floats: per-group partials merged by Chan's "
     "formula, the last group (atomic ticket) merges the 16384 partials",
     "bandwidth", k11setup_scan, K11SC_WELFORD},
    {"k_cfl_dt_atomicmin",
     "CFL time step of a 8192 x 4096 2-D Euler grid (sound speed per cell), a local min per "
     "group and one atomic min per group on a single word (131072 groups)",
     "bandwidth", k11setup_scan, K11SC_CFL},
    {"k_over_rgba_v4",
     "Porter-Duff over of two premultiplied RGBA float images of 32M pixels: two 16-byte "
     "loads and one 16-byte store per pixel (CUDA only)",
     "bandwidth", k11setup_cuda, K11CU_OVER},
    {"k_nve_step_v4",
     "HOOMD-blue NVE step one for 16M particles: float4 position, velocity and "
     "acceleration in, position and velocity out, 16-byte accesses (CUDA only)",
     "bandwidth", k11setup_cuda, K11CU_NVE},
    {"k_lj_energy_fx64",
     "Lennard-Jones energy of 1M atoms over 48-neighbour lists, each atom's energy added to "
     "one 64-bit fixed-point word by atomicAdd (CUDA only)",
     "atomic", k11setup_cuda, K11CU_LJ},
    {"k_nussinov_397",
     "Nussinov RNA folding of 397 sequences of 192 bases, a block per sequence with its "
     "148 KB table in dynamic shared memory (one per SM: 3 x 132 + 1) (CUDA only)",
     "compute", k11setup_cuda, K11CU_NUSSINOV},
    {"k_mfcc_warp_b32",
     "MFCCs of 1M 257-bin power spectra (40 mel filters, log, DCT to 13 by warp shuffles), "
     "a block of 32 per frame (CUDA only)",
     "bandwidth", k11setup_cuda, K11CU_MFCC},
    {"k_scan_lookback_u32",
     "single-pass inclusive scan of 128M uint32 with decoupled look-back (CUB DeviceScan): "
     "tiles of 4096 taken by ticket, 16-byte loads and stores (CUDA only)",
     "bandwidth", k11setup_cuda, K11CU_SCAN},
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation11_count(void) { return sizeof VALIDATION11 / sizeof *VALIDATION11 - 1; }

const kdesc *validation11_at(size_t i) {
  return i < validation11_count() ? &VALIDATION11[i] : NULL;
}
