/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vexp.h: e^x over an array, several values at a time: the interval
 * ends of a whole design space (docs/performance.md).  Within 2 units in
 * the last place of libm's exp where the result is a normal number, and
 * the same bits on every x86-64 machine whichever variant runs (no fused
 * multiply-add).  Internal to the model folder. */
#ifndef SP_VEXP_H
#define SP_VEXP_H

#include <stddef.h>

/* x[i] = scale * e^x[i] for i < n.  Values whose e^x would not be a
 * normal number, infinities and NaNs get libm's exp. */
void sp__vexp_scaled(double *x, size_t n, double scale);

#endif
