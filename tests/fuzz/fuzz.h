/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz.h: what the fuzz targets share.
 *
 * Every target defines LLVMFuzzerTestOneInput.  Built with clang's
 * -fsanitize=fuzzer, libFuzzer drives it (tests/fuzz/run-fuzz.sh); built
 * without, fuzz_main.c replays files and directories given on the command
 * line, which is how `make check` keeps the seed corpora and every crash
 * ever found passing.
 *
 * The library reads files, not buffers, so the targets write their input
 * into a scratch directory of their own (made once per process and removed
 * at exit) and hand the library the path. */
#ifndef SP_FUZZ_H
#define SP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch directory of this process; aborts when it cannot be made. */
const char *fz_dir(void);
/* fz_dir()/name in a static buffer of the caller's thread. */
const char *fz_path(const char *name);
/* Replaces fz_dir()/name with size bytes of data; aborts on failure (a
 * fuzzer that cannot write its input would report nothing but noise).
 * Returns fz_path's buffer, which the next call overwrites. */
const char *fz_write(const char *name, const void *data, size_t size);
/* Removes fz_dir()/name recursively (regular files and directories). */
void fz_remove(const char *name);

/* Whether SP_FUZZ_VERBOSE is set: targets then print what the library
 * answered to each input, which is how docs/reliability.md was written. */
int fz_verbose(void);
/* Prints line and a newline with the scratch directory's name left out. */
void fz_print(const char *line);

/* Aborts with a message when a property the target checks is violated, so
 * that libFuzzer records the input as a crash. */
#define FZ_CHECK(cond)                                    \
  do {                                                    \
    if (!(cond)) fz_violation(__FILE__, __LINE__, #cond); \
  } while (0)
void fz_violation(const char *file, int line, const char *what) __attribute__((noreturn));

#endif
