/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_campaign.c: unit tests for adaptive measurement plans: the
 * surrogate on an analytic surface, batches, stopping rules, the public
 * plan, completion and its replay on a recorded dataset. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/gp.h"
#include "campaign/lowrank.h"
#include "campaign/replay.h"
#include "campaign/round.h"
#include "campaign/shared.h"
#include "scalepredict.h"
#include "testutil.h"

/* The paper's grid: 8 CU counts x 8 engine clocks x 7 memory clocks. */
static const int cus[] = {4, 8, 12, 16, 20, 24, 28, 32};
static const int engines[] = {300, 400, 500, 600, 700, 800, 900, 1000};
static const int memories[] = {475, 625, 775, 925, 1075, 1225, 1375};

/* An analytic kernel: work split between the CUs, the engine clock and
 * the memory clock, t = a/cu + b/e + c/m (ms), and a power that grows with
 * every axis.  Odd constants, so that no axis dominates. */
static double true_time(const sp_config *c) {
  return 23.85 / c->cu + 1712.0 / c->engine_mhz + 903.7 / c->memory_mhz;
}
static double true_power(const sp_config *c) {
  return 41.3 + 0.87 * c->cu + 0.0413 * c->engine_mhz + 0.0117 * c->memory_mhz;
}

static void paper_grid(sp_cgrid *g) {
  const int *axis[3] = {cus, engines, memories};
  const size_t n[3] = {8, 8, 7};
  sp_error err;
  ck_assert_int_eq(sp__cgrid_init(g, axis, n, &err), SP_OK);
  ck_assert_uint_eq(g->n, 448);
  ck_assert_uint_eq(g->dim, 3);
}

static void measure(sp_ckernel *k, const sp_cgrid *g, size_t j) {
  const sp_config c = sp__cgrid_config(g, j);
  sp__ckernel_set(k, j, true_time(&c), true_power(&c));
}

/* Mean absolute relative error of the completed time over the grid
 * configurations not measured, in percent. */
static double completion_error(const sp_ckernel *k, const sp_cgrid *g) {
  double s = 0.0;
  size_t n = 0;
  for (size_t j = 0; j < g->n; j++) {
    if (k->measured[j]) continue;
    const sp_config c = sp__cgrid_config(g, j);
    s += fabs(k->fill[SP_TIME][j] / true_time(&c) - 1.0);
    n++;
  }
  return n ? 100.0 * s / (double)n : 0.0;
}

/* Runs rounds, measuring what each names, until the kernel is done. */
static void run_until_done(sp_ckernel *k, const sp_cgrid *g, const sp_round_params *rp) {
  for (int round = 0; round < 1000; round++) {
    ck_assert_int_eq(sp__campaign_round(k, g, rp), SP_OK);
    if (k->state != SP_PLAN_MEASURING) return;
    for (size_t i = 0; i < k->nnext; i++) measure(k, g, k->next[i]);
  }
  ck_abort_msg("the plan never finished");
}

START_TEST(test_error_falls_with_points) {
  sp_cgrid g;
  sp_ckernel k;
  paper_grid(&g);
  ck_assert_int_eq(sp__ckernel_alloc(&k, g.n), SP_OK);
  const size_t budgets[] = {6, 16, 40, 96};
  double errors[4];
  for (size_t b = 0; b < 4; b++) {
    sp_round_params rp = {sp__cgrid_middle(&g), 4, budgets[b], 0.0};
    sp__ckernel_reset(&k);
    run_until_done(&k, &g, &rp);
    ck_assert_int_eq(k.state, SP_PLAN_BUDGET);
    ck_assert_uint_eq(k.n, budgets[b]);
    errors[b] = completion_error(&k, &g);
  }
  for (size_t b = 1; b < 4; b++) ck_assert_double_lt(errors[b], errors[b - 1]);
  /* A fifth of the grid completes the rest to within half a percent. */
  ck_assert_double_lt(errors[3], 0.5);
  sp__ckernel_free(&k);
  sp__cgrid_free(&g);
}
END_TEST

/* Every batch names configurations not measured yet, each once. */
START_TEST(test_batch_never_repeats) {
  sp_cgrid g;
  sp_ckernel k;
  paper_grid(&g);
  ck_assert_int_eq(sp__ckernel_alloc(&k, g.n), SP_OK);
  const sp_round_params rp = {sp__cgrid_middle(&g), 7, 75, 0.0};
  size_t rounds = 0;
  for (;;) {
    ck_assert_int_eq(sp__campaign_round(&k, &g, &rp), SP_OK);
    if (k.state != SP_PLAN_MEASURING) break;
    ck_assert_uint_ge(k.nnext, 1);
    ck_assert_uint_le(k.nnext, rp.batch);
    for (size_t i = 0; i < k.nnext; i++) {
      ck_assert_uint_lt(k.next[i], g.n);
      ck_assert_int_eq(k.measured[k.next[i]], 0);
      for (size_t j = 0; j < i; j++) ck_assert_uint_ne(k.next[i], k.next[j]);
    }
    for (size_t i = 0; i < k.nnext; i++) measure(&k, &g, k.next[i]);
    rounds++;
  }
  /* The base alone, then full batches, then the rest of the budget. */
  ck_assert_uint_eq(rounds, 1 + (75 - 1 + 6) / 7);
  ck_assert_uint_eq(k.n, 75);
  sp__ckernel_free(&k);
  sp__cgrid_free(&g);
}
END_TEST

/* Nothing measured, or the base missing: the base alone comes next. */
START_TEST(test_base_first) {
  sp_cgrid g;
  sp_ckernel k;
  paper_grid(&g);
  ck_assert_int_eq(sp__ckernel_alloc(&k, g.n), SP_OK);
  const sp_round_params rp = {17, 4, 0, 0.0};
  ck_assert_int_eq(sp__campaign_round(&k, &g, &rp), SP_OK);
  ck_assert_int_eq(k.state, SP_PLAN_MEASURING);
  ck_assert_uint_eq(k.nnext, 1);
  ck_assert_uint_eq(k.next[0], 17);
  ck_assert(isnan(k.error[SP_TIME]));
  measure(&k, &g, 300);
  measure(&k, &g, 2);
  ck_assert_int_eq(sp__campaign_round(&k, &g, &rp), SP_OK);
  ck_assert_uint_eq(k.nnext, 1);
  ck_assert_uint_eq(k.next[0], 17);
  ck_assert(isfinite(k.error[SP_TIME]));
  /* Measured values are kept as measured in the completion. */
  const sp_config c = sp__cgrid_config(&g, 300);
  ck_assert_double_eq(k.fill[SP_TIME][300], true_time(&c));
  ck_assert_double_eq(k.fill[SP_POWER][300], true_power(&c));
  sp__ckernel_free(&k);
  sp__cgrid_free(&g);
}
END_TEST

/* A target error stops the campaign before the grid is measured, with the
 * estimate within it, and the completion honours it. */
START_TEST(test_stop_at_target) {
  sp_cgrid g;
  sp_ckernel k;
  paper_grid(&g);
  ck_assert_int_eq(sp__ckernel_alloc(&k, g.n), SP_OK);
  const sp_round_params rp = {sp__cgrid_middle(&g), 4, 0, 0.75};
  run_until_done(&k, &g, &rp);
  ck_assert_int_eq(k.state, SP_PLAN_TARGET);
  ck_assert_double_le(k.error[SP_TIME], 0.75);
  ck_assert_double_le(k.error[SP_POWER], 0.75);
  ck_assert_uint_lt(k.n, g.n / 4);
  ck_assert_double_lt(completion_error(&k, &g), 0.75);
  sp__ckernel_free(&k);
  sp__cgrid_free(&g);
}
END_TEST

/* Without a budget or target, a campaign measures the whole grid. */
START_TEST(test_stop_at_grid) {
  static const int c1[] = {32}, e3[] = {1000, 500, 750}, m2[] = {1375, 475};
  const int *axis[3] = {c1, e3, m2};
  const size_t n[3] = {1, 3, 2};
  sp_cgrid g;
  sp_ckernel k;
  sp_error err;
  ck_assert_int_eq(sp__cgrid_init(&g, axis, n, &err), SP_OK);
  ck_assert_uint_eq(g.dim, 2);
  ck_assert_int_eq(g.axis[1][0], 500); /* sorted */
  ck_assert_int_eq(sp__ckernel_alloc(&k, g.n), SP_OK);
  const sp_round_params rp = {sp__cgrid_middle(&g), 4, 0, 0.0};
  run_until_done(&k, &g, &rp);
  ck_assert_int_eq(k.state, SP_PLAN_GRID);
  ck_assert_uint_eq(k.n, 6);
  ck_assert_uint_eq(k.nnext, 0);
  ck_assert_double_eq(k.error[SP_TIME], 0.0);
  sp__ckernel_free(&k);
  sp__cgrid_free(&g);
}
END_TEST

START_TEST(test_grid_errors) {
  static const int ok[] = {4, 8}, dup[] = {8, 4, 8}, neg[] = {500, -1};
  sp_cgrid g;
  sp_error err;
  const int *a1[3] = {dup, ok, ok};
  const size_t n1[3] = {3, 2, 2};
  ck_assert_int_eq(sp__cgrid_init(&g, a1, n1, &err), SP_EINVAL);
  ck_assert_str_eq(err.field, "cu");
  ck_assert_ptr_nonnull(strstr(err.message, "8 is listed twice"));
  const int *a2[3] = {ok, neg, ok};
  const size_t n2[3] = {2, 2, 2};
  ck_assert_int_eq(sp__cgrid_init(&g, a2, n2, &err), SP_EINVAL);
  ck_assert_str_eq(err.field, "engine_mhz");
  const int *a3[3] = {ok, ok, ok};
  const size_t n3[3] = {2, 2, 0};
  ck_assert_int_eq(sp__cgrid_init(&g, a3, n3, &err), SP_EINVAL);
  ck_assert_str_eq(err.field, "memory_mhz");
}
END_TEST

/* Where measured, the posterior mean of noise-free data is the data; away
 * from it the variance is larger than at it. */
START_TEST(test_gp_interpolates) {
  sp_cgrid g;
  paper_grid(&g);
  size_t idx[40];
  double y[40];
  for (size_t i = 0; i < 40; i++) {
    idx[i] = (i * 211 + 5) % g.n;
    const sp_config c = sp__cgrid_config(&g, idx[i]);
    y[i] = log(true_time(&c));
  }
  sp_gp *gp;
  ck_assert_int_eq(sp__gp_fit(&g.pts, idx, y, 40, &gp), SP_OK);
  double far = 0.0, near = 0.0;
  for (size_t i = 0; i < 40; i++) {
    ck_assert_double_eq_tol(sp__gp_mean(gp, idx[i]), y[i], 1e-3);
    near += sp__gp_var(gp, idx[i]);
  }
  for (size_t j = 0; j < g.n; j++) far += sp__gp_var(gp, j);
  ck_assert_double_gt(far / (double)g.n, near / 40.0);
  sp__gp_free(gp);
  ck_assert_int_eq(sp__gp_fit(&g.pts, idx, y, 0, &gp), SP_EINVAL);
  ck_assert_ptr_null(gp);
  sp__gp_free(NULL);
  sp__cgrid_free(&g);
}
END_TEST

/* ---- the public plan, completion and the source column ---------------------------- */

/* Writes the analytic kernels "k0".."k(n-1)" (kernel i's time scaled by
 * 1 + i) at the grid configurations j with keep(i, j). */
static char *write_runs(const char *dir, const sp_cgrid *g, size_t nk,
                        int (*keep)(size_t, size_t)) {
  char *path = tu_path(dir, "runs.csv");
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fputs("kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n", fp);
  for (size_t i = 0; i < nk; i++)
    for (size_t j = 0; j < g->n; j++) {
      if (!keep(i, j)) continue;
      const sp_config c = sp__cgrid_config(g, j);
      fprintf(fp, "k%zu,%d,%d,%d,%.9g,%.9g\n", i, c.cu, c.engine_mhz, c.memory_mhz,
              (1.0 + (double)i) * true_time(&c), true_power(&c));
    }
  ck_assert_int_eq(fclose(fp), 0);
  return path;
}

static int keep_all(size_t i, size_t j) {
  (void)i, (void)j;
  return 1;
}
/* A sparse pattern: every 23rd configuration, and the middle (211). */
static int keep_some(size_t i, size_t j) { return j == 211 || (j + i) % 23 == 0; }

static sp_dataset *load(const char *path) {
  sp_dataset *ds;
  sp_error err;
  ck_assert_int_eq(sp_dataset_load(path, NULL, &ds, &err), SP_OK);
  return ds;
}

START_TEST(test_plan_from_nothing) {
  static const char *const names[] = {"alpha", "beta", NULL};
  sp_plan_params p;
  sp_plan_params_init(&p);
  ck_assert_uint_eq(p.batch, 4);
  const int *axis[3] = {cus, engines, memories};
  for (int a = 0; a < 3; a++) p.axis[a] = axis[a];
  p.naxis[0] = 8, p.naxis[1] = 8, p.naxis[2] = 7;
  p.kernels = names;
  p.base = (sp_config){32, 1000, 1375};
  sp_plan *pl;
  sp_error err;
  ck_assert_int_eq(sp_plan_make(NULL, &p, &pl, &err), SP_OK);
  ck_assert_uint_eq(sp_plan_grid_size(pl), 448);
  ck_assert_uint_eq(sp_plan_kernel_count(pl), 2);
  ck_assert_uint_eq(sp_plan_next_count(pl), 2);
  for (size_t k = 0; k < 2; k++) {
    const sp_plan_kernel *e = sp_plan_kernel_at(pl, k);
    ck_assert_str_eq(e->name, names[k]);
    ck_assert_uint_eq(e->nnext, 1);
    ck_assert(sp_config_equal(&e->next[0], &p.base));
    ck_assert_str_eq(sp_plan_state_name(e->state), "measuring");
  }
  ck_assert_ptr_null(sp_plan_kernel_at(pl, 2));
  ck_assert_ptr_null(sp_plan_state_name(SP_PLAN_GRID + 1));
  /* Nothing to complete from. */
  FILE *null = fopen("/dev/null", "w");
  ck_assert_int_eq(sp_plan_write_completed(pl, null, &err), SP_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(err.message, "'alpha'"));
  fclose(null);
  sp_plan_free(pl);
  sp_plan_free(NULL);
}
END_TEST

START_TEST(test_plan_errors) {
  static const char *const twice[] = {"a", "b", "a", NULL};
  sp_plan_params p;
  sp_plan *pl;
  sp_error err;
  sp_plan_params_init(&p);
  ck_assert_int_eq(sp_plan_make(NULL, &p, &pl, &err), SP_EINVAL);
  ck_assert_str_eq(err.field, "kernels");
  p.kernels = twice;
  ck_assert_int_eq(sp_plan_make(NULL, &p, &pl, &err), SP_EINVAL);
  ck_assert_str_eq(err.field, "cu");
  const int *axis[3] = {cus, engines, memories};
  for (int a = 0; a < 3; a++) p.axis[a] = axis[a], p.naxis[a] = 2;
  ck_assert_int_eq(sp_plan_make(NULL, &p, &pl, &err), SP_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "'a' is listed twice"));
  p.kernels = twice + 1;
  p.base = (sp_config){4, 300, 777};
  ck_assert_int_eq(sp_plan_make(NULL, &p, &pl, &err), SP_EGRID);
  ck_assert_ptr_nonnull(strstr(err.message, "4cu/300/777"));
  p.base.memory_mhz = 475;
  p.batch = 0;
  ck_assert_int_eq(sp_plan_make(NULL, &p, &pl, &err), SP_EINVAL);
  ck_assert_str_eq(err.field, "batch");
  p.batch = 2;
  p.target_error = -2.385;
  ck_assert_int_eq(sp_plan_make(NULL, &p, &pl, &err), SP_EINVAL);
  ck_assert_str_eq(err.field, "target_error");
  ck_assert_ptr_null(pl);
}
END_TEST

/* A partial file is completed over the whole grid: measured rows exactly
 * as they were, the rest marked completed; read back, the completed rows
 * are data but not measurements, and a plan counts the same as before. */
START_TEST(test_completed_file) {
  char *dir = tu_mkdtemp();
  sp_cgrid g;
  paper_grid(&g);
  char *runs = write_runs(dir, &g, 3, keep_some);
  sp_dataset *partial = load(runs);
  sp_plan_params p;
  sp_plan_params_init(&p);
  p.budget = 40;
  sp_plan *pl;
  sp_error err;
  ck_assert_int_eq(sp_plan_make(partial, &p, &pl, &err), SP_OK);
  char *out = tu_path(dir, "completed.csv");
  ck_assert_int_eq(sp_plan_save_completed(pl, out, &err), SP_OK);
  sp_dataset *full = load(out);
  ck_assert_uint_eq(sp_dataset_kernel_count(full), 3);
  size_t measured = 0, rows = 0;
  for (size_t k = 0; k < 3; k++)
    for (size_t j = 0; j < g.n; j++) {
      const sp_config c = sp__cgrid_config(&g, j);
      double t, t0;
      ck_assert_int_eq(sp_dataset_time(full, k, &c, &t), SP_OK);
      rows++;
      const int was =
          sp_dataset_time(partial,
                          sp_dataset_kernel_index(partial, sp_dataset_kernel_name(full, k)), &c,
                          &t0) == SP_OK;
      ck_assert_int_eq(sp_dataset_measured(full, k, &c), was);
      if (was) {
        ck_assert_double_eq(t, t0);
        measured++;
      } else
        ck_assert_double_lt(fabs(t / ((1.0 + (double)k) * true_time(&c)) - 1.0), 0.25);
    }
  ck_assert_uint_eq(rows, 3 * 448);
  for (size_t k = 0; k < 3; k++) measured -= sp_plan_kernel_at(pl, k)->measured;
  ck_assert_uint_eq(measured, 0);
  /* Planned from the completed file: the same measurements, the same plan. */
  sp_plan *again;
  ck_assert_int_eq(sp_plan_make(full, &p, &again, &err), SP_OK);
  for (size_t k = 0; k < 3; k++) {
    ck_assert_uint_eq(sp_plan_kernel_at(again, k)->measured, sp_plan_kernel_at(pl, k)->measured);
    ck_assert_uint_eq(sp_plan_kernel_at(again, k)->nnext, sp_plan_kernel_at(pl, k)->nnext);
  }
  /* A completion may replace a completion, never the user's runs. */
  ck_assert_int_eq(sp_plan_save_completed(pl, out, &err), SP_OK);
  ck_assert_int_eq(sp_plan_save_completed(pl, runs, &err), SP_EEXIST);
  sp_plan_free(again);
  sp_plan_free(pl);
  sp_dataset_free(full);
  sp_dataset_free(partial);
  free(out);
  free(runs);
  sp__cgrid_free(&g);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

START_TEST(test_source_column) {
  char *dir = tu_mkdtemp();
  char *ok = tu_write(dir, "ok.csv",
                      "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w,source,note\n"
                      "a,8,500,475,2.385,60,measured,x\n"
                      "a,16,500,475,1.5,70,completed,y\n"
                      "a,16,1000,475,1.25,80,,z\n");
  sp_dataset *ds = load(ok);
  const sp_config c1 = {8, 500, 475}, c2 = {16, 500, 475}, c3 = {16, 1000, 475},
                  c4 = {8, 1000, 475};
  ck_assert_int_eq(sp_dataset_measured(ds, 0, &c1), 1);
  ck_assert_int_eq(sp_dataset_measured(ds, 0, &c2), 0);
  ck_assert_int_eq(sp_dataset_measured(ds, 0, &c3), 1);
  ck_assert_int_eq(sp_dataset_measured(ds, 0, &c4), 0);
  sp_dataset_free(ds);
  char *bad = tu_write(dir, "bad.csv",
                       "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w,source\n"
                       "a,8,500,475,2.385,60,measured\n"
                       "a,16,500,475,1.5,70,guessed\n");
  sp_error err;
  ck_assert_int_eq(sp_dataset_load(bad, NULL, &ds, &err), SP_EPARSE);
  ck_assert_int_eq(err.line, 3);
  ck_assert_int_eq(err.column, 7);
  ck_assert_str_eq(err.field, "source");
  ck_assert_ptr_nonnull(strstr(err.message, "'guessed'"));
  free(ok);
  free(bad);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* ---- replay ------------------------------------------------------------------------ */

static void check_replay(const sp_dataset *rec, const sp_dataset *out, const sp_cgrid *g,
                         size_t points, const sp_config *base) {
  for (size_t k = 0; k < sp_dataset_kernel_count(rec); k++) {
    size_t measured = 0;
    ck_assert_int_eq(sp_dataset_measured(out, k, base), 1);
    for (size_t j = 0; j < g->n; j++) {
      const sp_config c = sp__cgrid_config(g, j);
      double t0, t;
      ck_assert_int_eq(sp_dataset_time(rec, k, &c, &t0), SP_OK);
      ck_assert_int_eq(sp_dataset_time(out, k, &c, &t), SP_OK);
      if (sp_dataset_measured(out, k, &c)) {
        ck_assert_double_eq(t, t0);
        measured++;
      } else
        ck_assert_double_lt(fabs(t / t0 - 1.0), 0.3);
    }
    ck_assert_uint_eq(measured, points);
  }
}

START_TEST(test_replay) {
  char *dir = tu_mkdtemp();
  sp_cgrid g;
  paper_grid(&g);
  char *runs = write_runs(dir, &g, 3, keep_all);
  sp_dataset *rec = load(runs);
  const sp_config base = {16, 600, 925};
  sp_replay_params rp = {SP_TRAIN_PLAN_ADAPTIVE, 30, 0.0, 4, base, 2385, 2, SP_SURROGATE_GP, NULL};
  sp_replay_stats stats[2];
  sp_dataset *out[2];
  sp_error err;
  ck_assert_int_eq(sp__replay_complete(rec, &rp, &out[0], &stats[0], &err), SP_OK);
  rp.mode = SP_TRAIN_PLAN_RANDOM;
  ck_assert_int_eq(sp__replay_complete(rec, &rp, &out[1], &stats[1], &err), SP_OK);
  for (int i = 0; i < 2; i++) {
    check_replay(rec, out[i], &g, 30, &base);
    ck_assert_double_eq(stats[i].points, 30.0);
    ck_assert(isfinite(stats[i].mape[SP_TIME]) && isfinite(stats[i].estimated[SP_POWER]));
  }
  /* Chosen by the surrogate, 30 points complete the surface better than
   * 30 drawn at random. */
  ck_assert_double_lt(stats[0].mape[SP_TIME], stats[1].mape[SP_TIME]);
  ck_assert_double_lt(stats[0].mape[SP_TIME], 0.5);
  /* One thread or two: the same result. */
  sp_dataset *one;
  rp.mode = SP_TRAIN_PLAN_ADAPTIVE;
  rp.threads = 1;
  ck_assert_int_eq(sp__replay_complete(rec, &rp, &one, &stats[1], &err), SP_OK);
  for (size_t k = 0; k < 3; k++)
    for (size_t j = 0; j < g.n; j++) {
      const sp_config c = sp__cgrid_config(&g, j);
      double a, b;
      sp_dataset_time(one, k, &c, &a);
      sp_dataset_time(out[0], k, &c, &b);
      ck_assert_double_eq(a, b);
    }
  /* With a target the plans stop early, each within it. */
  sp_dataset *early;
  rp.target = 2.385;
  ck_assert_int_eq(sp__replay_complete(rec, &rp, &early, &stats[1], &err), SP_OK);
  ck_assert_double_lt(stats[1].points, 30.0);
  ck_assert_double_le(stats[1].estimated[SP_TIME], 2.385);
  ck_assert_double_le(stats[1].estimated[SP_POWER], 2.385);
  sp_dataset_free(early);
  rp.target = -1.0;
  ck_assert_int_eq(sp__replay_complete(rec, &rp, &early, &stats[1], &err), SP_EINVAL);
  ck_assert_ptr_null(early);
  ck_assert_str_eq(err.field, "train_target");
  rp.target = 0.0;
  /* Errors: a base off the grid, no points. */
  sp_dataset *none;
  rp.base.cu = 5;
  ck_assert_int_eq(sp__replay_complete(rec, &rp, &none, &stats[1], &err), SP_EGRID);
  ck_assert_ptr_null(none);
  rp.base = base;
  rp.points = 0;
  ck_assert_int_eq(sp__replay_complete(rec, &rp, &none, &stats[1], &err), SP_EINVAL);
  ck_assert_str_eq(err.field, "train_points");
  sp_dataset_free(one);
  sp_dataset_free(out[0]);
  sp_dataset_free(out[1]);
  sp_dataset_free(rec);
  free(runs);
  sp__cgrid_free(&g);
  tu_rmtree(dir);
  free(dir);
}
END_TEST

/* ---- the shared surrogate ------------------------------------------------ */

/* A family of rank-2 surfaces on a small grid: log t = a_k f(j) + b_k h(j)
 * + log t_base, f an engine-clock shape with a step between 500 and 700
 * MHz (a per-kernel surrogate cannot see it without measuring on both
 * sides), h a memory-clock and CU shape. */
static const int small_cus[] = {8, 16, 32};
static const int small_engines[] = {300, 500, 700, 1000};
static const int small_memories[] = {475, 925, 1375};
#define FAMILY 24

static void small_grid(sp_cgrid *g) {
  const int *axis[3] = {small_cus, small_engines, small_memories};
  const size_t n[3] = {3, 4, 3};
  sp_error err;
  ck_assert_int_eq(sp__cgrid_init(g, axis, n, &err), SP_OK);
}

static double family_time(size_t k, const sp_config *c) {
  const double a = 0.37 + 0.081 * (double)(k % 7), b = 0.93 - 0.113 * (double)(k % 5);
  const double f = log(1000.0 / c->engine_mhz) + (c->engine_mhz <= 500 ? 0.41 : 0.0);
  const double h = log(1375.0 / c->memory_mhz) + 0.2 * log(32.0 / c->cu);
  return 2.385 * (1.0 + 0.1 * (double)k) * exp(a * f + b * h);
}

static void family_measure(sp_ckernel *k, size_t kernel, const sp_cgrid *g, size_t j) {
  const sp_config c = sp__cgrid_config(g, j);
  sp__ckernel_set(k, j, family_time(kernel, &c), NAN);
}

static double family_error(const sp_ckernel *k, size_t kernel, const sp_cgrid *g) {
  double s = 0.0;
  size_t n = 0;
  for (size_t j = 0; j < g->n; j++) {
    if (k->measured[j]) continue;
    const sp_config c = sp__cgrid_config(g, j);
    s += fabs(k->fill[SP_TIME][j] / family_time(kernel, &c) - 1.0);
    n++;
  }
  return n ? 100.0 * s / (double)n : 0.0;
}

/* Every kernel measured at its base and 4 other configurations, different
 * from kernel to kernel. */
static void family_alloc(sp_ckernel *ks, sp_ckernel **ptr, const sp_cgrid *g, size_t base) {
  for (size_t k = 0; k < FAMILY; k++) {
    ck_assert_int_eq(sp__ckernel_alloc(&ks[k], g->n), SP_OK);
    ptr[k] = &ks[k];
    family_measure(&ks[k], k, g, base);
    for (size_t i = 0; i < 4; i++) family_measure(&ks[k], k, g, (k * 5 + i * 7 + 3) % g->n);
  }
}

static void family_free(sp_ckernel *ks) {
  for (size_t k = 0; k < FAMILY; k++) sp__ckernel_free(&ks[k]);
}

START_TEST(test_shared_beats_per_kernel) {
  sp_cgrid g;
  small_grid(&g);
  sp_ckernel ks[FAMILY], *ptr[FAMILY];
  const size_t base = sp__cgrid_middle(&g);
  family_alloc(ks, ptr, &g, base);
  size_t failed;
  double own = 0.0, shared = 0.0;
  for (size_t k = 0; k < FAMILY; k++) {
    const sp_round_params rp = {base, 4, ks[k].n, 0.0};
    ck_assert_int_eq(sp__campaign_round(&ks[k], &g, &rp), SP_OK);
    own += family_error(&ks[k], k, &g) / FAMILY;
  }
  const sp_round_params rp = {base, 4, 36, 0.0};
  ck_assert_int_eq(sp__campaign_shared_round(ptr, FAMILY, &g, &rp, 7, 2, &failed), SP_OK);
  for (size_t k = 0; k < FAMILY; k++) shared += family_error(&ks[k], k, &g) / FAMILY;
  ck_assert_msg(shared < 0.6 * own, "shared %.2f%% against per-kernel %.2f%%", shared, own);
  family_free(ks);
  sp__cgrid_free(&g);
}
END_TEST

/* The completion alone: a rank-2 matrix with a third of its entries seen
 * is completed at rank 2 or more, within 3% on average. */
START_TEST(test_lowrank_rank) {
  sp_cgrid g;
  small_grid(&g);
  const size_t G = g.n, base = sp__cgrid_middle(&g);
  double Y[FAMILY * 36], truth[FAMILY * 36];
  ck_assert_uint_eq(G, 36);
  for (size_t k = 0; k < FAMILY; k++)
    for (size_t j = 0; j < G; j++) {
      const sp_config c = sp__cgrid_config(&g, j), b = sp__cgrid_config(&g, base);
      truth[k * G + j] = log(family_time(k, &c) / family_time(k, &b));
      const unsigned long h = (k * 73856093ul) ^ (j * 19349663ul);
      Y[k * G + j] = j == base || h % 3 == 0 ? truth[k * G + j] : NAN;
    }
  sp_lowrank *lr;
  ck_assert_int_eq(sp__lowrank_fit(Y, FAMILY, G, base, &g.pts, 1, &lr), SP_OK);
  ck_assert_uint_ge(sp__lowrank_rank(lr), 2);
  double e = 0.0;
  for (size_t k = 0; k < FAMILY; k++)
    for (size_t j = 0; j < G; j++)
      e += fabs(sp__lowrank_mean(lr, k, j) - truth[k * G + j]) / (FAMILY * 36);
  ck_assert_msg(e < 0.03, "mean error %g", e);
  ck_assert(isfinite(sp__lowrank_cv_rmse(lr)));
  for (size_t j = 0; j < G; j++) ck_assert(sp__lowrank_err(lr, j) >= 0.0);
  sp__lowrank_free(lr);
  sp__cgrid_free(&g);
}
END_TEST

/* The configuration most kernels name first. */
static size_t common_pick(const sp_ckernel *ks, size_t G) {
  size_t best = 0, best_n = 0;
  for (size_t j = 0; j < G; j++) {
    size_t n = 0;
    for (size_t k = 0; k < FAMILY; k++) n += ks[k].nnext && ks[k].next[0] == j;
    if (n > best_n) best = j, best_n = n;
  }
  return best;
}

/* Rounds from nothing on: never a measured or repeated configuration, the
 * first pick of a batch common to every kernel that lacks it, and the same batches and
 * completions from the same seed whatever the threads. */
START_TEST(test_shared_batches) {
  sp_cgrid g;
  small_grid(&g);
  const size_t base = sp__cgrid_middle(&g);
  const sp_round_params rp = {base, 3, 14, 0.0};
  sp_ckernel a[FAMILY], b[FAMILY], *pa[FAMILY], *pb[FAMILY];
  for (size_t k = 0; k < FAMILY; k++) {
    ck_assert_int_eq(sp__ckernel_alloc(&a[k], g.n), SP_OK);
    ck_assert_int_eq(sp__ckernel_alloc(&b[k], g.n), SP_OK);
    pa[k] = &a[k];
    pb[k] = &b[k];
  }
  size_t failed, rounds = 0;
  for (int named = 1; named; rounds++) {
    ck_assert_uint_lt(rounds, 20);
    ck_assert_int_eq(sp__campaign_shared_round(pa, FAMILY, &g, &rp, 5, 1, &failed), SP_OK);
    ck_assert_int_eq(sp__campaign_shared_round(pb, FAMILY, &g, &rp, 5, 2, &failed), SP_OK);
    named = 0;
    const size_t common = common_pick(a, g.n);
    for (size_t k = 0; k < FAMILY; k++) {
      ck_assert_uint_eq(a[k].nnext, b[k].nnext);
      if (a[k].nnext && !a[k].measured[common]) ck_assert_uint_eq(a[k].next[0], common);
      for (size_t i = 0; i < a[k].nnext; i++) {
        ck_assert_uint_eq(a[k].next[i], b[k].next[i]);
        ck_assert_int_eq(a[k].measured[a[k].next[i]], 0);
        for (size_t t = 0; t < i; t++) ck_assert_uint_ne(a[k].next[i], a[k].next[t]);
      }
      for (size_t j = 0; j < g.n; j++)
        ck_assert(a[k].fill[SP_TIME][j] == b[k].fill[SP_TIME][j] ||
                  (isnan(a[k].fill[SP_TIME][j]) && isnan(b[k].fill[SP_TIME][j])));
      for (size_t i = 0; i < a[k].nnext; i++) {
        family_measure(&a[k], k, &g, a[k].next[i]);
        family_measure(&b[k], k, &g, b[k].next[i]);
      }
      named += (int)a[k].nnext;
    }
  }
  for (size_t k = 0; k < FAMILY; k++) {
    ck_assert_uint_eq(a[k].n, 14);
    ck_assert_int_eq(a[k].state, SP_PLAN_BUDGET);
  }
  family_free(a);
  family_free(b);
  sp__cgrid_free(&g);
}
END_TEST

Suite *campaign_suite(void);
Suite *campaign_suite(void) {
  Suite *s = suite_create("campaign");
  TCase *tc = tcase_create("surrogate");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_error_falls_with_points);
  tcase_add_test(tc, test_batch_never_repeats);
  tcase_add_test(tc, test_base_first);
  tcase_add_test(tc, test_stop_at_target);
  tcase_add_test(tc, test_stop_at_grid);
  tcase_add_test(tc, test_grid_errors);
  tcase_add_test(tc, test_gp_interpolates);
  suite_add_tcase(s, tc);
  tc = tcase_create("plan");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_plan_from_nothing);
  tcase_add_test(tc, test_plan_errors);
  tcase_add_test(tc, test_completed_file);
  tcase_add_test(tc, test_source_column);
  tcase_add_test(tc, test_replay);
  tcase_add_test(tc, test_shared_beats_per_kernel);
  tcase_add_test(tc, test_lowrank_rank);
  tcase_add_test(tc, test_shared_batches);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(campaign_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
