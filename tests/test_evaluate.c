/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_evaluate.c: every evaluation method pinned on a small generated data
 * set, so that moving code around the evaluation cannot change a result
 * unnoticed.
 *
 * The pinned values below were computed by the code as it stood when this
 * test was written (issue 9, before the source tree was split into module
 * folders); physet's, when that method was merged into the split tree.
 * They pin behaviour; they do not claim accuracy: a change that
 * makes a method better must update them deliberately.  The tolerance is at
 * rounding level, far below any real change of a method. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalepredict.h"
#include "testutil.h"

#define NKERNELS 12
#define PIN_TOL 1e-12

static char *scratch;
static sp_dataset *ds;
static sp_evaluation *ev;

/* 2 CU counts x 3 engine clocks x 3 memory clocks, base 32cu/1000/1375. */
static const int cus[] = {16, 32}, engines[] = {400, 700, 1000}, memories[] = {475, 925, 1375};
static const sp_config base_cfg = {32, 1000, 1375};

/* Kernel k mixes compute, bandwidth and CU-bound terms in proportions that
 * vary with k, plus an engine x memory interaction no centroid captures
 * exactly, so the methods disagree with each other and with the truth. */
static void kernel_terms(int k, double *a, double *b, double *c) {
  *a = 0.3 + 2.385 * ((k * 7) % NKERNELS) / (NKERNELS - 1.0);
  *b = 0.2 + 1.917 * ((k * 5) % NKERNELS) / (NKERNELS - 1.0);
  *c = 0.4 + 0.031 * k;
}

static double time_at(int k, int cu, int e, int m) {
  double a, b, c;
  kernel_terms(k, &a, &b, &c);
  return a * 1000.0 / e + b * 1000.0 / m + c * 32.0 / cu + 0.013 * a * b * 1e6 / (e * m);
}

static double power_at(int k, int cu, int e, int m) {
  double a, b, c;
  kernel_terms(k, &a, &b, &c);
  return 40.5 + 0.05 * e * a / (a + b) + 0.02 * m * b / (a + b) + 0.7 * cu * c;
}

static void append(char **buf, size_t *len, size_t *cap, const char *line) {
  const size_t n = strlen(line);
  if (*len + n + 1 > *cap) {
    *cap = 2 * (*len + n + 1);
    *buf = realloc(*buf, *cap);
    ck_assert_ptr_nonnull(*buf);
  }
  memcpy(*buf + *len, line, n + 1);
  *len += n;
}

static void write_fixture(char **runs, char **counters) {
  char *r = NULL, *c = NULL, line[256];
  size_t rl = 0, rc = 0, cl = 0, cc = 0;
  append(&r, &rl, &rc, "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n");
  append(&c, &cl, &cc, "kernel,cu,engine_mhz,memory_mhz,alu.busy,mem.busy,occupancy\n");
  for (int k = 0; k < NKERNELS; k++) {
    double a, b, cu_term;
    kernel_terms(k, &a, &b, &cu_term);
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 3; j++)
        for (int l = 0; l < 3; l++) {
          snprintf(line, sizeof line, "k%02d,%d,%d,%d,%.9g,%.9g\n", k, cus[i], engines[j],
                   memories[l], time_at(k, cus[i], engines[j], memories[l]),
                   power_at(k, cus[i], engines[j], memories[l]));
          append(&r, &rl, &rc, line);
        }
    snprintf(line, sizeof line, "k%02d,32,1000,1375,%.6g,%.6g,%.6g\n", k, 10 * a + sin(k),
             10 * b + 0.5 * cos(3.0 * k), 50 + 4.1 * cu_term * k);
    append(&c, &cl, &cc, line);
  }
  *runs = tu_write(scratch, "runs.csv", r);
  *counters = tu_write(scratch, "counters.csv", c);
  free(r);
  free(c);
}

/* One evaluation serves every test: 2 random splits, cluster counts 2 and
 * 3, every method, time and power. */
static void setup(void) {
  scratch = tu_mkdtemp();
  char *runs, *counters;
  write_fixture(&runs, &counters);
  sp_error err;
  ck_assert_int_eq(sp_dataset_load(runs, counters, &ds, &err), SP_OK);
  static const size_t clusters[] = {2, 3};
  sp_eval_params p;
  sp_eval_params_init(&p);
  p.holdout = 0.25;
  p.repeats = 2;
  p.seed = 11;
  p.bases = &base_cfg;
  p.nbases = 1;
  p.clusters = clusters;
  p.nclusters = 2;
  p.max_epochs = 200;
  ck_assert_int_eq(sp_evaluate(ds, &p, NULL, NULL, &ev, &err), SP_OK);
  free(runs);
  free(counters);
}

static void teardown(void) {
  sp_evaluation_free(ev);
  sp_dataset_free(ds);
  tu_rmtree(scratch);
  free(scratch);
}

/* Per method and quantity: records scored, the sum of their predictions
 * and their mean absolute percentage error. */
typedef struct pin {
  sp_method method;
  sp_quantity quantity;
  size_t n;
  double sum, mape;
} pin;

static const pin pins[] = {
    {SP_METHOD_WU2015, SP_TIME, 204, 1059.7931223136382, 5.6364758765682215},
    {SP_METHOD_WU2015, SP_POWER, 204, 15680.392308958777, 1.9799023563863014},
    {SP_METHOD_ORACLE, SP_TIME, 204, 1056.3775364719695, 5.4054261705745965},
    {SP_METHOD_ORACLE, SP_POWER, 204, 15719.455297903773, 1.9149816932668198},
    {SP_METHOD_NEAREST, SP_TIME, 102, 537.75041558189776, 5.8670079014794183},
    {SP_METHOD_NEAREST, SP_POWER, 102, 7850.8901183673261, 2.4552877809162954},
    {SP_METHOD_LINEAR, SP_TIME, 102, 535.94868646510452, 3.2052751195542721},
    {SP_METHOD_LINEAR, SP_POWER, 102, 7850.6455688066344, 1.2174048352523201},
    {SP_METHOD_CONSTANT, SP_TIME, 102, 315.11152366000033, 37.767899959445671},
    {SP_METHOD_CONSTANT, SP_POWER, 102, 9532.0741513999928, 22.669674152610746},
    {SP_METHOD_SOFT, SP_TIME, 204, 1058.3466541549014, 5.0274599296398073},
    {SP_METHOD_SOFT, SP_POWER, 204, 15686.028948210143, 1.80009743769959},
    {SP_METHOD_KNN, SP_TIME, 102, 535.21389071091721, 5.4443055694311075},
    {SP_METHOD_KNN, SP_POWER, 102, 7835.310597776639, 2.3115559052016978},
    {SP_METHOD_MIX, SP_TIME, 102, 537.13273422815882, 3.1418298373677707},
    {SP_METHOD_MIX, SP_POWER, 102, 7852.2439387580598, 1.2123675303597672},
    {SP_METHOD_STACK, SP_TIME, 102, 536.35685244359399, 3.2744999982347842},
    {SP_METHOD_STACK, SP_POWER, 102, 7851.314673064795, 1.2501209817500545},
    {SP_METHOD_PHYSET, SP_TIME, 102, 537.76896660772923, 3.1972467789776053},
    {SP_METHOD_PHYSET, SP_POWER, 102, 7857.2435126109049, 1.4751951223147992},
};

static void sums(sp_method m, sp_quantity q, size_t *n, double *sum) {
  const sp_eval_record *r = sp_evaluation_records(ev);
  *n = 0;
  *sum = 0;
  for (size_t i = 0; i < sp_evaluation_count(ev); i++)
    if (r[i].method == m && r[i].quantity == q) {
      ++*n;
      *sum += r[i].predicted;
    }
}

START_TEST(test_every_method_pinned) {
  unsigned seen = 0;
  for (size_t i = 0; i < sizeof pins / sizeof *pins; i++) {
    const pin *p = &pins[i];
    size_t n;
    double sum;
    sums(p->method, p->quantity, &n, &sum);
    sp_eval_filter f;
    sp_eval_filter_init(&f);
    f.method = p->method;
    f.quantity = p->quantity;
    sp_eval_stats st;
    ck_assert_int_eq(sp_evaluation_stats(ev, &f, &st), SP_OK);
    ck_assert_msg(n == p->n && st.n == p->n, "%s q%d: %zu records, pinned %zu",
                  sp_method_name(p->method), p->quantity, n, p->n);
    ck_assert_msg(tu_rel(sum, p->sum) < PIN_TOL, "%s q%d: sum %.17g, pinned %.17g",
                  sp_method_name(p->method), p->quantity, sum, p->sum);
    ck_assert_msg(tu_rel(st.mape, p->mape) < PIN_TOL, "%s q%d: mape %.17g, pinned %.17g",
                  sp_method_name(p->method), p->quantity, st.mape, p->mape);
    seen |= 1u << p->method;
  }
  /* Every method the default evaluation runs: all but static, which is
   * opt-in (it needs static counters; tests/cli/estimate.sh). */
  ck_assert_uint_eq(seen, ((1u << SP_METHOD_COUNT) - 1) & ~(1u << SP_METHOD_STATIC));
}
END_TEST

/* The records arrive in job order: their count and the splits run. */
START_TEST(test_shape_pinned) {
  ck_assert_uint_eq(sp_evaluation_splits(ev), 2);
  size_t total = 0;
  for (size_t i = 0; i < sizeof pins / sizeof *pins; i++) total += pins[i].n;
  ck_assert_uint_eq(sp_evaluation_count(ev), total);
  ck_assert_ptr_null(sp_evaluation_note(ev, SP_TIME));
  ck_assert_ptr_null(sp_evaluation_note(ev, SP_POWER));
}
END_TEST

/* physet's records carry a 90% interval around the prediction, the other
 * methods' none; the coverage statistic counts the measured values inside. */
START_TEST(test_intervals) {
  const sp_eval_record *r = sp_evaluation_records(ev);
  for (int q = 0; q < 2; q++) {
    size_t n = 0, in = 0, out = 0;
    for (size_t i = 0; i < sp_evaluation_count(ev); i++) {
      if (r[i].quantity != q) continue;
      if (r[i].method != SP_METHOD_PHYSET) {
        ck_assert(isnan(r[i].lo) && isnan(r[i].hi) && isnan(r[i].novelty) && !r[i].outside);
        continue;
      }
      ck_assert_msg(r[i].lo <= r[i].predicted && r[i].predicted <= r[i].hi,
                    "interval %g..%g around %g", r[i].lo, r[i].hi, r[i].predicted);
      ck_assert(r[i].novelty >= 0);
      n++;
      in += r[i].lo <= r[i].measured && r[i].measured <= r[i].hi;
      out += r[i].outside;
    }
    sp_eval_filter f;
    sp_eval_stats st;
    sp_eval_filter_init(&f);
    f.method = SP_METHOD_PHYSET;
    f.quantity = (size_t)q;
    ck_assert_int_eq(sp_evaluation_stats(ev, &f, &st), SP_OK);
    ck_assert_uint_gt(n, 0);
    ck_assert_uint_eq(st.n_interval, n);
    ck_assert_double_eq_tol(st.coverage, 100.0 * (double)in / (double)n, 1e-9);
    ck_assert_uint_eq(st.n_outside, out);
    f.method = SP_METHOD_WU2015;
    ck_assert_int_eq(sp_evaluation_stats(ev, &f, &st), SP_OK);
    ck_assert_uint_eq(st.n_interval, 0);
    ck_assert(isnan(st.coverage));
  }
}
END_TEST

/* Energy pairs each time record with the power record of the same point:
 * checked against a brute-force pairing. */
START_TEST(test_energy) {
  const sp_eval_record *r = sp_evaluation_records(ev);
  const size_t n = sp_evaluation_count(ev);
  for (int m = 0; m < SP_METHOD_COUNT; m++) {
    if (m == SP_METHOD_STATIC) continue; /* not run: opt-in */
    size_t pairs = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
      if (r[i].method != m || r[i].quantity != SP_TIME) continue;
      for (size_t j = 0; j < n; j++) {
        const sp_eval_record *a = &r[i], *b = &r[j];
        if (b->method != m || b->quantity != SP_POWER || a->split != b->split || a->k != b->k ||
            a->kernel != b->kernel || a->base != b->base ||
            !sp_config_equal(&a->target, &b->target))
          continue;
        double pe = a->predicted * b->predicted, me = a->measured * b->measured;
        sum += 100.0 * fabs(pe - me) / me;
        pairs++;
      }
    }
    sp_eval_filter f;
    sp_eval_stats st;
    sp_eval_filter_init(&f);
    f.method = (size_t)m;
    ck_assert_int_eq(sp_evaluation_energy_stats(ev, &f, &st), SP_OK);
    ck_assert_uint_eq(st.n, pairs);
    ck_assert_uint_gt(pairs, 0);
    ck_assert_double_eq_tol(st.mape, sum / (double)pairs, 1e-9 * (1 + st.mape));
  }
}
END_TEST

static Suite *evaluate_suite(void) {
  Suite *s = suite_create("evaluate");
  TCase *tc = tcase_create("pinned");
  tcase_set_timeout(tc, 120);
  tcase_add_unchecked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_every_method_pinned);
  tcase_add_test(tc, test_shape_pinned);
  tcase_add_test(tc, test_intervals);
  tcase_add_test(tc, test_energy);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(evaluate_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
