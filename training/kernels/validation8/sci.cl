/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.cl: scientific kernels of the eighth validation suite (host half:
 * sci.c): NAS EP's Gaussian pairs in FP64, a smooth-PME force gather,
 * parallel cyclic reduction of tridiagonal systems, Sinkhorn-Knopp
 * iterations, IMU quaternion integration and batch-norm folding.  Written
 * for this suite, independently of the core suite and the earlier
 * validation suites. */
#include "sp_dev.h"

/* ---- NAS EP: Gaussian pairs from the 46-bit LCG, FP64 -----------------------------------------
 * randlc is NAS's x_{k+1} = a x_k mod 2^46 in exact double arithmetic (23-bit
 * halves); it returns x / 2^46.  Work-item k starts at s a^(2 npairs k) by
 * NAS's binary jump-ahead (an = a^(2 npairs), from the host) and draws
 * npairs pairs; an accepted pair (t = x^2 + y^2 <= 1) gives the Gaussian
 * deviates (X, Y) = (x, y) sqrt(-2 log t / t), counted in annulus
 * max(|X|, |Y|) (private counts, then local atomics, then one global atomic
 * per annulus and group) and summed (per work-item sums written out). */
#define EP_NQ 10
#define EP_R23 (1.0 / 8388608.0)
#define EP_T23 8388608.0

SP_FN double s_randlc(double *x, double a) {
  const double r46 = EP_R23 * EP_R23, t46 = EP_T23 * EP_T23;
  double t1 = EP_R23 * a;
  const double a1 = (double)(int)t1, a2 = a - EP_T23 * a1;
  t1 = EP_R23 * *x;
  const double x1 = (double)(int)t1, x2 = *x - EP_T23 * x1;
  t1 = a1 * x2 + a2 * x1;
  const double t2 = (double)(int)(EP_R23 * t1), z = t1 - EP_T23 * t2;
  const double t3 = EP_T23 * z + a2 * x2, t4 = (double)(int)(r46 * t3);
  *x = t3 - t46 * t4;
  return r46 * *x;
}

SP_KERNEL void s_ep_gauss_pairs_f64(SP_GLOBAL double *SP_RESTRICT sums,
                                    SP_GLOBAL uint *SP_RESTRICT q, int nitems, int npairs,
                                    double seed, double a, double an) {
  SP_LOCAL uint lq[EP_NQ];
  const int k = SP_GID(0), t = SP_LID(0);
  if (t < EP_NQ) lq[t] = 0;
  SP_BARRIER();
  if (k < nitems) {
    double x = seed, m = an;
    for (int kk = k; kk > 0; kk >>= 1) { /* x = seed an^k */
      if (kk & 1) s_randlc(&x, m);
      s_randlc(&m, m);
    }
    uint cnt[EP_NQ];
    for (int l = 0; l < EP_NQ; ++l) cnt[l] = 0;
    double sx = 0.0, sy = 0.0;
    for (int p = 0; p < npairs; ++p) {
      const double x1 = 2.0 * s_randlc(&x, a) - 1.0, x2 = 2.0 * s_randlc(&x, a) - 1.0;
      const double tt = x1 * x1 + x2 * x2;
      if (tt <= 1.0) {
        const double f = sqrt(-2.0 * log(tt) / tt), gx = x1 * f, gy = x2 * f;
        const int l = (int)fmax(fabs(gx), fabs(gy));
        if (l < EP_NQ) cnt[l] += 1u;
        sx += gx;
        sy += gy;
      }
    }
    sums[2 * (long)k] = sx;
    sums[2 * (long)k + 1] = sy;
    for (int l = 0; l < EP_NQ; ++l)
      if (cnt[l]) SP_ATOMIC_ADD(lq + l, cnt[l]);
  }
  SP_BARRIER();
  if (t < EP_NQ && lq[t]) SP_ATOMIC_ADD(q + t, lq[t]);
}

/* ---- smooth PME force gather, order-4 B-splines -----------------------------------------------
 * A charge at (x, y, z) in mesh units (periodic, k^3 mesh) interpolates the
 * convolved mesh phi with cubic B-spline weights at the 4 points floor - 1
 * .. floor + 2 of each axis; its force is -q times the gradient of that
 * interpolant (derivative weights on one axis at a time).  pos holds x, y,
 * z, q per charge; the force goes to f (x, y, z per charge). */
SP_FN void s_bspline4(float w, float *th, float *dth) {
  const float v = 1.0f - w;
  th[0] = v * v * v * (1.0f / 6.0f);
  th[1] = (3.0f * w * w * w - 6.0f * w * w + 4.0f) * (1.0f / 6.0f);
  th[2] = (-3.0f * w * w * w + 3.0f * w * w + 3.0f * w + 1.0f) * (1.0f / 6.0f);
  th[3] = w * w * w * (1.0f / 6.0f);
  dth[0] = -0.5f * v * v;
  dth[1] = 0.5f * (3.0f * w * w - 4.0f * w);
  dth[2] = 0.5f * (-3.0f * w * w + 2.0f * w + 1.0f);
  dth[3] = 0.5f * w * w;
}

SP_KERNEL void s_pme_gather_bspline4(SP_GLOBAL const float *SP_RESTRICT pos,
                                     SP_GLOBAL const float *SP_RESTRICT phi,
                                     SP_GLOBAL float *SP_RESTRICT f, int n, int k) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const float px = pos[4 * (long)i], py = pos[4 * (long)i + 1], pz = pos[4 * (long)i + 2];
  const float q = pos[4 * (long)i + 3];
  const int fx = (int)px, fy = (int)py, fz = (int)pz;
  float tx[4], ty[4], tz[4], dx[4], dy[4], dz[4];
  s_bspline4(px - (float)fx, tx, dx);
  s_bspline4(py - (float)fy, ty, dy);
  s_bspline4(pz - (float)fz, tz, dz);
  int ix[4];
  for (int a = 0; a < 4; ++a) ix[a] = (fx - 1 + a + k) % k;
  float gx = 0.0f, gy = 0.0f, gz = 0.0f;
  for (int c = 0; c < 4; ++c) {
    const int z = (fz - 1 + c + k) % k;
    for (int b = 0; b < 4; ++b) {
      const int y = (fy - 1 + b + k) % k;
      SP_GLOBAL const float *row = phi + ((long)z * k + y) * k;
      float sx = 0.0f, s0 = 0.0f;
      for (int a = 0; a < 4; ++a) {
        const float v = row[ix[a]];
        sx += dx[a] * v;
        s0 += tx[a] * v;
      }
      gx += sx * ty[b] * tz[c];
      gy += s0 * dy[b] * tz[c];
      gz += s0 * ty[b] * dz[c];
    }
  }
  f[3 * (long)i] = -q * gx;
  f[3 * (long)i + 1] = -q * gy;
  f[3 * (long)i + 2] = -q * gz;
}

/* ---- parallel cyclic reduction ------------------------------------------------------------------
 * Each group solves systems g per, ..., g per + per - 1 in turn, each of
 * PCR_N unknowns (a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i), a work-item
 * per equation: log2(PCR_N) steps eliminate the neighbours at distance s
 * (1, 2, 4, ...), after which x_i = d_i / b_i.  Coefficients are stored
 * system-major, a then b, c, d, each n floats. */
#define PCR_N 1024

SP_KERNEL void s_pcr_tridiag_60(SP_GLOBAL const float *SP_RESTRICT abcd,
                                SP_GLOBAL float *SP_RESTRICT x, int per) {
  SP_LOCAL float la[PCR_N], lb[PCR_N], lc[PCR_N], ld[PCR_N];
  const int i = SP_LID(0);
  for (int sys = SP_GRP(0) * per; sys < (SP_GRP(0) + 1) * per; ++sys) {
    SP_GLOBAL const float *src = abcd + (long)sys * 4 * PCR_N;
    la[i] = src[i];
    lb[i] = src[PCR_N + i];
    lc[i] = src[2 * PCR_N + i];
    ld[i] = src[3 * PCR_N + i];
    SP_BARRIER();
    for (int s = 1; s < PCR_N; s *= 2) {
      const int im = i - s, ip = i + s;
      float na = 0.0f, nb = lb[i], nc = 0.0f, nd = ld[i];
      if (im >= 0) {
        const float k1 = la[i] / lb[im];
        na = -la[im] * k1;
        nb -= lc[im] * k1;
        nd -= ld[im] * k1;
      }
      if (ip < PCR_N) {
        const float k2 = lc[i] / lb[ip];
        nc = -lc[ip] * k2;
        nb -= la[ip] * k2;
        nd -= ld[ip] * k2;
      }
      SP_BARRIER();
      la[i] = na;
      lb[i] = nb;
      lc[i] = nc;
      ld[i] = nd;
      SP_BARRIER();
    }
    x[(long)sys * PCR_N + i] = ld[i] / lb[i];
    SP_BARRIER();
  }
}

/* ---- Sinkhorn-Knopp iterations ------------------------------------------------------------------
 * Group g scales the kernel K = exp(-C / eps) of problem g (SK_N x SK_N,
 * uniform marginals 1 / SK_N) for iters iterations: u = a / (K v), then v =
 * b / (K^T u), starting from v = 1.  K is stored twice, K^T first (kt[j n +
 * i] = K_ij) so that both products read rows that neighbouring work-items
 * share; u and v stay in local memory; out gets u then v. */
#define SK_N 384

SP_KERNEL void s_sinkhorn_24(SP_GLOBAL const float *SP_RESTRICT kk,
                             SP_GLOBAL float *SP_RESTRICT out, int iters) {
  SP_LOCAL float u[SK_N], v[SK_N];
  const int t = SP_LID(0);
  SP_GLOBAL const float *kt = kk + (long)SP_GRP(0) * 2 * SK_N * SK_N, *km = kt + SK_N * SK_N;
  const float marg = 1.0f / SK_N;
  v[t] = 1.0f;
  SP_BARRIER();
  for (int it = 0; it < iters; ++it) {
    float s = 0.0f;
    for (int j = 0; j < SK_N; ++j) s += kt[j * SK_N + t] * v[j];
    u[t] = marg / s;
    SP_BARRIER();
    s = 0.0f;
    for (int i = 0; i < SK_N; ++i) s += km[i * SK_N + t] * u[i];
    v[t] = marg / s;
    SP_BARRIER();
  }
  out[(long)SP_GRP(0) * 2 * SK_N + t] = u[t];
  out[(long)SP_GRP(0) * 2 * SK_N + SK_N + t] = v[t];
}

/* ---- IMU attitude propagation ------------------------------------------------------------------
 * Body b's unit quaternion (w, x, y, z) is advanced through nsamp gyro
 * readings: q = normalize(q * exp(omega dt / 2)), the exponential being
 * (cos(|omega| dt / 2), sin(|omega| dt / 2) omega / |omega|). */
SP_KERNEL void s_imu_quat_integrate(SP_GLOBAL const float *SP_RESTRICT q0,
                                    SP_GLOBAL const float *SP_RESTRICT gyro,
                                    SP_GLOBAL float *SP_RESTRICT q1, int nb, int nsamp, float dt) {
  const int b = SP_GID(0);
  if (b >= nb) return;
  float w = q0[4 * b], x = q0[4 * b + 1], y = q0[4 * b + 2], z = q0[4 * b + 3];
  for (int s = 0; s < nsamp; ++s) {
    SP_GLOBAL const float *g = gyro + 3 * ((long)b * nsamp + s);
    const float ox = g[0], oy = g[1], oz = g[2];
    const float mag = SP_SQRTF(ox * ox + oy * oy + oz * oz), h = 0.5f * mag * dt;
    const float cw = SP_COSF(h), sk = mag > 0.0f ? SP_SINF(h) / mag : 0.0f;
    const float dx = ox * sk, dy = oy * sk, dz = oz * sk;
    const float nw = w * cw - x * dx - y * dy - z * dz;
    const float nx = w * dx + x * cw + y * dz - z * dy;
    const float ny = w * dy - x * dz + y * cw + z * dx;
    const float nz = w * dz + x * dy - y * dx + z * cw;
    const float inv = 1.0f / SP_SQRTF(nw * nw + nx * nx + ny * ny + nz * nz);
    w = nw * inv;
    x = nx * inv;
    y = ny * inv;
    z = nz * inv;
  }
  q1[4 * b] = w;
  q1[4 * b + 1] = x;
  q1[4 * b + 2] = y;
  q1[4 * b + 3] = z;
}

/* ---- batch-norm folding ------------------------------------------------------------------------
 * A convolution followed by batch norm (gamma, beta, mean, var per output
 * channel) becomes one convolution: w' = w s and b' = (b - mean) s + beta,
 * s = gamma / sqrt(var + eps).  A work-item per weight (per = weights per
 * output channel); the first of each channel also writes its bias. */
SP_KERNEL void s_bn_fold_conv(SP_GLOBAL const float *SP_RESTRICT w,
                              SP_GLOBAL const float *SP_RESTRICT bn,
                              SP_GLOBAL float *SP_RESTRICT wf, SP_GLOBAL float *SP_RESTRICT bf,
                              int nout, int per, float eps) {
  const int e = SP_GID(0);
  if (e >= nout * per) return;
  const int o = e / per;
  const float gamma = bn[5 * o], beta = bn[5 * o + 1], mean = bn[5 * o + 2];
  const float var = bn[5 * o + 3], bias = bn[5 * o + 4];
  const float s = gamma / SP_SQRTF(var + eps);
  wf[e] = w[e] * s;
  if (e % per == 0) bf[o] = (bias - mean) * s + beta;
}
