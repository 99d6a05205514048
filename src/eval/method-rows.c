/* SPDX-License-Identifier: GPL-3.0-or-later */
/* method-rows.c: evaluation's rows, built from the method table
 * (model/method-table.h), and what the public API says of the methods
 * (sp_method_name, sp_method_parse, sp_method_flags ...): one row per line,
 * in the table's order.  A compared method, and the core, is scored by its
 * sp_compare (compare.h), named sp__compare_<name>; a carried one through
 * the model's method type. */
#include "method-rows.h"

#include <string.h>

#include "compare.h"
#include "model/method.h"

/* By kind: the flags every line of the kind has, and how it is scored. */
#define KIND_FLAGS_core SP_METHOD_FLAG_CARRIED
#define KIND_FLAGS_carried SP_METHOD_FLAG_CARRIED
#define KIND_FLAGS_compared 0u
#define COMPARE_core(name) &sp__compare_##name
#define COMPARE_carried(name) NULL
#define COMPARE_compared(name) &sp__compare_##name
#define DECLARE_core(name) extern const sp_compare sp__compare_##name;
#define DECLARE_carried(name)
#define DECLARE_compared(name) extern const sp_compare sp__compare_##name;

#define SP_METHOD(name, id, kind, flags, about) DECLARE_##kind(name)
#include "model/method-table.h"
#undef SP_METHOD

const sp_eval_row sp__eval_rows[] = {
#define SP_METHOD(name, id, kind, flags, about) \
  {(sp_method)(id), #name, about, (flags) | KIND_FLAGS_##kind, COMPARE_##kind(name)},
#include "model/method-table.h"
#undef SP_METHOD
};
#define NROWS (sizeof sp__eval_rows / sizeof *sp__eval_rows)
const size_t sp__eval_nrows = NROWS;

/* The ids are 0 .. NROWS - 1, each once: one past the largest is NROWS, a
 * repeated one is an overridden initializer (-Woverride-init), and the
 * squares add up. */
static const char ids[] = {
#define SP_METHOD(name, id, kind, flags, about) [id] = 1,
#include "model/method-table.h"
#undef SP_METHOD
};
enum {
  ID_SQUARES = 0
#define SP_METHOD(name, id, kind, flags, about) +(id) * (id)
#include "model/method-table.h"
#undef SP_METHOD
};
_Static_assert(sizeof ids == NROWS, "method ids are 0, 1, 2 ..., one per line of the table");
_Static_assert(ID_SQUARES == (NROWS - 1) * NROWS * (2 * NROWS - 1) / 6,
               "each method id is given once");
_Static_assert(NROWS <= 32, "a method is a bit of sp_eval_params.methods");

static const sp_eval_row *row_of(sp_method m) {
  for (size_t i = 0; i < NROWS; i++)
    if (sp__eval_rows[i].id == m) return &sp__eval_rows[i];
  return NULL;
}

size_t sp_method_count(void) { return NROWS; }

const char *sp_method_name(sp_method m) {
  const sp_eval_row *r = row_of(m);
  return r ? r->name : "unknown";
}

int sp_method_parse(const char *name, sp_method *out) {
  for (size_t i = 0; i < NROWS; i++)
    if (!strcmp(name, sp__eval_rows[i].name)) {
      *out = sp__eval_rows[i].id;
      return SP_OK;
    }
  return SP_EINVAL;
}

unsigned sp_method_flags(sp_method m) {
  const sp_eval_row *r = row_of(m);
  return r ? r->flags : 0;
}

int sp_method_uses_clusters(sp_method m) {
  return (sp_method_flags(m) & SP_METHOD_FLAG_CLUSTERED) != 0;
}

const char *sp_method_about(sp_method m) {
  const sp_eval_row *r = row_of(m);
  return r ? r->about : "";
}

unsigned sp__eval_default_methods(void) {
  unsigned bits = 0;
  for (size_t i = 0; i < NROWS; i++)
    if (!(sp__eval_rows[i].flags & SP_METHOD_FLAG_OPT_IN)) bits |= 1u << sp__eval_rows[i].id;
  return bits;
}

unsigned sp__eval_train_methods(const sp_eval_params *p) {
  unsigned bits = 0;
  size_t index;
  for (size_t i = 0; i < NROWS; i++) {
    const sp_eval_row *r = &sp__eval_rows[i];
    if (!r->compare && (p->methods >> r->id) & 1u && sp__method_find(r->name, &index) && index >= 1)
      bits |= 1u << (index - 1);
  }
  return bits;
}
