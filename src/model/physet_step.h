/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_step.h: version 10's memory step forest (docs/method.md, "physet:
 * the memory axis"): a forest over the same features as the time forest,
 * fitted to the training kernels' memory steps alone (the residual at each
 * point of another memory system minus the residual at the base's memory
 * system with the same CU count and engine clock), so that the kernels it
 * finds similar are those whose step is alike, not those whose SM scaling
 * is.  Version 11 adds a second one, the curve forest, whose features
 * also hold the kernel's time over the CU axis at the base's clocks
 * (measured for a training kernel), read for a new kernel measured at
 * another SM count of the base card: how a kernel scales with SMs there
 * says whether it is bound by bandwidth, latency or atomics, which the
 * counters at the base alone do not.  Internal to the physet files. */
#ifndef SP_PHYSET_STEP_H
#define SP_PHYSET_STEP_H

#include "physet_state.h"

/* Fits p->step_forest to the time residuals' memory steps over the
 * features feat (n * nfeat) of the training kernels, and (version 11:
 * p->step_curve set here) p->curve_forest to the same steps over those
 * features and the kernels' measured log time ratios lt (n *
 * gsize[SP_TIME]) at the base's clocks; SP_OK without
 * fitting one when the grid has no point to step to (SP_ENOMEM). */
int sp__physet_fit_step(sp_physet *p, const double *feat, const double *lt,
                        const sp_forest_params *fp);

/* The curve forest's features of one kernel into out (nfeat + step_curve):
 * its features feat, then (version 11) lt, its log time ratio over the
 * time grid, at each CU count at the base's clocks (0 when lt is NULL:
 * the first pass, whose step nothing reads). */
void sp__physet_step_features(const sp_physet *p, const double *feat, const double *lt,
                              double *out);

#endif
