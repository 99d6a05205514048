/* SPDX-License-Identifier: GPL-3.0-or-later */
/* svgplot.c: line, scatter and bar charts and notes on figure.h's canvas. */
#include "svgplot.h"

#include <math.h>

#include "palette.h"
#include "scalepredict.h"

#define TIP_MAX 256

static double or_default(double v, double d) { return v > 0 ? v : d; }

static int usable(double v, int log_axis) { return isfinite(v) && (!log_axis || v > 0); }

/* Data range of every usable point of the series, guides included. */
static void data_range(const sp_chart *c, const sp_series *s, size_t ns, double r[4]) {
  r[0] = r[2] = INFINITY;
  r[1] = r[3] = -INFINITY;
  for (size_t i = 0; i < ns; i++)
    for (size_t j = 0; j < s[i].n; j++) {
      double x = s[i].x[j], y = s[i].y[j];
      if (!usable(x, c->logx) || !usable(y, c->logy)) continue;
      r[0] = fmin(r[0], x), r[1] = fmax(r[1], x);
      r[2] = fmin(r[2], y), r[3] = fmax(r[3], y);
    }
  if (!isfinite(r[0])) r[0] = r[2] = 1, r[1] = r[3] = 2;
}

/* The chart's own ranges, where it has them, replace the data's. */
static void fixed_range(const sp_chart *c, double r[4]) {
  if (c->xmax > c->xmin) r[0] = c->xmin, r[1] = c->xmax;
  if (c->ymax > c->ymin) r[2] = c->ymin, r[3] = c->ymax;
}

static sp_mark mark_of(const sp_chart *c, const sp_series *s) {
  if (s->mark != SP_MARK_CHART) return s->mark;
  return c->kind == SP_CHART_LINES ? SP_MARK_LINE : SP_MARK_POINTS;
}

static const char *color_of(const sp_chart *c, const sp_series *s, size_t i) {
  if (s->color) return s->color;
  return mark_of(c, s) == SP_MARK_GUIDE ? sp__color(SP_COLOR_GUIDE) : sp__palette(i);
}

/* The legend column beside the plot: as wide as its longest entry needs. */
static double legend_w(const sp_chart *c, const sp_series *s, size_t ns) {
  double w = 0;
  for (size_t i = 0; i < ns && !c->legend_inside; i++) w = fmax(w, sp__fig_legend_width(s[i].name));
  return w;
}

static void draw_points(sp_fig *f, const sp_series *s, const char *color) {
  char tip[TIP_MAX];
  double r = or_default(s->radius, 2);
  for (size_t j = 0; j < s->n; j++) {
    if (s->tip) s->tip(s->tip_ctx, j, tip, sizeof tip);
    sp__fig_point(f, s->x[j], s->y[j], r, color, s->tip ? tip : NULL);
  }
}

static void draw_series(sp_fig *f, const sp_chart *c, const sp_series *s, const char *color) {
  sp_mark m = mark_of(c, s);
  if (m == SP_MARK_GUIDE)
    sp__fig_polyline(f, s->x, s->y, s->n, color, 1, 1);
  else if (m != SP_MARK_POINTS)
    sp__fig_polyline(f, s->x, s->y, s->n, color, or_default(s->width, 2), 0);
  if (m == SP_MARK_POINTS || m == SP_MARK_LINE_POINTS) draw_points(f, s, color);
  if (s->name) sp__fig_legend(f, color, s->name, m != SP_MARK_POINTS);
}

int sp__svg_xy(FILE *fp, const sp_chart *c, const sp_series *s, size_t ns) {
  sp_fig f;
  double r[4];
  data_range(c, s, ns, r);
  if (c->diagonal) { /* one range for both axes so y = x is the diagonal */
    r[0] = r[2] = fmin(r[0], r[2]);
    r[1] = r[3] = fmax(r[1], r[3]);
  }
  fixed_range(c, r);
  sp__fig_begin(&f, fp, or_default(c->width, 720), or_default(c->height, 440), c->title,
                legend_w(c, s, ns));
  sp__fig_axes(&f, r[0], r[1], r[2], r[3], c->logx, c->logy, c->xlabel, c->ylabel);
  if (c->diagonal) {
    const double d[2] = {r[0], r[1]};
    sp__fig_polyline(&f, d, d, 2, sp__color(SP_COLOR_GUIDE), 1, 1);
  }
  for (size_t i = 0; i < ns; i++) draw_series(&f, c, &s[i], color_of(c, &s[i], i));
  sp__fig_end(&f);
  return ferror(fp) ? SP_EIO : SP_OK;
}

static const char *bar_color(const sp_bars *b, size_t i) {
  return b->colors ? b->colors[i] : sp__palette(i);
}

/* One group's bars side by side, centred in its slot, and its label. */
static void bar_group(sp_fig *f, const sp_bars *b, size_t j, double base) {
  double group = sp__fig_px(f, 1) - sp__fig_px(f, 0);
  double bw = 0.8 * group / (double)(b->nseries ? b->nseries : 1);
  double gx = sp__fig_px(f, (double)j) + 0.1 * group, y0 = sp__fig_py(f, base);
  char tip[TIP_MAX];
  for (size_t i = 0; i < b->nseries; i++) {
    double val = b->v[i * b->ngroups + j];
    if (!isfinite(val)) continue;
    snprintf(tip, sizeof tip, "%s %s: %.4g", b->groups[j], b->series[i], val);
    double y = sp__fig_py(f, val);
    sp__fig_rect(f, gx + bw * (double)i, fmin(y, y0), bw, fabs(y0 - y), bar_color(b, i), tip);
  }
  sp__fig_text(f, gx + 0.4 * group, f->top + f->ph + 14, "middle", 10, b->groups[j]);
}

int sp__svg_bars(FILE *fp, const sp_chart *c, const sp_bars *b) {
  double top = 0, lw = 0;
  for (size_t i = 0; i < b->ngroups * b->nseries; i++)
    if (isfinite(b->v[i])) top = fmax(top, b->v[i]);
  for (size_t i = 0; i < b->nseries && !c->legend_inside; i++)
    lw = fmax(lw, sp__fig_legend_width(b->series[i]));
  double r[4] = {0, (double)b->ngroups, 0, top > 0 ? top : 1};
  fixed_range(c, r);
  sp_fig f;
  sp__fig_begin(&f, fp, or_default(c->width, 720), or_default(c->height, 440), c->title, lw);
  f.no_xticks = 1;
  sp__fig_axes(&f, 0, (double)b->ngroups, r[2], r[3], 0, 0, c->xlabel, c->ylabel);
  for (size_t j = 0; j < b->ngroups; j++) bar_group(&f, b, j, fmax(r[2], 0));
  for (size_t i = 0; i < b->nseries; i++) sp__fig_legend(&f, bar_color(b, i), b->series[i], 0);
  sp__fig_end(&f);
  return ferror(fp) ? SP_EIO : SP_OK;
}

int sp__svg_note(FILE *fp, const sp_chart *c, const char *text) {
  sp_fig f;
  double w = fmax(or_default(c->width, 720), ceil(sp__fig_text_width(text, 13) + 20));
  sp__fig_begin(&f, fp, w, or_default(c->height, 120), c->title, 0);
  sp__fig_text(&f, f.width / 2, f.height / 2 + 10, "middle", 13, text);
  sp__fig_end(&f);
  return ferror(fp) ? SP_EIO : SP_OK;
}
