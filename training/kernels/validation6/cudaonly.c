/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.c: host half of cudaonly.cu (CUDA only: fp16 WMMA 1x1
 * convolution, float4 Lion step, joint histogram in dynamic shared memory).
 * The half inputs are multiples of 1/16 that half represents exactly, and
 * every partial sum of their products is exact in float, so the convolution
 * is checked exactly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation6.h"

/* Half bits of k / 16 for |k| <= 16 (exact). */
static uint16_t half16(int k) {
  if (k == 0) return 0;
  const uint16_t sign = k < 0 ? 0x8000 : 0;
  int m = k < 0 ? -k : k, e = 0;
  while (m < 1024) {
    m <<= 1;
    --e;
  }
  return sign | (uint16_t)((e + 10 - 4 + 15) << 10) | (uint16_t)(m - 1024);
}

/* ---- 1x1 convolution ---------------------------------------------------------------------- */

static int conv_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, pix = full ? 65536 : 256, cin = full ? 512 : 128;
  const int cout = full ? 1024 : 128;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "q_conv1x1_wmma_f16");
  int xb = kjob_buf(job, (size_t)pix * cin * 2, KB_IN),
      wb = kjob_buf(job, (size_t)cout * cin * 2, KB_IN);
  int bb = kjob_buf(job, (size_t)cout * 4, KB_IN),
      yb = kjob_buf(job, (size_t)pix * cout * 4, KB_OUT);
  float *ref = qref_sampled(job, yb, KC_F32, (size_t)pix * cout, 0, 1e-6);
  int8_t *kx = malloc((size_t)pix * cin), *kw = malloc((size_t)cout * cin);
  uint16_t *hx = job->buf[xb].host, *hw = job->buf[wb].host;
  float *hb = job->buf[bb].host;
  if (ref == NULL || kx == NULL || kw == NULL || hx == NULL || hw == NULL || hb == NULL) {
    free(kx);
    free(kw);
    return -1;
  }
  for (size_t i = 0; i < (size_t)pix * cin; ++i) {
    kx[i] = (int8_t)((int)krng_below(&r, 33) - 16);
    hx[i] = half16(kx[i]);
  }
  for (size_t i = 0; i < (size_t)cout * cin; ++i) {
    kw[i] = (int8_t)((int)krng_below(&r, 33) - 16);
    hw[i] = half16(kw[i]);
  }
  for (int o = 0; o < cout; ++o) hb[o] = (float)((int)krng_below(&r, 257) - 128) / 16.0f;
  for (size_t s = 0; s < job->buf[yb].count; ++s) {
    const size_t e = job->buf[yb].sample[s], p = e / cout, o = e % cout;
    long acc = 0;
    for (int c = 0; c < cin; ++c) acc += (long)kx[p * cin + c] * kw[o * cin + c];
    const double v = acc / 256.0 + hb[o];
    ref[s] = (float)(v > 0 ? v : 0);
  }
  free(kx);
  free(kw);
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, cin);
  kjob_arg_i32(job, cout);
  kjob_grid(job, (size_t)cout / 64, (size_t)pix / 64, 1, 128, 1, 1);
  return 0;
}

/* ---- Lion step ----------------------------------------------------------------------------------
 */

static float sgnf(float v) { return v > 0.0f ? 1.0f : v < 0.0f ? -1.0f : 0.0f; }

static int lion_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)64 << 20 : 65536;
  const float lr = 1e-4f, b1 = 0.9f, b2 = 0.99f, wd = 0.01f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "q_lion_step_v4");
  int pb = kjob_buf(job, n * 4, KB_INOUT), mb = kjob_buf(job, n * 4, KB_INOUT);
  int gb = qin_f32(job, n, &r, -1, 1);
  float *rp = qref_sampled(job, pb, KC_F32, n, 1e-5, 1e-6);
  float *rm = qref_sampled(job, mb, KC_F32, n, 1e-5, 1e-6);
  if (job->buf[pb].host == NULL || job->buf[mb].host == NULL || gb < 0 || rp == NULL || rm == NULL)
    return -1;
  float *hp = job->buf[pb].host, *hm = job->buf[mb].host;
  const float *hg = job->buf[gb].host;
  kfill_f32(hp, n, &r, -1, 1);
  kfill_f32(hm, n, &r, -0.1, 0.1);
  for (size_t s = 0; s < job->buf[pb].count; ++s) {
    const size_t i = job->buf[pb].sample[s];
    const float c = b1 * hm[i] + (1.0f - b1) * hg[i];
    rp[s] = hp[i] - lr * (sgnf(c) + wd * hp[i]);
    rm[s] = b2 * hm[i] + (1.0f - b2) * hg[i];
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, mb);
  kjob_arg_buf(job, gb);
  kjob_arg_i32(job, (int)(n / 4));
  kjob_arg_f32(job, lr);
  kjob_arg_f32(job, b1);
  kjob_arg_f32(job, b2);
  kjob_arg_f32(job, wd);
  kjob_grid1(job, n / 4, 256);
  return 0;
}

/* ---- joint histogram
 * ------------------------------------------------------------------------------- */

enum { MI_BINS = 128 };

static int mihist_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, blocks = full ? 397 : 3, wpb = full ? 131072 : 1024;
  const size_t words = (size_t)blocks * wpb;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "q_mi_joint_hist_397");
  int ab = qbuf_u32(job, words, KB_IN), bb = qbuf_u32(job, words, KB_IN);
  int hb = qbuf_u32(job, MI_BINS * MI_BINS, KB_INOUT);
  uint32_t *ref = kjob_ref(job, hb, KC_U32, MI_BINS * MI_BINS, 0, 0);
  if (ab < 0 || bb < 0 || hb < 0 || ref == NULL) return -1;
  uint8_t *pa = job->buf[ab].host, *pb = job->buf[bb].host;
  const size_t n = words * 4, width = 4096;
  double *sx = malloc(width * sizeof *sx), cy = 0;
  if (sx == NULL) return -1;
  for (size_t x = 0; x < width; ++x) sx[x] = 100 * sin(x * 0.01);
  for (size_t i = 0; i < n; ++i) { /* a smooth image and a noisy, darker copy */
    const size_t y = i / width, x = i % width;
    if (x == 0) cy = cos(y * 0.013);
    const int v = (int)(128 + sx[x] * cy) + (int)krng_below(&r, 9) - 4;
    pa[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    const int u = pa[i] * 3 / 4 + (int)krng_below(&r, 17) - 8;
    pb[i] = (uint8_t)(u < 0 ? 0 : u > 255 ? 255 : u);
    ++ref[(pa[i] >> 1) * MI_BINS + (pb[i] >> 1)];
  }
  free(sx);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, hb);
  kjob_arg_i32(job, wpb);
  kjob_grid(job, (size_t)blocks, 1, 1, 256, 1, 1);
  job->dyn_local = MI_BINS * MI_BINS * 4;
  return 0;
}

SP_SETUP(qsetup_cuda) {
  switch (d->param) {
    case QCU_CONV1X1:
      return conv_job(job, d, size);
    case QCU_LION:
      return lion_job(job, d, size);
    case QCU_MIHIST:
      return mihist_job(job, d, size);
  }
  return -1;
}
