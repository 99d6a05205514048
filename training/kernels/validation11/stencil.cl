/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stencil.cl: 3-D stencils and a lattice of the eleventh validation suite
 * (host half: stencil.c): a Gray-Scott reaction-diffusion step, HPGMG's
 * variable-coefficient Helmholtz operator and the in-place odd step of a
 * D3Q27 lattice Boltzmann method.  Written for this suite, independently
 * of the core suite and the earlier validation suites. */
#include "sp_dev.h"

/* ---- Gray-Scott reaction-diffusion --------------------------------------------------------------
 * One explicit step of the ADIOS2 tutorial's Gray-Scott simulation on a
 * periodic l^3 grid in double: lap(w) = (sum of the 6 neighbours - 6 w) / 6,
 * u' = u + dt (Du lap(u) - u v^2 + F (1 - u)),
 * v' = v + dt (Dv lap(v) + u v^2 - (F + k) v) (no noise term).  A work-item
 * per cell, groups of 32 x 4 in x and y. */
SP_KERNEL void k_grayscott3d_f64(SP_GLOBAL const double *SP_RESTRICT u,
                                 SP_GLOBAL const double *SP_RESTRICT v,
                                 SP_GLOBAL double *SP_RESTRICT u2, SP_GLOBAL double *SP_RESTRICT v2,
                                 int l, double du, double dv, double ff, double kk, double dt) {
  const int x = SP_GID(0), y = SP_GID(1), z = SP_GID(2);
  if (x >= l || y >= l || z >= l) return;
  const long sy = l, sz = (long)l * l, c = z * sz + y * sy + x;
  const long xm = x == 0 ? c + l - 1 : c - 1, xp = x == l - 1 ? c - (l - 1) : c + 1;
  const long ym = y == 0 ? c + (l - 1) * sy : c - sy, yp = y == l - 1 ? c - (l - 1) * sy : c + sy;
  const long zm = z == 0 ? c + (l - 1) * sz : c - sz, zp = z == l - 1 ? c - (l - 1) * sz : c + sz;
  const double uc = u[c], vc = v[c];
  const double lu = (u[xm] + u[xp] + u[ym] + u[yp] + u[zm] + u[zp] - 6.0 * uc) / 6.0;
  const double lv = (v[xm] + v[xp] + v[ym] + v[yp] + v[zm] + v[zp] - 6.0 * vc) / 6.0;
  const double uvv = uc * vc * vc;
  u2[c] = uc + dt * (du * lu - uvv + ff * (1.0 - uc));
  v2[c] = vc + dt * (dv * lv + uvv - (ff + kk) * vc);
}

/* ---- HPGMG-FV Helmholtz operator ----------------------------------------------------------------
 * HPGMG-FV's 7-point variable-coefficient operator (operators.7pt.c,
 * apply_op) on one box of l^3 cells with one ghost layer (stride p = l + 2):
 * Ax = a alpha x - b h2inv (sum over the six faces of beta_face (x_nbr - x)),
 * with beta_i, beta_j, beta_k stored per cell at its low faces.  A
 * work-item per interior cell, groups of 32 x 4. */
SP_KERNEL void k_hpgmg_helmholtz_f64(SP_GLOBAL const double *SP_RESTRICT x,
                                     SP_GLOBAL const double *SP_RESTRICT alpha,
                                     SP_GLOBAL const double *SP_RESTRICT bi,
                                     SP_GLOBAL const double *SP_RESTRICT bj,
                                     SP_GLOBAL const double *SP_RESTRICT bk,
                                     SP_GLOBAL double *SP_RESTRICT ax, int l, double a,
                                     double bh2inv) {
  const int i = SP_GID(0) + 1, j = SP_GID(1) + 1, k = SP_GID(2) + 1;
  if (i > l || j > l || k > l) return;
  const long js = l + 2, ks = js * js, c = k * ks + j * js + i;
  const double xc = x[c];
  const double s = bi[c + 1] * (x[c + 1] - xc) + bi[c] * (x[c - 1] - xc) +
                   bj[c + js] * (x[c + js] - xc) + bj[c] * (x[c - js] - xc) +
                   bk[c + ks] * (x[c + ks] - xc) + bk[c] * (x[c - ks] - xc);
  ax[c] = a * alpha[c] * xc - bh2inv * s;
}

/* ---- D3Q27 lattice Boltzmann, AA pattern, odd step ----------------------------------------------
 * The odd time step of Bailey et al.'s AA propagation (one array, updated
 * in place): cell x reads its incoming populations f_q from the opposite
 * slots of the cells it streams from, f_q = A[26 - q][x - c_q], collides
 * them (BGK, relaxation rate omega, second-order equilibrium) and writes
 * the results to where they stream, A[q][x + c_q].  The slots a cell reads
 * are exactly those it writes, so no two work-items touch the same slot.
 * c_q = (q % 3 - 1, q / 3 % 3 - 1, q / 9 - 1), so 26 - q is q's opposite;
 * weights 8/27, 2/27, 1/54, 1/216 by the number of non-zero components.
 * Structure of arrays, A[q * ncell + cell], periodic l^3 lattice. */
#define LB_Q 27

SP_KERNEL void k_lbm_d3q27_aa(SP_GLOBAL float *SP_RESTRICT f, int l, float omega) {
  const int x = SP_GID(0), y = SP_GID(1), z = SP_GID(2);
  if (x >= l || y >= l || z >= l) return;
  const long nc = (long)l * l * l;
  float fq[LB_Q];
  float rho = 0.0f, jx = 0.0f, jy = 0.0f, jz = 0.0f;
#pragma unroll
  for (int q = 0; q < LB_Q; ++q) {
    const int cx = q % 3 - 1, cy = q / 3 % 3 - 1, cz = q / 9 - 1;
    const int sx = (x - cx + l) % l, sy = (y - cy + l) % l, sz = (z - cz + l) % l;
    const float v = f[(long)(LB_Q - 1 - q) * nc + ((long)sz * l + sy) * l + sx];
    fq[q] = v;
    rho += v;
    jx += (float)cx * v;
    jy += (float)cy * v;
    jz += (float)cz * v;
  }
  const float ux = jx / rho, uy = jy / rho, uz = jz / rho;
  const float usq = 1.5f * (ux * ux + uy * uy + uz * uz);
#pragma unroll
  for (int q = 0; q < LB_Q; ++q) {
    const int cx = q % 3 - 1, cy = q / 3 % 3 - 1, cz = q / 9 - 1;
    const int nz = cx * cx + cy * cy + cz * cz;
    const float w = nz == 0   ? 8.0f / 27.0f
                    : nz == 1 ? 2.0f / 27.0f
                    : nz == 2 ? 1.0f / 54.0f
                              : 1.0f / 216.0f;
    const float cu = 3.0f * ((float)cx * ux + (float)cy * uy + (float)cz * uz);
    const float feq = w * rho * (1.0f + cu + 0.5f * cu * cu - usq);
    const int dx = (x + cx + l) % l, dy = (y + cy + l) % l, dz = (z + cz + l) % l;
    f[(long)q * nc + ((long)dz * l + dy) * l + dx] = fq[q] - omega * (fq[q] - feq);
  }
}
