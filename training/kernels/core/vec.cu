/* vec.cu: 16-byte vector loads and stores, and warp shuffles (CUDA C++:
 * portable sources use neither vector types nor shuffles).
 *
 * vec_rd4 sums a float array through float4 loads (LDG.128) in a grid-
 * stride loop, reducing each warp with shuffles instead of shared memory
 * (out[warp]); vec_wr4 fills through float4 stores.  shfl_rot passes a
 * value around the warp iters times, one shuffle and one FMA a step. */
#include "sp_port.h"

#define FULL_MASK 0xffffffffu

extern "C" __global__ void vec_rd4(const float4 *a, float *out, int n4)
{
  const int t = gridDim.x * blockDim.x;
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int i = g; i < n4; i += t) {
    const float4 v = a[i];
    s += (v.x + v.y) + (v.z + v.w);
  }
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_xor_sync(FULL_MASK, s, off);
  if ((threadIdx.x & 31) == 0)
    out[g / 32] = s;
}

extern "C" __global__ void vec_wr4(float4 *out, float v, int n4)
{
  const int t = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += t) {
    const float b = v + (float)((4 * i) & 1023);
    out[i] = make_float4(b, b + 1.0f, b + 2.0f, b + 3.0f);
  }
}

extern "C" __global__ void shfl_rot(float *out, float a, float b, int iters)
{
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int src = (threadIdx.x + 1) & 31;
  float x = 1.0f + (float)(g & 255) * (1.0f / 1024.0f);
  for (int it = 0; it < iters; ++it)
    x = fmaf(__shfl_sync(FULL_MASK, x, src), a, b);
  out[g] = x;
}
