/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scalepredict_greenctx.h: run your own CUDA code on fewer SMs, to measure
 * it at the configurations scalepredict predicts (docs/profile.md).
 *
 * sp_greenctx_enter() builds a CUDA green context of exactly `sms` SMs on a
 * device and makes it the calling thread's current context: the thread's
 * later CUDA work (driver API, and runtime API launches on the default or
 * any stream created afterwards) runs on those SMs only.  Nothing about the
 * device changes, and other processes are not affected.  libcuda is loaded
 * with dlopen, so this builds without the CUDA toolkit.
 *
 * Call it before the thread's first CUDA runtime call, and do not call
 * cudaSetDevice() afterwards (that makes the device's primary context, all
 * SMs, current again).  Other threads keep their own contexts: call it in
 * each thread that launches work.  On the H100 every multiple of 8 SMs up
 * to 128, and 132 (the whole device), is exact; other counts are refused.
 */
#ifndef SCALEPREDICT_GREENCTX_H
#define SCALEPREDICT_GREENCTX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Enters a green context of sms SMs on CUDA device `device`.  Returns 0,
 * with the SM count the context has in *actual (may be NULL); -1 with a
 * message in err when CUDA, the device or an exact partition is missing. */
int sp_greenctx_enter(int device, int sms, int *actual, char *err, size_t size);

/* sp_greenctx_enter(0, N, ...) when the environment variable SP_GREEN_SMS
 * holds N; 0 and nothing done when it is unset or empty. */
int sp_greenctx_from_env(int *actual, char *err, size_t size);

#ifdef __cplusplus
}
#endif
#endif
