/* SPDX-License-Identifier: GPL-3.0-or-later */
/* profile.c: sp_profile, the object a profile is read into (load.c): the
 * launches the readers add (ncuread.c, rocread.c) with a value per wanted
 * metric, the lookups they share, the name of a further pass's CSV in a
 * profile directory (second.c and profileout.c both say it), and its
 * accessors. */
#include "profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/bounds.h"
#include "util/status.h"

long sp__profile_column(const char *const *fields, size_t n, const char *name) {
  for (size_t c = 0; c < n; c++)
    if (strcmp(fields[c], name) == 0) return (long)c;
  return -1;
}

size_t sp__profile_metric(const sp_profile *p, const char *name) {
  for (size_t i = 0; i < p->nmetrics; i++)
    if (strcmp(p->metrics[i], name) == 0) return i;
  return (size_t)-1;
}

int sp__profile_push(sp_profile *p, const char *kernel, const char *shape, long line,
                     sp__launch **out, sp_error *err) {
  if (p->nlaunches == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 64;
    sp__launch *l = realloc(p->launches, cap * sizeof *l);
    if (!l) return sp__fail(err, SP_ENOMEM, p->path, line, 0, NULL, "out of memory");
    p->launches = l;
    p->cap = cap;
  }
  sp__launch *l = &p->launches[p->nlaunches];
  l->kernel = strdup(kernel);
  l->shape = strdup(shape);
  l->v = malloc((p->nmetrics + 1) * sizeof *l->v);
  l->line = line;
  l->id = NAN;
  if (!l->kernel || !l->shape || !l->v) {
    free(l->kernel);
    free(l->shape);
    free(l->v);
    return sp__fail(err, SP_ENOMEM, p->path, line, 0, NULL, "out of memory");
  }
  for (size_t i = 0; i < p->nmetrics; i++) l->v[i] = NAN;
  p->nlaunches++;
  *out = l;
  return SP_OK;
}

int sp__check_kernel(const sp_profile *p, const char *name, long line, long col, sp_error *err) {
  if (*name) return SP_OK;
  return sp__fail(err, SP_EPARSE, p->path, line, col + 1,
                  p->vendor == SP_VENDOR_NVIDIA ? "Kernel Name" : "Kernel_Name",
                  "empty kernel name");
}

int sp__check_launch_ns(const sp_profile *p, double ns, const char *text, long line, long col,
                        const char *field, sp_error *err) {
  const sp_bound *b = sp__bound(SP_BOUND_TIME_MS);
  const double ms = ns * 1e-6;
  if (ms >= b->lo && ms <= b->hi) return SP_OK;
  return sp__fail(err, SP_EPARSE, p->path, line, col + 1, field,
                  "'%s' is not a launch time: %g ms is outside the accepted range, %s", text, ms,
                  b->range);
}

void sp__second_file(const sp_profile *p, const sp__second *s, char *buf, size_t size) {
  size_t rank = 0;
  for (size_t i = 0; i < p->nsecond && &p->second[i] != s; i++) rank += p->second[i].path != NULL;
  if (rank == 0)
    snprintf(buf, size, "profile-second-raw.csv");
  else
    snprintf(buf, size, "profile-second-raw-%d.csv", s->sms);
}

void sp_profile_free(sp_profile *p) {
  if (!p) return;
  for (size_t i = 0; i < p->nlaunches; i++) {
    free(p->launches[i].kernel);
    free(p->launches[i].shape);
    free(p->launches[i].v);
  }
  for (size_t i = 0; i < p->nentries; i++) free(p->entries[i].name);
  for (size_t i = 0; i < p->nmetrics; i++) free(p->metrics[i]);
  for (size_t i = 0; i < p->nmissing; i++) free(p->missing[i]);
  for (size_t i = 0; i < p->cols.hcap; i++) free(p->cols.hkey[i]);
  free(p->cols.hkey);
  free(p->cols.hval);
  free(p->cols.metric);
  free(p->launches);
  free(p->entries);
  free(p->metrics);
  free(p->missing);
  free(p->seen);
  free(p->scale);
  free(p->source);
  free(p->rules);
  free(p->at);
  free(p->device);
  for (size_t i = 0; i < p->nsecond; i++) {
    free(p->second[i].ms);
    free(p->second[i].path);
    free(p->second[i].note);
  }
  free(p->second);
  free(p->note);
  free(p->origin);
  free(p->path);
  free(p);
}

int sp_profile_vendor(const sp_profile *p) { return p->vendor; }
size_t sp_profile_launch_count(const sp_profile *p) { return p->nlaunches; }
size_t sp_profile_entry_count(const sp_profile *p) { return p->nentries; }
size_t sp_profile_missing_count(const sp_profile *p) { return p->nmissing; }
const char *sp_profile_missing(const sp_profile *p, size_t i) {
  return i < p->nmissing ? p->missing[i] : NULL;
}
const char *sp_profile_device(const sp_profile *p) { return p->device ? p->device : ""; }

int sp__replace_text(char **slot, const char *text) {
  char *c = text ? strdup(text) : NULL;
  if (text && !c) return SP_ENOMEM;
  free(*slot);
  *slot = c;
  return SP_OK;
}

int sp_profile_set_source(sp_profile *p, const char *source) {
  return sp__replace_text(&p->origin, source);
}
