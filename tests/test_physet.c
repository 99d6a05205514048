/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_physet.c: what physet says about its own predictions: the novelty
 * measure (src/model/novelty.h) and the 90% intervals (src/model/physet.h),
 * through the public API where there is one. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/featplan.h"
#include "model/forest.h"
#include "model/novelty.h"
#include "scalepredict.h"
#include "testutil.h"
#include "util/sha256.h"

/* ---- novelty ------------------------------------------------------------------ */

/* Ten points on a line in the first two features (spacing 1 in scaled
 * units is not assumed: only ratios are checked) and a constant third. */
static void line_points(double *x) {
  for (int j = 0; j < 10; j++) {
    x[j * 3 + 0] = j;
    x[j * 3 + 1] = 2.0 * j;
    x[j * 3 + 2] = 5.0;
  }
}

START_TEST(test_novelty_basics) {
  double x[30];
  line_points(x);
  sp_novelty *nv;
  ck_assert_int_eq(sp__novelty_fit(x, 10, 3, &nv), SP_OK);
  /* A training point is at distance 0; a midpoint between two is half the
   * spacing away (every training point's nearest other is one step). */
  ck_assert_double_eq_tol(sp__novelty_of(nv, x + 9), 0, 1e-12);
  const double mid[3] = {3.5, 7.0, 5.0};
  ck_assert_double_eq_tol(sp__novelty_of(nv, mid), 0.5, 1e-12);
  /* The constant feature carries no scale: moving along it changes nothing. */
  const double off[3] = {3.5, 7.0, 500.0};
  ck_assert_double_eq_tol(sp__novelty_of(nv, off), 0.5, 1e-12);
  /* Ten steps past the last point: novelty 10, outside. */
  const double far[3] = {19.0, 38.0, 5.0};
  ck_assert_double_eq_tol(sp__novelty_of(nv, far), 10, 1e-9);
  sp__novelty_free(nv);
  ck_assert_int_eq(sp__novelty_fit(x, 1, 3, &nv), SP_EINVAL);
  ck_assert_ptr_null(nv);
}
END_TEST

/* Identical training points leave no spacing; the fit still gives a finite
 * measure. */
START_TEST(test_novelty_twins) {
  double x[6] = {1, 2, 1, 2, 1, 2};
  sp_novelty *nv;
  ck_assert_int_eq(sp__novelty_fit(x, 3, 2, &nv), SP_OK);
  ck_assert_double_eq_tol(sp__novelty_of(nv, x), 0, 1e-12);
  const double q[2] = {3, 4};
  ck_assert(isfinite(sp__novelty_of(nv, q)));
  sp__novelty_free(nv);
}
END_TEST

static char *scratch;

static void setup(void) { scratch = tu_mkdtemp(); }
static void teardown(void) {
  tu_rmtree(scratch);
  free(scratch);
}

/* Saved and loaded, the measure answers the same; damaged text is refused. */
START_TEST(test_novelty_file) {
  double x[30];
  line_points(x);
  sp_novelty *nv, *back;
  ck_assert_int_eq(sp__novelty_fit(x, 10, 3, &nv), SP_OK);
  char *path = tu_path(scratch, "novelty.txt");
  FILE *fp = fopen(path, "w+");
  ck_assert_ptr_nonnull(fp);
  ck_assert_int_eq(sp__novelty_save(nv, fp), SP_OK);
  fputs("end\n", fp);
  rewind(fp);
  long line;
  ck_assert_int_eq(sp__novelty_load(fp, 3, 1, &line, &back), SP_OK);
  const double q[3] = {2.25, 11.0, -3.0};
  ck_assert_double_eq(sp__novelty_of(nv, q), sp__novelty_of(back, q));
  sp__novelty_free(back);
  rewind(fp);
  ck_assert_int_eq(sp__novelty_load(fp, 4, 1, &line, &back), SP_EMODEL);
  ck_assert_ptr_null(back);
  fclose(fp);
  static const char *const damaged[] = {
      "novelty 2 2 1\nscale 1 1\nx 0 0\nx 1 nan\n", /* a value not finite */
      "novelty 2 2 1\nscale 1 1\nx 0 0\n",          /* a row missing */
      "novelty 2 2 0\nscale 1 1\nx 0 0\nx 1 1\n",   /* no spacing */
      "novelty 2 2 1\nscale -1 1\nx 0 0\nx 1 1\n",  /* a negative scale */
      "novelty 2 2 1\nscale 1 1\nx 0 0\nx 1 1 1\n", /* a value too many */
  };
  for (size_t i = 0; i < sizeof damaged / sizeof *damaged; i++) {
    char *p = tu_write(scratch, "damaged.txt", damaged[i]);
    fp = fopen(p, "r");
    ck_assert_int_eq(sp__novelty_load(fp, 2, 1, &line, &back), SP_EMODEL);
    ck_assert_ptr_null(back);
    fclose(fp);
    free(p);
  }
  sp__novelty_free(nv);
  free(path);
}
END_TEST

/* A forest file whose nodes do not form trees (a child shared by both
 * branches) is refused; the same forest with two distinct leaves loads and
 * weighs each sample by its leaf. */
START_TEST(test_forest_shared_child) {
  static const char *const good =
      "forest 1 samples 2 features 1 trees 1 nodes 3\nroots 0\n"
      "s 0 0.5 1 2\nl 1 0\nl 1 1\n";
  static const char *const shared =
      "forest 1 samples 2 features 1 trees 1 nodes 3\nroots 0\n"
      "s 0 0.5 1 1\nl 1 0\nl 1 1\n";
  long line;
  sp_forest *f;
  char *p = tu_write(scratch, "forest.txt", good);
  FILE *fp = fopen(p, "r");
  ck_assert_int_eq(sp__forest_load(fp, 1, &line, &f), SP_OK);
  ck_assert_int_eq(line, 5); /* the forest's last line: what follows is blamed on its own */
  fclose(fp);
  double w[2];
  const double left = 0.25, right = 0.75;
  sp__forest_weights(f, &left, w);
  ck_assert(w[0] == 1 && w[1] == 0);
  sp__forest_weights(f, &right, w);
  ck_assert(w[0] == 0 && w[1] == 1);
  /* The forest's estimate of one value per sample is its leaf's. */
  const double y[2] = {3, 7};
  ck_assert_double_eq(sp__forest_mean(f, &left, y), 3);
  ck_assert_double_eq(sp__forest_mean(f, &right, y), 7);
  sp__forest_free(f);
  free(p);
  p = tu_write(scratch, "forest.txt", shared);
  fp = fopen(p, "r");
  ck_assert_int_eq(sp__forest_load(fp, 1, &line, &f), SP_EMODEL);
  ck_assert_ptr_null(f);
  fclose(fp);
  free(p);
}
END_TEST

/* ---- intervals through the public API ----------------------------------------- */

static const sp_config base_cfg = {32, 1000, 1375};

static sp_model *train_physet(sp_dataset **ds) {
  *ds = tu_load_fixture("train");
  sp_error err;
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = base_cfg;
  tp.clusters = 3;
  tp.methods = 1u << SP_TRAIN_PHYSET;
  sp_model *m = NULL;
  ck_assert_int_eq(sp_model_train(*ds, &tp, NULL, NULL, &m, &err), SP_OK);
  ck_assert_str_eq(sp_model_method(m), "physet");
  return m;
}

/* Around every prediction, collapsing to the measurement at the base and
 * at a further measured configuration. */
START_TEST(test_intervals) {
  sp_dataset *ds;
  sp_model *m = train_physet(&ds);
  const size_t g = sp_model_config_count(m, SP_TIME);
  double ctr[16], out[64], lo[64], hi[64];
  ck_assert_uint_le(g, 64);
  ck_assert_uint_le(sp_model_counter_count(m), 16);
  sp_observation obs;
  sp_error err;
  ck_assert_int_eq(sp_model_observe(m, ds, 2, ctr, &obs, &err), SP_OK);
  const sp_config extra = {16, 1000, 1375};
  double et, ep;
  ck_assert_int_eq(sp_dataset_time(ds, 2, &extra, &et), SP_OK);
  ck_assert_int_eq(sp_dataset_power(ds, 2, &extra, &ep), SP_OK);
  obs.nextra = 1;
  obs.extra_config = &extra;
  obs.extra_time_ms = &et;
  obs.extra_power_w = &ep;
  sp_predict_info info;
  for (int q = 0; q < 2; q++) {
    ck_assert_int_eq(sp_model_predict_interval(m, (sp_quantity)q, &obs, out, lo, hi, &info), SP_OK);
    ck_assert(isfinite(info.novelty) && info.novelty >= 0);
    ck_assert_int_eq(info.outside, info.clamped > 0 || info.novelty > 1);
    for (size_t i = 0; i < sp_model_config_count(m, (sp_quantity)q); i++) {
      sp_config c = sp_model_config_at(m, (sp_quantity)q, i);
      ck_assert_msg(lo[i] <= out[i] && out[i] <= hi[i], "q%d point %zu: %g..%g around %g", q, i,
                    lo[i], hi[i], out[i]);
      int at_measured = sp_config_equal(&c, &base_cfg) || sp_config_equal(&c, &extra);
      if (at_measured) {
        double v = sp_config_equal(&c, &base_cfg) ? (q ? obs.base_power_w : obs.base_time_ms)
                                                  : (q ? ep : et);
        ck_assert_double_eq_tol(out[i], v, 1e-9 * v);
        ck_assert(lo[i] == out[i] && hi[i] == out[i]);
      } else {
        ck_assert(hi[i] > lo[i]);
      }
    }
  }
  /* A kernel far from every training kernel is outside. */
  for (size_t c = 0; c < sp_model_counter_count(m); c++) ctr[c] *= 1e6;
  obs.nextra = 0;
  ck_assert_int_eq(sp_model_predict_interval(m, SP_TIME, &obs, out, lo, hi, &info), SP_OK);
  ck_assert(info.novelty > 1 && info.outside);
  /* wu2015 gives no interval. */
  ck_assert_int_eq(sp_model_use_method(m, "wu2015"), SP_OK);
  ck_assert_int_eq(sp_model_predict_interval(m, SP_TIME, &obs, out, lo, hi, &info), SP_OK);
  ck_assert(isnan(lo[0]) && isnan(hi[g - 1]) && isnan(info.novelty));
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* A saved model predicts the same intervals and novelty after loading. */
START_TEST(test_intervals_saved) {
  sp_dataset *ds;
  sp_model *m = train_physet(&ds), *back = NULL;
  sp_error err;
  char *dir = tu_path(scratch, "model");
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
  ck_assert_int_eq(sp_model_load(dir, &back, &err), SP_OK);
  double ctr[16], a[3][64], b[3][64];
  sp_observation obs;
  ck_assert_int_eq(sp_model_observe(m, ds, 5, ctr, &obs, &err), SP_OK);
  sp_predict_info ia, ib;
  ck_assert_int_eq(sp_model_predict_interval(m, SP_POWER, &obs, a[0], a[1], a[2], &ia), SP_OK);
  ck_assert_int_eq(sp_model_predict_interval(back, SP_POWER, &obs, b[0], b[1], b[2], &ib), SP_OK);
  ck_assert_double_eq(ia.novelty, ib.novelty);
  for (size_t i = 0; i < sp_model_config_count(m, SP_POWER); i++)
    for (int r = 0; r < 3; r++) ck_assert_double_eq_tol(a[r][i], b[r][i], 1e-12 * a[r][i]);
  free(dir);
  sp_model_free(back);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* Rewrites the line of DIR's method file that starts with KEY, then its
 * checksum in the manifest and the manifest's own, as a retrain would. */
static void set_line(const char *dir, const char *key, const char *line) {
  char *path = tu_path(dir, "method-physet.txt"), *mpath = tu_path(dir, "manifest.txt");
  char *text = tu_read(path, NULL), *at = strstr(text, key);
  ck_assert_ptr_nonnull(at);
  char *end = strchr(at, '\n');
  ck_assert_ptr_nonnull(end);
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fprintf(fp, "%.*s%s\n%s", (int)(at - text), text, line, end + 1);
  ck_assert_int_eq(fclose(fp), 0);
  char hex[65];
  ck_assert_int_eq(sp__sha256_file(path, hex), 0);
  char *man = tu_read(mpath, NULL), *sum = strstr(man, "file method-physet.txt sha256 ");
  ck_assert_ptr_nonnull(sum);
  memcpy(sum + strlen("file method-physet.txt sha256 "), hex, 64);
  char *last = strstr(man, "\nsha256 ") + 1;
  sp_sha256 h;
  sp__sha256_init(&h);
  sp__sha256_update(&h, man, (size_t)(last - man));
  sp__sha256_final_hex(&h, last + 7);
  last[71] = '\n';
  fp = fopen(mpath, "w");
  ck_assert_ptr_nonnull(fp);
  fputs(man, fp);
  ck_assert_int_eq(fclose(fp), 0);
  free(man);
  free(text);
  free(mpath);
  free(path);
}

/* The saved interval widths are what predicts: doubling the time widths
 * in the file widens every time interval away from the base and leaves
 * the predictions as they were; a width out of range is refused with the
 * file and line.  This fixture's clock axes keep version 7's widths (the
 * SM axis's are checked by tests/cli/physet_h100.sh). */
START_TEST(test_widths_file) {
  sp_dataset *ds;
  sp_model *m = train_physet(&ds), *back = NULL;
  sp_error err;
  char *dir = tu_path(scratch, "model");
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
  char *path = tu_path(dir, "method-physet.txt");
  char *text = tu_read(path, NULL);
  ck_assert_ptr_nonnull(strstr(text, "\nwidths time 1 1 0.02 0.040000000000000001\n"));
  ck_assert_ptr_nonnull(strstr(text, "\nwidths power "));
  free(text);
  set_line(dir, "widths time", "widths time 2 1 0.040000000000000001 0.080000000000000002");
  ck_assert_int_eq(sp_model_load(dir, &back, &err), SP_OK);
  double ctr[16], a[3][64], b[3][64];
  sp_observation obs;
  ck_assert_int_eq(sp_model_observe(m, ds, 5, ctr, &obs, &err), SP_OK);
  for (int q = 0; q < 2; q++) {
    ck_assert_int_eq(sp_model_predict_interval(m, (sp_quantity)q, &obs, a[0], a[1], a[2], NULL),
                     SP_OK);
    ck_assert_int_eq(sp_model_predict_interval(back, (sp_quantity)q, &obs, b[0], b[1], b[2], NULL),
                     SP_OK);
    for (size_t i = 0; i < sp_model_config_count(m, (sp_quantity)q); i++) {
      sp_config c = sp_model_config_at(m, (sp_quantity)q, i);
      ck_assert_double_eq_tol(a[0][i], b[0][i], 1e-12 * a[0][i]);
      if (sp_config_equal(&c, &base_cfg) || q == SP_POWER) continue;
      ck_assert_msg(b[2][i] / b[1][i] > a[2][i] / a[1][i] * 1.01, "point %zu: %g..%g, was %g..%g",
                    i, b[1][i], b[2][i], a[1][i], a[2][i]);
    }
  }
  sp_model_free(back);
  back = NULL;
  set_line(dir, "widths time", "widths time -1 1 0.02 0.04");
  ck_assert_int_ne(sp_model_load(dir, &back, &err), SP_OK);
  ck_assert_ptr_null(back);
  ck_assert_ptr_nonnull(strstr(err.file, "method-physet.txt"));
  ck_assert_int_gt(err.line, 0);
  ck_assert_ptr_nonnull(strstr(err.message, "widths time"));
  free(path);
  free(dir);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* The time widths' jitter (ms): a file without one predicts as before;
 * with one, each time interval away from the base is wider, the more so
 * the shorter the time, and the points are unchanged; saved again, the
 * model keeps it; a jitter out of (0, 1] ms, on the power line, or
 * followed by anything is refused with the file and line. */
START_TEST(test_jitter_file) {
  sp_dataset *ds;
  sp_model *m = train_physet(&ds), *back = NULL, *again = NULL;
  sp_error err;
  char *dir = tu_path(scratch, "jitter"), *dir2 = tu_path(scratch, "jitter2");
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
  char *path = tu_path(dir, "method-physet.txt"), *text = tu_read(path, NULL);
  ck_assert_ptr_null(strstr(text, "jitter"));
  free(text);
  set_line(dir, "widths time", "widths time 1 1 0.02 0.040000000000000001 jitter 0.5");
  ck_assert_int_eq(sp_model_load(dir, &back, &err), SP_OK);
  double ctr[16], a[3][64], b[3][64], c[3][64], d[3][64];
  sp_observation obs;
  ck_assert_int_eq(sp_model_observe(m, ds, 5, ctr, &obs, &err), SP_OK);
  ck_assert_int_eq(sp_model_predict_interval(m, SP_TIME, &obs, a[0], a[1], a[2], NULL), SP_OK);
  ck_assert_int_eq(sp_model_predict_interval(back, SP_TIME, &obs, b[0], b[1], b[2], NULL), SP_OK);
  double w_short = 0, w_long = 0;
  for (size_t i = 0; i < sp_model_config_count(m, SP_TIME); i++) {
    sp_config cfg = sp_model_config_at(m, SP_TIME, i);
    ck_assert_double_eq_tol(a[0][i], b[0][i], 1e-12 * a[0][i]);
    if (sp_config_equal(&cfg, &base_cfg)) continue;
    ck_assert_msg(b[2][i] / b[1][i] > a[2][i] / a[1][i] * 1.001, "point %zu: %g..%g, was %g..%g", i,
                  b[1][i], b[2][i], a[1][i], a[2][i]);
  }
  /* The same kernel ten times longer: the jitter's share shrinks. */
  obs.base_time_ms *= 10;
  ck_assert_int_eq(sp_model_predict_interval(back, SP_TIME, &obs, c[0], c[1], c[2], NULL), SP_OK);
  for (size_t i = 0; i < sp_model_config_count(m, SP_TIME); i++) {
    w_short += log(b[2][i] / b[1][i]);
    w_long += log(c[2][i] / c[1][i]);
  }
  ck_assert_msg(w_long < w_short, "widths %g (10x longer) against %g", w_long, w_short);
  /* A base of a nanosecond, far under the jitter: each of its shares is
   * at most 1, so the interval stays within a few factors of e. */
  sp_observation ns = obs;
  ns.base_time_ms = 1e-6;
  ck_assert_int_eq(sp_model_predict_interval(back, SP_TIME, &ns, d[0], d[1], d[2], NULL), SP_OK);
  for (size_t i = 0; i < sp_model_config_count(m, SP_TIME); i++)
    ck_assert_msg(d[1][i] > 0 && d[2][i] / d[1][i] < exp(6), "point %zu: %g..%g", i, d[1][i],
                  d[2][i]);
  ck_assert_int_eq(sp_model_save(back, dir2, &err), SP_OK);
  char *path2 = tu_path(dir2, "method-physet.txt");
  text = tu_read(path2, NULL);
  ck_assert_ptr_nonnull(strstr(text, "\nwidths time 1 1 0.02 0.040000000000000001 jitter 0.5\n"));
  free(text);
  ck_assert_int_eq(sp_model_load(dir2, &again, &err), SP_OK);
  ck_assert_int_eq(sp_model_predict_interval(again, SP_TIME, &obs, a[0], a[1], a[2], NULL), SP_OK);
  for (size_t i = 0; i < sp_model_config_count(m, SP_TIME); i++)
    for (int r = 0; r < 3; r++) ck_assert_double_eq(a[r][i], c[r][i]);
  static const char *const bad[][2] = {
      {"widths time", "widths time 1 1 0.02 0.04 jitter 0"},
      {"widths time", "widths time 1 1 0.02 0.04 jitter 2"},
      {"widths time", "widths time 1 1 0.02 0.04 jitter 0.5 more"},
      {"widths time", "widths time 1 1 0.02 0.04 jiter 0.5"},
      {"widths power", "widths power 1 1 0.02 0.04 jitter 0.5"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    set_line(dir, bad[k][0], bad[k][1]);
    sp_model *none = NULL;
    ck_assert_int_ne(sp_model_load(dir, &none, &err), SP_OK);
    ck_assert_ptr_null(none);
    ck_assert_ptr_nonnull(strstr(err.file, "method-physet.txt"));
    ck_assert_int_gt(err.line, 0);
    ck_assert_msg(strstr(err.message, bad[k][0]), "%s: %s", bad[k][1], err.message);
    set_line(dir, bad[k][0],
             k < 4 ? "widths time 1 1 0.02 0.040000000000000001"
                   : "widths power 1 1 0.02 0.040000000000000001");
  }
  free(path2);
  free(path);
  free(dir2);
  free(dir);
  sp_model_free(again);
  sp_model_free(back);
  sp_model_free(m);
  sp_dataset_free(ds);
}
END_TEST

/* The nsight vocabulary's last features: the busiest pipe's busy share,
 * then the log of the base time per wave of blocks; a plan without the
 * wave feature (version 5 files) keeps the pipe share last. */
START_TEST(test_wave_feature) {
  static const char *const names[] = {"mem_time_pct",     "read_bw_gbs",      "write_bw_gbs",
                                      "l2_busy_pct",      "l2_hit_pct",       "ipc",
                                      "occupancy_pct",    "valu_busy_pct",    "fma_busy_pct",
                                      "fp64_busy_pct",    "xu_busy_pct",      "mem_unit_busy_pct",
                                      "atomic_insts_pct", "mem_unit_stalled", "lds_insts_pct",
                                      "valu_insts_pct",   "work_groups",      "grid_blocks",
                                      "blocks_per_sm",    "sm_active_pct"};
  const size_t n = sizeof names / sizeof names[0];
  double c[sizeof names / sizeof names[0]], f[SP_FEATURES_MAX + 2];
  for (size_t i = 0; i < n; i++) c[i] = 10;
  c[16] = c[17] = 1000; /* blocks */
  c[18] = 2;            /* per SM: 1000 / (132 * 2) -> 4 waves */
  c[8] = 80;            /* fma busy % */
  c[19] = 50;           /* SMs active % */
  sp_featplan plan;
  sp__features_plan(names, n, 132, &plan);
  ck_assert_str_eq(plan.vocabulary, "nsight");
  ck_assert(plan.wave_feature && plan.pipe_feature);
  sp__features_compute(&plan, c, 8.0, f);
  ck_assert_double_eq_tol(f[plan.nfeat - 1], log(8.0 / 4), 1e-12);
  ck_assert_double_eq_tol(f[plan.nfeat - 2], 0.8 * 0.5, 1e-12);
  ck_assert_double_eq_tol(sp__features_wave_time(&plan, c, 8.0), 2.0, 1e-12);
  /* Without the occupancy the grid runs in one wave, as far as it knows. */
  c[18] = NAN;
  ck_assert_double_eq_tol(sp__features_wave_time(&plan, c, 8.0), 8.0, 1e-12);
  size_t nf = plan.nfeat;
  sp__features_without_wave(&plan);
  ck_assert_uint_eq(plan.nfeat, nf - 1);
  c[18] = 2;
  sp__features_compute(&plan, c, 8.0, f);
  ck_assert_double_eq_tol(f[plan.nfeat - 1], 0.8 * 0.5, 1e-12);
  sp__features_without_wave(&plan); /* twice: no change */
  ck_assert_uint_eq(plan.nfeat, nf - 1);
}
END_TEST

static Suite *physet_suite(void) {
  Suite *s = suite_create("physet");
  TCase *tc = tcase_create("novelty");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_novelty_basics);
  tcase_add_test(tc, test_novelty_twins);
  tcase_add_test(tc, test_novelty_file);
  tcase_add_test(tc, test_forest_shared_child);
  tcase_add_test(tc, test_intervals);
  tcase_add_test(tc, test_intervals_saved);
  tcase_add_test(tc, test_wave_feature);
  tcase_add_test(tc, test_widths_file);
  tcase_add_test(tc, test_jitter_file);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(physet_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
