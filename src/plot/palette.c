/* SPDX-License-Identifier: GPL-3.0-or-later */
/* palette.c: the one palette of the charts. */
#include "palette.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>

static const char *const colors[SP_COLOR_COUNT] = {
    [SP_COLOR_BLUE] = "#1f77b4",   [SP_COLOR_RED] = "#d62728",    [SP_COLOR_GREEN] = "#2ca02c",
    [SP_COLOR_ORANGE] = "#ff7f0e", [SP_COLOR_PURPLE] = "#9467bd", [SP_COLOR_BROWN] = "#8c564b",
    [SP_COLOR_PINK] = "#e377c2",   [SP_COLOR_GREY] = "#7f7f7f",   [SP_COLOR_OLIVE] = "#bcbd22",
    [SP_COLOR_CYAN] = "#17becf",   [SP_COLOR_INK] = "#000000",    [SP_COLOR_MUTED] = "#c8c8c8",
    [SP_COLOR_GUIDE] = "#888",     [SP_COLOR_FRAME] = "#555",     [SP_COLOR_GRID] = "#e4e4e4",
    [SP_COLOR_PAPER] = "white"};

const char *sp__color(sp_color c) {
  assert(c >= 0 && c < SP_COLOR_COUNT);
  return colors[c];
}

const char *sp__palette(size_t i) { return colors[i % SP_PALETTE_SIZE]; }

void sp__ramp(double t, char out[8]) {
  /* Five stops of viridis, interpolated linearly in sRGB. */
  static const unsigned char stops[5][3] = {{0x44, 0x01, 0x54},
                                            {0x3b, 0x52, 0x8b},
                                            {0x21, 0x91, 0x8c},
                                            {0x5e, 0xc9, 0x62},
                                            {0xfd, 0xe7, 0x25}};
  if (!(t >= 0)) t = 0;
  if (t > 1) t = 1;
  double s = t * 4;
  int i = s >= 4 ? 3 : (int)s;
  double w = s - i;
  int c[3];
  for (int k = 0; k < 3; k++) c[k] = (int)lround(stops[i][k] + w * (stops[i + 1][k] - stops[i][k]));
  snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}
