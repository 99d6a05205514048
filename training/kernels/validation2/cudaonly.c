/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.c: host half of cudaonly.cu (CUDA only: fp16 GEMV, tf32 and
 * int8 tensor-core GEMMs, dp4a GEMM, fp16 depthwise convolution, fp16
 * causal attention scores, embedding backward with float atomics, batched
 * FP64 inversion).  Inputs are chosen so that most results are exact in
 * fp32 whatever the order of the sums; the host builds 16-bit floats
 * itself. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation2.h"

/* ---- half precision on the host ------------------------------------------------ */

/* Half bits of v rounded to nearest, ties to even, for v zero or of
 * magnitude in half's normal range [2^-14, 65504]; -inf stays -inf. */
static uint16_t to_half(float v) {
  if (v == 0.0f) return 0;
  if (isinf(v)) return v < 0 ? 0xFC00 : 0x7C00;
  int e;
  const double m = frexp(fabs((double)v), &e); /* |v| = m 2^e, m in [0.5, 1) */
  double q = nearbyint(ldexp(m, 11));          /* 11 significant bits */
  if (q == 2048.0) {                           /* rounded up to the next power */
    q = 1024.0;
    ++e;
  }
  const uint16_t sign = v < 0 ? 0x8000 : 0;
  return sign | (uint16_t)((e + 14) << 10) | (uint16_t)((int)q - 1024);
}

/* The value of half bits h (NaN for the all-ones poison). */
static float from_half(uint16_t h) {
  const int e = h >> 10 & 31, mant = h & 1023;
  const float mag = e == 0    ? ldexpf((float)mant, -24)
                    : e == 31 ? (mant ? NAN : INFINITY)
                              : ldexpf((float)(mant | 1024), e - 25);
  return h & 0x8000 ? -mag : mag;
}

/* Half outputs are compared here: kbuf has no half comparison. */
typedef struct half_chk {
  int buf;
  size_t n, count;
  double rtol, atol;
  float ref[W_SAMPLES];
} half_chk;

static int half_check(const kjob *job, char *msg, size_t size) {
  const half_chk *h = job->priv;
  const uint16_t *got = job->buf[h->buf].result;
  for (size_t c = 0; c < h->count; ++c) {
    const size_t i = kspread(c, h->count, h->n);
    const double g = from_half(got[i]), want = h->ref[c];
    const int ok = isinf(want) ? g == want : fabs(g - want) <= h->atol + h->rtol * fabs(want);
    if (!ok) {
      snprintf(msg, size, "half element %zu: got %.6g, expected %.6g", i, g, want);
      return -1;
    }
  }
  return 0;
}

static half_chk *half_chk_new(kjob *job, int buf, size_t n, double rtol, double atol) {
  half_chk *h = job->priv = malloc(sizeof *h);
  if (h == NULL) return NULL;
  h->buf = buf;
  h->n = n;
  h->count = n < W_SAMPLES ? n : W_SAMPLES;
  h->rtol = rtol;
  h->atol = atol;
  job->check = half_check;
  return h;
}

/* k / den for k uniform in [-lim, lim). */
static float grid_value(krng *r, int lim, float den) {
  return (float)((int)krng_below(r, 2u * lim) - lim) / den;
}

/* Fills n halves with grid values k / den (k uniform in [-lim, lim), lim
 * at most 64), converting each of the few values once. */
static void fill_grid_half(uint16_t *h, size_t n, krng *r, int lim, float den) {
  uint16_t tab[128];
  for (int k = 0; k < 2 * lim; ++k) tab[k] = to_half((float)(k - lim) / den);
  for (size_t i = 0; i < n; ++i) h[i] = tab[krng_below(r, 2u * lim)];
}

/* ---- fp16 GEMV ---------------------------------------------------------------- */

static int gemv_job(kjob *job, const kdesc *d, ksize size) {
  const int rows = size == KSIZE_FULL ? 28672 : 64, k = size == KSIZE_FULL ? 8192 : 256;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "w_gemv_f16");
  int wb = kjob_buf(job, (size_t)rows * k * 2, KB_IN), xb = kjob_buf(job, (size_t)k * 2, KB_IN);
  int yb = kjob_buf(job, (size_t)rows * 4, KB_OUT);
  uint16_t *hw = job->buf[wb].host, *hx = job->buf[xb].host;
  /* Multiples of 2^-8 below 1/16: products and their sums exact in fp32. */
  float *ref = wref_sampled(job, yb, KC_F32, rows, 0, 1e-6);
  float *fx = malloc((size_t)k * sizeof *fx);
  if (hw == NULL || hx == NULL || ref == NULL || fx == NULL) {
    free(fx);
    return -1;
  }
  for (int j = 0; j < k; ++j) hx[j] = to_half(fx[j] = grid_value(&r, 16, 256));
  fill_grid_half(hw, (size_t)rows * k, &r, 16, 256);
  for (size_t s = 0; s < job->buf[yb].count; ++s) {
    const size_t row = job->buf[yb].sample[s];
    double acc = 0;
    for (int j = 0; j < k; ++j) acc += (double)from_half(hw[row * k + j]) * fx[j];
    ref[s] = (float)acc;
  }
  free(fx);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, rows);
  kjob_arg_i32(job, k);
  kjob_grid(job, rows / 8, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- tf32 GEMM -------------------------------------------------------------------- */

static int tf32_job(kjob *job, const kdesc *d, ksize size) {
  const int m = size == KSIZE_FULL ? 4096 : 128, n = size == KSIZE_FULL ? 2048 : 64;
  const int k = size == KSIZE_FULL ? 4096 : 64;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "w_wmma_tf32");
  int a = kjob_buf(job, (size_t)m * k * 4, KB_IN), b = kjob_buf(job, (size_t)k * n * 4, KB_IN);
  int c = kjob_buf(job, (size_t)m * n * 4, KB_OUT);
  float *ha = job->buf[a].host, *hb = job->buf[b].host;
  /* k/16, |k| <= 32: exact in tf32; products are multiples of 2^-8 of size
   * <= 4, so the sums are exact in fp32.  The tolerance allows one fp32
   * rounding at the largest magnitude, should the tensor cores' additions
   * not be exact IEEE ones. */
  float *ref = wref_sampled(job, c, KC_F32, (size_t)m * n, 0.0, 1e-3);
  if (ha == NULL || hb == NULL || ref == NULL) return -1;
  for (size_t i = 0; i < (size_t)m * k; ++i) ha[i] = grid_value(&r, 32, 16);
  for (size_t i = 0; i < (size_t)k * n; ++i) hb[i] = grid_value(&r, 32, 16);
  for (size_t s = 0; s < job->buf[c].count; ++s) {
    const size_t i = job->buf[c].sample[s] / n, j = job->buf[c].sample[s] % n;
    double acc = 0;
    for (int kk = 0; kk < k; ++kk) acc += (double)ha[i * k + kk] * hb[(size_t)kk * n + j];
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, k);
  kjob_grid(job, n / 64, m / 128, 1, 256, 1, 1);
  return 0;
}

/* ---- int8 GEMMs --------------------------------------------------------------------- */

static int int8_job(kjob *job, const kdesc *d, ksize size, int tensor) {
  const int full = size == KSIZE_FULL;
  const int m = full ? 4096 : 64, n = full ? 4096 : 128, k = full ? (tensor ? 4096 : 2048) : 64;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", tensor ? "w_imma_int8" : "w_dp4a_int8");
  int a = kjob_buf(job, (size_t)m * k, KB_IN), b = kjob_buf(job, (size_t)n * k, KB_IN);
  int c = kjob_buf(job, (size_t)m * n * 4, KB_OUT);
  int8_t *ha = job->buf[a].host, *hb = job->buf[b].host;
  uint32_t *ref = wref_sampled(job, c, KC_U32, (size_t)m * n, 0, 0); /* exact */
  if (ha == NULL || hb == NULL || ref == NULL) return -1;
  for (size_t i = 0; i < (size_t)m * k; ++i) ha[i] = (int8_t)((int)krng_below(&r, 128) - 64);
  for (size_t i = 0; i < (size_t)n * k; ++i) hb[i] = (int8_t)((int)krng_below(&r, 128) - 64);
  for (size_t s = 0; s < job->buf[c].count; ++s) {
    const size_t i = job->buf[c].sample[s] / n, j = job->buf[c].sample[s] % n;
    int32_t acc = 0;
    for (int kk = 0; kk < k; ++kk) acc += (int32_t)ha[i * k + kk] * hb[j * k + kk];
    ref[s] = (uint32_t)acc;
  }
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, k);
  if (tensor)
    kjob_grid(job, n / 128, m / 64, 1, 256, 1, 1);
  else
    kjob_grid(job, n / 64, m / 64, 1, 16, 16, 1);
  return 0;
}

/* ---- depthwise convolution ---------------------------------------------------------- */

static int dwconv_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const int nb = full ? 128 : 1, h = full ? 56 : 9, w = full ? 56 : 9, c = full ? 128 : 16;
  const size_t n = (size_t)nb * h * w * c;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "w_dwconv7_f16");
  int ib = kjob_buf(job, n * 2, KB_IN), wb = kjob_buf(job, (size_t)49 * c * 2, KB_IN);
  int ob = kjob_buf(job, n * 2, KB_OUT);
  uint16_t *hi = job->buf[ib].host, *hw = job->buf[wb].host;
  /* Sums of 49 products of multiples of 2^-6 and 2^-8: exact in fp32, then
   * rounded once to half, as the host does. */
  half_chk *hc = half_chk_new(job, ob, n, 0, 0);
  if (hi == NULL || hw == NULL || hc == NULL) return -1;
  fill_grid_half(hi, n, &r, 64, 64);
  fill_grid_half(hw, (size_t)49 * c, &r, 32, 256);
  for (size_t s = 0; s < hc->count; ++s) {
    const size_t e = kspread(s, hc->count, n), ch = e % c;
    const int x = (int)(e / c % w), y = (int)(e / c / w % h);
    const size_t img = e / c / w / h;
    double acc = 0;
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx) {
        if (y + dy < 0 || y + dy >= h || x + dx < 0 || x + dx >= w) continue;
        acc += (double)from_half(hi[((img * h + y + dy) * w + x + dx) * c + ch]) *
               from_half(hw[((dy + 3) * 7 + dx + 3) * c + ch]);
      }
    hc->ref[s] = from_half(to_half((float)acc));
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, h);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, c / 2);
  kjob_arg_i32(job, (int)(n / 2));
  kjob_grid1(job, n / 2, 256);
  return 0;
}

/* ---- causal attention scores ----------------------------------------------------------- */

static int scores_job(kjob *job, const kdesc *d, ksize size) {
  const int heads = size == KSIZE_FULL ? 32 : 2, seq = size == KSIZE_FULL ? 2048 : 128;
  const size_t nqk = (size_t)heads * seq * 64, ns = (size_t)heads * seq * seq;
  const float scale = 0.125f; /* 1/sqrt(64) */
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "w_attn_scores_f16");
  int qb = kjob_buf(job, nqk * 2, KB_IN), kb = kjob_buf(job, nqk * 2, KB_IN);
  int sb = kjob_buf(job, ns * 2, KB_OUT);
  uint16_t *hq = job->buf[qb].host, *hk = job->buf[kb].host;
  /* Dot products of multiples of 1/16 are exact in fp32; the scale is a
   * power of two; the one rounding to half is repeated here. */
  half_chk *hc = half_chk_new(job, sb, ns, 0, 0);
  if (hq == NULL || hk == NULL || hc == NULL) return -1;
  fill_grid_half(hq, nqk, &r, 32, 16);
  fill_grid_half(hk, nqk, &r, 32, 16);
  for (size_t s = 0; s < hc->count; ++s) {
    const size_t e = kspread(s, hc->count, ns), hd = e / ((size_t)seq * seq);
    const size_t qi = e / seq % seq, kj = e % seq;
    if (kj > qi) {
      hc->ref[s] = -INFINITY;
      continue;
    }
    double acc = 0;
    for (int c = 0; c < 64; ++c)
      acc +=
          (double)from_half(hq[(hd * seq + qi) * 64 + c]) * from_half(hk[(hd * seq + kj) * 64 + c]);
    hc->ref[s] = from_half(to_half((float)(acc * scale)));
  }
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, seq);
  kjob_arg_f32(job, scale);
  kjob_grid(job, seq / 128, seq / 64, heads, 256, 1, 1);
  return 0;
}

/* ---- embedding backward ------------------------------------------------------------------- */

static int embed_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL;
  const int vocab = full ? 50304 : 512, dim = full ? 256 : 64, tokens = full ? 262144 : 1024;
  const size_t ng = (size_t)tokens * dim, nt = (size_t)vocab * dim;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "w_embed_bwd");
  int ib = kjob_buf(job, (size_t)tokens * 4, KB_IN);
  int gb = kjob_buf(job, ng * 4, KB_IN), tb = kjob_buf(job, nt * 4, KB_INOUT);
  int32_t *ids = job->buf[ib].host;
  float *go = job->buf[gb].host;
  /* Multiples of 2^-8 below 1/4: the sums (a few thousand terms at most)
   * are exact in fp32 in any order. */
  float *ref = wref_sampled(job, tb, KC_F32, nt, 0, 0);
  double *cdf = malloc((size_t)vocab * sizeof *cdf);
  int32_t *start = calloc((size_t)vocab + 1, sizeof *start);
  int32_t *order = malloc((size_t)tokens * sizeof *order);
  int rc = -1;
  if (ids == NULL || go == NULL || job->buf[tb].host == NULL || ref == NULL || cdf == NULL ||
      start == NULL || order == NULL)
    goto out;
  /* Token ids Zipf(1): the most frequent token is about 9% of them. */
  double z = 0;
  for (int v = 0; v < vocab; ++v) cdf[v] = z += 1.0 / (v + 1);
  for (int t = 0; t < tokens; ++t) {
    const double u = krng_uniform(&r, 0, z);
    int lo = 0, hi = vocab - 1;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (cdf[mid] < u)
        lo = mid + 1;
      else
        hi = mid;
    }
    ids[t] = lo;
    start[lo + 1]++;
  }
  for (size_t i = 0; i < ng; ++i) go[i] = grid_value(&r, 64, 256);
  for (int v = 0; v < vocab; ++v) start[v + 1] += start[v];
  for (int t = 0; t < tokens; ++t) order[start[ids[t]]++] = t;
  for (int v = vocab; v > 0; --v) start[v] = start[v - 1];
  start[0] = 0;
  for (size_t s = 0; s < job->buf[tb].count; ++s) {
    const size_t e = job->buf[tb].sample[s], v = e / dim, c = e % dim;
    double acc = 0; /* the table starts at zero */
    for (int32_t k = start[v]; k < start[v + 1]; ++k) acc += go[(size_t)order[k] * dim + c];
    ref[s] = (float)acc;
  }
  rc = 0;
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, tb);
  kjob_arg_i32(job, dim);
  kjob_arg_i32(job, (int)ng);
  kjob_grid1(job, ng, 256);
out:
  free(cdf);
  free(start);
  free(order);
  return rc;
}

/* ---- batched inversion -------------------------------------------------------------------------
 */

enum { INV_N = 116, INV_CHECKED = 8 };

/* In-place Gauss-Jordan inversion without pivoting, in double. */
static void gj_invert(double *m, int n) {
  for (int k = 0; k < n; ++k) {
    const double piv = m[k * n + k];
    m[k * n + k] = 1.0;
    for (int j = 0; j < n; ++j) m[k * n + j] /= piv;
    for (int i = 0; i < n; ++i) {
      if (i == k) continue;
      const double f = m[i * n + k];
      m[i * n + k] = 0.0;
      for (int j = 0; j < n; ++j) m[i * n + j] -= f * m[k * n + j];
    }
  }
}

static int inv_job(kjob *job, const kdesc *d, ksize size) {
  const int batch = size == KSIZE_FULL ? 265 : 3, n = INV_N, nn = n * n;
  const int nchk = batch < INV_CHECKED ? batch : INV_CHECKED;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "w_batched_inv_f64");
  job->dyn_local = (size_t)(nn + n) * 8; /* 108,576 bytes: two blocks per SM */
  int ab = kjob_buf(job, (size_t)batch * nn * 8, KB_IN);
  int ob = kjob_buf(job, (size_t)batch * nn * 8, KB_OUT);
  double *ha = job->buf[ab].host;
  /* Diagonally dominant (condition number near 1): the two elimination
   * orders agree to a few ulp of the largest entries. */
  double *ref = kjob_ref(job, ob, KC_F64, (size_t)nchk * nn, 1e-10, 1e-14);
  size_t *smp = ref ? kjob_sample(job, ob) : NULL;
  if (ha == NULL || smp == NULL) return -1;
  for (int b = 0; b < batch; ++b)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        ha[(size_t)b * nn + i * n + j] =
            i == j ? n + krng_uniform(&r, 1, 2) : krng_uniform(&r, -1, 1);
  for (int q = 0; q < nchk; ++q) {
    const size_t b = (size_t)q * (batch - 1) / (nchk > 1 ? nchk - 1 : 1);
    memcpy(ref + (size_t)q * nn, ha + b * nn, (size_t)nn * 8);
    gj_invert(ref + (size_t)q * nn, n);
    for (int e = 0; e < nn; ++e) smp[(size_t)q * nn + e] = b * nn + e;
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_grid(job, batch, 1, 1, 512, 1, 1);
  return 0;
}

int wsetup_cuda(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case WCU_GEMV_F16:
      return gemv_job(job, d, size);
    case WCU_TF32:
      return tf32_job(job, d, size);
    case WCU_IMMA:
      return int8_job(job, d, size, 1);
    case WCU_DP4A:
      return int8_job(job, d, size, 0);
    case WCU_DWCONV:
      return dwconv_job(job, d, size);
    case WCU_SCORES:
      return scores_job(job, d, size);
    case WCU_EMBED_BWD:
      return embed_job(job, d, size);
    case WCU_INV_F64:
      return inv_job(job, d, size);
  }
  return -1;
}
