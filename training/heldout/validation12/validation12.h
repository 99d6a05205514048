/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation12.h: the twelfth independent validation suite
 * (training/heldout/validation12/), held out.
 *
 * Written after the eleven earlier validation suites (all retired into
 * training) and the core suite had been read, from scratch, for the kinds
 * of kernel the model still gets wrong on kernels written outside the
 * project and for the memory-system axis (HBM3 against HBM3e at the same
 * compute and L2): grids of fewer groups than SMs, groups of 16-32
 * work-items, register-tiled products, 3-D stencils and lattices, barrier-
 * bound block algorithms, launches of a few microseconds, reductions that
 * end in one group, grids of about one wave and of a few waves, streams of
 * several access widths and read/write ratios, working sets on both sides
 * of the 50 MB L2, kernels near the roofline knee, dependent loads and
 * atomics.  These kernels are never used for training, for choosing
 * features or for choosing a method, and no prediction is made on them
 * before their one report.  None is a variant of a training kernel.  They
 * use the job API of training/kernels/core/suite.h; sp-runner selects them
 * with --suite validation12.  README.md in this folder lists them, with the
 * scaling class each is expected to have before it is measured. */
#ifndef SP_VALIDATION12_H
#define SP_VALIDATION12_H

#include <stddef.h>

#include "suite.h"

size_t validation12_count(void);
const kdesc *validation12_at(size_t i);

/* Elements checked in a big output (spread over it, kspread). */
enum { M12_SAMPLES = 4096 };

/* Elements of the one drawn stretch that big inputs repeat. */
enum { M12_STRETCH = 1 << 20 };

/* min(n, M12_STRETCH) */
size_t m12_stretch(size_t n);

/* Variants (kdesc.param) of each family. */
enum {
  M12SH_GOERTZEL,
  M12SH_HMM,
  M12SH_ADLER,
  M12SH_CENSUS,
  M12SH_SLAB,
  M12SH_SPLINE,
  M12SH_EQUALIZE
};
enum { M12DN_XNOR, M12DN_CDIST };
enum { M12ST_DONOR, M12ST_PERONA, M12ST_D3Q7 };
/* M12BL_LSE + k: the logsumexp with 2^k elements per work-item */
enum { M12BL_CR, M12BL_CDF97, M12BL_DOT2, M12BL_LSE = 100 };
/* M12SM_SEARCH + MiB: the sorted-search table's footprint; M12SM_UF + k:
 * the union-find forest of 2^k nodes */
enum {
  M12SM_HALF,
  M12SM_ONEHOT,
  M12SM_EMA,
  M12SM_AOS,
  M12SM_J0,
  M12SM_AS241,
  M12SM_COO,
  M12SM_SEARCH = 1000,
  M12SM_UF = 2000
};
enum { M12CU_QUAT, M12CU_L2NORM, M12CU_ARGMAX, M12CU_KNAPSACK };

/* Family setup functions, one host file per device source. */
SP_SETUP(m12setup_shape);
SP_SETUP(m12setup_dense);
SP_SETUP(m12setup_stencil);
SP_SETUP(m12setup_block);
SP_SETUP(m12setup_stream);
SP_SETUP(m12setup_cuda);

#endif /* SP_VALIDATION12_H */
