/* SPDX-License-Identifier: GPL-3.0-or-later */
/* outguard.c: the rule that keeps an output from destroying what the user
 * owns.  A path is replaced only when it does not exist, is empty, or is an
 * artefact of the same kind that scalepredict wrote and that holds nothing
 * else: a model or report directory holding its marker file and only the
 * files the marker lists (models saved before markers existed are
 * recognised by their manifest), a CSV whose first line is the header
 * scalepredict writes there.  --force (sp_output_set_force) replaces other
 * directories and files too, and the files a user added to an older
 * output.  Whatever the force, a regular file is never replaced by a
 * directory, a profile (the profiler's only copy, the powers the user typed
 * in) by anything but a profile, nor an input of the command
 * (inputreg.c) by its output. */
#define _GNU_SOURCE /* strdup */
#include "outguard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inputreg.h"
#include "path.h"
#include "status.h"

#define MARK_FIRST "written by scalepredict"
/* A marker lists a few dozen names; more than this is not one. */
#define MARKER_MAX (1 << 20)

typedef struct kind_info {
  const char *name;       /* in messages */
  const char *marker;     /* marker file of a directory kind, NULL for files */
  const char *headers[3]; /* first-line prefixes of a file kind */
  /* The names an output of this kind had before its marker listed them
   * (fnmatch patterns): those versions are released, so the lists are
   * fixed. */
  const char *const *legacy;
} kind_info;

static const char *const legacy_model[] = {"manifest.txt", "method-*.txt", "time-set-*.net",
                                           "power-set-*.net", NULL};
/* evaluate's, dse's and governor's reports. */
static const char *const legacy_report[] = {"index.html",
                                            "summary.csv",
                                            "by_clusters.csv",
                                            "by_base.csv",
                                            "per_kernel.csv",
                                            "histogram.csv",
                                            "predictions.csv",
                                            "base_map_time_cu*.svg",
                                            "base_map_power_cu*.svg",
                                            "error_vs_clusters_time.svg",
                                            "error_vs_clusters_power.svg",
                                            "histogram_time.svg",
                                            "histogram_power.svg",
                                            "scatter_time.svg",
                                            "scatter_power.svg",
                                            "pareto-energy.svg",
                                            "pareto-power.svg",
                                            "axis-cu.svg",
                                            "axis-engine.svg",
                                            "axis-memory.svg",
                                            "kernel-classes.svg",
                                            "heatmap-time.svg",
                                            "heatmap-energy.svg",
                                            "objectives.csv",
                                            "pareto-energy.csv",
                                            "pareto-power.csv",
                                            "sensitivity.csv",
                                            "axes.csv",
                                            "kernels.csv",
                                            "candidates.csv",
                                            "configs.csv",
                                            "policies.svg",
                                            "power-timeline.svg",
                                            "engine-timeline.svg",
                                            "steps.csv",
                                            NULL};
static const char *const legacy_none[] = {NULL};

static const kind_info kinds[] = {
    [SP_OUTPUT_MODEL] = {"model", ".scalepredict-model", {NULL}, legacy_model},
    [SP_OUTPUT_REPORT] = {"report", ".scalepredict-report", {NULL}, legacy_report},
    [SP_OUTPUT_EXPORT] = {"export CSV",
                          NULL,
                          {"kernel,config,cu,engine_mhz,memory_mhz,", "kernel,time_ms@", NULL},
                          legacy_none},
    [SP_OUTPUT_SURFACES] = {"surfaces CSV",
                            NULL,
                            {"kernel,quantity,kind,cu_from,", NULL},
                            legacy_none},
    [SP_OUTPUT_COMPLETED] = {"completed runs CSV",
                             NULL,
                             {"kernel,cu,engine_mhz,memory_mhz,time_ms,power_w,source\n", NULL},
                             legacy_none},
    [SP_OUTPUT_PROFILE] = {"profile", ".scalepredict-profile", {NULL}, legacy_none},
};

/* Set once by the tool from its command line, before any output. */
static int force_replace;

void sp_output_set_force(int force) { force_replace = force != 0; }

/* ---- lists of names ---------------------------------------------------------- */

typedef struct names {
  char **v;
  size_t n, cap;
} names;

static int names_add(names *l, const char *s) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    char **v = realloc(l->v, cap * sizeof *v);
    if (!v) return -1;
    l->v = v;
    l->cap = cap;
  }
  if (!(l->v[l->n] = strdup(s))) return -1;
  l->n++;
  return 0;
}

static void names_free(names *l) {
  for (size_t i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int names_has(const names *l, const char *s) {
  return l->n && bsearch(&s, l->v, l->n, sizeof *l->v, by_name) != NULL;
}

/* The entries of dir other than . and .. for which keep(ctx) says 1, sorted;
 * -1 (errno set) when dir cannot be read or memory runs out. */
static int list_dir(const char *dir, int (*keep)(const void *, const char *), const void *ctx,
                    names *out) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  struct dirent *e;
  int rc = 0;
  while (!rc && (e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && keep(ctx, e->d_name))
      rc = names_add(out, e->d_name);
  int saved = errno;
  closedir(d);
  if (rc) {
    names_free(out);
    errno = saved;
    return -1;
  }
  if (out->n) qsort(out->v, out->n, sizeof *out->v, by_name);
  return 0;
}

/* ---- markers ------------------------------------------------------------------- */

/* The first size - 1 bytes at most of the regular file path, terminated,
 * into buf: their count, or -1 (a FIFO or device is never read). */
static long read_head(const char *path, char *buf, size_t size) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st;
  long n = -1;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    size_t got = 0;
    ssize_t r;
    while (got + 1 < size && (r = read(fd, buf + got, size - 1 - got)) > 0) got += (size_t)r;
    buf[got] = '\0';
    n = (long)got;
  }
  close(fd);
  return n;
}

static int file_starts_with(const char *path, const char *prefix) {
  char buf[128];
  size_t n = strlen(prefix);
  return n < sizeof buf && read_head(path, buf, n + 1) == (long)n && !memcmp(buf, prefix, n);
}

static int dir_has(const char *dir, const char *name, const char *prefix) {
  char *path = sp__path_join(dir, name);
  int has = path && file_starts_with(path, prefix);
  free(path);
  return has;
}

static int dir_has_file(const char *dir, const char *name) {
  char *path = sp__path_join(dir, name);
  struct stat st;
  int has = path && lstat(path, &st) == 0;
  free(path);
  return has;
}

/* A name the marker lists: one written into the directory, not the marker. */
static int listable(const void *marker, const char *name) {
  return strcmp(name, marker) && !strchr(name, '\n');
}

int sp__output_marker(const char *dir, sp_output_kind kind, const char **name, char **text,
                      sp_error *err) {
  names written = {0};
  *name = kinds[kind].marker;
  *text = NULL;
  if (list_dir(dir, listable, kinds[kind].marker, &written))
    return sp__fail(err, SP_EIO, dir, 0, 0, NULL, "cannot list the directory: %s", strerror(errno));
  size_t size = 0;
  FILE *m = open_memstream(text, &size);
  if (m) {
    fprintf(m, MARK_FIRST " %s: this %s may be replaced by the next one\n", SP_VERSION_STRING,
            kinds[kind].name);
    for (size_t i = 0; i < written.n; i++) fprintf(m, "file %s\n", written.v[i]);
  }
  names_free(&written);
  if (!m || fclose(m) != 0) {
    if (m) free(*text);
    *text = NULL;
    return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  }
  return SP_OK;
}

/* Whether dir holds k's marker, and the names it lists into *listed
 * (none: a marker written before markers listed what they came with). */
static int read_marker(const char *dir, const kind_info *k, names *listed) {
  char *path = sp__path_join(dir, k->marker);
  char *text = malloc(MARKER_MAX);
  long n = path && text ? read_head(path, text, MARKER_MAX) : -1;
  int ours = n >= (long)strlen(MARK_FIRST) && !strncmp(text, MARK_FIRST, strlen(MARK_FIRST));
  for (char *line = ours ? strchr(text, '\n') : NULL; line; line = strchr(line, '\n')) {
    *line++ = '\0';
    char *end = strchr(line, '\n');
    /* A line cut off at the end is not a name (the file was not ours). */
    if (end && !strncmp(line, "file ", 5)) {
      *end = '\0';
      ours = ours && !names_add(listed, line + 5); /* out of memory: refuse */
      *end = '\n';
    }
  }
  if (listed->n) qsort(listed->v, listed->n, sizeof *listed->v, by_name);
  free(path);
  free(text);
  return ours;
}

/* A model directory written before markers existed: its manifest. */
static int legacy_model_dir(const char *dir, const kind_info *k) {
  return k == &kinds[SP_OUTPUT_MODEL] && dir_has(dir, "manifest.txt", "scalepredict-model ");
}

/* A profile: its marker, or what a version that marked profiles as
 * reports wrote (the report marker beside the profile's own files). */
static int is_profile(const char *dir) {
  if (dir_has(dir, kinds[SP_OUTPUT_PROFILE].marker, MARK_FIRST)) return 1;
  return dir_has(dir, kinds[SP_OUTPUT_REPORT].marker, MARK_FIRST) &&
         (dir_has_file(dir, "profile-raw.csv") || dir_has_file(dir, "launches.csv"));
}

/* ---- what a directory holds ------------------------------------------------------- */

typedef struct owner {
  const char *dir;
  const kind_info *k;
  int artefact; /* the directory is k's output */
  names listed; /* the names its marker lists */
} owner;

static int matches_legacy(const kind_info *k, const char *name) {
  for (size_t i = 0; k->legacy[i]; i++)
    if (!fnmatch(k->legacy[i], name, FNM_PERIOD)) return 1;
  return 0;
}

/* Whether scalepredict did not write the entry name into o->dir: what it
 * writes are regular files, the marker and those the marker lists (the
 * kind's names when it lists none). */
static int foreign(const void *ctx, const char *name) {
  const owner *o = ctx;
  if (!o->artefact) return 1;
  char *path = sp__path_join(o->dir, name);
  struct stat st;
  int regular = path && lstat(path, &st) == 0 && S_ISREG(st.st_mode);
  free(path);
  if (!regular) return 1;
  if (!strcmp(name, o->k->marker)) return 0;
  return o->listed.n ? !names_has(&o->listed, name) : !matches_legacy(o->k, name);
}

/* The entries of dir that replacing it with an output of k would remove
 * although scalepredict did not write them, sorted; -1 when dir cannot be
 * read.  *artefact: whether dir is k's output at all. */
static int foreign_entries(const char *dir, const kind_info *k, names *out, int *artefact) {
  owner o = {dir, k, 0, {0}};
  o.artefact = read_marker(dir, k, &o.listed) || legacy_model_dir(dir, k);
  int rc = list_dir(dir, foreign, &o, out);
  names_free(&o.listed);
  *artefact = o.artefact;
  return rc;
}

size_t sp_output_foreign(const char *path_arg, sp_output_kind kind, char *list, size_t size) {
  if (size) list[0] = '\0';
  struct stat st;
  if ((unsigned)kind >= sizeof kinds / sizeof kinds[0] || !kinds[kind].marker) return 0;
  char *path = sp__strip_slashes(path_arg);
  names out = {0};
  int artefact;
  if (!path || lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) ||
      foreign_entries(path, &kinds[kind], &out, &artefact))
    out.n = 0;
  size_t used = 0;
  for (size_t i = 0; i < out.n && used + 1 < size; i++) {
    int w = snprintf(list + used, size - used, "%s%s", i ? ", " : "", out.v[i]);
    used += w > 0 ? (size_t)w : 0;
  }
  size_t n = out.n;
  names_free(&out);
  free(path);
  return n;
}

/* ---- the checks ------------------------------------------------------------------ */

static int check_dir(const char *path, const kind_info *k, sp_error *err) {
  if (k != &kinds[SP_OUTPUT_PROFILE] && is_profile(path))
    return sp__fail(err, SP_EEXIST, path, 0, 0, NULL,
                    "will not replace this directory: it is a profile ('scalepredict profile' "
                    "wrote it: the profiler's output and the powers you filled in), which no "
                    "%s replaces, not even with --force; nothing was written: name another "
                    "directory",
                    k->name);
  names out = {0};
  int artefact;
  if (foreign_entries(path, k, &out, &artefact))
    return sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot read the directory: %s",
                    strerror(errno));
  int st = SP_OK;
  if (!out.n || force_replace)
    st = SP_OK;
  else if (artefact)
    st = sp__fail(err, SP_EEXIST, path, 0, 0, NULL,
                  "will not replace this %s: it holds '%s' (of %zu entr%s scalepredict did "
                  "not write); nothing was written: move them out, or pass --force to "
                  "replace the directory and everything in it",
                  k->name, out.v[0], out.n, out.n == 1 ? "y" : "ies");
  else
    st = sp__fail(err, SP_EEXIST, path, 0, 0, NULL,
                  "will not replace this directory: it is not a scalepredict %s (it holds "
                  "'%s' and no %s); nothing was written: name a new or empty directory, "
                  "or pass --force to replace it",
                  k->name, out.v[0], k->marker);
  names_free(&out);
  return st;
}

static int check_file(const char *path, const struct stat *st, const kind_info *k, sp_error *err) {
  if (st->st_size == 0 || force_replace) return SP_OK;
  for (size_t i = 0; k->headers[i]; i++)
    if (file_starts_with(path, k->headers[i])) return SP_OK;
  return sp__fail(err, SP_EEXIST, path, 0, 0, NULL,
                  "will not replace this file: its first line is not the header of a "
                  "scalepredict %s; nothing was written: name a new file, or pass --force "
                  "to replace it",
                  k->name);
}

/* Outputs never create missing parent directories (as root, a typo could
 * create one anywhere): the parent must exist, or the output is refused. */
static int check_parent(const char *path, sp_error *err) {
  char *parent = sp__dup_parent(path);
  if (!parent) return sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  struct stat st;
  int found = stat(parent, &st) == 0;
  const char *why = found             ? "is not a directory"
                    : errno == ENOENT ? "does not exist"
                                      : strerror(errno);
  int rc = found && S_ISDIR(st.st_mode)
               ? SP_OK
               : sp__fail(err, SP_EIO, path, 0, 0, NULL,
                          "cannot be written: its directory '%s' %s; create it first", parent, why);
  free(parent);
  return rc;
}

/* An input of the command is never replaced, forced or not. */
static int check_inputs(const char *path, const kind_info *k, sp_error *err) {
  const char *label = NULL, *input = NULL;
  sp__input_clash clash = sp__input_clash_of(path, k->marker != NULL, &label, &input);
  if (!clash) return SP_OK;
  return sp__fail(err, SP_EEXIST, path, 0, 0, NULL,
                  "will not write the %s here: %s this command's input %s%s'%s', and an "
                  "input is never replaced, not even with --force; nothing was written: "
                  "name another %s",
                  k->name,
                  clash == SP_INPUT_SAME    ? "it is"
                  : clash == SP_INPUT_HOLDS ? "it holds"
                                            : "it is in",
                  label ? label : "", label ? " " : "", input, k->marker ? "directory" : "file");
}

/* "a" or "an", as the kind's name asks: an export CSV, a model. */
static const char *article(const char *noun) { return strchr("aeiou", noun[0]) ? "an" : "a"; }

static int check_path(const char *path, const kind_info *k, sp_error *err) {
  int rc = check_inputs(path, k, err);
  if (rc) return rc;
  struct stat st;
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT) return check_parent(path, err);
    if (errno == ENOTDIR)
      return sp__fail(err, SP_EIO, path, 0, 0, NULL,
                      "cannot be written: a directory on its path is a file");
    return sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot inspect: %s", strerror(errno));
  }
  if (k->marker && S_ISDIR(st.st_mode)) return check_dir(path, k, err);
  if (!k->marker && S_ISREG(st.st_mode)) return check_file(path, &st, k, err);
  if (k->marker && S_ISREG(st.st_mode))
    return sp__fail(err, SP_EEXIST, path, 0, 0, NULL,
                    "is a file; %s %s is a directory and a file is never replaced by one "
                    "(not even with --force); nothing was written: name a new or empty "
                    "directory",
                    article(k->name), k->name);
  return sp__fail(err, SP_EEXIST, path, 0, 0, NULL,
                  "will not replace this %s with %s %s; nothing was written: name a new %s",
                  S_ISDIR(st.st_mode) ? "directory" : "special file or link", article(k->name),
                  k->name, k->marker ? "or empty directory" : "file");
}

int sp_output_check(const char *path_arg, sp_output_kind kind, sp_error *err) {
  if ((unsigned)kind >= sizeof kinds / sizeof kinds[0])
    return sp__fail(err, SP_EINVAL, path_arg, 0, 0, NULL, "unknown output kind");
  if (!path_arg || !*path_arg)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, NULL,
                    "the output path is empty: name the %s to write", kinds[kind].name);
  char *path = sp__strip_slashes(path_arg); /* "out/" names out */
  if (!path) return sp__fail(err, SP_ENOMEM, path_arg, 0, 0, NULL, "out of memory");
  int st = check_path(path, &kinds[kind], err);
  free(path);
  return st;
}
