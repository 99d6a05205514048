/* SPDX-License-Identifier: GPL-3.0-or-later */
/* inputreg.h: the inputs no output may replace (sp_output_add_input).
 * Internal. */
#ifndef SP_INPUTREG_H
#define SP_INPUTREG_H

#include <stddef.h>

/* How an output path meets a registered input. */
typedef enum sp__input_clash {
  SP_INPUT_APART = 0, /* it is none of them and holds none */
  SP_INPUT_SAME,      /* it is an input (the same device and inode) */
  SP_INPUT_HOLDS,     /* a directory above an input */
  SP_INPUT_WITHIN     /* in an input directory (a model's manifest) */
} sp__input_clash;

/* How path, an existing file or directory, meets the registered inputs;
 * dir_kind: whether a directory path holding an input counts (an output
 * that replaces a directory).  The clashing input's label (may be NULL)
 * and path into *label and *input. */
sp__input_clash sp__input_clash_of(const char *path, int dir_kind, const char **label,
                                   const char **input);

#endif
