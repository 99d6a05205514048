/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_dse.c: design-space exploration against brute force on the
 * closed-form data set of dsefix.h: workload totals, every objective, both
 * Pareto fronts, elasticities and classes, candidate ranking, refinement
 * between grid clocks, the report directory, and every error path. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dsefix.h"
#include "scalepredict.h"
#include "testutil.h"

/* Predictions are exact up to rounding in the scaling walk. */
#define TOL 1e-9

static dsefix fix;
static const double weights[FIX_NEW] = {3, 1.5, 2.25};

static void setup(void) { dsefix_setup(&fix); }
static void teardown(void) { dsefix_teardown(&fix); }

static char *weights_file(void) {
  char text[512];
  snprintf(text, sizeof text, "kernel,weight\n\"%s\",%g\n\"%s\",%g\n%s,%g\n", "fft \"\"radix-4\"\"",
           weights[0], dsefix_name(1), weights[1], dsefix_name(2), weights[2]);
  return tu_write(fix.dir, "weights.csv", text);
}

/* The workload's truth at configuration c. */
static void truth(const sp_config *c, double *t, double *e, double *peak) {
  *t = *e = *peak = 0;
  for (int k = 0; k < FIX_NEW; k++) {
    double tk = dsefix_time(k, c), pk = dsefix_power(k, c);
    *t += weights[k] * tk;
    *e += weights[k] * tk * pk;
    if (pk > *peak) *peak = pk;
  }
}

static sp_dse_result *run(const sp_dse_params *p) {
  sp_dse_result *r = NULL;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_dse_run(fix.model, fix.fresh, p, &r, &err);
  char msg[1024];
  sp_error_format(&err, msg, sizeof msg);
  ck_assert_msg(st == SP_OK, "sp_dse_run: %s", msg);
  return r;
}

static sp_dse_params weighted(void) {
  sp_dse_params p;
  sp_dse_params_init(&p);
  char *w = weights_file();
  static char path[512];
  snprintf(path, sizeof path, "%s", w);
  free(w);
  p.weights_path = path;
  return p;
}

/* The error of a run expected to fail, formatted. */
static int run_fail(const sp_dse_params *p, char *msg, size_t size) {
  sp_dse_result *r = (sp_dse_result *)&fix; /* must be reset to NULL */
  sp_error err;
  sp_error_clear(&err);
  int st = sp_dse_run(fix.model, fix.fresh, p, &r, &err);
  ck_assert_ptr_null(r);
  ck_assert_int_eq(err.status, st);
  sp_error_format(&err, msg, size);
  return st;
}

/* ---- names ------------------------------------------------------------------- */

START_TEST(objective_names) {
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++)
    ck_assert_int_eq(sp_dse_objective_parse(sp_dse_objective_name(o)), o);
  ck_assert_int_eq(sp_dse_objective_parse("edp"), SP_DSE_MIN_EDP);
  ck_assert_int_eq(sp_dse_objective_parse("fastest"), -1);
  ck_assert_ptr_null(sp_dse_objective_name(SP_DSE_OBJECTIVE_COUNT));
  ck_assert_str_eq(sp_dse_bound_name(SP_DSE_BANDWIDTH_BOUND), "bandwidth-bound");
  ck_assert_ptr_null(sp_dse_bound_name(7));
  ck_assert_str_eq(sp_dse_table_name(SP_DSE_TABLE_PARETO_ENERGY), "pareto-energy");
  ck_assert_ptr_null(sp_dse_table_name(-1));
}
END_TEST

/* ---- totals and objectives ------------------------------------------------------ */

START_TEST(workload_totals) {
  sp_dse_params p = weighted();
  sp_dse_result *r = run(&p);
  ck_assert_uint_eq(r->nconfigs, 18);
  ck_assert_uint_eq(r->nkernels, FIX_NEW);
  ck_assert_str_eq(r->kernels[0].name, dsefix_name(0));
  for (size_t i = 0; i < r->nconfigs; i++) {
    double t, e, peak;
    truth(&r->configs[i], &t, &e, &peak);
    ck_assert_double_le(tu_rel(r->time_ms[i], t), TOL);
    ck_assert_double_le(tu_rel(r->energy_mj[i], e), TOL);
    ck_assert_double_le(tu_rel(r->peak_power_w[i], peak), TOL);
    ck_assert_uint_eq(sp_dse_config_index(r, &r->configs[i]), i);
  }
  const sp_config base = {32, 1000, 1375};
  ck_assert_uint_eq(r->reference, sp_dse_config_index(r, &base));
  sp_dse_result_free(r);
}
END_TEST

static double score(double t, double e, int o) {
  switch (o) {
    case SP_DSE_MIN_TIME:
    case SP_DSE_MIN_TIME_CAPPED:
      return t;
    case SP_DSE_MIN_ENERGY:
    case SP_DSE_MIN_ENERGY_BUDGET:
      return e;
    case SP_DSE_MIN_EDP:
      return e * t;
    default:
      return e * t * t;
  }
}

/* Brute-force best configuration of objective o. */
static size_t brute_best(const sp_dse_result *r, int o, double cap, double tlimit) {
  size_t best = SP_NO_CONFIG;
  double bs = INFINITY;
  for (size_t i = 0; i < r->nconfigs; i++) {
    double t, e, peak;
    truth(&r->configs[i], &t, &e, &peak);
    if (o == SP_DSE_MIN_TIME_CAPPED && peak > cap) continue;
    if (o == SP_DSE_MIN_ENERGY_BUDGET && t > tlimit) continue;
    if (score(t, e, o) < bs) {
      bs = score(t, e, o);
      best = i;
    }
  }
  return best;
}

START_TEST(objectives_match_brute_force) {
  sp_dse_params p = weighted();
  p.power_cap_w = 150.5;
  p.time_budget = 1.35;
  sp_dse_result *r = run(&p);
  double tref, eref, pref;
  truth(&r->configs[r->reference], &tref, &eref, &pref);
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++) {
    size_t want = brute_best(r, o, p.power_cap_w, p.time_budget * tref);
    ck_assert_msg(r->best[o].config == want, "%s: got %zu, want %zu", sp_dse_objective_name(o),
                  r->best[o].config, want);
    ck_assert_double_le(tu_rel(r->best[o].time_ms, r->time_ms[want]), 0);
  }
  ck_assert_double_le(r->best[SP_DSE_MIN_TIME_CAPPED].peak_power_w, p.power_cap_w);
  ck_assert_double_le(r->best[SP_DSE_MIN_ENERGY_BUDGET].time_ms, 1.35 * tref * (1 + TOL));
  sp_dse_result_free(r);
}
END_TEST

START_TEST(unset_constraints_have_no_choice) {
  sp_dse_params p;
  sp_dse_params_init(&p);
  sp_dse_result *r = run(&p);
  ck_assert_uint_eq(r->best[SP_DSE_MIN_TIME_CAPPED].config, SP_NO_CONFIG);
  ck_assert_uint_eq(r->best[SP_DSE_MIN_ENERGY_BUDGET].config, SP_NO_CONFIG);
  ck_assert(isnan(r->best[SP_DSE_MIN_TIME_CAPPED].time_ms));
  for (size_t k = 0; k < r->nkernels; k++) ck_assert_double_eq(r->kernels[k].weight, 1.0);
  sp_dse_result_free(r);
}
END_TEST

/* ---- Pareto fronts ---------------------------------------------------------------- */

static int dominated(const sp_dse_result *r, size_t i, int power) {
  double yi = power ? r->energy_mj[i] / r->time_ms[i] : r->energy_mj[i];
  for (size_t j = 0; j < r->nconfigs; j++) {
    double yj = power ? r->energy_mj[j] / r->time_ms[j] : r->energy_mj[j];
    if (r->time_ms[j] <= r->time_ms[i] && yj <= yi && (r->time_ms[j] < r->time_ms[i] || yj < yi))
      return 1;
  }
  return 0;
}

static void check_front(const sp_dse_result *r, const size_t *front, size_t n, int power) {
  unsigned char on[64] = {0};
  ck_assert_uint_ge(n, 2);
  for (size_t i = 0; i < n; i++) {
    on[front[i]] = 1;
    if (i) ck_assert_double_lt(r->time_ms[front[i - 1]], r->time_ms[front[i]]);
  }
  for (size_t i = 0; i < r->nconfigs; i++)
    ck_assert_msg(on[i] == !dominated(r, i, power), "config %zu: on front %d", i, on[i]);
}

START_TEST(pareto_fronts) {
  sp_dse_params p = weighted();
  sp_dse_result *r = run(&p);
  check_front(r, r->pareto_energy, r->npareto_energy, 0);
  check_front(r, r->pareto_power, r->npareto_power, 1);
  ck_assert_uint_eq(r->pareto_energy[0], r->best[SP_DSE_MIN_TIME].config);
  ck_assert_uint_eq(r->pareto_energy[r->npareto_energy - 1], r->best[SP_DSE_MIN_ENERGY].config);
  sp_dse_result_free(r);
}
END_TEST

/* ---- sensitivity --------------------------------------------------------------------- */

START_TEST(elasticities_and_classes) {
  sp_dse_params p = weighted();
  sp_dse_result *r = run(&p);
  /* Pure power laws: the elasticity is the exponent, whatever the ends. */
  static const double time_exp[3][3] = {
      {-0.93, -0.97, -0.02}, {-0.15, -0.08, -0.91}, {-0.52, -0.47, -0.44}};
  static const double power_exp[3][3] = {
      {0.61, 1.37, 0.08}, {0.21, 0.33, 0.83}, {0.43, 0.79, 0.46}};
  for (int k = 0; k < FIX_NEW; k++)
    for (int a = 0; a < 3; a++) {
      const sp_dse_sensitivity *s = &r->kernels[k].sens;
      ck_assert_double_eq_tol(s->time[a], time_exp[k][a], 1e-9);
      ck_assert_double_eq_tol(s->power[a], power_exp[k][a], 1e-9);
      ck_assert_double_eq_tol(s->energy[a], time_exp[k][a] + power_exp[k][a], 1e-9);
    }
  ck_assert_int_eq(r->kernels[FIX_COMPUTE].sens.bound, SP_DSE_COMPUTE_BOUND);
  ck_assert_int_eq(r->kernels[FIX_MEMORY].sens.bound, SP_DSE_BANDWIDTH_BOUND);
  ck_assert_int_eq(r->kernels[FIX_BALANCED].sens.bound, SP_DSE_NEITHER);
  /* The workload's elasticity lies between its kernels'. */
  ck_assert_double_lt(r->sens.time[SP_AXIS_ENGINE], -0.08);
  ck_assert_double_gt(r->sens.time[SP_AXIS_ENGINE], -0.97);
  sp_dse_result_free(r);
}
END_TEST

START_TEST(class_thresholds_are_parameters) {
  sp_dse_params p = weighted();
  p.bound_elasticity = 0.45;
  p.bound_dominance = 1.05;
  sp_dse_result *r = run(&p);
  /* Balanced: engine 0.47 >= 0.45 and >= 1.05 x 0.44. */
  ck_assert_int_eq(r->kernels[FIX_BALANCED].sens.bound, SP_DSE_COMPUTE_BOUND);
  sp_dse_result_free(r);
}
END_TEST

/* ---- candidates ------------------------------------------------------------------------- */

START_TEST(candidates_ranked) {
  sp_dse_params p = weighted();
  char *c = tu_write(fix.dir, "cand.csv",
                     "name,config\nflagship,32cu/1000/1375\nmid,16cu/750/925\n"
                     "\"low, power\",16cu/500/475\nbalanced,32cu/750/925\n");
  p.candidates_path = c;
  p.power_cap_w = 140;
  sp_dse_result *r = run(&p);
  ck_assert_uint_eq(r->ncandidates, 4);
  for (size_t i = 0; i < 4; i++) {
    ck_assert_uint_eq(r->candidates[i].rank, i + 1);
    sp_dse_choice a = sp_dse_at(r, r->candidates[i].config);
    ck_assert_int_eq(r->candidates[i].meets_cap, a.peak_power_w <= 140);
    ck_assert_int_eq(r->candidates[i].meets_budget, 1);
    if (i) {
      sp_dse_choice b = sp_dse_at(r, r->candidates[i - 1].config);
      ck_assert_double_le(b.energy_mj * b.time_ms, a.energy_mj * a.time_ms);
    }
  }
  sp_dse_result_free(r);
  free(c);
}
END_TEST

START_TEST(candidates_by_axes_and_constrained_rank) {
  sp_dse_params p = weighted();
  char *c = tu_write(fix.dir, "cand2.csv",
                     "product,cu,engine_mhz,memory_mhz\nA,32,1000,1375\nB,16,500,475\n");
  p.candidates_path = c;
  p.power_cap_w = 120;
  p.rank_by = SP_DSE_MIN_TIME_CAPPED;
  sp_dse_result *r = run(&p);
  /* A is faster but over the cap, so B ranks first. */
  ck_assert_str_eq(r->candidates[0].name, "B");
  ck_assert_int_eq(r->candidates[1].meets_cap, 0);
  sp_dse_result_free(r);
  free(c);
}
END_TEST

/* ---- refinement between grid clocks ---------------------------------------------------- */

START_TEST(grid_interp_is_log_linear) {
  sp_dse_params p = weighted();
  p.grid_interp = 4;
  sp_dse_result *r = run(&p);
  ck_assert_uint_eq(r->naxis[0], 2);
  ck_assert_uint_eq(r->naxis[1], 9);
  ck_assert_uint_eq(r->naxis[2], 9);
  ck_assert_int_eq(r->axis[1][1], 563); /* 500 + 250/4 rounded */
  ck_assert_int_eq(r->axis[2][5], 1038);
  /* Power laws are exact under log-linear interpolation. */
  for (size_t i = 0; i < r->nconfigs; i++) {
    double t, e, peak;
    truth(&r->configs[i], &t, &e, &peak);
    ck_assert_double_le(tu_rel(r->time_ms[i], t), 1e-9);
    ck_assert_double_le(tu_rel(r->energy_mj[i], e), 1e-9);
  }
  sp_dse_result_free(r);
}
END_TEST

START_TEST(grid_interp_limits) {
  sp_dse_params p;
  sp_dse_params_init(&p);
  char msg[1024];
  p.grid_interp = 0;
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), SP_EINVAL);
  p.grid_interp = 251; /* memory clocks are 450 apart, engine 250 */
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), SP_EINVAL);
  ck_assert_msg(strstr(msg, "500 and 750") != NULL, "%s", msg);
  p.grid_interp = 250;
  sp_dse_result *r = run(&p);
  ck_assert_uint_eq(r->naxis[1], 501);
  sp_dse_result_free(r);
}
END_TEST

/* ---- errors ------------------------------------------------------------------------------- */

START_TEST(infeasible_cap_names_closest) {
  sp_dse_params p = weighted();
  p.power_cap_w = 30;
  char msg[1024];
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), SP_ENOTFOUND);
  /* The lowest peak power: fewest CUs, lowest clocks. */
  ck_assert_msg(strstr(msg, "16cu/500/475") && strstr(msg, "30 W"), "%s", msg);
}
END_TEST

START_TEST(infeasible_budget_names_closest) {
  sp_dse_params p = weighted();
  p.time_budget = 0.5;
  char msg[1024];
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), SP_ENOTFOUND);
  ck_assert_msg(strstr(msg, "32cu/1000/1375") && strstr(msg, "0.5 x"), "%s", msg);
}
END_TEST

START_TEST(missing_kernel_named) {
  sp_dse_params p;
  sp_dse_params_init(&p);
  char *w = tu_write(fix.dir, "w-missing.csv", "kernel,count\nhistogram,2\nsgemm_nn,4\n");
  p.weights_path = w;
  char msg[1024];
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), SP_ENOTFOUND);
  ck_assert_msg(strstr(msg, "'sgemm_nn'") && strstr(msg, ":3:"), "%s", msg);
  free(w);
}
END_TEST

static void bad_weights(const char *text, int status, const char *pattern) {
  sp_dse_params p;
  sp_dse_params_init(&p);
  char *w = tu_write(fix.dir, "w-bad.csv", text);
  p.weights_path = w;
  char msg[1024];
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), status);
  ck_assert_msg(strstr(msg, pattern) != NULL, "'%s' lacks '%s'", msg, pattern);
  free(w);
}

START_TEST(bad_weights_files) {
  bad_weights("kernel,weight\nhistogram,-2\n", SP_EPARSE, "positive");
  bad_weights("kernel,weight\nhistogram,2\nhistogram,3\n", SP_EPARSE, "twice");
  bad_weights("kernel,times\nhistogram,2\n", SP_EPARSE, "weight");
  bad_weights("kernel,weight\n", SP_EPARSE, "empty");
  bad_weights("", SP_EPARSE, "empty file");
  bad_weights("kernel,weight\nhistogram\n", SP_EPARSE, "fields");
  bad_weights("kernel,weight,note\nhistogram,2\n", SP_EPARSE,
              ":2: row has 2 fields but the header has 3");
  bad_weights("kernel,count,weight\nhistogram,1,2\n", SP_EPARSE, ":1:3: field 'weight'");
  bad_weights("kernel,weight,kernel\nhistogram,1,fft\n", SP_EPARSE, "'kernel' column twice");
}
END_TEST

static void bad_candidates(const char *text, int status, const char *pattern) {
  sp_dse_params p;
  sp_dse_params_init(&p);
  char *c = tu_write(fix.dir, "c-bad.csv", text);
  p.candidates_path = c;
  char msg[1024];
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), status);
  ck_assert_msg(strstr(msg, pattern) != NULL, "'%s' lacks '%s'", msg, pattern);
  free(c);
}

START_TEST(bad_candidate_files) {
  bad_candidates("name,config\nx,24cu/1000/1375\n", SP_EGRID, "nearest is 32cu/1000/1375");
  bad_candidates("name,config\nx,32cu/990/900\n", SP_EGRID, "nearest is 32cu/1000/925");
  bad_candidates("name,config\nx,fast\n", SP_EPARSE, ":2:2:");
  bad_candidates("name,cu\nx,32\n", SP_EPARSE, "expected name,config");
  bad_candidates("name,cu,engine_mhz,memory_mhz\nx,32,0,475\n", SP_EPARSE, "engine_mhz");
  bad_candidates("name,config\n,32cu/1000/1375\n", SP_EPARSE, "empty");
  bad_candidates("name,config\nx,32cu/1000/1375,9\n", SP_EPARSE, "fields");
  bad_candidates("", SP_EPARSE, "empty file");
  bad_candidates("name,config,cu\nx,32cu/1000/1375,32\n", SP_EPARSE, "configuration twice");
  bad_candidates("name,product,config\nx,y,32cu/1000/1375\n", SP_EPARSE, "'name' and a 'product'");
  /* A header alone was an empty ranking, exit 0 (found by fuzz_workload). */
  bad_candidates("name,config\n", SP_EPARSE, ":2: no candidates");
  bad_candidates("name,cu,engine_mhz,memory_mhz,extra\n", SP_EPARSE, ":2: no candidates");
}
END_TEST

START_TEST(bad_parameters) {
  sp_dse_params p;
  char msg[1024];
  sp_dse_params_init(&p);
  p.reference = (sp_config){24, 1000, 1375};
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), SP_EGRID);
  ck_assert_msg(strstr(msg, "nearest is 32cu/1000/1375") != NULL, "%s", msg);
  sp_dse_params_init(&p);
  p.power_cap_w = -1;
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), SP_EINVAL);
  sp_dse_params_init(&p);
  p.time_budget = NAN;
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), SP_EINVAL);
  sp_dse_params_init(&p);
  p.rank_by = 42;
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), SP_EINVAL);
  sp_dse_params_init(&p);
  p.bound_dominance = 0.5;
  ck_assert_int_eq(run_fail(&p, msg, sizeof msg), SP_EINVAL);
}
END_TEST

START_TEST(kernel_without_counters_named) {
  char *runs = tu_write(fix.dir, "nc-runs.csv",
                        "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
                        "lonely,32,1000,1375,1.5,120\n");
  char *ctr = tu_write(fix.dir, "nc-counters.csv",
                       "kernel,cu,engine_mhz,memory_mhz,VALUBusy,MemUnitBusy,CacheHit\n"
                       "lonely,16,500,475,1,2,3\n");
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load(runs, ctr, &ds, &err), SP_OK);
  sp_dse_params p;
  sp_dse_params_init(&p);
  sp_dse_result *r = NULL;
  ck_assert_int_eq(sp_dse_run(fix.model, ds, &p, &r, &err), SP_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(err.message, "'lonely'"));
  sp_dataset_free(ds);
  free(runs);
  free(ctr);
}
END_TEST

START_TEST(clamped_counters_reported) {
  char *runs = tu_write(fix.dir, "cl-runs.csv",
                        "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
                        "odd,32,1000,1375,1.5,120\n");
  char *ctr = tu_write(fix.dir, "cl-counters.csv",
                       "kernel,cu,engine_mhz,memory_mhz,VALUBusy,MemUnitBusy,CacheHit\n"
                       "odd,32,1000,1375,90,250,0.5\n");
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load(runs, ctr, &ds, &err), SP_OK);
  sp_dse_params p;
  sp_dse_params_init(&p);
  sp_dse_result *r = NULL;
  ck_assert_int_eq(sp_dse_run(fix.model, ds, &p, &r, &err), SP_OK);
  ck_assert_uint_eq(r->kernels[0].clamped, 1);
  ck_assert_str_eq(r->kernels[0].first_clamped, "MemUnitBusy");
  sp_dse_result_free(r);
  sp_dataset_free(ds);
  free(runs);
  free(ctr);
}
END_TEST

/* ---- output --------------------------------------------------------------------------------- */

static char *table(const sp_dse_result *r, int t) {
  char *s = NULL;
  size_t n = 0;
  FILE *fp = open_memstream(&s, &n);
  ck_assert_int_eq(sp_dse_write_csv(r, t, fp), SP_OK);
  fclose(fp);
  return s;
}

START_TEST(csv_tables) {
  sp_dse_params p = weighted();
  p.candidates_path = tu_write(fix.dir, "cand3.csv", "name,config\n\"a,b\",16cu/750/925\n");
  sp_dse_result *r = run(&p);
  char *s = table(r, SP_DSE_TABLE_OBJECTIVES);
  ck_assert_ptr_eq(strstr(s, "objective,config,cu,engine_mhz,memory_mhz,time_ms,energy_mj,"), s);
  ck_assert_ptr_nonnull(strstr(s, "\nreference,32cu/1000/1375,32,1000,1375,"));
  ck_assert_ptr_null(strstr(s, "min-time-capped"));
  free(s);
  s = table(r, SP_DSE_TABLE_CONFIGS);
  size_t lines = 0;
  for (char *q = s; (q = strchr(q, '\n')); q++) lines++;
  ck_assert_uint_eq(lines, r->nconfigs + 1);
  free(s);
  s = table(r, SP_DSE_TABLE_CANDIDATES);
  ck_assert_ptr_nonnull(strstr(s, "\n1,\"a,b\",16cu/750/925,"));
  free(s);
  s = table(r, SP_DSE_TABLE_SENSITIVITY);
  ck_assert_ptr_nonnull(strstr(s, "kernel,\"fft \"\"radix-4\"\"\",3,-0.93,-0.97,-0.02,"));
  free(s);
  for (int t = 0; t < SP_DSE_TABLE_COUNT; t++) free(table(r, t));
  ck_assert_int_eq(sp_dse_write_csv(r, SP_DSE_TABLE_COUNT, stdout), SP_EINVAL);
  sp_dse_result_free(r);
  free((char *)p.candidates_path);
}
END_TEST

START_TEST(json_output) {
  sp_dse_params p = weighted();
  sp_dse_result *r = run(&p);
  char *s = NULL;
  size_t n = 0;
  FILE *fp = open_memstream(&s, &n);
  ck_assert_int_eq(sp_dse_write_json(r, fp), SP_OK);
  fclose(fp);
  long depth = 0;
  for (char *q = s; *q; q++) {
    depth += (*q == '{' || *q == '[') - (*q == '}' || *q == ']');
    ck_assert_int_ge(depth, 0);
  }
  ck_assert_int_eq(depth, 0);
  ck_assert_ptr_nonnull(strstr(s, "\"min-time-capped\":null"));
  ck_assert_ptr_nonnull(strstr(s, "\"kernel\":\"fft \\\"radix-4\\\"\""));
  ck_assert_ptr_nonnull(strstr(s, "\"class\":\"bandwidth-bound\""));
  free(s);
  sp_dse_result_free(r);
}
END_TEST

START_TEST(report_directory) {
  sp_dse_params p = weighted();
  sp_dse_result *r = run(&p);
  char *dir = tu_path(fix.dir, "report");
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dse_report_write(r, dir, &err), SP_OK);
  static const char *const files[] = {"index.html",         "pareto-energy.svg", "heatmap-time.svg",
                                      "kernel-classes.svg", "configs.csv",       "kernels.csv"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char *f = tu_path(dir, files[i]);
    ck_assert_msg(tu_exists(f), "%s missing", files[i]);
    free(f);
  }
  char *index = tu_path(dir, "index.html");
  size_t n;
  char *html = tu_read(index, &n);
  ck_assert_ptr_nonnull(strstr(html, "<svg"));
  ck_assert_ptr_nonnull(strstr(html, "fft &quot;radix-4&quot;"));
  ck_assert_ptr_null(strstr(html, "<img"));
  free(html);
  /* Written again over the old one. */
  ck_assert_int_eq(sp_dse_report_write(r, dir, &err), SP_OK);
  /* Under a regular file: fails, nothing appears. */
  char *bad = tu_path(index, "sub");
  ck_assert_int_eq(sp_dse_report_write(r, bad, &err), SP_EIO);
  ck_assert(!tu_exists(bad));
  free(bad);
  free(index);
  free(dir);
  sp_dse_result_free(r);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("dse");
  TCase *tc = tcase_create("dse");
  tcase_add_unchecked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, objective_names);
  tcase_add_test(tc, workload_totals);
  tcase_add_test(tc, objectives_match_brute_force);
  tcase_add_test(tc, unset_constraints_have_no_choice);
  tcase_add_test(tc, pareto_fronts);
  tcase_add_test(tc, elasticities_and_classes);
  tcase_add_test(tc, class_thresholds_are_parameters);
  tcase_add_test(tc, candidates_ranked);
  tcase_add_test(tc, candidates_by_axes_and_constrained_rank);
  tcase_add_test(tc, grid_interp_is_log_linear);
  tcase_add_test(tc, grid_interp_limits);
  tcase_add_test(tc, infeasible_cap_names_closest);
  tcase_add_test(tc, infeasible_budget_names_closest);
  tcase_add_test(tc, missing_kernel_named);
  tcase_add_test(tc, bad_weights_files);
  tcase_add_test(tc, bad_candidate_files);
  tcase_add_test(tc, bad_parameters);
  tcase_add_test(tc, kernel_without_counters_named);
  tcase_add_test(tc, clamped_counters_reported);
  tcase_add_test(tc, csv_tables);
  tcase_add_test(tc, json_output);
  tcase_add_test(tc, report_directory);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
