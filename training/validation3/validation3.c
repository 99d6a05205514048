/* SPDX-License-Identifier: GPL-3.0-or-later */
/* validation3.c: the third validation suite's table, in run order, and the
 * helpers its setup functions share. */
#include <string.h>

#include "validation3.h"

/* Expected scaling classes are the author's guesses, written down before any
 * measurement (README.md repeats them); they are not used by the model. */
static const kdesc VALIDATION3[] = {
    {NULL, NULL, NULL, NULL, 0},
};

size_t validation3_count(void) { return sizeof VALIDATION3 / sizeof *VALIDATION3 - 1; }

const kdesc *validation3_at(size_t i) { return i < validation3_count() ? &VALIDATION3[i] : NULL; }

const kdesc *validation3_find(const char *name) {
  for (size_t i = 0; i < validation3_count(); ++i)
    if (strcmp(VALIDATION3[i].name, name) == 0) return &VALIDATION3[i];
  return NULL;
}

void *xref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, double rtol, double atol) {
  const size_t count = n < X_SAMPLES ? n : X_SAMPLES;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}

int xin_f32(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 4, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f32(job->buf[b].host, n, r, lo, hi);
  return b;
}

int xbuf_u32(kjob *job, size_t n, kb_role role) {
  int b = kjob_buf(job, n * 4, role);
  if (role != KB_OUT && job->buf[b].host == NULL) return -1;
  return b;
}
