/* fake.cl: the device half of the fake suite (fake.c), portable OpenCL C /
 * CUDA C++ through the shared headers. */
#include "sp_dev.h"

SP_KERNEL void f_axpy(SP_GLOBAL const float *SP_RESTRICT x, SP_GLOBAL float *SP_RESTRICT y,
                      float a, int n)
{
  int i = SP_GID(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}

SP_KERNEL void f_hashsum(SP_GLOBAL uint *out, int n)
{
  SP_LOCAL uint red[64];
  const int t = SP_LID(0), i = SP_GID(0);
  red[t] = i < n ? (sp_lowbias32((uint)i) & 0xffffu) : 0u;
  SP_TREE(red, t, 64, SP_ADD);
  if (t == 0)
    out[SP_GRP(0)] = red[0];
}
