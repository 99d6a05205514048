/* SPDX-License-Identifier: GPL-3.0-or-later */
/* status.c: status names and error records. */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const names[SP_STATUS_COUNT] = {
    [SP_OK] = "success",
    [SP_ENOMEM] = "out of memory",
    [SP_EIO] = "input/output error",
    [SP_EPARSE] = "malformed input",
    [SP_EINVAL] = "invalid argument",
    [SP_EGRID] = "configuration grid error",
    [SP_ENOTFOUND] = "not found",
    [SP_ENOPOWER] = "no power data",
    [SP_EMODEL] = "invalid model",
    [SP_ENUMERIC] = "numerical failure",
    [SP_EEXIST] = "output path holds something else",
};

const char *sp_strerror(int status) {
  if (status < 0 || status >= SP_STATUS_COUNT) return "unknown status";
  return names[status];
}

void sp_error_clear(sp_error *err) {
  if (err) memset(err, 0, sizeof *err);
}

/* Copies src into dst with control characters written as \n, \r, \t or
 * \xHH, so that an error stays on one line even when it quotes a field
 * that held a line break (a quoted CSV field may). */
static void copy_bounded(char *dst, size_t size, const char *src) {
  size_t at = 0;
  for (; src && *src; src++) {
    const unsigned char c = (unsigned char)*src;
    char esc[8] = {(char)c, '\0'};
    if (c == '\n' || c == '\r' || c == '\t')
      snprintf(esc, sizeof esc, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
    else if (c < 0x20 || c == 0x7f)
      snprintf(esc, sizeof esc, "\\x%02x", c);
    const size_t n = strlen(esc);
    if (at + n >= size) break;
    memcpy(dst + at, esc, n);
    at += n;
  }
  if (size) dst[at] = '\0';
}

static int vfail(sp_error *err, int status, const char *file, long line, long column,
                 const char *field, const char *fmt, va_list ap) {
  if (!err) return status;
  err->status = status;
  copy_bounded(err->file, sizeof err->file, file);
  err->line = line;
  err->column = column;
  copy_bounded(err->field, sizeof err->field, field);
  char message[sizeof err->message];
  vsnprintf(message, sizeof message, fmt, ap);
  copy_bounded(err->message, sizeof err->message, message);
  return status;
}

int sp_error_set(sp_error *err, int status, const char *file, long line, long column,
                 const char *field, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int st = vfail(err, status, file, line, column, field, fmt, ap);
  va_end(ap);
  return st;
}

int sp__fail(sp_error *err, int status, const char *file, long line, long column, const char *field,
             const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int st = vfail(err, status, file, line, column, field, fmt, ap);
  va_end(ap);
  return st;
}

int sp__oom(sp_error *err) { return sp__fail(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory"); }

int sp_error_format(const sp_error *err, char *buf, size_t size) {
  size_t used = 0;
  int n;
#define APPEND(...)                                                       \
  do {                                                                    \
    n = snprintf(buf + used, used < size ? size - used : 0, __VA_ARGS__); \
    if (n > 0) used += (size_t)n;                                         \
  } while (0)
  if (size) buf[0] = '\0';
  if (err->file[0]) {
    APPEND("%s:", err->file);
    if (err->line > 0) APPEND("%ld:", err->line);
    if (err->column > 0) APPEND("%ld:", err->column);
    APPEND(" ");
  }
  if (err->field[0]) APPEND("field '%s': ", err->field);
  APPEND("%s", err->message[0] ? err->message : sp_strerror(err->status));
#undef APPEND
  return (int)used;
}
