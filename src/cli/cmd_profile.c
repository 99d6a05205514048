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
} profile_opts;

/* "the profile lacks N metrics the model needs: a, b, ..." in full: the
 * library's message holds only what fits. */
static int fail_missing(const sp_profile *p, const char *path) {
  size_t n = sp_profile_missing_count(p);
  fprintf(stderr,
          "scalepredict: %s: %zu metric%s the model needs %s missing from the profile:", path, n,
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
  fprintf(stderr,
          "scalepredict: profile: model %s has several bases, one per card: give --base, "
          "the one of the card you profile on (",
          model);
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

/* Reads the profile at path and writes the model's input into o->out. */
static int convert(const profile_opts *o, const sp_model *m, const char *path) {
  sp_error err;
  sp_error_clear(&err);
  sp_profile *p = NULL;
  sp_config base = sp_model_base(m);
  int st = o->base ? sp_config_parse(o->base, &base, &err) : SP_OK;
  if (st) return cli_usage_error("profile ", "--base: %s", err.message);
  st = sp_profile_load(path, m, &p, &err);
  if (st) return cli_fail(&err);
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
    rc = cli_fail(&err);
  } else {
    printf("%s: %zu kernel launches as %zu entries (device: %s) for model %s\n", o->out,
           sp_profile_launch_count(p), sp_profile_entry_count(p),
           *sp_profile_device(p) ? sp_profile_device(p) : "not recorded", sp_model_name(m));
  }
  sp_profile_free(p);
  return rc;
}

/* The full path of program name found on PATH, into buf; 0 when found. */
static int find_program(const char *name, char *buf, size_t size) {
  if (strchr(name, '/')) {
    snprintf(buf, size, "%s", name);
    return access(buf, X_OK);
  }
  const char *path = getenv("PATH");
  while (path && *path) {
    size_t n = strcspn(path, ":");
    snprintf(buf, size, "%.*s/%s", (int)n, n ? path : ".", name);
    if (access(buf, X_OK) == 0) return 0;
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
static int explain_ncu(const char *log, int status, const char *program) {
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
    fprintf(stderr,
            "scalepredict: '%s' launched no GPU kernel that ncu could profile (%s); "
            "nothing written\n",
            program, line);
    return EXIT_DATA;
  }
  if (status != 0) {
    int err = find_line(log, "==ERROR==", line, sizeof line) == 0;
    fprintf(stderr, "scalepredict: '%s' failed under ncu (exit status %d)%s%s; nothing written\n",
            program, status, err ? ": " : "", err ? line : "");
    return EXIT_SYSTEM;
  }
  return EXIT_OK;
}

/* The ncu to run, into ncu; EXIT_SYSTEM (with the fix) when there is none. */
static int find_ncu(const profile_opts *o, char *ncu, size_t size) {
  const char *want = o->profiler ? o->profiler : "ncu";
  if (!find_program(want, ncu, size)) return EXIT_OK;
  fprintf(stderr,
          "scalepredict: the profiler '%s' was not found%s: install NVIDIA Nsight "
          "Compute (the CUDA toolkit's 'nsight-compute' package, or "
          "https://developer.nvidia.com/nsight-compute) and put ncu on PATH, or give "
          "--profiler PATH; nothing written\n",
          want, strchr(want, '/') ? "" : " on PATH");
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

/* An Nsight Compute report (.ncu-rep) read through ncu --import into the
 * raw CSV that convert() reads. */
static int import_report(const profile_opts *o, const sp_model *m) {
  char ncu[PATH_MAX], dir[PATH_MAX], log[PATH_MAX + 32];
  int rc = find_ncu(o, ncu, sizeof ncu);
  if (rc || (rc = temp_log(dir, log))) return rc;
  char *args[] = {ncu,
                  "--import",
                  (char *)o->import,
                  "--csv",
                  "--page",
                  "raw",
                  "--print-units",
                  "base",
                  "--print-kernel-base",
                  "demangled",
                  "--log-file",
                  log,
                  NULL};
  int sig = 0;
  int status = cli_run_child(args, &sig);
  if (status == 0) {
    rc = convert(o, m, log);
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
  char *metrics = NULL;
  if (sp_profile_metric_list(m, SP_VENDOR_NVIDIA, &metrics, &err)) return cli_fail(&err);
  char dir[PATH_MAX], log[PATH_MAX + 32];
  if (temp_log(dir, log)) {
    free(metrics);
    return EXIT_SYSTEM;
  }
  size_t n = 0;
  while (o->argv[n]) n++;
  char **args = calloc(n + 20, sizeof *args);
  int rc = EXIT_SYSTEM, sig = 0;
  if (args) {
    size_t a = 0;
    const char *fixed[] = {ncu,
                           "--clock-control",
                           "none",
                           "--csv",
                           "--page",
                           "raw",
                           "--print-units",
                           "base",
                           "--print-kernel-base",
                           "demangled",
                           "--metrics",
                           metrics,
                           "--log-file",
                           log};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) args[a++] = (char *)fixed[i];
    args[a++] = program;
    for (size_t i = 1; i < n; i++) args[a++] = o->argv[i];
    int status = cli_run_child(args, &sig);
    rc = status < 0 || interrupted(sig) ? EXIT_SYSTEM : explain_ncu(log, status, o->argv[0]);
    if (status >= 0 && rc == EXIT_OK) rc = convert(o, m, log);
  }
  free(args);
  free(metrics);
  remove_temp(dir);
  return end_as(sig, rc);
}

static void usage(void) {
  puts(
      "Usage: scalepredict profile --model DIR|NAME --out DIR [--base CFG]\n"
      "                            [--vendor nvidia|amd] [--profiler PATH]\n"
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
      "(ncu replays each launch a few times; clocks are left alone), and on AMD GPUs\n"
      "(--vendor amd) rocprofv3 --pmc <the model's counters> --kernel-trace\n"
      "--output-format csv -- PROGRAM ....  With --import it\n"
      "reads a profile you have: an ncu raw CSV of any metric set (ncu --set full\n"
      "--csv --page raw --print-units base) or a rocprofv3 counter CSV\n"
      "(rocprofv3 --pmc ... --output-format csv).\n"
      "\n"
      "  --model DIR|NAME  the model (a directory, or a bundled model's name:\n"
      "                    'scalepredict models')\n"
      "  --out DIR         the directory to create (an existing one is refused)\n"
      "  --base CFG        the configuration profiled (default: the model's base;\n"
      "                    required with a model of several bases, one per card:\n"
      "                    the base of the card you profile on)\n"
      "  --import FILE     convert this profile instead of running a program (an\n"
      "                    Nsight Compute report, FILE.ncu-rep, is read through\n"
      "                    'ncu --import FILE --csv --page raw')\n"
      "  --profiler PATH   the profiler to run (default: ncu, or rocprofv3 with\n"
      "                    --vendor amd, on PATH)\n"
      "  --vendor V        nvidia (default: run ncu) or amd (run rocprofv3 --pmc with\n"
      "                    the model's counters --kernel-trace --output-format csv)\n"
      "\n"
      "Exit status: 1 usage, 2 the profile is damaged (a row of another width\n"
      "than its header's, a launch time that is not a positive number), lacks\n"
      "metrics or launches, 3 model, 4 the profiler is missing, not permitted, or\n"
      "the program failed; interrupted (SIGINT, SIGTERM, SIGHUP), it passes the\n"
      "signal on to the profiler, removes what it wrote and ends by the signal.");
}

int cmd_profile(int argc, char **argv) {
  static const struct option opts[] = {
      {"model", required_argument, 0, 'm'},    {"out", required_argument, 0, 'o'},
      {"base", required_argument, 0, 'b'},     {"import", required_argument, 0, 'i'},
      {"profiler", required_argument, 0, 'p'}, {"help", no_argument, 0, 'h'},
      {"vendor", required_argument, 0, 'v'},   {0, 0, 0, 0}};
  profile_opts o = {0};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
    switch (c) {
      case 'm':
        o.model = optarg;
        break;
      case 'o':
        o.out = optarg;
        break;
      case 'b':
        o.base = optarg;
        break;
      case 'i':
        o.import = optarg;
        break;
      case 'p':
        o.profiler = optarg;
        break;
      case 'v':
        if (!strcmp(optarg, "nvidia"))
          o.vendor = SP_VENDOR_NVIDIA;
        else if (!strcmp(optarg, "amd"))
          o.vendor = SP_VENDOR_AMD;
        else
          return cli_usage_error("profile ", "--vendor must be nvidia or amd, not '%s'", optarg);
        break;
      case 'h':
        usage();
        return EXIT_OK;
      default:
        return cli_usage_error("profile ", "unknown or incomplete option '%s'", argv[optind - 1]);
    }
  }
  if (optind < argc) o.argv = argv + optind;
  if (!o.model || !o.out) return cli_usage_error("profile ", "--model and --out are required");
  if (!o.import == !o.argv)
    return cli_usage_error("profile ", "give either --import FILE or -- PROGRAM [ARGS...]");
  if (!*o.out) return cli_usage_error("profile ", "--out: the output path is empty");
  int rc = cli_add_inputs("--model", o.model, "--import", o.import, (char *)NULL);
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
