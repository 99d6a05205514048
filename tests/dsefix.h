/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dsefix.h: the generated data set and model behind test_dse, test_governor
 * and test_export.
 *
 * Grid: 16/32 CUs x 500/750/1000 MHz engine x 475/925/1375 MHz memory, base
 * 32cu/1000/1375.  Every kernel belongs to one of three classes (compute,
 * memory, balanced); its time and power are its base values times a power
 * law of the three axes with the class's exponents.  So 3-means clustering
 * recovers the classes exactly, a kernel classified into its class is
 * predicted exactly at every grid point, and log-linear interpolation between
 * grid clocks is exact too: the truth is known in closed form. */
#ifndef SP_DSEFIX_H
#define SP_DSEFIX_H

#include "scalepredict.h"

enum { FIX_COMPUTE = 0, FIX_MEMORY = 1, FIX_BALANCED = 2, FIX_CLASSES = 3 };
#define FIX_NEW 3 /* new kernels, one per class, in class order */

typedef struct dsefix {
  char *dir;
  char *new_runs, *new_counters; /* the new kernels, measured everywhere */
  sp_model *model;               /* trained on 9 kernels, 3 clusters */
  sp_dataset *fresh;             /* the new kernels */
} dsefix;

/* Writes the files under a scratch directory and trains the model. */
void dsefix_setup(dsefix *f);
void dsefix_teardown(dsefix *f);

/* Base time (ms) and power (W) of new kernel k at 32cu/1000/1375. */
double dsefix_base_time(int k);
double dsefix_base_power(int k);
/* The truth for new kernel k (class k) at any configuration. */
double dsefix_time(int k, const sp_config *c);
double dsefix_power(int k, const sp_config *c);
/* Name of new kernel k. */
const char *dsefix_name(int k);

#endif
