/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_config.c: the CUcu/ENGINE/MEMORY notation, status names and error
 * formatting. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "scalepredict.h"

START_TEST(test_parse_with_suffix) {
  sp_config c;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_config_parse("32cu/1000/1375", &c, &err), SP_OK);
  ck_assert_int_eq(c.cu, 32);
  ck_assert_int_eq(c.engine_mhz, 1000);
  ck_assert_int_eq(c.memory_mhz, 1375);
  ck_assert_int_eq(err.status, SP_OK);
}
END_TEST

START_TEST(test_parse_without_suffix) {
  sp_config c;
  ck_assert_int_eq(sp_config_parse("27/613/1187", &c, NULL), SP_OK);
  ck_assert_int_eq(c.cu, 27);
  ck_assert_int_eq(c.engine_mhz, 613);
  ck_assert_int_eq(c.memory_mhz, 1187);
  ck_assert_int_eq(sp_config_parse("7CU/1/999999", &c, NULL), SP_OK);
  ck_assert_int_eq(c.cu, 7);
  ck_assert_int_eq(c.memory_mhz, 999999);
}
END_TEST

START_TEST(test_round_trip) {
  static const sp_config cases[] = {
      {32, 1000, 1375}, {4, 300, 475}, {13, 777, 1283}, {1, 1, 1}, {80, 1530, 877}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char buf[64];
    sp_config back;
    int n = sp_config_format(&cases[i], buf, sizeof buf);
    ck_assert_int_eq(n, (int)strlen(buf));
    ck_assert_int_eq(sp_config_parse(buf, &back, NULL), SP_OK);
    ck_assert(sp_config_equal(&back, &cases[i]));
  }
  char buf[64];
  sp_config_format(&cases[2], buf, sizeof buf);
  ck_assert_str_eq(buf, "13cu/777/1283");
}
END_TEST

START_TEST(test_format_truncates) {
  const sp_config c = {32, 1000, 1375};
  char buf[6];
  ck_assert_int_eq(sp_config_format(&c, buf, sizeof buf), 14);
  ck_assert_str_eq(buf, "32cu/");
}
END_TEST

START_TEST(test_equal) {
  const sp_config a = {16, 700, 925}, b = {16, 700, 925};
  const sp_config c = {16, 700, 926}, d = {16, 701, 925}, e = {15, 700, 925};
  ck_assert(sp_config_equal(&a, &b));
  ck_assert(!sp_config_equal(&a, &c));
  ck_assert(!sp_config_equal(&a, &d));
  ck_assert(!sp_config_equal(&a, &e));
}
END_TEST

/* Each rejected text leaves the output untouched and says what is wanted. */
static const char *const rejected[] = {
    "",
    "32cu/1000",
    "32cu",
    "0cu/1/1",
    "4cu/0/1375",
    "4cu/300/0",
    "-4cu/1/1",
    "4cu/-300/475",
    "32cu/1000/1375x",
    "32cu/1000/1375/",
    "32cu/1000/1375 ",
    " 32cu/1000/1375",
    "+32cu/1000/1375",
    "a/b/c",
    "32cu//1375",
    "32gpu/1000/1375",
    "32c/1000/1375",
    "32cu/1000.5/1375",
    "32cu/1e3/1375",
    "32cu,1000,1375",
    "1000001cu/1000/1375",
    "32cu/99999999999/1375",
    "32cu/1000/184467440737095516160",
    "99999999999999999999999999999cu/1/1",
};

START_TEST(test_rejects) {
  const char *text = rejected[_i];
  sp_config c = {-7, -7, -7};
  sp_error err;
  sp_error_clear(&err);
  ck_assert_msg(sp_config_parse(text, &c, &err) == SP_EPARSE, "accepted '%s'", text);
  ck_assert_int_eq(c.cu, -7);
  ck_assert_int_eq(c.engine_mhz, -7);
  ck_assert_int_eq(err.status, SP_EPARSE);
  ck_assert_str_eq(err.field, "configuration");
  ck_assert_ptr_nonnull(strstr(err.message, "32cu/1000/1375"));
  ck_assert_msg(strstr(err.message, text) != NULL, "message does not quote '%s'", text);
  /* A NULL error record is allowed. */
  ck_assert_int_eq(sp_config_parse(text, &c, NULL), SP_EPARSE);
}
END_TEST

START_TEST(test_strerror) {
  for (int s = 0; s < SP_STATUS_COUNT; s++) {
    ck_assert_ptr_nonnull(sp_strerror(s));
    ck_assert_str_ne(sp_strerror(s), "unknown status");
    for (int t = 0; t < s; t++) ck_assert_str_ne(sp_strerror(s), sp_strerror(t));
  }
  ck_assert_str_eq(sp_strerror(-1), "unknown status");
  ck_assert_str_eq(sp_strerror(SP_STATUS_COUNT), "unknown status");
}
END_TEST

START_TEST(test_error_format) {
  sp_error err;
  char buf[256];
  sp_error_clear(&err);
  err.status = SP_EPARSE;
  snprintf(err.file, sizeof err.file, "runs.csv");
  err.line = 17;
  err.column = 5;
  snprintf(err.field, sizeof err.field, "time_ms");
  snprintf(err.message, sizeof err.message, "'-2.385' is not positive");
  int n = sp_error_format(&err, buf, sizeof buf);
  ck_assert_str_eq(buf, "runs.csv:17:5: field 'time_ms': '-2.385' is not positive");
  ck_assert_int_eq(n, (int)strlen(buf));

  err.column = 0;
  err.field[0] = '\0';
  sp_error_format(&err, buf, sizeof buf);
  ck_assert_str_eq(buf, "runs.csv:17: '-2.385' is not positive");

  err.line = 0;
  sp_error_format(&err, buf, sizeof buf);
  ck_assert_str_eq(buf, "runs.csv: '-2.385' is not positive");

  /* Without a message the status name stands in. */
  sp_error_clear(&err);
  err.status = SP_EGRID;
  sp_error_format(&err, buf, sizeof buf);
  ck_assert_str_eq(buf, sp_strerror(SP_EGRID));
}
END_TEST

START_TEST(test_error_format_truncates) {
  sp_error err;
  char buf[12];
  sp_error_clear(&err);
  err.status = SP_EIO;
  snprintf(err.file, sizeof err.file, "a/very/long/path/counters.csv");
  err.line = 123;
  snprintf(err.message, sizeof err.message, "read error");
  int n = sp_error_format(&err, buf, sizeof buf);
  ck_assert_uint_eq(strlen(buf), sizeof buf - 1);
  ck_assert_int_gt(n, (int)sizeof buf);
  ck_assert(!strncmp(buf, "a/very/long", sizeof buf - 1));
  ck_assert_int_eq(sp_error_format(&err, buf, 0), n);
}
END_TEST

START_TEST(test_error_clear) {
  sp_error err;
  memset(&err, 0x5a, sizeof err);
  sp_error_clear(&err);
  ck_assert_int_eq(err.status, 0);
  ck_assert_int_eq(err.line, 0);
  ck_assert_str_eq(err.file, "");
  ck_assert_str_eq(err.message, "");
  sp_error_clear(NULL);
}
END_TEST

static Suite *config_suite(void) {
  Suite *s = suite_create("config");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_parse_with_suffix);
  tcase_add_test(tc, test_parse_without_suffix);
  tcase_add_test(tc, test_round_trip);
  tcase_add_test(tc, test_format_truncates);
  tcase_add_test(tc, test_equal);
  tcase_add_loop_test(tc, test_rejects, 0, (int)(sizeof rejected / sizeof rejected[0]));
  tcase_add_test(tc, test_strerror);
  tcase_add_test(tc, test_error_format);
  tcase_add_test(tc, test_error_format_truncates);
  tcase_add_test(tc, test_error_clear);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(config_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
