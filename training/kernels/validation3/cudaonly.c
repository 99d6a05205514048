/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.c: host half of cudaonly.cu (CUDA only: causal flash attention
 * in fp16, FP64 tensor-core GEMM, bf16 cross-entropy, batched Cholesky,
 * push PageRank).  Inputs are chosen on grids that half, bf16 and double
 * represent exactly, so the host builds the 16-bit values from their
 * floats' bits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation3.h"

/* ---- 16-bit floats on the host --------------------------------------------------- */

/* Half bits of k / 64 for |k| <= 128 (exact: normal or zero). */
static uint16_t half_of_64ths(int k) {
  if (k == 0) return 0;
  const uint16_t sign = k < 0 ? 0x8000 : 0;
  int m = k < 0 ? -k : k, e = 0;
  while (m < 1024) { /* m in [1024, 2048), |k| = m 2^e */
    m <<= 1;
    --e;
  }
  /* |k| / 64 = (m / 1024) 2^(e + 4): biased exponent e + 4 + 15 */
  return sign | (uint16_t)((e + 19) << 10) | (uint16_t)(m - 1024);
}

/* The float of bf16 bits. */
static float from_bf16(uint16_t h) {
  const uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* The bf16 bits of v when v has at most 8 significant bits (exact). */
static uint16_t bf16_exact(float v) {
  uint32_t u;
  memcpy(&u, &v, 4);
  return (uint16_t)(u >> 16);
}

/* ---- flash attention ------------------------------------------------------------------ */

enum { FA_D = 64, FA_ROWS = 64 };

static int flash_job(kjob *job, const kdesc *d, ksize size) {
  const int heads = size == KSIZE_FULL ? 32 : 2, seq = size == KSIZE_FULL ? 4096 : 256;
  const size_t n = (size_t)heads * seq * FA_D;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "x_flash_attn_f16");
  int qb = kjob_buf(job, n * 2, KB_IN), kb = kjob_buf(job, n * 2, KB_IN);
  int vb = kjob_buf(job, n * 2, KB_IN), ob = kjob_buf(job, n * 4, KB_OUT);
  /* The probabilities are rounded to half before P V: 5e-4 of each
   * weight, on outputs of at most 2. */
  float *ref = kjob_ref(job, ob, KC_F32, (size_t)FA_ROWS * FA_D, 1e-2, 2e-3);
  size_t *smp = ref ? kjob_sample(job, ob) : NULL;
  int8_t *kq = malloc(3 * n);
  double *w = malloc((size_t)seq * sizeof *w);
  int rc = -1;
  if (smp == NULL || kq == NULL || w == NULL) goto out;
  uint16_t *hq = job->buf[qb].host, *hk = job->buf[kb].host, *hv = job->buf[vb].host;
  if (hq == NULL || hk == NULL || hv == NULL) goto out;
  /* q, k, v = k / 64 with |k| <= 128 (values in [-2, 2], exact in half) */
  for (size_t i = 0; i < 3 * n; ++i) kq[i] = (int8_t)((int)krng_below(&r, 257) - 128);
  for (size_t i = 0; i < n; ++i) {
    hq[i] = half_of_64ths(kq[i]);
    hk[i] = half_of_64ths(kq[n + i]);
    hv[i] = half_of_64ths(kq[2 * n + i]);
  }
  for (int s = 0; s < FA_ROWS; ++s) { /* whole output rows, spread over heads and rows */
    const size_t g = kspread((size_t)s, FA_ROWS, (size_t)heads * seq);
    const size_t hd = g / seq, row = g % seq, base = hd * seq * FA_D;
    double mx = -1e300, l = 0;
    for (size_t j = 0; j <= row; ++j) {
      double acc = 0;
      for (int c = 0; c < FA_D; ++c)
        acc += (double)kq[base + row * FA_D + c] * kq[n + base + j * FA_D + c];
      w[j] = acc / (64.0 * 64.0) * 0.125;
      mx = fmax(mx, w[j]);
    }
    for (size_t j = 0; j <= row; ++j) l += w[j] = exp(w[j] - mx);
    for (int c = 0; c < FA_D; ++c) {
      double acc = 0;
      for (size_t j = 0; j <= row; ++j) acc += w[j] * kq[2 * n + base + j * FA_D + c] / 64.0;
      ref[s * FA_D + c] = (float)(acc / l);
      smp[s * FA_D + c] = g * FA_D + (size_t)c;
    }
  }
  rc = 0;
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, seq);
  kjob_grid(job, (size_t)seq / 64, (size_t)heads, 1, 128, 1, 1);
out:
  free(kq);
  free(w);
  return rc;
}

/* ---- FP64 tensor-core GEMM ----------------------------------------------------------------- */

static int dmma_job(kjob *job, const kdesc *d, ksize size) {
  const int m = size == KSIZE_FULL ? 2048 : 128, n = m, k = m;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "x_dmma_f64");
  int a = kjob_buf(job, (size_t)m * k * 8, KB_IN), b = kjob_buf(job, (size_t)k * n * 8, KB_IN);
  int c = kjob_buf(job, (size_t)m * n * 8, KB_OUT);
  double *ha = job->buf[a].host, *hb = job->buf[b].host;
  /* multiples of 1/16 up to 2: every partial sum is exact in double */
  double *ref = xref_sampled(job, c, KC_F64, (size_t)m * n, 0, 0);
  if (ha == NULL || hb == NULL || ref == NULL) return -1;
  for (size_t i = 0; i < (size_t)m * k; ++i) ha[i] = ((int)krng_below(&r, 65) - 32) / 16.0;
  for (size_t i = 0; i < (size_t)k * n; ++i) hb[i] = ((int)krng_below(&r, 65) - 32) / 16.0;
  for (size_t s = 0; s < job->buf[c].count; ++s) {
    const size_t i = job->buf[c].sample[s] / n, j = job->buf[c].sample[s] % n;
    double acc = 0;
    for (int kk = 0; kk < k; ++kk) acc += ha[i * k + kk] * hb[(size_t)kk * n + j];
    ref[s] = acc;
  }
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, k);
  kjob_grid(job, (size_t)n / 64, (size_t)m / 64, 1, 128, 1, 1);
  return 0;
}

/* ---- bf16 cross-entropy ------------------------------------------------------------------------
 */

/* Sampled bf16 gradients against double references. */
typedef struct bf_chk {
  int buf;
  size_t n, count;
  double rtol, atol;
  float ref[X_SAMPLES];
} bf_chk;

static int bf_check(const kjob *job, char *msg, size_t size) {
  const bf_chk *h = job->priv;
  const uint16_t *got = job->buf[h->buf].result;
  for (size_t c = 0; c < h->count; ++c) {
    const size_t i = kspread(c, h->count, h->n);
    const double g = from_bf16(got[i]), want = h->ref[c];
    if (!(fabs(g - want) <= h->atol + h->rtol * fabs(want))) {
      snprintf(msg, size, "bf16 element %zu: got %.6g, expected %.6g", i, g, want);
      return -1;
    }
  }
  return 0;
}

static int xent_job(kjob *job, const kdesc *d, ksize size) {
  const int rows = size == KSIZE_FULL ? 8192 : 16, vocab = size == KSIZE_FULL ? 32768 : 512;
  const size_t n = (size_t)rows * vocab;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "x_xent_bf16");
  int lb = kjob_buf(job, n * 2, KB_IN), yb = xbuf_u32(job, (size_t)rows, KB_IN);
  int ob = kjob_buf(job, (size_t)rows * 4, KB_OUT), gb = kjob_buf(job, n * 2, KB_OUT);
  float *rl = kjob_ref(job, ob, KC_F32, (size_t)rows, 1e-5, 2e-5); /* float logsumexp */
  bf_chk *h = job->priv = malloc(sizeof *h);
  double *lse = malloc((size_t)rows * sizeof *lse);
  uint16_t *hl = job->buf[lb].host;
  if (yb < 0 || rl == NULL || h == NULL || lse == NULL || hl == NULL) {
    free(lse);
    return -1;
  }
  int32_t *lab = job->buf[yb].host;
  /* Logits k / 32, |k| <= 256 (exact in bf16), the label's raised. */
  for (int i = 0; i < rows; ++i) {
    lab[i] = (int32_t)krng_below(&r, (uint32_t)vocab);
    for (int v = 0; v < vocab; ++v) {
      int k = (int)krng_below(&r, 385) - 192;
      if (v == lab[i]) k = 128 + (int)krng_below(&r, 128);
      hl[(size_t)i * vocab + v] = bf16_exact((float)k / 32.0f);
    }
  }
  for (int i = 0; i < rows; ++i) {
    double mx = -1e300, s = 0;
    for (int v = 0; v < vocab; ++v) mx = fmax(mx, from_bf16(hl[(size_t)i * vocab + v]));
    for (int v = 0; v < vocab; ++v) s += exp(from_bf16(hl[(size_t)i * vocab + v]) - mx);
    lse[i] = mx + log(s);
    rl[i] = (float)(lse[i] - from_bf16(hl[(size_t)i * vocab + lab[i]]));
  }
  h->buf = gb;
  h->n = n;
  h->count = n < X_SAMPLES ? n : X_SAMPLES;
  h->rtol = 1e-2; /* one bf16 rounding */
  h->atol = 1e-9;
  for (size_t c = 0; c < h->count; ++c) {
    const size_t e = kspread(c, h->count, n), i = e / vocab;
    const int v = (int)(e % vocab);
    h->ref[c] = (float)(exp(from_bf16(hl[e]) - lse[i]) - (v == lab[i]));
  }
  free(lse);
  job->check = bf_check;
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, yb);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, gb);
  kjob_arg_i32(job, rows);
  kjob_arg_i32(job, vocab);
  kjob_grid(job, (size_t)rows / 8, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- batched Cholesky ------------------------------------------------------------------------ */

enum { CH_CHECKED = 8 };

/* In-place Cholesky (lower) in double, the upper triangle zeroed. */
static void cholesky(double *m, int n) {
  for (int k = 0; k < n; ++k) {
    m[k * n + k] = sqrt(m[k * n + k]);
    for (int i = k + 1; i < n; ++i) m[i * n + k] /= m[k * n + k];
    for (int i = k + 1; i < n; ++i)
      for (int j = k + 1; j <= i; ++j) m[i * n + j] -= m[i * n + k] * m[j * n + k];
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) m[i * n + j] = 0;
}

static int chol_job(kjob *job, const kdesc *d, ksize size) {
  const int batch = size == KSIZE_FULL ? 136 : 3, n = size == KSIZE_FULL ? 200 : 48;
  const size_t nn = (size_t)n * n;
  const int nchk = batch < CH_CHECKED ? batch : CH_CHECKED;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "x_chol");
  job->dyn_local = nn * 4; /* 160,000 bytes at n = 200: one block per SM */
  int ab = kjob_buf(job, batch * nn * 4, KB_IN), lb = kjob_buf(job, batch * nn * 4, KB_OUT);
  float *ha = job->buf[ab].host;
  /* diagonally dominant, condition number near 1 */
  float *ref = kjob_ref(job, lb, KC_F32, (size_t)nchk * nn, 1e-4, 1e-5);
  size_t *smp = ref ? kjob_sample(job, lb) : NULL;
  double *m = malloc(nn * sizeof *m);
  if (ha == NULL || smp == NULL || m == NULL) {
    free(m);
    return -1;
  }
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j) {
        const float v =
            i == j ? (float)(n + krng_uniform(&r, 1, 2)) : (float)krng_uniform(&r, -1, 1);
        ha[b * nn + (size_t)i * n + j] = ha[b * nn + (size_t)j * n + i] = v;
      }
  for (int q = 0; q < nchk; ++q) {
    const size_t b = (size_t)q * (batch - 1) / (nchk > 1 ? nchk - 1 : 1);
    for (size_t e = 0; e < nn; ++e) m[e] = ha[b * nn + e];
    cholesky(m, n);
    for (size_t e = 0; e < nn; ++e) {
      ref[q * nn + e] = (float)m[e];
      smp[q * nn + e] = b * nn + e;
    }
  }
  free(m);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, lb);
  kjob_arg_i32(job, n);
  kjob_grid(job, (size_t)batch, 1, 1, 1024, 1, 1);
  return 0;
}

/* ---- push PageRank ------------------------------------------------------------------------ */

static int pagerank_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 1 << 22 : 4096, cap = size == KSIZE_FULL ? 50000 : 500;
  const float damping = 0.85f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "x_pagerank_push");
  int rp = xbuf_u32(job, (size_t)n + 1, KB_IN);
  if (rp < 0) return -1;
  int32_t *rowptr = job->buf[rp].host;
  /* Out-degrees P(deg >= x) ~ x^-1.1 (mean about 7), at most cap. */
  for (int u = 0; u < n; ++u) {
    double deg = floor(pow(krng_uniform(&r, 1e-12, 1), -1 / 1.1));
    rowptr[u + 1] = rowptr[u] + (int32_t)(deg > cap ? cap : deg);
  }
  const size_t m = (size_t)rowptr[n];
  int cb = xbuf_u32(job, m, KB_IN), rb = xin_f32(job, (size_t)n, &r, 0.5 / n, 1.5 / n);
  int nb = kjob_buf(job, (size_t)n * 4, KB_INOUT);
  /* float sums of a few positive terms in any order */
  float *ref = xref_sampled(job, nb, KC_F32, (size_t)n, 1e-5, 1e-12);
  double *acc = calloc((size_t)n, sizeof *acc);
  float *hn = job->buf[nb].host;
  if (cb < 0 || rb < 0 || ref == NULL || acc == NULL || hn == NULL) {
    free(acc);
    return -1;
  }
  int32_t *col = job->buf[cb].host;
  const float *rank = job->buf[rb].host;
  for (size_t e = 0; e < m; ++e) col[e] = (int32_t)krng_below(&r, (uint32_t)n);
  for (int u = 0; u < n; ++u) {
    hn[u] = (1 - damping) / n;
    if (rowptr[u + 1] == rowptr[u]) continue;
    const float c = damping * rank[u] / (float)(rowptr[u + 1] - rowptr[u]);
    for (int32_t e = rowptr[u]; e < rowptr[u + 1]; ++e) acc[col[e]] += c;
  }
  for (size_t s = 0; s < job->buf[nb].count; ++s) {
    const size_t v = job->buf[nb].sample[s];
    ref[s] = (float)(hn[v] + acc[v]);
  }
  free(acc);
  kjob_arg_buf(job, rp);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, rb);
  kjob_arg_buf(job, nb);
  kjob_arg_f32(job, damping);
  kjob_arg_i32(job, n);
  kjob_grid1(job, (size_t)n, 256);
  return 0;
}

int xsetup_cuda(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case XCU_FLASH:
      return flash_job(job, d, size);
    case XCU_DMMA:
      return dmma_job(job, d, size);
    case XCU_XENT:
      return xent_job(job, d, size);
    case XCU_CHOL:
      return chol_job(job, d, size);
    case XCU_PAGERANK:
      return pagerank_job(job, d, size);
  }
  return -1;
}
