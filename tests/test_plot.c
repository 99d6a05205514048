/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_plot.c: the chart layer (src/plot): the palette and its ramp, heat
 * maps (cells drawn, blank cells, the colour scale's ends, log scales,
 * panels), bar heights in proportion to their values, line and scatter
 * charts (palette order, guides, tooltips, log axes), titles that fit. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/heatmap.h"
#include "plot/palette.h"
#include "plot/svgplot.h"
#include "util/textout.h"

/* ---- helpers ------------------------------------------------------------------ */

typedef int (*draw_fn)(FILE *fp, const void *what);

/* What draw writes, as a malloc'ed string; the drawing must succeed. */
static char *render(draw_fn draw, const void *what) {
  char *buf = NULL;
  size_t size = 0;
  FILE *fp = open_memstream(&buf, &size);
  ck_assert_ptr_nonnull(fp);
  sp_c_numeric loc;
  ck_assert_int_eq(sp__c_numeric_begin(&loc), 0);
  ck_assert_int_eq(draw(fp, what), 0);
  sp__c_numeric_end(&loc);
  ck_assert_int_eq(fclose(fp), 0);
  ck_assert_ptr_nonnull(buf);
  return buf;
}

static size_t count(const char *s, const char *what) {
  size_t n = 0;
  for (const char *p = strstr(s, what); p; p = strstr(p + 1, what)) n++;
  return n;
}

/* The number in attribute name="..." of the element starting at tag. */
static double attr(const char *tag, const char *name) {
  char key[32];
  snprintf(key, sizeof key, " %s=\"", name);
  const char *end = strchr(tag, '>'), *p = strstr(tag, key);
  ck_assert_msg(p && end && p < end, "no %s in %.60s", name, tag);
  return strtod(p + strlen(key), NULL);
}

/* The text of attribute name of the element at tag, in buf. */
static const char *attr_text(const char *tag, const char *name, char *buf, size_t size) {
  char key[32];
  snprintf(key, sizeof key, " %s=\"", name);
  const char *p = strstr(tag, key);
  ck_assert_ptr_nonnull(p);
  p += strlen(key);
  size_t n = strcspn(p, "\"");
  ck_assert_uint_lt(n, size);
  memcpy(buf, p, n);
  buf[n] = '\0';
  return buf;
}

/* The mark whose tooltip is tip, or NULL when there is none. */
static const char *mark_with_tip(const char *svg, const char *tip) {
  char key[96];
  snprintf(key, sizeof key, "<title>%s</title>", tip);
  const char *p = strstr(svg, key);
  return p ? p + strlen(key) : NULL;
}

static double svg_width(const char *svg) { return attr(svg, "width"); }

/* ---- palette ---------------------------------------------------------------------- */

START_TEST(test_palette_cycles) {
  for (size_t i = 0; i < SP_PALETTE_SIZE; i++) {
    ck_assert_str_eq(sp__palette(i), sp__color((sp_color)i));
    ck_assert_str_eq(sp__palette(i + 3 * SP_PALETTE_SIZE), sp__palette(i));
    ck_assert_uint_eq(strlen(sp__palette(i)), 7);
    for (size_t j = 0; j < i; j++) ck_assert_str_ne(sp__palette(i), sp__palette(j));
  }
  /* The neutrals are not series colours. */
  for (int c = SP_COLOR_INK; c < SP_COLOR_COUNT; c++)
    for (size_t i = 0; i < SP_PALETTE_SIZE; i++)
      ck_assert_str_ne(sp__color((sp_color)c), sp__palette(i));
}
END_TEST

static double lightness(const char *hex) {
  unsigned r, g, b;
  ck_assert_int_eq(sscanf(hex, "#%02x%02x%02x", &r, &g, &b), 3);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

START_TEST(test_ramp_ends_and_order) {
  char c[8], d[8];
  sp__ramp(0, c);
  ck_assert_str_eq(c, "#440154");
  sp__ramp(1, c);
  ck_assert_str_eq(c, "#fde725");
  sp__ramp(-2.5, d);
  sp__ramp(0, c);
  ck_assert_str_eq(c, d);
  sp__ramp(NAN, d);
  ck_assert_str_eq(c, d);
  sp__ramp(7.25, d);
  sp__ramp(1, c);
  ck_assert_str_eq(c, d);
  /* Lighter all the way up: the order reads without hue. */
  double last = -1;
  for (int i = 0; i <= 40; i++) {
    sp__ramp(i / 40.0, c);
    ck_assert_double_gt(lightness(c), last);
    last = lightness(c);
  }
}
END_TEST

/* ---- heat maps -------------------------------------------------------------------- */

static int draw_heatmap(FILE *fp, const void *h) { return sp__svg_heatmap(fp, h); }

static void tip_index(const void *ctx, size_t i, char *buf, size_t size) {
  (void)ctx;
  snprintf(buf, size, "cell %zu", i);
}

static const char *const cols3[3] = {"500", "750", "1000"};
static const char *const rows2[2] = {"475", "1375"};
static const char *const panels2[2] = {"16 CUs", "32 CUs"};

/* Two panels of 3 x 2 cells; cell 4 is missing and cell 9 is not positive. */
static const double cells[12] = {2.385,  1.5, 1.125, 3.75, NAN,  0.8125,
                                 1.0625, 7.5, 0.45,  -1,   2.25, 5.25};

static sp_heatmap two_panels(int log_scale) {
  return (sp_heatmap){.title = "time over engine x memory clock",
                      .xlabel = "engine (MHz)",
                      .ylabel = "memory (MHz)",
                      .cols = cols3,
                      .ncols = 3,
                      .rows = rows2,
                      .nrows = 2,
                      .panels = panels2,
                      .npanels = 2,
                      .v = cells,
                      .log_scale = log_scale,
                      .scale_label = "x reference",
                      .tip = tip_index};
}

static const char *cell_fill(const char *svg, size_t i, char *buf) {
  char tip[32];
  snprintf(tip, sizeof tip, "cell %zu", i);
  const char *m = mark_with_tip(svg, tip);
  ck_assert_msg(m != NULL, "no cell %zu", i);
  return attr_text(m, "fill", buf, 8);
}

START_TEST(test_heatmap_cells_and_scale) {
  sp_heatmap h = two_panels(0);
  char *svg = render(draw_heatmap, &h);
  /* Every finite cell once, the missing one blank. */
  ck_assert_uint_eq(count(svg, "<title>cell "), 11);
  ck_assert_ptr_null(mark_with_tip(svg, "cell 4"));
  /* The least value at the ramp's dark end, the greatest at its light end,
   * one in between in proportion. */
  char fill[8], want[8];
  ck_assert_str_eq(cell_fill(svg, 9, fill), "#440154");
  ck_assert_str_eq(cell_fill(svg, 7, fill), "#fde725");
  sp__ramp((2.385 + 1) / (7.5 + 1), want);
  ck_assert_str_eq(cell_fill(svg, 0, fill), want);
  /* The colour bar names the scale's ends and says what it measures. */
  ck_assert_ptr_nonnull(strstr(svg, ">7.5</text>"));
  ck_assert_ptr_nonnull(strstr(svg, ">-1</text>"));
  ck_assert_ptr_nonnull(strstr(svg, ">x reference</text>"));
  ck_assert_ptr_nonnull(strstr(svg, ">16 CUs</text>"));
  ck_assert_ptr_nonnull(strstr(svg, ">32 CUs</text>"));
  free(svg);
}
END_TEST

START_TEST(test_heatmap_log_scale) {
  sp_heatmap h = two_panels(1);
  char *svg = render(draw_heatmap, &h);
  /* A cell that is not positive has no logarithm: it is left blank. */
  ck_assert_uint_eq(count(svg, "<title>cell "), 10);
  ck_assert_ptr_null(mark_with_tip(svg, "cell 9"));
  char fill[8], want[8];
  ck_assert_str_eq(cell_fill(svg, 8, fill), "#440154");
  ck_assert_str_eq(cell_fill(svg, 7, fill), "#fde725");
  sp__ramp((log(1.5) - log(0.45)) / (log(7.5) - log(0.45)), want);
  ck_assert_str_eq(cell_fill(svg, 1, fill), want);
  ck_assert_ptr_nonnull(strstr(svg, ">0.45</text>"));
  free(svg);
}
END_TEST

START_TEST(test_heatmap_geometry) {
  sp_heatmap h = two_panels(0);
  char *svg = render(draw_heatmap, &h);
  /* Square cells of one size; row 0 is drawn below row 1, column 0 left of
   * column 1; panel 2 right of panel 1 on the same rows. */
  const char *c0 = mark_with_tip(svg, "cell 0"), *c1 = mark_with_tip(svg, "cell 1");
  const char *c3 = mark_with_tip(svg, "cell 3"), *c6 = mark_with_tip(svg, "cell 6");
  double side = attr(c0, "width");
  ck_assert_double_gt(side, 6);
  ck_assert_double_eq_tol(attr(c0, "height"), side, 1e-9);
  ck_assert_double_eq_tol(attr(c1, "x") - attr(c0, "x"), side - 0.3, 0.011);
  ck_assert_double_eq_tol(attr(c0, "y") - attr(c3, "y"), side - 0.3, 0.011);
  ck_assert_double_gt(attr(c6, "x"), attr(c0, "x") + 3 * side);
  ck_assert_double_eq_tol(attr(c6, "y"), attr(c0, "y"), 1e-9);
  free(svg);
}
END_TEST

START_TEST(test_heatmap_labels) {
  static const double v[4] = {12.3, 3.5, NAN, 47.7};
  sp_heatmap h = {.title = "one panel",
                  .cols = cols3,
                  .ncols = 2,
                  .rows = rows2,
                  .nrows = 2,
                  .npanels = 1,
                  .v = v,
                  .fmt = "%.1f"};
  char *svg = render(draw_heatmap, &h);
  /* Without a tip function a cell's tooltip is its label. */
  ck_assert_ptr_nonnull(mark_with_tip(svg, "12.3"));
  ck_assert_ptr_nonnull(mark_with_tip(svg, "47.7"));
  ck_assert_ptr_nonnull(strstr(svg, ">3.5</text>"));
  /* The least cell is dark: its label is drawn light. */
  ck_assert_ptr_nonnull(strstr(svg, "<g fill=\"white\"><text"));
  ck_assert_uint_eq(count(svg, "<g><title>"), 3);
  free(svg);
}
END_TEST

START_TEST(test_heatmap_title_fits) {
  static const double v[1] = {2.385};
  sp_heatmap h = {.title = "a title much longer than one small panel of a single cell is wide",
                  .cols = cols3,
                  .ncols = 1,
                  .rows = rows2,
                  .nrows = 1,
                  .npanels = 1,
                  .v = v};
  char *svg = render(draw_heatmap, &h);
  ck_assert_double_ge(svg_width(svg), 7.0 * (double)strlen(h.title));
  free(svg);
}
END_TEST

/* ---- bars -------------------------------------------------------------------------- */

typedef struct bars_job {
  sp_chart c;
  sp_bars b;
} bars_job;

static int draw_bars(FILE *fp, const void *what) {
  const bars_job *j = what;
  return sp__svg_bars(fp, &j->c, &j->b);
}

START_TEST(test_bars_proportional) {
  static const char *const groups[3] = {"reference", "model", "oracle"};
  static const char *const series[2] = {"time", "energy"};
  static const double v[6] = {1.25, 2.5, 0.625, 0.875, NAN, 3.125};
  const char *colors[2] = {sp__color(SP_COLOR_RED), sp__color(SP_COLOR_GREEN)};
  bars_job j = {.c = {.title = "bars", .ylabel = "relative"},
                .b = {.groups = groups,
                      .ngroups = 3,
                      .series = series,
                      .nseries = 2,
                      .colors = colors,
                      .v = v}};
  char *svg = render(draw_bars, &j);
  ck_assert_uint_eq(count(svg, "<g><title>"), 5);
  ck_assert_ptr_null(mark_with_tip(svg, "model energy: nan"));
  static const char *const tips[6] = {"reference time: 1.25",
                                      "model time: 2.5",
                                      "oracle time: 0.625",
                                      "reference energy: 0.875",
                                      NULL,
                                      "oracle energy: 3.125"};
  /* The scale from the tallest bar, whose rounding matters least. */
  const char *top = mark_with_tip(svg, tips[5]);
  ck_assert_ptr_nonnull(top);
  double scale = attr(top, "height") / v[5], base = attr(top, "y") + attr(top, "height");
  char fill[8];
  for (int i = 0; i < 6; i++) {
    if (!tips[i]) continue;
    const char *m = mark_with_tip(svg, tips[i]);
    ck_assert_msg(m != NULL, "no bar '%s'", tips[i]);
    /* One baseline, heights in proportion to the values (to the 0.01 px
     * the file keeps), the series' colour. */
    ck_assert_double_eq_tol(attr(m, "height"), scale * v[i], 0.011);
    ck_assert_double_eq_tol(attr(m, "y") + attr(m, "height"), base, 0.011);
    ck_assert_str_eq(attr_text(m, "fill", fill, sizeof fill), colors[i / 3]);
  }
  /* Bars of a group side by side, groups left to right. */
  ck_assert_double_lt(attr(mark_with_tip(svg, tips[0]), "x"),
                      attr(mark_with_tip(svg, tips[3]), "x"));
  ck_assert_double_lt(attr(mark_with_tip(svg, tips[3]), "x"),
                      attr(mark_with_tip(svg, tips[1]), "x"));
  free(svg);
}
END_TEST

START_TEST(test_bars_palette_by_default) {
  static const char *const groups[1] = {"0-10"};
  static const char *const series[3] = {"wu2015", "oracle", "physet"};
  static const double v[3] = {75, 80, 100};
  bars_job j = {.c = {.title = "bars"},
                .b = {.groups = groups, .ngroups = 1, .series = series, .nseries = 3, .v = v}};
  char *svg = render(draw_bars, &j);
  char fill[8];
  ck_assert_str_eq(attr_text(mark_with_tip(svg, "0-10 physet: 100"), "fill", fill, 8),
                   sp__palette(2));
  ck_assert_str_eq(attr_text(mark_with_tip(svg, "0-10 wu2015: 75"), "fill", fill, 8),
                   sp__palette(0));
  free(svg);
}
END_TEST

/* ---- line and scatter charts ---------------------------------------------------------- */

typedef struct xy_job {
  sp_chart c;
  const sp_series *s;
  size_t ns;
} xy_job;

static int draw_xy(FILE *fp, const void *what) {
  const xy_job *j = what;
  return sp__svg_xy(fp, &j->c, j->s, j->ns);
}

static void tip_point(const void *ctx, size_t i, char *buf, size_t size) {
  snprintf(buf, size, "%s %zu", (const char *)ctx, i);
}

START_TEST(test_xy_series) {
  static const double x[4] = {1.5, 3.25, -2, 12.5}, y[4] = {2.385, 0.75, 4, 9.125};
  static const double gx[2] = {1, 10}, gy[2] = {5, 5};
  const sp_series s[3] = {
      {.name = "cloud",
       .x = x,
       .y = y,
       .n = 4,
       .mark = SP_MARK_POINTS,
       .tip = tip_point,
       .tip_ctx = "p"},
      {.name = "front", .x = x, .y = y, .n = 4, .mark = SP_MARK_LINE, .width = 1.5},
      {.x = gx, .y = gy, .n = 2, .mark = SP_MARK_GUIDE}};
  xy_job j = {.c = {.title = "xy", .logx = 1, .logy = 1}, .s = s, .ns = 3};
  char *svg = render(draw_xy, &j);
  /* The point a log axis cannot show is skipped; the others carry tips. */
  ck_assert_uint_eq(count(svg, "<circle"), 3 + 1); /* and the cloud's legend marker */
  ck_assert_ptr_nonnull(mark_with_tip(svg, "p 0"));
  ck_assert_ptr_null(mark_with_tip(svg, "p 2"));
  ck_assert_ptr_nonnull(mark_with_tip(svg, "p 3"));
  char buf[16];
  ck_assert_str_eq(attr_text(mark_with_tip(svg, "p 3"), "fill", buf, sizeof buf), sp__palette(0));
  /* The line in the second colour, the guide dashed in the guide colour
   * and out of the legend. */
  const char *line = strstr(svg, "<polyline");
  ck_assert_ptr_nonnull(line);
  ck_assert_str_eq(attr_text(line, "stroke", buf, sizeof buf), sp__palette(1));
  ck_assert_double_eq_tol(attr(line, "stroke-width"), 1.5, 1e-9);
  const char *guide = strstr(line + 1, "<polyline");
  ck_assert_ptr_nonnull(guide);
  ck_assert_str_eq(attr_text(guide, "stroke", buf, sizeof buf), sp__color(SP_COLOR_GUIDE));
  ck_assert_ptr_nonnull(strstr(guide, "stroke-dasharray"));
  ck_assert_uint_eq(count(svg, "<polyline"), 2);
  ck_assert_uint_eq(count(svg, ">front</text>") + count(svg, ">cloud</text>"), 2);
  free(svg);
}
END_TEST

START_TEST(test_xy_fixed_range) {
  static const double x[2] = {2, 3}, y[2] = {40, 60};
  const sp_series s[1] = {{.name = "power", .x = x, .y = y, .n = 2}};
  xy_job j = {.c = {.title = "timeline",
                    .kind = SP_CHART_LINES,
                    .xmin = 0,
                    .xmax = 10,
                    .ymin = 0,
                    .ymax = 200},
              .s = s,
              .ns = 1};
  char *svg = render(draw_xy, &j);
  /* The axes span the fixed ranges, not the data's. */
  ck_assert_ptr_nonnull(strstr(svg, ">0</text>"));
  ck_assert_ptr_nonnull(strstr(svg, ">200</text>"));
  ck_assert_ptr_nonnull(strstr(svg, ">10</text>"));
  free(svg);
}
END_TEST

typedef struct note_job {
  sp_chart c;
  const char *text;
} note_job;

static int draw_note(FILE *fp, const void *what) {
  const note_job *j = what;
  return sp__svg_note(fp, &j->c, j->text);
}

START_TEST(test_note_fits) {
  note_job j = {.c = {.title = "Workload along the memory clock axis", .width = 420},
                .text = "not varied: the model's grid has one memory clock value (1375)"};
  char *svg = render(draw_note, &j);
  ck_assert_ptr_nonnull(strstr(svg, "not varied"));
  ck_assert_ptr_null(strstr(svg, "<polyline"));
  ck_assert_double_ge(svg_width(svg), 7.0 * (double)strlen(j.text));
  free(svg);
}
END_TEST

static Suite *plot_suite(void) {
  Suite *s = suite_create("plot");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_palette_cycles);
  tcase_add_test(tc, test_ramp_ends_and_order);
  tcase_add_test(tc, test_heatmap_cells_and_scale);
  tcase_add_test(tc, test_heatmap_log_scale);
  tcase_add_test(tc, test_heatmap_geometry);
  tcase_add_test(tc, test_heatmap_labels);
  tcase_add_test(tc, test_heatmap_title_fits);
  tcase_add_test(tc, test_bars_proportional);
  tcase_add_test(tc, test_bars_palette_by_default);
  tcase_add_test(tc, test_xy_series);
  tcase_add_test(tc, test_xy_fixed_range);
  tcase_add_test(tc, test_note_fits);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(plot_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
