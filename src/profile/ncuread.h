/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ncuread.h: the Nsight Compute raw page reader (ncuread.c).
 * Internal. */
#ifndef SP_NCUREAD_H
#define SP_NCUREAD_H

#include <stddef.h>

#include "profile.h"
#include "scalepredict.h"

/* Whether a header row is ncu's raw page; taking it (the wanted metrics
 * are set); then each later row. */
int sp__ncu_is_header(const char *const *fields, size_t n);
int sp__ncu_header(sp_profile *p, const char *const *fields, size_t n, sp_error *err);
int sp__ncu_row(sp_profile *p, const char *const *fields, size_t n, long line, sp_error *err);

#endif
