/* dse.h: design-space exploration internals shared by dse.c (the analysis),
 * dseinput.c (weights and candidates files), dsewrite.c (CSV and JSON) and
 * dsereport.c (the HTML report).  Internal. */
#ifndef SP_DSE_H
#define SP_DSE_H

#include <stddef.h>

#include "scalepredict.h"

/* One workload entry: a dataset kernel and how often it runs. */
typedef struct sp_dse_weight {
  size_t kernel;
  double weight;
} sp_dse_weight;

/* Reads kernel,weight rows; a kernel missing from ds is SP_ENOTFOUND with
 * the file, line and the kernel's name. */
int sp__dse_read_weights(const char *path, const sp_dataset *ds,
                         sp_dse_weight **out, size_t *n, sp_error *err);

/* A candidate product as read, before it is placed in the space. */
typedef struct sp_dse_named_config {
  char *name;
  sp_config config;
  long line;
} sp_dse_named_config;

int sp__dse_read_candidates(const char *path, sp_dse_named_config **out,
                            size_t *n, sp_error *err);
void sp__dse_named_free(sp_dse_named_config *c, size_t n);

/* The value an objective minimizes (time for the capped one, energy for the
 * budgeted one). */
double sp__dse_score(const sp_dse_choice *c, int objective);

/* Index of the configuration that shares i's coordinates except on axis,
 * where it takes the axis value with index j. */
size_t sp__dse_along(const sp_dse_result *r, size_t i, int axis, size_t j);

/* Physical units of sp__dse_score for an objective ("ms", "mJ", ...). */
const char *sp__dse_score_unit(int objective);

#endif
