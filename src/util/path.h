/* SPDX-License-Identifier: GPL-3.0-or-later */
/* path.h: paths and directory trees.  Internal. */
#ifndef SP_PATH_H
#define SP_PATH_H

/* Removes a directory tree created by the library. */
void sp__tree_remove(const char *dir);
/* fsync a path's parent directory (after a rename). */
void sp__sync_parent(const char *path);
/* The malloc'ed directory part of path ("." when it has none), or NULL. */
char *sp__dup_parent(const char *path);
/* A malloc'ed copy of dir without trailing slashes: "out/" names the
 * directory out, whose temporary sibling is "out.tmp-XXXXXX", not
 * "out/.tmp-XXXXXX". */
char *sp__strip_slashes(const char *dir);
/* Joins dir and name into a malloc'ed path, or NULL. */
char *sp__path_join(const char *dir, const char *name);

#endif
