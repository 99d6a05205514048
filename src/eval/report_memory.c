/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report_memory.c: the evaluation report's memory-axis plots (issue 28):
 * predicted against measured speedup of the other memory system, per
 * held-out kernel at the base's SM count and per kernel and SM count. */
#include "report_memory.h"

#include <math.h>
#include <stdlib.h>

#include "evaluation.h"
#include "plot/svgplot.h"
#include "util/status.h"

/* The most points one plot draws: an even subsample beyond it keeps the
 * SVG small (as the report's other scatter plots). */
enum { MEMORY_CAP = 4000, MAX_SERIES = 64 };

static int other_memory(const sp_eval_record *r, const sp_eval_params *p, int method) {
  const sp_config *b = &p->bases[r->base];
  return r->method == method && r->quantity == SP_TIME && r->target.memory_mhz != b->memory_mhz &&
         r->target.engine_mhz == b->engine_mhz && isfinite(r->predicted) && r->measured > 0;
}

int sp__memory_axis_present(const sp_evaluation *e, const sp_eval_params *p, int method) {
  for (size_t i = 0; i < e->n; i++)
    if (other_memory(&e->records[i], p, method)) return 1;
  return 0;
}

/* ---- the records of the base memory system, sorted for lookup ---------- */

static int cmp_config(const sp_config *a, const sp_config *b) {
  if (a->cu != b->cu) return a->cu < b->cu ? -1 : 1;
  if (a->engine_mhz != b->engine_mhz) return a->engine_mhz < b->engine_mhz ? -1 : 1;
  return (a->memory_mhz > b->memory_mhz) - (a->memory_mhz < b->memory_mhz);
}

static int cmp_record(const void *x, const void *y) {
  const sp_eval_record *a = *(const sp_eval_record *const *)x;
  const sp_eval_record *b = *(const sp_eval_record *const *)y;
  if (a->split != b->split) return a->split < b->split ? -1 : 1;
  if (a->kernel != b->kernel) return a->kernel < b->kernel ? -1 : 1;
  if (a->base != b->base) return a->base < b->base ? -1 : 1;
  return cmp_config(&a->target, &b->target);
}

/* The method's own time prediction for r's kernel, split and base at cfg,
 * or NaN when it made none there. */
static double predicted_at(const sp_eval_record *const *sorted, size_t n, const sp_eval_record *r,
                           sp_config cfg) {
  sp_eval_record key = *r;
  key.target = cfg;
  const sp_eval_record *kp = &key;
  const sp_eval_record *const *hit = bsearch(&kp, sorted, n, sizeof *sorted, cmp_record);
  return hit ? (*hit)->predicted : NAN;
}

/* ---- the points -------------------------------------------------------- */

typedef struct mem_point {
  double measured, predicted; /* speedups */
  unsigned kernel;
  int cu;
} mem_point;

typedef struct mem_points {
  mem_point *v;
  size_t n;
  const sp_dataset *ds;
} mem_points;

/* Every (kernel, SM count) point of the other memory system: its measured
 * and predicted speedups over the base memory system. */
static int collect(const sp_evaluation *e, const sp_dataset *ds, const sp_eval_params *p,
                   int method, int per_cu, mem_points *out) {
  size_t nb = 0, no = 0;
  for (size_t i = 0; i < e->n; i++) {
    const sp_eval_record *r = &e->records[i];
    nb += r->method == method && r->quantity == SP_TIME && !other_memory(r, p, method);
    no += other_memory(r, p, method);
  }
  const sp_eval_record **sorted = malloc((nb + 1) * sizeof *sorted);
  out->v = malloc((no + 1) * sizeof *out->v);
  out->n = 0;
  out->ds = ds;
  if (!sorted || !out->v) {
    free(sorted);
    free(out->v);
    out->v = NULL;
    return SP_ENOMEM;
  }
  nb = 0;
  for (size_t i = 0; i < e->n; i++) {
    const sp_eval_record *r = &e->records[i];
    if (r->method == method && r->quantity == SP_TIME && !other_memory(r, p, method))
      sorted[nb++] = r;
  }
  qsort(sorted, nb, sizeof *sorted, cmp_record);
  for (size_t i = 0; i < e->n; i++) {
    const sp_eval_record *r = &e->records[i];
    const sp_config *b = &p->bases[r->base];
    if (!other_memory(r, p, method) || (!per_cu && r->target.cu != b->cu)) continue;
    sp_config at = {r->target.cu, r->target.engine_mhz, b->memory_mhz};
    size_t row = sp__dataset_find_run(ds, r->kernel, &at);
    if (row == (size_t)-1 || !(ds->runs[row].time_ms > 0)) continue;
    double num = predicted_at(sorted, nb, r, at);
    if (!isfinite(num)) num = ds->runs[row].time_ms; /* measured there: the base, or given */
    out->v[out->n++] = (mem_point){.measured = ds->runs[row].time_ms / r->measured,
                                   .predicted = num / r->predicted,
                                   .kernel = r->kernel,
                                   .cu = r->target.cu};
  }
  free(sorted);
  return SP_OK;
}

/* ---- the plot ---------------------------------------------------------- */

typedef struct mem_series {
  const mem_points *pts;
  size_t *index; /* of the series' points in pts->v */
} mem_series;

static void tip(const void *ctx, size_t j, char *buf, size_t size) {
  const mem_series *s = ctx;
  const mem_point *q = &s->pts->v[s->index[j]];
  snprintf(buf, size, "%s at %d CUs: measured %.3fx, predicted %.3fx",
           s->pts->ds->kernels[q->kernel], q->cu, q->measured, q->predicted);
}

/* The series of SM count cus[c] (or every point when per_cu is 0), an even
 * subsample of at most cap points. */
static size_t series_of(const mem_points *pts, int per_cu, int cu, size_t cap, size_t *index,
                        double *x, double *y) {
  size_t total = 0, n = 0, seen = 0;
  for (size_t i = 0; i < pts->n; i++) total += !per_cu || pts->v[i].cu == cu;
  size_t stride = total > cap ? (total + cap - 1) / cap : 1;
  for (size_t i = 0; i < pts->n && n < cap; i++) {
    if ((per_cu && pts->v[i].cu != cu) || seen++ % stride) continue;
    index[n] = i;
    x[n] = pts->v[i].measured;
    y[n++] = pts->v[i].predicted;
  }
  return n;
}

static int draw(FILE *fp, const mem_points *pts, const sp_dataset *ds, int per_cu,
                const char *title) {
  const int *cus;
  size_t ncu = per_cu ? sp_dataset_axis(ds, 0, &cus) : 1;
  if (ncu > MAX_SERIES) ncu = MAX_SERIES;
  size_t cap = per_cu ? MEMORY_CAP / ncu : MEMORY_CAP;
  double *xy = malloc(2 * ncu * cap * sizeof *xy);
  size_t *index = malloc(ncu * cap * sizeof *index);
  if (!xy || !index) {
    free(xy);
    free(index);
    return SP_ENOMEM;
  }
  sp_series s[MAX_SERIES];
  mem_series ms[MAX_SERIES];
  char names[MAX_SERIES][24];
  for (size_t c = 0; c < ncu; c++) {
    double *x = xy + 2 * c * cap, *y = x + cap;
    ms[c] = (mem_series){pts, index + c * cap};
    snprintf(names[c], sizeof names[c], "%d CUs", per_cu ? cus[c] : 0);
    s[c] = (sp_series){.name = per_cu ? names[c] : NULL,
                       .x = x,
                       .y = y,
                       .n = series_of(pts, per_cu, per_cu ? cus[c] : 0, cap, ms[c].index, x, y),
                       .radius = per_cu ? 2 : 3,
                       .tip = tip,
                       .tip_ctx = &ms[c]};
  }
  sp_chart c = {.title = title,
                .xlabel = "measured speedup (base memory / other memory)",
                .ylabel = "predicted speedup",
                .kind = SP_CHART_POINTS,
                .diagonal = 1,
                .width = 640,
                .height = 560};
  int st = sp__svg_xy(fp, &c, s, ncu);
  free(xy);
  free(index);
  return st;
}

int sp__plot_memory_speedup(FILE *fp, const sp_evaluation *e, const sp_dataset *ds,
                            const sp_eval_params *p, int method, int per_cu, const char *title) {
  mem_points pts;
  int st = collect(e, ds, p, method, per_cu, &pts);
  if (!st) st = draw(fp, &pts, ds, per_cu, title);
  free(pts.v);
  return st;
}
