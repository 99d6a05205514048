/* benchutil.c: see benchutil.h. */
#include "benchutil.h"

#include <stdio.h>
#include <time.h>

double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int bench_die(const char *program, const sp_error *e) {
  char buf[1024];
  sp_error_format(e, buf, sizeof buf);
  fprintf(stderr, "%s: %s\n", program, buf);
  return 1;
}
