/* SPDX-License-Identifier: GPL-3.0-or-later */
/* backend.c: what the backends share. */
#include "backend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *bk_error(const bk *b) { return b->err; }

const bk_ops *bk_find(const char *name) {
  if (strcmp(name, "opencl") == 0) return &bk_opencl_ops;
#ifdef SP_HAVE_CUDA
  if (strcmp(name, "cuda") == 0) return &bk_cuda_ops;
#endif
  return NULL;
}

char *bk_read_source(const char *path, char *err, size_t size) {
  FILE *fp = fopen(path, "rb");
  if (fp == NULL) {
    snprintf(err, size, "%s: %s", path, strerror(errno));
    return NULL;
  }
  char *text = NULL;
  long len = -1;
  if (fseek(fp, 0, SEEK_END) == 0 && (len = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
      (text = malloc((size_t)len + 1)) && fread(text, 1, (size_t)len, fp) == (size_t)len) {
    text[len] = '\0';
    fclose(fp);
    return text;
  }
  snprintf(err, size, "%s: could not be read", path);
  free(text);
  fclose(fp);
  return NULL;
}

int bk_cuda_only(const char *file) {
  size_t n = strlen(file);
  return n > 3 && strcmp(file + n - 3, ".cu") == 0;
}

int bk_dirs_set(bk_dirs *d, const char *const *dirs) {
  size_t n = 0;
  while (dirs && dirs[n]) ++n;
  d->n = 0;
  d->dir = calloc(n + 1, sizeof *d->dir);
  if (d->dir == NULL) return -1;
  for (; d->n < (int)n; ++d->n) {
    const size_t len = strlen(dirs[d->n]) + 1;
    if ((d->dir[d->n] = malloc(len)) == NULL) {
      bk_dirs_free(d);
      return -1;
    }
    memcpy(d->dir[d->n], dirs[d->n], len);
  }
  return 0;
}

void bk_dirs_free(bk_dirs *d) {
  for (int i = 0; d->dir && i < d->n; ++i) free(d->dir[i]);
  free(d->dir);
  d->dir = NULL;
  d->n = 0;
}

void bk_dirname(const char *path, char *buf, size_t size) {
  const char *slash = strrchr(path, '/');
  if (slash == NULL)
    snprintf(buf, size, ".");
  else if (slash == path)
    snprintf(buf, size, "/");
  else
    snprintf(buf, size, "%.*s", (int)(slash - path), path);
}
