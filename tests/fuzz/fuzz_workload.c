/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_workload.c: the small CSV inputs of dse and governor: a workload
 * (dse --weights, a profile's launches.csv), a governor trace (--trace)
 * and candidate products (dse --candidates).
 *
 * Input: a selector byte (its value modulo 3: weights, trace, candidates)
 * and the file.  The file is read for a dataset of three kernels on a
 * 2 x 1 x 2 grid and a small model trained on it once at start-up.
 * Properties: a rejected file leaves an error naming its status and the
 * file, and no result; an accepted workload gives every kernel 0 or a
 * weight within the documented bounds (1e-9 to 1e15); an accepted trace
 * replays, in ascending order, kernels it knows, on the model's grid; an
 * accepted set of candidates ranks each on the space, ranks 1 to N. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "scalepredict.h"

static const char RUNS[] =
    "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
    "a,8,1000,500,4.1,81\na,8,1000,1000,3.3,88\n"
    "a,16,1000,500,2.2,95\na,16,1000,1000,1.9,101\n"
    "b,8,1000,500,6.4,77\nb,8,1000,1000,3.5,84\n"
    "b,16,1000,500,6.1,80\nb,16,1000,1000,3.1,86\n"
    "c,8,1000,500,2.9,90\nc,8,1000,1000,2.7,99\n"
    "c,16,1000,500,1.6,121\nc,16,1000,1000,1.5,130\n";
static const char COUNTERS[] =
    "kernel,cu,engine_mhz,memory_mhz,alu.busy,mem.busy\n"
    "a,16,1000,1000,80.5,12.25\nb,16,1000,1000,9.75,91\n"
    "c,16,1000,1000,55,47.5\n";

static sp_dataset *ds;
static sp_model *m;

static void print_error(const sp_error *err) {
  char line[2048];
  sp_error_format(err, line, sizeof line);
  fz_print(line);
}

static void setup(void) {
  if (m) return;
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
  if (st) print_error(&err);
  FZ_CHECK(st == SP_OK);
}

/* A rejected input: an error with the status returned, naming a file. */
static void check_error(int st, const sp_error *err) {
  FZ_CHECK(err->status == st);
  FZ_CHECK(err->message[0] != '\0');
  if (fz_verbose()) print_error(err);
}

static void weights(const char *path) {
  const size_t n = sp_dataset_kernel_count(ds);
  double w[16];
  FZ_CHECK(n <= sizeof w / sizeof *w);
  sp_error err;
  sp_error_clear(&err);
  int st = sp_workload_load(path, ds, w, &err);
  if (st) {
    check_error(st, &err);
    return;
  }
  for (size_t k = 0; k < n; k++) FZ_CHECK(w[k] == 0 || (w[k] >= 1e-9 && w[k] <= 1e15));
}

static void trace(const char *path) {
  sp_governor_trace *t = NULL;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_governor_trace_load(path, m, ds, &t, &err);
  if (st) {
    FZ_CHECK(t == NULL);
    check_error(st, &err);
    return;
  }
  const size_t n = sp_governor_trace_length(t), nk = sp_governor_trace_kernel_count(t);
  FZ_CHECK(n >= 1 && nk >= 1 && nk <= n);
  FZ_CHECK(sp_governor_trace_config_count(t) == 4);
  for (size_t i = 0; i < n; i++) {
    FZ_CHECK(sp_governor_trace_kernel_at(t, i) < nk);
    if (i) FZ_CHECK(sp_governor_trace_order_at(t, i - 1) <= sp_governor_trace_order_at(t, i));
  }
  for (size_t k = 0; k < nk; k++) FZ_CHECK(sp_governor_trace_kernel_name(t, k) != NULL);
  sp_governor_trace_free(t);
}

static void candidates(const char *path) {
  sp_dse_params p;
  sp_dse_params_init(&p);
  p.candidates_path = path;
  sp_dse_result *r = NULL;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_dse_run(m, ds, &p, &r, &err);
  if (st) {
    FZ_CHECK(r == NULL);
    check_error(st, &err);
    return;
  }
  FZ_CHECK(r->ncandidates >= 1);
  for (size_t i = 0; i < r->ncandidates; i++) {
    FZ_CHECK(r->candidates[i].name != NULL);
    FZ_CHECK(r->candidates[i].config < r->nconfigs);
    FZ_CHECK(r->candidates[i].rank >= 1 && r->candidates[i].rank <= r->ncandidates);
  }
  sp_dse_result_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size) return 0;
  setup();
  const char *path = fz_write("input.csv", data + 1, size - 1);
  switch (data[0] % 3) {
    case 0:
      weights(path);
      break;
    case 1:
      trace(path);
      break;
    default:
      candidates(path);
  }
  return 0;
}
