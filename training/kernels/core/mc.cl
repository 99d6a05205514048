/* mc.cl: Monte-Carlo and closed-form finance kernels: random numbers and
 * transcendental functions. */
#include "sp_port.h"

SP_FN uint xorshift32(uint x)
{
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

/* A work-item's nonzero seed. */
SP_FN uint mc_seed(int gid)
{
  return xorshift32((uint)gid * 2654435761u + 0x9E3779B9u) | 1u;
}

/* Quarter-circle hits of 15-bit integer points (exact integer test). */
SP_KERNEL void mc_pi(SP_GLOBAL uint *SP_RESTRICT hits, int iters)
{
  int gid = SP_GID(0);
  uint s = mc_seed(gid), h = 0u;
  for (int k = 0; k < iters; ++k) {
    s = xorshift32(s);
    uint x = s & 32767u, y = (s >> 15) & 32767u;
    h += (x * x + y * y < 1073741824u) ? 1u : 0u;
  }
  hits[gid] = h;
}

/* Uniform in (0, 1) from the top 24 bits. */
SP_FN float mc_uniform(uint s)
{
  return ((float)(s >> 8) + 0.5f) * (1.0f / 16777216.0f);
}

/* Geometric Brownian motion paths (Box-Muller normals: log, sqrt, cos; one
 * exp per step) and the mean payoff of a call. */
SP_KERNEL void mc_gbm(SP_GLOBAL float *SP_RESTRICT payoff, int paths,
                      int steps, float drift, float vol, float strike)
{
  int gid = SP_GID(0);
  uint s = mc_seed(gid);
  float sum = 0.0f;
  for (int p = 0; p < paths; ++p) {
    float price = 1.0f;
    for (int k = 0; k < steps; ++k) {
      s = xorshift32(s);
      float u1 = mc_uniform(s);
      s = xorshift32(s);
      float u2 = mc_uniform(s);
      float z = SP_SQRTF(-2.0f * SP_LOGF(u1)) * SP_COSF(6.28318531f * u2);
      price *= SP_EXPF(drift + vol * z);
    }
    sum += SP_FMAXF(price - strike, 0.0f);
  }
  payoff[gid] = sum / (float)paths;
}

/* Cumulative normal distribution, polynomial approximation (Abramowitz and
 * Stegun 26.2.17). */
SP_FN float cnd(float d)
{
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f;
  const float a4 = -1.821255978f, a5 = 1.330274429f;
  float k = 1.0f / (1.0f + 0.2316419f * SP_FABSF(d));
  float c = 0.39894228040143267794f * SP_EXPF(-0.5f * d * d) *
            (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0.0f ? 1.0f - c : c;
}

SP_KERNEL void black_scholes(SP_GLOBAL const float *SP_RESTRICT spot,
                             SP_GLOBAL const float *SP_RESTRICT strike,
                             SP_GLOBAL const float *SP_RESTRICT years,
                             SP_GLOBAL float *SP_RESTRICT call,
                             SP_GLOBAL float *SP_RESTRICT put, float r,
                             float v, int n)
{
  int i = SP_GID(0);
  if (i >= n)
    return;
  float s = spot[i], x = strike[i], t = years[i];
  float sq = SP_SQRTF(t);
  float d1 = (SP_LOGF(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
  float d2 = d1 - v * sq;
  float disc = x * SP_EXPF(-r * t);
  call[i] = s * cnd(d1) - disc * cnd(d2);
  put[i] = disc * (1.0f - cnd(d2)) - s * (1.0f - cnd(d1));
}

/* Double-precision transcendentals (sin, cos, exp: long software
 * sequences on most GPUs). */
SP_KERNEL void mc_trig_f64(SP_GLOBAL double *SP_RESTRICT out, int iters)
{
  int gid = SP_GID(0);
  double x = (double)(gid & 65535) * 1.0e-4, acc = 0.0;
  for (int k = 0; k < iters; ++k) {
    acc += sin(x) * cos(0.5 * x) + exp(-x);
    x += 1.0e-3;
  }
  out[gid] = acc;
}
