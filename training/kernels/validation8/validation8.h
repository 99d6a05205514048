/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation8.h: the eighth independent validation suite
 * (training/kernels/validation8/).
 *
 * Written after the first seven validation suites had been looked at, from scratch, and held out in
 * the same way: these kernels are never used for training, for choosing
 * features or for choosing a method; they stand in for a user's kernels that
 * the model has never seen.  None is a variant of a training kernel or of an
 * earlier validation kernel.  They use the job API of the training suite
 * (training/kernels/core/suite.h); their device sources live in this folder.
 * sp-runner selects them with --suite validation8.  README.md in this folder
 * lists them, with the scaling class each was expected to have before it was
 * measured. */
#ifndef SP_VALIDATION8_H
#define SP_VALIDATION8_H

#include <stddef.h>

#include "suite.h"

size_t validation8_count(void);
const kdesc *validation8_at(size_t i);

/* Elements checked in a big output (spread over it, kspread). */
enum { S_SAMPLES = 4096 };

/* Gives buffer b (n elements, compared with cmp) a sampled reference of
 * min(n, max) elements spread over it.  Returns the reference array, or
 * NULL when out of memory; the sampled indices are in job->buf[b].sample,
 * ascending. */
void *sref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, size_t max, double rtol, double atol);

/* A new KB_IN buffer of n floats uniform in [lo, hi); returns its index, or
 * -1 when out of memory. */
int sin_f32(kjob *job, size_t n, krng *r, double lo, double hi);

/* A new buffer of n 32-bit words with the given role, its host copy
 * zero-filled; returns its index, or -1 when out of memory. */
int sbuf_u32(kjob *job, size_t n, kb_role role);

/* The device's 32-bit hash (sp_dev.h, sp_lowbias32), for host references. */
uint32_t s_hash_host(uint32_t a);

/* Makes job->check compare the 8-bit channels of buffer b's packed words
 * at the given sampled indices with want, allowing a difference of tol per
 * channel (for outputs quantized from float math whose last bit may round
 * either way).  idx and want (count entries) become the job's; returns 0,
 * or -1 when out of memory (idx and want are then freed). */
int scheck_u8x4(kjob *job, int b, size_t count, size_t *idx, uint32_t *want, int tol);

/* Variants (kdesc.param) of each family. */
enum { SST_DNA, SST_MG, SST_RLE, SST_ACES, SST_EWMA };
enum { SSC_EP, SSC_PME, SSC_PCR, SSC_SINKHORN, SSC_IMU, SSC_BNFOLD };
enum { SIR_DEGREE, SIR_BBOX, SIR_GAT, SIR_FMINDEX, SIR_RSA, SIR_SPLAT, SIR_NLM };
enum { SCU_RAID6, SCU_KNN, SCU_CDIST, SCU_MOE, SCU_FIR, SCU_SW };

/* Family setup functions, one host file per device source. */
SP_SETUP(ssetup_stream);
SP_SETUP(ssetup_sci);
SP_SETUP(ssetup_irr);
SP_SETUP(ssetup_cuda);

#endif /* SP_VALIDATION8_H */
