/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c: sp-runner's command line. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "runner.h"

/* The top of the source tree the build came from, and where make install
 * puts each suite's device sources (SP_SUITES_INSTALLED/NAME). */
#ifndef SP_SRCDIR
#define SP_SRCDIR "."
#endif
#ifndef SP_SUITES_INSTALLED
#define SP_SUITES_INSTALLED SP_SRCDIR
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "?"
#endif

static const char USAGE[] =
    "Usage: sp-runner --backend opencl|cuda --kernels all|NAME[,NAME...]\n"
    "                 --cu N[,N...] --engine-mhz E --memory-mhz M --runs FILE\n"
    "                 [--counters-base] [--meta FILE] [--min-time-ms T]\n"
    "                 [--device I] [options]\n"
    "       sp-runner --list [--suite S] | --list-suites | --help | --version\n"
    "       sp-runner --backend cuda --probe-cu [--device I]\n"
    "       sp-runner --backend opencl --list-devices\n"
    "       sp-runner --backend opencl|cuda --compile-only [--arch sm_XY]\n"
    "       sp-runner --import-ncu NCU.csv --manifest FILE --counters FILE\n"
    "\n"
    "Measures each kernel of the suite at each compute-unit level and appends\n"
    "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w rows to the runs file.\n"
    "Rows already in the file are skipped, so a killed sweep resumes.\n"
    "\n"
    "  --backend B         opencl (any ICD platform) or cuda (driver API)\n"
    "  --kernels LIST      'all' or suite names (see --list)\n"
    "  --suite S           the kernel table that --kernels, --list and\n"
    "                      --compile-only use: a suite of training/suites.txt\n"
    "                      (see --list-suites; core, the default, is also\n"
    "                      called train, its old name), or all (every suite,\n"
    "                      in the registry's order), training or heldout\n"
    "                      (every suite of that role)\n"
    "  --list-suites       the suites this build has: name, kernel-name prefix,\n"
    "                      role, date retired, kernels, folder (tab-separated)\n"
    "  --cu LIST           compute-unit counts: CUDA runs each in a green\n"
    "                      context of exactly that many SMs; OpenCL records\n"
    "                      it (the caller applies it, e.g. POCL_CPU_MAX_CU_COUNT)\n"
    "  --engine-mhz E      engine clock recorded in the rows ('auto': NVML max)\n"
    "  --memory-mhz M      memory clock recorded in the rows ('auto': NVML max)\n"
    "  --runs FILE         runs.csv to append to\n"
    "  --counters-base     profiling mode: launch each kernel once per level\n"
    "                      (checked), for ncu; writes the launch manifest\n"
    "  --manifest FILE     manifest of --counters-base (default RUNS.manifest)\n"
    "  --meta FILE         append a metadata block (device, driver, clocks)\n"
    "  --detail FILE       append per-row measurement details (CSV)\n"
    "  --min-time-ms T     measure at least T ms per configuration (100)\n"
    "  --power-window-ms W and at least W ms when power is read (400)\n"
    "  --warmup-ms W       warm-up before measuring (20)\n"
    "  --sampled           sampled base measurement: a kernel marked sampleable\n"
    "                      whose first launch takes longer than the threshold\n"
    "                      is timed on its first waves and extrapolated\n"
    "  --sample-threshold-ms T  sample only above T ms per launch (5)\n"
    "  --sample-tolerance R     rate settled at a relative slope change\n"
    "                      below R (0.02)\n"
    "  --sample-flush F    auto, always or never: flush the device's cache\n"
    "                      (untimed) before every sampling launch; auto does\n"
    "                      when the kernel's buffers exceed the cache (auto)\n"
    "  --power P           auto, nvml, rapl or none (auto)\n"
    "  --size S            full (GPU sizes, default) or small (CI)\n"
    "  --device I          device index (OpenCL: over all platforms)\n"
    "  --suite-dir NAME=DIR  suite NAME's device sources are in DIR (NAME\n"
    "                      common: the shared device headers); repeatable\n"
    "                      (default: the registry's folder in the build's\n"
    "                      source tree, else under the current directory,\n"
    "                      else the installed copy)\n"
    "  --kernel-dir DIR    the same as --suite-dir core=DIR\n"
    "\n"
    "Exit status: 0 ok, 1 a kernel failed (others were still measured),\n"
    "2 usage error, 3 backend or device not available on this machine.\n";

enum {
  OPT_BACKEND = 256,
  OPT_KERNELS,
  OPT_CU,
  OPT_ENGINE,
  OPT_MEMORY,
  OPT_RUNS,
  OPT_COUNTERS_BASE,
  OPT_META,
  OPT_MIN_TIME,
  OPT_DEVICE,
  OPT_LIST,
  OPT_HELP,
  OPT_VERSION,
  OPT_DETAIL,
  OPT_POWER_WINDOW,
  OPT_WARMUP,
  OPT_POWER,
  OPT_SIZE,
  OPT_KERNEL_DIR,
  OPT_MANIFEST,
  OPT_COUNTERS,
  OPT_IMPORT_NCU,
  OPT_PROBE_CU,
  OPT_COMPILE_ONLY,
  OPT_ARCH,
  OPT_LIST_DEVICES,
  OPT_SUITE,
  OPT_SUITE_DIR,
  OPT_LIST_SUITES,
  OPT_SAMPLED,
  OPT_SAMPLE_THRESHOLD,
  OPT_SAMPLE_TOL,
  OPT_SAMPLE_FLUSH
};

static const struct option LONG_OPTS[] = {
    {"backend", required_argument, NULL, OPT_BACKEND},
    {"kernels", required_argument, NULL, OPT_KERNELS},
    {"cu", required_argument, NULL, OPT_CU},
    {"engine-mhz", required_argument, NULL, OPT_ENGINE},
    {"memory-mhz", required_argument, NULL, OPT_MEMORY},
    {"runs", required_argument, NULL, OPT_RUNS},
    {"counters-base", no_argument, NULL, OPT_COUNTERS_BASE},
    {"meta", required_argument, NULL, OPT_META},
    {"min-time-ms", required_argument, NULL, OPT_MIN_TIME},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"list", no_argument, NULL, OPT_LIST},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {"detail", required_argument, NULL, OPT_DETAIL},
    {"power-window-ms", required_argument, NULL, OPT_POWER_WINDOW},
    {"warmup-ms", required_argument, NULL, OPT_WARMUP},
    {"power", required_argument, NULL, OPT_POWER},
    {"size", required_argument, NULL, OPT_SIZE},
    {"kernel-dir", required_argument, NULL, OPT_KERNEL_DIR},
    {"manifest", required_argument, NULL, OPT_MANIFEST},
    {"counters", required_argument, NULL, OPT_COUNTERS},
    {"import-ncu", required_argument, NULL, OPT_IMPORT_NCU},
    {"probe-cu", no_argument, NULL, OPT_PROBE_CU},
    {"compile-only", no_argument, NULL, OPT_COMPILE_ONLY},
    {"arch", required_argument, NULL, OPT_ARCH},
    {"list-devices", no_argument, NULL, OPT_LIST_DEVICES},
    {"suite", required_argument, NULL, OPT_SUITE},
    {"suite-dir", required_argument, NULL, OPT_SUITE_DIR},
    {"list-suites", no_argument, NULL, OPT_LIST_SUITES},
    {"sampled", no_argument, NULL, OPT_SAMPLED},
    {"sample-threshold-ms", required_argument, NULL, OPT_SAMPLE_THRESHOLD},
    {"sample-tolerance", required_argument, NULL, OPT_SAMPLE_TOL},
    {"sample-flush", required_argument, NULL, OPT_SAMPLE_FLUSH},
    {NULL, 0, NULL, 0}};

typedef struct cli {
  runner_opts o;
  const char *kernels, *cu;
  int list, help, version, probe_cu, compile_only, list_devices, list_suites;
  char manifest[4096];
  char dir[RUNNER_NSUITES + 1][BK_PATH_MAX]; /* the default folders */
} cli;

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "sp-runner: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'sp-runner --help'.\n");
  return RUNNER_USAGE;
}

static int parse_int(const char *s, long lo, long hi, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return -1;
  *out = (int)v;
  return 0;
}

static int parse_ms(const char *s, double *out) {
  char *end;
  double v = strtod(s, &end);
  if (end == s || *end || !(v >= 0.0) || v > 1e6) return -1;
  *out = v;
  return 0;
}

static int parse_clock(const char *s, int *out) {
  if (strcmp(s, "auto") == 0) {
    *out = -1;
    return 0;
  }
  return parse_int(s, 0, 100000, out);
}

static int parse_cu_list(cli *c) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", c->cu);
  c->o.ncu = 0;
  for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (c->o.ncu == RUNNER_MAX_CU || parse_int(t, 1, 100000, &c->o.cu[c->o.ncu]) != 0)
      return usage_error("--cu: '%s' is not a list of positive counts", c->cu);
    for (int i = 0; i < c->o.ncu; ++i)
      if (c->o.cu[i] == c->o.cu[c->o.ncu]) return usage_error("--cu: '%s' repeats a count", c->cu);
    c->o.ncu++;
  }
  return c->o.ncu ? 0 : usage_error("--cu: '%s' is empty", c->cu);
}

static int parse_kernels(cli *c) {
  runner_opts *o = &c->o;
  o->nkernels = 0;
  if (strcmp(c->kernels, "all") == 0) {
    const size_t n = runner_suite_count(o->suite);
    if (n > RUNNER_MAX_KERNELS) return usage_error("%s", "the suite has too many kernels");
    for (size_t i = 0; i < n; ++i) o->kernels[o->nkernels++] = runner_suite_at(o->suite, i);
    return 0;
  }
  char buf[8192];
  snprintf(buf, sizeof buf, "%s", c->kernels);
  for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    const kdesc *d = runner_suite_find(o->suite, t);
    if (d == NULL)
      return usage_error(
          "--kernels: no kernel '%s' in this suite (see "
          "--list and --suite)",
          t);
    if (o->nkernels == RUNNER_MAX_KERNELS)
      return usage_error("--kernels: too many names in '%s'", c->kernels);
    o->kernels[o->nkernels++] = d;
  }
  return o->nkernels ? 0 : usage_error("--kernels: '%s' is empty", c->kernels);
}

/* The long name of option opt ("?" for none). */
static const char *opt_name(int opt) {
  for (const struct option *l = LONG_OPTS; l->name; ++l)
    if (l->val == opt) return l->name;
  return "?";
}

/* A usage error for what, an unknown suite name: lists the registry and
 * the other names that what takes (more). */
static int unknown_suite(const char *what, const char *name, const char *more) {
  fprintf(stderr, "sp-runner: %s: '%s' is not a suite of training/suites.txt (", what, name);
  for (int t = 0; t < RUNNER_NSUITES; ++t)
    fprintf(stderr, "%s%s", t ? ", " : "", runner_suite_info_at(t)->name);
  fprintf(stderr, ")%s\nTry 'sp-runner --help'.\n", more);
  return RUNNER_USAGE;
}

/* Suite name's folder (or the shared headers', name common) is dir. */
static int suite_dir(runner_opts *o, const char *name, const char *dir, const char *what) {
  const int t = runner_dir_index(name);
  if (t < 0) return unknown_suite(what, name, " or common");
  if (*dir == '\0') return usage_error("%s: the folder is empty", what);
  o->suite_dir[t] = dir;
  return 0;
}

/* --suite-dir NAME=DIR; the name is copied, the folder kept in arg. */
static int suite_dir_option(runner_opts *o, const char *arg) {
  const char *eq = strchr(arg, '=');
  char name[256];
  if (eq == NULL || eq == arg || (size_t)(eq - arg) >= sizeof name)
    return usage_error("--suite-dir: '%s' is not NAME=DIR", arg);
  snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
  return suite_dir(o, name, eq + 1, "--suite-dir");
}

/* One option; returns 0, or a RUNNER_* status to exit with. */
static int take(cli *c, int opt, const char *arg) {
  runner_opts *o = &c->o;
  int bad = 0;
  switch (opt) {
    case OPT_BACKEND:
      o->backend = arg;
      break;
    case OPT_KERNELS:
      c->kernels = arg;
      break;
    case OPT_CU:
      c->cu = arg;
      break;
    case OPT_ENGINE:
      bad = parse_clock(arg, &o->engine_mhz);
      break;
    case OPT_MEMORY:
      bad = parse_clock(arg, &o->memory_mhz);
      break;
    case OPT_RUNS:
      o->runs = arg;
      break;
    case OPT_COUNTERS_BASE:
      o->counters_base = 1;
      break;
    case OPT_META:
      o->meta = arg;
      break;
    case OPT_MIN_TIME:
      bad = parse_ms(arg, &o->mp.min_time_ms);
      break;
    case OPT_DEVICE:
      bad = parse_int(arg, 0, 64, &o->device);
      break;
    case OPT_LIST:
      c->list = 1;
      break;
    case OPT_HELP:
      c->help = 1;
      break;
    case OPT_VERSION:
      c->version = 1;
      break;
    case OPT_DETAIL:
      o->detail = arg;
      break;
    case OPT_POWER_WINDOW:
      bad = parse_ms(arg, &o->mp.power_window_ms);
      break;
    case OPT_WARMUP:
      bad = parse_ms(arg, &o->mp.warmup_ms);
      break;
    case OPT_SAMPLED:
      o->mp.sampled = 1;
      break;
    case OPT_SAMPLE_THRESHOLD:
      bad = parse_ms(arg, &o->mp.sample_threshold_ms);
      break;
    case OPT_SAMPLE_TOL:
      bad = parse_ms(arg, &o->mp.sample_tol) || !(o->mp.sample_tol > 0.0);
      break;
    case OPT_SAMPLE_FLUSH:
      o->mp.sample_flush = !strcmp(arg, "always")  ? MFLUSH_ALWAYS
                           : !strcmp(arg, "never") ? MFLUSH_NEVER
                                                   : MFLUSH_AUTO;
      bad = strcmp(arg, "auto") && strcmp(arg, "always") && strcmp(arg, "never");
      break;
    case OPT_POWER:
      o->power = arg;
      bad =
          strcmp(arg, "auto") && strcmp(arg, "nvml") && strcmp(arg, "rapl") && strcmp(arg, "none");
      break;
    case OPT_SIZE:
      bad = strcmp(arg, "full") && strcmp(arg, "small");
      o->size = strcmp(arg, "small") == 0 ? KSIZE_SMALL : KSIZE_FULL;
      break;
    case OPT_KERNEL_DIR:
      return suite_dir(o, "core", arg, "--kernel-dir");
    case OPT_SUITE_DIR:
      return suite_dir_option(o, arg);
    case OPT_LIST_SUITES:
      c->list_suites = 1;
      break;
    case OPT_MANIFEST:
      o->manifest = arg;
      break;
    case OPT_COUNTERS:
      o->counters = arg;
      break;
    case OPT_IMPORT_NCU:
      o->import_ncu = arg;
      break;
    case OPT_PROBE_CU:
      c->probe_cu = 1;
      break;
    case OPT_COMPILE_ONLY:
      c->compile_only = 1;
      break;
    case OPT_ARCH:
      o->arch = arg;
      break;
    case OPT_LIST_DEVICES:
      c->list_devices = 1;
      break;
    case OPT_SUITE:
      if (runner_suite_parse(arg, &o->suite) != 0)
        return unknown_suite("--suite", arg, ", all, training or heldout");
      break;
    default:
      return RUNNER_USAGE;
  }
  if (bad) {
    fprintf(stderr, "sp-runner: invalid value '%s' for --%s\nTry 'sp-runner --help'.\n", arg,
            opt_name(opt));
    return RUNNER_USAGE;
  }
  return 0;
}

static int is_dir(const char *path) {
  struct stat st;
  return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The option's value, else the build's source tree's folder when present,
 * else the same folder under the current directory (a copy of the
 * repository run from its root, as on a device the tree was carried to),
 * else the installed one (path holds the first and the last). */
static const char *default_dir(const char *given, const char *folder, const char *name,
                               char path[BK_PATH_MAX]) {
  if (given) return given;
  snprintf(path, BK_PATH_MAX, "%s/%s", SP_SRCDIR, folder);
  if (is_dir(path)) return path;
  if (is_dir(folder)) return folder;
  snprintf(path, BK_PATH_MAX, "%s/%s", SP_SUITES_INSTALLED, name);
  return path;
}

static void default_dirs(cli *c) {
  runner_opts *o = &c->o;
  for (int t = 0; t < RUNNER_NSUITES; ++t) {
    const runner_suite_info *s = runner_suite_info_at(t);
    o->suite_dir[t] = default_dir(o->suite_dir[t], s->folder, s->name, c->dir[t]);
  }
  o->suite_dir[RUNNER_COMMON_DIR] = default_dir(o->suite_dir[RUNNER_COMMON_DIR], SP_SUITES_COMMON,
                                                "common", c->dir[RUNNER_COMMON_DIR]);
}

static void record_command(runner_opts *o, int argc, char **argv) {
  size_t len = 0;
  o->command[0] = '\0';
  for (int i = 0; i < argc && len + 2 < sizeof o->command; ++i)
    len +=
        (size_t)snprintf(o->command + len, sizeof o->command - len, "%s%s", i ? " " : "", argv[i]);
}

static int parse(cli *c, int argc, char **argv) {
  memset(c, 0, sizeof *c);
  c->o.engine_mhz = c->o.memory_mhz = -2; /* -2: not given */
  c->o.power = "auto";
  c->o.size = KSIZE_FULL;
  if (runner_suite_parse("core", &c->o.suite) != 0) c->o.suite = 0;
  mparams_init(&c->o.mp);
  record_command(&c->o, argc, argv);
  int opt, rc;
  while ((opt = getopt_long(argc, argv, "", LONG_OPTS, NULL)) != -1)
    if ((rc = take(c, opt, optarg)) != 0) return rc;
  if (optind < argc) return usage_error("unexpected argument '%s'", argv[optind]);
  default_dirs(c);
  return 0;
}

/* Aligned columns on a terminal; tab-separated fields for programs. */
static void list_kernels(runner_suite suite) {
  const int tty = isatty(STDOUT_FILENO);
  for (size_t i = 0; i < runner_suite_count(suite); ++i) {
    const kdesc *d = runner_suite_at(suite, i);
    if (tty)
      printf("%-24s %-22s %s\n", d->name, d->scaling, d->stresses);
    else
      printf("%s\t%s\t%s\n", d->name, d->scaling, d->stresses);
  }
}

/* The registry this build has, one tab-separated line per suite. */
static void list_suites(void) {
  for (int t = 0; t < RUNNER_NSUITES; ++t) {
    const runner_suite_info *s = runner_suite_info_at(t);
    printf("%s\t%s\t%s\t%s\t%zu\t%s\n", s->name, *s->prefix ? s->prefix : "-",
           s->role == RUNNER_TRAINING ? "training" : "heldout", *s->retired ? s->retired : "-",
           s->count(), s->folder);
  }
}

/* The paths of the selected suite's device sources, each once, in suite
 * order; NULL-terminated, in one malloc'd block (NULL: no memory). */
static char **suite_sources(const runner_opts *o) {
  const size_t n = runner_suite_count(o->suite);
  /* n + 1 pointers, then room for n + 1 paths of BK_PATH_MAX. */
  char **out = calloc(n + 1, sizeof *out + BK_PATH_MAX);
  char *store = (char *)(out + n + 1);
  size_t k = 0;
  for (size_t i = 0; out && i < n; ++i) {
    kjob job;
    const kdesc *d = runner_suite_at(o->suite, i);
    /* Setup at the small size is cheap and names the source. */
    if (d->setup(&job, d, KSIZE_SMALL) == 0) {
      char *path = store + k * BK_PATH_MAX;
      snprintf(path, BK_PATH_MAX, "%s/%s", runner_source_dir(o, d), job.source);
      int seen = 0;
      for (size_t j = 0; j < k; ++j) seen |= strcmp(out[j], path) == 0;
      if (!seen) out[k++] = path;
    }
    kjob_free(&job);
  }
  return out;
}

/* Keeps the sources the backend compiles, reporting the others. */
static void drop_unaccepted(const bk_ops *ops, char **paths) {
  size_t k = 0;
  for (size_t i = 0; paths[i]; ++i) {
    if (ops->accepts(paths[i]))
      paths[k++] = paths[i];
    else
      printf("skipped %s (CUDA C++: the cuda backend compiles it)\n", paths[i]);
  }
  paths[k] = NULL;
}

static int compile_only(const cli *c) {
  const bk_ops *ops = bk_find(c->o.backend);
  const char *dirs[RUNNER_INCLUDE_DIRS];
  char err[8192];
  char **paths = suite_sources(&c->o);
  if (paths == NULL) {
    fprintf(stderr, "sp-runner: out of memory\n");
    return RUNNER_FAILED;
  }
  drop_unaccepted(ops, paths);
  runner_include_dirs(&c->o, dirs);
  int rc = ops->compile_only(dirs, (const char *const *)paths, c->o.arch, err, sizeof err);
  if (rc != 0) fprintf(stderr, "sp-runner: %s\n", err);
  for (char **p = paths; rc == 0 && *p; ++p) printf("compiled %s\n", *p);
  free(paths);
  if (rc != 0) return rc == 1 ? RUNNER_UNAVAILABLE : RUNNER_FAILED;
  return RUNNER_OK;
}

static int probe_cu(const cli *c) {
#ifdef SP_HAVE_CUDA
  bk *b = NULL;
  char err[1024];
  const char *dirs[RUNNER_INCLUDE_DIRS];
  runner_include_dirs(&c->o, dirs);
  if (strcmp(c->o.backend, "cuda") == 0) {
    int rc = bk_cuda_ops.open(&b, c->o.device, dirs, err, sizeof err);
    if (rc != 0) {
      fprintf(stderr, "sp-runner: %s\n", err);
      return rc == 1 ? RUNNER_UNAVAILABLE : RUNNER_FAILED;
    }
    bk_cuda_probe_cu(b, stdout);
    b->ops->close(b);
    return RUNNER_OK;
  }
#endif
  return usage_error("--probe-cu needs --backend cuda (%s given)", c->o.backend);
}

static int check_sweep_args(cli *c) {
  runner_opts *o = &c->o;
  if (!c->kernels || !c->cu || o->engine_mhz == -2 || o->memory_mhz == -2)
    return usage_error("%s",
                       "--kernels, --cu, --engine-mhz and "
                       "--memory-mhz are required");
  if (!o->runs && !(o->counters_base && o->manifest))
    return usage_error("%s", "--runs is required");
  if (o->counters_base && !o->manifest) {
    snprintf(c->manifest, sizeof c->manifest, "%s.manifest", o->runs);
    o->manifest = c->manifest;
  }
  int rc = parse_kernels(c);
  return rc ? rc : parse_cu_list(c);
}

int main(int argc, char **argv) {
  cli c;
  int rc = parse(&c, argc, argv);
  if (rc != 0) return rc;
  if (c.help) {
    fputs(USAGE, stdout);
    return RUNNER_OK;
  }
  if (c.version) {
    printf("sp-runner %s\n", PACKAGE_VERSION);
    return RUNNER_OK;
  }
  if (c.list) {
    list_kernels(c.o.suite);
    return RUNNER_OK;
  }
  if (c.list_suites) {
    list_suites();
    return RUNNER_OK;
  }
  if (c.o.import_ncu) {
    if (!c.o.manifest || !c.o.counters)
      return usage_error("%s", "--import-ncu needs --manifest and --counters");
    return runner_import_ncu(c.o.import_ncu, c.o.manifest, c.o.counters);
  }
  if (c.o.backend == NULL) return usage_error("%s", "--backend is required");
  if (bk_find(c.o.backend) == NULL)
    return usage_error("no backend '%s' in this build", c.o.backend);
  if (c.probe_cu) return probe_cu(&c);
  if (c.list_devices) {
    if (strcmp(c.o.backend, "opencl") != 0)
      return usage_error("--list-devices needs --backend opencl (%s given)", c.o.backend);
    return bk_opencl_list(stdout) == 0 ? RUNNER_OK : RUNNER_UNAVAILABLE;
  }
  if (c.compile_only) return compile_only(&c);
  if ((rc = check_sweep_args(&c)) != 0) return rc;
  return runner_sweep(&c.o);
}
