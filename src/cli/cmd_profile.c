/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_profile.c: scalepredict profile, the user's own application turned
 * into the model's input (issue 11): a profile the user has (--import), or
 * the program run under the vendor profiler with exactly the metrics the
 * model needs.  Every failure says its fix, and leaves nothing behind. */
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

typedef struct profile_opts {
  const char *model;
  const char *out;
  const char *base;
  const char *import;
  const char *profiler; /* NULL: the vendor's profiler from PATH */
  int vendor;           /* SP_VENDOR_NVIDIA (ncu) or SP_VENDOR_AMD (rocprofv3) */
  char **argv;          /* the program and its arguments, or NULL */
  const char *second;   /* --second-sms: NULL (auto), "auto", "none" or N[,N...] */
  const char *model_dir;
} profile_opts;

/* The further passes' plan: their SM counts (n == 0: none), and why (or
 * why not). */
enum { SECOND_MAX = 8 };
typedef struct second_plan {
  size_t n;
  int sms[SECOND_MAX];
  char why[PATH_MAX + 256];
  char preload[PATH_MAX];
} second_plan;

/* "the profile lacks N metrics the model needs: a, b, ..." in full: the
 * library's message holds only what fits. */
static int fail_missing(const sp_profile *p, const char *path) {
  size_t n = sp_profile_missing_count(p);
  fputs("scalepredict: ", stderr);
  cli_put_text(stderr, path);
  fprintf(stderr, ": %zu metric%s the model needs %s missing from the profile:", n,
          n == 1 ? "" : "s", n == 1 ? "is" : "are");
  int metrics = 1; /* every one a metric to ask for, not a counter without any */
  for (size_t i = 0; i < n; i++) {
    fprintf(stderr, "%s %s", i ? "," : "", sp_profile_missing(p, i));
    metrics = metrics && !strchr(sp_profile_missing(p, i), ' ');
  }
  if (sp_profile_vendor(p) == SP_VENDOR_NVIDIA && metrics) {
    /* ncu --set full lacks some: the same set with them added imports. */
    fprintf(stderr, " (ask ncu for them too, --set full or not: --metrics ");
    for (size_t i = 0; i < n; i++) fprintf(stderr, "%s%s", i ? "," : "", sp_profile_missing(p, i));
    fprintf(stderr, "; 'scalepredict info --model DIR' lists every metric it needs)\n");
  } else {
    fprintf(stderr, " (ask the profiler for them: 'scalepredict info --model DIR' lists them)\n");
  }
  return EXIT_DATA;
}

/* A model of several bases (one per card) needs --base: the profile's rows
 * are written at it, and the card profiled on is not to be guessed.  The
 * usage error lists the bases with their memory systems. */
static int several_bases(const sp_model *m, const char *model) {
  fputs("scalepredict: profile: model ", stderr);
  cli_put_text(stderr, model);
  fputs(" has several bases, one per card: give --base, the one of the card you profile on (",
        stderr);
  for (size_t b = 0; b < sp_model_base_count(m); b++) {
    sp_config c = sp_model_base_at(m, b);
    const sp_memory_system *ms = sp_model_memory_of(m, c.memory_mhz);
    char cfg[64];
    sp_config_format(&c, cfg, sizeof cfg);
    fprintf(stderr, "%s%s%s%s", b ? "; " : "", cfg, ms ? ": " : "", ms ? ms->name : "");
  }
  fprintf(stderr, ")\n");
  return EXIT_USAGE;
}

/* The configuration profiled: --base, or the model's. */
static int profiled_base(const profile_opts *o, const sp_model *m, sp_config *base) {
  sp_error err;
  sp_error_clear(&err);
  *base = sp_model_base(m);
  if (o->base && sp_config_parse(o->base, base, &err))
    return cli_usage_error("profile ", "--base: %s", err.message);
  return EXIT_OK;
}

static int find_line(const char *file, const char *text, char *buf, size_t size);

/* An error located in the profiler's temporary output (path), which is
 * removed before the tool ends, located by label instead. */
static int fail_at(sp_error *err, const char *path, const char *label) {
  if (label && !strcmp(err->file, path)) snprintf(err->file, sizeof err->file, "%s", label);
  return cli_fail(err);
}

/* Reads the profile at path and writes the model's input into o->out,
 * with note as profile.txt's "second:" line (NULL: none); the profile
 * read is kept in *kept when kept is not NULL and it was written.  label:
 * what path is, when it is the profiler's temporary output (profile.txt's
 * source, and where errors are said to be), else NULL. */
static int convert_as(const profile_opts *o, const sp_model *m, const char *path, const char *note,
                      const char *label, sp_profile **kept) {
  sp_error err;
  sp_error_clear(&err);
  sp_profile *p = NULL;
  sp_config base;
  int st = profiled_base(o, m, &base);
  if (st) return st;
  st = sp_profile_load(path, m, &p, &err);
  if (!st && note) st = sp_profile_set_note(p, note) ? (err.status = SP_ENOMEM) : SP_OK;
  if (!st && label) st = sp_profile_set_source(p, label) ? (err.status = SP_ENOMEM) : SP_OK;
  char line[1024];
  if (st && err.status == SP_EPARSE && !p &&
      find_line(path, "No kernels were profiled", line, sizeof line) == 0) {
    cli_say("%s: no kernel launch in the profile: ncu profiled none (%s); nothing written",
            label ? label : path, line);
    return EXIT_DATA;
  }
  if (st) {
    sp_profile_free(p);
    return fail_at(&err, path, label);
  }
  int rc = EXIT_OK;
  if (sp_profile_launch_count(p) == 0) {
    fprintf(stderr,
            "scalepredict: %s: no kernel launch in the profile: the program launched "
            "no GPU kernel, or the profiler profiled none (see its filters); nothing written\n",
            path);
    rc = EXIT_DATA;
  } else if (sp_profile_missing_count(p)) {
    rc = fail_missing(p, path);
  } else if ((st = sp_profile_write(p, &base, o->out, &err)) != SP_OK) {
    rc = fail_at(&err, path, label);
  } else {
    printf("%s: %zu kernel launches as %zu entries (device: %s) for model %s\n", o->out,
           sp_profile_launch_count(p), sp_profile_entry_count(p),
           *sp_profile_device(p) ? sp_profile_device(p) : "not recorded", sp_model_name(m));
  }
  if (rc == EXIT_OK && kept)
    *kept = p;
  else
    sp_profile_free(p);
  return rc;
}

static int convert(const profile_opts *o, const sp_model *m, const char *path) {
  return convert_as(o, m, path, NULL, NULL, NULL);
}

/* Whether path is a file this process may run (a directory is not). */
static int runnable(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0;
}

/* The full path of program name found on PATH, into buf; 0 when found. */
static int find_program(const char *name, char *buf, size_t size) {
  if (!*name) return -1;
  if (strchr(name, '/')) {
    snprintf(buf, size, "%s", name);
    return runnable(buf) ? 0 : -1;
  }
  const char *path = getenv("PATH");
  while (path && *path) {
    size_t n = strcspn(path, ":");
    snprintf(buf, size, "%.*s/%s", (int)n, n ? path : ".", name);
    if (runnable(buf)) return 0;
    path += n + (path[n] == ':');
  }
  return -1;
}

/* Whether the profiler was ended by a signal that ends the tool too: Ctrl-C
 * reaches the profiler's group directly while it holds the terminal. */
static int interrupted(int sig) { return sig == SIGINT || sig == SIGTERM || sig == SIGHUP; }

/* The tool ends by the signal that ended the profiler (the handler removes
 * what is left), as a shell does; rc when that signal is ignored. */
static int end_as(int sig, int rc) {
  if (interrupted(sig)) raise(sig);
  return rc;
}

typedef struct line_search {
  const char *text;
  char *buf;
  size_t size;
  int found;
} line_search;

static int match_line(void *user, char *line, long ln, sp_error *err) {
  line_search *s = user;
  (void)ln;
  (void)err;
  if (!strstr(line, s->text)) return 0;
  snprintf(s->buf, s->size, "%s", line);
  s->found = 1;
  return 1; /* stops the reading; not a status, which found tells apart */
}

/* The first line of file holding text, into buf; 0 when found.  The log is
 * whatever the profiler left, so it is read with the bounds of every text
 * input: a NUL byte (/dev/zero), a line over 1 MiB or more than 10 million
 * lines end the search, and a FIFO nobody writes reads as empty. */
static int find_line(const char *file, const char *text, char *buf, size_t size) {
  line_search s = {text, buf, size, 0};
  sp_error err;
  sp_error_clear(&err);
  cli_read_lines(file, (size_t)1 << 20, 10000000, match_line, &s, &err);
  return s.found ? 0 : -1;
}

/* Why ncu's run gave nothing to read, with the fix; EXIT_SYSTEM. */
/* Whether the profiler left nothing at log: no file, or an empty regular
 * one (a FIFO or /dev/zero there goes on to the bounded reader). */
static int log_missing(const char *log) {
  struct stat sb;
  return stat(log, &sb) != 0 || (S_ISREG(sb.st_mode) && sb.st_size == 0);
}

static int explain_ncu(const char *ncu, const char *log, int status, const char *program) {
  char line[1024];
  if (find_line(log, "ERR_NVGPUCTRPERM", line, sizeof line) == 0) {
    fprintf(stderr,
            "scalepredict: ncu may not read the GPU's performance counters "
            "(ERR_NVGPUCTRPERM): the driver lets only administrators profile.  Run "
            "as root (sudo), or allow every user: put 'options nvidia "
            "NVreg_RestrictProfilingToAdminUsers=0' in a file under /etc/modprobe.d/ "
            "and reload the nvidia module (or reboot); in a container, start it with "
            "--cap-add=SYS_ADMIN.  Nothing written\n");
    return EXIT_SYSTEM;
  }
  if (status == 0 && find_line(log, "No kernels were profiled", line, sizeof line) == 0) {
    cli_say("'%s' launched no GPU kernel that ncu could profile (%s); nothing written", program,
            line);
    return EXIT_DATA;
  }
  if (status != 0 && find_line(log, "==ERROR==", line, sizeof line) == 0) {
    cli_say("'%s' failed under ncu (exit status %d): %s; nothing written", program, status, line);
    return EXIT_SYSTEM;
  }
  if (status != 0) {
    /* ncu says why the program failed in its log: nothing there, the
     * profiler itself failed (or is not ncu). */
    cli_say(
        "the profiler '%s' failed (exit status %d) and its log names no error of '%s': run "
        "it by hand to see why; nothing written",
        ncu, status, program);
    return EXIT_SYSTEM;
  }
  if (log_missing(log)) {
    cli_say(
        "the profiler '%s' ended without writing a profile to its --log-file: is it Nsight "
        "Compute's ncu (--profiler)?  Nothing written",
        ncu);
    return EXIT_SYSTEM;
  }
  return EXIT_OK;
}

/* The ncu to run, into ncu; EXIT_SYSTEM (with the fix) when there is none. */
static int find_ncu(const profile_opts *o, char *ncu, size_t size) {
  const char *want = o->profiler ? o->profiler : "ncu";
  if (!find_program(want, ncu, size)) return EXIT_OK;
  fprintf(stderr,
          "scalepredict: the profiler '%s' %s: install NVIDIA Nsight "
          "Compute (the CUDA toolkit's 'nsight-compute' package, or "
          "https://developer.nvidia.com/nsight-compute) and put ncu on PATH, or give "
          "--profiler PATH; nothing written\n",
          want,
          strchr(want, '/') ? "was not found or is not a program (a file this user may run)"
                            : "was not found on PATH");
  return EXIT_SYSTEM;
}

/* A fresh temporary directory dir (PATH_MAX) and the path of ncu's output
 * in it, log (PATH_MAX + 32); EXIT_SYSTEM when it cannot be made.  It is
 * tracked from the start, so that the signal handler removes it. */
static int temp_log(char *dir, char *log) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, PATH_MAX, "%s/scalepredict-profile-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  sigset_t s, saved;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  sigaddset(&s, SIGHUP);
  sigprocmask(SIG_BLOCK, &s, &saved);
  int made = mkdtemp(dir) != NULL;
  if (made) sp_output_track(dir);
  sigprocmask(SIG_SETMASK, &saved, NULL);
  if (!made) {
    perror("scalepredict: a temporary directory");
    return EXIT_SYSTEM;
  }
  snprintf(log, PATH_MAX + 32, "%s/ncu-raw.csv", dir);
  return EXIT_OK;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

/* The temporary directory of temp_log, with what the profiler left in it. */
static void remove_temp(const char *dir) {
  nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  sp_output_untrack(dir);
}

/* ncu's options for the raw CSV that convert() reads (the same for a run
 * and for --import): every metric as a column, base units, kernel names
 * demangled. */
#define NCU_RAW_CSV \
  "--csv", "--page", "raw", "--print-units", "base", "--print-kernel-base", "demangled"

/* An Nsight Compute report (.ncu-rep) read through ncu --import into the
 * raw CSV that convert() reads. */
static int import_report(const profile_opts *o, const sp_model *m) {
  char ncu[PATH_MAX], dir[PATH_MAX], log[PATH_MAX + 32];
  int rc = find_ncu(o, ncu, sizeof ncu);
  if (rc || (rc = temp_log(dir, log))) return rc;
  char *args[] = {ncu, "--import", (char *)o->import, NCU_RAW_CSV, "--log-file", log, NULL};
  int sig = 0;
  int status = cli_run_child(args, &sig);
  char label[PATH_MAX + 64];
  snprintf(label, sizeof label, "ncu's reading of '%s'", o->import);
  if (status == 0 && log_missing(log)) {
    cli_say(
        "the profiler '%s' ended without writing the report's CSV to its --log-file: is it "
        "Nsight Compute's ncu (--profiler)?  Nothing written",
        ncu);
    rc = EXIT_SYSTEM;
  } else if (status == 0) {
    rc = convert_as(o, m, log, NULL, label, NULL);
  } else {
    if (!interrupted(sig))
      fprintf(stderr,
              "scalepredict: ncu could not read the report '%s' (%s %d); nothing "
              "written\n",
              o->import, status < 0 ? "could not run, error" : "exit status", status);
    rc = EXIT_SYSTEM;
  }
  remove_temp(dir);
  return end_as(sig, rc);
}

/* The first file under dir, or in a folder of dir, whose name ends in
 * suffix (rocprofv3 may add a host or process folder), into buf. */
static int find_output(const char *dir, const char *suffix, char *buf, size_t size, int depth) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int found = -1;
  size_t ls = strlen(suffix);
  while (d && found && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    snprintf(buf, size, "%s/%s", dir, e->d_name);
    struct stat sb;
    if (stat(buf, &sb)) continue;
    size_t ln = strlen(e->d_name);
    if (S_ISREG(sb.st_mode) && ln >= ls && !strcmp(e->d_name + ln - ls, suffix))
      found = 0;
    else if (S_ISDIR(sb.st_mode) && depth > 0) {
      char sub[PATH_MAX];
      snprintf(sub, sizeof sub, "%s", buf);
      found = find_output(sub, suffix, buf, size, depth - 1);
    }
  }
  if (d) closedir(d);
  return found;
}

/* The program under rocprofv3 --pmc with the counters the model needs, its
 * counter CSV then read as --import reads one. */
static int run_rocprof(const profile_opts *o, const sp_model *m) {
  char prof[PATH_MAX], program[PATH_MAX], dir[PATH_MAX], log[PATH_MAX + 32], csv[PATH_MAX];
  const char *want = o->profiler ? o->profiler : "rocprofv3";
  if (find_program(want, prof, sizeof prof)) {
    fprintf(stderr,
            "scalepredict: the profiler '%s' was not found%s: install ROCm's "
            "rocprofiler-sdk (rocprofv3, in /opt/rocm/bin) and put it on PATH, or give "
            "--profiler PATH; nothing written\n",
            want, strchr(want, '/') ? "" : " on PATH");
    return EXIT_SYSTEM;
  }
  if (find_program(o->argv[0], program, sizeof program)) {
    fprintf(stderr,
            "scalepredict: the program '%s' was not found or is not executable; "
            "nothing written\n",
            o->argv[0]);
    return EXIT_USAGE;
  }
  sp_error err;
  char *metrics = NULL;
  if (sp_profile_metric_list(m, SP_VENDOR_AMD, &metrics, &err)) return cli_fail(&err);
  if (temp_log(dir, log)) {
    free(metrics);
    return EXIT_SYSTEM;
  }
  size_t n = 0, nm = 1;
  while (o->argv[n]) n++;
  for (const char *c = metrics; *c; c++) nm += *c == ',';
  char **args = calloc(n + nm + 16, sizeof *args);
  int rc = EXIT_SYSTEM, sig = 0;
  if (args) {
    size_t a = 0;
    args[a++] = prof;
    args[a++] = "--pmc";
    for (char *t = strtok(metrics, ","); t; t = strtok(NULL, ",")) args[a++] = t;
    const char *fixed[] = {
        "--kernel-trace", "--output-format", "csv", "-d", dir, "-o", "run", "--"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) args[a++] = (char *)fixed[i];
    args[a++] = program;
    for (size_t i = 1; i < n; i++) args[a++] = o->argv[i];
    int status = cli_run_child(args, &sig);
    if (interrupted(sig)) {
      rc = EXIT_SYSTEM;
    } else if (status != 0) {
      fprintf(stderr,
              "scalepredict: '%s' failed under rocprofv3 (exit status %d); nothing "
              "written\n",
              o->argv[0], status);
    } else if (find_output(dir, "counter_collection.csv", csv, sizeof csv, 2)) {
      fprintf(stderr,
              "scalepredict: '%s' launched no GPU kernel that rocprofv3 could profile "
              "(no counter_collection.csv); nothing written\n",
              o->argv[0]);
      rc = EXIT_DATA;
    } else {
      rc = convert(o, m, csv);
    }
  }
  free(args);
  free(metrics);
  remove_temp(dir);
  return end_as(sig, rc);
}

/* ---- the second point (docs/profile.md, "Two points") ------------------ */

/* The preload library: $SP_GREENCTX_PRELOAD, the build tree's (greenctx/
 * .libs up to three folders above the tool), or the installed one; 0 when
 * it is there. */
static int find_preload(char *buf, size_t size) {
  static const char lib[] = "libscalepredict-greenctx-preload.so";
  const char *env = getenv("SP_GREENCTX_PRELOAD");
  if (env && *env) {
    snprintf(buf, size, "%s", env);
    return access(buf, R_OK);
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  for (int up = 0; n > 0 && up < 3; up++) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) break;
    *slash = '\0';
    n = slash - exe;
    int w = snprintf(buf, size, "%s/greenctx/.libs/%s", exe, lib);
    if (w > 0 && (size_t)w < size && access(buf, R_OK) == 0) return 0;
  }
  snprintf(buf, size, "%s/%s", SP_PKGLIBDIR, lib);
  return access(buf, R_OK);
}

/* Whether sms is an SM count of m's grid below base's, at its clocks. */
static int below_on_grid(const sp_model *m, const sp_config *base, long sms) {
  sp_config c = *base;
  c.cu = (int)sms;
  return sms >= 1 && sms < base->cu && sp_model_config_index(m, SP_TIME, &c) != (size_t)-1;
}

/* --second-sms N[,N...] into s: each a level of m's grid below base's, at
 * most SECOND_MAX, none twice; EXIT_USAGE naming the one that is not. */
static int parse_second_list(const char *want, const sp_model *m, const sp_config *base,
                             second_plan *s) {
  const char *at = want;
  for (;;) {
    char *end;
    long n = strtol(at, &end, 10);
    char why[96] = "";
    if (end == at || (*end && *end != ',') || !below_on_grid(m, base, n))
      snprintf(why, sizeof why, "is not an SM count of the model's grid below the base's %d",
               base->cu);
    else if (s->n == SECOND_MAX)
      snprintf(why, sizeof why, "is one too many: at most %d", SECOND_MAX);
    for (size_t i = 0; !why[0] && i < s->n; i++)
      if (s->sms[i] == n) snprintf(why, sizeof why, "is given twice");
    if (why[0])
      return cli_usage_error("profile ",
                             "--second-sms '%s': '%.*s' %s (give auto, none, or levels of the "
                             "model's grid below the base: N or N,N,..., each once)",
                             want, (int)strcspn(at, ","), at, why);
    s->sms[s->n++] = (int)n;
    if (!*end) break;
    at = end + 1;
  }
  snprintf(s->why, sizeof s->why, "chosen with --second-sms %s", want);
  return EXIT_OK;
}

/* The further passes' SM counts by --second-sms (auto: the model's
 * choice), none with the reason in s->why where there are none;
 * EXIT_USAGE for an SM count the model cannot use. */
static int plan_second(const profile_opts *o, const sp_model *m, const sp_config *base,
                       second_plan *s) {
  const char *want = o->second ? o->second : "auto";
  s->n = 0;
  if (!strcmp(want, "none")) {
    snprintf(s->why, sizeof s->why, "not measured (--second-sms none)");
    return EXIT_OK;
  }
  if (!strcmp(want, "auto")) {
    if (sp_profile_second_choice(o->model_dir, m, base, &s->sms[0], s->why, sizeof s->why) == 0)
      s->n = 1;
  } else {
    int rc = parse_second_list(want, m, base, s);
    if (rc) return rc;
  }
  if (s->n && find_preload(s->preload, sizeof s->preload)) {
    snprintf(s->why, sizeof s->why,
             "the preload library %s is not there (install scalepredict, or set "
             "SP_GREENCTX_PRELOAD to libscalepredict-greenctx-preload.so)",
             s->preload);
    s->n = 0;
  }
  return EXIT_OK;
}

typedef struct preload_status {
  int ok, sms, processes;
  long pid;
  char error[512];
} preload_status;

static int status_line(void *user, char *line, long ln, sp_error *err) {
  preload_status *ps = user;
  long pid = 0;
  int n = 0;
  (void)ln, (void)err;
  if (sscanf(line, "ok %d pid %ld", &n, &pid) == 2) {
    ps->ok++;
    ps->sms = n;
  } else if (sscanf(line, "error pid %ld:", &pid) == 1 && !ps->error[0]) {
    const char *why = strchr(line, ':');
    snprintf(ps->error, sizeof ps->error, "%s", why ? why + 2 : line);
  }
  if (pid && pid != ps->pid) ps->processes++;
  ps->pid = pid;
  return 0;
}

/* Why the preload did not put the program on sms SMs, into why; 0 when
 * it did, in one process. */
static int preload_failed(const char *file, const char *program, int sms, char *why, size_t size) {
  preload_status ps = {0, 0, 0, 0, ""};
  sp_error err;
  sp_error_clear(&err);
  cli_read_lines(file, 4096, 100000, status_line, &ps, &err);
  if (ps.error[0])
    snprintf(why, size, "the preload could not enter a green context of %d SMs in '%s': %s", sms,
             program, ps.error);
  else if (ps.ok == 0)
    snprintf(why, size,
             "the preload did not start in '%s' (a script or a launcher that runs "
             "another program?): run the binary that launches the kernels",
             program);
  else if (ps.processes > 1)
    snprintf(why, size,
             "'%s' ran as %d processes: a second SM count is measured for a single "
             "process only",
             program, ps.processes);
  else if (ps.sms != sms)
    snprintf(why, size, "the green context has %d SMs, not %d", ps.sms, sms);
  else
    return 0;
  return -1;
}

/* Sets name=value for the child, keeping the old value in *old. */
static void set_env(const char *name, const char *value, char **old) {
  const char *v = getenv(name);
  *old = v ? strdup(v) : NULL;
  setenv(name, value, 1);
}

static void restore_env(const char *name, char *old) {
  if (old)
    setenv(name, old, 1);
  else
    unsetenv(name);
  free(old);
}

/* ncu's command line for program (o->argv[0] found at program) and its
 * arguments, collecting metrics into log: a NULL-terminated array to free,
 * or NULL. */
static char **ncu_command(const profile_opts *o, const char *ncu, const char *program,
                          const char *metrics, const char *log) {
  const char *fixed[] = {ncu,         "--clock-control", "none",       NCU_RAW_CSV,
                         "--metrics", metrics,           "--log-file", log};
  const size_t nf = sizeof fixed / sizeof *fixed;
  size_t n = 0;
  while (o->argv[n]) n++;
  char **args = calloc(nf + n + 1, sizeof *args);
  if (!args) return NULL;
  size_t a = 0;
  for (size_t i = 0; i < nf; i++) args[a++] = (char *)fixed[i];
  args[a++] = (char *)program;
  for (size_t i = 1; i < n; i++) args[a++] = o->argv[i];
  return args;
}

/* Runs ncu's pass at sms SMs with the preload; its exit status, or -1. */
static int run_preloaded(const profile_opts *o, const char *ncu, const char *program,
                         const second_plan *s, int sms, const char *log, const char *status,
                         int *sig) {
  char **args = ncu_command(o, ncu, program, sp_profile_second_metrics(), log);
  if (!args) return -1;
  char count[16], preload[2 * PATH_MAX + 2], *old[5];
  const char *prev = getenv("LD_PRELOAD");
  snprintf(count, sizeof count, "%d", sms);
  snprintf(preload, sizeof preload, "%s%s%s", s->preload, prev && *prev ? ":" : "",
           prev ? prev : "");
  set_env("LD_PRELOAD", preload, &old[0]);
  set_env("SP_GREEN_SMS", count, &old[1]);
  set_env("SP_GREEN_EXE", program, &old[2]);
  set_env("SP_GREEN_STATUS", status, &old[3]);
  int rc = cli_run_child(args, sig);
  restore_env("LD_PRELOAD", old[0]);
  restore_env("SP_GREEN_SMS", old[1]);
  restore_env("SP_GREEN_EXE", old[2]);
  restore_env("SP_GREEN_STATUS", old[3]);
  free(args);
  return rc;
}

/* Why the pass at sms SMs gave no point, into why (0: it did); its CSV is
 * matched to p's launches. */
static int second_failed(const profile_opts *o, sp_profile *p, int sms, const char *log,
                         const char *status, int exit, char *why, size_t size) {
  char line[1024], file[64];
  sp_error err;
  sp_error_clear(&err);
  if (exit < 0) {
    snprintf(why, size, "ncu could not be run for the pass at %d SMs", sms);
    return -1;
  }
  if (preload_failed(status, o->argv[0], sms, why, size)) return -1;
  if (exit != 0) {
    int e = find_line(log, "==ERROR==", line, sizeof line) == 0;
    snprintf(why, size, "'%s' failed at %d SMs under ncu (exit status %d)%s%s", o->argv[0], sms,
             exit, e ? ": " : "", e ? line : "");
    return -1;
  }
  if (sp_profile_add_second(p, log, sms, &err) == SP_OK) return 0;
  /* The CSV is kept in the profile: the error names it there. */
  if (sp_profile_second_file(p, sms, file, sizeof file))
    snprintf(why, size, "%s", err.message);
  else
    snprintf(why, size, "%s/%s:%ld:%ld: %s%s%s%s", o->out, file, err.line, err.column,
             err.field[0] ? "field '" : "", err.field, err.field[0] ? "': " : "", err.message);
  return -1;
}

/* After the base pass wrote o->out: the program again at the plan's i-th SM
 * count, its launch times added to the profile (the directory rewritten
 * at once), or no point with the reason said; the signal that ended ncu
 * into *sig.  tmp holds the passes' CSVs until the last rewrite. */
static int second_pass(const profile_opts *o, const char *ncu, const char *program,
                       const second_plan *s, size_t i, const char *tmp, sp_profile *p,
                       const sp_config *base, int *sig) {
  char log[PATH_MAX + 32], status[PATH_MAX + 32], why[2048];
  const int sms = s->sms[i];
  sp_error err;
  sp_error_clear(&err);
  snprintf(log, sizeof log, "%s/second-%d.csv", tmp, sms);
  snprintf(status, sizeof status, "%s/preload-status-%d", tmp, sms);
  if (s->n == 1)
    cli_say("second pass: '%s' at %d SMs (%s)", o->argv[0], sms, s->why);
  else
    cli_say("pass %zu of %zu: '%s' at %d SMs (%s)", i + 2, s->n + 1, o->argv[0], sms, s->why);
  int exit = run_preloaded(o, ncu, program, s, sms, log, status, sig);
  if (interrupted(*sig)) return EXIT_SYSTEM;
  int failed = second_failed(o, p, sms, log, status, exit, why, sizeof why);
  int st = sp_profile_second_note(p, sms, failed ? why : s->why);
  if (!st) st = sp_profile_rewrite(p, base, o->out, &err);
  if (st) {
    if (!err.status) err.status = st;
    cli_say("%s holds the profile as it was before the pass at %d SMs, whole", o->out, sms);
    return cli_fail(&err);
  }
  if (failed && s->n == 1)
    cli_say("note: one point only: %s", why);
  else if (failed)
    cli_say("note: no point at %d SMs: %s", sms, why);
  else
    printf("%s: the same %zu entries at %d SMs too (runs.csv): predict --profile uses them\n",
           o->out, sp_profile_entry_count(p), sms);
  return EXIT_OK;
}

/* Every pass of the plan, in its order; the temporary folder of their
 * CSVs removed at the end, or on a signal before the tool ends by it. */
static int further_passes(const profile_opts *o, const char *ncu, const char *program,
                          const second_plan *s, sp_profile *p, const sp_config *base) {
  char tmp[PATH_MAX], unused[PATH_MAX + 32];
  if (temp_log(tmp, unused)) return EXIT_SYSTEM;
  int rc = EXIT_OK, sig = 0;
  for (size_t i = 0; i < s->n && rc == EXIT_OK && !interrupted(sig); i++)
    rc = second_pass(o, ncu, program, s, i, tmp, p, base, &sig);
  remove_temp(tmp);
  return end_as(sig, rc);
}

static int run_ncu(const profile_opts *o, const sp_model *m) {
  char ncu[PATH_MAX], program[PATH_MAX];
  if (find_ncu(o, ncu, sizeof ncu)) return EXIT_SYSTEM;
  if (find_program(o->argv[0], program, sizeof program)) {
    fprintf(stderr,
            "scalepredict: the program '%s' was not found or is not executable; "
            "nothing written\n",
            o->argv[0]);
    return EXIT_USAGE;
  }
  sp_error err;
  second_plan plan;
  sp_config base;
  int rc = profiled_base(o, m, &base);
  if (!rc) rc = plan_second(o, m, &base, &plan);
  if (rc) return rc;
  char *metrics = NULL;
  if (sp_profile_metric_list(m, SP_VENDOR_NVIDIA, &metrics, &err)) return cli_fail(&err);
  char dir[PATH_MAX], log[PATH_MAX + 32];
  if (temp_log(dir, log)) {
    free(metrics);
    return EXIT_SYSTEM;
  }
  char **args = ncu_command(o, ncu, program, metrics, log);
  int sig = 0;
  sp_profile *p = NULL;
  rc = EXIT_SYSTEM;
  if (args) {
    int status = cli_run_child(args, &sig);
    rc = status < 0 || interrupted(sig) ? EXIT_SYSTEM : explain_ncu(ncu, log, status, o->argv[0]);
    char label[PATH_MAX + 64];
    snprintf(label, sizeof label, "ncu's output for '%s'", o->argv[0]);
    if (status >= 0 && rc == EXIT_OK)
      rc = convert_as(o, m, log, plan.n ? NULL : plan.why, label, &p);
  }
  free(args);
  free(metrics);
  remove_temp(dir);
  if (interrupted(sig)) {
    sp_profile_free(p);
    return end_as(sig, rc);
  }
  if (rc == EXIT_OK && plan.n == 0) cli_say("note: one point only: %s", plan.why);
  if (rc == EXIT_OK && plan.n) rc = further_passes(o, ncu, program, &plan, p, &base);
  sp_profile_free(p);
  return rc;
}

static int set_vendor(void *ctx, const char *arg, const char *cmd) {
  profile_opts *o = ctx;
  if (!strcmp(arg, "nvidia"))
    o->vendor = SP_VENDOR_NVIDIA;
  else if (!strcmp(arg, "amd"))
    o->vendor = SP_VENDOR_AMD;
  else
    return cli_usage_error(cmd, "--vendor must be nvidia or amd, not '%s'", arg);
  return 0;
}

#define ROW(kind, name, arg, field, help) CLI_ROW(kind, name, arg, profile_opts, field, help)
static const cli_option options[] = {
    ROW(CLI_STRING, "model", "DIR|NAME", model,
        "the model (a directory, or a bundled model's name:\n"
        "'scalepredict models')"),
    ROW(CLI_STRING, "out", "DIR", out, "the directory to create (an existing one is refused)"),
    ROW(CLI_STRING, "base", "CFG", base,
        "the configuration profiled (default: the model's base;\n"
        "required with a model of several bases, one per card:\n"
        "the base of the card you profile on)"),
    ROW(CLI_STRING, "import", "FILE", import,
        "convert this profile instead of running a program (an\n"
        "Nsight Compute report, FILE.ncu-rep, is read through\n"
        "'ncu --import FILE --csv --page raw')"),
    ROW(CLI_STRING, "profiler", "PATH", profiler,
        "the profiler to run (default: ncu, or rocprofv3 with\n"
        "--vendor amd, on PATH)"),
    CLI_ROW_CALL("vendor", "V", set_vendor,
                 "nvidia (default: run ncu) or amd (run rocprofv3 --pmc with\n"
                 "the model's counters --kernel-trace --output-format csv)"),
    ROW(CLI_STRING, "second-sms", "auto|none|N[,N...]", second,
        "the SM counts of the further passes (ncu only): auto\n"
        "(the default) one, the model's choice, its\n"
        "second-sms.txt, else the grid's level nearest half the\n"
        "base's; none: one point; N,N,...: levels of the model's\n"
        "grid below the base, a pass each (at most 8; 24,64 on\n"
        "the H100 model: docs/profile.md)"),
};
#undef ROW

static const cli_command command = {
    .prefix = "profile ",
    .optstring = "+:h",
    .operands = 1,
    .head =
        "Usage: scalepredict profile --model DIR|NAME --out DIR [--base CFG]\n"
        "                            [--vendor nvidia|amd] [--profiler PATH]\n"
        "                            [--second-sms auto|none|N[,N...]]\n"
        "                            -- PROGRAM [ARGS...]\n"
        "       scalepredict profile --model DIR|NAME --out DIR [--base CFG] --import FILE\n"
        "\n"
        "Profiles your own application at the model's base configuration and writes\n"
        "what 'predict' and 'export' read (--profile DIR) into a new directory:\n"
        "runs.csv (each kernel's median time), counters.csv (the model's counters),\n"
        "launches.csv (launch counts and total times), profile.txt (device and clocks)\n"
        "and profile-raw.csv (the profiler's output).  A kernel launched at several\n"
        "launch shapes is one entry per shape.\n"
        "\n"
        "With a program it runs, on NVIDIA GPUs,\n"
        "  ncu --clock-control none --csv --page raw --print-units base\n"
        "      --print-kernel-base demangled --metrics <what the model needs> PROGRAM ...\n"
        "(ncu replays each launch a few times; clocks are left alone), then again with\n"
        "the preload libscalepredict-greenctx-preload.so and SP_GREEN_SMS=N for the\n"
        "launch times alone (--metrics gpu__time_duration.sum,launch__sm_count): the\n"
        "program, unchanged, runs on a green context of N SMs, and runs.csv gets each\n"
        "entry's time at N SMs too, which predict --profile passes its predictions\n"
        "through (--second-sms 24,64: a pass at each).  Where that cannot work (the\n"
        "preload fails, a launcher script, several processes, launches from other\n"
        "threads or contexts, other launches than the first pass's) that pass gives no\n"
        "point, saying why on standard error and in profile.txt ('second: none: ...');\n"
        "interrupted then, the profile stays as the passes before left it, whole.\n"
        "On AMD GPUs\n"
        "(--vendor amd) rocprofv3 --pmc <the model's counters> --kernel-trace\n"
        "--output-format csv -- PROGRAM ....  With --import it\n"
        "reads a profile you have: an ncu raw CSV of any metric set (ncu --set full\n"
        "--csv --page raw --print-units base) or a rocprofv3 counter CSV\n"
        "(rocprofv3 --pmc ... --output-format csv).\n"
        "\n",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .column = 20,
    .tail =
        "\n"
        "Exit status: 1 usage, 2 the profile is damaged (a row of another width\n"
        "than its header's, a launch time that is not a positive number), lacks\n"
        "metrics or launches, 3 model, 4 the profiler is missing, not permitted, or\n"
        "the program failed; interrupted (SIGINT, SIGTERM, SIGHUP), it passes the\n"
        "signal on to the profiler, removes what it wrote and ends by the signal.\n",
};

int cmd_profile(int argc, char **argv) {
  profile_opts o = {0};
  int done;
  int rc = cli_parse_options(&command, &o, argc, argv, &done);
  if (rc || done) return rc;
  if (optind < argc) o.argv = argv + optind;
  if (!o.model || !o.out) return cli_usage_error("profile ", "--model and --out are required");
  if (!o.import == !o.argv)
    return cli_usage_error("profile ", "give either --import FILE or -- PROGRAM [ARGS...]");
  if (o.second && (o.import || o.vendor == SP_VENDOR_AMD))
    return cli_usage_error("profile ",
                           "--second-sms applies when profile runs the program under ncu, not "
                           "to %s",
                           o.import ? "--import" : "--vendor amd");
  if (!*o.out) return cli_usage_error("profile ", "--out: the output path is empty");
  rc = cli_add_inputs("--model", o.model, "--import", o.import, (char *)NULL);
  if (rc) return rc;
  struct stat sb;
  if (stat(o.out, &sb) == 0) {
    fprintf(stderr,
            "scalepredict: --out %s already exists: profile writes a new directory "
            "and never replaces one\n",
            o.out);
    return EXIT_USAGE;
  }
  char dir[PATH_MAX];
  sp_error err;
  sp_model *m = NULL;
  int st = cli_find_model(o.model, dir, sizeof dir, &err);
  if (!st) st = sp_model_load(dir, &m, &err);
  if (st) return cli_fail(&err);
  o.model_dir = dir;
  if (!o.base && sp_model_base_count(m) > 1) {
    rc = several_bases(m, o.model);
    sp_model_free(m);
    return rc;
  }
  size_t il = o.import ? strlen(o.import) : 0;
  int report = il > 8 && !strcmp(o.import + il - 8, ".ncu-rep");
  rc = report                      ? import_report(&o, m)
       : o.import                  ? convert(&o, m, o.import)
       : o.vendor == SP_VENDOR_AMD ? run_rocprof(&o, m)
                                   : run_ncu(&o, m);
  sp_model_free(m);
  return rc;
}
