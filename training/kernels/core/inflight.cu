/* inflight.cu: DRAM streams whose bytes in flight per SM are set by how
 * many warps fit on an SM (CUDA C++: the limit comes from dynamic shared
 * memory, which portable sources cannot have, and the reads are 16-byte
 * vectors).
 *
 * Blocks of 64 threads (2 warps) each stream one contiguous span; the
 * host gives each launch enough dynamic shared memory that only W / 2
 * blocks fit on an SM, so W warps are resident.  Every thread keeps 8
 * independent accesses in flight (the outer loop is not unrolled, so it
 * is exactly 8): a warp has 8 x 32 x 4 = 1 KiB (4-byte accesses) or
 * 8 x 32 x 16 = 4 KiB (16-byte accesses) outstanding, an SM W times that.
 * DRAM saturates once the SMs together keep enough bytes in flight, at an
 * SM count that falls as W and the access width grow.
 *
 * inflight_rd4, inflight_rd16: sum the span's words (modulo 2^32) into
 * one word per block; the shared memory holds the two warps' partials.
 * inflight_wr16: fill the span, word i = i * 2654435761 + seed. */
#include "sp_port.h"

#define IF_LOCAL 64
#define IF_UNROLL 8
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ uint block_sum(uint s, uint *dyn)
{
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_xor_sync(FULL_MASK, s, off);
  if ((threadIdx.x & 31u) == 0u)
    dyn[threadIdx.x / 32u] = s;
  __syncthreads();
  return dyn[0] + dyn[1];
}

/* per_group: the span in elements of the access width, a multiple of
 * IF_UNROLL x IF_LOCAL. */
extern "C" __global__ void __launch_bounds__(IF_LOCAL)
inflight_rd4(const uint *__restrict__ in, uint *__restrict__ partial,
             int per_group)
{
  extern __shared__ uint dyn[];
  const uint *p = in + (size_t)blockIdx.x * per_group;
  uint s = 0u;
#pragma unroll 1
  for (int j = threadIdx.x; j < per_group; j += IF_UNROLL * IF_LOCAL) {
    uint v[IF_UNROLL];
#pragma unroll
    for (int u = 0; u < IF_UNROLL; ++u)
      v[u] = p[j + u * IF_LOCAL];
#pragma unroll
    for (int u = 0; u < IF_UNROLL; ++u)
      s += v[u];
  }
  s = block_sum(s, dyn);
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(IF_LOCAL)
inflight_rd16(const uint4 *__restrict__ in, uint *__restrict__ partial,
              int per_group)
{
  extern __shared__ uint dyn[];
  const uint4 *p = in + (size_t)blockIdx.x * per_group;
  uint s = 0u;
#pragma unroll 1
  for (int j = threadIdx.x; j < per_group; j += IF_UNROLL * IF_LOCAL) {
    uint4 v[IF_UNROLL];
#pragma unroll
    for (int u = 0; u < IF_UNROLL; ++u)
      v[u] = p[j + u * IF_LOCAL];
#pragma unroll
    for (int u = 0; u < IF_UNROLL; ++u)
      s += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  s = block_sum(s, dyn);
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(IF_LOCAL)
inflight_wr16(uint4 *__restrict__ out, int per_group, uint seed)
{
  const uint base = blockIdx.x * (uint)per_group;
#pragma unroll 1
  for (int j = threadIdx.x; j < per_group; j += IF_UNROLL * IF_LOCAL) {
#pragma unroll
    for (int u = 0; u < IF_UNROLL; ++u) {
      const uint q = base + (uint)(j + u * IF_LOCAL), w = 4u * q;
      out[q] = make_uint4(w * 2654435761u + seed, (w + 1u) * 2654435761u + seed,
                          (w + 2u) * 2654435761u + seed, (w + 3u) * 2654435761u + seed);
    }
  }
}
