/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tc.c: host half of tc.cu.  d->param is TC_PARAM(kind, shape), shape an
 * index into SHAPES for the GEMMs.
 *
 * GEMM inputs are q / 4 with integer q in [-4, 4]: exact in fp16, bf16 and
 * tf32, and every product and sum of up to 16384 of them is exact in fp32,
 * so the tensor-core results must equal the integer reference.  The half
 * FMA chains are repeated on the host exactly: an fp16 FMA is the exact
 * x a + b (a double holds it) rounded once to fp16. */
#include "suite.h"

#include <math.h>
#include <string.h>

#define TC_EXACT 0.0
#define TC_CHECK_ROWS 16
#define TC_SAMPLES 65536
#define TC_HA (-0.9990234375f) /* -(1 - 2^-10), exact in fp16 */
#define TC_HB 0.0009765625f    /* 2^-10 */
#define TC_MIX_S 1.5f

typedef struct tc_shape {
  int m, n, k;
} tc_shape;

/* 1024^3, 2048^3, 4096^3, and 256 x 256 x 16384: 64 blocks of 4 warps,
 * fewer than the SMs. */
static const tc_shape SHAPES[] = {
    {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {256, 256, 16384}};

static int kind_of(const kdesc *d) { return d->param / 100; }

/* fp16 bits of x, rounded to nearest even (normal and subnormal range;
 * from a double, so an exact FMA result is rounded only once). */
static uint16_t f2h(double x) {
  const uint16_t sign = signbit(x) ? 0x8000u : 0u;
  const double a = fabs(x);
  if (a >= 65520.0) return sign | 0x7c00u;
  if (a < 6.103515625e-05) /* subnormal: multiples of 2^-24 */
    return sign | (uint16_t)lrint(a * 16777216.0);
  int e;
  double m = frexp(a, &e);    /* a = m 2^e, m in [0.5, 1) */
  long q = lrint(m * 2048.0); /* 11 significant bits */
  if (q == 2048) {
    q = 1024;
    ++e;
  }
  return sign | (uint16_t)(((e + 14) << 10) | (q - 1024));
}

static float h2f(uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m + 1024), e - 25);
  return h & 0x8000u ? -v : v;
}

/* The fp16 value nearest x (the rounding of an exact FMA result). */
static float round_half(double x) { return h2f(f2h(x)); }

static int q_of(size_t i, int salt) {
  return (int)((((uint32_t)i + (uint32_t)salt * 977u) * 2654435761u) >> 29) - 4;
}

/* A (m x k) and B stored as n x k; element values q / 4. */
static void fill_operand(kjob *job, int b, size_t count, int kind, int salt) {
  for (size_t i = 0; i < count; ++i) {
    const float v = (float)q_of(i, salt) / 4.0f;
    if (kind == TC_TF32_WARP) {
      ((float *)job->buf[b].host)[i] = v;
    } else if (kind == TC_BF16_WARP) {
      uint32_t x;
      memcpy(&x, &v, 4);
      ((uint16_t *)job->buf[b].host)[i] = (uint16_t)(x >> 16);
    } else {
      ((uint16_t *)job->buf[b].host)[i] = f2h(v);
    }
  }
}

static int setup_gemm(kjob *job, const kdesc *d, ksize size) {
  static const char *entries[] = {"", "wmma_f16_warp", "wmma_bf16_warp", "wmma_tf32_warp",
                                  "wmma_f16_tiled"};
  const int kind = kind_of(d), tiled = kind == TC_F16_TILED;
  tc_shape s = SHAPES[d->param % 100];
  if (size == KSIZE_SMALL) s.m = s.n = s.k = tiled ? 128 : 64;
  const size_t es = kind == TC_TF32_WARP ? 4 : 2;
  const size_t m = (size_t)s.m, n = (size_t)s.n, k = (size_t)s.k;
  kjob_init(job, "tc.cu", entries[kind]);
  int a = kjob_buf(job, m * k * es, KB_IN), b = kjob_buf(job, n * k * es, KB_IN);
  int c = kjob_buf(job, m * n * 4, KB_OUT);
  float *ref = kjob_ref(job, c, KC_F32, TC_CHECK_ROWS * n, TC_EXACT, TC_EXACT);
  size_t *sample = ref ? kjob_sample(job, c) : NULL;
  if (!job->buf[a].host || !job->buf[b].host || !sample) return -1;
  fill_operand(job, a, m * k, kind, 1);
  fill_operand(job, b, n * k, kind, 2);
  for (size_t r = 0; r < TC_CHECK_ROWS; ++r) {
    const size_t row = (r * m) / TC_CHECK_ROWS + r % 5;
    for (size_t j = 0; j < n; ++j) {
      long acc = 0;
      for (size_t kk = 0; kk < k; ++kk) acc += (long)q_of(row * k + kk, 1) * q_of(j * k + kk, 2);
      ref[r * n + j] = (float)acc / 16.0f;
      sample[r * n + j] = row * n + j;
    }
  }
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_i32(job, s.m);
  kjob_arg_i32(job, s.n);
  kjob_arg_i32(job, s.k);
  if (tiled)
    kjob_grid(job, n / 128, m / 128, 1, 256, 1, 1);
  else
    kjob_grid(job, (m / 16) * (n / 16) / 4, 1, 1, 128, 1, 1);
  return 0;
}

/* The reference of hfma2_chains<K> for thread g. */
static float hfma2_ref(int g, int nchains, int iters) {
  const double a = TC_HA, b = TC_HB;
  float s = 0.0f;
  for (int k = 0; k < nchains; ++k) {
    float lo = round_half(1.0 + (double)((g + k) & 63) / 64.0);
    float hi = round_half(1.5 - (double)((g * 3 + k) & 63) / 128.0);
    for (int it = 0; it < iters; ++it) {
      lo = round_half((double)lo * a + b);
      hi = round_half((double)hi * a + b);
    }
    s += lo + hi;
  }
  return s;
}

static int setup_hfma2(kjob *job, const kdesc *d, ksize size) {
  const int ilp = kind_of(d) == TC_HFMA2_8 ? 8 : 1, full = size == KSIZE_FULL;
  const size_t groups = full ? 1056 : 4, n = groups * 256;
  const int iters = full ? (ilp == 8 ? 1024 : 4096) : 16;
  kjob_init(job, "tc.cu", ilp == 8 ? "hfma2_ilp8" : "hfma2_ilp1");
  int out = kjob_buf(job, n * 4, KB_OUT);
  float *ref = kjob_ref(job, out, KC_F32, 256, TC_EXACT, TC_EXACT);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  if (!sample) return -1;
  for (size_t j = 0; j < 256; ++j) {
    sample[j] = kspread(j, 256, n);
    ref[j] = hfma2_ref((int)sample[j], ilp, iters);
  }
  kjob_arg_buf(job, out);
  kjob_arg_f32(job, TC_HA);
  kjob_arg_f32(job, TC_HB);
  kjob_arg_i32(job, iters);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

/* fp16 inputs q / 1024 with |q| <= 2048: s x + y is exact in fp32. */
static int setup_mixed(kjob *job, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 26 : 4096;
  const size_t count = n < TC_SAMPLES ? n : TC_SAMPLES;
  kjob_init(job, "tc.cu", "mixed_f16_axpy");
  int a = kjob_buf(job, n * 2, KB_IN), b = kjob_buf(job, n * 2, KB_IN);
  int c = kjob_buf(job, n * 4, KB_OUT);
  uint16_t *ha = job->buf[a].host, *hb = job->buf[b].host;
  float *ref = kjob_ref(job, c, KC_F32, count, TC_EXACT, TC_EXACT);
  size_t *sample = ref ? kjob_sample(job, c) : NULL;
  if (!ha || !hb || !sample) return -1;
  for (size_t i = 0; i < n; ++i) {
    ha[i] = f2h((float)((int)(((uint32_t)i * 2654435761u) >> 20) - 2048) / 1024.0f);
    hb[i] = f2h((float)((int)(((uint32_t)i * 2246822519u) >> 20) - 2048) / 1024.0f);
  }
  for (size_t j = 0; j < count; ++j) {
    sample[j] = kspread(j, count, n);
    ref[j] = TC_MIX_S * h2f(ha[sample[j]]) + h2f(hb[sample[j]]);
  }
  kjob_arg_buf(job, a);
  kjob_arg_buf(job, b);
  kjob_arg_buf(job, c);
  kjob_arg_f32(job, TC_MIX_S);
  kjob_arg_i32(job, (int)(n / 2));
  kjob_grid(job, size == KSIZE_FULL ? 1056 : 4, 1, 1, 256, 1, 1);
  return 0;
}

int setup_tc(kjob *job, const kdesc *d, ksize size) {
  switch (kind_of(d)) {
    case TC_HFMA2_1:
    case TC_HFMA2_8:
      return setup_hfma2(job, d, size);
    case TC_MIXED:
      return setup_mixed(job, size);
    default:
      return setup_gemm(job, d, size);
  }
}
