/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_main.c: replays inputs through a fuzz target without libFuzzer.
 *
 * Usage: fuzz_TARGET FILE|DIR...  Each file, and each regular file directly
 * inside each directory (in name order), is passed to the target once.  A
 * property violation or a sanitizer report aborts; otherwise the program
 * prints how many inputs it replayed and exits 0.  An argument that does
 * not exist is an error (exit 2), so a misspelt corpus is not a silent
 * pass. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    perror(path);
    return -1;
  }
  size_t cap = 4096, n = 0;
  unsigned char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
    n += got;
    if (n == cap) {
      unsigned char *b = realloc(buf, cap *= 2);
      if (!b) free(buf);
      buf = b;
    }
  }
  int bad = !buf || ferror(fp);
  fclose(fp);
  if (bad) {
    fprintf(stderr, "%s: cannot read\n", path);
    free(buf);
    return -1;
  }
  if (fz_verbose()) printf("%s: ", path);
  fflush(stdout);
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

static long replay_dir(const char *path) {
  struct dirent **names;
  int n = scandir(path, &names, NULL, by_name);
  if (n < 0) {
    perror(path);
    return -1;
  }
  long count = 0;
  for (int i = 0; i < n; i++) {
    char file[8192];
    struct stat st;
    snprintf(file, sizeof file, "%s/%s", path, names[i]->d_name);
    if (count >= 0 && names[i]->d_name[0] != '.' && stat(file, &st) == 0 && S_ISREG(st.st_mode))
      count = replay_file(file) == 0 ? count + 1 : -1;
    free(names[i]);
  }
  free(names);
  return count;
}

int main(int argc, char **argv) {
  long total = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    long n = -1;
    if (stat(argv[i], &st) != 0)
      perror(argv[i]);
    else if (S_ISDIR(st.st_mode))
      n = replay_dir(argv[i]);
    else
      n = replay_file(argv[i]) == 0 ? 1 : -1;
    if (n < 0) return 2;
    total += n;
  }
  const char *name = strrchr(argv[0], '/');
  printf("%s: %ld inputs replayed\n", name ? name + 1 : argv[0], total);
  return 0;
}
