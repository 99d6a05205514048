/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_quantile.c: unit tests for physet's weighted quantiles
 * (src/model/physet_quantile.h): the two ways over a whole grid give,
 * bit for bit, what ordering each point afresh and walking it gives, on
 * residuals with ties (0 and -0 among them) and weights on and about the
 * walk's thresholds. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/physet_quantile.h"

enum { MAXG = 40, MAXN = 24 };

/* A fixed LCG's next value in [0, 1). */
static double next(unsigned long *s) {
  *s = (*s * 1103515245UL + 12345UL) % 2147483648UL;
  return (double)*s / 2147483648.0;
}

/* The quantiles at point i as the walk takes them: the kernels of nz in
 * kernel order, stably sorted by residual (equal ones by kernel). */
static void reference(const double *res, size_t g, const size_t *nz, size_t k, const double *w,
                      size_t i, double *lo, double *mid, double *hi) {
  wval b[MAXN];
  for (size_t t = 0; t < k; t++) {
    wval x = {res[nz[t] * g + i], nz[t]};
    size_t u = t;
    for (; u > 0 && x.v < b[u - 1].v; u--) b[u] = b[u - 1];
    b[u] = x;
  }
  sp__quantiles_walk(b, k, w, lo, mid, hi);
}

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* One random case: n kernels, g points, k of them weighted; residuals
 * from a few values (ties, 0 and -0) or spread; weights random, or a few
 * heavy ones with light ones on the thresholds. */
typedef struct rcase {
  size_t n, g, k, nz[MAXN];
  double res[MAXN * MAXG], w[MAXN];
} rcase;

static void make_case(rcase *c, unsigned long *s, int kind) {
  static const double few[] = {0.0, -0.0, 0.125, -0.31, 0.125, 1.7, -0.31};
  c->n = 2 + (size_t)(next(s) * (MAXN - 2));
  c->g = 1 + (size_t)(next(s) * MAXG);
  c->k = 0;
  for (size_t j = 0; j < c->n; j++) {
    c->w[j] = 0;
    if (c->k < SP_QUANTILES_FEW && next(s) < 0.6) c->nz[c->k++] = j;
    for (size_t i = 0; i < c->g; i++)
      c->res[j * c->g + i] = kind % 2 ? few[(size_t)(next(s) * 7)] : 2 * next(s) - 1;
  }
  if (!c->k) c->nz[c->k++] = 0;
  double total = 0;
  for (size_t t = 0; t < c->k; t++) {
    /* kind 2, 3: light kernels of exactly TAIL / k, or a share of it */
    double x = kind >= 2 && t % 3 == 1 ? TAIL / (double)c->k : 0.05 + next(s);
    c->w[c->nz[t]] = x;
    total += x;
  }
  for (size_t t = 0; t < c->k; t++) c->w[c->nz[t]] /= total;
}

START_TEST(test_few_is_the_walk) {
  unsigned long s = 2385;
  for (int r = 0; r < 4000; r++) {
    rcase c;
    make_case(&c, &s, r % 4);
    double lo[MAXG], mid[MAXG], hi[MAXG];
    sp__quantiles_few(c.res, c.g, c.nz, c.k, c.w, lo, r % 5 ? mid : NULL, hi);
    for (size_t i = 0; i < c.g; i++) {
      double a, b, m;
      reference(c.res, c.g, c.nz, c.k, c.w, i, &a, &m, &b);
      ck_assert_msg(same(lo[i], a) && same(hi[i], b) && (r % 5 == 0 || same(mid[i], m)),
                    "case %d point %zu", r, i);
    }
  }
}
END_TEST

START_TEST(test_heavy_is_the_walk) {
  unsigned long s = 9137;
  int decided = 0;
  for (int r = 0; r < 4000; r++) {
    rcase c;
    make_case(&c, &s, r % 4);
    const double *rows[SP_QUANTILES_HEAVY];
    size_t h = sp__quantiles_heavy(c.res, c.g, c.nz, c.k, c.w, rows);
    if (!h) continue;
    decided++;
    double lo[MAXG], hi[MAXG];
    sp__quantiles_extremes(rows, h, c.g, lo, hi);
    for (size_t i = 0; i < c.g; i++) {
      double a, b;
      reference(c.res, c.g, c.nz, c.k, c.w, i, &a, NULL, &b);
      ck_assert_msg(same(lo[i], a) && same(hi[i], b), "case %d point %zu", r, i);
    }
  }
  /* not a vacuous pass: the weights decide a good part of the cases */
  ck_assert_int_gt(decided, 500);
}
END_TEST

/* Which weights decide the tails: a kernel over 1 - TAIL alone; several
 * over TAIL; not when the light ones weigh TAIL together, nor when two
 * heavy ones leave 1 - TAIL to the order. */
START_TEST(test_heavy_cases) {
  const double res[4 * 3] = {0.3, -0.2, 0.1, 0.25, 0.0, -0.4, -0.1, 0.6, 0.2, 0.05, 0.05, 0.05};
  const size_t nz[4] = {0, 1, 2, 3};
  const double *rows[SP_QUANTILES_HEAVY];
  const double one[4] = {0.97, 0.03, 0, 0};
  ck_assert_uint_eq(sp__quantiles_heavy(res, 3, nz, 2, one, rows), 1);
  ck_assert_ptr_eq(rows[0], res);
  const double three[4] = {0.5, 0.3, 0.2, 0};
  ck_assert_uint_eq(sp__quantiles_heavy(res, 3, nz, 3, three, rows), 3);
  const double lights[4] = {0.9, 0.04, 0.04, 0.02};
  ck_assert_uint_eq(sp__quantiles_heavy(res, 3, nz, 4, lights, rows), 0);
  const double tail[4] = {0.95, 0.05, 0, 0};
  ck_assert_uint_eq(sp__quantiles_heavy(res, 3, nz, 2, tail, rows), 0);
  double lo[3], hi[3];
  ck_assert_uint_eq(sp__quantiles_heavy(res, 3, nz, 3, three, rows), 3);
  sp__quantiles_extremes(rows, 3, 3, lo, hi);
  ck_assert(lo[0] == -0.1 && lo[1] == -0.2 && lo[2] == -0.4);
  ck_assert(hi[0] == 0.3 && hi[1] == 0.6 && hi[2] == 0.2);
}
END_TEST

/* Light weights whose sum falls under TAIL in kernel order and reaches it
 * in the order of the residuals (1, 2, 0): without the margin the weights
 * would be taken to decide, and the least heavy residual (0) given where
 * the walk stops at kernel 0's (-1). */
START_TEST(test_heavy_margin) {
  const double w[5] = {0x1.1077d87727fcfp-6, 0x1.10f668b8a5146p-6, 0x1.11c4f2036621ep-6,
                       0x1.4061242813090p-1, 0x1.4c0a847ca6bacp-2};
  const double res[5] = {-1, -3, -2, 0, 1};
  const size_t nz[5] = {0, 1, 2, 3, 4};
  const double *rows[SP_QUANTILES_HEAVY];
  double a, b;
  reference(res, 1, nz, 5, w, 0, &a, NULL, &b);
  ck_assert(a == -1 && b == 1);
  const size_t h = sp__quantiles_heavy(res, 1, nz, 5, w, rows);
  if (h) {
    double lo, hi;
    sp__quantiles_extremes(rows, h, 1, &lo, &hi);
    ck_assert_msg(lo == a && hi == b, "decided by the weights: %g, %g; the walk: %g, %g", lo, hi, a,
                  b);
  }
}
END_TEST

/* Equal residuals: the least is the first kernel's, the greatest the
 * last's, as the walk's order has them (0 before -0 when kernel 0 has 0). */
START_TEST(test_signed_zeros) {
  const double res[3] = {0.0, -0.0, 0.0};
  const size_t nz[3] = {0, 1, 2};
  const double *rows[3] = {res, res + 1, res + 2};
  double lo, hi;
  sp__quantiles_extremes(rows, 3, 1, &lo, &hi);
  ck_assert(!signbit(lo) && !signbit(hi));
  const double *back[2] = {res + 1, res + 2};
  sp__quantiles_extremes(back, 2, 1, &lo, &hi);
  ck_assert(signbit(lo) && !signbit(hi));
  const double w[3] = {0.4, 0.3, 0.3};
  double a, b;
  reference(res, 1, nz + 1, 2, w, 0, &a, NULL, &b);
  ck_assert(signbit(a) && !signbit(b));
}
END_TEST

static Suite *quantile_suite(void) {
  Suite *s = suite_create("quantile");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_few_is_the_walk);
  tcase_add_test(tc, test_heavy_is_the_walk);
  tcase_add_test(tc, test_heavy_cases);
  tcase_add_test(tc, test_heavy_margin);
  tcase_add_test(tc, test_signed_zeros);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(quantile_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
