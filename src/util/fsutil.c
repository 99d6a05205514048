/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fsutil.c: crash-safe output (temporary file or directory + fsync + rename),
 * checked by outguard.c before it is built and again before it is renamed
 * into place, and the marker files of directory outputs. */
#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outguard.h"
#include "path.h"
#include "status.h"
#include "tmpreg.h"

/* Why path could not be created (errno e): a directory that refuses new
 * entries is named as such, not as the path that does not exist yet. */
static int fail_create(sp_error *err, const char *path, int e, const char *what) {
  if (e != EACCES && e != EROFS && e != EPERM)
    return sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot create %s: %s", what, strerror(e));
  char *parent = sp__dup_parent(path);
  int st = sp__fail(err, SP_EIO, path, 0, 0, NULL,
                    "cannot be written: its directory '%s' is not writable (%s)",
                    parent ? parent : ".", strerror(e));
  free(parent);
  return st;
}

int sp__atomic_open(sp_atomic_file *af, const char *path, sp_error *err) {
  memset(af, 0, sizeof *af);
  af->kind = -1;
  size_t n = strlen(path) + 16;
  af->path = strdup(path);
  af->tmp_path = malloc(n);
  if (!af->path || !af->tmp_path) {
    sp__atomic_abort(af);
    return sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  }
  snprintf(af->tmp_path, n, "%s.tmp-XXXXXX", path);
  sigset_t saved;
  sp__tmp_hold(&saved);
  int fd = mkstemp(af->tmp_path);
  if (fd >= 0) sp__tmp_register(af->tmp_path);
  sp__tmp_release(&saved);
  if (fd < 0) {
    int e = errno;
    free(af->tmp_path);
    af->tmp_path = NULL;
    sp__atomic_abort(af);
    return fail_create(err, path, e, "file");
  }
  /* mkstemp creates 0600; outputs are ordinary user files. */
  (void)fchmod(fd, 0644);
  af->fp = fdopen(fd, "w");
  if (!af->fp) {
    close(fd);
    sp__atomic_abort(af);
    return sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot open for writing");
  }
  return SP_OK;
}

int sp__atomic_open_output(sp_atomic_file *af, const char *path, sp_output_kind kind,
                           sp_error *err) {
  int st = sp_output_check(path, kind, err);
  if (!st) st = sp__atomic_open(af, path, err);
  if (!st) af->kind = (int)kind;
  return st;
}

/* Flushes, fsyncs and closes af's stream: 0, or the errno of the first
 * failure (EIO when a stdio error left none). */
static int close_stream(sp_atomic_file *af) {
  errno = 0;
  int failed = fflush(af->fp) != 0 || ferror(af->fp) || fsync(fileno(af->fp)) != 0;
  int e = failed ? (errno ? errno : EIO) : 0;
  if (fclose(af->fp) != 0 && !e) e = errno ? errno : EIO;
  af->fp = NULL;
  return e;
}

int sp__atomic_commit(sp_atomic_file *af, sp_error *err) {
  int st = af->kind >= 0 ? sp_output_check(af->path, (sp_output_kind)af->kind, err) : SP_OK;
  int e = st ? 0 : close_stream(af);
  if (!st && !e && rename(af->tmp_path, af->path) != 0) e = errno;
  if (e) st = sp__fail(err, SP_EIO, af->path, 0, 0, NULL, "cannot write: %s", strerror(e));
  if (st) {
    sp__atomic_abort(af);
    return st;
  }
  sp__tmp_unregister(af->tmp_path);
  sp__sync_parent(af->path);
  free(af->tmp_path);
  free(af->path);
  af->tmp_path = af->path = NULL;
  return SP_OK;
}

void sp__atomic_abort(sp_atomic_file *af) {
  if (af->fp) fclose(af->fp);
  if (af->tmp_path) {
    sp__tmp_unregister(af->tmp_path);
    unlink(af->tmp_path);
  }
  free(af->tmp_path);
  free(af->path);
  memset(af, 0, sizeof *af);
}

/* mkdtemp on "NAME<suffix>XXXXXX" beside name; the malloc'ed path or NULL. */
static char *sibling_dir(const char *name, const char *suffix) {
  size_t n = strlen(name) + strlen(suffix) + 8;
  char *p = malloc(n);
  if (!p) return NULL;
  snprintf(p, n, "%s%sXXXXXX", name, suffix);
  if (mkdtemp(p)) return p;
  free(p);
  return NULL;
}

static int make_tmpdir(const char *dir, sp_output_kind kind, char **tmp, sp_error *err) {
  sigset_t saved;
  sp__tmp_hold(&saved);
  if ((*tmp = sibling_dir(dir, ".tmp-")) != NULL) sp__tmp_register(*tmp);
  int e = errno;
  sp__tmp_release(&saved);
  if (!*tmp) return fail_create(err, dir, e, "temporary directory");
  (void)chmod(*tmp, 0755);
  int st = sp__output_mark(*tmp, kind, err);
  if (st) {
    sp__tmpdir_remove(*tmp);
    free(*tmp);
    *tmp = NULL;
  }
  return st;
}

int sp__tmpdir_create(const char *dir_arg, sp_output_kind kind, char **tmp, sp_error *err) {
  *tmp = NULL;
  char *dir = sp__strip_slashes(dir_arg);
  if (!dir) return sp__fail(err, SP_ENOMEM, dir_arg, 0, 0, NULL, "out of memory");
  int st = sp_output_check(dir, kind, err);
  if (!st) st = make_tmpdir(dir, kind, tmp, err);
  free(dir);
  return st;
}

void sp__tmpdir_remove(const char *tmp) {
  sp__tmp_unregister(tmp);
  sp__tree_remove(tmp);
}

void sp__tmpdir_abort(const char *tmp, const char *dir_arg, sp_error *err) {
  size_t n = strlen(tmp);
  if (err && !strncmp(err->file, tmp, n) && (err->file[n] == '/' || !err->file[n])) {
    char user[sizeof err->file];
    char *dir = sp__strip_slashes(dir_arg);
    snprintf(user, sizeof user, "%s%s", dir ? dir : dir_arg, err->file + n);
    snprintf(err->file, sizeof err->file, "%s", user);
    free(dir);
  }
  sp__tmpdir_remove(tmp);
}

/* Moves what is at dir aside to *old (an empty directory made for it), so
 * a crash between the two renames leaves one complete output, never none. */
static int move_aside(const char *dir, char **old, sp_error *err) {
  *old = NULL;
  if (access(dir, F_OK) != 0) return SP_OK;
  if (!(*old = sibling_dir(dir, ".old-")))
    return sp__fail(err, SP_EIO, dir, 0, 0, NULL, "cannot replace: %s", strerror(errno));
  if (rename(dir, *old) == 0) return SP_OK;
  int e = errno;
  rmdir(*old);
  free(*old);
  *old = NULL;
  return sp__fail(err, SP_EIO, dir, 0, 0, NULL, "cannot replace: %s", strerror(e));
}

static int commit_dir(const char *tmp, const char *dir, sp_output_kind kind, sp_error *err) {
  char *old;
  int st = sp_output_check(dir, kind, err);
  if (!st) st = move_aside(dir, &old, err);
  if (st) return st;
  if (rename(tmp, dir) != 0) {
    int e = errno;
    if (old) rename(old, dir);
    free(old);
    return sp__fail(err, SP_EIO, dir, 0, 0, NULL, "cannot rename into place: %s", strerror(e));
  }
  sp__tmp_unregister(tmp);
  sp__sync_parent(dir);
  if (old) sp__tree_remove(old);
  free(old);
  return SP_OK;
}

int sp__tmpdir_commit(const char *tmp, const char *dir_arg, sp_output_kind kind, sp_error *err) {
  char *dir = sp__strip_slashes(dir_arg);
  if (!dir) return sp__fail(err, SP_ENOMEM, dir_arg, 0, 0, NULL, "out of memory");
  /* The marker now lists what was written, all that the next output of
   * the kind may remove. */
  int st = sp__output_mark(tmp, kind, err);
  if (!st) st = commit_dir(tmp, dir, kind, err);
  free(dir);
  return st;
}

int sp__output_mark(const char *dir, sp_output_kind kind, sp_error *err) {
  const char *name;
  char *text = NULL, *path = NULL;
  int st = sp__output_marker(dir, kind, &name, &text, err);
  if (!st && !(path = sp__path_join(dir, name)))
    st = sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  sp_atomic_file af;
  if (!st) st = sp__atomic_open(&af, path, err);
  if (!st) {
    fputs(text, af.fp);
    st = sp__atomic_commit(&af, err);
  }
  free(path);
  free(text);
  return st;
}
