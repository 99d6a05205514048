/* hash.cl: integer hashing (ALU-bound integer work). */
#include "sp_port.h"

SP_FN uint fmix32(uint h)
{
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/* rounds x MurmurHash3 finalizer: 32-bit multiplies and shifts. */
SP_KERNEL void hash_murmur(SP_GLOBAL const uint *SP_RESTRICT in,
                           SP_GLOBAL uint *SP_RESTRICT out, int n, int rounds)
{
  int i = SP_GID(0);
  if (i >= n)
    return;
  uint h = in[i];
  for (int r = 0; r < rounds; ++r)
    h = fmix32(h + (uint)r);
  out[i] = h;
}

/* FNV-1a over each work-item's own 64-byte record, byte by byte: strided
 * reads and byte extraction. */
SP_KERNEL void hash_fnv1a(SP_GLOBAL const uint *SP_RESTRICT in,
                          SP_GLOBAL uint *SP_RESTRICT out, int n)
{
  int i = SP_GID(0);
  if (i >= n)
    return;
  uint h = 2166136261u;
  for (int w = 0; w < 16; ++w) {
    uint v = in[i * 16 + w];
    for (int b = 0; b < 4; ++b) {
      h ^= (v >> (8 * b)) & 255u;
      h *= 16777619u;
    }
  }
  out[i] = h;
}

/* splitmix64 rounds: 64-bit multiplies, emulated with several 32-bit
 * multiply-adds on GPUs. */
SP_KERNEL void hash_splitmix64(SP_GLOBAL const uint *SP_RESTRICT in,
                               SP_GLOBAL uint *SP_RESTRICT out, int n,
                               int rounds)
{
  int i = SP_GID(0);
  if (i >= n)
    return;
  ulong z = (ulong)in[i] | ((ulong)(uint)i << 32);
  for (int r = 0; r < rounds; ++r) {
    z += (ulong)0x9E3779B97F4A7C15UL;
    z = (z ^ (z >> 30)) * (ulong)0xBF58476D1CE4E5B9UL;
    z = (z ^ (z >> 27)) * (ulong)0x94D049BB133111EBUL;
    z ^= z >> 31;
  }
  out[i] = (uint)(z ^ (z >> 32));
}

/* Population counts of `words` words per work-item, read coalesced. */
SP_KERNEL void popcount_sum(SP_GLOBAL const uint *SP_RESTRICT in,
                            SP_GLOBAL uint *SP_RESTRICT out, int n, int words)
{
  int i = SP_GID(0);
  if (i >= n)
    return;
  uint c = 0u;
  for (int w = 0; w < words; ++w)
    c += SP_POPCOUNT(in[w * n + i]);
  out[i] = c;
}
