/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_ptx.c: the PTX reader behind scalepredict estimate.
 *
 * The input is PTX text; the kernel looked for is "k", and, when that is
 * not there, "tiny" (the seed corpus's kernels).  Properties: reading never
 * goes past the text; a rejected text leaves an error of a known status
 * with a message (a parse error names a line within the text, and a column
 * on that line when it names one); an accepted
 * one has every feature finite and non-negative but the launch shape,
 * which is NaN without a launch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "scalepredict.h"

/* The length of line (1-based) of text, without its newline. */
static long line_length(const char *text, size_t size, long line) {
  size_t i = 0;
  for (long l = 1; l < line && i < size; i++) l += text[i] == '\n';
  size_t j = i;
  while (j < size && text[j] != '\n') j++;
  return (long)(j - i);
}

static void check(const uint8_t *data, size_t size, const char *kernel) {
  char *text = malloc(size ? size : 1);
  if (!text) return;
  memcpy(text, data, size);
  sp_kernel_features *f = NULL;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_ptx_features_mem(text, size, "fuzz.ptx", kernel, NULL, &f, &err);
  if (st) {
    FZ_CHECK(!f && err.status == st && err.message[0] != '\0');
    FZ_CHECK(st == SP_EPARSE || st == SP_ENOTFOUND || st == SP_EINVAL || st == SP_ENOMEM);
    long lines = 1;
    for (size_t i = 0; i < size; i++) lines += text[i] == '\n';
    FZ_CHECK(st != SP_EPARSE || (err.line >= 1 && err.line <= lines));
    /* A column, where there is one, lies on its line (or just past its end). */
    FZ_CHECK(err.column == 0 ||
             (err.column >= 1 && err.column <= line_length(text, size, err.line) + 1));
    if (fz_verbose()) printf("%s:%ld: %s\n", err.file, err.line, err.message);
  } else {
    for (size_t i = 0; i < sp_kernel_features_count(f); i++) {
      double v = sp_kernel_features_value(f, i);
      const char *name = sp_kernel_features_name(f, i);
      int launch = !strcmp(name, "grid_blocks") || !strcmp(name, "block_threads") ||
                   !strcmp(name, "threads") || !strcmp(name, "dyn_shared_bytes") ||
                   !strcmp(name, "shared_bytes");
      FZ_CHECK(launch ? isnan(v) : isfinite(v) && v >= 0);
    }
    if (fz_verbose()) printf("entry %s\n", sp_kernel_features_entry(f));
  }
  sp_kernel_features_free(f);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  check(data, size, "k");
  check(data, size, "tiny");
  return 0;
}
