/* SPDX-License-Identifier: GPL-3.0-or-later */
/* group.h: the launches of a profile grouped into entries (group.c).
 * Internal. */
#ifndef SP_GROUP_H
#define SP_GROUP_H

#include <stddef.h>

#include "profile.h"
#include "scalepredict.h"

/* Groups the launches into entries. */
int sp__profile_group(sp_profile *p, sp_error *err);
/* A launch's time in ms, NaN when the profile has none. */
double sp__launch_ms(const sp_profile *p, const sp__launch *l);

#endif
