/* SPDX-License-Identifier: GPL-3.0-or-later */
/* heatmap.c: heat maps as a grid of panels on figure.h's canvas.
 *
 * Every panel has the same square cells.  Cells that carry a label keep the
 * room the label needs; others shrink so that a panel of many cells stays
 * about PANEL_MAX pixels wide.  A column or row label is drawn at every cell
 * when cells are wide enough for it, else at the first and last only. */
#include "heatmap.h"

#include <assert.h>
#include <math.h>

#include "palette.h"
#include "scalepredict.h"

enum { PANEL_MAX = 168, CELL_MAX = 52, CELL_NARROW = 28, CELL_MIN = 6, LABELLED_CELL = 40 };
enum { TOP = 30, PANEL_TITLE = 18, BELOW = 40, YLABEL_W = 20, GAP = 24, PER_ROW = 4 };
enum { BAR_W = 12, BAR_MIN_H = 100, TIP_MAX = 256 };

typedef struct layout {
  double cell;            /* a cell's side in pixels */
  double rowlab;          /* room for the row labels left of a panel */
  double head, foot;      /* room above and below a panel */
  double slot_w, slot_h;  /* a panel with its labels */
  size_t per_row;         /* panels in a row of the grid */
  int all_cols, all_rows; /* label every column (row), not just the ends */
  double lo, hi;          /* the colour scale (logarithms on a log scale) */
  size_t drawn;           /* cells with a colour */
} layout;

static int drawn(const sp_heatmap *h, double v) { return isfinite(v) && (!h->log_scale || v > 0); }

static double scaled(const sp_heatmap *h, double v) { return h->log_scale ? log(v) : v; }

static double widest(const char *const *labels, size_t n, double size) {
  double w = 0;
  for (size_t i = 0; i < n; i++) w = fmax(w, sp__fig_text_width(labels[i], size));
  return w;
}

static double cell_size(const sp_heatmap *h) {
  if (h->fmt) return h->ncols > 16 ? CELL_NARROW : CELL_MAX;
  size_t n = h->ncols > h->nrows ? h->ncols : h->nrows;
  return fmin(CELL_MAX, fmax(CELL_MIN, floor((double)PANEL_MAX / (double)n)));
}

static void color_scale(const sp_heatmap *h, layout *l) {
  l->lo = INFINITY;
  l->hi = -INFINITY;
  l->drawn = 0;
  for (size_t i = 0; i < h->npanels * h->nrows * h->ncols; i++) {
    if (!drawn(h, h->v[i])) continue;
    double s = scaled(h, h->v[i]);
    l->lo = fmin(l->lo, s);
    l->hi = fmax(l->hi, s);
    l->drawn++;
  }
}

static void lay_out(const sp_heatmap *h, layout *l) {
  l->cell = cell_size(h);
  double pw = l->cell * (double)h->ncols, ph = l->cell * (double)h->nrows;
  l->all_cols = l->cell >= widest(h->cols, h->ncols, 10) + 4;
  l->all_rows = l->cell >= 14;
  l->rowlab = widest(h->rows, h->nrows, 10) + 8;
  /* A y label longer than the panel is tall reaches above and below it. */
  double over = fmax(0, (sp__fig_text_width(h->ylabel, 11) - ph) / 2);
  l->head = fmax(h->panels ? PANEL_TITLE : 0, over);
  l->foot = fmax(BELOW, over);
  l->slot_w = YLABEL_W + l->rowlab + pw + GAP;
  l->slot_h = l->head + ph + l->foot;
  l->per_row = h->npanels < PER_ROW ? h->npanels : PER_ROW;
  color_scale(h, l);
}

static void cell_tip(const sp_heatmap *h, size_t i, char *buf, size_t size) {
  if (h->tip)
    h->tip(h->tip_ctx, i, buf, size);
  else
    snprintf(buf, size, h->fmt ? h->fmt : "%.4g", h->v[i]);
}

/* Cell i at pixel (x, y), labelled in the paper's colour on the ramp's dark
 * half so that the label stays readable. */
static void cell(sp_fig *f, const sp_heatmap *h, const layout *l, size_t i, double x, double y) {
  double t = l->hi > l->lo ? (scaled(h, h->v[i]) - l->lo) / (l->hi - l->lo) : 0.5;
  char color[8], tip[TIP_MAX], label[64];
  sp__ramp(t, color);
  cell_tip(h, i, tip, sizeof tip);
  /* A sliver of overlap hides the seams renderers leave between cells. */
  sp__fig_rect(f, x, y, l->cell + 0.3, l->cell + 0.3, color, tip);
  if (!h->fmt || l->cell < LABELLED_CELL) return;
  snprintf(label, sizeof label, h->fmt, h->v[i]);
  if (t < 0.5) fprintf(f->fp, "<g fill=\"%s\">", sp__color(SP_COLOR_PAPER));
  sp__fig_text(f, x + l->cell / 2, y + l->cell / 2 + 4, "middle", 10, label);
  if (t < 0.5) fputs("</g>\n", f->fp);
}

static void axis_labels(sp_fig *f, const sp_heatmap *h, const layout *l, double x0, double y0) {
  double ph = l->cell * (double)h->nrows, pw = l->cell * (double)h->ncols;
  for (size_t c = 0; c < h->ncols; c++)
    if (l->all_cols || c == 0 || c + 1 == h->ncols)
      sp__fig_text(f, x0 + l->cell * ((double)c + 0.5), y0 + ph + 14, "middle", 10, h->cols[c]);
  for (size_t r = 0; r < h->nrows; r++)
    if (l->all_rows || r == 0 || r + 1 == h->nrows)
      sp__fig_text(f, x0 - 5, y0 + ph - l->cell * ((double)r + 0.5) + 3.5, "end", 10, h->rows[r]);
  if (h->xlabel) sp__fig_text(f, x0 + pw / 2, y0 + ph + 30, "middle", 11, h->xlabel);
  if (h->ylabel) sp__fig_vtext(f, x0 - l->rowlab - YLABEL_W / 2 + 4, y0 + ph / 2, 11, h->ylabel);
}

static void panel(sp_fig *f, const sp_heatmap *h, const layout *l, size_t p) {
  double x0 = (double)(p % l->per_row) * l->slot_w + YLABEL_W + l->rowlab;
  double y0 = TOP + (double)(p / l->per_row) * l->slot_h + l->head;
  double pw = l->cell * (double)h->ncols, ph = l->cell * (double)h->nrows;
  if (h->panels) sp__fig_text(f, x0 + pw / 2, y0 - 5, "middle", 11, h->panels[p]);
  for (size_t r = 0; r < h->nrows; r++)
    for (size_t c = 0; c < h->ncols; c++) {
      size_t i = (p * h->nrows + r) * h->ncols + c;
      if (drawn(h, h->v[i]))
        cell(f, h, l, i, x0 + l->cell * (double)c, y0 + ph - l->cell * (double)(r + 1));
    }
  sp__fig_frame(f, x0, y0, pw, ph);
  axis_labels(f, h, l, x0, y0);
}

/* The colour bar right of the panels, with the scale's ends in values. */
static void color_bar(sp_fig *f, const sp_heatmap *h, const layout *l, double x, double h_bar) {
  if (!l->drawn) return;
  double lo = h->log_scale ? exp(l->lo) : l->lo, hi = h->log_scale ? exp(l->hi) : l->hi;
  /* Level with the panels, with room for the scale's label above it. */
  double y = TOP + fmax(l->head, h->scale_label ? 14 : 0);
  sp__fig_colorbar(f, x, y, h_bar, lo, hi, h->scale_label);
}

int sp__svg_heatmap(FILE *fp, const sp_heatmap *h) {
  assert(h->npanels > 0 && h->ncols > 0 && h->nrows > 0);
  layout l;
  lay_out(h, &l);
  size_t prows = (h->npanels + l.per_row - 1) / l.per_row;
  double bar_h = fmax(l.cell * (double)h->nrows, BAR_MIN_H);
  double bar_w =
      BAR_W + 4 +
      fmax(sp__fig_text_width("0.000e+00", 10), sp__fig_text_width(h->scale_label, 10) - BAR_W);
  double w = (double)l.per_row * l.slot_w + bar_w + 10;
  double ht = fmax(TOP + (double)prows * l.slot_h, TOP + fmax(l.head, 14) + bar_h + 30);
  sp_fig f;
  sp__fig_begin(&f, fp, ceil(w), ceil(ht), h->title, 0);
  for (size_t p = 0; p < h->npanels; p++) panel(&f, h, &l, p);
  color_bar(&f, h, &l, (double)l.per_row * l.slot_w, bar_h);
  sp__fig_end(&f);
  return ferror(fp) ? SP_EIO : SP_OK;
}
