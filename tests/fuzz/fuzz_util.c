/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_util.c: scratch files for the fuzz targets; see fuzz.h. */
#include "fuzz.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[4096];

static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return;
  if (!S_ISDIR(st.st_mode)) {
    unlink(path);
    return;
  }
  DIR *d = opendir(path);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char sub[8192];
    snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
    remove_tree(sub);
  }
  if (d) closedir(d);
  rmdir(path);
}

static void cleanup(void) { remove_tree(dir); }

const char *fz_dir(void) {
  if (dir[0]) return dir;
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/sp-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    perror("fuzz: mkdtemp");
    abort();
  }
  atexit(cleanup);
  return dir;
}

const char *fz_path(const char *name) {
  static _Thread_local char path[8192];
  snprintf(path, sizeof path, "%s/%s", fz_dir(), name);
  return path;
}

const char *fz_write(const char *name, const void *data, size_t size) {
  const char *path = fz_path(name);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  const char *p = data;
  while (fd >= 0 && size > 0) {
    ssize_t n = write(fd, p, size);
    if (n <= 0) break;
    p += n;
    size -= (size_t)n;
  }
  if (fd < 0 || size > 0 || close(fd) != 0) {
    perror("fuzz: writing the input");
    abort();
  }
  return path;
}

void fz_remove(const char *name) { remove_tree(fz_path(name)); }

int fz_verbose(void) {
  static int verbose = -1;
  if (verbose < 0) verbose = getenv("SP_FUZZ_VERBOSE") != NULL;
  return verbose;
}

void fz_print(const char *line) {
  const size_t n = strlen(fz_dir());
  for (const char *at; (at = strstr(line, fz_dir())) != NULL; line = at + n + 1)
    fwrite(line, 1, (size_t)(at - line), stdout);
  puts(line);
  fflush(stdout); /* a property violation aborts next */
}

void fz_violation(const char *file, int line, const char *what) {
  fprintf(stderr, "%s:%d: property violated: %s\n", file, line, what);
  abort();
}
