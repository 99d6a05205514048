/* transpose.cl: out = in^T for an n x n float matrix. */
#include "sp_port.h"

/* Coalesced reads, writes strided by n. */
SP_KERNEL void transpose_naive(SP_GLOBAL const float *SP_RESTRICT in,
                               SP_GLOBAL float *SP_RESTRICT out, int n)
{
  int x = SP_GID(0), y = SP_GID(1);
  out[x * n + y] = in[y * n + x];
}

/* Through a 32 x 32 local tile (work-group 32 x 8): coalesced both ways;
 * the column reads of the tile hit one bank 32 times. */
SP_KERNEL void transpose_tiled(SP_GLOBAL const float *SP_RESTRICT in,
                               SP_GLOBAL float *SP_RESTRICT out, int n)
{
  SP_LOCAL float t[32][32];
  int tx = SP_LID(0), ty = SP_LID(1);
  int bx = SP_GRP(0) * 32, by = SP_GRP(1) * 32;
  for (int j = 0; j < 32; j += 8)
    t[ty + j][tx] = in[(by + ty + j) * n + bx + tx];
  SP_BARRIER();
  for (int j = 0; j < 32; j += 8)
    out[(bx + ty + j) * n + by + tx] = t[tx][ty + j];
}

/* The same with each tile row padded by one word: no bank conflicts. */
SP_KERNEL void transpose_tiled_pad(SP_GLOBAL const float *SP_RESTRICT in,
                                   SP_GLOBAL float *SP_RESTRICT out, int n)
{
  SP_LOCAL float t[32][33];
  int tx = SP_LID(0), ty = SP_LID(1);
  int bx = SP_GRP(0) * 32, by = SP_GRP(1) * 32;
  for (int j = 0; j < 32; j += 8)
    t[ty + j][tx] = in[(by + ty + j) * n + bx + tx];
  SP_BARRIER();
  for (int j = 0; j < 32; j += 8)
    out[(bx + ty + j) * n + by + tx] = t[tx][ty + j];
}
