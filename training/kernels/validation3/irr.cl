/* irr.cl: irregular kernels for the third validation suite (host half:
 * irr.c): a Bloom filter probe with one counter, a merge-path merge, a
 * radix sort scatter pass, a reduce-by-key, the symbolic phase of a sparse
 * matrix product, a DFA grep over text lines, a hash-table build with
 * compare-and-swap and per-page CRC-32.  Written for this suite,
 * independently of the core suite and the first two
 * validation suites. */
#include "sp_dev.h"

/* ---- Bloom filter probe -------------------------------------------------------
 * Each work-item tests one key against a Bloom filter of 2^k bits with
 * BL_K probes by double hashing, stopping at the first clear bit; every
 * key that passes adds one to a single global counter (the naive form of
 * SELECT COUNT(*) ... WHERE key IN filter), so the counter is the one
 * fully contended address of the kernel. */
#define BL_K 6

SP_KERNEL void x_bloom_count(SP_GLOBAL const uint *SP_RESTRICT keys,
                             SP_GLOBAL const uint *SP_RESTRICT bits,
                             SP_GLOBAL uint *SP_RESTRICT count, uint mask,
                             int n)
{
  const int i = SP_GID(0);
  if (i >= n)
    return;
  const uint key = keys[i];
  const uint h1 = sp_fmix32(key), h2 = sp_fmix32(key ^ 0x9e3779b9u) | 1u;
  uint hit = 1u;
  for (int k = 0; k < BL_K && hit; ++k) {
    const uint b = (h1 + (uint)k * h2) & mask;
    hit = (bits[b >> 5] >> (b & 31u)) & 1u;
  }
  if (hit)
    SP_ATOMIC_ADD(count, 1u);
}

/* ---- merge path -------------------------------------------------------------------
 * Merges sorted a and b into c (a's element first on ties).  Work-group g
 * produces outputs g*MP_TILE ..: two searches along the merge path find
 * where its diagonals cut a and b, the two runs are staged in local
 * memory, each work-item searches its own diagonal there and merges
 * MP_V elements serially, and the tile leaves through local memory with
 * coalesced stores. */
#define MP_T 256
#define MP_V 8
#define MP_TILE (MP_T * MP_V)

/* The number of a's elements among the first diag outputs. */
SP_FN int mp_split(SP_GLOBAL const uint *a, int na, SP_GLOBAL const uint *b,
                   int nb, int diag)
{
  int lo = diag > nb ? diag - nb : 0, hi = diag < na ? diag : na;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (a[mid] <= b[diag - 1 - mid])
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

SP_KERNEL void x_merge_path(SP_GLOBAL const uint *SP_RESTRICT a,
                            SP_GLOBAL const uint *SP_RESTRICT b,
                            SP_GLOBAL uint *SP_RESTRICT c, int na, int nb)
{
  SP_LOCAL uint keys[MP_TILE];
  SP_LOCAL int cut[2];
  const int t = SP_LID(0), d0 = SP_GRP(0) * MP_TILE;
  const int d1 = d0 + MP_TILE < na + nb ? d0 + MP_TILE : na + nb;
  if (t < 2)
    cut[t] = mp_split(a, na, b, nb, t == 0 ? d0 : d1);
  SP_BARRIER();
  const int a0 = cut[0], la = cut[1] - a0, b0 = d0 - a0, lb = d1 - cut[1] - b0;
  const int len = la + lb;
  for (int i = t; i < len; i += MP_T)
    keys[i] = i < la ? a[a0 + i] : b[b0 + i - la];
  SP_BARRIER();
  const int diag = t * MP_V < len ? t * MP_V : len;
  int lo = diag > lb ? diag - lb : 0, hi = diag < la ? diag : la;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (keys[mid] <= keys[la + diag - 1 - mid])
      lo = mid + 1;
    else
      hi = mid;
  }
  int ai = lo, bi = diag - lo;
  uint out[MP_V];
  for (int k = 0; k < MP_V; ++k) {
    out[k] = 0u;
    if (diag + k < len) {
      const int take_a = ai < la && (bi >= lb || keys[ai] <= keys[la + bi]);
      out[k] = take_a ? keys[ai++] : keys[la + bi++];
    }
  }
  SP_BARRIER();
  for (int k = 0; k < MP_V; ++k)
    if (diag + k < len)
      keys[diag + k] = out[k];
  SP_BARRIER();
  for (int i = t; i < len; i += MP_T)
    c[d0 + i] = keys[i];
}

/* ---- radix sort scatter pass ------------------------------------------------------
 * One pass of an LSD radix sort on the 8-bit digit at RX_SHIFT, for
 * key-value pairs: the upsweep (not here) has counted every tile's digits
 * and off[tile][digit] is where the tile's first key of each digit goes.
 * A 256-wide work-group ranks its tile of RX_TILE pairs stably by eight
 * one-bit splits in local memory (a work-group scan each), finds where
 * each digit starts in the sorted tile and scatters the pairs, a run of
 * equal digits to consecutive addresses. */
#define RX_T 256
#define RX_V 8
#define RX_TILE (RX_T * RX_V)
#define RX_SHIFT 8
#define RX_DIGIT(k) (((k) >> RX_SHIFT) & 255u)

SP_KERNEL void x_radix_scatter(SP_GLOBAL const uint *SP_RESTRICT kin,
                               SP_GLOBAL const uint *SP_RESTRICT vin,
                               SP_GLOBAL const uint *SP_RESTRICT off,
                               SP_GLOBAL uint *SP_RESTRICT kout,
                               SP_GLOBAL uint *SP_RESTRICT vout, int n)
{
  SP_LOCAL uint ks[RX_TILE];
  SP_LOCAL uint vs[RX_TILE];
  SP_LOCAL uint scan[RX_T];
  SP_LOCAL int dstart[256];
  const int t = SP_LID(0), tile = SP_GRP(0);
  const long base = (long)tile * RX_TILE;
  const int cnt = n - base < RX_TILE ? (int)(n - base) : RX_TILE;
  for (int j = 0; j < RX_V; ++j) {
    const int i = t + RX_T * j; /* padding sorts last: all digit bits set */
    ks[i] = i < cnt ? kin[base + i] : 0xffffffffu;
    vs[i] = i < cnt ? vin[base + i] : 0u;
  }
  SP_BARRIER();
  for (int bit = 0; bit < 8; ++bit) {
    uint k[RX_V], v[RX_V];
    uint zeros = 0u;
    for (int j = 0; j < RX_V; ++j) {
      k[j] = ks[t * RX_V + j];
      v[j] = vs[t * RX_V + j];
      zeros += ((k[j] >> (RX_SHIFT + bit)) & 1u) ^ 1u;
    }
    scan[t] = zeros;
    SP_BARRIER();
    for (int s = 1; s < RX_T; s <<= 1) { /* inclusive scan of the zeros */
      const uint add = t >= s ? scan[t - s] : 0u;
      SP_BARRIER();
      scan[t] += add;
      SP_BARRIER();
    }
    uint oz = scan[t] - zeros;
    uint oo = scan[RX_T - 1] + (uint)(t * RX_V) - oz;
    SP_BARRIER(); /* every read of ks, vs and scan done */
    for (int j = 0; j < RX_V; ++j) {
      const uint dst = ((k[j] >> (RX_SHIFT + bit)) & 1u) ? oo++ : oz++;
      ks[dst] = k[j];
      vs[dst] = v[j];
    }
    SP_BARRIER();
  }
  for (int i = t; i < RX_TILE; i += RX_T) {
    const uint dg = RX_DIGIT(ks[i]);
    if (i == 0 || RX_DIGIT(ks[i - 1]) != dg)
      dstart[dg] = i;
  }
  SP_BARRIER();
  for (int i = t; i < cnt; i += RX_T) {
    const uint dg = RX_DIGIT(ks[i]);
    const uint dst = off[(long)tile * 256 + dg] + (uint)(i - dstart[dg]);
    kout[dst] = ks[i];
    vout[dst] = vs[i];
  }
}

/* ---- reduce by key ------------------------------------------------------------
 * Sums the values of each run of equal keys (keys sorted, segment ids
 * dense) into out[key]: every work-item folds SR_V consecutive pairs into
 * runs; a run that lies wholly inside the work-item's pairs, or whose
 * neighbours in the array have other keys, is stored, and a run cut by the
 * work-item's boundaries is added with an atomic (out starts at zero). */
#define SR_V 8

SP_KERNEL void x_segreduce(SP_GLOBAL const uint *SP_RESTRICT keys,
                           SP_GLOBAL const uint *SP_RESTRICT vals,
                           SP_GLOBAL uint *SP_RESTRICT out, int n)
{
  const int i0 = SP_GID(0) * SR_V;
  if (i0 >= n)
    return;
  const int end = i0 + SR_V < n ? i0 + SR_V : n;
  uint key = keys[i0], sum = vals[i0];
  int whole_start = i0 == 0 || keys[i0 - 1] != key;
  for (int i = i0 + 1; i < end; ++i) {
    const uint k = keys[i], v = vals[i];
    if (k == key) {
      sum += v;
      continue;
    }
    if (whole_start)
      out[key] = sum;
    else
      SP_ATOMIC_ADD(&out[key], sum);
    key = k;
    sum = v;
    whole_start = 1;
  }
  if (whole_start && (end == n || keys[end] != key))
    out[key] = sum;
  else
    SP_ATOMIC_ADD(&out[key], sum);
}

/* ---- SpGEMM symbolic phase -------------------------------------------------------
 * The number of nonzeros of each row of C = A A (A in CSR, rows of at most
 * 16 entries): one 32-wide slice of a work-group per row, its lanes each
 * taking an entry k of the row and inserting the column indices of row k
 * into the row's hash table in local memory (linear probing with
 * compare-and-swap, sized to twice the row's products), counting the
 * insertions that found an empty slot. */
#define SG_T 128
#define SG_R (SG_T / 32)
#define SG_TAB 512
#define SG_EMPTY 0xffffffffu

SP_KERNEL void x_spgemm_symbolic(SP_GLOBAL const int *SP_RESTRICT rowptr,
                                 SP_GLOBAL const int *SP_RESTRICT col,
                                 SP_GLOBAL uint *SP_RESTRICT nnz, int nrows)
{
  SP_LOCAL uint tab[SG_R][SG_TAB];
  SP_LOCAL uint cnt[SG_R][2];
  const int t = SP_LID(0), w = t / 32, lane = t % 32;
  const int row = SP_GRP(0) * SG_R + w;
  const int ok = row < nrows;
  const int r0 = ok ? rowptr[row] : 0, len = ok ? rowptr[row + 1] - r0 : 0;
  if (lane < 2)
    cnt[w][lane] = 0u;
  SP_BARRIER();
  int k = 0, k0 = 0, k1 = 0;
  if (lane < len) {
    k = col[r0 + lane];
    k0 = rowptr[k];
    k1 = rowptr[k + 1];
    SP_ATOMIC_ADD(&cnt[w][0], (uint)(k1 - k0));
  }
  SP_BARRIER();
  const uint nprod = cnt[w][0];
  uint size = 32u;
  while (size < 2u * nprod && size < SG_TAB)
    size <<= 1;
  for (uint i = (uint)lane; i < size; i += 32u)
    tab[w][i] = SG_EMPTY;
  SP_BARRIER();
  for (int q = k0; q < k1; ++q) {
    const uint cc = (uint)col[q];
    uint h = (cc * 0x9e3779b1u) & (size - 1u);
    for (;;) {
      const uint old = SP_ATOMIC_CAS(&tab[w][h], SG_EMPTY, cc);
      if (old == SG_EMPTY) {
        SP_ATOMIC_ADD(&cnt[w][1], 1u);
        break;
      }
      if (old == cc)
        break;
      h = (h + 1u) & (size - 1u);
    }
  }
  SP_BARRIER();
  if (ok && lane == 0)
    nnz[row] = cnt[w][1];
}

/* ---- DFA grep -------------------------------------------------------------------------
 * One work-item per text line runs a multi-keyword automaton
 * (Aho-Corasick, GD_S states x 256 bytes, in local memory) over its line
 * byte by byte and stops at the first match, writing the match's end
 * offset in the line or ~0.  Accepting states are numbered from
 * first_acc on.  Lines differ in length, and one work-group's lines are
 * ten times longer than the others. */
#define GD_T 128
#define GD_S 64

SP_KERNEL void x_grep_dfa(SP_GLOBAL const uchar *SP_RESTRICT text,
                          SP_GLOBAL const int *SP_RESTRICT start,
                          SP_GLOBAL const uint *SP_RESTRICT dfa,
                          SP_GLOBAL uint *SP_RESTRICT hit, int nlines,
                          int first_acc)
{
  SP_LOCAL uchar tab[GD_S * 256];
  const int t = SP_LID(0);
  for (int i = t; i < GD_S * 64; i += GD_T) {
    const uint w4 = dfa[i];
    tab[4 * i] = (uchar)(w4 & 255u);
    tab[4 * i + 1] = (uchar)((w4 >> 8) & 255u);
    tab[4 * i + 2] = (uchar)((w4 >> 16) & 255u);
    tab[4 * i + 3] = (uchar)(w4 >> 24);
  }
  SP_BARRIER();
  const int line = SP_GID(0);
  if (line >= nlines)
    return;
  const int lo = start[line], hi = start[line + 1];
  int state = 0;
  uint res = 0xffffffffu;
  for (int i = lo; i < hi; ++i) {
    state = tab[state * 256 + text[i]];
    if (state >= first_acc) {
      res = (uint)(i - lo);
      break;
    }
  }
  hit[line] = res;
}

/* ---- hash table build ------------------------------------------------------------
 * Inserts one key per work-item into an open-addressing table (linear
 * probing): compare-and-swap claims an empty slot or finds the key, then
 * the slot's count is incremented.  Keys repeat with a skewed frequency,
 * so the popular keys' slots are contended. */
#define HB_EMPTY 0xffffffffu

SP_KERNEL void x_hash_build(SP_GLOBAL const uint *SP_RESTRICT keys,
                            SP_GLOBAL uint *SP_RESTRICT tkey,
                            SP_GLOBAL uint *SP_RESTRICT tcnt, uint mask,
                            int n)
{
  const int i = SP_GID(0);
  if (i >= n)
    return;
  const uint k = keys[i];
  uint h = sp_fmix32(k) & mask;
  for (;;) {
    const uint old = SP_ATOMIC_CAS(&tkey[h], HB_EMPTY, k);
    if (old == HB_EMPTY || old == k) {
      SP_ATOMIC_ADD(&tcnt[h], 1u);
      return;
    }
    h = (h + 1u) & mask;
  }
}

/* ---- CRC-32 per page -----------------------------------------------------------
 * The IEEE CRC-32 of each page, one work-item per page reading it a word
 * at a time (slicing by 4, the four tables in local memory): a storage
 * system's checksum pass.  Each work-item walks its own page, so a warp's
 * loads touch 32 pages; there are few work-items. */
#define CR_T 256

SP_KERNEL void x_crc32_pages(SP_GLOBAL const uint *SP_RESTRICT pages,
                             SP_GLOBAL const uint *SP_RESTRICT tables,
                             SP_GLOBAL uint *SP_RESTRICT crc, int words,
                             int npages)
{
  SP_LOCAL uint tb[4][256];
  const int t = SP_LID(0);
  for (int i = t; i < 1024; i += CR_T)
    tb[i / 256][i % 256] = tables[i];
  SP_BARRIER();
  const int p = SP_GID(0);
  if (p >= npages)
    return;
  SP_GLOBAL const uint *w = pages + (long)p * words;
  uint c = 0xffffffffu;
  for (int i = 0; i < words; ++i) {
    c ^= w[i];
    c = tb[3][c & 255u] ^ tb[2][(c >> 8) & 255u] ^ tb[1][(c >> 16) & 255u] ^
        tb[0][c >> 24];
  }
  crc[p] = ~c;
}
