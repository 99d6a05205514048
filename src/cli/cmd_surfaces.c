/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_surfaces.c: scalepredict surfaces, the scaling values as CSV. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static void usage(void) {
  puts(
      "Usage: scalepredict surfaces --runs FILE [--kernel NAME]\n"
      "                             [--quantity time|power|both] [--out DIR]\n"
      "                             [--force]\n"
      "\n"
      "Writes every kernel's scaling surface (paper Section III-B): the ratio\n"
      "between each pair of neighbouring grid configurations along the engine,\n"
      "memory and CU axes.  One CSV per quantity, DIR/time.csv and DIR/power.csv,\n"
      "with the columns\n"
      "  kernel,quantity,kind,cu_from,engine_from,memory_from,cu_to,engine_to,memory_to,ratio\n"
      "where ratio = value(to) / value(from).  A hole in the grid is an error naming\n"
      "the missing configuration.\n"
      "\n"
      "  --runs FILE        kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
      "  --kernel NAME      only this kernel\n"
      "  --quantity Q       time (default), power, or both\n"
      "  --out DIR          output directory (default: surfaces); the files in it\n"
      "                     are replaced only when they are older surfaces\n" CLI_FORCE_HELP);
}

static void quantity_path(const char *dir, int q, char *path, size_t size) {
  snprintf(path, size, "%s/%s.csv", dir, q == SP_TIME ? "time" : "power");
}

/* Before anything is computed: the files it would replace are older
 * surfaces (or --force was given). */
static int check_outputs(const char *dir, const int want[2]) {
  char path[PATH_MAX];
  int rc = EXIT_OK;
  if (access(dir, F_OK) != 0) return EXIT_OK; /* made later: nothing to replace */
  for (int q = 0; q < 2 && !rc; q++) {
    quantity_path(dir, q, path, sizeof path);
    if (want[q]) rc = cli_check_output(path, SP_OUTPUT_SURFACES);
  }
  return rc;
}

static int write_quantity(const sp_dataset *ds, size_t k0, size_t k1, sp_quantity q,
                          const char *dir, sp_error *err) {
  char path[PATH_MAX];
  quantity_path(dir, q, path, sizeof path);
  int st = sp_surfaces_save(ds, k0, k1, q, path, err);
  if (!st) printf("wrote %s\n", path);
  return st;
}

/* Builds every requested surface once before anything is written, so that
 * a hole in the grid fails the command without leaving one quantity's file
 * behind when the other cannot be written. */
static int check_surfaces(const sp_dataset *ds, size_t k0, size_t k1, const int want[2],
                          sp_error *err) {
  int st = SP_OK;
  for (int q = 0; q < 2 && !st; q++)
    for (size_t k = k0; k < k1 && want[q] && !st; k++) {
      sp_surface *s;
      st = sp_surface_build(ds, k, (sp_quantity)q, &s, err);
      sp_surface_free(s);
    }
  return st;
}

/* A directory this run made and could not fill is not left behind, nor
 * half of the output in it. */
static void remove_made(const char *dir, const int wrote[2]) {
  char path[PATH_MAX];
  for (int q = 0; q < 2; q++) {
    quantity_path(dir, q, path, sizeof path);
    if (wrote[q]) unlink(path);
  }
  rmdir(dir);
}

/* Whether dir, which mkdir could not make (errno still mkdir's), takes
 * the files: SP_OK, or why not, naming the directory that refused. */
static int usable_dir(const char *dir, sp_error *err) {
  int e = errno;
  struct stat st;
  if (e == EEXIST && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
    return sp_error_set(err, SP_EIO, dir, 0, 0, NULL,
                        "cannot create the output directory: a file is there");
  if (e == EEXIST && access(dir, W_OK) != 0)
    return sp_error_set(err, SP_EIO, dir, 0, 0, NULL, "the output directory is not writable (%s)",
                        strerror(errno));
  if (e == EEXIST) return SP_OK;
  char parent[PATH_MAX];
  const char *slash = strrchr(dir, '/');
  snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - dir) + (slash == dir) : 1,
           slash ? dir : ".");
  if (e == ENOENT)
    return sp_error_set(err, SP_EIO, dir, 0, 0, NULL,
                        "cannot be written: its directory '%s' does not exist; create it first",
                        parent);
  if (e == EACCES || e == EROFS || e == EPERM)
    return sp_error_set(err, SP_EIO, dir, 0, 0, NULL,
                        "cannot be written: its directory '%s' is not writable (%s)", parent,
                        strerror(e));
  return sp_error_set(err, SP_EIO, dir, 0, 0, NULL, "cannot create the output directory: %s",
                      strerror(e));
}

int cmd_surfaces(int argc, char **argv) {
  static const struct option opts[] = {{"runs", required_argument, 0, 'r'},
                                       {"kernel", required_argument, 0, 'k'},
                                       {"quantity", required_argument, 0, 'q'},
                                       {"out", required_argument, 0, 'o'},
                                       {"help", no_argument, 0, 'h'},
                                       {"force", no_argument, 0, CLI_OPT_FORCE},
                                       {0, 0, 0, 0}};
  const char *runs = NULL, *kernel = NULL, *out = "surfaces", *quantity = "time";
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
    switch (c) {
      case 'r':
        runs = optarg;
        break;
      case 'k':
        kernel = optarg;
        break;
      case 'q':
        quantity = optarg;
        break;
      case 'o':
        out = optarg;
        break;
      case CLI_OPT_FORCE:
        sp_output_set_force(1);
        break;
      case 'h':
        usage();
        return EXIT_OK;
      default:
        return cli_bad_option("surfaces ", c, argv);
    }
  }
  if (optind < argc) return cli_usage_error("surfaces ", "unexpected argument '%s'", argv[optind]);
  if (!runs) return cli_usage_error("surfaces ", "--runs is required");
  int want[2] = {!strcmp(quantity, "time") || !strcmp(quantity, "both"),
                 !strcmp(quantity, "power") || !strcmp(quantity, "both")};
  if (!want[0] && !want[1])
    return cli_usage_error("surfaces ", "--quantity must be time, power or both, not '%s'",
                           quantity);
  if (!*out) return cli_usage_error("surfaces ", "--out: the output path is empty");
  int rc = cli_add_inputs("--runs", runs, (char *)NULL);
  if (!rc) rc = check_outputs(out, want);
  if (rc) return rc;
  sp_error err;
  sp_error_clear(&err);
  sp_dataset *ds = NULL;
  int st = sp_dataset_load(runs, NULL, &ds, &err);
  size_t k0 = 0, k1 = ds ? sp_dataset_kernel_count(ds) : 0;
  if (!st && kernel) {
    k0 = sp_dataset_kernel_index(ds, kernel);
    k1 = k0 + 1;
    if (k0 == (size_t)-1) {
      st = sp_error_set(&err, SP_ENOTFOUND, runs, 0, 0, NULL, "no kernel named '%s'", kernel);
    }
  }
  if (!st) st = check_surfaces(ds, k0, k1, want, &err);
  int made = 0;
  if (!st && !(made = mkdir(out, 0755) == 0)) st = usable_dir(out, &err);
  int wrote[2] = {0, 0};
  for (int q = 0; q < 2 && !st; q++)
    if (want[q]) st = write_quantity(ds, k0, k1, (sp_quantity)q, out, &err), wrote[q] = !st;
  sp_dataset_free(ds);
  if (st && made) remove_made(out, wrote);
  return st ? cli_fail(&err) : EXIT_OK;
}
