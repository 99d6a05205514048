/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report.c: the dse report directory: index.html with inline SVG plots,
 * each plot as its own SVG file, and every table as CSV. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dse.h"
#include "plot/figure.h"
#include "plot/palette.h"
#include "util/reportdir.h"
#include "util/status.h"
#include "util/textout.h"

/* Scatter plots thin out the background cloud of configurations beyond this
 * many points so that a refined space still gives a small file. */
#define MAX_CLOUD 3000
/* Heat maps show at most this many cells per axis and panel. */
#define MAX_CELLS 24

static const char *const objective_colors[SP_DSE_OBJECTIVE_COUNT] = {
    "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#ff7f0e", "#17becf"};
#define COLOR_FRONT "#1f77b4"
#define COLOR_CLOUD "#c8c8c8"
#define COLOR_REF "#000000"
#define COLOR_CAND "#e377c2"

static void config_label(const sp_dse_result *r, size_t i, char *buf, size_t n) {
  sp_config_format(&r->configs[i], buf, n);
}

/* ---- Pareto plots ------------------------------------------------------------ */

typedef double (*metric_fn)(const sp_dse_result *r, size_t i);
static double m_time(const sp_dse_result *r, size_t i) { return r->time_ms[i]; }
static double m_energy(const sp_dse_result *r, size_t i) { return r->energy_mj[i]; }
static double m_power(const sp_dse_result *r, size_t i) {
  return r->energy_mj[i] / r->time_ms[i];
}

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

static void mark(sp_fig *f, const sp_dse_result *r, size_t i, metric_fn y, double radius,
                 const char *color, const char *what) {
  char cfg[64], tip[160];
  config_label(r, i, cfg, sizeof cfg);
  snprintf(tip, sizeof tip, "%s %s: %.4g ms, %.4g", what, cfg, r->time_ms[i], y(r, i));
  sp__fig_point(f, r->time_ms[i], y(r, i), radius, color, tip);
}

static void draw_front(sp_fig *f, const sp_dse_result *r, const size_t *front, size_t n,
                       metric_fn y) {
  double *xs = malloc((n ? n : 1) * sizeof *xs), *ys = malloc((n ? n : 1) * sizeof *ys);
  if (xs && ys) {
    for (size_t i = 0; i < n; i++) {
      xs[i] = r->time_ms[front[i]];
      ys[i] = y(r, front[i]);
    }
    sp__fig_polyline(f, xs, ys, n, COLOR_FRONT, 1.5, 0);
  }
  free(xs);
  free(ys);
  for (size_t i = 0; i < n; i++) mark(f, r, front[i], y, 2.5, COLOR_FRONT, "front");
}

static void draw_markers(sp_fig *f, const sp_dse_result *r, metric_fn y) {
  for (size_t c = 0; c < r->ncandidates; c++)
    mark(f, r, r->candidates[c].config, y, 4.5, COLOR_CAND, r->candidates[c].name);
  if (r->ncandidates) sp__fig_legend(f, COLOR_CAND, "candidates", 0);
  /* Largest first: markers of objectives that share a configuration show
   * as concentric rings. */
  mark(f, r, r->reference, y, 7.5, COLOR_REF, "reference");
  sp__fig_legend(f, COLOR_REF, "reference", 0);
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++) {
    if (r->best[o].config == SP_NO_CONFIG) continue;
    mark(f, r, r->best[o].config, y, 6.5 - o, objective_colors[o], sp_dse_objective_name(o));
    sp__fig_legend(f, objective_colors[o], sp_dse_objective_name(o), 0);
  }
  sp__fig_legend(f, COLOR_FRONT, "Pareto front", 1);
}

static int pareto_plot(const sp_dse_result *r, FILE *fp, metric_fn y, const size_t *front,
                       size_t n, const char *title, const char *ylabel, int logy) {
  sp_fig f;
  double x0, x1, y0, y1;
  range_of(r, m_time, &x0, &x1);
  range_of(r, y, &y0, &y1);
  sp__fig_begin(&f, fp, 760, 420, title, 140);
  sp__fig_axes(&f, x0, x1, y0, y1, 1, logy, "workload time (ms, log scale)", ylabel);
  size_t stride = r->nconfigs / MAX_CLOUD + 1;
  for (size_t i = 0; i < r->nconfigs; i += stride)
    sp__fig_point(&f, r->time_ms[i], y(r, i), 1.5, COLOR_CLOUD, NULL);
  sp__fig_legend(&f, COLOR_CLOUD, "configurations", 0);
  draw_front(&f, r, front, n, y);
  draw_markers(&f, r, y);
  sp__fig_end(&f);
  return SP_OK;
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
  snprintf(text, sizeof text, "not varied: the model's grid has one %s value (%d)",
           axis_names[a], r->axis[a][0]);
  sp_fig f;
  sp__fig_begin(&f, fp, 420, 120, title, 0);
  sp__fig_text(&f, 210, 70, "middle", 13, text);
  sp__fig_end(&f);
  return SP_OK;
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
  double lo = INFINITY, hi = -INFINITY;
  for (size_t j = 0; j < n; j++) {
    size_t i = sp__dse_along(r, r->reference, a, j);
    x[j] = r->axis[a][j];
    for (int q = 0; q < 3; q++) {
      double v = fns[q](r, i) / fns[q](r, r->reference);
      y[q * n + j] = v;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  char title[96];
  snprintf(title, sizeof title, "Workload along the %s axis (others at the reference)",
           axis_names[a]);
  sp_fig f;
  sp__fig_begin(&f, fp, 420, 300, title, 0);
  sp__fig_axes(&f, x[0], x[n - 1], lo, hi, 0, 0, axis_titles[a], "relative to the reference");
  static const char *const colors[3] = {"#d62728", "#2ca02c", "#1f77b4"};
  static const char *const names[3] = {"time", "energy", "average power"};
  for (int q = 0; q < 3; q++) {
    sp__fig_polyline(&f, x, y + q * n, n, colors[q], 2, 0);
    sp__fig_legend(&f, colors[q], names[q], 1);
  }
  sp__fig_end(&f);
  free(x);
  free(y);
  return SP_OK;
}

static int svg_axis_cu(const void *d, FILE *fp) { return axis_plot(d, fp, SP_AXIS_CU); }
static int svg_axis_engine(const void *d, FILE *fp) { return axis_plot(d, fp, SP_AXIS_ENGINE); }
static int svg_axis_memory(const void *d, FILE *fp) { return axis_plot(d, fp, SP_AXIS_MEMORY); }

/* ---- kernel classes -------------------------------------------------------------- */

static const char *const class_colors[4] = {"#7f7f7f", "#d62728", "#1f77b4", "#cccccc"};

static double finite_or_zero(double v) { return isfinite(v) ? v : 0.0; }

static int svg_classes(const void *data, FILE *fp) {
  const sp_dse_result *r = data;
  double hi = 1.1 * r->params.bound_elasticity, lo = 0;
  for (size_t k = 0; k < r->nkernels; k++)
    for (int a = 1; a < 3; a++) {
      double v = -finite_or_zero(r->kernels[k].sens.time[a]);
      if (v > hi) hi = v;
      if (v < lo) lo = v;
    }
  hi *= 1.05;
  sp_fig f;
  sp__fig_begin(&f, fp, 600, 420, "Kernels: how time follows the engine and memory clocks",
                120);
  sp__fig_axes(&f, lo, hi, lo, hi, 0, 0, "-elasticity of time to the engine clock",
               "-elasticity of time to the memory clock");
  double t = r->params.bound_elasticity;
  const double vx[2] = {t, t}, vy[2] = {lo, hi};
  sp__fig_polyline(&f, vx, vy, 2, "#999", 1, 1);
  sp__fig_polyline(&f, vy, vx, 2, "#999", 1, 1);
  for (size_t k = 0; k < r->nkernels; k++) {
    const sp_dse_kernel *kn = &r->kernels[k];
    char tip[300];
    snprintf(tip, sizeof tip, "%s: %s", kn->name, sp_dse_bound_name(kn->sens.bound));
    sp__fig_point(&f, -finite_or_zero(kn->sens.time[SP_AXIS_ENGINE]),
                  -finite_or_zero(kn->sens.time[SP_AXIS_MEMORY]), 4,
                  class_colors[kn->sens.bound], tip);
  }
  int undetermined = r->sens.bound == SP_DSE_UNDETERMINED;
  for (int b = 0; b < 3 + undetermined; b++)
    sp__fig_legend(&f, class_colors[b], sp_dse_bound_name(b), 0);
  sp__fig_end(&f);
  return SP_OK;
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

typedef struct heat {
  const sp_dse_result *r;
  metric_fn value;
  const char *title, *what;
  size_t ne, nm, ie[MAX_CELLS], im[MAX_CELLS];
  double lo, hi;  /* log of the relative value range */
} heat;

enum { PANEL_W = 168, PANEL_H = 132, PANEL_COLS = 4, PANEL_LEFT = 46, PANEL_GAP = 18 };
enum { PANEL_TOP = 40, PANEL_ROW = PANEL_H + 62 };

static double heat_rel(const heat *h, size_t ic, size_t e, size_t m) {
  const sp_dse_result *r = h->r;
  size_t i = (ic * r->naxis[1] + h->ie[e]) * r->naxis[2] + h->im[m];
  return h->value(r, i) / h->value(r, r->reference);
}

static void heat_range(heat *h) {
  h->lo = INFINITY;
  h->hi = -INFINITY;
  for (size_t ic = 0; ic < h->r->naxis[0]; ic++)
    for (size_t e = 0; e < h->ne; e++)
      for (size_t m = 0; m < h->nm; m++) {
        double v = log(heat_rel(h, ic, e, m));
        if (!isfinite(v)) continue;
        if (v < h->lo) h->lo = v;
        if (v > h->hi) h->hi = v;
      }
  if (!(h->hi > h->lo)) h->hi = h->lo + 1e-9;
}

static void heat_cell(sp_fig *f, const heat *h, size_t ic, size_t e, size_t m, double x0,
                      double y0) {
  const sp_dse_result *r = h->r;
  double cw = (double)PANEL_W / h->ne, ch = (double)PANEL_H / h->nm;
  double v = heat_rel(h, ic, e, m);
  char color[8], tip[128];
  if (isfinite(v)) sp__ramp((log(v) - h->lo) / (h->hi - h->lo), color);
  else snprintf(color, sizeof color, "#ffffff");
  snprintf(tip, sizeof tip, "%dcu/%d/%d: %.3f x reference %s", r->axis[0][ic],
           r->axis[1][h->ie[e]], r->axis[2][h->im[m]], v, h->what);
  sp__fig_rect(f, x0 + e * cw, y0 + PANEL_H - (m + 1) * ch, cw + 0.3, ch + 0.3, color, tip);
}

static void heat_panel(sp_fig *f, const heat *h, size_t ic) {
  const sp_dse_result *r = h->r;
  double x0 = PANEL_LEFT + (ic % PANEL_COLS) * (PANEL_W + PANEL_LEFT + PANEL_GAP);
  double y0 = PANEL_TOP + (ic / PANEL_COLS) * PANEL_ROW;
  for (size_t e = 0; e < h->ne; e++)
    for (size_t m = 0; m < h->nm; m++) heat_cell(f, h, ic, e, m, x0, y0);
  char text[48];
  snprintf(text, sizeof text, "%d CUs", r->axis[0][ic]);
  sp__fig_text(f, x0 + PANEL_W / 2.0, y0 - 5, "middle", 11, text);
  snprintf(text, sizeof text, "%d", r->axis[1][0]);
  sp__fig_text(f, x0, y0 + PANEL_H + 12, "start", 9, text);
  snprintf(text, sizeof text, "%d", r->axis[1][r->naxis[1] - 1]);
  sp__fig_text(f, x0 + PANEL_W, y0 + PANEL_H + 12, "end", 9, text);
  sp__fig_text(f, x0 + PANEL_W / 2.0, y0 + PANEL_H + 24, "middle", 9, "engine MHz");
  snprintf(text, sizeof text, "%d", r->axis[2][0]);
  sp__fig_text(f, x0 - 3, y0 + PANEL_H, "end", 9, text);
  snprintf(text, sizeof text, "%d", r->axis[2][r->naxis[2] - 1]);
  sp__fig_text(f, x0 - 3, y0 + 9, "end", 9, text);
  sp__fig_text(f, x0 - 3, y0 + PANEL_H / 2.0, "end", 9, "mem");
}

static int heat_plot(const sp_dse_result *r, FILE *fp, metric_fn value, const char *title,
                     const char *what) {
  heat h = {.r = r, .value = value, .title = title, .what = what};
  h.ne = sample_axis(r->naxis[1], MAX_CELLS, h.ie);
  h.nm = sample_axis(r->naxis[2], MAX_CELLS, h.im);
  heat_range(&h);
  size_t nc = r->naxis[0], cols = nc < PANEL_COLS ? nc : PANEL_COLS;
  size_t rows = (nc + PANEL_COLS - 1) / PANEL_COLS;
  double w = cols * (PANEL_W + PANEL_LEFT + PANEL_GAP) + 90;
  /* One or two panels are narrower than the title (13 px type, about 0.6 em
   * a character): the canvas is widened so that the title is not clipped. */
  double title_w = 13 * 0.6 * (double)strlen(title) + 20;
  if (w < title_w) w = title_w;
  sp_fig f;
  sp__fig_begin(&f, fp, w, PANEL_TOP + rows * PANEL_ROW, title, 0);
  for (size_t ic = 0; ic < nc; ic++) heat_panel(&f, &h, ic);
  sp__fig_colorbar(&f, w - 70, PANEL_TOP + 10, PANEL_H, exp(h.lo), exp(h.hi),
                   "x reference");
  sp__fig_end(&f);
  return SP_OK;
}

static int svg_heat_time(const void *d, FILE *fp) {
  return heat_plot(d, fp, m_time, "Workload time over engine x memory clock, per CU count",
                   "time");
}

static int svg_heat_energy(const void *d, FILE *fp) {
  return heat_plot(d, fp, m_energy,
                   "Workload energy over engine x memory clock, per CU count", "energy");
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
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>"
        "scalepredict dse: ", fp);
  sp__xml_text(fp, r->model_name);
  fputs("</title>\n<style>\nbody{font-family:sans-serif;max-width:1400px;margin:1em auto;"
        "padding:0 1em;color:#222}\ntable{border-collapse:collapse;margin:.5em 0}\n"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\n"
        "td:first-child,th:first-child{text-align:left}\nfigure{display:inline-block;"
        "margin:.5em;vertical-align:top}\nfigcaption{max-width:600px;font-size:90%}\n"
        ".warn{background:#fff3cd;padding:.5em;border:1px solid #e0c060}\n</style>\n"
        "</head><body>\n", fp);
}

static void html_intro(FILE *fp, const sp_dse_result *r) {
  char ref[64];
  config_label(r, r->reference, ref, sizeof ref);
  fputs("<h1>Design-space exploration</h1>\n<p>Model <b>", fp);
  sp__xml_text(fp, r->model_name);
  fprintf(fp, "</b>; workload of %zu kernel%s; %zu configurations (%zu CU counts x %zu "
              "engine x %zu memory clocks", r->nkernels, r->nkernels == 1 ? "" : "s",
          r->nconfigs, r->naxis[0], r->naxis[1], r->naxis[2]);
  if (r->params.grid_interp > 1)
    fprintf(fp, ", refined %u-fold between grid clocks by log-linear interpolation",
            r->params.grid_interp);
  fprintf(fp, "); reference %s.", ref);
  if (r->params.power_cap_w > 0) fprintf(fp, " Power cap %.4g W (peak kernel power).",
                                         r->params.power_cap_w);
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
  fprintf(fp, "<td>%s</td><td>%.4g</td><td>%.4g</td><td>%.4g</td><td>%.4g</td>"
              "<td>%.3f</td><td>%.3f</td>", cfg, c->time_ms, c->energy_mj, c->avg_power_w,
          c->peak_power_w, c->time_ms / ref->time_ms, c->energy_mj / ref->energy_mj);
}

#define CHOICE_TH                                                              \
  "<th>config</th><th>time (ms)</th><th>energy (mJ)</th><th>avg power (W)</th>" \
  "<th>peak power (W)</th><th>time / ref</th><th>energy / ref</th>"

static void html_objectives(FILE *fp, const sp_dse_result *r) {
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  fputs("<h2>Best configuration per objective</h2>\n<table><tr><th>objective</th>" CHOICE_TH
        "</tr>\n<tr><td>reference</td>", fp);
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
  fprintf(fp, "<details><summary>%zu configurations on the time-%s front</summary>\n"
              "<table><tr><th>#</th>" CHOICE_TH "</tr>\n", n, what);
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
    if (isnan(v[a])) fputs("<td>not varied</td>", fp);
    else fprintf(fp, "<td>%.3f</td>", v[a]);
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
  fputs("<table><tr><th rowspan=\"2\">kernel</th><th colspan=\"3\">time</th>"
        "<th colspan=\"3\">power</th><th colspan=\"3\">energy</th><th rowspan=\"2\">class"
        "</th></tr>\n<tr>", fp);
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
  fprintf(fp, "<h2>Candidate products, ranked by %s</h2>\n<table><tr><th>rank</th>"
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
  fputs("<h2>Kernels</h2>\n<table><tr><th>kernel</th><th>weight</th><th>time at ref (ms)"
        "</th><th>power at ref (W)</th><th>class</th><th>min-time</th><th>min-energy</th>"
        "<th>min-edp</th><th>notes</th></tr>\n", fp);
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
  fputs("<h2>Sensitivity</h2>\n<p>Elasticity: d ln(value) / d ln(axis value) between the "
        "ends of each axis through the reference; -1 means the value halves when the axis "
        "value doubles.</p>\n", fp);
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
  if (sp__c_numeric_begin(&loc))
    return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  int st = sp__reportdir_begin(&d, dir, err);
  if (!st) st = write_all(&d, r, err);
  if (!st) st = sp__reportdir_commit(&d, err);
  sp__reportdir_abort(&d, err);
  sp__c_numeric_end(&loc);
  return st;
}
