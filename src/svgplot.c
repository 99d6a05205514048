/* svgplot.c: axis scaling, ticks and the three chart kinds. */
#include "svgplot.h"

#include <math.h>
#include <string.h>

#include "scalepredict.h"

#define MARGIN_L 70.0
#define MARGIN_R 150.0
#define MARGIN_T 40.0
#define MARGIN_B 55.0

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                      "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                                      "#bcbd22", "#17becf"};
#define NCOLORS (sizeof palette / sizeof *palette)

void sp__svg_text(FILE *fp, const char *s) {
  for (; s && *s; s++) {
    if (*s == '<') fputs("&lt;", fp);
    else if (*s == '>') fputs("&gt;", fp);
    else if (*s == '&') fputs("&amp;", fp);
    else if (*s == '"') fputs("&quot;", fp);
    else fputc(*s, fp);
  }
}

typedef struct axis {
  double lo, hi;   /* data range (in log10 when log) */
  int log;
  double p0, p1;   /* pixel range */
} axis;

static double tr(const axis *a, double v) {
  double t = a->log ? log10(v) : v;
  return a->p0 + (t - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

static void fit_axis(axis *a, const sp_series *s, size_t ns, int use_x, int log,
                     double extra_lo, double extra_hi) {
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < ns; i++)
    for (size_t j = 0; j < s[i].n; j++) {
      double v = use_x ? s[i].x[j] : s[i].y[j];
      if (!isfinite(v) || (log && v <= 0)) continue;
      v = log ? log10(v) : v;
      lo = fmin(lo, v);
      hi = fmax(hi, v);
    }
  if (!isfinite(lo)) lo = 0, hi = 1;
  lo = fmin(lo, extra_lo);
  hi = fmax(hi, extra_hi);
  if (hi - lo < 1e-12) {
    lo -= 0.5;
    hi += 0.5;
  }
  double pad = 0.04 * (hi - lo);
  a->lo = lo - pad;
  a->hi = hi + pad;
  a->log = log;
}

static double nice_step(double range) {
  double raw = range / 6.0, mag = pow(10, floor(log10(raw))), f = raw / mag;
  return mag * (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10);
}

static void header(FILE *fp, const sp_chart *c, double w, double h) {
  fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
              "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
              "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
          w, h, w, h);
  fprintf(fp, "<text x=\"%.1f\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">", w / 2);
  sp__svg_text(fp, c->title);
  fputs("</text>\n", fp);
}

static void tick_label(FILE *fp, const axis *a, double t, char *buf, size_t n) {
  double v = a->log ? pow(10, t) : t;
  snprintf(buf, n, "%g", fabs(v) < 1e-12 ? 0.0 : v);
  (void)fp;
}

static void draw_axes(FILE *fp, const sp_chart *c, const axis *x, const axis *y) {
  char buf[32];
  fprintf(fp, "<g stroke=\"#999\" fill=\"none\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
              "height=\"%.1f\"/></g>\n",
          x->p0, y->p1, x->p1 - x->p0, y->p0 - y->p1);
  const axis *ax[2] = {x, y};
  for (int i = 0; i < 2; i++) {
    const axis *a = ax[i];
    double step = a->log ? 1.0 : nice_step(a->hi - a->lo);
    for (double t = ceil(a->lo / step) * step; t <= a->hi + 1e-9; t += step) {
      double p = a->p0 + (t - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
      tick_label(fp, a, t, buf, sizeof buf);
      if (i == 0)
        fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                p, y->p0, p, y->p1, p, y->p0 + 16, buf);
      else
        fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                x->p0, p, x->p1, p, x->p0 - 6, p + 4, buf);
    }
  }
  fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (x->p0 + x->p1) / 2,
          y->p0 + 38);
  sp__svg_text(fp, c->xlabel);
  fprintf(fp, "</text>\n<text transform=\"translate(18,%.1f) rotate(-90)\" "
              "text-anchor=\"middle\">", (y->p0 + y->p1) / 2);
  sp__svg_text(fp, c->ylabel);
  fputs("</text>\n", fp);
}

static void legend(FILE *fp, double x, double y, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++) {
    fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                "<text x=\"%.1f\" y=\"%.1f\">", x, y + 18.0 * (double)i,
            palette[i % NCOLORS], x + 18, y + 18.0 * (double)i + 10);
    sp__svg_text(fp, names[i]);
    fputs("</text>\n", fp);
  }
}

static void plot_area(const sp_chart *c, double *w, double *h, axis *x, axis *y) {
  *w = c->width > 0 ? c->width : 720;
  *h = c->height > 0 ? c->height : 440;
  x->p0 = MARGIN_L;
  x->p1 = *w - MARGIN_R;
  y->p0 = *h - MARGIN_B;
  y->p1 = MARGIN_T;
}

int sp__svg_xy(FILE *fp, const sp_chart *c, const sp_series *s, size_t ns) {
  double w, h;
  axis x, y;
  plot_area(c, &w, &h, &x, &y);
  fit_axis(&x, s, ns, 1, c->logx, INFINITY, -INFINITY);
  fit_axis(&y, s, ns, 0, c->logy, INFINITY, -INFINITY);
  if (c->diagonal) { /* a shared range so y = x is the 45-degree line */
    double lo = fmin(x.lo, y.lo), hi = fmax(x.hi, y.hi);
    x.lo = y.lo = lo;
    x.hi = y.hi = hi;
  }
  header(fp, c, w, h);
  draw_axes(fp, c, &x, &y);
  if (c->diagonal)
    fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" "
                "stroke-dasharray=\"4 3\"/>\n", x.p0, y.p0, x.p1, y.p1);
  const char *names[64];
  for (size_t i = 0; i < ns; i++) {
    const char *col = palette[i % NCOLORS];
    if (i < 64) names[i] = s[i].name;
    if (c->kind == SP_CHART_LINES) fprintf(fp, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
    for (size_t j = 0; j < s[i].n; j++) {
      double a = s[i].x[j], b = s[i].y[j];
      if (!isfinite(a) || !isfinite(b) || (c->logx && a <= 0) || (c->logy && b <= 0)) continue;
      if (c->kind == SP_CHART_LINES) fprintf(fp, "%.1f,%.1f ", tr(&x, a), tr(&y, b));
      else fprintf(fp, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\" fill-opacity=\"0.5\"/>\n",
                   tr(&x, a), tr(&y, b), col);
    }
    if (c->kind == SP_CHART_LINES) fputs("\"/>\n", fp);
  }
  legend(fp, x.p1 + 12, y.p1, names, ns < 64 ? ns : 64);
  fputs("</svg>\n", fp);
  return ferror(fp) ? SP_EIO : SP_OK;
}

int sp__svg_bars(FILE *fp, const sp_chart *c, const char *const *labels, size_t nlabels,
                 const char *const *series, size_t nseries, const double *v) {
  double w, h;
  axis x, y;
  plot_area(c, &w, &h, &x, &y);
  double top = 0;
  for (size_t i = 0; i < nlabels * nseries; i++)
    if (isfinite(v[i])) top = fmax(top, v[i]);
  y.lo = 0;
  y.hi = top > 0 ? top * 1.08 : 1;
  y.log = 0;
  header(fp, c, w, h);
  fprintf(fp, "<g stroke=\"#999\" fill=\"none\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
              "height=\"%.1f\"/></g>\n", x.p0, y.p1, x.p1 - x.p0, y.p0 - y.p1);
  double step = nice_step(y.hi);
  for (double t = 0; t <= y.hi; t += step)
    fprintf(fp, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
            x.p0, tr(&y, t), x.p1, tr(&y, t), x.p0 - 6, tr(&y, t) + 4, t);
  double group = (x.p1 - x.p0) / (double)(nlabels ? nlabels : 1);
  double bw = 0.8 * group / (double)(nseries ? nseries : 1);
  for (size_t j = 0; j < nlabels; j++) {
    double gx = x.p0 + group * (double)j + 0.1 * group;
    for (size_t i = 0; i < nseries; i++) {
      double val = v[i * nlabels + j];
      if (!isfinite(val)) continue;
      fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                  "<title>%g</title></rect>\n",
              gx + bw * (double)i, tr(&y, val), bw, y.p0 - tr(&y, val), palette[i % NCOLORS], val);
    }
    fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", gx + 0.4 * group, y.p0 + 16);
    sp__svg_text(fp, labels[j]);
    fputs("</text>\n", fp);
  }
  fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (x.p0 + x.p1) / 2, y.p0 + 38);
  sp__svg_text(fp, c->xlabel);
  fprintf(fp, "</text>\n<text transform=\"translate(18,%.1f) rotate(-90)\" text-anchor=\"middle\">",
          (y.p0 + y.p1) / 2);
  sp__svg_text(fp, c->ylabel);
  fputs("</text>\n", fp);
  legend(fp, x.p1 + 12, y.p1, series, nseries);
  fputs("</svg>\n", fp);
  return ferror(fp) ? SP_EIO : SP_OK;
}

/* White (low) to dark red (high). */
static void heat_color(double t, char *buf, size_t n) {
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  int r = (int)(255 - 75 * t), g = (int)(245 - 215 * t), b = (int)(235 - 205 * t);
  snprintf(buf, n, "#%02x%02x%02x", r, g, b);
}

int sp__svg_heatmap(FILE *fp, const sp_chart *c, const char *const *cols, size_t ncols,
                    const char *const *rows, size_t nrows, const double *v, const char *fmt) {
  double cell = ncols > 16 ? 28 : 52, w = MARGIN_L + 40 + cell * (double)ncols + 40;
  double h = MARGIN_T + 20 + cell * (double)nrows + MARGIN_B;
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < ncols * nrows; i++)
    if (isfinite(v[i])) lo = fmin(lo, v[i]), hi = fmax(hi, v[i]);
  header(fp, c, w, h);
  double x0 = MARGIN_L + 40, y0 = MARGIN_T + 10;
  char col[16], label[32];
  for (size_t r = 0; r < nrows; r++) {
    /* The first row is drawn at the bottom so the y axis grows upward. */
    double y = y0 + cell * (double)(nrows - 1 - r);
    fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", x0 - 6, y + cell / 2 + 4);
    sp__svg_text(fp, rows[r]);
    fputs("</text>\n", fp);
    for (size_t k = 0; k < ncols; k++) {
      double val = v[r * ncols + k];
      if (!isfinite(val)) continue;
      heat_color(hi > lo ? (val - lo) / (hi - lo) : 0.5, col, sizeof col);
      snprintf(label, sizeof label, fmt, val);
      fprintf(fp, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                  "stroke=\"white\"><title>%s</title></rect>",
              x0 + cell * (double)k, y, cell, cell, col, label);
      if (cell >= 40)
        fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\">%s</text>",
                x0 + cell * ((double)k + 0.5), y + cell / 2 + 4, label);
      fputc('\n', fp);
    }
  }
  for (size_t k = 0; k < ncols; k++) {
    fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x0 + cell * ((double)k + 0.5),
            y0 + cell * (double)nrows + 16);
    sp__svg_text(fp, cols[k]);
    fputs("</text>\n", fp);
  }
  fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x0 + cell * (double)ncols / 2,
          y0 + cell * (double)nrows + 38);
  sp__svg_text(fp, c->xlabel);
  fprintf(fp, "</text>\n<text transform=\"translate(18,%.1f) rotate(-90)\" text-anchor=\"middle\">",
          y0 + cell * (double)nrows / 2);
  sp__svg_text(fp, c->ylabel);
  fputs("</text>\n</svg>\n", fp);
  return ferror(fp) ? SP_EIO : SP_OK;
}
