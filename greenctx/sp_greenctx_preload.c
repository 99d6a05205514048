/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp_greenctx_preload.c: libscalepredict-greenctx-preload.so, what
 * `scalepredict profile` preloads (LD_PRELOAD) into the program of its
 * second pass, so that an unmodified program runs on N SMs.  Its
 * constructor runs before the program's main, so before its first CUDA
 * runtime call, and with SP_GREEN_SMS=N set makes a green context of N SMs
 * the main thread's current context (sp_greenctx_from_env).  The runtime
 * then launches there, ncu's replays included; threads the program starts
 * later, and contexts it creates itself, keep every SM (profile tells them
 * by ncu's launch__sm_count).
 *
 * SP_GREEN_EXE=PATH limits it to the process running PATH (ncu and any
 * shell in between preload it too, and must not touch CUDA); SP_GREEN_STATUS
 * =FILE receives one line per process it acted in, "ok N pid P" or "error
 * pid P: why".  A failure is also said on standard error, and the program
 * goes on, on every SM: it is never ended by this library. */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scalepredict_greenctx.h"

/* Whether this process runs SP_GREEN_EXE (any process when unset). */
static int is_target(void) {
  const char *want = getenv("SP_GREEN_EXE");
  char a[PATH_MAX], b[PATH_MAX];
  if (!want || !*want) return 1;
  if (!realpath(want, a)) return 0;
  ssize_t n = readlink("/proc/self/exe", b, sizeof b - 1);
  if (n < 0) return 0;
  b[n] = '\0';
  return strcmp(a, b) == 0;
}

/* Appends line to SP_GREEN_STATUS in one write (whole, even when several
 * processes append at once). */
static void report(const char *line) {
  const char *path = getenv("SP_GREEN_STATUS");
  if (!path || !*path) return;
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    perror("libscalepredict-greenctx-preload: SP_GREEN_STATUS");
    return;
  }
  size_t n = strlen(line);
  if (write(fd, line, n) != (ssize_t)n) perror("libscalepredict-greenctx-preload: SP_GREEN_STATUS");
  close(fd);
}

__attribute__((constructor)) static void enter(void) {
  const char *s = getenv("SP_GREEN_SMS");
  if (!s || !*s || !is_target()) return;
  char err[512], line[640];
  int got = 0;
  if (sp_greenctx_from_env(&got, err, sizeof err) == 0) {
    snprintf(line, sizeof line, "ok %d pid %ld\n", got, (long)getpid());
  } else {
    fprintf(stderr,
            "libscalepredict-greenctx-preload: SP_GREEN_SMS=%s: %s; the program runs on "
            "every SM\n",
            s, err);
    snprintf(line, sizeof line, "error pid %ld: %s\n", (long)getpid(), err);
  }
  report(line);
}
