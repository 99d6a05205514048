/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.c: host half of cudaonly.cu (CUDA only: fp16 split-K GEMM with
 * atomics, JSON structural index with warp ballots, fp16 LSTM cell).  The
 * half inputs are multiples of 1/64 that half represents exactly, so the
 * host writes their bits directly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation4.h"

/* Half bits of k / 64 for |k| <= 1024 (exact). */
static uint16_t half64(int k) {
  if (k == 0) return 0;
  const uint16_t sign = k < 0 ? 0x8000 : 0;
  int m = k < 0 ? -k : k, e = 0;
  while (m < 1024) {
    m <<= 1;
    --e;
  }
  while (m >= 2048) { /* never for |k| <= 1024 but 1024 itself */
    m >>= 1;
    ++e;
  }
  return sign | (uint16_t)((e + 10 - 6 + 15) << 10) | (uint16_t)(m - 1024);
}

static float half_to_f(uint16_t h) {
  const int e = h >> 10 & 31, m = h & 1023;
  const float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m + 1024), e - 25);
  return h & 0x8000 ? -v : v;
}

/* ---- fp16 split-K GEMM --------------------------------------------------------------- */

static int hgemm_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, m = full ? 512 : 128, n = m, k = full ? 32768 : 1024;
  const int split = full ? 32 : 4;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "y_hgemm_splitk");
  int ab = kjob_buf(job, (size_t)m * k * 2, KB_IN), bb = kjob_buf(job, (size_t)n * k * 2, KB_IN);
  int cb = kjob_buf(job, (size_t)m * n * 4, KB_INOUT);
  /* Multiples of 1/256 below 2^15 in magnitude: every sum is exact. */
  float *ref = yref_sampled(job, cb, KC_F32, (size_t)m * n, 0, 1e-3);
  int8_t *ka = malloc((size_t)m * k), *kb = malloc((size_t)n * k);
  uint16_t *ha = job->buf[ab].host, *hb = job->buf[bb].host;
  if (ha == NULL || hb == NULL || job->buf[cb].host == NULL || !ref || !ka || !kb) {
    free(ka);
    free(kb);
    return -1;
  }
  for (size_t i = 0; i < (size_t)m * k; ++i) {
    ka[i] = (int8_t)((int)krng_below(&r, 33) - 16);
    ha[i] = half64(ka[i] * 4); /* k / 16 */
  }
  for (size_t i = 0; i < (size_t)n * k; ++i) {
    kb[i] = (int8_t)((int)krng_below(&r, 33) - 16);
    hb[i] = half64(kb[i] * 4);
  }
  for (size_t s = 0; s < job->buf[cb].count; ++s) {
    const size_t e = job->buf[cb].sample[s], i = e / n, j = e % n;
    long acc = 0;
    for (int kk = 0; kk < k; ++kk) acc += (long)ka[i * k + kk] * kb[j * k + kk];
    ref[s] = (float)(acc / 256.0);
  }
  free(ka);
  free(kb);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, k);
  kjob_grid(job, (size_t)n / 64, (size_t)m / 64, (size_t)split, 128, 1, 1);
  return 0;
}

/* ---- JSON structural index ------------------------------------------------------------- */

enum { JS_SEG = 4096 };

static int json_job(kjob *job, const kdesc *d, ksize size) {
  const size_t segs = size == KSIZE_FULL ? 16384 : 16, n = segs * JS_SEG;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "y_json_ballot");
  int tb = kjob_buf(job, n, KB_IN), sb = ybuf_u32(job, segs, KB_IN);
  int ob = kjob_buf(job, n / 8, KB_OUT);
  uint32_t *ref = yref_sampled(job, ob, KC_U32, n / 32, 0, 0);
  uint8_t *ht = job->buf[tb].host;
  if (ht == NULL || sb < 0 || ref == NULL) return -1;
  uint32_t *hs = job->buf[sb].host;
  /* Records like {"id":123,"name":"a \"quoted\" {x,y}","tags":[1,2,3]}. */
  size_t at = 0;
  static const char *const keys[] = {"id", "name", "tags", "ts", "msg", "user", "geo"};
#define PUT(c)                           \
  do {                                   \
    if (at < n) ht[at++] = (uint8_t)(c); \
  } while (0)
  while (at < n) {
    PUT('{');
    for (int f = 0, nf = 2 + (int)krng_below(&r, 5); f < nf; ++f) {
      PUT('"');
      for (const char *c = keys[krng_below(&r, 7)]; *c; ++c) PUT(*c);
      PUT('"');
      PUT(':');
      const uint32_t kind = krng_below(&r, 3);
      if (kind == 0) {
        for (uint32_t l = 1 + krng_below(&r, 8); l > 0; --l) PUT('0' + krng_below(&r, 10));
      } else if (kind == 1) {
        PUT('"');
        for (uint32_t l = krng_below(&r, 40); l > 0; --l) {
          const uint32_t c = krng_below(&r, 40);
          if (c == 0) {
            PUT('\\');
            PUT('"');
          } else {
            PUT(c == 1 ? '{' : c == 2 ? ',' : c == 3 ? ':' : c == 4 ? ']' : 'a' + c % 26);
          }
        }
        PUT('"');
      } else {
        PUT('[');
        for (uint32_t l = 1 + krng_below(&r, 6); l > 0; --l) {
          PUT('0' + krng_below(&r, 10));
          if (l > 1) PUT(',');
        }
        PUT(']');
      }
      if (f + 1 < nf) PUT(',');
    }
    PUT('}');
    PUT('\n');
  }
#undef PUT
  uint32_t *all = malloc(n / 8);
  if (all == NULL) return -1;
  uint32_t inq = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i % JS_SEG == 0) hs[i / JS_SEG] = inq;
    if (i % 32 == 0) all[i / 32] = 0;
    const uint8_t c = ht[i], before = i ? ht[i - 1] : 0;
    if (c == '"' && before != '\\') inq ^= 1;
    if (!inq && (c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ','))
      all[i / 32] |= 1u << (i % 32);
  }
  for (size_t s = 0; s < job->buf[ob].count; ++s) ref[s] = all[job->buf[ob].sample[s]];
  free(all);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)segs);
  kjob_grid(job, segs * 32 / 256, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- fp16 LSTM cell ----------------------------------------------------------------------- */

typedef struct lstm_chk {
  int hb;
  size_t count;
  float ref[];
} lstm_chk;

static int lstm_check(const kjob *job, char *msg, size_t size) {
  const lstm_chk *c = job->priv;
  const uint16_t *h = job->buf[c->hb].result;
  for (size_t e = 0; e < c->count; ++e) {
    const float got = half_to_f(h[e]);
    if (!(fabsf(got - c->ref[e]) <= 2e-3f + 2e-3f * fabsf(c->ref[e]))) {
      snprintf(msg, size, "h[%zu]: got %g, expected %g", e, got, c->ref[e]);
      return -1;
    }
  }
  return 0;
}

static int lstm_job(kjob *job, const kdesc *d, ksize size) {
  const int hidden = size == KSIZE_FULL ? 1024 : 256, batch = 8;
  const size_t ne = (size_t)hidden * batch;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "y_lstm_cell_h16");
  int gb = kjob_buf(job, ne * 4 * 2, KB_IN), bb = kjob_buf(job, (size_t)hidden * 4 * 2, KB_IN);
  int cp = yin_f32(job, ne, &r, -2, 2), co = kjob_buf(job, ne * 4, KB_OUT);
  int ho = kjob_buf(job, ne * 2, KB_OUT);
  float *rc = kjob_ref(job, co, KC_F32, ne, 1e-4, 1e-5);
  lstm_chk *c = job->priv = malloc(sizeof *c + ne * sizeof *c->ref);
  uint16_t *hg = job->buf[gb].host, *hbias = job->buf[bb].host;
  if (hg == NULL || hbias == NULL || cp < 0 || rc == NULL || c == NULL) return -1;
  int8_t *kg = malloc(ne * 4);
  int kbias[4096];
  if (kg == NULL) return -1;
  for (size_t i = 0; i < ne * 4; ++i) {
    kg[i] = (int8_t)((int)krng_below(&r, 255) - 127);
    hg[i] = half64(2 * kg[i]); /* within [-4, 4] */
  }
  for (int j = 0; j < 4 * hidden; ++j) {
    kbias[j] = (int)krng_below(&r, 65) - 32;
    hbias[j] = half64(kbias[j]);
  }
  const float *hc = job->buf[cp].host;
  for (size_t e = 0; e < ne; ++e) {
    const size_t b = e / hidden, j = e % hidden;
    double g[4];
    for (int q = 0; q < 4; ++q)
      g[q] = (2.0 * kg[(b * 4 + q) * hidden + j] + kbias[q * hidden + (int)j]) / 64.0;
    const double si = 1 / (1 + exp(-g[0])), sf = 1 / (1 + exp(-g[1])), so = 1 / (1 + exp(-g[3]));
    const double cc = sf * hc[e] + si * tanh(g[2]);
    rc[e] = (float)cc;
    c->ref[e] = (float)(so * tanh(cc));
  }
  free(kg);
  c->hb = ho;
  c->count = ne;
  job->check = lstm_check;
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, cp);
  kjob_arg_buf(job, co);
  kjob_arg_buf(job, ho);
  kjob_arg_i32(job, hidden);
  kjob_arg_i32(job, batch);
  kjob_grid1(job, ne, 256);
  return 0;
}

SP_SETUP(ysetup_cuda) {
  switch (d->param) {
    case YCU_HGEMM:
      return hgemm_job(job, d, size);
    case YCU_JSON:
      return json_job(job, d, size);
    case YCU_LSTM:
      return lstm_job(job, d, size);
  }
  return -1;
}
