/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_outguard.c: what an output may replace (issue 26): the files a
 * marker lists and nothing the user added, the names of outputs whose
 * marker lists none, profiles, the inputs registered with
 * sp_output_add_input, sp_output_foreign and an empty path.  Directories
 * are made by hand here, as each version of scalepredict left them. */
#define _GNU_SOURCE /* mkdtemp */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scalepredict.h"

#define MARK "written by scalepredict 0.1.0: this report may be replaced by the next one\n"

static char root[64];

static void put(const char *name, const char *text) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", root, name);
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fputs(text, fp);
  ck_assert_int_eq(fclose(fp), 0);
}

static const char *at(const char *name) {
  static char path[4][256];
  static int next;
  char *p = path[next++ % 4];
  snprintf(p, sizeof path[0], "%s/%s", root, name);
  return p;
}

static void setup(void) {
  snprintf(root, sizeof root, "%s/sp-outguard-XXXXXX",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  ck_assert_ptr_nonnull(mkdtemp(root));
  sp_output_set_force(0);
  sp_output_clear_inputs();
}

static void teardown(void) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  ck_assert_int_eq(system(cmd), 0);
  sp_output_set_force(0);
  sp_output_clear_inputs();
}

/* A report whose marker lists what it came with. */
static void listed_report(void) {
  ck_assert_int_eq(mkdir(at("rep"), 0755), 0);
  put("rep/.scalepredict-report", MARK "file index.html\nfile summary.csv\n");
  put("rep/index.html", "<html>");
  put("rep/summary.csv", "a\n");
}

START_TEST(test_listed_files_only) {
  sp_error err;
  listed_report();
  ck_assert_int_eq(sp_output_check(at("rep"), SP_OUTPUT_REPORT, &err), SP_OK);
  ck_assert_uint_eq(sp_output_foreign(at("rep"), SP_OUTPUT_REPORT, NULL, 0), 0);
  put("rep/NOTES.txt", "mine");
  ck_assert_int_eq(mkdir(at("rep/plots"), 0755), 0);
  ck_assert_int_eq(sp_output_check(at("rep"), SP_OUTPUT_REPORT, &err), SP_EEXIST);
  ck_assert_ptr_nonnull(strstr(err.message, "'NOTES.txt' (of 2 entries"));
  char names[64];
  ck_assert_uint_eq(sp_output_foreign(at("rep"), SP_OUTPUT_REPORT, names, sizeof names), 2);
  ck_assert_str_eq(names, "NOTES.txt, plots");
  ck_assert_uint_eq(sp_output_foreign(at("rep"), SP_OUTPUT_REPORT, names, 5), 2);
  ck_assert_str_eq(names, "NOTE");
  sp_output_set_force(1);
  ck_assert_int_eq(sp_output_check(at("rep"), SP_OUTPUT_REPORT, &err), SP_OK);
}
END_TEST

/* A listed name that is now a directory is the user's. */
START_TEST(test_listed_name_not_a_file) {
  sp_error err;
  listed_report();
  ck_assert_int_eq(unlink(at("rep/summary.csv")), 0);
  ck_assert_int_eq(mkdir(at("rep/summary.csv"), 0755), 0);
  ck_assert_int_eq(sp_output_check(at("rep"), SP_OUTPUT_REPORT, &err), SP_EEXIST);
  ck_assert_ptr_nonnull(strstr(err.message, "'summary.csv'"));
}
END_TEST

/* A marker of one line (before markers listed files): the kind's names. */
START_TEST(test_legacy_names) {
  sp_error err;
  ck_assert_int_eq(mkdir(at("rep"), 0755), 0);
  put("rep/.scalepredict-report", MARK);
  put("rep/index.html", "<html>");
  put("rep/base_map_time_cu16.svg", "<svg/>");
  ck_assert_int_eq(sp_output_check(at("rep"), SP_OUTPUT_REPORT, &err), SP_OK);
  put("rep/mine.svg", "<svg/>");
  ck_assert_int_eq(sp_output_check(at("rep"), SP_OUTPUT_REPORT, &err), SP_EEXIST);
  ck_assert_ptr_nonnull(strstr(err.message, "'mine.svg'"));
  /* A model saved before markers existed: its manifest. */
  ck_assert_int_eq(mkdir(at("m"), 0755), 0);
  put("m/manifest.txt", "scalepredict-model 2\n");
  put("m/time-set-000.net", "x");
  put("m/method-physet.txt", "x");
  ck_assert_int_eq(sp_output_check(at("m"), SP_OUTPUT_MODEL, &err), SP_OK);
  ck_assert_int_eq(sp_output_check(at("m"), SP_OUTPUT_REPORT, &err), SP_EEXIST);
  put("m/NOTES.txt", "mine");
  ck_assert_int_eq(sp_output_check(at("m"), SP_OUTPUT_MODEL, &err), SP_EEXIST);
  ck_assert_ptr_nonnull(strstr(err.message, "'NOTES.txt'"));
}
END_TEST

/* A profile, marked as one or (older versions) as a report beside its
 * own files, is replaced by nothing else, forced or not. */
START_TEST(test_profile_kept) {
  sp_error err;
  static const char *const marks[][2] = {
      {"new/.scalepredict-profile", "written by scalepredict 0.1.0: this profile ...\n"},
      {"old/.scalepredict-report", MARK}};
  for (int force = 0; force < 2; force++)
    for (size_t i = 0; i < 2; i++) {
      const char *dir = i ? "old" : "new";
      mkdir(at(dir), 0755);
      put(marks[i][0], marks[i][1]);
      char launches[32];
      snprintf(launches, sizeof launches, "%s/launches.csv", dir);
      put(launches, "kernel,count\n");
      sp_output_set_force(force);
      ck_assert_int_eq(sp_output_check(at(dir), SP_OUTPUT_REPORT, &err), SP_EEXIST);
      ck_assert_ptr_nonnull(strstr(err.message, "it is a profile"));
      ck_assert_int_eq(sp_output_check(at(dir), SP_OUTPUT_MODEL, &err), SP_EEXIST);
    }
}
END_TEST

START_TEST(test_inputs) {
  sp_error err;
  put("full.csv", "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w,source\n");
  ck_assert_int_eq(link(at("full.csv"), at("link.csv")), 0);
  ck_assert_int_eq(mkdir(at("d"), 0755), 0);
  ck_assert_int_eq(mkdir(at("d/e"), 0755), 0);
  put("d/e/runs.csv", "kernel\n");
  ck_assert_int_eq(symlink(at("d/e/runs.csv"), at("via.csv")), 0);
  ck_assert_int_eq(sp_output_check(at("full.csv"), SP_OUTPUT_COMPLETED, &err), SP_OK);
  ck_assert_int_eq(sp_output_add_input(at("full.csv"), "--runs", &err), SP_OK);
  ck_assert_int_eq(sp_output_add_input(at("via.csv"), NULL, &err), SP_OK);
  ck_assert_int_eq(sp_output_add_input(at("nothing-here.csv"), "--grid", &err), SP_OK);
  ck_assert_int_eq(sp_output_add_input(NULL, "--weights", &err), SP_OK);
  sp_output_set_force(1);
  ck_assert_int_eq(sp_output_check(at("full.csv"), SP_OUTPUT_COMPLETED, &err), SP_EEXIST);
  ck_assert_ptr_nonnull(strstr(err.message, "it is this command's input --runs '"));
  ck_assert_int_eq(sp_output_check(at("link.csv"), SP_OUTPUT_COMPLETED, &err), SP_EEXIST);
  /* A directory above an input, also where a link to it leads. */
  ck_assert_int_eq(sp_output_check(at("d"), SP_OUTPUT_MODEL, &err), SP_EEXIST);
  ck_assert_ptr_nonnull(strstr(err.message, "it holds this command's input '"));
  ck_assert_int_eq(sp_output_check(at("d/e"), SP_OUTPUT_REPORT, &err), SP_EEXIST);
  ck_assert_int_eq(sp_output_check(at("d/e/"), SP_OUTPUT_REPORT, &err), SP_EEXIST);
  /* Not a directory that is not above it, nor a new path. */
  ck_assert_int_eq(mkdir(at("other"), 0755), 0);
  ck_assert_int_eq(sp_output_check(at("other"), SP_OUTPUT_REPORT, &err), SP_OK);
  ck_assert_int_eq(sp_output_check(at("nothing-here.csv"), SP_OUTPUT_COMPLETED, &err), SP_OK);
  sp_output_clear_inputs();
  ck_assert_int_eq(sp_output_check(at("full.csv"), SP_OUTPUT_COMPLETED, &err), SP_OK);
  ck_assert_int_eq(sp_output_check(at("d"), SP_OUTPUT_MODEL, &err), SP_OK);
}
END_TEST

START_TEST(test_empty_path) {
  sp_error err;
  ck_assert_int_eq(sp_output_check("", SP_OUTPUT_MODEL, &err), SP_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "the output path is empty"));
  ck_assert_int_eq(sp_output_check(NULL, SP_OUTPUT_EXPORT, &err), SP_EINVAL);
  ck_assert_int_eq(sp_output_check(at("x"), (sp_output_kind)99, &err), SP_EINVAL);
  ck_assert_uint_eq(sp_output_foreign(at("x"), (sp_output_kind)99, NULL, 0), 0);
}
END_TEST

/* A marker that is a FIFO is not read (it would block): not a marker. */
START_TEST(test_marker_fifo) {
  sp_error err;
  ck_assert_int_eq(mkdir(at("rep"), 0755), 0);
  ck_assert_int_eq(mkfifo(at("rep/.scalepredict-report"), 0644), 0);
  ck_assert_int_eq(sp_output_check(at("rep"), SP_OUTPUT_REPORT, &err), SP_EEXIST);
  ck_assert_ptr_nonnull(strstr(err.message, "not a scalepredict report"));
}
END_TEST

static Suite *outguard_suite(void) {
  Suite *s = suite_create("outguard");
  TCase *tc = tcase_create("core");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_listed_files_only);
  tcase_add_test(tc, test_listed_name_not_a_file);
  tcase_add_test(tc, test_legacy_names);
  tcase_add_test(tc, test_profile_kept);
  tcase_add_test(tc, test_inputs);
  tcase_add_test(tc, test_empty_path);
  tcase_add_test(tc, test_marker_fifo);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(outguard_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
