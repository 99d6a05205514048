/* SPDX-License-Identifier: GPL-3.0-or-later */
/* udev.h: device-side helpers shared by the tenth validation suite's
 * sources (training/validation10/). */
#ifndef U_DEV_H
#define U_DEV_H

#include "sp_port.h"

/* U_BOUNDS(n), between SP_KERNEL and a kernel's return type: the kernel is
 * always launched with work-groups of n (CUDA may then give each work-item
 * up to 65536 / n registers; without it NVRTC may take more than a group of
 * n can have). */
#if defined(__OPENCL_VERSION__)
#define U_BOUNDS(n) __attribute__((reqd_work_group_size(n, 1, 1)))
#else
typedef unsigned short ushort; /* OpenCL C has it built in */
#define U_BOUNDS(n) __launch_bounds__(n)
#endif

/* A 32-bit integer hash (Mueller's): the host computes the same function
 * (u_hash_host). */
SP_FN uint u_hash(uint h) {
  h = ((h >> 16) ^ h) * 0x45d9f3bu;
  h = ((h >> 16) ^ h) * 0x45d9f3bu;
  return (h >> 16) ^ h;
}

#endif /* U_DEV_H */
