/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ptx.c: the PTX reader behind sp_ptx_features (ptx.h says what it
 * counts).
 *
 * PTX is read as statements, not parsed as a grammar: a kernel is an
 * ".entry NAME (params) { body }", and its body is labels ("NAME:"),
 * directives (".reg", ".shared", ...), scope braces and instructions
 * ("[@[!]%p] opcode operands;").  That is all the features need, and it
 * keeps the reader small enough to harden: every statement is bounded, an
 * opcode must be a PTX instruction (its first part one of the ISA's, below),
 * a statement that runs on into the next line must be continued there (an
 * operand list broken after a ',' or '(', as nvcc breaks call sequences),
 * not followed by another statement (a ';' left out), a body must close,
 * and any failure names the file, line and column.  The line directives
 * that take no ';' (.loc, .file; .version, .target, .address_size at module
 * scope) end at the line's end, and a module's .section blocks (debug
 * information, -G) are skipped whole.  Loops are recognised as backward
 * branches (a bra to a label already seen), which is how nvcc and NVRTC
 * lay them out. */
#include "ptx.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/inread.h"
#include "util/status.h"

/* ---- the feature names ----------------------------------------------------- */

/* The opcode parts counted, as the PTX columns of the shared V100 set name
 * them. */
static const char *const vocab[] = {
    "abs",   "activemask", "add",    "add.cc",   "addc",      "and",           "atom",
    "b16",   "b32",        "b64",    "b8",       "bar",       "bar.warp.sync", "bfe",
    "bfi",   "bfind",      "bra",    "brev",     "call",      "clz",           "cnot",
    "const", "copysign",   "cos",    "cvt",      "cvta",      "div",           "dp2a",
    "dp4a",  "ex2",        "exit",   "f16",      "f16x2",     "f32",           "f64",
    "fma",   "fns",        "global", "isspacep", "ld",        "ldu",           "lg2",
    "local", "lop3",       "mad",    "mad.cc",   "mad24",     "madc",          "match.sync",
    "max",   "membar",     "min",    "mov",      "mul",       "mul24",         "neg",
    "not",   "or",         "param",  "popc",     "pred",      "prefetch",      "prefetchu",
    "prmt",  "rcp",        "red",    "reg",      "rem",       "ret",           "rsqrt",
    "s16",   "s32",        "s64",    "s8",       "sad",       "selp",          "set",
    "setp",  "shared",     "shf",    "shfl",     "shl",       "shr",           "sin",
    "slct",  "sqrt",       "sreg",   "st",       "sub",       "sub.cc",        "subc",
    "suld",  "suq",        "sured",  "sust",     "testp",     "tex",           "u16",
    "u32",   "u64",        "u8",     "vabsdiff", "vabsdiff2", "vabsdiff4",     "vadd",
    "vadd2", "vadd4",      "vavrg2", "vavrg4",   "vmad",      "vmax",          "vmax2",
    "vmax4", "vmin",       "vmin2",  "vmin4",    "vote",      "vset",          "vset2",
    "vset4", "vshl",       "vshr",   "vsub",     "vsub2",     "vsub4",         "xor"};
#define NVOCAB (sizeof vocab / sizeof *vocab)

/* The per-thread mix, loop-weighted, then the unweighted totals and the
 * declarations, then the launch shape. */
enum {
  MIX_F32,
  MIX_F64,
  MIX_F16,
  MIX_INT,
  MIX_SPECIAL,
  MIX_LD_GLOBAL,
  MIX_ST_GLOBAL,
  MIX_LD_SHARED,
  MIX_ST_SHARED,
  MIX_LD_LOCAL,
  MIX_ST_LOCAL,
  MIX_LD_CONST,
  MIX_LD_PARAM,
  MIX_TEX,
  MIX_ATOMIC,
  MIX_BRANCH,
  MIX_BARRIER,
  MIX_INST, /* every instruction, weighted */
  NMIX
};
enum { X_INST, X_LOOPS, X_REGS, X_SHARED_STATIC, X_GRID, X_BLOCK, X_THREADS, X_DYN, X_SHARED, NX };

static const char *const mix_names[NMIX] = {
    "arith_f32", "arith_f64", "arith_f16", "arith_int", "special",  "ld_global",
    "st_global", "ld_shared", "st_shared", "ld_local",  "st_local", "ld_const",
    "ld_param",  "ld_tex",    "atomic",    "branch",    "barrier",  "inst_thread"};
static const char *const extra_names[NX] = {
    "inst",        "loops",         "regs",    "shared_static_bytes",
    "grid_blocks", "block_threads", "threads", "dyn_shared_bytes",
    "shared_bytes"};
#define NFEATURES (NVOCAB + NMIX + NX)

size_t sp__static_feature_count(void) { return NFEATURES; }

const char *sp__static_feature_at(size_t i) {
  if (i < NVOCAB) return vocab[i];
  if (i < NVOCAB + NMIX) return mix_names[i - NVOCAB];
  return i < NFEATURES ? extra_names[i - NVOCAB - NMIX] : NULL;
}

static long feature_index(const char *name) {
  for (size_t i = 0; i < NFEATURES; i++)
    if (!strcmp(sp__static_feature_at(i), name)) return (long)i;
  return -1;
}

int sp__static_feature_name(const char *name) { return feature_index(name) >= 0; }

/* ---- the object -------------------------------------------------------------- */

struct sp_kernel_features {
  char *entry;
  double value[NFEATURES];
};

void sp_kernel_features_free(sp_kernel_features *f) {
  if (!f) return;
  free(f->entry);
  free(f);
}

const char *sp_kernel_features_entry(const sp_kernel_features *f) { return f->entry; }
size_t sp_kernel_features_count(const sp_kernel_features *f) {
  (void)f;
  return NFEATURES;
}
const char *sp_kernel_features_name(const sp_kernel_features *f, size_t i) {
  (void)f;
  return sp__static_feature_at(i);
}
double sp_kernel_features_value(const sp_kernel_features *f, size_t i) {
  return i < NFEATURES ? f->value[i] : NAN;
}

int sp_kernel_features_get(const sp_kernel_features *f, const char *name, double *out) {
  long i = feature_index(name);
  if (i < 0) return SP_ENOTFOUND;
  *out = f->value[i];
  return SP_OK;
}

/* The instructions of the PTX ISA (version 9.0), by their first part:
 * "cp.async.bulk.tensor" is cp's, "bar.warp.sync" bar's.  An opcode whose
 * first part is none of these is refused: it is a typo or not PTX. */
static const char *const isa[] = {
    "abs",          "activemask",    "add",       "addc",       "alloca",
    "and",          "applypriority", "atom",      "bar",        "barrier",
    "bfe",          "bfi",           "bfind",     "bmsk",       "bra",
    "brev",         "brkpt",         "brx",       "call",       "clusterlaunchcontrol",
    "clz",          "cnot",          "copysign",  "cos",        "cp",
    "createpolicy", "cvt",           "cvta",      "discard",    "div",
    "dp2a",         "dp4a",          "elect",     "ex2",        "exit",
    "fence",        "fma",           "fns",       "getctarank", "griddepcontrol",
    "isspacep",     "istypep",       "ld",        "ldmatrix",   "ldu",
    "lg2",          "lop3",          "mad",       "mad24",      "madc",
    "mapa",         "match",         "max",       "mbarrier",   "membar",
    "min",          "mma",           "mov",       "movmatrix",  "mul",
    "mul24",        "multimem",      "nanosleep", "neg",        "not",
    "or",           "pmevent",       "popc",      "prefetch",   "prefetchu",
    "prmt",         "rcp",           "red",       "redux",      "rem",
    "ret",          "rsqrt",         "sad",       "selp",       "set",
    "setmaxnreg",   "setp",          "shf",       "shfl",       "shl",
    "shr",          "sin",           "slct",      "sqrt",       "st",
    "stackrestore", "stacksave",     "stmatrix",  "sub",        "subc",
    "suld",         "suq",           "sured",     "sust",       "szext",
    "tanh",         "tcgen05",       "tensormap", "testp",      "tex",
    "tld4",         "trap",          "txq",       "vabsdiff",   "vabsdiff2",
    "vabsdiff4",    "vadd",          "vadd2",     "vadd4",      "vavrg2",
    "vavrg4",       "vmad",          "vmax",      "vmax2",      "vmax4",
    "vmin",         "vmin2",         "vmin4",     "vote",       "vset",
    "vset2",        "vset4",         "vshl",      "vshr",       "vsub",
    "vsub2",        "vsub4",         "wgmma",     "wmma",       "xor"};

static int isa_opcode(const char *s, size_t len) {
  for (size_t i = 0; i < sizeof isa / sizeof *isa; i++)
    if (strlen(isa[i]) == len && !strncmp(isa[i], s, len)) return 1;
  return 0;
}

/* ---- reading statements --------------------------------------------------------- */

typedef struct reader {
  const char *s, *end;
  const char *path;
  long line;
  const char *line_start; /* where line begins, for columns */
  sp_error *err;
} reader;

static int parse_error(const reader *r, long line, const char *what) {
  return sp__fail(r->err, SP_EPARSE, r->path, line, 0, NULL, "%s", what);
}

/* The column (1-based) of p on the current line. */
static long column(const reader *r, const char *p) { return (long)(p - r->line_start) + 1; }

/* A newline at p: the next line begins after it. */
static void new_line(reader *r, const char *p) {
  r->line++;
  r->line_start = p + 1;
}

/* Skips blanks and comments, counting lines; an unterminated block comment
 * is an error. */
static int skip_space(reader *r) {
  while (r->s < r->end) {
    if (*r->s == '\n') {
      new_line(r, r->s);
      r->s++;
    } else if (isspace((unsigned char)*r->s)) {
      r->s++;
    } else if (r->end - r->s > 1 && r->s[0] == '/' && r->s[1] == '/') {
      while (r->s < r->end && *r->s != '\n') r->s++;
    } else if (r->end - r->s > 1 && r->s[0] == '/' && r->s[1] == '*') {
      long start = r->line;
      for (r->s += 2; r->s < r->end && !(r->s[0] == '*' && r->end - r->s > 1 && r->s[1] == '/');
           r->s++)
        if (*r->s == '\n') new_line(r, r->s);
      if (r->s >= r->end) return parse_error(r, start, "unterminated comment");
      r->s += 2;
    } else {
      break;
    }
  }
  return SP_OK;
}

/* Whether [s, stop) contains word. */
static int contains(const char *s, const char *stop, const char *word) {
  size_t n = strlen(word);
  for (; (size_t)(stop - s) >= n; s++)
    if (!strncmp(s, word, n)) return 1;
  return 0;
}

static int ident_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.' || c == '%'; }

static int blank(int c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Whether [s, stop) begins with word, followed by a blank or its end. */
static int starts_word(const char *s, const char *stop, const char *word) {
  size_t n = strlen(word);
  return (size_t)(stop - s) >= n && !strncmp(s, word, n) &&
         ((size_t)(stop - s) == n || isspace((unsigned char)s[n]));
}

/* The directives that take no ';': they end at the line's end. */
static const char *const body_line_directives[] = {".loc", ".file", NULL};
static const char *const module_line_directives[] = {".version", ".target", ".address_size",
                                                     ".file",    ".loc",    NULL};

/* Skips a line directive at r->s; 1 when there was one. */
static int line_directive(reader *r, const char *const *names) {
  for (; *names; names++)
    if (starts_word(r->s, r->end, *names)) {
      while (r->s < r->end && *r->s != '\n') r->s++;
      return 1;
    }
  return 0;
}

/* [s, stop) into buf for a message, on one line: blanks and line breaks as
 * one space, cut at 60 characters. */
static const char *excerpt(char *buf, size_t size, const char *s, const char *stop) {
  size_t o = 0;
  for (; s < stop && o + 4 < size && o < 60; s++) {
    if (!isspace((unsigned char)*s))
      buf[o++] = isprint((unsigned char)*s) ? *s : '?';
    else if (o && buf[o - 1] != ' ')
      buf[o++] = ' ';
  }
  if (s < stop && o + 4 < size) o += (size_t)snprintf(buf + o, size - o, "...");
  buf[o] = '\0';
  return buf;
}

/* Where a statement's text broke across lines: the last non-blank
 * character before the break, on line `line` at column `col`. */
typedef struct line_break {
  const char *last;
  long line, col;
} line_break;

/* The statement [start, ...] that broke at b runs on into a line beginning
 * at next: the ';' before the break is missing. */
static int runs_on(const reader *r, const line_break *b, const char *start, const char *next) {
  char a[80], n[80];
  const char *eol = next;
  while (eol < r->end && *eol != '\n') eol++;
  return sp__fail(r->err, SP_EPARSE, r->path, b->line, b->col + 1, NULL,
                  "statement without ';': '%s' runs on into the next line, which begins '%s'",
                  excerpt(a, sizeof a, start, b->last + 1), excerpt(n, sizeof n, next, eol));
}

/* One statement of a body: text [start, stop) up to its ';' (excluded), or
 * a label up to its ':'. */
typedef struct statement {
  const char *start, *stop;
  long line, col;
  int label;
} statement;

/* Whether [s, p) is no more than a guard ("@%p1", "@!%p1") and a call's
 * opcode: nvcc breaks a call's line there ("call.uni", then its target). */
static int call_only(const char *s, const char *p) {
  if (s < p && *s == '@')
    while (s < p && !isspace((unsigned char)*s)) s++;
  while (s < p && isspace((unsigned char)*s)) s++;
  if ((size_t)(p - s) < 4 || strncmp(s, "call", 4) || (p - s > 4 && s[4] != '.')) return 0;
  while (s < p && !isspace((unsigned char)*s)) s++;
  while (s < p && isspace((unsigned char)*s)) s++;
  return s == p;
}

/* Whether a statement may go on past a line break after b, on a line that
 * begins with c: an operand list broken after a ',' or '(' (or a brace or
 * bracket) or a call's opcode, or before a ',', '(', ')' or ';' (nvcc's
 * call sequences).  A line that begins a block, a guard or a directive
 * ('{', '}', '@', '.') begins a statement of its own. */
static int continues(const char *start, const line_break *b, char c) {
  if (strchr("{}@.", c)) return 0;
  return strchr(",({[", *b->last) || strchr(",();", c) || call_only(start, b->last + 1);
}

/* The statement's text up to its ';', checked at every line break. */
static int statement_text(reader *r, statement *st, const char *p) {
  line_break b = {p > st->start ? p - 1 : NULL, r->line, column(r, p) - 1};
  int broken = 0;
  while (p < r->end && *p != ';') {
    if ((size_t)(p - st->start) > SP_PTX_MAX_STATEMENT)
      return parse_error(r, st->line, "statement too long (no ';')");
    if (r->end - p > 1 && p[0] == '/' && p[1] == '/') {
      while (p < r->end && *p != '\n') p++;
      continue;
    }
    if (*p == '\n') {
      broken = b.last != NULL;
      new_line(r, p++);
      continue;
    }
    if (!blank((unsigned char)*p)) {
      if (broken && !continues(st->start, &b, *p)) return runs_on(r, &b, st->start, p);
      broken = 0;
      b = (line_break){p, r->line, column(r, p)};
    }
    p++;
  }
  if (p >= r->end)
    return parse_error(r, st->line, "statement without ';' before the end of the file");
  st->stop = p;
  r->s = p + 1;
  return SP_OK;
}

static int next_statement(reader *r, statement *st) {
  st->start = r->s;
  st->line = r->line;
  st->col = column(r, r->s);
  st->label = 0;
  const char *p = r->s;
  while (p < r->end && ident_char((unsigned char)*p)) p++;
  const char *q = p;
  while (q < r->end && (*q == ' ' || *q == '\t')) q++;
  /* A label ends at one ':'; "::" is inside an opcode (ld.shared::cta). */
  if (p > r->s && q < r->end && *q == ':' && !(q + 1 < r->end && q[1] == ':')) {
    st->stop = p;
    st->label = 1;
    r->s = q + 1;
    return SP_OK;
  }
  return statement_text(r, st, p);
}

/* ---- one kernel's body ---------------------------------------------------------- */

/* What the body walk keeps: per instruction its mix bits, the labels and
 * the loops (backward branches) as instruction ranges. */
typedef struct label {
  const char *name;
  size_t len, at;
} label;

typedef struct body {
  double vocab[NVOCAB];
  unsigned *mix; /* per instruction: bit per MIX_* */
  size_t n, cap;
  label *labels;
  size_t nlabels, labels_cap;
  size_t *loop_from, *loop_to;
  size_t nloops, loops_cap;
  double regs, shared_bytes;
} body;

static void body_free(body *b) {
  free(b->mix);
  free(b->labels);
  free(b->loop_from);
  free(b->loop_to);
}

static int grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return SP_OK;
  size_t n = *cap ? 2 * *cap : 64;
  void *q = realloc(*p, n * size);
  if (!q) return SP_ENOMEM;
  *p = q;
  *cap = n;
  return SP_OK;
}

static long vocab_index(const char *s, size_t len) {
  for (size_t i = 0; i < NVOCAB; i++)
    if (strlen(vocab[i]) == len && !strncmp(vocab[i], s, len)) return (long)i;
  return -1;
}

/* The opcode's parts ("ld", "global", "f32"), at most 16. */
typedef struct parts {
  const char *p[16];
  size_t len[16], n;
} parts;

static int has(const parts *o, const char *word) {
  for (size_t i = 0; i < o->n; i++)
    if (strlen(word) == o->len[i] && !strncmp(o->p[i], word, o->len[i])) return 1;
  return 0;
}

static int is_any(const parts *o, const char *const *words) {
  for (; *words; words++)
    if (strlen(*words) == o->len[0] && !strncmp(o->p[0], *words, o->len[0])) return 1;
  return 0;
}

static const char *const arith_ops[] = {
    "add",  "sub",      "mul",   "mad",   "fma",   "div",  "rem",   "abs",  "neg",  "min", "max",
    "addc", "subc",     "mad24", "mul24", "sad",   "and",  "or",    "xor",  "not",  "shl", "shr",
    "shf",  "lop3",     "bfe",   "bfi",   "popc",  "clz",  "brev",  "prmt", "setp", "set", "selp",
    "slct", "copysign", "dp2a",  "dp4a",  "testp", "cnot", "bfind", "madc", NULL};
static const char *const special_ops[] = {"sin",  "cos", "ex2",  "lg2", "rsqrt",
                                          "sqrt", "rcp", "tanh", NULL};
static const char *const tex_ops[] = {"tex", "tld4", "suld", "sust", "sured", "txq", "suq", NULL};

static unsigned arith_kind(const parts *o) {
  if (has(o, "f16") || has(o, "f16x2") || has(o, "bf16") || has(o, "bf16x2")) return 1u << MIX_F16;
  if (has(o, "f64")) return 1u << MIX_F64;
  if (has(o, "f32")) return 1u << MIX_F32;
  return 1u << MIX_INT;
}

static unsigned memory_kind(const parts *o, int load) {
  if (has(o, "param")) return load ? 1u << MIX_LD_PARAM : 0;
  if (has(o, "shared")) return 1u << (load ? MIX_LD_SHARED : MIX_ST_SHARED);
  if (has(o, "local")) return 1u << (load ? MIX_LD_LOCAL : MIX_ST_LOCAL);
  if (has(o, "const")) return load ? 1u << MIX_LD_CONST : 0;
  /* Generic addresses are global memory in practice. */
  return 1u << (load ? MIX_LD_GLOBAL : MIX_ST_GLOBAL);
}

static unsigned mix_of(const parts *o) {
  unsigned m = 1u << MIX_INST;
  if (is_any(o, special_ops)) return m | 1u << MIX_SPECIAL;
  if (is_any(o, arith_ops)) return m | arith_kind(o);
  if (is_any(o, tex_ops)) return m | 1u << MIX_TEX;
  if (is_any(o, (const char *const[]){"ld", "ldu", NULL})) return m | memory_kind(o, 1);
  if (is_any(o, (const char *const[]){"st", NULL})) return m | memory_kind(o, 0);
  if (is_any(o, (const char *const[]){"atom", "red", NULL})) return m | 1u << MIX_ATOMIC;
  if (is_any(o, (const char *const[]){"bra", "brx", NULL})) return m | 1u << MIX_BRANCH;
  if (is_any(o, (const char *const[]){"bar", "barrier", NULL})) return m | 1u << MIX_BARRIER;
  return m;
}

/* Counts the vocabulary parts: a two- or three-part entry ("add.cc",
 * "bar.warp.sync") is taken whole before the single parts. */
static void count_vocab(body *b, const char *op, size_t len, const parts *o) {
  size_t skip = 0;
  for (size_t k = o->n < 3 ? o->n : 3; k >= 2 && !skip; k--) {
    size_t l = (size_t)(o->p[k - 1] + o->len[k - 1] - op);
    long v = vocab_index(op, l);
    if (v >= 0) {
      b->vocab[v]++;
      skip = k;
    }
  }
  (void)len;
  for (size_t i = skip; i < o->n; i++) {
    long v = vocab_index(o->p[i], o->len[i]);
    if (v >= 0) b->vocab[v]++;
  }
}

/* The opcode op (len bytes) of statement st fails: why, at its line and
 * column. */
static int bad_opcode(const reader *r, const statement *st, const char *op, size_t len,
                      const char *why) {
  long line = st->line, col = st->col;
  const char *from = st->start;
  for (const char *c = st->start; c < op; c++)
    if (*c == '\n') {
      line++;
      from = c + 1;
      col = 1;
    }
  char text[80];
  return sp__fail(r->err, SP_EPARSE, r->path, line, col + (long)(op - from), NULL, "%s '%s'", why,
                  excerpt(text, sizeof text, op, op + len));
}

/* The opcode's parts, split at its dots: each non-empty, of letters,
 * digits, '_' and "::" (".L2::128B", ".shared::cta"), the first a PTX
 * instruction's. */
static int split_opcode(const reader *r, const statement *st, const char *op, size_t len,
                        parts *o) {
  o->n = 0;
  for (size_t i = 0; i < len;) {
    size_t j = i;
    while (j < len && op[j] != '.') j++;
    if (j == i || o->n == 16 || j + 1 == len) return bad_opcode(r, st, op, len, "malformed opcode");
    o->p[o->n] = op + i;
    o->len[o->n++] = j - i;
    i = j + 1;
  }
  for (size_t i = 0; i < len; i++) {
    if (op[i] == ':' && i + 1 < len && op[i + 1] == ':') {
      i++;
      continue;
    }
    if (!isalnum((unsigned char)op[i]) && op[i] != '.' && op[i] != '_')
      return bad_opcode(r, st, op, len, "malformed opcode");
  }
  if (!isalpha((unsigned char)op[0])) return bad_opcode(r, st, op, len, "malformed opcode");
  if (!isa_opcode(o->p[0], o->len[0]))
    return bad_opcode(r, st, op, len, "unknown opcode (not a PTX instruction)");
  return SP_OK;
}

/* The label a bra jumps to: its last operand. */
static void branch_target(const char *s, const char *stop, const char **name, size_t *len) {
  while (stop > s && isspace((unsigned char)stop[-1])) stop--;
  const char *p = stop;
  while (p > s && ident_char((unsigned char)p[-1])) p--;
  *name = p;
  *len = (size_t)(stop - p);
}

static int note_loop(body *b, const char *name, size_t len) {
  for (size_t i = 0; i < b->nlabels; i++)
    if (b->labels[i].len == len && !strncmp(b->labels[i].name, name, len)) {
      size_t c1 = b->loops_cap, c2 = b->loops_cap;
      if (grow((void **)&b->loop_from, &c1, b->nloops + 1, sizeof(size_t)) ||
          grow((void **)&b->loop_to, &c2, b->nloops + 1, sizeof(size_t)))
        return SP_ENOMEM;
      b->loops_cap = c1 < c2 ? c1 : c2;
      b->loop_from[b->nloops] = b->labels[i].at;
      b->loop_to[b->nloops++] = b->n;
      return SP_OK;
    }
  return SP_OK; /* a forward branch */
}

static int instruction(reader *r, body *b, const statement *st) {
  const char *s = st->start;
  if (*s == '@') {
    while (s < st->stop && !isspace((unsigned char)*s)) s++;
    while (s < st->stop && isspace((unsigned char)*s)) s++;
  }
  const char *op = s;
  while (s < st->stop && !isspace((unsigned char)*s)) s++;
  parts o;
  int e = split_opcode(r, st, op, (size_t)(s - op), &o);
  if (e) return e;
  count_vocab(b, op, (size_t)(s - op), &o);
  if (grow((void **)&b->mix, &b->cap, b->n + 1, sizeof(unsigned))) return SP_ENOMEM;
  b->mix[b->n] = mix_of(&o);
  if (b->mix[b->n] & 1u << MIX_BRANCH) {
    const char *name;
    size_t len;
    branch_target(s, st->stop, &name, &len);
    if (note_loop(b, name, len)) return SP_ENOMEM;
  }
  b->n++;
  return SP_OK;
}

/* "%r<20>" declares 20 registers, "%f" one; 64-bit types count two. */
static int reg_decl(const reader *r, body *b, const statement *st) {
  const char *s = st->start, *stop = st->stop;
  double width = 1;
  if (contains(s, stop, "64")) width = 2;
  if (contains(s, stop, ".pred")) width = 0;
  const char *lt = memchr(s, '<', (size_t)(stop - s));
  if (!lt) {
    b->regs += width;
    return SP_OK;
  }
  char *end;
  errno = 0;
  unsigned long n = strtoul(lt + 1, &end, 10);
  if (end == lt + 1 || end >= stop || *end != '>' || errno || n > 1000000)
    return parse_error(r, st->line, "malformed .reg declaration");
  b->regs += width * (double)n;
  return SP_OK;
}

static double type_bytes(const char *s, const char *stop) {
  static const char *const t8[] = {".b64", ".u64", ".s64", ".f64"};
  static const char *const t4[] = {".b32", ".u32", ".s32", ".f32"};
  static const char *const t2[] = {".b16", ".u16", ".s16", ".f16"};
  for (size_t i = 0; i < 4; i++) {
    if (contains(s, stop, t8[i])) return 8;
    if (contains(s, stop, t4[i])) return 4;
    if (contains(s, stop, t2[i])) return 2;
  }
  return 1;
}

/* ".shared .align 4 .b8 name[1024]": its bytes (an .extern one is the
 * dynamic shared memory the launch gives). */
static int shared_decl(const reader *r, const statement *st, double *bytes) {
  const char *s = st->start, *stop = st->stop;
  *bytes = 0;
  if (contains(s, stop, ".extern")) return SP_OK;
  double n = type_bytes(s, stop);
  for (const char *p = s; p < stop; p++) {
    if (*p != '[') continue;
    char *end;
    errno = 0;
    unsigned long d = strtoul(p + 1, &end, 10);
    if (end >= stop || *end != ']' || errno || d > (1ul << 32))
      return parse_error(r, st->line, "malformed .shared declaration");
    n *= (double)d;
    p = end;
  }
  *bytes = n;
  return SP_OK;
}

static int starts(const statement *st, const char *word) {
  size_t n = strlen(word);
  return (size_t)(st->stop - st->start) >= n && !strncmp(st->start, word, n);
}

static int body_statement(reader *r, body *b, const statement *st) {
  if (st->label) {
    size_t c = b->labels_cap;
    if (grow((void **)&b->labels, &c, b->nlabels + 1, sizeof(label))) return SP_ENOMEM;
    b->labels_cap = c;
    b->labels[b->nlabels++] = (label){st->start, (size_t)(st->stop - st->start), b->n};
    return SP_OK;
  }
  if (starts(st, ".reg")) return reg_decl(r, b, st);
  if (starts(st, ".shared")) {
    double bytes;
    int e = shared_decl(r, st, &bytes);
    b->shared_bytes += bytes;
    return e;
  }
  if (*st->start == '.') return SP_OK; /* other directives: .local, .pragma, ... */
  return instruction(r, b, st);
}

/* Reads the body after its '{' through the matching '}'. */
static int read_body(reader *r, body *b, long open_line) {
  int depth = 1;
  while (depth > 0) {
    int e = skip_space(r);
    if (e) return e;
    if (r->s >= r->end) return parse_error(r, open_line, "the kernel's body has no closing '}'");
    if (*r->s == '{' || *r->s == '}') {
      depth += *r->s == '{' ? 1 : -1;
      r->s++;
      continue;
    }
    if (line_directive(r, body_line_directives)) continue;
    statement st;
    e = next_statement(r, &st);
    if (!e) e = body_statement(r, b, &st);
    if (e) return e == SP_ENOMEM ? sp__oom(r->err) : e;
  }
  return SP_OK;
}

/* ---- the features ------------------------------------------------------------------ */

/* Loop weights by a difference array of log weights, capped at
 * SP_PTX_LOOP_DEPTH loops. */
static void weighted_mix(const body *b, double *mix, double *work) {
  for (size_t i = 0; i <= b->n; i++) work[i] = 0;
  for (size_t l = 0; l < b->nloops; l++) {
    work[b->loop_from[l]] += 1;
    work[b->loop_to[l] + 1] -= 1;
  }
  double depth = 0;
  for (size_t i = 0; i < b->n; i++) {
    depth += work[i];
    double w = pow(SP_PTX_LOOP_TRIPS, depth < SP_PTX_LOOP_DEPTH ? depth : SP_PTX_LOOP_DEPTH);
    for (unsigned k = 0; k < NMIX; k++)
      if (b->mix[i] >> k & 1u) mix[k] += w;
  }
}

static double product(const unsigned long v[3]) {
  return (double)(v[0] ? v[0] : 1) * (double)(v[1] ? v[1] : 1) * (double)(v[2] ? v[2] : 1);
}

static int fill(sp_kernel_features *f, const body *b, const sp_launch *launch) {
  double *work = malloc((b->n + 1) * sizeof(double));
  if (!work) return SP_ENOMEM;
  memcpy(f->value, b->vocab, sizeof b->vocab);
  double *mix = f->value + NVOCAB, *x = mix + NMIX;
  weighted_mix(b, mix, work);
  free(work);
  x[X_INST] = (double)b->n;
  x[X_LOOPS] = (double)b->nloops;
  x[X_REGS] = b->regs;
  x[X_SHARED_STATIC] = b->shared_bytes;
  x[X_GRID] = launch ? product(launch->grid) : NAN;
  x[X_BLOCK] = launch ? product(launch->block) : NAN;
  x[X_THREADS] = x[X_GRID] * x[X_BLOCK];
  x[X_DYN] = launch ? (double)launch->shared_bytes : NAN;
  x[X_SHARED] = b->shared_bytes + x[X_DYN];
  return SP_OK;
}

/* ---- finding the kernel --------------------------------------------------------- */

/* Whether entry (len bytes) names kernel: the same text, or an Itanium
 * mangled name whose function name is kernel ("_Z6reducePKfPfi",
 * "_Z4polyILi256ELi4EEvPfi" for "poly"). */
static int names_kernel(const char *entry, size_t len, const char *kernel) {
  size_t k = strlen(kernel);
  if (len == k && !strncmp(entry, kernel, k)) return 1;
  if (len < 3 || strncmp(entry, "_Z", 2) || !isdigit((unsigned char)entry[2])) return 0;
  size_t i = 2, n = 0;
  while (i < len && isdigit((unsigned char)entry[i]) && n < 100000)
    n = 10 * n + (size_t)(entry[i++] - '0');
  return n == k && i + n <= len && !strncmp(entry + i, kernel, k);
}

typedef struct search {
  const char *kernel;
  const char *entry;
  size_t entry_len;
  size_t matches;
  char seen[256]; /* the entries, for the message when none matches */
} search;

static void remember(search *s, const char *name, size_t len) {
  size_t used = strlen(s->seen);
  if (used + len + 3 >= sizeof s->seen) return;
  snprintf(s->seen + used, sizeof s->seen - used, "%s%.*s", used ? ", " : "", (int)len, name);
}

/* The name after ".entry" in a head, or NULL when the head is not a
 * kernel's (a .func, say). */
static const char *entry_name(const char *s, const char *stop, size_t *len) {
  const char *p = s;
  while ((size_t)(stop - p) >= 6 && strncmp(p, ".entry", 6)) p++;
  if ((size_t)(stop - p) < 6 || (p + 6 < stop && ident_char((unsigned char)p[6]))) return NULL;
  for (p += 6; p < stop && isspace((unsigned char)*p); p++) continue;
  const char *name = p;
  while (p < stop && ident_char((unsigned char)*p)) p++;
  *len = (size_t)(p - name);
  return name;
}

/* A body after a head: the kernel's when its name matches, else skipped
 * (another kernel, a .func). */
static int head_body(reader *r, search *s, body *b, const char *head, const char *stop, long line) {
  size_t len = 0;
  const char *name = entry_name(head, stop, &len);
  if (name && !len) return parse_error(r, line, ".entry without a name");
  if (name) remember(s, name, len);
  if (name && names_kernel(name, len, s->kernel) && ++s->matches == 1) {
    s->entry = name;
    s->entry_len = len;
    return read_body(r, b, line);
  }
  body skip = {0};
  int e = read_body(r, &skip, line);
  body_free(&skip);
  return e;
}

/* A .section block (debug information, nvcc -G: data directives without
 * ';'), skipped through its closing brace. */
static int skip_section(reader *r) {
  long line = r->line;
  int depth = 0;
  for (; r->s < r->end; r->s++) {
    if (r->end - r->s > 1 && r->s[0] == '/' && r->s[1] == '/')
      while (r->s + 1 < r->end && r->s[1] != '\n') r->s++;
    else if (*r->s == '\n')
      new_line(r, r->s);
    else if (*r->s == '{')
      depth++;
    else if (*r->s == '}' && --depth <= 0) {
      r->s++;
      return SP_OK;
    }
  }
  return parse_error(r, line, "a .section without its closing '}'");
}

/* The directives that begin an item at module scope: one at the start of a
 * line inside another item means that item's ';' is missing. */
static int begins_item(const reader *r, const char *p) {
  static const char *const words[] = {".global", ".shared",  ".const",  ".local",        ".visible",
                                      ".extern", ".weak",    ".entry",  ".func",         ".common",
                                      ".file",   ".version", ".target", ".address_size", ".section",
                                      ".alias",  NULL};
  for (const char *const *w = words; *w; w++)
    if (starts_word(p, r->end, *w)) return 1;
  return 0;
}

/* One item at module scope up to its ';' or '{' (an initializer's braces
 * included), checked at every line break; *stop is where it ends. */
static int module_text(reader *r, const char *head, long line, const char **stop) {
  line_break b = {NULL, 0, 0};
  int init = 0, broken = 0;
  while (r->s < r->end && *r->s != ';' && (*r->s != '{' || init)) {
    char c = *r->s;
    if (r->end - r->s > 1 && c == '/' && r->s[1] == '/') {
      while (r->s < r->end && *r->s != '\n') r->s++;
      continue;
    }
    if (c == '\n') {
      broken = b.last != NULL;
      new_line(r, r->s++);
      continue;
    }
    if (broken && !blank((unsigned char)c) && begins_item(r, r->s))
      return runs_on(r, &b, head, r->s);
    if (!blank((unsigned char)c)) {
      broken = 0;
      b = (line_break){r->s, r->line, column(r, r->s)};
    }
    if (c == '=') init = 1;
    if (c == '}' && !init) return parse_error(r, r->line, "a '}' outside a kernel");
    if ((size_t)(r->s - head) > SP_PTX_MAX_STATEMENT)
      return parse_error(r, line, "statement too long (no ';')");
    r->s++;
  }
  if (r->s >= r->end)
    return parse_error(r, line, "statement without ';' before the end of the file");
  *stop = r->s++;
  return SP_OK;
}

/* One item at module scope: a line directive, a .section block, a
 * directive up to ';', or a head up to '{' and its body. */
static int module_item(reader *r, search *s, body *b) {
  const char *head = r->s, *stop = NULL;
  long line = r->line;
  if (line_directive(r, module_line_directives)) return SP_OK;
  if (starts_word(head, r->end, ".section")) return skip_section(r);
  int e = module_text(r, head, line, &stop);
  if (e) return e;
  if (*stop == '{') return head_body(r, s, b, head, stop, r->line);
  statement st = {.start = head, .stop = stop, .line = line};
  if (!starts(&st, ".shared") && !contains(head, stop, " .shared")) return SP_OK;
  double bytes;
  e = shared_decl(r, &st, &bytes);
  b->shared_bytes += bytes;
  return e;
}

static int scan(reader *r, search *s, body *b) {
  int e = SP_OK;
  while (!e && r->s < r->end) {
    if ((e = skip_space(r)) || r->s >= r->end) break;
    e = module_item(r, s, b);
  }
  return e;
}

/* The len bytes at name as a string.  Not strndup: the PTX text is not
 * terminated, and strndup may look for a terminator past len. */
static char *copy_name(const char *name, size_t len) {
  char *c = malloc(len + 1);
  if (!c) return NULL;
  memcpy(c, name, len);
  c[len] = '\0';
  return c;
}

int sp_ptx_features_mem(const char *text, size_t size, const char *path, const char *kernel,
                        const sp_launch *launch, sp_kernel_features **out, sp_error *err) {
  *out = NULL;
  if (!kernel || !*kernel)
    return sp__fail(err, SP_EINVAL, path, 0, 0, "kernel", "no kernel name given");
  if (size > SP_PTX_MAX_BYTES)
    return sp__fail(err, SP_EINVAL, path, 0, 0, NULL, "larger than %u bytes", SP_PTX_MAX_BYTES);
  reader r = {text, text + size, path ? path : "(ptx)", 1, text, err};
  const char *nul = memchr(text, '\0', size);
  if (nul) {
    for (const char *p = text; p < nul; p++) r.line += *p == '\n';
    return sp__fail(err, SP_EPARSE, r.path, r.line, 0, NULL,
                    "contains a NUL byte (not a text file?)");
  }
  search s = {.kernel = kernel};
  body b = {0};
  int e = scan(&r, &s, &b);
  if (!e && s.matches == 0)
    e = sp__fail(err, SP_ENOTFOUND, r.path, 0, 0, "kernel", "no kernel '%s' in the PTX (%s%s)",
                 kernel, s.seen[0] ? "it has " : "it has no .entry", s.seen);
  if (!e && s.matches > 1)
    e = sp__fail(err, SP_EINVAL, r.path, 0, 0, "kernel",
                 "%zu kernels are named '%s' (%s): give the mangled name", s.matches, kernel,
                 s.seen);
  sp_kernel_features *f = e ? NULL : calloc(1, sizeof *f);
  if (!e && (!f || !(f->entry = copy_name(s.entry, s.entry_len)) || fill(f, &b, launch)))
    e = sp__oom(err);
  body_free(&b);
  if (e) {
    sp_kernel_features_free(f);
    return e;
  }
  *out = f;
  return SP_OK;
}

int sp_ptx_features(const char *path, const char *kernel, const sp_launch *launch,
                    sp_kernel_features **out, sp_error *err) {
  *out = NULL;
  char *text;
  size_t n;
  int e = sp__read_text(path, SP_PTX_MAX_BYTES, "PTX module", &text, &n, err);
  if (e) return e;
  e = sp_ptx_features_mem(text, n, path, kernel, launch, out, err);
  free(text);
  return e;
}

int sp_static_feature_name(const char *name) { return sp__static_feature_name(name); }
