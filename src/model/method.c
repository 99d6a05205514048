/* SPDX-License-Identifier: GPL-3.0-or-later */
/* method.c: the methods a model can carry, built from the method table
 * (method-table.h): the core (wu2015) first, then the carried methods in
 * the table's order; the methods evaluation only compares are not here.
 * And the lookup of one by name. */
#include "method.h"

#include <string.h>

/* The lines of the table this file keeps, by kind. */
#define SP_METHOD(name, id, kind, flags, about) KEEP_##kind(name)

#define KEEP_core(name) extern const sp_method_type sp__method_##name;
#define KEEP_carried(name) extern const sp_method_type sp__method_##name;
#define KEEP_compared(name)
#include "method-table.h"
#undef KEEP_core
#undef KEEP_carried

const sp_method_type *const sp__method_table[] = {
#define KEEP_core(name) &sp__method_##name,
#define KEEP_carried(name)
#include "method-table.h"
#undef KEEP_core
#undef KEEP_carried
#define KEEP_core(name)
#define KEEP_carried(name) &sp__method_##name,
#include "method-table.h"
    NULL};

const sp_method_type *sp__method_find(const char *name, size_t *index) {
  for (size_t i = 0; sp__method_table[i]; i++)
    if (!strcmp(sp__method_table[i]->name, name)) {
      if (index) *index = i;
      return sp__method_table[i];
    }
  return NULL;
}
