/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_method_table.c: adding a prediction method takes one file and one
 * line of the method table (src/model/method-table.h).  method/mean.c is
 * that file for a method of the tests' own, "mean", and
 * method/method-table.h the library's table with its line added; this
 * program compiles the library's own table file (src/model/method.c, as
 * method/gen-method.c, whose include line alone names the longer table)
 * against it.  The model then fits, recommends, saves, loads, checks and
 * predicts with "mean" like any other method, through the public API, with
 * no other change.  method/add-method.sh does the same through the tool,
 * evaluate included. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalepredict.h"
#include "testutil.h"

/* ---- the tests ----------------------------------------------------------------- */

#define NKERNELS 10

static char *scratch;
static sp_dataset *ds;
static const sp_config base_cfg = {32, 1000, 1375};
static const int cus[] = {16, 32}, engines[] = {500, 1000}, memories[] = {475, 1375};

/* Kernel k leans on compute, bandwidth or CUs in proportions that vary. */
static double time_at(int k, int cu, int e, int m) {
  const double a = 0.3 + 0.2385 * k, b = 2.1 - 0.1917 * k, c = 0.4 + 0.031 * k;
  return a * 1000.0 / e + b * 1000.0 / m + c * 32.0 / cu;
}

static double power_at(int k, int cu, int e, int m) {
  return 40.5 + 0.05 * e * (0.3 + 0.02 * k) + 0.02 * m + 0.7 * cu;
}

static void setup(void) {
  scratch = tu_mkdtemp();
  char runs[8192] = "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n";
  char counters[2048] = "kernel,cu,engine_mhz,memory_mhz,alu.busy,mem.busy,occupancy\n";
  size_t rl = strlen(runs), cl = strlen(counters);
  for (int k = 0; k < NKERNELS; k++) {
    for (int i = 0; i < 8; i++)
      rl += (size_t)snprintf(runs + rl, sizeof runs - rl, "k%d,%d,%d,%d,%.9g,%.9g\n", k, cus[i / 4],
                             engines[i / 2 % 2], memories[i % 2],
                             time_at(k, cus[i / 4], engines[i / 2 % 2], memories[i % 2]),
                             power_at(k, cus[i / 4], engines[i / 2 % 2], memories[i % 2]));
    cl += (size_t)snprintf(counters + cl, sizeof counters - cl, "k%d,32,1000,1375,%.6g,%.6g,%.6g\n",
                           k, 10.0 + 7.3 * k, 90.0 - 6.1 * k + sin(k), 50 + 2.3 * k);
  }
  char *rp = tu_write(scratch, "runs.csv", runs), *cp = tu_write(scratch, "counters.csv", counters);
  sp_error err;
  ck_assert_int_eq(sp_dataset_load(rp, cp, &ds, &err), SP_OK);
  free(rp);
  free(cp);
}

static void teardown(void) {
  sp_dataset_free(ds);
  tu_rmtree(scratch);
  free(scratch);
}

/* The bit of sp_train_params.methods that fits the method named name. */
static unsigned bit_of(const char *name) {
  for (size_t i = 1; sp_train_method_name(i); i++)
    if (!strcmp(sp_train_method_name(i), name)) return 1u << (i - 1);
  ck_abort_msg("no method %s", name);
  return 0;
}

static sp_model *train(unsigned methods) {
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = base_cfg;
  tp.clusters = 3;
  tp.seed = 2385;
  tp.max_epochs = 100;
  tp.methods = methods;
  sp_model *m = NULL;
  sp_error err;
  ck_assert_int_eq(sp_model_train(ds, &tp, NULL, NULL, &m, &err), SP_OK);
  return m;
}

/* Predictions of time for kernel k over the whole grid (8 points). */
static void predict(const sp_model *m, size_t k, double out[8]) {
  double counters[3];
  sp_observation obs;
  sp_error err;
  ck_assert_int_eq(sp_model_observe(m, ds, k, counters, &obs, &err), SP_OK);
  ck_assert_int_eq(sp_model_predict_all(m, SP_TIME, &obs, out, NULL), SP_OK);
}

START_TEST(test_table_lists_the_method) {
  ck_assert_str_eq(sp_train_method_name(0), "wu2015");
  ck_assert_str_eq(sp_train_method_name(1), "physet");
  ck_assert_str_eq(sp_train_method_name(3), "mean"); /* after wu2015, physet, static */
  ck_assert_ptr_null(sp_train_method_name(4));
  sp_train_params tp;
  sp_train_params_init(&tp);
  sp_error err;
  ck_assert_int_eq(sp_train_params_set_methods(&tp, "wu2015,mean", &err), SP_OK);
  ck_assert_uint_eq(tp.methods, bit_of("mean"));
  ck_assert_int_eq(sp_train_params_set_methods(&tp, "mean,median", &err), SP_EINVAL);
  ck_assert_str_eq(err.field, "methods");
  ck_assert_uint_eq(tp.methods, bit_of("mean"));
}
END_TEST

/* Trained, it is carried and recommended, and predicts what it should. */
START_TEST(test_fit_and_predict) {
  sp_model *m = train(bit_of("mean"));
  ck_assert_uint_eq(sp_model_method_count(m), 2);
  ck_assert_str_eq(sp_model_method_name(m, 1), "mean");
  ck_assert_str_eq(sp_model_recommended_method(m), "mean");
  ck_assert_str_eq(sp_model_method(m), "mean");
  double got[8];
  predict(m, 4, got);
  for (size_t t = 0; t < 8; t++) {
    const sp_config c = sp_model_config_at(m, SP_TIME, t);
    double sum = 0;
    for (int k = 0; k < NKERNELS; k++)
      sum += log(time_at(k, c.cu, c.engine_mhz, c.memory_mhz) / time_at(k, 32, 1000, 1375));
    const double want = time_at(4, 32, 1000, 1375) * exp(sum / NKERNELS);
    ck_assert_msg(tu_rel(got[t], want) < 1e-7, "t %zu: %.17g, want %.17g", t, got[t], want);
  }
  sp_model_free(m);
}
END_TEST

/* Saved and loaded, it comes back with its state; the model can still
 * switch to wu2015, which predicts as a model without "mean" does. */
START_TEST(test_save_and_load) {
  sp_model *m = train(bit_of("mean")), *back = NULL, *plain = train(0);
  char *dir = tu_path(scratch, "model");
  sp_error err;
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
  char *manifest = tu_path(dir, "manifest.txt"), *file = tu_path(dir, "method-mean.txt");
  size_t size;
  char *text = tu_read(manifest, &size);
  ck_assert_ptr_nonnull(
      strstr(text, "\nmethods 2\nmethod wu2015\nmethod mean file method-mean.txt sha256 "));
  ck_assert_ptr_nonnull(strstr(text, "\nrecommended mean\n"));
  ck_assert_int_eq(sp_model_load(dir, &back, &err), SP_OK);
  ck_assert_str_eq(sp_model_method(back), "mean");
  double a[8], b[8], c[8];
  predict(m, 7, a);
  predict(back, 7, b);
  for (size_t t = 0; t < 8; t++) ck_assert(a[t] == b[t]);
  ck_assert_int_eq(sp_model_use_method(back, "wu2015"), SP_OK);
  ck_assert_int_eq(sp_model_use_method(back, "physet"), SP_ENOTFOUND);
  predict(back, 7, b);
  predict(plain, 7, c);
  for (size_t t = 0; t < 8; t++) ck_assert(b[t] == c[t]);
  /* The method's file is checked against the manifest's checksum. */
  free(tu_write(dir, "method-mean.txt", "mean 8 8\n"));
  sp_model_free(back);
  ck_assert_int_eq(sp_model_load(dir, &back, &err), SP_EMODEL);
  ck_assert_ptr_nonnull(strstr(err.message, "checksum"));
  free(text);
  free(file);
  free(manifest);
  free(dir);
  sp_model_free(plain);
  sp_model_free(m);
}
END_TEST

/* Beside physet it follows the table's order, and the last is recommended. */
START_TEST(test_beside_physet) {
  sp_model *m = train(bit_of("physet") | bit_of("mean"));
  ck_assert_uint_eq(sp_model_method_count(m), 3);
  ck_assert_str_eq(sp_model_method_name(m, 0), "wu2015");
  ck_assert_str_eq(sp_model_method_name(m, 1), "physet");
  ck_assert_str_eq(sp_model_method_name(m, 2), "mean");
  ck_assert_str_eq(sp_model_recommended_method(m), "mean");
  sp_model_free(m);
}
END_TEST

static Suite *method_table_suite(void) {
  Suite *s = suite_create("method_table");
  TCase *tc = tcase_create("mean");
  tcase_set_timeout(tc, 60);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_table_lists_the_method);
  tcase_add_test(tc, test_fit_and_predict);
  tcase_add_test(tc, test_save_and_load);
  tcase_add_test(tc, test_beside_physet);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(method_table_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
