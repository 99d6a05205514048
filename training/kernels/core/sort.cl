/* sort.cl: bitonic sorting networks. */
#include "sp_port.h"

/* Sorts each 1024-key chunk in local memory (work-group of 512): 55
 * compare-exchange steps separated by barriers. */
SP_KERNEL void bitonic_local(SP_GLOBAL const uint *SP_RESTRICT in,
                             SP_GLOBAL uint *SP_RESTRICT out)
{
  SP_LOCAL uint k[1024];
  int lid = SP_LID(0), base = SP_GRP(0) * 1024;
  k[lid] = in[base + lid];
  k[lid + 512] = in[base + lid + 512];
  SP_BARRIER();
  for (int size = 2; size <= 1024; size <<= 1)
    for (int stride = size / 2; stride > 0; stride >>= 1) {
      int pos = 2 * lid - (lid & (stride - 1));
      uint a = k[pos], b = k[pos + stride];
      int ascending = (pos & size) == 0;
      if ((a > b) == ascending) {
        k[pos] = b;
        k[pos + stride] = a;
      }
      SP_BARRIER();
    }
  out[base + lid] = k[lid];
  out[base + lid + 512] = k[lid + 512];
}

/* One global compare-exchange step (partner distance j inside bitonic
 * sequences of length k), out of place: a pure streaming pass with
 * partner reads j elements away. */
SP_KERNEL void bitonic_step(SP_GLOBAL const uint *SP_RESTRICT in,
                            SP_GLOBAL uint *SP_RESTRICT out, int j, int k)
{
  int i = SP_GID(0), partner = i ^ j;
  uint a = in[i], b = in[partner];
  int keep_min = (i < partner) == ((i & k) == 0);
  uint lo = a < b ? a : b, hi = a < b ? b : a;
  out[i] = keep_min ? lo : hi;
}
