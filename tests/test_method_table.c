/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_method_table.c: adding a prediction method takes one file and one
 * line of the method table (src/model/method.h).  This program is that file
 * for a method of its own, "mean", and adds its line to the table: the model
 * then fits, recommends, saves, loads, checks and predicts with it like any
 * other method, through the public API, with no other change.
 *
 * The library's table is src/model/methods.c, which holds nothing but the
 * array sp__method_table built from method-table.h.  This program defines
 * the array itself (the library's lines plus one), so the linker takes it
 * instead of methods.o from the model layer's archive, just as a method
 * added to the library would be listed there. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/method.h"
#include "scalepredict.h"
#include "testutil.h"

/* ---- the method ------------------------------------------------------------ */

/* "mean": the geometric mean of the training kernels' scaling (value at a
 * configuration over value at the base) times a new kernel's base value.
 * It needs no counters; what it shows is the table, not accuracy. */
typedef struct mean_state {
  size_t n[2];      /* grid size per quantity, 0 without that quantity */
  double *ratio[2]; /* the mean scaling at each grid point */
} mean_state;

static void mean_free(void *state) {
  mean_state *s = state;
  if (!s) return;
  free(s->ratio[0]);
  free(s->ratio[1]);
  free(s);
}

static int measured(const sp_dataset *ds, size_t k, sp_quantity q, const sp_config *c, double *v) {
  return q == SP_TIME ? sp_dataset_time(ds, k, c, v) : sp_dataset_power(ds, k, c, v);
}

static double mean_ratio(const sp_method_data *d, sp_quantity q, const sp_config *c) {
  double sum = 0, v, b;
  size_t n = 0;
  for (size_t i = 0; i < d->n; i++)
    if (!measured(d->ds, d->kernels[i], q, c, &v) &&
        !measured(d->ds, d->kernels[i], q, &d->ctx.base, &b)) {
      sum += log(v / b);
      n++;
    }
  return n ? exp(sum / (double)n) : 1.0;
}

static int mean_fit(const sp_method_data *d, const sp_train_params *p, void **state,
                    sp_error *err) {
  (void)p;
  mean_state *s = calloc(1, sizeof *s);
  *state = s;
  if (!s) return sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  for (int q = 0; q < 2; q++) {
    if (!d->ctx.grid[q]) continue;
    s->n[q] = sp__grid_size(d->ctx.grid[q]);
    if (!(s->ratio[q] = malloc(s->n[q] * sizeof(double))))
      return sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    for (size_t t = 0; t < s->n[q]; t++) {
      const sp_config c = sp__grid_config(d->ctx.grid[q], t);
      s->ratio[q][t] = mean_ratio(d, (sp_quantity)q, &c);
    }
  }
  return SP_OK;
}

static int mean_predict(const sp_model *m, const void *state, sp_quantity q,
                        const sp_observation *obs, double *out) {
  (void)m;
  const mean_state *s = state;
  const double base = q == SP_TIME ? obs->base_time_ms : obs->base_power_w;
  if (!s->ratio[q]) return SP_ENOPOWER;
  for (size_t t = 0; t < s->n[q]; t++) out[t] = base * s->ratio[q][t];
  return SP_OK;
}

static int mean_save(const void *state, const char *path, sp_error *err) {
  const mean_state *s = state;
  FILE *fp = fopen(path, "w");
  if (!fp) return sp_error_set(err, SP_EIO, path, 0, 0, NULL, "cannot write");
  fprintf(fp, "mean %zu %zu\n", s->n[0], s->n[1]);
  for (int q = 0; q < 2; q++)
    for (size_t t = 0; t < s->n[q]; t++) fprintf(fp, "%.17g\n", s->ratio[q][t]);
  return fclose(fp) ? sp_error_set(err, SP_EIO, path, 0, 0, NULL, "cannot write") : SP_OK;
}

static int mean_load(const sp_method_context *ctx, const char *path, void **state, sp_error *err) {
  mean_state *s = calloc(1, sizeof *s);
  *state = s;
  FILE *fp = fopen(path, "r");
  if (!s || !fp) {
    if (fp) fclose(fp);
    return sp_error_set(err, s ? SP_EIO : SP_ENOMEM, path, 0, 0, NULL, "cannot read");
  }
  int st = fscanf(fp, "mean %zu %zu", &s->n[0], &s->n[1]) == 2 ? SP_OK : SP_EMODEL;
  for (int q = 0; q < 2 && !st; q++) {
    const size_t want = ctx->grid[q] ? sp__grid_size(ctx->grid[q]) : 0;
    if (s->n[q] != want || (want && !(s->ratio[q] = malloc(want * sizeof(double))))) {
      st = SP_EMODEL;
      break;
    }
    for (size_t t = 0; t < want && !st; t++)
      st = fscanf(fp, "%lf", &s->ratio[q][t]) == 1 ? SP_OK : SP_EMODEL;
  }
  fclose(fp);
  return st ? sp_error_set(err, st, path, 0, 0, NULL, "not a mean method file for this model")
            : SP_OK;
}

const sp_method_type sp__method_mean = {
    .name = "mean",
    .fit = mean_fit,
    .predict = mean_predict,
    .save = mean_save,
    .load = mean_load,
    .free = mean_free,
};

/* ---- the table: the library's lines and one more ----------------------------- */

#define SP_METHOD(name) extern const sp_method_type sp__method_##name;
#include "model/method-table.h"
#undef SP_METHOD

const sp_method_type *const sp__method_table[] = {
#define SP_METHOD(name) &sp__method_##name,
#include "model/method-table.h"
    SP_METHOD(mean)
#undef SP_METHOD
        NULL};

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
