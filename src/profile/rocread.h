/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rocread.h: the rocprofv3 counter CSV reader (rocread.c).
 * Internal. */
#ifndef SP_ROCREAD_H
#define SP_ROCREAD_H

#include <stddef.h>

#include "profile.h"
#include "scalepredict.h"

/* Whether a header row is rocprofv3's counter CSV; taking it (the wanted
 * metrics are set); then each later row. */
int sp__roc_is_header(const char *const *fields, size_t n);
int sp__roc_header(sp_profile *p, const char *const *fields, size_t n, sp_error *err);
int sp__roc_row(sp_profile *p, const char *const *fields, size_t n, long line, sp_error *err);

#endif
