/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_estimate.c: scalepredict estimate, a kernel's times over a model's
 * grid from its code alone (docs/estimate.md): PTX, a .cu or .cl source
 * that nvcc turns into PTX, or a CUDA binary whose embedded PTX cuobjdump
 * prints, read for its static features and given to the model's static
 * method.  Nothing is run on a GPU. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

typedef struct estimate_opts {
  const char *model, *kernel, *file;
  const char *includes[8];
  size_t nincludes;
  sp_launch launch;
  int have_grid, have_block, features;
  cli_format format;
} estimate_opts;

/* "X[,Y[,Z]]", each positive. */
static int parse_dims(const char *s, unsigned long v[3]) {
  v[0] = v[1] = v[2] = 1;
  for (int i = 0; i < 3; i++) {
    char *end;
    errno = 0;
    unsigned long x = strtoul(s, &end, 10);
    if (end == s || errno || x == 0 || *s == '-') return -1;
    v[i] = x;
    if (*end == '\0') return 0;
    if (*end != ',') return -1;
    s = end + 1;
  }
  return -1;
}

/* The largest launch any GPU takes: blocks of 1,024 threads (CUDA, HIP
 * and OpenCL's largest work-group), 2^31 - 1 blocks per grid axis (CUDA's
 * x axis, the widest), and well beyond the shared memory a block gets
 * (228 KiB on an H100, 64 KiB on AMD). */
enum { BLOCK_MAX = 1024 };
#define GRID_AXIS_MAX 2147483647UL
#define SHARED_MAX (16UL << 20)

/* The options' setters that check their values (cli_option). */
static int set_grid(void *ctx, const char *arg, const char *cmd) {
  estimate_opts *o = ctx;
  if (parse_dims(arg, o->launch.grid))
    return cli_usage_error(cmd, "--grid: '%s' is not X[,Y[,Z]]", arg);
  for (int i = 0; i < 3; i++)
    if (o->launch.grid[i] > GRID_AXIS_MAX)
      return cli_usage_error(cmd,
                             "--grid: %lu blocks on an axis is more than any GPU launches (%lu)",
                             o->launch.grid[i], GRID_AXIS_MAX);
  o->have_grid = 1;
  return EXIT_OK;
}

static int set_block(void *ctx, const char *arg, const char *cmd) {
  estimate_opts *o = ctx;
  const unsigned long *b = o->launch.block;
  if (parse_dims(arg, o->launch.block))
    return cli_usage_error(cmd, "--block: '%s' is not X[,Y[,Z]]", arg);
  if (b[0] > BLOCK_MAX || b[1] > BLOCK_MAX || b[2] > BLOCK_MAX || b[0] * b[1] * b[2] > BLOCK_MAX)
    return cli_usage_error(cmd, "--block: '%s' is more than the %d threads a block has at most",
                           arg, BLOCK_MAX);
  o->have_block = 1;
  return EXIT_OK;
}

static int set_shared(void *ctx, const char *arg, const char *cmd) {
  unsigned long *v = &((estimate_opts *)ctx)->launch.shared_bytes;
  if (cli_parse_ulong(arg, v))
    return cli_usage_error(cmd, "--shared: '%s' is not a byte count", arg);
  if (*v > SHARED_MAX)
    return cli_usage_error(cmd,
                           "--shared: %lu bytes is more shared memory than any GPU gives a block "
                           "(228 KiB on an H100; the bound here is 16 MiB)",
                           *v);
  return EXIT_OK;
}

static int set_format(void *ctx, const char *arg, const char *cmd) {
  if (cli_parse_format(arg, &((estimate_opts *)ctx)->format))
    return cli_usage_error(cmd, "--format: '%s' is not table, csv or json", arg);
  return EXIT_OK;
}

static int set_include(void *ctx, const char *arg, const char *cmd) {
  estimate_opts *o = ctx;
  if (o->nincludes == 8) return cli_usage_error(cmd, "more than 8 -I directories");
  o->includes[o->nincludes++] = arg;
  return EXIT_OK;
}

#define ROW(kind, name, arg, field, help) CLI_ROW(kind, name, arg, estimate_opts, field, help)
static const cli_option options[] = {
    CLI_ROW_TEXT("  FILE              PTX (.ptx), a .cu or .cl source compiled to PTX with\n"
                 "                    nvcc -x cu -ptx -arch=sm_90 ($NVCC, else nvcc in PATH), or\n"
                 "                    a CUDA binary (an executable, library, object, .cubin or\n"
                 "                    .fatbin) whose embedded PTX 'cuobjdump -ptx' prints\n"
                 "                    ($CUOBJDUMP, else cuobjdump in PATH); the module that\n"
                 "                    holds the kernel is read\n"),
    ROW(CLI_STRING, "model", "DIR|NAME", model, "a model carrying the static method"),
    ROW(CLI_STRING, "kernel", "NAME", kernel, "the kernel: its .entry name or its function name"),
    CLI_ROW_CALL("grid", "X[,Y[,Z]]", set_grid, "blocks per grid axis"),
    CLI_ROW_CALL("block", "X[,Y[,Z]]", set_block, "threads per block axis"),
    CLI_ROW_CALL("shared", "BYTES", set_shared, "dynamic shared memory per block (default 0)"),
    CLI_ROW_CALL("format", "FMT", set_format, "table (default), csv or json"),
    ROW(CLI_FLAG, "features", NULL, features,
        "print the static features read (name,value) and stop"),
    {CLI_CALL, NULL, 'I', "DIR", 0, set_include, 0,
     "an include directory for nvcc (repeatable, at most 8)", 0},
};

static const cli_command command = {
    .prefix = "estimate ",
    .optstring = ":I:h",
    .operands = 1,
    .head =
        "Usage: scalepredict estimate --model DIR|NAME --kernel NAME --grid X[,Y[,Z]]\n"
        "                             --block X[,Y[,Z]] [--shared BYTES]\n"
        "                             [--format table|csv|json] [--features] FILE\n"
        "\n"
        "Estimates a kernel's time at every configuration of the model's grid from\n"
        "its code alone, without a profiled run: the base time and the scaling\n"
        "surface both come from the model's static method (train it with\n"
        "'train --methods static' on data with PTX opcode columns).  A static\n"
        "estimate is much less accurate than a prediction from a measured run: the\n"
        "expected error printed is the model's cross-validated estimate, and\n"
        "docs/estimate.md gives the held-out figures and what the code cannot say.\n"
        "\n",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .column = 20,
};

/* The table's options, then what holds between them: 0, -1 after --help,
 * else the exit status of a usage error. */
static int parse(int argc, char **argv, estimate_opts *o) {
  int done, rc = cli_parse_options(&command, o, argc, argv, &done);
  if (rc || done) return rc ? rc : -1;
  if (optind + 1 != argc)
    return cli_usage_error("estimate ", optind < argc ? "one FILE only" : "FILE is required");
  o->file = argv[optind];
  if (!o->kernel) return cli_usage_error("estimate ", "--kernel is required");
  if (o->features) return EXIT_OK;
  if (!o->model) return cli_usage_error("estimate ", "--model is required");
  if (!o->have_grid || !o->have_block)
    return cli_usage_error("estimate ", "--grid and --block are required (the launch shape)");
  return EXIT_OK;
}

/* ---- compiling a source ----------------------------------------------------- */

static int ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), t = strlen(tail);
  return n > t && !strcmp(s + n - t, tail);
}

/* The launch shape, when both --grid and --block were given. */
static const sp_launch *launch_of(const estimate_opts *o) {
  return o->have_grid && o->have_block ? &o->launch : NULL;
}

/* Runs args (args[0] found in PATH) with its standard output into the file
 * out, or onto standard error when out is NULL.  EXIT_OK when it ran and
 * succeeded; else says so, what it was for naming the input. */
static int run_tool(const char *const *args, const char *out, const char *what_for,
                    const char *remedy) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "scalepredict: estimate: fork: %s\n", strerror(errno));
    return EXIT_SYSTEM;
  }
  if (pid == 0) {
    int fd = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600) : STDERR_FILENO;
    if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) _exit(126);
    execvp(args[0], (char *const *)args);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return EXIT_SYSTEM;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    cli_say("estimate: cannot run '%s' to %s: %s", args[0], what_for, remedy);
    return EXIT_DATA;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status)) {
    cli_say("estimate: %s failed to %s (its messages are above)", args[0], what_for);
    return EXIT_DATA;
  }
  return EXIT_OK;
}

static const char *tool(const char *env, const char *name) {
  const char *v = getenv(env);
  return v && *v ? v : name;
}

/* Runs nvcc on o->file into ptx (a path in a temporary directory). */
static int compile(const estimate_opts *o, const char *ptx) {
  const char *args[32] = {tool("NVCC", "nvcc"), "-x", "cu", "-ptx", "-arch=sm_90", "-o", ptx};
  size_t n = 7;
  char what[PATH_MAX + 32];
  for (size_t i = 0; i < o->nincludes; i++) args[n++] = "-I", args[n++] = o->includes[i];
  args[n++] = o->file;
  args[n] = NULL;
  snprintf(what, sizeof what, "compile %s to PTX", o->file);
  return run_tool(args, NULL, what, "give a .ptx file (nvcc -ptx, or NVRTC's output) or set NVCC");
}

/* Whether path starts like an ELF file or a CUDA fat binary (no
 * extension says: executables have none).  Only a regular file is looked
 * at: a pipe (<(...)) would lose the bytes read here, and a FIFO nobody
 * writes to would block. */
static int is_binary(const char *path) {
  unsigned char m[4] = {0};
  struct stat st;
  if (stat(path, &st) || !S_ISREG(st.st_mode)) return 0;
  FILE *fp = fopen(path, "rb");
  if (!fp) return 0;
  size_t n = fread(m, 1, sizeof m, fp);
  fclose(fp);
  static const unsigned char elf[4] = {0x7f, 'E', 'L', 'F'}, fatbin[4] = {0x50, 0xed, 0x55, 0xba};
  return n == 4 && (!memcmp(m, elf, 4) || !memcmp(m, fatbin, 4));
}

/* Reads the whole regular file at path; NULL on failure (errno set). */
static char *slurp(const char *path, size_t *size) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  long n = fseek(fp, 0, SEEK_END) ? -1 : ftell(fp);
  char *buf = n >= 0 && !fseek(fp, 0, SEEK_SET) ? malloc((size_t)n + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
    free(buf);
    buf = NULL;
    errno = EIO;
  }
  fclose(fp);
  if (!buf) return NULL;
  buf[n] = '\0';
  *size = (size_t)n;
  return buf;
}

/* The features of o->kernel from cuobjdump's listing at dump: each PTX
 * module starts at a line ".version" and ends where the next module's
 * header ("Fatbin ...") or the listing does; the first module that holds
 * the kernel is read. */
static int features_from_dump(const estimate_opts *o, const char *dump, sp_kernel_features **f) {
  size_t size = 0, modules = 0;
  char *text = slurp(dump, &size);
  if (!text) {
    fprintf(stderr, "scalepredict: estimate: cannot read cuobjdump's output: %s\n",
            strerror(errno));
    return EXIT_SYSTEM;
  }
  int rc = -1;
  sp_error err, missing;
  char label[PATH_MAX + 64];
  for (char *p = text; rc < 0 && (p = strstr(p, ".version")) != NULL;) {
    if (p != text && p[-1] != '\n') {
      p++;
      continue;
    }
    char *end = strstr(p, "\nFatbin ");
    size_t len = end ? (size_t)(end - p) + 1 : size - (size_t)(p - text);
    snprintf(label, sizeof label, "%s (cuobjdump -ptx, module %zu)", o->file, ++modules);
    int st = sp_ptx_features_mem(p, len, label, o->kernel, launch_of(o), f, &err);
    if (st == SP_ENOTFOUND)
      missing = err;
    else
      rc = st ? cli_fail(&err) : EXIT_OK;
    p += len;
  }
  free(text);
  if (rc >= 0) return rc;
  if (!modules) {
    fprintf(stderr,
            "scalepredict: estimate: %s holds no PTX (cuobjdump -ptx printed none): build it with "
            "PTX embedded (nvcc -arch=sm_90, or -gencode arch=compute_90,code=compute_90) or give "
            "the source or the PTX\n",
            o->file);
    return EXIT_DATA;
  }
  return cli_fail(&missing);
}

/* Runs cuobjdump -ptx on o->file into dump (a path in a temporary
 * directory). */
static int dump_ptx(const estimate_opts *o, const char *dump) {
  const char *args[] = {tool("CUOBJDUMP", "cuobjdump"), "-ptx", o->file, NULL};
  char what[PATH_MAX + 32];
  snprintf(what, sizeof what, "extract the PTX of %s", o->file);
  return run_tool(args, dump, what,
                  "install the CUDA toolkit's cuobjdump or set CUOBJDUMP, or give the source or "
                  "the PTX");
}

/* The features of o->kernel, compiling a source or opening a binary
 * first. */
static int read_features(const estimate_opts *o, sp_kernel_features **f) {
  sp_error err;
  int source = ends_with(o->file, ".cu") || ends_with(o->file, ".cl");
  int binary = !source && !ends_with(o->file, ".ptx") && is_binary(o->file);
  if (!source && !binary) {
    int st = sp_ptx_features(o->file, o->kernel, launch_of(o), f, &err);
    return st ? cli_fail(&err) : EXIT_OK;
  }
  char dir[] = "/tmp/scalepredict-estimate-XXXXXX", tmp[sizeof dir + 16];
  if (!mkdtemp(dir)) {
    fprintf(stderr, "scalepredict: estimate: mkdtemp: %s\n", strerror(errno));
    return EXIT_SYSTEM;
  }
  snprintf(tmp, sizeof tmp, "%s/k.ptx", dir);
  int rc;
  if (binary) {
    rc = dump_ptx(o, tmp);
    if (!rc) rc = features_from_dump(o, tmp, f);
  } else {
    rc = compile(o, tmp);
    if (!rc && sp_ptx_features(tmp, o->kernel, launch_of(o), f, &err)) rc = cli_fail(&err);
  }
  unlink(tmp);
  rmdir(dir);
  return rc;
}

/* ---- output ------------------------------------------------------------------ */

static void print_features(const sp_kernel_features *f) {
  printf("feature,value\n");
  for (size_t i = 0; i < sp_kernel_features_count(f); i++)
    printf("%s,%.10g\n", sp_kernel_features_name(f, i), sp_kernel_features_value(f, i));
}

typedef struct estimate {
  const estimate_opts *o;
  const sp_model *m;
  const char *entry;
  double expected; /* MAPE, % */
  const double *time;
} estimate;

static void print_table(const estimate *e) {
  const sp_launch *l = &e->o->launch;
  printf("STATIC ESTIMATE (from the code alone, no profiled run) of %s (%s) in %s\n", e->o->kernel,
         e->entry, e->o->file);
  printf("model %s, method static; launch grid %lux%lux%lu, block %lux%lux%lu, shared %lu B\n",
         sp_model_name(e->m), l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
         l->block[2], l->shared_bytes);
  if (isfinite(e->expected))
    printf(
        "expected error: about %.0f%% time MAPE (5-fold cross-validation over the model's"
        " training kernels); see docs/estimate.md\n",
        e->expected);
  printf("%-20s %12s\n", "config", "time_ms");
  for (size_t i = 0; i < sp_model_config_count(e->m, SP_TIME); i++) {
    char cfg[64];
    sp_config c = sp_model_config_at(e->m, SP_TIME, i);
    sp_config_format(&c, cfg, sizeof cfg);
    printf("%-20s %12.6g\n", cfg, e->time[i]);
  }
}

static void print_csv(const estimate *e) {
  printf("kernel,config,time_ms,estimate,expected_mape\n");
  for (size_t i = 0; i < sp_model_config_count(e->m, SP_TIME); i++) {
    char cfg[64];
    sp_config c = sp_model_config_at(e->m, SP_TIME, i);
    sp_config_format(&c, cfg, sizeof cfg);
    sp_csv_write_field(stdout, e->o->kernel);
    printf(",%s,%.6g,static,%.3g\n", cfg, e->time[i], e->expected);
  }
}

static void print_json(const estimate *e) {
  const sp_launch *l = &e->o->launch;
  printf("{\"estimate\":\"static\",\"kernel\":");
  sp_json_write_string(stdout, e->o->kernel);
  printf(",\"entry\":");
  sp_json_write_string(stdout, e->entry);
  printf(",\"model\":");
  sp_json_write_string(stdout, sp_model_name(e->m));
  printf(",\"expected_mape\":");
  cli_json_number(e->expected);
  printf(",\"launch\":{\"grid\":[%lu,%lu,%lu],\"block\":[%lu,%lu,%lu],\"shared_bytes\":%lu}",
         l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
         l->shared_bytes);
  printf(",\"predictions\":[");
  for (size_t i = 0; i < sp_model_config_count(e->m, SP_TIME); i++) {
    char cfg[64];
    sp_config c = sp_model_config_at(e->m, SP_TIME, i);
    sp_config_format(&c, cfg, sizeof cfg);
    printf("%s{\"config\":\"%s\",\"time_ms\":", i ? "," : "", cfg);
    cli_json_number(e->time[i]);
    printf("}");
  }
  printf("]}\n");
}

/* ---- the command --------------------------------------------------------------- */

static int load_model(const estimate_opts *o, sp_model **m) {
  char dir[PATH_MAX];
  sp_error err;
  int st = cli_find_model(o->model, dir, sizeof dir, &err);
  if (!st) st = sp_model_load(dir, m, &err);
  if (st) return cli_fail(&err);
  if (sp_model_use_method(*m, "static")) {
    fprintf(stderr,
            "scalepredict: estimate: model %s carries no static method: train one with "
            "'scalepredict train --methods static' on data with PTX columns "
            "(docs/estimate.md)\n",
            dir);
    return EXIT_MODEL;
  }
  return EXIT_OK;
}

/* The model's counters from the features: a static one by name, any other
 * (which the static method does not read) as 0. */
static double *observation(const sp_model *m, const sp_kernel_features *f) {
  size_t n = sp_model_counter_count(m);
  double *c = calloc(n + 1, sizeof(double));
  for (size_t i = 0; c && i < n; i++)
    if (sp_kernel_features_get(f, sp_model_counter_name(m, i), &c[i])) c[i] = 0;
  return c;
}

static int run(const estimate_opts *o, const sp_kernel_features *f, const sp_model *m) {
  double *counters = observation(m, f);
  double *time = malloc((sp_model_config_count(m, SP_TIME) + 1) * sizeof(double));
  int rc = counters && time ? EXIT_OK : EXIT_SYSTEM;
  sp_observation obs = {
      .kernel = o->kernel, .base_time_ms = NAN, .base_power_w = NAN, .counters = counters};
  int st = rc ? SP_ENOMEM : sp_model_predict_all(m, SP_TIME, &obs, time, NULL);
  if (st) {
    fprintf(stderr, "scalepredict: estimate: %s\n", sp_strerror(st));
    rc = cli_exit_for(st);
  } else {
    estimate e = {o, m, sp_kernel_features_entry(f), sp_model_expected_error(m), time};
    if (o->format == FMT_CSV)
      print_csv(&e);
    else if (o->format == FMT_JSON)
      print_json(&e);
    else
      print_table(&e);
  }
  free(counters);
  free(time);
  return rc;
}

int cmd_estimate(int argc, char **argv) {
  estimate_opts o = {.format = FMT_TABLE};
  int rc = parse(argc, argv, &o);
  if (rc) return rc < 0 ? EXIT_OK : rc;
  sp_kernel_features *f = NULL;
  sp_model *m = NULL;
  rc = read_features(&o, &f);
  if (!rc && o.features) print_features(f);
  if (!rc && !o.features) rc = load_model(&o, &m);
  if (!rc && !o.features) rc = run(&o, f, m);
  sp_kernel_features_free(f);
  sp_model_free(m);
  return rc;
}
