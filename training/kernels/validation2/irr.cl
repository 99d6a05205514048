/* irr.cl: irregular kernels for the second validation suite (host half:
 * irr.c): backtracking search, a hash-join probe, a block SpMV held in L2,
 * label propagation with atomic minima, ray casting from a global work
 * queue, a neighbour-pair list with one contended counter, triangle
 * counting on a skewed graph, per-row scans over 397 rows and a one-group
 * non-maximum suppression.  Written for this suite, independently of
 * the core suite and the first validation suite. */
#include "sp_dev.h"

/* ---- N-queens ---------------------------------------------------------------
 * Each work-item completes one board prefix (the first rows already placed,
 * given as the column and the two diagonal masks) by iterative bitmask
 * backtracking with an explicit stack, and writes its number of solutions.
 * Integer work, divergent, and subtrees of very different sizes. */
#define NQ_MAXD 16

SP_KERNEL void w_nqueens(SP_GLOBAL const uint *SP_RESTRICT pre,
                         SP_GLOBAL uint *SP_RESTRICT count, int nprefix,
                         int nq)
{
  const int id = SP_GID(0);
  if (id >= nprefix)
    return;
  const uint full = (1u << nq) - 1u;
  uint cs[NQ_MAXD], ls[NQ_MAXD], rs[NQ_MAXD], av[NQ_MAXD];
  cs[0] = pre[3 * id];
  ls[0] = pre[3 * id + 1];
  rs[0] = pre[3 * id + 2];
  av[0] = ~(cs[0] | ls[0] | rs[0]) & full;
  uint found = 0;
  int d = 0;
  while (d >= 0) {
    const uint a = av[d];
    if (a == 0u) {
      --d;
      continue;
    }
    const uint bit = a & (0u - a);
    av[d] = a ^ bit;
    const uint c = cs[d] | bit;
    if (c == full) {
      ++found;
      continue;
    }
    const uint l = (ls[d] | bit) << 1, r = (rs[d] | bit) >> 1;
    ++d;
    cs[d] = c;
    ls[d] = l;
    rs[d] = r;
    av[d] = ~(c | l | r) & full;
  }
  count[id] = found;
}

/* ---- hash-join probe -----------------------------------------------------------
 * Probes a linear-probing hash table (key, value pairs, EMPTY keys free)
 * with one key per work-item and writes the value found or MISS.  The
 * table (16 MB) stays in L2; the probe keys and results stream. */
#define HJ_EMPTY 0xFFFFFFFFu

SP_KERNEL void w_hashjoin_probe(SP_GLOBAL const uint *SP_RESTRICT table,
                                SP_GLOBAL const uint *SP_RESTRICT keys,
                                SP_GLOBAL uint *SP_RESTRICT out, uint mask,
                                int n)
{
  const int i = SP_GID(0);
  if (i >= n)
    return;
  const uint key = keys[i];
  uint h = sp_lowbias32(key) & mask, v = HJ_EMPTY;
  for (;;) {
    const uint k = table[2 * h];
    if (k == key) {
      v = table[2 * h + 1];
      break;
    }
    if (k == HJ_EMPTY)
      break;
    h = (h + 1u) & mask;
  }
  out[i] = v;
}

/* ---- block SpMV (SpMM with 8 right-hand sides) ----------------------------------
 * Y = A X for a CSR matrix and X, Y of 8 columns stored row by row (block
 * Krylov solvers).  Eight consecutive work-items share a row, one column
 * each, so every gather of X reads 32 contiguous bytes.  The whole problem
 * (about 28 MB) stays in L2 between launches. */
#define SM_B 8

SP_KERNEL void w_spmm8(SP_GLOBAL const int *SP_RESTRICT rowptr,
                       SP_GLOBAL const int *SP_RESTRICT colidx,
                       SP_GLOBAL const float *SP_RESTRICT val,
                       SP_GLOBAL const float *SP_RESTRICT x,
                       SP_GLOBAL float *SP_RESTRICT y, int rows)
{
  const int id = SP_GID(0), row = id / SM_B, j = id % SM_B;
  if (row >= rows)
    return;
  float acc = 0.0f;
  for (int k = rowptr[row]; k < rowptr[row + 1]; ++k)
    acc = SP_FMAF(val[k], x[colidx[k] * SM_B + j], acc);
  y[row * SM_B + j] = acc;
}

/* ---- connected components: one label-propagation sweep ---------------------------
 * For every edge, the larger of its endpoints' labels (in lin) is lowered
 * to the smaller in lout with an atomic minimum.  lout starts as lin; the
 * sweep is idempotent, so repeated launches redo the same atomics.  Hubs
 * of the skewed graph receive many of them. */
SP_KERNEL void w_cc_hook(SP_GLOBAL const uint *SP_RESTRICT src,
                         SP_GLOBAL const uint *SP_RESTRICT dst,
                         SP_GLOBAL const uint *SP_RESTRICT lin,
                         SP_GLOBAL uint *lout, int m)
{
  const int e = SP_GID(0);
  if (e >= m)
    return;
  const uint u = src[e], v = dst[e];
  const uint lu = lin[u], lv = lin[v];
  if (lu < lv)
    SP_ATOMIC_MIN(&lout[v], lu);
  else if (lv < lu)
    SP_ATOMIC_MIN(&lout[u], lv);
}

/* ---- ray casting from a global work queue ------------------------------------------
 * A persistent grid takes 16x16-pixel tiles from a global counter (q[0]);
 * each work-item casts its pixel's ray against RC_NS spheres in local
 * memory and, on a hit, a shadow ray towards the light.  The last group to
 * finish (ticket q[1]) resets both counters for the next launch. */
#define RC_NS 64
#define RC_TILE 16

SP_KERNEL void w_raycast_queue(SP_GLOBAL const float *SP_RESTRICT spheres,
                               SP_GLOBAL float *SP_RESTRICT img,
                               SP_GLOBAL uint *q, int w, int h)
{
  SP_LOCAL float sp[RC_NS][5];
  SP_LOCAL uint task;
  const int t = SP_LID(0);
  for (int i = t; i < RC_NS * 5; i += SP_LSIZE(0))
    sp[i / 5][i % 5] = spheres[i];
  const int tilesx = w / RC_TILE, ntask = tilesx * (h / RC_TILE);
  const float lx = 5.0f, ly = 8.0f, lz = 0.0f;
  for (;;) {
    SP_BARRIER(); /* task read by all; spheres loaded */
    if (t == 0)
      task = SP_ATOMIC_ADD(&q[0], 1u);
    SP_BARRIER();
    const int tk = (int)task;
    if (tk >= ntask)
      break;
    const int px = tk % tilesx * RC_TILE + t % RC_TILE;
    const int py = tk / tilesx * RC_TILE + t / RC_TILE;
    float dx = ((float)px + 0.5f) / (float)w * 2.0f - 1.0f;
    float dy = ((float)py + 0.5f) / (float)h * 2.0f - 1.0f, dz = -1.5f;
    const float inv = SP_RSQRTF(dx * dx + dy * dy + dz * dz);
    dx *= inv;
    dy *= inv;
    dz *= inv;
    float best = 1.0e30f;
    int hit = -1;
    for (int s = 0; s < RC_NS; ++s) {
      const float ox = -sp[s][0], oy = -sp[s][1], oz = -sp[s][2];
      const float b = ox * dx + oy * dy + oz * dz;
      const float c = ox * ox + oy * oy + oz * oz - sp[s][3] * sp[s][3];
      const float disc = b * b - c;
      if (disc > 0.0f) {
        const float tt = -b - SP_SQRTF(disc);
        if (tt > 1.0e-3f && tt < best) {
          best = tt;
          hit = s;
        }
      }
    }
    float shade = 0.2f + 0.3f * dy;
    if (hit >= 0) {
      const float hx = best * dx, hy = best * dy, hz = best * dz;
      const float ir = 1.0f / sp[hit][3];
      const float nx = (hx - sp[hit][0]) * ir, ny = (hy - sp[hit][1]) * ir,
                  nz = (hz - sp[hit][2]) * ir;
      float ldx = lx - hx, ldy = ly - hy, ldz = lz - hz;
      const float dist = SP_SQRTF(ldx * ldx + ldy * ldy + ldz * ldz);
      ldx /= dist;
      ldy /= dist;
      ldz /= dist;
      const float diff = SP_FMAXF(nx * ldx + ny * ldy + nz * ldz, 0.0f);
      int shadow = 0;
      for (int s = 0; s < RC_NS && !shadow && diff > 0.0f; ++s) {
        const float ox = hx - sp[s][0], oy = hy - sp[s][1], oz = hz - sp[s][2];
        const float b = ox * ldx + oy * ldy + oz * ldz;
        const float c = ox * ox + oy * oy + oz * oz - sp[s][3] * sp[s][3];
        const float disc = b * b - c;
        if (disc > 0.0f) {
          const float tt = -b - SP_SQRTF(disc);
          shadow = s != hit && tt > 1.0e-3f && tt < dist;
        }
      }
      shade = sp[hit][4] * (0.1f + (shadow ? 0.0f : 0.9f * diff));
    }
    img[py * w + px] = shade;
  }
  if (t == 0) {
    SP_FENCE_GLOBAL();
    if (SP_ATOMIC_ADD(&q[1], 1u) == (uint)SP_NGRP(0) - 1u) {
      q[0] = 0u; /* every group has drawn its last ticket */
      q[1] = 0u;
    }
  }
}

/* ---- neighbour-pair list -----------------------------------------------------------
 * Points sorted by cell of a g x g grid (cell size = cutoff); each
 * work-item scans the 3x3 cells around its point and appends every pair
 * (i, j > i) closer than the cutoff to one global list, reserving each slot
 * with an atomic add on a single counter.  Coordinates are multiples of
 * 2^-20, so distances are exact in float.  Slots wrap modulo the list size
 * (a power of two) so that repeated launches stay inside it. */
SP_KERNEL void w_pairlist(SP_GLOBAL const float *SP_RESTRICT px,
                          SP_GLOBAL const float *SP_RESTRICT py,
                          SP_GLOBAL const int *SP_RESTRICT cellstart,
                          SP_GLOBAL uint *SP_RESTRICT pairs,
                          SP_GLOBAL uint *counter, int n, int g, float rc2,
                          uint cap)
{
  const int i = SP_GID(0);
  if (i >= n)
    return;
  const float xi = px[i], yi = py[i];
  const int cx = (int)(xi * (float)g), cy = (int)(yi * (float)g);
  for (int oy = -1; oy <= 1; ++oy) {
    const int yy = cy + oy;
    if (yy < 0 || yy >= g)
      continue;
    for (int ox = -1; ox <= 1; ++ox) {
      const int xx = cx + ox;
      if (xx < 0 || xx >= g)
        continue;
      const int c = yy * g + xx;
      for (int j = cellstart[c]; j < cellstart[c + 1]; ++j) {
        if (j <= i)
          continue;
        const float dx = px[j] - xi, dy = py[j] - yi;
        if (dx * dx + dy * dy < rc2) {
          const uint slot = SP_ATOMIC_ADD(counter, 1u) & (cap - 1u);
          pairs[2 * slot] = (uint)i;
          pairs[2 * slot + 1] = (uint)j;
        }
      }
    }
  }
}

/* ---- triangle counting ----------------------------------------------------------------
 * Edges oriented from lower to higher id, adjacency lists sorted.  One
 * work-item per oriented edge (u, v) counts the common out-neighbours of u
 * and v by merging u's list after v with v's list.  Low ids are the hubs of
 * the power-law graph, so the edges of a few vertices take most of the
 * work. */
SP_KERNEL void w_triangles(SP_GLOBAL const int *SP_RESTRICT rowptr,
                           SP_GLOBAL const int *SP_RESTRICT src,
                           SP_GLOBAL const int *SP_RESTRICT col,
                           SP_GLOBAL uint *SP_RESTRICT tri, int m)
{
  const int e = SP_GID(0);
  if (e >= m)
    return;
  const int v = col[e];
  int a = e + 1, ae = rowptr[src[e] + 1];
  int b = rowptr[v], be = rowptr[v + 1];
  uint found = 0;
  while (a < ae && b < be) {
    const int x = col[a], y = col[b];
    found += x == y;
    a += x <= y;
    b += y <= x;
  }
  tri[e] = found;
}

/* ---- per-row inclusive scans -------------------------------------------------------------
 * Inclusive prefix sums of rows of unsigned integers, one 640-wide
 * work-group per row walking it in chunks of 2560 with a running carry: a
 * coalesced load into local memory, four serial sums per work-item, a
 * Hillis-Steele scan of the 640 partial sums, a coalesced store. */
#define RS_T 640
#define RS_PER 4
#define RS_CHUNK (RS_T * RS_PER)

SP_KERNEL void w_rowscan(SP_GLOBAL const uint *SP_RESTRICT x,
                         SP_GLOBAL uint *SP_RESTRICT y, int len)
{
  SP_LOCAL uint buf[RS_CHUNK];
  SP_LOCAL uint part[RS_T];
  const int t = SP_LID(0);
  const long row = (long)SP_GRP(0) * len;
  uint carry = 0;
  for (int c0 = 0; c0 < len; c0 += RS_CHUNK) {
    for (int k = 0; k < RS_PER; ++k)
      buf[k * RS_T + t] = x[row + c0 + k * RS_T + t];
    SP_BARRIER();
    uint s[RS_PER];
    uint acc = 0;
    for (int k = 0; k < RS_PER; ++k) {
      acc += buf[t * RS_PER + k];
      s[k] = acc;
    }
    part[t] = acc;
    SP_BARRIER();
    for (int off = 1; off < RS_T; off <<= 1) {
      const uint v = t >= off ? part[t - off] : 0u;
      SP_BARRIER();
      part[t] += v;
      SP_BARRIER();
    }
    const uint excl = carry + (t > 0 ? part[t - 1] : 0u);
    for (int k = 0; k < RS_PER; ++k)
      buf[t * RS_PER + k] = excl + s[k];
    carry += part[RS_T - 1];
    SP_BARRIER();
    for (int k = 0; k < RS_PER; ++k)
      y[row + c0 + k * RS_T + t] = buf[k * RS_T + t];
    SP_BARRIER(); /* buf and part are rewritten by the next chunk */
  }
}

/* ---- non-maximum suppression ------------------------------------------------------------
 * Greedy NMS of n boxes (x0, y0, x1, y1; sorted by score) in one work-group
 * of n: box i, if still kept, suppresses every later box whose
 * intersection-over-union exceeds one half.  Coordinates are integers, so
 * the test 2 * inter > union is exact in float. */
#define NM_MAX 256

SP_KERNEL void w_nms(SP_GLOBAL const float *SP_RESTRICT boxes,
                     SP_GLOBAL uint *SP_RESTRICT keep, int n)
{
  SP_LOCAL float bx[NM_MAX][4];
  SP_LOCAL uint kp[NM_MAX];
  const int j = SP_LID(0);
  for (int c = 0; c < 4; ++c)
    bx[j][c] = boxes[4 * j + c];
  kp[j] = 1u;
  const float aj = (bx[j][2] - bx[j][0]) * (bx[j][3] - bx[j][1]);
  for (int i = 0; i < n - 1; ++i) {
    SP_BARRIER();
    if (kp[i] && j > i) {
      const float iw = SP_FMINF(bx[i][2], bx[j][2]) - SP_FMAXF(bx[i][0], bx[j][0]);
      const float ih = SP_FMINF(bx[i][3], bx[j][3]) - SP_FMAXF(bx[i][1], bx[j][1]);
      if (iw > 0.0f && ih > 0.0f) {
        const float inter = iw * ih;
        const float ai = (bx[i][2] - bx[i][0]) * (bx[i][3] - bx[i][1]);
        if (2.0f * inter > ai + aj - inter)
          kp[j] = 0u;
      }
    }
  }
  keep[j] = kp[j];
}
