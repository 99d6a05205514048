/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation3.h: the third independent validation suite
 * (training/kernels/validation3/).
 *
 * Written after the first two validation suites had been looked at, from scratch, and held out in
 * the same way: these kernels are never used for training, for choosing
 * features or for choosing a method; they stand in for a user's kernels that
 * the model has never seen.  None is a variant of a training kernel or of an
 * earlier validation kernel.  They use the job API of the training suite
 * (training/kernels/core/suite.h); their device sources live in this folder.
 * sp-runner selects them with --suite validation3.  README.md in this folder
 * lists them, with the scaling class each was expected to have before it was
 * measured. */
#ifndef SP_VALIDATION3_H
#define SP_VALIDATION3_H

#include <stddef.h>

#include "suite.h"

size_t validation3_count(void);
const kdesc *validation3_at(size_t i);

/* Elements checked in a big output: enough to catch a wrong tile or a wrong
 * boundary anywhere, few enough that the host reference of a full-size
 * problem stays well under a second. */
enum { X_SAMPLES = 4096 };

/* Gives buffer b (n elements, compared with cmp) a sampled reference of
 * min(n, X_SAMPLES) elements spread over it (kspread).  Returns the
 * reference array, or NULL when out of memory; the sampled indices are in
 * job->buf[b].sample, ascending. */
void *xref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol);

/* A new KB_IN buffer of n floats uniform in [lo, hi); returns its index, or
 * -1 when out of memory. */
int xin_f32(kjob *job, size_t n, krng *r, double lo, double hi);

/* A new buffer of n 32-bit words with the given role, its host copy
 * zero-filled; returns its index, or -1 when out of memory. */
int xbuf_u32(kjob *job, size_t n, kb_role role);

/* Variants (kdesc.param) of each family. */
enum {
  XML_LN_BWD,
  XML_CONV_IGEMM,
  XML_QUANT_INT8,
  XML_INT4_GEMM,
  XML_MOE_DISPATCH,
  XML_BEAM,
  XML_TOPP,
  XML_KV_APPEND
};
enum {
  XSC_FDTD,
  XSC_LAVAMD,
  XSC_CHEM,
  XSC_BINOMIAL,
  XSC_CFD,
  XSC_RESAMPLE,
  XSC_THOMAS,
  XSC_SPTRSV,
  XSC_LORENZ,
  XSC_RESIZE
};
enum {
  XIR_BLOOM,
  XIR_MERGE,
  XIR_RADIX,
  XIR_SEGRED,
  XIR_SPGEMM,
  XIR_REGEX,
  XIR_HASHBUILD,
  XIR_CRC32
};
enum { XCU_FLASH, XCU_DMMA, XCU_XENT, XCU_CHOL, XCU_PAGERANK };

/* Family setup functions, one host file per device source. */
SP_SETUP(xsetup_ml);
SP_SETUP(xsetup_sci);
SP_SETUP(xsetup_irr);
SP_SETUP(xsetup_cuda);

#endif /* SP_VALIDATION3_H */
