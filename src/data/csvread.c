/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csvread.c: libcsv driven one physical line at a time so that every row
 * can be reported with the line it came from. */
#include "csvread.h"

#include <csv.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/inread.h"
#include "util/status.h"
#include "util/textout.h"

typedef struct reader {
  const char *path;
  long line;       /* line currently being fed to libcsv */
  long row_line;   /* line of the current row's first field */
  long field_line; /* line on which the field being read began */
  long last_row;   /* line on which the last row ended */
  char **fields;
  size_t *caps; /* allocated size of each fields[i] */
  size_t nfields;
  size_t allocated;
  sp_csv_row_fn fn;
  void *user;
  sp_error *err;
  int status; /* first failure; stops further callbacks */
} reader;

static int store_field(reader *r, const char *data, size_t len) {
  if (r->nfields == r->allocated) {
    size_t n = r->allocated ? 2 * r->allocated : 16;
    char **f = realloc(r->fields, n * sizeof *f);
    if (!f) return SP_ENOMEM;
    r->fields = f;
    size_t *c = realloc(r->caps, n * sizeof *c);
    if (!c) return SP_ENOMEM;
    r->caps = c;
    for (size_t i = r->allocated; i < n; i++) {
      r->fields[i] = NULL;
      r->caps[i] = 0;
    }
    r->allocated = n;
  }
  size_t i = r->nfields;
  if (r->caps[i] < len + 1) {
    char *p = realloc(r->fields[i], len + 1);
    if (!p) return SP_ENOMEM;
    r->fields[i] = p;
    r->caps[i] = len + 1;
  }
  if (len) memcpy(r->fields[i], data, len);
  r->fields[i][len] = '\0';
  r->nfields++;
  return SP_OK;
}

/* UTF-16 text, as some Windows tools save CSV, puts a NUL beside every
 * ASCII character: say so, with the fix, rather than only "NUL byte". */
static const char *nul_message(const char *data, size_t len) {
  size_t nul = 0;
  for (size_t i = 0; i < len; i++) nul += data[i] == '\0';
  if (len >= 2 && 3 * nul >= len)
    return "field contains NUL bytes: the file looks like UTF-16; save it as UTF-8 "
           "(or ASCII) text";
  return "field contains a NUL byte (not a text file?)";
}

static void on_field(void *data, size_t len, void *user) {
  reader *r = user;
  if (r->status) return;
  if (r->nfields == 0) r->row_line = r->line;
  r->field_line = r->line; /* the next field starts after this comma */
  if (len > SP_CSV_MAX_FIELD_BYTES) {
    r->status =
        sp__fail(r->err, SP_EPARSE, r->path, r->line, (long)r->nfields + 1, NULL,
                 "field of %zu bytes exceeds the %zu-byte limit", len, SP_CSV_MAX_FIELD_BYTES);
    return;
  }
  if (r->nfields >= SP_CSV_MAX_FIELDS) {
    r->status = sp__fail(r->err, SP_EPARSE, r->path, r->line, 0, NULL,
                         "row has more than %zu fields", SP_CSV_MAX_FIELDS);
    return;
  }
  /* Fields are handed on as C strings: a NUL byte would silently cut one
   * short, so that "a<NUL>x" and "a<NUL>y" became the same kernel "a". */
  if (data && memchr(data, '\0', len)) {
    r->status = sp__fail(r->err, SP_EPARSE, r->path, r->line, (long)r->nfields + 1, NULL, "%s",
                         nul_message(data, len));
    return;
  }
  if (store_field(r, data ? data : "", data ? len : 0))
    r->status = sp__fail(r->err, SP_ENOMEM, r->path, r->line, 0, NULL, "out of memory");
}

static void on_row(int term, void *user) {
  reader *r = user;
  (void)term;
  if (r->status) return;
  sp_csv_row row = {r->row_line, r->nfields, r->fields};
  r->status = r->fn(r->user, &row, r->err);
  r->nfields = 0;
  r->field_line = r->line + 1; /* the row ended with this line */
  r->last_row = r->line;
}

/* libcsv in strict mode fails on the quoting that RFC 4180 does not allow;
 * leniently it would keep going, and an unclosed quote then swallowed the
 * rest of the file into one field, reported far away as a short row. */
static int syntax_error(reader *r, struct csv_parser *p) {
  if (csv_error(p) != CSV_EPARSE)
    return sp__fail(r->err, csv_error(p) == CSV_ENOMEM ? SP_ENOMEM : SP_EPARSE, r->path, r->line, 0,
                    NULL, "CSV error: %s", csv_strerror(csv_error(p)));
  return sp__fail(r->err, SP_EPARSE, r->path, r->line, (long)r->nfields + 1, NULL,
                  "malformed quoting: a quote inside an unquoted field or text "
                  "after a closing quote (quote the whole field and double "
                  "each quote inside it)");
}

/* Feeds buf to libcsv one physical line at a time, counting lines. */
static int feed(reader *r, struct csv_parser *p, const char *buf, size_t n) {
  while (n && !r->status) {
    const char *nl = memchr(buf, '\n', n);
    size_t take = nl ? (size_t)(nl - buf) + 1 : n;
    if (csv_parse(p, buf, take, on_field, on_row, r) != take && !r->status)
      r->status = syntax_error(r, p);
    /* libcsv hands a field over only once it ends; checking the part it
     * holds keeps an endless field from growing past the limit. */
    if (!r->status && p->entry_pos > SP_CSV_MAX_FIELD_BYTES)
      r->status = sp__fail(r->err, SP_EPARSE, r->path, r->line, (long)r->nfields + 1, NULL,
                           "field exceeds the %zu-byte limit", SP_CSV_MAX_FIELD_BYTES);
    /* Blank lines are skipped: without a limit, endless ones (yes '' |)
     * would be read forever in constant memory. */
    if (!r->status && r->line - r->last_row > SP_CSV_MAX_BLANK_LINES)
      r->status = sp__fail(r->err, SP_EPARSE, r->path, r->line, 0, NULL,
                           "more than %ld lines without a row (blank lines: not a CSV file?)",
                           SP_CSV_MAX_BLANK_LINES);
    buf += take;
    n -= take;
    if (nl) r->line++;
  }
  return r->status;
}

static void free_reader(reader *r) {
  for (size_t i = 0; i < r->allocated; i++) free(r->fields[i]);
  free(r->fields);
  free(r->caps);
}

int sp__csv_read(const char *path, sp_csv_row_fn fn, void *user, sp_error *err) {
  FILE *fp = sp__open_input(path);
  if (!fp) return sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
  struct csv_parser p;
  if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
    fclose(fp);
    return sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  }
  /* libcsv grows a field's buffer by a fixed step (128 bytes by default);
   * a larger step keeps long fields from costing quadratic copying. */
  csv_set_blk_size(&p, (size_t)1 << 16);
  reader r = {.path = path, .line = 1, .field_line = 1, .fn = fn, .user = user, .err = err};
  /* Numbers in the files always use '.', whatever the caller's locale. */
  sp_c_numeric cnum;
  sp__c_numeric_begin(&cnum);
  char buf[65536];
  size_t n;
  int first = 1, read_errno = 0;
  while (!r.status) {
    errno = 0;
    if ((n = fread(buf, 1, sizeof buf, fp)) == 0) {
      read_errno = errno;
      break;
    }
    const char *start = buf;
    if (first && n >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
      start += 3;
      n -= 3;
    }
    first = 0;
    feed(&r, &p, start, n);
  }
  /* A directory opens but cannot be read: say so, and not at a line. */
  if (!r.status && ferror(fp))
    r.status = sp__fail(err, SP_EIO, path, read_errno == EISDIR ? 0 : r.line, 0, NULL,
                        "cannot read: %s", strerror(read_errno ? read_errno : EIO));
  if (!r.status && csv_fini(&p, on_field, on_row, &r) != 0 && !r.status)
    r.status = csv_error(&p) != CSV_EPARSE
                   ? syntax_error(&r, &p)
                   : sp__fail(err, SP_EPARSE, path, r.field_line, (long)r.nfields + 1, NULL,
                              "a quoted field that begins on this line is "
                              "never closed (the file ends inside it)");
  csv_free(&p);
  fclose(fp);
  free_reader(&r);
  sp__c_numeric_end(&cnum);
  return r.status;
}

int sp__parse_double(const char *s, double *out) {
  char *end;
  while (*s == ' ' || *s == '\t') s++;
  if (!*s) return SP_EPARSE;
  errno = 0;
  double v = strtod(s, &end);
  while (*end == ' ' || *end == '\t' || *end == '\r') end++;
  if (*end || !isfinite(v)) return SP_EPARSE;
  *out = v;
  return SP_OK;
}

int sp__parse_int(const char *s, int *out) {
  double v;
  if (sp__parse_double(s, &v) || v != floor(v) || v < INT_MIN || v > INT_MAX) return SP_EPARSE;
  *out = (int)v;
  return SP_OK;
}
