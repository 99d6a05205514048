/* SPDX-License-Identifier: GPL-3.0-or-later */
/* zdev.h: device-side helpers shared by the fifth validation suite's
 * sources (training/validation5/).
 *
 * Portable sources cannot hand a local (shared) array to a helper function,
 * so work-group reductions are macros that expand inside the kernel that
 * owns the array. */
#ifndef Z_DEV_H
#define Z_DEV_H

#include "sp_port.h"

/* Sums red[0..n) into red[0] (n, the work-group size, a power of two; every
 * work-item t has stored red[t]; contains barriers). */
#define Z_SUM(red, t, n)                                   \
  do {                                                     \
    SP_BARRIER();                                          \
    for (int s_ = (n) / 2; s_ > 0; s_ >>= 1) {             \
      if ((t) < s_) (red)[t] = (red)[t] + (red)[(t) + s_]; \
      SP_BARRIER();                                        \
    }                                                      \
  } while (0)

/* A 32-bit integer hash (lowbias32 by C. Wellons), for the suite's
 * counter-based random numbers: the host computes the same function. */
SP_FN uint z_hash(uint a) {
  a ^= a >> 16;
  a *= 0x7feb352du;
  a ^= a >> 15;
  a *= 0x846ca68bu;
  a ^= a >> 16;
  return a;
}

#endif /* Z_DEV_H */
