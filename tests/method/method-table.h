/* SPDX-License-Identifier: GPL-3.0-or-later */
/* method-table.h: the library's method table and one line more, for the
 * tests' own method (mean.c): what adding a method to the library is.
 * The library's table files are compiled against it (tests/Makefile.am,
 * method/gen-*.c).  No include guard, on purpose. */
#include "model/method-table.h"
SP_METHOD(mean, 11, carried, 0, "the training kernels' mean scaling (a test's method)")
