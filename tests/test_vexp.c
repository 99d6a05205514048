/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_vexp.c: unit tests for the array exponential of the interval ends
 * (src/model/vexp.h): its accuracy against libm's exp, libm's own answer
 * where e^x is not a normal number, and bits that do not depend on where
 * a value falls in the array. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/vexp.h"

enum { N = 200003 };

/* Values spread over [lo, hi] by a fixed LCG. */
static void spread(double *x, size_t n, double lo, double hi) {
  unsigned long s = 2385;
  for (size_t i = 0; i < n; i++) {
    s = (s * 1103515245UL + 12345UL) % 2147483648UL;
    x[i] = lo + (hi - lo) * (double)s / 2147483648.0;
  }
}

/* The largest distance of y[i] from libm's scale * exp(x[i]), in units
 * in the last place of the latter. */
static double worst_ulps(const double *x, const double *y, size_t n, double scale) {
  double worst = 0;
  for (size_t i = 0; i < n; i++) {
    const double e = scale * exp(x[i]), ulp = nextafter(e, INFINITY) - e;
    const double u = fabs(y[i] - e) / ulp;
    worst = u > worst ? u : worst;
  }
  return worst;
}

static void check_range(double lo, double hi, double scale) {
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  ck_assert_ptr_nonnull(x);
  ck_assert_ptr_nonnull(y);
  spread(x, N, lo, hi);
  memcpy(y, x, N * sizeof *y);
  sp__vexp_scaled(y, N, scale);
  const double w = worst_ulps(x, y, N, scale);
  ck_assert_msg(w <= 2, "[%g, %g] x %g: %g ulps from libm", lo, hi, scale, w);
  free(x);
  free(y);
}

START_TEST(test_accuracy) {
  check_range(-0.35, 0.35, 1);
  check_range(-4.7, 3.9, 1);
  check_range(-707.9, 708.9, 1);
  check_range(-2.3, 2.9, 0.0413);
}
END_TEST

/* Where e^x is not a normal number, and NaN, the answer is libm's for
 * the whole block of four the value falls in. */
START_TEST(test_outside) {
  double x[8] = {NAN, INFINITY, -INFINITY, 709.5, -745.2, -708.4, 0.7, -1.3};
  double y[8];
  memcpy(y, x, sizeof y);
  sp__vexp_scaled(y, 8, 1.0);
  ck_assert(isnan(y[0]));
  ck_assert(isinf(y[1]) && y[1] > 0);
  ck_assert(y[2] == 0);
  for (size_t i = 3; i < 8; i++)
    ck_assert_msg(memcmp(&y[i], &(double){exp(x[i])}, sizeof y[i]) == 0, "x = %g", x[i]);
}
END_TEST

/* A value whose e^x here differs from libm's in the last bit (one in ten
 * or so), so that a place computed by libm instead would show. */
static double differing_value(void) {
  double x[64], y[64];
  spread(x, 64, -3.1, 2.2);
  memcpy(y, x, sizeof y);
  sp__vexp_scaled(y, 64, 1.0);
  for (size_t i = 0; i < 64; i++)
    if (y[i] != exp(x[i])) return x[i];
  return NAN;
}

/* A value's bits are the same alone, at every place in an array, and in
 * the last few past the blocks of four; scale multiplies the result. */
START_TEST(test_position) {
  const double v = differing_value();
  ck_assert_msg(!isnan(v), "no value of 64 whose e^x differs from libm's");
  double alone = v;
  sp__vexp_scaled(&alone, 1, 1.0);
  for (size_t n = 1; n <= 11; n++)
    for (size_t at = 0; at < n; at++) {
      double x[11];
      spread(x, n, -3.1, 2.2);
      x[at] = v;
      sp__vexp_scaled(x, n, 1.0);
      ck_assert_msg(memcmp(&x[at], &alone, sizeof alone) == 0, "n %zu at %zu", n, at);
    }
  double scaled = v;
  sp__vexp_scaled(&scaled, 1, 2.385);
  ck_assert(scaled == alone * 2.385);
}
END_TEST

START_TEST(test_empty) {
  double x = 1.25;
  sp__vexp_scaled(&x, 0, 3.0);
  ck_assert(x == 1.25);
}
END_TEST

static Suite *vexp_suite(void) {
  Suite *s = suite_create("vexp");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_accuracy);
  tcase_add_test(tc, test_outside);
  tcase_add_test(tc, test_position);
  tcase_add_test(tc, test_empty);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(vexp_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
