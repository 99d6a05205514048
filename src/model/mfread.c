/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mfread.c: reading a method's saved file (mfread.h). */
#include "mfread.h"

#include <string.h>

#include "util/status.h"

int sp__mf_bad(const sp_mf_reader *r, const char *what) {
  return sp__fail(r->err, SP_EMODEL, r->path, r->line, 0, NULL, "%s", what);
}

char *sp__mf_line(sp_mf_reader *r, const char *key) {
  r->line++;
  if (getline(&r->buf, &r->cap, r->fp) <= 0) return NULL;
  size_t n = strlen(key);
  if (strncmp(r->buf, key, n) || (r->buf[n] != ' ' && r->buf[n] != '\n')) return NULL;
  return r->buf + n;
}

int sp__mf_forest(sp_mf_reader *r, sp_forest **f, size_t n, size_t nfeat) {
  long line;
  int st = sp__forest_load(r->fp, r->line + 1, &line, f);
  r->line = line;
  if (st == SP_ENOMEM) return sp__oom(r->err);
  if (st || sp__forest_samples(*f) != n || sp__forest_features(*f) != nfeat)
    return sp__mf_bad(r, "the forest is damaged or does not match the model");
  return SP_OK;
}
