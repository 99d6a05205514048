/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_memaxis.c: the memory axis of a model (issue 28): its memory
 * systems and further bases in the saved model (manifest format 3) and
 * loaded back, a model of two bases predicting each base's own training
 * kernel from that base exactly at every configuration, the other memory
 * system's points included, physet's memory step by peak bandwidth
 * (method file version 9) and its memory step forest (version 10, a
 * version 9 file predicting without it; version 11's curve forest, read
 * with a further measurement at the base's memory system), a memory system the model has not
 * measured (sp_model_memory_interpolate), and a model without either written as before (format 2,
 * physet 8). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/physet.h"
#include "model/physet_state.h"
#include "model/physet_step.h"
#include "scalepredict.h"
#include "testutil.h"
#include "util/sha256.h"

static char *scratch;

static void setup(void) { scratch = tu_mkdtemp(); }
static void teardown(void) {
  tu_rmtree(scratch);
  free(scratch);
}

/* The fixture's grid: 16 and 32 CUs, 500 and 1000 MHz, memory 475 and
 * 1375 MHz, counters at 32cu/1000/1375 and 16cu/500/475. */
static const sp_config base0 = {32, 1000, 1375}, base1 = {16, 500, 475};

/* physet, with the memory systems and (two_bases) the further base. */
static sp_model *train(sp_dataset **ds, const sp_memory_set *ms, int two_bases) {
  *ds = tu_load_fixture("train");
  sp_error err;
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = base0;
  tp.clusters = 3;
  tp.memory = ms;
  tp.extra_bases = &base1;
  tp.nextra_bases = two_bases ? 1 : 0;
  sp_model *m = NULL;
  int st = sp_model_train(*ds, &tp, NULL, NULL, &m, &err);
  ck_assert_msg(st == SP_OK, "train: %s", err.message);
  return m;
}

/* The memory systems and bases are the model's, and survive a save and a
 * load with every prediction unchanged. */
START_TEST(test_round_trip) {
  sp_memory_set *ms = tu_two_memory_systems(scratch);
  sp_dataset *ds;
  sp_model *m = train(&ds, ms, 1), *back = NULL;
  sp_error err;
  char *dir = tu_path(scratch, "model");
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
  ck_assert_int_eq(sp_model_load(dir, &back, &err), SP_OK);
  for (const sp_model *x = m; x; x = x == m ? back : NULL) {
    ck_assert_uint_eq(sp_model_memory_count(x), 2);
    ck_assert_str_eq(sp_model_memory_at(x, 0)->name, "slow card");
    ck_assert_str_eq(sp_model_memory_at(x, 1)->type, "HBM2");
    ck_assert_int_eq(sp_model_memory_at(x, 1)->bus_bits, 512);
    ck_assert_double_eq(sp_model_memory_of(x, 1375)->peak_gbs, 243.2);
    ck_assert_ptr_null(sp_model_memory_of(x, 925));
    ck_assert_uint_eq(sp_model_base_count(x), 2);
    sp_config b = sp_model_base_at(x, 1);
    ck_assert(sp_config_equal(&b, &base1));
    ck_assert_uint_eq(sp_model_base_kernels(x, 0), 9);
    ck_assert_uint_eq(sp_model_base_kernels(x, 1), 9);
    ck_assert(sp_model_method_at(x, "physet", &base1));
    ck_assert(!sp_model_method_at(x, "wu2015", &base1));
    ck_assert(sp_model_method_at(x, "wu2015", &base0));
  }
  char *mpath = tu_path(dir, "manifest.txt"), *man = tu_read(mpath, NULL);
  free(mpath);
  ck_assert_ptr_nonnull(strstr(man, "scalepredict-model 3\n"));
  ck_assert_ptr_nonnull(
      strstr(man, "\nmemory_system 475 slow%20card GDDR5 256 60.799999999999997 4\n"));
  ck_assert_ptr_nonnull(strstr(man, "\nbase_config 16cu/500/475 kernels 9\n"));
  ck_assert_ptr_nonnull(
      strstr(man, "\nat 16cu/500/475 file method-physet@16cu-500-475.txt sha256 "));
  free(man);
  char *further = tu_path(dir, "method-physet@16cu-500-475.txt");
  ck_assert(tu_exists(further));
  free(further);
  double ctr[16], a[3][64], b[3][64];
  for (int at = 0; at < 2; at++) {
    sp_observation obs;
    ck_assert_int_eq(sp_model_observe_at(m, ds, 4, at ? &base1 : NULL, ctr, &obs, &err), SP_OK);
    for (int q = 0; q < 2; q++) {
      ck_assert_int_eq(sp_model_predict_interval(m, (sp_quantity)q, &obs, a[0], a[1], a[2], NULL),
                       SP_OK);
      ck_assert_int_eq(
          sp_model_predict_interval(back, (sp_quantity)q, &obs, b[0], b[1], b[2], NULL), SP_OK);
      for (size_t i = 0; i < sp_model_config_count(m, (sp_quantity)q); i++)
        for (int r = 0; r < 3; r++) ck_assert_double_eq(a[r][i], b[r][i]);
    }
  }
  free(dir);
  sp_model_free(back);
  sp_model_free(m);
  sp_dataset_free(ds);
  sp_memory_free(ms);
}
END_TEST

/* From either base, a training kernel is predicted exactly (its own
 * residuals) at every configuration: its base value at its own base, and
 * the other memory system's points; from the further base with the
 * physet state fitted there. */
START_TEST(test_two_bases_exact) {
  sp_memory_set *ms = tu_two_memory_systems(scratch);
  sp_dataset *ds;
  sp_model *m = train(&ds, ms, 1);
  sp_error err;
  double ctr[16], out[64], lo[64], hi[64];
  for (size_t k = 0; k < sp_dataset_kernel_count(ds); k++)
    for (int at = 0; at < 2; at++) {
      const sp_config *b = at ? &base1 : &base0;
      sp_observation obs;
      ck_assert(sp_model_observable(m, ds, k, b));
      ck_assert_int_eq(sp_model_observe_at(m, ds, k, b, ctr, &obs, &err), SP_OK);
      ck_assert(sp_config_equal(&obs.base, b));
      for (int q = 0; q < 2; q++) {
        ck_assert_int_eq(sp_model_predict_interval(m, (sp_quantity)q, &obs, out, lo, hi, NULL),
                         SP_OK);
        for (size_t i = 0; i < sp_model_config_count(m, (sp_quantity)q); i++) {
          sp_config c = sp_model_config_at(m, (sp_quantity)q, i);
          double v;
          ck_assert_int_eq(q ? sp_dataset_power(ds, k, &c, &v) : sp_dataset_time(ds, k, &c, &v),
                           SP_OK);
          ck_assert_msg(fabs(out[i] / v - 1) < 1e-9,
                        "kernel %zu from base %d, q%d, point %zu: %g, "
                        "measured %g",
                        k, at, q, i, out[i], v);
          if (sp_config_equal(&c, b)) ck_assert(lo[i] == out[i] && hi[i] == out[i]);
        }
      }
    }
  sp_model_free(m);
  sp_dataset_free(ds);
  sp_memory_free(ms);
}
END_TEST

/* The observation's base: zero CU count is the model's base; another
 * configuration is SP_EGRID; wu2015, fitted at the first base only, does
 * not predict from the further one. */
START_TEST(test_base_errors) {
  sp_memory_set *ms = tu_two_memory_systems(scratch);
  sp_dataset *ds;
  sp_model *m = train(&ds, ms, 1);
  sp_error err;
  double ctr[16], a[64], b[64];
  sp_observation obs;
  ck_assert_int_eq(sp_model_observe(m, ds, 2, ctr, &obs, &err), SP_OK);
  ck_assert_int_eq(obs.base.cu, 0);
  ck_assert_int_eq(sp_model_predict_all(m, SP_TIME, &obs, a, NULL), SP_OK);
  obs.base = base0;
  ck_assert_int_eq(sp_model_predict_all(m, SP_TIME, &obs, b, NULL), SP_OK);
  for (size_t i = 0; i < sp_model_config_count(m, SP_TIME); i++) ck_assert_double_eq(a[i], b[i]);
  obs.base = (sp_config){16, 1000, 1375};
  ck_assert_int_eq(sp_model_predict_all(m, SP_TIME, &obs, a, NULL), SP_EGRID);
  ck_assert_int_eq(sp_model_observe_at(m, ds, 2, &base1, ctr, &obs, &err), SP_OK);
  ck_assert_int_eq(sp_model_use_method(m, "wu2015"), SP_OK);
  ck_assert_int_eq(sp_model_predict_all(m, SP_TIME, &obs, a, NULL), SP_ENOTFOUND);
  ck_assert_int_eq(sp_model_predict(m, SP_TIME, &obs, &base0, a, NULL), SP_ENOTFOUND);
  sp_model_free(m);
  sp_dataset_free(ds);
  /* A further base without counters for two training kernels. */
  ds = tu_load_fixture("train");
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = base0;
  tp.clusters = 3;
  const sp_config nocounters = {16, 1000, 1375};
  tp.extra_bases = &nocounters;
  tp.nextra_bases = 1;
  m = NULL;
  ck_assert_int_eq(sp_model_train(ds, &tp, NULL, NULL, &m, &err), SP_ENOTFOUND);
  ck_assert_ptr_null(m);
  ck_assert_ptr_nonnull(strstr(err.message, "further base 16cu/1000/1375"));
  const sp_config offgrid = {24, 1000, 1375};
  tp.extra_bases = &offgrid;
  ck_assert_int_eq(sp_model_train(ds, &tp, NULL, NULL, &m, &err), SP_EGRID);
  ck_assert_ptr_nonnull(strstr(err.message, "24cu/1000/1375 is not on the time grid"));
  sp_dataset_free(ds);
  sp_memory_free(ms);
}
END_TEST

/* physet's memory step: the peak bandwidth ratio with the memory systems
 * described (method file version 9, its 'bandwidth' line), the clock ratio
 * without (version 8, as before). */
START_TEST(test_bandwidth_prior) {
  sp_memory_set *ms = tu_two_memory_systems(scratch);
  sp_dataset *ds;
  sp_model *m = train(&ds, ms, 0);
  const sp_physet *p = sp__model_slot(m, "physet")->state;
  ck_assert_double_eq_tol(sp__physet_memory_ratio(p, 475), 243.2 / 60.8, 1e-12);
  ck_assert_double_eq_tol(sp__physet_memory_ratio(p, 1375), 1, 1e-12);
  sp_error err;
  char *dir = tu_path(scratch, "bw");
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
  char *path = tu_path(dir, "method-physet.txt"), *text = tu_read(path, NULL);
  ck_assert(!strncmp(text, "physet 11\n", 10));
  ck_assert_ptr_nonnull(
      strstr(text, "\nbandwidth 2 475 60.799999999999997 1375 243.19999999999999\n"));
  free(text);
  free(path);
  free(dir);
  sp_model_free(m);
  sp_dataset_free(ds);
  m = train(&ds, NULL, 0);
  p = sp__model_slot(m, "physet")->state;
  ck_assert_double_eq_tol(sp__physet_memory_ratio(p, 475), 1375.0 / 475, 1e-12);
  dir = tu_path(scratch, "clock");
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
  path = tu_path(dir, "method-physet.txt");
  text = tu_read(path, NULL);
  ck_assert(!strncmp(text, "physet 8\n", 9));
  ck_assert_ptr_null(strstr(text, "\nbandwidth "));
  ck_assert_ptr_null(strstr(text, "\nstep "));
  free(text);
  free(path);
  path = tu_path(dir, "manifest.txt");
  text = tu_read(path, NULL);
  ck_assert(!strncmp(text, "scalepredict-model 2\n", 21));
  ck_assert_ptr_null(strstr(text, "\nmemory "));
  ck_assert_ptr_null(strstr(text, "\nbases "));
  free(text);
  free(path);
  free(dir);
  sp_model_free(m);
  sp_dataset_free(ds);
  sp_memory_free(ms);
}
END_TEST

/* A memory system that was not measured: exact at a measured system's
 * bandwidth, log-linear in bandwidth between two, an interval that widens
 * with the distance from the nearest measured one. */
START_TEST(test_interpolate) {
  sp_memory_set *ms = tu_two_memory_systems(scratch);
  sp_dataset *ds;
  sp_model *m = train(&ds, ms, 0);
  sp_error err;
  double ctr[16], out[64], lo[64], hi[64];
  sp_observation obs;
  ck_assert_int_eq(sp_model_observe(m, ds, 3, ctr, &obs, &err), SP_OK);
  ck_assert_int_eq(sp_model_predict_interval(m, SP_TIME, &obs, out, lo, hi, NULL), SP_OK);
  const sp_config at475 = {16, 500, 475}, at1375 = {16, 500, 1375};
  size_t i0 = sp_model_config_index(m, SP_TIME, &at475),
         i1 = sp_model_config_index(m, SP_TIME, &at1375);
  sp_memory_system mem;
  double v, l, h;
  /* The fast card's bandwidth at another clock: its value exactly. */
  ck_assert_int_eq(sp_memory_parse("bus=512,peak=243.2", 1000, &mem, &err), SP_OK);
  sp_config t = {16, 500, 1000};
  ck_assert_int_eq(
      sp_model_memory_interpolate(m, SP_TIME, out, lo, hi, NULL, &t, &mem, &v, &l, &h, &err),
      SP_OK);
  ck_assert_double_eq(v, out[i1]);
  ck_assert_double_eq_tol(l, lo[i1], 1e-12 * lo[i1]);
  ck_assert_double_eq_tol(h, hi[i1], 1e-12 * hi[i1]);
  /* Half way in log bandwidth: the geometric mean, a wider interval. */
  mem.peak_gbs = sqrt(60.8 * 243.2);
  ck_assert_int_eq(
      sp_model_memory_interpolate(m, SP_TIME, out, lo, hi, NULL, &t, &mem, &v, &l, &h, &err),
      SP_OK);
  ck_assert_double_eq_tol(v, sqrt(out[i0] * out[i1]), 1e-12 * v);
  double d = log(2), hl = 0.5 * (log(out[i0] / lo[i0]) + log(out[i1] / lo[i1]));
  ck_assert_double_eq_tol(log(v / l), sqrt(hl * hl + d * d), 1e-9);
  ck_assert(h > v && l < v);
  /* Beyond the fast card (twice its bandwidth): the share of the fast
   * card's time that the step from the slow one (4x the bandwidth) leaves
   * untouched stays, the rest halves; the interval spans every share. */
  mem.peak_gbs = 486.4;
  ck_assert_int_eq(
      sp_model_memory_interpolate(m, SP_TIME, out, lo, hi, NULL, &t, &mem, &v, &l, &h, &err),
      SP_OK);
  double sh = (out[i0] / out[i1] - 4) / (1 - 4);
  sh = sh < 0 ? 0 : sh > 1 ? 1 : sh;
  ck_assert_double_eq_tol(v, out[i1] * (sh + (1 - sh) * 0.5), 1e-12 * v);
  ck_assert_double_eq_tol(l, 0.5 * lo[i1], 1e-12 * l);
  ck_assert_double_eq_tol(h, hi[i1], 1e-12 * h);
  /* A kernel 5x slower on the slow card (more than its bandwidth says):
   * all of its time follows the bandwidth, no faster than in proportion;
   * one 10% faster on the slow card (a board's step): none of it, no
   * further change.  Below the slow card alike, from the slow card. */
  double two[64];
  memcpy(two, out, sizeof two);
  two[i0] = 5 * two[i1];
  ck_assert_int_eq(
      sp_model_memory_interpolate(m, SP_TIME, two, lo, hi, NULL, &t, &mem, &v, NULL, NULL, &err),
      SP_OK);
  ck_assert_double_eq_tol(v, 0.5 * two[i1], 1e-12 * v);
  two[i0] = 0.9 * two[i1];
  ck_assert_int_eq(
      sp_model_memory_interpolate(m, SP_TIME, two, lo, hi, NULL, &t, &mem, &v, NULL, NULL, &err),
      SP_OK);
  ck_assert_double_eq_tol(v, two[i1], 1e-12 * v);
  mem.peak_gbs = 30.4;
  ck_assert_int_eq(
      sp_model_memory_interpolate(m, SP_TIME, two, lo, hi, NULL, &t, &mem, &v, NULL, NULL, &err),
      SP_OK);
  ck_assert_double_eq_tol(v, two[i0], 1e-12 * v);
  two[i0] = 4 * two[i1];
  ck_assert_int_eq(
      sp_model_memory_interpolate(m, SP_TIME, two, lo, hi, NULL, &t, &mem, &v, NULL, NULL, &err),
      SP_OK);
  ck_assert_double_eq_tol(v, 2 * two[i0], 1e-12 * v);
  /* Power beyond them, the model holding no floor (no floor kernel): the
   * nearest system's, with the time or without. */
  ck_assert(sp_model_has_power(m));
  ck_assert_int_eq(sp_model_predict_interval(m, SP_POWER, &obs, two, lo, hi, NULL), SP_OK);
  size_t p0 = sp_model_config_index(m, SP_POWER, &at475);
  ck_assert_int_eq(
      sp_model_memory_interpolate(m, SP_POWER, two, lo, hi, NULL, &t, &mem, &v, &l, &h, &err),
      SP_OK);
  ck_assert_double_eq_tol(v, two[p0], 1e-12 * v);
  ck_assert(l < v && h > v);
  double fw;
  ck_assert_int_eq(sp_model_floor_power(m, &at475, &fw), SP_ENOTFOUND);
  ck_assert_int_eq(
      sp_model_memory_interpolate(m, SP_POWER, two, lo, hi, out, &t, &mem, &v, NULL, NULL, &err),
      SP_OK);
  ck_assert_double_eq_tol(v, two[p0], 1e-12 * v);
  /* A CU count off the grid; a model without memory systems. */
  t.cu = 24;
  ck_assert_int_eq(
      sp_model_memory_interpolate(m, SP_TIME, out, lo, hi, NULL, &t, &mem, &v, &l, &h, &err),
      SP_EGRID);
  sp_model_free(m);
  sp_dataset_free(ds);
  m = train(&ds, NULL, 0);
  t.cu = 16;
  ck_assert_int_eq(
      sp_model_memory_interpolate(m, SP_TIME, out, lo, hi, NULL, &t, &mem, &v, &l, &h, &err),
      SP_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "describes no memory systems"));
  sp_model_free(m);
  sp_dataset_free(ds);
  sp_memory_free(ms);
}
END_TEST

/* Power beyond the measured memory systems when the model holds the
 * training board's floor F (a floor kernel): the dynamic energy stays and
 * the floor draws for the time, P = F + (P_n - F) T_n / T from the nearest
 * system n, its interval every share's, from P_n (time untouched) to P_n at
 * time in proportion to the bandwidth, each end widened by n's half widths;
 * without the time, or with a method that holds no floor, P_n. */
START_TEST(test_interpolate_power_floor) {
  sp_memory_set *ms = tu_two_memory_systems(scratch);
  sp_dataset *ds = tu_load_fixture("train");
  sp_error err;
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = base0;
  tp.clusters = 3;
  tp.memory = ms;
  tp.floor_kernel = "sgemm";
  sp_model *m = NULL;
  ck_assert_msg(sp_model_train(ds, &tp, NULL, NULL, &m, &err) == SP_OK, "train: %s", err.message);
  size_t k = sp_dataset_kernel_index(ds, "stream.copy");
  ck_assert_uint_lt(k, sp_dataset_kernel_count(ds));
  double ctr[16], t_out[64], t_lo[64], t_hi[64], p_out[64], p_lo[64], p_hi[64];
  sp_observation obs;
  ck_assert_int_eq(sp_model_observe(m, ds, k, ctr, &obs, &err), SP_OK);
  ck_assert_int_eq(sp_model_predict_interval(m, SP_TIME, &obs, t_out, t_lo, t_hi, NULL), SP_OK);
  ck_assert_int_eq(sp_model_predict_interval(m, SP_POWER, &obs, p_out, p_lo, p_hi, NULL), SP_OK);
  const sp_config at[2] = {{16, 500, 475}, {16, 500, 1375}};
  /* Twice the fast card's bandwidth, from the fast card (n = 1); a quarter
   * of the slow card's, from the slow card (n = 0). */
  const double peak[2] = {15.2, 486.4}, ratio[2] = {0.25, 2};
  for (int n = 1; n >= 0; n--) {
    size_t ti = sp_model_config_index(m, SP_TIME, &at[n]),
           pi = sp_model_config_index(m, SP_POWER, &at[n]);
    double f, floor_run;
    ck_assert_int_eq(sp_model_floor_power(m, &at[n], &f), SP_OK);
    ck_assert_int_eq(sp_dataset_power(ds, sp_dataset_kernel_index(ds, "sgemm"), &at[n], &floor_run),
                     SP_OK);
    ck_assert_double_eq(f, floor_run);
    ck_assert_msg(f < p_out[pi], "the floor %g W is not below the kernel's %g W", f, p_out[pi]);
    sp_memory_system mem;
    ck_assert_int_eq(sp_memory_parse("bus=512,peak=1", 1000, &mem, &err), SP_OK);
    mem.peak_gbs = peak[n];
    sp_config t = {16, 500, 1000};
    double tv, tl, th, v, l, h;
    ck_assert_int_eq(sp_model_memory_interpolate(m, SP_TIME, t_out, t_lo, t_hi, NULL, &t, &mem, &tv,
                                                 &tl, &th, &err),
                     SP_OK);
    ck_assert_int_eq(sp_model_memory_interpolate(m, SP_POWER, p_out, p_lo, p_hi, t_out, &t, &mem,
                                                 &v, &l, &h, &err),
                     SP_OK);
    ck_assert_double_eq_tol(v, f + (p_out[pi] - f) * t_out[ti] / tv, 1e-9 * v);
    double phi = f / p_out[pi], flat = p_out[pi], prop = p_out[pi] * (phi + (1 - phi) * ratio[n]);
    ck_assert_double_eq_tol(l, fmin(flat, prop) * p_lo[pi] / p_out[pi], 1e-9 * l);
    ck_assert_double_eq_tol(h, fmax(flat, prop) * p_hi[pi] / p_out[pi], 1e-9 * h);
    ck_assert(l <= v && v <= h);
    /* Less bandwidth: less power, no more than the time says; more: more. */
    ck_assert(n ? v >= p_out[pi] : v <= p_out[pi]);
    /* Without the time: the nearest system's. */
    ck_assert_int_eq(sp_model_memory_interpolate(m, SP_POWER, p_out, p_lo, p_hi, NULL, &t, &mem, &v,
                                                 NULL, NULL, &err),
                     SP_OK);
    ck_assert_double_eq_tol(v, p_out[pi], 1e-12 * v);
  }
  /* The paper's method holds no floor: power stays the nearest system's. */
  ck_assert_int_eq(sp_model_use_method(m, "wu2015"), SP_OK);
  double f;
  ck_assert_int_eq(sp_model_floor_power(m, &at[1], &f), SP_ENOTFOUND);
  sp_model_free(m);
  sp_dataset_free(ds);
  sp_memory_free(ms);
}
END_TEST

/* memory.csv must describe the grid's memory clocks: one it lacks is an
 * error naming the clock. */
START_TEST(test_memory_grid) {
  char *path = tu_write(scratch, "half.csv",
                        "memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n"
                        "475,slow card,GDDR5,256,60.8,4\n");
  sp_memory_set *ms = NULL;
  sp_error err;
  ck_assert_int_eq(sp_memory_load(path, &ms, &err), SP_OK);
  sp_dataset *ds = tu_load_fixture("train");
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = base0;
  tp.clusters = 3;
  tp.memory = ms;
  sp_model *m = NULL;
  ck_assert_int_eq(sp_model_train(ds, &tp, NULL, NULL, &m, &err), SP_EGRID);
  ck_assert_ptr_null(m);
  ck_assert_str_eq(err.file, path);
  ck_assert_ptr_nonnull(strstr(err.message, "memory clock 1375"));
  sp_dataset_free(ds);
  sp_memory_free(ms);
  free(path);
}
END_TEST

/* Replaces from with to in dir's manifest and signs it again, so that the
 * loader's own checks (not the checksum) must find the problem. */
static void edit_manifest(const char *dir, const char *from, const char *to) {
  char *path = tu_path(dir, "manifest.txt"), *text = tu_read(path, NULL);
  char *at = strstr(text, from), *last = strstr(text, "\nsha256 ");
  ck_assert_msg(at && last, "'%s' not in the manifest", from);
  last[1] = '\0';
  size_t n = strlen(text) - strlen(from) + strlen(to) + 80;
  char *body = malloc(n);
  ck_assert_ptr_nonnull(body);
  snprintf(body, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  sp_sha256 h;
  char hex[65];
  sp__sha256_init(&h);
  sp__sha256_update(&h, body, strlen(body));
  sp__sha256_final_hex(&h, hex);
  size_t len = strlen(body);
  snprintf(body + len, n - len, "sha256 %s\n", hex);
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fputs(body, fp);
  ck_assert_int_eq(fclose(fp), 0);
  free(body);
  free(text);
  free(path);
}

/* Writes dir's method-physet.txt (version 11) back as version 9 wrote
 * it: without the step forests (the lines from "step forest" to the power
 * quantity), its checksum in the manifest updated. */
static void write_v9(const char *dir) {
  char *path = tu_path(dir, "method-physet.txt"), *text = tu_read(path, NULL), old[65], new[65];
  ck_assert_int_eq(sp__sha256_file(path, old), SP_OK);
  char *step = strstr(text, "\nstep forest\n"), *power = strstr(text, "\nquantity power ");
  ck_assert(!strncmp(text, "physet 11\n", 10) && step && power && step < power);
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fprintf(fp, "physet 9\n%.*s%s", (int)(step - text - 10), text + 10, power);
  ck_assert_int_eq(fclose(fp), 0);
  ck_assert_int_eq(sp__sha256_file(path, new), SP_OK);
  edit_manifest(dir, old, new);
  free(text);
  free(path);
}

/* Version 10's memory step forest (11's, with its curve): saved and loaded back; the memory step
 * it gives changes the other memory system's time and power (the power
 * prior reads the time) and nothing at the base's memory system; a
 * version 9 file (the same model without it) loads and predicts each
 * point as the model without the step forest does. */
START_TEST(test_step_forest) {
  sp_memory_set *ms = tu_two_memory_systems(scratch);
  sp_dataset *ds;
  sp_model *m = train(&ds, ms, 0), *v10 = NULL, *v9 = NULL;
  sp_error err;
  char *dir = tu_path(scratch, "step"), *path = tu_path(dir, "method-physet.txt");
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
  char *text = tu_read(path, NULL);
  ck_assert_ptr_nonnull(strstr(text, "\nstep forest\nforest 1 samples 9 "));
  ck_assert_ptr_nonnull(strstr(text, "\nstep curve 2\nforest 1 samples 9 "));
  free(text);
  ck_assert_int_eq(sp_model_load(dir, &v10, &err), SP_OK);
  write_v9(dir);
  ck_assert_msg(sp_model_load(dir, &v9, &err) == SP_OK, "load v9: %s", err.message);
  /* The same model with its step forest taken away (before it predicts
   * anything, which the scratch would remember): version 9's predictions. */
  sp_dataset *ds2;
  sp_model *m2 = train(&ds2, ms, 0);
  sp_physet *p = sp__model_slot(m2, "physet")->state;
  ck_assert_ptr_nonnull(p->step_forest);
  ck_assert_ptr_nonnull(p->curve_forest);
  sp__forest_free(p->step_forest);
  sp__forest_free(p->curve_forest);
  p->step_forest = p->curve_forest = NULL;
  p->step_curve = 0;
  double ctr[16], a[3][64], b[3][64], c[3][64];
  size_t moved = 0;
  for (size_t k = 0; k < 9; k++) {
    sp_observation obs;
    ck_assert_int_eq(sp_model_observe(m, ds, k, ctr, &obs, &err), SP_OK);
    for (int q = 0; q < 2; q++) {
      const sp_quantity qq = (sp_quantity)q;
      ck_assert_int_eq(sp_model_predict_interval(m, qq, &obs, a[0], a[1], a[2], NULL), SP_OK);
      ck_assert_int_eq(sp_model_predict_interval(v10, qq, &obs, b[0], b[1], b[2], NULL), SP_OK);
      for (size_t i = 0; i < sp_model_config_count(m, qq); i++)
        for (int r = 0; r < 3; r++) ck_assert_double_eq(a[r][i], b[r][i]);
      ck_assert_int_eq(sp_model_predict_interval(m2, qq, &obs, a[0], a[1], a[2], NULL), SP_OK);
      ck_assert_int_eq(sp_model_predict_interval(v9, qq, &obs, c[0], c[1], c[2], NULL), SP_OK);
      for (size_t i = 0; i < sp_model_config_count(m, qq); i++) {
        sp_config cfg = sp_model_config_at(m, qq, i);
        for (int r = 0; r < 3; r++) {
          ck_assert_double_eq(a[r][i], c[r][i]);
          if (cfg.memory_mhz == base0.memory_mhz) ck_assert_double_eq(b[r][i], c[r][i]);
        }
        moved += cfg.memory_mhz != base0.memory_mhz && b[0][i] != c[0][i];
      }
    }
  }
  ck_assert_uint_gt(moved, 0);
  free(path);
  free(dir);
  sp_model_free(v9);
  sp_model_free(v10);
  sp_model_free(m2);
  sp_model_free(m);
  sp_dataset_free(ds2);
  sp_dataset_free(ds);
  sp_memory_free(ms);
}
END_TEST

/* Replaces from with to in dir's method-physet.txt, its checksum in the
 * manifest updated, so that the method file's own checks must find it. */
static void edit_method(const char *dir, const char *from, const char *to) {
  char *path = tu_path(dir, "method-physet.txt"), *text = tu_read(path, NULL), old[65], new[65];
  ck_assert_int_eq(sp__sha256_file(path, old), SP_OK);
  char *at = strstr(text, from);
  ck_assert_msg(at != NULL, "'%s' not in the method file", from);
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fprintf(fp, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  ck_assert_int_eq(fclose(fp), 0);
  ck_assert_int_eq(sp__sha256_file(path, new), SP_OK);
  edit_manifest(dir, old, new);
  free(text);
  free(path);
}

/* Version 11's curve forest: its features are the kernel's features, then
 * its log time ratio at each CU count at the base's clocks (16 and 32 CUs
 * at 1000 and 1375 MHz here).  From the base alone every prediction is
 * the one without it (version 10's); with the time measured at 16 CUs of
 * the base's memory system too, the curve forest moves the other memory
 * system's points (of kernels unlike the training ones), and one kernel's
 * prediction does not depend on what the model predicted before.  A file whose curve does not match
 * the grid, or a version 10 file holding one, is refused. */
START_TEST(test_step_curve) {
  sp_memory_set *ms = tu_two_memory_systems(scratch);
  sp_dataset *ds, *ds2;
  sp_model *m = train(&ds, ms, 0), *v10 = train(&ds2, ms, 0), *back = NULL;
  const sp_physet *p = sp__model_slot(m, "physet")->state;
  const size_t nf = p->plan.nfeat, g = p->gsize[SP_TIME];
  ck_assert_uint_eq(p->step_curve, 2);
  ck_assert_uint_eq(sp__forest_features(p->step_forest), nf);
  ck_assert_uint_eq(sp__forest_features(p->curve_forest), nf + 2);
  double feat[SP_FEATURES_MAX], lt[64], out[SP_FEATURES_MAX + 2];
  for (size_t i = 0; i < nf; i++) feat[i] = 10.0 + (double)i;
  for (size_t i = 0; i < g; i++) lt[i] = 0.25 + (double)i;
  sp__physet_step_features(p, feat, lt, out);
  for (size_t i = 0; i < nf; i++) ck_assert_double_eq(out[i], feat[i]);
  for (size_t c = 0; c < 2; c++) {
    const sp_config want = {c ? 32 : 16, 1000, 1375};
    size_t i = sp_model_config_index(m, SP_TIME, &want);
    ck_assert_uint_lt(i, g);
    ck_assert_double_eq(out[nf + c], lt[i]);
  }
  /* The twin without its curve forest (before it predicts anything). */
  sp_physet *p10 = sp__model_slot(v10, "physet")->state;
  sp__forest_free(p10->curve_forest);
  p10->curve_forest = NULL;
  p10->step_curve = 0;
  sp_error err;
  const sp_config at16 = {16, 1000, 1375};
  double ctr[16], t16, a[3][64], b[3][64];
  size_t moved = 0;
  sp_observation obs;
  for (size_t k = 0; k < 9; k++) {
    ck_assert_int_eq(sp_model_observe(m, ds, k, ctr, &obs, &err), SP_OK);
    /* Not a training kernel, which either forest predicts exactly: slower
     * at the base, and still slower at 16 CUs. */
    obs.base_time_ms *= 1.2;
    for (int extra = 0; extra < 2; extra++) {
      ck_assert_int_eq(sp_dataset_time(ds, k, &at16, &t16), SP_OK);
      t16 *= 1.8;
      obs.nextra = (size_t)extra;
      obs.extra_config = &at16;
      obs.extra_time_ms = &t16;
      ck_assert_int_eq(sp_model_predict_interval(m, SP_TIME, &obs, a[0], a[1], a[2], NULL), SP_OK);
      ck_assert_int_eq(sp_model_predict_interval(v10, SP_TIME, &obs, b[0], b[1], b[2], NULL),
                       SP_OK);
      for (size_t i = 0; i < g; i++) {
        sp_config c = sp_model_config_at(m, SP_TIME, i);
        for (int r = 0; r < 3; r++)
          if (!extra || c.memory_mhz == base0.memory_mhz) ck_assert_double_eq(a[r][i], b[r][i]);
        moved += extra && a[0][i] != b[0][i];
      }
    }
  }
  ck_assert_uint_gt(moved, 0);
  /* Kernel 8 (measured at 16 CUs too) fresh from the file, and after the others above. */
  char *dir = tu_path(scratch, "curve");
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
  ck_assert_int_eq(sp_model_load(dir, &back, &err), SP_OK);
  ck_assert_int_eq(sp_model_predict_interval(back, SP_TIME, &obs, b[0], b[1], b[2], NULL), SP_OK);
  for (size_t i = 0; i < g; i++)
    for (int r = 0; r < 3; r++) ck_assert_double_eq(a[r][i], b[r][i]);
  sp_model_free(back);
  static const struct {
    const char *from, *to, *words;
  } edits[] = {
      {"\nstep curve 2\n", "\nstep curve 3\n", "does not match the model's CU counts"},
      {"\nstep curve 2\n", "\nstep forest\n", "expected 'step curve'"},
      {"physet 11\n", "physet 10\n", "quantity"},
  };
  for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
    ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
    edit_method(dir, edits[e].from, edits[e].to);
    back = (sp_model *)&back;
    sp_error_clear(&err);
    ck_assert_int_eq(sp_model_load(dir, &back, &err), SP_EMODEL);
    ck_assert_ptr_null(back);
    ck_assert_int_gt(err.line, 0);
    ck_assert_msg(strstr(err.message, edits[e].words) != NULL, "edit %zu: %s", e, err.message);
  }
  free(dir);
  sp_model_free(v10);
  sp_model_free(m);
  sp_dataset_free(ds2);
  sp_dataset_free(ds);
  sp_memory_free(ms);
}
END_TEST

/* A format 3 manifest whose memory systems or bases contradict the grid
 * or each other is refused at its line and field. */
START_TEST(test_corrupt_v3) {
  static const struct {
    const char *from, *to, *field, *words;
  } edits[] = {
      {"\nmemory_system 1375 ", "\nmemory_system 1374 ", "memory", "do not match the grid"},
      {"\nmemory 2\n", "\nmemory 1\n", "bases", "expected 'bases'"},
      {"\nbase_config 16cu/500/475 ", "\nbase_config 24cu/500/475 ", "bases", "not on the grid"},
      {"\nbase_config 32cu/1000/1375 ", "\nbase_config 16cu/500/475 ", "base_config",
       "not the model's base"},
      {"\nat 16cu/500/475 file ", "\nat 16cu/1000/475 file ", "at", "not a further base"},
      {"\nat 16cu/500/475 file method-physet@16cu-500-475.txt", "\nat 16cu/500/475 file x.txt",
       "at", "must be method-physet@16cu-500-475.txt"},
  };
  sp_memory_set *ms = tu_two_memory_systems(scratch);
  sp_dataset *ds;
  sp_model *m = train(&ds, ms, 1);
  sp_error err;
  char *dir = tu_path(scratch, "v3");
  for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
    ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
    edit_manifest(dir, edits[i].from, edits[i].to);
    sp_model *back = (sp_model *)&back;
    sp_error_clear(&err);
    ck_assert_int_eq(sp_model_load(dir, &back, &err), SP_EMODEL);
    ck_assert_ptr_null(back);
    ck_assert_int_gt(err.line, 0);
    ck_assert_msg(!strcmp(err.field, edits[i].field) && strstr(err.message, edits[i].words),
                  "edit %zu: field '%s': %s", i, err.field, err.message);
  }
  free(dir);
  sp_model_free(m);
  sp_dataset_free(ds);
  sp_memory_free(ms);
}
END_TEST

static Suite *memaxis_suite(void) {
  Suite *s = suite_create("memaxis");
  TCase *tc = tcase_create("memaxis");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_round_trip);
  tcase_add_test(tc, test_two_bases_exact);
  tcase_add_test(tc, test_base_errors);
  tcase_add_test(tc, test_bandwidth_prior);
  tcase_add_test(tc, test_interpolate);
  tcase_add_test(tc, test_interpolate_power_floor);
  tcase_add_test(tc, test_memory_grid);
  tcase_add_test(tc, test_corrupt_v3);
  tcase_add_test(tc, test_step_forest);
  tcase_add_test(tc, test_step_curve);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(memaxis_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
