/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp_dev.h: device-side helpers shared by the suites' sources (every suite
 * folder of training/suites.txt; with sp_port.h, in training/kernels/common).
 *
 * One copy of what the ten validation suites each carried under a letter
 * prefix (vdev.h, wdev.h, xdev.h, ydev.h, zdev.h, qdev.h, rdev.h, sdev.h,
 * tdev.h, udev.h), each helper under one name: the same expression as
 * before, so every kernel computes exactly what it did.  Helpers that differ
 * in what they compute (the four integer hashes) keep a name each.  A host
 * reference that mirrors a helper names it.
 *
 * Portable sources cannot hand a local (shared) array to a helper function
 * (OpenCL C needs __local on the parameter, CUDA forbids __shared__ there),
 * so work-group reductions are macros that expand inside the kernel that
 * owns the array. */
#ifndef SP_DEV_H
#define SP_DEV_H

#include "sp_port.h"

/* Rounding and flooring of floats, a float's bits and back, and
 * SP_BOUNDS(n), between SP_KERNEL and a kernel's return type: the kernel is
 * always launched with work-groups of n, so CUDA may give each work-item up
 * to 65536 / n registers (without it NVRTC may take more than a group of n
 * can have, and the launch fails). */
#if defined(__OPENCL_VERSION__)
#define SP_RINTF(x) rint(x)
#define SP_FLOORF(x) floor(x)
#define SP_F2U(x) as_uint(x)
#define SP_U2F(x) as_float(x)
#define SP_BOUNDS(n) __attribute__((reqd_work_group_size(n, 1, 1)))
#else
typedef unsigned short ushort; /* OpenCL C has it built in */
#define SP_RINTF(x) rintf(x)
#define SP_FLOORF(x) floorf(x)
#define SP_F2U(x) __float_as_uint(x)
#define SP_U2F(x) __uint_as_float(x)
#define SP_BOUNDS(n) __launch_bounds__(n)
#endif

#define SP_ADD(a, b) ((a) + (b))

/* Tree-reduces red[0..n) with OP into red[0].  n is the work-group size, a
 * power of two; every work-item t has stored its value in red[t] and all of
 * them reach this point (it starts and ends with a barrier).  red[0] is
 * valid after, up to the next write to red.  (V_TREE, W_TREE, X_TREE.) */
#define SP_TREE(red, t, n, OP)                                \
  do {                                                        \
    SP_BARRIER();                                             \
    for (int s_ = (n) / 2; s_ > 0; s_ >>= 1) {                \
      if ((t) < s_) (red)[t] = OP((red)[t], (red)[(t) + s_]); \
      SP_BARRIER();                                           \
    }                                                         \
  } while (0)

/* Sums red[0..n) into red[0], as SP_TREE with +.  (Y_SUM, Z_SUM, Q_SUM,
 * R_SUM.) */
#define SP_SUM(red, t, n)                                  \
  do {                                                     \
    SP_BARRIER();                                          \
    for (int s_ = (n) / 2; s_ > 0; s_ >>= 1) {             \
      if ((t) < s_) (red)[t] = (red)[t] + (red)[(t) + s_]; \
      SP_BARRIER();                                        \
    }                                                      \
  } while (0)

/* GELU, tanh approximation, with tanh written through exp so that both
 * languages use the single-precision exponential.  (v_gelu.) */
SP_FN float sp_gelu(float x) {
  const float u = 0.7978845608f * (x + 0.044715f * x * x * x);
  const float th = 1.0f - 2.0f / (SP_EXPF(2.0f * u) + 1.0f);
  return 0.5f * x * (1.0f + th);
}

/* A 32-bit integer hash: Wellons' lowbias32.  (w_hash, z_hash, r_hash,
 * s_hash, t_hash.) */
SP_FN uint sp_lowbias32(uint h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

/* A 32-bit integer hash: MurmurHash3's finaliser, fmix32.  (x_mix32,
 * q_hash.) */
SP_FN uint sp_fmix32(uint h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/* A 32-bit integer hash: Wang / Jenkins-style avalanche.  (y_hash.) */
SP_FN uint sp_wang32(uint a) {
  a = (a ^ 61u) ^ (a >> 16);
  a *= 9u;
  a ^= a >> 4;
  a *= 0x27d4eb2du;
  a ^= a >> 15;
  return a;
}

/* A 32-bit integer hash: Mueller's.  (u_hash.) */
SP_FN uint sp_mueller32(uint h) {
  h = ((h >> 16) ^ h) * 0x45d9f3bu;
  h = ((h >> 16) ^ h) * 0x45d9f3bu;
  return (h >> 16) ^ h;
}

/* A uniform float in [0, 1) from the top 24 bits of a hash.  (y_unit.) */
SP_FN float sp_unit24(uint h) { return (float)(h >> 8) * (1.0f / 16777216.0f); }

/* |v| of an int as an int (OpenCL's abs returns an unsigned type).
 * (t_iabs.) */
SP_FN int sp_iabs(int v) { return v < 0 ? -v : v; }

#endif /* SP_DEV_H */
