/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_dataset.c: loading runs.csv and counters.csv, and every way in which
 * they can be malformed. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scalepredict.h"
#include "testutil.h"

#define NOT_FOUND ((size_t)-1)

/* ---- valid inputs ------------------------------------------------------- */

/* A byte-order mark, CRLF line ends, quoted names holding commas and quotes,
 * optional columns after the required ones, an empty power_w, rows out of
 * order and a blank line. */
static const char valid_runs[] =
    "\xEF\xBB\xBF"
    "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w,repeats,note\r\n"
    "\"scan, \"\"fast\"\" variant\",16,700,925,2.385,131.75,3,first\r\n"
    "matmul,8,300,475,17.125,88.5,5,\"quoted, note\"\r\n"
    "\"scan, \"\"fast\"\" variant\",8,300,475,9.0625,,3,no power\r\n"
    "\r\n"
    "matmul,16,700,925,4.3125,140.25,5,x\r\n"
    "\"scan, \"\"fast\"\" variant\",8,700,925,4.75,97.5,3,y\r\n"
    "matmul,8,700,925,8.1875,101.0,5,z\r\n";

static const char valid_counters[] =
    "kernel,cu,engine_mhz,memory_mhz,sq.waves,tex.cache.hit_pct,mem.bytes\n"
    "matmul,8,300,475,1024,61.25,3.5e7\n"
    "\"scan, \"\"fast\"\" variant\",8,300,475,256,12.5,1.25e8\n"
    "matmul,16,700,925,1024,63.5,3.5e7\n";

static sp_dataset *load_ok(const char *dir, const char *runs, const char *counters) {
  char *r = tu_write(dir, "runs.csv", runs);
  char *c = counters ? tu_write(dir, "counters.csv", counters) : NULL;
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_dataset_load(r, c, &ds, &err);
  char msg[1024];
  sp_error_format(&err, msg, sizeof msg);
  ck_assert_msg(st == SP_OK, "load failed: %s", msg);
  ck_assert_ptr_nonnull(ds);
  free(r);
  free(c);
  return ds;
}

START_TEST(test_load_valid) {
  char *dir = tu_case_dir("valid", 0);
  sp_dataset *ds = load_ok(dir, valid_runs, valid_counters);
  const char *scan = "scan, \"fast\" variant";
  ck_assert_uint_eq(sp_dataset_kernel_count(ds), 2);
  ck_assert_str_eq(sp_dataset_kernel_name(ds, 0), scan);
  ck_assert_str_eq(sp_dataset_kernel_name(ds, 1), "matmul");
  ck_assert_ptr_null(sp_dataset_kernel_name(ds, 2));
  ck_assert_uint_eq(sp_dataset_kernel_index(ds, scan), 0);
  ck_assert_uint_eq(sp_dataset_kernel_index(ds, "matmul"), 1);
  ck_assert_uint_eq(sp_dataset_kernel_index(ds, "matmul "), NOT_FOUND);
  ck_assert_uint_eq(sp_dataset_kernel_index(ds, "scan"), NOT_FOUND);

  ck_assert_uint_eq(sp_dataset_counter_count(ds), 3);
  ck_assert_str_eq(sp_dataset_counter_name(ds, 0), "sq.waves");
  ck_assert_str_eq(sp_dataset_counter_name(ds, 1), "tex.cache.hit_pct");
  ck_assert_str_eq(sp_dataset_counter_name(ds, 2), "mem.bytes");
  ck_assert_ptr_null(sp_dataset_counter_name(ds, 3));

  char *r = tu_path(dir, "runs.csv"), *c = tu_path(dir, "counters.csv");
  ck_assert_str_eq(sp_dataset_runs_path(ds), r);
  ck_assert_str_eq(sp_dataset_counters_path(ds), c);
  free(r);
  free(c);

  double v;
  const sp_config a = {16, 700, 925}, b = {8, 300, 475}, off = {8, 700, 475};
  ck_assert_int_eq(sp_dataset_time(ds, 0, &a, &v), SP_OK);
  ck_assert_double_eq(v, 2.385);
  ck_assert_int_eq(sp_dataset_power(ds, 0, &a, &v), SP_OK);
  ck_assert_double_eq(v, 131.75);
  ck_assert_int_eq(sp_dataset_time(ds, 0, &b, &v), SP_OK);
  ck_assert_double_eq(v, 9.0625);
  v = -1;
  ck_assert_int_eq(sp_dataset_power(ds, 0, &b, &v), SP_ENOPOWER);
  ck_assert_double_eq(v, -1);
  ck_assert_int_eq(sp_dataset_time(ds, 1, &b, &v), SP_OK);
  ck_assert_double_eq(v, 17.125);
  ck_assert_int_eq(sp_dataset_time(ds, 1, &off, &v), SP_ENOTFOUND);
  ck_assert_int_eq(sp_dataset_power(ds, 1, &off, &v), SP_ENOTFOUND);

  const double *row;
  ck_assert_int_eq(sp_dataset_counters(ds, 0, &b, &row), SP_OK);
  ck_assert_double_eq(row[0], 256);
  ck_assert_double_eq(row[1], 12.5);
  ck_assert_double_eq(row[2], 1.25e8);
  ck_assert_int_eq(sp_dataset_counters(ds, 1, &a, &row), SP_OK);
  ck_assert_double_eq(row[1], 63.5);
  ck_assert_int_eq(sp_dataset_counters(ds, 0, &a, &row), SP_ENOTFOUND);
  sp_dataset_free(ds);
  free(dir);
}
END_TEST

/* skip_kernels_without_counters: a kernel without counter rows (here the
 * first of runs.csv, so every index moves) is left out with its runs, and
 * every lookup of the others still finds their rows. */
START_TEST(test_skip_kernels_without_counters) {
  char *dir = tu_case_dir("uncounted", 0);
  char *r = tu_write(dir, "runs.csv",
                     "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
                     "lone,8,300,475,1.5,50\n"
                     "matmul,8,300,475,17.125,88.5\n"
                     "lone,16,700,925,0.75,60\n"
                     "scan,8,300,475,9.0625,70\n"
                     "matmul,16,700,925,4.3125,140.25\n"
                     "scan,16,700,925,2.385,131.75\n");
  char *c = tu_write(dir, "counters.csv",
                     "kernel,cu,engine_mhz,memory_mhz,a,b\n"
                     "scan,8,300,475,256,12.5\n"
                     "matmul,8,300,475,1024,61.25\n");
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load(r, c, &ds, &err), SP_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(err.message, "'lone'"));
  ck_assert_ptr_nonnull(strstr(err.message, "--skip-kernels-without-counters"));
  sp_dataset_options o;
  sp_dataset_options_init(&o);
  o.skip_kernels_without_counters = 1;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load_with(r, c, &o, &ds, &err), SP_OK);
  ck_assert_uint_eq(sp_dataset_kernel_count(ds), 2);
  ck_assert_str_eq(sp_dataset_kernel_name(ds, 0), "matmul");
  ck_assert_str_eq(sp_dataset_kernel_name(ds, 1), "scan");
  ck_assert_uint_eq(sp_dataset_kernel_index(ds, "lone"), NOT_FOUND);
  ck_assert_uint_eq(sp_dataset_kernel_index(ds, "scan"), 1);
  const sp_config lo = {8, 300, 475}, hi = {16, 700, 925};
  double v;
  ck_assert_int_eq(sp_dataset_time(ds, 0, &hi, &v), SP_OK);
  ck_assert_double_eq(v, 4.3125);
  ck_assert_int_eq(sp_dataset_time(ds, 1, &lo, &v), SP_OK);
  ck_assert_double_eq(v, 9.0625);
  const double *row;
  ck_assert_int_eq(sp_dataset_counters(ds, 1, &lo, &row), SP_OK);
  ck_assert_double_eq(row[0], 256);
  ck_assert_int_eq(sp_dataset_counters(ds, 0, &lo, &row), SP_OK);
  ck_assert_double_eq(row[0], 1024);
  ck_assert_uint_eq(sp_dataset_note_count(ds), 1);
  ck_assert_ptr_nonnull(strstr(sp_dataset_note(ds, 0), "left out 1 kernel without"));
  ck_assert_ptr_nonnull(strstr(sp_dataset_note(ds, 0), "'lone'"));
  const int *axis;
  ck_assert_uint_eq(sp_dataset_axis(ds, 0, &axis), 2);
  sp_dataset_free(ds);
  free(r);
  free(c);
  free(dir);
}
END_TEST

START_TEST(test_axes_sorted_unique) {
  char *dir = tu_case_dir("axes", 0);
  sp_dataset *ds = load_ok(dir, valid_runs, valid_counters);
  const int *v;
  ck_assert_uint_eq(sp_dataset_axis(ds, SP_AXIS_CU, &v), 2);
  ck_assert_int_eq(v[0], 8);
  ck_assert_int_eq(v[1], 16);
  ck_assert_uint_eq(sp_dataset_axis(ds, SP_AXIS_ENGINE, &v), 2);
  ck_assert_int_eq(v[0], 300);
  ck_assert_int_eq(v[1], 700);
  ck_assert_uint_eq(sp_dataset_axis(ds, SP_AXIS_MEMORY, &v), 2);
  ck_assert_int_eq(v[0], 475);
  ck_assert_int_eq(v[1], 925);
  ck_assert_uint_eq(sp_dataset_axis(ds, 3, &v), 0);
  ck_assert_ptr_null(v);
  ck_assert_uint_eq(sp_dataset_axis(ds, -1, &v), 0);
  sp_dataset_free(ds);
  free(dir);
}
END_TEST

/* Many kernels and configurations: exercises the hash maps' growth. */
START_TEST(test_many_rows) {
  char *dir = tu_case_dir("many", 0);
  size_t cap = 1 << 20, n = 0;
  char *runs = malloc(cap), *ctr = malloc(cap);
  ck_assert_ptr_nonnull(runs);
  ck_assert_ptr_nonnull(ctr);
  n += (size_t)snprintf(runs + n, cap - n, "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n");
  size_t m = (size_t)snprintf(ctr, cap, "kernel,cu,engine_mhz,memory_mhz,a.b\n");
  for (int k = 0; k < 150; k++) {
    for (int e = 0; e < 7; e++)
      for (int mem = 0; mem < 3; mem++)
        n += (size_t)snprintf(runs + n, cap - n, "k%03d,4,%d,%d,%.4f,%.3f\n", k, 300 + 100 * e,
                              475 + 450 * mem, 1.5 + k * 0.37 + e * 0.011 + mem * 0.0013, 50.5 + k);
    m += (size_t)snprintf(ctr + m, cap - m, "k%03d,4,300,475,%d.25\n", k, k * 3);
  }
  sp_dataset *ds = load_ok(dir, runs, ctr);
  ck_assert_uint_eq(sp_dataset_kernel_count(ds), 150);
  const int *v;
  ck_assert_uint_eq(sp_dataset_axis(ds, SP_AXIS_ENGINE, &v), 7);
  ck_assert_uint_eq(sp_dataset_axis(ds, SP_AXIS_CU, &v), 1);
  for (int k = 0; k < 150; k++) {
    char name[16];
    snprintf(name, sizeof name, "k%03d", k);
    size_t idx = sp_dataset_kernel_index(ds, name);
    ck_assert_uint_eq(idx, (size_t)k);
    const sp_config c = {4, 900, 925};
    double t;
    ck_assert_int_eq(sp_dataset_time(ds, idx, &c, &t), SP_OK);
    ck_assert(fabs(t - (1.5 + k * 0.37 + 6 * 0.011 + 1 * 0.0013)) < 1e-9);
    const double *row;
    const sp_config base = {4, 300, 475};
    ck_assert_int_eq(sp_dataset_counters(ds, idx, &base, &row), SP_OK);
    ck_assert_double_eq(row[0], k * 3 + 0.25);
  }
  sp_dataset_free(ds);
  free(runs);
  free(ctr);
  free(dir);
}
END_TEST

START_TEST(test_runs_only_and_column_order) {
  char *dir = tu_case_dir("order", 0);
  /* No power_w column at all, and the columns in another order. */
  sp_dataset *ds = load_ok(dir,
                           "time_ms,memory_mhz,kernel,engine_mhz,cu\n"
                           "3.625,1375,bfs,1000,32\n"
                           "5.8125, 475,bfs,1000 ,32\n",
                           NULL);
  ck_assert_uint_eq(sp_dataset_kernel_count(ds), 1);
  ck_assert_uint_eq(sp_dataset_counter_count(ds), 0);
  ck_assert_ptr_null(sp_dataset_counters_path(ds));
  const sp_config c = {32, 1000, 475};
  double v;
  const double *row;
  ck_assert_int_eq(sp_dataset_time(ds, 0, &c, &v), SP_OK);
  ck_assert_double_eq(v, 5.8125);
  ck_assert_int_eq(sp_dataset_power(ds, 0, &c, &v), SP_ENOPOWER);
  ck_assert_int_eq(sp_dataset_counters(ds, 0, &c, &row), SP_ENOTFOUND);
  sp_dataset_free(ds);
  free(dir);
}
END_TEST

START_TEST(test_free_null) { sp_dataset_free(NULL); }
END_TEST

/* ---- malformed inputs ----------------------------------------------------- */

#define RUNS_HDR "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
#define CTR_HDR "kernel,cu,engine_mhz,memory_mhz,valu.busy,mem.fetch\n"
#define GOOD_RUNS RUNS_HDR "bfs,8,300,475,2.385,91.5\nbfs,8,700,475,1.125,110.25\n"
#define GOOD_CTR CTR_HDR "bfs,8,300,475,0.375,1.5e6\n"

typedef struct bad_case {
  const char *what;
  const char *runs;
  const char *counters; /* NULL: load runs.csv alone */
  int status;
  int in_counters; /* the error names counters.csv, not runs.csv */
  long line, column;
  const char *field;   /* "" = no field */
  const char *message; /* a substring the message must contain */
} bad_case;

static const bad_case bad[] = {
    {"ragged row", RUNS_HDR "bfs,8,300,475,2.385,91.5\nbfs,8,700,475,1.125\n", NULL, SP_EPARSE, 0,
     3, 0, "", "5 fields but the header has 6"},
    {"long row", RUNS_HDR "bfs,8,300,475,2.385,91.5,7\n", NULL, SP_EPARSE, 0, 2, 0, "", "7 fields"},
    {"non-numeric time", RUNS_HDR "bfs,8,300,475,fast,91.5\n", NULL, SP_EPARSE, 0, 2, 5, "time_ms",
     "'fast'"},
    {"trailing text", RUNS_HDR "bfs,8,300,475,2.385ms,91.5\n", NULL, SP_EPARSE, 0, 2, 5, "time_ms",
     "'2.385ms'"},
    {"empty time", RUNS_HDR "bfs,8,300,475,,91.5\n", NULL, SP_EPARSE, 0, 2, 5, "time_ms",
     "positive finite"},
    {"nan time", RUNS_HDR "bfs,8,300,475,2.5,90\nbfs,8,700,475,nan,91.5\n", NULL, SP_EPARSE, 0, 3,
     5, "time_ms", "'nan'"},
    {"inf time", RUNS_HDR "bfs,8,300,475,inf,91.5\n", NULL, SP_EPARSE, 0, 2, 5, "time_ms", "'inf'"},
    {"overflowing time", RUNS_HDR "bfs,8,300,475,1e999,91.5\n", NULL, SP_EPARSE, 0, 2, 5, "time_ms",
     "1e999"},
    {"zero time", RUNS_HDR "bfs,8,300,475,0.0,91.5\n", NULL, SP_EPARSE, 0, 2, 5, "time_ms",
     "'0.0'"},
    {"negative time", RUNS_HDR "bfs,8,300,475,-2.385,91.5\n", NULL, SP_EPARSE, 0, 2, 5, "time_ms",
     "'-2.385'"},
    {"negative power", RUNS_HDR "bfs,8,300,475,2.385,-91.5\n", NULL, SP_EPARSE, 0, 2, 6, "power_w",
     "'-91.5'"},
    {"infinite power", RUNS_HDR "bfs,8,300,475,2.385,-inf\n", NULL, SP_EPARSE, 0, 2, 6, "power_w",
     "'-inf'"},
    {"nan power", RUNS_HDR "bfs,8,300,475,2.385,NaN\n", NULL, SP_EPARSE, 0, 2, 6, "power_w",
     "'NaN'"},
    {"non-integer cu", RUNS_HDR "bfs,8.5,300,475,2.385,91.5\n", NULL, SP_EPARSE, 0, 2, 2, "cu",
     "'8.5' is not a positive integer"},
    {"zero cu", RUNS_HDR "bfs,0,300,475,2.385,91.5\n", NULL, SP_EPARSE, 0, 2, 2, "cu", "'0'"},
    {"negative engine", RUNS_HDR "bfs,8,-300,475,2.385,91.5\n", NULL, SP_EPARSE, 0, 2, 3,
     "engine_mhz", "'-300'"},
    {"text memory", RUNS_HDR "bfs,8,300,fast,2.385,91.5\n", NULL, SP_EPARSE, 0, 2, 4, "memory_mhz",
     "'fast'"},
    {"huge memory", RUNS_HDR "bfs,8,300,99999999999,2.385,91.5\n", NULL, SP_EPARSE, 0, 2, 4,
     "memory_mhz", "99999999999"},
    {"empty kernel name", RUNS_HDR ",8,300,475,2.385,91.5\n", NULL, SP_EPARSE, 0, 2, 1, "kernel",
     "empty kernel name"},
    {"duplicate row",
     RUNS_HDR "bfs,8,300,475,2.385,91.5\nbfs,8,700,475,1.125,110\nbfs,8,300,475,2.4,91\n", NULL,
     SP_EPARSE, 0, 4, 0, "", "already on line 2"},
    {"missing column", "kernel,cu,engine_mhz,time_ms,power_w\nbfs,8,300,2.385,91.5\n", NULL,
     SP_EPARSE, 0, 1, 0, "memory_mhz", "required column missing"},
    {"missing time column", "kernel,cu,engine_mhz,memory_mhz,power_w\nbfs,8,300,475,9\n", NULL,
     SP_EPARSE, 0, 1, 0, "time_ms", "required column missing"},
    {"column twice", "kernel,cu,engine_mhz,cu,memory_mhz,time_ms\n", NULL, SP_EPARSE, 0, 1, 4, "cu",
     "twice"},
    {"empty runs file", "", NULL, SP_EPARSE, 0, 1, 0, "", "empty file"},
    {"blank runs file", "\n\n\r\n", NULL, SP_EPARSE, 0, 1, 0, "", "empty file"},
    {"header only", RUNS_HDR, NULL, SP_EPARSE, 0, 2, 0, "", "no data rows"},
    {"blank lines counted", RUNS_HDR "\n\nbfs,8,300,475,2.385\n", NULL, SP_EPARSE, 0, 4, 0, "",
     "5 fields"},
    {"kernel only in counters", GOOD_RUNS, GOOD_CTR "sgemm,8,300,475,0.5,2e6\n", SP_ENOTFOUND, 1, 3,
     1, "kernel", "'sgemm' is not in"},
    {"kernel without counters", GOOD_RUNS "spmv,8,300,475,3.5,80\n", GOOD_CTR, SP_ENOTFOUND, 1, 0,
     0, "kernel", "'spmv'"},
    {"duplicate counter name", GOOD_RUNS,
     "kernel,cu,engine_mhz,memory_mhz,valu.busy,mem.fetch,valu.busy\n", SP_EPARSE, 1, 1, 7,
     "valu.busy", "twice"},
    {"empty counter name", GOOD_RUNS, "kernel,cu,engine_mhz,memory_mhz,valu.busy,\n", SP_EPARSE, 1,
     1, 6, "", "empty counter name"},
    {"counters missing key column", GOOD_RUNS, "kernel,cu,memory_mhz,valu.busy\nbfs,8,475,0.5\n",
     SP_EPARSE, 1, 1, 0, "engine_mhz", "required column missing"},
    {"non-numeric counter", GOOD_RUNS, CTR_HDR "bfs,8,300,475,0.375,lots\n", SP_EPARSE, 1, 2, 6,
     "mem.fetch", "'lots'"},
    {"nan counter", GOOD_RUNS, CTR_HDR "bfs,8,300,475,nan,1.5e6\n", SP_EPARSE, 1, 2, 5, "valu.busy",
     "'nan'"},
    {"ragged counter row", GOOD_RUNS, CTR_HDR "bfs,8,300,475,0.375\n", SP_EPARSE, 1, 2, 0, "",
     "5 fields but the header has 6"},
    {"duplicate counter row", GOOD_RUNS,
     CTR_HDR "bfs,8,300,475,0.375,1.5e6\nbfs,8,700,475,0.5,1e6\nbfs,8,300,475,0.4,1e6\n", SP_EPARSE,
     1, 4, 0, "", "already on line 2"},
    {"non-integer counter cu", GOOD_RUNS, CTR_HDR "bfs,8.25,300,475,0.375,1.5e6\n", SP_EPARSE, 1, 2,
     2, "cu", "'8.25'"},
    /* Outside the bounds of data/bounds.h (issue 26, item 6). */
    {"time of 1e308 ms", RUNS_HDR "bfs,8,300,475,1e308,91.5\n", NULL, SP_EPARSE, 0, 2, 5, "time_ms",
     "'1e308' is outside the accepted range, 1e-06 to 1e+07 ms"},
    {"time below 1 ns", RUNS_HDR "bfs,8,300,475,2.385,91.5\nbfs,8,700,475,9.5e-7,91.5\n", NULL,
     SP_EPARSE, 0, 3, 5, "time_ms", "'9.5e-7' is outside"},
    {"subnormal time", RUNS_HDR "bfs,8,300,475,1e-310,91.5\n", NULL, SP_EPARSE, 0, 2, 5, "time_ms",
     "'1e-310' is outside"},
    {"power of 100.5 kW", RUNS_HDR "bfs,8,300,475,2.385,100500\n", NULL, SP_EPARSE, 0, 2, 6,
     "power_w", "0.001 to 100000 W"},
    {"power below 1 mW", RUNS_HDR "bfs,8,300,475,2.385,0.000999\n", NULL, SP_EPARSE, 0, 2, 6,
     "power_w", "'0.000999' is outside"},
    {"cu of 100001", RUNS_HDR "bfs,100001,300,475,2.385,91.5\n", NULL, SP_EPARSE, 0, 2, 2, "cu",
     "'100001' is outside the accepted range, 1 to 100000"},
    {"engine clock of 100.001 GHz", RUNS_HDR "bfs,8,100001,475,2.385,91.5\n", NULL, SP_EPARSE, 0, 2,
     3, "engine_mhz", "1 to 100000 MHz"},
    {"memory clock of 2e9 MHz", RUNS_HDR "bfs,8,300,2000000000,2.385,91.5\n", NULL, SP_EPARSE, 0, 2,
     4, "memory_mhz", "'2000000000' is outside"},
    {"counter of 1.5e20", GOOD_RUNS, CTR_HDR "bfs,8,300,475,0.375,1.5e20\n", SP_EPARSE, 1, 2, 6,
     "mem.fetch", "'1.5e20' is outside the accepted range, -1e+20 to 1e+20"},
    {"counter of -1e300", GOOD_RUNS, CTR_HDR "bfs,8,300,475,-1e300,1.5e6\n", SP_EPARSE, 1, 2, 5,
     "valu.busy", "'-1e300' is outside"},
    {"empty counters file", GOOD_RUNS, "", SP_EPARSE, 1, 1, 0, "", "empty file"},
    {"header-only counters", GOOD_RUNS, CTR_HDR, SP_ENOTFOUND, 1, 0, 0, "kernel",
     "no counter rows"},
};

START_TEST(test_bad_input) {
  const bad_case *b = &bad[_i];
  char *dir = tu_case_dir("bad", _i);
  char *runs = tu_write(dir, "runs.csv", b->runs);
  char *ctr = b->counters ? tu_write(dir, "counters.csv", b->counters) : NULL;
  sp_dataset *ds = (sp_dataset *)&ds;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_dataset_load(runs, ctr, &ds, &err);
  char msg[1024];
  sp_error_format(&err, msg, sizeof msg);
  ck_assert_msg(st == b->status, "%s: status %d (%s), want %d", b->what, st, msg, b->status);
  ck_assert_ptr_null(ds);
  ck_assert_int_eq(err.status, b->status);
  ck_assert_str_eq(err.file, b->in_counters ? ctr : runs);
  ck_assert_msg(err.line == b->line, "%s: line %ld, want %ld (%s)", b->what, err.line, b->line,
                msg);
  ck_assert_msg(err.column == b->column, "%s: column %ld, want %ld (%s)", b->what, err.column,
                b->column, msg);
  ck_assert_str_eq(err.field, b->field);
  ck_assert_msg(strstr(err.message, b->message) != NULL, "%s: message '%s' lacks '%s'", b->what,
                err.message, b->message);
  /* The one-line form names the file first. */
  ck_assert(!strncmp(msg, err.file, strlen(err.file)));
  ck_assert_ptr_null(strchr(msg, '\n'));
  free(runs);
  free(ctr);
  free(dir);
}
END_TEST

/* Values at the bounds themselves are measurements like any other. */
START_TEST(test_at_the_bounds) {
  char *dir = tu_case_dir("bounds", 0);
  char *runs =
      tu_write(dir, "runs.csv", RUNS_HDR "bfs,1,1,100000,1e-6,1e-3\nbfs,100000,100000,1,1e7,1e5\n");
  char *ctr = tu_write(dir, "counters.csv", CTR_HDR "bfs,1,1,100000,-1e20,1e20\n");
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_msg(sp_dataset_load(runs, ctr, &ds, &err) == SP_OK, "%s", err.message);
  sp_config hi = {100000, 100000, 1};
  double v;
  ck_assert_int_eq(sp_dataset_time(ds, 0, &hi, &v), SP_OK);
  ck_assert_double_eq(v, 1e7);
  ck_assert_int_eq(sp_dataset_power(ds, 0, &hi, &v), SP_OK);
  ck_assert_double_eq(v, 1e5);
  sp_dataset_free(ds);
  free(runs);
  free(ctr);
  free(dir);
}
END_TEST

START_TEST(test_missing_files) {
  char *dir = tu_case_dir("missing", 0);
  char *runs = tu_path(dir, "no-such-runs.csv");
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load(runs, NULL, &ds, &err), SP_EIO);
  ck_assert_ptr_null(ds);
  ck_assert_str_eq(err.file, runs);
  ck_assert_ptr_nonnull(strstr(err.message, "cannot open"));

  char *good = tu_write(dir, "runs.csv", GOOD_RUNS);
  char *ctr = tu_path(dir, "no-such-counters.csv");
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load(good, ctr, &ds, &err), SP_EIO);
  ck_assert_ptr_null(ds);
  ck_assert_str_eq(err.file, ctr);
  free(runs);
  free(good);
  free(ctr);
  free(dir);
}
END_TEST

/* A field over the reader's size limit is refused rather than buffered,
 * whether it ends (just over the limit) or runs on to the end of the file
 * (several times the limit, quoted so that newlines do not end it). */
static const size_t long_fields[] = {((size_t)1 << 20) + 7, (size_t)5 << 20};

START_TEST(test_field_too_long) {
  char *dir = tu_case_dir("long", _i);
  const size_t big = long_fields[_i];
  size_t hdr = strlen(RUNS_HDR);
  char *text = malloc(hdr + big + 64);
  ck_assert_ptr_nonnull(text);
  memcpy(text, RUNS_HDR, hdr);
  memset(text + hdr, 'k', big);
  if (_i == 0) {
    strcpy(text + hdr + big, ",8,300,475,2.385,91.5\n");
  } else {
    text[hdr] = '"';
    for (size_t i = 4096; i < big; i += 4096) text[hdr + i] = '\n';
    text[hdr + big] = '\0';
  }
  char *runs = tu_write(dir, "runs.csv", text);
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load(runs, NULL, &ds, &err), SP_EPARSE);
  ck_assert_ptr_null(ds);
  /* The endless field is stopped soon after the limit, not at the end. */
  const long lines_per_limit = (long)(((size_t)1 << 20) / 4096);
  if (_i == 0)
    ck_assert_int_eq(err.line, 2);
  else
    ck_assert(err.line >= 2 + lines_per_limit && err.line < 2 + 2 * lines_per_limit);
  ck_assert_int_eq(err.column, 1);
  ck_assert_ptr_nonnull(strstr(err.message, "limit"));
  free(text);
  free(runs);
  free(dir);
}
END_TEST

static Suite *dataset_suite(void) {
  Suite *s = suite_create("dataset");
  TCase *tc = tcase_create("load");
  tcase_add_unchecked_fixture(tc, tu_scratch_setup, tu_scratch_teardown);
  tcase_add_test(tc, test_load_valid);
  tcase_add_test(tc, test_skip_kernels_without_counters);
  tcase_add_test(tc, test_axes_sorted_unique);
  tcase_add_test(tc, test_many_rows);
  tcase_add_test(tc, test_runs_only_and_column_order);
  tcase_add_test(tc, test_free_null);
  tcase_add_loop_test(tc, test_bad_input, 0, (int)(sizeof bad / sizeof bad[0]));
  tcase_add_test(tc, test_at_the_bounds);
  tcase_add_test(tc, test_missing_files);
  tcase_add_loop_test(tc, test_field_too_long, 0,
                      (int)(sizeof long_fields / sizeof long_fields[0]));
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(dataset_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
