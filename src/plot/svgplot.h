/* SPDX-License-Identifier: GPL-3.0-or-later */
/* svgplot.h: whole charts, the one chart layer of the evaluation, dse and
 * governor reports: line and scatter charts (with guide lines, tooltips and
 * marks of their own size and colour), grouped bars, and a note in place of
 * a chart that has no data; heat maps are in heatmap.h.  A report says what
 * to draw; the chart lays it out on figure.h's canvas in palette.h's
 * colours.  The caller brackets output with sp__c_numeric_begin/_end
 * (textout.h).  Internal. */
#ifndef SP_SVGPLOT_H
#define SP_SVGPLOT_H

#include <stddef.h>
#include <stdio.h>

#include "figure.h"

typedef enum sp_chart_kind { SP_CHART_LINES, SP_CHART_POINTS } sp_chart_kind;

/* How a series is drawn. */
typedef enum sp_mark {
  SP_MARK_CHART, /* as the chart's kind says */
  SP_MARK_LINE,
  SP_MARK_POINTS,
  SP_MARK_LINE_POINTS, /* a line with a point at each vertex */
  SP_MARK_GUIDE        /* a thin dashed line in the guide colour: a threshold, a cap */
} sp_mark;

typedef struct sp_series {
  const char *name;    /* its legend entry; NULL: none */
  const double *x, *y; /* n points; those a linear or log axis cannot show are skipped */
  size_t n;
  /* The rest may be left zero for the chart's defaults. */
  sp_mark mark;
  const char *color; /* NULL: sp__palette(the series' index) */
  double width;      /* line width in pixels (2) */
  double radius;     /* point radius in pixels (2) */
  sp_tip_fn tip;     /* point j's tooltip is tip(tip_ctx, j, ...); NULL: none */
  const void *tip_ctx;
} sp_series;

typedef struct sp_chart {
  const char *title, *xlabel, *ylabel;
  sp_chart_kind kind;   /* how series of mark SP_MARK_CHART are drawn */
  int logx, logy;       /* logarithmic axes (non-positive values are skipped) */
  int diagonal;         /* a y = x guide on a shared range (predicted vs measured) */
  double width, height; /* the canvas (0: 720 x 440), widened to fit the title */
  /* The rest may be left zero. */
  int legend_inside; /* the legend in the plot's top right corner, not beside it */
  double xmin, xmax; /* the x axis' range where xmax > xmin, else the data's */
  double ymin, ymax; /* likewise for y */
} sp_chart;

/* Line or scatter chart of several series with a legend. */
int sp__svg_xy(FILE *fp, const sp_chart *c, const sp_series *s, size_t ns);

typedef struct sp_bars {
  const char *const *groups; /* the labels along the x axis */
  size_t ngroups;
  const char *const *series; /* a bar in each group and a legend entry each */
  size_t nseries;
  const char *const *colors; /* one per series; NULL: the palette in order */
  const double *v;           /* v[i * ngroups + j]: series i in group j; NaN: no bar */
} sp_bars;

/* Grouped bar chart from 0 (or c's y range) up. */
int sp__svg_bars(FILE *fp, const sp_chart *c, const sp_bars *b);

/* A chart with nothing to draw: c's title, and text saying why. */
int sp__svg_note(FILE *fp, const sp_chart *c, const char *text);

#endif
