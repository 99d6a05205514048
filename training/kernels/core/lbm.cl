/* lbm.cl: lattice-Boltzmann collide-and-stream steps, the multi-stream
 * bandwidth pattern: every cell reads one value from each of Q arrays and
 * writes one to each of Q others (Q = 9 in 2-D, 19 in 3-D), so the memory
 * system serves 2Q concurrent streams.  Structure of arrays: direction q
 * of cell c is f[q n + c].  Pull scheme on a periodic lattice: the value
 * moving along c_q is read from the neighbour at -c_q, then relaxed
 * towards the equilibrium (BGK, relaxation rate omega).
 *
 * Work-item x of group (gx, y, z) handles cell (x, y, z); the x rows are
 * whole groups.  A direction list is an X-macro X(q, cx, cy, cz, w). */
#include "sp_port.h"

#define LBM_D2Q9(X)                                                           \
  X(0, 0, 0, 0, 4.0 / 9.0)                                                    \
  X(1, 1, 0, 0, 1.0 / 9.0)                                                    \
  X(2, 0, 1, 0, 1.0 / 9.0)                                                    \
  X(3, -1, 0, 0, 1.0 / 9.0)                                                   \
  X(4, 0, -1, 0, 1.0 / 9.0)                                                   \
  X(5, 1, 1, 0, 1.0 / 36.0)                                                   \
  X(6, -1, 1, 0, 1.0 / 36.0)                                                  \
  X(7, -1, -1, 0, 1.0 / 36.0)                                                 \
  X(8, 1, -1, 0, 1.0 / 36.0)

#define LBM_D3Q19(X)                                                          \
  X(0, 0, 0, 0, 1.0 / 3.0)                                                    \
  X(1, 1, 0, 0, 1.0 / 18.0)                                                   \
  X(2, -1, 0, 0, 1.0 / 18.0)                                                  \
  X(3, 0, 1, 0, 1.0 / 18.0)                                                   \
  X(4, 0, -1, 0, 1.0 / 18.0)                                                  \
  X(5, 0, 0, 1, 1.0 / 18.0)                                                   \
  X(6, 0, 0, -1, 1.0 / 18.0)                                                  \
  X(7, 1, 1, 0, 1.0 / 36.0)                                                   \
  X(8, -1, -1, 0, 1.0 / 36.0)                                                 \
  X(9, 1, -1, 0, 1.0 / 36.0)                                                  \
  X(10, -1, 1, 0, 1.0 / 36.0)                                                 \
  X(11, 1, 0, 1, 1.0 / 36.0)                                                  \
  X(12, -1, 0, -1, 1.0 / 36.0)                                                \
  X(13, 1, 0, -1, 1.0 / 36.0)                                                 \
  X(14, -1, 0, 1, 1.0 / 36.0)                                                 \
  X(15, 0, 1, 1, 1.0 / 36.0)                                                  \
  X(16, 0, -1, -1, 1.0 / 36.0)                                                \
  X(17, 0, 1, -1, 1.0 / 36.0)                                                 \
  X(18, 0, -1, 1, 1.0 / 36.0)

/* The coordinate a value moving along c comes from: c = 1 from the lower
 * neighbour, c = -1 from the upper one (wrapped by the caller). */
#define LBM_FROM(c, lo, mid, hi) ((c) == 1 ? (lo) : (c) == -1 ? (hi) : (mid))
/* c u for c in {-1, 0, 1}, folded at compile time. */
#define LBM_CU(c, u) ((c) == 1 ? (u) : (c) == -1 ? -(u) : (lbm_t)0)

#define LBM_LOAD(q, cx, cy, cz, w)                                            \
  const lbm_t f##q =                                                          \
      fin[(long)(q) * n +                                                     \
          (LBM_FROM(cz, zm, z, zp) * ny + LBM_FROM(cy, ym, y, yp)) * nx +     \
          LBM_FROM(cx, xm, x, xp)];
#define LBM_SUM(q, cx, cy, cz, w)                                             \
  rho += f##q;                                                                \
  if ((cx) == 1) jx += f##q;                                                  \
  if ((cx) == -1) jx -= f##q;                                                 \
  if ((cy) == 1) jy += f##q;                                                  \
  if ((cy) == -1) jy -= f##q;                                                 \
  if ((cz) == 1) jz += f##q;                                                  \
  if ((cz) == -1) jz -= f##q;
#define LBM_STORE(q, cx, cy, cz, w)                                           \
  {                                                                           \
    const lbm_t cu =                                                          \
      (lbm_t)3 * (LBM_CU(cx, ux) + LBM_CU(cy, uy) + LBM_CU(cz, uz));          \
    const lbm_t feq =                                                         \
      (lbm_t)(w) * rho * ((lbm_t)1 + cu + (lbm_t)0.5 * cu * cu - usq);        \
    fout[(long)(q) * n + c] = f##q + omega * (feq - f##q);                    \
  }

#define LBM_KERNEL(NAME, T, LIST)                                             \
  SP_KERNEL void NAME(SP_GLOBAL const T *SP_RESTRICT fin,                     \
                      SP_GLOBAL T *SP_RESTRICT fout, int nx, int ny,          \
                      int nz, T omega)                                        \
  {                                                                           \
    typedef T lbm_t;                                                          \
    const int x = SP_GID(0), y = SP_GRP(1), z = SP_GRP(2);                    \
    const int n = nx * ny * nz, c = (z * ny + y) * nx + x;                    \
    const int xm = x == 0 ? nx - 1 : x - 1, xp = x == nx - 1 ? 0 : x + 1;     \
    const int ym = y == 0 ? ny - 1 : y - 1, yp = y == ny - 1 ? 0 : y + 1;     \
    const int zm = z == 0 ? nz - 1 : z - 1, zp = z == nz - 1 ? 0 : z + 1;     \
    LIST(LBM_LOAD)                                                            \
    T rho = (T)0, jx = (T)0, jy = (T)0, jz = (T)0;                            \
    LIST(LBM_SUM)                                                             \
    const T ir = (T)1 / rho;                                                  \
    const T ux = jx * ir, uy = jy * ir, uz = jz * ir;                         \
    const T usq = (T)1.5 * (ux * ux + uy * uy + uz * uz);                     \
    LIST(LBM_STORE)                                                           \
  }

LBM_KERNEL(lbm_d2q9, float, LBM_D2Q9)
LBM_KERNEL(lbm_d3q19, float, LBM_D3Q19)
LBM_KERNEL(lbm_d3q19_f64, double, LBM_D3Q19)
