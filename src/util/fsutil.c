/* fsutil.c: crash-safe output (temporary file or directory + fsync + rename). */
#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "status.h"

char *sp__path_join(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (!p) return NULL;
  memcpy(p, dir, a);
  size_t at = a;
  if (a && dir[a - 1] != '/') p[at++] = '/';
  memcpy(p + at, name, b + 1);
  return p;
}

static char *dup_parent(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return strdup(".");
  if (slash == path) return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

void sp__sync_parent(const char *path) {
  char *parent = dup_parent(path);
  if (!parent) return;
  int fd = open(parent, O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    /* A failed directory fsync only weakens durability, not correctness. */
    (void)fsync(fd);
    close(fd);
  }
  free(parent);
}

int sp__atomic_open(sp_atomic_file *af, const char *path, sp_error *err) {
  memset(af, 0, sizeof *af);
  size_t n = strlen(path) + 16;
  af->path = strdup(path);
  af->tmp_path = malloc(n);
  if (!af->path || !af->tmp_path) {
    sp__atomic_abort(af);
    return sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  }
  snprintf(af->tmp_path, n, "%s.tmp-XXXXXX", path);
  int fd = mkstemp(af->tmp_path);
  if (fd < 0) {
    int e = errno;
    free(af->tmp_path);
    af->tmp_path = NULL;
    sp__atomic_abort(af);
    return sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot create file: %s",
                    strerror(e));
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

int sp__atomic_commit(sp_atomic_file *af, sp_error *err) {
  int failed = fflush(af->fp) != 0 || ferror(af->fp);
  failed = failed || fsync(fileno(af->fp)) != 0;
  int e = errno;
  failed = (fclose(af->fp) != 0) || failed;
  af->fp = NULL;
  if (!failed && rename(af->tmp_path, af->path) != 0) {
    e = errno;
    failed = 1;
  }
  if (failed) {
    int st = sp__fail(err, SP_EIO, af->path, 0, 0, NULL, "write failed: %s",
                      strerror(e));
    sp__atomic_abort(af);
    return st;
  }
  sp__sync_parent(af->path);
  free(af->tmp_path);
  free(af->path);
  af->tmp_path = af->path = NULL;
  return SP_OK;
}

void sp__atomic_abort(sp_atomic_file *af) {
  if (af->fp) fclose(af->fp);
  if (af->tmp_path) unlink(af->tmp_path);
  free(af->tmp_path);
  free(af->path);
  memset(af, 0, sizeof *af);
}

int sp__mkdirs(const char *dir, sp_error *err) {
  char *p = strdup(dir);
  if (!p) return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  for (char *s = p + 1;; s++) {
    int end = *s == '\0';
    if (*s == '/' || end) {
      *s = '\0';
      if (mkdir(p, 0755) != 0 && errno != EEXIST) {
        int e = errno;
        free(p);
        return sp__fail(err, SP_EIO, dir, 0, 0, NULL,
                        "cannot create directory: %s", strerror(e));
      }
      if (end) break;
      *s = '/';
    }
  }
  free(p);
  return SP_OK;
}

int sp__tmpdir_create(const char *dir, char **tmp, sp_error *err) {
  char *parent = dup_parent(dir);
  if (!parent) return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  int st = sp__mkdirs(parent, err);
  free(parent);
  if (st) return st;
  size_t n = strlen(dir) + 16;
  *tmp = malloc(n);
  if (!*tmp) return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  snprintf(*tmp, n, "%s.tmp-XXXXXX", dir);
  if (!mkdtemp(*tmp)) {
    int e = errno;
    free(*tmp);
    *tmp = NULL;
    return sp__fail(err, SP_EIO, dir, 0, 0, NULL,
                    "cannot create temporary directory: %s", strerror(e));
  }
  (void)chmod(*tmp, 0755);
  return SP_OK;
}

void sp__tree_remove(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char *p = sp__path_join(dir, e->d_name);
    if (!p) break;
    struct stat st;
    if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
      sp__tree_remove(p);
    else
      unlink(p);
    free(p);
  }
  closedir(d);
  rmdir(dir);
}

int sp__tmpdir_commit(const char *tmp, const char *dir, sp_error *err) {
  struct stat st;
  char *old = NULL;
  if (stat(dir, &st) == 0) {
    /* Keep the old directory until the new one is in place, so a crash
     * between the two renames leaves one complete model, never none. */
    size_t n = strlen(dir) + 16;
    old = malloc(n);
    if (!old) return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
    snprintf(old, n, "%s.old-%ld", dir, (long)getpid());
    sp__tree_remove(old);
    if (rename(dir, old) != 0) {
      int e = errno;
      free(old);
      return sp__fail(err, SP_EIO, dir, 0, 0, NULL, "cannot replace: %s",
                      strerror(e));
    }
  }
  if (rename(tmp, dir) != 0) {
    int e = errno;
    if (old) rename(old, dir);
    free(old);
    return sp__fail(err, SP_EIO, dir, 0, 0, NULL, "cannot rename into place: %s",
                    strerror(e));
  }
  sp__sync_parent(dir);
  if (old) sp__tree_remove(old);
  free(old);
  return SP_OK;
}
