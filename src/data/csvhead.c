/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csvhead.c: named columns in CSV headers. */
#include "csvhead.h"

#include <string.h>

char *sp__csv_trim(char *s) {
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = 0;
  size_t lead = strspn(s, " \t");
  if (lead) memmove(s, s + lead, n - lead + 1);
  return s;
}

long sp__csv_column(const sp_csv_row *header, const char *const *names) {
  return sp__csv_column_after(header, -1, names);
}

long sp__csv_column_after(const sp_csv_row *header, long after, const char *const *names) {
  for (size_t i = (size_t)(after + 1); i < header->nfields; i++) {
    const char *f = sp__csv_trim(header->fields[i]);
    for (const char *const *n = names; *n; n++)
      if (!strcmp(f, *n)) return (long)i;
  }
  return -1;
}
