/* SPDX-License-Identifier: GPL-3.0-or-later */
/* irregular.c: host half of irregular.cl (exact results). */
#include "suite.h"

#include <stdlib.h>

enum { IR_GATHER_DRAM, IR_GATHER_L2, IR_SCATTER, IR_BFS_PULL, IR_BFS_PUSH };

#define BFS_DEGREE 8
#define UNVISITED_PUSH 0x7FFFFFFF

/* Fisher-Yates shuffle of 0..n-1. */
static void permutation(int *p, size_t n, krng *r) {
  for (size_t i = 0; i < n; ++i) p[i] = (int)i;
  for (size_t i = n - 1; i > 0; --i) {
    size_t j = krng_below(r, (uint32_t)(i + 1));
    int t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
}

static int setup_move(kjob *job, const kdesc *d, size_t n, size_t table) {
  const int scatter = d->param == IR_SCATTER;
  krng r;
  kjob_init(job, "irregular.cl", scatter ? "scatter" : "gather");
  int in = kjob_buf(job, (scatter ? n : table) * 4, KB_IN);
  int idx = kjob_buf(job, n * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  float *h = job->buf[in].host;
  int *ix = job->buf[idx].host;
  float *ref = kjob_ref(job, out, KC_F32, n, 0.0, 0.0);
  if (!h || !ix || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(h, scatter ? n : table, &r, -1.0, 1.0);
  if (scatter)
    permutation(ix, n, &r);
  else
    for (size_t i = 0; i < n; ++i) ix[i] = (int)krng_below(&r, (uint32_t)table);
  for (size_t i = 0; i < n; ++i) {
    if (scatter)
      ref[ix[i]] = h[i];
    else
      ref[i] = h[ix[i]];
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, idx);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  return 0;
}

/* A random directed graph (BFS_DEGREE out-edges per vertex, symmetric
 * enough for BFS from 0 to reach nearly everything) and its BFS levels. */
typedef struct graph {
  int *rowptr, *adj, *level;
  int cur; /* the level with the largest frontier */
  size_t nfront;
} graph;

static int bfs_levels(graph *g, size_t n) {
  int *queue = malloc(n * sizeof *queue);
  size_t *count = calloc(n + 1, sizeof *count);
  if (!queue || !count) {
    free(queue);
    free(count);
    return -1;
  }
  for (size_t i = 0; i < n; ++i) g->level[i] = -1;
  size_t head = 0, tail = 0;
  g->level[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    int v = queue[head++];
    count[g->level[v]]++;
    for (int j = g->rowptr[v]; j < g->rowptr[v + 1]; ++j)
      if (g->level[g->adj[j]] < 0) {
        g->level[g->adj[j]] = g->level[v] + 1;
        queue[tail++] = g->adj[j];
      }
  }
  g->cur = 0;
  for (size_t l = 0; l <= n; ++l)
    if (count[l] > count[g->cur]) g->cur = (int)l;
  g->nfront = count[g->cur];
  free(queue);
  free(count);
  return 0;
}

static int make_graph(kjob *job, const kdesc *d, size_t n, int *rp, int *adj, graph *g) {
  krng r;
  krng_seed(&r, d->name, 0);
  g->rowptr = job->buf[*rp].host;
  g->adj = job->buf[*adj].host;
  g->level = malloc(n * sizeof *g->level);
  if (!g->rowptr || !g->adj || !g->level) return -1;
  for (size_t v = 0; v <= n; ++v) g->rowptr[v] = (int)(v * BFS_DEGREE);
  for (size_t e = 0; e < n * BFS_DEGREE; ++e) g->adj[e] = (int)krng_below(&r, (uint32_t)n);
  return bfs_levels(g, n);
}

static int setup_pull(kjob *job, const kdesc *d, size_t n) {
  graph g = {NULL, NULL, NULL, 0, 0};
  kjob_init(job, "irregular.cl", "bfs_pull");
  int rp = kjob_buf(job, (n + 1) * 4, KB_IN);
  int adj = kjob_buf(job, n * BFS_DEGREE * 4, KB_IN);
  int lvl = kjob_buf(job, n * 4, KB_IN), next = kjob_buf(job, n * 4, KB_OUT);
  int *hl = job->buf[lvl].host;
  uint32_t *ref = kjob_ref(job, next, KC_U32, n, 0.0, 0.0);
  int rc = !hl || !ref ? -1 : make_graph(job, d, n, &rp, &adj, &g);
  if (rc == 0) {
    for (size_t v = 0; v < n; ++v) hl[v] = g.level[v] >= 0 && g.level[v] <= g.cur ? g.level[v] : -1;
    /* Out-edges are followed backwards here, so the new level is not the
     * BFS level of a directed graph: apply the kernel's rule itself. */
    for (size_t v = 0; v < n; ++v) {
      int lv = hl[v];
      for (int j = g.rowptr[v]; lv < 0 && j < g.rowptr[v + 1]; ++j)
        if (hl[g.adj[j]] == g.cur) lv = g.cur + 1;
      ref[v] = (uint32_t)lv;
    }
    kjob_arg_buf(job, rp);
    kjob_arg_buf(job, adj);
    kjob_arg_buf(job, lvl);
    kjob_arg_buf(job, next);
    kjob_arg_i32(job, (int)n);
    kjob_arg_i32(job, g.cur);
    kjob_grid1(job, n, 256);
  }
  free(g.level);
  return rc;
}

static int setup_push(kjob *job, const kdesc *d, size_t n) {
  graph g = {NULL, NULL, NULL, 0, 0};
  kjob_init(job, "irregular.cl", "bfs_push");
  int front = kjob_buf(job, n * 4, KB_IN);
  int rp = kjob_buf(job, (n + 1) * 4, KB_IN);
  int adj = kjob_buf(job, n * BFS_DEGREE * 4, KB_IN);
  int lvl = kjob_buf(job, n * 4, KB_INOUT);
  int *hf = job->buf[front].host, *hl = job->buf[lvl].host;
  uint32_t *ref = kjob_ref(job, lvl, KC_U32, n, 0.0, 0.0);
  int rc = !hf || !hl || !ref ? -1 : make_graph(job, d, n, &rp, &adj, &g);
  if (rc == 0) {
    size_t nf = 0;
    for (size_t v = 0; v < n; ++v) {
      int l = g.level[v];
      hl[v] = l >= 0 && l <= g.cur ? l : UNVISITED_PUSH;
      ref[v] = (uint32_t)(l >= 0 && l <= g.cur + 1 ? l : UNVISITED_PUSH);
      if (l == g.cur) hf[nf++] = (int)v;
    }
    kjob_arg_buf(job, front);
    kjob_arg_buf(job, rp);
    kjob_arg_buf(job, adj);
    kjob_arg_buf(job, lvl);
    kjob_arg_i32(job, (int)nf);
    kjob_arg_i32(job, g.cur);
    kjob_grid1(job, nf, 256);
  }
  free(g.level);
  return rc;
}

int setup_irregular(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  /* 100 + b: a gather of 2^24 floats from a table of 2^b floats. */
  if (d->param >= 100)
    return setup_move(job, d, full ? (size_t)1 << 24 : 4096,
                      full ? (size_t)1 << (d->param - 100) : 1024);
  switch (d->param) {
    case IR_GATHER_DRAM:
      return setup_move(job, d, full ? (size_t)1 << 24 : 4096, full ? (size_t)1 << 26 : 8192);
    case IR_GATHER_L2:
      return setup_move(job, d, full ? (size_t)1 << 24 : 4096, full ? (size_t)1 << 20 : 1024);
    case IR_SCATTER:
      return setup_move(job, d, full ? (size_t)1 << 24 : 4096, 0);
    case IR_BFS_PULL:
      return setup_pull(job, d, full ? (size_t)1 << 22 : 4096);
    default:
      return setup_push(job, d, full ? (size_t)1 << 22 : 4096);
  }
}
