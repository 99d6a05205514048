/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cudaonly.c: host half of cudaonly.cu (CUDA only: Porter-Duff over, the
 * NVE step, Lennard-Jones energy in fixed point, Nussinov folding, MFCCs,
 * the look-back scan).  Compositing and the NVE step repeat the kernels'
 * fmaf calls, so they match exactly; the folding scores and the prefix sums
 * are integers; the fixed-point energy and the cepstra are compared with
 * double arithmetic within tolerances that cover float sums. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation11.h"

enum { K11_STRETCH = 1 << 20 };

static size_t stretch(size_t n) { return n < K11_STRETCH ? n : K11_STRETCH; }

/* ---- Porter-Duff over -------------------------------------------------------------------- */

static int over_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)32 << 20 : 4096, len = stretch(n);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "k_over_rgba_v4");
  int ab = kjob_buf(job, n * 16, KB_IN), bb = kjob_buf(job, n * 16, KB_IN);
  int ob = kjob_buf(job, n * 16, KB_OUT);
  float *ref = kjob_ref_sampled(job, ob, KC_F32, n * 4, K11_SAMPLES, 0, 0);
  if (job->buf[ab].host == NULL || job->buf[bb].host == NULL || ref == NULL) return -1;
  float *a = job->buf[ab].host, *b = job->buf[bb].host;
  for (size_t i = 0; i < len; ++i) { /* premultiplied: colour <= alpha; A often opaque or clear */
    const uint32_t kind = krng_below(&r, 4);
    const float aa = kind == 0 ? 1.0f : kind == 1 ? 0.0f : (float)krng_uniform(&r, 0, 1);
    const float ba = (float)krng_uniform(&r, 0, 1);
    for (int c = 0; c < 3; ++c) {
      a[4 * i + c] = aa * (float)krng_uniform(&r, 0, 1);
      b[4 * i + c] = ba * (float)krng_uniform(&r, 0, 1);
    }
    a[4 * i + 3] = aa;
    b[4 * i + 3] = ba;
  }
  krepeat(a, len * 16, n * 16);
  krepeat(b, len * 16, n * 16);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], px = e / 4;
    ref[s] = fmaf(b[e], 1.0f - a[4 * px + 3], a[e]);
  }
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, bb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- NVE step ---------------------------------------------------------------------------- */

static float wrap(float x, float box) {
  return x >= 0.5f * box ? x - box : x < -0.5f * box ? x + box : x;
}

static int nve_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)16 << 20 : 4096, len = stretch(n);
  const float dt = 0.005f, box = 64.0f;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "k_nve_step_v4");
  int pb = kjob_buf(job, n * 16, KB_IN), vb = kjob_buf(job, n * 16, KB_IN);
  int ab = kjob_buf(job, n * 16, KB_IN), p2 = kjob_buf(job, n * 16, KB_OUT);
  int v2 = kjob_buf(job, n * 16, KB_OUT);
  float *rp = kjob_ref_sampled(job, p2, KC_F32, n * 4, K11_SAMPLES, 0, 0);
  float *rv = kjob_ref_sampled(job, v2, KC_F32, n * 4, K11_SAMPLES, 0, 0);
  if (job->buf[pb].host == NULL || job->buf[vb].host == NULL || job->buf[ab].host == NULL ||
      rp == NULL || rv == NULL)
    return -1;
  float *p = job->buf[pb].host, *v = job->buf[vb].host, *a = job->buf[ab].host;
  for (size_t i = 0; i < len; ++i) { /* a liquid near the box's faces too */
    for (int c = 0; c < 3; ++c) {
      p[4 * i + c] = (float)krng_uniform(&r, -0.5 * box, 0.5 * box);
      v[4 * i + c] = (float)krng_uniform(&r, -2, 2);
      a[4 * i + c] = (float)krng_uniform(&r, -50, 50);
    }
    p[4 * i + 3] = (float)krng_below(&r, 3);        /* type */
    v[4 * i + 3] = 1.0f + (float)krng_below(&r, 3); /* mass */
    a[4 * i + 3] = 0.0f;
  }
  krepeat(p, len * 16, n * 16);
  krepeat(v, len * 16, n * 16);
  krepeat(a, len * 16, n * 16);
  for (size_t s = 0; s < job->buf[p2].count; ++s) {
    const size_t e = job->buf[p2].sample[s], c = e % 4;
    const float vn = c < 3 ? fmaf(a[e], 0.5f * dt, v[e]) : v[e];
    rp[s] = c < 3 ? wrap(fmaf(vn, dt, p[e]), box) : p[e];
    rv[s] = vn;
  }
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, ab);
  kjob_arg_buf(job, p2);
  kjob_arg_buf(job, v2);
  kjob_arg_i32(job, (int)n);
  kjob_arg_f32(job, dt);
  kjob_arg_f32(job, box);
  kjob_grid1(job, n, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- Lennard-Jones energy ---------------------------------------------------------------- */

enum { LJ_NN = 48 };

/* The expected energy, compared within 1e-5 of the sum of |per-atom
 * energy| (float sums, conversions rounded per atom). */
typedef struct lj_ref {
  int eb;
  double want, scale;
} lj_ref;

static int lj_check(const kjob *job, char *msg, size_t size) {
  const lj_ref *lr = job->priv;
  uint64_t word;
  memcpy(&word, job->buf[lr->eb].result, 8);
  const double got = (double)(int64_t)word / 16777216.0;
  if (!(fabs(got - lr->want) <= 1e-5 * lr->scale)) {
    snprintf(msg, size, "energy: got %.9g, expected %.9g (|diff| > %.3g)", got, lr->want,
             1e-5 * lr->scale);
    return -1;
  }
  return 0;
}

static int lj_job(kjob *job, const kdesc *d, ksize size) {
  const int side = size == KSIZE_FULL ? 100 : 16, n = side * side * side;
  const float spacing = 1.1f, rc2 = 6.25f;
  int off[LJ_NN][3], no = 0;
  for (int r2 = 1; r2 <= 5 && no < LJ_NN; ++r2) /* the 48 nearest lattice offsets */
    for (int z = -2; z <= 2; ++z)
      for (int y = -2; y <= 2; ++y)
        for (int x = -2; x <= 2; ++x)
          if (x * x + y * y + z * z == r2 && no < LJ_NN) {
            off[no][0] = x;
            off[no][1] = y;
            off[no][2] = z;
            ++no;
          }
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "k_lj_energy_fx64");
  int pb = kjob_buf(job, (size_t)n * 16, KB_IN), nb = kjob_buf_u32(job, (size_t)n * LJ_NN, KB_IN);
  int eb = kjob_buf(job, 8, KB_INOUT);
  lj_ref *lr = malloc(sizeof *lr);
  job->priv = lr;
  if (job->buf[pb].host == NULL || nb < 0 || job->buf[eb].host == NULL || lr == NULL) return -1;
  float *p = job->buf[pb].host;
  int32_t *nl = job->buf[nb].host;
  for (int i = 0; i < n; ++i) { /* a jittered simple cubic lattice */
    const int c[3] = {i % side, i / side % side, i / (side * side)};
    for (int k = 0; k < 3; ++k)
      p[4 * i + k] = spacing * (float)c[k] + (float)krng_uniform(&r, -0.05, 0.05);
    p[4 * i + 3] = 0.0f;
  }
  double want = 0, scale = 0;
  for (int i = 0; i < n; ++i) {
    const int c[3] = {i % side, i / side % side, i / (side * side)};
    double e = 0;
    for (int k = 0; k < LJ_NN; ++k) { /* neighbours wrap around the lattice (then out of range) */
      const int x = (c[0] + off[k][0] + side) % side, y = (c[1] + off[k][1] + side) % side,
                z = (c[2] + off[k][2] + side) % side, j = (z * side + y) * side + x;
      nl[(size_t)k * n + i] = j;
      const double dx = p[4 * j] - p[4 * i], dy = p[4 * j + 1] - p[4 * i + 1],
                   dz = p[4 * j + 2] - p[4 * i + 2], r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < rc2) {
        const double ir6 = 1 / (r2 * r2 * r2);
        e += 4 * ir6 * (ir6 - 1);
      }
    }
    want += 0.5 * e;
    scale += fabs(0.5 * e);
  }
  lr->eb = eb;
  lr->want = want;
  lr->scale = scale;
  job->check = lj_check;
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, nb);
  kjob_arg_buf(job, eb);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, LJ_NN);
  kjob_arg_f32(job, rc2);
  kjob_grid1(job, (size_t)n, 256);
  return 0;
}

/* ---- Nussinov ---------------------------------------------------------------------------- */

enum { NU_SEQS = 397 };

/* Row 0 of the table for sequence s (bases 0..3: A C G U), into row0[n]. */
static void nussinov_row0(const uint8_t *s, int n, int *tab, int *row0) {
  const int ld = n + 1;
  memset(tab, 0, (size_t)n * ld * sizeof *tab);
  for (int dd = 4; dd < n; ++dd)
    for (int i = 0; i + dd < n; ++i) {
      const int j = i + dd, sum = s[i] + s[j];
      int best =
          tab[(i + 1) * ld + j] > tab[i * ld + j - 1] ? tab[(i + 1) * ld + j] : tab[i * ld + j - 1];
      const int pr = tab[(i + 1) * ld + j - 1] + (sum == 3 || sum == 5);
      best = pr > best ? pr : best;
      for (int k = i + 1; k < j; ++k) {
        const int v = tab[i * ld + k] + tab[(k + 1) * ld + j];
        best = v > best ? v : best;
      }
      tab[i * ld + j] = best;
    }
  for (int j = 0; j < n; ++j) row0[j] = tab[j];
}

static int nussinov_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, n = full ? 192 : 48, ns = full ? NU_SEQS : 8;
  const int every = full ? 8 : 1, nchk = (ns + every - 1) / every;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "k_nussinov_397");
  int sb = kjob_buf(job, (size_t)ns * n, KB_IN), ob = kjob_buf_u32(job, (size_t)ns * n, KB_OUT);
  size_t *idx;
  int32_t *ref = kjob_ref_at(job, ob, KC_U32, (size_t)nchk * n, 0, 0, &idx);
  int *tab = malloc((size_t)n * (n + 1) * sizeof *tab);
  if (job->buf[sb].host == NULL || ref == NULL || tab == NULL) {
    free(tab);
    return -1;
  }
  uint8_t *seq = job->buf[sb].host;
  for (size_t i = 0; i < (size_t)ns * n; ++i) seq[i] = (uint8_t)krng_below(&r, 4);
  for (int c = 0; c < nchk; ++c) {
    const int s = c * every;
    nussinov_row0(seq + (size_t)s * n, n, tab, ref + (size_t)c * n);
    for (int j = 0; j < n; ++j) idx[(size_t)c * n + j] = (size_t)s * n + j;
  }
  free(tab);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_grid(job, (size_t)ns, 1, 1, 256, 1, 1);
  job->dyn_local = (size_t)n * (n + 1) * 4;
  kjob_sampleable(job);
  return 0;
}

/* ---- MFCC -------------------------------------------------------------------------------- */

enum { MF_B = 257, MF_M = 40, MF_C = 13, MF_LEN = 4096 };

static double mel(double hz) { return 1127.0 * log(1 + hz / 700.0); }

static int mfcc_job(kjob *job, const kdesc *d, ksize size) {
  const size_t nf = size == KSIZE_FULL ? (size_t)1 << 20 : 512;
  const size_t len = nf < MF_LEN ? nf : MF_LEN;
  const double pi = 3.14159265358979323846, sr = 16000;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "k_mfcc_warp_b32");
  int sb = kjob_buf(job, nf * MF_B * 4, KB_IN), fb = kjob_buf_u32(job, 3 * MF_M, KB_IN);
  int wb = kjob_buf(job, 2 * MF_B * 4, KB_IN), db = kjob_buf(job, MF_C * MF_M * 4, KB_IN);
  int ob = kjob_buf(job, nf * MF_C * 4, KB_OUT);
  float *ref = kjob_ref_sampled(job, ob, KC_F32, nf * MF_C, K11_SAMPLES, 1e-4, 1e-3);
  if (job->buf[sb].host == NULL || fb < 0 || job->buf[wb].host == NULL ||
      job->buf[db].host == NULL || ref == NULL)
    return -1;
  float *spec = job->buf[sb].host, *w = job->buf[wb].host, *dct = job->buf[db].host;
  int32_t *fbt = job->buf[fb].host;
  /* Kaldi's mel banks: MF_M triangles equally spaced in mel from 20 Hz to
   * the Nyquist frequency, on the FFT bins' centre frequencies. */
  const double lo = mel(20), hi = mel(sr / 2), dm = (hi - lo) / (MF_M + 1);
  int woff = 0;
  for (int m = 0; m < MF_M; ++m) {
    const double left = lo + m * dm, centre = left + dm, right = centre + dm;
    int first = -1, last = -1;
    for (int b = 0; b < MF_B; ++b) {
      const double mb = mel(b * sr / 512);
      if (mb > left && mb < right) {
        if (first < 0) first = b;
        last = b;
      }
    }
    if (first < 0) first = last = (int)(centre / hi * (MF_B - 1)); /* never: banks are wide */
    fbt[3 * m] = first;
    fbt[3 * m + 1] = last - first + 1;
    fbt[3 * m + 2] = woff;
    for (int b = first; b <= last; ++b) {
      const double mb = mel(b * sr / 512);
      w[woff++] = (float)(mb <= centre ? (mb - left) / dm : (right - mb) / dm);
    }
  }
  for (int k = 0; k < MF_C; ++k) /* orthonormal DCT-II */
    for (int m = 0; m < MF_M; ++m)
      dct[k * MF_M + m] = (float)(sqrt((k ? 2.0 : 1.0) / MF_M) * cos(pi * k * (m + 0.5) / MF_M));
  for (size_t f = 0; f < len; ++f) { /* speech-like: a spectral tilt, formant bumps, noise */
    const double f1 = krng_uniform(&r, 300, 900), f2 = krng_uniform(&r, 900, 2500);
    const double gain = pow(10, krng_uniform(&r, -3, 2));
    for (int b = 0; b < MF_B; ++b) {
      const double hz = b * sr / 512;
      const double env = exp(-hz / 3000) * (1 + 8 * exp(-pow((hz - f1) / 150, 2)) +
                                            4 * exp(-pow((hz - f2) / 250, 2)));
      spec[f * MF_B + b] = (float)(gain * env * krng_uniform(&r, 0.05, 2));
    }
  }
  krepeat(spec, len * MF_B * 4, nf * MF_B * 4);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], f = e / MF_C, k = e % MF_C;
    double c = 0;
    for (int m = 0; m < MF_M; ++m) {
      double en = 0;
      for (int b = 0; b < fbt[3 * m + 1]; ++b)
        en += (double)w[fbt[3 * m + 2] + b] * spec[f * MF_B + fbt[3 * m] + b];
      c += (double)dct[k * MF_M + m] * log(en > 1e-10 ? en : 1e-10);
    }
    ref[s] = (float)c;
  }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, db);
  kjob_arg_buf(job, ob);
  kjob_grid(job, nf, 1, 1, 32, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- look-back scan ---------------------------------------------------------------------- */

enum { LB_TILE = 4096 };

static int scan_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)128 << 20 : (size_t)64 << 10, nt = n / LB_TILE;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "cudaonly.cu", "k_scan_lookback_u32");
  int ib = kjob_buf_u32(job, n, KB_IN), ob = kjob_buf_u32(job, n, KB_OUT);
  int sb = kjob_buf(job, nt * 8, KB_INOUT), cb = kjob_buf_u32(job, 1, KB_INOUT);
  uint32_t *ref = kjob_ref_sampled(job, ob, KC_U32, n, K11_SAMPLES, 0, 0);
  uint32_t *cref = kjob_ref(job, cb, KC_U32, 1, 0, 0);
  if (ib < 0 || job->buf[sb].host == NULL || cb < 0 || ref == NULL || cref == NULL) return -1;
  uint32_t *in = job->buf[ib].host;
  for (size_t i = 0; i < stretch(n); ++i) in[i] = krng_below(&r, 256);
  krepeat(in, stretch(n) * 4, n * 4);
  uint32_t acc = 0;
  for (size_t i = 0, s = 0; i < n && s < job->buf[ob].count; ++i) {
    acc += in[i];
    while (s < job->buf[ob].count && job->buf[ob].sample[s] == i) ref[s++] = acc;
  }
  cref[0] = (uint32_t)nt; /* every tile took one ticket */
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, cb);
  kjob_arg_i32(job, (int)nt);
  kjob_grid(job, nt, 1, 1, 256, 1, 1);
  return 0;
}

SP_SETUP(k11setup_cuda) {
  switch (d->param) {
    case K11CU_OVER:
      return over_job(job, d, size);
    case K11CU_NVE:
      return nve_job(job, d, size);
    case K11CU_LJ:
      return lj_job(job, d, size);
    case K11CU_NUSSINOV:
      return nussinov_job(job, d, size);
    case K11CU_MFCC:
      return mfcc_job(job, d, size);
    case K11CU_SCAN:
      return scan_job(job, d, size);
  }
  return -1;
}
