/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_ensemble.c: the stack method's weight solvers and its leave-one-out
 * weights on data whose best member is known by construction. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval/baselines.h"
#include "eval/ensemble.h"

#define N 60

/* Three members' predictions of N values: smooth, different shapes. */
static void members3(double *P) {
  for (int t = 0; t < N; t++) {
    double u = (double)t / N;
    P[0 * N + t] = sin(6.0 * u);
    P[1 * N + t] = u * u - 0.3;
    P[2 * N + t] = cos(11.0 * u) * 0.5;
  }
}

static void assert_simplex(const double *w, size_t m) {
  double sum = 0;
  for (size_t i = 0; i < m; i++) {
    ck_assert(w[i] >= 0.0);
    sum += w[i];
  }
  ck_assert_double_eq_tol(sum, 1.0, 1e-9);
}

START_TEST(test_solve_recovers_blend) {
  double P[3 * N], y[N], w[3];
  members3(P);
  for (int t = 0; t < N; t++) y[t] = 0.3 * P[t] + 0.7 * P[N + t];
  sp__stack_solve(P, y, 3, N, w);
  assert_simplex(w, 3);
  ck_assert_double_eq_tol(w[0], 0.3, 1e-6);
  ck_assert_double_eq_tol(w[1], 0.7, 1e-6);
  ck_assert_double_eq_tol(w[2], 0.0, 1e-6);
}
END_TEST

START_TEST(test_solve_single_member) {
  double P[3 * N], y[N], w[3];
  members3(P);
  memcpy(y, P + 2 * N, sizeof y);
  sp__stack_solve(P, y, 3, N, w);
  assert_simplex(w, 3);
  ck_assert_double_eq_tol(w[2], 1.0, 1e-6);
}
END_TEST

/* A target outside the members' hull: the unconstrained fit would give a
 * negative weight; the constrained one stays on the simplex and is no worse
 * than any single member. */
START_TEST(test_solve_outside_hull) {
  double P[3 * N], y[N], w[3];
  members3(P);
  for (int t = 0; t < N; t++) y[t] = 2.0 * P[t] - 1.0 * P[N + t];
  sp__stack_solve(P, y, 3, N, w);
  assert_simplex(w, 3);
  double err = 0;
  for (int t = 0; t < N; t++) {
    double e = w[0] * P[t] + w[1] * P[N + t] + w[2] * P[2 * N + t] - y[t];
    err += e * e;
  }
  for (int m = 0; m < 3; m++) {
    double single = 0;
    for (int t = 0; t < N; t++) single += (P[m * N + t] - y[t]) * (P[m * N + t] - y[t]);
    ck_assert(err <= single + 1e-12);
  }
}
END_TEST

/* Identical members must not make the system singular. */
START_TEST(test_solve_identical_members) {
  double P[3 * N], y[N], w[3];
  members3(P);
  memcpy(P + N, P, N * sizeof(double));
  for (int t = 0; t < N; t++) y[t] = 0.5 * P[t] + 0.5 * P[2 * N + t];
  sp__stack_solve(P, y, 3, N, w);
  assert_simplex(w, 3);
  ck_assert_double_eq_tol(w[0] + w[1], 0.5, 1e-6);
  ck_assert_double_eq_tol(w[2], 0.5, 1e-6);
}
END_TEST

/* The absolute-error solver ignores a few gross errors that pull the
 * least-squares weights away from the member that is exact elsewhere. */
START_TEST(test_solve_l1_robust) {
  double P[3 * N], y[N], w2[3], w1[3];
  members3(P);
  memcpy(y, P + N, sizeof y);
  for (int t = 0; t < N; t += 10) y[t] = P[t] + 5.0;
  sp__stack_solve(P, y, 3, N, w2);
  ck_assert_int_eq(sp__stack_solve_l1(P, y, 3, N, w1), 0);
  assert_simplex(w1, 3);
  ck_assert_double_eq_tol(w1[1], 1.0, 1e-3);
  ck_assert(w2[1] < 0.99);
}
END_TEST

/* n kernels with two counters and log ratios linear in the first: the
 * linear member is all but exact and should carry the weight; kernels whose
 * surface only the nearest kernel knows (duplicated pairs) should move the
 * weight to nearest. */
enum { NK = 24, NP = 2, NG = 6 };

static void make_data(double *x, double *z, double *logr, double *shares, double *basis,
                      int duplicated_pairs) {
  unsigned s = 12345;
  for (int i = 0; i < NK; i++) {
    for (int j = 0; j < NP; j++) {
      s = s * 1103515245u + 12345u;
      x[i * NP + j] = (double)(s >> 8 & 0xffff) / 65535.0;
    }
    /* The second counter is nearly constant and plays no part in the
     * linear surfaces, but the z-scored space knn works in stretches it to
     * the first counter's spread, so the neighbours it finds are random. */
    if (!duplicated_pairs) x[i * NP + 1] *= 0.01;
    if (duplicated_pairs && i % 2 == 1) memcpy(x + i * NP, x + (i - 1) * NP, NP * sizeof(double));
    for (int t = 0; t < NG; t++) {
      double v = (t - 2) * 0.4 * x[i * NP];
      if (duplicated_pairs) v = (t - 2) * 0.3 * sin(40.0 * x[i * NP] + 7.0 * x[i * NP + 1]);
      logr[i * NG + t] = v;
    }
  }
  for (int j = 0; j < NP; j++) { /* z-scored counters, as knn sees them */
    double mean = 0, var = 0;
    for (int i = 0; i < NK; i++) mean += x[i * NP + j] / NK;
    for (int i = 0; i < NK; i++) var += (x[i * NP + j] - mean) * (x[i * NP + j] - mean) / NK;
    for (int i = 0; i < NK; i++) z[i * NP + j] = (x[i * NP + j] - mean) / sqrt(var);
  }
  for (int t = 0; t < NG; t++) {
    basis[t * SP_MIX_TERMS + 0] = (t - 2) * 0.1;
    basis[t * SP_MIX_TERMS + 1] = (t % 3) * 0.1;
    basis[t * SP_MIX_TERMS + 2] = 0.0;
  }
  for (int i = 0; i < NK; i++) {
    double ratio[NG];
    for (int t = 0; t < NG; t++) ratio[t] = exp(logr[i * NG + t]);
    sp__mix_fit(basis, ratio, NG, shares + i * SP_MIX_TERMS);
  }
}

/* Leave-one-out weights over the first n kernels of the generated data. */
static void loo_weights(size_t n, int twins, double *w) {
  double x[NK * NP], z[NK * NP], logr[NK * NG], shares[NK * SP_MIX_TERMS], basis[NG * SP_MIX_TERMS];
  make_data(x, z, logr, shares, basis, twins);
  sp_baseline_data bd = {n, NP, NG, x, logr}, zd = {n, NP, NG, z, logr};
  sp_stack_data d = {&bd, &zd, shares, basis};
  ck_assert_int_eq(sp__stack_weights_loo(&d, 2, w), 0);
  assert_simplex(w, SP_STACK_MEMBERS);
}

START_TEST(test_loo_prefers_exact_member) {
  double w[SP_STACK_MEMBERS];
  loo_weights(NK, 0, w);
  ck_assert_msg(w[SP_STACK_LINEAR] > 0.8, "weights %g %g %g %g %g", w[0], w[1], w[2], w[3], w[4]);
}
END_TEST

START_TEST(test_loo_prefers_nearest_on_twins) {
  double w[SP_STACK_MEMBERS];
  loo_weights(NK, 1, w);
  /* Every kernel's twin has the same counters and the same surface, so the
   * nearest kernel (and knn, dominated by the zero-distance twin) is exact. */
  ck_assert_msg(w[SP_STACK_NEAREST] + w[SP_STACK_KNN] > 0.95, "nearest %g knn %g",
                w[SP_STACK_NEAREST], w[SP_STACK_KNN]);
}
END_TEST

START_TEST(test_loo_too_few_kernels) {
  double w[SP_STACK_MEMBERS];
  loo_weights(2, 0, w);
  ck_assert_double_eq(w[SP_STACK_NEAREST], 1.0);
}
END_TEST

static Suite *stack_suite(void) {
  Suite *s = suite_create("stack");
  TCase *tc = tcase_create("solve");
  tcase_add_test(tc, test_solve_recovers_blend);
  tcase_add_test(tc, test_solve_single_member);
  tcase_add_test(tc, test_solve_outside_hull);
  tcase_add_test(tc, test_solve_identical_members);
  tcase_add_test(tc, test_solve_l1_robust);
  suite_add_tcase(s, tc);
  TCase *loo = tcase_create("leave-one-out");
  tcase_add_test(loo, test_loo_prefers_exact_member);
  tcase_add_test(loo, test_loo_prefers_nearest_on_twins);
  tcase_add_test(loo, test_loo_too_few_kernels);
  suite_add_tcase(s, loo);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(stack_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
