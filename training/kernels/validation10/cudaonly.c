/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.c: host half of cudaonly.cu (CUDA only: the fp16 tensor-core
 * DCT, RGB to HSV in half2, the Count-Min sketch, XXH64, Dilithium NTTs,
 * the bf16 Gram matrix).  Sketch counters, hashes, NTT products and the Gram
 * matrix (entries -1, 0, 1: every partial sum an integer below 2^24) are
 * exact; the DCT is checked against C X rounded to fp16 then times C^T in
 * double, and HSV against double arithmetic, both within tolerances that
 * cover fp32 accumulation and fp16 rounding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation10.h"

/* ---- 16-bit floats ----------------------------------------------------------------------- */

static double half_value(uint16_t h) {
  const int e = h >> 10 & 31, m = h & 1023;
  const double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
  return h & 0x8000 ? -v : v;
}

/* v rounded to the nearest half (ties to even); |v| < 65520. */
static uint16_t half_round(double v) {
  const uint16_t sign = signbit(v) ? 0x8000 : 0;
  const double a = fabs(v);
  if (a < ldexp(1, -14)) return (uint16_t)(sign | (uint16_t)nearbyint(a * 16777216.0));
  int e;
  frexp(a, &e);
  const double q = nearbyint(ldexp(a, 11 - e));
  int be = e - 1 + 15, m = (int)q - 1024;
  if (q >= 2048) {
    ++be;
    m = 0;
  }
  return (uint16_t)(sign | be << 10 | m);
}

/* ---- DCT --------------------------------------------------------------------------------- */

static int dct_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 16384 : 256, h = full ? 8192 : 128;
  const size_t np = (size_t)w * h, len = np < ((size_t)1 << 20) ? np : (size_t)1 << 20;
  const int ntiles = (w / 16) * (h / 16);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "u_dct16_wmma_f16");
  int ib = kjob_buf(job, np * 2, KB_IN), cb = kjob_buf(job, 512, KB_IN);
  int ob = kjob_buf(job, np * 4, KB_OUT);
  float *ref = uref_sampled(job, ob, KC_F32, np, U_SAMPLES, 1e-3, 5e-3);
  if (job->buf[ib].host == NULL || job->buf[cb].host == NULL || ref == NULL) return -1;
  uint16_t *img = job->buf[ib].host, *cm = job->buf[cb].host;
  const double pi = 3.14159265358979323846;
  for (int k = 0; k < 16; ++k)
    for (int n = 0; n < 16; ++n)
      cm[k * 16 + n] = half_round(sqrt((k ? 2.0 : 1.0) / 16) * cos(pi * (2 * n + 1) * k / 32));
  for (size_t i = 0; i < len; ++i) { /* a smooth image with texture, multiples of 1/64 */
    const double x = (double)(i % w), y = (double)(i / w);
    const double v = 0.6 * sin(x * 0.031) * cos(y * 0.017) + krng_uniform(&r, -0.3, 0.3);
    img[i] = half_round(nearbyint(v * 64) / 64);
  }
  urepeat(img, len * 2, np * 2);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], px = e % w, py = e / w;
    const size_t tx = px / 16, ty = py / 16;
    const int u = (int)(py % 16), v = (int)(px % 16);
    double y = 0;
    for (int m = 0; m < 16; ++m) { /* Y[u][v] = sum_m T[u][m] C[v][m], T = C X rounded */
      double t = 0;
      for (int k = 0; k < 16; ++k)
        t += half_value(cm[u * 16 + k]) * half_value(img[(ty * 16 + k) * w + tx * 16 + m]);
      y += half_value(half_round(t)) * half_value(cm[v * 16 + m]);
    }
    ref[s] = (float)y;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, ntiles);
  kjob_grid(job, (size_t)(ntiles + 3) / 4, 1, 1, 128, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- HSV --------------------------------------------------------------------------------- */

/* The pixels checked and their expected H, S, V, A; h compared in turns
 * (modulo 1). */
typedef struct hsv_ref {
  int ob;
  size_t count;
  size_t *pix;
  double (*want)[4];
} hsv_ref;

static int hsv_check(const kjob *job, char *msg, size_t size) {
  const hsv_ref *hr = job->priv;
  const uint16_t *got = job->buf[hr->ob].result;
  for (size_t c = 0; c < hr->count; ++c)
    for (int k = 0; k < 4; ++k) {
      const double g = half_value(got[4 * hr->pix[c] + k]), want = hr->want[c][k];
      double err = fabs(g - want);
      if (k == 0 && err > 0.5) err = 1 - err;
      if (!(err <= 4e-3 + 4e-3 * fabs(want))) {
        snprintf(msg, size, "pixel %zu channel %d: got %.6g, expected %.6g", hr->pix[c], k, g,
                 want);
        return -1;
      }
    }
  return 0;
}

static void hsv_of(const double c[4], double out[4]) {
  const double mx = fmax(fmax(c[0], c[1]), c[2]), mn = fmin(fmin(c[0], c[1]), c[2]);
  const double dl = mx - mn;
  double h = c[0] == mx   ? (c[1] - c[2]) / dl
             : c[1] == mx ? 2 + (c[2] - c[0]) / dl
                          : 4 + (c[0] - c[1]) / dl;
  h /= 6;
  out[0] = h < 0 ? h + 1 : h;
  out[1] = dl / mx;
  out[2] = mx;
  out[3] = c[3];
}

static int hsv_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : (size_t)64 << 10;
  const size_t len = n < 65536 ? n : 65536, count = n < U_SAMPLES ? n : U_SAMPLES;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "u_hsv_from_rgb_h2");
  int ib = kjob_buf(job, n * 8, KB_IN), ob = kjob_buf(job, n * 8, KB_OUT);
  /* One allocation, as job->priv is freed with free(). */
  hsv_ref *hr = malloc(sizeof *hr + count * (sizeof *hr->pix + sizeof *hr->want));
  job->priv = hr;
  if (job->buf[ib].host == NULL || hr == NULL) return -1;
  hr->want = (double(*)[4])(hr + 1);
  hr->pix = (size_t *)(hr->want + count);
  uint16_t *px = job->buf[ib].host;
  for (size_t i = 0; i < len; ++i) { /* colours with max - min >= 1/16 */
    double c[3];
    do {
      for (int k = 0; k < 3; ++k) c[k] = krng_uniform(&r, 0.02, 1.0);
    } while (fmax(fmax(c[0], c[1]), c[2]) - fmin(fmin(c[0], c[1]), c[2]) < 0.0625);
    for (int k = 0; k < 3; ++k) px[4 * i + k] = half_round(c[k]);
    px[4 * i + 3] = half_round(krng_uniform(&r, 0, 1));
  }
  urepeat(px, len * 8, n * 8);
  hr->ob = ob;
  hr->count = count;
  for (size_t c = 0; c < count; ++c) {
    double in[4];
    hr->pix[c] = kspread(c, count, n);
    for (int k = 0; k < 4; ++k) in[k] = half_value(px[4 * hr->pix[c] + k]);
    hsv_of(in, hr->want[c]);
  }
  job->check = hsv_check;
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)(n / 2));
  kjob_grid1(job, n / 2, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- Count-Min sketch -------------------------------------------------------------------- */

enum { CM_R = 4, CM_W = 4608, CM_BLOCKS = 395, CM_LOCAL = 512 };

static int cms_job(kjob *job, const kdesc *d, ksize size) {
  const int per = size == KSIZE_FULL ? 256 : 2;
  const size_t nblk = (size_t)CM_LOCAL * per, n = nblk * CM_BLOCKS;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "u_countmin_smem_395");
  int kb = ubuf_u32(job, n, KB_IN), sb = ubuf_u32(job, CM_R * CM_W, KB_INOUT);
  uint32_t *ref = kjob_ref(job, sb, KC_U32, CM_R * CM_W, 0, 0);
  if (kb < 0 || sb < 0 || ref == NULL) return -1;
  uint32_t *keys = job->buf[kb].host;
  for (size_t i = 0; i < nblk; ++i) { /* skewed: small keys far more frequent */
    const uint32_t k = krng_below(&r, 1 + krng_below(&r, 1 + krng_below(&r, 1u << 20)));
    keys[i] = u_hash_host(k);
    for (int row = 0; row < CM_R; ++row) {
      const uint32_t hv = u_hash_host(keys[i] ^ (0x9E3779B9u * (uint32_t)(row + 1)));
      ref[row * CM_W + (uint32_t)(((uint64_t)hv * CM_W) >> 32)] += CM_BLOCKS;
    }
  }
  urepeat(keys, nblk * 4, n * 4); /* every block the same share */
  kjob_arg_buf(job, kb);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, per);
  kjob_grid(job, CM_BLOCKS, 1, 1, CM_LOCAL, 1, 1);
  job->dyn_local = CM_R * CM_W * 4;
  return 0;
}

/* ---- XXH64 ------------------------------------------------------------------------------- */

static const uint64_t XP1 = 0x9E3779B185EBCA87ull, XP2 = 0xC2B2AE3D27D4EB4Full,
                      XP3 = 0x165667B19E3779F9ull, XP4 = 0x85EBCA77C2B2AE63ull;

static uint64_t rotl64(uint64_t x, int s) { return x << s | x >> (64 - s); }
static uint64_t xround(uint64_t acc, uint64_t in) { return rotl64(acc + in * XP2, 31) * XP1; }
static uint64_t xmerge(uint64_t h, uint64_t v) { return (h ^ xround(0, v)) * XP1 + XP4; }

/* XXH64 with seed 0 of len bytes, len a multiple of 32 (no tail). */
static uint64_t xxh64(const uint8_t *p, size_t len) {
  uint64_t v[4] = {XP1 + XP2, XP2, 0, 0 - XP1};
  for (size_t s = 0; s < len; s += 32)
    for (int k = 0; k < 4; ++k) {
      uint64_t in;
      memcpy(&in, p + s + 8 * k, 8); /* little-endian lanes */
      v[k] = xround(v[k], in);
    }
  uint64_t h = rotl64(v[0], 1) + rotl64(v[1], 7) + rotl64(v[2], 12) + rotl64(v[3], 18);
  for (int k = 0; k < 4; ++k) h = xmerge(h, v[k]);
  h += len;
  h ^= h >> 33;
  h *= XP2;
  h ^= h >> 29;
  h *= XP3;
  return h ^ h >> 32;
}

static int xxh_job(kjob *job, const kdesc *d, ksize size) {
  const size_t np = size == KSIZE_FULL ? (size_t)256 << 10 : 64, bytes = np * 4096;
  const size_t len = bytes < ((size_t)1 << 20) + 4096 ? bytes : ((size_t)1 << 20) + 4096;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "u_xxh64_pages_v4");
  int ib = kjob_buf(job, bytes, KB_IN), ob = ubuf_u32(job, np * 2, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, np * 2, U_SAMPLES, 0, 0);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  uint8_t *data = job->buf[ib].host;
  for (size_t i = 0; i < len; ++i) /* half text-like, half random pages */
    data[i] = (i / 4096) % 2 ? (uint8_t)krng_below(&r, 256) : (uint8_t)(' ' + krng_below(&r, 90));
  urepeat(data, len, bytes); /* the stretch is not a multiple of 4 KB: pages differ */
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    const uint64_t hv = xxh64(data + (e / 2) * 4096, 4096);
    ref[s] = (uint32_t)(e % 2 ? hv >> 32 : hv);
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)np);
  kjob_grid1(job, np, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- Dilithium NTT ----------------------------------------------------------------------- */

enum { NT_Q = 8380417, NT_ROOT = 1753, NT_BLOCKS = 265, NT_WARPS = 8 };

static int32_t mont(int64_t a) {
  const int32_t t = (int32_t)((uint32_t)(uint64_t)a * 58728449u);
  return (int32_t)((a - (int64_t)t * NT_Q) >> 32);
}

/* The reference implementation's forward NTT of a (in place). */
static void ntt_ref(int32_t a[256], const int32_t zetas[256]) {
  int k = 0;
  for (int len = 128; len > 0; len >>= 1)
    for (int start = 0; start < 256; start += 2 * len) {
      const int32_t z = zetas[++k];
      for (int j = start; j < start + len; ++j) {
        const int32_t t = mont((int64_t)z * a[j + len]);
        a[j + len] = a[j] - t;
        a[j] = a[j] + t;
      }
    }
}

/* zetas[k]: the 512th root of unity 1753 to the bit-reversed power k, times
 * 2^32 (Montgomery form), centred. */
static void ntt_zetas(int32_t z[256]) {
  for (int k = 0; k < 256; ++k) {
    int br = 0;
    for (int b = 0; b < 8; ++b) br |= (k >> b & 1) << (7 - b);
    int64_t p = 1;
    for (int e = 0; e < br; ++e) p = p * NT_ROOT % NT_Q;
    int64_t m = (p << 32) % NT_Q;
    z[k] = (int32_t)(m > NT_Q / 2 ? m - NT_Q : m);
  }
}

static int ntt_job(kjob *job, const kdesc *d, ksize size) {
  const int per = size == KSIZE_FULL ? 24 : 1;
  const size_t rows = (size_t)NT_BLOCKS * NT_WARPS * per;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "u_ntt_dilithium_265");
  int sb = ubuf_u32(job, rows * 4 * 256, KB_IN), ab = ubuf_u32(job, 4 * 256, KB_IN);
  int zb = ubuf_u32(job, 256, KB_IN), ob = ubuf_u32(job, rows * 256, KB_OUT);
  uint32_t *ref = uref_sampled(job, ob, KC_U32, rows * 256, U_SAMPLES, 0, 0);
  if (sb < 0 || ab < 0 || zb < 0 || ref == NULL) return -1;
  int32_t *s = job->buf[sb].host, *ah = job->buf[ab].host, *z = job->buf[zb].host;
  ntt_zetas(z);
  for (size_t i = 0; i < rows * 4 * 256; ++i) s[i] = (int32_t)krng_below(&r, NT_Q);
  for (int i = 0; i < 4 * 256; ++i) ah[i] = (int32_t)krng_below(&r, NT_Q) - NT_Q / 2;
  size_t last = (size_t)-1;
  int32_t acc[256];
  for (size_t c = 0; c < job->buf[ob].count; ++c) {
    const size_t e = job->buf[ob].sample[c], row = e / 256;
    if (row != last) {
      memset(acc, 0, sizeof acc);
      for (int j = 0; j < 4; ++j) {
        int32_t a[256];
        memcpy(a, s + (row * 4 + j) * 256, sizeof a);
        ntt_ref(a, z);
        for (int i = 0; i < 256; ++i) acc[i] += mont((int64_t)ah[j * 256 + i] * a[i]);
      }
      last = row;
    }
    ref[c] = (uint32_t)acc[e % 256];
  }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, zb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, per);
  kjob_grid(job, NT_BLOCKS, 1, 1, 32 * NT_WARPS, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- Gram matrix ------------------------------------------------------------------------- */

enum { GR_ROWS = 2048, GR_STRETCH = 65536 };

static int gram_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)4 << 20 : 16384;
  const size_t len = n < GR_STRETCH ? n : GR_STRETCH;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "u_cholqr_gram_bf16");
  int ab = kjob_buf(job, n * 128, KB_IN), gb = ubuf_u32(job, 4096, KB_INOUT);
  float *ref = kjob_ref(job, gb, KC_F32, 4096, 0, 0);
  int32_t *g = calloc(4096, sizeof *g);
  int8_t *v = malloc(64);
  if (job->buf[ab].host == NULL || gb < 0 || ref == NULL || g == NULL || v == NULL) {
    free(g);
    free(v);
    return -1;
  }
  uint16_t *a = job->buf[ab].host;
  for (size_t i = 0; i < len; ++i) { /* entries -1, 0, 1; some columns correlated */
    for (int c = 0; c < 64; ++c) {
      const uint32_t u = krng_below(&r, 5);
      v[c] = c % 8 == 7 && u < 3 ? v[c - 1] : (int8_t)(u < 2 ? -1 : u < 4 ? 1 : 0);
      a[i * 64 + c] = v[c] == 0 ? 0 : v[c] > 0 ? 0x3F80 : 0xBF80;
    }
    for (int p = 0; p < 64; ++p)
      for (int q = 0; q < 64; ++q) g[p * 64 + q] += v[p] * v[q];
  }
  urepeat(a, len * 128, n * 128);
  for (int e = 0; e < 4096; ++e) ref[e] = (float)((double)g[e] * (double)(n / len));
  free(g);
  free(v);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, gb);
  kjob_grid(job, n / GR_ROWS, 1, 1, 128, 1, 1);
  return 0;
}

SP_SETUP(usetup_cuda) {
  switch (d->param) {
    case UCU_DCT:
      return dct_job(job, d, size);
    case UCU_HSV:
      return hsv_job(job, d, size);
    case UCU_CMS:
      return cms_job(job, d, size);
    case UCU_XXH:
      return xxh_job(job, d, size);
    case UCU_NTT:
      return ntt_job(job, d, size);
    case UCU_GRAM:
      return gram_job(job, d, size);
  }
  return -1;
}
