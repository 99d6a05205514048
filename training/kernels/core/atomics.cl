/* atomics.cl: atomic read-modify-writes under different contention. */
#include "sp_port.h"

/* Every work-item increments one word: fully serialized. */
SP_KERNEL void atomic_one(SP_GLOBAL uint *counter, int n)
{
  if (SP_GID(0) < n)
    SP_ATOMIC_ADD(counter, 1u);
}

/* Increments spread over mask+1 words. */
SP_KERNEL void atomic_spread(SP_GLOBAL uint *counters, int n, uint mask)
{
  int i = SP_GID(0);
  if (i < n)
    SP_ATOMIC_ADD(&counters[((uint)i * 7919u) & mask], 1u);
}

SP_FN uint gups_next(uint x)
{
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

/* Random-access updates (GUPS-like): iters atomic XORs per work-item at
 * random words of a table larger than L2. */
SP_KERNEL void gups(SP_GLOBAL uint *table, uint mask, int iters)
{
  uint r = ((uint)SP_GID(0) * 2654435761u) | 1u;
  for (int k = 0; k < iters; ++k) {
    r = gups_next(r);
    SP_ATOMIC_XOR(&table[r & mask], r);
  }
}
