/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_csvlog.c: the harness's resume-file reader (training/runner/csvlog.c).
 *
 * sp-runner appends each measured row to runs.csv and, when started again,
 * reads the file back to skip what is already measured, cutting off a torn
 * last line.  Input: the file as found on disk.  Properties: opening either
 * fails with a message or succeeds; after a successful open, one appended
 * row makes the file, opened again, report exactly one more row, that row's
 * key, and nothing cut off. */
#include <stdio.h>
#include <string.h>

#include "csvlog.h"
#include "fuzz.h"

#define HEADER "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
#define ROW "fuzz.kernel,7,1013,1375,2.385,131.75\n"
#define KEY "fuzz.kernel,7,1013,1375"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fz_write("runs.csv", data, size);
  char err[1024] = "";
  long dropped = -1;
  csvlog *log = NULL;
  if (csvlog_open(path, HEADER, &log, &dropped, err, sizeof err) != 0) {
    FZ_CHECK(log == NULL && err[0] != '\0');
    if (fz_verbose()) fz_print(err);
    return 0;
  }
  if (fz_verbose())
    printf("opened: %zu rows, %ld bytes of a torn last line cut off\n", csvlog_rows(log), dropped);
  FZ_CHECK(dropped >= 0 && (size_t)dropped <= size);
  size_t rows = csvlog_rows(log);
  FZ_CHECK(csvlog_append(log, ROW, err, sizeof err) == 0);
  FZ_CHECK(csvlog_has(log, KEY));
  csvlog_close(log);
  log = NULL;
  FZ_CHECK(csvlog_open(path, HEADER, &log, &dropped, err, sizeof err) == 0);
  FZ_CHECK(dropped == 0);
  FZ_CHECK(csvlog_rows(log) == rows + 1);
  FZ_CHECK(csvlog_has(log, KEY));
  csvlog_close(log);
  return 0;
}
