/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vdev.h: device-side helpers shared by the validation kernels' sources.
 *
 * Portable sources cannot hand a local (shared) array to a helper function:
 * OpenCL C needs the __local qualifier on the parameter and CUDA forbids
 * __shared__ there.  Work-group reductions are therefore macros that expand
 * inside the kernel that owns the array. */
#ifndef V_DEV_H
#define V_DEV_H

#include "sp_port.h"

#define V_ADD(a, b) ((a) + (b))

/* Tree-reduces red[0..n) with OP into red[0].  n is the work-group size, a
 * power of two; every work-item t has stored its value in red[t] and all of
 * them reach this point (it contains barriers).  red[0] is valid after. */
#define V_TREE(red, t, n, OP)                                 \
  do {                                                        \
    SP_BARRIER();                                             \
    for (int s_ = (n) / 2; s_ > 0; s_ >>= 1) {                \
      if ((t) < s_) (red)[t] = OP((red)[t], (red)[(t) + s_]); \
      SP_BARRIER();                                           \
    }                                                         \
  } while (0)

/* GELU, tanh approximation, with tanh written through exp so that both
 * languages use the single-precision exponential. */
SP_FN float v_gelu(float x) {
  const float u = 0.7978845608f * (x + 0.044715f * x * x * x);
  const float th = 1.0f - 2.0f / (SP_EXPF(2.0f * u) + 1.0f);
  return 0.5f * x * (1.0f + th);
}

#endif /* V_DEV_H */
