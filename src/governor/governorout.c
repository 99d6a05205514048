/* SPDX-License-Identifier: GPL-3.0-or-later */
/* governorout.c: governor comparisons as JSON, CSV and an HTML report. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "plot/palette.h"
#include "plot/svgplot.h"
#include "util/reportdir.h"
#include "util/status.h"
#include "util/textout.h"

#define DIGITS 6
/* Timelines draw at most this many steps per policy. */
#define MAX_STEPS 2000

/* The result the others are compared with: "reference" when present. */
static const sp_governor_result *baseline(const sp_governor_result *const *r, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(r[i]->policy, "reference")) return r[i];
  return n ? r[0] : NULL;
}

/* ---- CSV ------------------------------------------------------------------------- */

int sp_governor_write_summary_csv(const sp_governor_result *const *results, size_t n, FILE *fp) {
  sp_c_numeric loc;
  if (sp__c_numeric_begin(&loc)) return SP_ENOMEM;
  const sp_governor_result *b = baseline(results, n);
  fputs(
      "policy,time_ms,energy_mj,edp_mj_ms,avg_power_w,peak_power_w,over_cap,"
      "over_cap_time_ms,switches,switch_time_ms,switch_energy_mj,measured_invocations,"
      "invocations,time_vs_reference,energy_vs_reference" SP_CSV_EOL,
      fp);
  for (size_t i = 0; i < n; i++) {
    const sp_governor_result *r = results[i];
    sp_csv_write_field(fp, r->policy);
    const double v[5] = {r->time_ms, r->energy_mj, r->edp, r->avg_power_w, r->peak_power_w};
    for (int j = 0; j < 5; j++) {
      fputc(',', fp);
      sp__csv_number(fp, v[j], DIGITS);
    }
    fprintf(fp, ",%zu,", r->over_cap);
    sp__csv_number(fp, r->over_cap_time_ms, DIGITS);
    fprintf(fp, ",%zu,", r->switches);
    sp__csv_number(fp, r->switch_time_ms, DIGITS);
    fputc(',', fp);
    sp__csv_number(fp, r->switch_energy_mj, DIGITS);
    fprintf(fp, ",%zu,%zu,", r->measured, r->length);
    sp__csv_number(fp, r->time_ms / b->time_ms, DIGITS);
    fputc(',', fp);
    sp__csv_number(fp, r->energy_mj / b->energy_mj, DIGITS);
    fputs(SP_CSV_EOL, fp);
  }
  sp__c_numeric_end(&loc);
  return ferror(fp) ? SP_EIO : SP_OK;
}

static void step_row(FILE *fp, const sp_governor_trace *t, const sp_governor_result *r,
                     const sp_governor_outcome *o) {
  const sp_config *c = &t->configs[o->config];
  const sp_gov_entry *e = &t->entries[o->position];
  sp_csv_write_field(fp, r->policy);
  fprintf(fp, ",%zu,%ld,", o->position + 1, e->order);
  sp_csv_write_field(fp, t->kernels[e->kernel].name);
  fprintf(fp, ",%dcu/%d/%d,%d,%d,%d", c->cu, c->engine_mhz, c->memory_mhz, c->cu, c->engine_mhz,
          c->memory_mhz);
  const double v[3] = {o->time_ms, o->power_w, o->energy_mj};
  for (int j = 0; j < 3; j++) {
    fputc(',', fp);
    sp__csv_number(fp, v[j], DIGITS);
  }
  fprintf(fp, ",%u,", o->switches);
  sp__csv_number(fp, o->switch_time_ms, DIGITS);
  fputc(',', fp);
  sp__csv_number(fp, o->switch_energy_mj, DIGITS);
  fprintf(fp, ",%d,%d" SP_CSV_EOL, o->measured, o->over_cap);
}

int sp_governor_write_steps_csv(const sp_governor_trace *t,
                                const sp_governor_result *const *results, size_t n, FILE *fp) {
  sp_c_numeric loc;
  if (sp__c_numeric_begin(&loc)) return SP_ENOMEM;
  fputs(
      "policy,position,order,kernel,config,cu,engine_mhz,memory_mhz,time_ms,power_w,"
      "energy_mj,switches,switch_time_ms,switch_energy_mj,measured,over_cap" SP_CSV_EOL,
      fp);
  for (size_t i = 0; i < n; i++)
    for (size_t s = 0; s < results[i]->length; s++)
      step_row(fp, t, results[i], &results[i]->steps[s]);
  sp__c_numeric_end(&loc);
  return ferror(fp) ? SP_EIO : SP_OK;
}

/* ---- JSON --------------------------------------------------------------------------- */

static void json_key_number(FILE *fp, const char *key, double v) {
  fprintf(fp, ",\"%s\":", key);
  sp__json_number(fp, v, DIGITS);
}

static void json_params(FILE *fp, const sp_governor_trace *t, const sp_governor_params *p) {
  sp_config ref = p->reference.cu ? p->reference : sp_model_base(t->model);
  fprintf(fp, ",\n\"params\":{\"reference\":\"%dcu/%d/%d\"", ref.cu, ref.engine_mhz,
          ref.memory_mhz);
  json_key_number(fp, "power_cap_w", p->power_cap_w > 0 ? p->power_cap_w : NAN);
  json_key_number(fp, "slowdown", p->slowdown > 0 ? p->slowdown : NAN);
  json_key_number(fp, "switch_latency_us", p->switch_latency_us);
  json_key_number(fp, "switch_energy_mj", p->switch_energy_mj);
  fputc('}', fp);
}

static void json_result(FILE *fp, const sp_governor_result *r, const sp_governor_result *b) {
  fputs("{\"policy\":", fp);
  sp_json_write_string(fp, r->policy);
  json_key_number(fp, "time_ms", r->time_ms);
  json_key_number(fp, "energy_mj", r->energy_mj);
  json_key_number(fp, "edp", r->edp);
  json_key_number(fp, "avg_power_w", r->avg_power_w);
  json_key_number(fp, "peak_power_w", r->peak_power_w);
  fprintf(fp, ",\"over_cap\":%zu", r->over_cap);
  json_key_number(fp, "over_cap_time_ms", r->over_cap_time_ms);
  fprintf(fp, ",\"switches\":%zu", r->switches);
  json_key_number(fp, "switch_time_ms", r->switch_time_ms);
  json_key_number(fp, "switch_energy_mj", r->switch_energy_mj);
  fprintf(fp, ",\"measured_invocations\":%zu,\"invocations\":%zu", r->measured, r->length);
  json_key_number(fp, "time_vs_reference", r->time_ms / b->time_ms);
  json_key_number(fp, "energy_vs_reference", r->energy_mj / b->energy_mj);
  fputc('}', fp);
}

int sp_governor_write_json(const sp_governor_trace *t, const sp_governor_params *p,
                           const sp_governor_result *const *results, size_t n, FILE *fp) {
  sp_c_numeric loc;
  if (sp__c_numeric_begin(&loc)) return SP_ENOMEM;
  size_t measured = 0;
  for (size_t k = 0; k < t->nkernels; k++) measured += t->kernels[k].mt != NULL;
  fputs("{\"model\":", fp);
  sp_json_write_string(fp, sp_model_name(t->model));
  fputs(",\"trace\":", fp);
  sp_json_write_string(fp, t->path);
  fprintf(fp, ",\"invocations\":%zu,\"kernels\":%zu,\"measured_kernels\":%zu", t->length,
          t->nkernels, measured);
  json_params(fp, t, p);
  fputs(",\n\"policies\":[", fp);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? ",\n" : "\n", fp);
    json_result(fp, results[i], baseline(results, n));
  }
  fputs("]}\n", fp);
  sp__c_numeric_end(&loc);
  return ferror(fp) ? SP_EIO : SP_OK;
}

/* ---- report ----------------------------------------------------------------------------- */

typedef struct gov_report {
  const sp_governor_trace *t;
  const sp_governor_params *p;
  const sp_governor_result *const *r;
  size_t n;
} gov_report;

/* Time and energy of each policy relative to the baseline, as paired bars. */
static int svg_bars(const void *data, FILE *fp) {
  const gov_report *g = data;
  const sp_governor_result *b = baseline(g->r, g->n);
  double *v = malloc(2 * g->n * sizeof *v);
  const char **policies = malloc(g->n * sizeof *policies);
  int st = v && policies ? SP_OK : SP_ENOMEM;
  for (size_t i = 0; !st && i < g->n; i++) {
    policies[i] = g->r[i]->policy;
    v[i] = g->r[i]->time_ms / b->time_ms;
    v[g->n + i] = g->r[i]->energy_mj / b->energy_mj;
  }
  static const char *const series[2] = {"time", "energy"};
  const char *colors[2] = {sp__color(SP_COLOR_TIME), sp__color(SP_COLOR_ENERGY)};
  sp_chart c = {.title = "Time and energy of each policy, relative to the reference",
                .ylabel = "relative to the reference",
                .width = 640,
                .height = 340};
  sp_bars bars = {.groups = policies,
                  .ngroups = g->n,
                  .series = series,
                  .nseries = 2,
                  .colors = colors,
                  .v = v};
  if (!st) st = sp__svg_bars(fp, &c, &bars);
  free(v);
  free(policies);
  return st;
}

/* One policy's value during each (sampled) step against elapsed time, into
 * x and y (room for 2 * (MAX_STEPS + 1) points); returns the count. */
static size_t timeline(const sp_governor_trace *t, const sp_governor_result *r, int engine,
                       double *x, double *y) {
  size_t stride = r->length / MAX_STEPS + 1, m = 0;
  double clock = 0;
  for (size_t s = 0; s < r->length; s++) {
    const sp_governor_outcome *o = &r->steps[s];
    double v = engine ? t->configs[o->config].engine_mhz : o->power_w;
    if (s % stride == 0) {
      x[m] = clock + o->switch_time_ms;
      y[m++] = v;
    }
    clock += o->switch_time_ms + o->time_ms;
    if (s % stride == 0) {
      x[m] = clock;
      y[m++] = v;
    }
  }
  return m;
}

/* The reference policy in the reference's colour, the others in turn. */
static const char *policy_color(const gov_report *g, size_t i) {
  return g->r[i] == baseline(g->r, g->n) ? sp__color(SP_COLOR_INK) : sp__palette(i);
}

/* The power cap as a guide, then one line per policy. */
static size_t timeline_series(const gov_report *g, int engine, double *x, double *y,
                              const double cap[4], sp_series *s) {
  size_t ns = 0, room = 2 * (MAX_STEPS + 1);
  if (!engine && g->p->power_cap_w > 0)
    s[ns++] = (sp_series){.x = cap, .y = cap + 2, .n = 2, .mark = SP_MARK_GUIDE};
  for (size_t i = 0; i < g->n; i++) {
    double *xi = x + i * room, *yi = y + i * room;
    s[ns++] = (sp_series){.name = g->r[i]->policy,
                          .x = xi,
                          .y = yi,
                          .n = timeline(g->t, g->r[i], engine, xi, yi),
                          .mark = SP_MARK_LINE,
                          .color = policy_color(g, i),
                          .width = 1.2};
  }
  return ns;
}

static int timeline_plot(const gov_report *g, FILE *fp, int engine) {
  double tmax = 0, vmax = engine ? 0 : g->p->power_cap_w;
  for (size_t i = 0; i < g->n; i++) {
    tmax = fmax(tmax, g->r[i]->time_ms);
    vmax = fmax(vmax, engine ? 0 : g->r[i]->peak_power_w);
  }
  for (size_t c = 0; engine && c < g->t->space.n; c++)
    vmax = fmax(vmax, g->t->configs[c].engine_mhz);
  size_t room = 2 * (MAX_STEPS + 1);
  double *x = malloc(g->n * room * sizeof *x), *y = malloc(g->n * room * sizeof *y);
  sp_series *s = malloc((g->n + 1) * sizeof *s);
  int st = x && y && s ? SP_OK : SP_ENOMEM;
  const double cap[4] = {0, tmax, g->p->power_cap_w, g->p->power_cap_w};
  sp_chart c = {.title = engine ? "Engine clock chosen over time" : "Power over time",
                .xlabel = "elapsed time (ms)",
                .ylabel = engine ? "engine clock (MHz)" : "power (W)",
                .width = 760,
                .height = 320,
                .xmax = tmax,
                .ymax = vmax * 1.05};
  if (!st) {
    size_t ns = timeline_series(g, engine, x, y, cap, s);
    st = sp__svg_xy(fp, &c, s, ns);
  }
  free(x);
  free(y);
  free(s);
  return st;
}

static int svg_power(const void *d, FILE *fp) { return timeline_plot(d, fp, 0); }
static int svg_engine(const void *d, FILE *fp) { return timeline_plot(d, fp, 1); }

static const struct {
  const char *file;
  sp_report_fn fn;
} gov_figs[] = {{"policies.svg", svg_bars},
                {"power-timeline.svg", svg_power},
                {"engine-timeline.svg", svg_engine}};
#define NFIGS (sizeof gov_figs / sizeof *gov_figs)

static void html_summary(FILE *fp, const gov_report *g) {
  const sp_governor_result *b = baseline(g->r, g->n);
  fputs(
      "<table><tr><th>policy</th><th>time (ms)</th><th>energy (mJ)</th><th>EDP (mJ ms)"
      "</th><th>avg power (W)</th><th>peak power (W)</th><th>over cap</th><th>switches</th>"
      "<th>switch time (ms)</th><th>switch energy (mJ)</th><th>measured</th><th>time / ref"
      "</th><th>energy / ref</th></tr>\n",
      fp);
  for (size_t i = 0; i < g->n; i++) {
    const sp_governor_result *r = g->r[i];
    fputs("<tr><td>", fp);
    sp__xml_text(fp, r->policy);
    fprintf(fp,
            "</td><td>%.5g</td><td>%.5g</td><td>%.5g</td><td>%.4g</td><td>%.4g</td>"
            "<td>%zu</td><td>%zu</td><td>%.4g</td><td>%.4g</td><td>%zu/%zu</td>"
            "<td>%.3f</td><td>%.3f</td></tr>\n",
            r->time_ms, r->energy_mj, r->edp, r->avg_power_w, r->peak_power_w, r->over_cap,
            r->switches, r->switch_time_ms, r->switch_energy_mj, r->measured, r->length,
            r->time_ms / b->time_ms, r->energy_mj / b->energy_mj);
  }
  fputs("</table>\n", fp);
}

static void html_intro(FILE *fp, const gov_report *g) {
  const sp_governor_params *p = g->p;
  sp_config ref = p->reference.cu ? p->reference : sp_model_base(g->t->model);
  fputs(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<title>scalepredict governor</title>\n<style>body{font-family:sans-serif;"
      "max-width:1200px;margin:1em auto;padding:0 1em}table{border-collapse:collapse}"
      "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td:first-child"
      "{text-align:left}figure{display:inline-block;margin:.5em}</style>\n</head><body>\n"
      "<h1>Governor replay</h1>\n<p>Model <b>",
      fp);
  sp__xml_text(fp, sp_model_name(g->t->model));
  fputs("</b>, trace <code>", fp);
  sp__xml_text(fp, g->t->path);
  fprintf(fp, "</code>: %zu invocations of %zu kernels; reference %dcu/%d/%d", g->t->length,
          g->t->nkernels, ref.cu, ref.engine_mhz, ref.memory_mhz);
  if (p->power_cap_w > 0) fprintf(fp, "; power cap %.4g W", p->power_cap_w);
  if (p->slowdown > 0) fprintf(fp, "; slowdown limit %.4g x per kernel", p->slowdown);
  fprintf(fp,
          "; switching costs %.4g us and %.4g mJ per changed axis. Outcomes are "
          "measured where the data has them, predicted elsewhere.</p>\n",
          p->switch_latency_us, p->switch_energy_mj);
}

static int write_index(const void *data, FILE *fp) {
  const gov_report *g = data;
  html_intro(fp, g);
  html_summary(fp, g);
  int st = SP_OK;
  for (size_t i = 0; i < NFIGS && !st; i++) {
    fputs("<figure>\n", fp);
    st = gov_figs[i].fn(g, fp);
    fputs("</figure>\n", fp);
  }
  fputs(
      "<p>Tables: <a href=\"summary.csv\">summary.csv</a>, <a href=\"steps.csv\">"
      "steps.csv</a> (every invocation under every policy).</p>\n</body></html>\n",
      fp);
  return st;
}

static int write_summary(const void *data, FILE *fp) {
  const gov_report *g = data;
  return sp_governor_write_summary_csv(g->r, g->n, fp);
}

static int write_steps(const void *data, FILE *fp) {
  const gov_report *g = data;
  return sp_governor_write_steps_csv(g->t, g->r, g->n, fp);
}

static int write_all(sp_reportdir *d, const gov_report *g, sp_error *err) {
  int st = sp__reportdir_file(d, "index.html", write_index, g, err);
  for (size_t i = 0; i < NFIGS && !st; i++)
    st = sp__reportdir_file(d, gov_figs[i].file, gov_figs[i].fn, g, err);
  if (!st) st = sp__reportdir_file(d, "summary.csv", write_summary, g, err);
  if (!st) st = sp__reportdir_file(d, "steps.csv", write_steps, g, err);
  return st;
}

int sp_governor_report_write(const sp_governor_trace *t, const sp_governor_params *p,
                             const sp_governor_result *const *results, size_t n, const char *dir,
                             sp_error *err) {
  sp_error local;
  if (!err) err = &local;
  if (!n) return sp__fail(err, SP_EINVAL, dir, 0, 0, NULL, "no results to report");
  gov_report g = {t, p, results, n};
  sp_reportdir d;
  sp_c_numeric loc;
  if (sp__c_numeric_begin(&loc)) return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  int st = sp__reportdir_begin(&d, dir, err);
  if (!st) st = write_all(&d, &g, err);
  if (!st) st = sp__reportdir_commit(&d, err);
  sp__reportdir_abort(&d, err);
  sp__c_numeric_end(&loc);
  return st;
}
