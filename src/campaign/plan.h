/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan.h: the plan object (plan.c), read by its writers (planout.c).
 * Internal. */
#ifndef SP_PLAN_H
#define SP_PLAN_H

#include <stddef.h>

#include "round.h"
#include "scalepredict.h"

/* The plan object (plan.c), read by planout.c. */
typedef struct sp_plan_entry {
  sp_plan_kernel pub;
  char *name;
  sp_config *next;
  sp_ckernel ck;
} sp_plan_entry;

struct sp_plan {
  sp_cgrid grid;
  sp_round_params rp;
  size_t nk;
  sp_plan_entry *k;
};

#endif
