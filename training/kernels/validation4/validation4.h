/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation4.h: the fourth independent validation suite
 * (training/kernels/validation4/).
 *
 * Written after the first three validation suites had been looked at, from
 * scratch, and held out in the same way: these kernels are never used for
 * training, for choosing features or for choosing a method; they stand in
 * for a user's kernels that the model has never seen.  None is a variant of
 * a training kernel or of an earlier validation kernel.  They use the job
 * API of the training suite (training/kernels/core/suite.h); their device sources
 * live in this folder.  sp-runner selects them with --suite validation4.
 * README.md in this folder lists them, with the scaling class each was
 * expected to have before it was measured. */
#ifndef SP_VALIDATION4_H
#define SP_VALIDATION4_H

#include <stddef.h>

#include "suite.h"

size_t validation4_count(void);
const kdesc *validation4_at(size_t i);

/* Elements checked in a big output (spread over it, kspread). */
enum { Y_SAMPLES = 4096 };

/* Gives buffer b (n elements, compared with cmp) a sampled reference of
 * min(n, Y_SAMPLES) elements spread over it.  Returns the reference array,
 * or NULL when out of memory; the sampled indices are in
 * job->buf[b].sample, ascending. */
void *yref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol);

/* A new KB_IN buffer of n floats uniform in [lo, hi); returns its index, or
 * -1 when out of memory. */
int yin_f32(kjob *job, size_t n, krng *r, double lo, double hi);

/* A new buffer of n 32-bit words with the given role, its host copy
 * zero-filled; returns its index, or -1 when out of memory. */
int ybuf_u32(kjob *job, size_t n, kb_role role);

/* Variants (kdesc.param) of each family. */
enum { YML_GN, YML_EMBBAG, YML_MOE, YML_ADAM, YML_PAGED, YML_DWSEP, YML_SPEC };
enum {
  YSC_TEMPLATE,
  YSC_STREAMCLUSTER,
  YSC_BPTREE,
  YSC_HH,
  YSC_NW,
  YSC_PHOTON,
  YSC_DSLASH,
  YSC_ISING,
  YSC_CLAHE
};
enum { YIR_BC, YIR_SA, YIR_CSV, YIR_LZ77, YIR_STRKEYS, YIR_KMEANS };
enum { YCU_HGEMM, YCU_JSON, YCU_LSTM };

/* Family setup functions, one host file per device source. */
SP_SETUP(ysetup_ml);
SP_SETUP(ysetup_sci);
SP_SETUP(ysetup_irr);
SP_SETUP(ysetup_cuda);

#endif /* SP_VALIDATION4_H */
