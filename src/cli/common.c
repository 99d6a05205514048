/* SPDX-License-Identifier: GPL-3.0-or-later */
/* common.c: error reporting, formats and progress for the CLI. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_exit_for(int status) {
  switch (status) {
    case SP_OK:
      return EXIT_OK;
    case SP_EINVAL:
      return EXIT_USAGE;
    case SP_EMODEL:
      return EXIT_MODEL;
    case SP_EIO:
    case SP_ENOMEM:
      return EXIT_SYSTEM;
    case SP_ENUMERIC:
      return EXIT_NUMERIC;
    case SP_EEXIST:
      return EXIT_USAGE;
    default:
      return EXIT_DATA;
  }
}

/* Writes "scalepredict: TEXT" as one line on standard error: a control
 * character that a value quoted in TEXT holds (a newline in an option's
 * value or in a file name) is escaped as \n, \r, \t or \xNN. */
static void put_error(const char *text) {
  fputs("scalepredict: ", stderr);
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    if (*p >= 0x20 && *p != 0x7F)
      fputc(*p, stderr);
    else if (*p == '\n' || *p == '\r' || *p == '\t')
      fprintf(stderr, "\\%c", *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't');
    else
      fprintf(stderr, "\\x%02X", *p);
  }
  fputc('\n', stderr);
}

int cli_fail(const sp_error *err) {
  /* An I/O error naming no file, while standard output is in error, is
   * that output's: cli_close_stdout reports it, naming it and the cause. */
  if (err->status == SP_EIO && !err->file[0] && ferror(stdout)) return EXIT_SYSTEM;
  char buf[2048];
  sp_error_format(err, buf, sizeof buf);
  put_error(buf);
  return cli_exit_for(err->status);
}

/* put_error of the formatted text, or of fallback without memory for it. */
static void vput(const char *fallback, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  const int n = vsnprintf(NULL, 0, fmt, ap);
  char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (text) vsnprintf(text, (size_t)n + 1, fmt, again);
  va_end(again);
  put_error(text ? text : fallback);
  free(text);
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vput("invalid usage (out of memory to say more)", fmt, ap);
  va_end(ap);
  fprintf(stderr, "Try 'scalepredict %s--help' for more information.\n", cmd ? cmd : "");
  return EXIT_USAGE;
}

void cli_say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vput("(out of memory to say more)", fmt, ap);
  va_end(ap);
}

#define MAX_IGNORED 64

static const char *ignored[MAX_IGNORED + 1];
static sp_dataset_options data_opts = {ignored, 0, 0};

int cli_data_option(int c, const char *arg, const char *cmd) {
  static size_t n;
  if (c == CLI_OPT_SKIP_UNKNOWN)
    data_opts.skip_unknown_kernels = 1;
  else if (c == CLI_OPT_SKIP_UNCOUNTED)
    data_opts.skip_kernels_without_counters = 1;
  else if (c != CLI_OPT_IGNORE_COUNTER)
    return -1;
  else if (n == MAX_IGNORED)
    return cli_usage_error(cmd, "more than %d --ignore-counter options", MAX_IGNORED);
  else
    ignored[n++] = arg;
  return 0;
}

int cli_data_skips_kernels(void) { return data_opts.skip_kernels_without_counters; }

int cli_dataset_load(const char *runs, const char *counters, sp_dataset **ds, sp_error *err) {
  int st = sp_dataset_load_with(runs, counters, &data_opts, ds, err);
  for (size_t i = 0; !st && i < sp_dataset_note_count(*ds); i++)
    cli_say("note: %s", sp_dataset_note(*ds, i));
  return st;
}

int cli_check_output(const char *path, sp_output_kind kind) {
  sp_error err;
  sp_error_clear(&err);
  if (sp_output_check(path, kind, &err)) return cli_fail(&err);
  char names[512];
  size_t n = sp_output_foreign(path, kind, names, sizeof names);
  if (n)
    fprintf(stderr,
            "scalepredict: note: --force: replacing %s removes %zu entr%s scalepredict did "
            "not write: %s\n",
            path, n, n == 1 ? "y" : "ies", names);
  return EXIT_OK;
}

int cli_add_inputs(const char *option, const char *path, ...) {
  va_list ap;
  sp_error err;
  sp_error_clear(&err);
  int st = SP_OK;
  va_start(ap, path);
  while (option && !st) {
    st = sp_output_add_input(path, option, &err);
    if ((option = va_arg(ap, const char *)) != NULL) path = va_arg(ap, const char *);
  }
  va_end(ap);
  return st ? cli_fail(&err) : EXIT_OK;
}

/* The child first: it may still be writing into a temporary. */
static void on_signal(int sig) {
  cli_stop_child(sig);
  sp_output_cleanup();
  signal(sig, SIG_DFL);
  raise(sig);
}

void cli_install_cleanup(void) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction old, sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    /* One handler at a time: a second signal waits for the first's. */
    sigemptyset(&sa.sa_mask);
    for (size_t j = 0; j < sizeof sigs / sizeof sigs[0]; j++) sigaddset(&sa.sa_mask, sigs[j]);
    /* A signal the caller ignores (nohup) stays ignored. */
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
      sigaction(sigs[i], &sa, NULL);
  }
}

int cli_close_stdout(int rc) {
  errno = 0;
  int failed = fflush(stdout) != 0 || ferror(stdout);
  int e = errno;
  /* A closed standard output (>&-) that nothing was written to is fine. */
  if (fclose(stdout) != 0 && !failed && errno != EBADF) {
    failed = 1;
    e = errno;
  }
  if (!failed) return rc;
  fprintf(stderr, "scalepredict: standard output: cannot write: %s\n",
          e ? strerror(e) : "write error");
  return rc ? rc : EXIT_SYSTEM;
}

void cli_json_number(double v) {
  if (isfinite(v))
    printf("%.6g", v);
  else
    fputs("null", stdout);
}

int cli_bad_option(const char *cmd, int c, char **argv) {
  if (c == ':') return cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
  return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

int cli_parse_format_tables(const char *cmd, const char *s, int *json) {
  cli_format f;
  if (cli_parse_format(s, &f))
    return cli_usage_error(cmd, "--format must be table or json, not '%s'", s);
  if (f == FMT_CSV)
    return cli_usage_error(cmd,
                           "--format csv: this command writes several tables; "
                           "--report DIR writes each as CSV");
  *json = f == FMT_JSON;
  return 0;
}

int cli_parse_format(const char *s, cli_format *out) {
  if (!strcmp(s, "table"))
    *out = FMT_TABLE;
  else if (!strcmp(s, "csv"))
    *out = FMT_CSV;
  else if (!strcmp(s, "json"))
    *out = FMT_JSON;
  else
    return -1;
  return 0;
}

int cli_parse_ulong(const char *s, unsigned long *out) {
  char *end;
  errno = 0;
  if (!*s || *s == '-') return -1;
  unsigned long v = strtoul(s, &end, 10);
  if (*end || errno) return -1;
  *out = v;
  return 0;
}

int cli_set_grid_interp(const char *arg, const char *cmd, unsigned *out) {
  unsigned long v;
  if (cli_parse_ulong(arg, &v) || v < 1 || v > 1000)
    return cli_usage_error(cmd, "--grid-interp must be a whole number from 1 to 1000, not '%s'",
                           arg);
  *out = (unsigned)v;
  return EXIT_OK;
}

int cli_parse_positive(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || *end || errno || !isfinite(v) || !(v > 0)) return -1;
  *out = v;
  return 0;
}

int cli_parse_nonnegative(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || *end || errno || !isfinite(v) || v < 0) return -1;
  *out = v;
  return 0;
}

int cli_parse_share(const char *s, size_t whole, size_t *out) {
  unsigned long a, b = 1;
  char *spec = strdup(s), *slash = spec ? strchr(spec, '/') : NULL;
  if (slash) *slash = '\0';
  const int fraction = slash != NULL;
  int bad = !spec || cli_parse_ulong(spec, &a) || (fraction && cli_parse_ulong(slash + 1, &b)) ||
            a < 1 || b < 1 || (fraction && a > b);
  free(spec);
  if (bad) return -1;
  *out = fraction ? (whole * a + b / 2) / b : a;
  if (*out < 1) *out = 1;
  return 0;
}

void cli_progress(void *user, size_t done, size_t total, const char *what) {
  (void)user;
  if (!isatty(STDERR_FILENO)) return;
  fprintf(stderr, "\r%s: %zu/%zu", what, done, total);
  if (done == total) fputc('\n', stderr);
  fflush(stderr);
}

static int has_default_model(const char *root) {
  char path[PATH_MAX];
  struct stat st;
  int n = snprintf(path, sizeof path, "%s/models/hd7970-synth/manifest.txt", root);
  return n > 0 && (size_t)n < sizeof path && stat(path, &st) == 0;
}

/* The bundled model is found, in order, under $SCALEPREDICT_DATADIR, beside
 * the executable in a build tree (src/ or src/.libs/ under the top
 * directory), then in the installed package data directory. */
const char *cli_data_root(void) {
  static char root[PATH_MAX];
  const char *env = getenv("SCALEPREDICT_DATADIR");
  if (env && *env) {
    snprintf(root, sizeof root, "%s", env);
    return has_default_model(root) ? root : NULL;
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    for (int up = 0; up < 3; up++) {
      char *slash = strrchr(exe, '/');
      if (!slash) break;
      *slash = '\0';
      if (has_default_model(exe)) {
        snprintf(root, sizeof root, "%s", exe);
        return root;
      }
    }
  }
  snprintf(root, sizeof root, "%s", SP_PKGDATADIR);
  return has_default_model(root) ? root : NULL;
}

int cli_parse_config_list(const char *spec, sp_config *out, size_t cap, size_t *n, sp_error *err) {
  char *list = strdup(spec), *save = NULL;
  if (!list) return sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  int st = SP_OK;
  *n = 0;
  for (char *t = strtok_r(list, ",", &save); t && !st; t = strtok_r(NULL, ",", &save))
    st = *n < cap
             ? sp_config_parse(t, &out[(*n)++], err)
             : sp_error_set(err, SP_EINVAL, NULL, 0, 0, NULL, "more than %zu configurations", cap);
  free(list);
  return st;
}

int cli_use_method(sp_model *m, const char *name, const char *model_dir, sp_error *err) {
  if (!sp_model_use_method(m, name)) return SP_OK;
  char have[256] = "";
  size_t used = 0;
  for (size_t i = 0; i < sp_model_method_count(m) && used < sizeof have; i++) {
    int n = snprintf(have + used, sizeof have - used, "%s%s", i ? ", " : "",
                     sp_model_method_name(m, i));
    used += n > 0 ? (size_t)n : 0;
  }
  return sp_error_set(err, SP_ENOTFOUND, model_dir, 0, 0, "method",
                      "the model does not carry the method '%s' (it has %s)", name, have);
}

static int has_manifest(const char *dir) {
  char path[PATH_MAX];
  struct stat st;
  int n = snprintf(path, sizeof path, "%s/manifest.txt", dir);
  return n > 0 && (size_t)n < sizeof path && stat(path, &st) == 0;
}

int cli_find_model(const char *spec, char *buf, size_t size, sp_error *err) {
  const char *root = cli_data_root();
  struct stat st;
  /* "" would be looked for as "/manifest.txt", a message about the root. */
  if (!*spec)
    return sp_error_set(err, SP_EINVAL, NULL, 0, 0, NULL,
                        "--model: the model name is empty: give a model directory or the name of "
                        "a bundled model (see 'scalepredict models')");
  if (has_manifest(spec) || strchr(spec, '/') || stat(spec, &st) == 0) {
    snprintf(buf, size, "%s", spec);
    return SP_OK;
  }
  const char *where[] = {root, SP_PKGDATADIR};
  for (size_t i = 0; i < 2; i++) {
    snprintf(buf, size, "%s/models/%s", where[i] ? where[i] : "", spec);
    if (where[i] && has_manifest(buf)) return SP_OK;
  }
  char manifest[4096];
  snprintf(buf, size, "%s", spec);
  snprintf(manifest, sizeof manifest, "%s/manifest.txt", spec);
  return sp_error_set(err, SP_EMODEL, manifest, 0, 0, "model",
                      "no such model directory, and no bundled model of that name (see "
                      "'scalepredict models')");
}

int cli_profile_counts_check(const char *launches, const char *runs, const sp_dataset *ds,
                             sp_error *err) {
  const size_t n = sp_dataset_kernel_count(ds);
  double *w = malloc((n + 1) * sizeof *w);
  if (!w) return err->status = SP_ENOMEM;
  int st = sp_workload_load(launches, ds, w, err);
  size_t k = 0;
  while (!st && k < n && w[k] > 0) k++;
  if (!st && k < n)
    st = sp_error_set(err, SP_EPARSE, launches, 0, 0, "kernel",
                      "no launch count for kernel '%s' of %s: the whole application's row "
                      "would leave it out; add its row (kernel,count,...) or profile again",
                      sp_dataset_kernel_name(ds, k), runs);
  free(w);
  return st;
}

int cli_profile_paths(const char *dir, const char *cmd, cli_profile *p) {
  if (strlen(dir) + sizeof "/counters.csv" > sizeof p->runs)
    return cli_usage_error(cmd, "--profile: the directory name is too long");
  snprintf(p->dir, sizeof p->dir, "%s", dir);
  snprintf(p->runs, sizeof p->runs, "%s/runs.csv", dir);
  snprintf(p->counters, sizeof p->counters, "%s/counters.csv", dir);
  snprintf(p->launches, sizeof p->launches, "%s/launches.csv", dir);
  return 0;
}
