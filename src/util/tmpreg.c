/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tmpreg.c: the temporaries of outputs in progress, for sp_output_cleanup.
 * A model or report is built in a temporary sibling and renamed into place;
 * when the tool is interrupted (SIGINT, SIGTERM) its handler calls
 * sp_output_cleanup, which removes what is recorded here (and what the
 * tool records itself, sp_output_track: a profiler's folder).  The table is
 * fixed-size and static, and the removal uses system calls only, so that
 * the handler allocates nothing. */
#define _GNU_SOURCE /* syscall, SYS_getdents64 */
#include "tmpreg.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "path.h"
#include "scalepredict.h"

#define SLOTS 16

static char paths[SLOTS][PATH_MAX];
static volatile sig_atomic_t used[SLOTS];

void sp__tmp_register(const char *path) {
  for (size_t i = 0; i < SLOTS; i++)
    if (!used[i]) {
      int n = snprintf(paths[i], sizeof paths[i], "%s", path);
      used[i] = n > 0 && (size_t)n < sizeof paths[i];
      return;
    }
}

void sp__tmp_hold(sigset_t *saved) {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  sigaddset(&s, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &s, saved);
}

void sp__tmp_release(const sigset_t *saved) { pthread_sigmask(SIG_SETMASK, saved, NULL); }

void sp__tmp_unregister(const char *path) {
  for (size_t i = 0; i < SLOTS; i++)
    if (used[i] && !strcmp(paths[i], path)) used[i] = 0;
}

/* How deep sp_output_cleanup descends into a directory: models and
 * reports are flat; a profiler's temporary folder (rocprofv3's) holds a
 * host and a process folder. */
#define TREE_DEPTH 8

#ifdef SYS_getdents64
/* Empties the directory open as fd, depth folders deep at most, with system
 * calls only, so that a signal handler can run it: opendir would allocate,
 * and deadlock a signal that arrived inside malloc.  unlinkat refuses a
 * directory (EISDIR), which is then emptied and removed in turn; a link is
 * removed, never followed. */
static void empty_dir(int fd, int depth) {
  _Alignas(8) char buf[4096]; /* records are 8-byte aligned */
  long n;
  while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
    for (long at = 0; at < n;) {
      const struct linux_dirent64 {
        unsigned long long ino;
        long long off;
        unsigned short reclen;
        unsigned char type;
        char name[];
      } *e = (const void *)(buf + at);
      at += e->reclen;
      if (!strcmp(e->name, ".") || !strcmp(e->name, "..")) continue;
      if (unlinkat(fd, e->name, 0) == 0 || depth == 0) continue;
      int sub = openat(fd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      if (sub < 0) continue;
      empty_dir(sub, depth - 1);
      close(sub);
      unlinkat(fd, e->name, AT_REMOVEDIR);
    }
}

static void remove_dir(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  if (fd < 0) return;
  empty_dir(fd, TREE_DEPTH);
  close(fd);
  rmdir(dir);
}
#else
static void remove_dir(const char *dir) { sp__tree_remove(dir); }
#endif

void sp_output_track(const char *path) { sp__tmp_register(path); }
void sp_output_untrack(const char *path) { sp__tmp_unregister(path); }

void sp_output_cleanup(void) {
  for (size_t i = 0; i < SLOTS; i++) {
    if (!used[i]) continue;
    used[i] = 0;
    struct stat st;
    if (lstat(paths[i], &st) != 0) continue;
    if (S_ISDIR(st.st_mode))
      remove_dir(paths[i]);
    else
      unlink(paths[i]);
  }
}
