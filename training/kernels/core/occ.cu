/* occ.cu: occupancy limited by shared memory or by registers (CUDA C++:
 * more than 48 KiB of shared memory per block is dynamic, which portable
 * sources cannot have, and __launch_bounds__ sets a register budget).
 *
 * occ_smem runs the same two dependent FMA chains per thread whatever its
 * dynamic shared memory (0 to 160 KiB): only how many blocks fit on an SM,
 * and so how well the chains' latency is hidden, changes.  The reg_*
 * kernels keep R independent chains live per thread: R registers and
 * more; reg_r200_spill must fit them in 64 and spills to local memory. */
#include "sp_port.h"

SP_FN float chain_start(int g, int k)
{
  return 1.0f + (float)((g * 7 + k * 13) & 255) * (1.0f / 1024.0f);
}

extern "C" __global__ void occ_smem(float *out, float a, float b, int iters,
                                    int words)
{
  extern __shared__ float dyn[];
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x0 = chain_start(g, 0), x1 = chain_start(g, 1);
  if (words > 0) { /* words >= blockDim.x: one slot per thread */
    dyn[threadIdx.x] = x0;
    dyn[words - 1 - threadIdx.x] = x1;
    __syncthreads();
    x0 = dyn[threadIdx.x];
    x1 = dyn[words - 1 - threadIdx.x];
  }
  for (int it = 0; it < iters; ++it) {
    x0 = fmaf(x0, a, b);
    x1 = fmaf(x1, a, b);
  }
  out[g] = x0 + x1;
}

template <int R>
__device__ __forceinline__ void reg_chains(float *out, float a, float b,
                                           int iters)
{
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  float v[R];
#pragma unroll
  for (int i = 0; i < R; ++i)
    v[i] = chain_start(g, i);
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < R; ++i)
      v[i] = fmaf(v[i], a, b);
  }
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < R; ++i)
    s += v[i];
  out[g] = s;
}

extern "C" __global__ void __launch_bounds__(256)
reg_r16(float *out, float a, float b, int iters)
{
  reg_chains<16>(out, a, b, iters);
}

extern "C" __global__ void __launch_bounds__(256)
reg_r64(float *out, float a, float b, int iters)
{
  reg_chains<64>(out, a, b, iters);
}

extern "C" __global__ void __launch_bounds__(256)
reg_r96(float *out, float a, float b, int iters)
{
  reg_chains<96>(out, a, b, iters);
}

extern "C" __global__ void __launch_bounds__(256)
reg_r200(float *out, float a, float b, int iters)
{
  reg_chains<200>(out, a, b, iters);
}

/* At least 4 blocks of 256 per SM: at most 64 registers per thread. */
extern "C" __global__ void __launch_bounds__(256, 4)
reg_r200_spill(float *out, float a, float b, int iters)
{
  reg_chains<200>(out, a, b, iters);
}
