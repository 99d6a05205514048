/* l2part.cl: repeated sweeps over a buffer of 20-48 MiB, around the
 * H100's 50 MB L2, which is split into two partitions: an SM reaches lines
 * homed in the far partition through the other one, and data read from
 * both sides may be held in both, so what stays resident depends on more
 * than the buffer's size.
 *
 * The buffer is `chunks` chunks of 16 KiB.  At step j group g reads chunk
 * (g + j G) mod chunks, G the number of groups: at every step the grid
 * reads G consecutive chunks, so the groups sweep the buffer together and
 * each chunk comes back once per sweep (a reuse distance of the whole
 * buffer), and no group reads the same chunk twice within a sweep (no L1
 * reuse).  Each work-item keeps four loads in flight; the group's words
 * are summed (modulo 2^32) into one word per group. */
#include "sp_port.h"

#define L2P_LOCAL 256
#define L2P_CHUNK 4096 /* words */

SP_KERNEL void l2part_sweep(SP_GLOBAL const uint *SP_RESTRICT buf,
                            SP_GLOBAL uint *SP_RESTRICT partial, int chunks,
                            int steps)
{
  SP_LOCAL uint red[L2P_LOCAL];
  const int lid = SP_LID(0);
  const int stride = SP_NGRP(0) % chunks;
  int c = SP_GRP(0) % chunks;
  uint s0 = 0u, s1 = 0u, s2 = 0u, s3 = 0u;
  for (int j = 0; j < steps; ++j) {
    SP_GLOBAL const uint *p = buf + c * L2P_CHUNK + lid;
    for (int m = 0; m < L2P_CHUNK; m += 4 * L2P_LOCAL) {
      s0 += p[m];
      s1 += p[m + L2P_LOCAL];
      s2 += p[m + 2 * L2P_LOCAL];
      s3 += p[m + 3 * L2P_LOCAL];
    }
    c += stride;
    if (c >= chunks)
      c -= chunks;
  }
  red[lid] = (s0 + s1) + (s2 + s3);
  SP_BARRIER();
  for (int off = L2P_LOCAL / 2; off > 0; off >>= 1) {
    if (lid < off)
      red[lid] += red[lid + off];
    SP_BARRIER();
  }
  if (lid == 0)
    partial[SP_GRP(0)] = red[0];
}
