/* pw.cl: power intensity.  Pure pipe loads (integer, special-function,
 * FP64 chains) and streams with a set arithmetic intensity: each element
 * read and written (8 bytes in float, 16 in double) goes through K fused
 * multiply-adds, 2K flops, so K = 4, 16, 64, 256 give 1, 4, 16 and 64
 * flop/byte in float.  The single-precision FMA chains are in sched.cl. */
#include "sp_port.h"

/* Four chains of multiply, shift, xor and add (IMAD, SHF, LOP3). */
SP_KERNEL void pw_int(SP_GLOBAL uint *SP_RESTRICT out, uint m, int iters)
{
  const uint g = (uint)SP_GID(0);
  uint x0 = g, x1 = g ^ 0x5bd1e995u, x2 = g * 3u + 1u, x3 = ~g;
  for (int it = 0; it < iters; ++it) {
    x0 = x0 * m + (x0 >> 7) ^ x1;
    x1 = x1 * m + (x1 >> 9) ^ x2;
    x2 = x2 * m + (x2 >> 11) ^ x3;
    x3 = x3 * m + (x3 >> 13) ^ x0;
  }
  out[g] = x0 ^ x1 ^ x2 ^ x3;
}

/* Four chains x <- rsqrt(a x + b): one special-function op per FMA.  The
 * map is contracting (fixed point near 0.79 for a = 0.5, b = 1), so
 * rounding differences do not grow. */
SP_KERNEL void pw_sfu(SP_GLOBAL float *SP_RESTRICT out, float a, float b,
                      int iters)
{
  const int g = SP_GID(0);
  float x0 = 1.0f + (float)(g & 15) * 0.0625f, x1 = x0 + 0.5f;
  float x2 = x0 + 1.0f, x3 = x0 + 1.5f;
  for (int it = 0; it < iters; ++it) {
    x0 = SP_RSQRTF(SP_FMAF(a, x0, b));
    x1 = SP_RSQRTF(SP_FMAF(a, x1, b));
    x2 = SP_RSQRTF(SP_FMAF(a, x2, b));
    x3 = SP_RSQRTF(SP_FMAF(a, x3, b));
  }
  out[g] = ((x0 + x1) + x2) + x3;
}

/* Four chains of double fused multiply-adds. */
SP_KERNEL void pw_dfma(SP_GLOBAL double *SP_RESTRICT out, double a, double b,
                       int iters)
{
  const int g = SP_GID(0);
  double x0 = 1.0 + (double)(g & 255) / 1024.0, x1 = x0 + 0.25;
  double x2 = x0 + 0.5, x3 = x0 + 0.75;
  for (int it = 0; it < iters; ++it) {
    x0 = fma(x0, a, b);
    x1 = fma(x1, a, b);
    x2 = fma(x2, a, b);
    x3 = fma(x3, a, b);
  }
  out[g] = ((x0 + x1) + x2) + x3;
}

/* Grid-stride streams: out[i] = K steps of x <- fma(x, a, b) from in[i]. */
#define AI_KERNEL(NAME, T, FMA, K)                                         \
  SP_KERNEL void NAME(SP_GLOBAL const T *SP_RESTRICT in,                   \
                      SP_GLOBAL T *SP_RESTRICT out, int n, T a, T b)       \
  {                                                                        \
    const int t = SP_GSIZE(0);                                             \
    for (int i = SP_GID(0); i < n; i += t) {                               \
      T x = in[i];                                                         \
      for (int k = 0; k < K; ++k)                                          \
        x = FMA(x, a, b);                                                  \
      out[i] = x;                                                          \
    }                                                                      \
  }

AI_KERNEL(ai_f32_k4, float, SP_FMAF, 4)
AI_KERNEL(ai_f32_k16, float, SP_FMAF, 16)
AI_KERNEL(ai_f32_k64, float, SP_FMAF, 64)
AI_KERNEL(ai_f32_k256, float, SP_FMAF, 256)
AI_KERNEL(ai_f64_k8, double, fma, 8)
AI_KERNEL(ai_f64_k32, double, fma, 32)
AI_KERNEL(ai_f64_k128, double, fma, 128)
