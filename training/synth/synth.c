/* SPDX-License-Identifier: GPL-3.0-or-later */
/* synth.c: writes synthetic Radeon HD 7970 measurements for scalepredict.
 *
 *   synth [--seed S] [--kernels N] [--samples M] --out DIR
 *
 * DIR/runs.csv and DIR/counters.csv hold N training kernels measured at all
 * 448 configurations of the paper's grid; DIR/samples/ holds the same for M
 * further kernels from the same families.  Each file is written to a
 * temporary sibling; only when all four are complete are they renamed into
 * place, so a failed run leaves no half-written file behind.
 */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "family.h"
#include "gpu.h"

/* Measurement noise: lognormal sigmas.  Times and power repeat to about 1%
 * on real boards; counters read from a separate profiling run vary more. */
static const double time_sigma = 0.01;
static const double power_sigma = 0.01;
static const double counter_sigma = 0.02;

/* The grid of the paper's Section IV: 8 x 8 x 7 = 448 configurations. */
static const int cu_first = 4, cu_last = 32, cu_step = 4;
static const int engine_first = 300, engine_last = 1000, engine_step = 100;
static const int memory_first = 475, memory_last = 1375, memory_step = 150;

static const unsigned long max_kernels = 10000;

typedef struct options {
  unsigned long seed;
  unsigned long kernels;
  unsigned long samples;
  const char *out;
} options;

static void usage(FILE *fp) {
  fputs(
      "Usage: synth [--seed S] [--kernels N] [--samples M] --out DIR\n"
      "Writes synthetic AMD Radeon HD 7970 measurements (448 configurations\n"
      "per kernel): DIR/runs.csv and DIR/counters.csv for N training kernels,\n"
      "DIR/samples/runs.csv and DIR/samples/counters.csv for M other kernels.\n"
      "\n"
      "  --seed S     random seed (default 1): equal seeds give equal files\n"
      "  --kernels N  training kernels, 1 to 10000 (default 108)\n"
      "  --samples M  sample kernels, 0 to 10000 (default 12)\n"
      "  --out DIR    output directory, created if missing\n"
      "  --help       show this help\n"
      "\n"
      "The model behind the data is described in docs/synthetic.md.\n",
      fp);
}

/* ---- command line ------------------------------------------------------ */

static int parse_number(const char *option, const char *text, unsigned long lo, unsigned long hi,
                        unsigned long *out) {
  char *end;
  errno = 0;
  unsigned long value = strtoul(text, &end, 10);
  if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno == ERANGE || value < lo ||
      value > hi) {
    fprintf(stderr, "synth: %s: '%s' is not a whole number from %lu to %lu\n", option, text, lo,
            hi);
    return -1;
  }
  *out = value;
  return 0;
}

/* Whether arg is the option name, alone or as name=value. */
static int is_option(const char *arg, const char *name) {
  size_t len = strlen(name);
  return strncmp(arg, name, len) == 0 && (arg[len] == '\0' || arg[len] == '=');
}

/* The value of the option at argv[*i]: after '=' or in the next word. */
static const char *option_value(int argc, char **argv, int *i) {
  const char *arg = argv[*i], *eq = strchr(arg, '=');
  if (eq != NULL) return eq + 1;
  if (*i + 1 < argc) return argv[++*i];
  fprintf(stderr, "synth: %s needs a value\n", arg);
  return NULL;
}

static int parse_option(int argc, char **argv, int *i, options *o) {
  const struct {
    const char *name;
    unsigned long *value, lo, hi;
  } numeric[] = {
      {"--seed", &o->seed, 0, ULONG_MAX},
      {"--kernels", &o->kernels, 1, max_kernels},
      {"--samples", &o->samples, 0, max_kernels},
  };
  for (size_t n = 0; n < sizeof numeric / sizeof numeric[0]; n++) {
    if (!is_option(argv[*i], numeric[n].name)) continue;
    const char *value = option_value(argc, argv, i);
    return value == NULL ? -1
                         : parse_number(numeric[n].name, value, numeric[n].lo, numeric[n].hi,
                                        numeric[n].value);
  }
  if (!is_option(argv[*i], "--out")) {
    fprintf(stderr, "synth: unknown argument '%s'\n", argv[*i]);
    return -1;
  }
  const char *value = option_value(argc, argv, i);
  if (value == NULL) return -1;
  if (value[0] == '\0') {
    fputs("synth: --out needs a directory name\n", stderr);
    return -1;
  }
  o->out = value;
  return 0;
}

/* Returns 0 to go on, 1 when help was shown, -1 on a usage error. */
static int parse_args(int argc, char **argv, options *o) {
  *o = (options){.seed = 1, .kernels = 108, .samples = 12, .out = NULL};
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 1;
    }
    if (parse_option(argc, argv, &i, o) != 0) return -1;
  }
  if (o->out == NULL) {
    fputs("synth: --out DIR is required\n", stderr);
    return -1;
  }
  return 0;
}

/* ---- files --------------------------------------------------------------- */

/* Creates path and its missing parents, like mkdir -p. */
static int make_dirs(const char *path) {
  char buf[PATH_MAX];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *p = buf + 1;; p++) {
    if (*p != '/' && *p != '\0') continue;
    char saved = *p;
    *p = '\0';
    struct stat st;
    if (mkdir(buf, 0777) != 0 && (errno != EEXIST || stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))) {
      if (errno == EEXIST) errno = ENOTDIR;
      return -1;
    }
    if (saved == '\0') return 0;
    *p = saved;
  }
}

typedef struct out_file {
  char path[PATH_MAX];
  char tmp[PATH_MAX];
  FILE *fp;
} out_file;

static int fail(const char *what, const char *path) {
  fprintf(stderr, "synth: %s '%s': %s\n", what, path, strerror(errno));
  return -1;
}

/* Opens a temporary file beside dir/name; out_commit renames it over. */
static int out_open(out_file *f, const char *dir, const char *name) {
  f->fp = NULL;
  f->tmp[0] = '\0';
  if (snprintf(f->path, sizeof f->path, "%s/%s", dir, name) >= (int)sizeof f->path ||
      snprintf(f->tmp, sizeof f->tmp, "%s/.%s.XXXXXX", dir, name) >= (int)sizeof f->tmp) {
    errno = ENAMETOOLONG;
    f->tmp[0] = '\0';
    return fail("cannot write", dir);
  }
  int fd = mkstemp(f->tmp);
  if (fd < 0) {
    int saved = errno;
    f->tmp[0] = '\0';
    errno = saved;
    return fail("cannot create a file in", dir);
  }
  /* mkstemp makes the file private; data files are for everyone to read. */
  if (fchmod(fd, 0644) != 0 || (f->fp = fdopen(fd, "w")) == NULL) {
    int saved = errno;
    close(fd);
    errno = saved;
    return fail("cannot write", f->tmp);
  }
  return 0;
}

/* Finishes a file.  The stream's error flag is sticky, so this catches a
 * failure of any earlier write.  The data go to disk before the rename, so
 * that a crash cannot leave an empty file under the final name. */
static int out_close(out_file *f) {
  FILE *fp = f->fp;
  f->fp = NULL;
  int bad = fflush(fp) != 0 || ferror(fp) || fsync(fileno(fp)) != 0;
  int saved = errno;
  if (fclose(fp) != 0 && !bad) {
    bad = 1;
    saved = errno;
  }
  errno = saved;
  return bad ? fail("cannot write", f->path) : 0;
}

static void out_discard(out_file *f) {
  if (f->fp != NULL) fclose(f->fp);
  f->fp = NULL;
  if (f->tmp[0] != '\0') unlink(f->tmp);
  f->tmp[0] = '\0';
}

static int out_commit(out_file *f) {
  if (rename(f->tmp, f->path) != 0) return fail("cannot replace", f->path);
  f->tmp[0] = '\0';
  return 0;
}

/* ---- measurements ------------------------------------------------------ */

static double noisy(gsl_rng *r, double value, double sigma) {
  return value * exp(gsl_ran_gaussian(r, sigma));
}

/* Percentages get their noise on the log-odds scale: the busy and the idle
 * share are both read with a relative error, and the value stays within
 * 0..100 without piling up at the bounds. */
static double noisy_percent(gsl_rng *r, double percent, double sigma) {
  double z = gsl_ran_gaussian(r, sigma);
  if (percent <= 0.0 || percent >= 100.0) return percent;
  return 100.0 / (1.0 + exp(-(log(percent / (100.0 - percent)) + z)));
}

/* One synthetic measurement: model values times independent lognormal
 * noise, drawn in a fixed order (time, power, then counters). */
static void measure(const synth_kernel *k, const gpu_config *c, gsl_rng *r, double *time_ms,
                    double *power_w, double counters[GPU_COUNTER_COUNT]) {
  gpu_eval e;
  gpu_eval_kernel(&k->params, c, &e);
  *time_ms = noisy(r, e.time * 1e3, time_sigma);
  *power_w = noisy(r, e.power, power_sigma);
  gpu_counter_values(&k->params, c, &e, counters);
  for (int i = 0; i < GPU_COUNTER_COUNT; i++) {
    if (!gpu_counters[i].dynamic) continue;
    counters[i] = gpu_counters[i].percent ? noisy_percent(r, counters[i], counter_sigma)
                                          : noisy(r, counters[i], counter_sigma);
  }
}

static void write_headers(FILE *runs, FILE *counters) {
  fputs("kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n", runs);
  fputs("kernel,cu,engine_mhz,memory_mhz", counters);
  for (int i = 0; i < GPU_COUNTER_COUNT; i++) fprintf(counters, ",%s", gpu_counters[i].name);
  fputc('\n', counters);
}

/* Counters get six significant digits: their noise is far above that. */
static void write_row(const synth_kernel *k, const gpu_config *c, gsl_rng *r, FILE *runs,
                      FILE *counters) {
  double time_ms, power_w, values[GPU_COUNTER_COUNT];
  measure(k, c, r, &time_ms, &power_w, values);
  fprintf(runs, "%s,%d,%d,%d,%.9g,%.9g\n", k->name, c->cu, c->engine_mhz, c->memory_mhz, time_ms,
          power_w);
  fprintf(counters, "%s,%d,%d,%d", k->name, c->cu, c->engine_mhz, c->memory_mhz);
  for (int i = 0; i < GPU_COUNTER_COUNT; i++) fprintf(counters, ",%.6g", values[i]);
  fputc('\n', counters);
}

static void write_kernel(const synth_kernel *k, gsl_rng *r, FILE *runs, FILE *counters) {
  gsl_rng_set(r, k->noise_seed);
  gpu_config c;
  for (c.cu = cu_first; c.cu <= cu_last; c.cu += cu_step)
    for (c.engine_mhz = engine_first; c.engine_mhz <= engine_last; c.engine_mhz += engine_step)
      for (c.memory_mhz = memory_first; c.memory_mhz <= memory_last; c.memory_mhz += memory_step)
        write_row(k, &c, r, runs, counters);
}

/* Draws a set of kernels and writes it to an open runs/counters pair. */
static int write_set(gsl_rng *r, const options *o, enum family_set set, size_t count,
                     out_file *runs, out_file *counters) {
  synth_kernel *kernels = calloc(count, sizeof *kernels);
  if (kernels == NULL && count > 0) {
    fputs("synth: out of memory\n", stderr);
    return -1;
  }
  family_draw_set(r, o->seed, set, count, kernels);
  write_headers(runs->fp, counters->fp);
  for (size_t i = 0; i < count; i++) write_kernel(&kernels[i], r, runs->fp, counters->fp);
  free(kernels);
  return 0;
}

/* ---- the run ------------------------------------------------------------- */

enum { RUNS, COUNTERS, SAMPLE_RUNS, SAMPLE_COUNTERS, FILE_COUNT };

static int open_all(const options *o, const char *samples, out_file *f) {
  return out_open(&f[RUNS], o->out, "runs.csv") || out_open(&f[COUNTERS], o->out, "counters.csv") ||
         out_open(&f[SAMPLE_RUNS], samples, "runs.csv") ||
         out_open(&f[SAMPLE_COUNTERS], samples, "counters.csv");
}

static int write_all(gsl_rng *r, const options *o, out_file *f) {
  if (write_set(r, o, FAMILY_TRAINING, o->kernels, &f[RUNS], &f[COUNTERS]) ||
      write_set(r, o, FAMILY_SAMPLES, o->samples, &f[SAMPLE_RUNS], &f[SAMPLE_COUNTERS]))
    return -1;
  for (int i = 0; i < FILE_COUNT; i++)
    if (out_close(&f[i]) != 0) return -1;
  for (int i = 0; i < FILE_COUNT; i++)
    if (out_commit(&f[i]) != 0) return -1;
  return 0;
}

static int generate(const options *o) {
  char samples[PATH_MAX];
  if (snprintf(samples, sizeof samples, "%s/samples", o->out) >= (int)sizeof samples) {
    errno = ENAMETOOLONG;
    return fail("cannot create directory", o->out);
  }
  if (make_dirs(samples) != 0) return fail("cannot create directory", samples);
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  if (r == NULL) {
    fputs("synth: out of memory\n", stderr);
    return -1;
  }
  out_file f[FILE_COUNT] = {{.fp = NULL}};
  int status = open_all(o, samples, f) || write_all(r, o, f) ? -1 : 0;
  for (int i = 0; i < FILE_COUNT; i++) out_discard(&f[i]);
  gsl_rng_free(r);
  return status;
}

int main(int argc, char **argv) {
  /* Decimal points must be '.', whatever the user's locale. */
  setlocale(LC_ALL, "C");
  options o;
  int parsed = parse_args(argc, argv, &o);
  if (parsed != 0) {
    if (parsed < 0) fputs("Try 'synth --help'.\n", stderr);
    return parsed > 0 ? EXIT_SUCCESS : 2;
  }
  return generate(&o) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
