/* SPDX-License-Identifier: GPL-3.0-or-later */
/* method.h: the prediction methods a model can carry, as type objects (the
 * pattern of GSL's gsl_multimin_fminimizer_type).  Internal.
 *
 * A method is one constant sp_method_type: its name, what it needs of an
 * observation, and the functions that fit, predict, save, load and free its
 * state.  The model keeps a slot per method it carries (the type and its
 * state), records the recommended one and the one in use, and reaches each
 * method through its type only: training fits the methods that
 * sp_train_params.methods asks for, the saved model lists them with their
 * files, loading finds each listed name in the table, and prediction calls
 * the method in use.  Adding a method is one new file that defines its type
 * and one line in method-table.h (kind carried), which evaluation, the
 * public sp_method list and the tool's lists and help take up too.
 *
 * wu2015, the paper's method, is the model's core: its state is the grids
 * and cluster sets every model has (model.h), trained by train.c and saved
 * in the manifest and network files, so its fit, save, load and free are
 * NULL.  Every model carries it, in slot 0. */
#ifndef SP_METHOD_H
#define SP_METHOD_H

#include <stddef.h>

#include "scalepredict.h"
#include "surface.h"

/* The largest method file a model may hold (the bundled H100 model's
 * physet file is 11 MB); it must be a regular file, so that a link to
 * /dev/zero is refused at once rather than read forever. */
#define SP_METHOD_FILE_MAX_BYTES ((size_t)1 << 30)

/* What a method may need of an observation besides the base time (and base
 * power for power): bits of sp_method_type.needs. */
enum {
  SP_NEEDS_COUNTERS = 1u << 0, /* the base counters, in the model's order */
  SP_USES_MEASURED = 1u << 1,  /* passes through further measurements (nextra) */
  SP_USES_FLOOR = 1u << 2,     /* anchors power on the board's idle floor_w */
  SP_PREDICTS_BASE = 1u << 3,  /* predicts the base value too: never reads the
                                  observation's base time or power */
  SP_PER_BASE = 1u << 4        /* fitted at every base of a model with several
                                  (sp_train_params.extra_bases), each state
                                  predicting from its own base */
};

/* The model a method belongs to, as the method sees it: counters, base and
 * grids (grid[SP_POWER] is NULL when the model has no power). */
typedef struct sp_method_context {
  const char *const *counter_names;
  size_t ncounters;
  sp_config base; /* the base the state predicts from */
  const sp_grid *grid[2];
  /* The memory systems of the grid's memory clocks, in axis order (NULL,
   * 0: not described). */
  const sp_memory_system *memory;
  size_t nmemory;
} sp_method_context;

/* Training input: kernels[0..n) of ds (dataset indices; ds's counters are
 * in the model's order), measured at the context's base. */
typedef struct sp_method_data {
  const sp_dataset *ds;
  const size_t *kernels;
  size_t n;
  sp_method_context ctx;
} sp_method_data;

typedef struct sp_method_type {
  const char *name;
  unsigned needs; /* SP_NEEDS_* and SP_USES_* bits */
  /* Fits the method; *state receives what predict, save and free use. */
  int (*fit)(const sp_method_data *d, const sp_train_params *p, void **state, sp_error *err);
  /* Predicts quantity q at every point of the model's grid for q (out: that
   * many values).  SP_ENOPOWER when the method or observation has no power.
   * Safe from several threads on one state. */
  int (*predict)(const sp_model *m, const void *state, sp_quantity q, const sp_observation *obs,
                 double *out);
  /* Writes the state to path (one file, method-NAME.txt in the model). */
  int (*save)(const void *state, const char *path, sp_error *err);
  /* Reads a state written by save for the model described by ctx. */
  int (*load)(const sp_method_context *ctx, const char *path, void **state, sp_error *err);
  void (*free)(void *state);
  /* Optional: predicts q at grid point t alone (sp_model_predict); NULL
   * predicts the whole grid and picks t. */
  int (*predict_at)(const sp_model *m, const void *state, sp_quantity q, const sp_observation *obs,
                    const sp_grid_point *t, double *out);
  /* Optional: as predict, with each prediction's 90% interval in lo and hi
   * (as many values as out); NULL: the method gives no interval. */
  int (*predict_interval)(const sp_model *m, const void *state, sp_quantity q,
                          const sp_observation *obs, double *out, double *lo, double *hi);
  /* Optional: how unlike the training kernels the observation is
   * (sp_predict_info.novelty); NULL: the method cannot tell. */
  double (*novelty)(const void *state, const sp_observation *obs);
  /* Optional: the method's expected time error (MAPE, %) as estimated at
   * training (sp_model_expected_error); NULL: not estimated. */
  double (*expected_error)(const void *state);
  /* Optional: the training board's floor power (W) at point c of the power
   * grid (the floor kernel's measured power there); SP_ENOTFOUND when the
   * state holds no floor or c is off the grid; NULL: the method has none. */
  int (*floor_power)(const void *state, const sp_config *c, double *watts);
} sp_method_type;

/* The table (method.c, from method-table.h): every method a model can
 * carry, wu2015 first, NULL-terminated.  Method i > 0 is fitted when bit
 * (1u << (i - 1)) of sp_train_params.methods is set. */
extern const sp_method_type *const sp__method_table[];

/* The table's entry named name, and its index; NULL when there is none. */
const sp_method_type *sp__method_find(const char *name, size_t *index);

#endif
