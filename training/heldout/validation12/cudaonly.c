/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.c: host half of cudaonly.cu (CUDA only: quaternion rotation, L2
 * row normalisation, scatter argmax, 0/1 knapsack).  The normalisation is
 * repeated here operation for operation (the same rounded operations and
 * butterfly), the argmax keys and knapsack tables are integers; the
 * rotation is compared with double arithmetic within 1e-5. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation12.h"

/* ---- quaternion rotation ----------------------------------------------------------------- */

static int quat_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)32 << 20 : 4096, len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "m_quat_rotate_v4");
  int qb = kjob_buf(job, n * 16, KB_IN), vb = kjob_buf(job, n * 16, KB_IN);
  int ob = kjob_buf(job, n * 16, KB_OUT);
  float *ref = kjob_ref_sampled(job, ob, KC_F32, n * 4, M12_SAMPLES, 1e-5, 1e-5);
  if (job->buf[qb].host == NULL || job->buf[vb].host == NULL || ref == NULL) return -1;
  float *q = job->buf[qb].host, *v = job->buf[vb].host;
  for (size_t i = 0; i < len; ++i) { /* unit quaternions, vectors in a 10-unit box */
    double a[4], nn = 0;
    for (int k = 0; k < 4; ++k) {
      a[k] = krng_uniform(&r, -1, 1);
      nn += a[k] * a[k];
    }
    for (int k = 0; k < 4; ++k) {
      q[4 * i + k] = (float)(a[k] / sqrt(nn));
      v[4 * i + k] = (float)krng_uniform(&r, -10, 10);
    }
  }
  krepeat(q, len * 16, n * 16);
  krepeat(v, len * 16, n * 16);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], i = e / 4, c = e % 4;
    const float *a = q + 4 * i, *b = v + 4 * i;
    const double t[3] = {2.0 * ((double)a[1] * b[2] - (double)a[2] * b[1]),
                         2.0 * ((double)a[2] * b[0] - (double)a[0] * b[2]),
                         2.0 * ((double)a[0] * b[1] - (double)a[1] * b[0])};
    const int c1 = (int)(c + 1) % 3, c2 = (int)(c + 2) % 3;
    ref[s] = c == 3 ? b[3] : (float)(b[c] + a[3] * t[c] + (a[c1] * t[c2] - a[c2] * t[c1]));
  }
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- L2 row normalisation ---------------------------------------------------------------- */

enum { NR_D = 128 };

static int l2norm_job(kjob *job, const kdesc *d, ksize size) {
  const size_t rows = size == KSIZE_FULL ? (size_t)3 << 19 : 256, n = rows * NR_D;
  const size_t len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "m_l2norm_rows_b32");
  int xb = kjob_buf(job, n * 4, KB_IN), ob = kjob_buf(job, n * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, ob, KC_F32, n, M12_SAMPLES, 1e-7, 0);
  if (job->buf[xb].host == NULL || ref == NULL) return -1;
  float *x = job->buf[xb].host;
  for (size_t i = 0; i < len; ++i) /* embeddings of varied norms, 1 row in 512 all zero */
    x[i] = i / NR_D % 512 == 7 ? 0.0f
                               : (float)(krng_uniform(&r, -1, 1) * (1 + (double)(i / NR_D % 13)));
  krepeat(x, len * 4, n * 4);
  size_t last = (size_t)-1;
  float inv = 0;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], row = e / NR_D;
    if (row != last) { /* the lanes' sums, then the xor butterfly */
      float ss[32], nx[32];
      for (int l = 0; l < 32; ++l) {
        const float *v = x + row * NR_D + 4 * l;
        ss[l] = fmaf(v[3], v[3], fmaf(v[2], v[2], fmaf(v[1], v[1], v[0] * v[0])));
      }
      for (int off = 16; off > 0; off >>= 1) {
        for (int l = 0; l < 32; ++l) nx[l] = ss[l] + ss[l ^ off];
        memcpy(ss, nx, sizeof ss);
      }
      inv = 1.0f / fmaxf(sqrtf(ss[0]), 1e-12f);
      last = row;
    }
    ref[s] = x[e] * inv;
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, ob);
  kjob_grid(job, rows, 1, 1, 32, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- scatter argmax ---------------------------------------------------------------------- */

static int argmax_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const size_t n = full ? (size_t)64 << 20 : 4096, nseg = full ? (size_t)1 << 20 : 1024;
  const size_t len = m12_stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "m_scatter_argmax_u64");
  int vb = kjob_buf(job, n * 4, KB_IN), sb = kjob_buf_u32(job, n, KB_IN);
  int ob = kjob_buf_u32(job, 2 * nseg, KB_INOUT);
  uint32_t *ref = kjob_ref(job, ob, KC_U32, 2 * nseg, 0, 0);
  if (job->buf[vb].host == NULL || sb < 0 || ob < 0 || ref == NULL) return -1;
  float *v = job->buf[vb].host;
  uint32_t *seg = job->buf[sb].host;
  for (size_t i = 0; i < len; ++i) { /* scores with ties (a 1/64 grid), random segments */
    v[i] = (float)((int)krng_below(&r, 4096) - 2048) / 64.0f;
    seg[i] = krng_below(&r, (uint32_t)nseg);
  }
  krepeat(v, len * 4, n * 4);
  krepeat(seg, len * 4, n * 4);
  /* The repeats carry the same (segment, value) pairs at larger indices, so
   * the first stretch decides every segment; empty ones stay 0. */
  uint64_t *best = calloc(nseg, sizeof *best);
  if (best == NULL) return -1;
  for (size_t i = 0; i < len; ++i) {
    uint32_t b;
    memcpy(&b, &v[i], 4);
    const uint32_t o = b & 0x80000000u ? ~b : b | 0x80000000u;
    const uint64_t key = (uint64_t)o << 32 | (0xFFFFFFFFu - (uint32_t)i);
    if (key > best[seg[i]]) best[seg[i]] = key;
  }
  for (size_t k = 0; k < nseg; ++k) { /* little-endian words of each 64-bit key */
    ref[2 * k] = (uint32_t)best[k];
    ref[2 * k + 1] = (uint32_t)(best[k] >> 32);
  }
  free(best);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- 0/1 knapsack ------------------------------------------------------------------------ */

enum { KS_W = 16384, KS_CHECK = 4, KS_PER = 1024 };

static int knapsack_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, ninst = full ? 200 : 4, items = full ? 512 : 16;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "m_knapsack_smem_200");
  const size_t ni = (size_t)ninst * items;
  int wb = kjob_buf_u32(job, ni, KB_IN), vb = kjob_buf_u32(job, ni, KB_IN);
  int ob = kjob_buf_u32(job, (size_t)ninst * KS_W, KB_OUT);
  size_t *idx;
  int32_t *ref = kjob_ref_at(job, ob, KC_U32, (size_t)KS_CHECK * KS_PER, 0, 0, &idx);
  int32_t *row = malloc(2 * KS_W * sizeof *row);
  if (wb < 0 || vb < 0 || ref == NULL || row == NULL) {
    free(row);
    return -1;
  }
  int32_t *wt = job->buf[wb].host, *val = job->buf[vb].host;
  for (size_t i = 0; i < ni; ++i) { /* weights 64-2047, values loosely tied to them */
    wt[i] = 64 + (int32_t)krng_below(&r, 1984);
    val[i] = wt[i] / 4 + (int32_t)krng_below(&r, 500);
  }
  for (int q = 0; q < KS_CHECK; ++q) { /* four instances spread over the grid */
    const int inst = (int)((size_t)q * (ninst - 1) / (KS_CHECK - 1));
    int32_t *cur = row, *nxt = row + KS_W;
    memset(cur, 0, KS_W * sizeof *cur);
    for (int it = 0; it < items; ++it) {
      const int32_t c = wt[inst * items + it], v = val[inst * items + it];
      for (int w = 0; w < KS_W; ++w) {
        int32_t best = cur[w];
        if (w >= c && cur[w - c] + v > best) best = cur[w - c] + v;
        nxt[w] = best;
      }
      int32_t *tmp = cur;
      cur = nxt;
      nxt = tmp;
    }
    for (int k = 0; k < KS_PER; ++k) {
      const int w = k * (KS_W / KS_PER) + k % 13;
      idx[q * KS_PER + k] = (size_t)inst * KS_W + w;
      ref[q * KS_PER + k] = cur[w];
    }
  }
  free(row);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, items);
  kjob_grid(job, (size_t)ninst, 1, 1, 1024, 1, 1);
  job->dyn_local = 2 * KS_W * 4;
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(m12setup_cuda) {
  switch (d->param) {
    case M12CU_QUAT:
      return quat_job(job, d, size);
    case M12CU_L2NORM:
      return l2norm_job(job, d, size);
    case M12CU_ARGMAX:
      return argmax_job(job, d, size);
    case M12CU_KNAPSACK:
      return knapsack_job(job, d, size);
  }
  return -1;
}
