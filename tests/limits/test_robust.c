/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_robust.c: degenerate and extreme data through training and
 * prediction (issue 6).  Every case either trains and predicts only positive
 * finite values, or fails with a status and a message that names the
 * problem; none produces NaN. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/dataset.h"
#include "model/model.h"
#include "scalepredict.h"
#include "testutil.h"

#define NCTR 3
#define MAXK 16

/* 2 CU counts x 3 engine clocks x 2 memory clocks, base 32cu/1000/1375. */
static const int CU[2] = {16, 32}, ENG[3] = {500, 750, 1000}, MEM[2] = {475, 1375};
static const sp_config BASE = {32, 1000, 1375};

typedef struct spec {
  int nk;
  double (*time)(int k, int cu, int eng, int mem);
  void (*counters)(int k, double v[NCTR]);
} spec;

/* A growing text buffer for the generated files. */
typedef struct text {
  char *s;
  size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    ck_assert_int_ge(n, 0);
    if ((size_t)n < t->cap - t->n) {
      t->n += (size_t)n;
      return;
    }
    t->cap = 2 * t->cap + (size_t)n + 1;
    t->s = realloc(t->s, t->cap);
    ck_assert_ptr_nonnull(t->s);
  }
}

/* Writes runs.csv (power = 100 W x time^-0.25, so it scales too) and
 * counters.csv at the base into tu_scratch/name and loads them. */
static sp_dataset *make(const char *name, const spec *sp) {
  char *dir = tu_path(tu_scratch, name);
  ck_assert_int_eq(mkdir(dir, 0700), 0);
  text r = {malloc(1024), 0, 1024}, c = {malloc(1024), 0, 1024};
  put(&r, "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n");
  put(&c, "kernel,cu,engine_mhz,memory_mhz,ctr.a,ctr.b,ctr.c\n");
  for (int k = 0; k < sp->nk; k++) {
    for (int a = 0; a < 2; a++)
      for (int e = 0; e < 3; e++)
        for (int m = 0; m < 2; m++) {
          const double t = sp->time(k, CU[a], ENG[e], MEM[m]);
          const double w = 100.0 * pow(t / sp->time(k, 32, 1000, 1375), -0.25);
          put(&r, "k%02d,%d,%d,%d,%.17g,%.17g\n", k, CU[a], ENG[e], MEM[m], t, w);
        }
    double v[NCTR];
    sp->counters(k, v);
    put(&c, "k%02d,32,1000,1375,%.17g,%.17g,%.17g\n", k, v[0], v[1], v[2]);
  }
  char *rp = tu_write(dir, "runs.csv", r.s), *cp = tu_write(dir, "counters.csv", c.s);
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_msg(sp_dataset_load(rp, cp, &ds, &err) == SP_OK, "%s", err.message);
  free(r.s);
  free(c.s);
  free(rp);
  free(cp);
  free(dir);
  return ds;
}

static int train(const sp_dataset *ds, size_t k, unsigned epochs, double mse, sp_model **m,
                 sp_error *err) {
  sp_train_params p;
  sp_train_params_init(&p);
  p.base = BASE;
  p.clusters = k;
  p.seed = 2385;
  p.restarts = 3;
  p.max_epochs = epochs;
  p.desired_error = mse;
  sp_error_clear(err);
  return sp_model_train(ds, &p, NULL, NULL, m, err);
}

static sp_model *train_ok(const sp_dataset *ds, size_t k, unsigned epochs, double mse) {
  sp_model *m = NULL;
  sp_error err;
  ck_assert_msg(train(ds, k, epochs, mse, &m, &err) == SP_OK, "%s", err.message);
  return m;
}

/* Predictions of every kernel at every configuration; all positive and
 * finite.  out holds nk * 12 values per quantity (time, then power). */
static void predict_all(const sp_model *m, const sp_dataset *ds, double *out) {
  const size_t nk = sp_dataset_kernel_count(ds);
  ck_assert_uint_eq(sp_model_config_count(m, SP_TIME), 12);
  for (size_t k = 0; k < nk; k++) {
    double ctr[NCTR];
    sp_observation obs;
    sp_error err;
    ck_assert_int_eq(sp_model_observe(m, ds, k, ctr, &obs, &err), SP_OK);
    for (int q = 0; q < 2; q++) {
      double *v = out + (q * nk + k) * 12;
      ck_assert_int_eq(sp_model_predict_all(m, (sp_quantity)q, &obs, v, NULL), SP_OK);
      for (size_t i = 0; i < 12; i++)
        ck_assert_msg(isfinite(v[i]) && v[i] > 0, "kernel %zu q %d config %zu: %g", k, q, i, v[i]);
    }
  }
}

static sp_train_summary summary(const sp_model *m, sp_quantity q) {
  sp_train_summary s;
  ck_assert_int_eq(sp_model_summary(m, q, &s), SP_OK);
  return s;
}

/* Saves and reloads m; the copy predicts bit for bit the same. */
static void check_round_trip(const sp_model *m, const sp_dataset *ds, const char *name) {
  char *dir = tu_path(tu_scratch, name);
  sp_error err;
  ck_assert_msg(sp_model_save(m, dir, &err) == SP_OK, "%s", err.message);
  sp_model *copy = NULL;
  ck_assert_msg(sp_model_load(dir, &copy, &err) == SP_OK, "%s", err.message);
  /* A loaded model does not know how its classifiers trained. */
  sp_train_summary was = summary(m, SP_TIME), is = summary(copy, SP_TIME);
  ck_assert(was.trained && !is.trained && isnan(is.worst_mse));
  ck_assert(was.k_min == is.k_min && was.k_max == is.k_max && was.sets == is.sets);
  ck_assert_uint_eq(was.constant_counters, is.constant_counters);
  const size_t n = 2 * sp_dataset_kernel_count(ds) * 12;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  predict_all(m, ds, a);
  predict_all(copy, ds, b);
  ck_assert(memcmp(a, b, n * sizeof *a) == 0);
  free(a);
  free(b);
  sp_model_free(copy);
  free(dir);
}

/* Relative error of the prediction of kernel k at configuration i. */
static double rel_err(const sp_model *m, const sp_dataset *ds, const double *pred, size_t k,
                      size_t i) {
  sp_config c = sp_model_config_at(m, SP_TIME, i);
  double t;
  ck_assert_int_eq(sp_dataset_time(ds, k, &c, &t), SP_OK);
  return fabs(pred[k * 12 + i] - t) / t;
}

/* ---- data ------------------------------------------------------------------ */

/* Two behaviours: compute-bound (CUs x engine) and bandwidth-bound
 * (memory), each kernel its class's shape times a power of two, so that
 * the kernels of a class have bit-identical scaling values. */
static double two_shapes(int k, int cu, int eng, int mem) {
  const double s = ldexp(2.385, k);
  return k % 2 ? s * (32.0 / cu) * (1000.0 / eng) : s * pow(1375.0 / mem, 0.93);
}
static void class_counters(int k, double v[NCTR]) {
  v[0] = k % 2 ? 85.25 + 0.1 * k : 11.5 - 0.1 * k;
  v[1] = k % 2 ? 9.75 : 91.5;
  v[2] = 1.0e6 * (1 + k);
}
/* The engine clock changes nothing (identical times across that axis). */
static double engine_flat(int k, int cu, int eng, int mem) {
  (void)eng;
  return (1.5 + k) * pow(32.0 / cu, 0.5 + 0.05 * k) * pow(1375.0 / mem, 0.2 * (k % 3));
}
/* Every kernel takes the same time everywhere. */
static double flat(int k, int cu, int eng, int mem) {
  (void)k, (void)cu, (void)eng, (void)mem;
  return 7.125;
}
/* Each kernel its own exponents: as many distinct surfaces as kernels. */
static double all_distinct(int k, int cu, int eng, int mem) {
  return (1 + k) * pow(32.0 / cu, 0.3 + 0.1 * k) * pow(1000.0 / eng, 0.9 - 0.15 * k) *
         pow(1375.0 / mem, 0.05 * k);
}
static void same_counters(int k, double v[NCTR]) {
  (void)k;
  v[0] = 42.5;
  v[1] = 0.0;
  v[2] = 1.0e9;
}
/* Values that sp_dataset_load refuses (data/bounds.h) are set in the
 * loaded dataset instead, so that the numerics behind the loader stay
 * covered: a counter whose training range spans nearly all of double. */
static void huge_counters(sp_dataset *ds) {
  for (size_t k = 0; k < sp_dataset_kernel_count(ds); k++) {
    size_t at = sp__dataset_find_counters(ds, k, &BASE);
    ck_assert(at != (size_t)-1);
    ds->counter_values[ds->crows[at].offset + 2] = k % 2 ? -1.7e308 : 1.7e308;
  }
}
/* One kernel (k03) spans from 1e-300 ms to 1e300 ms. */
static void overflow(sp_dataset *ds) {
  for (size_t i = 0; i < ds->nruns; i++)
    if (ds->runs[i].kernel == sp_dataset_kernel_index(ds, "k03"))
      ds->runs[i].time_ms = sp_config_equal(&ds->runs[i].cfg, &BASE) ? 1e300 : 1e-300;
}

/* ---- tests ---------------------------------------------------------------- */

/* Identical times across an axis give scaling values of exactly 1 there, in
 * the surfaces and in the model: predictions do not depend on that axis. */
START_TEST(test_identical_times_across_axis) {
  spec sp = {6, engine_flat, class_counters};
  sp_dataset *ds = make("engine-flat", &sp);
  sp_model *m = train_ok(ds, 12, 500, 1e-4);
  double *pred = malloc(2 * 6 * 12 * sizeof *pred);
  predict_all(m, ds, pred);
  for (size_t k = 0; k < 6; k++)
    for (size_t i = 0; i < 12; i++) {
      sp_config c = sp_model_config_at(m, SP_TIME, i), at1000 = c;
      at1000.engine_mhz = 1000;
      size_t j = sp_model_config_index(m, SP_TIME, &at1000);
      ck_assert(pred[k * 12 + i] == pred[k * 12 + j]);
    }
  check_round_trip(m, ds, "engine-flat-model");
  free(pred);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* All kernels share one flat surface: every set collapses to one cluster
 * (no network is trained or saved) and the base value is predicted
 * everywhere, exactly. */
START_TEST(test_one_surface_for_all) {
  spec sp = {5, flat, class_counters};
  sp_dataset *ds = make("flat", &sp);
  sp_model *m = train_ok(ds, 12, 500, 1e-4);
  for (int q = 0; q < 2; q++)
    for (size_t i = 0; i < m->sub[q].nsets; i++) {
      ck_assert_uint_eq(m->sub[q].sets[i].nclusters, 1);
      ck_assert(!sp__classifier_has_network(m->sub[q].sets[i].clf));
    }
  sp_train_summary sum = summary(m, SP_TIME);
  ck_assert(sum.trained && sum.k_min == 1 && sum.k_max == 1);
  ck_assert_uint_eq(sum.networks, 0);
  ck_assert_uint_eq(sum.misclassified, 0);
  ck_assert(sum.worst_mse == 0.0);
  double *pred = malloc(2 * 5 * 12 * sizeof *pred);
  predict_all(m, ds, pred);
  for (size_t i = 0; i < 5 * 12; i++) ck_assert(pred[i] == 7.125);
  check_round_trip(m, ds, "flat-model");
  free(pred);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* k larger than the distinct surfaces: k is capped at 2 (the shapes), and
 * the training kernels are predicted exactly. */
START_TEST(test_k_above_distinct_surfaces) {
  spec sp = {8, two_shapes, class_counters};
  sp_dataset *ds = make("two-shapes", &sp);
  sp_model *m = train_ok(ds, 12, 500, 1e-4);
  for (size_t i = 0; i < m->sub[SP_TIME].nsets; i++)
    ck_assert_uint_eq(m->sub[SP_TIME].sets[i].nclusters, 2);
  sp_train_summary sum = summary(m, SP_TIME);
  ck_assert(sum.k_min == 2 && sum.k_max == 2 && sum.misclassified == 0);
  ck_assert_uint_eq(sum.constant_counters, 0);
  double *pred = malloc(2 * 8 * 12 * sizeof *pred);
  predict_all(m, ds, pred);
  for (size_t k = 0; k < 8; k++)
    for (size_t i = 0; i < 12; i++) ck_assert(rel_err(m, ds, pred, k, i) < 1e-12);
  free(pred);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* Counters with no variance carry no information: they normalize to 0, the
 * classifier sees one input for every kernel, and every kernel gets the
 * same scaling (finite, possibly wrong for some: the data cannot say). */
START_TEST(test_zero_variance_counters) {
  spec sp = {6, two_shapes, same_counters};
  sp_dataset *ds = make("same-counters", &sp);
  sp_model *m = train_ok(ds, 12, 500, 1e-4);
  for (size_t c = 0; c < NCTR; c++) ck_assert(m->cmin[c] == m->cmax[c]);
  ck_assert_uint_eq(summary(m, SP_TIME).constant_counters, NCTR);
  /* The classifier's case: physet also reads the base time, which differs
   * between these kernels, so it may (rightly) scale them differently. */
  ck_assert_int_eq(sp_model_use_method(m, "wu2015"), SP_OK);
  double *pred = malloc(2 * 6 * 12 * sizeof *pred);
  predict_all(m, ds, pred);
  for (size_t k = 1; k < 6; k++)
    for (size_t i = 0; i < 12; i++) {
      const double r0 = pred[i] / pred[0 * 12 + 11], rk = pred[k * 12 + i] / pred[k * 12 + 11];
      ck_assert(fabs(r0 - rk) <= 1e-12 * r0);
    }
  free(pred);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* k equal to the number of kernels, all distinct: every cluster holds one
 * kernel (the assignment is a permutation) and predictions stay finite. */
START_TEST(test_single_kernel_clusters) {
  spec sp = {5, all_distinct, class_counters};
  sp_dataset *ds = make("singletons", &sp);
  sp_model *m = train_ok(ds, 5, 500, 1e-4);
  for (size_t i = 0; i < m->sub[SP_TIME].nsets; i++) {
    const sp_cluster_set *cs = &m->sub[SP_TIME].sets[i];
    ck_assert_uint_eq(cs->nclusters, 5);
    int seen[5] = {0};
    for (size_t k = 0; k < 5; k++) seen[cs->assign[k]]++;
    for (size_t c = 0; c < 5; c++) ck_assert_int_eq(seen[c], 1);
    ck_assert(cs->inertia == 0.0);
  }
  double *pred = malloc(2 * 5 * 12 * sizeof *pred);
  predict_all(m, ds, pred);
  check_round_trip(m, ds, "singletons-model");
  free(pred);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* A classifier stopped after one epoch, far from its target error: the
 * model is still complete, its training error is recorded (finite, above
 * the target) and its predictions are finite. */
START_TEST(test_classifier_not_converged) {
  spec sp = {8, all_distinct, class_counters};
  sp_dataset *ds = make("one-epoch", &sp);
  sp_model *m = train_ok(ds, 4, 1, 0.0);
  size_t networks = 0;
  for (size_t i = 0; i < m->sub[SP_TIME].nsets; i++) {
    const sp_classifier *clf = m->sub[SP_TIME].sets[i].clf;
    if (!sp__classifier_has_network(clf)) continue;
    networks++;
    const double mse = sp__classifier_train_mse(clf);
    ck_assert(isfinite(mse) && mse > 0.0);
  }
  ck_assert_uint_gt(networks, 0);
  /* Reported, so that the tool can say so. */
  sp_train_summary sum = summary(m, SP_TIME);
  ck_assert(sum.trained && sum.networks == networks);
  ck_assert_uint_eq(sum.unconverged, networks);
  ck_assert(sum.worst_mse > 0.0 && isfinite(sum.worst_mse));
  ck_assert_uint_le(sum.misclassified, sum.assignments);
  double *pred = malloc(2 * 8 * 12 * sizeof *pred);
  predict_all(m, ds, pred);
  check_round_trip(m, ds, "one-epoch-model");
  free(pred);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* A counter range wider than half of double's used to normalize to
 * inf / inf = NaN and fail training as an invalid argument. */
START_TEST(test_counter_range_overflow) {
  spec sp = {6, two_shapes, class_counters};
  sp_dataset *ds = make("huge-counters", &sp);
  huge_counters(ds);
  sp_model *m = train_ok(ds, 12, 500, 1e-4);
  double *pred = malloc(2 * 6 * 12 * sizeof *pred);
  predict_all(m, ds, pred);
  free(pred);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* Scaling values that overflow are a numerical error naming the kernel. */
START_TEST(test_scaling_overflow) {
  spec sp = {6, two_shapes, class_counters};
  sp_dataset *ds = make("overflow", &sp);
  overflow(ds);
  sp_model *m = NULL;
  sp_error err;
  ck_assert_int_eq(train(ds, 12, 500, 1e-4, &m, &err), SP_ENUMERIC);
  ck_assert_ptr_null(m);
  ck_assert_ptr_nonnull(strstr(err.message, "kernel 'k03'"));
  sp_dataset_free(ds);
}
END_TEST

/* A base value so large that scaling it overflows: SP_ENUMERIC, not inf. */
START_TEST(test_prediction_overflow) {
  spec sp = {6, two_shapes, class_counters};
  sp_dataset *ds = make("big-base", &sp);
  sp_model *m = train_ok(ds, 12, 500, 1e-4);
  double ctr[NCTR], out[12];
  sp_observation obs;
  sp_error err;
  ck_assert_int_eq(sp_model_observe(m, ds, 1, ctr, &obs, &err), SP_OK);
  obs.base_time_ms = 1.5e308;
  ck_assert_int_eq(sp_model_predict_all(m, SP_TIME, &obs, out, NULL), SP_ENUMERIC);
  sp_config slow = {16, 500, 475};
  double one;
  ck_assert_int_eq(sp_model_predict(m, SP_TIME, &obs, &slow, &one, NULL), SP_ENUMERIC);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

static Suite *robust_suite(void) {
  Suite *s = suite_create("robust");
  TCase *tc = tcase_create("degenerate");
  tcase_add_unchecked_fixture(tc, tu_scratch_setup, tu_scratch_teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_identical_times_across_axis);
  tcase_add_test(tc, test_one_surface_for_all);
  tcase_add_test(tc, test_k_above_distinct_surfaces);
  tcase_add_test(tc, test_zero_variance_counters);
  tcase_add_test(tc, test_single_kernel_clusters);
  tcase_add_test(tc, test_classifier_not_converged);
  tcase_add_test(tc, test_counter_range_overflow);
  tcase_add_test(tc, test_scaling_overflow);
  tcase_add_test(tc, test_prediction_overflow);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(robust_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
