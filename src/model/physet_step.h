/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_step.h: version 10's memory step forest (docs/method.md, "physet:
 * the memory axis"): a forest over the same features as the time forest,
 * fitted to the training kernels' memory steps alone (the residual at each
 * point of another memory system minus the residual at the base's memory
 * system with the same CU count and engine clock), so that the kernels it
 * finds similar are those whose step is alike, not those whose SM scaling
 * is.  Internal to the physet files. */
#ifndef SP_PHYSET_STEP_H
#define SP_PHYSET_STEP_H

#include "physet_state.h"

/* Fits p->step_forest to the time residuals' memory steps, the features
 * feat (n * nfeat) of the training kernels; SP_OK without fitting one
 * when the grid has no point to step to (SP_ENOMEM). */
int sp__physet_fit_step(sp_physet *p, const double *feat, const sp_forest_params *fp);

#endif
