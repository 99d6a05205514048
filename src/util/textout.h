/* SPDX-License-Identifier: GPL-3.0-or-later */
/* textout.h: locale-independent text output shared by every writer of the
 * library (CSV, JSON, HTML/SVG).  Internal.
 *
 * Numbers are formatted by the C library's printf family, which follows the
 * calling thread's LC_NUMERIC.  A program that embeds libscalepredict may
 * have called setlocale() with a locale whose decimal separator is a comma,
 * so every writer brackets its output with sp__c_numeric_begin/_end: that
 * switches only the calling thread to the "C" numeric locale (uselocale),
 * leaving the rest of the program alone. */
#ifndef SP_TEXTOUT_H
#define SP_TEXTOUT_H

#include <locale.h> /* locale_t, newlocale, uselocale: POSIX.1-2008 */
#include <stdio.h>

typedef struct sp_c_numeric {
  locale_t c;   /* the "C" numeric locale, (locale_t)0 if it could not be made */
  locale_t old; /* the thread's locale before */
} sp_c_numeric;

/* Switches the calling thread to '.' decimals until sp__c_numeric_end. */
int sp__c_numeric_begin(sp_c_numeric *s);
void sp__c_numeric_end(sp_c_numeric *s);

/* Line end of every CSV the library and the CLI write: LF, one convention
 * for every command (issue 12); spreadsheets read it as RFC 4180's CRLF. */
#define SP_CSV_EOL "\n"

/* A number as JSON: %.*g, or null when not finite. */
void sp__json_number(FILE *fp, double v, int digits);
/* s as one CSV field, always quoted, quotes inside doubled (RFC 4180), so
 * that names holding commas or quotes read back as one field; -1 when a
 * write fails. */
int sp__csv_quoted(FILE *fp, const char *s);
/* A number as a CSV field: %.*g, or empty when not finite. */
void sp__csv_number(FILE *fp, double v, int digits);
/* Text with &, <, >, " and ' escaped for HTML and SVG. */
void sp__xml_text(FILE *fp, const char *s);

#endif
