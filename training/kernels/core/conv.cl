/* conv.cl: convolutions with reuse of neighbouring inputs. */
#include "sp_port.h"

/* 1-D convolution with `taps` weights (read through the cache). */
SP_KERNEL void conv1d(SP_GLOBAL const float *SP_RESTRICT in,
                      SP_GLOBAL const float *SP_RESTRICT w,
                      SP_GLOBAL float *SP_RESTRICT out, int n, int taps)
{
  int i = SP_GID(0);
  if (i >= n)
    return;
  float acc = 0.0f;
  for (int k = 0; k < taps; ++k)
    acc += w[k] * in[i + k];
  out[i] = acc;
}

/* 9-tap blur of an nx x ny image along x (dir 0) or y (dir 1), edges
 * clamped: the y pass reads 9 rows per output row. */
SP_KERNEL void blur9(SP_GLOBAL const float *SP_RESTRICT in,
                     SP_GLOBAL float *SP_RESTRICT out, int nx, int ny,
                     int dir)
{
  int x = SP_GID(0), y = SP_GID(1);
  if (x >= nx || y >= ny)
    return;
  const float w[5] = {0.2270270f, 0.1945946f, 0.1216216f, 0.0540540f,
                      0.0162162f};
  float acc = w[0] * in[y * nx + x];
  for (int k = 1; k <= 4; ++k) {
    int a, b;
    if (dir == 0) {
      a = y * nx + (x - k < 0 ? 0 : x - k);
      b = y * nx + (x + k >= nx ? nx - 1 : x + k);
    } else {
      a = (y - k < 0 ? 0 : y - k) * nx + x;
      b = (y + k >= ny ? ny - 1 : y + k) * nx + x;
    }
    acc += w[k] * (in[a] + in[b]);
  }
  out[y * nx + x] = acc;
}
