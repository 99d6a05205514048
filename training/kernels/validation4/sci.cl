/* sci.cl: scientific and imaging kernels for the fourth validation suite
 * (host half: sci.c): heart-wall-like template tracking by normalised
 * cross-correlation, a streamcluster gain pass, a B+tree range search, a
 * Hodgkin-Huxley population, batched Needleman-Wunsch scoring, Monte-Carlo
 * photon transport, a staggered Dslash in FP64, a checkerboard Ising sweep
 * and tile-wise adaptive histogram equalisation.  Written for this suite,
 * independently of the core suite and the earlier validation suites. */
#include "sp_dev.h"

/* ---- template tracking by NCC ----------------------------------------------------
 * Each of the sample points has a 48x48 template cut from frame 0 around
 * it; in each of the next TM_F frames the group correlates the template
 * (zero-mean, unit norm, in local memory) with every window of a 48x48
 * range of offsets (a 96x96 patch in local memory).  One 1024-wide group
 * per point: two per SM by work-items. */
#define TM_S 48
#define TM_P 96
#define TM_T 1024

SP_KERNEL void y_template_ncc(SP_GLOBAL const float *SP_RESTRICT frames,
                              SP_GLOBAL const int *SP_RESTRICT centres,
                              SP_GLOBAL float *SP_RESTRICT ncc, int w, int nframes)
{
  SP_LOCAL float tp[TM_S * TM_S];
  SP_LOCAL float patch[TM_P * TM_P];
  const int t = SP_LID(0), pt = SP_GRP(0);
  const int cy = centres[2 * pt], cx = centres[2 * pt + 1];
  const long fsz = (long)w * w;
  float s = 0.0f;
  for (int e = t; e < TM_S * TM_S; e += TM_T) {
    const float v = frames[(long)(cy - TM_S / 2 + e / TM_S) * w + cx - TM_S / 2 + e % TM_S];
    tp[e] = v;
    s += v;
  }
  patch[t] = s; /* the reductions end before the first patch */
  SP_SUM(patch, t, TM_T);
  const float mean = patch[0] * (1.0f / (TM_S * TM_S));
  SP_BARRIER();
  s = 0.0f;
  for (int e = t; e < TM_S * TM_S; e += TM_T) {
    tp[e] -= mean;
    s = SP_FMAF(tp[e], tp[e], s);
  }
  patch[t] = s; /* the reductions end before the first patch */
  SP_SUM(patch, t, TM_T);
  const float tn = SP_RSQRTF(patch[0]);
  for (int e = t; e < TM_S * TM_S; e += TM_T)
    tp[e] *= tn;
  for (int f = 1; f <= nframes; ++f) {
    SP_BARRIER();
    for (int e = t; e < TM_P * TM_P; e += TM_T)
      patch[e] = frames[f * fsz + (long)(cy - TM_P / 2 + e / TM_P) * w + cx - TM_P / 2 + e % TM_P];
    SP_BARRIER();
    for (int p = t; p < TM_S * TM_S; p += TM_T) {
      const int oy = p / TM_S, ox = p % TM_S;
      float sft = 0.0f, sf = 0.0f, sff = 0.0f;
      for (int y = 0; y < TM_S; ++y)
        for (int x = 0; x < TM_S; ++x) {
          const float v = patch[(oy + y) * TM_P + ox + x];
          sft = SP_FMAF(v, tp[y * TM_S + x], sft);
          sf += v;
          sff = SP_FMAF(v, v, sff);
        }
      const float var = sff - sf * sf * (1.0f / (TM_S * TM_S));
      ncc[((long)pt * nframes + f - 1) * TM_S * TM_S + p] = sft * SP_RSQRTF(SP_FMAXF(var, 1e-12f));
    }
  }
}

/* ---- streamcluster gain -----------------------------------------------------
 * The pgain step of streamcluster: the weighted squared distance of every
 * point to a candidate centre (coordinates stored dimension-major, so
 * that loads coalesce); points that would move get their flag and add the
 * cost they save to the group's partial gain. */
#define SC_DIM 32
#define SC_T 256

SP_KERNEL void y_streamcluster_gain(SP_GLOBAL const float *SP_RESTRICT coord,
                                    SP_GLOBAL const float *SP_RESTRICT weight,
                                    SP_GLOBAL const float *SP_RESTRICT cost,
                                    SP_GLOBAL const float *SP_RESTRICT centre,
                                    SP_GLOBAL uint *SP_RESTRICT sw,
                                    SP_GLOBAL float *SP_RESTRICT gain, int n)
{
  SP_LOCAL float red[SC_T];
  const int t = SP_LID(0), i = SP_GID(0);
  float g = 0.0f;
  if (i < n) {
    float d = 0.0f;
    for (int k = 0; k < SC_DIM; ++k) {
      const float df = coord[(long)k * n + i] - centre[k];
      d = SP_FMAF(df, df, d);
    }
    d *= weight[i];
    const float c = cost[i];
    sw[i] = d < c ? 1u : 0u;
    g = d < c ? c - d : 0.0f;
  }
  red[t] = g;
  SP_SUM(red, t, SC_T);
  if (t == 0) gain[SP_GRP(0)] = red[0];
}

/* ---- B+tree range search ----------------------------------------------------
 * A static B+tree of fan-out 128: nodes of 128 separator keys (the first
 * key of each child's subtree, 0xffffffff where no child), level by level,
 * the children of node n of one level at 128 n + c of the next; the leaves
 * hold the sorted keys.  One 128-wide group per query [lo, hi]: both ends
 * descend together, each work-item testing one slot; at the leaves the
 * keys below each end are counted.  Written: the index of the first key
 * >= lo and the number of keys in [lo, hi]. */
#define BT_F 128

SP_KERNEL void y_bptree_range(SP_GLOBAL const uint *SP_RESTRICT nodes,
                              SP_GLOBAL const int *SP_RESTRICT level_off,
                              SP_GLOBAL const uint *SP_RESTRICT queries,
                              SP_GLOBAL uint *SP_RESTRICT out, int levels)
{
  SP_LOCAL int child[2];
  SP_LOCAL uint below[2];
  const int t = SP_LID(0), q = SP_GRP(0);
  const uint lo = queries[2 * q], hi1 = queries[2 * q + 1] + 1u;
  int node[2] = {0, 0};
  for (int l = 0; l < levels - 1; ++l) {
    if (t < 2) child[t] = 0;
    SP_BARRIER();
    for (int e = 0; e < 2; ++e) {
      const uint key = e ? hi1 : lo;
      SP_GLOBAL const uint *nd = nodes + ((long)level_off[l] + node[e]) * BT_F;
      const uint a = nd[t], b = t + 1 < BT_F ? nd[t + 1] : 0xffffffffu;
      if (a <= key && key < b) child[e] = t;
    }
    SP_BARRIER();
    node[0] = node[0] * BT_F + child[0];
    node[1] = node[1] * BT_F + child[1];
    SP_BARRIER();
  }
  if (t < 2) below[t] = 0;
  SP_BARRIER();
  for (int e = 0; e < 2; ++e) {
    const uint key = e ? hi1 : lo;
    if (nodes[((long)level_off[levels - 1] + node[e]) * BT_F + t] < key) SP_ATOMIC_ADD(&below[e], 1u);
  }
  SP_BARRIER();
  if (t == 0) {
    const uint first = (uint)node[0] * BT_F + below[0], end = (uint)node[1] * BT_F + below[1];
    out[2 * q] = first;
    out[2 * q + 1] = end - first;
  }
}

/* ---- Hodgkin-Huxley population -----------------------------------------------
 * One work-item per cell: the four HH state variables under a per-cell
 * constant current, forward Euler at 0.01 ms; the rate functions need six
 * exps per step.  Written: the final membrane potential and the number of
 * spikes (upward crossings of 0 mV). */
SP_FN float y_vtrap(float x, float y)
{
  return SP_FABSF(x / y) < 1e-6f ? y * (1.0f - x / y / 2.0f) : x / (SP_EXPF(x / y) - 1.0f);
}

SP_KERNEL void y_hh_neuron(SP_GLOBAL const float *SP_RESTRICT iext,
                           SP_GLOBAL float *SP_RESTRICT vout,
                           SP_GLOBAL uint *SP_RESTRICT spikes, int n, int steps)
{
  const int i = SP_GID(0);
  if (i >= n) return;
  const float I = iext[i], dt = 0.01f;
  float v = -65.0f, m = 0.053f, h = 0.596f, nn = 0.318f;
  uint count = 0;
  for (int s = 0; s < steps; ++s) {
    const float am = 0.1f * y_vtrap(-(v + 40.0f), 10.0f), bm = 4.0f * SP_EXPF(-(v + 65.0f) / 18.0f);
    const float ah = 0.07f * SP_EXPF(-(v + 65.0f) / 20.0f);
    const float bh = 1.0f / (1.0f + SP_EXPF(-(v + 35.0f) / 10.0f));
    const float an = 0.01f * y_vtrap(-(v + 55.0f), 10.0f), bn = 0.125f * SP_EXPF(-(v + 65.0f) / 80.0f);
    const float m3 = m * m * m, n4 = nn * nn * nn * nn;
    const float ion = 120.0f * m3 * h * (v - 50.0f) + 36.0f * n4 * (v + 77.0f) + 0.3f * (v + 54.387f);
    const float vn = v + dt * (I - ion);
    m += dt * (am * (1.0f - m) - bm * m);
    h += dt * (ah * (1.0f - h) - bh * h);
    nn += dt * (an * (1.0f - nn) - bn * nn);
    count += v < 0.0f && vn >= 0.0f ? 1u : 0u;
    v = vn;
  }
  vout[i] = v;
  spikes[i] = count;
}

/* ---- batched Needleman-Wunsch ----------------------------------------------------
 * Global alignment scores of many pairs of NW_L-base reads (bases as
 * bytes 0-3, four per word): one NW_L-wide group per pair, work-item i owns
 * row i of the matrix and computes its cell of each anti-diagonal from the
 * two previous diagonals kept in local memory (a barrier per diagonal).
 * Match +2, mismatch -1, gap -2. */
#define NW_L 128

SP_KERNEL void y_nw_batched(SP_GLOBAL const uint *SP_RESTRICT qs,
                            SP_GLOBAL const uint *SP_RESTRICT ts,
                            SP_GLOBAL int *SP_RESTRICT score)
{
  SP_LOCAL int dg[3][NW_L + 1];
  SP_LOCAL uint tgt[NW_L / 4];
  const int i = SP_LID(0), pr = SP_GRP(0);
  const uint qw = qs[(long)pr * (NW_L / 4) + i / 4];
  const int qc = (int)(qw >> (8 * (i % 4)) & 255u);
  if (i < NW_L / 4) tgt[i] = ts[(long)pr * (NW_L / 4) + i];
  /* dg[k][r + 1]: row r's value on a diagonal; dg[k][0]: the row above. */
  for (int k = 0; k < 3; ++k)
    dg[k][i + 1] = 0;
  if (i == 0) {
    dg[1][0] = 0;  /* H[-1][-1]: row -1 on diagonal -2 */
    dg[2][0] = -2; /* H[-1][0]: row -1 on diagonal -1 */
  }
  SP_BARRIER();
  int left = -2 * (i + 1); /* H[i][-1] */
  for (int d = 0; d < 2 * NW_L - 1; ++d) {
    const int cur = d % 3, p1 = (d + 2) % 3, p2 = (d + 1) % 3;
    const int j = d - i;
    if (i == 0) dg[cur][0] = -2 * (d + 2); /* H[-1][d+1], for the next diagonal */
    if (j >= 0 && j < NW_L) {
      const int tc = (int)(tgt[j / 4] >> (8 * (j % 4)) & 255u);
      const int diag = j == 0 ? -2 * i : dg[p2][i];
      const int up = dg[p1][i];
      int hv = diag + (qc == tc ? 2 : -1);
      hv = up - 2 > hv ? up - 2 : hv;
      hv = left - 2 > hv ? left - 2 : hv;
      left = hv;
      dg[cur][i + 1] = hv;
    }
    SP_BARRIER();
  }
  if (i == NW_L - 1) score[pr] = left;
}

/* ---- Monte-Carlo photon transport ---------------------------------------------
 * MCML-style: a pencil beam into a turbid slab (mua 1, mus 100 per cm,
 * Henyey-Greenstein g = 0.9, matched index), one photon per work-item.
 * Weights are integers (PH_W per photon): each interaction deposits
 * W / 101 (rounded) into an atomic (r, z) absorption grid, roulette below
 * PH_W / 64 survives one time in ten with ten times the weight; escaped,
 * killed and gained weight go to four counters, so the grid and the
 * counters conserve the launched weight exactly. */
#define PH_W 1024u
#define PH_NR 64
#define PH_NZ 64
#define PH_D 0.2f
#define PH_RMAX 0.4f

SP_FN uint y_xs(uint *s)
{
  uint x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *s = x;
  return x;
}

SP_KERNEL void y_photon_mc(SP_GLOBAL uint *SP_RESTRICT grid, SP_GLOBAL uint *SP_RESTRICT tally,
                           int photons)
{
  const int i = SP_GID(0);
  if (i >= photons) return;
  uint st = sp_wang32((uint)i * 2654435761u + 12345u) | 1u;
  float x = 0.0f, y = 0.0f, z = 0.0f, ux = 0.0f, uy = 0.0f, uz = 1.0f;
  uint w = PH_W;
  const float g = 0.9f, mut = 101.0f;
  for (int step = 0; step < 100000 && w > 0; ++step) {
    const float u1 = SP_FMAXF(sp_unit24(y_xs(&st)), 1e-7f);
    const float s = -SP_LOGF(u1) / mut;
    x = SP_FMAF(s, ux, x);
    y = SP_FMAF(s, uy, y);
    z = SP_FMAF(s, uz, z);
    if (z < 0.0f || z > PH_D) {
      SP_ATOMIC_ADD(&tally[z < 0.0f ? 0 : 1], w);
      w = 0;
      break;
    }
    const uint dw = (w + 50u) / 101u;
    w -= dw;
    const float r = SP_SQRTF(x * x + y * y);
    const int ir = r < PH_RMAX ? (int)(r * (PH_NR / PH_RMAX)) : PH_NR - 1;
    const int iz = (int)(z * (PH_NZ / PH_D));
    SP_ATOMIC_ADD(&grid[(iz < PH_NZ ? iz : PH_NZ - 1) * PH_NR + ir], dw);
    /* Henyey-Greenstein deflection and a uniform azimuth. */
    const float u2 = sp_unit24(y_xs(&st)), u3 = sp_unit24(y_xs(&st));
    const float tmp = (1.0f - g * g) / (1.0f - g + 2.0f * g * u2);
    const float ct = SP_FMINF(SP_FMAXF((1.0f + g * g - tmp * tmp) / (2.0f * g), -1.0f), 1.0f);
    const float sth = SP_SQRTF(1.0f - ct * ct), phi = 6.2831853f * u3;
    const float cp = SP_COSF(phi), sp = SP_SINF(phi);
    if (SP_FABSF(uz) > 0.99999f) {
      ux = sth * cp;
      uy = sth * sp;
      uz = uz > 0.0f ? ct : -ct;
    } else {
      const float den = SP_SQRTF(1.0f - uz * uz);
      const float nx = sth * (ux * uz * cp - uy * sp) / den + ux * ct;
      const float ny = sth * (uy * uz * cp + ux * sp) / den + uy * ct;
      uz = -sth * cp * den + uz * ct;
      ux = nx;
      uy = ny;
    }
    if (w < PH_W / 64u) {
      if (sp_unit24(y_xs(&st)) < 0.1f) {
        SP_ATOMIC_ADD(&tally[3], 9u * w);
        w *= 10u;
      } else {
        SP_ATOMIC_ADD(&tally[2], w);
        w = 0;
      }
    }
  }
  if (w > 0) SP_ATOMIC_ADD(&tally[2], w); /* the step cap, never reached in practice */
}

/* ---- staggered Dslash, FP64 ---------------------------------------------------
 * out(x) = 1/2 sum_mu eta_mu(x) [U_mu(x) psi(x + mu) - U_mu(x - mu)^+ psi(x - mu)]
 * on a periodic L^3 x T lattice, SU(3) links as 3x3 complex doubles
 * ([mu][site][row][col][re, im]), colour vectors of 3 complex doubles; the
 * staggered phases from the coordinates.  One work-item per site. */
SP_KERNEL void y_su3_dslash(SP_GLOBAL const double *SP_RESTRICT u,
                            SP_GLOBAL const double *SP_RESTRICT psi,
                            SP_GLOBAL double *SP_RESTRICT out, int l, int tl)
{
  const int s = SP_GID(0), vol = l * l * l * tl;
  if (s >= vol) return;
  int c[4];
  c[0] = s % l;
  c[1] = s / l % l;
  c[2] = s / (l * l) % l;
  c[3] = s / (l * l * l);
  const int dim[4] = {l, l, l, tl}, stride[4] = {1, l, l * l, l * l * l};
  double re[3] = {0.0, 0.0, 0.0}, im[3] = {0.0, 0.0, 0.0};
  int sum = 0;
  for (int mu = 0; mu < 4; ++mu) {
    const double eta = (sum & 1) ? -0.5 : 0.5;
    sum += c[mu];
    const int fw = s + (c[mu] + 1 < dim[mu] ? stride[mu] : -(dim[mu] - 1) * stride[mu]);
    const int bw = s + (c[mu] > 0 ? -stride[mu] : (dim[mu] - 1) * stride[mu]);
    SP_GLOBAL const double *uf = u + ((long)mu * vol + s) * 18;
    SP_GLOBAL const double *ub = u + ((long)mu * vol + bw) * 18;
    SP_GLOBAL const double *pf = psi + (long)fw * 6, *pb = psi + (long)bw * 6;
    for (int a = 0; a < 3; ++a) {
      double fr = 0.0, fi = 0.0, br = 0.0, bi = 0.0;
      for (int b = 0; b < 3; ++b) {
        const double ur = uf[(a * 3 + b) * 2], ui = uf[(a * 3 + b) * 2 + 1];
        fr += ur * pf[2 * b] - ui * pf[2 * b + 1];
        fi += ur * pf[2 * b + 1] + ui * pf[2 * b];
        const double vr = ub[(b * 3 + a) * 2], vi = -ub[(b * 3 + a) * 2 + 1];
        br += vr * pb[2 * b] - vi * pb[2 * b + 1];
        bi += vr * pb[2 * b + 1] + vi * pb[2 * b];
      }
      re[a] += eta * (fr - br);
      im[a] += eta * (fi - bi);
    }
  }
  for (int a = 0; a < 3; ++a) {
    out[(long)s * 6 + 2 * a] = re[a];
    out[(long)s * 6 + 2 * a + 1] = im[a];
  }
}

/* ---- checkerboard Ising Metropolis ---------------------------------------------
 * One colour's half sweep on an n x n periodic lattice of byte spins (0 or
 * 1 for -1, +1), J = 1: each site of the colour compares a counter-based
 * uniform with the acceptance table of its energy change.  The other colour
 * is only read, so the update is deterministic.  One work-item per 4
 * consecutive sites of the colour (8 bytes of a row). */
SP_KERNEL void y_ising_checker(SP_GLOBAL uchar *SP_RESTRICT spin,
                               SP_GLOBAL const float *SP_RESTRICT accept, int n, int colour,
                               uint seed)
{
  const int g = SP_GID(0), per_row = n / 8;
  if (g >= n * per_row) return;
  const int row = g / per_row, x0 = (g % per_row) * 8;
  const int up = (row + n - 1) % n, dn = (row + 1) % n;
  for (int k = 0; k < 4; ++k) {
    const int x = x0 + 2 * k + ((row + colour) & 1);
    const int xl = (x + n - 1) % n, xr = (x + 1) % n;
    const long at = (long)row * n + x;
    const int s = spin[at] ? 1 : -1;
    const int nb = (spin[(long)up * n + x] + spin[(long)dn * n + x] + spin[(long)row * n + xl] +
                    spin[(long)row * n + xr]) * 2 - 4;
    const int idx = (s * nb + 4) / 2; /* dE = 2 s nb: 0..4 */
    const float r = sp_unit24(sp_wang32((uint)at ^ seed) ^ sp_wang32(seed + (uint)row));
    if (r < accept[idx]) spin[at] = (uchar)(s > 0 ? 0 : 1);
  }
}

/* ---- tile-wise adaptive histogram equalisation ------------------------------------
 * Each 64x64 tile of 8-bit images gets its own histogram (local atomics),
 * clipped at CL_CLIP with the excess spread evenly, and its pixels are
 * mapped through the clipped histogram's CDF (CLAHE without the bilinear
 * blend between tiles).  One 256-wide group per tile, four pixels per word. */
#define CL_TILE 64
#define CL_CLIP 64u

SP_KERNEL void y_clahe_tiles(SP_GLOBAL const uint *SP_RESTRICT img, SP_GLOBAL uint *SP_RESTRICT out,
                             int w)
{
  SP_LOCAL uint hist[256];
  SP_LOCAL uint lut[256];
  SP_LOCAL uint excess;
  const int t = SP_LID(0), tiles = w / CL_TILE;
  const int tile = SP_GRP(0), im = tile / (tiles * tiles);
  const int ty = tile / tiles % tiles, tx = tile % tiles, wpr = w / 4;
  const long base = (long)im * w * wpr + (long)ty * CL_TILE * wpr + tx * (CL_TILE / 4);
  hist[t] = 0;
  if (t == 0) excess = 0;
  SP_BARRIER();
  uint px[4];
  for (int k = 0; k < 4; ++k) {
    const int e = t + 256 * k, r = e / (CL_TILE / 4), c = e % (CL_TILE / 4);
    px[k] = img[base + (long)r * wpr + c];
    for (int b = 0; b < 4; ++b)
      SP_ATOMIC_ADD(&hist[px[k] >> (8 * b) & 255u], 1u);
  }
  SP_BARRIER();
  const uint hv = hist[t];
  if (hv > CL_CLIP) SP_ATOMIC_ADD(&excess, hv - CL_CLIP);
  SP_BARRIER();
  hist[t] = (hv > CL_CLIP ? CL_CLIP : hv) + excess / 256u + ((uint)t < excess % 256u ? 1u : 0u);
  SP_BARRIER();
  if (t == 0) {
    uint run = 0;
    for (int b = 0; b < 256; ++b) {
      run += hist[b];
      lut[b] = (run * 255u + CL_TILE * CL_TILE / 2) / (CL_TILE * CL_TILE);
    }
  }
  SP_BARRIER();
  for (int k = 0; k < 4; ++k) {
    const int e = t + 256 * k, r = e / (CL_TILE / 4), c = e % (CL_TILE / 4);
    uint o = 0;
    for (int b = 0; b < 4; ++b)
      o |= lut[px[k] >> (8 * b) & 255u] << (8 * b);
    out[base + (long)r * wpr + c] = o;
  }
}
