/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csvlog.h: append-only CSV files that survive being killed.
 *
 * Each row is appended with one write() of a complete line followed by
 * fsync(), so a kill leaves either the whole row or none of it on disk.  A
 * torn last line (a crash of something else, a full disk) is cut off when
 * the file is opened again.  The first four fields of every row form its key
 * (kernel,cu,engine_mhz,memory_mhz for runs.csv), which the runner uses to
 * skip configurations already measured.  An exclusive lock keeps two runners
 * from writing one file at once.
 */
#ifndef SP_CSVLOG_H
#define SP_CSVLOG_H

#include <stddef.h>

typedef struct csvlog csvlog;

/* Opens (creating with header when new or empty) path.  An existing file
 * must start with exactly header.  *dropped gets the number of bytes of a
 * torn last line that were cut off (0 normally). */
int csvlog_open(const char *path, const char *header, csvlog **out, long *dropped, char *err,
                size_t size);
void csvlog_close(csvlog *log);
/* Whether a row whose first four fields are key (e.g. "copy,8,1980,2619")
 * exists. */
int csvlog_has(const csvlog *log, const char *key);
size_t csvlog_rows(const csvlog *log);
/* Appends line (which must end in '\n' and contain no other newline). */
int csvlog_append(csvlog *log, const char *line, char *err, size_t size);

#endif /* SP_CSVLOG_H */
