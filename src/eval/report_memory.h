/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report_memory.h: the evaluation report's memory-axis plots (issue 28):
 * what the other memory system buys each held-out kernel, predicted
 * against measured.  Internal to eval/. */
#ifndef SP_REPORT_MEMORY_H
#define SP_REPORT_MEMORY_H

#include <stdio.h>

#include "data/dataset.h"
#include "scalepredict.h"

/* Whether method's time records of e reach a memory clock other than
 * their base's (a grid of several memory systems, such as an H100 and an
 * H200 base): then the two plots below have something to show. */
int sp__memory_axis_present(const sp_evaluation *e, const sp_eval_params *p, int method);

/* Predicted against measured speedup of the other memory system over the
 * base's, T(cu, base memory) / T(cu, other memory) at the base's engine
 * clock, one point per held-out kernel at the base's SM count
 * (per_cu = 0), or one per kernel and SM count, a series per SM count
 * (per_cu = 1).  The predicted speedup's numerator is the method's own
 * prediction at the base memory system where it made one (else the
 * measured value: the base, or a configuration given as measured), so that
 * the plot shows the memory step as predicted, apart from the SM axis. */
int sp__plot_memory_speedup(FILE *fp, const sp_evaluation *e, const sp_dataset *ds,
                            const sp_eval_params *p, int method, int per_cu, const char *title);

#endif
