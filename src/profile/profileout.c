/* SPDX-License-Identifier: GPL-3.0-or-later */
/* profileout.c: a profile as the model's input, written as a new directory at
 * once: runs.csv (each entry's median time at the base configuration),
 * counters.csv (the model's counters, computed by metricmap.c from the
 * entry's median launch), launches.csv (how often each entry ran, its
 * total time, the kernel and launch shape), profile.txt (the device and
 * clocks the profile saw) and profile-raw.csv (the profile as read),
 * with further SM counts (second.c) their rows in runs.csv and their CSVs
 * as profile-second-raw.csv (and -SMS.csv),
 * marked .scalepredict-profile: no other kind of output replaces it.
 * Everything is checked before a byte is written. */
#include "profile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fsutil.h"
#include "util/reportdir.h"
#include "util/status.h"
#include "util/textout.h"

typedef struct output {
  const sp_profile *p;
  sp_config base;
  double *counters; /* entry e's counter c at [e * ncounters + c] */
  const char *raw;  /* the profile as read: p->path, or the copy a rewrite keeps */
} output;

static double counter_of(const sp_profile *p, const sp__launch *l, size_t c) {
  double v[SP_RULE_METRICS];
  const sp_counter_rule *r = p->rules[c];
  for (size_t j = 0; j < sp__rule_metric_count(r); j++) v[j] = l->v[p->at[c][j]];
  return r->fn(v);
}

/* "a, b, c" of up to n names into buf. */
static void join(char *buf, size_t size, const char *const *names, size_t n) {
  size_t o = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && o < size; i++) {
    int w = snprintf(buf + o, size - o, "%s%s", i ? ", " : "", names[i]);
    o += w > 0 ? (size_t)w : 0;
  }
}

/* Every counter of every entry; an entry whose counters or time cannot be
 * computed (values "n/a" in the profile) is named with all of them. */
static int compute(output *o, sp_error *err) {
  const sp_profile *p = o->p;
  const char **bad = malloc((p->ncounters + 1) * sizeof *bad);
  if (!bad) return sp__fail(err, SP_ENOMEM, p->path, 0, 0, NULL, "out of memory");
  int st = SP_OK;
  for (size_t e = 0; e < p->nentries && !st; e++) {
    const sp__entry *en = &p->entries[e];
    const sp__launch *l = &p->launches[en->rep];
    size_t nbad = 0;
    if (isnan(en->median_ms)) bad[nbad++] = "time";
    for (size_t c = 0; c < p->ncounters; c++)
      if (isnan(o->counters[e * p->ncounters + c] = counter_of(p, l, c)))
        bad[nbad++] = p->rules[c]->counter;
    char list[400];
    join(list, sizeof list, bad, nbad);
    if (nbad)
      st = sp__fail(err, SP_ENOTFOUND, p->path, l->line, 0, bad[0],
                    "kernel '%s': no value for %s (its metrics read n/a)", en->name, list);
  }
  free(bad);
  return st;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The median over the launches of context metric k (Hz to MHz by scale),
 * NaN when the profile has none. */
static double median_ctx(const sp_profile *p, int k, double scale) {
  size_t i = p->ctx[k], n = 0;
  double *v = i == (size_t)-1 ? NULL : malloc((p->nlaunches + 1) * sizeof *v);
  for (size_t l = 0; v && l < p->nlaunches; l++)
    if (!isnan(p->launches[l].v[i])) v[n++] = p->launches[l].v[i] * scale;
  if (n) qsort(v, n, sizeof *v, by_value);
  double m = n ? v[(n - 1) / 2] : NAN;
  free(v);
  return m;
}

static int check(const sp_profile *p, const sp_config *base, sp_error *err) {
  if (p->nmissing) {
    char list[400];
    join(list, sizeof list, (const char *const *)p->missing, p->nmissing);
    return sp__fail(err, SP_ENOTFOUND, p->path, p->header_line, 0, p->missing[0],
                    "%zu metric(s) the model needs are not in the profile: %s", p->nmissing, list);
  }
  if (p->nentries == 0)
    return sp__fail(err, SP_ENOTFOUND, p->path, 0, 0, NULL, "the profile holds no kernel launch");
  size_t s = p->ctx[CTX_SMS];
  double sms = s == (size_t)-1 ? NAN : p->launches[0].v[s];
  if (!isnan(sms) && sms != base->cu)
    return sp__fail(err, SP_EGRID, p->path, p->launches[0].line, 0, "launch__sm_count",
                    "profiled on %.0f SMs, but the base configuration has %d: profile "
                    "on the whole device (no green context or MPS limit), or give the "
                    "base the profile has",
                    sms, base->cu);
  /* The memory clock tells the card apart where the SM count does not (an
   * H100's HBM3 at 2619 MHz, an H200's HBM3e at 3201): a profile taken on
   * one card and written at the other's base would be predicted as the
   * wrong memory system.  HBM runs at its clock; 10% leaves room for a
   * counter's rounding and a board's own. */
  double mem = median_ctx(p, CTX_MEM_HZ, 1e-6);
  if (!isnan(mem) && fabs(mem - base->memory_mhz) > 0.1 * base->memory_mhz)
    return sp__fail(err, SP_EGRID, p->path, p->launches[0].line, 0,
                    "dram__cycles_elapsed.avg.per_second",
                    "profiled with the memory at %.0f MHz, but the base configuration's is %d "
                    "MHz: give the base of the card profiled on (--base; 'scalepredict info' "
                    "lists the model's)",
                    mem, base->memory_mhz);
  return SP_OK;
}

static int key_columns(const output *o, FILE *fp, const char *name) {
  sp__csv_quoted(fp, name);
  return fprintf(fp, ",%d,%d,%d", o->base.cu, o->base.engine_mhz, o->base.memory_mhz) < 0;
}

static int write_runs(const void *data, FILE *fp) {
  const output *o = data;
  fputs("kernel,cu,engine_mhz,memory_mhz,time_ms,power_w" SP_CSV_EOL, fp);
  for (size_t e = 0; e < o->p->nentries; e++) {
    key_columns(o, fp, o->p->entries[e].name);
    fprintf(fp, ",%.6g," SP_CSV_EOL, o->p->entries[e].median_ms);
  }
  /* Each further point: the same entries at its SM count, the base's clocks. */
  for (size_t i = 0; i < o->p->nsecond; i++)
    for (size_t e = 0; o->p->second[i].ms && e < o->p->nentries; e++) {
      sp__csv_quoted(fp, o->p->entries[e].name);
      fprintf(fp, ",%d,%d,%d,%.6g," SP_CSV_EOL, o->p->second[i].sms, o->base.engine_mhz,
              o->base.memory_mhz, o->p->second[i].ms[e]);
    }
  return ferror(fp) ? SP_EIO : SP_OK;
}

static int write_counters(const void *data, FILE *fp) {
  const output *o = data;
  const sp_profile *p = o->p;
  fputs("kernel,cu,engine_mhz,memory_mhz", fp);
  for (size_t c = 0; c < p->ncounters; c++) fprintf(fp, ",%s", p->rules[c]->counter);
  fputs(SP_CSV_EOL, fp);
  for (size_t e = 0; e < p->nentries; e++) {
    key_columns(o, fp, p->entries[e].name);
    for (size_t c = 0; c < p->ncounters; c++)
      fprintf(fp, ",%.6g", o->counters[e * p->ncounters + c]);
    fputs(SP_CSV_EOL, fp);
  }
  return ferror(fp) ? SP_EIO : SP_OK;
}

static int write_launches(const void *data, FILE *fp) {
  const sp_profile *p = ((const output *)data)->p;
  fputs("kernel,count,median_time_ms,total_time_ms,function,shape" SP_CSV_EOL, fp);
  for (size_t e = 0; e < p->nentries; e++) {
    const sp__entry *en = &p->entries[e];
    sp__csv_quoted(fp, en->name);
    fprintf(fp, ",%zu,%.6g,%.6g,", en->count, en->median_ms, en->total_ms);
    sp__csv_quoted(fp, p->launches[en->rep].kernel);
    fputc(',', fp);
    sp__csv_quoted(fp, p->launches[en->rep].shape);
    fputs(SP_CSV_EOL, fp);
  }
  return ferror(fp) ? SP_EIO : SP_OK;
}

static void put_value(FILE *fp, const char *key, double v) {
  if (isnan(v))
    fprintf(fp, "%s: -\n", key);
  else
    fprintf(fp, "%s: %.6g\n", key, v);
}

static int write_info(const void *data, FILE *fp) {
  const output *o = data;
  const sp_profile *p = o->p;
  char base[64];
  sp_config_format(&o->base, base, sizeof base);
  fprintf(fp, "source: %s\nprofiler: %s\ndevice: %s\nbase: %s\n", p->origin ? p->origin : p->path,
          p->vendor == SP_VENDOR_NVIDIA ? "ncu" : "rocprofv3", sp_profile_device(p), base);
  put_value(fp, "sm_count", median_ctx(p, CTX_SMS, 1.0));
  put_value(fp, "sm_clock_mhz", median_ctx(p, CTX_SM_HZ, 1e-6));
  put_value(fp, "memory_clock_mhz", median_ctx(p, CTX_MEM_HZ, 1e-6));
  for (size_t i = 0; i < p->nmetrics; i++)
    if (p->source[i])
      fprintf(fp, "metric %s: %g x %s (the profile lacks it)\n", p->metrics[i], p->scale[i],
              p->source[i]);
  fprintf(fp, "launches: %zu\nentries: %zu\n", p->nlaunches, p->nentries);
  /* One line per further pass: "second: CFG: how chosen" for a point,
   * "second: none: why" for a pass that gave none. */
  for (size_t i = 0; i < p->nsecond; i++) {
    const sp__second *s = &p->second[i];
    sp_config c = o->base;
    c.cu = s->sms;
    sp_config_format(&c, base, sizeof base);
    if (s->ms)
      fprintf(fp, "second: %s%s%s\n", base, s->note ? ": " : "", s->note ? s->note : "");
    else
      fprintf(fp, "second: none: %s%s\n", s->note ? s->note : "no point at ", s->note ? "" : base);
  }
  if (!p->nsecond && p->note) fprintf(fp, "second: none: %s\n", p->note);
  return ferror(fp) ? SP_EIO : SP_OK;
}

static int copy_file(const char *path, FILE *fp) {
  FILE *in = fopen(path, "rb");
  char buf[65536];
  size_t n;
  if (!in) return SP_EIO;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, fp) != n) break;
  int st = ferror(in) || ferror(fp) ? SP_EIO : SP_OK;
  fclose(in);
  return st;
}

static int copy_raw(const void *data, FILE *fp) {
  return copy_file(((const output *)data)->raw, fp);
}

static int copy_second(const void *data, FILE *fp) {
  return copy_file(((const sp__second *)data)->path, fp);
}

static int write_all(const output *o, const char *dir, sp_error *err) {
  static const struct {
    const char *name;
    sp_report_fn fn;
  } files[] = {{"runs.csv", write_runs},
               {"counters.csv", write_counters},
               {"launches.csv", write_launches},
               {"profile.txt", write_info},
               {"profile-raw.csv", copy_raw}};
  sp_reportdir d;
  sp_c_numeric loc;
  sp__c_numeric_begin(&loc);
  int st = sp__reportdir_begin_as(&d, dir, SP_OUTPUT_PROFILE, err);
  for (size_t i = 0; i < sizeof files / sizeof *files && !st; i++)
    st = sp__reportdir_file(&d, files[i].name, files[i].fn, o, err);
  for (size_t i = 0; i < o->p->nsecond && !st; i++) {
    char name[64];
    const sp__second *s = &o->p->second[i];
    sp__second_file(o->p, s, name, sizeof name);
    if (s->path) st = sp__reportdir_file(&d, name, copy_second, s, err);
  }
  if (!st) st = sp__reportdir_commit(&d, err);
  sp__reportdir_abort(&d, err);
  sp__c_numeric_end(&loc);
  return st;
}

static int write_profile(const sp_profile *p, const sp_config *base, const char *dir,
                         const char *raw, sp_error *err) {
  int st = check(p, base, err);
  output o = {p, *base, NULL, raw};
  if (!st && !(o.counters = malloc((p->nentries * p->ncounters + 1) * sizeof *o.counters)))
    st = sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  if (!st) st = compute(&o, err);
  if (!st) st = write_all(&o, dir, err);
  free(o.counters);
  return st;
}

int sp_profile_write(const sp_profile *p, const sp_config *base, const char *dir, sp_error *err) {
  struct stat sb;
  if (stat(dir, &sb) == 0 || errno != ENOENT)
    return sp__fail(err, SP_EIO, dir, 0, 0, NULL,
                    "already exists: a profile is written into a new directory, "
                    "never over one");
  return write_profile(p, base, dir, p->path, err);
}

int sp_profile_rewrite(const sp_profile *p, const sp_config *base, const char *dir, sp_error *err) {
  struct stat sb;
  if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
    return sp__fail(err, SP_EIO, dir, 0, 0, NULL,
                    "no profile directory to add the second point to");
  /* The profile as read was copied in by sp_profile_write; p's own source
   * may be gone (the profiler's temporary output). */
  char *raw = sp__path_join(dir, "profile-raw.csv");
  if (!raw) return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  int st = write_profile(p, base, dir, raw, err);
  free(raw);
  return st;
}
