/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memory.h: the memory systems of memory.csv (scalepredict.h, "memory
 * systems").  Internal. */
#ifndef SP_MEMORY_H
#define SP_MEMORY_H

#include <stddef.h>

#include "scalepredict.h"

struct sp_memory_set {
  char *path;
  size_t n;
  sp_memory_system *sys; /* in the file's order */
  long *line;            /* each row's line in the file */
};

/* The line of row i, or 0. */
long sp__memory_line(const sp_memory_set *ms, size_t i);

#endif
