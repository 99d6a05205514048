/* SPDX-License-Identifier: GPL-3.0-or-later */
/* group.c: the launches of a profile grouped into entries, one per kernel
 * and launch shape (issue 11): repeated launches count once, with the
 * median time, the counters of the launch that has it, and their number.
 * A kernel launched at several shapes becomes one entry per shape, named
 * with its shape.  Entries keep the order of their first launches. */
#include "group.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/status.h"

double sp__launch_ms(const sp_profile *p, const sp__launch *l) {
  size_t t = p->ctx[CTX_TIME], e = p->ctx[CTX_TIME_END];
  if (t == (size_t)-1) return NAN;
  /* ncu: gpu__time_duration in ns; rocprofv3: start and end stamps in ns. */
  double ns = e == (size_t)-1 ? l->v[t] : l->v[e] - l->v[t];
  return ns * 1e-6;
}

typedef struct item {
  const sp__launch *l;
  size_t index;
  double ms;
} item;

/* By kernel, shape, then time (launches without one last), then order. */
static int by_key(const void *a, const void *b) {
  const item *x = a, *y = b;
  int c = strcmp(x->l->kernel, y->l->kernel);
  if (!c) c = strcmp(x->l->shape, y->l->shape);
  if (!c && isnan(x->ms) != isnan(y->ms)) c = isnan(x->ms) ? 1 : -1;
  if (!c && x->ms != y->ms && !isnan(x->ms)) c = x->ms < y->ms ? -1 : 1;
  if (!c) c = x->index < y->index ? -1 : x->index > y->index;
  return c;
}

static int same_entry(const item *a, const item *b) {
  return strcmp(a->l->kernel, b->l->kernel) == 0 && strcmp(a->l->shape, b->l->shape) == 0;
}

static int by_first(const void *a, const void *b) {
  const sp__entry *x = a, *y = b;
  return x->first < y->first ? -1 : x->first > y->first;
}

/* The entry of items[0..n), one kernel at one shape, sorted by time. */
static void summarize(const item *it, size_t n, sp__entry *e) {
  size_t timed = 0;
  e->first = it[0].index;
  e->total_ms = 0.0;
  for (size_t i = 0; i < n; i++) {
    if (it[i].index < e->first) e->first = it[i].index;
    if (!isnan(it[i].ms)) {
      timed++;
      e->total_ms += it[i].ms;
    }
  }
  e->count = n;
  e->rep = it[timed ? (timed - 1) / 2 : 0].index;
  e->median_ms = !timed      ? NAN
                 : timed % 2 ? it[timed / 2].ms
                             : 0.5 * (it[timed / 2 - 1].ms + it[timed / 2].ms);
  if (!timed) e->total_ms = NAN;
}

/* "kernel", or "kernel [grid ... block ...]" when it has several shapes. */
static char *entry_name(const sp__launch *l, int several) {
  size_t n = strlen(l->kernel) + strlen(l->shape) + 4;
  char *s = malloc(n);
  if (s && several)
    snprintf(s, n, "%s [%s]", l->kernel, l->shape);
  else if (s)
    snprintf(s, n, "%s", l->kernel);
  return s;
}

static int name_entries(sp_profile *p, const item *it, const size_t *start) {
  for (size_t g = 0; g < p->nentries; g++) {
    const sp__launch *l = it[start[g]].l;
    int several = (g > 0 && strcmp(it[start[g - 1]].l->kernel, l->kernel) == 0) ||
                  (g + 1 < p->nentries && strcmp(it[start[g + 1]].l->kernel, l->kernel) == 0);
    if (!(p->entries[g].name = entry_name(l, several))) return SP_ENOMEM;
  }
  return SP_OK;
}

int sp__profile_group(sp_profile *p, sp_error *err) {
  size_t n = p->nlaunches;
  item *it = malloc((n + 1) * sizeof *it);
  size_t *start = malloc((n + 1) * sizeof *start);
  p->entries = calloc(n + 1, sizeof *p->entries);
  int st = it && start && p->entries ? SP_OK : SP_ENOMEM;
  for (size_t i = 0; i < n && !st; i++)
    it[i] = (item){&p->launches[i], i, sp__launch_ms(p, &p->launches[i])};
  if (!st) qsort(it, n, sizeof *it, by_key);
  for (size_t i = 0; i < n && !st; i++)
    if (i == 0 || !same_entry(&it[i - 1], &it[i])) start[p->nentries++] = i;
  start[p->nentries] = n;
  for (size_t g = 0; g < p->nentries && !st; g++)
    summarize(it + start[g], start[g + 1] - start[g], &p->entries[g]);
  if (!st) st = name_entries(p, it, start);
  if (!st) qsort(p->entries, p->nentries, sizeof *p->entries, by_first);
  free(it);
  free(start);
  return st ? sp__fail(err, st, p->path, 0, 0, NULL, "out of memory") : SP_OK;
}
