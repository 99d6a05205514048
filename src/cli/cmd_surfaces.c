/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_surfaces.c: scalepredict surfaces, the scaling values as CSV. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

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

typedef struct surfaces_cli {
  const char *runs, *kernel, *out, *quantity;
  int want[2]; /* time, power */
} surfaces_cli;

#define ROW(kind, name, arg, field, help) CLI_ROW(kind, name, arg, surfaces_cli, field, help)
static const cli_option options[] = {
    ROW(CLI_STRING, "runs", "FILE", runs, "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w"),
    ROW(CLI_STRING, "kernel", "NAME", kernel, "only this kernel"),
    ROW(CLI_STRING, "quantity", "Q", quantity, "time (default), power, or both"),
    ROW(CLI_STRING, "out", "DIR", out,
        "output directory (default: surfaces); the files in it\n"
        "are replaced only when they are older surfaces"),
    CLI_ROW_FORCE,
};

static const cli_command command = {
    .prefix = "surfaces ",
    .optstring = ":h",
    .head =
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
        "\n",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .column = 21,
};

/* The table's options, then what holds between them. */
static int parse_args(surfaces_cli *c, int argc, char **argv, int *done) {
  int rc = cli_parse_options(&command, c, argc, argv, done);
  if (rc || *done) return rc;
  if (!c->runs) return cli_usage_error("surfaces ", "--runs is required");
  const int both = !strcmp(c->quantity, "both");
  c->want[0] = both || !strcmp(c->quantity, "time");
  c->want[1] = both || !strcmp(c->quantity, "power");
  if (!c->want[0] && !c->want[1])
    return cli_usage_error("surfaces ", "--quantity must be time, power or both, not '%s'",
                           c->quantity);
  if (!*c->out) return cli_usage_error("surfaces ", "--out: the output path is empty");
  rc = cli_add_inputs("--runs", c->runs, (char *)NULL);
  return rc ? rc : check_outputs(c->out, c->want);
}

int cmd_surfaces(int argc, char **argv) {
  surfaces_cli c = {.out = "surfaces", .quantity = "time"};
  int done, rc = parse_args(&c, argc, argv, &done);
  if (rc || done) return rc;
  const char *runs = c.runs, *kernel = c.kernel, *out = c.out;
  const int *want = c.want;
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
