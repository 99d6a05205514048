/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_profile.c: src/profile, a vendor profiler's output read for a model
 * (docs/profile.md), linked against its layer alone (profile, model and
 * below).  The fixtures of tests/data/profile (tests/cli/profile.sh says
 * what they are): ncu's raw page read with the bundled H100 model, the
 * launches grouped into entries; the full metric set, whose missing
 * metrics are those its header lacks; rocprofv3's counter CSV read with a
 * model trained here on counters named as AMD's; the metric table. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/group.h"
#include "profile/metricmap.h"
#include "profile/profile.h"
#include "scalepredict.h"
#include "testutil.h"

static char *scratch;
static sp_model *h100;

static char *fixture(const char *name) {
  const char *data = getenv("SP_TEST_DATA");
  ck_assert_msg(data != NULL, "SP_TEST_DATA is not set");
  char *dir = tu_path(data, "profile");
  char *path = tu_path(dir, name);
  free(dir);
  return path;
}

static void setup(void) {
  scratch = tu_mkdtemp();
  const char *top = getenv("SP_TOP_SRCDIR");
  char *dir = tu_path(top ? top : "..", "models/h100-sm");
  sp_error err;
  ck_assert_msg(sp_model_load(dir, &h100, &err) == SP_OK, "%s", err.message);
  free(dir);
}

static void teardown(void) {
  sp_model_free(h100);
  tu_rmtree(scratch);
  free(scratch);
}

static sp_profile *load(const char *name, const sp_model *m) {
  char *path = fixture(name);
  sp_profile *p = NULL;
  sp_error err;
  ck_assert_msg(sp_profile_load(path, m, &p, &err) == SP_OK, "%s", err.message);
  free(path);
  return p;
}

/* The entry whose name starts with prefix. */
static const sp__entry *entry(const sp_profile *p, const char *prefix) {
  for (size_t i = 0; i < p->nentries; i++)
    if (!strncmp(p->entries[i].name, prefix, strlen(prefix))) return &p->entries[i];
  ck_abort_msg("no entry %s", prefix);
  return NULL;
}

/* ---- ncu ------------------------------------------------------------------------ */

START_TEST(test_ncu_launches_and_entries) {
  sp_profile *p = load("h100-example-ncu.csv", h100);
  ck_assert_int_eq(sp_profile_vendor(p), SP_VENDOR_NVIDIA);
  ck_assert_uint_eq(sp_profile_launch_count(p), 24);
  ck_assert_uint_eq(sp_profile_entry_count(p), 6);
  ck_assert_str_eq(sp_profile_device(p), "NVIDIA H100 80GB HBM3");
  ck_assert_uint_eq(sp_profile_missing_count(p), 0);
  /* Every launch is in one entry; an entry's median lies within its
   * launches' times and its representative launch is one of them. */
  size_t total = 0;
  for (size_t i = 0; i < p->nentries; i++) {
    const sp__entry *e = &p->entries[i];
    double lo = INFINITY, hi = -INFINITY;
    size_t n = 0;
    for (size_t l = 0; l < p->nlaunches; l++) {
      const sp__launch *x = &p->launches[l];
      char name[1024];
      snprintf(name, sizeof name, "%s [%s]", x->kernel, x->shape);
      if (strcmp(e->name, x->kernel) && strcmp(e->name, name)) continue;
      double ms = sp__launch_ms(p, x);
      lo = fmin(lo, ms);
      hi = fmax(hi, ms);
      n++;
    }
    ck_assert_msg(n == e->count, "%s: %zu launches, count %zu", e->name, n, e->count);
    ck_assert(e->median_ms >= lo && e->median_ms <= hi);
    ck_assert_uint_lt(e->rep, p->nlaunches);
    total += e->count;
  }
  ck_assert_uint_eq(total, 24);
  ck_assert_uint_eq(entry(p, "stencil(")->count, 6);
  sp_profile_free(p);
}
END_TEST

/* The full metric set lacks some wanted metrics: exactly those its header
 * row does not hold and that have no alternative there (32 x sectors for
 * bytes), and the device's SM count and clocks are never missing. */
START_TEST(test_ncu_full_set_missing) {
  sp_profile *p = load("h100-example-full.csv", h100);
  ck_assert_uint_eq(sp_profile_missing_count(p), 9);
  char *path = fixture("h100-example-full.csv");
  size_t size;
  char *text = tu_read(path, &size);
  for (size_t i = 0; i < sp_profile_missing_count(p); i++) {
    char quoted[256];
    snprintf(quoted, sizeof quoted, "\"%s\"", sp_profile_missing(p, i));
    ck_assert_msg(!strstr(text, quoted), "%s is missing but in the header", quoted);
  }
  size_t alternatives = 0;
  for (size_t i = 0; i < p->nmetrics; i++) alternatives += p->source[i] != NULL;
  ck_assert_uint_eq(alternatives, 3);
  free(text);
  free(path);
  sp_profile_free(p);
}
END_TEST

/* Neither format: the error names the file. */
START_TEST(test_not_a_profile) {
  char *path = tu_write(scratch, "runs.csv", "kernel,cu,engine_mhz\nk,1,2\n");
  sp_profile *p = (sp_profile *)1;
  sp_error err;
  ck_assert_int_eq(sp_profile_load(path, h100, &p, &err), SP_EPARSE);
  ck_assert_ptr_null(p);
  ck_assert_str_eq(err.file, path);
  ck_assert(strstr(err.message, "neither an Nsight Compute raw CSV") != NULL);
  free(path);
}
END_TEST

/* ---- rocprofv3 -------------------------------------------------------------------- */

/* tests/data/train with its three counters renamed to rocprofv3's. */
static sp_model *amd_model(void) {
  const char *data = getenv("SP_TEST_DATA");
  char *train = tu_path(data, "train");
  char *runs = tu_path(train, "runs.csv"), *counters = tu_path(train, "counters.csv");
  size_t size;
  char *text = tu_read(counters, &size);
  const char *from[] = {"sq.valu_busy", "ta.mem_busy", "tcp.hit.rate"};
  const char *to[] = {"VALUBusy", "MemUnitBusy", "CacheHit"};
  char *renamed = malloc(size + 64), *o = renamed;
  const char *header_end = strchr(text, '\n');
  for (const char *s = text; *s;) {
    size_t k = 0;
    while (s < header_end && k < 3 && strncmp(s, from[k], strlen(from[k]))) k++;
    if (s < header_end && k < 3) {
      o += sprintf(o, "%s", to[k]);
      s += strlen(from[k]);
    } else {
      *o++ = *s++;
    }
  }
  *o = '\0';
  char *amd = tu_write(scratch, "amd-counters.csv", renamed);
  sp_dataset *ds;
  sp_error err;
  ck_assert_msg(sp_dataset_load(runs, amd, &ds, &err) == SP_OK, "%s", err.message);
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = (sp_config){32, 1000, 1375};
  tp.clusters = 3;
  tp.methods = 0;
  sp_model *m;
  ck_assert_msg(sp_model_train(ds, &tp, NULL, NULL, &m, &err) == SP_OK, "%s", err.message);
  sp_dataset_free(ds);
  free(amd);
  free(renamed);
  free(text);
  free(runs);
  free(counters);
  free(train);
  return m;
}

START_TEST(test_rocprof) {
  sp_model *m = amd_model();
  sp_profile *p = load("rocprofv3-counters.csv", m);
  ck_assert_int_eq(sp_profile_vendor(p), SP_VENDOR_AMD);
  ck_assert_uint_eq(sp_profile_launch_count(p), 5);
  ck_assert_uint_eq(sp_profile_entry_count(p), 3);
  ck_assert_uint_eq(sp_profile_missing_count(p), 0);
  ck_assert_uint_eq(entry(p, "kernel \"q\", v2")->count, 1);
  /* One row per dispatch and counter, pivoted: each launch has a value of
   * every counter the model needs. */
  for (size_t l = 0; l < p->nlaunches; l++)
    for (size_t c = 0; c < p->ncounters; c++) ck_assert(!isnan(p->launches[l].v[p->at[c][0]]));
  sp_profile_free(p);
  sp_model_free(m);
}
END_TEST

/* ---- the metric table ------------------------------------------------------------- */

START_TEST(test_metric_table) {
  ck_assert_str_eq(sp_vendor_name(SP_VENDOR_NVIDIA), "nvidia");
  ck_assert_str_eq(sp_vendor_name(SP_VENDOR_AMD), "amd");
  ck_assert_ptr_null(sp_vendor_name(SP_VENDOR_COUNT));
  /* Every counter of the H100 model is computed from NVIDIA metrics. */
  for (size_t c = 0; c < sp_model_counter_count(h100); c++) {
    const char *const *metrics;
    const char *name = sp_model_counter_name(h100, c);
    ck_assert_msg(sp_counter_metrics(SP_VENDOR_NVIDIA, name, &metrics) > 0, "%s", name);
    ck_assert_ptr_nonnull(sp__metricmap_find(SP_VENDOR_NVIDIA, name));
  }
  double scale = 0;
  ck_assert_str_eq(
      sp_metric_alternative(SP_VENDOR_NVIDIA, "lts__t_bytes.sum.per_second", 0, &scale),
      "lts__t_sectors.sum.per_second");
  ck_assert_double_eq(scale, 32.0);
  ck_assert_ptr_null(sp_metric_alternative(SP_VENDOR_NVIDIA, "gpu__time_duration.sum", 0, &scale));
  /* The profiler's metric list names every metric once. */
  char *list;
  sp_error err;
  ck_assert_int_eq(sp_profile_metric_list(h100, SP_VENDOR_NVIDIA, &list, &err), SP_OK);
  ck_assert(strstr(list, "gpu__time_duration.sum") != NULL);
  for (char *a = list; a; a = strchr(a, ',') ? strchr(a, ',') + 1 : NULL) {
    size_t n = strcspn(a, ",");
    for (char *b = strchr(a, ','); b; b = strchr(b + 1, ','))
      ck_assert_msg(strncmp(a, b + 1, n) || (b[1 + n] != ',' && b[1 + n]), "twice: %.*s", (int)n,
                    a);
  }
  free(list);
}
END_TEST

int main(void) {
  Suite *s = suite_create("profile");
  TCase *tc = tcase_create("profile");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_ncu_launches_and_entries);
  tcase_add_test(tc, test_ncu_full_set_missing);
  tcase_add_test(tc, test_not_a_profile);
  tcase_add_test(tc, test_rocprof);
  tcase_add_test(tc, test_metric_table);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
