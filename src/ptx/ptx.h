/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ptx.h: static features of one kernel read from PTX text.  Internal.
 *
 * A kernel's features are of three kinds, in this order:
 *   - the opcode vocabulary: how many instructions of the kernel's body
 *     carry each opcode part ("ld.global.f32" counts ld, global and f32),
 *     counted once per instruction as written, loops not unrolled: the
 *     convention of the PTX columns of the shared V100 set;
 *   - the per-thread mix: instructions by kind (f32, f64, f16 and integer
 *     arithmetic, special functions, loads and stores by memory space,
 *     atomics, branches, barriers), each weighted by SP_PTX_LOOP_TRIPS per
 *     enclosing loop (a backward branch), since PTX does not say how often
 *     a loop runs; registers declared (.reg, 32-bit units) and static
 *     shared memory (.shared);
 *   - the launch shape the caller gives (grid, block, dynamic shared
 *     memory).
 * sp__static_feature_name says whether a counter name is one of them: the
 * static method (model/static.c) uses those counters and no others. */
#ifndef SP_PTX_H
#define SP_PTX_H

#include <stddef.h>

#include "scalepredict.h"

/* The weight of an instruction inside one loop: PTX holds no trip counts,
 * and this is the documented guess (docs/estimate.md).  Nesting multiplies
 * it, up to SP_PTX_LOOP_DEPTH loops deep. */
#define SP_PTX_LOOP_TRIPS 8.0
#define SP_PTX_LOOP_DEPTH 3

/* Bounds on hostile input: the file, one statement, the kernels listed in
 * an error message. */
#define SP_PTX_MAX_BYTES (64u << 20)
#define SP_PTX_MAX_STATEMENT 65536u

/* Every feature name, in the order of sp_kernel_features' values. */
size_t sp__static_feature_count(void);
const char *sp__static_feature_at(size_t i);
/* 1 when name is a static feature (PTX vocabulary, mix or launch shape). */
int sp__static_feature_name(const char *name);

#endif
