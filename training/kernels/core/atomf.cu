/* atomf.cu: floating-point atomics (CUDA C++: OpenCL 1.2 has none).
 * Every thread adds 0.5 iters times at hashed addresses among mask + 1
 * floats; sums stay exact (multiples of 0.5 below 2^23). */
#include "sp_port.h"

extern "C" __global__ void atom_f32(float *ctr, uint mask, int iters)
{
  const uint g = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; ++k) {
    uint h = (g * (uint)iters + (uint)k) * 2654435761u;
    atomicAdd(&ctr[(h ^ (h >> 15)) & mask], 0.5f);
  }
}
