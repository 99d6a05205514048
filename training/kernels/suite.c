/* suite.c: the kernel suite, in run order.  Scaling classes are what the
 * kernel is expected to do as SMs are added: "bandwidth" (DRAM-bound:
 * saturates once a fraction of the SMs can keep DRAM busy), "compute"
 * (scales with SMs), "l2" (L2-bound), "latency" (limited by dependent
 * loads and the work-items in flight), "atomic" (serialized read-modify-
 * writes), "launch" (fixed overhead: no scaling), "occupancy" (too few
 * work-groups to fill every SM), "floor" (a probe, not a workload: SMs
 * resident but idle for a fixed time at every level, so its power is the
 * board's floor under load; idle_spin).
 *
 * Sources ending in .cu are CUDA C++ (tensor cores, half precision,
 * __nanosleep): only the CUDA backend runs them. */
#include <string.h>

#include "suite.h"

#define K(name, scaling, stresses, setup, param) \
  {name, stresses, scaling, setup, param}

static const kdesc SUITE[] = {
    K("stream_copy", "bandwidth", "DRAM streaming: 1 read + 1 write per element", setup_stream, 0),
    K("stream_scale", "bandwidth", "DRAM streaming with one multiply", setup_stream, 1),
    K("stream_add", "bandwidth", "DRAM streaming: 2 reads + 1 write", setup_stream, 2),
    K("stream_triad", "bandwidth", "DRAM streaming: 2 reads + 1 write + FMA", setup_stream, 3),
    K("stream_triad_f64", "bandwidth", "DRAM streaming of doubles", setup_stream, 4),
    K("stream_stride32", "bandwidth", "sector waste: 8 useful bytes per 128-byte stride", setup_stream, 5),
    K("ws_2mb", "l2", "working set 2 MiB (L2-resident reads)", setup_ws, 2),
    K("ws_8mb", "l2", "working set 8 MiB (L2-resident reads)", setup_ws, 8),
    K("ws_24mb", "l2", "working set 24 MiB (half of the 50 MB L2)", setup_ws, 24),
    K("ws_40mb", "l2", "working set 40 MiB (near the L2 capacity)", setup_ws, 40),
    K("ws_64mb", "bandwidth", "working set 64 MiB (overflows L2)", setup_ws, 64),
    K("ws_256mb", "bandwidth", "working set 256 MiB (DRAM)", setup_ws, 256),
    K("reduce_sum_f32", "bandwidth", "tree reduction in local memory, float", setup_reduce, 0),
    K("reduce_sum_f64", "bandwidth", "tree reduction in local memory, double", setup_reduce, 1),
    K("reduce_max_u32", "bandwidth", "tree reduction + one atomic max per group", setup_reduce, 2),
    K("dot_f32", "bandwidth", "dot product partials: 2 streams + tree", setup_reduce, 3),
    K("scan_hs_f32", "compute", "Hillis-Steele scan: log n local-memory passes", setup_scan, 0),
    K("scan_blelloch_f32", "compute", "Blelloch scan: strided local accesses, bank conflicts", setup_scan, 1),
    K("scan_seq4_u32", "bandwidth", "integer scan: 4 sequential + local tree", setup_scan, 2),
    K("st2d_5pt", "bandwidth", "2-D 5-point stencil through the caches", setup_stencil, 0),
    K("st2d_5pt_f64", "bandwidth", "2-D 5-point stencil, double", setup_stencil, 1),
    K("st2d_9pt", "bandwidth", "2-D 9-point stencil", setup_stencil, 2),
    K("st2d_5pt_tiled", "bandwidth", "2-D 5-point stencil, local-memory tile + halo", setup_stencil, 3),
    K("st3d_7pt", "bandwidth", "3-D 7-point stencil (plane reuse through L2)", setup_stencil, 4),
    K("st3d_27pt", "l2", "3-D 27-point stencil (27 cached reads per point)", setup_stencil, 5),
    K("mm_naive", "compute", "matrix multiply, naive (L1/L2 reuse)", setup_matmul, 0),
    K("mm_naive_strided", "l2", "matrix multiply, naive with uncoalesced A and C", setup_matmul, 1),
    K("mm_tiled16", "compute", "matrix multiply, 16x16 local-memory tiles", setup_matmul, 2),
    K("mm_tiled16_f64", "compute", "matrix multiply in double, 16x16 tiles (FP64 pipe)", setup_matmul, 3),
    K("mm_regblock", "compute", "matrix multiply, 64x64 tiles, 4x4 register blocking", setup_matmul, 4),
    K("spmv_scalar_d4", "bandwidth", "CSR SpMV, 4 nonzeros/row, row per work-item", setup_spmv, 40),
    K("spmv_scalar_d32", "bandwidth", "CSR SpMV, 32 nonzeros/row, row per work-item (uncoalesced)", setup_spmv, 320),
    K("spmv_vector_d32", "bandwidth", "CSR SpMV, 32 nonzeros/row, 32 work-items per row", setup_spmv, 321),
    K("spmv_vector_d128", "bandwidth", "CSR SpMV, 128 nonzeros/row, 32 work-items per row", setup_spmv, 1281),
    K("spmv_banded_d16", "bandwidth", "CSR SpMV, 16 nonzeros/row near the diagonal (cached x)", setup_spmv, 162),
    K("hist_global_256", "atomic", "histogram, global atomics, 256 bins", setup_hist, 256),
    K("hist_global_4", "atomic", "histogram, global atomics, 4 bins (contended)", setup_hist, 4),
    K("hist_local_256", "bandwidth", "histogram, local-memory atomics + merge", setup_hist, 0),
    K("transpose_naive", "bandwidth", "transpose, strided writes", setup_transpose, 0),
    K("transpose_tiled", "bandwidth", "transpose through local tiles with bank conflicts", setup_transpose, 1),
    K("transpose_tiled_pad", "bandwidth", "transpose through padded local tiles", setup_transpose, 2),
    K("nbody_naive", "occupancy", "all-pairs n-body, rsqrt, broadcast reads; 64 work-groups", setup_nbody, 0),
    K("nbody_tiled", "occupancy", "all-pairs n-body through local-memory tiles; 64 work-groups", setup_nbody, 1),
    K("fft_stage_h1", "bandwidth", "radix-2 FFT stage, adjacent butterflies, sin/cos", setup_fft, 0),
    K("fft_stage_htop", "bandwidth", "radix-2 FFT stage, butterflies n/2 apart", setup_fft, -1),
    K("fft_local1024", "compute", "1024-point FFTs in local memory (barriers)", setup_fft, 99),
    K("mc_pi", "compute", "Monte-Carlo pi: integer RNG, no memory traffic", setup_mc, 0),
    K("mc_gbm", "compute", "Monte-Carlo paths: log, sqrt, cos, exp (SFU)", setup_mc, 1),
    K("black_scholes", "bandwidth", "Black-Scholes: exp, log, sqrt per option", setup_mc, 2),
    K("mc_trig_f64", "compute", "double-precision sin, cos, exp", setup_mc, 3),
    K("poly_f32_d8", "bandwidth", "Horner degree 8 (memory-bound FMA)", setup_poly, 8),
    K("poly_f32_d64", "compute", "Horner degree 64", setup_poly, 64),
    K("poly_f32_d512", "compute", "Horner degree 512 (FMA-bound)", setup_poly, 512),
    K("poly_f64_d32", "bandwidth", "Horner degree 32 in double (4 flop/byte)", setup_poly, -32),
    K("poly_f64_d256", "compute", "Horner degree 256 in double (FP64-bound)", setup_poly, -256),
    K("hash_murmur", "compute", "integer hashing: 32-bit multiply/shift", setup_hash, 0),
    K("hash_fnv1a", "bandwidth", "byte-wise hashing of 64-byte records", setup_hash, 1),
    K("hash_splitmix64", "compute", "64-bit integer multiplies", setup_hash, 2),
    K("popcount_sum", "bandwidth", "population count of streamed words", setup_hash, 3),
    K("gather_dram", "bandwidth", "random gather from 256 MiB", setup_irregular, 0),
    K("gather_l2", "l2", "random gather from 4 MiB (L2)", setup_irregular, 1),
    K("scatter_perm", "bandwidth", "random permutation scatter", setup_irregular, 2),
    K("bfs_pull", "latency", "bottom-up BFS step: irregular neighbour reads", setup_irregular, 3),
    K("bfs_push", "atomic", "top-down BFS step: atomic min on neighbours", setup_irregular, 4),
    K("chase_l1", "latency", "pointer chasing in 16 KiB (L1 latency)", setup_chase, 12),
    K("chase_l2", "latency", "pointer chasing in 4 MiB (L2 latency)", setup_chase, 20),
    K("chase_dram", "latency", "pointer chasing in 256 MiB (DRAM latency)", setup_chase, 26),
    K("lmem_stride1", "compute", "local-memory reads, conflict-free", setup_lmem, 1),
    K("lmem_stride2", "compute", "local-memory reads, 2-way bank conflicts", setup_lmem, 2),
    K("lmem_stride32", "compute", "local-memory reads, 32-way bank conflicts", setup_lmem, 32),
    K("branch_uniform", "compute", "4 code paths chosen per work-group", setup_branch, 0),
    K("branch_divergent", "compute", "4 code paths inside every warp", setup_branch, 1),
    K("branch_datadep", "compute", "data-dependent loop trip counts", setup_branch, 2),
    K("atomic_one", "atomic", "every work-item increments one word", setup_atomics, 0),
    K("atomic_spread", "atomic", "increments spread over 4096 words", setup_atomics, 1),
    K("gups", "atomic", "random atomic XOR updates in 64 MiB", setup_atomics, 2),
    K("bitonic_local", "compute", "bitonic sort of 1024-key chunks in local memory", setup_sort, 0),
    K("bitonic_step", "bandwidth", "one global bitonic compare-exchange step", setup_sort, 1),
    K("conv1d_k63", "compute", "1-D convolution, 63 taps (cached reuse)", setup_conv, 63),
    K("blur_x", "bandwidth", "9-tap blur along rows", setup_conv, 0),
    K("blur_y", "bandwidth", "9-tap blur along columns", setup_conv, 1),
    K("gemv_rowmajor", "occupancy", "matrix-vector, row per work-item, uncoalesced", setup_gemv, 0),
    K("gemv_colmajor", "occupancy", "matrix-vector, row per work-item, coalesced", setup_gemv, 1),
    K("tiny_launch", "launch", "one work-group: launch overhead", setup_misc, 0),
    K("mandel_f32", "compute", "Mandelbrot, divergent escape loops", setup_misc, 1),
    K("mandel_f64", "compute", "Mandelbrot in double", setup_misc, 2),
    K("sobel", "bandwidth", "Sobel filter on 8-bit pixels (byte loads)", setup_misc, 3),
    K("int_divmod", "compute", "integer division by run-time divisors", setup_misc, 4),
    K("idle_spin", "floor", "power floor: 132 one-warp blocks asleep for 2 ms (CUDA only)", setup_floor, 0),
};

size_t suite_count(void) { return sizeof SUITE / sizeof *SUITE; }

const kdesc *suite_at(size_t i) { return i < suite_count() ? &SUITE[i] : NULL; }

const kdesc *suite_find(const char *name)
{
  for (size_t i = 0; i < suite_count(); ++i)
    if (strcmp(SUITE[i].name, name) == 0)
      return &SUITE[i];
  return NULL;
}
