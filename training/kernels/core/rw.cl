/* rw.cl: read-only, write-only and copy streams with K independent
 * elements in flight per work-item (K unrolled loads or stores per loop
 * iteration, instruction-level parallelism), in grid-stride loops so that
 * the grid size is a free parameter: a grid of 132 work-groups leaves one
 * group of 256 per SM of the full H100, a grid of n / (256 K) makes one pass.
 *
 * Work-item t of a grid of T handles the elements i = t (mod T), so the
 * host knows which group sums which elements.  The grid-stride loops are
 * kept from being unrolled further (unroll 1), so that K, not the
 * compiler, sets what is in flight. */
#include "sp_port.h"

#define RW_GROUP 256

/* Sums acc over the group in s[] and writes the group's total. */
#define RW_GROUP_SUM(s, acc, partial)                                      \
  do {                                                                     \
    int lid_ = SP_LID(0);                                                  \
    s[lid_] = (acc);                                                       \
    SP_BARRIER();                                                          \
    for (int off_ = RW_GROUP / 2; off_ > 0; off_ >>= 1) {                  \
      if (lid_ < off_)                                                     \
        s[lid_] += s[lid_ + off_];                                         \
      SP_BARRIER();                                                        \
    }                                                                      \
    if (lid_ == 0)                                                         \
      (partial)[SP_GRP(0)] = s[0];                                         \
  } while (0)

#define RD_KERNEL(NAME, T, K)                                              \
  SP_KERNEL void NAME(SP_GLOBAL const T *SP_RESTRICT a,                    \
                      SP_GLOBAL T *SP_RESTRICT partial, int n)             \
  {                                                                        \
    SP_LOCAL T s[RW_GROUP];                                                \
    const int t = SP_GSIZE(0);                                             \
    int i = SP_GID(0);                                                     \
    T acc[K];                                                              \
    for (int k = 0; k < K; ++k)                                            \
      acc[k] = 0;                                                          \
    _Pragma("unroll 1")                                                    \
    for (; i + (K - 1) * t < n; i += K * t)                                \
      for (int k = 0; k < K; ++k)                                          \
        acc[k] += a[i + k * t];                                            \
    for (; i < n; i += t)                                                  \
      acc[0] += a[i];                                                      \
    for (int k = 1; k < K; ++k)                                            \
      acc[0] += acc[k];                                                    \
    RW_GROUP_SUM(s, acc[0], partial);                                      \
  }

RD_KERNEL(rd_ilp1, float, 1)
RD_KERNEL(rd_ilp2, float, 2)
RD_KERNEL(rd_ilp4, float, 4)
RD_KERNEL(rd_ilp8, float, 8)
RD_KERNEL(rd_f64_ilp1, double, 1)
RD_KERNEL(rd_f64_ilp4, double, 4)

/* out[i] = v + (i mod 1024): one integer operation per stored element. */
#define WR_KERNEL(NAME, K)                                                 \
  SP_KERNEL void NAME(SP_GLOBAL float *SP_RESTRICT out, float v, int n)    \
  {                                                                        \
    const int t = SP_GSIZE(0);                                             \
    int i = SP_GID(0);                                                     \
    _Pragma("unroll 1")                                                    \
    for (; i + (K - 1) * t < n; i += K * t)                                \
      for (int k = 0; k < K; ++k)                                          \
        out[i + k * t] = v + (float)((i + k * t) & 1023);                  \
    for (; i < n; i += t)                                                  \
      out[i] = v + (float)(i & 1023);                                      \
  }

WR_KERNEL(wr_ilp1, 1)
WR_KERNEL(wr_ilp2, 2)
WR_KERNEL(wr_ilp4, 4)
WR_KERNEL(wr_ilp8, 8)

#define CP_KERNEL(NAME, K)                                                 \
  SP_KERNEL void NAME(SP_GLOBAL const float *SP_RESTRICT a,                \
                      SP_GLOBAL float *SP_RESTRICT c, int n)               \
  {                                                                        \
    const int t = SP_GSIZE(0);                                             \
    int i = SP_GID(0);                                                     \
    float v[K];                                                            \
    _Pragma("unroll 1")                                                    \
    for (; i + (K - 1) * t < n; i += K * t) {                              \
      for (int k = 0; k < K; ++k)                                          \
        v[k] = a[i + k * t];                                               \
      for (int k = 0; k < K; ++k)                                          \
        c[i + k * t] = v[k];                                               \
    }                                                                      \
    for (; i < n; i += t)                                                  \
      c[i] = a[i];                                                         \
  }

CP_KERNEL(cp_ilp1, 1)
CP_KERNEL(cp_ilp4, 4)

/* Reads one float every `stride` floats: out[i] = a[(i * stride) & mask].
 * From a stride of 8 on, every load pulls a 32-byte sector for 4 bytes. */
SP_KERNEL void strided_read(SP_GLOBAL const float *SP_RESTRICT a,
                            SP_GLOBAL float *SP_RESTRICT out, int n,
                            int stride, int mask)
{
  int i = SP_GID(0);
  if (i < n)
    out[i] = a[(int)(((uint)i * (uint)stride) & (uint)mask)];
}
