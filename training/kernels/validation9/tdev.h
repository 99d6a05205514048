/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tdev.h: device-side helpers shared by the ninth validation suite's
 * sources (training/validation9/). */
#ifndef T_DEV_H
#define T_DEV_H

#include "sp_port.h"

/* T_BOUNDS(n), between SP_KERNEL and a kernel's return type: the kernel is
 * always launched with work-groups of n, so CUDA may give each work-item
 * up to 65536 / n registers (without it NVRTC may take more than a group of
 * n can have, and the launch fails). */
#if defined(__OPENCL_VERSION__)
#define T_BOUNDS(n) __attribute__((reqd_work_group_size(n, 1, 1)))
#else
typedef unsigned short ushort; /* OpenCL C has it built in */
#define T_BOUNDS(n) __launch_bounds__(n)
#endif

/* A 32-bit integer hash (Wellons' lowbias32): the host computes the same
 * function (t_hash_host). */
SP_FN uint t_hash(uint h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

/* |v| of an int as an int (OpenCL's abs returns an unsigned type). */
SP_FN int t_iabs(int v) { return v < 0 ? -v : v; }

#endif /* T_DEV_H */
