/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation5.h: the fifth independent validation suite
 * (training/kernels/validation5/).
 *
 * Written after the first four validation suites had been looked at, from scratch, and held out in
 * the same way: these kernels are never used for training, for choosing
 * features or for choosing a method; they stand in for a user's kernels that
 * the model has never seen.  None is a variant of a training kernel or of an
 * earlier validation kernel.  They use the job API of the training suite
 * (training/kernels/core/suite.h); their device sources live in this folder.
 * sp-runner selects them with --suite validation5.  README.md in this folder
 * lists them, with the scaling class each was expected to have before it was
 * measured. */
#ifndef SP_VALIDATION5_H
#define SP_VALIDATION5_H

#include <stddef.h>

#include "suite.h"

size_t validation5_count(void);
const kdesc *validation5_at(size_t i);

/* Elements checked in a big output (spread over it, kspread). */
enum { Z_SAMPLES = 4096 };

/* Gives buffer b (n elements, compared with cmp) a sampled reference of
 * min(n, Z_SAMPLES) elements spread over it.  Returns the reference array,
 * or NULL when out of memory; the sampled indices are in
 * job->buf[b].sample, ascending. */
void *zref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol);

/* A new KB_IN buffer of n floats uniform in [lo, hi); returns its index, or
 * -1 when out of memory. */
int zin_f32(kjob *job, size_t n, krng *r, double lo, double hi);

/* A new KB_IN buffer of n doubles uniform in [lo, hi); index or -1. */
int zin_f64(kjob *job, size_t n, krng *r, double lo, double hi);

/* A new buffer of n 32-bit words with the given role, its host copy
 * zero-filled; returns its index, or -1 when out of memory. */
int zbuf_u32(kjob *job, size_t n, kb_role role);

/* Variants (kdesc.param) of each family. */
enum { ZML_SWIGLU, ZML_W8GEMV, ZML_VITERBI, ZML_SDDMM, ZML_GNN, ZML_TFIDF };
enum { ZSC_SWE, ZSC_DOITGEN, ZSC_KALMAN, ZSC_XS, ZSC_TPACF, ZSC_LUT3D, ZSC_TPS };
enum { ZIR_Q6, ZIR_GROUPBY, ZIR_RANSAC, ZIR_UNPACK, ZIR_B64, ZIR_CDC, ZIR_SHA3, ZIR_NV12 };
enum { ZCU_SYRK, ZCU_SEGSORT, ZCU_RMSNORM };

/* Family setup functions, one host file per device source. */
SP_SETUP(zsetup_ml);
SP_SETUP(zsetup_sci);
SP_SETUP(zsetup_irr);
SP_SETUP(zsetup_cuda);

#endif /* SP_VALIDATION5_H */
