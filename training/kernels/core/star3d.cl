/* star3d.cl: high-order 3-D star stencils (radius R: 6R + 1 points) in the
 * register-queue form used for seismic and wave codes.  A work-group of
 * 32 x 32 work-items owns a column of the grid and walks it in z: each
 * work-item keeps the 2R + 1 values of its own (x, y) at z - R .. z + R in
 * registers, shifting them by one plane per step, while the current plane
 * (with an R-wide halo) goes through a local-memory tile for the x and y
 * neighbours.  Groups are large (1024 work-items) and hold many registers,
 * so one group fills an SM.
 *
 * The arrays are padded by R on every side: nx, ny, nz are the interior
 * sizes (multiples of 32, and of the z chunks), px and py the padded ones.
 * Group (gx, gy, gz) writes the interior points of its column at planes
 * gz zlen .. (gz + 1) zlen - 1. */
#include "sp_port.h"

#define S3_T 32

/* Coefficients: dyadic, so every sum of small-integer inputs is exact. */
#define S3_C0 (-3.0f)
#define S3_C(d) (1.0f / (float)(1 << (d)))

#define STAR3D_KERNEL(NAME, R)                                                \
  SP_KERNEL void NAME(SP_GLOBAL const float *SP_RESTRICT in,                  \
                      SP_GLOBAL float *SP_RESTRICT out, int nx, int ny,       \
                      int zlen)                                               \
  {                                                                           \
    SP_LOCAL float t[S3_T + 2 * (R)][S3_T + 2 * (R)];                         \
    const int tx = SP_LID(0), ty = SP_LID(1);                                 \
    const int px = nx + 2 * (R), plane = px * (ny + 2 * (R));                 \
    const int x = SP_GRP(0) * S3_T + tx + (R);                                \
    const int y = SP_GRP(1) * S3_T + ty + (R);                                \
    const int z0 = SP_GRP(2) * zlen + (R);                                    \
    int i = z0 * plane + y * px + x;                                          \
    float q[2 * (R) + 1];                                                     \
    for (int k = 0; k < 2 * (R); ++k)                                         \
      q[k] = in[i + (k - (R)) * plane];                                       \
    _Pragma("unroll 1")                                                       \
    for (int z = 0; z < zlen; ++z, i += plane) {                              \
      q[2 * (R)] = in[i + (R) * plane];                                       \
      t[ty + (R)][tx + (R)] = q[R];                                           \
      if (tx < (R)) {                                                         \
        t[ty + (R)][tx] = in[i - (R)];                                        \
        t[ty + (R)][tx + S3_T + (R)] = in[i + S3_T];                          \
      }                                                                       \
      if (ty < (R)) {                                                         \
        t[ty][tx + (R)] = in[i - (R) * px];                                   \
        t[ty + S3_T + (R)][tx + (R)] = in[i + S3_T * px];                     \
      }                                                                       \
      SP_BARRIER();                                                           \
      float acc = S3_C0 * q[R];                                               \
      for (int d = 1; d <= (R); ++d)                                          \
        acc += S3_C(d) * ((q[(R) - d] + q[(R) + d]) +                         \
                          (t[ty + (R)][tx + (R) - d] +                        \
                           t[ty + (R)][tx + (R) + d]) +                       \
                          (t[ty + (R) - d][tx + (R)] +                        \
                           t[ty + (R) + d][tx + (R)]));                       \
      out[i] = acc;                                                           \
      for (int k = 0; k < 2 * (R); ++k)                                       \
        q[k] = q[k + 1];                                                      \
      SP_BARRIER();                                                           \
    }                                                                         \
  }

STAR3D_KERNEL(star3d_r2, 2)
STAR3D_KERNEL(star3d_r4, 4)
