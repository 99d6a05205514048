/* SPDX-License-Identifier: GPL-3.0-or-later */
/* svgplot.c: the evaluation report's charts on figure.h's canvas. */
#include "svgplot.h"

#include <math.h>

#include "figure.h"
#include "palette.h"
#include "scalepredict.h"

#define LEGEND_W 130.0

static double or_default(double v, double d) { return v > 0 ? v : d; }

static int usable(double v, int log_axis) { return isfinite(v) && (!log_axis || v > 0); }

/* Data range of every usable point of the series. */
static void range(const sp_chart *c, const sp_series *s, size_t ns, double r[4]) {
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

int sp__svg_xy(FILE *fp, const sp_chart *c, const sp_series *s, size_t ns) {
  sp_fig f;
  double r[4];
  range(c, s, ns, r);
  if (c->diagonal) { /* one range for both axes so y = x is the diagonal */
    r[0] = r[2] = fmin(r[0], r[2]);
    r[1] = r[3] = fmax(r[1], r[3]);
  }
  sp__fig_begin(&f, fp, or_default(c->width, 720), or_default(c->height, 440), c->title,
                LEGEND_W);
  sp__fig_axes(&f, r[0], r[1], r[2], r[3], c->logx, c->logy, c->xlabel, c->ylabel);
  if (c->diagonal) {
    const double d[2] = {r[0], r[1]};
    sp__fig_polyline(&f, d, d, 2, "#444", 1, 1);
  }
  for (size_t i = 0; i < ns; i++) {
    const char *col = sp__palette(i);
    if (c->kind == SP_CHART_LINES) {
      sp__fig_polyline(&f, s[i].x, s[i].y, s[i].n, col, 2, 0);
    } else {
      for (size_t j = 0; j < s[i].n; j++)
        if (usable(s[i].x[j], c->logx) && usable(s[i].y[j], c->logy))
          sp__fig_point(&f, s[i].x[j], s[i].y[j], 2, col, NULL);
    }
    sp__fig_legend(&f, col, s[i].name, c->kind == SP_CHART_LINES);
  }
  sp__fig_end(&f);
  return ferror(fp) ? SP_EIO : SP_OK;
}

int sp__svg_bars(FILE *fp, const sp_chart *c, const char *const *labels, size_t nlabels,
                 const char *const *series, size_t nseries, const double *v) {
  sp_fig f;
  double top = 0;
  for (size_t i = 0; i < nlabels * nseries; i++)
    if (isfinite(v[i])) top = fmax(top, v[i]);
  sp__fig_begin(&f, fp, or_default(c->width, 720), or_default(c->height, 440), c->title,
                LEGEND_W);
  f.no_xticks = 1;
  sp__fig_axes(&f, 0, (double)nlabels, 0, top > 0 ? top : 1, 0, 0, c->xlabel, c->ylabel);
  double group = sp__fig_px(&f, 1) - sp__fig_px(&f, 0);
  double bw = 0.8 * group / (double)(nseries ? nseries : 1), y0 = sp__fig_py(&f, 0);
  char tip[64];
  for (size_t j = 0; j < nlabels; j++) {
    double gx = sp__fig_px(&f, (double)j) + 0.1 * group;
    for (size_t i = 0; i < nseries; i++) {
      double val = v[i * nlabels + j];
      if (!isfinite(val)) continue;
      snprintf(tip, sizeof tip, "%s: %.4g", series[i], val);
      sp__fig_rect(&f, gx + bw * (double)i, sp__fig_py(&f, val), bw, y0 - sp__fig_py(&f, val),
                   sp__palette(i), tip);
    }
    sp__fig_text(&f, gx + 0.4 * group, y0 + 14, "middle", 10, labels[j]);
  }
  for (size_t i = 0; i < nseries; i++) sp__fig_legend(&f, sp__palette(i), series[i], 0);
  sp__fig_end(&f);
  return ferror(fp) ? SP_EIO : SP_OK;
}

int sp__svg_heatmap(FILE *fp, const sp_chart *c, const char *const *cols, size_t ncols,
                    const char *const *rows, size_t nrows, const double *v, const char *fmt) {
  const double cell = ncols > 16 ? 28 : 52;
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < ncols * nrows; i++)
    if (isfinite(v[i])) lo = fmin(lo, v[i]), hi = fmax(hi, v[i]);
  sp_fig f;
  sp__fig_begin(&f, fp, 66 + 18 + 90 + cell * (double)ncols, 30 + 46 + cell * (double)nrows,
                c->title, 90);
  /* Axes in cell units: column k spans [k, k+1]; row 0 is drawn at the bottom. */
  f.no_xticks = f.no_yticks = 1;
  sp__fig_axes(&f, 0, (double)ncols, 0, (double)nrows, 0, 0, c->xlabel, c->ylabel);
  double cw = sp__fig_px(&f, 1) - sp__fig_px(&f, 0), ch = sp__fig_py(&f, 0) - sp__fig_py(&f, 1);
  char color[8], label[48];
  for (size_t r = 0; r < nrows; r++) {
    double y = sp__fig_py(&f, (double)r + 1);
    sp__fig_text(&f, sp__fig_px(&f, 0) - 5, y + ch / 2 + 3.5, "end", 10, rows[r]);
    for (size_t k = 0; k < ncols; k++) {
      double val = v[r * ncols + k], x = sp__fig_px(&f, (double)k);
      if (!isfinite(val)) continue;
      sp__ramp(hi > lo ? (val - lo) / (hi - lo) : 0.5, color);
      snprintf(label, sizeof label, fmt, val);
      sp__fig_rect(&f, x, y, cw, ch, color, label);
      if (cw >= 40) sp__fig_text(&f, x + cw / 2, y + ch / 2 + 4, "middle", 10, label);
    }
  }
  for (size_t k = 0; k < ncols; k++)
    sp__fig_text(&f, sp__fig_px(&f, (double)k + 0.5), sp__fig_py(&f, 0) + 14, "middle", 10,
                 cols[k]);
  if (hi >= lo)
    sp__fig_colorbar(&f, sp__fig_px(&f, (double)ncols) + 30, f.top, f.ph, lo, hi, "");
  sp__fig_end(&f);
  return ferror(fp) ? SP_EIO : SP_OK;
}
