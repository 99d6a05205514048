/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation11.h: the eleventh independent validation suite
 * (training/kernels/validation11/), held out.
 *
 * Written for issue 29 after the ten earlier validation suites (all ten
 * retired into training) and the core suite had been read, from scratch,
 * for the kinds of kernel the model still gets wrong on kernels written
 * outside the project: grids of fewer groups than SMs, groups of 16-32
 * work-items, register-tiled products, 3-D stencils and lattices, barrier-
 * bound scans, launches of a few microseconds, reductions that end in one
 * group, grids of a few waves, 16-byte streams and single-word atomics.
 * These kernels are never used for training, for choosing features or for
 * choosing a method, and no prediction is made on them before their one
 * report.  None is a variant of a training kernel.  They use the job API of
 * training/kernels/core/suite.h; sp-runner selects them with --suite
 * validation11.  README.md in this folder lists them, with the scaling
 * class each was expected to have before it was measured. */
#ifndef SP_VALIDATION11_H
#define SP_VALIDATION11_H

#include <stddef.h>

#include "suite.h"

size_t validation11_count(void);
const kdesc *validation11_at(size_t i);

/* Elements checked in a big output (spread over it, kspread). */
enum { K11_SAMPLES = 4096 };

/* Variants (kdesc.param) of each family. */
enum { K11SH_SOSFILT, K11SH_LPC, K11SH_H264, K11SH_BORIS, K11SH_FAN1, K11SH_AMP };
enum { K11DN_SYMM, K11DN_XGPU, K11DN_MINPLUS, K11DN_LOMB };
enum { K11ST_GRAYSCOTT, K11ST_HPGMG, K11ST_LBM };
enum { K11SC_RADIX, K11SC_SELECT, K11SC_NRM2, K11SC_WELFORD, K11SC_CFL };
enum { K11CU_OVER, K11CU_NVE, K11CU_LJ, K11CU_NUSSINOV, K11CU_MFCC, K11CU_SCAN };

/* Family setup functions, one host file per device source. */
SP_SETUP(k11setup_shape);
SP_SETUP(k11setup_dense);
SP_SETUP(k11setup_stencil);
SP_SETUP(k11setup_scan);
SP_SETUP(k11setup_cuda);

#endif /* SP_VALIDATION11_H */
