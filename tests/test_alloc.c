/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_alloc.c: physet's predictions allocate nothing once a model has made
 * its first one (issue 29): time and power over the whole grid, with their
 * intervals and the novelty, with and without extra measurements and a
 * measured floor, on the bundled H100 model, on a model trained here, and
 * on the bundled model of the memory axis (issue 28: method file version 9,
 * two bases), from each base, with extra measurements on the base's
 * memory system alone (the memory step taken apart) and the other
 * system's floor measured; and on the fixture trained with its memory
 * systems (version 11's curve forest).
 *
 * malloc, calloc and realloc are counted by defining them in this program,
 * which glibc allows (they forward to glibc's own); elsewhere, and under
 * the sanitizers, whose runtimes own malloc, the test is skipped. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalepredict.h"
#include "testutil.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#endif
#if defined(__GLIBC__) && !defined(SANITIZED)
#define COUNTING 1
#endif

static long allocations; /* counted while counting is set */
static int counting;

#ifdef COUNTING
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

void *malloc(size_t n) {
  allocations += counting;
  return __libc_malloc(n);
}

void *calloc(size_t n, size_t size) {
  allocations += counting;
  return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n) {
  allocations += counting;
  return __libc_realloc(p, n);
}

void free(void *p) { __libc_free(p); }
#endif

/* Where a kernel is measured: at base (NULL: the model's base), and, when
 * same_memory, its extra measurements only on base's memory system (whose
 * floor is then measured on another system's board too, when a floor is
 * measured). */
typedef struct where {
  const sp_config *base;
  int same_memory;
} where;

/* nextra configurations of the time grid (besides the base) spread over
 * it, or over the part at the base's memory clock; *other: a memory clock
 * of the grid other than the base's, or 0. */
static size_t pick_extra(const sp_model *m, const where *at, size_t nextra, sp_config *want,
                         int *other) {
  static sp_config cand[1024];
  const sp_config base = at->base ? *at->base : sp_model_base(m);
  const size_t gt = sp_model_config_count(m, SP_TIME);
  size_t nc = 0;
  *other = 0;
  for (size_t i = 0; i < gt && i < 1024; i++) {
    sp_config c = sp_model_config_at(m, SP_TIME, i);
    if (c.memory_mhz != base.memory_mhz) *other = c.memory_mhz;
    if (!at->same_memory || c.memory_mhz == base.memory_mhz) cand[nc++] = c;
  }
  for (size_t e = 0; e < nextra; e++) want[e] = cand[(e + 1) * nc / (nextra + 2)];
  return nextra;
}

/* Every kind of physet prediction of kernel k: time and power over the
 * grid, with intervals (time's with the novelty), alone and after each
 * other in both orders, with nextra extra measurements (picked from the
 * grid) and, when floor, a measured floor.  Returns the first status that
 * is not SP_OK (Check's assertions allocate, so none is made here). */
static int predict_everything(const sp_model *m, const sp_dataset *ds, const where *at, size_t k,
                              size_t nextra, int floor) {
  static double counters[256], out[1024], lo[1024], hi[1024], t_ms[8], p_w[8];
  sp_config want[8], got[8];
  sp_observation obs;
  sp_predict_info info;
  sp_error err;
  int other;
  const size_t gt = sp_model_config_count(m, SP_TIME);
  if (sp_model_counter_count(m) > 256 || gt > 1024 || nextra > 8) return SP_EINVAL;
  int st = sp_model_observe_at(m, ds, k, at->base, counters, &obs, &err);
  nextra = pick_extra(m, at, nextra, want, &other);
  sp_model_observe_more(m, ds, k, want, nextra, got, t_ms, p_w, &obs);
  if (floor) obs.floor_w = 0.4 * obs.base_power_w;
  if (floor && at->same_memory && other) {
    obs.target_floor_w = 0.45 * obs.base_power_w;
    obs.target_floor_mhz = other;
  }
  const int power = sp_model_has_power(m) && obs.base_power_w > 0;
  if (!st) st = sp_model_predict_interval(m, SP_TIME, &obs, out, lo, hi, &info);
  if (!st) st = sp_model_predict_all(m, SP_TIME, &obs, out, &info);
  if (!st && power) st = sp_model_predict_interval(m, SP_POWER, &obs, out, lo, hi, NULL);
  if (!st && power) st = sp_model_predict_all(m, SP_POWER, &obs, out, NULL);
  obs.base_time_ms *= 1.25; /* another kernel, as far as the model can tell */
  if (!st && power) st = sp_model_predict_all(m, SP_POWER, &obs, out, NULL);
  if (!st && power) st = sp_model_predict_interval(m, SP_POWER, &obs, out, lo, hi, NULL);
  if (!st) st = sp_model_predict_interval(m, SP_TIME, &obs, out, lo, hi, &info);
  return st;
}

/* No allocation in any prediction after the first, for each kernel of ds
 * measured there (at most 8) in each way. */
static void check_model_at(const sp_model *m, const sp_dataset *ds, const where *at) {
  size_t ks[8], nk = 0;
  for (size_t k = 0; k < sp_dataset_kernel_count(ds) && nk < 8; k++)
    if (sp_model_observable(m, ds, k, at->base)) ks[nk++] = k;
  ck_assert_uint_gt(nk, 0);
  int st = predict_everything(m, ds, at, ks[0], 0, 0);
  ck_assert_int_eq(st, SP_OK);
  allocations = 0;
  counting = 1;
  for (size_t t = 0; t < nk && !st; t++)
    for (size_t nextra = 0; nextra <= 2 && !st; nextra++)
      for (int floor = 0; floor <= 1 && !st; floor++)
        st = predict_everything(m, ds, at, ks[t], nextra, floor);
  counting = 0;
  ck_assert_int_eq(st, SP_OK);
  ck_assert_msg(allocations == 0, "%ld allocations in %zu kernels' predictions", allocations, nk);
}

static void check_model(const sp_model *m, const sp_dataset *ds) {
  const where at = {NULL, 0};
  check_model_at(m, ds, &at);
}

static int skipped(void) {
#ifdef COUNTING
  const char *san = getenv("SP_SANITIZERS");
  return san && !strcmp(san, "yes");
#else
  return 1;
#endif
}

START_TEST(test_bundled_model) {
  const char *top = getenv("SP_TOP_SRCDIR");
  char dir[4096], runs[4096], counters[4096];
  snprintf(dir, sizeof dir, "%s/models/h100-sm", top ? top : "..");
  snprintf(runs, sizeof runs, "%s/training/data/h100-sm/runs.csv", top ? top : "..");
  snprintf(counters, sizeof counters, "%s/training/data/h100-sm/counters.csv", top ? top : "..");
  sp_model *m;
  sp_dataset *ds;
  sp_error err;
  ck_assert_int_eq(sp_model_load(dir, &m, &err), SP_OK);
  ck_assert_int_eq(sp_dataset_load(runs, counters, &ds, &err), SP_OK);
  ck_assert_str_eq(sp_model_method(m), "physet");
  check_model(m, ds);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

START_TEST(test_trained_model) {
  sp_dataset *ds = tu_load_fixture("train");
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = (sp_config){32, 1000, 1375};
  tp.clusters = 3;
  sp_model *m;
  sp_error err;
  ck_assert_int_eq(sp_model_train(ds, &tp, NULL, NULL, &m, &err), SP_OK);
  ck_assert_str_eq(sp_model_method(m), "physet");
  check_model(m, ds);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* train --physet-median on the H100 SM axis: the median point prediction
 * sorts in the scratch the intervals use. */
START_TEST(test_median_model) {
  const char *top = getenv("SP_TOP_SRCDIR");
  char runs[4096], counters[4096];
  snprintf(runs, sizeof runs, "%s/training/data/h100-sm/runs.csv", top ? top : "..");
  snprintf(counters, sizeof counters, "%s/training/data/h100-sm/counters.csv", top ? top : "..");
  sp_dataset *ds;
  sp_error err;
  ck_assert_int_eq(sp_dataset_load(runs, counters, &ds, &err), SP_OK);
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = (sp_config){132, 1980, 2619};
  tp.clusters = 3;
  tp.restarts = 1;
  tp.max_epochs = 20;
  tp.physet_median = 1;
  sp_model *m;
  ck_assert_int_eq(sp_model_train(ds, &tp, NULL, NULL, &m, &err), SP_OK);
  ck_assert_str_eq(sp_model_method(m), "physet");
  check_model(m, ds);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

START_TEST(test_memaxis_model) {
  const char *top = getenv("SP_TOP_SRCDIR");
  char dir[4096], runs[4096], counters[4096];
  snprintf(dir, sizeof dir, "%s/models/h100-h200", top ? top : "..");
  snprintf(runs, sizeof runs, "%s/training/data/h100h200/runs.csv", top ? top : "..");
  snprintf(counters, sizeof counters, "%s/training/data/h100h200/counters.csv", top ? top : "..");
  sp_model *m;
  sp_dataset *ds;
  sp_error err;
  ck_assert_int_eq(sp_model_load(dir, &m, &err), SP_OK);
  ck_assert_int_eq(sp_dataset_load(runs, counters, &ds, &err), SP_OK);
  ck_assert_str_eq(sp_model_method(m), "physet");
  ck_assert_uint_eq(sp_model_base_count(m), 2);
  ck_assert_uint_eq(sp_model_memory_count(m), 2);
  check_model(m, ds);
  for (size_t b = 0; b < sp_model_base_count(m); b++) {
    const sp_config base = sp_model_base_at(m, b);
    for (int same = 0; same <= 1; same++) {
      const where at = {&base, same};
      check_model_at(m, ds, &at);
    }
  }
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* The fixture trained with its two memory systems described: method file
 * version 11, whose curve forest is read with extra measurements on the
 * base's memory system. */
START_TEST(test_trained_memory_model) {
  char *dir = tu_mkdtemp();
  sp_memory_set *ms = tu_two_memory_systems(dir);
  sp_error err;
  sp_dataset *ds = tu_load_fixture("train");
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = (sp_config){32, 1000, 1375};
  tp.clusters = 3;
  tp.memory = ms;
  sp_model *m;
  ck_assert_int_eq(sp_model_train(ds, &tp, NULL, NULL, &m, &err), SP_OK);
  const where at = {&tp.base, 1};
  check_model_at(m, ds, &at);
  sp_model_free(m);
  sp_dataset_free(ds);
  sp_memory_free(ms);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

int main(void) {
  if (skipped()) {
    printf("test_alloc: skipped: malloc cannot be counted here (not glibc, or sanitizers)\n");
    return 77;
  }
  Suite *s = suite_create("alloc");
  TCase *tc = tcase_create("physet");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_bundled_model);
  tcase_add_test(tc, test_trained_model);
  tcase_add_test(tc, test_median_model);
  tcase_add_test(tc, test_memaxis_model);
  tcase_add_test(tc, test_trained_memory_model);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
