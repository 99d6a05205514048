/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mfread.h: reading a method's saved file (physet, static): keyed lines,
 * rows of numbers and an embedded forest, with errors naming the file and
 * line.  Internal. */
#ifndef SP_MFREAD_H
#define SP_MFREAD_H

#include <stdio.h>

#include "forest.h"
#include "scalepredict.h"

typedef struct sp_mf_reader {
  FILE *fp;
  const char *path;
  char *buf; /* the current line (getline's buffer, freed by the caller) */
  size_t cap;
  long line;   /* of the current line */
  int version; /* the file's format version, where a method has several */
  sp_error *err;
} sp_mf_reader;

/* SP_EMODEL at the current line, with what as the message. */
int sp__mf_bad(const sp_mf_reader *r, const char *what);
/* Reads the next line, which must be key followed by a space or its end;
 * returns what follows key, or NULL. */
char *sp__mf_line(sp_mf_reader *r, const char *key);
/* Reads the forest that starts on the next line and checks that it has n
 * samples of nfeat features. */
int sp__mf_forest(sp_mf_reader *r, sp_forest **f, size_t n, size_t nfeat);

#endif /* SP_MFREAD_H */
