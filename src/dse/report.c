/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report.c: the dse report directory: index.html with inline SVG plots,
 * each plot as its own SVG file, and every table as CSV. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dse.h"
#include "plot/heatmap.h"
#include "plot/palette.h"
#include "plot/svgplot.h"
#include "util/reportdir.h"
#include "util/status.h"
#include "util/textout.h"

/* Scatter plots thin out the background cloud of configurations beyond this
 * many points so that a refined space still gives a small file. */
#define MAX_CLOUD 3000
/* Heat maps show at most this many cells per axis and panel. */
#define MAX_CELLS 24

static void config_label(const sp_dse_result *r, size_t i, char *buf, size_t n) {
  sp_config_format(&r->configs[i], buf, n);
}

/* ---- Pareto plots ------------------------------------------------------------ */

typedef double (*metric_fn)(const sp_dse_result *r, size_t i);
static double m_time(const sp_dse_result *r, size_t i) { return r->time_ms[i]; }
static double m_energy(const sp_dse_result *r, size_t i) { return r->energy_mj[i]; }
static double m_power(const sp_dse_result *r, size_t i) { return r->energy_mj[i] / r->time_ms[i]; }

static void range_of(const sp_dse_result *r, metric_fn f, double *lo, double *hi) {
  *lo = INFINITY;
  *hi = -INFINITY;
  for (size_t i = 0; i < r->nconfigs; i++) {
    double v = f(r, i);
    if (!isfinite(v)) continue;
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
  }
}

/* The tooltips of a series of marked configurations in a Pareto plot (the
 * front, the candidates, the reference, the best of an objective). */
typedef struct marks {
  const sp_dse_result *r;
  metric_fn y;
  const size_t *configs; /* the configuration of each point */
  const char *what;      /* what they are; NULL: the candidates' names */
} marks;

static void mark_tip(const void *ctx, size_t j, char *buf, size_t size) {
  const marks *m = ctx;
  size_t i = m->configs[j];
  char cfg[64];
  config_label(m->r, i, cfg, sizeof cfg);
  snprintf(buf, size, "%s %s: %.4g ms, %.4g", m->what ? m->what : m->r->candidates[j].name, cfg,
           m->r->time_ms[i], m->y(m->r, i));
}

/* The most points a Pareto plot draws: the thinned cloud and the marks. */
static size_t pareto_room(const sp_dse_result *r, size_t nfront) {
  return r->nconfigs / (r->nconfigs / MAX_CLOUD + 1) + 1 + nfront + r->ncandidates + 1 +
         SP_DSE_OBJECTIVE_COUNT;
}

/* A Pareto plot's series, their points in one set of arrays. */
typedef struct pareto {
  const sp_dse_result *r;
  metric_fn y;
  double *x, *yv;     /* every point's coordinates */
  size_t *configs, n; /* every point's configuration; points so far */
  sp_series s[4 + SP_DSE_OBJECTIVE_COUNT];
  marks m[3 + SP_DSE_OBJECTIVE_COUNT];
  size_t ns, nm;
} pareto;

static sp_series *new_series(pareto *p, const char *name, sp_color color, double radius) {
  sp_series *s = &p->s[p->ns++];
  *s = (sp_series){.name = name,
                   .x = p->x + p->n,
                   .y = p->yv + p->n,
                   .mark = SP_MARK_POINTS,
                   .color = sp__color(color),
                   .radius = radius};
  return s;
}

/* Configuration i as the next point of s, the latest series. */
static void add_point(pareto *p, sp_series *s, size_t i) {
  assert(s == &p->s[p->ns - 1] && s->x + s->n == p->x + p->n);
  p->configs[p->n] = i;
  p->x[p->n] = p->r->time_ms[i];
  p->yv[p->n++] = p->y(p->r, i);
  s->n++;
}

static void with_tips(pareto *p, sp_series *s, const char *what) {
  marks *m = &p->m[p->nm++];
  *m = (marks){p->r, p->y, p->configs + (s->x - p->x), what};
  s->tip = mark_tip;
  s->tip_ctx = m;
}

static void add_marks(pareto *p, const size_t *front, size_t nfront) {
  const sp_dse_result *r = p->r;
  sp_series *s = new_series(p, "Pareto front", SP_COLOR_BLUE, 2.5);
  s->mark = SP_MARK_LINE_POINTS, s->width = 1.5;
  for (size_t j = 0; j < nfront; j++) add_point(p, s, front[j]);
  with_tips(p, s, "front");
  if (r->ncandidates) {
    s = new_series(p, "candidates", SP_COLOR_CYAN, 4.5);
    for (size_t c = 0; c < r->ncandidates; c++) add_point(p, s, r->candidates[c].config);
    with_tips(p, s, NULL);
  }
  /* Largest first: markers of objectives that share a configuration show
   * as concentric rings. */
  s = new_series(p, "reference", SP_COLOR_INK, 7.5);
  add_point(p, s, r->reference);
  with_tips(p, s, "reference");
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++) {
    if (r->best[o].config == SP_NO_CONFIG) continue;
    /* The front has the palette's first colour and the objectives the next
     * ones, so min-time and min-energy have the other plots' time and
     * energy colours. */
    s = new_series(p, sp_dse_objective_name(o), (sp_color)(SP_COLOR_BLUE + 1 + o), 6.5 - o);
    add_point(p, s, r->best[o].config);
    with_tips(p, s, sp_dse_objective_name(o));
  }
}

_Static_assert(SP_COLOR_BLUE + 1 + SP_DSE_MIN_TIME == SP_COLOR_TIME &&
                   SP_COLOR_BLUE + 1 + SP_DSE_MIN_ENERGY == SP_COLOR_ENERGY &&
                   SP_COLOR_BLUE + SP_DSE_OBJECTIVE_COUNT < SP_COLOR_CYAN,
               "objective o has palette colour 1 + o, time's and energy's for theirs, and "
               "not the candidates' colour");

static int pareto_plot(const sp_dse_result *r, FILE *fp, metric_fn y, const size_t *front, size_t n,
                       const char *title, const char *ylabel, int logy) {
  size_t room = pareto_room(r, n);
  pareto p = {.r = r,
              .y = y,
              .x = malloc(room * sizeof(double)),
              .yv = malloc(room * sizeof(double)),
              .configs = malloc(room * sizeof(size_t))};
  int st = p.x && p.yv && p.configs ? SP_OK : SP_ENOMEM;
  if (!st) {
    sp_series *cloud = new_series(&p, "configurations", SP_COLOR_MUTED, 1.5);
    for (size_t i = 0; i < r->nconfigs; i += r->nconfigs / MAX_CLOUD + 1) add_point(&p, cloud, i);
    add_marks(&p, front, n);
    sp_chart c = {.title = title,
                  .xlabel = "workload time (ms, log scale)",
                  .ylabel = ylabel,
                  .logx = 1,
                  .logy = logy,
                  .width = 760,
                  .height = 420};
    range_of(r, m_time, &c.xmin, &c.xmax);
    range_of(r, y, &c.ymin, &c.ymax);
    st = sp__svg_xy(fp, &c, p.s, p.ns);
  }
  free(p.x);
  free(p.yv);
  free(p.configs);
  return st;
}

static int svg_pareto_energy(const void *data, FILE *fp) {
  const sp_dse_result *r = data;
  return pareto_plot(r, fp, m_energy, r->pareto_energy, r->npareto_energy,
                     "Time vs energy: every configuration and the Pareto front",
                     "workload energy (mJ, log scale)", 1);
}

static int svg_pareto_power(const void *data, FILE *fp) {
  const sp_dse_result *r = data;
  return pareto_plot(r, fp, m_power, r->pareto_power, r->npareto_power,
                     "Time vs average power: every configuration and the Pareto front",
                     "workload average power (W)", 0);
}

/* ---- sensitivity along each axis ------------------------------------------------ */

static const char *const axis_titles[3] = {"compute units", "engine clock (MHz)",
                                           "memory clock (MHz)"};

static const char *const axis_names[3] = {"CU", "engine clock", "memory clock"};

/* An axis with one value has no plot to draw: the figure says so. */
static int axis_not_varied(const sp_dse_result *r, FILE *fp, int a) {
  char title[96], text[160];
  snprintf(title, sizeof title, "Workload along the %s axis", axis_names[a]);
  snprintf(text, sizeof text, "not varied: the model's grid has one %s value (%d)", axis_names[a],
           r->axis[a][0]);
  sp_chart c = {.title = title, .width = 420, .height = 120};
  return sp__svg_note(fp, &c, text);
}

static int axis_plot(const sp_dse_result *r, FILE *fp, int a) {
  size_t n = r->naxis[a];
  if (n < 2) return axis_not_varied(r, fp, a);
  double *x = malloc(n * sizeof *x), *y = malloc(3 * n * sizeof *y);
  if (!x || !y) {
    free(x);
    free(y);
    return SP_ENOMEM;
  }
  const metric_fn fns[3] = {m_time, m_energy, m_power};
  for (size_t j = 0; j < n; j++) {
    size_t i = sp__dse_along(r, r->reference, a, j);
    x[j] = r->axis[a][j];
    for (int q = 0; q < 3; q++) y[q * n + j] = fns[q](r, i) / fns[q](r, r->reference);
  }
  char title[96];
  snprintf(title, sizeof title, "Workload along the %s axis (others at the reference)",
           axis_names[a]);
  sp_chart c = {.title = title,
                .xlabel = axis_titles[a],
                .ylabel = "relative to the reference",
                .kind = SP_CHART_LINES,
                .width = 420,
                .height = 300,
                .legend_inside = 1};
  const sp_series s[3] = {
      {.name = "time", .x = x, .y = y, .n = n, .color = sp__color(SP_COLOR_TIME)},
      {.name = "energy", .x = x, .y = y + n, .n = n, .color = sp__color(SP_COLOR_ENERGY)},
      {.name = "average power",
       .x = x,
       .y = y + 2 * n,
       .n = n,
       .color = sp__color(SP_COLOR_POWER)}};
  int st = sp__svg_xy(fp, &c, s, 3);
  free(x);
  free(y);
  return st;
}

static int svg_axis_cu(const void *d, FILE *fp) { return axis_plot(d, fp, SP_AXIS_CU); }
static int svg_axis_engine(const void *d, FILE *fp) { return axis_plot(d, fp, SP_AXIS_ENGINE); }
static int svg_axis_memory(const void *d, FILE *fp) { return axis_plot(d, fp, SP_AXIS_MEMORY); }

/* ---- kernel classes -------------------------------------------------------------- */

/* The two classes in colours, the kernels of neither class and those
 * without evidence in neutral greys. */
static const char *class_color(int bound) {
  switch (bound) {
    case SP_DSE_COMPUTE_BOUND:
      return sp__color(SP_COLOR_RED);
    case SP_DSE_BANDWIDTH_BOUND:
      return sp__color(SP_COLOR_BLUE);
    case SP_DSE_NEITHER:
      return sp__color(SP_COLOR_GREY);
    default:
      return sp__color(SP_COLOR_MUTED);
  }
}

static double finite_or_zero(double v) { return isfinite(v) ? v : 0.0; }

typedef struct class_tips {
  const sp_dse_result *r;
  const size_t *kernels; /* the kernel of each point */
} class_tips;

static void class_tip(const void *ctx, size_t j, char *buf, size_t size) {
  const class_tips *t = ctx;
  const sp_dse_kernel *kn = &t->r->kernels[t->kernels[j]];
  snprintf(buf, size, "%s: %s", kn->name, sp_dse_bound_name(kn->sens.bound));
}

/* The kernels of class b as series s, their points from *n on. */
static void class_series(const sp_dse_result *r, int b, double *x, double *y, size_t *idx,
                         size_t *n, class_tips *t, sp_series *s) {
  *t = (class_tips){r, idx + *n};
  *s = (sp_series){.name = sp_dse_bound_name(b),
                   .x = x + *n,
                   .y = y + *n,
                   .mark = SP_MARK_POINTS,
                   .color = class_color(b),
                   .radius = 4,
                   .tip = class_tip,
                   .tip_ctx = t};
  for (size_t k = 0; k < r->nkernels; k++) {
    if ((int)r->kernels[k].sens.bound != b) continue;
    x[*n] = -finite_or_zero(r->kernels[k].sens.time[SP_AXIS_ENGINE]);
    y[*n] = -finite_or_zero(r->kernels[k].sens.time[SP_AXIS_MEMORY]);
    idx[(*n)++] = k;
    s->n++;
  }
}

/* The axes' common range: the kernels' elasticities and the threshold. */
static void classes_range(const sp_dse_result *r, double *lo, double *hi) {
  *hi = 1.1 * r->params.bound_elasticity, *lo = 0;
  for (size_t k = 0; k < r->nkernels; k++)
    for (int a = 1; a < 3; a++) {
      double v = -finite_or_zero(r->kernels[k].sens.time[a]);
      if (v > *hi) *hi = v;
      if (v < *lo) *lo = v;
    }
  *hi *= 1.05;
}

static int svg_classes(const void *data, FILE *fp) {
  const sp_dse_result *r = data;
  size_t nk = r->nkernels ? r->nkernels : 1;
  double *x = malloc(nk * sizeof *x), *y = malloc(nk * sizeof *y), lo, hi;
  size_t *idx = malloc(nk * sizeof *idx), ns = 0, n = 0;
  int st = x && y && idx ? SP_OK : SP_ENOMEM;
  classes_range(r, &lo, &hi);
  double t = r->params.bound_elasticity;
  const double vx[2] = {t, t}, vy[2] = {lo, hi};
  sp_series s[6] = {{.x = vx, .y = vy, .n = 2, .mark = SP_MARK_GUIDE},
                    {.x = vy, .y = vx, .n = 2, .mark = SP_MARK_GUIDE}};
  class_tips tips[4];
  int undetermined = r->sens.bound == SP_DSE_UNDETERMINED;
  for (int b = 0; !st && b < 3 + undetermined; b++)
    class_series(r, b, x, y, idx, &n, &tips[b], &s[2 + ns++]);
  sp_chart c = {.title = "Kernels: how time follows the engine and memory clocks",
                .xlabel = "-elasticity of time to the engine clock",
                .ylabel = "-elasticity of time to the memory clock",
                .width = 600,
                .height = 420,
                .xmin = lo,
                .xmax = hi,
                .ymin = lo,
                .ymax = hi};
  if (!st) st = sp__svg_xy(fp, &c, s, 2 + ns);
  free(x);
  free(y);
  free(idx);
  return st;
}

/* ---- heat maps -------------------------------------------------------------------- */

/* Up to max indices spread evenly over 0..n-1, first and last included. */
static size_t sample_axis(size_t n, size_t max, size_t *out) {
  if (n <= max) {
    for (size_t i = 0; i < n; i++) out[i] = i;
    return n;
  }
  for (size_t i = 0; i < max; i++) out[i] = (size_t)llround((double)i * (n - 1) / (max - 1));
  return max;
}

/* A workload value relative to the reference over engine x memory clock,
 * one panel per CU count: v[(cu * nm + m) * ne + e]. */
typedef struct heat {
  const sp_dse_result *r;
  const char *what;
  double *v;
  size_t ne, nm, ie[MAX_CELLS], im[MAX_CELLS];
  char cols[MAX_CELLS][16], rows[MAX_CELLS][16];
} heat;

static void heat_tip(const void *ctx, size_t i, char *buf, size_t size) {
  const heat *h = ctx;
  const sp_dse_result *r = h->r;
  size_t e = i % h->ne, m = i / h->ne % h->nm, cu = i / h->ne / h->nm;
  snprintf(buf, size, "%dcu/%d/%d: %.3f x reference %s", r->axis[0][cu], r->axis[1][h->ie[e]],
           r->axis[2][h->im[m]], h->v[i], h->what);
}

static void heat_values(heat *h, metric_fn value) {
  const sp_dse_result *r = h->r;
  for (size_t cu = 0; cu < r->naxis[0]; cu++)
    for (size_t m = 0; m < h->nm; m++)
      for (size_t e = 0; e < h->ne; e++) {
        size_t i = (cu * r->naxis[1] + h->ie[e]) * r->naxis[2] + h->im[m];
        h->v[(cu * h->nm + m) * h->ne + e] = value(r, i) / value(r, r->reference);
      }
}

/* The labels of the sampled clocks, and of the panels in a malloc'ed block
 * that is returned (NULL when out of memory). */
static char *heat_labels(heat *h, const char **cols, const char **rows, const char **panels) {
  const sp_dse_result *r = h->r;
  enum { LABEL = 16 };
  char *names = malloc(r->naxis[0] * LABEL);
  if (!names) return NULL;
  for (size_t e = 0; e < h->ne; e++) {
    snprintf(h->cols[e], sizeof h->cols[e], "%d", r->axis[1][h->ie[e]]);
    cols[e] = h->cols[e];
  }
  for (size_t m = 0; m < h->nm; m++) {
    snprintf(h->rows[m], sizeof h->rows[m], "%d", r->axis[2][h->im[m]]);
    rows[m] = h->rows[m];
  }
  for (size_t cu = 0; cu < r->naxis[0]; cu++) {
    snprintf(names + cu * LABEL, LABEL, "%d CUs", r->axis[0][cu]);
    panels[cu] = names + cu * LABEL;
  }
  return names;
}

static int heat_plot(const sp_dse_result *r, FILE *fp, metric_fn value, const char *title,
                     const char *what) {
  heat h = {.r = r, .what = what};
  h.ne = sample_axis(r->naxis[1], MAX_CELLS, h.ie);
  h.nm = sample_axis(r->naxis[2], MAX_CELLS, h.im);
  size_t np = r->naxis[0];
  const char *cols[MAX_CELLS], *rows[MAX_CELLS], **panels = malloc(np * sizeof *panels);
  h.v = malloc(np * h.ne * h.nm * sizeof *h.v);
  char *names = panels && h.v ? heat_labels(&h, cols, rows, panels) : NULL;
  int st = names ? SP_OK : SP_ENOMEM;
  if (!st) {
    heat_values(&h, value);
    sp_heatmap hm = {.title = title,
                     .xlabel = "engine clock (MHz)",
                     .ylabel = "memory clock (MHz)",
                     .cols = cols,
                     .ncols = h.ne,
                     .rows = rows,
                     .nrows = h.nm,
                     .panels = panels,
                     .npanels = np,
                     .v = h.v,
                     .log_scale = 1,
                     .scale_label = "x reference",
                     .tip = heat_tip,
                     .tip_ctx = &h};
    st = sp__svg_heatmap(fp, &hm);
  }
  free(names);
  free(panels);
  free(h.v);
  return st;
}

static int svg_heat_time(const void *d, FILE *fp) {
  return heat_plot(d, fp, m_time, "Workload time over engine x memory clock, per CU count", "time");
}

static int svg_heat_energy(const void *d, FILE *fp) {
  return heat_plot(d, fp, m_energy, "Workload energy over engine x memory clock, per CU count",
                   "energy");
}

/* ---- the figures and the page ------------------------------------------------------ */

typedef struct figure {
  const char *file;
  sp_report_fn fn;
  const char *caption;
} figure;

static const figure pareto_figs[] = {
    {"pareto-energy.svg", svg_pareto_energy,
     "Each grey dot is one configuration; the blue line joins the configurations that no "
     "other beats on both time and energy."},
    {"pareto-power.svg", svg_pareto_power,
     "The same for average power (workload energy / workload time)."}};
static const figure sens_figs[] = {
    {"axis-cu.svg", svg_axis_cu, NULL},
    {"axis-engine.svg", svg_axis_engine, NULL},
    {"axis-memory.svg", svg_axis_memory, NULL},
    {"kernel-classes.svg", svg_classes,
     "Each kernel's time elasticity to the two clocks (1 = time halves when the clock "
     "doubles); dashed lines mark the classification threshold."}};
static const figure heat_figs[] = {
    {"heatmap-time.svg", svg_heat_time,
     "Colour is the logarithm of the ratio to the reference, on one scale for all panels."},
    {"heatmap-energy.svg", svg_heat_energy, NULL}};

#define COUNT(a) (sizeof(a) / sizeof *(a))

static int inline_figures(FILE *fp, const sp_dse_result *r, const figure *figs, size_t n) {
  for (size_t i = 0; i < n; i++) {
    fputs("<figure>\n", fp);
    int st = figs[i].fn(r, fp);
    if (st) return st;
    if (figs[i].caption) {
      fputs("<figcaption>", fp);
      sp__xml_text(fp, figs[i].caption);
      fputs("</figcaption>", fp);
    }
    fputs("</figure>\n", fp);
  }
  return SP_OK;
}

static void html_head(FILE *fp, const sp_dse_result *r) {
  fputs(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>"
      "scalepredict dse: ",
      fp);
  sp__xml_text(fp, r->model_name);
  fputs(
      "</title>\n<style>\nbody{font-family:sans-serif;max-width:1400px;margin:1em auto;"
      "padding:0 1em;color:#222}\ntable{border-collapse:collapse;margin:.5em 0}\n"
      "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\n"
      "td:first-child,th:first-child{text-align:left}\nfigure{display:inline-block;"
      "margin:.5em;vertical-align:top}\nfigcaption{max-width:600px;font-size:90%}\n"
      ".warn{background:#fff3cd;padding:.5em;border:1px solid #e0c060}\n</style>\n"
      "</head><body>\n",
      fp);
}

static void html_intro(FILE *fp, const sp_dse_result *r) {
  char ref[64];
  config_label(r, r->reference, ref, sizeof ref);
  fputs("<h1>Design-space exploration</h1>\n<p>Model <b>", fp);
  sp__xml_text(fp, r->model_name);
  fprintf(fp,
          "</b>; workload of %zu kernel%s; %zu configurations (%zu CU counts x %zu "
          "engine x %zu memory clocks",
          r->nkernels, r->nkernels == 1 ? "" : "s", r->nconfigs, r->naxis[0], r->naxis[1],
          r->naxis[2]);
  if (r->params.grid_interp > 1)
    fprintf(fp, ", refined %u-fold between grid clocks by log-linear interpolation",
            r->params.grid_interp);
  fprintf(fp, "); reference %s.", ref);
  if (r->params.power_cap_w > 0)
    fprintf(fp, " Power cap %.4g W (peak kernel power).", r->params.power_cap_w);
  if (r->params.time_budget > 0)
    fprintf(fp, " Time budget %.4g x the reference time.", r->params.time_budget);
  fputs("</p>\n", fp);
  if (r->synthetic) {
    fputs("<p class=\"warn\">This model was trained on <b>synthetic</b> data (", fp);
    sp__xml_text(fp, r->model_source);
    fputs("), not on measurements.</p>\n", fp);
  }
}

static void html_choice_cells(FILE *fp, const sp_dse_result *r, const sp_dse_choice *c,
                              const sp_dse_choice *ref) {
  char cfg[64];
  config_label(r, c->config, cfg, sizeof cfg);
  fprintf(fp,
          "<td>%s</td><td>%.4g</td><td>%.4g</td><td>%.4g</td><td>%.4g</td>"
          "<td>%.3f</td><td>%.3f</td>",
          cfg, c->time_ms, c->energy_mj, c->avg_power_w, c->peak_power_w, c->time_ms / ref->time_ms,
          c->energy_mj / ref->energy_mj);
}

#define CHOICE_TH                                                               \
  "<th>config</th><th>time (ms)</th><th>energy (mJ)</th><th>avg power (W)</th>" \
  "<th>peak power (W)</th><th>time / ref</th><th>energy / ref</th>"

static void html_objectives(FILE *fp, const sp_dse_result *r) {
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  fputs("<h2>Best configuration per objective</h2>\n<table><tr><th>objective</th>" CHOICE_TH
        "</tr>\n<tr><td>reference</td>",
        fp);
  html_choice_cells(fp, r, &ref, &ref);
  fputs("</tr>\n", fp);
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++) {
    if (r->best[o].config == SP_NO_CONFIG) continue;
    fprintf(fp, "<tr><td>%s</td>", sp_dse_objective_name(o));
    html_choice_cells(fp, r, &r->best[o], &ref);
    fputs("</tr>\n", fp);
  }
  fputs("</table>\n", fp);
}

static void html_front_table(FILE *fp, const sp_dse_result *r, const char *what,
                             const size_t *front, size_t n) {
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  fprintf(fp,
          "<details><summary>%zu configurations on the time-%s front</summary>\n"
          "<table><tr><th>#</th>" CHOICE_TH "</tr>\n",
          n, what);
  for (size_t i = 0; i < n; i++) {
    sp_dse_choice c = sp_dse_at(r, front[i]);
    fprintf(fp, "<tr><td>%zu</td>", i + 1);
    html_choice_cells(fp, r, &c, &ref);
    fputs("</tr>\n", fp);
  }
  fputs("</table></details>\n", fp);
}

static void html_el(FILE *fp, const double *v) {
  for (int a = 0; a < 3; a++)
    if (isnan(v[a]))
      fputs("<td>not varied</td>", fp);
    else
      fprintf(fp, "<td>%.3f</td>", v[a]);
}

static void html_sens_row(FILE *fp, const char *name, const sp_dse_sensitivity *s) {
  fputs("<tr><td>", fp);
  sp__xml_text(fp, name);
  fputs("</td>", fp);
  html_el(fp, s->time);
  html_el(fp, s->power);
  html_el(fp, s->energy);
  fprintf(fp, "<td>%s</td></tr>\n", sp_dse_bound_name(s->bound));
}

static void html_sensitivity(FILE *fp, const sp_dse_result *r) {
  fputs(
      "<table><tr><th rowspan=\"2\">kernel</th><th colspan=\"3\">time</th>"
      "<th colspan=\"3\">power</th><th colspan=\"3\">energy</th><th rowspan=\"2\">class"
      "</th></tr>\n<tr>",
      fp);
  for (int q = 0; q < 3; q++) fputs("<th>CU</th><th>engine</th><th>memory</th>", fp);
  fputs("</tr>\n", fp);
  html_sens_row(fp, "(workload)", &r->sens);
  for (size_t k = 0; k < r->nkernels; k++)
    html_sens_row(fp, r->kernels[k].name, &r->kernels[k].sens);
  fputs("</table>\n", fp);
}

static void html_candidates(FILE *fp, const sp_dse_result *r) {
  if (!r->ncandidates) return;
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  fprintf(fp,
          "<h2>Candidate products, ranked by %s</h2>\n<table><tr><th>rank</th>"
          "<th>name</th>" CHOICE_TH "<th>within cap</th><th>within budget</th></tr>\n",
          sp_dse_objective_name(r->params.rank_by));
  for (size_t i = 0; i < r->ncandidates; i++) {
    const sp_dse_candidate *c = &r->candidates[i];
    sp_dse_choice ch = sp_dse_at(r, c->config);
    fprintf(fp, "<tr><td>%zu</td><td>", c->rank);
    sp__xml_text(fp, c->name);
    fputs("</td>", fp);
    html_choice_cells(fp, r, &ch, &ref);
    fprintf(fp, "<td>%s</td><td>%s</td></tr>\n", c->meets_cap ? "yes" : "no",
            c->meets_budget ? "yes" : "no");
  }
  fputs("</table>\n", fp);
}

static void html_kernels(FILE *fp, const sp_dse_result *r) {
  fputs(
      "<h2>Kernels</h2>\n<table><tr><th>kernel</th><th>weight</th><th>time at ref (ms)"
      "</th><th>power at ref (W)</th><th>class</th><th>min-time</th><th>min-energy</th>"
      "<th>min-edp</th><th>notes</th></tr>\n",
      fp);
  for (size_t k = 0; k < r->nkernels; k++) {
    const sp_dse_kernel *kn = &r->kernels[k];
    fputs("<tr><td>", fp);
    sp__xml_text(fp, kn->name);
    fprintf(fp, "</td><td>%.4g</td><td>%.4g</td><td>%.4g</td><td>%s</td>", kn->weight,
            kn->reference.time_ms, kn->reference.avg_power_w, sp_dse_bound_name(kn->sens.bound));
    for (int o = SP_DSE_MIN_TIME; o <= SP_DSE_MIN_EDP; o++) {
      char cfg[64];
      config_label(r, kn->best[o].config, cfg, sizeof cfg);
      fprintf(fp, "<td>%s</td>", cfg);
    }
    fputs("<td>", fp);
    if (kn->clamped) {
      fprintf(fp, "%zu counter%s outside the training range (first: ", kn->clamped,
              kn->clamped == 1 ? "" : "s");
      sp__xml_text(fp, kn->first_clamped);
      fputs(") clamped", fp);
    }
    fputs("</td></tr>\n", fp);
  }
  fputs("</table>\n", fp);
}

static void html_csv_links(FILE *fp) {
  fputs("<h2>Tables as CSV</h2>\n<ul>\n", fp);
  for (int t = 0; t < SP_DSE_TABLE_COUNT; t++)
    fprintf(fp, "<li><a href=\"%s.csv\">%s.csv</a></li>\n", sp_dse_table_name(t),
            sp_dse_table_name(t));
  fputs("</ul>\n</body></html>\n", fp);
}

static int write_index(const void *data, FILE *fp) {
  const sp_dse_result *r = data;
  html_head(fp, r);
  html_intro(fp, r);
  html_objectives(fp, r);
  fputs("<h2>Pareto fronts</h2>\n", fp);
  int st = inline_figures(fp, r, pareto_figs, COUNT(pareto_figs));
  html_front_table(fp, r, "energy", r->pareto_energy, r->npareto_energy);
  html_front_table(fp, r, "power", r->pareto_power, r->npareto_power);
  fputs(
      "<h2>Sensitivity</h2>\n<p>Elasticity: d ln(value) / d ln(axis value) between the "
      "ends of each axis through the reference; -1 means the value halves when the axis "
      "value doubles.</p>\n",
      fp);
  if (!st) st = inline_figures(fp, r, sens_figs, COUNT(sens_figs));
  html_sensitivity(fp, r);
  fputs("<h2>Heat maps</h2>\n", fp);
  if (!st) st = inline_figures(fp, r, heat_figs, COUNT(heat_figs));
  html_candidates(fp, r);
  html_kernels(fp, r);
  html_csv_links(fp);
  return st;
}

/* ---- the directory ------------------------------------------------------------------ */

typedef struct table_job {
  const sp_dse_result *r;
  int table;
} table_job;

static int write_table(const void *data, FILE *fp) {
  const table_job *j = data;
  return sp_dse_write_csv(j->r, j->table, fp);
}

static int write_figures(sp_reportdir *d, const sp_dse_result *r, const figure *f, size_t n,
                         sp_error *err) {
  int st = SP_OK;
  for (size_t i = 0; i < n && !st; i++) st = sp__reportdir_file(d, f[i].file, f[i].fn, r, err);
  return st;
}

static int write_all(sp_reportdir *d, const sp_dse_result *r, sp_error *err) {
  int st = sp__reportdir_file(d, "index.html", write_index, r, err);
  if (!st) st = write_figures(d, r, pareto_figs, COUNT(pareto_figs), err);
  if (!st) st = write_figures(d, r, sens_figs, COUNT(sens_figs), err);
  if (!st) st = write_figures(d, r, heat_figs, COUNT(heat_figs), err);
  for (int t = 0; t < SP_DSE_TABLE_COUNT && !st; t++) {
    char name[64];
    snprintf(name, sizeof name, "%s.csv", sp_dse_table_name(t));
    table_job j = {r, t};
    st = sp__reportdir_file(d, name, write_table, &j, err);
  }
  return st;
}

int sp_dse_report_write(const sp_dse_result *r, const char *dir, sp_error *err) {
  sp_error local;
  if (!err) err = &local;
  sp_reportdir d;
  sp_c_numeric loc;
  if (sp__c_numeric_begin(&loc)) return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  int st = sp__reportdir_begin(&d, dir, err);
  if (!st) st = write_all(&d, r, err);
  if (!st) st = sp__reportdir_commit(&d, err);
  sp__reportdir_abort(&d, err);
  sp__c_numeric_end(&loc);
  return st;
}
