/* SPDX-License-Identifier: GPL-3.0-or-later */
/* forest.c: extremely randomized trees over vector targets (forest.h).
 *
 * Nodes of all trees live in one array.  An inner node holds a feature, a
 * threshold and its two children; a leaf holds a range of the sample index
 * array.  Trees are grown depth-first with an explicit stack, so the depth
 * is bounded only by the number of samples. */
#include "forest.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/status.h"

#define FOREST_MAGIC "forest 1"
/* A node whose outputs vary by less than this (summed squared deviation
 * from their mean, relative to the node size) cannot be split usefully:
 * the split scores then differ only by rounding. */
#define PURE_SSE 1e-24

typedef struct node {
  long feature;  /* -1 for a leaf */
  double thresh; /* go left when x[feature] < thresh */
  size_t a, b;   /* inner: left and right child; leaf: first sample, count */
} node;

/* The prediction path's copy of a node (see compact()): 16 bytes, laid out
 * per tree in depth-first order so that a left child follows its parent. */
typedef struct cnode {
  union {
    double thresh;  /* inner: go left when x[feature] < thresh */
    uint32_t count; /* leaf: how many samples */
  } u;
  uint32_t right;  /* inner: the right child; leaf: first sample in csamples */
  int32_t feature; /* -1 for a leaf */
} cnode;

struct sp_forest {
  size_t n, p, ntrees;
  size_t *root; /* ntrees node indices */
  node *nodes;
  size_t nnodes, cap;
  size_t *samples; /* ntrees * n: each tree's leaves partition 0..n-1 */
  cnode *cnodes;   /* nnodes, built by compact(); tree t starts at croot[t] */
  uint32_t *croot;
  uint32_t *csamples; /* ntrees * n */
};

static int compact(sp_forest *f);

void sp__forest_params_init(sp_forest_params *fp) {
  fp->trees = 200;
  fp->min_leaf = 1;
  fp->max_features = 1.0;
  fp->seed = 1;
}

/* splitmix64: small, fast and good enough for drawing thresholds. */
static uint64_t next_u64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static double next_unit(uint64_t *s) { return (double)(next_u64(s) >> 11) * 0x1.0p-53; }

void sp__forest_free(sp_forest *f) {
  if (!f) return;
  free(f->root);
  free(f->nodes);
  free(f->samples);
  free(f->cnodes);
  free(f->croot);
  free(f->csamples);
  free(f);
}

size_t sp__forest_samples(const sp_forest *f) { return f->n; }
size_t sp__forest_features(const sp_forest *f) { return f->p; }

static sp_forest *forest_alloc(size_t n, size_t p, size_t ntrees) {
  sp_forest *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->n = n;
  f->p = p;
  f->ntrees = ntrees;
  f->root = calloc(ntrees, sizeof *f->root);
  f->samples = calloc(ntrees * n, sizeof *f->samples);
  if (!f->root || !f->samples) {
    sp__forest_free(f);
    return NULL;
  }
  return f;
}

static long add_node(sp_forest *f) {
  if (f->nnodes == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 1024;
    node *nn = realloc(f->nodes, cap * sizeof *nn);
    if (!nn) return -1;
    f->nodes = nn;
    f->cap = cap;
  }
  memset(&f->nodes[f->nnodes], 0, sizeof(node));
  return (long)f->nnodes++;
}

/* ---- fitting ------------------------------------------------------------ */

typedef struct grower {
  const double *x, *y;
  size_t p, m, min_leaf, ntry;
  uint64_t rng;
  double *sum_l, *sum_r; /* m each */
  size_t *feat;          /* p: feature order for sampling */
} grower;

/* Summed squared error of the outputs of samples idx[0..cnt) about their
 * mean, using sum_l as scratch. */
static double node_sse(const grower *g, const size_t *idx, size_t cnt) {
  double sq = 0, *s = g->sum_l;
  memset(s, 0, g->m * sizeof *s);
  for (size_t i = 0; i < cnt; i++) {
    const double *yi = g->y + idx[i] * g->m;
    for (size_t o = 0; o < g->m; o++) {
      s[o] += yi[o];
      sq += yi[o] * yi[o];
    }
  }
  double ss = 0;
  for (size_t o = 0; o < g->m; o++) ss += s[o] * s[o];
  return sq - ss / (double)cnt;
}

/* Score of splitting idx at (feature, thresh): the between-children sum of
 * squares, larger is better; -1 when a child would be too small. */
static double split_score(grower *g, const size_t *idx, size_t cnt, size_t feature, double thresh) {
  size_t nl = 0;
  memset(g->sum_l, 0, g->m * sizeof *g->sum_l);
  memset(g->sum_r, 0, g->m * sizeof *g->sum_r);
  for (size_t i = 0; i < cnt; i++) {
    const double *yi = g->y + idx[i] * g->m;
    int left = g->x[idx[i] * g->p + feature] < thresh;
    double *s = left ? g->sum_l : g->sum_r;
    nl += (size_t)left;
    for (size_t o = 0; o < g->m; o++) s[o] += yi[o];
  }
  size_t nr = cnt - nl;
  if (nl < g->min_leaf || nr < g->min_leaf) return -1;
  double a = 0, b = 0;
  for (size_t o = 0; o < g->m; o++) {
    a += g->sum_l[o] * g->sum_l[o];
    b += g->sum_r[o] * g->sum_r[o];
  }
  return a / (double)nl + b / (double)nr;
}

/* Draws a split for idx; returns 0 and sets *feature, *thresh, or -1 when
 * no candidate separates the samples. */
static int draw_split(grower *g, const size_t *idx, size_t cnt, size_t *feature, double *thresh) {
  double best = -1;
  /* Partial Fisher-Yates: the first ntry entries of feat are the sample. */
  for (size_t i = 0; i < g->ntry; i++) {
    size_t j = i + (size_t)(next_u64(&g->rng) % (g->p - i));
    size_t t = g->feat[i];
    g->feat[i] = g->feat[j];
    g->feat[j] = t;
    size_t fi = g->feat[i];
    double lo = INFINITY, hi = -INFINITY;
    for (size_t s = 0; s < cnt; s++) {
      double v = g->x[idx[s] * g->p + fi];
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    if (!(hi > lo)) continue;
    double th = lo + (hi - lo) * next_unit(&g->rng);
    if (!(th > lo)) th = hi; /* the draw hit lo exactly: every sample would go right */
    double sc = split_score(g, idx, cnt, fi, th);
    if (sc > best) {
      best = sc;
      *feature = fi;
      *thresh = th;
    }
  }
  return best >= 0 ? 0 : -1;
}

/* Moves the samples going left to the front; returns their number. */
static size_t partition(const grower *g, size_t *idx, size_t cnt, size_t feature, double thresh) {
  size_t l = 0;
  for (size_t i = 0; i < cnt; i++)
    if (g->x[idx[i] * g->p + feature] < thresh) {
      size_t t = idx[l];
      idx[l++] = idx[i];
      idx[i] = t;
    }
  return l;
}

typedef struct pending {
  size_t node, lo, cnt;
} pending;

static int grow_tree(sp_forest *f, grower *g, size_t t, pending *stack) {
  size_t *idx = f->samples + t * f->n;
  for (size_t i = 0; i < f->n; i++) idx[i] = i;
  long r = add_node(f);
  if (r < 0) return SP_ENOMEM;
  f->root[t] = (size_t)r;
  size_t top = 0;
  stack[top++] = (pending){(size_t)r, 0, f->n};
  while (top) {
    pending pd = stack[--top];
    size_t *s = idx + pd.lo, feature = 0;
    double thresh = 0;
    int leaf = pd.cnt < 2 * g->min_leaf || node_sse(g, s, pd.cnt) <= PURE_SSE * (double)pd.cnt ||
               draw_split(g, s, pd.cnt, &feature, &thresh);
    if (leaf) {
      f->nodes[pd.node] = (node){-1, 0, t * f->n + pd.lo, pd.cnt};
      continue;
    }
    size_t nl = partition(g, s, pd.cnt, feature, thresh);
    assert(nl >= g->min_leaf && pd.cnt - nl >= g->min_leaf);
    long a = add_node(f), b = a < 0 ? -1 : add_node(f);
    if (b < 0) return SP_ENOMEM;
    f->nodes[pd.node] = (node){(long)feature, thresh, (size_t)a, (size_t)b};
    /* Each node is pushed once, so the stack never holds more than n. */
    stack[top++] = (pending){(size_t)b, pd.lo + nl, pd.cnt - nl};
    stack[top++] = (pending){(size_t)a, pd.lo, nl};
  }
  return SP_OK;
}

int sp__forest_fit(const double *x, size_t n, size_t p, const double *y, size_t m,
                   const sp_forest_params *fp, sp_forest **out) {
  *out = NULL;
  if (!n || !p || !m || !fp->trees || !fp->min_leaf) return SP_EINVAL;
  sp_forest *f = forest_alloc(n, p, fp->trees);
  grower g = {.x = x, .y = y, .p = p, .m = m, .min_leaf = fp->min_leaf};
  double share = fp->max_features > 0 && fp->max_features <= 1 ? fp->max_features : 1;
  g.ntry = (size_t)ceil(share * (double)p);
  g.rng = (uint64_t)fp->seed * 0x2545f4914f6cdd1dULL + 1;
  g.sum_l = malloc(2 * m * sizeof *g.sum_l);
  g.sum_r = g.sum_l ? g.sum_l + m : NULL;
  g.feat = malloc(p * sizeof *g.feat);
  pending *stack = malloc((n + 1) * sizeof *stack);
  int st = f && g.sum_l && g.feat && stack ? SP_OK : SP_ENOMEM;
  for (size_t i = 0; !st && i < p; i++) g.feat[i] = i;
  for (size_t t = 0; !st && t < fp->trees; t++) st = grow_tree(f, &g, t, stack);
  if (!st) st = compact(f) ? SP_ENOMEM : SP_OK;
  free(g.sum_l);
  free(g.feat);
  free(stack);
  if (st) {
    sp__forest_free(f);
    return st;
  }
  *out = f;
  return SP_OK;
}

/* ---- weights -------------------------------------------------------------- */

/* Scratch of compact(): pending nodes with the slot whose right child each
 * becomes, and the nodes already copied. */
typedef struct walker {
  size_t *stack;
  uint32_t *fix;
  unsigned char *seen;
} walker;

/* Copies the tree from node r on into cnodes (depth-first, left child
 * first) and its leaves' samples into csamples; *at and *sat are the next
 * free slots.  -1 when a node is reached twice (a damaged file). */
static int compact_tree(sp_forest *f, size_t r, uint32_t *at, uint32_t *sat, walker *wk) {
  size_t top = 0;
  wk->stack[top] = r;
  wk->fix[top++] = UINT32_MAX;
  while (top) {
    top--;
    size_t i = wk->stack[top];
    if (wk->seen[i]) return -1;
    wk->seen[i] = 1;
    const node *nd = &f->nodes[i];
    uint32_t here = (*at)++;
    if (wk->fix[top] != UINT32_MAX) f->cnodes[wk->fix[top]].right = here;
    cnode *c = &f->cnodes[here];
    if (nd->feature < 0) {
      *c = (cnode){.u.count = (uint32_t)nd->b, .right = *sat, .feature = -1};
      for (size_t k = 0; k < nd->b; k++) f->csamples[(*sat)++] = (uint32_t)f->samples[nd->a + k];
      continue;
    }
    *c = (cnode){.u.thresh = nd->thresh, .right = 0, .feature = (int32_t)nd->feature};
    /* Every node is pushed by its parent and copied once, so at most
     * nnodes are ever pending. */
    wk->stack[top] = nd->b;
    wk->fix[top++] = here;
    wk->stack[top] = nd->a;
    wk->fix[top++] = UINT32_MAX;
  }
  return 0;
}

/* Builds the prediction path's compact copy of the trees: SP_ENOMEM, or
 * SP_EMODEL when the nodes do not form trees. */
static int compact(sp_forest *f) {
  if (f->nnodes >= UINT32_MAX / 2 || f->ntrees * f->n >= UINT32_MAX) return SP_EMODEL;
  f->cnodes = malloc(f->nnodes * sizeof *f->cnodes);
  f->croot = malloc(f->ntrees * sizeof *f->croot);
  f->csamples = malloc(f->ntrees * f->n * sizeof *f->csamples);
  walker wk = {malloc((f->nnodes + 2) * sizeof *wk.stack), malloc((f->nnodes + 2) * sizeof *wk.fix),
               calloc(f->nnodes, 1)};
  int st =
      f->cnodes && f->croot && f->csamples && wk.stack && wk.fix && wk.seen ? SP_OK : SP_ENOMEM;
  uint32_t at = 0, sat = 0;
  for (size_t t = 0; t < f->ntrees && !st; t++) {
    f->croot[t] = at;
    if (compact_tree(f, f->root[t], &at, &sat, &wk)) st = SP_EMODEL;
  }
  free(wk.stack);
  free(wk.fix);
  free(wk.seen);
  return st;
}

/* Trees walked side by side: their nodes' cache misses overlap. */
#define LANES 8

void sp__forest_weights(const sp_forest *f, const double *xq, double *w) {
  memset(w, 0, f->n * sizeof *w);
  const double scale = 1.0 / (double)f->ntrees;
  for (size_t t0 = 0; t0 < f->ntrees; t0 += LANES) {
    const size_t lanes = f->ntrees - t0 < LANES ? f->ntrees - t0 : LANES;
    const cnode *nd[LANES];
    for (size_t l = 0; l < lanes; l++) nd[l] = &f->cnodes[f->croot[t0 + l]];
    for (int inner = 1; inner;) {
      inner = 0;
      for (size_t l = 0; l < lanes; l++) {
        const cnode *c = nd[l];
        if (c->feature < 0) continue;
        nd[l] = xq[c->feature] < c->u.thresh ? c + 1 : &f->cnodes[c->right];
        inner = 1;
      }
    }
    for (size_t l = 0; l < lanes; l++) {
      const uint32_t *smp = f->csamples + nd[l]->right;
      double share = scale / (double)nd[l]->u.count;
      for (uint32_t i = 0; i < nd[l]->u.count; i++) w[smp[i]] += share;
    }
  }
}

/* ---- text form ------------------------------------------------------------ */

int sp__forest_save(const sp_forest *f, FILE *fp) {
  fprintf(fp, "%s samples %zu features %zu trees %zu nodes %zu\n", FOREST_MAGIC, f->n, f->p,
          f->ntrees, f->nnodes);
  for (size_t t = 0; t < f->ntrees; t++) fprintf(fp, "%s%zu", t ? " " : "roots ", f->root[t]);
  fprintf(fp, "\n");
  for (size_t i = 0; i < f->nnodes; i++) {
    const node *nd = &f->nodes[i];
    if (nd->feature >= 0) {
      fprintf(fp, "s %ld %.17g %zu %zu\n", nd->feature, nd->thresh, nd->a, nd->b);
      continue;
    }
    fprintf(fp, "l %zu", nd->b);
    for (size_t k = 0; k < nd->b; k++) fprintf(fp, " %zu", f->samples[nd->a + k]);
    fprintf(fp, "\n");
  }
  return ferror(fp) ? SP_EIO : SP_OK;
}

/* Reads one line into a growing buffer; 0 at end of file. */
static int read_line(FILE *fp, char **buf, size_t *cap) { return getline(buf, cap, fp) > 0; }

static int parse_size(char **p, size_t *v) {
  char *end;
  errno = 0;
  unsigned long long u = strtoull(*p, &end, 10);
  if (end == *p || errno || **p == '-') return -1;
  *v = (size_t)u;
  *p = end;
  return 0;
}

/* One leaf line: its samples go to the tree's next free slots. */
static int load_leaf(sp_forest *f, char *s, size_t tree, size_t *used, node *nd,
                     unsigned char *seen) {
  size_t cnt;
  if (parse_size(&s, &cnt) || !cnt || cnt > f->n - *used) return -1;
  nd->feature = -1;
  nd->a = tree * f->n + *used;
  nd->b = cnt;
  for (size_t k = 0; k < cnt; k++) {
    size_t v;
    if (parse_size(&s, &v) || v >= f->n || seen[v]) return -1;
    seen[v] = 1;
    f->samples[nd->a + k] = v;
  }
  *used += cnt;
  return 0;
}

static int load_split(const sp_forest *f, char *s, size_t i, size_t nnodes, node *nd) {
  char *end;
  long feat = strtol(s, &end, 10);
  if (end == s || feat < 0 || (size_t)feat >= f->p) return -1;
  s = end;
  nd->thresh = strtod(s, &end);
  if (end == s || !isfinite(nd->thresh)) return -1;
  s = end;
  nd->feature = feat;
  /* Children always follow their parent: this rules out cycles. */
  if (parse_size(&s, &nd->a) || parse_size(&s, &nd->b)) return -1;
  return nd->a > i && nd->b > i && nd->a < nnodes && nd->b < nnodes ? 0 : -1;
}

static int load_header(FILE *fp, char **buf, size_t *cap, sp_forest **out) {
  size_t n, p, t, nn;
  if (!read_line(fp, buf, cap)) return -1;
  if (sscanf(*buf, FOREST_MAGIC " samples %zu features %zu trees %zu nodes %zu", &n, &p, &t, &nn) !=
      4)
    return -1;
  /* Bounds that keep the allocations sane for a damaged file. */
  if (!n || !p || !t || n > 1000000 || p > 100000 || t > 100000 || nn > 100000000 || nn < t)
    return -1;
  sp_forest *f = forest_alloc(n, p, t);
  if (!f || !(f->nodes = calloc(nn, sizeof *f->nodes))) {
    sp__forest_free(f);
    return -2;
  }
  f->nnodes = f->cap = nn;
  *out = f;
  return 0;
}

static int load_roots(sp_forest *f, char *s) {
  if (strncmp(s, "roots ", 6)) return -1;
  s += 6;
  for (size_t t = 0; t < f->ntrees; t++)
    if (parse_size(&s, &f->root[t]) || f->root[t] >= f->nnodes) return -1;
  return 0;
}

/* Each tree's leaves must list every sample exactly once. */
static int load_nodes(FILE *fp, char **buf, size_t *cap, sp_forest *f, long *line) {
  unsigned char *seen = calloc(f->n, 1);
  if (!seen) return -2;
  size_t tree = 0, used = 0;
  int st = 0;
  for (size_t i = 0; i < f->nnodes && !st; i++, ++*line) {
    if (tree + 1 < f->ntrees && i == f->root[tree + 1]) {
      if (used != f->n) st = -1;
      tree++;
      used = 0;
      memset(seen, 0, f->n);
    }
    if (st) break;
    if (!read_line(fp, buf, cap) || (*buf)[0] == '\0' || (*buf)[1] != ' ')
      st = -1;
    else if ((*buf)[0] == 'l')
      st = load_leaf(f, *buf + 2, tree, &used, &f->nodes[i], seen);
    else if ((*buf)[0] == 's')
      st = load_split(f, *buf + 2, i, f->nnodes, &f->nodes[i]);
    else
      st = -1;
  }
  if (!st && used != f->n) st = -1;
  free(seen);
  return st;
}

int sp__forest_load(FILE *fp, long first_line, long *line, sp_forest **out) {
  char *buf = NULL;
  size_t cap = 0;
  sp_forest *f = NULL;
  *out = NULL;
  *line = first_line;
  int st = load_header(fp, &buf, &cap, &f);
  if (!st) {
    ++*line;
    st = read_line(fp, &buf, &cap) ? load_roots(f, buf) : -1;
  }
  if (!st) {
    ++*line;
    /* Roots must increase from 0 so that each tree's nodes are contiguous. */
    for (size_t t = 0; t < f->ntrees && !st; t++)
      if (t ? f->root[t] <= f->root[t - 1] : f->root[0] != 0) st = -1;
    if (!st) st = load_nodes(fp, &buf, &cap, f, line);
  }
  if (!st) {
    int c = compact(f);
    st = c == SP_ENOMEM ? -2 : c ? -1 : 0;
  }
  free(buf);
  if (st) {
    sp__forest_free(f);
    return st == -2 ? SP_ENOMEM : SP_EMODEL;
  }
  *out = f;
  return SP_OK;
}
