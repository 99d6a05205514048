/* graph.cl: graph and sparse kernels for the validation suite (host half:
 * graph.c).  The power-law graphs give a few vertices very long rows. */
#include "sp_dev.h"

/* One pull iteration of PageRank over in-edges (CSR), one work-item per
 * vertex: a vertex with many in-edges keeps its work-item, and its
 * work-group, busy long after the others finish.  contrib[u] is
 * rank[u] / out_degree[u] from the previous iteration. */
SP_KERNEL void v_pagerank_pull(SP_GLOBAL const int *SP_RESTRICT rowptr,
                               SP_GLOBAL const int *SP_RESTRICT col,
                               SP_GLOBAL const float *SP_RESTRICT contrib,
                               SP_GLOBAL float *SP_RESTRICT rank, int n,
                               float base, float damp)
{
  const int v = SP_GID(0);
  if (v >= n)
    return;
  float s = 0.0f;
  for (int e = rowptr[v]; e < rowptr[v + 1]; ++e)
    s += contrib[col[e]];
  rank[v] = base + damp * s;
}

/* y += A x for A in row-sorted COO, one work-item per nonzero.  Products are
 * accumulated as 16.16 fixed point with integer atomics, the deterministic
 * reduction that reproducible solvers use; long rows make many work-items
 * hit one address. */
SP_KERNEL void v_spmv_coo_fixed(SP_GLOBAL const int *SP_RESTRICT row,
                                SP_GLOBAL const int *SP_RESTRICT col,
                                SP_GLOBAL const float *SP_RESTRICT val,
                                SP_GLOBAL const float *SP_RESTRICT x,
                                SP_GLOBAL int *y, int nnz)
{
  const int e = SP_GID(0);
  if (e >= nnz)
    return;
  const float p = val[e] * x[col[e]];
  SP_ATOMIC_ADD(&y[row[e]], (int)(p * 65536.0f));
}

/* One top-down BFS level: every vertex at level cur labels its unvisited
 * out-neighbours cur + 1 and counts them.  atomic_min makes exactly one
 * work-item see each new vertex; it is issued for visited neighbours too,
 * so repeated launches do the same work. */
SP_KERNEL void v_bfs_expand(SP_GLOBAL const int *SP_RESTRICT rowptr,
                            SP_GLOBAL const int *SP_RESTRICT col,
                            SP_GLOBAL uint *level, SP_GLOBAL uint *count, int n,
                            uint cur)
{
  const int v = SP_GID(0);
  if (v >= n || level[v] != cur)
    return;
  for (int e = rowptr[v]; e < rowptr[v + 1]; ++e)
    if (SP_ATOMIC_MIN(&level[col[e]], cur + 1) > cur + 1)
      SP_ATOMIC_ADD(count, 1u);
}

/* One Bellman-Ford relaxation sweep over an edge list, one work-item per
 * edge: dist_out[v] = min(dist_out[v], dist_in[u] + w) with atomic_min.
 * Reading dist_in (not dist_out) makes the result independent of order. */
#define SSSP_INF 0xFFFFFFFFu

SP_KERNEL void v_sssp_relax(SP_GLOBAL const int *SP_RESTRICT src,
                            SP_GLOBAL const int *SP_RESTRICT dst,
                            SP_GLOBAL const uint *SP_RESTRICT w,
                            SP_GLOBAL const uint *SP_RESTRICT dist_in,
                            SP_GLOBAL uint *dist_out, int m)
{
  const int e = SP_GID(0);
  if (e >= m)
    return;
  const uint du = dist_in[src[e]];
  if (du != SSSP_INF)
    SP_ATOMIC_MIN(&dist_out[dst[e]], du + w[e]);
}
