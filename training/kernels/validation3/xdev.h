/* SPDX-License-Identifier: GPL-3.0-or-later */
/* xdev.h: device-side helpers shared by the third validation suite's
 * sources (training/validation3/).
 *
 * Portable sources cannot hand a local (shared) array to a helper function
 * (OpenCL C needs __local on the parameter, CUDA forbids __shared__ there),
 * so work-group reductions are macros that expand inside the kernel that
 * owns the array. */
#ifndef X_DEV_H
#define X_DEV_H

#include "sp_port.h"

/* Rounding and flooring of floats and a float's bits, spelled per
 * language. */
#if defined(__OPENCL_VERSION__)
#define X_RINTF(x) rint(x)
#define X_FLOORF(x) floor(x)
#define X_F2U(x) as_uint(x)
#else
#define X_RINTF(x) rintf(x)
#define X_FLOORF(x) floorf(x)
#define X_F2U(x) __float_as_uint(x)
#endif

#define X_ADD(a, b) ((a) + (b))

/* Reduces red[0..n) with OP into red[0] (n, the work-group size, a power of
 * two; every work-item t has stored red[t]; contains barriers).  red[0] is
 * valid after, up to the next write to red. */
#define X_TREE(red, t, n, OP)                                 \
  do {                                                        \
    SP_BARRIER();                                             \
    for (int s_ = (n) / 2; s_ > 0; s_ >>= 1) {                \
      if ((t) < s_) (red)[t] = OP((red)[t], (red)[(t) + s_]); \
      SP_BARRIER();                                           \
    }                                                         \
  } while (0)

/* MurmurHash3's 32-bit finaliser: keys, Bloom filter bits, text. */
SP_FN uint x_mix32(uint h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

#endif /* X_DEV_H */
