/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resume_scan.c: the harness's resume-file reader (training/runner/csvlog.c)
 * on a large runs.csv: how long opening it takes and how long a lookup of
 * an already measured row takes, which the runner does once per
 * configuration it is about to measure.  Run by tests/limits/measure.sh.
 *
 * Usage: resume_scan RUNS LOOKUPS
 * Looks up LOOKUPS keys taken from the end of the file (the worst case of
 * a linear search) and prints rows, open time and time per lookup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "csvlog.h"

#define HEADER "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The key (first four fields) of the last line of path. */
static int last_key(const char *path, char *key, size_t size) {
  FILE *fp = fopen(path, "rb");
  if (!fp || fseek(fp, -256, SEEK_END) != 0) return -1;
  char buf[257];
  size_t n = fread(buf, 1, 256, fp);
  fclose(fp);
  buf[n] = '\0';
  while (n > 0 && buf[n - 1] == '\n') buf[--n] = '\0';
  char *line = strrchr(buf, '\n');
  line = line ? line + 1 : buf;
  char *end = line;
  for (int commas = 0; *end && !(*end == ',' && ++commas == 4);) end++;
  snprintf(key, size, "%.*s", (int)(end - line), line);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: resume_scan RUNS LOOKUPS\n");
    return 1;
  }
  long lookups = atol(argv[2]);
  char key[256], err[1024];
  if (last_key(argv[1], key, sizeof key) != 0) {
    fprintf(stderr, "resume_scan: %s: cannot read its last line\n", argv[1]);
    return 1;
  }
  long dropped;
  csvlog *log;
  double t0 = now();
  if (csvlog_open(argv[1], HEADER, &log, &dropped, err, sizeof err) != 0) {
    fprintf(stderr, "resume_scan: %s\n", err);
    return 2;
  }
  double t1 = now();
  long found = 0;
  for (long i = 0; i < lookups; i++) found += csvlog_has(log, key);
  double t2 = now();
  printf(
      "resume reader: %zu rows, opened in %.3f s; %ld lookups of the last "
      "row (%ld found) in %.3f s, %.3g s each\n",
      csvlog_rows(log), t1 - t0, lookups, found, t2 - t1,
      lookups ? (t2 - t1) / (double)lookups : 0.0);
  csvlog_close(log);
  return found == lookups ? 0 : 2;
}
