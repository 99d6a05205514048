/* matmul.cl: dense n x n single- and double-precision matrix products,
 * row-major, C = A B. */
#include "sp_port.h"

/* One work-item per element of C; x runs along a row of C, so B and C are
 * accessed coalesced and A is broadcast. */
SP_KERNEL void mm_naive(SP_GLOBAL const float *SP_RESTRICT a,
                        SP_GLOBAL const float *SP_RESTRICT b,
                        SP_GLOBAL float *SP_RESTRICT c, int n)
{
  int col = SP_GID(0), row = SP_GID(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}

/* The same with x running down a column of C: A reads and C writes are
 * strided by n (uncoalesced). */
SP_KERNEL void mm_naive_strided(SP_GLOBAL const float *SP_RESTRICT a,
                                SP_GLOBAL const float *SP_RESTRICT b,
                                SP_GLOBAL float *SP_RESTRICT c, int n)
{
  int row = SP_GID(0), col = SP_GID(1);
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}

/* 16 x 16 tiles of A and B in local memory. */
SP_KERNEL void mm_tiled16(SP_GLOBAL const float *SP_RESTRICT a,
                          SP_GLOBAL const float *SP_RESTRICT b,
                          SP_GLOBAL float *SP_RESTRICT c, int n)
{
  SP_LOCAL float as[16][16];
  SP_LOCAL float bs[16][16];
  int tx = SP_LID(0), ty = SP_LID(1);
  int col = SP_GID(0), row = SP_GID(1);
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += 16) {
    as[ty][tx] = a[row * n + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * n + col];
    SP_BARRIER();
    for (int k = 0; k < 16; ++k)
      acc += as[ty][k] * bs[k][tx];
    SP_BARRIER();
  }
  c[row * n + col] = acc;
}

SP_KERNEL void mm_tiled16_f64(SP_GLOBAL const double *SP_RESTRICT a,
                              SP_GLOBAL const double *SP_RESTRICT b,
                              SP_GLOBAL double *SP_RESTRICT c, int n)
{
  SP_LOCAL double as[16][16];
  SP_LOCAL double bs[16][16];
  int tx = SP_LID(0), ty = SP_LID(1);
  int col = SP_GID(0), row = SP_GID(1);
  double acc = 0.0;
  for (int k0 = 0; k0 < n; k0 += 16) {
    as[ty][tx] = a[row * n + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * n + col];
    SP_BARRIER();
    for (int k = 0; k < 16; ++k)
      acc += as[ty][k] * bs[k][tx];
    SP_BARRIER();
  }
  c[row * n + col] = acc;
}

/* 64 x 64 tile of C per 16 x 16 work-group, 4 x 4 elements per work-item
 * held in registers (register blocking): 16 multiply-adds per pair of
 * local loads instead of one. */
SP_KERNEL void mm_regblock(SP_GLOBAL const float *SP_RESTRICT a,
                           SP_GLOBAL const float *SP_RESTRICT b,
                           SP_GLOBAL float *SP_RESTRICT c, int n)
{
  SP_LOCAL float as[16][64];
  SP_LOCAL float bs[16][64];
  int tx = SP_LID(0), ty = SP_LID(1), lid = ty * 16 + tx;
  int row0 = SP_GRP(1) * 64, col0 = SP_GRP(0) * 64;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      acc[i][j] = 0.0f;
  for (int k0 = 0; k0 < n; k0 += 16) {
    for (int l = 0; l < 4; ++l) {
      int e = lid + 256 * l;       /* 0..1023 */
      int am = e >> 4, ak = e & 15; /* A tile: 64 rows x 16 columns */
      as[ak][am] = a[(row0 + am) * n + k0 + ak];
      int bk = e >> 6, bn = e & 63; /* B tile: 16 rows x 64 columns */
      bs[bk][bn] = b[(k0 + bk) * n + col0 + bn];
    }
    SP_BARRIER();
    for (int k = 0; k < 16; ++k) {
      float av[4], bv[4];
      for (int i = 0; i < 4; ++i)
        av[i] = as[k][ty + 16 * i];
      for (int j = 0; j < 4; ++j)
        bv[j] = bs[k][tx + 16 * j];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += av[i] * bv[j];
    }
    SP_BARRIER();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      c[(row0 + ty + 16 * i) * n + col0 + tx + 16 * j] = acc[i][j];
}
