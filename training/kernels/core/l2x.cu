/* l2x.cu: read-modify-write through the L2 only (CUDA C++: __ldcg and
 * __stcg bypass L1, which OpenCL C cannot ask for).
 *
 * Work-group g owns m consecutive words; each of `passes` passes applies
 * x <- x * 1664525 + 1013904223 to every word once, the words taken in a
 * rotated order so that consecutive passes do not meet the same lines in
 * the same order.  A barrier separates passes, so every word sees exactly
 * `passes` updates in sequence and the result is exact. */
#include "sp_port.h"

extern "C" __global__ void l2_rmw(uint *x, int m, int passes)
{
  uint *base = x + (size_t)blockIdx.x * m;
  for (int p = 0; p < passes; ++p) {
    const int rot = (int)(((long)p * 40961) % m);
    for (int j = threadIdx.x; j < m; j += blockDim.x) {
      int k = j + rot;
      k = k < m ? k : k - m;
      __stcg(base + k, __ldcg(base + k) * 1664525u + 1013904223u);
    }
    __syncthreads();
  }
}
