/* SPDX-License-Identifier: GPL-3.0-or-later */
/* load.h: reading a profile (load.c).  Internal. */
#ifndef SP_LOAD_H
#define SP_LOAD_H

#include "profile.h"
#include "scalepredict.h"

/* Reads path as sp_profile_load does, for model m's metrics, or with m
 * NULL for the launch times and SM counts alone (vendor's context
 * metrics). */
int sp__profile_load(const char *path, const sp_model *m, sp_profile **out, sp_error *err);

#endif
