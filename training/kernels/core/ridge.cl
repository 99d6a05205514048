/* ridge.cl: a read stream of doubles with K dependent fused multiply-adds
 * per element (x <- fma(x, a, b)), around the H100's FP64 roofline ridge:
 * 8 bytes read per K FMAs.  Every work-item takes 16 elements, 4 chains at
 * a time, and sums them; the group's sums are reduced in local memory to
 * one double per group (nothing else is written). */
#include "sp_port.h"

#define RIDGE_LOCAL 256
#define RIDGE_PER_ITEM 16

#define RIDGE_F64(NAME, K)                                                 \
  SP_KERNEL void NAME(SP_GLOBAL const double *SP_RESTRICT in,              \
                      SP_GLOBAL double *SP_RESTRICT partial, double a,     \
                      double b)                                            \
  {                                                                        \
    SP_LOCAL double red[RIDGE_LOCAL];                                      \
    const int lid = SP_LID(0);                                             \
    const int base = SP_GRP(0) * (RIDGE_LOCAL * RIDGE_PER_ITEM) + lid;     \
    double s = 0.0;                                                        \
    for (int j = 0; j < RIDGE_PER_ITEM; j += 4) {                          \
      double x0 = in[base + j * RIDGE_LOCAL];                              \
      double x1 = in[base + (j + 1) * RIDGE_LOCAL];                        \
      double x2 = in[base + (j + 2) * RIDGE_LOCAL];                        \
      double x3 = in[base + (j + 3) * RIDGE_LOCAL];                        \
      for (int k = 0; k < K; ++k) {                                        \
        x0 = fma(x0, a, b);                                                \
        x1 = fma(x1, a, b);                                                \
        x2 = fma(x2, a, b);                                                \
        x3 = fma(x3, a, b);                                                \
      }                                                                    \
      s += ((x0 + x1) + x2) + x3;                                          \
    }                                                                      \
    red[lid] = s;                                                          \
    SP_BARRIER();                                                          \
    for (int off = RIDGE_LOCAL / 2; off > 0; off >>= 1) {                  \
      if (lid < off)                                                       \
        red[lid] += red[lid + off];                                        \
      SP_BARRIER();                                                        \
    }                                                                      \
    if (lid == 0)                                                          \
      partial[SP_GRP(0)] = red[0];                                         \
  }

RIDGE_F64(ridge_f64_k20, 20)
RIDGE_F64(ridge_f64_k40, 40)
