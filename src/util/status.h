/* SPDX-License-Identifier: GPL-3.0-or-later */
/* status.h: filling sp_error records.  Internal to libscalepredict. */
#ifndef SP_STATUS_H
#define SP_STATUS_H

#include "scalepredict.h"

/* Fills err (if not NULL) and returns status, so callers can write
 * `return sp__fail(err, SP_EPARSE, path, line, col, "time_ms", "...")`.
 * file and field may be NULL. */
int sp__fail(sp_error *err, int status, const char *file, long line, long column, const char *field,
             const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* sp__fail(err, SP_ENOMEM, ..., "out of memory"): the one message for an
 * allocation that failed; returns SP_ENOMEM. */
int sp__oom(sp_error *err);

#endif
