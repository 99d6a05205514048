/* SPDX-License-Identifier: GPL-3.0-or-later */
/* graph.c: host half of graph.cl (PageRank pull, COO SpMV with atomics, BFS
 * level expansion, SSSP relaxation) and the synthetic graphs they run on. */
#include <math.h>
#include <stdlib.h>

#include "validation.h"

#define INF_U32 0xFFFFFFFFu

/* Row lengths of a power-law graph: a Pareto law of shape 1.8 above dmin
 * (mean about 2.25 dmin), capped at cap, so a handful of rows reach the cap.
 * Returns n lengths (malloc'd, NULL when out of memory); *total gets their
 * sum. */
static int *power_law_degrees(krng *r, int n, int dmin, int cap, size_t *total) {
  int *deg = malloc((size_t)n * sizeof *deg);
  if (deg == NULL) return NULL;
  *total = 0;
  for (int v = 0; v < n; ++v) {
    const double u = 1.0 - krng_uniform(r, 0.0, 1.0); /* (0, 1] */
    const double d = dmin / pow(u, 1.0 / 1.8);
    deg[v] = d > cap ? cap : (int)d;
    *total += deg[v];
  }
  return deg;
}

/* Adds CSR buffers (rowptr n+1, col) for a power-law graph with uniformly
 * random neighbours; *rp and *cb get their buffer indices. */
static int add_csr(kjob *job, krng *r, int n, int dmin, int cap, int *rp, int *cb) {
  size_t m;
  int *deg = power_law_degrees(r, n, dmin, cap, &m);
  if (deg == NULL) return -1;
  *rp = kjob_buf(job, (size_t)(n + 1) * 4, KB_IN);
  *cb = kjob_buf(job, m * 4, KB_IN);
  int32_t *row = job->buf[*rp].host, *col = job->buf[*cb].host;
  if (row == NULL || col == NULL) {
    free(deg);
    return -1;
  }
  row[0] = 0;
  for (int v = 0; v < n; ++v) row[v + 1] = row[v] + deg[v];
  for (size_t e = 0; e < m; ++e) col[e] = (int32_t)krng_below(r, (uint32_t)n);
  free(deg);
  return 0;
}

/* Full-size graphs: 2M vertices, a mean degree near 13, rows up to 20000. */
static int graph_n(ksize size) { return size == KSIZE_FULL ? 1 << 21 : 4096; }
static int graph_cap(ksize size) { return size == KSIZE_FULL ? 20000 : 512; }

static int pagerank_job(kjob *job, const kdesc *d, ksize size) {
  const int n = graph_n(size);
  const float damp = 0.85f, base = (1.0f - damp) / n;
  int rp, cb;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "graph.cl", "v_pagerank_pull");
  if (add_csr(job, &r, n, 6, graph_cap(size), &rp, &cb) != 0) return -1;
  int c = kjob_buf(job, (size_t)n * 4, KB_IN), o = kjob_buf(job, (size_t)n * 4, KB_OUT);
  /* Float sums of up to 20000 positive terms: random-sign rounding gives
   * about sqrt(20000) * 6e-8 = 1e-5 relative; 1e-4 leaves a margin. */
  float *ref = vref_sampled(job, o, KC_F32, n, 1e-4, 0.0);
  float *hc = job->buf[c].host;
  if (hc == NULL || ref == NULL) return -1;
  kfill_f32(hc, n, &r, 0.5 / n, 1.5 / n);
  const int32_t *row = job->buf[rp].host, *col = job->buf[cb].host;
  size_t *smp = job->buf[o].sample;
  for (int v = 0; v < n; ++v) /* the longest row is always checked */
    if (row[v + 1] - row[v] > row[smp[0] + 1] - row[smp[0]]) smp[0] = v;
  for (size_t s = 0; s < job->buf[o].count; ++s) {
    double acc = 0.0;
    for (int32_t e = row[smp[s]]; e < row[smp[s] + 1]; ++e) acc += hc[col[e]];
    ref[s] = (float)(base + damp * acc);
  }
  kjob_arg_buf(job, rp);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, c);
  kjob_arg_buf(job, o);
  kjob_arg_i32(job, n);
  kjob_arg_f32(job, base);
  kjob_arg_f32(job, damp);
  kjob_grid1(job, n, 256);
  return 0;
}

static int spmv_coo_job(kjob *job, const kdesc *d, ksize size) {
  const int n = graph_n(size);
  int rp, cb;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "graph.cl", "v_spmv_coo_fixed");
  if (add_csr(job, &r, n, 6, graph_cap(size), &rp, &cb) != 0) return -1;
  /* The CSR row pointer becomes the COO row array, in place: rows are
   * sorted, as a COO matrix converted from CSR is. */
  const size_t nnz = job->buf[cb].bytes / 4;
  int32_t *rowptr = job->buf[rp].host;
  int32_t *rows = malloc(nnz * sizeof *rows);
  if (rows == NULL) return -1;
  for (int v = 0; v < n; ++v)
    for (int32_t e = rowptr[v]; e < rowptr[v + 1]; ++e) rows[e] = v;
  free(job->buf[rp].host);
  job->buf[rp].host = rows;
  job->buf[rp].bytes = nnz * 4;
  int val = kjob_buf(job, nnz * 4, KB_IN), x = kjob_buf(job, (size_t)n * 4, KB_IN);
  int y = kjob_buf(job, (size_t)n * 4, KB_INOUT);
  int32_t *ref = kjob_ref(job, y, KC_U32, n, 0, 0); /* fixed point: exact */
  float *hv = job->buf[val].host, *hx = job->buf[x].host;
  if (hv == NULL || hx == NULL || job->buf[y].host == NULL || ref == NULL) return -1;
  kfill_f32(hv, nnz, &r, -1, 1);
  kfill_f32(hx, n, &r, -1, 1);
  const int32_t *col = job->buf[cb].host;
  for (size_t e = 0; e < nnz; ++e) {
    const float p = hv[e] * hx[col[e]];
    ref[rows[e]] += (int32_t)(p * 65536.0f);
  }
  kjob_arg_buf(job, rp);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, val);
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, (int)nnz);
  kjob_grid1(job, nnz, 256);
  return 0;
}

/* Breadth-first levels from src over CSR (row, col); unreached: INF_U32. */
static int bfs_levels(const int32_t *row, const int32_t *col, int n, int src, uint32_t *level) {
  int32_t *queue = malloc((size_t)n * sizeof *queue);
  if (queue == NULL) return -1;
  for (int v = 0; v < n; ++v) level[v] = INF_U32;
  int head = 0, tail = 0;
  level[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    const int v = queue[head++];
    for (int32_t e = row[v]; e < row[v + 1]; ++e)
      if (level[col[e]] == INF_U32) {
        level[col[e]] = level[v] + 1;
        queue[tail++] = col[e];
      }
  }
  free(queue);
  return 0;
}

/* The level whose expansion discovers the most vertices. */
static uint32_t widest_level(const uint32_t *level, int n) {
  size_t count[64] = {0};
  for (int v = 0; v < n; ++v)
    if (level[v] < 64) ++count[level[v]];
  uint32_t best = 0;
  for (uint32_t l = 1; l + 1 < 64; ++l)
    if (count[l + 1] > count[best + 1]) best = l;
  return best;
}

static int bfs_job(kjob *job, const kdesc *d, ksize size) {
  const int n = graph_n(size);
  int rp, cb;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "graph.cl", "v_bfs_expand");
  if (add_csr(job, &r, n, 4, graph_cap(size), &rp, &cb) != 0) return -1;
  int lv = kjob_buf(job, (size_t)n * 4, KB_INOUT), ct = kjob_buf(job, 4, KB_INOUT);
  uint32_t *ref = kjob_ref(job, lv, KC_U32, n, 0, 0); /* integers: exact */
  uint32_t *rc = kjob_ref(job, ct, KC_U32, 1, 0, 0);
  uint32_t *hl = job->buf[lv].host;
  const int32_t *row = job->buf[rp].host;
  if (!ref || !rc || !hl || !job->buf[ct].host) return -1;
  int src = 0;
  for (int v = 0; v < n; ++v)
    if (row[v + 1] - row[v] > row[src + 1] - row[src]) src = v;
  if (bfs_levels(row, job->buf[cb].host, n, src, ref) != 0) return -1;
  const uint32_t cur = widest_level(ref, n);
  for (int v = 0; v < n; ++v) {
    hl[v] = ref[v] <= cur ? ref[v] : INF_U32;
    if (ref[v] > cur + 1) ref[v] = INF_U32;
    *rc += ref[v] == cur + 1;
  }
  kjob_arg_buf(job, rp);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, lv);
  kjob_arg_buf(job, ct);
  kjob_arg_i32(job, n);
  kjob_arg_u32(job, cur);
  kjob_grid1(job, n, 256);
  return 0;
}

/* A g x g grid graph with edges to the four neighbours (a road-network
 * stand-in), as an edge list ordered by source. */
static int sssp_job(kjob *job, const kdesc *d, ksize size) {
  const int g = size == KSIZE_FULL ? 2048 : 64, n = g * g;
  const size_t m = 4 * (size_t)g * (g - 1);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "graph.cl", "v_sssp_relax");
  int sb = kjob_buf(job, m * 4, KB_IN), db = kjob_buf(job, m * 4, KB_IN);
  int wb = kjob_buf(job, m * 4, KB_IN), in = kjob_buf(job, (size_t)n * 4, KB_IN);
  int out = kjob_buf(job, (size_t)n * 4, KB_INOUT);
  int32_t *src = job->buf[sb].host, *dst = job->buf[db].host;
  uint32_t *w = job->buf[wb].host, *hin = job->buf[in].host, *hout = job->buf[out].host;
  uint32_t *ref = kjob_ref(job, out, KC_U32, n, 0, 0); /* integers: exact */
  if (!src || !dst || !w || !hin || !hout || !ref) return -1;
  /* A mid-run state: 60% of the vertices have a tentative distance. */
  for (int v = 0; v < n; ++v)
    ref[v] = hout[v] = hin[v] = krng_below(&r, 10) < 6 ? krng_below(&r, 1000000) : INF_U32;
  size_t e = 0;
  static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
  for (int v = 0; v < n; ++v)
    for (int k = 0; k < 4; ++k) {
      const int x = v % g + dx[k], y = v / g + dy[k];
      if (x < 0 || x >= g || y < 0 || y >= g) continue;
      src[e] = v;
      dst[e] = y * g + x;
      w[e] = 1 + krng_below(&r, 100);
      if (hin[v] != INF_U32 && hin[v] + w[e] < ref[dst[e]]) ref[dst[e]] = hin[v] + w[e];
      ++e;
    }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)m);
  kjob_grid1(job, m, 256);
  return 0;
}

int vsetup_graph(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case VGR_PAGERANK:
      return pagerank_job(job, d, size);
    case VGR_SPMV_COO:
      return spmv_coo_job(job, d, size);
    case VGR_BFS:
      return bfs_job(job, d, size);
    case VGR_SSSP:
      return sssp_job(job, d, size);
  }
  return -1;
}
