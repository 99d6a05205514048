/* SPDX-License-Identifier: GPL-3.0-or-later */
/* reportdir.h: writing a report directory all at once.  Files are written
 * into a temporary sibling of the directory (each one fsync'ed); only a
 * complete set is renamed into place, so an error leaves any older report
 * untouched and nothing half-written.  Internal. */
#ifndef SP_REPORTDIR_H
#define SP_REPORTDIR_H

#include <stdio.h>

#include "scalepredict.h"

typedef struct sp_reportdir {
  char *tmp;           /* the directory being filled */
  const char *dir;     /* where it goes */
  sp_output_kind kind; /* what it is (a report, or a profile) */
} sp_reportdir;

/* Writes one file's contents to fp; returns a status. */
typedef int (*sp_report_fn)(const void *data, FILE *fp);

int sp__reportdir_begin(sp_reportdir *d, const char *dir, sp_error *err);
/* The same for a directory of another kind (a profile). */
int sp__reportdir_begin_as(sp_reportdir *d, const char *dir, sp_output_kind kind, sp_error *err);
/* Writes name inside the report with fn(data, fp). */
int sp__reportdir_file(sp_reportdir *d, const char *name, sp_report_fn fn, const void *data,
                       sp_error *err);
int sp__reportdir_commit(sp_reportdir *d, sp_error *err);
/* Removes the temporary directory (err, when it names a file there, is
 * made to name the report's); safe after a commit or a failure. */
void sp__reportdir_abort(sp_reportdir *d, sp_error *err);

#endif
