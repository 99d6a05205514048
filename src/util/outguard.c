/* SPDX-License-Identifier: GPL-3.0-or-later */
/* outguard.c: the rule that keeps an output from destroying what the user
 * owns.  A path is replaced only when it does not exist, is empty, or is an
 * artefact of the same kind that scalepredict wrote: a model or report
 * directory holding its marker file (models saved before markers existed
 * are recognised by their manifest), a CSV whose first line is the header
 * scalepredict writes there.  --force (sp_output_set_force) replaces other
 * directories and files too, but never a regular file with a directory. */
#include "outguard.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "status.h"

typedef struct kind_info {
  const char *name;       /* in messages */
  const char *marker;     /* marker file of a directory kind, NULL for files */
  const char *headers[3]; /* first-line prefixes of a file kind */
} kind_info;

static const kind_info kinds[] = {
    [SP_OUTPUT_MODEL] = {"model", ".scalepredict-model", {NULL}},
    [SP_OUTPUT_REPORT] = {"report", ".scalepredict-report", {NULL}},
    [SP_OUTPUT_EXPORT] = {"export CSV",
                          NULL,
                          {"kernel,config,cu,engine_mhz,memory_mhz,", "kernel,time_ms@", NULL}},
    [SP_OUTPUT_SURFACES] = {"surfaces CSV", NULL, {"kernel,quantity,kind,cu_from,", NULL}},
    [SP_OUTPUT_COMPLETED] = {"completed runs CSV",
                             NULL,
                             {"kernel,cu,engine_mhz,memory_mhz,time_ms,power_w,source\n", NULL}},
};

/* Set once by the tool from its command line, before any output. */
static int force_replace;

void sp_output_set_force(int force) { force_replace = force != 0; }

int sp__output_mark(const char *dir, sp_output_kind kind, sp_error *err) {
  char *path = sp__path_join(dir, kinds[kind].marker);
  if (!path) return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  sp_atomic_file af;
  int st = sp__atomic_open(&af, path, err);
  if (!st) {
    fprintf(af.fp, "written by scalepredict %s: this %s may be replaced by the next one\n",
            SP_VERSION_STRING, kinds[kind].name);
    st = sp__atomic_commit(&af, err);
  }
  free(path);
  return st;
}

static int file_starts_with(const char *path, const char *prefix) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return 0;
  char buf[64];
  size_t n = strlen(prefix);
  int same = n < sizeof buf && fread(buf, 1, n, fp) == n && !memcmp(buf, prefix, n);
  fclose(fp);
  return same;
}

static int dir_has(const char *dir, const char *name, const char *prefix) {
  char *path = sp__path_join(dir, name);
  int has = path && file_starts_with(path, prefix);
  free(path);
  return has;
}

/* The first entry of dir other than . and .., copied into first (empty when
 * dir is empty); -1 when dir cannot be read. */
static int first_entry(const char *dir, char *first, size_t size) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  struct dirent *e;
  first[0] = '\0';
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      snprintf(first, size, "%s", e->d_name);
      break;
    }
  closedir(d);
  return 0;
}

static int check_dir(const char *path, const kind_info *k, sp_error *err) {
  char first[256];
  if (first_entry(path, first, sizeof first))
    return sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot read the directory: %s",
                    strerror(errno));
  if (!first[0] || force_replace || dir_has(path, k->marker, "written by scalepredict") ||
      (k == &kinds[SP_OUTPUT_MODEL] && dir_has(path, "manifest.txt", "scalepredict-model ")))
    return SP_OK;
  return sp__fail(err, SP_EEXIST, path, 0, 0, NULL,
                  "will not replace this directory: it is not a scalepredict %s (it holds "
                  "'%s' and no %s); nothing was written: name a new or empty directory, "
                  "or pass --force to replace it",
                  k->name, first, k->marker);
}

static int check_file(const char *path, const struct stat *st, const kind_info *k, sp_error *err) {
  if (st->st_size == 0 || force_replace) return SP_OK;
  for (size_t i = 0; k->headers[i]; i++)
    if (file_starts_with(path, k->headers[i])) return SP_OK;
  return sp__fail(err, SP_EEXIST, path, 0, 0, NULL,
                  "will not replace this file: its first line is not the header of a "
                  "scalepredict %s; nothing was written: name a new file, or pass --force "
                  "to replace it",
                  k->name);
}

/* Outputs never create missing parent directories (as root, a typo could
 * create one anywhere): the parent must exist, or the output is refused. */
static int check_parent(const char *path, sp_error *err) {
  char *parent = sp__dup_parent(path);
  if (!parent) return sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  struct stat st;
  int found = stat(parent, &st) == 0;
  const char *why = found             ? "is not a directory"
                    : errno == ENOENT ? "does not exist"
                                      : strerror(errno);
  int rc = found && S_ISDIR(st.st_mode)
               ? SP_OK
               : sp__fail(err, SP_EIO, path, 0, 0, NULL,
                          "cannot be written: its directory '%s' %s; create it first", parent, why);
  free(parent);
  return rc;
}

static int check_path(const char *path, sp_output_kind kind, sp_error *err) {
  if ((unsigned)kind >= sizeof kinds / sizeof kinds[0])
    return sp__fail(err, SP_EINVAL, path, 0, 0, NULL, "unknown output kind");
  const kind_info *k = &kinds[kind];
  struct stat st;
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT) return check_parent(path, err);
    if (errno == ENOTDIR)
      return sp__fail(err, SP_EIO, path, 0, 0, NULL,
                      "cannot be written: a directory on its path is a file");
    return sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot inspect: %s", strerror(errno));
  }
  if (k->marker && S_ISDIR(st.st_mode)) return check_dir(path, k, err);
  if (!k->marker && S_ISREG(st.st_mode)) return check_file(path, &st, k, err);
  if (k->marker && S_ISREG(st.st_mode))
    return sp__fail(err, SP_EEXIST, path, 0, 0, NULL,
                    "is a file; a %s is a directory and a file is never replaced by one "
                    "(not even with --force); nothing was written: name a new or empty "
                    "directory",
                    k->name);
  return sp__fail(err, SP_EEXIST, path, 0, 0, NULL,
                  "will not replace this %s with a %s; nothing was written: name a new %s",
                  S_ISDIR(st.st_mode) ? "directory" : "special file or link", k->name,
                  k->marker ? "or empty directory" : "file");
}

int sp_output_check(const char *path_arg, sp_output_kind kind, sp_error *err) {
  char *path = sp__strip_slashes(path_arg); /* "out/" names out */
  if (!path) return sp__fail(err, SP_ENOMEM, path_arg, 0, 0, NULL, "out of memory");
  int st = check_path(path, kind, err);
  free(path);
  return st;
}
