/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation6.h: the sixth independent validation suite
 * (training/kernels/validation6/).
 *
 * Written after the first five validation suites had been looked at, from scratch, and held out in
 * the same way: these kernels are never used for training, for choosing
 * features or for choosing a method; they stand in for a user's kernels that
 * the model has never seen.  None is a variant of a training kernel or of an
 * earlier validation kernel.  They use the job API of the training suite
 * (training/kernels/core/suite.h); their device sources live in this folder.
 * sp-runner selects them with --suite validation6.  README.md in this folder
 * lists them, with the scaling class each was expected to have before it was
 * measured. */
#ifndef SP_VALIDATION6_H
#define SP_VALIDATION6_H

#include <stddef.h>

#include "suite.h"

size_t validation6_count(void);
const kdesc *validation6_at(size_t i);

/* Elements checked in a big output (spread over it, kspread). */
enum { Q_SAMPLES = 4096 };

/* Gives buffer b (n elements, compared with cmp) a sampled reference of
 * min(n, Q_SAMPLES) elements spread over it.  Returns the reference array,
 * or NULL when out of memory; the sampled indices are in
 * job->buf[b].sample, ascending. */
void *qref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol);

/* A new KB_IN buffer of n floats uniform in [lo, hi); returns its index, or
 * -1 when out of memory. */
int qin_f32(kjob *job, size_t n, krng *r, double lo, double hi);

/* A new KB_IN buffer of n doubles uniform in [lo, hi); index or -1. */
int qin_f64(kjob *job, size_t n, krng *r, double lo, double hi);

/* A new buffer of n 32-bit words with the given role, its host copy
 * zero-filled; returns its index, or -1 when out of memory. */
int qbuf_u32(kjob *job, size_t n, kb_role role);

/* The device's 32-bit hash (sp_dev.h, sp_fmix32), for host references. */
uint32_t q_hash_host(uint32_t a);

/* Variants (kdesc.param) of each family. */
enum { QML_KVDQ, QML_FOCAL, QML_GUMBEL, QML_MAMBA, QML_SGNS, QML_REPPEN };
enum { QSC_WAVE, QSC_ELL, QSC_LEGENDRE, QSC_KDE, QSC_CORDIC, QSC_MEDIAN, QSC_GAMMA };
enum { QIR_CUCKOO, QIR_PQ, QIR_HLL, QIR_CONFUSION, QIR_VOXEL, QIR_JACCARD, QIR_CHACHA, QIR_VARINT };
enum { QCU_CONV1X1, QCU_LION, QCU_MIHIST };

/* Family setup functions, one host file per device source. */
SP_SETUP(qsetup_ml);
SP_SETUP(qsetup_sci);
SP_SETUP(qsetup_irr);
SP_SETUP(qsetup_cuda);

#endif /* SP_VALIDATION6_H */
