/* SPDX-License-Identifier: GPL-3.0-or-later */
/* table.c: names in the tool's text tables and notes.  Real kernel names
 * are long (demangled templates), may be UTF-8, and may hold any byte: a
 * name is shown as characters, not bytes, so its width counts UTF-8
 * characters; control characters, a backslash and bytes that are not UTF-8
 * are escaped (\n, \t, \r, \\, \xNN, \u0080 .. \u009f) so that a name never
 * breaks a row or a line; a name longer than its column is shortened in the
 * middle ("..."), keeping both ends (a template's name and its arguments).
 * CSV and JSON write names exactly (RFC 4180, JSON escapes). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The length of the UTF-8 sequence at s (1 to 4), or 0 when s does not
 * start one (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF). */
static size_t utf8_length(const unsigned char *s) {
  const unsigned char c = s[0];
  unsigned char lo = 0x80, hi = 0xBF;
  size_t n;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
  else
    return 0;
  if (s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < n; i++)
    if (s[i] < 0x80 || s[i] > 0xBF) return 0;
  return n;
}

/* Appends the shown form of the character at s to out; returns the bytes of
 * s it took.  *chars counts the characters written. */
static size_t show_char(const unsigned char *s, char *out, size_t *len, size_t *chars) {
  static const char hex[] = "0123456789abcdef";
  const size_t n = utf8_length(s);
  const char *esc = NULL;
  switch (s[0]) {
    case '\n':
      esc = "\\n";
      break;
    case '\t':
      esc = "\\t";
      break;
    case '\r':
      esc = "\\r";
      break;
    case '\\':
      esc = "\\\\";
      break;
  }
  if (esc) {
    memcpy(out + *len, esc, 2);
    *len += 2, *chars += 2;
    return 1;
  }
  if (n == 2 && s[0] == 0xC2 && s[1] < 0xA0) { /* C1 controls: U+0080 .. U+009F */
    memcpy(out + *len, "\\u00", 4);
    out[*len + 4] = hex[s[1] >> 4], out[*len + 5] = hex[s[1] & 15];
    *len += 6, *chars += 6;
    return 2;
  }
  if (!n || s[0] < 0x20 || s[0] == 0x7F) {
    out[*len] = '\\', out[*len + 1] = 'x';
    out[*len + 2] = hex[s[0] >> 4], out[*len + 3] = hex[s[0] & 15];
    *len += 4, *chars += 4;
    return 1;
  }
  memcpy(out + *len, s, n);
  *len += n, *chars += 1;
  return n;
}

/* The shown form of s (malloc'd; NULL when out of memory) and its length
 * in characters. */
static char *shown(const char *s, size_t *chars) {
  const size_t n = strlen(s);
  char *out = malloc(4 * n + 1);
  size_t len = 0;
  *chars = 0;
  for (size_t i = 0; out && i < n;) i += show_char((const unsigned char *)s + i, out, &len, chars);
  if (out) out[len] = '\0';
  return out;
}

/* The byte offset of character i of t, a valid UTF-8 text. */
static size_t char_offset(const char *t, size_t i) {
  size_t at = 0;
  for (; t[at] && i; i--) do
      at++;
    while (((unsigned char)t[at] & 0xC0) == 0x80);
  return at;
}

size_t cli_text_width(const char *s) {
  size_t chars;
  free(shown(s, &chars));
  return chars;
}

void cli_put_text(FILE *fp, const char *s) {
  size_t chars;
  char *t = shown(s, &chars);
  fputs(t ? t : "?", fp);
  free(t);
}

void cli_put_cell(FILE *fp, const char *s, size_t width) {
  size_t chars;
  char *t = shown(s, &chars);
  if (!t) {
    fprintf(fp, "%-*s", (int)width, "?");
    return;
  }
  if (chars <= width) {
    fputs(t, fp);
    fprintf(fp, "%*s", (int)(width - chars), "");
  } else if (width < 5) {
    fwrite(t, 1, char_offset(t, width), fp);
  } else {
    const size_t head = (width - 2) / 2, tail = width - 3 - head;
    fwrite(t, 1, char_offset(t, head), fp);
    fputs("...", fp);
    fputs(t + char_offset(t, chars - tail), fp);
  }
  free(t);
}

size_t cli_column_width(size_t longest, size_t least, size_t most) {
  return longest < least ? least : longest > most ? most : longest;
}
