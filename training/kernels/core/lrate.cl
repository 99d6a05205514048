/* lrate.cl: streams in tiny work-groups, so the grid has hundreds of
 * thousands to millions of groups and the rate at which the hardware
 * starts groups, not the SMs or DRAM, can set the time.  Every group of L
 * work-items copies (or scales) E * L consecutive floats: work-item t
 * takes elements t, t + L, ..., t + (E - 1) L of its group's span (each
 * step coalesced), all loads before the stores.  The grid covers n
 * exactly (n a multiple of E * L). */
#include "sp_port.h"

#define LRATE_KERNEL(NAME, E, OP)                                          \
  SP_KERNEL void NAME(SP_GLOBAL const float *SP_RESTRICT in,               \
                      SP_GLOBAL float *SP_RESTRICT out, float s)           \
  {                                                                        \
    const int l = SP_LSIZE(0);                                             \
    const int base = SP_GRP(0) * (E * l) + SP_LID(0);                      \
    float v[E];                                                            \
    for (int e = 0; e < E; ++e)                                            \
      v[e] = in[base + e * l];                                             \
    for (int e = 0; e < E; ++e)                                            \
      out[base + e * l] = OP;                                              \
  }

LRATE_KERNEL(lrate_copy_e2, 2, v[e])
LRATE_KERNEL(lrate_copy_e4, 4, v[e])
LRATE_KERNEL(lrate_scale_e1, 1, s * v[e])
LRATE_KERNEL(lrate_scale_e16, 16, s * v[e])
