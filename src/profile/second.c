/* SPDX-License-Identifier: GPL-3.0-or-later */
/* second.c: a profile's further points (docs/profile.md, "Two points"):
 * the SM count the model would measure second, and each further pass's
 * launch times matched to the base pass's launches, rank by rank, and
 * summed up per entry as the base's are (median over its launches), with
 * the note profile.txt says for it. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group.h"
#include "load.h"
#include "profile.h"
#include "util/status.h"

const char *sp_profile_second_metrics(void) { return "gpu__time_duration.sum,launch__sm_count"; }

/* The SM counts of m's grid at base's clocks below base's, ascending into
 * cu (at most max); their number. */
static size_t levels_below(const sp_model *m, const sp_config *base, int *cu, size_t max) {
  size_t n = 0;
  for (size_t i = 0; i < sp_model_config_count(m, SP_TIME) && n < max; i++) {
    sp_config c = sp_model_config_at(m, SP_TIME, i);
    if (c.engine_mhz != base->engine_mhz || c.memory_mhz != base->memory_mhz || c.cu >= base->cu)
      continue;
    size_t j = n++;
    while (j > 0 && cu[j - 1] > c.cu) {
      cu[j] = cu[j - 1];
      j--;
    }
    cu[j] = c.cu;
  }
  return n;
}

/* "second_sms N" from model_dir/second-sms.txt: N, 0 without the file or
 * the line, -1 with a line that is not an SM count. */
static int recommended(const char *model_dir, char *line, size_t size) {
  char path[4096];
  if (!model_dir || snprintf(path, sizeof path, "%s/second-sms.txt", model_dir) >= (int)sizeof path)
    return 0;
  FILE *fp = fopen(path, "r");
  int n = 0;
  while (fp && n == 0 && fgets(line, (int)size, fp)) {
    char *end;
    if (strncmp(line, "second_sms ", 11)) continue;
    long v = strtol(line + 11, &end, 10);
    while (isspace((unsigned char)*end)) end++;
    n = *end || v < 1 || v > 100000 ? -1 : (int)v;
  }
  if (fp) fclose(fp);
  return n;
}

int sp_profile_second_choice(const char *model_dir, const sp_model *m, const sp_config *base,
                             int *sms, char *why, size_t size) {
  int cu[256], best = -1;
  size_t n = levels_below(m, base, cu, sizeof cu / sizeof *cu);
  char line[256];
  int want = recommended(model_dir, line, sizeof line);
  *sms = 0;
  if (n == 0) {
    snprintf(why, size, "the model's grid has no SM count below the base's %d", base->cu);
    return SP_ENOTFOUND;
  }
  for (size_t i = 0; i < n && want > 0; i++)
    if (cu[i] == want) best = (int)i;
  if (best >= 0) {
    *sms = cu[best];
    snprintf(why, size,
             "the model's choice (its second-sms.txt: the level that cuts its error most)");
    return SP_OK;
  }
  best = 0;
  for (size_t i = 1; i < n; i++)
    if (fabs(cu[i] - base->cu / 2.0) < fabs(cu[best] - base->cu / 2.0)) best = (int)i;
  *sms = cu[best];
  snprintf(why, size, "the grid's level nearest half the base's %d SMs (%s)", base->cu,
           want ? "the model's second-sms.txt names no level of the grid below the base"
                : "the model carries no choice: no second-sms.txt");
  return SP_OK;
}

size_t sp_profile_second_count(const sp_profile *p) {
  size_t n = 0;
  for (size_t i = 0; i < p->nsecond; i++) n += p->second[i].ms != NULL;
  return n;
}

int sp_profile_second_sms(const sp_profile *p, size_t i) {
  for (size_t k = 0; k < p->nsecond; k++)
    if (p->second[k].ms && i-- == 0) return p->second[k].sms;
  return 0;
}

/* The pass at sms SMs, or NULL. */
static sp__second *find_pass(sp_profile *p, int sms) {
  for (size_t i = p->nsecond; i-- > 0;)
    if (p->second[i].sms == sms) return &p->second[i];
  return NULL;
}

/* The pass at sms SMs, added (empty) when p has none; NULL out of memory. */
static sp__second *pass_at(sp_profile *p, int sms) {
  sp__second *s = find_pass(p, sms);
  if (s) return s;
  s = realloc(p->second, (p->nsecond + 1) * sizeof *s);
  if (!s) return NULL;
  p->second = s;
  s = &p->second[p->nsecond++];
  *s = (sp__second){sms, NULL, NULL, NULL};
  return s;
}

int sp_profile_second_file(const sp_profile *p, int sms, char *buf, size_t size) {
  const sp__second *s = find_pass((sp_profile *)p, sms);
  if (!s || !s->path) return SP_ENOTFOUND;
  sp__second_file(p, s, buf, size);
  return SP_OK;
}

/* "second: CFG" (a point, not "none...") from a profile.txt line. */
static int second_line(const char *line, sp_config *cfg) {
  char text[128];
  sp_error err;
  if (strncmp(line, "second: ", 8) || strncmp(line + 8, "none", 4) == 0) return -1;
  size_t n = strcspn(line + 8, ": \r\n");
  if (n >= sizeof text) return -1;
  memcpy(text, line + 8, n);
  text[n] = '\0';
  return sp_config_parse(text, cfg, &err) ? -1 : 0;
}

int sp_profile_dir_seconds(const char *dir, sp_config *cfg, size_t max, size_t *n) {
  char path[4096], line[1024];
  *n = 0;
  if (snprintf(path, sizeof path, "%s/profile.txt", dir) >= (int)sizeof path) return SP_ENOTFOUND;
  FILE *fp = fopen(path, "r");
  while (fp && *n < max && fgets(line, sizeof line, fp)) *n += second_line(line, &cfg[*n]) == 0;
  if (fp) fclose(fp);
  return *n ? SP_OK : SP_ENOTFOUND;
}

int sp_profile_set_note(sp_profile *p, const char *note) {
  return sp__replace_text(&p->note, note);
}

int sp_profile_second_note(sp_profile *p, int sms, const char *note) {
  sp__second *s = pass_at(p, sms);
  return s ? sp__replace_text(&s->note, note) : SP_ENOMEM;
}

/* Launch i of q against launch i of p: the same kernel and shape, on sms
 * SMs. */
static int match_launch(const sp_profile *p, const sp_profile *q, size_t i, int sms,
                        sp_error *err) {
  const sp__launch *a = &p->launches[i], *b = &q->launches[i];
  if (strcmp(a->kernel, b->kernel) || strcmp(a->shape, b->shape))
    return sp__fail(err, SP_EPARSE, q->path, b->line, q->cols.kernel + 1, "Kernel Name",
                    "launch %zu is '%s' [%s], but the base pass's launch %zu (line %ld of "
                    "its profile, profile-raw.csv) is '%s' [%s]: the program launched other "
                    "kernels at %d SMs",
                    i + 1, b->kernel, b->shape, i + 1, a->line, a->kernel, a->shape, sms);
  double got = b->v[q->ctx[CTX_SMS]];
  if (got != sms)
    return sp__fail(err, SP_EPARSE, q->path, b->line, q->cols.metric[q->ctx[CTX_SMS]] + 1,
                    "launch__sm_count",
                    "launch %zu ('%s') ran on %.0f SMs, not the green context's %d: the "
                    "program launches it from another thread or a context of its own",
                    i + 1, b->kernel, got, sms);
  return SP_OK;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Entry e's median time over q's launches of the same ranks as its own. */
static double entry_median(const sp_profile *p, const sp_profile *q, size_t e, double *v) {
  const sp__launch *rep = &p->launches[p->entries[e].rep];
  size_t n = 0;
  for (size_t i = 0; i < p->nlaunches; i++) {
    const sp__launch *l = &p->launches[i];
    if (strcmp(l->kernel, rep->kernel) == 0 && strcmp(l->shape, rep->shape) == 0)
      v[n++] = sp__launch_ms(q, &q->launches[i]);
  }
  qsort(v, n, sizeof *v, by_value);
  return n == 0 ? NAN : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int match_all(sp_profile *p, const sp_profile *q, int sms, sp_error *err) {
  if (q->vendor != SP_VENDOR_NVIDIA || q->nmissing)
    return sp__fail(err, SP_EPARSE, q->path, q->header_line, 0, "gpu__time_duration.sum",
                    "not the second pass's ncu raw CSV: it lacks %s",
                    q->nmissing ? q->missing[0] : "an Nsight Compute header");
  if (q->ctx[CTX_SMS] == (size_t)-1 || !q->seen[q->ctx[CTX_SMS]])
    return sp__fail(err, SP_EPARSE, q->path, q->header_line, 0, "launch__sm_count",
                    "the second pass's CSV lacks launch__sm_count: nothing shows the launches "
                    "ran on %d SMs",
                    sms);
  if (q->nlaunches != p->nlaunches)
    return sp__fail(err, SP_EPARSE, q->path, 0, 0, NULL,
                    "%zu launches at %d SMs, but %zu in the base pass (%s): the program did "
                    "not launch the same kernels twice",
                    q->nlaunches, sms, p->nlaunches, p->path);
  for (size_t i = 0; i < p->nlaunches; i++) {
    int st = match_launch(p, q, i, sms, err);
    if (st) return st;
  }
  return SP_OK;
}

int sp_profile_add_second(sp_profile *p, const char *path, int sms, sp_error *err) {
  sp__second *s = find_pass(p, sms);
  if (s && s->ms)
    return sp__fail(err, SP_EINVAL, path, 0, 0, NULL,
                    "the profile holds a point at %d SMs already (from %s)", sms, s->path);
  sp_profile *q = NULL;
  int st = sp__profile_load(path, NULL, &q, err);
  if (!st) st = match_all(p, q, sms, err);
  double *ms = NULL, *v = NULL;
  char *copy = strdup(path);
  if (!st) {
    ms = malloc((p->nentries + 1) * sizeof *ms);
    v = malloc((p->nlaunches + 1) * sizeof *v);
    if (!ms || !v || !copy) st = sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  }
  for (size_t e = 0; !st && e < p->nentries; e++) ms[e] = entry_median(p, q, e, v);
  /* Refused, the CSV is still kept, for the line the error names. */
  if (st != SP_ENOMEM && copy && !(s = pass_at(p, sms)))
    st = sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  if (st != SP_ENOMEM && copy) {
    free(s->path);
    s->path = copy;
    copy = NULL;
    if (!st) {
      s->ms = ms;
      ms = NULL;
    }
  }
  free(ms);
  free(v);
  free(copy);
  sp_profile_free(q);
  return st;
}
