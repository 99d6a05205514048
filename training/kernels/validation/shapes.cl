/* shapes.cl: kernels chosen for their launch shape (host half: shapes.c):
 * fewer groups than SMs, one group past a whole number of resident waves,
 * an L2-resident working set, a single work-group, a tiny launch. */
#include "sp_dev.h"

/* Batch-norm statistics (training forward), NCHW: one 512-wide work-group
 * per channel sums x and x^2 over the batch and the plane.  With 100
 * channels the grid is smaller than a full GPU, and each group's work is
 * long. */
SP_KERNEL void v_bnstats(SP_GLOBAL const float *SP_RESTRICT x,
                         SP_GLOBAL float *SP_RESTRICT stats, int batch,
                         int channels, int plane)
{
  SP_LOCAL float s1[512];
  SP_LOCAL float s2[512];
  const int t = SP_LID(0), c = SP_GRP(0);
  float a = 0.0f, b = 0.0f;
  for (int img = 0; img < batch; ++img) {
    SP_GLOBAL const float *p = x + (img * channels + c) * plane;
    for (int i = t; i < plane; i += 512) {
      a += p[i];
      b += p[i] * p[i];
    }
  }
  s1[t] = a;
  s2[t] = b;
  SP_BARRIER();
  for (int h = 256; h > 0; h >>= 1) {
    if (t < h) {
      s1[t] += s1[t + h];
      s2[t] += s2[t + h];
    }
    SP_BARRIER();
  }
  if (t == 0) {
    const float count = (float)batch * (float)plane, mean = s1[0] / count;
    stats[2 * c] = mean;
    stats[2 * c + 1] = s2[0] / count - mean * mean;
  }
}

/* Bias + GELU over n elements with a fixed grid and a grid-stride loop, as
 * a persistent-style elementwise kernel sizes its grid from the device.
 * Launched with 1057 groups of 256: eight fit on an SM, 132 SMs hold 1056,
 * and the last group runs alone in a second wave. */
SP_KERNEL void v_bias_gelu_grid(SP_GLOBAL const float *SP_RESTRICT x,
                                SP_GLOBAL const float *SP_RESTRICT bias,
                                SP_GLOBAL float *SP_RESTRICT y, int n, int cols)
{
  for (int i = SP_GID(0); i < n; i += SP_GSIZE(0))
    y[i] = sp_gelu(x[i] + bias[i % cols]);
}

/* Particle binning into a 24x32x16 cell grid: each group counts its
 * grid-stride share of particles in a private 12288-bin (48 KB) local
 * histogram, then adds it to the global one.  48 KB of local memory allows
 * four groups per SM: the 529-group grid is one past four waves of 132. */
#define CH_X 24
#define CH_Y 32
#define CH_Z 16
#define CH_BINS (CH_X * CH_Y * CH_Z)

SP_FN int ch_cell(float x, int cells)
{
  const int c = (int)(x * cells);
  return c < cells ? c : cells - 1;
}

SP_KERNEL void v_cell_hist(SP_GLOBAL const float *SP_RESTRICT px,
                           SP_GLOBAL const float *SP_RESTRICT py,
                           SP_GLOBAL const float *SP_RESTRICT pz,
                           SP_GLOBAL uint *count, int n)
{
  SP_LOCAL uint lh[CH_BINS];
  const int t = SP_LID(0), nt = SP_LSIZE(0);
  for (int b = t; b < CH_BINS; b += nt)
    lh[b] = 0;
  SP_BARRIER();
  for (int i = SP_GID(0); i < n; i += SP_GSIZE(0)) {
    /* Coordinates are in [0, 1]: a float can round up to 1.0, whose cell
     * is the last one. */
    const int cx = ch_cell(px[i], CH_X), cy = ch_cell(py[i], CH_Y),
              cz = ch_cell(pz[i], CH_Z);
    SP_ATOMIC_ADD(&lh[(cz * CH_Y + cy) * CH_X + cx], 1u);
  }
  SP_BARRIER();
  for (int b = t; b < CH_BINS; b += nt)
    if (lh[b] != 0)
      SP_ATOMIC_ADD(&count[b], lh[b]);
}

/* An embedding-bag style lookup: each output sums G2_TAPS entries of a
 * table at hashed positions.  The table (16 MB at full size) stays in L2;
 * nothing else is read from DRAM. */
#define G2_TAPS 32

SP_FN uint g2_hash(uint i, uint k)
{
  uint h = i * 0x9E3779B1u ^ (k + 0x7F4A7C15u) * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 13;
  return h;
}

SP_KERNEL void v_l2_gather(SP_GLOBAL const float *SP_RESTRICT table,
                           SP_GLOBAL float *SP_RESTRICT out, int n, uint mask)
{
  const int i = SP_GID(0);
  if (i >= n)
    return;
  float s = 0.0f;
  for (uint k = 0; k < G2_TAPS; ++k)
    s += table[g2_hash((uint)i, k) & mask];
  out[i] = s;
}

/* A whole FP64 vector summed by one 256-wide work-group: the last stage of
 * a norm computed on a single SM, so the time does not depend on how many
 * SMs there are. */
SP_KERNEL void v_reduce_oneblock_f64(SP_GLOBAL const double *SP_RESTRICT x,
                                     SP_GLOBAL double *SP_RESTRICT sum, int n)
{
  SP_LOCAL double red[256];
  const int t = SP_LID(0);
  double s = 0.0;
  for (int i = t; i < n; i += 256)
    s += x[i] * x[i];
  red[t] = s;
  SP_TREE(red, t, 256, SP_ADD);
  if (t == 0)
    sum[0] = red[0];
}

/* The scalar step of conjugate gradients: reduce the per-group partials of
 * r.r and p.Ap left by the vector kernels and form rr, alpha and beta.  A
 * few microseconds of work in one group: the launch is the cost. */
SP_KERNEL void v_cg_scalars(SP_GLOBAL const double *SP_RESTRICT rr_part,
                            SP_GLOBAL const double *SP_RESTRICT pq_part,
                            SP_GLOBAL double *scal, int parts)
{
  SP_LOCAL double a[256];
  SP_LOCAL double b[256];
  const int t = SP_LID(0);
  double sa = 0.0, sb = 0.0;
  for (int i = t; i < parts; i += 256) {
    sa += rr_part[i];
    sb += pq_part[i];
  }
  a[t] = sa;
  b[t] = sb;
  SP_TREE(a, t, 256, SP_ADD);
  SP_TREE(b, t, 256, SP_ADD);
  if (t == 0) {
    const double rr_old = scal[0];
    scal[1] = a[0];
    scal[2] = a[0] / b[0];
    scal[3] = a[0] / rr_old;
  }
}
