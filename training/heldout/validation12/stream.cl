/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream.cl: streams, the roofline knee and dependent loads of the twelfth
 * validation suite (host half: stream.c): IEEE half to float widening, one-
 * hot targets with label smoothing, an EMA of model weights in place, AoS
 * to SoA, Bessel J0 in float and the AS241 inverse normal in FP64, sorted
 * search of tables on both sides of the L2, union-find roots by chasing
 * parents, and COO SpMV by compare-and-swap float adds.  Written for this
 * suite, independently of the core suite and the earlier validation
 * suites. */
#include "sp_dev.h"

/* ---- half to float ------------------------------------------------------------------------------
 * The bit-exact IEEE 754 binary16 to binary32 widening of OpenEXR's half
 * and numpy's npy_halfbits_to_floatbits: normal numbers rebias their
 * exponent, subnormals are normalised by shifting, infinities and NaNs keep
 * their payload.  A 2-byte load and a 4-byte store per element. */
SP_KERNEL SP_BOUNDS(256) void m_half_widen_f16(SP_GLOBAL const ushort *SP_RESTRICT h,
                                               SP_GLOBAL uint *SP_RESTRICT f, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const uint v = h[i], s = (v & 0x8000u) << 16, e = (v >> 10) & 31u;
  uint m = v & 1023u, r;
  if (e == 31u) {
    r = s | 0x7F800000u | (m << 13);
  } else if (e != 0u) {
    r = s | ((e + 112u) << 23) | (m << 13);
  } else if (m == 0u) {
    r = s;
  } else {
    uint ex = 113u;
    while ((m & 0x400u) == 0u) {
      m <<= 1;
      --ex;
    }
    r = s | (ex << 23) | ((m & 1023u) << 13);
  }
  f[i] = r;
}

/* ---- one-hot targets with label smoothing -------------------------------------------------------
 * PyTorch's one_hot followed by cross-entropy label smoothing: row i of the
 * n x OH_C target matrix is 1 - eps + eps / C at column label[i] and eps / C
 * elsewhere.  A work-item per output float: 64 bytes written per label
 * byte read. */
#define OH_C 16

SP_KERNEL SP_BOUNDS(256) void m_onehot_u8_wr(SP_GLOBAL const uchar *SP_RESTRICT label,
                                             SP_GLOBAL float *SP_RESTRICT out, int n, float hi,
                                             float lo) {
  const int i = SP_GID(0);
  if (i >= n * OH_C) return;
  out[i] = (int)label[i / OH_C] == i % OH_C ? hi : lo;
}

/* ---- EMA of model weights -----------------------------------------------------------------------
 * timm's ModelEmaV2 / torch.optim.swa_utils update, ema.lerp_(p, 1 - decay):
 * ema += w (p - ema), in place in FP64: two 8-byte loads and an 8-byte store
 * per weight. */
SP_KERNEL SP_BOUNDS(256) void m_ema_f64_rmw(SP_GLOBAL double *SP_RESTRICT ema,
                                            SP_GLOBAL const double *SP_RESTRICT p, int n,
                                            double w) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const double e = ema[i];
  ema[i] = fma(w, p[i] - e, e);
}

/* ---- AoS to SoA ---------------------------------------------------------------------------------
 * Point clouds stored as xyz triples split into three planes (PCL / Open3D
 * layouts, the AoS-to-SoA step of particle codes): three 4-byte loads at a
 * 12-byte stride, three unit-stride stores. */
SP_KERNEL SP_BOUNDS(256) void m_aos_soa_xyz(SP_GLOBAL const float *SP_RESTRICT aos,
                                            SP_GLOBAL float *SP_RESTRICT x,
                                            SP_GLOBAL float *SP_RESTRICT y,
                                            SP_GLOBAL float *SP_RESTRICT z, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const long b = 3 * (long)i;
  x[i] = aos[b];
  y[i] = aos[b + 1];
  z[i] = aos[b + 2];
}

/* ---- Bessel J0 ----------------------------------------------------------------------------------
 * Numerical Recipes' bessj0: below 8 a ratio of degree-5 polynomials in
 * x^2, above it Hankel's asymptotic form with degree-4 polynomials in
 * (8/x)^2, a square root, a sine and a cosine.  Float, one load and one
 * store per value. */
SP_KERNEL SP_BOUNDS(256) void m_bessj0_f32(SP_GLOBAL const float *SP_RESTRICT xs,
                                           SP_GLOBAL float *SP_RESTRICT out, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const float x = xs[i], ax = SP_FABSF(x);
  float r;
  if (ax < 8.0f) {
    const float y = x * x;
    const float p =
        57568490574.0f +
        y * (-13362590354.0f +
             y * (651619640.7f + y * (-11214424.18f + y * (77392.33017f + y * -184.9052456f))));
    const float q =
        57568490411.0f +
        y * (1029532985.0f + y * (9494680.718f + y * (59272.64853f + y * (267.8532712f + y))));
    r = p / q;
  } else {
    const float z = 8.0f / ax, y = z * z, xx = ax - 0.785398164f;
    const float p =
        1.0f + y * (-0.1098628627e-2f +
                    y * (0.2734510407e-4f + y * (-0.2073370639e-5f + y * 0.2093887211e-6f)));
    const float q = -0.1562499995e-1f +
                    y * (0.1430488765e-3f +
                         y * (-0.6911147651e-5f + y * (0.7621095161e-6f - y * 0.934935152e-7f)));
    r = SP_SQRTF(0.636619772f / ax) * (SP_COSF(xx) * p - z * SP_SINF(xx) * q);
  }
  out[i] = r;
}

/* ---- AS241 inverse normal -----------------------------------------------------------------------
 * Wichura's algorithm AS241 (PPND16, 1988): the normal quantile of p to
 * about 1e-16 by three ratios of degree-7 polynomials, the central one in
 * (p - 1/2)^2, the tails in sqrt(-log(min(p, 1 - p))).  FP64, an 8-byte
 * load and an 8-byte store per value. */
SP_FN double m_poly7(double x, double c0, double c1, double c2, double c3, double c4, double c5,
                     double c6, double c7) {
  return ((((((c7 * x + c6) * x + c5) * x + c4) * x + c3) * x + c2) * x + c1) * x + c0;
}

SP_KERNEL SP_BOUNDS(256) void m_as241_f64(SP_GLOBAL const double *SP_RESTRICT ps,
                                          SP_GLOBAL double *SP_RESTRICT out, int n) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const double p = ps[i], q = p - 0.5;
  double v;
  if (fabs(q) <= 0.425) {
    const double r = 0.180625 - q * q;
    v = q *
        m_poly7(r, 3.3871328727963666080e0, 1.3314166789178437745e+2, 1.9715909503065514427e+3,
                1.3731693765509461125e+4, 4.5921953931549871457e+4, 6.7265770927008700853e+4,
                3.3430575583588128105e+4, 2.5090809287301226727e+3) /
        m_poly7(r, 1.0, 4.2313330701600911252e+1, 6.8718700749205790830e+2,
                5.3941960214247511077e+3, 2.1213794301586595867e+4, 3.9307895800092710610e+4,
                2.8729085735721942674e+4, 5.2264952788528545610e+3);
  } else {
    double r = sqrt(-log(q < 0.0 ? p : 1.0 - p));
    if (r <= 5.0) {
      r -= 1.6;
      v = m_poly7(r, 1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0,
                  3.64784832476320460504e0, 1.27045825245236838258e0, 2.41780725177450611770e-1,
                  2.27238449892691845833e-2, 7.74545014278341407640e-4) /
          m_poly7(r, 1.0, 2.05319162663775882187e0, 1.67638483018380384940e0,
                  6.89767334985100004550e-1, 1.48103976427480074590e-1, 1.51986665636164571966e-2,
                  5.47593808499534494600e-4, 1.05075007164441684324e-9);
    } else {
      r -= 5.0;
      v = m_poly7(r, 6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0,
                  2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
                  2.71155556874348757815e-5, 2.01033439929228813265e-7) /
          m_poly7(r, 1.0, 5.99832206555887937690e-1, 1.36929880922735805310e-1,
                  1.48753612908506148525e-2, 7.86869131145613259100e-4, 1.84631831751005468180e-5,
                  1.42151175831644588870e-7, 2.04426310338993978564e-15);
    }
    if (q < 0.0) v = -v;
  }
  out[i] = v;
}

/* ---- sorted search ------------------------------------------------------------------------------
 * numpy.searchsorted / thrust::lower_bound for many queries: per query the
 * first index of a sorted uint32 table whose key is not below it, by
 * bisection: about 23-25 dependent loads, the top levels in L1, the bottom
 * ones from the L2 or from DRAM depending on the table's footprint. */
SP_KERNEL SP_BOUNDS(256) void m_searchsorted(SP_GLOBAL const uint *SP_RESTRICT table,
                                             SP_GLOBAL const uint *SP_RESTRICT qs,
                                             SP_GLOBAL uint *SP_RESTRICT out, int nt, int nq) {
  const int i = SP_GID(0);
  if (i >= nq) return;
  const uint q = qs[i];
  int lo = 0, hi = nt;
  while (lo < hi) {
    const int mid = (int)(((uint)lo + (uint)hi) >> 1);
    if (table[mid] < q)
      lo = mid + 1;
    else
      hi = mid;
  }
  out[i] = (uint)lo;
}

/* ---- union-find roots ---------------------------------------------------------------------------
 * The find of a disjoint-set forest without path compression (read only, so
 * every launch walks the same paths): from each query node up its parent
 * links to the root, each load depending on the one before, across a
 * parent array of 16 MB (inside the L2) or 128 MB (outside it). */
SP_KERNEL SP_BOUNDS(256) void m_uf_find(SP_GLOBAL const uint *SP_RESTRICT parent,
                                        SP_GLOBAL const uint *SP_RESTRICT qs,
                                        SP_GLOBAL uint *SP_RESTRICT root, int nq) {
  const int i = SP_GID(0);
  if (i >= nq) return;
  uint x = qs[i], p = parent[x];
  while (p != x) {
    x = p;
    p = parent[x];
  }
  root[i] = x;
}

/* ---- COO SpMV with compare-and-swap adds --------------------------------------------------------
 * y += A x for A in coordinate form sorted by row (cuSPARSE's COO, PyTorch's
 * index_add_): a work-item per nonzero adds val * x[col] to y[row] by a
 * compare-and-swap loop on the float's bits (OpenCL 1.2 has no float
 * atomic add), so the lanes of a row retry one another. */
SP_KERNEL SP_BOUNDS(256) void m_coo_spmv_casadd(SP_GLOBAL const uint *SP_RESTRICT row,
                                                SP_GLOBAL const uint *SP_RESTRICT col,
                                                SP_GLOBAL const float *SP_RESTRICT val,
                                                SP_GLOBAL const float *SP_RESTRICT x,
                                                SP_GLOBAL uint *y, int nnz) {
  const int i = SP_GID(0);
  if (i >= nnz) return;
  const float a = val[i] * x[col[i]];
  SP_GLOBAL uint *dst = y + row[i];
  uint old = *dst, seen;
  do {
    seen = old;
    old = SP_ATOMIC_CAS(dst, seen, SP_F2U(SP_U2F(seen) + a));
  } while (old != seen);
}
