/* append.cl: appends through one global counter (stream compaction, queue
 * push, neighbour-list construction).  Every qualifying work-item takes the
 * next slot of ONE counter with an atomic add and writes its payload there,
 * so the launch is held by the rate at which the L2 serves atomics on one
 * address, not by the SMs.
 *
 * The output is a ring of mask + 1 slots: the counter is not reset between
 * launches (only before the checked one), so relaunches keep appending, at
 * other slots, within bounds.  The order of the slots depends on the order
 * in which the atomics were served: the host checks the set.
 *
 * For sm_90, ptxas turns the atomic of append_item and append_pairs (one
 * address, known to be the same in every lane) into one per warp (VOTEU,
 * POPC, SHFL in the SASS, like appendw.cu's explicit form); append_queue's
 * address is not known to be uniform, so it issues one per element. */
#include "sp_port.h"

/* Element i qualifies when key[i] <= thresh; its slot gets i and
 * 2 val[i] + 1 (exact for the dyadic values the host writes). */
SP_KERNEL void append_item(SP_GLOBAL const uint *SP_RESTRICT key,
                           SP_GLOBAL const float *SP_RESTRICT val,
                           SP_GLOBAL uint *ctr,
                           SP_GLOBAL uint *SP_RESTRICT out_idx,
                           SP_GLOBAL float *SP_RESTRICT out_val, uint thresh,
                           uint mask, int n)
{
  const int i = SP_GID(0);
  if (i < n && key[i] <= thresh) {
    const uint p = SP_ATOMIC_ADD(ctr, 1u) & mask;
    out_idx[p] = (uint)i;
    out_val[p] = 2.0f * val[i] + 1.0f;
  }
}

/* append_item with the counter picked per element, ctr[key & qmask]: the
 * host passes qmask 0 (one queue), so every element still meets on one
 * word, but the compiler cannot tell that the address is the same across
 * the warp and issues one atomic per qualifying element. */
SP_KERNEL void append_queue(SP_GLOBAL const uint *SP_RESTRICT key,
                            SP_GLOBAL const float *SP_RESTRICT val,
                            SP_GLOBAL uint *ctr,
                            SP_GLOBAL uint *SP_RESTRICT out_idx,
                            SP_GLOBAL float *SP_RESTRICT out_val, uint thresh,
                            uint mask, int n, uint qmask)
{
  const int i = SP_GID(0);
  if (i < n) {
    const uint k = key[i];
    if (k <= thresh) {
      const uint p = SP_ATOMIC_ADD(&ctr[k & qmask], 1u) & mask;
      out_idx[p] = (uint)i;
      out_val[p] = 2.0f * val[i] + 1.0f;
    }
  }
}

/* Neighbour pairs on a line: positions pos[] increase, and work-item i
 * tests the next `window` points, appending the pair (i, j) when
 * pos[j] - pos[i] < cutoff.  One atomic per pair found. */
SP_KERNEL void append_pairs(SP_GLOBAL const uint *SP_RESTRICT pos,
                            SP_GLOBAL uint *ctr,
                            SP_GLOBAL uint *SP_RESTRICT out_i,
                            SP_GLOBAL uint *SP_RESTRICT out_j, uint cutoff,
                            uint mask, int n, int window)
{
  const int i = SP_GID(0);
  if (i >= n)
    return;
  const uint pi = pos[i];
  const int last = i + window < n ? i + window : n - 1;
  for (int j = i + 1; j <= last; ++j) {
    if (pos[j] - pi < cutoff) {
      const uint p = SP_ATOMIC_ADD(ctr, 1u) & mask;
      out_i[p] = (uint)i;
      out_j[p] = (uint)j;
    }
  }
}
