/* misc.cl: launch overhead, escape-time fractals, an integer image filter
 * and integer division. */
#include "sp_port.h"

/* One work-group of 64 doing almost nothing: time is launch overhead. */
SP_KERNEL void tiny(SP_GLOBAL uint *out)
{
  int l = SP_LID(0);
  out[l] = (uint)l * 3u + 1u;
}

/* Escape iterations of z^2 + c over [-2,1] x [-1.5,1.5]: compute-bound with
 * divergent loop lengths. */
SP_KERNEL void mandel_f32(SP_GLOBAL uint *SP_RESTRICT out, int w, int h,
                          int maxit)
{
  int px = SP_GID(0), py = SP_GID(1);
  if (px >= w || py >= h)
    return;
  float cr = -2.0f + 3.0f * (float)px / (float)w;
  float ci = -1.5f + 3.0f * (float)py / (float)h;
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < maxit && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++it;
  }
  out[py * w + px] = (uint)it;
}

SP_KERNEL void mandel_f64(SP_GLOBAL uint *SP_RESTRICT out, int w, int h,
                          int maxit)
{
  int px = SP_GID(0), py = SP_GID(1);
  if (px >= w || py >= h)
    return;
  double cr = -2.0 + 3.0 * (double)px / (double)w;
  double ci = -1.5 + 3.0 * (double)py / (double)h;
  double zr = 0.0, zi = 0.0;
  int it = 0;
  while (it < maxit && zr * zr + zi * zi <= 4.0) {
    double t = zr * zr - zi * zi + cr;
    zi = 2.0 * zr * zi + ci;
    zr = t;
    ++it;
  }
  out[py * w + px] = (uint)it;
}

/* Sobel gradient magnitude |gx| + |gy| of an 8-bit image (byte loads,
 * integer arithmetic); the border is 0. */
SP_KERNEL void sobel(SP_GLOBAL const uchar *SP_RESTRICT img,
                     SP_GLOBAL uint *SP_RESTRICT out, int w, int h)
{
  int x = SP_GID(0), y = SP_GID(1);
  if (x >= w || y >= h)
    return;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    out[y * w + x] = 0u;
    return;
  }
  int p[3][3];
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      p[dy + 1][dx + 1] = (int)img[(y + dy) * w + x + dx];
  int gx = p[0][2] + 2 * p[1][2] + p[2][2] - p[0][0] - 2 * p[1][0] - p[2][0];
  int gy = p[2][0] + 2 * p[2][1] + p[2][2] - p[0][0] - 2 * p[0][1] - p[0][2];
  out[y * w + x] = (uint)((gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy));
}

/* Integer division and remainder by run-time divisors (no hardware divide
 * on GPUs: multi-instruction sequences). */
SP_KERNEL void int_divmod(SP_GLOBAL const uint *SP_RESTRICT in,
                          SP_GLOBAL uint *SP_RESTRICT out, int n, int iters)
{
  int i = SP_GID(0);
  if (i >= n)
    return;
  uint x = in[i], acc = 0u;
  for (int k = 0; k < iters; ++k) {
    uint d = (x & 1023u) + 3u;
    acc += x / d + x % d;
    x = x * 1103515245u + 12345u;
  }
  out[i] = acc;
}
