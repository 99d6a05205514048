/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_threads.c: predictions on one shared model from several threads give
 * exactly what the same predictions give one after another, with each
 * method the model carries (include/scalepredict.h, "Thread safety").  Run
 * under ThreadSanitizer by tests/sanitize.sh tsan, where a data race fails
 * the test. */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalepredict.h"
#include "testutil.h"

/* More threads than physet's pool has slots (four), so that some
 * predictions run on scratch of their own. */
#define THREADS 6
#define ROUNDS 50
#define MAXG 64

static sp_model *model;
static sp_dataset *data;

/* Every kernel's time (with interval) and power over the whole grid,
 * ROUNDS times; the last round's values land in out. */
typedef struct job {
  double out[16][4][MAXG];
  int status;
} job;

static void *predict_all_kernels(void *arg) {
  job *j = arg;
  const size_t nk = sp_dataset_kernel_count(data) < 16 ? sp_dataset_kernel_count(data) : 16;
  double ctr[32];
  for (int r = 0; r < ROUNDS && !j->status; r++)
    for (size_t k = 0; k < nk && !j->status; k++) {
      sp_observation obs;
      sp_error err;
      sp_predict_info info;
      double(*o)[MAXG] = j->out[k];
      j->status = sp_model_observe(model, data, k, ctr, &obs, &err);
      if (!j->status)
        j->status = sp_model_predict_interval(model, SP_TIME, &obs, o[0], o[1], o[2], &info);
      if (!j->status) j->status = sp_model_predict_all(model, SP_POWER, &obs, o[3], NULL);
    }
  return NULL;
}

static void load(const char *method) {
  data = tu_load_fixture("train");
  sp_error err;
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = (sp_config){32, 1000, 1375};
  tp.clusters = 3;
  tp.methods = 1u << SP_TRAIN_PHYSET;
  ck_assert_int_eq(sp_model_train(data, &tp, NULL, NULL, &model, &err), SP_OK);
  ck_assert_int_eq(sp_model_use_method(model, method), SP_OK);
  ck_assert_uint_le(sp_model_config_count(model, SP_TIME), MAXG);
  ck_assert_uint_le(sp_model_counter_count(model), 32);
}

static void check_method(const char *method) {
  load(method);
  static job serial, par[THREADS];
  memset(&serial, 0, sizeof serial);
  predict_all_kernels(&serial);
  ck_assert_int_eq(serial.status, SP_OK);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) {
    memset(&par[i], 0, sizeof par[i]);
    ck_assert_int_eq(pthread_create(&t[i], NULL, predict_all_kernels, &par[i]), 0);
  }
  for (int i = 0; i < THREADS; i++) ck_assert_int_eq(pthread_join(t[i], NULL), 0);
  for (int i = 0; i < THREADS; i++) {
    ck_assert_int_eq(par[i].status, SP_OK);
    /* Bit for bit: NaN (wu2015's missing intervals) compares by bytes too. */
    ck_assert_msg(!memcmp(par[i].out, serial.out, sizeof serial.out),
                  "%s: thread %d predicted differently from the serial run", method, i);
  }
  sp_model_free(model);
  sp_dataset_free(data);
}

START_TEST(test_shared_model_wu2015) { check_method("wu2015"); }
END_TEST

START_TEST(test_shared_model_physet) { check_method("physet"); }
END_TEST

int main(void) {
  Suite *s = suite_create("threads");
  TCase *tc = tcase_create("shared model");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_shared_model_wu2015);
  tcase_add_test(tc, test_shared_model_physet);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
