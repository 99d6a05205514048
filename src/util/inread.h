/* SPDX-License-Identifier: GPL-3.0-or-later */
/* inread.h: opening and reading input files with a bound on what is read.
 * A file the library reads whole (a model's files, a PTX module) could be a
 * device that never ends (/dev/zero), a FIFO nobody writes or a file of many
 * gigabytes; each is refused at once, naming the file, instead of being read
 * until memory or patience runs out.  The CSV reader has its own bounds
 * (data/csvread.h).  Internal. */
#ifndef SP_INREAD_H
#define SP_INREAD_H

#include <stddef.h>
#include <stdio.h>

#include "scalepredict.h"

/* Opens path for reading as fopen(path, "rb") does, but without waiting
 * for a writer: a FIFO nobody has opened reads as empty instead of blocking
 * the caller forever.  Any other file (a pipe, a device) reads as usual.
 * NULL with errno set on failure. */
FILE *sp__open_input(const char *path);

/* Opens path for reading when it is a regular file of at most max bytes;
 * otherwise NULL, with err (when not NULL) naming the file as `what` and
 * why: it is missing, is not a regular file, or is too large (each with
 * `status`), or cannot be opened otherwise (SP_EIO). */
FILE *sp__open_bounded(const char *path, size_t max, int status, const char *what, sp_error *err);

/* Reads all of path, which may be any readable file (a pipe too), into a
 * NUL-terminated buffer (*text, freed by the caller) of *n bytes.  Refuses
 * more than max bytes, and a NUL byte, which a text never holds, at its
 * line: SP_EPARSE; SP_EIO when the file cannot be opened or read. */
int sp__read_text(const char *path, size_t max, const char *what, char **text, size_t *n,
                  sp_error *err);

#endif
