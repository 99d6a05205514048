/* SPDX-License-Identifier: GPL-3.0-or-later */
/* suites.c: the kernel tables sp-runner can run (--suite) and where their
 * device sources live.
 *
 * The training suite's sources are in training/kernels/; the validation
 * suites' are in training/validation/, training/validation2/,
 * training/validation3/, training/validation4/, training/validation5/,
 * training/validation6/, training/validation7/, training/validation8/,
 * training/validation9/ and training/validation10/ and include
 * training/kernels/sp_port.h, so every compile gets all eleven folders on
 * its include path.  A kernel's folder
 * follows from the table it belongs to, never from its file name, so the
 * suites may use the same file names. */
#include <string.h>

#include "backend.h"
#include "runner.h"
#include "validation.h"
#include "validation2.h"
#include "validation3.h"
#include "validation4.h"
#include "validation5.h"
#include "validation6.h"
#include "validation7.h"
#include "validation8.h"
#include "validation9.h"
#include "validation10.h"

/* The tables, in --suite all order. */
typedef struct table {
  size_t (*count)(void);
  const kdesc *(*at)(size_t i);
} table;

/* In the order of runner_include_dirs, which names each table's folder. */
static const table TABLES[] = {
    {suite_count, suite_at},
    {validation_count, validation_at},
    {validation2_count, validation2_at},
    {validation3_count, validation3_at},
    {validation4_count, validation4_at},
    {validation5_count, validation5_at},
    {validation6_count, validation6_at},
    {validation7_count, validation7_at},
    {validation8_count, validation8_at},
    {validation9_count, validation9_at},
    {validation10_count, validation10_at},
};
enum { NTABLES = sizeof TABLES / sizeof *TABLES };

/* One include folder per table, then the list's NULL; the backends keep at
 * most BK_MAX_DIRS folders, so a table beyond that would lose its own. */
_Static_assert((int)RUNNER_INCLUDE_DIRS == (int)NTABLES + 1, "one include folder per kernel table");
_Static_assert((int)NTABLES <= (int)BK_MAX_DIRS,
               "BK_MAX_DIRS is smaller than the number of kernel tables");

/* Table t's kernel called name, or NULL. */
static const kdesc *table_find(int t, const char *name) {
  for (size_t i = 0; i < TABLES[t].count(); ++i) {
    const kdesc *d = TABLES[t].at(i);
    if (strcmp(d->name, name) == 0) return d;
  }
  return NULL;
}

/* Whether table t belongs to selection s: runner_suite lists the tables in
 * the order of TABLES, then ALL. */
static int selected(runner_suite s, int t) { return s == RUNNER_SUITE_ALL || (int)s == t; }

size_t runner_suite_count(runner_suite s) {
  size_t n = 0;
  for (int t = 0; t < NTABLES; ++t)
    if (selected(s, t)) n += TABLES[t].count();
  return n;
}

const kdesc *runner_suite_at(runner_suite s, size_t i) {
  for (int t = 0; t < NTABLES; ++t) {
    if (!selected(s, t)) continue;
    if (i < TABLES[t].count()) return TABLES[t].at(i);
    i -= TABLES[t].count();
  }
  return NULL;
}

const kdesc *runner_suite_find(runner_suite s, const char *name) {
  const kdesc *d = NULL;
  for (int t = 0; t < NTABLES && d == NULL; ++t)
    if (selected(s, t)) d = table_find(t, name);
  return d;
}

/* The --suite names, in runner_suite order. */
static const char *const NAMES[] = {"train",       "validation",  "validation2",  "validation3",
                                    "validation4", "validation5", "validation6",  "validation7",
                                    "validation8", "validation9", "validation10", "all"};
_Static_assert(sizeof NAMES / sizeof *NAMES == (size_t)RUNNER_SUITE_ALL + 1,
               "one --suite name per runner_suite");

const char *runner_suite_name(runner_suite s) {
  return (unsigned)s <= RUNNER_SUITE_ALL ? NAMES[s] : NAMES[RUNNER_SUITE_ALL];
}

int runner_suite_parse(const char *name, runner_suite *out) {
  for (int s = RUNNER_SUITE_TRAIN; s <= RUNNER_SUITE_ALL; ++s)
    if (strcmp(name, NAMES[s]) == 0) {
      *out = (runner_suite)s;
      return 0;
    }
  return -1;
}

const char *runner_source_dir(const runner_opts *o, const kdesc *d) {
  const char *dirs[RUNNER_INCLUDE_DIRS];
  runner_include_dirs(o, dirs);
  for (int t = 1; t < NTABLES; ++t)
    if (table_find(t, d->name) == d) return dirs[t];
  return o->kernel_dir;
}

void runner_include_dirs(const runner_opts *o, const char *dirs[RUNNER_INCLUDE_DIRS]) {
  dirs[0] = o->kernel_dir;
  for (int i = 0; i < RUNNER_VALIDATION_SUITES; ++i) dirs[1 + i] = o->validation_dir[i];
  dirs[RUNNER_INCLUDE_DIRS - 1] = NULL;
}
