/* fft.cl: radix-2 butterflies on interleaved complex floats (re, im). */
#include "sp_port.h"

#define SP_PI_F 3.14159265358979f

/* One decimation-in-time stage over the whole array: butterfly b pairs
 * elements dist apart inside blocks of 2*dist, with twiddle
 * exp(-i pi pos / dist) computed per butterfly. */
SP_KERNEL void fft_stage(SP_GLOBAL const float *SP_RESTRICT in,
                         SP_GLOBAL float *SP_RESTRICT out, int log_half,
                         int nb)
{
  int b = SP_GID(0);
  if (b >= nb)
    return;
  int dist = 1 << log_half, pos = b & (dist - 1);
  int i0 = ((b >> log_half) << (log_half + 1)) + pos, i1 = i0 + dist;
  float ang = -SP_PI_F * (float)pos / (float)dist;
  float c = SP_COSF(ang), s = SP_SINF(ang);
  float xr = in[2 * i1], xi = in[2 * i1 + 1];
  float tr = c * xr - s * xi, ti = c * xi + s * xr;
  float ur = in[2 * i0], ui = in[2 * i0 + 1];
  out[2 * i0] = ur + tr;
  out[2 * i0 + 1] = ui + ti;
  out[2 * i1] = ur - tr;
  out[2 * i1 + 1] = ui - ti;
}

/* A complete 1024-point FFT per work-group of 512 in local memory: a
 * bit-reversed load, then 10 stages separated by barriers. */
SP_KERNEL void fft_local1024(SP_GLOBAL const float *SP_RESTRICT in,
                             SP_GLOBAL float *SP_RESTRICT out)
{
  SP_LOCAL float re[1024];
  SP_LOCAL float im[1024];
  int lid = SP_LID(0), base = SP_GRP(0) * 1024;
  for (int h = 0; h < 2; ++h) {
    int i = lid + 512 * h, r = 0;
    for (int bit = 0; bit < 10; ++bit)
      r |= ((i >> bit) & 1) << (9 - bit);
    re[r] = in[2 * (base + i)];
    im[r] = in[2 * (base + i) + 1];
  }
  SP_BARRIER();
  for (int s = 0; s < 10; ++s) {
    int dist = 1 << s, pos = lid & (dist - 1);
    int i0 = ((lid >> s) << (s + 1)) + pos, i1 = i0 + dist;
    float ang = -SP_PI_F * (float)pos / (float)dist;
    float c = SP_COSF(ang), sn = SP_SINF(ang);
    float tr = c * re[i1] - sn * im[i1], ti = c * im[i1] + sn * re[i1];
    float ur = re[i0], ui = im[i0];
    re[i0] = ur + tr;
    im[i0] = ui + ti;
    re[i1] = ur - tr;
    im[i1] = ui - ti;
    SP_BARRIER();
  }
  for (int h = 0; h < 2; ++h) {
    int i = lid + 512 * h;
    out[2 * (base + i)] = re[i];
    out[2 * (base + i) + 1] = im[i];
  }
}
