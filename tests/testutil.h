/* SPDX-License-Identifier: GPL-3.0-or-later */
/* testutil.h: scratch directories and files for the unit tests. */
#ifndef SP_TESTUTIL_H
#define SP_TESTUTIL_H

#include <stddef.h>

/* Creates a fresh directory under $TMPDIR (or /tmp); malloc'ed path. */
char *tu_mkdtemp(void);
/* Removes a directory tree; quiet when it does not exist. */
void tu_rmtree(const char *dir);
/* Joins dir and name; malloc'ed. */
char *tu_path(const char *dir, const char *name);
/* Writes text to dir/name (creating or replacing it); malloc'ed path. */
char *tu_write(const char *dir, const char *name, const char *text);
/* Reads a whole file; malloc'ed, NUL-terminated; *size gets its length. */
char *tu_read(const char *path, size_t *size);
/* 1 when path exists. */
int tu_exists(const char *path);
/* A test case's scratch directory: tu_scratch_setup makes it (under
 * tu_mkdtemp), tu_scratch_teardown removes it; both as check's unchecked
 * fixtures (tcase_add_unchecked_fixture), so the tests of a case share it. */
extern char *tu_scratch;
void tu_scratch_setup(void);
void tu_scratch_teardown(void);
/* A new directory tu_scratch/NAME-I of its own for test number i of a loop
 * test (its iterations share the case's scratch); malloc'ed path. */
char *tu_case_dir(const char *name, int i);
/* |a - b| / |b|. */
double tu_rel(double a, double b);

struct sp_dataset;
/* Loads the fixture set tests/data/NAME (runs.csv, counters.csv) through
 * $SP_TEST_DATA, which the test harness sets. */
struct sp_dataset *tu_load_fixture(const char *name);

struct sp_memory_set;
/* The train fixture's two memory systems, described (memory.csv written
 * into dir and loaded): 475 MHz, a 256-bit GDDR5 card of 60.8 GB/s, and
 * 1375 MHz, a 512-bit HBM2 card of 243.2 GB/s, whose peak bandwidth ratio
 * (4x) is not the clock ratio (2.9x). */
struct sp_memory_set *tu_two_memory_systems(const char *dir);

#endif
