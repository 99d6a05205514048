/* SPDX-License-Identifier: GPL-3.0-or-later */
/* suites.c: the kernel tables sp-runner can run (--suite) and where their
 * device sources live.
 *
 * The tables are the suites of training/suites.txt, through the suites.def
 * that configure writes from it: suite NAME's host sources (compiled in by
 * the rules of suites.mk) define NAME_count and NAME_at.  Each suite's
 * device sources are in its own folder and include the shared headers of
 * training/kernels/common, so every compile gets that folder and every
 * suite's on its include path.  A kernel's folder follows from the table
 * it belongs to, never from its file name, so the suites may use the same
 * file names. */
#include <string.h>

#include "runner.h"

#define SP_SUITE(name, prefix, folder, role, retired) \
  size_t name##_count(void);                          \
  const kdesc *name##_at(size_t i);
#include "suites.def"
#undef SP_SUITE

/* The registry, in its order. */
static const runner_suite_info SUITES[RUNNER_NSUITES] = {
#define SP_SUITE(name, prefix, folder, role, retired) \
  {#name, prefix, folder, RUNNER_##role, retired, name##_count, name##_at},
#include "suites.def"
#undef SP_SUITE
};

/* The group selections, and the core suite's old --suite name. */
static const struct {
  const char *name;
  runner_suite sel;
} GROUPS[] = {
    {"all", RUNNER_SEL_ALL},
    {"training", RUNNER_SEL_TRAINING},
    {"heldout", RUNNER_SEL_HELDOUT},
};
static const char OLD_CORE_NAME[] = "train", CORE_NAME[] = "core";

const runner_suite_info *runner_suite_info_at(int i) {
  return i >= 0 && i < RUNNER_NSUITES ? &SUITES[i] : NULL;
}

/* Table t's kernel called name, or NULL. */
static const kdesc *table_find(int t, const char *name) {
  for (size_t i = 0; i < SUITES[t].count(); ++i) {
    const kdesc *d = SUITES[t].at(i);
    if (strcmp(d->name, name) == 0) return d;
  }
  return NULL;
}

/* Whether table t belongs to selection s. */
static int selected(runner_suite s, int t) {
  switch (s) {
    case RUNNER_SEL_ALL:
      return 1;
    case RUNNER_SEL_TRAINING:
      return SUITES[t].role == RUNNER_TRAINING;
    case RUNNER_SEL_HELDOUT:
      return SUITES[t].role == RUNNER_HELDOUT;
    default:
      return s == t;
  }
}

size_t runner_suite_count(runner_suite s) {
  size_t n = 0;
  for (int t = 0; t < RUNNER_NSUITES; ++t)
    if (selected(s, t)) n += SUITES[t].count();
  return n;
}

const kdesc *runner_suite_at(runner_suite s, size_t i) {
  for (int t = 0; t < RUNNER_NSUITES; ++t) {
    if (!selected(s, t)) continue;
    if (i < SUITES[t].count()) return SUITES[t].at(i);
    i -= SUITES[t].count();
  }
  return NULL;
}

const kdesc *runner_suite_find(runner_suite s, const char *name) {
  const kdesc *d = NULL;
  for (int t = 0; t < RUNNER_NSUITES && d == NULL; ++t)
    if (selected(s, t)) d = table_find(t, name);
  return d;
}

const char *runner_suite_name(runner_suite s) {
  if (s >= 0 && s < RUNNER_NSUITES) return SUITES[s].name;
  for (size_t g = 0; g < sizeof GROUPS / sizeof *GROUPS; ++g)
    if (GROUPS[g].sel == s) return GROUPS[g].name;
  return "?";
}

int runner_dir_index(const char *name) {
  if (strcmp(name, "common") == 0) return RUNNER_COMMON_DIR;
  for (int t = 0; t < RUNNER_NSUITES; ++t)
    if (strcmp(name, SUITES[t].name) == 0) return t;
  return -1;
}

int runner_suite_parse(const char *name, runner_suite *out) {
  if (strcmp(name, OLD_CORE_NAME) == 0) name = CORE_NAME;
  for (size_t g = 0; g < sizeof GROUPS / sizeof *GROUPS; ++g)
    if (strcmp(name, GROUPS[g].name) == 0) {
      *out = GROUPS[g].sel;
      return 0;
    }
  const int t = runner_dir_index(name);
  if (t < 0 || t == RUNNER_COMMON_DIR) return -1;
  *out = t;
  return 0;
}

const char *runner_source_dir(const runner_opts *o, const kdesc *d) {
  for (int t = 0; t < RUNNER_NSUITES; ++t)
    if (table_find(t, d->name) == d) return o->suite_dir[t];
  return o->suite_dir[0];
}

void runner_include_dirs(const runner_opts *o, const char *dirs[RUNNER_INCLUDE_DIRS]) {
  dirs[0] = o->suite_dir[RUNNER_COMMON_DIR];
  for (int t = 0; t < RUNNER_NSUITES; ++t) dirs[1 + t] = o->suite_dir[t];
  dirs[RUNNER_INCLUDE_DIRS - 1] = NULL;
}
