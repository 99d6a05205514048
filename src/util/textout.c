/* SPDX-License-Identifier: GPL-3.0-or-later */
/* textout.c: locale-independent CSV, JSON and XML text output. */
#include "textout.h"

#include <math.h>
#include <string.h>

#include "scalepredict.h"

int sp__c_numeric_begin(sp_c_numeric *s) {
  s->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  if (s->c == (locale_t)0) {
    s->old = (locale_t)0;
    return SP_ENOMEM;
  }
  s->old = uselocale(s->c);
  return SP_OK;
}

void sp__c_numeric_end(sp_c_numeric *s) {
  if (s->c == (locale_t)0) return;
  uselocale(s->old);
  freelocale(s->c);
  s->c = (locale_t)0;
}

void sp__json_number(FILE *fp, double v, int digits) {
  if (isfinite(v))
    fprintf(fp, "%.*g", digits, v);
  else
    fputs("null", fp);
}

void sp_json_write_string(FILE *fp, const char *s) {
  fputc('"', fp);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(fp, "\\%c", c);
    else if (c < 0x20)
      fprintf(fp, "\\u%04x", c);
    else
      fputc(c, fp);
  }
  fputc('"', fp);
}

void sp_csv_write_field(FILE *fp, const char *s) {
  if (!s) s = "";
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, fp);
    return;
  }
  fputc('"', fp);
  for (; *s; s++) {
    if (*s == '"') fputc('"', fp);
    fputc(*s, fp);
  }
  fputc('"', fp);
}

int sp__csv_quoted(FILE *fp, const char *s) {
  int bad = putc('"', fp) == EOF;
  for (; *s; s++) {
    if (*s == '"') bad |= putc('"', fp) == EOF;
    bad |= putc(*s, fp) == EOF;
  }
  bad |= putc('"', fp) == EOF;
  return bad ? -1 : 0;
}

void sp__csv_number(FILE *fp, double v, int digits) {
  if (isfinite(v)) fprintf(fp, "%.*g", digits, v);
}

void sp__xml_text(FILE *fp, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
      case '&':
        fputs("&amp;", fp);
        break;
      case '<':
        fputs("&lt;", fp);
        break;
      case '>':
        fputs("&gt;", fp);
        break;
      case '"':
        fputs("&quot;", fp);
        break;
      case '\'':
        fputs("&#39;", fp);
        break;
      default:
        fputc(*s, fp);
    }
  }
}
