/* lmem.cl: local-memory bank conflicts.  Work-item l reads word
 * (l*stride + k) mod 2048 in iteration k: stride 1 is conflict-free,
 * stride 2 puts two work-items of a warp on one bank, stride 32 all of
 * them. */
#include "sp_port.h"

SP_KERNEL void lmem_stride(SP_GLOBAL uint *SP_RESTRICT out, int stride,
                           int iters)
{
  SP_LOCAL uint t[2048];
  int lid = SP_LID(0), grp = SP_GRP(0);
  for (int k = lid; k < 2048; k += SP_LSIZE(0))
    t[k] = (uint)k * 2654435761u ^ (uint)grp;
  SP_BARRIER();
  uint acc = 0u;
  int base = lid * stride;
  for (int k = 0; k < iters; ++k)
    acc += t[(base + k) & 2047];
  out[SP_GID(0)] = acc;
}
