/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_memory.c: memory.csv, the memory systems a grid's memory clocks name
 * (scalepredict.h, "memory systems"): reading it, every way it can be
 * malformed (FILE:LINE:COLUMN and the field), its check against a data
 * set's grid, and a memory system given as text (predict
 * --target-memory). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scalepredict.h"
#include "testutil.h"

static const char two_cards[] =
    "memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n"
    "2619,NVIDIA H100 80GB HBM3,HBM3,5120,3352,80\n"
    "3201,\"NVIDIA H200, 141 GB\",HBM3e,6144,4800,141\n";

/* Both rows, in the file's order, a quoted name with a comma, lookups by
 * clock. */
START_TEST(test_load_two) {
  char *dir = tu_case_dir("two", 0), *path = tu_write(dir, "memory.csv", two_cards);
  sp_memory_set *ms = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_memory_load(path, &ms, &err), SP_OK);
  ck_assert_uint_eq(sp_memory_count(ms), 2);
  const sp_memory_system *a = sp_memory_at(ms, 0), *b = sp_memory_at(ms, 1);
  ck_assert_int_eq(a->memory_mhz, 2619);
  ck_assert_str_eq(a->name, "NVIDIA H100 80GB HBM3");
  ck_assert_str_eq(a->type, "HBM3");
  ck_assert_int_eq(a->bus_bits, 5120);
  ck_assert_double_eq(a->peak_gbs, 3352);
  ck_assert_double_eq(a->capacity_gb, 80);
  ck_assert_str_eq(b->name, "NVIDIA H200, 141 GB");
  ck_assert_str_eq(b->type, "HBM3e");
  ck_assert_ptr_null(sp_memory_at(ms, 2));
  ck_assert_ptr_eq(sp_memory_find(ms, 3201), b);
  ck_assert_ptr_null(sp_memory_find(ms, 2900));
  ck_assert_str_eq(sp_memory_path(ms), path);
  sp_memory_free(ms);
  sp_memory_free(NULL);
  free(path);
  free(dir);
}
END_TEST

/* Columns in another order, a further column read past, CRLF. */
START_TEST(test_load_any_order) {
  char *dir = tu_case_dir("order", 0);
  char *path = tu_write(dir, "memory.csv",
                        "note,capacity_gb,peak_gbs,bus_bits,type,name,memory_mhz\r\n"
                        "x,24,1008,384,GDDR6X,RTX 4090,10501\r\n");
  sp_memory_set *ms = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_memory_load(path, &ms, &err), SP_OK);
  ck_assert_int_eq(sp_memory_at(ms, 0)->memory_mhz, 10501);
  ck_assert_str_eq(sp_memory_at(ms, 0)->type, "GDDR6X");
  ck_assert_double_eq(sp_memory_at(ms, 0)->peak_gbs, 1008);
  sp_memory_free(ms);
  free(path);
  free(dir);
}
END_TEST

/* Each malformed file: the status, line, column and field of the error, and
 * a word of its message. */
typedef struct bad_case {
  const char *text;
  long line, column;
  const char *field, *words;
} bad_case;

static const bad_case bad[] = {
    {"", 1, 0, "", "empty file"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n", 2, 0, "", "no memory system rows"},
    {"memory_mhz,name,type,bus_bits,peak_gbs\n2619,a,HBM3,5120,3352\n", 1, 0, "capacity_gb",
     "required column missing"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb,name\n", 1, 7, "name", "twice"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n0,a,HBM3,5120,3352,80\n", 2, 1,
     "memory_mhz", "not a positive integer"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619.5,a,HBM3,5120,3352,80\n", 2, 1,
     "memory_mhz", "not a positive integer"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n200000,a,HBM3,5120,3352,80\n", 2, 1,
     "memory_mhz", "outside the accepted range"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619,,HBM3,5120,3352,80\n", 2, 2, "name",
     "a name of 1 to 95 bytes"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619,\"a\nb\",HBM3,5120,3352,80\n", 2, 2,
     "name", "control characters"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619,a,HBM 3,5120,3352,80\n", 2, 3,
     "type", "not a memory type"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619,a,HBM3HBM3HBM3HBM3,5120,3352,80\n",
     2, 3, "type", "not a memory type"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619,a,HBM3,-5120,3352,80\n", 2, 4,
     "bus_bits", "not a positive integer"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619,a,HBM3,5120,0,80\n", 2, 5,
     "peak_gbs", "not a positive finite number"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619,a,HBM3,5120,3.352e9,80\n", 2, 5,
     "peak_gbs", "outside the accepted range"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619,a,HBM3,5120,3352,nan\n", 2, 6,
     "capacity_gb", "not a positive finite number"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619,a,HBM3,5120,3352,2e6\n", 2, 6,
     "capacity_gb", "outside the accepted range"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619,a,HBM3,5120,3352\n", 2, 0, "",
     "row has 5 fields"},
    {"memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n2619,a,HBM3,5120,3352,80\n"
     "3201,b,HBM3e,6144,4800,141\n2619,c,HBM3,5120,3352,80\n",
     4, 1, "memory_mhz", "described twice (already on line 2)"},
};

START_TEST(test_load_bad) {
  const bad_case *c = &bad[_i];
  char *dir = tu_case_dir("bad", _i), *path = tu_write(dir, "memory.csv", c->text);
  sp_memory_set *ms = (sp_memory_set *)1;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_memory_load(path, &ms, &err), SP_EPARSE);
  ck_assert_ptr_null(ms);
  ck_assert_str_eq(err.file, path);
  ck_assert_int_eq(err.line, c->line);
  ck_assert_int_eq(err.column, c->column);
  ck_assert_str_eq(err.field, c->field);
  if (!strstr(err.message, c->words))
    ck_abort_msg("case %d: '%s' does not say '%s'", _i, err.message, c->words);
  free(path);
  free(dir);
}
END_TEST

START_TEST(test_load_missing_file) {
  char *path = tu_path(tu_scratch, "no-such-memory.csv");
  sp_memory_set *ms = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_memory_load(path, &ms, &err), SP_EIO);
  ck_assert_str_eq(err.file, path);
  free(path);
}
END_TEST

/* The file must describe every memory clock of the grid and nothing else. */
START_TEST(test_check_grid) {
  char *dir = tu_case_dir("grid", 0);
  char *runs = tu_write(dir, "runs.csv",
                        "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
                        "a,132,1980,2619,1,100\na,132,1980,3201,0.9,110\n"
                        "b,132,1980,2619,2,100\nb,132,1980,3201,1.9,110\n");
  char *both = tu_write(dir, "both.csv", two_cards);
  char *one = tu_write(dir, "one.csv",
                       "memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n"
                       "2619,H100,HBM3,5120,3352,80\n");
  char *three = tu_write(dir, "three.csv",
                         "memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n"
                         "2619,H100,HBM3,5120,3352,80\n2900,x,HBM3e,6144,4454,141\n"
                         "3201,H200,HBM3e,6144,4800,141\n");
  sp_dataset *ds = NULL;
  sp_memory_set *ms = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load(runs, NULL, &ds, &err), SP_OK);
  ck_assert_int_eq(sp_memory_load(both, &ms, &err), SP_OK);
  ck_assert_int_eq(sp_memory_check(ms, ds, &err), SP_OK);
  sp_memory_free(ms);
  ck_assert_int_eq(sp_memory_load(one, &ms, &err), SP_OK);
  ck_assert_int_eq(sp_memory_check(ms, ds, &err), SP_EGRID);
  ck_assert_str_eq(err.file, one);
  ck_assert_ptr_nonnull(strstr(err.message, "no row describes the memory clock 3201"));
  sp_memory_free(ms);
  sp_error_clear(&err);
  ck_assert_int_eq(sp_memory_load(three, &ms, &err), SP_OK);
  ck_assert_int_eq(sp_memory_check(ms, ds, &err), SP_EGRID);
  ck_assert_int_eq(err.line, 3);
  ck_assert_str_eq(err.field, "memory_mhz");
  ck_assert_ptr_nonnull(strstr(err.message, "2900 is not a memory clock"));
  sp_memory_free(ms);
  sp_dataset_free(ds);
  free(runs);
  free(both);
  free(one);
  free(three);
  free(dir);
}
END_TEST

/* --target-memory's text: the peak by default from the clock and the bus
 * (double data rate), the clock from the target, and every error naming
 * its key. */
START_TEST(test_parse) {
  sp_memory_system s;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_memory_parse("bus=6144,type=HBM3e", 2900, &s, &err), SP_OK);
  ck_assert_int_eq(s.memory_mhz, 2900);
  ck_assert_int_eq(s.bus_bits, 6144);
  ck_assert_double_eq_tol(s.peak_gbs, 2.0 * 2900 * 6144 / 8 / 1000, 1e-9);
  ck_assert_str_eq(s.type, "HBM3e");
  ck_assert_str_eq(s.name, "described");
  ck_assert_int_eq(sp_memory_parse("mhz=2619,bus=5120", 0, &s, &err), SP_OK);
  ck_assert_double_eq_tol(s.peak_gbs, 3352.32, 1e-9);
  ck_assert_int_eq(
      sp_memory_parse("mhz=2900,bus=6144,peak=4500,capacity=96,name=next part", 2900, &s, &err),
      SP_OK);
  ck_assert_double_eq(s.peak_gbs, 4500);
  ck_assert_double_eq(s.capacity_gb, 96);
  ck_assert_str_eq(s.name, "next part");
  static const struct {
    const char *text;
    int mhz;
    const char *field, *words;
  } badp[] = {
      {"type=HBM3e", 2900, "bus", "bus width is missing"},
      {"bus=6144", 0, "mhz", "memory clock is missing"},
      {"mhz=3000,bus=6144", 2900, "mhz", "disagrees"},
      {"bus=6144,speed=9", 2900, "", "unknown key 'speed'"},
      {"bus=6144,HBM3e", 2900, "", "not KEY=VALUE"},
      {"bus=-1", 2900, "bus", "not a positive integer"},
      {"bus=6144,peak=0", 2900, "peak", "not a positive finite number"},
      {"bus=6144,type=HBM 3", 2900, "type", "not a memory type"},
      {"bus=100000", 100000, "peak", "beyond 1 PB/s"},
  };
  for (size_t i = 0; i < sizeof badp / sizeof badp[0]; i++) {
    sp_error_clear(&err);
    ck_assert_int_eq(sp_memory_parse(badp[i].text, badp[i].mhz, &s, &err), SP_EPARSE);
    ck_assert_str_eq(err.field, badp[i].field);
    if (!strstr(err.message, badp[i].words))
      ck_abort_msg("'%s': '%s' does not say '%s'", badp[i].text, err.message, badp[i].words);
  }
}
END_TEST

static Suite *memory_suite(void) {
  Suite *s = suite_create("memory");
  TCase *tc = tcase_create("memory.csv");
  tcase_add_unchecked_fixture(tc, tu_scratch_setup, tu_scratch_teardown);
  tcase_add_test(tc, test_load_two);
  tcase_add_test(tc, test_load_any_order);
  tcase_add_loop_test(tc, test_load_bad, 0, (int)(sizeof bad / sizeof bad[0]));
  tcase_add_test(tc, test_load_missing_file);
  tcase_add_test(tc, test_check_grid);
  tcase_add_test(tc, test_parse);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(memory_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
