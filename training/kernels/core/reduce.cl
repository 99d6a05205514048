/* reduce.cl: tree reductions in local memory.  Each work-group of 256
 * reduces 256 x RED_ITEMS consecutive elements to one partial result. */
#include "sp_port.h"

#define RED_GROUP 256
#define RED_ITEMS 16

SP_KERNEL void reduce_sum_f32(SP_GLOBAL const float *SP_RESTRICT in,
                              SP_GLOBAL float *SP_RESTRICT partial, int n)
{
  SP_LOCAL float s[RED_GROUP];
  int lid = SP_LID(0), base = SP_GRP(0) * RED_GROUP * RED_ITEMS;
  float acc = 0.0f;
  for (int k = 0; k < RED_ITEMS; ++k) {
    int i = base + k * RED_GROUP + lid;
    if (i < n)
      acc += in[i];
  }
  s[lid] = acc;
  SP_BARRIER();
  for (int off = RED_GROUP / 2; off > 0; off >>= 1) {
    if (lid < off)
      s[lid] += s[lid + off];
    SP_BARRIER();
  }
  if (lid == 0)
    partial[SP_GRP(0)] = s[0];
}

SP_KERNEL void reduce_sum_f64(SP_GLOBAL const double *SP_RESTRICT in,
                              SP_GLOBAL double *SP_RESTRICT partial, int n)
{
  SP_LOCAL double s[RED_GROUP];
  int lid = SP_LID(0), base = SP_GRP(0) * RED_GROUP * RED_ITEMS;
  double acc = 0.0;
  for (int k = 0; k < RED_ITEMS; ++k) {
    int i = base + k * RED_GROUP + lid;
    if (i < n)
      acc += in[i];
  }
  s[lid] = acc;
  SP_BARRIER();
  for (int off = RED_GROUP / 2; off > 0; off >>= 1) {
    if (lid < off)
      s[lid] += s[lid + off];
    SP_BARRIER();
  }
  if (lid == 0)
    partial[SP_GRP(0)] = s[0];
}

/* Maximum: a local tree, then one atomic per work-group on a global word. */
SP_KERNEL void reduce_max_u32(SP_GLOBAL const uint *SP_RESTRICT in,
                              SP_GLOBAL uint *result, int n)
{
  SP_LOCAL uint s[RED_GROUP];
  int lid = SP_LID(0), base = SP_GRP(0) * RED_GROUP * RED_ITEMS;
  uint m = 0u;
  for (int k = 0; k < RED_ITEMS; ++k) {
    int i = base + k * RED_GROUP + lid;
    if (i < n && in[i] > m)
      m = in[i];
  }
  s[lid] = m;
  SP_BARRIER();
  for (int off = RED_GROUP / 2; off > 0; off >>= 1) {
    if (lid < off && s[lid + off] > s[lid])
      s[lid] = s[lid + off];
    SP_BARRIER();
  }
  if (lid == 0)
    SP_ATOMIC_MAX(result, s[0]);
}

SP_KERNEL void dot_f32(SP_GLOBAL const float *SP_RESTRICT a,
                       SP_GLOBAL const float *SP_RESTRICT b,
                       SP_GLOBAL float *SP_RESTRICT partial, int n)
{
  SP_LOCAL float s[RED_GROUP];
  int lid = SP_LID(0), base = SP_GRP(0) * RED_GROUP * RED_ITEMS;
  float acc = 0.0f;
  for (int k = 0; k < RED_ITEMS; ++k) {
    int i = base + k * RED_GROUP + lid;
    if (i < n)
      acc += a[i] * b[i];
  }
  s[lid] = acc;
  SP_BARRIER();
  for (int off = RED_GROUP / 2; off > 0; off >>= 1) {
    if (lid < off)
      s[lid] += s[lid + off];
    SP_BARRIER();
  }
  if (lid == 0)
    partial[SP_GRP(0)] = s[0];
}
