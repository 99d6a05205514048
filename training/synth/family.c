/* SPDX-License-Identifier: GPL-3.0-or-later */
/* family.c: kernel families, their variants' parameter ranges, and drawing
 * a set of kernels from them.  docs/synthetic.md explains the families. */
#include "family.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <gsl/gsl_rng.h>

/* A range to draw from; lo == hi gives a constant. */
typedef struct span {
  double lo, hi;
} span;

/* Parameter ranges of one variant.  Counts are per wavefront.  Sizes are
 * drawn as powers of two (the *_log2 spans), working sets in KiB.  A field
 * left out of a table entry is zero: no such instructions, no working set,
 * no L2 hits (which only matter when reuse > 1).  The ratios (lane_util,
 * coalesce*, reuse) must be given. */
typedef struct variant {
  const char *name;
  span waves;            /* log-uniform; used when groups is zero */
  span groups;           /* integer; fixes the grid size */
  span group_waves_log2; /* integer */
  span waves_per_cu;     /* integer, 1..40 */
  span valu;             /* log-uniform */
  span salu, vfetch, sfetch, vwrite, lds;
  span lane_util, lds_conflict;
  span fetch_bytes_log2, write_bytes_log2; /* integer */
  span coalesce, coalesce_write;
  span reuse; /* log-uniform */
  span hit_max;
  span ws_group_kib, ws_shared_kib;
  span ilp; /* clamped to 1..vfetch */
  span overlap_loss;
} variant;

typedef struct family {
  const char *name;
  unsigned share; /* kernels per 108, the paper's suite size */
  const variant *variants;
  size_t count;
} family;

/* The tables keep related fields on one line; clang-format would split
 * them one per line. */
/* clang-format off */
#define R(lo, hi) {(lo), (hi)}
#define K(x) {(x), (x)}

/* Long ALU chains: time ~ 1/(CUs x engine clock), memory clock irrelevant. */
static const variant compute[] = {
    {.name = "fma_chain",
     .waves = R(8192, 65536), .group_waves_log2 = R(0, 2),
     .waves_per_cu = R(16, 40),
     .valu = R(2000, 8000), .salu = R(20, 80), .vfetch = R(1, 2),
     .sfetch = R(2, 6), .vwrite = K(1),
     .lane_util = R(0.95, 1), .fetch_bytes_log2 = K(2),
     .write_bytes_log2 = K(2),
     .coalesce = R(0.9, 1), .coalesce_write = R(0.9, 1), .reuse = R(1, 1.5),
     .hit_max = R(0.5, 0.9),
     .ws_group_kib = R(1, 4), .ilp = R(1, 2), .overlap_loss = R(0.02, 0.1)},
    {.name = "transcendental",
     .waves = R(16384, 65536), .group_waves_log2 = R(0, 2),
     .waves_per_cu = R(16, 40),
     .valu = R(1500, 4000), .salu = R(100, 400), .vfetch = R(1, 2),
     .sfetch = R(4, 10), .vwrite = K(1),
     .lane_util = R(0.9, 1), .fetch_bytes_log2 = K(2),
     .write_bytes_log2 = K(2),
     .coalesce = R(0.9, 1), .coalesce_write = R(0.9, 1), .reuse = R(1, 1.5),
     .hit_max = R(0.5, 0.9),
     .ws_group_kib = R(1, 4), .ilp = R(1, 3), .overlap_loss = R(0.02, 0.1)},
    {.name = "mandel",
     .waves = R(8192, 65536), .group_waves_log2 = R(1, 2),
     .waves_per_cu = R(16, 40),
     .valu = R(1000, 5000), .salu = R(50, 200), .vfetch = K(1),
     .sfetch = R(2, 4), .vwrite = K(1),
     .lane_util = R(0.35, 0.8), .fetch_bytes_log2 = K(2),
     .write_bytes_log2 = K(2),
     .coalesce = K(1), .coalesce_write = R(0.9, 1), .reuse = K(1),
     .ilp = K(1), .overlap_loss = R(0.02, 0.1)},
    {.name = "nbody",
     .waves = R(4096, 32768), .group_waves_log2 = K(2),
     .waves_per_cu = R(8, 32),
     .valu = R(2500, 6000), .salu = R(20, 60), .vfetch = R(1, 2),
     .sfetch = R(2, 6), .vwrite = K(1), .lds = R(150, 500),
     .lane_util = R(0.95, 1), .lds_conflict = R(0, 0.2),
     .fetch_bytes_log2 = K(4), .write_bytes_log2 = K(4),
     .coalesce = K(1), .coalesce_write = K(1), .reuse = R(1, 2),
     .hit_max = R(0.7, 0.9),
     .ws_group_kib = R(2, 8), .ilp = R(1, 2), .overlap_loss = R(0.02, 0.1)},
};

/* Few ALU operations per byte: time ~ 1/memory clock once enough CUs keep
 * enough misses in flight. */
static const variant stream[] = {
    {.name = "copy",
     .waves = R(32768, 262144), .group_waves_log2 = K(2),
     .waves_per_cu = R(32, 40),
     .valu = R(10, 24), .salu = R(4, 10), .vfetch = K(1), .sfetch = R(2, 4),
     .vwrite = K(1),
     .lane_util = K(1), .fetch_bytes_log2 = R(2, 4),
     .write_bytes_log2 = R(2, 4),
     .coalesce = R(0.95, 1), .coalesce_write = R(0.95, 1), .reuse = K(1),
     .ilp = K(1), .overlap_loss = R(0.02, 0.12)},
    {.name = "scale",
     .waves = R(32768, 262144), .group_waves_log2 = K(2),
     .waves_per_cu = R(32, 40),
     .valu = R(12, 28), .salu = R(4, 10), .vfetch = K(1), .sfetch = R(2, 4),
     .vwrite = K(1),
     .lane_util = K(1), .fetch_bytes_log2 = R(2, 4),
     .write_bytes_log2 = R(2, 4),
     .coalesce = R(0.95, 1), .coalesce_write = R(0.95, 1), .reuse = K(1),
     .ilp = K(1), .overlap_loss = R(0.02, 0.12)},
    {.name = "triad",
     .waves = R(32768, 262144), .group_waves_log2 = K(2),
     .waves_per_cu = R(32, 40),
     .valu = R(16, 36), .salu = R(4, 10), .vfetch = K(2), .sfetch = R(2, 4),
     .vwrite = K(1),
     .lane_util = K(1), .fetch_bytes_log2 = R(2, 4),
     .write_bytes_log2 = R(2, 4),
     .coalesce = R(0.95, 1), .coalesce_write = R(0.95, 1), .reuse = K(1),
     .ilp = K(2), .overlap_loss = R(0.02, 0.12)},
    {.name = "strided",
     .waves = R(16384, 131072), .group_waves_log2 = K(2),
     .waves_per_cu = R(32, 40),
     .valu = R(16, 36), .salu = R(4, 10), .vfetch = R(1, 2), .sfetch = R(2, 4),
     .vwrite = K(1),
     .lane_util = K(1), .fetch_bytes_log2 = K(2), .write_bytes_log2 = K(2),
     .coalesce = R(0.25, 0.5), .coalesce_write = R(0.5, 1), .reuse = K(1),
     .ilp = R(1, 2), .overlap_loss = R(0.02, 0.12)},
};

/* Near the ridge point: compute-bound with few CUs or much bandwidth,
 * memory-bound with many CUs or little (paper Fig. 1(c)). */
static const variant balanced[] = {
    {.name = "stencil",
     .waves = R(16384, 131072), .group_waves_log2 = K(2),
     .waves_per_cu = R(16, 40),
     .valu = R(40, 200), .salu = R(5, 20), .vfetch = R(5, 9),
     .sfetch = R(2, 6), .vwrite = K(1),
     .lane_util = R(0.9, 1), .fetch_bytes_log2 = K(2),
     .write_bytes_log2 = K(2),
     .coalesce = R(0.85, 1), .coalesce_write = R(0.9, 1), .reuse = R(3, 7),
     .hit_max = R(0.85, 0.95),
     .ws_group_kib = R(0.25, 1), .ws_shared_kib = R(32, 256), .ilp = R(2, 5),
     .overlap_loss = R(0.15, 0.4)},
    {.name = "spmv",
     .waves = R(16384, 131072), .group_waves_log2 = R(0, 2),
     .waves_per_cu = R(8, 40),
     .valu = R(30, 90), .salu = R(5, 20), .vfetch = R(3, 6), .sfetch = R(2, 6),
     .vwrite = K(1),
     .lane_util = R(0.5, 0.85), .fetch_bytes_log2 = K(2),
     .write_bytes_log2 = K(2),
     .coalesce = R(0.3, 0.7), .coalesce_write = R(0.9, 1), .reuse = R(1.5, 4),
     .hit_max = R(0.6, 0.9),
     .ws_group_kib = R(0.25, 1), .ws_shared_kib = R(128, 1024), .ilp = R(1, 2),
     .overlap_loss = R(0.15, 0.35)},
    {.name = "gemv",
     .waves = R(8192, 65536), .group_waves_log2 = K(2),
     .waves_per_cu = R(16, 40),
     .valu = R(100, 300), .salu = R(5, 20), .vfetch = R(4, 8),
     .sfetch = R(2, 6), .vwrite = K(1), .lds = R(4, 16),
     .lane_util = R(0.95, 1), .lds_conflict = R(0, 0.3),
     .fetch_bytes_log2 = K(4), .write_bytes_log2 = K(2),
     .coalesce = R(0.9, 1), .coalesce_write = R(0.9, 1), .reuse = R(2, 6),
     .hit_max = R(0.8, 0.95),
     .ws_group_kib = R(0.25, 1), .ws_shared_kib = R(64, 512), .ilp = R(2, 4),
     .overlap_loss = R(0.15, 0.4)},
    {.name = "conv",
     .waves = R(8192, 65536), .group_waves_log2 = K(2),
     .waves_per_cu = R(16, 40),
     .valu = R(150, 400), .salu = R(5, 20), .vfetch = R(3, 6),
     .sfetch = R(2, 6), .vwrite = K(1), .lds = R(20, 60),
     .lane_util = R(0.9, 1), .lds_conflict = R(0, 0.5),
     .fetch_bytes_log2 = R(2, 3), .write_bytes_log2 = K(2),
     .coalesce = R(0.85, 1), .coalesce_write = R(0.9, 1), .reuse = R(4, 10),
     .hit_max = R(0.85, 0.95),
     .ws_group_kib = R(1, 4), .ws_shared_kib = R(16, 128), .ilp = R(2, 4),
     .overlap_loss = R(0.15, 0.4)},
};

/* Each resident work-group re-reads a private working set; past some CU
 * count the sets overflow the L2 and DRAM traffic explodes, so more CUs
 * make the kernel slower (paper Fig. 1(d)). */
static const variant cache[] = {
    {.name = "overflow",
     .waves = R(16384, 65536), .group_waves_log2 = K(2),
     .waves_per_cu = K(16),
     .valu = R(10, 40), .salu = R(4, 12), .vfetch = R(6, 12),
     .sfetch = R(2, 4), .vwrite = R(0.5, 1),
     .lane_util = R(0.85, 1), .fetch_bytes_log2 = K(2),
     .write_bytes_log2 = K(2),
     .coalesce = R(0.9, 1), .coalesce_write = R(0.9, 1), .reuse = R(12, 32),
     .hit_max = R(0.9, 0.97),
     .ws_group_kib = R(10, 18), .ws_shared_kib = R(0, 32), .ilp = R(3, 6),
     .overlap_loss = R(0.1, 0.25)},
    {.name = "lookup",
     .waves = R(16384, 65536), .group_waves_log2 = K(1),
     .waves_per_cu = K(16),
     .valu = R(30, 120), .salu = R(4, 12), .vfetch = R(6, 16),
     .sfetch = R(2, 4), .vwrite = R(0.5, 1),
     .lane_util = R(0.7, 0.95), .fetch_bytes_log2 = K(3),
     .write_bytes_log2 = K(2),
     .coalesce = R(0.3, 0.6), .coalesce_write = R(0.9, 1), .reuse = R(12, 32),
     .hit_max = R(0.9, 0.97),
     .ws_group_kib = R(5, 9), .ws_shared_kib = R(0, 32), .ilp = R(3, 6),
     .overlap_loss = R(0.1, 0.25)},
};

/* Long chains of dependent fetches with few wavefronts to hide them: time
 * follows the memory latency, which is mostly engine clock cycles. */
static const variant latency[] = {
    {.name = "pointer_chase",
     .waves = R(16, 48), .waves_per_cu = R(1, 2),
     .valu = R(1500, 6000), .salu = R(100, 400), .vfetch = R(500, 2000),
     .sfetch = R(2, 4), .vwrite = K(1),
     .lane_util = R(0.9, 1), .fetch_bytes_log2 = K(3),
     .write_bytes_log2 = K(2),
     .coalesce = R(0.25, 0.5), .coalesce_write = R(0.9, 1), .reuse = R(20, 80),
     .hit_max = R(0.9, 0.97),
     .ws_shared_kib = R(64, 384), .ilp = K(1), .overlap_loss = R(0.05, 0.15)},
    {.name = "tree_walk",
     .waves = R(64, 512), .group_waves_log2 = R(0, 1), .waves_per_cu = R(4, 8),
     .valu = R(400, 2000), .salu = R(50, 200), .vfetch = R(100, 400),
     .sfetch = R(2, 6), .vwrite = K(1),
     .lane_util = R(0.5, 0.8), .fetch_bytes_log2 = K(2),
     .write_bytes_log2 = K(2),
     .coalesce = R(0.7, 1), .coalesce_write = R(0.9, 1), .reuse = R(20, 60),
     .hit_max = R(0.93, 0.98),
     .ws_shared_kib = R(64, 320), .ilp = R(1, 1.5),
     .overlap_loss = R(0.05, 0.2)},
};

/* Too few work-groups to fill the GPU: CUs beyond the group count idle. */
static const variant lowpar[] = {
    {.name = "reduce_tail",
     .groups = R(5, 24), .group_waves_log2 = K(2), .waves_per_cu = R(4, 8),
     .valu = R(20000, 200000), .salu = R(500, 3000), .vfetch = R(10, 50),
     .sfetch = R(4, 10), .vwrite = R(1, 2), .lds = R(500, 3000),
     .lane_util = R(0.7, 1), .lds_conflict = R(0, 0.3),
     .fetch_bytes_log2 = K(2), .write_bytes_log2 = K(2),
     .coalesce = R(0.9, 1), .coalesce_write = R(0.9, 1), .reuse = R(1, 2),
     .hit_max = R(0.5, 0.9),
     .ws_group_kib = R(1, 8), .ilp = R(2, 8), .overlap_loss = R(0.1, 0.3)},
    {.name = "scan_block",
     .groups = R(1, 12), .group_waves_log2 = K(2), .waves_per_cu = R(4, 8),
     .valu = R(5000, 50000), .salu = R(200, 2000), .vfetch = R(20, 100),
     .sfetch = R(4, 10), .vwrite = R(1, 4), .lds = R(200, 2000),
     .lane_util = R(0.8, 1), .lds_conflict = R(0, 0.5),
     .fetch_bytes_log2 = K(2), .write_bytes_log2 = K(2),
     .coalesce = R(0.9, 1), .coalesce_write = R(0.9, 1), .reuse = R(1, 2),
     .hit_max = R(0.5, 0.9),
     .ws_group_kib = R(1, 8), .ilp = R(4, 16), .overlap_loss = R(0.1, 0.3)},
    {.name = "small_grid",
     .groups = R(8, 28), .group_waves_log2 = R(1, 2), .waves_per_cu = R(2, 8),
     .valu = R(500, 2000), .salu = R(50, 200), .vfetch = R(200, 800),
     .sfetch = R(4, 10), .vwrite = R(20, 100),
     .lane_util = R(0.9, 1), .fetch_bytes_log2 = K(4),
     .write_bytes_log2 = K(4),
     .coalesce = R(0.9, 1), .coalesce_write = R(0.9, 1), .reuse = K(1),
     .ilp = R(4, 8), .overlap_loss = R(0.1, 0.3)},
};

/* So little work that the launch overhead dominates. */
static const variant tiny[] = {
    {.name = "launch_empty",
     .waves = R(1, 4), .group_waves_log2 = R(0, 2), .waves_per_cu = R(4, 40),
     .valu = R(5, 20), .salu = R(2, 10), .vfetch = R(0, 1), .sfetch = R(1, 4),
     .vwrite = R(0, 1),
     .lane_util = R(0.8, 1), .fetch_bytes_log2 = K(2),
     .write_bytes_log2 = K(2),
     .coalesce = K(1), .coalesce_write = K(1), .reuse = K(1),
     .ilp = K(1), .overlap_loss = R(0.1, 0.3)},
    {.name = "memset_small",
     .waves = R(4, 32), .group_waves_log2 = R(0, 2), .waves_per_cu = R(8, 40),
     .valu = R(4, 10), .salu = R(2, 6), .sfetch = R(1, 3), .vwrite = R(1, 2),
     .lane_util = K(1), .fetch_bytes_log2 = K(2), .write_bytes_log2 = R(2, 3),
     .coalesce = K(1), .coalesce_write = K(1), .reuse = K(1),
     .ilp = K(1), .overlap_loss = R(0.1, 0.3)},
    {.name = "scalar_update",
     .waves = R(1, 2), .waves_per_cu = R(4, 40),
     .valu = R(5, 20), .salu = R(20, 100), .vfetch = R(1, 2),
     .sfetch = R(4, 16), .vwrite = K(1),
     .lane_util = R(0.8, 1), .fetch_bytes_log2 = K(2),
     .write_bytes_log2 = K(2),
     .coalesce = K(1), .coalesce_write = K(1), .reuse = K(1),
     .ilp = K(1), .overlap_loss = R(0.1, 0.3)},
};

/* Several limits close together: LDS with bank conflicts, scalar work,
 * scattered writes, L2-resident re-reads. */
static const variant mixed[] = {
    {.name = "lds_transpose",
     .waves = R(16384, 65536), .group_waves_log2 = K(2),
     .waves_per_cu = R(16, 40),
     .valu = R(10, 30), .salu = R(4, 12), .vfetch = R(1, 2), .sfetch = R(2, 4),
     .vwrite = R(1, 2), .lds = R(4, 16),
     .lane_util = K(1), .lds_conflict = R(0.5, 3), .fetch_bytes_log2 = R(2, 3),
     .write_bytes_log2 = R(2, 3),
     .coalesce = R(0.8, 1), .coalesce_write = R(0.8, 1), .reuse = K(1),
     .ilp = R(1, 2), .overlap_loss = R(0.1, 0.3)},
    {.name = "histogram",
     .waves = R(16384, 65536), .group_waves_log2 = K(2),
     .waves_per_cu = R(16, 40),
     .valu = R(30, 100), .salu = R(10, 30), .vfetch = R(2, 8),
     .sfetch = R(2, 4), .vwrite = R(0.05, 0.2), .lds = R(20, 100),
     .lane_util = R(0.8, 1), .lds_conflict = R(1, 4), .fetch_bytes_log2 = K(4),
     .write_bytes_log2 = K(2),
     .coalesce = R(0.9, 1), .coalesce_write = R(0.9, 1), .reuse = K(1),
     .ilp = R(2, 8), .overlap_loss = R(0.1, 0.3)},
    {.name = "radix_sort",
     .waves = R(16384, 65536), .group_waves_log2 = K(2),
     .waves_per_cu = R(16, 32),
     .valu = R(40, 120), .salu = R(20, 60), .vfetch = R(1, 3),
     .sfetch = R(2, 6), .vwrite = R(1, 3), .lds = R(20, 60),
     .lane_util = R(0.7, 1), .lds_conflict = R(0.2, 1),
     .fetch_bytes_log2 = K(2), .write_bytes_log2 = K(2),
     .coalesce = R(0.9, 1), .coalesce_write = R(0.15, 0.5), .reuse = K(1),
     .ilp = R(1, 2), .overlap_loss = R(0.1, 0.3)},
    {.name = "fft",
     .waves = R(8192, 65536), .group_waves_log2 = K(2),
     .waves_per_cu = R(16, 32),
     .valu = R(100, 300), .salu = R(10, 30), .vfetch = R(2, 4),
     .sfetch = R(2, 6), .vwrite = R(2, 4), .lds = R(20, 60),
     .lane_util = R(0.9, 1), .lds_conflict = R(0, 1),
     .fetch_bytes_log2 = R(3, 4), .write_bytes_log2 = R(3, 4),
     .coalesce = R(0.9, 1), .coalesce_write = R(0.9, 1), .reuse = R(1, 2),
     .hit_max = R(0.5, 0.9),
     .ws_group_kib = R(1, 4), .ilp = R(2, 4), .overlap_loss = R(0.1, 0.3)},
    {.name = "l2_resident",
     .waves = R(16384, 65536), .group_waves_log2 = K(2),
     .waves_per_cu = R(24, 40),
     .valu = R(20, 100), .salu = R(5, 20), .vfetch = R(8, 24),
     .sfetch = R(2, 6), .vwrite = K(1),
     .lane_util = R(0.9, 1), .fetch_bytes_log2 = K(2),
     .write_bytes_log2 = K(2),
     .coalesce = R(0.9, 1), .coalesce_write = R(0.9, 1), .reuse = R(20, 50),
     .hit_max = R(0.9, 0.98),
     .ws_group_kib = R(0.1, 0.5), .ws_shared_kib = R(64, 384), .ilp = R(4, 8),
     .overlap_loss = R(0.1, 0.3)},
};

#define FAMILY(name, share, table) \
  {(name), (share), (table), sizeof(table) / sizeof((table)[0])}

static const family families[] = {
    FAMILY("compute", 18, compute),   FAMILY("stream", 16, stream),
    FAMILY("balanced", 18, balanced), FAMILY("cache", 12, cache),
    FAMILY("latency", 10, latency),   FAMILY("lowpar", 10, lowpar),
    FAMILY("tiny", 8, tiny),          FAMILY("mixed", 16, mixed),
};

/* clang-format on */

enum { FAMILY_COUNT = sizeof(families) / sizeof(families[0]) };

/* ---- drawing ------------------------------------------------------------- */

static double uniform(gsl_rng *r, span s) { return s.lo + (s.hi - s.lo) * gsl_rng_uniform(r); }

static double log_uniform(gsl_rng *r, span s) {
  assert(s.lo > 0.0 && s.hi >= s.lo);
  return s.lo * pow(s.hi / s.lo, gsl_rng_uniform(r));
}

/* Integers lo..hi, each equally likely. */
static double integer(gsl_rng *r, span s) {
  unsigned long n = (unsigned long)(s.hi - s.lo) + 1;
  return s.lo + (double)gsl_rng_uniform_int(r, n);
}

static double kib(gsl_rng *r, span s) {
  return 1024.0 * (s.lo > 0.0 ? log_uniform(r, s) : uniform(r, s));
}

/* The grid: a fixed number of work-groups (low-parallelism kernels) or a
 * number of wavefronts cut into work-groups of 2^x wavefronts.  As many
 * work-groups stay resident per CU as fit in the drawn wavefront slots, and
 * always at least one, as on the hardware. */
static void draw_grid(gsl_rng *r, const variant *v, kernel_params *k) {
  k->group_waves = pow(2.0, integer(r, v->group_waves_log2));
  double slots = integer(r, v->waves_per_cu);
  k->waves_per_cu = fmax(1.0, floor(slots / k->group_waves)) * k->group_waves;
  if (v->groups.lo > 0.0)
    k->groups = integer(r, v->groups);
  else
    k->groups = fmax(1.0, round(log_uniform(r, v->waves) / k->group_waves));
  k->waves = k->groups * k->group_waves;
}

static void draw_instructions(gsl_rng *r, const variant *v, kernel_params *k) {
  k->valu = log_uniform(r, v->valu);
  k->salu = uniform(r, v->salu);
  k->vfetch = uniform(r, v->vfetch);
  k->sfetch = uniform(r, v->sfetch);
  k->vwrite = uniform(r, v->vwrite);
  k->lds = uniform(r, v->lds);
  k->lane_util = uniform(r, v->lane_util);
  k->lds_conflict = uniform(r, v->lds_conflict);
}

static void draw_memory(gsl_rng *r, const variant *v, kernel_params *k) {
  k->fetch_bytes = pow(2.0, integer(r, v->fetch_bytes_log2));
  k->write_bytes = pow(2.0, integer(r, v->write_bytes_log2));
  k->coalesce = uniform(r, v->coalesce);
  k->coalesce_write = uniform(r, v->coalesce_write);
  k->reuse = log_uniform(r, v->reuse);
  k->hit_max = uniform(r, v->hit_max);
  k->ws_group = kib(r, v->ws_group_kib);
  k->ws_shared = kib(r, v->ws_shared_kib);
  k->ilp = fmin(fmax(1.0, uniform(r, v->ilp)), fmax(1.0, k->vfetch));
  k->overlap_loss = uniform(r, v->overlap_loss);
}

/* The draw order is part of the output contract: changing it changes
 * every file for every seed. */
static void draw_kernel(gsl_rng *r, const variant *v, kernel_params *k) {
  draw_grid(r, v, k);
  draw_instructions(r, v, k);
  draw_memory(r, v, k);
  assert(k->waves_per_cu <= 40.0 && k->lane_util > 0.0);
  assert(k->coalesce > 0.0 && k->coalesce_write > 0.0 && k->reuse >= 1.0);
}

/* ---- seeds and shares ------------------------------------------------- */

/* SplitMix64's finalizer: consecutive inputs give unrelated outputs. */
static uint64_t mix(uint64_t h, uint64_t x) {
  h += x + 0x9e3779b97f4a7c15u;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
  return h ^ (h >> 31);
}

/* gsl_rng_mt19937 uses 32 bits of its seed; taking them explicitly keeps
 * the files identical where unsigned long is 32 bits. */
static unsigned long seed32(uint64_t h) { return (unsigned long)(h >> 32); }

/* Splits count over the families in proportion to their shares, by the
 * largest-remainder method (ties go to the earlier family). */
static void apportion(size_t count, size_t out[FAMILY_COUNT]) {
  size_t total = 0, given = 0, rem[FAMILY_COUNT];
  for (size_t f = 0; f < FAMILY_COUNT; f++) total += families[f].share;
  for (size_t f = 0; f < FAMILY_COUNT; f++) {
    out[f] = count * families[f].share / total;
    rem[f] = count * families[f].share % total;
    given += out[f];
  }
  for (; given < count; given++) {
    size_t best = 0;
    for (size_t f = 1; f < FAMILY_COUNT; f++)
      if (rem[f] > rem[best]) best = f;
    out[best]++;
    rem[best] = 0;
  }
}

static void draw_one(gsl_rng *r, unsigned long seed, enum family_set set, size_t f, size_t j,
                     synth_kernel *out) {
  const family *fam = &families[f];
  size_t v = j % fam->count, number = j / fam->count + 1;
  uint64_t h = mix(mix(mix(mix(seed, set), f), v), number);
  gsl_rng_set(r, seed32(mix(h, 0)));
  draw_kernel(r, &fam->variants[v], &out->params);
  out->noise_seed = seed32(mix(h, 1));
  snprintf(out->name, sizeof out->name, "%s/%s_%s%02zu", fam->name, fam->variants[v].name,
           set == FAMILY_SAMPLES ? "s" : "", number);
}

void family_draw_set(gsl_rng *r, unsigned long seed, enum family_set set, size_t count,
                     synth_kernel *out) {
  size_t per_family[FAMILY_COUNT], next = 0;
  apportion(count, per_family);
  for (size_t f = 0; f < FAMILY_COUNT; f++)
    for (size_t j = 0; j < per_family[f]; j++) draw_one(r, seed, set, f, j, &out[next++]);
  assert(next == count);
}
