/* SPDX-License-Identifier: GPL-3.0-or-later */
/* method-rows.h: evaluation's methods, one row per line of the method
 * table (model/method-table.h) in its order, which is the order a job
 * scores them in (method-rows.c).  Internal. */
#ifndef SP_METHOD_ROWS_H
#define SP_METHOD_ROWS_H

#include <stddef.h>

#include "scalepredict.h"

struct sp_compare;

typedef struct sp_eval_row {
  sp_method id;
  const char *name, *about;
  unsigned flags; /* SP_METHOD_FLAG_* */
  /* How evaluation scores it (compare.h); NULL for a method a model
   * carries besides wu2015, scored through the model's method type. */
  const struct sp_compare *compare;
} sp_eval_row;

extern const sp_eval_row sp__eval_rows[];
extern const size_t sp__eval_nrows;

/* The methods sp_eval_params_init asks for: every one not opt-in. */
unsigned sp__eval_default_methods(void);
/* The bits of sp_train_params.methods that fit the methods of p the model
 * carries besides wu2015, for the training of a job's first cluster count. */
unsigned sp__eval_train_methods(const sp_eval_params *p);

#endif
