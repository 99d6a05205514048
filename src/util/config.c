/* SPDX-License-Identifier: GPL-3.0-or-later */
/* config.c: the "32cu/1000/1375" configuration notation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalepredict.h"
#include "status.h"

/* Parses a positive decimal integer at *p, advancing it. */
static int take_positive(const char **p, int *out) {
  char *end;
  if (**p < '0' || **p > '9') return -1;
  long v = strtol(*p, &end, 10);
  if (v <= 0 || v > 1000000) return -1;
  *out = (int)v;
  *p = end;
  return 0;
}

int sp_config_parse(const char *text, sp_config *out, sp_error *err) {
  const char *p = text;
  sp_config c;
  int ok = take_positive(&p, &c.cu) == 0;
  if (ok && (p[0] == 'c' || p[0] == 'C') && (p[1] == 'u' || p[1] == 'U')) p += 2;
  ok = ok && *p++ == '/' && take_positive(&p, &c.engine_mhz) == 0;
  ok = ok && *p++ == '/' && take_positive(&p, &c.memory_mhz) == 0 && *p == '\0';
  if (!ok)
    return sp__fail(err, SP_EPARSE, NULL, 0, 0, "configuration",
                    "'%s' is not a configuration; expected CUcu/ENGINE/MEMORY "
                    "with positive integers, e.g. 32cu/1000/1375",
                    text);
  *out = c;
  return SP_OK;
}

int sp_config_format(const sp_config *cfg, char *buf, size_t size) {
  return snprintf(buf, size, "%dcu/%d/%d", cfg->cu, cfg->engine_mhz, cfg->memory_mhz);
}

int sp_config_equal(const sp_config *a, const sp_config *b) {
  return a->cu == b->cu && a->engine_mhz == b->engine_mhz && a->memory_mhz == b->memory_mhz;
}
