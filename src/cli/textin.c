/* SPDX-License-Identifier: GPL-3.0-or-later */
/* textin.c: the tool's own line-oriented text inputs (a sweep plan's grid,
 * evaluate's families), read with bounds: a device that never ends
 * (/dev/zero), endless blank lines or a binary file are refused with the
 * file and line instead of being read forever. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Opens path without waiting for a writer when it is a FIFO nobody has
 * opened (it then reads as empty), then reads it as any file. */
static FILE *open_text(const char *path) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return NULL;
  int flags = fcntl(fd, F_GETFL);
  FILE *fp = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
  if (!fp) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return fp;
}

typedef struct line_reader {
  const char *path;
  FILE *fp;
  char *buf;
  size_t max_line;
  long line;
  sp_error *err;
} line_reader;

/* Reads the next line into r->buf without its end; *got is 0 at the end
 * of the file.  SP_OK or the status of an error. */
static int next_line(line_reader *r, int *got) {
  *got = 0;
  size_t n = 0;
  int c;
  while ((c = getc(r->fp)) != EOF && c != '\n') {
    if (c == '\0')
      return sp_error_set(r->err, SP_EPARSE, r->path, r->line + 1, (long)n + 1, NULL,
                          "contains a NUL byte (not a text file?)");
    if (n == r->max_line)
      return sp_error_set(r->err, SP_EPARSE, r->path, r->line + 1, 0, NULL,
                          "line longer than %zu bytes", r->max_line);
    r->buf[n++] = (char)c;
  }
  /* A directory opens but cannot be read: say so, and not at a line. */
  if (ferror(r->fp))
    return sp_error_set(r->err, SP_EIO, r->path, errno == EISDIR ? 0 : r->line + 1, 0, NULL,
                        "cannot read: %s", strerror(errno));
  if (c == EOF && n == 0) return SP_OK;
  if (n && r->buf[n - 1] == '\r') n--;
  r->buf[n] = '\0';
  r->line++;
  *got = 1;
  return SP_OK;
}

int cli_read_lines(const char *path, size_t max_line, long max_lines, cli_line_fn fn, void *user,
                   sp_error *err) {
  line_reader r = {path, open_text(path), malloc(max_line + 1), max_line, 0, err};
  int st = SP_OK;
  if (!r.fp)
    st = sp_error_set(err, SP_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
  else if (!r.buf)
    st = sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  int got = 1;
  while (!st && !(st = next_line(&r, &got)) && got) {
    if (r.line > max_lines)
      st = sp_error_set(err, SP_EPARSE, path, r.line, 0, NULL, "more than %ld lines", max_lines);
    else
      st = fn(user, r.buf, r.line, err);
  }
  if (r.fp) fclose(r.fp);
  free(r.buf);
  return st;
}
