/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ydev.h: device-side helpers shared by the fourth validation suite's
 * sources (training/validation4/).
 *
 * Portable sources cannot hand a local (shared) array to a helper function,
 * so work-group reductions are macros that expand inside the kernel that
 * owns the array. */
#ifndef Y_DEV_H
#define Y_DEV_H

#include "sp_port.h"

/* A float's bits and back, spelled per language. */
#if defined(__OPENCL_VERSION__)
#define Y_F2U(x) as_uint(x)
#define Y_U2F(x) as_float(x)
#else
#define Y_F2U(x) __float_as_uint(x)
#define Y_U2F(x) __uint_as_float(x)
#endif

/* Sums red[0..n) into red[0] (n, the work-group size, a power of two; every
 * work-item t has stored red[t]; contains barriers). */
#define Y_SUM(red, t, n)                                   \
  do {                                                     \
    SP_BARRIER();                                          \
    for (int s_ = (n) / 2; s_ > 0; s_ >>= 1) {             \
      if ((t) < s_) (red)[t] = (red)[t] + (red)[(t) + s_]; \
      SP_BARRIER();                                        \
    }                                                      \
  } while (0)

/* A 32-bit integer hash (Wang / Jenkins-style avalanche), for the suite's
 * counter-based random numbers: the host computes the same function. */
SP_FN uint y_hash(uint a) {
  a = (a ^ 61u) ^ (a >> 16);
  a *= 9u;
  a ^= a >> 4;
  a *= 0x27d4eb2du;
  a ^= a >> 15;
  return a;
}

/* A uniform float in [0, 1) from 24 bits of a hash. */
SP_FN float y_unit(uint h) { return (float)(h >> 8) * (1.0f / 16777216.0f); }

#endif /* Y_DEV_H */
