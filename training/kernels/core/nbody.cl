/* nbody.cl: all-pairs gravitational accelerations (softened), one body per
 * work-item: n^2 interactions of about 20 flops and one reciprocal square
 * root each. */
#include "sp_port.h"

SP_KERNEL void nbody_naive(SP_GLOBAL const float *SP_RESTRICT px,
                           SP_GLOBAL const float *SP_RESTRICT py,
                           SP_GLOBAL const float *SP_RESTRICT pz,
                           SP_GLOBAL const float *SP_RESTRICT m,
                           SP_GLOBAL float *SP_RESTRICT ax,
                           SP_GLOBAL float *SP_RESTRICT ay,
                           SP_GLOBAL float *SP_RESTRICT az, int n, float eps2)
{
  int i = SP_GID(0);
  float xi = px[i], yi = py[i], zi = pz[i];
  float sx = 0.0f, sy = 0.0f, sz = 0.0f;
  for (int j = 0; j < n; ++j) {
    float dx = px[j] - xi, dy = py[j] - yi, dz = pz[j] - zi;
    float inv = SP_RSQRTF(dx * dx + dy * dy + dz * dz + eps2);
    float s = m[j] * inv * inv * inv;
    sx += dx * s;
    sy += dy * s;
    sz += dz * s;
  }
  ax[i] = sx;
  ay[i] = sy;
  az[i] = sz;
}

/* The same with bodies staged through local memory 256 at a time. */
SP_KERNEL void nbody_tiled(SP_GLOBAL const float *SP_RESTRICT px,
                           SP_GLOBAL const float *SP_RESTRICT py,
                           SP_GLOBAL const float *SP_RESTRICT pz,
                           SP_GLOBAL const float *SP_RESTRICT m,
                           SP_GLOBAL float *SP_RESTRICT ax,
                           SP_GLOBAL float *SP_RESTRICT ay,
                           SP_GLOBAL float *SP_RESTRICT az, int n, float eps2)
{
  SP_LOCAL float tx[256], ty[256], tz[256], tm[256];
  int i = SP_GID(0), lid = SP_LID(0);
  float xi = px[i], yi = py[i], zi = pz[i];
  float sx = 0.0f, sy = 0.0f, sz = 0.0f;
  for (int j0 = 0; j0 < n; j0 += 256) {
    tx[lid] = px[j0 + lid];
    ty[lid] = py[j0 + lid];
    tz[lid] = pz[j0 + lid];
    tm[lid] = m[j0 + lid];
    SP_BARRIER();
    for (int j = 0; j < 256; ++j) {
      float dx = tx[j] - xi, dy = ty[j] - yi, dz = tz[j] - zi;
      float inv = SP_RSQRTF(dx * dx + dy * dy + dz * dz + eps2);
      float s = tm[j] * inv * inv * inv;
      sx += dx * s;
      sy += dy * s;
      sz += dz * s;
    }
    SP_BARRIER();
  }
  ax[i] = sx;
  ay[i] = sy;
  az[i] = sz;
}
