/* contention.cl: kernels whose cost is set by atomic contention (host half:
 * contention.c). */
#include "sp_dev.h"

/* 256-bin histogram of an 8-bit image read as 4-pixel words: each
 * 256-wide work-group counts its grid-stride share in a local histogram
 * with local atomics, then adds its non-zero bins to the global one.  How
 * concentrated the image's values are sets the local contention. */
SP_KERNEL void v_hist_image(SP_GLOBAL const uint *SP_RESTRICT img,
                            SP_GLOBAL uint *hist, int nwords)
{
  SP_LOCAL uint lh[256];
  const int t = SP_LID(0);
  lh[t] = 0;
  SP_BARRIER();
  for (int i = SP_GID(0); i < nwords; i += SP_GSIZE(0)) {
    const uint w = img[i];
    SP_ATOMIC_ADD(&lh[w & 255u], 1u);
    SP_ATOMIC_ADD(&lh[(w >> 8) & 255u], 1u);
    SP_ATOMIC_ADD(&lh[(w >> 16) & 255u], 1u);
    SP_ATOMIC_ADD(&lh[w >> 24], 1u);
  }
  SP_BARRIER();
  if (lh[t] != 0)
    SP_ATOMIC_ADD(&hist[t], lh[t]);
}

/* Sum (mod 2^32) and maximum of a uint array: each 256-wide work-group
 * reduces 16 elements per work-item in local memory, and its work-item 0
 * folds the group's result into two global words with atomics, one pair per
 * group on the same two addresses. */
SP_KERNEL void v_sum_atomic(SP_GLOBAL const uint *SP_RESTRICT x,
                            SP_GLOBAL uint *total)
{
  SP_LOCAL uint sum[256];
  SP_LOCAL uint mx[256];
  const int t = SP_LID(0), base = SP_GRP(0) * 256 * 16 + t;
  uint s = 0, m = 0;
  for (int k = 0; k < 16; ++k) {
    const uint v = x[base + 256 * k];
    s += v;
    m = v > m ? v : m;
  }
  sum[t] = s;
  mx[t] = m;
  SP_BARRIER();
  for (int h = 128; h > 0; h >>= 1) {
    if (t < h) {
      sum[t] += sum[t + h];
      mx[t] = mx[t] > mx[t + h] ? mx[t] : mx[t + h];
    }
    SP_BARRIER();
  }
  if (t == 0) {
    SP_ATOMIC_ADD(&total[0], sum[0]);
    SP_ATOMIC_MAX(&total[1], mx[0]);
  }
}

/* Stream compaction of the indices whose value exceeds thresh.  Each
 * work-item tests CP_PER consecutive elements, reserves room for its hits
 * in the group's range with a local atomic, and work-item 0 reserves the
 * group's range in the output with one global atomic on the counter.  The
 * output order therefore varies from run to run; the set does not.  n must
 * be a power of two. */
#define CP_PER 8

SP_KERNEL void v_compact_counter(SP_GLOBAL const float *SP_RESTRICT v,
                                 SP_GLOBAL uint *SP_RESTRICT out,
                                 SP_GLOBAL uint *counter, float thresh, int n)
{
  SP_LOCAL uint lcount;
  SP_LOCAL uint lbase;
  const int t = SP_LID(0), first = (SP_GRP(0) * SP_LSIZE(0) + t) * CP_PER;
  if (t == 0)
    lcount = 0;
  SP_BARRIER();
  uint hits = 0;
  for (int k = 0; k < CP_PER; ++k)
    hits += first + k < n && v[first + k] > thresh;
  const uint off = SP_ATOMIC_ADD(&lcount, hits);
  SP_BARRIER();
  if (t == 0)
    lbase = SP_ATOMIC_ADD(counter, lcount);
  SP_BARRIER();
  /* The counter is not reset between timed launches, so positions wrap
   * modulo n (a power of two, which 2^32 is a multiple of): the first
   * launch, the one checked, writes exactly what it did before, and later
   * ones stay inside the output. */
  uint pos = lbase + off;
  for (int k = 0; k < CP_PER; ++k)
    if (first + k < n && v[first + k] > thresh)
      out[pos++ & (uint)(n - 1)] = (uint)(first + k);
}
