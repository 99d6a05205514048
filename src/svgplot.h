/* svgplot.h: small self-contained SVG charts for reports (no external
 * plotting program needed).  Internal to libscalepredict. */
#ifndef SP_SVGPLOT_H
#define SP_SVGPLOT_H

#include <stddef.h>
#include <stdio.h>

typedef struct sp_series {
  const char *name;
  const double *x, *y; /* n points; NaN points are skipped */
  size_t n;
} sp_series;

typedef enum sp_chart_kind { SP_CHART_LINES, SP_CHART_POINTS } sp_chart_kind;

typedef struct sp_chart {
  const char *title, *xlabel, *ylabel;
  sp_chart_kind kind;
  int logx, logy;   /* logarithmic axes (values must be positive) */
  int diagonal;     /* draw y = x (predicted vs measured plots) */
  double width, height;
} sp_chart;

/* Line or scatter chart of several series with a legend. */
int sp__svg_xy(FILE *fp, const sp_chart *c, const sp_series *s, size_t ns);
/* Grouped bar chart: v[i * nlabels + j] is series i at label j. */
int sp__svg_bars(FILE *fp, const sp_chart *c, const char *const *labels, size_t nlabels,
                 const char *const *series, size_t nseries, const double *v);
/* Heat map: v[row * ncols + col], NaN cells left blank; each cell shows its
 * value with fmt (printf format for one double, e.g. "%.1f"). */
int sp__svg_heatmap(FILE *fp, const sp_chart *c, const char *const *cols, size_t ncols,
                    const char *const *rows, size_t nrows, const double *v,
                    const char *fmt);
/* Writes s with XML special characters escaped. */
void sp__svg_text(FILE *fp, const char *s);

#endif
