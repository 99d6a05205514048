/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_export.c: the prediction matrix as CSV: both layouts, measured
 * values and errors, RFC 4180 quoting and line ends, atomic files, nothing
 * written on error, and '.' decimals under a comma-decimal locale. */
#define _GNU_SOURCE /* setenv, open_memstream */
#include <check.h>
#include <dirent.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsefix.h"
#include "scalepredict.h"
#include "testutil.h"

static dsefix fix;

static void setup(void) { dsefix_setup(&fix); }
static void teardown(void) { dsefix_teardown(&fix); }

static char *export(const sp_export_params *p, const sp_dataset *ds, int status) {
  char *s = NULL;
  size_t n = 0;
  FILE *fp = open_memstream(&s, &n);
  sp_error err;
  sp_error_clear(&err);
  int st = sp_export_write(fix.model, ds, p, fp, &err);
  char msg[1024];
  sp_error_format(&err, msg, sizeof msg);
  ck_assert_msg(st == status, "export: %d (%s)", st, msg);
  fclose(fp);
  return s;
}

/* Splits an RFC 4180 record at *s (advanced past its CRLF) into fields;
 * returns their count, or -1 when the line does not end in CRLF. */
static int record(char **s, char fields[][128], int max) {
  int n = 0;
  size_t len = 0;
  int quoted = 0;
  char *p = *s;
  for (;; p++) {
    if (quoted) {
      if (*p == '"' && p[1] == '"')
        p++;
      else if (*p == '"') {
        quoted = 0;
        continue;
      }
      if (len < 127) fields[n][len++] = *p;
      continue;
    }
    if (*p == '"')
      quoted = 1;
    else if (*p == ',' || *p == '\n' || !*p) {
      fields[n][len] = 0;
      len = 0;
      if (n < max - 1) n++;
      if (*p != ',') break;
    } else if (len < 127)
      fields[n][len++] = *p;
  }
  if (p[0] != '\n') return -1; /* LF line ends, no CR */
  *s = p + 1;
  return n;
}

static double num(const char *s) {
  char *end;
  double v = strtod(s, &end);
  ck_assert_msg(*s && !*end, "'%s' is not a number", s);
  return v;
}

START_TEST(long_layout) {
  sp_export_params p;
  sp_export_params_init(&p);
  char *s = export(&p, fix.fresh, SP_OK), *q = s;
  static char f[64][128];
  ck_assert_int_eq(record(&q, f, 64), 8);
  ck_assert_str_eq(f[0], "kernel");
  ck_assert_str_eq(f[5], "time_ms");
  ck_assert_str_eq(f[7], "energy_mj");
  ck_assert_ptr_nonnull(strstr(s, "\n\"fft \"\"radix-4\"\"\",16cu/500/475,16,500,475,"));
  ck_assert_ptr_nonnull(strstr(s, "\n\"stream, copy\",32cu/1000/1375,"));
  int rows = 0;
  while (*q) {
    ck_assert_int_eq(record(&q, f, 64), 8);
    int k = !strcmp(f[0], dsefix_name(0)) ? 0 : !strcmp(f[0], dsefix_name(1)) ? 1 : 2;
    sp_config c = {(int)num(f[2]), (int)num(f[3]), (int)num(f[4])};
    ck_assert_double_le(tu_rel(num(f[5]), dsefix_time(k, &c)), 1e-6);
    ck_assert_double_le(tu_rel(num(f[6]), dsefix_power(k, &c)), 1e-6);
    ck_assert_double_le(tu_rel(num(f[7]), dsefix_time(k, &c) * dsefix_power(k, &c)), 1e-6);
    rows++;
  }
  ck_assert_int_eq(rows, 3 * 18);
  free(s);
}
END_TEST

START_TEST(long_with_measured) {
  sp_export_params p;
  sp_export_params_init(&p);
  p.with_measured = 1;
  char *s = export(&p, fix.fresh, SP_OK), *q = s;
  static char f[64][128];
  ck_assert_int_eq(record(&q, f, 64), 12);
  ck_assert_str_eq(f[8], "measured_time_ms");
  ck_assert_str_eq(f[10], "time_error_pct");
  ck_assert_str_eq(f[11], "power_error_pct");
  while (*q) {
    ck_assert_int_eq(record(&q, f, 64), 12);
    ck_assert_double_le(tu_rel(num(f[5]), num(f[8])), 1e-6);
    ck_assert_double_le(fabs(num(f[10])), 1e-6);
  }
  free(s);
}
END_TEST

START_TEST(measured_missing_is_blank) {
  /* A kernel measured at the base only: no measured values elsewhere. */
  char *runs = tu_write(fix.dir, "one-runs.csv",
                        "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
                        "solo,32,1000,1375,2,150\nsolo,16,500,475,5,\n");
  char *ctr = tu_write(fix.dir, "one-counters.csv",
                       "kernel,cu,engine_mhz,memory_mhz,VALUBusy,MemUnitBusy,CacheHit\n"
                       "solo,32,1000,1375,90,8,0.5\n");
  sp_dataset *ds = NULL;
  sp_error err;
  ck_assert_int_eq(sp_dataset_load(runs, ctr, &ds, &err), SP_OK);
  sp_export_params p;
  sp_export_params_init(&p);
  p.with_measured = 1;
  char *s = export(&p, ds, SP_OK);
  ck_assert_ptr_nonnull(strstr(s, "\nsolo,16cu/500/475,16,500,475,"));
  ck_assert_ptr_nonnull(strstr(s, ",5,,"));                       /* time measured, power not */
  ck_assert_ptr_nonnull(strstr(s, "16cu/500/1375,16,500,1375,")); /* not measured */
  char *row = strstr(s, "16cu/750/925");
  ck_assert_ptr_nonnull(strstr(row, ",,,,\n"));
  free(s);
  sp_dataset_free(ds);
  free(runs);
  free(ctr);
}
END_TEST

START_TEST(wide_layout) {
  sp_export_params p;
  sp_export_params_init(&p);
  p.layout = SP_EXPORT_WIDE;
  char *s = export(&p, fix.fresh, SP_OK), *q = s;
  static char f[160][128];
  ck_assert_int_eq(record(&q, f, 160), 1 + 3 * 18);
  ck_assert_str_eq(f[1], "time_ms@16cu/500/475");
  ck_assert_str_eq(f[19], "power_w@16cu/500/475");
  ck_assert_str_eq(f[54], "energy_mj@32cu/1000/1375");
  for (int k = 0; k < FIX_NEW; k++) {
    ck_assert_int_eq(record(&q, f, 160), 1 + 3 * 18);
    ck_assert_str_eq(f[0], dsefix_name(k));
    const sp_config base = {32, 1000, 1375};
    ck_assert_double_le(tu_rel(num(f[18]), dsefix_time(k, &base)), 1e-6);
  }
  ck_assert_int_eq(*q, 0);
  free(s);
  p.with_measured = 1;
  s = export(&p, fix.fresh, SP_OK);
  q = s;
  ck_assert_int_eq(record(&q, f, 160), 1 + 7 * 18);
  ck_assert_str_eq(f[1 + 6 * 18], "power_error_pct@16cu/500/475");
  free(s);
}
END_TEST

START_TEST(refined_grid) {
  sp_export_params p;
  sp_export_params_init(&p);
  p.grid_interp = 2;
  char *s = export(&p, fix.fresh, SP_OK);
  size_t lines = 0;
  for (char *q = s; (q = strchr(q, '\n')); q++) lines++;
  ck_assert_uint_eq(lines, 1 + 3 * 2 * 5 * 5);
  ck_assert_ptr_nonnull(strstr(s, ",32cu/625/700,32,625,700,"));
  free(s);
  p.grid_interp = 0;
  free(export(&p, fix.fresh, SP_EINVAL));
}
END_TEST

START_TEST(nothing_written_on_error) {
  char *runs = tu_write(fix.dir, "nc-runs.csv",
                        "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
                        "good,32,1000,1375,2,150\nlonely,32,1000,1375,1.5,120\n");
  char *ctr = tu_write(fix.dir, "nc-counters.csv",
                       "kernel,cu,engine_mhz,memory_mhz,VALUBusy,MemUnitBusy,CacheHit\n"
                       "good,32,1000,1375,90,8,0.5\nlonely,16,500,475,1,2,3\n");
  sp_dataset *ds = NULL;
  sp_error err;
  ck_assert_int_eq(sp_dataset_load(runs, ctr, &ds, &err), SP_OK);
  sp_export_params p;
  sp_export_params_init(&p);
  char *s = export(&p, ds, SP_ENOTFOUND);
  ck_assert_str_eq(s, "");
  free(s);
  char *out = tu_path(fix.dir, "matrix.csv");
  ck_assert_int_eq(sp_export_save(fix.model, ds, &p, out, &err), SP_ENOTFOUND);
  ck_assert_ptr_nonnull(strstr(err.message, "'lonely'"));
  ck_assert(!tu_exists(out));
  DIR *d = opendir(fix.dir);
  for (struct dirent *e; (e = readdir(d));)
    ck_assert_msg(!strstr(e->d_name, "matrix.csv.tmp"), "left behind: %s", e->d_name);
  closedir(d);
  ck_assert_int_eq(sp_export_save(fix.model, fix.fresh, &p, out, &err), SP_OK);
  ck_assert(tu_exists(out));
  p.layout = 7;
  ck_assert_int_eq(sp_export_save(fix.model, fix.fresh, &p, out, &err), SP_EINVAL);
  ck_assert(tu_exists(out)); /* the old file stays */
  char *bad = tu_path(out, "x.csv");
  sp_export_params_init(&p);
  ck_assert_int_eq(sp_export_save(fix.model, fix.fresh, &p, bad, &err), SP_EIO);
  free(bad);
  free(out);
  sp_dataset_free(ds);
  free(runs);
  free(ctr);
}
END_TEST

/* ---- locale ------------------------------------------------------------------------------ */

static int comma_locale_active(void) {
  char buf[16];
  snprintf(buf, sizeof buf, "%.1f", 1.5);
  return !strcmp(buf, "1,5");
}

/* A locale with ',' decimals: an installed one, else one compiled with
 * localedef into the scratch directory (LOCPATH). */
static int use_comma_locale(void) {
  static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "nl_NL.UTF-8"};
  for (size_t i = 0; i < 4; i++)
    if (setlocale(LC_ALL, names[i]) && comma_locale_active()) return 1;
  char *dir = tu_path(fix.dir, "locales"), cmd[1024];
  snprintf(cmd, sizeof cmd,
           "mkdir -p '%s' && localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8' "
           ">/dev/null 2>&1",
           dir, dir);
  int made = system(cmd) == 0;
  if (made) setenv("LOCPATH", dir, 1);
  free(dir);
  return made && setlocale(LC_ALL, "de_DE.UTF-8") && comma_locale_active();
}

START_TEST(decimal_point_under_comma_locale) {
  if (!use_comma_locale()) {
    fprintf(stderr,
            "test_export: no comma-decimal locale available (no de_DE and no "
            "localedef); the locale check is skipped\n");
    return;
  }
  sp_export_params p;
  sp_export_params_init(&p);
  p.with_measured = 1;
  char *s = export(&p, fix.fresh, SP_OK);
  ck_assert(comma_locale_active()); /* the caller's locale is left as it was */
  setlocale(LC_ALL, "C");
  static char f[64][128];
  char *q = s;
  ck_assert_int_eq(record(&q, f, 64), 12);
  while (*q) {
    ck_assert_int_eq(record(&q, f, 64), 12);
    for (int j = 5; j < 12; j++)
      if (*f[j]) num(f[j]);
  }
  ck_assert_ptr_nonnull(strstr(s, "."));
  free(s);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("export");
  TCase *tc = tcase_create("export");
  tcase_add_unchecked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, long_layout);
  tcase_add_test(tc, long_with_measured);
  tcase_add_test(tc, measured_missing_is_blank);
  tcase_add_test(tc, wide_layout);
  tcase_add_test(tc, refined_grid);
  tcase_add_test(tc, nothing_written_on_error);
  tcase_add_test(tc, decimal_point_under_comma_locale);
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
