/* atom.cl: integer atomics from rare to fully contended.  Every work-item
 * performs iters atomic increments at hashed addresses among mask + 1
 * words: in global memory (served by the L2's atomic units), or in a
 * work-group's local memory merged into global memory at the end. */
#include "sp_port.h"

#define ATOM_LOCAL_MAX 1024

SP_FN uint atom_hash(uint g, int k, int iters)
{
  uint h = (g * (uint)iters + (uint)k) * 2654435761u;
  return h ^ (h >> 15);
}

SP_KERNEL void atom_global(SP_GLOBAL uint *ctr, uint mask, int iters)
{
  const uint g = (uint)SP_GID(0);
  for (int k = 0; k < iters; ++k)
    SP_ATOMIC_ADD(&ctr[atom_hash(g, k, iters) & mask], 1u);
}

/* Consecutive work-items update consecutive words: no two updates of one
 * instruction meet, every word is touched iters times in all. */
SP_KERNEL void atom_coalesced(SP_GLOBAL uint *ctr, uint mask, int iters)
{
  const uint g = (uint)SP_GID(0), t = (uint)SP_GSIZE(0);
  for (int k = 0; k < iters; ++k)
    SP_ATOMIC_ADD(&ctr[(g + (uint)k * t) & mask], 1u);
}

SP_KERNEL void atom_local(SP_GLOBAL uint *ctr, uint mask, int iters)
{
  SP_LOCAL uint bins[ATOM_LOCAL_MAX];
  const int lid = SP_LID(0), ls = SP_LSIZE(0);
  const uint g = (uint)SP_GID(0);
  for (int j = lid; j <= (int)mask; j += ls)
    bins[j] = 0u;
  SP_BARRIER();
  for (int k = 0; k < iters; ++k)
    SP_ATOMIC_ADD(&bins[atom_hash(g, k, iters) & mask], 1u);
  SP_BARRIER();
  for (int j = lid; j <= (int)mask; j += ls)
    if (bins[j] != 0u)
      SP_ATOMIC_ADD(&ctr[j], bins[j]);
}

/* Lock-free maximum by compare-and-swap: a failed swap retries, so the
 * cost grows with the number of work-items racing for one word. */
SP_KERNEL void atom_cas_max(SP_GLOBAL uint *best, uint mask, int iters)
{
  const uint g = (uint)SP_GID(0);
  for (int k = 0; k < iters; ++k) {
    uint h = atom_hash(g, k, iters);
    SP_GLOBAL uint *p = &best[h & mask];
    uint v = h >> 8, old = *p;
    while (old < v) {
      uint seen = SP_ATOMIC_CAS(p, old, v);
      if (seen == old)
        break;
      old = seen;
    }
  }
}
