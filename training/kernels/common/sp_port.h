/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp_port.h: lets one kernel source compile as OpenCL C (1.2 or later) and
 * as CUDA C++ (NVRTC or nvcc).
 *
 * Kernel sources in every suite folder use only the names defined here for
 * anything the two languages spell differently: address-space qualifiers,
 * work-item ids, barriers, atomics and the float-specific math functions.
 * Everything else (C arithmetic, int/uint/float/double, loops, fixed-size
 * local arrays declared at kernel scope) is common to both languages.
 *
 * Rules a kernel source follows so that it stays portable:
 *  - no vector types, no pointers to local memory as kernel arguments, no
 *    dynamically sized local memory: local arrays have compile-time sizes;
 *  - helper functions are declared SP_FN, kernels SP_KERNEL;
 *  - ids are ints (problem sizes stay below 2^31 elements);
 *  - float math goes through the SP_*F macros so CUDA gets the single
 *    precision function rather than the double one.
 */
#ifndef SP_PORT_H
#define SP_PORT_H

#if defined(__OPENCL_VERSION__)

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define SP_KERNEL __kernel
#define SP_FN static inline
#define SP_GLOBAL __global
#define SP_LOCAL __local
#define SP_CONSTANT __constant
#define SP_RESTRICT restrict

#define SP_LID(d) ((int)get_local_id(d))
#define SP_GRP(d) ((int)get_group_id(d))
#define SP_LSIZE(d) ((int)get_local_size(d))
#define SP_NGRP(d) ((int)get_num_groups(d))
#define SP_GID(d) ((int)get_global_id(d))
#define SP_GSIZE(d) ((int)get_global_size(d))

#define SP_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#define SP_BARRIER_GLOBAL() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
/* Orders this work-item's global writes before its later ones as seen by
 * other work-groups (no barrier: may be called by one work-item). */
#define SP_FENCE_GLOBAL() mem_fence(CLK_GLOBAL_MEM_FENCE)

#define SP_ATOMIC_ADD(p, v) atomic_add((p), (v))
#define SP_ATOMIC_XOR(p, v) atomic_xor((p), (v))
#define SP_ATOMIC_MAX(p, v) atomic_max((p), (v))
#define SP_ATOMIC_MIN(p, v) atomic_min((p), (v))
#define SP_ATOMIC_CAS(p, cmp, v) atomic_cmpxchg((p), (cmp), (v))

#define SP_SINF(x) sin(x)
#define SP_COSF(x) cos(x)
#define SP_EXPF(x) exp(x)
#define SP_LOGF(x) log(x)
#define SP_SQRTF(x) sqrt(x)
#define SP_RSQRTF(x) rsqrt(x)
#define SP_FABSF(x) fabs(x)
#define SP_FMAF(a, b, c) fma((a), (b), (c))
#define SP_FMINF(a, b) fmin((a), (b))
#define SP_FMAXF(a, b) fmax((a), (b))
#define SP_RSQRT(x) rsqrt(x)
#define SP_POPCOUNT(x) popcount(x)
#define SP_MULHI(a, b) mul_hi((a), (b))
#define SP_ROTL(x, n) rotate((x), (uint)(n))

#elif defined(__CUDACC__) || defined(__CUDACC_RTC__)

typedef unsigned int uint;
typedef unsigned char uchar;
typedef unsigned long ulong; /* 64 bits (LP64), as in <sys/types.h> */

#define SP_KERNEL extern "C" __global__
#define SP_FN static __device__ __forceinline__
#define SP_GLOBAL
#define SP_LOCAL __shared__
#define SP_CONSTANT const
#define SP_RESTRICT __restrict__

#define SP_LID(d) ((int)((d) == 0 ? threadIdx.x : (d) == 1 ? threadIdx.y : threadIdx.z))
#define SP_GRP(d) ((int)((d) == 0 ? blockIdx.x : (d) == 1 ? blockIdx.y : blockIdx.z))
#define SP_LSIZE(d) ((int)((d) == 0 ? blockDim.x : (d) == 1 ? blockDim.y : blockDim.z))
#define SP_NGRP(d) ((int)((d) == 0 ? gridDim.x : (d) == 1 ? gridDim.y : gridDim.z))
#define SP_GID(d) (SP_GRP(d) * SP_LSIZE(d) + SP_LID(d))
#define SP_GSIZE(d) (SP_NGRP(d) * SP_LSIZE(d))

#define SP_BARRIER() __syncthreads()
#define SP_BARRIER_GLOBAL() (__threadfence(), __syncthreads())
#define SP_FENCE_GLOBAL() __threadfence()

#define SP_ATOMIC_ADD(p, v) atomicAdd((p), (v))
#define SP_ATOMIC_XOR(p, v) atomicXor((p), (v))
#define SP_ATOMIC_MAX(p, v) atomicMax((p), (v))
#define SP_ATOMIC_MIN(p, v) atomicMin((p), (v))
#define SP_ATOMIC_CAS(p, cmp, v) atomicCAS((p), (cmp), (v))

#define SP_SINF(x) sinf(x)
#define SP_COSF(x) cosf(x)
#define SP_EXPF(x) expf(x)
#define SP_LOGF(x) logf(x)
#define SP_SQRTF(x) sqrtf(x)
#define SP_RSQRTF(x) rsqrtf(x)
#define SP_FABSF(x) fabsf(x)
#define SP_FMAF(a, b, c) fmaf((a), (b), (c))
#define SP_FMINF(a, b) fminf((a), (b))
#define SP_FMAXF(a, b) fmaxf((a), (b))
#define SP_RSQRT(x) rsqrt(x)
#define SP_POPCOUNT(x) __popc(x)
#define SP_MULHI(a, b) __umulhi((a), (b))
#define SP_ROTL(x, n) __funnelshift_l((x), (x), (n))

#else
#error "sp_port.h: compile as OpenCL C or as CUDA C++"
#endif

#endif /* SP_PORT_H */
