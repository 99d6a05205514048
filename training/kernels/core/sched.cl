/* sched.cl: how work is spread over the grid.  Chains of fused
 * multiply-adds whose length the host sets per work-item (short launches
 * of a few work-groups, the same per-group work at grids around multiples
 * of the SM count, a few heavy groups first or last), a barrier-bound loop,
 * a persistent grid taking tasks from a queue, and a one-pass reduction
 * whose last work-group adds the partial sums.
 *
 * Every chain is x <- fma(x, a, b) from a value that depends on the
 * work-item, so the host repeats it exactly (C's fmaf is the same fused
 * operation). */
#include "sp_port.h"

SP_FN float chain_start(int g, int k)
{
  return 1.0f + (float)((g * 7 + k * 13) & 255) * (1.0f / 1024.0f);
}

/* K independent chains of iters steps each; out[g] is their sum. */
#define FMA_CHAINS(NAME, K)                                                \
  SP_KERNEL void NAME(SP_GLOBAL float *SP_RESTRICT out, float a, float b,  \
                      int iters)                                           \
  {                                                                        \
    const int g = SP_GID(0);                                               \
    float x[K];                                                            \
    for (int k = 0; k < K; ++k)                                            \
      x[k] = chain_start(g, k);                                            \
    for (int it = 0; it < iters; ++it)                                     \
      for (int k = 0; k < K; ++k)                                          \
        x[k] = SP_FMAF(x[k], a, b);                                        \
    float s = 0.0f;                                                        \
    for (int k = 0; k < K; ++k)                                            \
      s += x[k];                                                           \
    out[g] = s;                                                            \
  }

FMA_CHAINS(fma_chain1, 1)
FMA_CHAINS(fma_chain2, 2)
FMA_CHAINS(fma_chain4, 4)
FMA_CHAINS(fma_chain8, 8)
/* 32 live chains need more than 32 registers, so a work-group of 1024
 * work-items fills an SM's register file alone. */
FMA_CHAINS(fma_chain32, 32)

/* Groups [lo, hi), or every spread-th group when spread > 0, run factor
 * times as many steps as the others. */
SP_KERNEL void imb_fma(SP_GLOBAL float *SP_RESTRICT out, float a, float b,
                       int iters, int factor, int lo, int hi, int spread)
{
  const int g = SP_GID(0), grp = SP_GRP(0);
  const int heavy = spread > 0 ? grp % spread == 0 : grp >= lo && grp < hi;
  const int n = heavy ? iters * factor : iters;
  float x0 = chain_start(g, 0), x1 = chain_start(g, 1);
  float x2 = chain_start(g, 2), x3 = chain_start(g, 3);
  for (int it = 0; it < n; ++it) {
    x0 = SP_FMAF(x0, a, b);
    x1 = SP_FMAF(x1, a, b);
    x2 = SP_FMAF(x2, a, b);
    x3 = SP_FMAF(x3, a, b);
  }
  out[g] = ((x0 + x1) + x2) + x3;
}

/* Each step: publish x, wait for the group, average with a neighbour's
 * value, wait again.  Two barriers per handful of instructions. */
SP_KERNEL void bar_avg(SP_GLOBAL float *SP_RESTRICT out, int iters)
{
  SP_LOCAL float s[1024];
  const int lid = SP_LID(0), ls = SP_LSIZE(0), g = SP_GID(0);
  const int nb = lid + 1 < ls ? lid + 1 : 0;
  float x = chain_start(g, 0);
  for (int it = 0; it < iters; ++it) {
    s[lid] = x;
    SP_BARRIER();
    x = SP_FMAF(0.5f, s[nb], 0.5f * x);
    SP_BARRIER();
  }
  out[g] = x;
}

/* A persistent grid: work-groups take task numbers from q[0] until none is
 * left; task t runs len[t] steps of two chains on every work-item and
 * writes out[t * 256 + lid].  The last group to finish resets the queue
 * (q[0], and the finish count q[1]) for the next launch. */
SP_KERNEL void queue_tasks(SP_GLOBAL const int *SP_RESTRICT len,
                           SP_GLOBAL float *SP_RESTRICT out,
                           SP_GLOBAL uint *q, int ntasks, float a, float b)
{
  SP_LOCAL int task;
  const int lid = SP_LID(0);
  for (;;) {
    if (lid == 0)
      task = (int)SP_ATOMIC_ADD(&q[0], 1u);
    SP_BARRIER();
    const int t = task;
    SP_BARRIER();
    if (t >= ntasks)
      break;
    float x0 = chain_start(t, lid), x1 = chain_start(t, lid + 1);
    for (int it = 0; it < len[t]; ++it) {
      x0 = SP_FMAF(x0, a, b);
      x1 = SP_FMAF(x1, a, b);
    }
    out[t * 256 + lid] = x0 + x1;
  }
  if (lid == 0 && SP_ATOMIC_ADD(&q[1], 1u) == (uint)SP_NGRP(0) - 1u) {
    q[0] = 0u;
    q[1] = 0u;
  }
}

/* One-pass sum: each group of 256 adds 16 x 256 elements into partial[];
 * the last group to finish (a ticket in q[0]) adds the partials in order
 * into result[0] and resets the ticket. */
SP_KERNEL void reduce_last(SP_GLOBAL const float *SP_RESTRICT in,
                           SP_GLOBAL volatile float *partial,
                           SP_GLOBAL uint *q,
                           SP_GLOBAL float *SP_RESTRICT result, int n)
{
  SP_LOCAL float s[256];
  SP_LOCAL int last;
  const int lid = SP_LID(0), grp = SP_GRP(0), ng = SP_NGRP(0);
  float acc = 0.0f;
  for (int k = 0; k < 16; ++k) {
    int i = grp * 4096 + k * 256 + lid;
    if (i < n)
      acc += in[i];
  }
  s[lid] = acc;
  SP_BARRIER();
  for (int off = 128; off > 0; off >>= 1) {
    if (lid < off)
      s[lid] += s[lid + off];
    SP_BARRIER();
  }
  if (lid == 0) {
    partial[grp] = s[0];
    SP_FENCE_GLOBAL();
    last = SP_ATOMIC_ADD(&q[0], 1u) == (uint)ng - 1u;
  }
  SP_BARRIER();
  if (!last)
    return;
  SP_FENCE_GLOBAL();
  acc = 0.0f;
  for (int j = lid; j < ng; j += 256)
    acc += partial[j];
  s[lid] = acc;
  SP_BARRIER();
  for (int off = 128; off > 0; off >>= 1) {
    if (lid < off)
      s[lid] += s[lid + off];
    SP_BARRIER();
  }
  if (lid == 0) {
    result[0] = s[0];
    q[0] = 0u;
  }
}
