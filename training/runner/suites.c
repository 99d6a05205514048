/* SPDX-License-Identifier: GPL-3.0-or-later */
/* suites.c: the kernel tables sp-runner can run (--suite) and where their
 * device sources live.
 *
 * The training suite's sources are in training/kernels/; the validation
 * suite's are in training/validation/ and include training/kernels/sp_port.h,
 * so every compile gets both folders on its include path.  A kernel's folder
 * follows from the table it belongs to, never from its file name, so the two
 * suites may use the same file names. */
#include <string.h>

#include "runner.h"
#include "validation.h"

size_t runner_suite_count(runner_suite s)
{
  switch (s) {
  case RUNNER_SUITE_TRAIN: return suite_count();
  case RUNNER_SUITE_VALIDATION: return validation_count();
  case RUNNER_SUITE_ALL: break;
  }
  return suite_count() + validation_count();
}

const kdesc *runner_suite_at(runner_suite s, size_t i)
{
  switch (s) {
  case RUNNER_SUITE_TRAIN: return suite_at(i);
  case RUNNER_SUITE_VALIDATION: return validation_at(i);
  case RUNNER_SUITE_ALL: break;
  }
  return i < suite_count() ? suite_at(i) : validation_at(i - suite_count());
}

const kdesc *runner_suite_find(runner_suite s, const char *name)
{
  const kdesc *d = NULL;
  if (s != RUNNER_SUITE_VALIDATION)
    d = suite_find(name);
  if (d == NULL && s != RUNNER_SUITE_TRAIN)
    d = validation_find(name);
  return d;
}

static int is_validation(const kdesc *d)
{
  return validation_find(d->name) == d;
}

const char *runner_source_dir(const runner_opts *o, const kdesc *d)
{
  return is_validation(d) ? o->validation_dir : o->kernel_dir;
}

void runner_include_dirs(const runner_opts *o, const char *dirs[3])
{
  dirs[0] = o->kernel_dir;
  dirs[1] = o->validation_dir;
  dirs[2] = NULL;
}
