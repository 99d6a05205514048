/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shared.h: one round of the shared surrogate over many kernels.
 * Internal. */
#ifndef SP_SHARED_H
#define SP_SHARED_H

#include <stddef.h>

#include "round.h"

/* The shared surrogate (shared.c, docs/sweeps.md "The shared surrogate"):
 * one round over the K kernels at once.  Per quantity, a low-rank
 * completion (lowrank.c) of every kernel's log ratios to its base is each
 * kernel's prior mean, and a per-kernel process models what departs from
 * it; error, fill and state as sp__campaign_round fills them.  The batch
 * of a round gives every kernel still measuring the configuration of most
 * summed uncertainty over them, then its own most uncertain ones, where a
 * configuration that fewer kernels measured counts more.  seed fixes the
 * completion's folds; threads fit kernels at once.  SP_ENOMEM, or
 * SP_ENUMERIC with *failed the kernel. */
int sp__campaign_shared_round(sp_ckernel *const *ks, size_t K, const sp_cgrid *g,
                              const sp_round_params *rp, unsigned long seed, unsigned threads,
                              size_t *failed);

#endif
