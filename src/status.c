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
};

const char *sp_strerror(int status) {
  if (status < 0 || status >= SP_STATUS_COUNT) return "unknown status";
  return names[status];
}

void sp_error_clear(sp_error *err) {
  if (err) memset(err, 0, sizeof *err);
}

static void copy_bounded(char *dst, size_t size, const char *src) {
  if (!src) src = "";
  snprintf(dst, size, "%s", src);
}

int sp__fail(sp_error *err, int status, const char *file, long line,
             long column, const char *field, const char *fmt, ...) {
  if (!err) return status;
  err->status = status;
  copy_bounded(err->file, sizeof err->file, file);
  err->line = line;
  err->column = column;
  copy_bounded(err->field, sizeof err->field, field);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return status;
}

int sp_error_format(const sp_error *err, char *buf, size_t size) {
  size_t used = 0;
  int n;
#define APPEND(...)                                                   \
  do {                                                                \
    n = snprintf(buf + used, used < size ? size - used : 0, __VA_ARGS__); \
    if (n > 0) used += (size_t)n;                                     \
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
