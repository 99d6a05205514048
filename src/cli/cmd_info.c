/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_info.c: scalepredict info (what a model needs and gives) and
 * scalepredict models (the bundled ones). */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The distinct values of one axis of the model's time grid, ascending (the
 * grid is in grid order, so a value repeats only next to larger ones). */
static void print_axis(const sp_model *m, const char *name, int axis) {
  size_t n = sp_model_config_count(m, SP_TIME);
  int last = -1;
  printf("  %-8s", name);
  for (int printed = 0, v;; last = v, printed++) {
    v = INT_MAX;
    for (size_t i = 0; i < n; i++) {
      sp_config c = sp_model_config_at(m, SP_TIME, i);
      int x = axis == SP_AXIS_CU ? c.cu : axis == SP_AXIS_ENGINE ? c.engine_mhz : c.memory_mhz;
      if (x > last && x < v) v = x;
    }
    if (v == INT_MAX) break;
    printf(" %d", v);
  }
  putchar('\n');
}

static void print_metrics(int vendor, const char *counter) {
  const char *const *metrics;
  size_t n = sp_counter_metrics(vendor, counter, &metrics);
  printf("    %-7s", sp_vendor_name(vendor));
  if (!n) fputs(" (no metric)", stdout);
  for (size_t i = 0; i < n; i++) {
    printf("%s%s", i ? ", " : " ", metrics[i]);
    /* What a profile that lacks the metric is read with instead. */
    double scale;
    const char *alt;
    for (size_t a = 0; (alt = sp_metric_alternative(vendor, metrics[i], a, &scale)); a++)
      printf(" %s %g x %s", a ? "or" : "(or", scale, alt);
    if (sp_metric_alternative(vendor, metrics[i], 0, NULL)) putchar(')');
  }
  putchar('\n');
}

static void print_counters(const sp_model *m) {
  printf("counters (%zu), each from the profiler metrics named:\n", sp_model_counter_count(m));
  for (size_t c = 0; c < sp_model_counter_count(m); c++) {
    const char *name = sp_model_counter_name(m, c);
    const char *t2 = sp_counter_analogue(SP_VENDOR_NVIDIA, name);
    if (!t2) t2 = sp_counter_analogue(SP_VENDOR_AMD, name);
    printf("  %s%s%s%s\n", name, t2 && *t2 ? " (Table II: " : "", t2 && *t2 ? t2 : "",
           t2 && *t2 ? ")" : "");
    for (int v = 0; v < SP_VENDOR_COUNT; v++) print_metrics(v, name);
  }
}

/* The further bases with the methods that predict from each, and the
 * memory systems: which cards the model was measured on. */
static void print_bases_memory(const sp_model *m) {
  for (size_t i = 1; i < sp_model_base_count(m); i++) {
    sp_config c = sp_model_base_at(m, i);
    char cfg[64];
    sp_config_format(&c, cfg, sizeof cfg);
    printf("base %s too, for", cfg);
    for (size_t j = 0, n = 0; j < sp_model_method_count(m); j++)
      if (sp_model_method_at(m, sp_model_method_name(m, j), &c))
        printf("%s %s", n++ ? "," : "", sp_model_method_name(m, j));
    printf(" (fitted on the %zu training kernels with counters there)\n",
           sp_model_base_kernels(m, i));
  }
  if (!sp_model_memory_count(m)) return;
  printf("measured on:");
  for (size_t i = 0; i < sp_model_memory_count(m); i++)
    printf("%s %s", i ? "," : "", sp_model_memory_at(m, i)->name);
  printf("\nmemory systems (%zu):\n", sp_model_memory_count(m));
  for (size_t i = 0; i < sp_model_memory_count(m); i++) {
    const sp_memory_system *s = sp_model_memory_at(m, i);
    printf("  %d MHz: %s, %s, %d-bit bus, %g GB/s peak, %g GB\n", s->memory_mhz, s->name, s->type,
           s->bus_bits, s->peak_gbs, s->capacity_gb);
  }
}

static void print_info(const sp_model *m, const char *dir, int all_kernels) {
  char base[64];
  sp_config b = sp_model_base(m);
  sp_config_format(&b, base, sizeof base);
  printf("model %s (%s)\nbase %s\n", sp_model_name(m), dir, base);
  print_bases_memory(m);
  printf("source: %s%s\n", sp_model_source(m), sp_model_is_synthetic(m) ? " (SYNTHETIC data)" : "");
  printf("grid: %zu configurations for time, %zu for power\n", sp_model_config_count(m, SP_TIME),
         sp_model_has_power(m) ? sp_model_config_count(m, SP_POWER) : 0);
  print_axis(m, "cu", SP_AXIS_CU);
  print_axis(m, "engine", SP_AXIS_ENGINE);
  print_axis(m, "memory", SP_AXIS_MEMORY);
  printf("methods:");
  for (size_t i = 0; i < sp_model_method_count(m); i++) printf(" %s", sp_model_method_name(m, i));
  printf(" (recommended: %s)\n", sp_model_recommended_method(m));
  size_t nk = sp_model_kernel_count(m), show = all_kernels || nk <= 12 ? nk : 12;
  printf("training kernels: %zu:", nk);
  for (size_t k = 0; k < show; k++) printf(" %s", sp_model_kernel_name(m, k));
  printf("%s\n", show < nk ? " ... (--kernels lists all)" : "");
  print_counters(m);
  char *list = NULL;
  sp_error err;
  for (int v = 0; v < SP_VENDOR_COUNT; v++)
    if (!sp_profile_metric_list(m, v, &list, &err)) {
      printf("%s metrics to collect: %s\n", sp_vendor_name(v), list);
      free(list);
    } else {
      printf("%s: %s\n", sp_vendor_name(v), err.message);
    }
  printf(
      "profile an application for it: scalepredict profile --model %s --out DIR -- "
      "PROGRAM [ARGS...]\n",
      dir);
}

typedef struct info_cli {
  const char *spec;
  int all;
} info_cli;

#define ROW(kind, name, arg, field, help) CLI_ROW(kind, name, arg, info_cli, field, help)
static const cli_option options[] = {
    ROW(CLI_STRING, "model", "DIR|NAME", spec,
        "the model (a directory, or a bundled model's name)"),
    ROW(CLI_FLAG, "kernels", NULL, all, "list every training kernel (default: the first 12)"),
};

static const cli_command command = {
    .prefix = "info ",
    .optstring = ":h",
    .head =
        "Usage: scalepredict info --model DIR|NAME [--kernels]\n"
        "\n"
        "Prints the model's base (and further bases, with the methods that predict\n"
        "from each), the memory systems it describes (the cards it was measured\n"
        "on: name, type, bus width, peak bandwidth, capacity), grid, methods,\n"
        "training kernels (--kernels: all of them), provenance, and its counters\n"
        "with the profiler metrics each is computed from (NVIDIA Nsight Compute,\n"
        "AMD rocprofv3) and the list to ask the profiler for.\n"
        "\n",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .column = 20,
};

int cmd_info(int argc, char **argv) {
  info_cli c = {0};
  int done, rc = cli_parse_options(&command, &c, argc, argv, &done);
  if (rc || done) return rc;
  if (!c.spec) return cli_usage_error("info ", "--model is required");
  char dir[PATH_MAX];
  sp_error err;
  sp_model *m = NULL;
  int st = cli_find_model(c.spec, dir, sizeof dir, &err);
  if (!st) st = sp_model_load(dir, &m, &err);
  if (st) return cli_fail(&err);
  print_info(m, dir, c.all);
  sp_model_free(m);
  return EXIT_OK;
}

/* One line per model directory under root/models. */
static size_t list_models(const char *root) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/models", root);
  DIR *d = opendir(path);
  struct dirent *e;
  size_t n = 0;
  while (d && (e = readdir(d)) != NULL) {
    sp_model *m = NULL;
    sp_error err;
    char dir[PATH_MAX + 256], base[64];
    snprintf(dir, sizeof dir, "%s/%s", path, e->d_name);
    if (e->d_name[0] == '.' || sp_model_load(dir, &m, &err)) continue;
    sp_config b = sp_model_base(m);
    sp_config_format(&b, base, sizeof base);
    printf("%-16s base %-16s %3zu counters %4zu kernels %s%s", e->d_name, base,
           sp_model_counter_count(m), sp_model_kernel_count(m),
           sp_model_has_power(m) ? "time+power" : "time",
           sp_model_is_synthetic(m) ? " SYNTHETIC" : "");
    for (size_t i = 1; i < sp_model_base_count(m); i++) {
      sp_config c = sp_model_base_at(m, i);
      sp_config_format(&c, base, sizeof base);
      printf("%s%s", i == 1 ? " also from " : ", ", base);
    }
    putchar('\n');
    sp_model_free(m);
    n++;
  }
  if (d) closedir(d);
  return n;
}

int cmd_models(int argc, char **argv) {
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    puts(
        "Usage: scalepredict models\n\nLists the bundled models, usable as --model NAME.\n"
        "Takes no options.");
    return EXIT_OK;
  }
  if (argc > 1) return cli_usage_error("models ", "unexpected argument '%s'", argv[1]);
  const char *root = cli_data_root();
  size_t n = root ? list_models(root) : 0;
  if (n == 0 && strcmp(root ? root : "", SP_PKGDATADIR)) n = list_models(SP_PKGDATADIR);
  if (n == 0) {
    fprintf(stderr,
            "scalepredict: no bundled models found (looked under "
            "$SCALEPREDICT_DATADIR, beside the program, and %s/models)\n",
            SP_PKGDATADIR);
    return EXIT_MODEL;
  }
  return EXIT_OK;
}
