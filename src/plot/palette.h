/* SPDX-License-Identifier: GPL-3.0-or-later */
/* palette.h: the colours of every chart the library draws, defined here
 * once: a categorical palette for series (the ten "category10" colours of
 * d3 and Tableau), a few neutrals for references, backgrounds, guides and
 * the plot's furniture, and a sequential ramp (viridis, which stays ordered
 * in lightness and readable with the common colour-vision deficiencies) for
 * heat maps.  A report names a palette slot where a colour carries meaning
 * (time is red and energy green in every report) and otherwise lets a chart
 * give its series the palette in order.  Internal. */
#ifndef SP_PALETTE_H
#define SP_PALETTE_H

#include <stddef.h>

typedef enum sp_color {
  /* The categorical palette, in the order series take it. */
  SP_COLOR_BLUE,
  SP_COLOR_RED,
  SP_COLOR_GREEN,
  SP_COLOR_ORANGE,
  SP_COLOR_PURPLE,
  SP_COLOR_BROWN,
  SP_COLOR_PINK,
  SP_COLOR_GREY,
  SP_COLOR_OLIVE,
  SP_COLOR_CYAN,
  SP_PALETTE_SIZE,
  /* Neutrals. */
  SP_COLOR_INK = SP_PALETTE_SIZE, /* the reference a chart compares with */
  SP_COLOR_MUTED,                 /* a background cloud of marks */
  SP_COLOR_GUIDE,                 /* dashed guide lines: thresholds, caps, y = x */
  SP_COLOR_FRAME,                 /* the plot area's frame */
  SP_COLOR_GRID,                  /* grid lines at the ticks */
  SP_COLOR_PAPER,                 /* the canvas */
  SP_COLOR_COUNT,
  /* The quantities the reports plot, one colour each in all of them. */
  SP_COLOR_TIME = SP_COLOR_RED,
  SP_COLOR_ENERGY = SP_COLOR_GREEN,
  SP_COLOR_POWER = SP_COLOR_BLUE
} sp_color;

/* c as "#rrggbb" (or an SVG colour name). */
const char *sp__color(sp_color c);
/* The colour of a chart's i-th series: the categorical palette in order,
 * starting again after its last colour. */
const char *sp__palette(size_t i);
/* The sequential ramp at t in [0, 1] (dark blue to yellow; t is clamped,
 * NaN reads as 0); out receives "#rrggbb". */
void sp__ramp(double t, char out[8]);

#endif
