/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_governor.c: trace loading, replay accounting, the built-in policies
 * and the public policy interface on the closed-form data set of dsefix.h,
 * where predictions equal the truth. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsefix.h"
#include "scalepredict.h"
#include "testutil.h"

static dsefix fix;
static const sp_config base = {32, 1000, 1375};

static void setup(void) { dsefix_setup(&fix); }
static void teardown(void) { dsefix_teardown(&fix); }

/* A trace of phases: each new kernel runs several times in a row. */
static char *phase_trace(void) {
  char text[4096];
  size_t n = (size_t)snprintf(text, sizeof text, "order,kernel\n");
  int order = 10;
  for (int rep = 0; rep < 3; rep++)
    for (int k = 0; k < FIX_NEW; k++)
      for (int i = 0; i < 4; i++) {
        const char *name = k == 0   ? "\"fft \"\"radix-4\"\"\""
                           : k == 1 ? "\"stream, copy\""
                                    : "histogram";
        n += (size_t)snprintf(text + n, sizeof text - n, "%d,%s\n", order, name);
        order += 10;
      }
  return tu_write(fix.dir, "phases.csv", text);
}

static sp_governor_trace *load(const char *path, const sp_dataset *ds) {
  sp_governor_trace *t = NULL;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_governor_trace_load(path, fix.model, ds, &t, &err);
  char msg[1024];
  sp_error_format(&err, msg, sizeof msg);
  ck_assert_msg(st == SP_OK, "trace: %s", msg);
  return t;
}

static sp_governor_result *replay(const sp_governor_trace *t, const char *policy,
                                  const sp_governor_params *p) {
  sp_governor_result *r = NULL;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_governor_replay(t, sp_governor_builtin(policy), p, &r, &err);
  char msg[1024];
  sp_error_format(&err, msg, sizeof msg);
  ck_assert_msg(st == SP_OK, "%s: %s", policy, msg);
  return r;
}

static int kernel_of(const sp_governor_trace *t, size_t i) {
  const char *name = sp_governor_trace_kernel_name(t, sp_governor_trace_kernel_at(t, i));
  for (int k = 0; k < FIX_NEW; k++)
    if (!strcmp(name, dsefix_name(k))) return k;
  return -1;
}

/* ---- loading ------------------------------------------------------------------ */

START_TEST(trace_from_dataset) {
  char *path = phase_trace();
  sp_governor_trace *t = load(path, fix.fresh);
  ck_assert_uint_eq(sp_governor_trace_length(t), 36);
  ck_assert_uint_eq(sp_governor_trace_kernel_count(t), 3);
  ck_assert_uint_eq(sp_governor_trace_config_count(t), 18);
  ck_assert_int_eq(sp_governor_trace_order_at(t, 0), 10);
  ck_assert_int_eq(kernel_of(t, 4), 1);
  for (size_t k = 0; k < 3; k++) ck_assert_int_eq(sp_governor_trace_kernel_measured(t, k), 1);
  sp_config c = sp_governor_trace_config_at(t, 17);
  ck_assert(sp_config_equal(&c, &base));
  sp_governor_trace_free(t);
  free(path);
}
END_TEST

START_TEST(trace_inline_and_sorted) {
  /* Rows out of order; base data inline on a later row of the kernel. */
  char *path = tu_write(fix.dir, "inline.csv",
                        "kernel,order,base_time_ms,base_power_w,VALUBusy,MemUnitBusy,CacheHit\n"
                        "gemm,30,,,,,\n"
                        "gemm,5,2.385,171.5,93.2,6.1,0.5\n"
                        "gemm,-7,,,,,\n");
  sp_governor_trace *t = load(path, NULL);
  ck_assert_uint_eq(sp_governor_trace_length(t), 3);
  ck_assert_int_eq(sp_governor_trace_order_at(t, 0), -7);
  ck_assert_int_eq(sp_governor_trace_order_at(t, 2), 30);
  ck_assert_int_eq(sp_governor_trace_kernel_measured(t, 0), 0);
  sp_governor_params p;
  sp_governor_params_init(&p);
  sp_governor_result *r = replay(t, "reference", &p);
  /* A compute kernel (by its counters) predicted at the base: its base time. */
  ck_assert_double_eq_tol(r->time_ms, 3 * 2.385, 1e-9);
  ck_assert_double_eq_tol(r->energy_mj, 3 * 2.385 * 171.5, 1e-6);
  ck_assert_uint_eq(r->measured, 0);
  sp_governor_result_free(r);
  sp_governor_trace_free(t);
  free(path);
}
END_TEST

static void bad_trace(const char *text, const sp_dataset *ds, int status, const char *pattern) {
  char *path = tu_write(fix.dir, "bad.csv", text);
  sp_governor_trace *t = (sp_governor_trace *)&fix;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_governor_trace_load(path, fix.model, ds, &t, &err), status);
  ck_assert_ptr_null(t);
  char msg[1024];
  sp_error_format(&err, msg, sizeof msg);
  ck_assert_msg(strstr(msg, pattern) != NULL, "'%s' lacks '%s'", msg, pattern);
  free(path);
}

START_TEST(bad_traces) {
  bad_trace("order,kernel\n1,histogram\n2,sgemm\n", fix.fresh, SP_ENOTFOUND, "'sgemm'");
  bad_trace("order,kernel\n1,histogram\n", NULL, SP_ENOTFOUND, "no measurements were given");
  bad_trace("order,kernel\n1,histogram\n1,histogram\n", fix.fresh, SP_EPARSE,
            "order 1 appears twice");
  bad_trace("order,kernel\nfirst,histogram\n", fix.fresh, SP_EPARSE, ":2:1:");
  /* strtol's overflow read as LONG_MAX, a silent reorder (2026-11-29). */
  bad_trace("order,kernel\n1,histogram\n99999999999999999999,histogram\n", fix.fresh, SP_EPARSE,
            ":3:1: field 'order': '99999999999999999999' is out of range");
  bad_trace("order,name\n1,histogram\n", fix.fresh, SP_EPARSE, "kernel");
  bad_trace("order,kernel\n", fix.fresh, SP_EPARSE, "no invocations");
  bad_trace("", fix.fresh, SP_EPARSE, "empty file");
  bad_trace("order,kernel\n1,\n", fix.fresh, SP_EPARSE, "empty kernel name");
  bad_trace("order,kernel\n1,histogram,3\n", fix.fresh, SP_EPARSE, "fields");
  bad_trace("order,kernel,base_time_ms,base_power_w\n1,k,2.5,100\n", NULL, SP_EPARSE, "VALUBusy");
  bad_trace(
      "order,kernel,base_time_ms,base_power_w,VALUBusy,MemUnitBusy,CacheHit\n"
      "1,k,-2.5,100,1,2,3\n",
      NULL, SP_EPARSE, "base_time_ms");
  bad_trace("order,kernel,base_time_ms,VALUBusy,MemUnitBusy,CacheHit\n1,k,2.5,1,2,3\n", NULL,
            SP_ENOPOWER, "'k'");
  sp_governor_trace *t = NULL;
  sp_error err;
  ck_assert_int_eq(sp_governor_trace_load("/nonexistent/trace.csv", fix.model, NULL, &t, &err),
                   SP_EIO);
}
END_TEST

/* ---- accounting --------------------------------------------------------------------- */

START_TEST(reference_totals_are_the_truth) {
  char *path = phase_trace();
  sp_governor_trace *t = load(path, fix.fresh);
  sp_governor_params p;
  sp_governor_params_init(&p);
  sp_governor_result *r = replay(t, "reference", &p);
  double time = 0, energy = 0, peak = 0;
  for (size_t i = 0; i < 36; i++) {
    int k = kernel_of(t, i);
    time += dsefix_time(k, &base);
    energy += dsefix_time(k, &base) * dsefix_power(k, &base);
    peak = fmax(peak, dsefix_power(k, &base));
  }
  ck_assert_double_le(tu_rel(r->time_ms, time), 1e-12);
  ck_assert_double_le(tu_rel(r->energy_mj, energy), 1e-12);
  ck_assert_double_le(tu_rel(r->edp, energy * time), 1e-12);
  ck_assert_double_le(tu_rel(r->avg_power_w, energy / time), 1e-12);
  ck_assert_double_eq(r->peak_power_w, peak);
  ck_assert_uint_eq(r->switches, 0);
  ck_assert_uint_eq(r->measured, 36);
  ck_assert_uint_eq(r->length, 36);
  ck_assert_str_eq(r->policy, "reference");
  sp_governor_result_free(r);
  sp_governor_trace_free(t);
  free(path);
}
END_TEST

/* The acceptance test: per-kernel model-driven choice beats the
 * static reference on energy under the same slowdown limit. */
START_TEST(model_beats_reference_under_slowdown) {
  char *path = phase_trace();
  sp_governor_trace *t = load(path, fix.fresh);
  sp_governor_params p;
  sp_governor_params_init(&p);
  p.slowdown = 1.15;
  p.switch_latency_us = 20;
  p.switch_energy_mj = 0.05;
  sp_governor_result *ref = replay(t, "reference", &p), *model = replay(t, "model", &p);
  ck_assert_double_lt(model->energy_mj, 0.95 * ref->energy_mj);
  ck_assert_double_le(model->time_ms, p.slowdown * ref->time_ms);
  ck_assert_uint_gt(model->switches, 0);
  /* Switching is charged: totals include it exactly. */
  double t_sum = 0, e_sum = 0;
  for (size_t i = 0; i < model->length; i++) {
    const sp_governor_outcome *o = &model->steps[i];
    ck_assert_double_eq_tol(o->switch_time_ms, o->switches * 0.02, 1e-12);
    t_sum += o->time_ms + o->switch_time_ms;
    e_sum += o->energy_mj + o->switch_energy_mj;
    /* Every kernel within its own limit. */
    int k = kernel_of(t, i);
    ck_assert_double_le(o->time_ms + o->switch_time_ms, 1.15 * dsefix_time(k, &base) * (1 + 1e-12));
  }
  ck_assert_double_le(tu_rel(model->time_ms, t_sum), 1e-12);
  ck_assert_double_le(tu_rel(model->energy_mj, e_sum), 1e-12);
  ck_assert_double_eq_tol(model->switch_energy_mj, model->switches * 0.05, 1e-9);
  sp_governor_result_free(ref);
  sp_governor_result_free(model);
  sp_governor_trace_free(t);
  free(path);
}
END_TEST

START_TEST(power_cap_policies) {
  char *path = phase_trace();
  sp_governor_trace *t = load(path, fix.fresh);
  sp_governor_params p;
  sp_governor_params_init(&p);
  p.power_cap_w = 120;
  sp_governor_result *ref = replay(t, "reference", &p), *model = replay(t, "model", &p);
  sp_governor_result *best = replay(t, "best-edp", &p), *oracle = replay(t, "oracle", &p);
  ck_assert_uint_eq(ref->over_cap, 36); /* every kernel draws more than 120 W at the base */
  ck_assert_uint_eq(model->over_cap, 0);
  ck_assert_uint_eq(best->over_cap, 0);
  ck_assert_double_le(best->peak_power_w, 120);
  /* A static choice changes configuration once at most. */
  ck_assert_uint_le(best->switches, 3);
  for (size_t i = 1; i < best->length; i++)
    ck_assert_uint_eq(best->steps[i].config, best->steps[0].config);
  /* With exact predictions, the oracle chooses as the model does. */
  ck_assert_double_eq_tol(oracle->energy_mj, model->energy_mj, 1e-9 * model->energy_mj);
  ck_assert_double_eq(ref->over_cap_time_ms, ref->time_ms);
  sp_governor_result_free(ref);
  sp_governor_result_free(model);
  sp_governor_result_free(best);
  sp_governor_result_free(oracle);
  sp_governor_trace_free(t);
  free(path);
}
END_TEST

static void replay_fail(const sp_governor_trace *t, const sp_governor_policy *pol,
                        const sp_governor_params *p, int status, const char *pattern) {
  sp_governor_result *r = (sp_governor_result *)&fix;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_governor_replay(t, pol, p, &r, &err), status);
  ck_assert_ptr_null(r);
  char msg[1024];
  sp_error_format(&err, msg, sizeof msg);
  ck_assert_msg(strstr(msg, pattern) != NULL, "'%s' lacks '%s'", msg, pattern);
}

START_TEST(infeasible_constraints) {
  char *path = phase_trace();
  sp_governor_trace *t = load(path, fix.fresh);
  const sp_governor_policy *model = sp_governor_builtin("model");
  sp_governor_params p;
  sp_governor_params_init(&p);
  p.power_cap_w = 30;
  replay_fail(t, model, &p, SP_ENOTFOUND, "closest is 16cu/500/475");
  sp_governor_params_init(&p);
  p.slowdown = 0.9;
  replay_fail(t, model, &p, SP_ENOTFOUND, "within 0.9 x");
  sp_governor_params_init(&p);
  p.slowdown = 1.05;
  p.power_cap_w = 60;
  replay_fail(t, model, &p, SP_ENOTFOUND, "under the power cap");
  sp_governor_params_init(&p);
  p.reference = (sp_config){32, 800, 1375};
  replay_fail(t, model, &p, SP_EGRID, "nearest is 32cu/750/1375");
  sp_governor_params_init(&p);
  p.switch_energy_mj = -1;
  replay_fail(t, model, &p, SP_EINVAL, "switch-energy-mj");
  sp_governor_params_init(&p);
  p.up_threshold = 0;
  replay_fail(t, model, &p, SP_EINVAL, "up-threshold");
  replay_fail(t, NULL, &p, SP_EINVAL, "choose");
  sp_governor_trace_free(t);
  free(path);
}
END_TEST

START_TEST(reactive_follows_load) {
  char *path = phase_trace();
  sp_governor_trace *t = load(path, fix.fresh);
  sp_governor_params p;
  sp_governor_params_init(&p);
  sp_governor_result *r = replay(t, "reactive", &p);
  ck_assert_uint_eq(r->steps[0].config, 17); /* starts at the reference */
  for (size_t i = 1; i < r->length; i++) {
    int prev = kernel_of(t, i - 1);
    sp_config c = sp_governor_trace_config_at(t, r->steps[i].config);
    ck_assert_int_eq(c.cu, 32);
    /* A compute kernel's ALU load (> 80%) asks for the top engine clock; a
     * memory kernel's memory load for the top memory clock. */
    if (prev == FIX_COMPUTE) ck_assert_int_eq(c.engine_mhz, 1000);
    if (prev == FIX_MEMORY) ck_assert_int_eq(c.memory_mhz, 1375);
    if (prev == FIX_MEMORY) ck_assert_int_eq(c.engine_mhz, 750);
  }
  /* Load counters the model lacks: a clear error. */
  p.engine_load_counter = "sq.busy";
  replay_fail(t, sp_governor_builtin("reactive"), &p, SP_ENOTFOUND, "'sq.busy'");
  sp_governor_result_free(r);
  sp_governor_trace_free(t);
  free(path);
}
END_TEST

START_TEST(reactive_throttles_over_cap) {
  char *path = phase_trace();
  sp_governor_trace *t = load(path, fix.fresh);
  sp_governor_params p;
  sp_governor_params_init(&p);
  p.power_cap_w = 150;
  sp_governor_result *r = replay(t, "reactive", &p);
  sp_governor_params_init(&p);
  sp_governor_result *free_run = replay(t, "reactive", &p);
  ck_assert_uint_lt(r->over_cap, 36);
  ck_assert_double_lt(r->energy_mj, free_run->energy_mj);
  sp_governor_result_free(r);
  sp_governor_result_free(free_run);
  sp_governor_trace_free(t);
  free(path);
}
END_TEST

/* ---- a user's policy through the public interface ---------------------------------- */

typedef struct counting {
  int inits, observes, frees;
  size_t last_history;
} counting;

static counting calls;

static int alt_init(const sp_governor_context *ctx, void *user, void **state, sp_error *err) {
  calls.inits++;
  ck_assert_ptr_eq(user, &calls);
  ck_assert_uint_eq(ctx->nconfigs, 18);
  ck_assert_uint_eq(ctx->length, 36);
  *state = user;
  return SP_OK;
}

/* Alternates between the reference and 16cu/500/475 (three axes apart). */
static int alt_choose(void *state, const sp_governor_context *ctx,
                      const sp_governor_invocation *next, const sp_governor_outcome *history,
                      size_t n, size_t *config, sp_error *err) {
  ck_assert_uint_eq(next->position, n);
  ck_assert_ptr_nonnull(next->measured_time_ms);
  calls.last_history = n;
  *config = n % 2 ? 0 : ctx->reference;
  return SP_OK;
}

static void alt_observe(void *state, const sp_governor_context *ctx, const sp_governor_outcome *o) {
  calls.observes++;
}

static void alt_free(void *state) { calls.frees++; }

START_TEST(custom_policy) {
  char *path = phase_trace();
  sp_governor_trace *t = load(path, fix.fresh);
  sp_governor_params p;
  sp_governor_params_init(&p);
  p.switch_latency_us = 100;
  const sp_governor_policy alt = {"alternate", alt_init, alt_choose, alt_observe, alt_free, &calls};
  memset(&calls, 0, sizeof calls);
  sp_governor_result *r = NULL;
  sp_error err;
  ck_assert_int_eq(sp_governor_replay(t, &alt, &p, &r, &err), SP_OK);
  ck_assert_int_eq(calls.inits, 1);
  ck_assert_int_eq(calls.observes, 36);
  ck_assert_int_eq(calls.frees, 1);
  ck_assert_uint_eq(calls.last_history, 35);
  ck_assert_uint_eq(r->switches, 35 * 3);
  ck_assert_double_eq_tol(r->switch_time_ms, 35 * 3 * 0.1, 1e-9);
  ck_assert_str_eq(r->policy, "alternate");
  sp_governor_result_free(r);
  sp_governor_trace_free(t);
  free(path);
}
END_TEST

static int bad_choose(void *state, const sp_governor_context *ctx,
                      const sp_governor_invocation *next, const sp_governor_outcome *history,
                      size_t n, size_t *config, sp_error *err) {
  *config = n == 3 ? ctx->nconfigs : 0;
  return SP_OK;
}

static int failing_choose(void *state, const sp_governor_context *ctx,
                          const sp_governor_invocation *next, const sp_governor_outcome *history,
                          size_t n, size_t *config, sp_error *err) {
  *config = ctx->reference;
  return n == 2 ? SP_ENUMERIC : SP_OK;
}

static int failing_init(const sp_governor_context *ctx, void *user, void **state, sp_error *err) {
  return SP_ENOMEM;
}

START_TEST(failing_policies) {
  char *path = phase_trace();
  sp_governor_trace *t = load(path, fix.fresh);
  sp_governor_params p;
  sp_governor_params_init(&p);
  const sp_governor_policy bad = {"bad", NULL, bad_choose, NULL, NULL, NULL};
  replay_fail(t, &bad, &p, SP_EINVAL, "policy 'bad' failed at invocation 4");
  const sp_governor_policy failing = {"failing", NULL, failing_choose, NULL, NULL, NULL};
  replay_fail(t, &failing, &p, SP_ENUMERIC, "invocation 3");
  const sp_governor_policy no_start = {"nostart", failing_init, bad_choose, NULL, NULL, NULL};
  replay_fail(t, &no_start, &p, SP_ENOMEM, "could not start");
  sp_governor_trace_free(t);
  free(path);
}
END_TEST

START_TEST(builtin_table) {
  static const char *const names[] = {"reference", "best-edp", "model", "reactive", "oracle"};
  for (size_t i = 0; i < 5; i++) {
    ck_assert_str_eq(sp_governor_builtin_at(i)->name, names[i]);
    ck_assert_ptr_eq(sp_governor_builtin(names[i]), sp_governor_builtin_at(i));
  }
  ck_assert_ptr_null(sp_governor_builtin_at(5));
  ck_assert_ptr_null(sp_governor_builtin("ondemand"));
}
END_TEST

/* ---- output ------------------------------------------------------------------------------- */

START_TEST(writers) {
  char *path = phase_trace();
  sp_governor_trace *t = load(path, fix.fresh);
  sp_governor_params p;
  sp_governor_params_init(&p);
  p.slowdown = 1.2;
  sp_governor_result *r[2] = {replay(t, "model", &p), replay(t, "reference", &p)};
  const sp_governor_result *const *cr = (const sp_governor_result *const *)r;
  char *s = NULL;
  size_t n = 0;
  FILE *fp = open_memstream(&s, &n);
  ck_assert_int_eq(sp_governor_write_summary_csv(cr, 2, fp), SP_OK);
  ck_assert_int_eq(sp_governor_write_steps_csv(t, cr, 2, fp), SP_OK);
  ck_assert_int_eq(sp_governor_write_json(t, &p, cr, 2, fp), SP_OK);
  fclose(fp);
  ck_assert_ptr_eq(strstr(s, "policy,time_ms,energy_mj,edp_mj_ms,"), s);
  ck_assert_ptr_nonnull(strstr(s, "\nreference,"));
  ck_assert_ptr_nonnull(strstr(s, ",1,1\n")); /* the reference relative to itself */
  ck_assert_ptr_nonnull(strstr(s, "model,1,10,\"fft \"\"radix-4\"\"\","));
  ck_assert_ptr_nonnull(strstr(s, "\"slowdown\":1.2"));
  ck_assert_ptr_nonnull(strstr(s, "\"power_cap_w\":null"));
  free(s);
  char *dir = tu_path(fix.dir, "gov-report");
  sp_error err;
  ck_assert_int_eq(sp_governor_report_write(t, &p, cr, 2, dir, &err), SP_OK);
  char *index = tu_path(dir, "index.html");
  char *html = tu_read(index, &n);
  ck_assert_ptr_nonnull(strstr(html, "<svg"));
  ck_assert_int_eq(sp_governor_report_write(t, &p, cr, 0, dir, &err), SP_EINVAL);
  free(html);
  free(index);
  free(dir);
  sp_governor_result_free(r[0]);
  sp_governor_result_free(r[1]);
  sp_governor_trace_free(t);
  free(path);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("governor");
  TCase *tc = tcase_create("governor");
  tcase_add_unchecked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, trace_from_dataset);
  tcase_add_test(tc, trace_inline_and_sorted);
  tcase_add_test(tc, bad_traces);
  tcase_add_test(tc, reference_totals_are_the_truth);
  tcase_add_test(tc, model_beats_reference_under_slowdown);
  tcase_add_test(tc, power_cap_policies);
  tcase_add_test(tc, infeasible_constraints);
  tcase_add_test(tc, reactive_follows_load);
  tcase_add_test(tc, reactive_throttles_over_cap);
  tcase_add_test(tc, custom_policy);
  tcase_add_test(tc, failing_policies);
  tcase_add_test(tc, builtin_table);
  tcase_add_test(tc, writers);
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
