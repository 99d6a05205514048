/* poly.cl: Horner evaluation of sum_k C x^k up to degree deg per element:
 * deg dependent fused multiply-adds per 8 bytes moved, so the degree moves
 * the kernel from bandwidth-bound to compute-bound. */
#include "sp_port.h"

#define POLY_C 0.3183099f

SP_KERNEL void poly_f32(SP_GLOBAL const float *SP_RESTRICT x,
                        SP_GLOBAL float *SP_RESTRICT y, int deg, int n)
{
  int i = SP_GID(0);
  if (i >= n)
    return;
  float xi = x[i], acc = POLY_C;
  for (int k = 0; k < deg; ++k)
    acc = SP_FMAF(acc, xi, POLY_C);
  y[i] = acc;
}

SP_KERNEL void poly_f64(SP_GLOBAL const double *SP_RESTRICT x,
                        SP_GLOBAL double *SP_RESTRICT y, int deg, int n)
{
  int i = SP_GID(0);
  if (i >= n)
    return;
  double xi = x[i], acc = 0.3183099;
  for (int k = 0; k < deg; ++k)
    acc = fma(acc, xi, 0.3183099);
  y[i] = acc;
}
