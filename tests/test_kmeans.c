/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_kmeans.c: unit tests for k-means with k-means++ seeding. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/kmeans.h"
#include "scalepredict.h"

/* Three well-separated blobs of seven 2-D points each, blob b at rows
 * 7b..7b+6.  The jitter is small against the distance between blobs. */
#define BLOB_POINTS 7
#define BLOBS 3
static const double blob_centre[BLOBS][2] = {{2.385, -1.72}, {9.13, 4.41}, {-5.7, 8.06}};
static const double jitter[BLOB_POINTS][2] = {{0.137, -0.213}, {-0.311, 0.094},  {0.052, 0.287},
                                              {0.246, 0.171},  {-0.179, -0.262}, {-0.083, 0.019},
                                              {0.201, -0.148}};

static void make_blobs(double *x) {
  for (size_t b = 0; b < BLOBS; b++)
    for (size_t i = 0; i < BLOB_POINTS; i++)
      for (size_t d = 0; d < 2; d++)
        x[(b * BLOB_POINTS + i) * 2 + d] = blob_centre[b][d] + jitter[i][d];
}

/* Points on a scattered pattern with no clear cluster structure, where
 * different seeds reach different local minima. */
static void make_scatter(double *x, size_t n) {
  unsigned long s = 2385;
  for (size_t i = 0; i < 2 * n; i++) {
    s = (s * 1103515245UL + 12345UL) % 2147483648UL;
    x[i] = (double)(s % 100003) / 7919.0;
  }
}

static sp_kmeans_params params(size_t k, unsigned long seed, unsigned restarts) {
  sp_kmeans_params p = {k, seed, restarts, 100};
  return p;
}

/* Checks the internal consistency of a result: assignments in range, sizes
 * matching them and never 0, and the inertia equal to the sum of squared
 * distances recomputed here. */
static void check_consistent(const double *x, size_t n, size_t dim, const sp_kmeans_result *r) {
  size_t *count = calloc(r->k, sizeof *count);
  double inertia = 0.0;
  ck_assert_ptr_nonnull(count);
  for (size_t i = 0; i < n; i++) {
    ck_assert_uint_lt(r->assign[i], r->k);
    count[r->assign[i]]++;
    for (size_t d = 0; d < dim; d++) {
      const double t = x[i * dim + d] - r->centroids[r->assign[i] * dim + d];
      inertia += t * t;
    }
  }
  for (size_t j = 0; j < r->k; j++) {
    ck_assert_uint_gt(r->sizes[j], 0);
    ck_assert_uint_eq(r->sizes[j], count[j]);
  }
  ck_assert_double_eq_tol(r->inertia, inertia, 1e-12 * (1.0 + inertia));
  free(count);
}

/* Checks that every point sits at its nearest centroid and that every
 * centroid is the mean of its points: what a converged run must give. */
static void check_converged(const double *x, size_t n, size_t dim, const sp_kmeans_result *r) {
  for (size_t i = 0; i < n; i++) {
    const double *xi = x + i * dim;
    double own = 0.0;
    for (size_t d = 0; d < dim; d++) own += pow(xi[d] - r->centroids[r->assign[i] * dim + d], 2);
    for (size_t j = 0; j < r->k; j++) {
      double other = 0.0;
      for (size_t d = 0; d < dim; d++) other += pow(xi[d] - r->centroids[j * dim + d], 2);
      ck_assert_double_le(own, other);
    }
  }
  for (size_t j = 0; j < r->k; j++)
    for (size_t d = 0; d < dim; d++) {
      double sum = 0.0;
      for (size_t i = 0; i < n; i++)
        if (r->assign[i] == j) sum += x[i * dim + d];
      ck_assert_double_eq_tol(r->centroids[j * dim + d], sum / r->sizes[j], 1e-12);
    }
}

static void check_empty(const sp_kmeans_result *r) {
  ck_assert_ptr_null(r->centroids);
  ck_assert_ptr_null(r->assign);
  ck_assert_ptr_null(r->sizes);
}

START_TEST(test_blobs_any_seed) {
  double x[BLOBS * BLOB_POINTS * 2];
  const size_t n = BLOBS * BLOB_POINTS;
  make_blobs(x);
  for (unsigned long seed = 0; seed < 40; seed++) {
    const sp_kmeans_params p = params(3, seed * 7919 + 13, 2);
    sp_kmeans_result r;
    ck_assert_int_eq(sp__kmeans(x, n, 2, &p, &r), SP_OK);
    ck_assert_uint_eq(r.k, 3);
    ck_assert_uint_eq(r.dim, 2);
    /* Same cluster exactly when same blob, whatever the labels. */
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++)
        ck_assert_int_eq(r.assign[i] == r.assign[j], i / BLOB_POINTS == j / BLOB_POINTS);
    for (size_t j = 0; j < 3; j++) ck_assert_uint_eq(r.sizes[j], BLOB_POINTS);
    check_consistent(x, n, 2, &r);
    check_converged(x, n, 2, &r);
    sp__kmeans_result_free(&r);
  }
}
END_TEST

START_TEST(test_deterministic) {
  enum { N = 40 };
  double x[N * 2];
  sp_kmeans_result a, b;
  make_scatter(x, N);
  const sp_kmeans_params p = params(5, 20150207, 4);
  ck_assert_int_eq(sp__kmeans(x, N, 2, &p, &a), SP_OK);
  ck_assert_int_eq(sp__kmeans(x, N, 2, &p, &b), SP_OK);
  ck_assert_uint_eq(a.k, b.k);
  ck_assert_mem_eq(a.centroids, b.centroids, a.k * 2 * sizeof(double));
  ck_assert_mem_eq(a.assign, b.assign, N * sizeof(size_t));
  ck_assert_mem_eq(a.sizes, b.sizes, a.k * sizeof(size_t));
  ck_assert_mem_eq(&a.inertia, &b.inertia, sizeof(double));
  check_consistent(x, N, 2, &a);
  sp__kmeans_result_free(&a);
  sp__kmeans_result_free(&b);
}
END_TEST

/* Different seeds give valid (not necessarily different) results, and at
 * least one of several seeds reaches a different local minimum here. */
START_TEST(test_seed_matters) {
  enum { N = 40 };
  double x[N * 2];
  sp_kmeans_result first, r;
  int differs = 0;
  make_scatter(x, N);
  const sp_kmeans_params p0 = params(6, 1, 1);
  ck_assert_int_eq(sp__kmeans(x, N, 2, &p0, &first), SP_OK);
  for (unsigned long seed = 2; seed < 30; seed++) {
    const sp_kmeans_params p = params(6, seed, 1);
    ck_assert_int_eq(sp__kmeans(x, N, 2, &p, &r), SP_OK);
    check_consistent(x, N, 2, &r);
    if (memcmp(first.centroids, r.centroids, 6 * 2 * sizeof(double)) != 0) differs = 1;
    sp__kmeans_result_free(&r);
  }
  ck_assert(differs);
  sp__kmeans_result_free(&first);
}
END_TEST

/* The first of several restarts is the single run with the same seed, so
 * the best of them can only be as good or better. */
START_TEST(test_restarts_no_worse) {
  enum { N = 60 };
  double x[N * 2];
  make_scatter(x, N);
  for (unsigned long seed = 1; seed <= 12; seed++) {
    sp_kmeans_result one, many;
    const sp_kmeans_params p1 = params(7, seed, 1);
    const sp_kmeans_params p10 = params(7, seed, 10);
    ck_assert_int_eq(sp__kmeans(x, N, 2, &p1, &one), SP_OK);
    ck_assert_int_eq(sp__kmeans(x, N, 2, &p10, &many), SP_OK);
    ck_assert_double_le(many.inertia, one.inertia);
    check_consistent(x, N, 2, &many);
    sp__kmeans_result_free(&one);
    sp__kmeans_result_free(&many);
  }
}
END_TEST

START_TEST(test_k_capped_at_n) {
  const double x[] = {0.385, 1.72, -2.25, 4.125, 3.0625, -0.5};
  const sp_kmeans_params p = params(7, 42, 3);
  sp_kmeans_result r;
  ck_assert_int_eq(sp__kmeans(x, 3, 2, &p, &r), SP_OK);
  ck_assert_uint_eq(r.k, 3);
  ck_assert_double_eq(r.inertia, 0.0);
  check_consistent(x, 3, 2, &r);
  sp__kmeans_result_free(&r);
}
END_TEST

START_TEST(test_k_capped_at_distinct) {
  const double same[] = {2.385, -0.71, 2.385, -0.71, 2.385, -0.71, 2.385, -0.71, 2.385, -0.71};
  const sp_kmeans_params p = params(3, 7, 2);
  sp_kmeans_result r;
  ck_assert_int_eq(sp__kmeans(same, 5, 2, &p, &r), SP_OK);
  ck_assert_uint_eq(r.k, 1);
  ck_assert_uint_eq(r.sizes[0], 5);
  ck_assert_double_eq(r.centroids[0], 2.385);
  ck_assert_double_eq(r.centroids[1], -0.71);
  ck_assert_double_eq(r.inertia, 0.0);
  sp__kmeans_result_free(&r);

  /* Three distinct values; the signed zeros compare equal. */
  const double two[] = {1.5, 0.0, -0.0, 1.5, 0.0, -3.25, 1.5};
  const sp_kmeans_params p4 = params(4, 11, 2);
  ck_assert_int_eq(sp__kmeans(two, 7, 1, &p4, &r), SP_OK);
  ck_assert_uint_eq(r.k, 3);
  ck_assert_double_eq(r.inertia, 0.0);
  check_consistent(two, 7, 1, &r);
  sp__kmeans_result_free(&r);
}
END_TEST

START_TEST(test_dim0) {
  const sp_kmeans_params p = params(4, 3, 2);
  sp_kmeans_result r;
  ck_assert_int_eq(sp__kmeans(NULL, 6, 0, &p, &r), SP_OK);
  ck_assert_uint_eq(r.k, 1);
  ck_assert_uint_eq(r.dim, 0);
  ck_assert_ptr_nonnull(r.centroids);
  ck_assert_uint_eq(r.sizes[0], 6);
  for (size_t i = 0; i < 6; i++) ck_assert_uint_eq(r.assign[i], 0);
  ck_assert_double_eq(r.inertia, 0.0);
  sp__kmeans_result_free(&r);
}
END_TEST

START_TEST(test_one_point) {
  const double x[] = {-7.125, 0.0625, 3.5};
  const sp_kmeans_params p = params(12, 5, 10);
  sp_kmeans_result r;
  ck_assert_int_eq(sp__kmeans(x, 1, 3, &p, &r), SP_OK);
  ck_assert_uint_eq(r.k, 1);
  ck_assert_mem_eq(r.centroids, x, sizeof x);
  ck_assert_uint_eq(r.assign[0], 0);
  sp__kmeans_result_free(&r);
}
END_TEST

/* A run in which a Lloyd step empties a cluster (found by search): the
 * empty cluster must be re-seeded so that all four stay occupied. */
START_TEST(test_empty_cluster_reseeded) {
  const double x[] = {3.40, 4.05, 1.37, 8.06, 0.21, 3.35, 5.21, 2.90, 1.69, 6.74, 8.93, 9.38};
  const sp_kmeans_params p = params(4, 28, 1);
  sp_kmeans_result r;
  ck_assert_int_eq(sp__kmeans(x, 6, 2, &p, &r), SP_OK);
  ck_assert_uint_eq(r.k, 4);
  check_consistent(x, 6, 2, &r);
  sp__kmeans_result_free(&r);
}
END_TEST

/* Distinct points so close that their squared distances underflow to 0:
 * k-means++ has no weight to sample by and must still pick distinct seeds,
 * and the empty-cluster repair must keep all three clusters occupied. */
START_TEST(test_underflow) {
  const double x[] = {0.0, 1.25e-200, 2.385e-200};
  const sp_kmeans_params p = params(3, 17, 2);
  sp_kmeans_result r;
  ck_assert_int_eq(sp__kmeans(x, 3, 1, &p, &r), SP_OK);
  ck_assert_uint_eq(r.k, 3);
  check_consistent(x, 3, 1, &r);
  sp__kmeans_result_free(&r);
}
END_TEST

/* With no Lloyd iterations the result is the k-means++ seeding itself:
 * still consistent, with the centroids at data points. */
START_TEST(test_no_iterations) {
  enum { N = 30 };
  double x[N * 2];
  make_scatter(x, N);
  sp_kmeans_params p = params(5, 99, 3);
  p.max_iter = 0;
  sp_kmeans_result r;
  ck_assert_int_eq(sp__kmeans(x, N, 2, &p, &r), SP_OK);
  check_consistent(x, N, 2, &r);
  for (size_t j = 0; j < r.k; j++) {
    int found = 0;
    for (size_t i = 0; i < N; i++)
      found |= memcmp(x + 2 * i, r.centroids + 2 * j, 2 * sizeof(double)) == 0;
    ck_assert(found);
  }
  sp__kmeans_result_free(&r);
}
END_TEST

START_TEST(test_invalid) {
  const double x[] = {1.25, 2.5, -0.75, 3.125};
  const sp_kmeans_params p = params(2, 1, 1);
  sp_kmeans_params bad;
  sp_kmeans_result r;
  ck_assert_int_eq(sp__kmeans(x, 0, 2, &p, &r), SP_EINVAL);
  check_empty(&r);
  bad = p;
  bad.k = 0;
  ck_assert_int_eq(sp__kmeans(x, 2, 2, &bad, &r), SP_EINVAL);
  check_empty(&r);
  bad = p;
  bad.restarts = 0;
  ck_assert_int_eq(sp__kmeans(x, 2, 2, &bad, &r), SP_EINVAL);
  check_empty(&r);
  ck_assert_int_eq(sp__kmeans(NULL, 2, 2, &p, &r), SP_EINVAL);
  check_empty(&r);
  ck_assert_int_eq(sp__kmeans(x, 2, 2, NULL, &r), SP_EINVAL);
  check_empty(&r);
  ck_assert_int_eq(sp__kmeans(x, 2, 2, &p, NULL), SP_EINVAL);
  ck_assert_int_eq(sp__kmeans(x, 2, SIZE_MAX / 4, &p, &r), SP_EINVAL);
  check_empty(&r);
}
END_TEST

START_TEST(test_non_finite) {
  const double bad_values[] = {NAN, INFINITY, -INFINITY};
  const sp_kmeans_params p = params(2, 1, 1);
  for (size_t b = 0; b < 3; b++) {
    double x[] = {1.25, 2.5, -0.75, 3.125, 0.5, 0.0};
    sp_kmeans_result r;
    x[3] = bad_values[b];
    ck_assert_int_eq(sp__kmeans(x, 3, 2, &p, &r), SP_EINVAL);
    check_empty(&r);
  }
}
END_TEST

/* Finite coordinates whose squared distances overflow cannot be clustered
 * meaningfully. */
START_TEST(test_overflow) {
  const double x[] = {-1.5e200, 1.5e200, 2.5e200, -2.5e200};
  const sp_kmeans_params p = params(1, 1, 1);
  sp_kmeans_result r;
  ck_assert_int_eq(sp__kmeans(x, 4, 1, &p, &r), SP_ENUMERIC);
  check_empty(&r);
}
END_TEST

START_TEST(test_free_null) {
  sp_kmeans_result r;
  memset(&r, 0, sizeof r);
  sp__kmeans_result_free(NULL);
  sp__kmeans_result_free(&r);
}
END_TEST

static Suite *kmeans_suite(void) {
  Suite *s = suite_create("kmeans");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_blobs_any_seed);
  tcase_add_test(tc, test_deterministic);
  tcase_add_test(tc, test_seed_matters);
  tcase_add_test(tc, test_restarts_no_worse);
  tcase_add_test(tc, test_k_capped_at_n);
  tcase_add_test(tc, test_k_capped_at_distinct);
  tcase_add_test(tc, test_dim0);
  tcase_add_test(tc, test_one_point);
  tcase_add_test(tc, test_empty_cluster_reseeded);
  tcase_add_test(tc, test_underflow);
  tcase_add_test(tc, test_no_iterations);
  tcase_add_test(tc, test_invalid);
  tcase_add_test(tc, test_non_finite);
  tcase_add_test(tc, test_overflow);
  tcase_add_test(tc, test_free_null);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(kmeans_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
