/* chase.cl: pointer chasing.  Each work-item follows `steps` links of a
 * random single-cycle permutation; every load depends on the previous one,
 * so time is latency x steps / (work-items in flight). */
#include "sp_port.h"

SP_KERNEL void chase(SP_GLOBAL const uint *SP_RESTRICT next,
                     SP_GLOBAL const uint *SP_RESTRICT start,
                     SP_GLOBAL uint *SP_RESTRICT out, int steps)
{
  int gid = SP_GID(0);
  uint p = start[gid];
  for (int s = 0; s < steps; ++s)
    p = next[p];
  out[gid] = p;
}
