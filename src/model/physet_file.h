/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_file.h: the physet method's file (method-physet.txt): its state
 * as text, versions 1 to 9.  Internal. */
#ifndef SP_PHYSET_FILE_H
#define SP_PHYSET_FILE_H

#include <stddef.h>

#include "physet.h"
#include "scalepredict.h"
#include "surface.h"

/* Text file of the method's state.  Load re-derives the feature plan from
 * the model's counter names and checks it against the file. */
int sp__physet_save(const sp_physet *p, const char *path, sp_error *err);
int sp__physet_load(const char *path, const char *const *counter_names, size_t ncounters,
                    const sp_config *base, const sp_grid *const grid[2],
                    const sp_memory_system *memory, sp_physet **out, sp_error *err);

#endif
