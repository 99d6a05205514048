/* SPDX-License-Identifier: GPL-3.0-or-later */
/* outguard.h: what an output may replace.  Every model, report and CSV the
 * library writes goes through these checks before it is built and again
 * before it is renamed into place: a path is replaced only when it does not
 * exist, is empty, or is an artefact of the same kind that scalepredict
 * wrote, holding nothing else (sp_output_set_force lifts the last
 * condition; a regular file is never replaced by a directory, a profile by
 * anything else, an input by an output).  Internal. */
#ifndef SP_OUTGUARD_H
#define SP_OUTGUARD_H

#include "scalepredict.h"

/* The marker file of a directory kind (model, report, profile) for dir:
 * its name (*name) and its text (*text, malloc'ed), which lists every other
 * entry of dir: the files the next output of the kind may replace.  The
 * writer is fsutil.c's sp__output_mark. */
int sp__output_marker(const char *dir, sp_output_kind kind, const char **name, char **text,
                      sp_error *err);

#endif
