/* l2.cl: L2 bandwidth.  Every work-group reads a window of per_block
 * consecutive floats of a buffer of n, starting at its own offset
 * (group x per_block, wrapping at n), with four independent loads in
 * flight per work-item.  With a 4-32 MiB buffer every SM streams the same
 * lines over and over from L2; with 80 MiB they overflow the 50 MB L2. */
#include "sp_port.h"

#define L2_GROUP 256

SP_KERNEL void l2_read(SP_GLOBAL const float *SP_RESTRICT buf,
                       SP_GLOBAL float *SP_RESTRICT partial, int n,
                       int per_block)
{
  SP_LOCAL float s[L2_GROUP];
  const int lid = SP_LID(0);
  const int start = (int)(((long)SP_GRP(0) * per_block) % n);
  float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
  for (int j = lid; j < per_block; j += 4 * L2_GROUP) {
    int i0 = start + j, i1 = i0 + L2_GROUP, i2 = i1 + L2_GROUP;
    int i3 = i2 + L2_GROUP;
    acc0 += buf[i0 < n ? i0 : i0 - n];
    acc1 += buf[i1 < n ? i1 : i1 - n];
    acc2 += buf[i2 < n ? i2 : i2 - n];
    acc3 += buf[i3 < n ? i3 : i3 - n];
  }
  s[lid] = (acc0 + acc1) + (acc2 + acc3);
  SP_BARRIER();
  for (int off = L2_GROUP / 2; off > 0; off >>= 1) {
    if (lid < off)
      s[lid] += s[lid + off];
    SP_BARRIER();
  }
  if (lid == 0)
    partial[SP_GRP(0)] = s[0];
}
