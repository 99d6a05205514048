/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_wavefit.c: the sampled base measurement's fit, extrapolation and
 * stopping rule (training/runner/wavefit.c) on synthetic wave timings. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "wavefit.h"

/* A kernel whose launch costs START ms plus RATE ms per wave, with a
 * ramp-up on the first waves (caches and clocks) and a small alternating
 * jitter. */
#define START 0.0873
#define RATE 0.2385
#define FULL 313.0

static double synthetic(double w, int i) {
  double ramp = w < 2.0 ? 0.041 * (2.0 - w) : 0.0;
  double jitter = (i % 2 ? 1.0 : -1.0) * 0.0013;
  return START + RATE * w + ramp + jitter;
}

/* Samples as measure_sampled does; returns the points taken. */
static int sample(wavefit *f, double tol) {
  double w;
  int i = 0;
  wavefit_init(f, FULL, tol, 0.5);
  while ((w = wavefit_next(f)) > 0.0)
    if (wavefit_add(f, w, synthetic(w, i++))) break;
  return f->n;
}

START_TEST(test_recovers_full_time) {
  wavefit f;
  wavefit_result r;
  sample(&f, 0.02);
  ck_assert_int_eq(f.settled, 1);
  /* The ramped first wave is left out of the fit. */
  ck_assert_int_ge(f.first, 1);
  ck_assert_int_eq(wavefit_solve(&f, &r), 0);
  ck_assert_int_eq(r.n, 3);
  double full = START + RATE * FULL;
  ck_assert_double_lt(fabs(r.pred_ms - full) / full, 0.01);
  ck_assert_double_lt(fabs(r.b - RATE) / RATE, 0.01);
  /* The error estimate is finite and covers the true error. */
  ck_assert(isfinite(r.se_ms) && r.se_ms > 0.0);
  ck_assert_double_lt(fabs(r.pred_ms - full), 4.0 * r.se_ms + 1e-3 * full);
}
END_TEST

START_TEST(test_stops_early) {
  wavefit f;
  /* A settled rate stops the schedule long before half of the grid. */
  int n = sample(&f, 0.02);
  ck_assert_int_ge(n, 3);
  ck_assert_double_lt(f.w[n - 1], 0.5 * FULL / 4.0);
  /* A tighter tolerance asks for at least as many points. */
  wavefit g;
  ck_assert_int_ge(sample(&g, 1e-6), n);
}
END_TEST

START_TEST(test_unsettled_runs_out) {
  wavefit f;
  double w;
  int i = 0;
  /* A rate that keeps growing (time quadratic in waves) never settles;
   * the schedule ends at half of the 20-wave grid. */
  wavefit_init(&f, 20.0, 0.02, 0.5);
  while ((w = wavefit_next(&f)) > 0.0) ck_assert_int_eq(wavefit_add(&f, w, 0.31 * w * w + i++), 0);
  ck_assert_int_eq(f.settled, 0);
  ck_assert_double_le(f.w[f.n - 1], 10.0);
  ck_assert_int_eq(f.n, 6); /* 1 2 3 4 6 8 */
  ck_assert_int_eq(f.first, 0);
}
END_TEST

START_TEST(test_next_skips_rounded_points) {
  wavefit f;
  /* A point rounded up to 4.7 waves (whole rows) is followed by 6, not by
   * the 3 and 4 it already passed. */
  wavefit_init(&f, 100.0, 0.02, 0.5);
  ck_assert_double_eq(wavefit_next(&f), 1.0);
  wavefit_add(&f, 4.7, 1.3);
  ck_assert_double_eq(wavefit_next(&f), 6.0);
}
END_TEST

START_TEST(test_degenerate_fits) {
  wavefit f;
  wavefit_result r;
  wavefit_init(&f, 50.0, 0.02, 0.5);
  ck_assert_int_eq(wavefit_solve(&f, &r), -1); /* no points */
  wavefit_add(&f, 2.0, 0.71);
  ck_assert_int_eq(wavefit_solve(&f, &r), -1); /* one point */
  wavefit_add(&f, 3.0, 0.97);
  wavefit_add(&f, 4.0, 1.19);
  ck_assert_int_eq(wavefit_solve(&f, &r), 0);
  ck_assert(isfinite(r.se_ms));
  /* Two points: a line, but no error estimate. */
  wavefit_init(&f, 50.0, 0.02, 0.5);
  wavefit_add(&f, 1.0, 0.4);
  wavefit_add(&f, 2.0, 0.6);
  ck_assert_int_eq(wavefit_solve(&f, &r), 0);
  ck_assert(isnan(r.se_ms));
  ck_assert_double_lt(fabs(r.pred_ms - (0.2 + 0.2 * 50.0)), 1e-9);
}
END_TEST

START_TEST(test_few_waves_has_no_schedule) {
  wavefit f;
  wavefit_init(&f, 1.5, 0.02, 0.5);
  ck_assert_double_eq(wavefit_next(&f), 0.0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("wavefit");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_recovers_full_time);
  tcase_add_test(tc, test_stops_early);
  tcase_add_test(tc, test_unsettled_runs_out);
  tcase_add_test(tc, test_next_skips_rounded_points);
  tcase_add_test(tc, test_degenerate_fits);
  tcase_add_test(tc, test_few_waves_has_no_schedule);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
