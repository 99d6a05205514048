/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream.c: host half of stream.cl (2-bit nucleotide packing, multigrid
 * restriction, COCO mask decoding, HDR tone mapping, moving averages).  The
 * packed words, masks and decoded pixels are exact; the restriction and the
 * moving average are replayed in double in the kernel's order (only
 * contractions into fused multiply-adds may differ); the tone-mapped pixels
 * are computed in double and may differ by one step of 8 bits per channel
 * from the device's float math.  Big inputs repeat one stretch drawn from
 * the generator, so that setting up stays quick. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation8.h"

/* Copies the first len bytes of p over the rest of its n bytes. */
static void repeat_stretch(uint8_t *p, size_t len, size_t n) {
  for (size_t q = len; q < n; q += len) memcpy(p + q, p, n - q < len ? n - q : len);
}

/* ---- 2-bit nucleotide packing ------------------------------------------------------------ */

static uint32_t dna_code(uint8_t c, int *is_n) {
  const uint8_t u = c & 0xDF;
  *is_n = !(u == 'A' || u == 'C' || u == 'G' || u == 'T');
  return *is_n ? 0 : (uint32_t)(c >> 1 & 3);
}

/* A genome-like text: bases with soft-masked (lowercase) repeats and runs of
 * N, one 4 MiB stretch repeated. */
static void dna_text(uint8_t *t, size_t n, krng *r) {
  static const char acgt[] = "ACGT";
  const size_t len = n < ((size_t)4 << 20) ? n : (size_t)4 << 20;
  size_t p = 0;
  while (p < len) {
    const uint32_t kind = krng_below(r, 100), run = 50 + krng_below(r, 2000);
    for (size_t k = 0; k < run && p < len; ++k, ++p) {
      const uint8_t b = (uint8_t)acgt[krng_below(r, 4)];
      t[p] = kind < 3 ? 'N' : kind < 40 ? (uint8_t)(b | 0x20) : b;
    }
  }
  repeat_stretch(t, len, n);
}

static int dna_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nb = size == KSIZE_FULL ? (size_t)512 << 20 : (size_t)1 << 18, nw = nb / 16;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "s_dna_pack_2bit");
  int sb = kjob_buf(job, nb, KB_IN), pb = sbuf_u32(job, nw, KB_OUT);
  int mb = sbuf_u32(job, nw / 2, KB_OUT);
  uint32_t *rp = sref_sampled(job, pb, KC_U32, nw, S_SAMPLES, 0, 0);
  uint32_t *rm = sref_sampled(job, mb, KC_U32, nw / 2, S_SAMPLES, 0, 0);
  if (job->buf[sb].host == NULL || rp == NULL || rm == NULL) return -1;
  uint8_t *t = job->buf[sb].host;
  dna_text(t, nb, &r);
  for (size_t s = 0; s < job->buf[pb].count; ++s) {
    const size_t w = job->buf[pb].sample[s];
    uint32_t word = 0;
    for (int k = 0; k < 16; ++k) {
      int is_n;
      word |= dna_code(t[w * 16 + k], &is_n) << (2 * k);
    }
    rp[s] = word;
  }
  for (size_t s = 0; s < job->buf[mb].count; ++s) { /* two 16-bit masks per word */
    const size_t w2 = job->buf[mb].sample[s];
    uint32_t mask = 0;
    for (int k = 0; k < 32; ++k) {
      int is_n;
      dna_code(t[w2 * 32 + k], &is_n);
      mask |= (uint32_t)is_n << k;
    }
    rm[s] = mask;
  }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, mb);
  kjob_arg_i32(job, (int)nw);
  kjob_grid1(job, nw, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- multigrid restriction --------------------------------------------------------------- */

static int mg_job(kjob *job, const kdesc *d, ksize size) {
  const int nc = size == KSIZE_FULL ? 256 : 16, nf = 2 * nc;
  const size_t nfine = (size_t)nf * nf * nf, ncoarse = (size_t)nc * nc * nc;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "s_mg_restrict_f64");
  int fb = kjob_buf(job, nfine * 8, KB_IN), cb = kjob_buf(job, ncoarse * 8, KB_OUT);
  double *ref = sref_sampled(job, cb, KC_F64, ncoarse, S_SAMPLES, 1e-13, 1e-15);
  double *tab = malloc((size_t)nf * 3 * sizeof *tab + 4096 * sizeof *tab);
  if (job->buf[fb].host == NULL || ref == NULL || tab == NULL) {
    free(tab);
    return -1;
  }
  double *f = job->buf[fb].host, *noise = tab + 3 * nf;
  for (int k = 0; k < nf; ++k) { /* smooth separable modes plus a repeating noise table */
    tab[k] = sin(6.283185307179586 * 3 * k / nf);
    tab[nf + k] = cos(6.283185307179586 * 5 * k / nf);
    tab[2 * nf + k] = 0.5 + 0.25 * sin(6.283185307179586 * 2 * k / nf);
  }
  for (int k = 0; k < 4096; ++k) noise[k] = krng_uniform(&r, -0.05, 0.05);
  for (int z = 0; z < nf; ++z)
    for (int y = 0; y < nf; ++y) {
      double *row = f + ((size_t)z * nf + y) * nf;
      const double zy = tab[nf + y] * tab[2 * nf + z];
      for (int x = 0; x < nf; ++x) row[x] = tab[x] * zy + noise[(x * 7 + y * 13 + z * 29) & 4095];
    }
  free(tab);
  for (size_t s = 0; s < job->buf[cb].count; ++s) {
    const size_t e = job->buf[cb].sample[s];
    const int i = (int)(e % nc), j = (int)(e / nc % nc), k = (int)(e / ((size_t)nc * nc));
    double acc = 0.0;
    for (int dz = -1; dz <= 1; ++dz) {
      const int z = (2 * k + dz + nf) % nf;
      const double wz = dz == 0 ? 0.5 : 0.25;
      for (int dy = -1; dy <= 1; ++dy) {
        const int y = (2 * j + dy + nf) % nf;
        const double wzy = wz * (dy == 0 ? 0.5 : 0.25);
        const double *row = f + ((size_t)z * nf + y) * nf;
        acc += wzy * (0.25 * row[(2 * i - 1 + nf) % nf] + 0.5 * row[2 * i] +
                      0.25 * row[(2 * i + 1) % nf]);
      }
    }
    ref[s] = acc;
  }
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, nc);
  kjob_grid1(job, ncoarse, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- COCO run-length decoding ------------------------------------------------------------ */

static int rle_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nm = full ? 64 : 4;
  const int npix = full ? 4096 * 2048 : 256 * 128;
  const size_t items = (size_t)nm * npix / 16, words = items * 4;
  const uint32_t mean_run = full ? 700 : 60;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "s_coco_rle_decode");
  /* run lengths 1..2 mean_run - 1: at most npix / 1 runs, far fewer in practice */
  size_t cap = (size_t)nm * (npix / (mean_run / 4) + 2);
  uint32_t *st = malloc(cap * sizeof *st);
  int *off = malloc((size_t)(nm + 1) * sizeof *off);
  if (st == NULL || off == NULL) {
    free(st);
    free(off);
    return -1;
  }
  size_t nr = 0;
  for (int m = 0; m < nm; ++m) { /* starts of alternating runs, the first at 0 */
    off[m] = (int)nr;
    for (uint32_t p = 0; p < (uint32_t)npix && nr < cap;) {
      st[nr++] = p;
      p += 1 + krng_below(&r, (nr & 1) ? 2 * mean_run : mean_run);
    }
  }
  off[nm] = (int)nr;
  int sb = sbuf_u32(job, nr, KB_IN), ob = kjob_buf(job, (size_t)(nm + 1) * 4, KB_IN);
  int pb = sbuf_u32(job, words, KB_OUT);
  uint32_t *ref = sref_sampled(job, pb, KC_U32, words, S_SAMPLES, 0, 0);
  if (sb < 0 || job->buf[ob].host == NULL || ref == NULL) {
    free(st);
    free(off);
    return -1;
  }
  memcpy(job->buf[sb].host, st, nr * 4);
  memcpy(job->buf[ob].host, off, (size_t)(nm + 1) * 4);
  for (size_t s = 0; s < job->buf[pb].count; ++s) {
    const size_t w = job->buf[pb].sample[s], g = w / 4;
    const int m = (int)(g / ((size_t)npix / 16));
    const uint32_t p0 = (uint32_t)(g % ((size_t)npix / 16)) * 16 + (uint32_t)(w % 4) * 4;
    uint32_t word = 0;
    for (int b = 0; b < 4; ++b) {
      int lo = off[m], hi = off[m + 1] - 1;
      while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (st[mid] <= p0 + (uint32_t)b)
          lo = mid;
        else
          hi = mid - 1;
      }
      word |= (uint32_t)((lo - off[m]) & 1) << (8 * b);
    }
    ref[s] = word;
  }
  free(st);
  free(off);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, pb);
  kjob_arg_i32(job, npix);
  kjob_arg_i32(job, (int)items);
  kjob_grid1(job, items, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- HDR tone mapping -------------------------------------------------------------------- */

static double aces_curve(double v) {
  return (v * (v + 0.0245786) - 0.000090537) / (v * (0.983729 * v + 0.4329510) + 0.238081);
}

static double srgb(double c) {
  c = c < 0 ? 0 : c > 1 ? 1 : c;
  return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055;
}

static uint32_t aces_pixel(const float *px, uint32_t i, float exposure) {
  static const double slope[3] = {1.08, 1.0, 0.94}, offset[3] = {0.01, 0.0, -0.005};
  static const double power[3] = {0.95, 1.0, 1.04};
  double c[3];
  for (int k = 0; k < 3; ++k) {
    const double v = (double)px[k] * exposure * slope[k] + offset[k];
    c[k] = v > 0 ? pow(v, power[k]) : 0;
  }
  const double luma = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  for (int k = 0; k < 3; ++k) c[k] = luma + 1.1 * (c[k] - luma);
  const double r1 = aces_curve(0.59719 * c[0] + 0.35458 * c[1] + 0.04823 * c[2]);
  const double g1 = aces_curve(0.07600 * c[0] + 0.90834 * c[1] + 0.01566 * c[2]);
  const double b1 = aces_curve(0.02840 * c[0] + 0.13383 * c[1] + 0.83777 * c[2]);
  const double o[3] = {1.60475 * r1 - 0.53108 * g1 - 0.07367 * b1,
                       -0.10208 * r1 + 1.10813 * g1 - 0.00605 * b1,
                       -0.00327 * r1 - 0.07276 * g1 + 1.07602 * b1};
  const uint32_t h1 = s_hash_host(i), h2 = s_hash_host(i ^ 0x9e3779b9u);
  const double dither = ((double)(h1 >> 8) + (double)(h2 >> 8)) / 16777216.0 - 1.0;
  uint32_t word = 255u << 24;
  for (int k = 0; k < 3; ++k) {
    double q = srgb(o[k]) * 255.0 + 0.5 + 0.5 * dither;
    q = q < 0 ? 0 : q > 255 ? 255 : q;
    word |= (uint32_t)q << (8 * k);
  }
  return word;
}

static int aces_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)8192 * 4096 : (size_t)256 * 128;
  const size_t len = n < ((size_t)1 << 20) ? n : (size_t)1 << 20; /* pixels drawn, then repeated */
  const float exposure = 1.6f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "s_aces_tonemap");
  int ib = kjob_buf(job, n * 12, KB_IN), ob = sbuf_u32(job, n, KB_OUT);
  const size_t count = n < S_SAMPLES ? n : S_SAMPLES;
  size_t *idx = malloc(count * sizeof *idx);
  uint32_t *want = malloc(count * sizeof *want);
  if (job->buf[ib].host == NULL || idx == NULL || want == NULL) {
    free(idx);
    free(want);
    return -1;
  }
  float *rgb = job->buf[ib].host;
  for (size_t i = 0; i < len; ++i) { /* log-uniform radiance 2^-8..2^4, tinted per channel */
    const double lum = exp2(krng_uniform(&r, -8, 4));
    for (int k = 0; k < 3; ++k) rgb[3 * i + k] = (float)(lum * krng_uniform(&r, 0.6, 1.4));
  }
  repeat_stretch((uint8_t *)rgb, len * 12, n * 12);
  for (size_t s = 0; s < count; ++s) {
    idx[s] = kspread(s, count, n);
    want[s] = aces_pixel(rgb + 3 * idx[s], (uint32_t)idx[s], exposure);
  }
  if (scheck_u8x4(job, ob, count, idx, want, 1) != 0) return -1;
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_arg_f32(job, exposure);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- exponentially weighted moving average ---------------------------------------------- */

static int ewma_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, ns = full ? 16384 : 512, nt = full ? 2048 : 256;
  const size_t n = (size_t)ns * nt;
  const double alpha = 0.0625;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "s_ewma_series_f64");
  int xb = kjob_buf(job, n * 8, KB_IN), yb = kjob_buf(job, n * 8, KB_OUT);
  double *ref = sref_sampled(job, yb, KC_F64, n, S_SAMPLES, 1e-12, 1e-12);
  double *walk = malloc((size_t)ns * sizeof *walk);
  if (job->buf[xb].host == NULL || ref == NULL || walk == NULL) {
    free(walk);
    return -1;
  }
  double *x = job->buf[xb].host;
  for (int s = 0; s < ns; ++s) walk[s] = krng_uniform(&r, 50, 150);
  for (int t = 0; t < nt; ++t) /* random-walk prices with noise */
    for (int s = 0; s < ns; ++s) {
      walk[s] += krng_uniform(&r, -0.5, 0.5);
      x[(size_t)t * ns + s] = walk[s] + krng_uniform(&r, -2, 2);
    }
  free(walk);
  for (size_t c = 0; c < job->buf[yb].count; ++c) {
    const size_t e = job->buf[yb].sample[c], s = e % (size_t)ns, t = e / (size_t)ns;
    double m = x[s];
    for (size_t k = 1; k <= t; ++k) m = m + alpha * (x[k * ns + s] - m);
    ref[c] = m;
  }
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, yb);
  kjob_arg_i32(job, ns);
  kjob_arg_i32(job, nt);
  kjob_arg_f64(job, alpha);
  kjob_grid1(job, (size_t)ns, 64);
  return 0;
}

SP_SETUP(ssetup_stream) {
  switch (d->param) {
    case SST_DNA:
      return dna_job(job, d, size);
    case SST_MG:
      return mg_job(job, d, size);
    case SST_RLE:
      return rle_job(job, d, size);
    case SST_ACES:
      return aces_job(job, d, size);
    case SST_EWMA:
      return ewma_job(job, d, size);
  }
  return -1;
}
