/* SPDX-License-Identifier: GPL-3.0-or-later */
/* inputs.c: what the commands that apply a saved model to a workload (dse,
 * governor, export) read, and the note they print about counters clamped to
 * the model's training range. */
#include <limits.h>

#include "cli.h"

int cli_load_inputs(const char *model_dir, const char *method, const char *runs,
                    const char *counters, sp_model **m, sp_dataset **ds, sp_error *err) {
  char dir[PATH_MAX];
  *m = NULL;
  *ds = NULL;
  /* A directory, or a bundled model's name, as every command takes it. */
  int st = cli_find_model(model_dir, dir, sizeof dir, err);
  if (!st) st = sp_model_load(dir, m, err);
  if (!st && method) st = cli_use_method(*m, method, dir, err);
  if (!st && runs) st = cli_dataset_load(runs, counters, ds, err);
  if (st && !err->status) err->status = st;
  if (st) { /* nothing half-loaded is handed back (a leak otherwise) */
    sp_dataset_free(*ds);
    sp_model_free(*m);
    *ds = NULL;
    *m = NULL;
  }
  return st;
}

void cli_note_clamped(const char *kernel, size_t clamped, const char *first) {
  if (!clamped) return;
  fputs("scalepredict: note: kernel '", stderr);
  cli_put_text(stderr, kernel);
  fprintf(stderr, "': %zu counter value%s outside the training range (first: %s) clamped to it\n",
          clamped, clamped == 1 ? "" : "s", first ? first : "?");
}
