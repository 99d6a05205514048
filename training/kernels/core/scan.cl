/* scan.cl: prefix sums of work-group-sized chunks in local memory. */
#include "sp_port.h"

/* Hillis-Steele inclusive scan of 256 elements, double-buffered:
 * log2(256) steps of n additions (not work-efficient). */
SP_KERNEL void scan_hs_f32(SP_GLOBAL const float *SP_RESTRICT in,
                           SP_GLOBAL float *SP_RESTRICT out)
{
  SP_LOCAL float buf[2][256];
  int lid = SP_LID(0), gid = SP_GID(0), cur = 0;
  buf[0][lid] = in[gid];
  SP_BARRIER();
  for (int off = 1; off < 256; off <<= 1) {
    float v = buf[cur][lid];
    if (lid >= off)
      v += buf[cur][lid - off];
    buf[1 - cur][lid] = v;
    cur = 1 - cur;
    SP_BARRIER();
  }
  out[gid] = buf[cur][lid];
}

/* Blelloch work-efficient exclusive scan of 512 elements by 256 work-items
 * (up-sweep, then down-sweep; strided local accesses conflict in banks). */
SP_KERNEL void scan_blelloch_f32(SP_GLOBAL const float *SP_RESTRICT in,
                                 SP_GLOBAL float *SP_RESTRICT out)
{
  SP_LOCAL float t[512];
  int lid = SP_LID(0), base = SP_GRP(0) * 512, off = 1;
  t[2 * lid] = in[base + 2 * lid];
  t[2 * lid + 1] = in[base + 2 * lid + 1];
  for (int d = 256; d > 0; d >>= 1) {
    SP_BARRIER();
    if (lid < d) {
      int ai = off * (2 * lid + 1) - 1, bi = off * (2 * lid + 2) - 1;
      t[bi] += t[ai];
    }
    off <<= 1;
  }
  if (lid == 0)
    t[511] = 0.0f;
  for (int d = 1; d < 512; d <<= 1) {
    off >>= 1;
    SP_BARRIER();
    if (lid < d) {
      int ai = off * (2 * lid + 1) - 1, bi = off * (2 * lid + 2) - 1;
      float x = t[ai];
      t[ai] = t[bi];
      t[bi] += x;
    }
  }
  SP_BARRIER();
  out[base + 2 * lid] = t[2 * lid];
  out[base + 2 * lid + 1] = t[2 * lid + 1];
}

/* Integer inclusive scan of 1024 elements by 256 work-items: each scans 4
 * of its own sequentially, then the 256 totals are scanned in local memory. */
SP_KERNEL void scan_seq4_u32(SP_GLOBAL const uint *SP_RESTRICT in,
                             SP_GLOBAL uint *SP_RESTRICT out)
{
  SP_LOCAL uint tot[2][256];
  int lid = SP_LID(0), base = SP_GRP(0) * 1024 + lid * 4, cur = 0;
  uint v0 = in[base], v1 = v0 + in[base + 1], v2 = v1 + in[base + 2];
  uint v3 = v2 + in[base + 3];
  tot[0][lid] = v3;
  SP_BARRIER();
  for (int off = 1; off < 256; off <<= 1) {
    uint v = tot[cur][lid];
    if (lid >= off)
      v += tot[cur][lid - off];
    tot[1 - cur][lid] = v;
    cur = 1 - cur;
    SP_BARRIER();
  }
  uint before = lid > 0 ? tot[cur][lid - 1] : 0u;
  out[base] = before + v0;
  out[base + 1] = before + v1;
  out[base + 2] = before + v2;
  out[base + 3] = before + v3;
}
