/* stencil.cl: 2-D and 3-D stencils.  Boundary points are copied; interior
 * points combine their neighbours with fixed weights. */
#include "sp_port.h"

SP_KERNEL void st2d_5pt(SP_GLOBAL const float *SP_RESTRICT in,
                        SP_GLOBAL float *SP_RESTRICT out, int nx, int ny)
{
  int x = SP_GID(0), y = SP_GID(1);
  if (x >= nx || y >= ny)
    return;
  int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1)
    out[i] = in[i];
  else
    out[i] = 0.5f * in[i] +
             0.125f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}

SP_KERNEL void st2d_5pt_f64(SP_GLOBAL const double *SP_RESTRICT in,
                            SP_GLOBAL double *SP_RESTRICT out, int nx, int ny)
{
  int x = SP_GID(0), y = SP_GID(1);
  if (x >= nx || y >= ny)
    return;
  int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1)
    out[i] = in[i];
  else
    out[i] = 0.5 * in[i] +
             0.125 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}

SP_KERNEL void st2d_9pt(SP_GLOBAL const float *SP_RESTRICT in,
                        SP_GLOBAL float *SP_RESTRICT out, int nx, int ny)
{
  int x = SP_GID(0), y = SP_GID(1);
  if (x >= nx || y >= ny)
    return;
  int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[i] = in[i];
    return;
  }
  float edge = in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx];
  float corner =
      in[i - nx - 1] + in[i - nx + 1] + in[i + nx - 1] + in[i + nx + 1];
  out[i] = 0.25f * in[i] + 0.125f * edge + 0.0625f * corner;
}

/* The 5-point stencil through a 16x16 tile with a one-point halo in local
 * memory: each input is read from DRAM about once. */
SP_KERNEL void st2d_5pt_tiled(SP_GLOBAL const float *SP_RESTRICT in,
                              SP_GLOBAL float *SP_RESTRICT out, int nx,
                              int ny)
{
  SP_LOCAL float t[18][18];
  int lx = SP_LID(0), ly = SP_LID(1);
  int x = SP_GID(0), y = SP_GID(1);
  int cx = x < nx ? x : nx - 1, cy = y < ny ? y : ny - 1;
  t[ly + 1][lx + 1] = in[cy * nx + cx];
  if (lx == 0)
    t[ly + 1][0] = in[cy * nx + (cx > 0 ? cx - 1 : 0)];
  if (lx == 15)
    t[ly + 1][17] = in[cy * nx + (cx < nx - 1 ? cx + 1 : cx)];
  if (ly == 0)
    t[0][lx + 1] = in[(cy > 0 ? cy - 1 : 0) * nx + cx];
  if (ly == 15)
    t[17][lx + 1] = in[(cy < ny - 1 ? cy + 1 : cy) * nx + cx];
  SP_BARRIER();
  if (x >= nx || y >= ny)
    return;
  float c = t[ly + 1][lx + 1];
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1)
    out[y * nx + x] = c;
  else
    out[y * nx + x] = 0.5f * c + 0.125f * (t[ly + 1][lx] + t[ly + 1][lx + 2] +
                                           t[ly][lx + 1] + t[ly + 2][lx + 1]);
}

SP_KERNEL void st3d_7pt(SP_GLOBAL const float *SP_RESTRICT in,
                        SP_GLOBAL float *SP_RESTRICT out, int n)
{
  int x = SP_GID(0), y = SP_GID(1), z = SP_GID(2);
  if (x >= n || y >= n || z >= n)
    return;
  int sy = n, sz = n * n, i = z * sz + y * sy + x;
  if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.4f * in[i] + 0.1f * (in[i - 1] + in[i + 1] + in[i - sy] +
                                  in[i + sy] + in[i - sz] + in[i + sz]);
}

SP_KERNEL void st3d_27pt(SP_GLOBAL const float *SP_RESTRICT in,
                         SP_GLOBAL float *SP_RESTRICT out, int n)
{
  int x = SP_GID(0), y = SP_GID(1), z = SP_GID(2);
  if (x >= n || y >= n || z >= n)
    return;
  int sy = n, sz = n * n, i = z * sz + y * sy + x;
  if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) {
    out[i] = in[i];
    return;
  }
  /* Weight by distance class: centre, 6 faces, 12 edges, 8 corners. */
  float face = 0.0f, edge = 0.0f, corner = 0.0f;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int d = (dx != 0) + (dy != 0) + (dz != 0);
        float v = in[i + dz * sz + dy * sy + dx];
        if (d == 1)
          face += v;
        else if (d == 2)
          edge += v;
        else if (d == 3)
          corner += v;
      }
  out[i] = 0.25f * in[i] + 0.0625f * face + 0.03125f * edge +
           0.015625f * corner;
}
