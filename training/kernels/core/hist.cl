/* hist.cl: histograms with atomic increments. */
#include "sp_port.h"

/* Global atomics, one per element; mask picks the number of bins (few bins:
 * heavy contention on the same words). */
SP_KERNEL void hist_global(SP_GLOBAL const uint *SP_RESTRICT data,
                           SP_GLOBAL uint *bins, int n, uint mask)
{
  int i = SP_GID(0);
  if (i < n)
    SP_ATOMIC_ADD(&bins[data[i] & mask], 1u);
}

/* A private 256-bin histogram per work-group in local memory (local
 * atomics), merged into the global one at the end.  Each work-item counts
 * 16 elements. */
SP_KERNEL void hist_local256(SP_GLOBAL const uint *SP_RESTRICT data,
                             SP_GLOBAL uint *bins, int n)
{
  SP_LOCAL uint h[256];
  int lid = SP_LID(0);
  h[lid] = 0u;
  SP_BARRIER();
  for (int k = 0; k < 16; ++k) {
    int i = (SP_GRP(0) * 16 + k) * 256 + lid;
    if (i < n)
      SP_ATOMIC_ADD(&h[data[i] & 255u], 1u);
  }
  SP_BARRIER();
  if (h[lid] != 0u)
    SP_ATOMIC_ADD(&bins[lid], h[lid]);
}
