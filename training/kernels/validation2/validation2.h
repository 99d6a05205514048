/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation2.h: the second independent validation suite
 * (training/kernels/validation2/).
 *
 * Written after the first validation suite had been
 * looked at, from scratch, and held out in the same way: these kernels are
 * never used for training, for choosing features or for choosing a method;
 * they stand in for a user's kernels that the model has never seen.  None is
 * a variant of a training kernel or of a first-validation kernel.  They use
 * the job API of the training suite (training/kernels/core/suite.h); their device
 * sources live in this folder.  sp-runner selects them with
 * --suite validation2.  README.md in this folder lists them, with the
 * scaling class each was expected to have before it was measured. */
#ifndef SP_VALIDATION2_H
#define SP_VALIDATION2_H

#include <stddef.h>

#include "suite.h"

size_t validation2_count(void);
const kdesc *validation2_at(size_t i);

/* Elements checked in a big output: enough to catch a wrong tile or a wrong
 * boundary anywhere, few enough that the host reference of a full-size
 * problem stays well under a second. */
enum { W_SAMPLES = 4096 };

/* Gives buffer b (n elements, compared with cmp) a sampled reference of
 * min(n, W_SAMPLES) elements spread over it (kspread).  Returns the
 * reference array, or NULL when out of memory; the sampled indices are in
 * job->buf[b].sample. */
void *wref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol);

/* A new KB_IN buffer of n floats (or doubles) uniform in [lo, hi); returns
 * its index, or -1 when out of memory. */
int win_f32(kjob *job, size_t n, krng *r, double lo, double hi);
int win_f64(kjob *job, size_t n, krng *r, double lo, double hi);

/* Variants (kdesc.param) of each family. */
enum { WLM_ADAMW, WLM_RMSNORM, WLM_ROPE, WLM_NHWC, WLM_GQA_DECODE, WLM_TOPK, WLM_ARGMAX };
enum { WSC_LBM, WSC_SRAD, WSC_MRIQ, WSC_COVAR, WSC_PHILOX, WSC_RTM, WSC_RNN, WSC_BILATERAL };
enum {
  WIR_NQUEENS,
  WIR_HASHJOIN,
  WIR_SPMM8,
  WIR_CC,
  WIR_RAYQUEUE,
  WIR_PAIRLIST,
  WIR_TRIANGLE,
  WIR_ROWSCAN,
  WIR_NMS
};
enum {
  WCU_GEMV_F16,
  WCU_TF32,
  WCU_IMMA,
  WCU_DP4A,
  WCU_DWCONV,
  WCU_SCORES,
  WCU_EMBED_BWD,
  WCU_INV_F64
};

/* Family setup functions, one host file per device source. */
SP_SETUP(wsetup_llm);
SP_SETUP(wsetup_sci);
SP_SETUP(wsetup_irr);
SP_SETUP(wsetup_cuda);

#endif /* SP_VALIDATION2_H */
