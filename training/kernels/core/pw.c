/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pw.c: host half of pw.cl.  d->param is PW_PARAM(kind, k, grid): k the
 * multiply-adds per element of the streams, grid the work-groups of 256
 * (0: one element per work-item). */
#include "suite.h"

#include <math.h>

/* pw_sfu's rsqrt is approximate on GPUs (2 ulp) and the map contracts:
 * results agree to a few ulp. */
#define PW_SFU_RTOL 1e-5
#define PW_EXACT 0.0
#define PW_SAMPLES 65536       /* stream elements checked */
#define PW_CHAINS_CHECKED 1024 /* work-items checked: up to 65536 steps each */

#define PW_A (-0.9999847412109375f)
#define PW_B 0.0009765625f
#define PW_DA (-0.99999904632568359375) /* -(1 - 2^-20) */
#define PW_DB 0.0009765625
#define PW_SFU_A 0.5f
#define PW_SFU_B 1.0f
#define PW_INT_M 0x9E3779B1u

static int kind_of(const kdesc *d) { return d->param / 10000000; }
static int k_of(const kdesc *d) { return d->param / 10000 % 1000; }
static int grid_of(const kdesc *d) { return d->param % 10000; }

/* Groups of 256 for the chain kernels: grid, small for CI. */
static size_t groups(const kdesc *d, ksize size) {
  size_t g = (size_t)grid_of(d);
  return size == KSIZE_FULL ? g : g < 16 ? g : 16;
}

static int sampled(kjob *job, int b, kb_cmp cmp, size_t n, size_t max, double rtol, void **ref,
                   size_t **sample) {
  size_t count = n < max ? n : max;
  *ref = kjob_ref(job, b, cmp, count, rtol, rtol);
  *sample = *ref ? kjob_sample(job, b) : NULL;
  for (size_t j = 0; *sample && j < count; ++j) (*sample)[j] = kspread(j, count, n);
  return *sample ? 0 : -1;
}

static uint32_t int_ref(uint32_t g, int iters) {
  uint32_t x0 = g, x1 = g ^ 0x5bd1e995u, x2 = g * 3u + 1u, x3 = ~g;
  for (int it = 0; it < iters; ++it) {
    x0 = (x0 * PW_INT_M + (x0 >> 7)) ^ x1;
    x1 = (x1 * PW_INT_M + (x1 >> 9)) ^ x2;
    x2 = (x2 * PW_INT_M + (x2 >> 11)) ^ x3;
    x3 = (x3 * PW_INT_M + (x3 >> 13)) ^ x0;
  }
  return x0 ^ x1 ^ x2 ^ x3;
}

static float sfu_ref(int g, int iters) {
  float x[4];
  x[0] = 1.0f + (float)(g & 15) * 0.0625f;
  for (int k = 1; k < 4; ++k) x[k] = x[0] + 0.5f * (float)k;
  for (int it = 0; it < iters; ++it)
    for (int k = 0; k < 4; ++k) x[k] = (float)(1.0 / sqrt((double)fmaf(PW_SFU_A, x[k], PW_SFU_B)));
  return ((x[0] + x[1]) + x[2]) + x[3];
}

static double dfma_ref(int g, int iters) {
  double x[4];
  x[0] = 1.0 + (double)(g & 255) / 1024.0;
  for (int k = 1; k < 4; ++k) x[k] = x[0] + 0.25 * k;
  for (int it = 0; it < iters; ++it)
    for (int k = 0; k < 4; ++k) x[k] = fma(x[k], PW_DA, PW_DB);
  return ((x[0] + x[1]) + x[2]) + x[3];
}

/* pw_int, pw_sfu, pw_dfma: grid x 256 work-items of iters steps. */
static int setup_pipe(kjob *job, const kdesc *d, ksize size) {
  static const char *entries[] = {"", "pw_int", "pw_sfu", "pw_dfma"};
  const int kind = kind_of(d), full = size == KSIZE_FULL;
  const size_t g = groups(d, size), n = g * 256;
  /* One work-group per SM (132): long chains; many groups: short ones. */
  const int iters = full ? (g <= 132 ? 16384 : 1024) : 8;
  void *ref;
  size_t *sample;
  kjob_init(job, "pw.cl", entries[kind]);
  int out = kjob_buf(job, n * (kind == PW_DFMA ? 8 : 4), KB_OUT);
  kb_cmp cmp = kind == PW_INT ? KC_U32 : kind == PW_DFMA ? KC_F64 : KC_F32;
  if (sampled(job, out, cmp, n, PW_CHAINS_CHECKED, kind == PW_SFU ? PW_SFU_RTOL : PW_EXACT, &ref,
              &sample) != 0)
    return -1;
  for (size_t j = 0; j < job->buf[out].count; ++j) {
    int gid = (int)sample[j];
    if (kind == PW_INT)
      ((uint32_t *)ref)[j] = int_ref((uint32_t)gid, iters);
    else if (kind == PW_SFU)
      ((float *)ref)[j] = sfu_ref(gid, iters);
    else
      ((double *)ref)[j] = dfma_ref(gid, iters);
  }
  kjob_arg_buf(job, out);
  if (kind == PW_INT) {
    kjob_arg_u32(job, PW_INT_M);
  } else if (kind == PW_SFU) {
    kjob_arg_f32(job, PW_SFU_A);
    kjob_arg_f32(job, PW_SFU_B);
  } else {
    kjob_arg_f64(job, PW_DA);
    kjob_arg_f64(job, PW_DB);
  }
  kjob_arg_i32(job, iters);
  kjob_grid(job, g, 1, 1, 256, 1, 1);
  return 0;
}

static const char *ai_entry(int f64, int k) {
  switch (k) {
    case 4:
      return "ai_f32_k4";
    case 16:
      return "ai_f32_k16";
    case 64:
      return "ai_f32_k64";
    case 256:
      return "ai_f32_k256";
    case 8:
      return "ai_f64_k8";
    case 32:
      return "ai_f64_k32";
    default:
      return f64 ? "ai_f64_k128" : "ai_f32_k256";
  }
}

/* Streams of n elements (2^25 floats or 2^24 doubles: 256 MiB moved). */
static int setup_ai(kjob *job, const kdesc *d, ksize size) {
  const int f64 = kind_of(d) == PW_AI64, k = k_of(d), full = size == KSIZE_FULL;
  const size_t n = full ? (f64 ? (size_t)1 << 24 : (size_t)1 << 25) : 4096;
  const size_t es = f64 ? 8 : 4;
  const size_t g = grid_of(d) ? groups(d, size) : n / 256;
  void *ref;
  size_t *sample;
  kjob_init(job, "pw.cl", ai_entry(f64, k));
  int in = kjob_buf(job, n * es, KB_IN), out = kjob_buf(job, n * es, KB_OUT);
  if (!job->buf[in].host ||
      sampled(job, out, f64 ? KC_F64 : KC_F32, n, PW_SAMPLES, PW_EXACT, &ref, &sample) != 0)
    return -1;
  for (size_t i = 0; i < n; ++i) {
    double v = 1.0 + (double)(i & 1023) / 1024.0;
    if (f64)
      ((double *)job->buf[in].host)[i] = v;
    else
      ((float *)job->buf[in].host)[i] = (float)v;
  }
  for (size_t j = 0; j < job->buf[out].count; ++j) {
    const size_t i = sample[j];
    if (f64) {
      double x = ((double *)job->buf[in].host)[i];
      for (int s = 0; s < k; ++s) x = fma(x, PW_DA, PW_DB);
      ((double *)ref)[j] = x;
    } else {
      float x = ((float *)job->buf[in].host)[i];
      for (int s = 0; s < k; ++s) x = fmaf(x, PW_A, PW_B);
      ((float *)ref)[j] = x;
    }
  }
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  if (f64) {
    kjob_arg_f64(job, PW_DA);
    kjob_arg_f64(job, PW_DB);
  } else {
    kjob_arg_f32(job, PW_A);
    kjob_arg_f32(job, PW_B);
  }
  kjob_grid(job, g, 1, 1, 256, 1, 1);
  return 0;
}

int setup_pw(kjob *job, const kdesc *d, ksize size) {
  const int kind = kind_of(d);
  if (kind == PW_AI32 || kind == PW_AI64) return setup_ai(job, d, size);
  return setup_pipe(job, d, size);
}
