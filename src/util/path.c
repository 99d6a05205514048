/* SPDX-License-Identifier: GPL-3.0-or-later */
/* path.c: paths and directory trees: joining, the parent, trailing
 * slashes, removing a tree the library made, syncing a parent after a
 * rename.  The bottom of the output code: fsutil.c, outguard.c,
 * inputreg.c and tmpreg.c build on it. */
#include "path.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *sp__path_join(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (!p) return NULL;
  memcpy(p, dir, a);
  size_t at = a;
  if (a && dir[a - 1] != '/') p[at++] = '/';
  memcpy(p + at, name, b + 1);
  return p;
}

char *sp__dup_parent(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return strdup(".");
  if (slash == path) return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

void sp__sync_parent(const char *path) {
  char *parent = sp__dup_parent(path);
  if (!parent) return;
  int fd = open(parent, O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    /* A failed directory fsync only weakens durability, not correctness. */
    (void)fsync(fd);
    close(fd);
  }
  free(parent);
}

char *sp__strip_slashes(const char *dir) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') n--;
  return strndup(dir, n);
}

void sp__tree_remove(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char p[PATH_MAX];
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    int n = snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    if (n < 0 || (size_t)n >= sizeof p) continue;
    struct stat st;
    if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
      sp__tree_remove(p);
    else
      unlink(p);
  }
  closedir(d);
  rmdir(dir);
}
