/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rdev.h: device-side helpers shared by the seventh validation suite's
 * sources (training/validation7/).
 *
 * Portable sources cannot hand a local (shared) array to a helper function,
 * so the work-group reduction is a macro that expands inside the kernel that
 * owns the array. */
#ifndef R_DEV_H
#define R_DEV_H

#include "sp_port.h"

#if !defined(__OPENCL_VERSION__)
typedef unsigned short ushort; /* OpenCL C has it built in */
#endif

/* Sums red[0..n) into red[0] (n, the work-group size, a power of two; every
 * work-item t has stored red[t]; starts and ends with a barrier). */
#define R_SUM(red, t, n)                                   \
  do {                                                     \
    SP_BARRIER();                                          \
    for (int s_ = (n) / 2; s_ > 0; s_ >>= 1) {             \
      if ((t) < s_) (red)[t] = (red)[t] + (red)[(t) + s_]; \
      SP_BARRIER();                                        \
    }                                                      \
  } while (0)

/* A 32-bit integer hash (Wellons' lowbias32): the host computes the same
 * function (r_hash_host). */
SP_FN uint r_hash(uint h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

#endif /* R_DEV_H */
