/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ml.c: host half of ml.cl (GEMMs, softmax, layer norm, attention,
 * convolution).  References are computed in double on sampled outputs. */
#include <math.h>
#include <stdlib.h>

#include "validation.h"

/* Float dot products of length k drift from the double reference by about
 * sqrt(k) roundings of the partial sums, each at most |sum| <= k for inputs
 * in [-1, 1); 1e-6 * k is a wide margin that a wrong index would still
 * exceed by orders of magnitude. */
static double dot_atol(int k) { return 1e-6 * k; }

/* Fills n floats of a new KB_IN buffer uniformly in [lo, hi). */
static int in_f32(kjob *job, size_t n, krng *r, double lo, double hi) {
  int b = kjob_buf(job, n * 4, KB_IN);
  if (job->buf[b].host == NULL) return -1;
  kfill_f32(job->buf[b].host, n, r, lo, hi);
  return b;
}

static int sgemm_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 2048 : 128;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "v_sgemm_tiled");
  int a = in_f32(job, (size_t)n * n, &r, -1, 1);
  int b = in_f32(job, (size_t)n * n, &r, -1, 1);
  int c = kjob_buf(job, (size_t)n * n * 4, KB_OUT);
  float *ref = vref_sampled(job, c, KC_F32, (size_t)n * n, 1e-5, dot_atol(n));
  if (a < 0 || b < 0 || ref == NULL) return -1;
  const float *ha = job->buf[a].host, *hb = job->buf[b].host;
  for (size_t s = 0; s < job->buf[c].count; ++s) {
    size_t i = job->buf[c].sample[s] / n, j = job->buf[c].sample[s] % n;
    double acc = 0.0;
    for (int k = 0; k < n; ++k) acc += (double)ha[i * n + k] * hb[(size_t)k * n + j];
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, n);
  kjob_grid(job, n / 64, n / 64, 1, 16, 16, 1);
  return 0;
}

static int tn_splitk_job(kjob *job, const kdesc *d, ksize size) {
  const int chunk = size == KSIZE_FULL ? 2048 : 512;
  const int groups = size == KSIZE_FULL ? 512 : 8;
  const size_t m = (size_t)chunk * groups, np = (size_t)groups * 64 * 64;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "v_gemm_tn_splitk");
  int a = in_f32(job, m * 64, &r, -1, 1), b = in_f32(job, m * 64, &r, -1, 1);
  int p = kjob_buf(job, np * 4, KB_OUT);
  float *ref = vref_sampled(job, p, KC_F32, np, 1e-5, dot_atol(chunk));
  if (a < 0 || b < 0 || ref == NULL) return -1;
  const float *ha = job->buf[a].host, *hb = job->buf[b].host;
  for (size_t s = 0; s < job->buf[p].count; ++s) {
    size_t e = job->buf[p].sample[s], g = e / 4096, i = e % 4096 / 64, j = e % 64;
    double acc = 0.0;
    for (size_t row = g * chunk; row < (g + 1) * chunk; ++row)
      acc += (double)ha[row * 64 + i] * hb[row * 64 + j];
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, p);
  kjob_arg_i32(job, chunk);
  kjob_grid(job, groups, 1, 1, 16, 16, 1);
  return 0;
}

static int batched16_job(kjob *job, const kdesc *d, ksize size) {
  const size_t batch = size == KSIZE_FULL ? 65536 : 64, n = batch * 256;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "v_batched_gemm16");
  int a = in_f32(job, n, &r, -1, 1), b = in_f32(job, n, &r, -1, 1);
  int c = kjob_buf(job, n * 4, KB_OUT);
  float *ref = vref_sampled(job, c, KC_F32, n, 1e-5, dot_atol(16));
  if (a < 0 || b < 0 || ref == NULL) return -1;
  const float *ha = job->buf[a].host, *hb = job->buf[b].host;
  for (size_t s = 0; s < job->buf[c].count; ++s) {
    size_t e = job->buf[c].sample[s], m = e / 256 * 256;
    size_t i = e % 256 / 16, j = e % 16;
    double acc = 0.0;
    for (size_t k = 0; k < 16; ++k) acc += (double)ha[m + i * 16 + k] * hb[m + k * 16 + j];
    ref[s] = (float)acc;
  }
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_grid(job, batch, 1, 1, 16, 16, 1);
  return 0;
}

/* Softmax shapes: row length, rows at full size, work-group size.  The
 * 65536-wide case has 265 rows of 1024-wide work-groups: two fit on an SM,
 * so 132 SMs hold 264 and the last row runs alone. */
static const struct {
  int len, rows_full, local;
} SOFTMAX[] = {{1024, 32768, 256}, {8192, 4096, 512}, {65536, 265, 1024}};

static int softmax_job(kjob *job, const kdesc *d, ksize size, int shape) {
  const int len = size == KSIZE_FULL ? SOFTMAX[shape].len : 1024;
  const int rows = size == KSIZE_FULL ? SOFTMAX[shape].rows_full : 3;
  const size_t n = (size_t)rows * len;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "v_softmax_rows");
  /* Logits spread over [-8, 8) so that the max shift matters. */
  int x = in_f32(job, n, &r, -8, 8), y = kjob_buf(job, n * 4, KB_OUT);
  /* exp differs by a few ulp between libraries and the sums differ in
   * order: 1e-5 relative, atol far below the smallest probabilities. */
  float *ref = vref_sampled(job, y, KC_F32, n, 1e-5, 1e-12);
  if (x < 0 || ref == NULL) return -1;
  const float *hx = job->buf[x].host, *row = NULL;
  double m = 0.0, sum = 0.0;
  for (size_t s = 0; s < job->buf[y].count; ++s) {
    const size_t e = job->buf[y].sample[s];
    if (row != hx + e / len * len) { /* samples ascend: one pass per row */
      row = hx + e / len * len;
      m = -INFINITY;
      sum = 0.0;
      for (int i = 0; i < len; ++i) m = fmax(m, row[i]);
      for (int i = 0; i < len; ++i) sum += exp(row[i] - m);
    }
    ref[s] = (float)(exp(hx[e] - m) / sum);
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, y);
  kjob_arg_i32(job, len);
  kjob_grid(job, rows, 1, 1, SOFTMAX[shape].local, 1, 1);
  return 0;
}

static int layernorm_job(kjob *job, const kdesc *d, ksize size) {
  const int h = 768, rows = size == KSIZE_FULL ? 65536 : 32;
  const size_t n = (size_t)rows * h;
  const float eps = 1e-5f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "v_layernorm");
  int x = in_f32(job, n, &r, -2, 3), g = in_f32(job, h, &r, 0.5, 1.5);
  int be = in_f32(job, h, &r, -0.5, 0.5), y = kjob_buf(job, n * 4, KB_OUT);
  /* Outputs are O(1); rsqrt is approximate to 2 ulp in both languages and
   * the row sums are reordered. */
  float *ref = vref_sampled(job, y, KC_F32, n, 1e-4, 1e-5);
  if (x < 0 || g < 0 || be < 0 || ref == NULL) return -1;
  const float *hx = job->buf[x].host, *hg = job->buf[g].host, *hb = job->buf[be].host;
  for (size_t s = 0; s < job->buf[y].count; ++s) {
    size_t e = job->buf[y].sample[s], col = e % h;
    const float *row = hx + e / h * h;
    double mean = 0.0, var = 0.0;
    for (int i = 0; i < h; ++i) mean += row[i];
    mean /= h;
    for (int i = 0; i < h; ++i) var += (row[i] - mean) * (row[i] - mean);
    ref[s] = (float)((row[col] - mean) / sqrt(var / h + eps) * hg[col] + hb[col]);
  }
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, g);
  kjob_arg_buf(job, be);
  kjob_arg_buf(job, y);
  kjob_arg_f32(job, eps);
  kjob_grid(job, rows, 1, 1, 256, 1, 1);
  return 0;
}

/* One output row of attention for query row qi of a head. */
static void attention_row(const float *q, const float *k, const float *v, int seq, size_t qi,
                          double *w, float *out) {
  double m = -INFINITY, sum = 0.0;
  for (int j = 0; j < seq; ++j) {
    double s = 0.0;
    for (int c = 0; c < 64; ++c) s += (double)q[qi * 64 + c] * k[(size_t)j * 64 + c];
    w[j] = s / 8.0; /* 1/sqrt(64) */
    m = fmax(m, w[j]);
  }
  for (int j = 0; j < seq; ++j) sum += (w[j] = exp(w[j] - m));
  for (int c = 0; c < 64; ++c) {
    double acc = 0.0;
    for (int j = 0; j < seq; ++j) acc += w[j] * v[(size_t)j * 64 + c];
    out[c] = (float)(acc / sum);
  }
}

static int attention_job(kjob *job, const kdesc *d, ksize size) {
  const int seq = size == KSIZE_FULL ? 1024 : 64;
  const int heads = size == KSIZE_FULL ? 32 : 2, rows = 64;
  const size_t n = (size_t)heads * seq * 64;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", "v_attention_head");
  int q = in_f32(job, n, &r, -1, 1), k = in_f32(job, n, &r, -1, 1);
  int v = in_f32(job, n, &r, -1, 1), o = kjob_buf(job, n * 4, KB_OUT);
  /* Outputs are convex combinations of values in [-1, 1): float rounding of
   * the scores and the online rescaling stay near 1e-6. */
  float *ref = kjob_ref(job, o, KC_F32, (size_t)rows * 64, 1e-4, 1e-5);
  size_t *smp = ref ? kjob_sample(job, o) : NULL;
  double *w = malloc(seq * sizeof *w);
  if (q < 0 || k < 0 || v < 0 || smp == NULL || w == NULL) {
    free(w);
    return -1;
  }
  for (int s = 0; s < rows; ++s) {
    size_t row = kspread(s, rows, (size_t)heads * seq), hb = row / seq * seq;
    attention_row((float *)job->buf[q].host + hb * 64, (float *)job->buf[k].host + hb * 64,
                  (float *)job->buf[v].host + hb * 64, seq, row - hb, w, ref + s * 64);
    for (int c = 0; c < 64; ++c) smp[s * 64 + c] = row * 64 + c;
  }
  free(w);
  kjob_arg_buf(job, q);
  kjob_arg_buf(job, k);
  kjob_arg_buf(job, v);
  kjob_arg_buf(job, o);
  kjob_arg_i32(job, seq);
  kjob_arg_f32(job, 0.125f);
  kjob_grid(job, seq / 32, heads, 1, 128, 1, 1);
  return 0;
}

/* One output of the 'same' convolution at flat NCHW index e. */
static double conv_at(const float *in, const float *w, int c, int hw, int rad, size_t e) {
  const int x = e % hw, y = e / hw % hw, o = e / ((size_t)hw * hw) % c;
  const size_t img = e / ((size_t)hw * hw * c), taps = (2 * rad + 1);
  double acc = 0.0;
  for (int ci = 0; ci < c; ++ci)
    for (int ky = -rad; ky <= rad; ++ky)
      for (int kx = -rad; kx <= rad; ++kx) {
        if (y + ky < 0 || y + ky >= hw || x + kx < 0 || x + kx >= hw) continue;
        acc += (double)in[((img * c + ci) * hw + y + ky) * hw + x + kx] *
               w[((size_t)(o * c + ci) * taps + ky + rad) * taps + kx + rad];
      }
  return acc;
}

static int conv_job(kjob *job, const kdesc *d, ksize size, int taps) {
  const int batch = size == KSIZE_FULL ? 8 : 1, c = size == KSIZE_FULL ? 64 : 8;
  const int hw = size == KSIZE_FULL ? 128 : 32;
  const size_t n = (size_t)batch * c * hw * hw;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "ml.cl", taps == 3 ? "v_conv2d_3x3" : "v_conv2d_5x5");
  int in = in_f32(job, n, &r, -1, 1);
  int w = in_f32(job, (size_t)c * c * taps * taps, &r, -0.2, 0.2);
  int out = kjob_buf(job, n * 4, KB_OUT);
  float *ref = vref_sampled(job, out, KC_F32, n, 1e-5, dot_atol(c * taps * taps));
  if (in < 0 || w < 0 || ref == NULL) return -1;
  for (size_t s = 0; s < job->buf[out].count; ++s)
    ref[s] = (float)conv_at(job->buf[in].host, job->buf[w].host, c, hw, taps / 2,
                            job->buf[out].sample[s]);
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, w);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, c);
  kjob_arg_i32(job, c);
  kjob_arg_i32(job, hw);
  kjob_arg_i32(job, hw);
  kjob_grid(job, hw / 16, hw / 16, (size_t)batch * c / 8, 16, 16, 1);
  return 0;
}

int vsetup_ml(kjob *job, const kdesc *d, ksize size) {
  switch (d->param) {
    case VML_SGEMM:
      return sgemm_job(job, d, size);
    case VML_TN_SPLITK:
      return tn_splitk_job(job, d, size);
    case VML_BATCHED16:
      return batched16_job(job, d, size);
    case VML_SOFTMAX_1K:
      return softmax_job(job, d, size, 0);
    case VML_SOFTMAX_8K:
      return softmax_job(job, d, size, 1);
    case VML_SOFTMAX_265:
      return softmax_job(job, d, size, 2);
    case VML_LAYERNORM:
      return layernorm_job(job, d, size);
    case VML_ATTENTION:
      return attention_job(job, d, size);
    case VML_CONV3:
      return conv_job(job, d, size, 3);
    case VML_CONV5:
      return conv_job(job, d, size, 5);
  }
  return -1;
}
