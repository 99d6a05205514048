/* irregular.cl: data-dependent addresses: gathers, scatters and one step
 * of breadth-first search on a random graph. */
#include "sp_port.h"

SP_KERNEL void gather(SP_GLOBAL const float *SP_RESTRICT in,
                      SP_GLOBAL const int *SP_RESTRICT idx,
                      SP_GLOBAL float *SP_RESTRICT out, int n)
{
  int i = SP_GID(0);
  if (i < n)
    out[i] = in[idx[i]];
}

/* idx is a permutation, so every output is written exactly once. */
SP_KERNEL void scatter(SP_GLOBAL const float *SP_RESTRICT in,
                       SP_GLOBAL const int *SP_RESTRICT idx,
                       SP_GLOBAL float *SP_RESTRICT out, int n)
{
  int i = SP_GID(0);
  if (i < n)
    out[idx[i]] = in[i];
}

/* Bottom-up BFS step: an unvisited vertex joins level cur+1 when one of its
 * neighbours is at level cur.  Reads level, writes next: no races. */
SP_KERNEL void bfs_pull(SP_GLOBAL const int *SP_RESTRICT rowptr,
                        SP_GLOBAL const int *SP_RESTRICT adj,
                        SP_GLOBAL const int *SP_RESTRICT level,
                        SP_GLOBAL int *SP_RESTRICT next, int n, int cur)
{
  int v = SP_GID(0);
  if (v >= n)
    return;
  int lv = level[v];
  if (lv < 0) {
    for (int j = rowptr[v]; j < rowptr[v + 1]; ++j)
      if (level[adj[j]] == cur) {
        lv = cur + 1;
        break;
      }
  }
  next[v] = lv;
}

/* Top-down BFS step: each frontier vertex lowers its neighbours' levels to
 * cur+1 with atomic minimum (unvisited vertices hold INT_MAX). */
SP_KERNEL void bfs_push(SP_GLOBAL const int *SP_RESTRICT frontier,
                        SP_GLOBAL const int *SP_RESTRICT rowptr,
                        SP_GLOBAL const int *SP_RESTRICT adj,
                        SP_GLOBAL int *level, int nf, int cur)
{
  int i = SP_GID(0);
  if (i >= nf)
    return;
  int v = frontier[i];
  for (int j = rowptr[v]; j < rowptr[v + 1]; ++j)
    SP_ATOMIC_MIN(&level[adj[j]], cur + 1);
}
