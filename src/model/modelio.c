/* SPDX-License-Identifier: GPL-3.0-or-later */
/* modelio.c: the saved-model directory (manifest.txt + FANN networks). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model.h"
#include "util/fsutil.h"
#include "util/inread.h"
#include "util/sha256.h"
#include "util/status.h"
#include "util/textout.h"

#define MANIFEST "manifest.txt"
#define MAX_MANIFEST_BYTES ((size_t)256 << 20)
static const char *const qname[2] = {"time", "power"};

/* ---- writing --------------------------------------------------------------- */

static void put(sp_sha256 *h, FILE *fp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Strings are written as one token: bytes that would split or end a token
 * (space, control characters, '%') become %XX. */
static void put_token(sp_sha256 *h, FILE *fp, const char *s) {
  char buf[4];
  if (!s || !*s) { /* the empty string is written as a lone dash */
    put(h, fp, "-");
    return;
  }
  if (!strcmp(s, "-")) { /* so a literal dash is escaped */
    put(h, fp, "%%2D");
    return;
  }
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    int esc = c <= 0x20 || c == '%' || c == 0x7f;
    int n = esc ? snprintf(buf, sizeof buf, "%%%02X", c) : snprintf(buf, sizeof buf, "%c", c);
    fwrite(buf, 1, (size_t)n, fp);
    sp__sha256_update(h, buf, (size_t)n);
  }
}

static void put(sp_sha256 *h, FILE *fp, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  size_t len = (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
  fwrite(buf, 1, len, fp);
  sp__sha256_update(h, buf, len);
}

static void put_string_line(sp_sha256 *h, FILE *fp, const char *key, const char *v) {
  put(h, fp, "%s ", key);
  put_token(h, fp, v);
  put(h, fp, "\n");
}

/* Version 3 only for what version 2 cannot hold: a model without memory
 * systems and further bases is written as before, byte for byte. */
static int format_version(const sp_model *m) { return m->nmemory || m->nbases > 1 ? 3 : 2; }

/* Version 3: the memory systems and the bases, after the power note. */
static void write_memory_bases(sp_sha256 *h, FILE *fp, const sp_model *m) {
  put(h, fp, "memory %zu\n", m->nmemory);
  for (size_t i = 0; i < m->nmemory; i++) {
    const sp_memory_system *s = &m->memory[i];
    put(h, fp, "memory_system %d ", s->memory_mhz);
    put_token(h, fp, s->name);
    put(h, fp, " ");
    put_token(h, fp, s->type);
    put(h, fp, " %d %.17g %.17g\n", s->bus_bits, s->peak_gbs, s->capacity_gb);
  }
  put(h, fp, "bases %zu\n", m->nbases);
  for (size_t b = 0; b < m->nbases; b++) {
    char cfg[64];
    sp_config_format(b ? &m->bases[b] : &m->base, cfg, sizeof cfg);
    put(h, fp, "base_config %s kernels %zu\n", cfg, b ? m->base_ntrain[b] : m->ntrain);
  }
}

static void write_header(sp_sha256 *h, FILE *fp, const sp_model *m, const char *name) {
  char base[64];
  sp_config_format(&m->base, base, sizeof base);
  put(h, fp, "scalepredict-model %d\n", format_version(m));
  put_string_line(h, fp, "name", name);
  put_string_line(h, fp, "source", m->source);
  put(h, fp,
      "synthetic %d\nbase %s\nseed %lu\nclusters %zu\nrestarts %u\n"
      "epochs %u\ndesired_error %.17g\n",
      m->synthetic, base, m->seed, m->clusters_requested, m->restarts, m->max_epochs,
      m->desired_error);
  put_string_line(h, fp, "runs_file", m->runs_path);
  put_string_line(h, fp, "runs_sha256", m->runs_sha256);
  put_string_line(h, fp, "counters_file", m->counters_path);
  put_string_line(h, fp, "counters_sha256", m->counters_sha256);
  put_string_line(h, fp, "power_note", m->power_note);
  if (format_version(m) >= 3) write_memory_bases(h, fp, m);
  put(h, fp, "counters %zu\n", m->ncounters);
  for (size_t c = 0; c < m->ncounters; c++) {
    put(h, fp, "counter ");
    put_token(h, fp, m->counter_names[c]);
    put(h, fp, " %.17g %.17g\n", m->cmin[c], m->cmax[c]);
  }
  put(h, fp, "kernels %zu\n", m->ntrain);
  for (size_t k = 0; k < m->ntrain; k++) put_string_line(h, fp, "kernel", m->train_kernels[k]);
}

static void write_values(sp_sha256 *h, FILE *fp, const double *v, size_t n) {
  for (size_t i = 0; i < n; i++) put(h, fp, " %.17g", v[i]);
  put(h, fp, "\n");
}

static int net_name(char *buf, size_t size, sp_quantity q, size_t set) {
  return snprintf(buf, size, "%s-set-%03zu.net", qname[q], set);
}

/* Saves the networks of submodel q into tmp and notes their checksums. */
static int save_networks(const sp_model *m, sp_quantity q, const char *tmp, char (*sums)[65],
                         sp_error *err) {
  const sp_submodel *s = &m->sub[q];
  for (size_t i = 0; i < s->nsets; i++) {
    sums[i][0] = '\0';
    if (!sp__classifier_has_network(s->sets[i].clf)) continue;
    char name[64];
    net_name(name, sizeof name, q, i);
    char *path = sp__path_join(tmp, name);
    if (!path) return sp__oom(err);
    errno = 0;
    int st = sp__classifier_save(s->sets[i].clf, path);
    if (!st && sp__sha256_file(path, sums[i])) st = SP_EIO;
    if (st)
      st = sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot write the network: %s",
                    strerror(errno ? errno : EIO));
    free(path);
    if (st) return st;
  }
  return SP_OK;
}

static void write_submodel(sp_sha256 *h, FILE *fp, const sp_model *m, sp_quantity q,
                           char (*sums)[65]) {
  const sp_submodel *s = &m->sub[q];
  static const char *const axis[3] = {"cu", "engine", "memory"};
  put(h, fp, "submodel %s %s\n", qname[q], s->present ? "present" : "absent");
  if (!s->present) return;
  for (int a = 0; a < 3; a++) {
    put(h, fp, "axis %s %zu", axis[a], s->grid.n[a]);
    for (size_t i = 0; i < s->grid.n[a]; i++) put(h, fp, " %d", s->grid.v[a][i]);
    put(h, fp, "\n");
  }
  put(h, fp, "sets %zu\n", s->nsets);
  for (size_t i = 0; i < s->nsets; i++) {
    const sp_cluster_set *cs = &s->sets[i];
    char name[64];
    net_name(name, sizeof name, q, i);
    put(h, fp, "set %zu %s %zu dim %zu k %zu inertia %.17g network %s sha256 %s\n", i,
        cs->kind == SP_SET_REGION ? "region" : "cu", cs->region, cs->dim, cs->nclusters,
        cs->inertia, sums[i][0] ? name : "-", sums[i][0] ? sums[i] : "-");
    for (size_t c = 0; c < cs->nclusters; c++) {
      put(h, fp, "centroid %zu", c);
      write_values(h, fp, cs->centroids + c * cs->dim, cs->dim);
    }
    put(h, fp, "assign");
    for (size_t k = 0; k < m->ntrain; k++) put(h, fp, " %zu", cs->assign[k]);
    put(h, fp, "\n");
  }
}

static const char *base_name(const char *dir) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') n--;
  const char *end = dir + n, *p = end;
  while (p > dir && p[-1] != '/') p--;
  static _Thread_local char buf[256];
  snprintf(buf, sizeof buf, "%.*s", (int)(end - p), p);
  return buf;
}

/* The file that holds a method's state in the model directory: at the
 * model's base method-NAME.txt, at a further base method-NAME@CFG.txt
 * with the configuration's '/' written as '-'
 * (method-physet@132cu-1980-3201.txt). */
static void method_file_at(const sp_method_type *type, const sp_config *base, char *buf,
                           size_t size) {
  if (!base) {
    snprintf(buf, size, "method-%s.txt", type->name);
    return;
  }
  char cfg[64];
  sp_config_format(base, cfg, sizeof cfg);
  for (char *p = cfg; *p; p++)
    if (*p == '/') *p = '-';
  snprintf(buf, size, "method-%s@%s.txt", type->name, cfg);
}

static void method_file(const sp_method_type *type, char *buf, size_t size) {
  method_file_at(type, NULL, buf, size);
}

/* The checksums of the files of method slot i: [0] at the model's base,
 * [b] at further base b. */
typedef char method_sums_t[SP_MODEL_MAX_BASES][65];

/* The methods section: every method the model carries, the files that
 * hold their state with checksums (for those with a state of their own),
 * and the recommended one. */
static void write_methods(sp_sha256 *h, FILE *fp, const sp_model *m, method_sums_t *method_sums) {
  put(h, fp, "methods %zu\n", m->nmethods);
  for (size_t i = 0; i < m->nmethods; i++) {
    const sp_method_type *type = m->methods[i].type;
    char file[128];
    method_file(type, file, sizeof file);
    if (type->save)
      put(h, fp, "method %s file %s sha256 %s\n", type->name, file, method_sums[i][0]);
    else
      put(h, fp, "method %s\n", type->name);
    for (size_t b = 1; type->save && b < m->nbases; b++) {
      if (!m->methods[i].at[b]) continue;
      char cfg[64];
      sp_config_format(&m->bases[b], cfg, sizeof cfg);
      method_file_at(type, &m->bases[b], file, sizeof file);
      put(h, fp, "at %s file %s sha256 %s\n", cfg, file, method_sums[i][b]);
    }
  }
  put(h, fp, "recommended %s\n", sp_model_recommended_method(m));
}

static int write_manifest(const sp_model *m, const char *tmp, const char *name, char (*sums[2])[65],
                          method_sums_t *method_sums, sp_error *err) {
  char *path = sp__path_join(tmp, MANIFEST);
  if (!path) return sp__oom(err);
  sp_atomic_file af;
  int st = sp__atomic_open(&af, path, err);
  free(path);
  if (st) return st;
  sp_sha256 h;
  sp__sha256_init(&h);
  write_header(&h, af.fp, m, name);
  for (int q = 0; q < 2; q++) write_submodel(&h, af.fp, m, (sp_quantity)q, sums[q]);
  write_methods(&h, af.fp, m, method_sums);
  put(&h, af.fp, "end\n");
  char hex[65];
  sp__sha256_final_hex(&h, hex);
  fprintf(af.fp, "sha256 %s\n", hex);
  return sp__atomic_commit(&af, err);
}

/* Saves one state of a method into file, with its checksum. */
static int save_state(const sp_method_type *type, const void *state, const char *tmp,
                      const char *file, char *sum, sp_error *err) {
  char *path = sp__path_join(tmp, file);
  if (!path) return sp__oom(err);
  int st = type->save(state, path, err);
  if (!st && sp__sha256_file(path, sum))
    st = sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot checksum the method file");
  free(path);
  return st;
}

/* Saves the state of every method that has one, at every base where it
 * has one, with its checksum. */
static int save_methods(const sp_model *m, const char *tmp, method_sums_t *sums, sp_error *err) {
  int st = SP_OK;
  for (size_t i = 0; i < m->nmethods && !st; i++) {
    const sp_method_slot *s = &m->methods[i];
    if (!s->type->save) continue;
    char file[128];
    method_file(s->type, file, sizeof file);
    st = save_state(s->type, s->state, tmp, file, sums[i][0], err);
    for (size_t b = 1; b < m->nbases && !st; b++) {
      if (!s->at[b]) continue;
      method_file_at(s->type, &m->bases[b], file, sizeof file);
      st = save_state(s->type, s->at[b], tmp, file, sums[i][b], err);
    }
  }
  return st;
}

static int model_save(const sp_model *m, const char *dir_arg, sp_error *err) {
  char *tmp = NULL;
  char(*sums[2])[65] = {NULL, NULL};
  char *dir = sp__strip_slashes(dir_arg);
  if (!dir) return sp__oom(err);
  int st = sp__tmpdir_create(dir, SP_OUTPUT_MODEL, &tmp, err);
  for (int q = 0; q < 2 && !st; q++) {
    sums[q] = calloc(m->sub[q].nsets + 1, sizeof *sums[q]);
    if (!sums[q])
      st = sp__oom(err);
    else
      st = save_networks(m, (sp_quantity)q, tmp, sums[q], err);
  }
  const char *name = m->name ? m->name : base_name(dir);
  method_sums_t method_sums[SP_MODEL_MAX_METHODS] = {{{0}}};
  if (!st) st = save_methods(m, tmp, method_sums, err);
  if (!st) st = write_manifest(m, tmp, name, sums, method_sums, err);
  if (!st) st = sp__tmpdir_commit(tmp, dir, SP_OUTPUT_MODEL, err);
  if (st && tmp) sp__tmpdir_abort(tmp, dir, err);
  free(tmp);
  free(dir);
  free(sums[0]);
  free(sums[1]);
  return st;
}

/* ---- reading ---------------------------------------------------------------- */

typedef struct cursor {
  const char *path;
  char *text; /* whole manifest, modified in place */
  char *next; /* start of the next line */
  char *tok;  /* position inside the current line */
  long line;
  sp_error *err;
  const char *field; /* the key being read, for messages */
  size_t version;    /* the manifest's format version */
} cursor;

static int bad(cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(cursor *c, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return sp__fail(c->err, SP_EMODEL, c->path, c->line, 0, c->field, "%s", msg);
}

/* Moves to the next line, which must start with key. */
static int expect_line(cursor *c, const char *key) {
  c->field = key;
  if (!c->next || !*c->next) return bad(c, "manifest ends early: expected '%s'", key);
  char *nl = strchr(c->next, '\n');
  if (!nl) return bad(c, "line is not terminated");
  *nl = '\0';
  c->tok = c->next;
  c->next = nl + 1;
  c->line++;
  size_t n = strlen(key);
  if (strncmp(c->tok, key, n) || (c->tok[n] != ' ' && c->tok[n] != '\0'))
    return bad(c, "expected '%s'", key);
  c->tok += n;
  return SP_OK;
}

static char *token(cursor *c) {
  while (*c->tok == ' ') c->tok++;
  if (!*c->tok) return NULL;
  char *start = c->tok;
  while (*c->tok && *c->tok != ' ') c->tok++;
  if (*c->tok) *c->tok++ = '\0';
  return start;
}

static int end_of_line(cursor *c) {
  while (*c->tok == ' ') c->tok++;
  return *c->tok ? bad(c, "unexpected text '%s'", c->tok) : SP_OK;
}

static int hexval(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  return -1;
}

/* Reads an escaped string token into a fresh allocation ("-" = empty). */
static int get_string(cursor *c, char **out) {
  char *t = token(c);
  if (!t) return bad(c, "missing value");
  free(*out);
  *out = NULL;
  if (!strcmp(t, "-")) return SP_OK;
  char *s = malloc(strlen(t) + 1), *w = s;
  if (!s) return sp__oom(c->err);
  for (const char *r = t; *r; r++) {
    if (*r == '%') {
      int hi = hexval(r[1]), lo = hi < 0 ? -1 : hexval(r[2]);
      /* %00 would end the string early: "%00x" would read as an empty
       * name, which the writer never produces and saves as "-". */
      if (lo < 0 || hi + lo == 0) {
        free(s);
        return bad(c, "bad escape in '%s'", t);
      }
      *w++ = (char)(hi * 16 + lo);
      r += 2;
    } else {
      *w++ = *r;
    }
  }
  *w = '\0';
  *out = s;
  return SP_OK;
}

static int get_double(cursor *c, double *v) {
  char *t = token(c), *end;
  if (!t) return bad(c, "missing number");
  *v = strtod(t, &end);
  if (*end || !isfinite(*v)) return bad(c, "'%s' is not a finite number", t);
  return SP_OK;
}

static int get_size(cursor *c, size_t *v, size_t max) {
  char *t = token(c), *end;
  if (!t) return bad(c, "missing count");
  errno = 0;
  unsigned long long x = strtoull(t, &end, 10);
  if (*end || errno || t[0] == '-' || x > max)
    return bad(c, "'%s' is not a count up to %zu", t, max);
  *v = (size_t)x;
  return SP_OK;
}

static int get_word(cursor *c, const char *word) {
  char *t = token(c);
  if (!t || strcmp(t, word)) return bad(c, "expected '%s'", word);
  return SP_OK;
}

static int key_string(cursor *c, const char *key, char **out) {
  int st = expect_line(c, key);
  if (!st) st = get_string(c, out);
  if (!st) st = end_of_line(c);
  return st;
}

static int key_size(cursor *c, const char *key, size_t *v, size_t max) {
  int st = expect_line(c, key);
  if (!st) st = get_size(c, v, max);
  if (!st) st = end_of_line(c);
  return st;
}

static int copy_hex(cursor *c, char *dst, const char *src) {
  if (!src || strlen(src) != 64 || strspn(src, "0123456789abcdef") != 64)
    return bad(c, "not a SHA-256 digest");
  memcpy(dst, src, 65);
  return SP_OK;
}

#define LIMIT ((size_t)1 << 24)

static int read_header(cursor *c, sp_model *m) {
  size_t v = 0, version = 0;
  char *s = NULL;
  int st = key_size(c, "scalepredict-model", &version, 1000);
  if (!st && (version < 1 || version > SP_MODEL_FORMAT_VERSION))
    st = bad(c, "format version %zu; this scalepredict reads versions 1 to %d", version,
             SP_MODEL_FORMAT_VERSION);
  c->version = version;
  if (!st) st = key_string(c, "name", &m->name);
  if (!st) st = key_string(c, "source", &m->source);
  if (!st) st = key_size(c, "synthetic", &v, 1);
  m->synthetic = (int)v;
  if (!st) st = key_string(c, "base", &s);
  if (!st && (!s || sp_config_parse(s, &m->base, NULL))) st = bad(c, "bad configuration");
  if (!st) st = key_size(c, "seed", &v, (size_t)-1);
  m->seed = (unsigned long)v;
  if (!st) st = key_size(c, "clusters", &m->clusters_requested, LIMIT);
  if (!st) st = key_size(c, "restarts", &v, LIMIT);
  m->restarts = (unsigned)v;
  if (!st) st = key_size(c, "epochs", &v, LIMIT);
  m->max_epochs = (unsigned)v;
  if (!st) st = expect_line(c, "desired_error");
  if (!st) st = get_double(c, &m->desired_error);
  if (!st) st = end_of_line(c);
  if (!st) st = key_string(c, "runs_file", &m->runs_path);
  if (!st) st = key_string(c, "runs_sha256", &s);
  if (!st) st = copy_hex(c, m->runs_sha256, s);
  if (!st) st = key_string(c, "counters_file", &m->counters_path);
  if (!st) st = key_string(c, "counters_sha256", &s);
  if (!st) st = copy_hex(c, m->counters_sha256, s);
  if (!st) st = key_string(c, "power_note", &m->power_note);
  free(s);
  return st;
}

/* "memory N" and N "memory_system MHZ NAME TYPE BUS PEAK CAPACITY" lines
 * (version 3), checked against the grid once it is read
 * (check_memory_bases). */
static int read_memory(cursor *c, sp_model *m) {
  size_t n;
  int st = key_size(c, "memory", &n, 100000);
  if (!st && n && !(m->memory = calloc(n, sizeof *m->memory))) st = sp__oom(c->err);
  for (size_t i = 0; i < n && !st; i++) {
    sp_memory_system *ms = &m->memory[i];
    char *name = NULL, *type = NULL;
    size_t v = 0;
    st = expect_line(c, "memory_system");
    if (!st) st = get_size(c, &v, 100000);
    ms->memory_mhz = (int)v;
    if (!st) st = get_string(c, &name);
    if (!st) st = get_string(c, &type);
    if (!st && (!name || strlen(name) >= sizeof ms->name || !type ||
                strlen(type) >= sizeof ms->type || !ms->memory_mhz))
      st = bad(c, "a memory system's clock, name or type is missing or too long");
    if (!st) {
      snprintf(ms->name, sizeof ms->name, "%s", name);
      snprintf(ms->type, sizeof ms->type, "%s", type);
    }
    if (!st) st = get_size(c, &v, 100000);
    ms->bus_bits = (int)v;
    if (!st) st = get_double(c, &ms->peak_gbs);
    if (!st) st = get_double(c, &ms->capacity_gb);
    if (!st && !(ms->bus_bits > 0 && ms->peak_gbs > 0 && ms->capacity_gb >= 0))
      st = bad(c, "a memory system's bus, peak bandwidth or capacity is out of range");
    if (!st) st = end_of_line(c);
    free(name);
    free(type);
    if (!st) m->nmemory = i + 1;
  }
  return st;
}

/* "bases N" and N "base_config CFG kernels K" lines (version 3), the
 * first the model's base. */
static int read_bases(cursor *c, sp_model *m) {
  size_t n;
  int st = key_size(c, "bases", &n, SP_MODEL_MAX_BASES);
  if (!st && n < 1) st = bad(c, "a model has at least its own base");
  for (size_t b = 0; b < n && !st; b++) {
    char *cfg = NULL;
    st = expect_line(c, "base_config");
    if (!st) st = get_string(c, &cfg);
    if (!st && (!cfg || sp_config_parse(cfg, &m->bases[b], NULL))) st = bad(c, "bad configuration");
    free(cfg);
    if (!st && b == 0 && !sp_config_equal(&m->bases[0], &m->base))
      st = bad(c, "the first base is not the model's base");
    for (size_t j = 0; j < b && !st; j++)
      if (sp_config_equal(&m->bases[j], &m->bases[b])) st = bad(c, "a base is listed twice");
    if (!st) st = get_word(c, "kernels");
    if (!st) st = get_size(c, &m->base_ntrain[b], LIMIT);
    if (!st && m->base_ntrain[b] < 2) st = bad(c, "a base needs at least 2 training kernels");
    if (!st) st = end_of_line(c);
  }
  if (!st) m->nbases = n;
  return st;
}

/* After the grids: the memory systems describe the time grid's memory
 * clocks in order, every base is on the grids, and the first base's
 * training kernels are the model's. */
static int check_memory_bases(cursor *c, sp_model *m) {
  const sp_grid *g = &m->sub[SP_TIME].grid;
  c->field = "memory";
  if (m->nmemory && m->nmemory != g->n[2])
    return bad(c, "%zu memory systems for %zu memory clocks", m->nmemory, g->n[2]);
  for (size_t i = 0; i < m->nmemory; i++)
    if (m->memory[i].memory_mhz != g->v[2][i])
      return bad(c, "the memory systems do not match the grid's memory clocks");
  c->field = "bases";
  if (m->base_ntrain[0] && m->base_ntrain[0] != m->ntrain)
    return bad(c, "the first base's training kernels are not the model's");
  for (size_t b = 1; b < m->nbases; b++)
    for (int q = 0; q < 2; q++) {
      sp_grid_point gp;
      if (m->sub[q].present && sp__grid_locate(&m->sub[q].grid, &m->bases[b], &gp))
        return bad(c, "a further base is not on the grid");
      if (m->base_ntrain[b] > m->ntrain) return bad(c, "a base has more kernels than the model");
    }
  return SP_OK;
}

/* The counts are stored in the model only once their arrays exist, because
 * sp_model_free walks the arrays up to the counts. */
static int read_counters_kernels(cursor *c, sp_model *m) {
  size_t n;
  int st = key_size(c, "counters", &n, LIMIT);
  if (!st && n == 0) st = bad(c, "a model needs at least one counter");
  if (st) return st;
  m->counter_names = calloc(n, sizeof(char *));
  m->cmin = calloc(n, sizeof(double));
  m->cmax = calloc(n, sizeof(double));
  if (!m->counter_names || !m->cmin || !m->cmax) return sp__oom(c->err);
  m->ncounters = n;
  for (size_t i = 0; i < m->ncounters && !st; i++) {
    st = expect_line(c, "counter");
    if (!st) st = get_string(c, &m->counter_names[i]);
    if (!st && !m->counter_names[i]) st = bad(c, "empty counter name");
    if (!st) st = get_double(c, &m->cmin[i]);
    if (!st) st = get_double(c, &m->cmax[i]);
    if (!st && m->cmin[i] > m->cmax[i]) st = bad(c, "minimum above maximum");
    if (!st) st = end_of_line(c);
  }
  if (!st) st = key_size(c, "kernels", &n, LIMIT);
  if (!st && n < 2) st = bad(c, "a model needs at least 2 training kernels");
  if (!st && !(m->train_kernels = calloc(n, sizeof(char *)))) st = sp__oom(c->err);
  if (!st) m->ntrain = n;
  for (size_t i = 0; i < m->ntrain && !st; i++) {
    st = key_string(c, "kernel", &m->train_kernels[i]);
    if (!st && !m->train_kernels[i]) st = bad(c, "empty kernel name");
  }
  return st;
}

static int read_axis(cursor *c, const char *name, size_t *n, int **v) {
  int st = expect_line(c, "axis");
  if (!st) st = get_word(c, name);
  if (!st) st = get_size(c, n, 100000);
  if (!st && *n == 0) st = bad(c, "empty axis");
  if (st) return st;
  if (!(*v = malloc(*n * sizeof(int)))) return sp__oom(c->err);
  for (size_t i = 0; i < *n && !st; i++) {
    size_t x;
    st = get_size(c, &x, 1000000);
    if (!st && (x == 0 || (i && (int)x <= (*v)[i - 1])))
      st = bad(c, "axis values must be positive and ascending");
    (*v)[i] = (int)x;
  }
  return st ? st : end_of_line(c);
}

static int read_grid(cursor *c, sp_submodel *s, const sp_config *base) {
  static const char *const axis[3] = {"cu", "engine", "memory"};
  int st = SP_OK;
  for (int a = 0; a < 3 && !st; a++) st = read_axis(c, axis[a], &s->grid.n[a], &s->grid.v[a]);
  if (!st && sp__grid_locate(&s->grid, base, &s->base))
    st = bad(c, "the base configuration is not on this grid");
  if (!st && sp__grid_size(&s->grid) < 2) st = bad(c, "single-configuration grid");
  return st;
}

/* The checksum of a model's network or method file, which must be a
 * regular file of at most max bytes. */
static int file_sum(const char *path, const char *what, size_t max, char hex[65], sp_error *err) {
  FILE *fp = sp__open_bounded(path, max, SP_EMODEL, what, err);
  if (!fp) return err->status;
  int bad = sp__sha256_stream(fp, max, hex);
  fclose(fp);
  return bad ? sp__fail(err, SP_EMODEL, path, 0, 0, NULL, "the %s cannot be read", what) : SP_OK;
}

static int read_network(cursor *c, const char *dir, sp_cluster_set *cs, size_t ninputs,
                        const char *file, const char *sum) {
  if (!strcmp(file, "-")) {
    if (cs->nclusters != 1) return bad(c, "a set with %zu clusters needs a network", cs->nclusters);
    return sp__classifier_trivial(ninputs, &cs->clf) ? bad(c, "out of memory") : SP_OK;
  }
  if (strchr(file, '/')) return bad(c, "network file names may not contain '/'");
  char *path = sp__path_join(dir, file);
  char hex[65];
  if (!path) return sp__oom(c->err);
  int st = file_sum(path, "network file", SP_NETWORK_FILE_MAX_BYTES, hex, c->err);
  if (!st && strcmp(hex, sum))
    st = sp__fail(c->err, SP_EMODEL, path, 0, 0, NULL,
                  "network file does not match its checksum in the manifest (edited or corrupt)");
  else if (!st && sp__classifier_load(path, ninputs, cs->nclusters, &cs->clf))
    st = sp__fail(c->err, SP_EMODEL, path, 0, 0, NULL,
                  "network topology does not match the manifest");
  free(path);
  return st;
}

static int read_set(cursor *c, const char *dir, const sp_model *m, sp_submodel *s, size_t i) {
  sp_cluster_set *cs = &s->sets[i];
  cs->misclassified = (size_t)-1; /* not saved: known only after training */
  const size_t nc = s->grid.n[0];
  size_t index, want_dim;
  char *kind = NULL, *file = NULL, *sum = NULL;
  int st = expect_line(c, "set");
  if (!st) st = get_size(c, &index, LIMIT);
  if (!st && index != i) st = bad(c, "sets out of order");
  if (!st) st = get_string(c, &kind);
  if (!st) st = get_size(c, &cs->region, LIMIT);
  if (!st) st = get_word(c, "dim");
  if (!st) st = get_size(c, &cs->dim, LIMIT);
  if (!st) st = get_word(c, "k");
  if (!st) st = get_size(c, &cs->nclusters, m->ntrain);
  if (!st) st = get_word(c, "inertia");
  if (!st) st = get_double(c, &cs->inertia);
  if (!st) st = get_word(c, "network");
  if (!st) st = get_string(c, &file);
  if (!st) st = get_word(c, "sha256");
  if (!st) st = get_string(c, &sum);
  if (!st) st = end_of_line(c);
  if (!st) {
    int is_cu = i == nc;
    cs->kind = is_cu ? SP_SET_CU : SP_SET_REGION;
    want_dim = is_cu ? sp__cu_dim(&s->grid) : sp__region_dim(&s->grid);
    if (!kind || strcmp(kind, is_cu ? "cu" : "region") || cs->region != (is_cu ? 0 : i))
      st = bad(c, "set %zu should be the %s set", i, is_cu ? "cu" : "region");
    else if (cs->dim != want_dim)
      st = bad(c, "dimension %zu does not match the grid (%zu)", cs->dim, want_dim);
    else if (cs->nclusters == 0)
      st = bad(c, "a set needs at least one cluster");
  }
  if (!st) st = read_network(c, dir, cs, m->ncounters, file ? file : "-", sum ? sum : "");
  free(kind);
  free(file);
  free(sum);
  if (st) return st;
  cs->centroids = malloc((cs->nclusters * cs->dim + 1) * sizeof(double));
  cs->assign = malloc(m->ntrain * sizeof(size_t));
  if (!cs->centroids || !cs->assign) return sp__oom(c->err);
  for (size_t j = 0; j < cs->nclusters && !st; j++) {
    size_t at;
    st = expect_line(c, "centroid");
    if (!st) st = get_size(c, &at, cs->nclusters);
    if (!st && at != j) st = bad(c, "centroids out of order");
    for (size_t d = 0; d < cs->dim && !st; d++) {
      double *v = &cs->centroids[j * cs->dim + d];
      st = get_double(c, v);
      if (!st && !(*v > 0)) st = bad(c, "scaling values must be positive");
    }
    if (!st) st = end_of_line(c);
  }
  if (!st) st = expect_line(c, "assign");
  for (size_t k = 0; k < m->ntrain && !st; k++) {
    st = get_size(c, &cs->assign[k], cs->nclusters - 1);
  }
  return st ? st : end_of_line(c);
}

static int read_submodel(cursor *c, const char *dir, sp_model *m, sp_quantity q) {
  sp_submodel *s = &m->sub[q];
  char *state = NULL;
  int st = expect_line(c, "submodel");
  if (!st) st = get_word(c, qname[q]);
  if (!st) st = get_string(c, &state);
  if (!st) st = end_of_line(c);
  if (!st && (!state || (strcmp(state, "present") && strcmp(state, "absent"))))
    st = bad(c, "expected 'present' or 'absent'");
  if (!st && q == SP_TIME && strcmp(state, "present")) st = bad(c, "the time model is required");
  s->present = !st && !strcmp(state, "present");
  free(state);
  if (st || !s->present) return st;
  st = read_grid(c, s, &m->base);
  size_t want = s->grid.n[0] + (s->grid.n[0] > 1);
  if (!st) st = key_size(c, "sets", &s->nsets, LIMIT);
  if (!st && s->nsets != want) st = bad(c, "%zu sets; the grid needs %zu", s->nsets, want);
  if (!st && !(s->sets = calloc(s->nsets, sizeof *s->sets))) st = sp__oom(c->err);
  for (size_t i = 0; i < s->nsets && !st; i++) st = read_set(c, dir, m, s, i);
  if (st) s->nsets = s->sets ? s->nsets : 0;
  return st;
}

/* Loads the state of a method at base b of the model from file, checked
 * against its checksum, into *state. */
static int load_state(cursor *c, const char *dir, const sp_model *m, const sp_method_type *type,
                      size_t b, const char *file, const char *sum, void **state) {
  char want[128];
  method_file_at(type, b ? &m->bases[b] : NULL, want, sizeof want);
  if (strcmp(file, want)) return bad(c, "the %s file must be %s", type->name, want);
  char *path = sp__path_join(dir, file), hex[65];
  if (!path) return sp__oom(c->err);
  int st = file_sum(path, "method file", SP_METHOD_FILE_MAX_BYTES, hex, c->err);
  if (!st && strcmp(hex, sum))
    st = sp__fail(c->err, SP_EMODEL, path, 0, 0, NULL,
                  "method file does not match its checksum in the manifest (edited or corrupt)");
  const sp_method_context ctx = sp__model_method_context_at(m, b);
  *state = NULL;
  if (!st) st = type->load(&ctx, path, state, c->err);
  if (st && type->free) type->free(*state);
  if (st) *state = NULL;
  free(path);
  return st;
}

/* Loads the state of a method from file, checked against its checksum. */
static int load_method(cursor *c, const char *dir, sp_model *m, const sp_method_type *type,
                       const char *file, const char *sum) {
  void *state = NULL;
  int st = load_state(c, dir, m, type, 0, file, sum, &state);
  if (!st && sp__model_add_method(m, type, state))
    st = bad(c, "more than %d methods", SP_MODEL_MAX_METHODS);
  return st;
}

/* Whether the next line starts with key (a word of its own). */
static int next_is(const cursor *c, const char *key) {
  size_t n = strlen(key);
  return c->next && !strncmp(c->next, key, n) && c->next[n] == ' ';
}

/* Version 3: "at CFG file F sha256 H" lines after a method's line, its
 * states at further bases. */
static int read_method_bases(cursor *c, const char *dir, sp_model *m, char **file, char **sum) {
  sp_method_slot *slot = &m->methods[m->nmethods - 1];
  int st = SP_OK;
  while (!st && c->version >= 3 && next_is(c, "at")) {
    char *cfg = NULL;
    sp_config base;
    st = expect_line(c, "at");
    if (!st) st = get_string(c, &cfg);
    size_t b = !st && cfg && !sp_config_parse(cfg, &base, NULL) ? sp__model_base_index(m, &base)
                                                                : (size_t)-1;
    free(cfg);
    if (!st && (b == (size_t)-1 || b == 0 || slot->at[b] || !(slot->type->needs & SP_PER_BASE)))
      st = bad(c, "not a further base of the model, or listed twice, or a method fitted once");
    if (!st) st = get_word(c, "file");
    if (!st) st = get_string(c, file);
    if (!st) st = get_word(c, "sha256");
    if (!st) st = get_string(c, sum);
    if (!st) st = end_of_line(c);
    if (!st)
      st = load_state(c, dir, m, slot->type, b, *file ? *file : "", *sum ? *sum : "", &slot->at[b]);
  }
  return st;
}

/* One "method NAME [file F sha256 H]" line: a method of the table (method.h)
 * that the model does not carry yet.  wu2015, whose state is the core read
 * above, may be listed more than once. */
static int read_method(cursor *c, const char *dir, sp_model *m, char **name, char **file,
                       char **sum) {
  int st = expect_line(c, "method");
  if (!st) st = get_string(c, name);
  if (st) return st;
  const sp_method_type *type = *name ? sp__method_find(*name, NULL) : NULL;
  if (type && !type->load && type == m->methods[0].type) return end_of_line(c);
  if (!type || !type->load || sp__model_slot(m, *name))
    return bad(c, "unknown or repeated method '%s'", *name ? *name : "");
  st = get_word(c, "file");
  if (!st) st = get_string(c, file);
  if (!st) st = get_word(c, "sha256");
  if (!st) st = get_string(c, sum);
  if (!st) st = end_of_line(c);
  if (!st) st = load_method(c, dir, m, type, *file ? *file : "", *sum ? *sum : "");
  if (!st) st = read_method_bases(c, dir, m, file, sum);
  return st;
}

/* "methods N", N method lines, then "recommended NAME", which becomes the
 * method in use. */
static int read_methods(cursor *c, const char *dir, sp_model *m) {
  size_t n;
  char *name = NULL, *file = NULL, *sum = NULL;
  int st = key_size(c, "methods", &n, SP_MODEL_MAX_METHODS);
  for (size_t i = 0; i < n && !st; i++) st = read_method(c, dir, m, &name, &file, &sum);
  if (!st) st = key_string(c, "recommended", &name);
  const sp_method_slot *rec = !st && name ? sp__model_slot(m, name) : NULL;
  if (!st && !rec) st = bad(c, "unknown recommended method");
  if (!st) m->recommended = m->in_use = (size_t)(rec - m->methods);
  free(name);
  free(file);
  free(sum);
  return st;
}

/* Reads the whole manifest and checks its trailing checksum line. */
static int slurp_manifest(const char *path, char **text, sp_error *err) {
  FILE *fp = sp__open_bounded(path, MAX_MANIFEST_BYTES, SP_EMODEL, "model manifest", err);
  if (!fp) return err->status;
  struct stat stt;
  if (fstat(fileno(fp), &stt)) {
    fclose(fp);
    return sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot read the manifest: %s", strerror(errno));
  }
  size_t n = (size_t)stt.st_size;
  char *t = malloc(n + 1);
  if (!t || fread(t, 1, n, fp) != n) {
    fclose(fp);
    free(t);
    return sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot read the manifest");
  }
  fclose(fp);
  t[n] = '\0';
  /* The last line is "sha256 HEX\n" over everything before it. */
  char *last = n >= 73 ? t + n - 72 : NULL;
  char hex[65];
  sp_sha256 h;
  const char *nul = memchr(t, '\0', n);
  if (nul) {
    long line = 1;
    for (const char *p = t; p < nul; p++) line += *p == '\n';
    free(t);
    return sp__fail(err, SP_EMODEL, path, line, 0, NULL, "contains a NUL byte (not a text file?)");
  }
  if (!last || strncmp(last, "sha256 ", 7) || t[n - 1] != '\n') {
    free(t);
    return sp__fail(err, SP_EMODEL, path, 0, 0, "sha256",
                    "manifest is truncated: its final checksum line is missing");
  }
  sp__sha256_init(&h);
  sp__sha256_update(&h, t, (size_t)(last - t));
  sp__sha256_final_hex(&h, hex);
  if (strncmp(last + 7, hex, 64)) {
    free(t);
    return sp__fail(err, SP_EMODEL, path, 0, 0, "sha256",
                    "manifest does not match its checksum: it was edited or corrupted");
  }
  *last = '\0';
  *text = t;
  return SP_OK;
}

static int model_load(const char *dir, sp_model **out, sp_error *err) {
  *out = NULL;
  char *path = sp__path_join(dir, MANIFEST);
  if (!path) return sp__oom(err);
  cursor c = {.path = path, .err = err};
  int st = slurp_manifest(path, &c.text, err);
  sp_model *m = st ? NULL : sp__model_alloc();
  if (!st && !m) st = sp__oom(err);
  c.next = c.text;
  if (!st) st = read_header(&c, m);
  if (!st && c.version >= 3) st = read_memory(&c, m);
  if (!st && c.version >= 3) st = read_bases(&c, m);
  if (!st) st = read_counters_kernels(&c, m);
  for (int q = 0; q < 2 && !st; q++) st = read_submodel(&c, dir, m, (sp_quantity)q);
  if (!st) st = check_memory_bases(&c, m);
  if (!st && c.version >= 2) st = read_methods(&c, dir, m);
  if (!st) st = expect_line(&c, "end");
  if (!st) st = end_of_line(&c);
  if (!st && c.next && *c.next) st = bad(&c, "unexpected text after 'end'");
  free(c.text);
  free(path);
  if (st) {
    sp_model_free(m);
    return st;
  }
  *out = m;
  return SP_OK;
}

/* Manifests and FANN's network files are written and read with '.'
 * decimals whatever locale the calling program has set. */
int sp_model_save(const sp_model *m, const char *dir, sp_error *err) {
  sp_c_numeric cnum;
  sp__c_numeric_begin(&cnum);
  int st = model_save(m, dir, err);
  sp__c_numeric_end(&cnum);
  return st;
}

int sp_model_load(const char *dir, sp_model **out, sp_error *err) {
  sp_c_numeric cnum;
  sp__c_numeric_begin(&cnum);
  int st = model_load(dir, out, err);
  sp__c_numeric_end(&cnum);
  return st;
}
