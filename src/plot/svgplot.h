/* SPDX-License-Identifier: GPL-3.0-or-later */
/* svgplot.h: whole charts for the evaluation report (line and scatter
 * charts, grouped bars, heat maps), drawn with the canvas primitives of
 * figure.h.  The caller brackets output with sp__c_numeric_begin/_end
 * (textout.h).  Internal. */
#ifndef SP_SVGPLOT_H
#define SP_SVGPLOT_H

#include <stddef.h>
#include <stdio.h>

typedef struct sp_series {
  const char *name;
  const double *x, *y; /* n points; non-finite points are skipped */
  size_t n;
} sp_series;

typedef enum sp_chart_kind { SP_CHART_LINES, SP_CHART_POINTS } sp_chart_kind;

typedef struct sp_chart {
  const char *title, *xlabel, *ylabel;
  sp_chart_kind kind;
  int logx, logy;   /* logarithmic axes (non-positive values are skipped) */
  int diagonal;     /* draw y = x on a shared range (predicted vs measured) */
  double width, height;
} sp_chart;

/* Line or scatter chart of several series with a legend. */
int sp__svg_xy(FILE *fp, const sp_chart *c, const sp_series *s, size_t ns);
/* Grouped bar chart: v[i * nlabels + j] is series i at label j. */
int sp__svg_bars(FILE *fp, const sp_chart *c, const char *const *labels, size_t nlabels,
                 const char *const *series, size_t nseries, const double *v);
/* Heat map: v[row * ncols + col], non-finite cells left blank; each cell is
 * labelled with fmt (a printf format for one double, e.g. "%.1f"). */
int sp__svg_heatmap(FILE *fp, const sp_chart *c, const char *const *cols, size_t ncols,
                    const char *const *rows, size_t nrows, const double *v,
                    const char *fmt);

#endif
