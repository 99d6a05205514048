/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tmpreg.h: the temporary files and directories being written, so that a
 * signal handler can remove them (sp_output_cleanup).  Internal. */
#ifndef SP_TMPREG_H
#define SP_TMPREG_H

#include <signal.h>

/* Records path (copied) until it is unregistered.  Outputs are written from
 * one thread; when every slot is taken the path is not recorded, and only
 * the ordinary error paths remove it. */
void sp__tmp_register(const char *path);
void sp__tmp_unregister(const char *path);

/* Blocks the calling thread's SIGINT, SIGTERM and SIGHUP (the signals
 * whose handler removes temporaries) until sp__tmp_release: a temporary
 * made and registered between the two is never left behind by a signal
 * that arrives after it exists and before it is recorded. */
void sp__tmp_hold(sigset_t *saved);
void sp__tmp_release(const sigset_t *saved);

#endif
