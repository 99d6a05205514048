/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fsutil.h: crash-safe file and directory output.  Every output the library
 * writes goes to a temporary sibling first, is fsync'ed, then renamed into
 * place, so a reader never sees half a file.  Internal. */
#ifndef SP_FSUTIL_H
#define SP_FSUTIL_H

#include <stdio.h>

#include "path.h" /* the path helpers every output uses */
#include "scalepredict.h"

typedef struct sp_atomic_file {
  FILE *fp;
  char *path;     /* final name */
  char *tmp_path; /* where it is written until committed */
  int kind;       /* sp_output_kind checked at open and commit, or -1 */
} sp_atomic_file;

/* Opens a temporary file beside path for writing. */
int sp__atomic_open(sp_atomic_file *af, const char *path, sp_error *err);
/* The same for a user-named output of kind: path is checked with
 * sp_output_check here and again before the commit renames over it. */
int sp__atomic_open_output(sp_atomic_file *af, const char *path, sp_output_kind kind,
                           sp_error *err);
/* Flushes, fsyncs, closes and renames into place; aborts on any failure. */
int sp__atomic_commit(sp_atomic_file *af, sp_error *err);
/* Closes and removes the temporary file.  Safe to call twice. */
void sp__atomic_abort(sp_atomic_file *af);

/* Checks that dir may receive an output of kind (sp_output_check), then
 * creates a fresh temporary directory beside it ("dir.tmp-XXXXXX") holding
 * kind's marker file; *tmp receives its malloc'ed path.  Until it is
 * committed or removed, sp_output_cleanup removes it. */
int sp__tmpdir_create(const char *dir, sp_output_kind kind, char **tmp, sp_error *err);
/* Rewrites the marker to list the files written into tmp, checks dir
 * again and moves the completed temporary directory over it. */
int sp__tmpdir_commit(const char *tmp, const char *dir, sp_output_kind kind, sp_error *err);
/* Removes an uncommitted temporary directory. */
void sp__tmpdir_remove(const char *tmp);
/* The same after a failure: err, when it names a file inside tmp, is made
 * to name it inside dir, the path the user gave. */
void sp__tmpdir_abort(const char *tmp, const char *dir, sp_error *err);
/* Writes kind's marker file into dir (sp__output_marker): the files
 * written there so far, which the next output of the kind may replace. */
int sp__output_mark(const char *dir, sp_output_kind kind, sp_error *err);

#endif
