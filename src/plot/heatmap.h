/* SPDX-License-Identifier: GPL-3.0-or-later */
/* heatmap.h: heat maps, the chart of a value over two axes: one or more
 * panels (small multiples, say one per CU count) of a grid of cells, all
 * coloured on one scale (palette.h's ramp, linear or logarithmic) that a
 * colour bar explains.  The caller brackets output with
 * sp__c_numeric_begin/_end (textout.h).  Internal. */
#ifndef SP_HEATMAP_H
#define SP_HEATMAP_H

#include <stddef.h>
#include <stdio.h>

#include "figure.h"

typedef struct sp_heatmap {
  const char *title;
  const char *xlabel, *ylabel; /* under and left of each panel */
  const char *const *cols;     /* ncols column labels, left to right */
  size_t ncols;
  const char *const *rows; /* nrows row labels, bottom to top */
  size_t nrows;
  const char *const *panels; /* npanels panel titles, or NULL for none */
  size_t npanels;            /* at least 1 */
  const double *v;           /* v[(p * nrows + r) * ncols + c]; NaN: a blank cell */
  /* The rest may be left zero. */
  int log_scale;           /* colour by the logarithm (cells <= 0 are blank) */
  const char *fmt;         /* printf format of one double: the label of each
                              cell, where cells are wide enough; NULL: none */
  const char *scale_label; /* over the colour bar */
  sp_tip_fn tip;           /* cell i's tooltip is tip(tip_ctx, i, ...) (i indexes
                              v); NULL: its value (by fmt, or %.4g) */
  const void *tip_ctx;
} sp_heatmap;

/* Draws h: the colour scale runs from its least to its greatest drawn
 * value, the ramp's dark end to its light end. */
int sp__svg_heatmap(FILE *fp, const sp_heatmap *h);

#endif
