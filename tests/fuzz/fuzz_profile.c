/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_profile.c: the profile readers (ncu raw CSV, rocprofv3 counter CSV)
 * and the writer behind `scalepredict profile`.
 *
 * Input: a profile file.  It is read for a small model trained once at
 * start-up whose counters have rules for both vendors (grid_blocks,
 * block_threads).  Properties: loading either fails with a located error
 * and no profile, or gives one whose accessors are consistent; writing it
 * either fails with an error and leaves no directory, or writes every file. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "scalepredict.h"

static const char RUNS[] =
    "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
    "a,8,1000,1000,4.1,81\na,16,1000,1000,2.2,95\nb,8,1000,1000,3.3,77\nb,16,1000,1000,3.1,80\n"
    "c,8,1000,1000,6.4,90\nc,16,1000,1000,3.5,121\n";
static const char COUNTERS[] =
    "kernel,cu,engine_mhz,memory_mhz,grid_blocks,block_threads\n"
    "a,16,1000,1000,4096,256\nb,16,1000,1000,12,64\nc,16,1000,1000,1024,128\n";

static sp_model *model(void) {
  static sp_model *m;
  if (m) return m;
  sp_dataset *ds = NULL;
  sp_error err;
  sp_train_params p;
  sp_train_params_init(&p);
  p.base = (sp_config){16, 1000, 1000};
  p.clusters = 2;
  p.max_epochs = 20;
  p.methods = 0;
  /* fz_write returns one buffer for every path: copy the first. */
  char runs[8192];
  snprintf(runs, sizeof runs, "%s", fz_write("runs.csv", RUNS, sizeof RUNS - 1));
  FZ_CHECK(sp_dataset_load(runs, fz_write("counters.csv", COUNTERS, sizeof COUNTERS - 1), &ds,
                           &err) == SP_OK);
  int st = sp_model_train(ds, &p, NULL, NULL, &m, &err);
  if (st) {
    char line[2048];
    sp_error_format(&err, line, sizeof line);
    fz_print(line);
  }
  FZ_CHECK(st == SP_OK);
  sp_dataset_free(ds);
  return m;
}

static void check_write(const sp_profile *p) {
  sp_error err;
  sp_error_clear(&err);
  sp_config base = sp_model_base(model());
  const char *dir = fz_path("out");
  fz_remove("out");
  int st = sp_profile_write(p, &base, dir, &err);
  struct stat sb;
  if (st) {
    FZ_CHECK(err.status == st);
    FZ_CHECK(stat(dir, &sb) != 0);
  } else {
    const char *files[] = {"out/runs.csv", "out/counters.csv", "out/launches.csv",
                           "out/profile.txt", "out/profile-raw.csv"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
      FZ_CHECK(stat(fz_path(files[i]), &sb) == 0);
  }
  fz_remove("out");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sp_profile *p = NULL;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_profile_load(fz_write("profile.csv", data, size), model(), &p, &err);
  if (st) {
    FZ_CHECK(p == NULL && err.status == st);
    if (fz_verbose()) {
      char line[2048];
      sp_error_format(&err, line, sizeof line);
      fz_print(line);
    }
    return 0;
  }
  FZ_CHECK(sp_profile_entry_count(p) <= sp_profile_launch_count(p));
  FZ_CHECK(sp_profile_vendor(p) == SP_VENDOR_NVIDIA || sp_profile_vendor(p) == SP_VENDOR_AMD);
  for (size_t i = 0; i < sp_profile_missing_count(p); i++)
    FZ_CHECK(sp_profile_missing(p, i) && *sp_profile_missing(p, i));
  FZ_CHECK(sp_profile_device(p) != NULL);
  check_write(p);
  sp_profile_free(p);
  return 0;
}
