/* fsutil.h: crash-safe file and directory output.  Every output the library
 * writes goes to a temporary sibling first, is fsync'ed, then renamed into
 * place, so a reader never sees half a file.  Internal. */
#ifndef SP_FSUTIL_H
#define SP_FSUTIL_H

#include <stdio.h>

#include "scalepredict.h"

typedef struct sp_atomic_file {
  FILE *fp;
  char *path;     /* final name */
  char *tmp_path; /* where it is written until committed */
} sp_atomic_file;

/* Opens a temporary file beside path for writing. */
int sp__atomic_open(sp_atomic_file *af, const char *path, sp_error *err);
/* Flushes, fsyncs, closes and renames into place; aborts on any failure. */
int sp__atomic_commit(sp_atomic_file *af, sp_error *err);
/* Closes and removes the temporary file.  Safe to call twice. */
void sp__atomic_abort(sp_atomic_file *af);

/* Creates a fresh temporary directory beside dir ("dir.tmp-XXXXXX");
 * *tmp receives its malloc'ed path. */
int sp__tmpdir_create(const char *dir, char **tmp, sp_error *err);
/* Moves a completed temporary directory over dir (replacing an old one). */
int sp__tmpdir_commit(const char *tmp, const char *dir, sp_error *err);
/* Removes a directory tree created by the library (regular files only). */
void sp__tree_remove(const char *dir);
/* mkdir -p. */
int sp__mkdirs(const char *dir, sp_error *err);
/* fsync a path's parent directory (after a rename). */
void sp__sync_parent(const char *path);
/* Joins dir and name into a malloc'ed path, or NULL. */
char *sp__path_join(const char *dir, const char *name);

#endif
