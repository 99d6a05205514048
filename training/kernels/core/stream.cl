/* stream.cl: streaming kernels (bandwidth-bound, one element per work-item). */
#include "sp_port.h"

SP_KERNEL void stream_copy(SP_GLOBAL const float *SP_RESTRICT a,
                           SP_GLOBAL float *SP_RESTRICT c, int n)
{
  int i = SP_GID(0);
  if (i < n)
    c[i] = a[i];
}

SP_KERNEL void stream_scale(SP_GLOBAL const float *SP_RESTRICT b,
                            SP_GLOBAL float *SP_RESTRICT c, float s, int n)
{
  int i = SP_GID(0);
  if (i < n)
    c[i] = s * b[i];
}

SP_KERNEL void stream_add(SP_GLOBAL const float *SP_RESTRICT a,
                          SP_GLOBAL const float *SP_RESTRICT b,
                          SP_GLOBAL float *SP_RESTRICT c, int n)
{
  int i = SP_GID(0);
  if (i < n)
    c[i] = a[i] + b[i];
}

SP_KERNEL void stream_triad(SP_GLOBAL const float *SP_RESTRICT b,
                            SP_GLOBAL const float *SP_RESTRICT c,
                            SP_GLOBAL float *SP_RESTRICT a, float s, int n)
{
  int i = SP_GID(0);
  if (i < n)
    a[i] = b[i] + s * c[i];
}

SP_KERNEL void stream_triad_f64(SP_GLOBAL const double *SP_RESTRICT b,
                                SP_GLOBAL const double *SP_RESTRICT c,
                                SP_GLOBAL double *SP_RESTRICT a, double s,
                                int n)
{
  int i = SP_GID(0);
  if (i < n)
    a[i] = b[i] + s * c[i];
}

/* Reads with a stride of 32 floats (one 128-byte line per work-item), so
 * each read uses 4 of the 32 bytes of the sector it pulls in. */
SP_KERNEL void stream_stride32(SP_GLOBAL const float *SP_RESTRICT a,
                               SP_GLOBAL float *SP_RESTRICT c, int n, int mask)
{
  int i = SP_GID(0);
  if (i < n)
    c[i] = a[(i * 32) & mask] + a[(i * 32 + 1) & mask];
}
