/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wu2015.h: the paper's method (wu2015.c) with cluster choices given, for
 * evaluation's oracle.  Internal. */
#ifndef SP_WU2015_H
#define SP_WU2015_H

#include <stddef.h>

#include "model.h"

/* Predicts every grid point of q from explicit cluster choices (one per set,
 * in set order); used for oracle evaluation. */
int sp__model_predict_choice(const sp_model *m, sp_quantity q, const size_t *choice,
                             double base_value, double *out);

#endif
