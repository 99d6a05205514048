/* SPDX-License-Identifier: GPL-3.0-or-later */
/* inread.c: bounded opening and reading of input files (inread.h). */
#include "inread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "status.h"

/* Whether the open file fd is a regular file of at most max bytes; if
 * not, why, into why. */
static int bounded(int fd, size_t max, char *why, size_t size) {
  struct stat st;
  if (fstat(fd, &st))
    snprintf(why, size, "%s", strerror(errno));
  else if (S_ISDIR(st.st_mode))
    snprintf(why, size, "it is a directory");
  else if (!S_ISREG(st.st_mode))
    snprintf(why, size, "it is not a regular file (a device or a FIFO?)");
  else if ((unsigned long long)st.st_size > (unsigned long long)max)
    snprintf(why, size, "it is larger than %zu bytes", max);
  else
    return 1;
  return 0;
}

FILE *sp__open_input(const char *path) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return NULL;
  /* Blocking again once open: a writer that has opened the FIFO is waited
   * for; one that opens it only after the first read is not (the FIFO has
   * read as empty by then). */
  int flags = fcntl(fd, F_GETFL);
  FILE *fp = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
  if (!fp) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return fp;
}

FILE *sp__open_bounded(const char *path, size_t max, int status, const char *what, sp_error *err) {
  /* Non-blocking, so that a FIFO nobody writes to is refused rather than
   * waited on; a regular file reads the same either way. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    sp__fail(err, status, path, 0, 0, NULL, "cannot open the %s: it is missing", what);
    return NULL;
  }
  if (fd < 0) {
    sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot open the %s: %s", what, strerror(errno));
    return NULL;
  }
  char why[128] = "";
  FILE *fp = bounded(fd, max, why, sizeof why) ? fdopen(fd, "rb") : NULL;
  if (!fp) {
    if (!why[0]) snprintf(why, sizeof why, "%s", strerror(errno));
    close(fd);
    sp__fail(err, status, path, 0, 0, NULL, "cannot read the %s: %s", what, why);
  }
  return fp;
}

/* The 1-based line of byte at in text. */
static long line_of(const char *text, size_t at) {
  long line = 1;
  for (const char *p = text; (p = memchr(p, '\n', at - (size_t)(p - text))) != NULL; p++) line++;
  return line;
}

/* Reads fp into *buf until its end, a NUL byte or more than max bytes
 * (the caller tells which); *buf has room for a terminating NUL. */
static int read_all(FILE *fp, size_t max, char **buf, size_t *n) {
  size_t cap = 0;
  *buf = NULL;
  *n = 0;
  for (;;) {
    if (*n + 1 >= cap) {
      size_t want = cap ? 2 * cap : 65536;
      if (want > max + 2) want = max + 2;
      char *b = realloc(*buf, want);
      if (!b) return SP_ENOMEM;
      *buf = b;
      cap = want;
    }
    size_t got = fread(*buf + *n, 1, cap - 1 - *n, fp);
    const int nul = memchr(*buf + *n, '\0', got) != NULL;
    *n += got;
    if (nul || *n > max) return SP_OK;
    if (!got) return ferror(fp) ? SP_EIO : SP_OK;
  }
}

int sp__read_text(const char *path, size_t max, const char *what, char **text, size_t *n,
                  sp_error *err) {
  *text = NULL;
  FILE *fp = sp__open_input(path);
  if (!fp) return sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
  char *buf;
  int st = read_all(fp, max, &buf, n);
  int e = errno;
  fclose(fp);
  const char *nul = buf ? memchr(buf, '\0', *n) : NULL;
  if (st == SP_ENOMEM)
    st = sp__oom(err);
  else if (st)
    st = sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot read: %s", strerror(e));
  else if (nul)
    st = sp__fail(err, SP_EPARSE, path, line_of(buf, (size_t)(nul - buf)), 0, NULL,
                  "contains a NUL byte (not a text file?)");
  else if (*n > max)
    st = sp__fail(err, SP_EPARSE, path, 0, 0, NULL, "the %s is larger than %zu bytes", what, max);
  if (st) {
    free(buf);
    return st;
  }
  buf[*n] = '\0';
  *text = buf;
  return SP_OK;
}
