/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wdev.h: device-side helpers shared by the second validation suite's
 * sources (training/validation2/).
 *
 * Portable sources cannot hand a local (shared) array to a helper function
 * (OpenCL C needs __local on the parameter, CUDA forbids __shared__ there),
 * so work-group reductions are macros that expand inside the kernel that
 * owns the array. */
#ifndef W_DEV_H
#define W_DEV_H

#include "sp_port.h"

#define W_ADD(a, b) ((a) + (b))

/* Tree-reduces red[0..n) with OP into red[0].  n is the work-group size, a
 * power of two; every work-item t has stored its value in red[t] and all of
 * them reach this point (it contains barriers).  red[0] is valid after, up
 * to the next write to red. */
#define W_TREE(red, t, n, OP)                                 \
  do {                                                        \
    SP_BARRIER();                                             \
    for (int s_ = (n) / 2; s_ > 0; s_ >>= 1) {                \
      if ((t) < s_) (red)[t] = OP((red)[t], (red)[(t) + s_]); \
      SP_BARRIER();                                           \
    }                                                         \
  } while (0)

/* A 32-bit integer hash (lowbias32), for hashed keys and jitter. */
SP_FN uint w_hash(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

#endif /* W_DEV_H */
