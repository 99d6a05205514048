/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation10.h: the tenth independent validation suite
 * (training/kernels/validation10/).
 *
 * Written after the first nine validation suites (all nine retired into training) had been looked
 * at, from scratch, and held out in the same way: these kernels are never
 * used for training, for choosing features or for choosing a method; they
 * stand in for a user's kernels that the model has never seen.  None is a
 * variant of a training kernel or of an earlier validation kernel.  They use
 * the job API of the training suite (training/kernels/core/suite.h); their device
 * sources live in this folder.  sp-runner selects them with --suite
 * validation10.  README.md in this folder lists them, with the scaling class
 * each was expected to have before it was measured. */
#ifndef SP_VALIDATION10_H
#define SP_VALIDATION10_H

#include <stddef.h>

#include "suite.h"

size_t validation10_count(void);
const kdesc *validation10_at(size_t i);

/* Elements checked in a big output (spread over it, kspread). */
enum { U_SAMPLES = 4096 };

/* Gives buffer b (n elements, compared with cmp) a sampled reference of
 * min(n, max) elements spread over it.  Returns the reference array, or
 * NULL when out of memory; the sampled indices are in job->buf[b].sample,
 * ascending. */
void *uref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, size_t max, double rtol, double atol);

/* A new buffer of n 32-bit words with the given role, its host copy
 * zero-filled; returns its index, or -1 when out of memory. */
int ubuf_u32(kjob *job, size_t n, kb_role role);

/* The device's 32-bit hash (sp_dev.h, sp_mueller32), for host references. */
uint32_t u_hash_host(uint32_t h);

/* Copies the first len bytes of p over the rest of its n bytes, so that a
 * big input repeats one drawn stretch and setting up stays quick. */
void urepeat(void *p, size_t len, size_t n);

/* Variants (kdesc.param) of each family. */
enum { UST_BITSHUF, UST_ECG, UST_GEOHASH, UST_SOBOL, UST_ZONEMAP, UST_RESAMPLE };
enum { USC_IGAMC, USC_EIG3, USC_MCUBES, USC_RASTER, USC_BEZIER, USC_SLOGDET };
enum { UIR_MINHASH, UIR_MIS, UIR_SOUNDEX, UIR_SHA256, UIR_EDT, UIR_HUFFMAN };
enum { UCU_DCT, UCU_HSV, UCU_CMS, UCU_XXH, UCU_NTT, UCU_GRAM };

/* Family setup functions, one host file per device source. */
SP_SETUP(usetup_stream);
SP_SETUP(usetup_sci);
SP_SETUP(usetup_irr);
SP_SETUP(usetup_cuda);

#endif /* SP_VALIDATION10_H */
