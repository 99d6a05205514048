/* validation.c: the validation suite's table, in run order. */
#include <string.h>

#include "validation.h"

static const kdesc VALIDATION[] = {
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation_count(void) { return sizeof VALIDATION / sizeof *VALIDATION - 1; }

const kdesc *validation_at(size_t i)
{
  return i < validation_count() ? &VALIDATION[i] : NULL;
}

const kdesc *validation_find(const char *name)
{
  for (size_t i = 0; i < validation_count(); ++i)
    if (strcmp(VALIDATION[i].name, name) == 0)
      return &VALIDATION[i];
  return NULL;
}
