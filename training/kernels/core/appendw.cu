/* appendw.cu: append_item of append.cl with warp-aggregated atomics (CUDA
 * C++ only: OpenCL 1.2 has no ballot).  The warp votes, its first
 * qualifying lane adds the warp's count to the one counter, and every
 * qualifying lane writes at the warp's base plus its rank among them: one
 * atomic per warp instead of one per element. */
#include "sp_port.h"

SP_KERNEL void append_warp(const uint *__restrict__ key, const float *__restrict__ val,
                           uint *ctr, uint *__restrict__ out_idx, float *__restrict__ out_val,
                           uint thresh, uint mask, int n)
{
  const int i = SP_GID(0);
  const bool q = i < n && key[i] <= thresh;
  const uint votes = __ballot_sync(0xffffffffu, q);
  if (votes == 0u)
    return;
  const int lane = (int)(threadIdx.x & 31u), leader = __ffs(votes) - 1;
  uint base = 0u;
  if (lane == leader)
    base = atomicAdd(ctr, (uint)__popc(votes));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (q) {
    const uint p = (base + (uint)__popc(votes & ((1u << lane) - 1u))) & mask;
    out_idx[p] = (uint)i;
    out_val[p] = 2.0f * val[i] + 1.0f;
  }
}
