/* branch.cl: control-flow divergence.  Four different integer recurrences;
 * which one a work-item runs depends on its work-group (uniform), on its
 * lane (4 paths in every warp), or its loop length on its data. */
#include "sp_port.h"

SP_FN uint path_work(uint x, int path, int iters)
{
  for (int k = 0; k < iters; ++k) {
    if (path == 0)
      x = x * 1664525u + 1013904223u;
    else if (path == 1)
      x = (x ^ (x >> 7)) * 2246822519u;
    else if (path == 2)
      x = (x << 3) + (x >> 5) + 0x7F4A7C15u;
    else
      x = (x ^ 0xA5A5A5A5u) * 3266489917u + (uint)k;
  }
  return x;
}

/* mode 0: path from the work-group, 1: from the lane, 2: path from the
 * work-group but a data-dependent trip count (1 to 8 quarters of iters). */
SP_KERNEL void branch_paths(SP_GLOBAL const uint *SP_RESTRICT in,
                            SP_GLOBAL uint *SP_RESTRICT out, int mode,
                            int iters)
{
  int gid = SP_GID(0);
  uint x = in[gid];
  int path = mode == 1 ? (SP_LID(0) & 3) : (SP_GRP(0) & 3);
  int n = mode == 2 ? (int)((x & 7u) + 1u) * (iters / 4) : iters;
  out[gid] = path_work(x, path, n);
}
