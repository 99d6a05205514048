/* SPDX-License-Identifier: GPL-3.0-or-later */
/* reportdir.c: report directories written at once. */
#include "reportdir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "status.h"

int sp__reportdir_begin_as(sp_reportdir *d, const char *dir, sp_output_kind kind, sp_error *err) {
  d->tmp = NULL;
  d->dir = dir;
  d->kind = kind;
  return sp__tmpdir_create(dir, kind, &d->tmp, err);
}

int sp__reportdir_begin(sp_reportdir *d, const char *dir, sp_error *err) {
  return sp__reportdir_begin_as(d, dir, SP_OUTPUT_REPORT, err);
}

int sp__reportdir_file(sp_reportdir *d, const char *name, sp_report_fn fn, const void *data,
                       sp_error *err) {
  char *path = sp__path_join(d->tmp, name);
  if (!path) return sp__fail(err, SP_ENOMEM, d->dir, 0, 0, NULL, "out of memory");
  sp_atomic_file af;
  int st = sp__atomic_open(&af, path, err);
  if (!st) {
    st = fn(data, af.fp);
    if (st) {
      /* The stream's own error (a full disk) says more than the status. */
      int e = fflush(af.fp) != 0 ? errno : 0;
      sp__atomic_abort(&af);
      st = sp__fail(err, st, path, 0, 0, NULL, "cannot write: %s",
                    e ? strerror(e) : sp_strerror(st));
    } else {
      st = sp__atomic_commit(&af, err);
    }
  }
  free(path);
  if (st) sp__reportdir_abort(d, err);
  return st;
}

int sp__reportdir_commit(sp_reportdir *d, sp_error *err) {
  int st = sp__tmpdir_commit(d->tmp, d->dir, d->kind, err);
  if (st) sp__reportdir_abort(d, err);
  free(d->tmp);
  d->tmp = NULL;
  return st;
}

void sp__reportdir_abort(sp_reportdir *d, sp_error *err) {
  if (!d->tmp) return;
  sp__tmpdir_abort(d->tmp, d->dir, err);
  free(d->tmp);
  d->tmp = NULL;
}
