/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csvread.h: streaming CSV rows with line numbers, on top of libcsv.
 * Tolerates a UTF-8 byte-order mark, CRLF line ends and quoted fields; skips
 * blank lines.  Memory is bounded by the longest row, which is itself
 * bounded by SP_CSV_MAX_FIELD_BYTES and SP_CSV_MAX_FIELDS; endless input
 * without rows (blank lines) by SP_CSV_MAX_BLANK_LINES.  Internal. */
#ifndef SP_CSVREAD_H
#define SP_CSVREAD_H

#include <stddef.h>

#include "scalepredict.h"

/* Limits that keep hostile inputs from exhausting memory. */
#define SP_CSV_MAX_FIELD_BYTES ((size_t)1 << 20)
#define SP_CSV_MAX_FIELDS ((size_t)100000)
/* Lines without a row between two rows: blank lines, or the lines of one
 * quoted field (which the field limit ends far sooner). */
#define SP_CSV_MAX_BLANK_LINES 1000000L

typedef struct sp_csv_row {
  long line; /* 1-based line on which the row starts */
  size_t nfields;
  char *const *fields; /* NUL-terminated */
} sp_csv_row;

/* Called once per row; a non-zero return stops reading and is returned. */
typedef int (*sp_csv_row_fn)(void *user, const sp_csv_row *row, sp_error *err);

int sp__csv_read(const char *path, sp_csv_row_fn fn, void *user, sp_error *err);

/* Strict numeric parsing of a whole field: no trailing text, finite. */
int sp__parse_double(const char *s, double *out);
int sp__parse_int(const char *s, int *out);

#endif
