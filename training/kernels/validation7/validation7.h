/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation7.h: the seventh independent validation suite
 * (training/kernels/validation7/).
 *
 * Written after the first six validation suites had been looked at, from scratch, and held out in
 * the same way: these kernels are never used for training, for choosing
 * features or for choosing a method; they stand in for a user's kernels that
 * the model has never seen.  None is a variant of a training kernel or of an
 * earlier validation kernel.  They use the job API of the training suite
 * (training/kernels/core/suite.h); their device sources live in this folder.
 * sp-runner selects them with --suite validation7.  README.md in this folder
 * lists them, with the scaling class each was expected to have before it was
 * measured. */
#ifndef SP_VALIDATION7_H
#define SP_VALIDATION7_H

#include <stddef.h>

#include "suite.h"

size_t validation7_count(void);
const kdesc *validation7_at(size_t i);

/* Elements checked in a big output (spread over it, kspread). */
enum { R_SAMPLES = 4096 };

/* Gives buffer b (n elements, compared with cmp) a sampled reference of
 * min(n, R_SAMPLES) elements spread over it.  Returns the reference array,
 * or NULL when out of memory; the sampled indices are in
 * job->buf[b].sample, ascending. */
void *rref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol);

/* A new KB_IN buffer of n floats uniform in [lo, hi); returns its index, or
 * -1 when out of memory. */
int rin_f32(kjob *job, size_t n, krng *r, double lo, double hi);

/* A new buffer of n 32-bit words with the given role, its host copy
 * zero-filled; returns its index, or -1 when out of memory. */
int rbuf_u32(kjob *job, size_t n, kb_role role);

/* The device's 32-bit hash (sp_dev.h, sp_lowbias32), for host references. */
uint32_t r_hash_host(uint32_t a);

/* A text of n bytes (n a multiple of 4): words of ASCII, Cyrillic (2-byte
 * UTF-8), CJK (3-byte) and a few emoji (4-byte), separated by spaces and
 * newlines; one 1 MiB stretch drawn from r and repeated.  Returns a malloc'd
 * buffer or NULL. */
uint8_t *rtext_utf8(size_t n, krng *r);

/* Variants (kdesc.param) of each family. */
enum { RML_ALIBI, RML_CTC, RML_LORA, RML_SOFTCAP, RML_HASHGRID, RML_SPECNORM };
enum { RSC_RBGS, RSC_WENO, RSC_SIMPSON, RSC_CIC };
enum { RIM_BAYER, RIM_DEPTH, RIM_HAAR, RIM_PEAK };
enum { RIR_UTF8, RIR_WC, RIR_COLOR, RIR_AES, RIR_MR, RIR_LPM };
enum { RCU_LINATTN, RCU_TINYMLP, RCU_LIFE, RCU_KVCOPY };

/* Family setup functions, one host file per device source. */
SP_SETUP(rsetup_ml);
SP_SETUP(rsetup_sci);
SP_SETUP(rsetup_img);
SP_SETUP(rsetup_irr);
SP_SETUP(rsetup_cuda);

#endif /* SP_VALIDATION7_H */
