/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation9.h: the ninth independent validation suite
 * (training/kernels/validation9/).
 *
 * Written after the first eight validation suites (all eight retired into training) had been looked
 * at, from scratch, and held out in the same way: these kernels are never
 * used for training, for choosing features or for choosing a method; they
 * stand in for a user's kernels that the model has never seen.  None is a
 * variant of a training kernel or of an earlier validation kernel.  They use
 * the job API of the training suite (training/kernels/core/suite.h); their device
 * sources live in this folder.  sp-runner selects them with --suite
 * validation9.  README.md in this folder lists them, with the scaling class
 * each was expected to have before it was measured. */
#ifndef SP_VALIDATION9_H
#define SP_VALIDATION9_H

#include <stddef.h>

#include "suite.h"

size_t validation9_count(void);
const kdesc *validation9_at(size_t i);

/* Elements checked in a big output (spread over it, kspread). */
enum { T_SAMPLES = 4096 };

/* Gives buffer b (n elements, compared with cmp) a sampled reference of
 * min(n, max) elements spread over it.  Returns the reference array, or
 * NULL when out of memory; the sampled indices are in job->buf[b].sample,
 * ascending. */
void *tref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, size_t max, double rtol, double atol);

/* A new KB_IN buffer of n floats uniform in [lo, hi); returns its index, or
 * -1 when out of memory. */
int tin_f32(kjob *job, size_t n, krng *r, double lo, double hi);

/* A new buffer of n 32-bit words with the given role, its host copy
 * zero-filled; returns its index, or -1 when out of memory. */
int tbuf_u32(kjob *job, size_t n, kb_role role);

/* The device's 32-bit hash (sp_dev.h, sp_lowbias32), for host references. */
uint32_t t_hash_host(uint32_t a);

/* Copies the first len bytes of p over the rest of its n bytes, so that a
 * big input repeats one drawn stretch and setting up stays quick. */
void trepeat(void *p, size_t len, size_t n);

/* Variants (kdesc.param) of each family. */
enum { TST_MULAW, TST_RAYS, TST_RSYNC, TST_FLETCHER, TST_JPEG, TST_JAGGED };
enum { TSC_SPH, TSC_KEPLER, TSC_SSD, TSC_ICP, TSC_QR, TSC_FEM };
enum { TIR_LISTRANK, TIR_BC1, TIR_LPA, TIR_SCRYPT, TIR_MYERS, TIR_HOUGH };
enum { TCU_ORB, TCU_QSIM, TCU_WARP, TCU_FP8, TCU_KMER, TCU_SGM };

/* Family setup functions, one host file per device source. */
SP_SETUP(tsetup_stream);
SP_SETUP(tsetup_sci);
SP_SETUP(tsetup_irr);
SP_SETUP(tsetup_cuda);

#endif /* SP_VALIDATION9_H */
