/* SPDX-License-Identifier: GPL-3.0-or-later */
/* child.c: a program the tool runs and waits for (a profiler, which runs
 * the user's program in turn), in a process group of its own, so that one
 * kill reaches the profiler and everything it started.  The tool's signal
 * handler (common.c) passes SIGINT, SIGTERM and SIGHUP on to that group,
 * waits for it to end (SIGKILL after a grace period), and only then removes
 * the temporaries: interrupted, `scalepredict profile` leaves no profiler
 * running and nothing behind.
 *
 * When the tool holds the terminal, the group is given it for its run (as a
 * shell gives a job the terminal): a program in a background group that
 * reads the terminal would otherwise stop (SIGTTIN).  Ctrl-C then reaches
 * the group directly, and the tool, seeing the profiler end by SIGINT,
 * ends by it too once its temporaries are gone. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* How long the profiler's group has to end after a signal is passed on
 * before it is killed: ncu finishes its current replay pass. */
#define GRACE_MS 5000
#define POLL_MS 10

static volatile sig_atomic_t group;    /* the running child's group, or 0 */
static volatile sig_atomic_t terminal; /* 1 while the group holds the terminal */

static const int passed_on[] = {SIGINT, SIGTERM, SIGHUP};

/* SIGINT, SIGTERM, SIGHUP and SIGTTOU (a background process that hands the
 * terminal over or back would get it) into s. */
static void held_signals(sigset_t *s) {
  sigemptyset(s);
  for (size_t i = 0; i < sizeof passed_on / sizeof *passed_on; i++) sigaddset(s, passed_on[i]);
  sigaddset(s, SIGTTOU);
}

/* Whether the tool's own group holds the terminal on standard input. */
static int holds_terminal(void) {
  return isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
}

/* The terminal back to the tool's group; async-signal-safe. */
static void take_terminal_back(void) {
  sigset_t s, saved;
  held_signals(&s);
  sigprocmask(SIG_BLOCK, &s, &saved);
  if (terminal) tcsetpgrp(STDIN_FILENO, getpgrp());
  terminal = 0;
  sigprocmask(SIG_SETMASK, &saved, NULL);
}

/* In the child, before exec: its own group (and the terminal), the tool's
 * handlers undone (an ignored signal stays ignored), the mask restored. */
static void become_child(char *const *argv, int tty, const sigset_t *saved) {
  setpgid(0, 0);
  if (tty) tcsetpgrp(STDIN_FILENO, getpid());
  for (size_t i = 0; i < sizeof passed_on / sizeof *passed_on; i++) {
    struct sigaction old;
    if (sigaction(passed_on[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
      signal(passed_on[i], SIG_DFL);
  }
  sigprocmask(SIG_SETMASK, saved, NULL);
  execv(argv[0], argv);
  _exit(127);
}

static void pause_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

/* Whether group g is gone within ms: no process left in it.  Its members
 * that end are reaped here: the leader (the tool's child) and, the tool
 * being their subreaper, those whose parent ended before them (a zombie
 * still counts as a member of its group). */
static int gone_within(pid_t g, long ms) {
  for (long waited = 0;; waited += POLL_MS) {
    while (waitpid(-g, NULL, WNOHANG) > 0)
      ;
    if (kill(-g, 0) < 0 && errno == ESRCH) return 1;
    if (waited >= ms) return 0;
    pause_ms(POLL_MS);
  }
}

/* Passes sig on to group g, waits for it to end, kills what is left after
 * the grace period; async-signal-safe. */
static void stop_group(pid_t g, int sig) {
  kill(-g, sig);
  if (!gone_within(g, GRACE_MS)) {
    kill(-g, SIGKILL);
    gone_within(g, GRACE_MS);
  }
}

void cli_stop_child(int sig) {
  pid_t g = group;
  if (g <= 0) return;
  int saved_errno = errno;
  stop_group(g, sig);
  group = 0;
  take_terminal_back();
  errno = saved_errno;
}

static int passed_on_signal(int sig) {
  for (size_t i = 0; i < sizeof passed_on / sizeof *passed_on; i++)
    if (passed_on[i] == sig) return 1;
  return 0;
}

/* Gives the terminal to group g when the tool holds it (continued in the
 * foreground, not with bg); terminal records it. */
static void give_terminal(pid_t g) {
  sigset_t s, saved;
  held_signals(&s);
  sigprocmask(SIG_BLOCK, &s, &saved);
  terminal = holds_terminal() && tcsetpgrp(STDIN_FILENO, g) == 0;
  sigprocmask(SIG_SETMASK, &saved, NULL);
}

/* Waits for the child to end, leaving it unreaped, into info.  Ctrl-Z on
 * the terminal the group holds stops the group alone: the tool then takes
 * the terminal back and stops too, so that its shell regains control, and
 * once continued (fg) it gives the group the terminal back and continues
 * it, as a shell does with a job. */
static void wait_exit(pid_t pid, siginfo_t *info) {
  for (;;) {
    while (waitid(P_PID, (id_t)pid, info, WEXITED | WSTOPPED | WNOWAIT) < 0 && errno == EINTR)
      ;
    if (info->si_code != CLD_STOPPED) return;
    siginfo_t seen; /* the stop, taken so that the next wait waits */
    waitid(P_PID, (id_t)pid, &seen, WSTOPPED | WNOHANG);
    if (!terminal) continue;
    take_terminal_back();
    raise(SIGTSTP);
    give_terminal(pid);
    kill(-pid, SIGCONT);
  }
}

/* Waits for the child to end and reaps it, into info.  It stays unreaped
 * until the group is forgotten, so that its pid (the group's id) cannot be
 * reused while the handler may still signal it.  When it ended by a signal
 * that ends the tool (Ctrl-C on the terminal it held), what it left in its
 * group is ended too (SIGTERM: what still runs ignored the first signal). */
static void reap(pid_t pid, siginfo_t *info) {
  wait_exit(pid, info);
  sigset_t s, saved;
  held_signals(&s);
  sigprocmask(SIG_BLOCK, &s, &saved);
  if (info->si_code != CLD_EXITED && passed_on_signal(info->si_status)) stop_group(pid, SIGTERM);
  group = 0;
  take_terminal_back();
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
    ;
  sigprocmask(SIG_SETMASK, &saved, NULL);
}

int cli_run_child(char *const *argv, int *signal_out) {
  *signal_out = 0;
  sigset_t s, saved;
  held_signals(&s);
  /* Blocked until the group is recorded: a signal in between would miss it. */
  sigprocmask(SIG_BLOCK, &s, &saved);
  int tty = holds_terminal();
#ifdef PR_SET_CHILD_SUBREAPER
  /* The profiled program's orphans become the tool's, so that the handler
   * can reap them and tell when the group is gone. */
  prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
  pid_t pid = fork();
  if (pid == 0) become_child(argv, tty, &saved);
  if (pid > 0) {
    setpgid(pid, pid); /* the child does so too: whichever runs first */
    if (tty) tcsetpgrp(STDIN_FILENO, pid);
    terminal = tty;
    group = pid;
  }
  sigprocmask(SIG_SETMASK, &saved, NULL);
  if (pid < 0) return -1;
  siginfo_t info;
  memset(&info, 0, sizeof info);
  reap(pid, &info);
  int exited = info.si_code == CLD_EXITED;
  *signal_out = exited ? 0 : info.si_status;
  return exited ? info.si_status : 128 + info.si_status;
}
