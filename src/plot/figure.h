/* SPDX-License-Identifier: GPL-3.0-or-later */
/* figure.h: the small SVG writer under the charts of svgplot.h and
 * heatmap.h: a canvas with one plot area, linear or logarithmic axes with
 * round-number ticks, and the few marks the charts draw.  Everything is
 * written straight to a FILE; the caller brackets it with
 * sp__c_numeric_begin/_end (textout.h) so coordinates use '.' decimals.
 * The reports use the charts, not this.  Internal. */
#ifndef SP_FIGURE_H
#define SP_FIGURE_H

#include <stddef.h>
#include <stdio.h>

typedef struct sp_fig {
  FILE *fp;
  double width, height;
  double left, top, pw, ph; /* the plot area in pixels */
  double x0, x1, y0, y1;    /* data range (log10 of it on log axes) */
  int logx, logy;
  size_t legend;   /* legend entries drawn so far */
  double legend_w; /* legend column right of the plot, or 0 */
  int no_xticks;   /* set before sp__fig_axes: category axis */
  int no_yticks;   /* likewise for the y axis */
} sp_fig;

/* Writes the tooltip of item i of a chart (a point of a series, a cell of a
 * heat map) into buf, from the caller's ctx. */
typedef void (*sp_tip_fn)(const void *ctx, size_t i, char *buf, size_t size);

/* Opens an SVG canvas of w x h pixels with a title line at the top, widened
 * where the title would not fit; the plot area leaves margins for tick
 * labels and axis titles, and a column of legend_w pixels on the right for
 * the legend (0: the legend goes inside the plot's top right corner). */
void sp__fig_begin(sp_fig *f, FILE *fp, double w, double h, const char *title, double legend_w);
/* Sets the data range and draws the frame, grid, ticks and axis titles.
 * Log axes need positive ranges. */
void sp__fig_axes(sp_fig *f, double xmin, double xmax, double ymin, double ymax, int logx, int logy,
                  const char *xlabel, const char *ylabel);
void sp__fig_end(sp_fig *f);

/* Data to pixel coordinates. */
double sp__fig_px(const sp_fig *f, double x);
double sp__fig_py(const sp_fig *f, double y);

/* Marks in data coordinates; tooltip may be NULL. */
void sp__fig_point(sp_fig *f, double x, double y, double r, const char *fill, const char *tooltip);
void sp__fig_polyline(sp_fig *f, const double *x, const double *y, size_t n, const char *stroke,
                      double width, int dashed);
/* The next legend entry (marker or line). */
void sp__fig_legend(sp_fig *f, const char *color, const char *label, int line);
/* The width of a legend column that fits an entry for label (0 for NULL). */
double sp__fig_legend_width(const char *label);

/* Marks in pixel coordinates. */
void sp__fig_rect(sp_fig *f, double x, double y, double w, double h, const char *fill,
                  const char *tooltip);
/* An unfilled rectangle in the frame colour. */
void sp__fig_frame(sp_fig *f, double x, double y, double w, double h);
void sp__fig_text(sp_fig *f, double x, double y, const char *anchor, double size, const char *text);
/* Text centred on (x, y) and turned to read upwards: a y axis title. */
void sp__fig_vtext(sp_fig *f, double x, double y, double size, const char *text);
/* About how wide text is at size pixels (no font metrics: a conservative
 * average character width). */
double sp__fig_text_width(const char *text, double size);

/* A vertical colour bar (palette.h's ramp) at pixel (x, y) of height h for values lo..hi. */
void sp__fig_colorbar(sp_fig *f, double x, double y, double h, double lo, double hi,
                      const char *label);

/* Tick positions for [lo, hi]: round numbers (1, 2, 5 x 10^k), at most max
 * of them; on a log axis lo and hi are log10 values and ticks are returned
 * as log10 values too.  Returns the count. */
size_t sp__fig_ticks(double lo, double hi, int log_axis, double *ticks, size_t max);

#endif
