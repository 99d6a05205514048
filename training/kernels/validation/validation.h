/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation.h: the first independent validation suite
 * (training/kernels/validation/).
 *
 * They were written to stand in for a user's kernels that the model has
 * never seen, and held out until docs/accuracy.md had reported them three
 * times; since 2026-11-25 they are training kernels
 * (training/data/h100-train), and the second validation suite was held out.
 * They use the same job API as the core suite
 * (training/kernels/core/suite.h); their device sources live in this
 * folder.  sp-runner selects them with --suite validation.  README.md in
 * this folder describes them. */
#ifndef SP_VALIDATION_H
#define SP_VALIDATION_H

#include <stddef.h>

#include "suite.h"

size_t validation_count(void);
const kdesc *validation_at(size_t i);

/* Elements checked in a big output: enough to catch a wrong tile or a wrong
 * boundary anywhere, few enough that the host reference of a full-size
 * problem takes well under a second. */
enum { V_SAMPLES = 4096 };

/* Gives buffer b (n elements, compared with cmp) a sampled reference of
 * min(n, V_SAMPLES) elements spread over it (kspread).  Returns the
 * reference array, or NULL when out of memory; the sampled indices are in
 * job->buf[b].sample. */
void *vref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol);

/* Variants (kdesc.param) of each family. */
enum {
  VML_SGEMM,
  VML_TN_SPLITK,
  VML_BATCHED16,
  VML_SOFTMAX_1K,
  VML_SOFTMAX_8K,
  VML_SOFTMAX_265,
  VML_LAYERNORM,
  VML_ATTENTION,
  VML_CONV3,
  VML_CONV5
};
enum { VTC_WMMA_F16, VTC_WMMA_BF16, VTC_HALF2_GELU };
enum {
  VSC_HOTSPOT,
  VSC_HEAT3D,
  VSC_JACOBI_F64,
  VSC_LJ,
  VSC_KMEANS,
  VSC_BACKPROP,
  VSC_LU_F64,
  VSC_CG_F64,
  VSC_NW,
  VSC_PATHFINDER
};
enum { VGR_PAGERANK, VGR_SPMV_COO, VGR_BFS, VGR_SSSP };
enum { VCT_HIST_SPREAD, VCT_HIST_DARK, VCT_SUM, VCT_COMPACT };
enum { VSH_BNSTATS, VSH_GELU_1057, VSH_CELLHIST_529, VSH_L2_GATHER, VSH_ONEBLOCK, VSH_CG_SCALARS };

/* Family setup functions, one host file per device source. */
SP_SETUP(vsetup_ml);
SP_SETUP(vsetup_tensor);
SP_SETUP(vsetup_science);
SP_SETUP(vsetup_graph);
SP_SETUP(vsetup_contention);
SP_SETUP(vsetup_shapes);

#endif /* SP_VALIDATION_H */
