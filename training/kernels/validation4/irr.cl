/* irr.cl: irregular kernels for the fourth validation suite (host half:
 * irr.c): a betweenness-centrality BFS level, a suffix-array prefix-doubling
 * rank step, a CSV tokenizer, an LZ77 match finder, string sort-key
 * extraction and a k-means update with global atomics.  Written for this
 * suite, independently of the core suite and the earlier validation
 * suites. */
#include "sp_dev.h"

/* ---- betweenness centrality: one forward BFS level ---------------------------
 * Brandes' forward phase, vertex-parallel: every vertex at depth `level`
 * claims its unvisited neighbours for level + 1 (atomic CAS) and adds its
 * shortest-path count to theirs (atomic add) when they sit at level + 1. */
SP_KERNEL void y_bc_bfs_level(SP_GLOBAL const int *SP_RESTRICT rowp,
                              SP_GLOBAL const int *SP_RESTRICT col, SP_GLOBAL uint *SP_RESTRICT dist,
                              SP_GLOBAL uint *SP_RESTRICT sigma, int n, uint level)
{
  const int v = SP_GID(0);
  if (v >= n || dist[v] != level) return;
  const uint sv = sigma[v];
  for (int e = rowp[v]; e < rowp[v + 1]; ++e) {
    const int w = col[e];
    const uint old = SP_ATOMIC_CAS(&dist[w], 0xffffffffu, level + 1u);
    if (old == 0xffffffffu || old == level + 1u) SP_ATOMIC_ADD(&sigma[w], sv);
  }
}

/* ---- suffix array: prefix-doubling rank flags -----------------------------------
 * After sorting suffixes by (rank[i], rank[i + k]), flag the positions of
 * the sorted order where the pair changes (a scan of the flags gives the
 * new ranks): two random rank gathers per suffix and per neighbour. */
SP_KERNEL void y_sa_rank_flags(SP_GLOBAL const int *SP_RESTRICT sa,
                               SP_GLOBAL const int *SP_RESTRICT rank,
                               SP_GLOBAL uint *SP_RESTRICT flag, int n, int k)
{
  const int i = SP_GID(0);
  if (i >= n) return;
  const int a = sa[i];
  const int ra = rank[a], ra2 = a + k < n ? rank[a + k] : -1;
  uint f = 1u;
  if (i > 0) {
    const int b = sa[i - 1];
    const int rb = rank[b], rb2 = b + k < n ? rank[b + k] : -1;
    f = ra != rb || ra2 != rb2 ? 1u : 0u;
  }
  flag[i] = f;
}

/* ---- CSV tokenizer -----------------------------------------------------------------
 * Blocks of 4096 bytes, one 256-wide group each, 16 bytes per work-item;
 * the quote state at each block's start comes from a first pass (input).
 * Quotes are counted per work-item and scanned, so each byte knows whether
 * it is inside a quoted field; commas and newlines outside quotes end
 * fields, and their offsets are compacted into the block's CV_CAP slots
 * (the rest marked 0xffffffff) with a second scan. */
#define CV_T 256
#define CV_B 4096
#define CV_CAP 1024

SP_KERNEL void y_csv_tokenize(SP_GLOBAL const uint *SP_RESTRICT text,
                              SP_GLOBAL const uint *SP_RESTRICT start_quoted,
                              SP_GLOBAL uint *SP_RESTRICT ends, SP_GLOBAL uint *SP_RESTRICT counts)
{
  SP_LOCAL uint qs[CV_T];
  SP_LOCAL uint fs[CV_T];
  SP_LOCAL uint total;
  const int t = SP_LID(0), blk = SP_GRP(0);
  uint w[4], nq = 0;
  for (int k = 0; k < 4; ++k) {
    w[k] = text[(long)blk * (CV_B / 4) + t * 4 + k];
    for (int b = 0; b < 4; ++b)
      nq += (w[k] >> (8 * b) & 255u) == 34u ? 1u : 0u;
  }
  qs[t] = nq;
  SP_BARRIER();
  if (t == 0) {
    uint run = start_quoted[blk];
    for (int i = 0; i < CV_T; ++i) {
      const uint c = qs[i];
      qs[i] = run;
      run += c;
    }
  }
  SP_BARRIER();
  uint inq = qs[t] & 1u, nf = 0, mask = 0;
  for (int k = 0; k < 4; ++k)
    for (int b = 0; b < 4; ++b) {
      const uint c = w[k] >> (8 * b) & 255u;
      if (c == 34u) inq ^= 1u;
      if (!inq && (c == 44u || c == 10u)) {
        mask |= 1u << (4 * k + b);
        ++nf;
      }
    }
  fs[t] = nf;
  SP_BARRIER();
  if (t == 0) {
    uint run = 0;
    for (int i = 0; i < CV_T; ++i) {
      const uint c = fs[i];
      fs[i] = run;
      run += c;
    }
    counts[blk] = run;
    total = run < CV_CAP ? run : CV_CAP;
  }
  SP_BARRIER();
  uint at = fs[t];
  for (int j = 0; j < 16; ++j)
    if (mask >> j & 1u) {
      if (at < CV_CAP) ends[(long)blk * CV_CAP + at] = (uint)(blk * CV_B + t * 16 + j);
      ++at;
    }
  for (uint j = total + (uint)t; j < CV_CAP; j += CV_T)
    ends[(long)blk * CV_CAP + j] = 0xffffffffu;
}

/* ---- LZ77 match finder ----------------------------------------------------------------
 * For every position of the input, walk up to LZ_CHAIN earlier positions
 * with the same 3-byte hash (a chain built by an earlier pass) inside a
 * 32 KB window and keep the longest match (up to LZ_MAX bytes, the nearest
 * of equal ones).  Written: length << 16 | distance (0 when under 3). */
#define LZ_CHAIN 16
#define LZ_MAX 128

SP_KERNEL void y_lz77_match(SP_GLOBAL const uchar *SP_RESTRICT text,
                            SP_GLOBAL const int *SP_RESTRICT prev, SP_GLOBAL uint *SP_RESTRICT out,
                            int n)
{
  const int i = SP_GID(0);
  if (i >= n) return;
  int best = 0, bdist = 0, cand = prev[i];
  const int lim = n - i < LZ_MAX ? n - i : LZ_MAX;
  for (int c = 0; c < LZ_CHAIN && cand >= 0 && i - cand <= 32768; ++c) {
    int len = 0;
    while (len < lim && text[cand + len] == text[i + len])
      ++len;
    if (len > best) {
      best = len;
      bdist = i - cand;
    }
    cand = prev[cand];
  }
  out[i] = best >= 3 ? (uint)best << 16 | (uint)bdist : 0u;
}

/* ---- string sort keys ----------------------------------------------------------------
 * The first 8 bytes of each string as a big-endian 64-bit key (zero
 * padded) and its length, the input of a radix sort of strings: unaligned
 * byte gathers through an offsets array. */
SP_KERNEL void y_strsort_keys(SP_GLOBAL const uchar *SP_RESTRICT chars,
                              SP_GLOBAL const uint *SP_RESTRICT off, SP_GLOBAL uint *SP_RESTRICT keys,
                              int n)
{
  const int i = SP_GID(0);
  if (i >= n) return;
  const uint a = off[i], len = off[i + 1] - a;
  uint hi = 0, lo = 0;
  for (uint k = 0; k < 8; ++k) {
    const uint c = k < len ? (uint)chars[a + k] : 0u;
    if (k < 4)
      hi |= c << (24 - 8 * k);
    else
      lo |= c << (56 - 8 * k);
  }
  keys[3 * (long)i] = hi;
  keys[3 * (long)i + 1] = lo;
  keys[3 * (long)i + 2] = len;
}

/* ---- k-means update with global atomics --------------------------------------------
 * Integer points of KM_DIM coordinates: each is assigned to the nearest of
 * the centroids (squared distance, ties to the lower index) held in local
 * memory, and adds its coordinates and a count to that centroid's global
 * sums with atomics: KM_DIM + 1 atomics per point on a few hundred words. */
#define KM_DIM 8
#define KM_K 32

SP_KERNEL void y_kmeans_atomic(SP_GLOBAL const uint *SP_RESTRICT pts,
                               SP_GLOBAL const uint *SP_RESTRICT cent, SP_GLOBAL uint *SP_RESTRICT sums,
                               int n)
{
  SP_LOCAL uint cs[KM_K * KM_DIM];
  const int t = SP_LID(0), i = SP_GID(0);
  for (int e = t; e < KM_K * KM_DIM; e += SP_LSIZE(0))
    cs[e] = cent[e];
  SP_BARRIER();
  if (i >= n) return;
  uint p[KM_DIM];
  for (int d = 0; d < KM_DIM; ++d)
    p[d] = pts[(long)i * KM_DIM + d];
  uint bd = 0xffffffffu;
  int bk = 0;
  for (int k = 0; k < KM_K; ++k) {
    uint s = 0;
    for (int d = 0; d < KM_DIM; ++d) {
      const int df = (int)p[d] - (int)cs[k * KM_DIM + d];
      s += (uint)(df * df);
    }
    if (s < bd) {
      bd = s;
      bk = k;
    }
  }
  for (int d = 0; d < KM_DIM; ++d)
    SP_ATOMIC_ADD(&sums[bk * (KM_DIM + 1) + d], p[d]);
  SP_ATOMIC_ADD(&sums[bk * (KM_DIM + 1) + KM_DIM], 1u);
}
