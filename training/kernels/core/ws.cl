/* ws.cl: working-set sweep.  A fixed number of reads (passes x work-items)
 * cycles over a buffer whose size varies per variant, so the same access
 * stream is served from L2 when the buffer fits and from DRAM when not. */
#include "sp_port.h"

SP_KERNEL void ws_read(SP_GLOBAL const float *SP_RESTRICT buf,
                       SP_GLOBAL float *SP_RESTRICT out, int mask, int passes)
{
  int gid = SP_GID(0), t = SP_GSIZE(0);
  float acc = 0.0f;
  for (int p = 0; p < passes; ++p)
    acc += buf[(gid + p * t) & mask];
  out[gid] = acc;
}
