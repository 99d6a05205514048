/* SPDX-License-Identifier: GPL-3.0-or-later */
/* input.h: the files dse reads besides the model and the dataset: the
 * workload (kernel,weight) and the candidate products (name,config), owned
 * by workload.c.  Internal. */
#ifndef SP_DSE_INPUT_H
#define SP_DSE_INPUT_H

#include <stddef.h>

#include "scalepredict.h"

/* One workload entry: a dataset kernel and how often it runs. */
typedef struct sp_dse_weight {
  size_t kernel;
  double weight;
} sp_dse_weight;

/* Reads kernel,weight rows; a kernel missing from ds is SP_ENOTFOUND with
 * the file, line and the kernel's name. */
int sp__dse_read_weights(const char *path, const sp_dataset *ds, sp_dse_weight **out, size_t *n,
                         sp_error *err);

/* A candidate product as read, before it is placed in the space. */
typedef struct sp_dse_named_config {
  char *name;
  sp_config config;
  long line;
} sp_dse_named_config;

int sp__dse_read_candidates(const char *path, sp_dse_named_config **out, size_t *n, sp_error *err);
void sp__dse_named_free(sp_dse_named_config *c, size_t n);

#endif
