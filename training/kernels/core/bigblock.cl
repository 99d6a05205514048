/* bigblock.cl: bandwidth kernels with one large work-group (1024
 * work-items) per image, so the grid has as many groups as images and a
 * ragged count (66, 133, 200) leaves SMs idle or a short last wave.
 * Images are s floats, s a multiple of 4096.
 *
 * bigblock_norm: per-image standardisation, (v - mean) / sqrt(var + eps):
 * one pass for the sums (reduced through local memory), one pass that
 * reads the image again and writes it.  bigblock_scale: one pass,
 * v a_img + b_img. */
#include "sp_port.h"

#define BB_GROUP 1024
#define BB_EPS 1e-5f

SP_KERNEL void bigblock_norm(SP_GLOBAL const float *SP_RESTRICT in,
                             SP_GLOBAL float *SP_RESTRICT out, int s)
{
  SP_LOCAL float ps[BB_GROUP];
  SP_LOCAL float pq[BB_GROUP];
  const int lid = SP_LID(0), base = SP_GRP(0) * s;
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  float q0 = 0.0f, q1 = 0.0f, q2 = 0.0f, q3 = 0.0f;
  for (int i = base + lid; i < base + s; i += 4 * BB_GROUP) {
    const float v0 = in[i], v1 = in[i + BB_GROUP];
    const float v2 = in[i + 2 * BB_GROUP], v3 = in[i + 3 * BB_GROUP];
    s0 += v0;
    s1 += v1;
    s2 += v2;
    s3 += v3;
    q0 += v0 * v0;
    q1 += v1 * v1;
    q2 += v2 * v2;
    q3 += v3 * v3;
  }
  ps[lid] = (s0 + s1) + (s2 + s3);
  pq[lid] = (q0 + q1) + (q2 + q3);
  SP_BARRIER();
  for (int off = BB_GROUP / 2; off > 0; off >>= 1) {
    if (lid < off) {
      ps[lid] += ps[lid + off];
      pq[lid] += pq[lid + off];
    }
    SP_BARRIER();
  }
  const float mean = ps[0] / (float)s;
  const float var = pq[0] / (float)s - mean * mean;
  const float rstd = 1.0f / SP_SQRTF(var + BB_EPS);
  for (int i = base + lid; i < base + s; i += 4 * BB_GROUP) {
    const float v0 = in[i], v1 = in[i + BB_GROUP];
    const float v2 = in[i + 2 * BB_GROUP], v3 = in[i + 3 * BB_GROUP];
    out[i] = (v0 - mean) * rstd;
    out[i + BB_GROUP] = (v1 - mean) * rstd;
    out[i + 2 * BB_GROUP] = (v2 - mean) * rstd;
    out[i + 3 * BB_GROUP] = (v3 - mean) * rstd;
  }
}

SP_KERNEL void bigblock_scale(SP_GLOBAL const float *SP_RESTRICT in,
                              SP_GLOBAL const float *SP_RESTRICT ab,
                              SP_GLOBAL float *SP_RESTRICT out, int s)
{
  const int lid = SP_LID(0), img = SP_GRP(0), base = img * s;
  const float a = ab[2 * img], b = ab[2 * img + 1];
  for (int i = base + lid; i < base + s; i += 4 * BB_GROUP) {
    const float v0 = in[i], v1 = in[i + BB_GROUP];
    const float v2 = in[i + 2 * BB_GROUP], v3 = in[i + 3 * BB_GROUP];
    out[i] = SP_FMAF(v0, a, b);
    out[i + BB_GROUP] = SP_FMAF(v1, a, b);
    out[i + 2 * BB_GROUP] = SP_FMAF(v2, a, b);
    out[i + 3 * BB_GROUP] = SP_FMAF(v3, a, b);
  }
}
