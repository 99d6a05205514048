/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dse.h: design-space exploration internals shared by dse.c (the analysis),
 * dseout.c (CSV and JSON) and report.c (the HTML report); the input files
 * have their own header, input.h.  Internal. */
#ifndef SP_DSE_H
#define SP_DSE_H

#include <stddef.h>

#include "scalepredict.h"

/* The value an objective minimizes (time for the capped one, energy for the
 * budgeted one). */
double sp__dse_score(const sp_dse_choice *c, int objective);

/* Index of the configuration that shares i's coordinates except on axis,
 * where it takes the axis value with index j. */
size_t sp__dse_along(const sp_dse_result *r, size_t i, int axis, size_t j);

/* Physical units of sp__dse_score for an objective ("ms", "mJ", ...). */
const char *sp__dse_score_unit(int objective);

#endif
