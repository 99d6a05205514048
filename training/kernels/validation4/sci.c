/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sci.c: host half of sci.cl (template tracking, streamcluster gain, B+tree
 * range search, Hodgkin-Huxley population, batched Needleman-Wunsch,
 * photon transport, staggered Dslash, checkerboard Ising, tile-wise
 * histogram equalisation).  References: double on sampled outputs, exact
 * replays of integer results, and for the two chaotic ones (the neuron
 * population, the photon walks) properties that do not depend on rounding:
 * spike counts within one, exact conservation of the launched weight. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation4.h"

/* sp_dev.h's sp_wang32 and sp_unit24, on the host. */
static uint32_t y_hash(uint32_t a) {
  a = (a ^ 61u) ^ (a >> 16);
  a *= 9u;
  a ^= a >> 4;
  a *= 0x27d4eb2du;
  a ^= a >> 15;
  return a;
}

static float y_unit(uint32_t h) { return (float)(h >> 8) * (1.0f / 16777216.0f); }

/* ---- template tracking ------------------------------------------------------------- */

enum { TM_S = 48, TM_P = 96 };

static int tm_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 1024 : 256, pts = full ? 270 : 6;
  const int nf = full ? 8 : 2;
  const size_t fsz = (size_t)w * w, nout = (size_t)pts * nf * TM_S * TM_S;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "y_template_ncc");
  int fb = kjob_buf(job, fsz * (nf + 1) * 4, KB_IN), cb = ybuf_u32(job, 2 * (size_t)pts, KB_IN);
  int ob = kjob_buf(job, nout * 4, KB_OUT);
  float *ref = yref_sampled(job, ob, KC_F32, nout, 2e-3, 2e-3);
  float *hf = job->buf[fb].host;
  if (hf == NULL || cb < 0 || ref == NULL) return -1;
  int32_t *hc = job->buf[cb].host;
  /* Speckle-like frames: a texture drifting by a pixel a frame, plus noise. */
  for (int f = 0; f <= nf; ++f)
    for (int y = 0; y < w; ++y)
      for (int x = 0; x < w; ++x)
        hf[f * fsz + (size_t)y * w + x] =
            (float)(0.5 + 0.2 * sin((x - f) * 0.21 + y * 0.13) * cos(y * 0.17 - (x - f) * 0.05) +
                    krng_uniform(&r, -0.15, 0.15));
  for (int p = 0; p < pts; ++p) {
    hc[2 * p] = TM_P / 2 + (int)krng_below(&r, (uint32_t)(w - TM_P));
    hc[2 * p + 1] = TM_P / 2 + (int)krng_below(&r, (uint32_t)(w - TM_P));
  }
  int last = -1;
  double tn[TM_S * TM_S];
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], p = e % (TM_S * TM_S);
    const int pt = (int)(e / (TM_S * TM_S) / nf), f = (int)(e / (TM_S * TM_S) % nf) + 1;
    const int cy = hc[2 * pt], cx = hc[2 * pt + 1];
    if (pt != last) {
      double m = 0, ss = 0;
      for (int k = 0; k < TM_S * TM_S; ++k)
        m += tn[k] = hf[(size_t)(cy - TM_S / 2 + k / TM_S) * w + cx - TM_S / 2 + k % TM_S];
      m /= TM_S * TM_S;
      for (int k = 0; k < TM_S * TM_S; ++k) ss += (tn[k] - m) * (tn[k] - m);
      for (int k = 0; k < TM_S * TM_S; ++k) tn[k] = (tn[k] - m) / sqrt(ss);
      last = pt;
    }
    const int y0 = cy - TM_P / 2 + (int)(p / TM_S), x0 = cx - TM_P / 2 + (int)(p % TM_S);
    double sft = 0, sf = 0, sff = 0;
    for (int k = 0; k < TM_S * TM_S; ++k) {
      const double v = hf[f * fsz + (size_t)(y0 + k / TM_S) * w + x0 + k % TM_S];
      sft += v * tn[k];
      sf += v;
      sff += v * v;
    }
    ref[s] = (float)(sft / sqrt(sff - sf * sf / (TM_S * TM_S)));
  }
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, nf);
  kjob_grid(job, (size_t)pts, 1, 1, 1024, 1, 1);
  return 0;
}

/* ---- streamcluster gain ----------------------------------------------------------------- */

enum { SC_DIM = 32 };

static int sc_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)4 << 20 : 5000, groups = (n + 255) / 256;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "y_streamcluster_gain");
  int xb = yin_f32(job, n * SC_DIM, &r, 0, 1), wb = yin_f32(job, n, &r, 0.5, 2);
  int cb = yin_f32(job, n, &r, 0, 8), ctr = yin_f32(job, SC_DIM, &r, 0.2, 0.8);
  int sb = kjob_buf(job, n * 4, KB_OUT), gb = kjob_buf(job, groups * 4, KB_OUT);
  uint32_t *rs = yref_sampled(job, sb, KC_U32, n, 0, 0);
  float *rg = yref_sampled(job, gb, KC_F32, groups, 1e-4, 1e-4);
  if (xb < 0 || wb < 0 || cb < 0 || ctr < 0 || rs == NULL || rg == NULL) return -1;
  const float *hx = job->buf[xb].host, *hw = job->buf[wb].host, *hc = job->buf[cb].host;
  const float *hz = job->buf[ctr].host;
#define SC_D(i)                                                  \
  do {                                                           \
    dd = 0;                                                      \
    for (int k = 0; k < SC_DIM; ++k) {                           \
      const double df = (double)hx[(size_t)k * n + (i)] - hz[k]; \
      dd += df * df;                                             \
    }                                                            \
    dd *= hw[i];                                                 \
  } while (0)
  double dd;
  for (size_t s = 0; s < job->buf[sb].count; ++s) {
    const size_t i = job->buf[sb].sample[s];
    SC_D(i);
    rs[s] = dd < hc[i];
  }
  for (size_t s = 0; s < job->buf[gb].count; ++s) {
    const size_t g = job->buf[gb].sample[s];
    double sum = 0;
    for (size_t i = g * 256; i < (g + 1) * 256 && i < n; ++i) {
      SC_D(i);
      if (dd < hc[i]) sum += hc[i] - dd;
    }
    rg[s] = (float)sum;
  }
#undef SC_D
  kjob_arg_buf(job, xb);
  kjob_arg_buf(job, wb);
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ctr);
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, gb);
  kjob_arg_i32(job, (int)n);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

/* ---- B+tree range search ------------------------------------------------------------------ */

enum { BT_F = 128 };

static int bt_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, levels = full ? 3 : 2;
  const size_t leaves = full ? 64 * BT_F : 16, nk = leaves * BT_F, nq = full ? 500000 : 500;
  size_t lcount[4] = {0}, off[4] = {0}, nodes = 0;
  lcount[levels - 1] = leaves;
  for (int l = levels - 2; l >= 0; --l) lcount[l] = (lcount[l + 1] + BT_F - 1) / BT_F;
  for (int l = 0; l < levels; ++l) {
    off[l] = nodes;
    nodes += lcount[l];
  }
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "y_bptree_range");
  int nb = ybuf_u32(job, nodes * BT_F, KB_IN), lb = ybuf_u32(job, 4, KB_IN);
  int qb = ybuf_u32(job, 2 * nq, KB_IN), ob = kjob_buf(job, 2 * nq * 4, KB_OUT);
  uint32_t *ref = kjob_ref(job, ob, KC_U32, 2 * nq, 0, 0);
  uint32_t *keys = malloc(nk * sizeof *keys);
  if (nb < 0 || lb < 0 || qb < 0 || ref == NULL || keys == NULL) {
    free(keys);
    return -1;
  }
  uint32_t *hn = job->buf[nb].host, *hq = job->buf[qb].host;
  int32_t *hl = job->buf[lb].host;
  for (size_t i = 0; i < nk; ++i) keys[i] = (i ? keys[i - 1] : 0) + 1 + krng_below(&r, 7);
  memset(hn, 0xff, nodes * BT_F * 4);
  memcpy(hn + off[levels - 1] * BT_F, keys, nk * 4);
  /* Separators: the first key of each child's subtree. */
  for (int l = levels - 2; l >= 0; --l)
    for (size_t c = 0; c < lcount[l + 1]; ++c)
      hn[(off[l] + c / BT_F) * BT_F + c % BT_F] = hn[(off[l + 1] + c) * BT_F];
  for (int l = 0; l < levels; ++l) hl[l] = (int32_t)off[l];
  for (size_t q = 0; q < nq; ++q) {
    const uint32_t lo = krng_below(&r, keys[nk - 1] + 10);
    const uint32_t hi = lo + krng_below(&r, 3000);
    hq[2 * q] = lo;
    hq[2 * q + 1] = hi;
    size_t a = 0, b = nk; /* lower bounds of lo and hi + 1 */
    while (a < b) {
      const size_t m = (a + b) / 2;
      if (keys[m] < lo)
        a = m + 1;
      else
        b = m;
    }
    size_t c = a, e = nk;
    while (c < e) {
      const size_t m = (c + e) / 2;
      if (keys[m] < hi + 1)
        c = m + 1;
      else
        e = m;
    }
    ref[2 * q] = (uint32_t)a;
    ref[2 * q + 1] = (uint32_t)(c - a);
  }
  free(keys);
  kjob_arg_buf(job, nb);
  kjob_arg_buf(job, lb);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, levels);
  kjob_grid(job, nq, 1, 1, BT_F, 1, 1);
  return 0;
}

/* ---- Hodgkin-Huxley population --------------------------------------------------------- */

enum { HH_SAMPLES = 512 };

typedef struct hh_chk {
  int vb, sb, count;
  size_t idx[HH_SAMPLES];
  uint32_t spikes[HH_SAMPLES];
} hh_chk;

static int hh_check(const kjob *job, char *msg, size_t size) {
  const hh_chk *c = job->priv;
  const float *v = job->buf[c->vb].result;
  const uint32_t *s = job->buf[c->sb].result;
  for (int k = 0; k < c->count; ++k) {
    const size_t i = c->idx[k];
    if (!(v[i] > -100.0f && v[i] < 60.0f) || s[i] + 1 < c->spikes[k] || s[i] > c->spikes[k] + 1) {
      snprintf(msg, size, "cell %zu: v %g, %u spikes, expected %u", i, v[i], s[i], c->spikes[k]);
      return -1;
    }
  }
  return 0;
}

static double vtrap(double x, double y) {
  return fabs(x / y) < 1e-6 ? y * (1 - x / y / 2) : x / (exp(x / y) - 1);
}

static int hh_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? 262144 : 1024;
  const int steps = size == KSIZE_FULL ? 4000 : 1500;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "y_hh_neuron");
  int ib = yin_f32(job, n, &r, 0, 15), vb = kjob_buf(job, n * 4, KB_OUT);
  int sb = kjob_buf(job, n * 4, KB_OUT);
  hh_chk *c = job->priv = malloc(sizeof *c);
  if (ib < 0 || c == NULL) return -1;
  const float *hi = job->buf[ib].host;
  c->vb = vb;
  c->sb = sb;
  c->count = HH_SAMPLES;
  for (int k = 0; k < HH_SAMPLES; ++k) {
    const size_t i = kspread((size_t)k, HH_SAMPLES, n);
    double v = -65, m = 0.053, h = 0.596, nn = 0.318;
    uint32_t cnt = 0;
    for (int s = 0; s < steps; ++s) {
      const double am = 0.1 * vtrap(-(v + 40), 10), bm = 4 * exp(-(v + 65) / 18);
      const double ah = 0.07 * exp(-(v + 65) / 20), bh = 1 / (1 + exp(-(v + 35) / 10));
      const double an = 0.01 * vtrap(-(v + 55), 10), bn = 0.125 * exp(-(v + 65) / 80);
      const double ion =
          120 * m * m * m * h * (v - 50) + 36 * nn * nn * nn * nn * (v + 77) + 0.3 * (v + 54.387);
      const double vn = v + 0.01 * (hi[i] - ion);
      m += 0.01 * (am * (1 - m) - bm * m);
      h += 0.01 * (ah * (1 - h) - bh * h);
      nn += 0.01 * (an * (1 - nn) - bn * nn);
      cnt += v < 0 && vn >= 0;
      v = vn;
    }
    c->idx[k] = i;
    c->spikes[k] = cnt;
  }
  job->check = hh_check;
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, sb);
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, steps);
  kjob_grid1(job, n, 128);
  return 0;
}

/* ---- batched Needleman-Wunsch --------------------------------------------------------------- */

enum { NW_L = 128 };

static int nw_job(kjob *job, const kdesc *d, ksize size) {
  const size_t pairs = size == KSIZE_FULL ? 65536 : 64, words = pairs * NW_L / 4;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "y_nw_batched");
  int qb = ybuf_u32(job, words, KB_IN), tb = ybuf_u32(job, words, KB_IN);
  int sb = kjob_buf(job, pairs * 4, KB_OUT);
  int32_t *ref = yref_sampled(job, sb, KC_U32, pairs, 0, 0);
  if (qb < 0 || tb < 0 || ref == NULL) return -1;
  uint8_t *hq = job->buf[qb].host, *ht = job->buf[tb].host;
  /* Reads and a mutated copy: substitutions, insertions and deletions. */
  for (size_t p = 0; p < pairs; ++p) {
    uint8_t *q = hq + p * NW_L, *t = ht + p * NW_L;
    for (int i = 0; i < NW_L; ++i) q[i] = (uint8_t)krng_below(&r, 4);
    for (int i = 0, j = 0; i < NW_L; ++i) {
      const uint32_t u = krng_below(&r, 100);
      if (u < 5)
        t[i] = (uint8_t)krng_below(&r, 4);
      else if (u < 8 && j + 2 < NW_L)
        t[i] = q[j += 2];
      else if (u < 11)
        t[i] = (uint8_t)krng_below(&r, 4); /* an insertion: j stays */
      else
        t[i] = q[j < NW_L ? j++ : NW_L - 1];
      if (j > NW_L - 1) j = NW_L - 1;
    }
  }
  int prev[NW_L + 1], cur[NW_L + 1];
  for (size_t s = 0; s < job->buf[sb].count; ++s) {
    const size_t p = job->buf[sb].sample[s];
    const uint8_t *q = hq + p * NW_L, *t = ht + p * NW_L;
    for (int j = 0; j <= NW_L; ++j) prev[j] = -2 * j;
    for (int i = 1; i <= NW_L; ++i) {
      cur[0] = -2 * i;
      for (int j = 1; j <= NW_L; ++j) {
        int v = prev[j - 1] + (q[i - 1] == t[j - 1] ? 2 : -1);
        if (prev[j] - 2 > v) v = prev[j] - 2;
        if (cur[j - 1] - 2 > v) v = cur[j - 1] - 2;
        cur[j] = v;
      }
      memcpy(prev, cur, sizeof prev);
    }
    ref[s] = prev[NW_L];
  }
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, tb);
  kjob_arg_buf(job, sb);
  kjob_grid(job, pairs, 1, 1, NW_L, 1, 1);
  return 0;
}

/* ---- photon transport --------------------------------------------------------------------- */

enum { PH_CELLS = 64 * 64, PH_W = 1024 };

typedef struct ph_chk {
  int gb, tb;
  uint32_t launched;
} ph_chk;

static int ph_check(const kjob *job, char *msg, size_t size) {
  const ph_chk *c = job->priv;
  const uint32_t *g = job->buf[c->gb].result, *t = job->buf[c->tb].result;
  uint32_t absorbed = 0;
  for (int i = 0; i < PH_CELLS; ++i) absorbed += g[i];
  const uint32_t total = absorbed + t[0] + t[1] + t[2] - t[3];
  if (total != c->launched || g[0] == 0 || t[0] == 0 || absorbed < c->launched / 4) {
    snprintf(msg, size,
             "weight not conserved: absorbed %u + top %u + bottom %u + killed %u - "
             "gained %u != %u",
             absorbed, t[0], t[1], t[2], t[3], c->launched);
    return -1;
  }
  return 0;
}

static int ph_job(kjob *job, const kdesc *d, ksize size) {
  const int photons = size == KSIZE_FULL ? 1 << 19 : 2048;
  (void)d;
  kjob_init(job, "sci.cl", "y_photon_mc");
  int gb = ybuf_u32(job, PH_CELLS, KB_INOUT), tb = ybuf_u32(job, 4, KB_INOUT);
  ph_chk *c = job->priv = malloc(sizeof *c);
  if (gb < 0 || tb < 0 || c == NULL) return -1;
  c->gb = gb;
  c->tb = tb;
  c->launched = (uint32_t)photons * PH_W;
  job->check = ph_check;
  kjob_arg_buf(job, gb);
  kjob_arg_buf(job, tb);
  kjob_arg_i32(job, photons);
  kjob_grid1(job, (size_t)photons, 128);
  return 0;
}

/* ---- staggered Dslash ------------------------------------------------------------------------ */

static int ds_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, l = full ? 24 : 4, tl = full ? 48 : 6;
  const size_t vol = (size_t)l * l * l * tl;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "y_su3_dslash");
  int ub = kjob_buf(job, 4 * vol * 18 * 8, KB_IN), pb = kjob_buf(job, vol * 6 * 8, KB_IN);
  int ob = kjob_buf(job, vol * 6 * 8, KB_OUT);
  double *ref = yref_sampled(job, ob, KC_F64, vol * 6, 1e-10, 1e-12);
  double *hu = job->buf[ub].host, *hp = job->buf[pb].host;
  if (hu == NULL || hp == NULL || ref == NULL) return -1;
  kfill_f64(hu, 4 * vol * 18, &r, -0.6, 0.6); /* not unitary: the kernel does not care */
  kfill_f64(hp, vol * 6, &r, -1, 1);
  const int dim[4] = {l, l, l, tl};
  const size_t stride[4] = {1, (size_t)l, (size_t)l * l, (size_t)l * l * l};
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], site = e / 6;
    const int a = (int)(e % 6 / 2), part = (int)(e % 2);
    const int c[4] = {(int)(site % l), (int)(site / l % l), (int)(site / (stride[2]) % l),
                      (int)(site / stride[3])};
    double acc = 0;
    int sum = 0;
    for (int mu = 0; mu < 4; ++mu) {
      const double eta = (sum & 1) ? -0.5 : 0.5;
      sum += c[mu];
      const size_t fw = c[mu] + 1 < dim[mu] ? site + stride[mu] : site - (dim[mu] - 1) * stride[mu];
      const size_t bw = c[mu] > 0 ? site - stride[mu] : site + (dim[mu] - 1) * stride[mu];
      const double *uf = hu + (mu * vol + site) * 18, *ubw = hu + (mu * vol + bw) * 18;
      double fr = 0, fi = 0, br = 0, bi = 0;
      for (int b = 0; b < 3; ++b) {
        const double ur = uf[(a * 3 + b) * 2], ui = uf[(a * 3 + b) * 2 + 1];
        const double pr = hp[fw * 6 + 2 * b], pi = hp[fw * 6 + 2 * b + 1];
        fr += ur * pr - ui * pi;
        fi += ur * pi + ui * pr;
        const double vr = ubw[(b * 3 + a) * 2], vi = -ubw[(b * 3 + a) * 2 + 1];
        const double qr = hp[bw * 6 + 2 * b], qi = hp[bw * 6 + 2 * b + 1];
        br += vr * qr - vi * qi;
        bi += vr * qi + vi * qr;
      }
      acc += eta * (part ? fi - bi : fr - br);
    }
    ref[s] = acc;
  }
  kjob_arg_buf(job, ub);
  kjob_arg_buf(job, pb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, l);
  kjob_arg_i32(job, tl);
  kjob_grid1(job, vol, 128);
  return 0;
}

/* ---- checkerboard Ising -----------------------------------------------------------------------
 */

static int ising_job(kjob *job, const kdesc *d, ksize size) {
  const int n = size == KSIZE_FULL ? 16384 : 64, colour = 1;
  const uint32_t seed = 0x5eed1234u;
  const size_t nn = (size_t)n * n;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "y_ising_checker");
  int sb = kjob_buf(job, nn, KB_INOUT), ab = kjob_buf(job, 5 * 4, KB_IN);
  uint32_t *ref = yref_sampled(job, sb, KC_U32, nn / 4, 0, 0);
  uint8_t *hs = job->buf[sb].host;
  float *ha = job->buf[ab].host;
  if (hs == NULL || ha == NULL || ref == NULL) return -1;
  /* Near the critical temperature, from a half-ordered start. */
  const double beta = 0.44;
  for (int i = 0; i < 5; ++i) ha[i] = (float)fmin(1.0, exp(-beta * 2 * (2 * i - 4)));
  for (size_t i = 0; i < nn; ++i) hs[i] = (uint8_t)(krng_below(&r, 100) < 75);
  for (size_t s = 0; s < job->buf[sb].count; ++s) {
    const size_t wi = job->buf[sb].sample[s];
    uint32_t word = 0;
    for (int b = 0; b < 4; ++b) {
      const size_t at = wi * 4 + (size_t)b;
      const int row = (int)(at / n), x = (int)(at % n);
      uint8_t v = hs[at];
      if ((x & 1) == ((row + colour) & 1)) {
        const int up = (row + n - 1) % n, dn = (row + 1) % n;
        const int sp = v ? 1 : -1;
        const int nb = (hs[(size_t)up * n + x] + hs[(size_t)dn * n + x] +
                        hs[(size_t)row * n + (x + n - 1) % n] + hs[(size_t)row * n + (x + 1) % n]) *
                           2 -
                       4;
        const float u = y_unit(y_hash((uint32_t)at ^ seed) ^ y_hash(seed + (uint32_t)row));
        if (u < ha[(sp * nb + 4) / 2]) v = (uint8_t)(sp > 0 ? 0 : 1);
      }
      word |= (uint32_t)v << (8 * b);
    }
    ref[s] = word;
  }
  kjob_arg_buf(job, sb);
  kjob_arg_buf(job, ab);
  kjob_arg_i32(job, n);
  kjob_arg_i32(job, colour);
  kjob_arg_u32(job, seed);
  kjob_grid1(job, nn / 8, 256);
  return 0;
}

/* ---- tile-wise histogram equalisation
 * ------------------------------------------------------------ */

enum { CL_TILE = 64, CL_CLIP = 64 };

static int clahe_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 8192 : 256, imgs = full ? 4 : 1;
  const size_t npx = (size_t)imgs * w * w, tiles = npx / (CL_TILE * CL_TILE);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "sci.cl", "y_clahe_tiles");
  int ib = kjob_buf(job, npx, KB_IN), ob = kjob_buf(job, npx, KB_OUT);
  uint32_t *ref = yref_sampled(job, ob, KC_U32, npx / 4, 0, 0);
  uint8_t *hi = job->buf[ib].host;
  if (hi == NULL || ref == NULL) return -1;
  /* Low-contrast scenes: slow gradients over a narrow band, plus noise. */
  for (int m = 0; m < imgs; ++m)
    for (int y = 0; y < w; ++y)
      for (int x = 0; x < w; ++x) {
        const double v = 90 + 30 * sin(x * 0.002 + m) * cos(y * 0.003) + krng_uniform(&r, -12, 12);
        hi[((size_t)m * w + y) * w + x] = (uint8_t)v;
      }
  size_t last = (size_t)-1;
  uint32_t lut[256];
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t wi = job->buf[ob].sample[s], px = wi * 4, m = px / ((size_t)w * w);
    const size_t y = px / w % w, x = px % w;
    const size_t tile = (m * (w / CL_TILE) + y / CL_TILE) * (w / CL_TILE) + x / CL_TILE;
    if (tile != last) {
      uint32_t h[256] = {0}, ex = 0, run = 0;
      for (int yy = 0; yy < CL_TILE; ++yy)
        for (int xx = 0; xx < CL_TILE; ++xx)
          h[hi[((m * w) + y / CL_TILE * CL_TILE + yy) * w + x / CL_TILE * CL_TILE + xx]]++;
      for (int b = 0; b < 256; ++b) ex += h[b] > CL_CLIP ? h[b] - CL_CLIP : 0;
      for (int b = 0; b < 256; ++b) {
        run += (h[b] > CL_CLIP ? CL_CLIP : h[b]) + ex / 256 + ((uint32_t)b < ex % 256);
        lut[b] = (run * 255u + CL_TILE * CL_TILE / 2) / (CL_TILE * CL_TILE);
      }
      last = tile;
    }
    uint32_t o = 0;
    for (int b = 0; b < 4; ++b) o |= lut[hi[px + b]] << (8 * b);
    ref[s] = o;
  }
  (void)tiles;
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_grid(job, tiles, 1, 1, 256, 1, 1);
  return 0;
}

SP_SETUP(ysetup_sci) {
  switch (d->param) {
    case YSC_TEMPLATE:
      return tm_job(job, d, size);
    case YSC_STREAMCLUSTER:
      return sc_job(job, d, size);
    case YSC_BPTREE:
      return bt_job(job, d, size);
    case YSC_HH:
      return hh_job(job, d, size);
    case YSC_NW:
      return nw_job(job, d, size);
    case YSC_PHOTON:
      return ph_job(job, d, size);
    case YSC_DSLASH:
      return ds_job(job, d, size);
    case YSC_ISING:
      return ising_job(job, d, size);
    case YSC_CLAHE:
      return clahe_job(job, d, size);
  }
  return -1;
}
