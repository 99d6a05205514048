/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stencil.cl: 3-D stencils and a lattice near the bandwidth knee, of the
 * twelfth validation suite (host half: stencil.c): a donor-cell advection
 * step in FP64, a Perona-Malik diffusion step in float and a D3Q7 lattice
 * Boltzmann advection-diffusion step.  Written for this suite,
 * independently of the core suite and the earlier validation suites. */
#include "sp_dev.h"

/* ---- donor-cell advection -----------------------------------------------------------------------
 * The donor-cell (first-order upwind) scheme in flux form, the first pass
 * of Smolarkiewicz's MPDATA (libmpdata++, EULAG): with Courant numbers on
 * the cell faces (u at i + 1/2 stored at i, v, w likewise) the flux through
 * a face is max(u, 0) q_left + min(u, 0) q_right, and
 * q' = q - (F_{i+1/2} - F_{i-1/2}) - (G ...) - (H ...).  Periodic grid of
 * nx x ny x nz FP64 cells, groups of 32 x 4, one z plane each: q (7 points)
 * and three face fields (2 points each) in, q' out. */
SP_FN double m_flux(double c, double l, double r) { return fmax(c, 0.0) * l + fmin(c, 0.0) * r; }

SP_KERNEL void m_donorcell3d_f64(SP_GLOBAL const double *SP_RESTRICT q,
                                 SP_GLOBAL const double *SP_RESTRICT u,
                                 SP_GLOBAL const double *SP_RESTRICT v,
                                 SP_GLOBAL const double *SP_RESTRICT w,
                                 SP_GLOBAL double *SP_RESTRICT out, int nx, int ny, int nz) {
  const int x = SP_GRP(0) * 32 + SP_LID(0), y = SP_GRP(1) * 4 + SP_LID(1), z = SP_GRP(2);
  const long sy = nx, sz = (long)nx * ny, c = z * sz + y * sy + x;
  const long xm = x == 0 ? c + nx - 1 : c - 1, xp = x == nx - 1 ? c - (nx - 1) : c + 1;
  const long ym = y == 0 ? c + (ny - 1) * sy : c - sy,
             yp = y == ny - 1 ? c - (ny - 1) * sy : c + sy;
  const long zm = z == 0 ? c + (nz - 1) * sz : c - sz,
             zp = z == nz - 1 ? c - (nz - 1) * sz : c + sz;
  const double qc = q[c];
  const double fx = m_flux(u[c], qc, q[xp]) - m_flux(u[xm], q[xm], qc);
  const double fy = m_flux(v[c], qc, q[yp]) - m_flux(v[ym], q[ym], qc);
  const double fz = m_flux(w[c], qc, q[zp]) - m_flux(w[zm], q[zm], qc);
  out[c] = qc - fx - fy - fz;
}

/* ---- Perona-Malik diffusion ---------------------------------------------------------------------
 * One explicit step of Perona and Malik's anisotropic diffusion (1990) on a
 * volume, as ITK's GradientAnisotropicDiffusionImageFilter and 3-D medical
 * denoisers run it: for each of the 6 faces the difference d to the
 * neighbour and the conductance exp(-(d / K)^2), u' = u + lambda sum g d,
 * zero flux across the volume's borders.  Float, groups of 32 x 4, one z
 * plane each: 6 exponentials per voxel. */
SP_KERNEL void m_peronamalik3d_f32(SP_GLOBAL const float *SP_RESTRICT in,
                                   SP_GLOBAL float *SP_RESTRICT out, int nx, int ny, int nz,
                                   float lambda, float ik2) {
  const int x = SP_GRP(0) * 32 + SP_LID(0), y = SP_GRP(1) * 4 + SP_LID(1), z = SP_GRP(2);
  const long sy = nx, sz = (long)nx * ny, c = z * sz + y * sy + x;
  const float uc = in[c];
  float d[6];
  d[0] = x > 0 ? in[c - 1] - uc : 0.0f;
  d[1] = x < nx - 1 ? in[c + 1] - uc : 0.0f;
  d[2] = y > 0 ? in[c - sy] - uc : 0.0f;
  d[3] = y < ny - 1 ? in[c + sy] - uc : 0.0f;
  d[4] = z > 0 ? in[c - sz] - uc : 0.0f;
  d[5] = z < nz - 1 ? in[c + sz] - uc : 0.0f;
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < 6; ++k) acc += SP_EXPF(-d[k] * d[k] * ik2) * d[k];
  out[c] = uc + lambda * acc;
}

/* ---- D3Q7 advection-diffusion -------------------------------------------------------------------
 * Lattice Boltzmann for a passive scalar (Krueger et al., "The Lattice
 * Boltzmann Method", ch. 8; the D3Q7 scheme of Palabos' advection-
 * diffusion lattices): 7 populations (rest, +-x, +-y, +-z), weights 1/4
 * and 1/8, cs^2 = 1/4, equilibrium w_i C (1 + 4 e_i . u) for a uniform
 * velocity u, BGK relaxation omega.  Pull scheme with two SoA arrays
 * (f[i n + cell]): each cell gathers f_i from x - e_i, sums C, relaxes and
 * writes its 7 values.  Periodic, groups of 32 x 4, one z plane each. */
SP_KERNEL void m_lbm_d3q7_advdiff(SP_GLOBAL const float *SP_RESTRICT f,
                                  SP_GLOBAL float *SP_RESTRICT g, int nx, int ny, int nz, float ux,
                                  float uy, float uz, float omega) {
  const int x = SP_GRP(0) * 32 + SP_LID(0), y = SP_GRP(1) * 4 + SP_LID(1), z = SP_GRP(2);
  const long sy = nx, sz = (long)nx * ny, n = sz * nz, c = z * sz + y * sy + x;
  const long xm = x == 0 ? c + nx - 1 : c - 1, xp = x == nx - 1 ? c - (nx - 1) : c + 1;
  const long ym = y == 0 ? c + (ny - 1) * sy : c - sy,
             yp = y == ny - 1 ? c - (ny - 1) * sy : c + sy;
  const long zm = z == 0 ? c + (nz - 1) * sz : c - sz,
             zp = z == nz - 1 ? c - (nz - 1) * sz : c + sz;
  float p[7];
  p[0] = f[c];
  p[1] = f[n + xm]; /* +x arrives from x - 1 */
  p[2] = f[2 * n + xp];
  p[3] = f[3 * n + ym];
  p[4] = f[4 * n + yp];
  p[5] = f[5 * n + zm];
  p[6] = f[6 * n + zp];
  const float cc = p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6];
  const float e0 = 0.25f * cc, e1 = 0.125f * cc;
  float eq[7];
  eq[0] = e0;
  eq[1] = e1 * (1.0f + 4.0f * ux);
  eq[2] = e1 * (1.0f - 4.0f * ux);
  eq[3] = e1 * (1.0f + 4.0f * uy);
  eq[4] = e1 * (1.0f - 4.0f * uy);
  eq[5] = e1 * (1.0f + 4.0f * uz);
  eq[6] = e1 * (1.0f - 4.0f * uz);
#pragma unroll
  for (int i = 0; i < 7; ++i) g[i * n + c] = p[i] - omega * (p[i] - eq[i]);
}
