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
  fp->trees = 100;
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

/* A drawn split of one node and its score (split_score). */
typedef struct candidate {
  size_t feature;
  double thresh, score;
  double bound;        /* how far score may be from the exact one (estimate_all) */
  size_t nl;           /* samples going left */
  uint64_t hash;       /* of the samples going left (sort_samples) */
  unsigned char *goes; /* 1 for each sample of the node going left */
  long same;           /* an earlier candidate splitting the node alike, or -1 */
} candidate;

typedef struct grower {
  const double *x, *y;
  size_t n, p, m, min_leaf, ntry;
  uint64_t rng;
  size_t *feat;        /* p: feature order for sampling */
  candidate *cand;     /* ntry */
  candidate **todo;    /* ntry: the candidates score_all scores */
  const double **rows; /* ntry * n: each candidate's samples' outputs */
  double *sums;        /* max(m, 34 * ntry) */
  double *total;       /* m: the node's outputs summed (node_pure) */
  double *sqnorm;      /* n: each sample's sum of squared outputs, in any order */
  double *absmax;      /* n: each sample's largest output in magnitude */
  unsigned char *goes; /* ntry * n: each candidate's candidate.goes */
  uint64_t *tag;       /* n: a random number per sample (sort_samples) */
} grower;

/* Columns o..o + w of the sums of nrows rows, w = 16, 4 or 1, each added
 * in row order (as a loop over the rows adds it); the w sums stay in
 * registers (SIMD where there is some) while the rows go by. */
static void sum_block(const double *const *rows, size_t nrows, size_t o, size_t w, double *sum) {
  if (w == 16) {
    double acc[16] = {0};
    for (size_t r = 0; r < nrows; r++)
#pragma GCC unroll 16
      for (int k = 0; k < 16; k++) acc[k] += rows[r][o + k];
    memcpy(sum, acc, sizeof acc);
  } else if (w == 4) {
    double acc[4] = {0};
    for (size_t r = 0; r < nrows; r++)
#pragma GCC unroll 4
      for (int k = 0; k < 4; k++) acc[k] += rows[r][o + k];
    memcpy(sum, acc, sizeof acc);
  } else {
    double acc = 0;
    for (size_t r = 0; r < nrows; r++) acc += rows[r][o];
    *sum = acc;
  }
}

/* The width of the block of columns from o on (sum_block). */
static size_t block_width(size_t o, size_t m) { return m - o >= 16 ? 16 : m - o >= 4 ? 4 : 1; }

/* Columnwise sums of the nrows rows of m outputs (sum_block). */
static void sum_rows(const double *const *rows, size_t nrows, size_t m, double *sum) {
  for (size_t o = 0, w; o < m; o += w) {
    w = block_width(o, m);
    sum_block(rows, nrows, o, w, sum + o);
  }
}

/* The sum of four lanes of partial sums. */
static double lanes(const double *v) { return (v[0] + v[1]) + (v[2] + v[3]); }

/* Summed squared error of the outputs of samples idx[0..cnt) about their
 * mean, with every addition in the order of a loop over the samples and,
 * within one, over the outputs (the order the forests saved so far were
 * grown with). */
static double node_sse(const grower *g, const size_t *idx, size_t cnt) {
  double sq = 0, *s = g->sums;
  for (size_t i = 0; i < cnt; i++) g->rows[i] = g->y + idx[i] * g->m;
  sum_rows(g->rows, cnt, g->m, s);
  for (size_t i = 0; i < cnt; i++)
    for (size_t o = 0; o < g->m; o++) sq += g->rows[i][o] * g->rows[i][o];
  double ss = 0;
  for (size_t o = 0; o < g->m; o++) ss += s[o] * s[o];
  return sq - ss / (double)cnt;
}

/* Whether the node's outputs vary too little to split (node_sse at most
 * PURE_SSE per sample).  The sum of squares is first taken as the sum of
 * the samples' own (sqnorm), which is faster than node_sse's one chain of
 * additions but rounds differently: each is within gamma_N of the exact
 * sum of N = cnt m + cnt + m squares (gamma_N = N u / (1 - N u), u the
 * unit roundoff), so within 4 N u of each other.  Only when that leaves the
 * answer open is node_sse's own order used, so the answer is always
 * node_sse's.  Leaves the node's sum of outputs (in sample order) in
 * g->total. */
static int node_pure(const grower *g, const size_t *idx, size_t cnt) {
  const size_t m = g->m;
  double sq = 0, ss = 0, *s = g->total;
  for (size_t i = 0; i < cnt; i++) {
    g->rows[i] = g->y + idx[i] * m;
    sq += g->sqnorm[idx[i]];
  }
  sum_rows(g->rows, cnt, m, s);
  for (size_t o = 0; o < m; o++) ss += s[o] * s[o];
  const double limit = PURE_SSE * (double)cnt, sse = sq - ss / (double)cnt;
  const double slack = 4 * ((double)(cnt * m + cnt + m) + 2) * 0x1p-53 * sq;
  if (sse > limit + slack) return 0;
  if (sse < limit - slack) return 1;
  return node_sse(g, idx, cnt) <= limit;
}

/* sqnorm, absmax and tag of every sample. */
static void sample_norms(grower *g, size_t n) {
  uint64_t state = 0x5eed;
  for (size_t i = 0; i < n; i++) {
    g->tag[i] = next_u64(&state);
    const double *yi = g->y + i * g->m;
    double part[4] = {0}, big = 0;
    size_t o = 0;
    for (; o + 4 <= g->m; o += 4)
#pragma GCC unroll 4
      for (int k = 0; k < 4; k++) part[k] += yi[o + k] * yi[o + k];
    for (; o < g->m; o++) part[0] += yi[o] * yi[o];
    for (o = 0; o < g->m; o++) big = fmax(big, fabs(yi[o]));
    g->sqnorm[i] = lanes(part);
    g->absmax[i] = big;
  }
}

/* Draws the node's candidate splits: for each of ntry features drawn
 * without replacement (a partial Fisher-Yates shuffle of feat), a
 * threshold uniform between the samples' least and greatest value, when
 * they differ.  Returns how many; the random draws are those of a loop
 * that scores each candidate as it goes. */
static size_t draw_candidates(grower *g, const size_t *idx, size_t cnt) {
  size_t nc = 0;
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
    g->cand[nc] = (candidate){.feature = fi, .thresh = th, .goes = g->goes + nc * g->n, .same = -1};
    nc++;
  }
  return nc;
}

/* Which samples candidate c sends left, how many, and a hash of which:
 * the sum of their tags, the same for the same samples in any order. */
static void sort_samples(grower *g, const size_t *idx, size_t cnt, candidate *c) {
  c->nl = 0;
  c->hash = 0;
  for (size_t i = 0; i < cnt; i++) {
    unsigned char left = g->x[idx[i] * g->p + c->feature] < c->thresh;
    c->goes[i] = left;
    c->nl += left;
    c->hash += g->tag[idx[i]] & (0 - (uint64_t)left);
  }
}

/* Whether candidates a and b split the node's cnt samples (whose tags sum
 * to all) alike: the same samples left, or each the other's right (the
 * same two sums in the same order, so the same score: its two terms are
 * added the other way round, which gives the same sum). */
static int alike(const candidate *a, const candidate *b, size_t cnt, uint64_t all) {
  if (a->hash == b->hash && a->nl == b->nl) return !memcmp(a->goes, b->goes, cnt);
  if (a->hash != all - b->hash || a->nl != cnt - b->nl) return 0;
  for (size_t i = 0; i < cnt; i++)
    if (a->goes[i] == b->goes[i]) return 0;
  return 1;
}

/* rows[0..nl): the outputs of the samples candidate c sends left, in
 * sample order; rows[nl..cnt): those it sends right. */
static void child_rows(grower *g, const size_t *idx, size_t cnt, const candidate *c,
                       const double **rows) {
  size_t l = 0, r = c->nl;
  for (size_t i = 0; i < cnt; i++) rows[c->goes[i] ? l++ : r++] = g->y + idx[i] * g->m;
}

/* a[k] += s[16 k + j]^2 for j = 0..w in turn, for each k < n: one chain of
 * additions per k, eight of them side by side in registers. */
static void add_squares(double *a, const double *s, size_t n, size_t w) {
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    double t[8];
    memcpy(t, a + k, sizeof t);
    for (size_t j = 0; j < w; j++)
#pragma GCC unroll 8
      for (int q = 0; q < 8; q++) t[q] += s[16 * (k + q) + j] * s[16 * (k + q) + j];
    memcpy(a + k, t, sizeof t);
  }
  for (; k < n; k++)
    for (size_t j = 0; j < w; j++) a[k] += s[16 * k + j] * s[16 * k + j];
}

/* Scores of candidates c[0..nc): the between-children sum of squares,
 * sum_o left_o^2 / nl + sum_o right_o^2 / nr, each child's sum left_o and
 * the sums over o added in order, as a loop over the samples and then over
 * the outputs adds them.  The outputs are taken a block of columns at a
 * time for every candidate, so that the block of the node's outputs stays
 * in the cache while the candidates go by. */
static void score_all(grower *g, const size_t *idx, size_t cnt, candidate **c, size_t nc) {
  const size_t m = g->m;
  double *a = g->sums, *sum = g->sums + 2 * g->ntry; /* 2 nc sums, then 2 nc blocks of 16 */
  for (size_t k = 0; k < nc; k++) {
    child_rows(g, idx, cnt, c[k], g->rows + k * cnt);
    a[2 * k] = a[2 * k + 1] = 0;
  }
  for (size_t o = 0, w; o < m; o += w) {
    w = block_width(o, m);
    for (size_t k = 0; k < nc; k++) {
      const double *const *rows = g->rows + k * cnt;
      sum_block(rows, c[k]->nl, o, w, sum + 32 * k);
      sum_block(rows + c[k]->nl, cnt - c[k]->nl, o, w, sum + 32 * k + 16);
    }
    add_squares(a, sum, 2 * nc, w);
  }
  for (size_t k = 0; k < nc; k++)
    c[k]->score = a[2 * k] / (double)c[k]->nl + a[2 * k + 1] / (double)(cnt - c[k]->nl);
}

/* qx += x^2 and qy += (t - x)^2 for the w = 16, 4 or 1 values of a block,
 * in eight lanes (SIMD where there is some). */
static void add_estimate(const double *x, const double *t, size_t w, double *qx, double *qy) {
  if (w == 16) {
    for (size_t j = 0; j < 16; j += 8)
#pragma GCC unroll 8
      for (size_t l = 0; l < 8; l++) {
        const double y = t[j + l] - x[j + l];
        qx[l] += x[j + l] * x[j + l];
        qy[l] += y * y;
      }
    return;
  }
  for (size_t j = 0; j < w; j++) {
    const double y = t[j] - x[j];
    qx[j] += x[j] * x[j];
    qy[j] += y * y;
  }
}

/* An estimate of each candidate's score and a bound on how far the score
 * that score_all computes can be from it (score and bound).  Only the
 * smaller child's outputs are summed (in sample order, as score_all sums
 * them); the other child's sums are the node's total less those, and the
 * sums of squares are added up in any order.
 *
 * The bound, u being the unit roundoff and gamma_N = N u / (1 - N u): any
 * sum of the node's outputs in any order is within gamma_cnt R of the
 * exact one, R the sum of the samples' absmax, so y_o = total_o - x_o is
 * within d_o = 4 gamma_cnt R + 2 u |y_o| of score_all's sum of the larger
 * child, and the squares differ by at most d_o (2 |y_o| + d_o).  Summed
 * over o, with Cauchy-Schwarz for the cross term: dev = 2 gc (1 + 2u)
 * sqrt(A Y) + 4 u (1 + u) Y + gc^2 A, gc = 4 gamma_cnt, A = m R^2, Y =
 * sum_o y_o^2.  Each sum of m squares is moreover within gamma_(m + 2) of
 * its exact value in any order.  The bound is twice the sum of these
 * terms, so that the rounding of the bound itself cannot matter. */
static void estimate_all(grower *g, const size_t *idx, size_t cnt, candidate **c, size_t nc) {
  const size_t m = g->m;
  const double u = 0x1p-53, gc = 4 * (double)cnt * u / (1 - (double)cnt * u);
  const double gm = (double)(m + 2) * u / (1 - (double)(m + 2) * u);
  double sx[16], r = 0;
  for (size_t i = 0; i < cnt; i++) r += g->absmax[idx[i]];
  const double big = (double)m * r * r * (1 + 2 * gc);
  for (size_t k = 0; k < nc; k++) {
    const double **rows = g->rows + k * cnt;
    child_rows(g, idx, cnt, c[k], rows);
    const size_t nl = c[k]->nl, nr = cnt - nl, nx = nl <= nr ? nl : nr;
    const double *const *xrows = nl <= nr ? rows : rows + nl;
    double qx[8] = {0}, qy[8] = {0}; /* eight lanes each, added up in any order */
    for (size_t o = 0, w; o < m; o += w) {
      w = block_width(o, m);
      sum_block(xrows, nx, o, w, sx);
      add_estimate(sx, g->total + o, w, qx, qy);
    }
    const double ny = (double)(cnt - nx), sx2 = lanes(qx) + lanes(qx + 4);
    const double sy2 = lanes(qy) + lanes(qy + 4);
    const double sc = sx2 / (double)nx + sy2 / ny, y2 = sy2 * (1 + 2 * gm);
    const double dev = 2 * gc * (1 + 2 * u) * sqrt(big * y2) + 4 * u * (1 + u) * y2 + gc * gc * big;
    c[k]->score = sc;
    c[k]->bound = 2 * ((dev + gm * (sy2 + dev)) / ny + gm * sx2 / (double)nx + 4 * u * sc);
  }
}

/* Keeps in c[0..) the candidates that can have the highest score (an
 * estimate within its bound of the best estimate less its bound), in
 * their order, and returns how many: the split that the scores of
 * score_all choose is among them.  The others get a score of -infinity,
 * below any split's; when one is left, it is that split, whatever its
 * exact score.  Any estimate that is not finite keeps every candidate. */
static size_t contenders(grower *g, const size_t *idx, size_t cnt, candidate **c, size_t nc) {
  estimate_all(g, idx, cnt, c, nc);
  double low = -INFINITY;
  for (size_t k = 0; k < nc; k++) {
    if (!isfinite(c[k]->score) || !isfinite(c[k]->bound)) return nc;
    low = fmax(low, c[k]->score - c[k]->bound);
  }
  size_t kept = 0;
  for (size_t k = 0; k < nc; k++) {
    if (c[k]->score + c[k]->bound >= low) {
      c[kept++] = c[k];
      c[k]->score = 0;
    } else
      c[k]->score = -INFINITY;
  }
  return kept;
}

/* Scores every candidate: -1 when a child would have fewer than min_leaf
 * samples; a candidate that splits the node as an earlier one does (alike)
 * has its score; of the others, those that can win (contenders) by
 * score_all when there are two or more, the rest below any split's.
 * draw_split so chooses what it would with every score. */
static void score_candidates(grower *g, const size_t *idx, size_t cnt, size_t nc) {
  candidate **todo = g->todo;
  size_t ntodo = 0;
  uint64_t all = 0;
  for (size_t i = 0; i < cnt; i++) all += g->tag[idx[i]];
  for (size_t k = 0; k < nc; k++) {
    candidate *c = &g->cand[k];
    sort_samples(g, idx, cnt, c);
    if (c->nl < g->min_leaf || cnt - c->nl < g->min_leaf) {
      c->score = -1;
      continue;
    }
    for (size_t e = 0; e < k && c->same < 0; e++)
      if (g->cand[e].score >= 0 && g->cand[e].same < 0 && alike(&g->cand[e], c, cnt, all))
        c->same = (long)e;
    if (c->same >= 0) continue;
    c->score = 0; /* not -1: a candidate its twins may match */
    todo[ntodo++] = c;
  }
  if (ntodo > 1) ntodo = contenders(g, idx, cnt, todo, ntodo);
  if (ntodo > 1) score_all(g, idx, cnt, todo, ntodo);
  for (size_t k = 0; k < nc; k++)
    if (g->cand[k].same >= 0) g->cand[k].score = g->cand[g->cand[k].same].score;
}

/* Draws a split for idx; returns 0 and sets *feature, *thresh, or -1 when
 * no candidate separates the samples.  The first of the best-scoring
 * candidates wins. */
static int draw_split(grower *g, const size_t *idx, size_t cnt, size_t *feature, double *thresh) {
  double best = -1;
  size_t nc = draw_candidates(g, idx, cnt);
  score_candidates(g, idx, cnt, nc);
  for (size_t k = 0; k < nc; k++)
    if (g->cand[k].score > best) {
      best = g->cand[k].score;
      *feature = g->cand[k].feature;
      *thresh = g->cand[k].thresh;
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
    int leaf = pd.cnt < 2 * g->min_leaf || node_pure(g, s, pd.cnt) ||
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
  grower g = {.x = x, .y = y, .n = n, .p = p, .m = m, .min_leaf = fp->min_leaf};
  double share = fp->max_features > 0 && fp->max_features <= 1 ? fp->max_features : 1;
  g.ntry = (size_t)ceil(share * (double)p);
  g.rng = (uint64_t)fp->seed * 0x2545f4914f6cdd1dULL + 1;
  g.feat = malloc(p * sizeof *g.feat);
  g.cand = malloc(g.ntry * sizeof *g.cand);
  g.todo = malloc(g.ntry * sizeof *g.todo);
  g.rows = malloc(g.ntry * n * sizeof *g.rows);
  g.sums = malloc((m > 34 * g.ntry ? m : 34 * g.ntry) * sizeof *g.sums);
  g.total = malloc(m * sizeof *g.total);
  g.sqnorm = malloc(2 * n * sizeof *g.sqnorm);
  g.absmax = g.sqnorm ? g.sqnorm + n : NULL;
  g.goes = malloc(g.ntry * n);
  g.tag = malloc(n * sizeof *g.tag);
  pending *stack = malloc((n + 1) * sizeof *stack);
  int st = f && g.feat && g.cand && g.todo && g.rows && g.sums && g.total && g.sqnorm && g.goes &&
                   g.tag && stack
               ? SP_OK
               : SP_ENOMEM;
  if (!st) sample_norms(&g, n);
  for (size_t i = 0; !st && i < p; i++) g.feat[i] = i;
  for (size_t t = 0; !st && t < fp->trees; t++) st = grow_tree(f, &g, t, stack);
  if (!st) st = compact(f) ? SP_ENOMEM : SP_OK;
  free(g.feat);
  free(g.cand);
  free(g.todo);
  free(g.rows);
  free(g.sums);
  free(g.total);
  free(g.sqnorm);
  free(g.goes);
  free(g.tag);
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

/* One step from inner node c toward xq: its left child (which follows it)
 * or its right one. */
static const cnode *step(const cnode *cn, const cnode *c, const double *xq) {
  return xq[c->feature] < c->u.thresh ? c + 1 : &cn[c->right];
}

/* The leaf of one tree for xq, from node c on. */
static const cnode *leaf_of(const cnode *cn, const cnode *c, const double *xq) {
  while (c->feature >= 0) c = step(cn, c, xq);
  return c;
}

/* Adds the share of leaf c to the weights of its samples. */
static void add_leaf(const sp_forest *f, const cnode *c, double scale, double *w) {
  const uint32_t *smp = f->csamples + c->right;
  double share = scale / (double)c->u.count;
  for (uint32_t i = 0; i < c->u.count; i++) w[smp[i]] += share;
}

/* Eight trees at a time go down side by side (their node loads overlap;
 * eight variables, which stay in registers where an array would not) while
 * none has reached its leaf, then each the rest of its way; the leaves are
 * added in tree order, as one tree after another adds them. */
void sp__forest_weights(const sp_forest *f, const double *xq, double *w) {
  memset(w, 0, f->n * sizeof *w);
  const double scale = 1.0 / (double)f->ntrees;
  const cnode *cn = f->cnodes;
  const uint32_t *root = f->croot;
  size_t t = 0;
  for (; t + 8 <= f->ntrees; t += 8) {
    const cnode *a = &cn[root[t]], *b = &cn[root[t + 1]], *c = &cn[root[t + 2]];
    const cnode *d = &cn[root[t + 3]], *e = &cn[root[t + 4]], *g = &cn[root[t + 5]];
    const cnode *h = &cn[root[t + 6]], *k = &cn[root[t + 7]];
    while (a->feature >= 0 && b->feature >= 0 && c->feature >= 0 && d->feature >= 0 &&
           e->feature >= 0 && g->feature >= 0 && h->feature >= 0 && k->feature >= 0) {
      a = step(cn, a, xq), b = step(cn, b, xq), c = step(cn, c, xq), d = step(cn, d, xq);
      e = step(cn, e, xq), g = step(cn, g, xq), h = step(cn, h, xq), k = step(cn, k, xq);
    }
    const cnode *lane[8] = {a, b, c, d, e, g, h, k};
    for (int l = 0; l < 8; l++) add_leaf(f, leaf_of(cn, lane[l], xq), scale, w);
  }
  for (; t < f->ntrees; t++) add_leaf(f, leaf_of(cn, &cn[root[t]], xq), scale, w);
}

double sp__forest_mean(const sp_forest *f, const double *xq, const double *y) {
  const cnode *cn = f->cnodes;
  double sum = 0;
  for (size_t t = 0; t < f->ntrees; t++) {
    const cnode *c = leaf_of(cn, &cn[f->croot[t]], xq);
    const uint32_t *smp = f->csamples + c->right;
    double leaf = 0;
    for (uint32_t i = 0; i < c->u.count; i++) leaf += y[smp[i]];
    sum += leaf / (double)c->u.count;
  }
  return sum / (double)f->ntrees;
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
    /* load_nodes leaves *line one past the last node; on success it is
     * the last line read, as forest.h says, so that what follows the
     * forest is blamed on its own line. */
    if (!st) --*line;
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
