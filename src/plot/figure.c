/* SPDX-License-Identifier: GPL-3.0-or-later */
/* figure.c: SVG canvas, axes and marks under the charts. */
#include "figure.h"

#include <math.h>
#include <string.h>

#include "palette.h"
#include "util/textout.h"

enum { MARGIN_LEFT = 66, MARGIN_RIGHT = 18, MARGIN_TOP = 30, MARGIN_BOTTOM = 46 };
#define MAX_TICKS 12
#define TITLE_SIZE 13
/* The width of an average character of a sans-serif face, in em: wide
 * enough for DejaVu Sans, which is wider than Arial or Helvetica. */
#define CHAR_EM 0.6

double sp__fig_text_width(const char *text, double size) {
  return text ? CHAR_EM * size * (double)strlen(text) : 0;
}

void sp__fig_begin(sp_fig *f, FILE *fp, double w, double h, const char *title, double legend_w) {
  memset(f, 0, sizeof *f);
  /* A canvas narrower than its title would clip it: widen it instead. */
  w = fmax(w, ceil(sp__fig_text_width(title, TITLE_SIZE) + 20));
  f->fp = fp;
  f->width = w;
  f->height = h;
  f->left = MARGIN_LEFT;
  f->top = MARGIN_TOP;
  f->pw = w - MARGIN_LEFT - MARGIN_RIGHT - legend_w;
  f->legend_w = legend_w;
  f->ph = h - MARGIN_TOP - MARGIN_BOTTOM;
  fprintf(fp,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
          "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n"
          "<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n",
          w, h, w, h, sp__color(SP_COLOR_PAPER));
  if (title) sp__fig_text(f, w / 2, 18, "middle", TITLE_SIZE, title);
}

void sp__fig_end(sp_fig *f) { fputs("</svg>\n", f->fp); }

double sp__fig_px(const sp_fig *f, double x) {
  double v = f->logx ? log10(x) : x;
  return f->left + (v - f->x0) / (f->x1 - f->x0) * f->pw;
}

double sp__fig_py(const sp_fig *f, double y) {
  double v = f->logy ? log10(y) : y;
  return f->top + f->ph - (v - f->y0) / (f->y1 - f->y0) * f->ph;
}

static double nice_step(double raw) {
  double p = pow(10, floor(log10(raw)));
  static const double m[] = {1, 2, 5, 10};
  for (size_t i = 0; i < 4; i++)
    if (m[i] * p >= raw) return m[i] * p;
  return 10 * p;
}

static size_t linear_ticks(double lo, double hi, double *t, size_t max) {
  double step = nice_step((hi - lo) / (double)(max > 2 ? max - 1 : 1));
  size_t n = 0;
  for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 && n < max; v += step)
    t[n++] = fabs(v) < step * 1e-9 ? 0.0 : v;
  return n;
}

size_t sp__fig_ticks(double lo, double hi, int log_axis, double *ticks, size_t max) {
  if (!(hi > lo) || max == 0) {
    if (max) ticks[0] = lo;
    return max ? 1 : 0;
  }
  if (!log_axis) return linear_ticks(lo, hi, ticks, max);
  if (hi - lo < 1.0) {
    /* Less than a decade: round numbers in value space. */
    size_t n = linear_ticks(pow(10, lo), pow(10, hi), ticks, max);
    for (size_t i = 0; i < n; i++) ticks[i] = log10(ticks[i]);
    return n;
  }
  static const double sub[] = {1, 2, 5};
  size_t per = hi - lo < 3 ? 3 : 1, n = 0;
  double every = ceil((hi - lo + 1) / (double)max);
  for (double d = floor(lo); d <= hi && n < max; d += every)
    for (size_t s = 0; s < per && n < max; s++) {
      double v = d + log10(sub[s]);
      if (v >= lo - 1e-9 && v <= hi + 1e-9) ticks[n++] = v;
    }
  return n;
}

static void tick_label(char *buf, size_t size, double v, int log_axis) {
  snprintf(buf, size, "%.6g", log_axis ? pow(10, v) : v);
}

static void draw_x_ticks(sp_fig *f) {
  double t[MAX_TICKS];
  char label[32];
  size_t n = sp__fig_ticks(f->x0, f->x1, f->logx, t, MAX_TICKS);
  double yb = f->top + f->ph;
  for (size_t i = 0; i < n; i++) {
    double x = f->left + (t[i] - f->x0) / (f->x1 - f->x0) * f->pw;
    fprintf(f->fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x,
            f->top, x, yb, sp__color(SP_COLOR_GRID));
    tick_label(label, sizeof label, t[i], f->logx);
    sp__fig_text(f, x, yb + 14, "middle", 10, label);
  }
}

static void draw_y_ticks(sp_fig *f) {
  double t[MAX_TICKS];
  char label[32];
  size_t n = sp__fig_ticks(f->y0, f->y1, f->logy, t, 8);
  for (size_t i = 0; i < n; i++) {
    double y = f->top + f->ph - (t[i] - f->y0) / (f->y1 - f->y0) * f->ph;
    fprintf(f->fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
            f->left, y, f->left + f->pw, y, sp__color(SP_COLOR_GRID));
    tick_label(label, sizeof label, t[i], f->logy);
    sp__fig_text(f, f->left - 5, y + 3.5, "end", 10, label);
  }
}

/* Widens a degenerate range so that a flat series still has an axis. */
static void widen(double *lo, double *hi, int log_axis) {
  if (*hi > *lo) return;
  double pad = log_axis ? 0.05 : (*lo != 0 ? fabs(*lo) * 0.05 : 1.0);
  *lo -= pad;
  *hi += pad;
}

/* Keeps marks at the extremes off the frame. */
static void pad(double *lo, double *hi) {
  double p = (*hi - *lo) * 0.04;
  *lo -= p;
  *hi += p;
}

void sp__fig_axes(sp_fig *f, double xmin, double xmax, double ymin, double ymax, int logx, int logy,
                  const char *xlabel, const char *ylabel) {
  f->logx = logx;
  f->logy = logy;
  f->x0 = logx ? log10(xmin) : xmin;
  f->x1 = logx ? log10(xmax) : xmax;
  f->y0 = logy ? log10(ymin) : ymin;
  f->y1 = logy ? log10(ymax) : ymax;
  widen(&f->x0, &f->x1, logx);
  widen(&f->y0, &f->y1, logy);
  pad(&f->x0, &f->x1);
  pad(&f->y0, &f->y1);
  if (!f->no_xticks) draw_x_ticks(f);
  if (!f->no_yticks) draw_y_ticks(f);
  sp__fig_frame(f, f->left, f->top, f->pw, f->ph);
  if (xlabel) sp__fig_text(f, f->left + f->pw / 2, f->height - 8, "middle", 11, xlabel);
  if (ylabel) sp__fig_vtext(f, 14, f->top + f->ph / 2, 11, ylabel);
}

/* A tooltip is a <title> first in a group around the mark: browsers show it
 * on hover and simple renderers draw the mark anyway. */
static void tooltip_open(FILE *fp, const char *text) {
  if (!text) return;
  fputs("<g><title>", fp);
  sp__xml_text(fp, text);
  fputs("</title>", fp);
}

static void tooltip_close(FILE *fp, const char *text) { fputs(text ? "</g>\n" : "\n", fp); }

/* Whether a point can be drawn: finite, and positive on a log axis. */
static int visible(const sp_fig *f, double x, double y) {
  return isfinite(x) && isfinite(y) && (!f->logx || x > 0) && (!f->logy || y > 0);
}

void sp__fig_point(sp_fig *f, double x, double y, double r, const char *fill, const char *tip) {
  if (!visible(f, x, y)) return;
  tooltip_open(f->fp, tip);
  fprintf(f->fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"none\"/>",
          sp__fig_px(f, x), sp__fig_py(f, y), r, fill);
  tooltip_close(f->fp, tip);
}

void sp__fig_polyline(sp_fig *f, const double *x, const double *y, size_t n, const char *stroke,
                      double width, int dashed) {
  fprintf(f->fp, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s points=\"", stroke,
          width, dashed ? " stroke-dasharray=\"4 3\"" : "");
  for (size_t i = 0; i < n; i++)
    if (visible(f, x[i], y[i]))
      fprintf(f->fp, "%.1f,%.1f ", sp__fig_px(f, x[i]), sp__fig_py(f, y[i]));
  fputs("\"/>\n", f->fp);
}

void sp__fig_legend(sp_fig *f, const char *color, const char *label, int line) {
  double x = f->legend_w > 0 ? f->left + f->pw + 12 : f->left + f->pw - 150;
  double y = f->top + 12 + 15 * (double)f->legend++;
  if (line)
    fprintf(f->fp,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
            "stroke-width=\"2\"/>\n",
            x, y - 3, x + 16, y - 3, color);
  else
    fprintf(f->fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" stroke=\"none\"/>\n", x + 8,
            y - 3, color);
  sp__fig_text(f, x + 22, y + 1, "start", 10, label);
}

double sp__fig_legend_width(const char *label) {
  /* sp__fig_legend's geometry: 12 px off the plot, the text 22 px further,
   * and 8 px to spare after it. */
  return label ? 12 + 22 + sp__fig_text_width(label, 10) + 8 : 0;
}

void sp__fig_rect(sp_fig *f, double x, double y, double w, double h, const char *fill,
                  const char *tip) {
  tooltip_open(f->fp, tip);
  fprintf(f->fp,
          "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
          "stroke=\"none\"/>",
          x, y, w, h, fill);
  tooltip_close(f->fp, tip);
}

void sp__fig_frame(sp_fig *f, double x, double y, double w, double h) {
  fprintf(f->fp,
          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
          "stroke=\"%s\"/>\n",
          x, y, w, h, sp__color(SP_COLOR_FRAME));
}

void sp__fig_vtext(sp_fig *f, double x, double y, double size, const char *text) {
  fprintf(f->fp,
          "<text transform=\"translate(%g %.1f) rotate(-90)\" "
          "text-anchor=\"middle\" font-size=\"%.0f\">",
          x, y, size);
  sp__xml_text(f->fp, text);
  fputs("</text>\n", f->fp);
}

void sp__fig_text(sp_fig *f, double x, double y, const char *anchor, double size,
                  const char *text) {
  fprintf(f->fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\">", x, y, anchor,
          size);
  sp__xml_text(f->fp, text);
  fputs("</text>\n", f->fp);
}

void sp__fig_colorbar(sp_fig *f, double x, double y, double h, double lo, double hi,
                      const char *label) {
  enum { STEPS = 32 };
  char color[8], text[32];
  for (int i = 0; i < STEPS; i++) {
    sp__ramp((i + 0.5) / STEPS, color);
    sp__fig_rect(f, x, y + h - (i + 1) * h / STEPS, 12, h / STEPS + 0.5, color, NULL);
  }
  snprintf(text, sizeof text, "%.3g", hi);
  sp__fig_text(f, x + 16, y + 8, "start", 10, text);
  snprintf(text, sizeof text, "%.3g", lo);
  sp__fig_text(f, x + 16, y + h, "start", 10, text);
  if (label) sp__fig_text(f, x, y - 6, "start", 10, label);
}
