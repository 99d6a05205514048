/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csvhead.h: finding named columns in a CSV header row.  Internal. */
#ifndef SP_CSVHEAD_H
#define SP_CSVHEAD_H

#include "csvread.h"

/* Field index of the first column whose trimmed name equals one of names
 * (a NULL-terminated list), or -1.  Trims the header fields in place. */
long sp__csv_column(const sp_csv_row *header, const char *const *names);
/* Field index of the next column after `after` whose trimmed name equals
 * one of names, or -1: a second column for what names stand for (two
 * synonyms, or one name twice), which a reader refuses rather than read
 * one of them silently.  Trims the header fields in place. */
long sp__csv_column_after(const sp_csv_row *header, long after, const char *const *names);
/* Trims spaces, tabs and CRs at both ends of s in place; returns s. */
char *sp__csv_trim(char *s);

#endif
