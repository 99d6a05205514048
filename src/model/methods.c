/* SPDX-License-Identifier: GPL-3.0-or-later */
/* methods.c: the table of the methods a model can carry, built from
 * method-table.h.  This file holds the table and nothing else, so that a
 * program that defines its own sp__method_table links instead of it
 * (tests/test_method_table.c, which adds a method of its own). */
#include "method.h"

#define SP_METHOD(name) extern const sp_method_type sp__method_##name;
#include "method-table.h"
#undef SP_METHOD

const sp_method_type *const sp__method_table[] = {
#define SP_METHOD(name) &sp__method_##name,
#include "method-table.h"
#undef SP_METHOD
    NULL};
