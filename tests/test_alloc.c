/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_alloc.c: physet's predictions allocate nothing once a model has made
 * its first one (issue 29): time and power over the whole grid, with their
 * intervals and the novelty, with and without extra measurements and a
 * measured floor, on the bundled H100 model and on a model trained here.
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

/* Every kind of physet prediction of kernel k: time and power over the
 * grid, with intervals (time's with the novelty), alone and after each
 * other in both orders, with nextra extra measurements (picked from the
 * grid) and, when floor, a measured floor.  Returns the first status that
 * is not SP_OK (Check's assertions allocate, so none is made here). */
static int predict_everything(const sp_model *m, const sp_dataset *ds, size_t k, size_t nextra,
                              int floor) {
  static double counters[256], out[1024], lo[1024], hi[1024], t_ms[8], p_w[8];
  sp_config want[8], got[8];
  sp_observation obs;
  sp_predict_info info;
  sp_error err;
  const size_t gt = sp_model_config_count(m, SP_TIME);
  if (sp_model_counter_count(m) > 256 || gt > 1024 || nextra > 8) return SP_EINVAL;
  int st = sp_model_observe(m, ds, k, counters, &obs, &err);
  for (size_t e = 0; e < nextra; e++)
    want[e] = sp_model_config_at(m, SP_TIME, (e + 1) * gt / (nextra + 2));
  sp_model_observe_more(m, ds, k, want, nextra, got, t_ms, p_w, &obs);
  if (floor) obs.floor_w = 0.4 * obs.base_power_w;
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
 * (at most 8) in each way. */
static void check_model(const sp_model *m, const sp_dataset *ds) {
  const size_t nk = sp_dataset_kernel_count(ds) < 8 ? sp_dataset_kernel_count(ds) : 8;
  int st = predict_everything(m, ds, 0, 0, 0);
  ck_assert_int_eq(st, SP_OK);
  allocations = 0;
  counting = 1;
  for (size_t k = 0; k < nk && !st; k++)
    for (size_t nextra = 0; nextra <= 2 && !st; nextra++)
      for (int floor = 0; floor <= 1 && !st; floor++)
        st = predict_everything(m, ds, k, nextra, floor);
  counting = 0;
  ck_assert_int_eq(st, SP_OK);
  ck_assert_msg(allocations == 0, "%ld allocations in %zu kernels' predictions", allocations, nk);
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
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
