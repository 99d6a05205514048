/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stubcuda.c: a stand-in libcuda.so.1 with the nine driver calls of
 * greenctx/sp_greenctx.c, for tests without a GPU (tests/cli/profile_second.sh):
 * a device of 132 SMs whose split gives groups of whole multiples of 8, as
 * the H100's does; with STUB_CUDA_FAIL set, cuGreenCtxCreate fails (error
 * 999), as on a driver without green contexts.  Built as tests/greenctx/stub/libcuda.so.1 and found
 * through LD_LIBRARY_PATH. */
#include <stdlib.h>
#include <string.h>

typedef struct resource {
  int type;
  unsigned char padding[92];
  union {
    struct {
      unsigned sm_count, min_partition, coscheduled_alignment;
    } sm;
    unsigned char oversize[48];
  } u;
} resource;

static unsigned green_sms;

int cuInit(unsigned flags) { return (int)flags; }
int cuDeviceGet(int *dev, int ordinal) {
  *dev = ordinal;
  return ordinal == 0 ? 0 : 101;
}
int cuDeviceGetDevResource(int dev, resource *r, int type) {
  (void)dev;
  memset(r, 0, sizeof *r);
  r->type = type;
  r->u.sm.sm_count = 132;
  r->u.sm.min_partition = 8;
  r->u.sm.coscheduled_alignment = 8;
  return 0;
}
int cuDevSmResourceSplitByCount(resource *groups, unsigned *n, const resource *in, resource *rest,
                                unsigned flags, unsigned min_count) {
  (void)flags;
  unsigned got = (min_count + 7) / 8 * 8;
  if (got > in->u.sm.sm_count) return 1;
  *groups = *in;
  groups->u.sm.sm_count = got;
  *rest = *in;
  rest->u.sm.sm_count = in->u.sm.sm_count - got;
  *n = 1;
  return 0;
}
int cuDevResourceGenerateDesc(void **desc, resource *r, unsigned n) {
  (void)n;
  green_sms = r->u.sm.sm_count;
  *desc = &green_sms;
  return 0;
}
int cuGreenCtxCreate(void **green, void *desc, int dev, unsigned flags) {
  (void)dev, (void)flags;
  if (getenv("STUB_CUDA_FAIL")) return 999;
  *green = desc;
  return 0;
}
int cuCtxFromGreenCtx(void **ctx, void *green) {
  *ctx = green;
  return 0;
}
int cuGreenCtxGetDevResource(void *green, resource *r, int type) {
  memset(r, 0, sizeof *r);
  r->type = type;
  r->u.sm.sm_count = *(unsigned *)green;
  return 0;
}
int cuCtxSetCurrent(void *ctx) { return ctx ? 0 : 201; }
