/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_config.c: the configuration notation ("32cu/1000/1375").
 *
 * Properties: parsing never reads past the string; a rejected text leaves
 * an error naming the field; an accepted one has three positive parts and
 * survives format -> parse unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "scalepredict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  sp_config c;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_config_parse(text, &c, &err);
  if (st != SP_OK) {
    FZ_CHECK(st == SP_EPARSE && err.status == SP_EPARSE);
    FZ_CHECK(err.message[0] != '\0');
    char line[2048];
    FZ_CHECK(sp_error_format(&err, line, sizeof line) > 0);
    if (fz_verbose()) printf("%s\n", line);
  } else {
    if (fz_verbose()) printf("%dcu/%d/%d\n", c.cu, c.engine_mhz, c.memory_mhz);
    FZ_CHECK(c.cu > 0 && c.engine_mhz > 0 && c.memory_mhz > 0);
    char buf[64];
    int n = sp_config_format(&c, buf, sizeof buf);
    FZ_CHECK(n > 0 && (size_t)n < sizeof buf);
    sp_config again;
    FZ_CHECK(sp_config_parse(buf, &again, NULL) == SP_OK);
    FZ_CHECK(sp_config_equal(&c, &again));
  }
  free(text);
  return 0;
}
