/* SPDX-License-Identifier: GPL-3.0-or-later */
/* qdev.h: device-side helpers shared by the sixth validation suite's
 * sources (training/validation6/).
 *
 * Portable sources cannot hand a local (shared) array to a helper function,
 * so work-group reductions are macros that expand inside the kernel that
 * owns the array. */
#ifndef Q_DEV_H
#define Q_DEV_H

#include "sp_port.h"

/* Sums red[0..n) into red[0] (n, the work-group size, a power of two; every
 * work-item t has stored red[t]; contains barriers). */
#define Q_SUM(red, t, n)                                   \
  do {                                                     \
    SP_BARRIER();                                          \
    for (int s_ = (n) / 2; s_ > 0; s_ >>= 1) {             \
      if ((t) < s_) (red)[t] = (red)[t] + (red)[(t) + s_]; \
      SP_BARRIER();                                        \
    }                                                      \
  } while (0)

/* A 32-bit integer hash (the finaliser of MurmurHash3, fmix32): the host
 * computes the same function (q_hash_host). */
SP_FN uint q_hash(uint h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

#endif /* Q_DEV_H */
