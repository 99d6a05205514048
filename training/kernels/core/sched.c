/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sched.c: host half of sched.cl.  d->param is SCHED_PARAM(kind, a, b)
 * = kind x 10^6 + a x 10^4 + b, with per kind:
 *   SC_TINY    b: work-groups of 256 (1, 2, 8, 33), one short chain each
 *   SC_BIG     b: work-groups of 1024 work-items (32 chains: one per SM)
 *   SC_SMALL   b: work-groups of 128 work-items, the same work per group
 *   SC_ILP     a: chains per work-item (1-8), b: work-groups of 128
 *   SC_IMB     a: percent of heavy groups, b: 10 x factor + placement
 *              (0 first, 1 last, 2 spread over the grid)
 *   SC_BAR     b: work-group size
 *   SC_QUEUE   b: 0 equal tasks, 1 skewed task lengths
 *   SC_REDLAST one-pass reduction with a last-group ticket
 *
 * Chains step x <- fma(x, a, b) with a = -(1 - 2^-16): the sign flips at
 * every step and the magnitude decays slowly, so the FMA datapath toggles
 * throughout.  C's fmaf is the same correctly rounded operation, so
 * results must match exactly. */
#include "suite.h"

#include <math.h>
#include <stdlib.h>

#define SC_A (-0.9999847412109375f)
#define SC_B 0.0009765625f
#define SC_EXACT 0.0
#define SC_SAMPLES 64

static int kind_of(const kdesc *d) { return d->param / 1000000; }
static int a_of(const kdesc *d) { return d->param / 10000 % 100; }
static int b_of(const kdesc *d) { return d->param % 10000; }

/* The same start value as chain_start() in sched.cl. */
static float start(int g, int k) {
  return 1.0f + (float)((g * 7 + k * 13) & 255) * (1.0f / 1024.0f);
}

static float chains(int g, int nchains, int iters) {
  float s = 0.0f;
  for (int k = 0; k < nchains; ++k) {
    float x = start(g, k);
    for (int it = 0; it < iters; ++it) x = fmaf(x, SC_A, SC_B);
    s += x;
  }
  return s;
}

static const char *chain_entry(int nchains) {
  switch (nchains) {
    case 1:
      return "fma_chain1";
    case 2:
      return "fma_chain2";
    case 4:
      return "fma_chain4";
    case 8:
      return "fma_chain8";
    default:
      return "fma_chain32";
  }
}

/* groups x local work-items, each nchains chains of iters steps; checks
 * SC_SAMPLES work-items spread over the grid, the first and last
 * included. */
static int setup_chains(kjob *job, int nchains, size_t groups, size_t local, int iters) {
  const size_t n = groups * local;
  const size_t count = n < SC_SAMPLES ? n : SC_SAMPLES;
  kjob_init(job, "sched.cl", chain_entry(nchains));
  int out = kjob_buf(job, n * 4, KB_OUT);
  float *ref = kjob_ref(job, out, KC_F32, count, SC_EXACT, SC_EXACT);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  if (!sample) return -1;
  for (size_t j = 0; j < count; ++j) {
    sample[j] = j + 1 == count ? n - 1 : kspread(j, count, n);
    ref[j] = chains((int)sample[j], nchains, iters);
  }
  kjob_arg_buf(job, out);
  kjob_arg_f32(job, SC_A);
  kjob_arg_f32(job, SC_B);
  kjob_arg_i32(job, iters);
  kjob_grid(job, groups, 1, 1, local, 1, 1);
  return 0;
}

static int heavy(int grp, int groups, int pct, int place) {
  const int nh = (groups * pct + 99) / 100;
  if (place == 2) return grp % (100 / pct) == 0;
  return place == 0 ? grp < nh : grp >= groups - nh;
}

static int setup_imb(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const int groups = full ? 1056 : 64, iters = full ? 1024 : 8;
  const int pct = a_of(d), factor = b_of(d) / 10, place = b_of(d) % 10;
  const int nh = (groups * pct + 99) / 100, n = groups * 256;
  kjob_init(job, "sched.cl", "imb_fma");
  int out = kjob_buf(job, (size_t)n * 4, KB_OUT);
  float *ref = kjob_ref(job, out, KC_F32, SC_SAMPLES, SC_EXACT, SC_EXACT);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  if (!sample) return -1;
  for (size_t j = 0; j < SC_SAMPLES; ++j) {
    size_t g = j == 0 ? 0 : j + 1 == SC_SAMPLES ? (size_t)n - 1 : kspread(j, SC_SAMPLES, (size_t)n);
    int grp = (int)g / 256;
    sample[j] = g;
    ref[j] = chains((int)g, 4, heavy(grp, groups, pct, place) ? iters * factor : iters);
  }
  kjob_arg_buf(job, out);
  kjob_arg_f32(job, SC_A);
  kjob_arg_f32(job, SC_B);
  kjob_arg_i32(job, iters);
  kjob_arg_i32(job, factor);
  kjob_arg_i32(job, place == 0 ? 0 : groups - nh);
  kjob_arg_i32(job, place == 0 ? nh : groups);
  kjob_arg_i32(job, place == 2 ? 100 / pct : 0);
  kjob_grid(job, (size_t)groups, 1, 1, 256, 1, 1);
  return 0;
}

/* The reference of bar_avg for one work-group (values of work-items
 * g0 .. g0 + ls - 1). */
static void bar_group(float *x, float *s, int g0, int ls, int iters) {
  for (int l = 0; l < ls; ++l) x[l] = start(g0 + l, 0);
  for (int it = 0; it < iters; ++it) {
    for (int l = 0; l < ls; ++l) s[l] = x[l];
    for (int l = 0; l < ls; ++l) x[l] = fmaf(0.5f, s[l + 1 < ls ? l + 1 : 0], 0.5f * x[l]);
  }
}

static int setup_bar(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, ls = b_of(d);
  const int groups = (full ? 1056 * 256 : 16 * 256) / ls;
  const int iters = full ? 2048 : 16;
  kjob_init(job, "sched.cl", "bar_avg");
  int out = kjob_buf(job, (size_t)groups * (size_t)ls * 4, KB_OUT);
  float *ref = kjob_ref(job, out, KC_F32, 2 * (size_t)ls, SC_EXACT, SC_EXACT);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  float *s = malloc((size_t)ls * sizeof *s);
  if (!sample || !s) {
    free(s);
    return -1;
  }
  const int last = (groups - 1) * ls; /* the first and the last group */
  bar_group(ref, s, 0, ls, iters);
  bar_group(ref + ls, s, last, ls, iters);
  for (int l = 0; l < ls; ++l) {
    sample[l] = (size_t)l;
    sample[ls + l] = (size_t)(last + l);
  }
  free(s);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, iters);
  kjob_grid(job, (size_t)groups, 1, 1, (size_t)ls, 1, 1);
  return 0;
}

/* Task lengths: all mean-sized, or 128 << min(6, trailing zeros of a hash)
 * steps (half the tasks 128, one in 64 of them 8192). */
static int task_len(int t, int skewed, int full) {
  if (!full) return 4;
  if (!skewed) return 512;
  uint32_t h = ((uint32_t)t + 1u) * 2654435761u;
  int z = 0;
  while (z < 6 && !(h & (1u << z))) ++z;
  return 128 << z;
}

static int setup_queue(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, skewed = b_of(d);
  const int ntasks = full ? 8192 : 64, groups = full ? 1056 : 8;
  kjob_init(job, "sched.cl", "queue_tasks");
  int len = kjob_buf(job, (size_t)ntasks * 4, KB_IN);
  int out = kjob_buf(job, (size_t)ntasks * 256 * 4, KB_OUT);
  int q = kjob_buf(job, 2 * 4, KB_INOUT);
  int *hl = job->buf[len].host;
  float *ref = kjob_ref(job, out, KC_F32, 2 * (size_t)ntasks, SC_EXACT, SC_EXACT);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  uint32_t *qref = kjob_ref(job, q, KC_U32, 2, 0.0, 0.0);
  if (!hl || !sample || !qref || !job->buf[q].host) return -1;
  for (int t = 0; t < ntasks; ++t) {
    hl[t] = task_len(t, skewed, full);
    for (int j = 0; j < 2; ++j) {
      const int lid = j ? 255 : 0;
      float x0 = start(t, lid), x1 = start(t, lid + 1);
      for (int it = 0; it < hl[t]; ++it) {
        x0 = fmaf(x0, SC_A, SC_B);
        x1 = fmaf(x1, SC_A, SC_B);
      }
      sample[2 * t + j] = (size_t)t * 256 + (size_t)lid;
      ref[2 * t + j] = x0 + x1;
    }
  }
  kjob_arg_buf(job, len);
  kjob_arg_buf(job, out);
  kjob_arg_buf(job, q);
  kjob_arg_i32(job, ntasks);
  kjob_arg_f32(job, SC_A);
  kjob_arg_f32(job, SC_B);
  kjob_grid(job, (size_t)groups, 1, 1, 256, 1, 1);
  return 0;
}

/* reduce_last's result, added in the kernel's order: work-item j sums
 * partials j, j + 256, ... in turn, then a tree over the 256 sums. */
static float last_group_sum(const float *partial, int ng) {
  float s[256];
  for (int j = 0; j < 256; ++j) {
    s[j] = 0.0f;
    for (int p = j; p < ng; p += 256) s[j] += partial[p];
  }
  for (int off = 128; off > 0; off >>= 1)
    for (int j = 0; j < off; ++j) s[j] += s[j + off];
  return s[0];
}

static int setup_redlast(kjob *job, ksize size) {
  const int n = size == KSIZE_FULL ? 1 << 25 : 1 << 16, ng = n / 4096;
  kjob_init(job, "sched.cl", "reduce_last");
  int in = kjob_buf(job, (size_t)n * 4, KB_IN);
  int part = kjob_buf(job, (size_t)ng * 4, KB_OUT);
  int q = kjob_buf(job, 4, KB_INOUT), res = kjob_buf(job, 4, KB_OUT);
  float *h = job->buf[in].host;
  float *pref = kjob_ref(job, part, KC_F32, (size_t)ng, SC_EXACT, SC_EXACT);
  uint32_t *qref = kjob_ref(job, q, KC_U32, 1, 0.0, 0.0);
  float *rref = kjob_ref(job, res, KC_F32, 1, SC_EXACT, SC_EXACT);
  if (!h || !pref || !qref || !rref || !job->buf[q].host) return -1;
  /* Small integers: every group's partial sum is exact. */
  for (int i = 0; i < n; ++i) {
    h[i] = (float)(((uint32_t)i * 2654435761u) >> 29);
    pref[i / 4096] += h[i];
  }
  rref[0] = last_group_sum(pref, ng);
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, part);
  kjob_arg_buf(job, q);
  kjob_arg_buf(job, res);
  kjob_arg_i32(job, n);
  kjob_grid(job, (size_t)ng, 1, 1, 256, 1, 1);
  return 0;
}

int setup_sched(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t b = (size_t)b_of(d);
  /* CI sizes: grids of at most 33 groups, a few steps. */
  const size_t grid = full || b < 33 ? b : 33;
  switch (kind_of(d)) {
    case SC_TINY:
      return setup_chains(job, 1, grid, 256, full ? 2048 : 16);
    case SC_BIG:
      return setup_chains(job, 32, grid, 1024, full ? 768 : 2);
    case SC_SMALL:
      return setup_chains(job, 32, grid, 128, full ? 6144 : 16);
    case SC_ILP:
      return setup_chains(job, a_of(d), grid, 128,
                          (full ? (grid <= 132 ? 65536 : 2048) : 16) / a_of(d));
    case SC_IMB:
      return setup_imb(job, d, size);
    case SC_BAR:
      return setup_bar(job, d, size);
    case SC_QUEUE:
      return setup_queue(job, d, size);
    default:
      return setup_redlast(job, size);
  }
}
