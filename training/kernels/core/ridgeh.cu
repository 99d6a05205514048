/* ridgeh.cu: the fp16 form of ridge.cl (CUDA C++ only: half2 and
 * __hfma2).  A read stream of half2 pairs with K dependent __hfma2 per
 * pair (x <- x a + b on both halves, two fp16 FMAs), around the ridge of
 * the H100's non-tensor fp16 pipe: 4 bytes read per K HFMA2.  Every
 * thread takes 16 pairs, 4 chains at a time, and sums both halves in
 * float; blocks of 256 reduce with warp shuffles, then thread 0 adds the
 * 8 warp sums in order: one float per block. */
#include <cuda_fp16.h>

#include "sp_port.h"

#define RIDGE_LOCAL 256
#define RIDGE_PER_ITEM 16
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float pair_sum(__half2 x)
{
  return __low2float(x) + __high2float(x);
}

template <int K>
__device__ __forceinline__ void ridge_h2(const __half2 *__restrict__ in,
                                         float *__restrict__ partial, float a,
                                         float b)
{
  __shared__ float warp_sums[RIDGE_LOCAL / 32];
  const __half2 a2 = __float2half2_rn(a), b2 = __float2half2_rn(b);
  const int lid = threadIdx.x;
  const int base = blockIdx.x * (RIDGE_LOCAL * RIDGE_PER_ITEM) + lid;
  float s = 0.0f;
  for (int j = 0; j < RIDGE_PER_ITEM; j += 4) {
    __half2 x0 = in[base + j * RIDGE_LOCAL];
    __half2 x1 = in[base + (j + 1) * RIDGE_LOCAL];
    __half2 x2 = in[base + (j + 2) * RIDGE_LOCAL];
    __half2 x3 = in[base + (j + 3) * RIDGE_LOCAL];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      x0 = __hfma2(x0, a2, b2);
      x1 = __hfma2(x1, a2, b2);
      x2 = __hfma2(x2, a2, b2);
      x3 = __hfma2(x3, a2, b2);
    }
    s += (pair_sum(x0) + pair_sum(x1)) + (pair_sum(x2) + pair_sum(x3));
  }
  for (int off = 16; off > 0; off >>= 1)
    s += __shfl_xor_sync(FULL_MASK, s, off);
  if ((lid & 31) == 0)
    warp_sums[lid / 32] = s;
  __syncthreads();
  if (lid == 0) {
    float t = warp_sums[0];
    for (int w = 1; w < RIDGE_LOCAL / 32; ++w)
      t += warp_sums[w];
    partial[blockIdx.x] = t;
  }
}

extern "C" __global__ void ridge_h2_k8(const __half2 *in, float *partial, float a, float b)
{
  ridge_h2<8>(in, partial, a, b);
}

extern "C" __global__ void ridge_h2_k16(const __half2 *in, float *partial, float a, float b)
{
  ridge_h2<16>(in, partial, a, b);
}

extern "C" __global__ void ridge_h2_k32(const __half2 *in, float *partial, float a, float b)
{
  ridge_h2<32>(in, partial, a, b);
}
