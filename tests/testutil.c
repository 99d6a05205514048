/* SPDX-License-Identifier: GPL-3.0-or-later */
/* testutil.c: scratch directories and files for the unit tests.  Failures
 * here abort the test that called them, through Check. */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include "scalepredict.h"

#include <check.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *tu_path(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  ck_assert_ptr_nonnull(p);
  snprintf(p, n, "%s/%s", dir, name);
  return p;
}

char *tu_mkdtemp(void) {
  const char *base = getenv("TMPDIR");
  char *tmpl = tu_path(base && *base ? base : "/tmp", "sp-test-XXXXXX");
  ck_assert_msg(mkdtemp(tmpl) != NULL, "mkdtemp %s failed", tmpl);
  return tmpl;
}

char *tu_scratch;

void tu_scratch_setup(void) { tu_scratch = tu_mkdtemp(); }

void tu_scratch_teardown(void) {
  tu_rmtree(tu_scratch);
  free(tu_scratch);
  tu_scratch = NULL;
}

char *tu_case_dir(const char *name, int i) {
  char sub[64];
  snprintf(sub, sizeof sub, "%s-%d", name, i);
  char *dir = tu_path(tu_scratch, sub);
  ck_assert_int_eq(mkdir(dir, 0700), 0);
  return dir;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void tu_rmtree(const char *dir) {
  if (dir) nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *tu_write(const char *dir, const char *name, const char *text) {
  char *path = tu_path(dir, name);
  FILE *fp = fopen(path, "wb");
  ck_assert_msg(fp != NULL, "cannot write %s", path);
  ck_assert_uint_eq(fwrite(text, 1, strlen(text), fp), strlen(text));
  ck_assert_int_eq(fclose(fp), 0);
  return path;
}

char *tu_read(const char *path, size_t *size) {
  FILE *fp = fopen(path, "rb");
  ck_assert_msg(fp != NULL, "cannot read %s", path);
  size_t cap = 4096, n = 0, got;
  char *buf = malloc(cap + 1);
  ck_assert_ptr_nonnull(buf);
  while ((got = fread(buf + n, 1, cap - n, fp)) > 0) {
    n += got;
    if (n == cap) {
      cap *= 2;
      buf = realloc(buf, cap + 1);
      ck_assert_ptr_nonnull(buf);
    }
  }
  fclose(fp);
  buf[n] = '\0';
  if (size) *size = n;
  return buf;
}

int tu_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

double tu_rel(double a, double b) { return fabs(a - b) / fabs(b); }

sp_dataset *tu_load_fixture(const char *name) {
  const char *data = getenv("SP_TEST_DATA");
  ck_assert_msg(data != NULL, "SP_TEST_DATA is not set (run through make check)");
  char runs[4096], counters[4096];
  snprintf(runs, sizeof runs, "%s/%s/runs.csv", data, name);
  snprintf(counters, sizeof counters, "%s/%s/counters.csv", data, name);
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load(runs, counters, &ds, &err), SP_OK);
  return ds;
}

struct sp_memory_set *tu_two_memory_systems(const char *dir) {
  char *path = tu_write(dir, "memory.csv",
                        "memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb\n"
                        "475,slow card,GDDR5,256,60.8,4\n"
                        "1375,fast card,HBM2,512,243.2,8\n");
  sp_memory_set *ms = NULL;
  sp_error err;
  ck_assert_int_eq(sp_memory_load(path, &ms, &err), SP_OK);
  free(path);
  return ms;
}
