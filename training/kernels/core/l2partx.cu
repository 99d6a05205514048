/* l2partx.cu: read-modify-write sweeps over a buffer around the L2's
 * size, through the L2 only (CUDA C++: __ldcg and __stcg bypass L1).
 *
 * The grid is resident (kjob_resident: exactly the blocks that fit at
 * once on the SMs in use, G of them), so all of them sweep together at
 * every SM count.  The buffer is `chunks` chunks of 4 KiB; block g owns
 * chunks g, g + G, g + 2G, ... and each pass updates every word of them
 * once, x <- x * 1664525 + 1013904223, two chunks at a time (two 16-byte
 * loads in flight per thread).  A chunk has one owner, so passes need no
 * barrier: every word is updated exactly `passes` times, in order.  The
 * reuse distance of a chunk is one pass over the whole buffer. */
#include "sp_port.h"

#define L2P_LOCAL 256 /* one uint4 per thread: 4 KiB chunks */

__device__ __forceinline__ uint4 lcg4(uint4 v)
{
  return make_uint4(v.x * 1664525u + 1013904223u, v.y * 1664525u + 1013904223u,
                    v.z * 1664525u + 1013904223u, v.w * 1664525u + 1013904223u);
}

extern "C" __global__ void __launch_bounds__(L2P_LOCAL)
l2part_rmw(uint4 *x, int chunks, int passes)
{
  const int g = (int)blockIdx.x, ng = (int)gridDim.x, t = (int)threadIdx.x;
  for (int p = 0; p < passes; ++p) {
    int c = g;
    for (; c + ng < chunks; c += 2 * ng) {
      uint4 *q0 = x + (size_t)c * L2P_LOCAL + t;
      uint4 *q1 = x + (size_t)(c + ng) * L2P_LOCAL + t;
      const uint4 v0 = __ldcg(q0), v1 = __ldcg(q1);
      __stcg(q0, lcg4(v0));
      __stcg(q1, lcg4(v1));
    }
    if (c < chunks) {
      uint4 *q = x + (size_t)c * L2P_LOCAL + t;
      __stcg(q, lcg4(__ldcg(q)));
    }
  }
}
