/* gsync.cu: a persistent kernel with a grid-wide barrier per step (CUDA
 * C++: inline PTX for the global timer, __ldcg, __syncthreads_and).
 *
 * The runner launches a resident grid (kjob_resident): exactly the blocks
 * that fit at once on the SMs in use, so every block of the barrier is
 * running.  The kernel is launched with cuLaunchKernel, not as a
 * cooperative launch, and the barrier is written here: one thread per
 * block adds itself to an arrival counter (bar[0]); the last to arrive
 * resets it and advances the generation (bar[1]); the others spin on the
 * generation.  A spin that lasts longer than GS_LIMIT_NS (1 s; a step
 * takes microseconds) raises an abort flag (bar[2]) and every block then
 * leaves, so a grid that was not resident after all ends with a failed
 * check instead of a hang.  The counter is back at 0 after every barrier,
 * so relaunches start from a clean barrier.
 *
 * The work: `steps` steps of a periodic three-point integer update over
 * n words, ping-ponging between a and b (an even number of steps ends in
 * a).  Threads take words i, i + T, ... (T: the grid's threads), four at a
 * time; neighbours come through L2 (__ldcg: another SM wrote them in the
 * previous step, and L1 is not coherent).  The result does not depend on
 * the grid's size. */
#include "sp_port.h"

#define GS_LIMIT_NS 1000000000ull

__device__ __forceinline__ unsigned long long gs_now()
{
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* Returns nonzero for every thread of the block when all blocks arrived,
 * zero when the barrier was aborted. */
__device__ __forceinline__ int grid_barrier(uint *bar)
{
  int ok = 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile uint *vb = bar;
    const uint gen = vb[1];
    __threadfence();
    if (atomicAdd(&bar[0], 1u) == gridDim.x - 1u) {
      atomicExch(&bar[0], 0u);
      __threadfence();
      atomicAdd(&bar[1], 1u);
    } else {
      const unsigned long long t0 = gs_now();
      while (vb[1] == gen) {
        if (vb[2] != 0u || gs_now() - t0 > GS_LIMIT_NS) {
          atomicExch(&bar[2], 1u);
          ok = 0;
          break;
        }
      }
    }
    __threadfence();
  }
  return __syncthreads_and(ok);
}

__device__ __forceinline__ uint gs_update(uint l, uint c, uint r)
{
  return (l ^ (c * 2654435761u)) + (r >> 3) + 0x9e3779b9u;
}

extern "C" __global__ void gsync_step(uint *a, uint *b, uint *bar, int n, int steps)
{
  const int nt = (int)(gridDim.x * blockDim.x);
  const int tid = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  for (int s = 0; s < steps; ++s) {
    const uint *src = (s & 1) ? b : a;
    uint *dst = (s & 1) ? a : b;
    for (int i = tid; i < n; i += 4 * nt) {
      uint v[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        const int k = i + u * nt;
        if (k < n)
          v[u] = gs_update(__ldcg(src + (k == 0 ? n - 1 : k - 1)), __ldcg(src + k),
                           __ldcg(src + (k == n - 1 ? 0 : k + 1)));
      }
#pragma unroll
      for (int u = 0; u < 4; ++u)
        if (i + u * nt < n)
          dst[i + u * nt] = v[u];
    }
    if (!grid_barrier(bar))
      return;
  }
}
