/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream.c: host half of stream.cl (mu-law decoding, ray generation, rsync
 * and fletcher-4 checksums, JPEG DCT, jagged mean pooling).  Samples,
 * checksums and DCT coefficients are exact (the fletcher-4 sums against
 * ZFS's own recurrence, not the kernel's unrolled form); the rays and the
 * means are compared with double references within tolerances that cover
 * float rounding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation9.h"

/* ---- G.711 mu-law ------------------------------------------------------------------------ */

/* The G.711 encoder (bias 0x84, clip 32635). */
static uint8_t ulaw_encode(int s) {
  const int sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  if (s > 32635) s = 32635;
  s += 0x84;
  int seg = 7;
  for (int mask = 0x4000; !(s & mask) && seg > 0; mask >>= 1) --seg;
  return (uint8_t) ~(sign | seg << 4 | (s >> (seg + 3) & 0x0F));
}

static int ulaw_decode(uint8_t c) {
  const unsigned u = (uint8_t)~c;
  const int t = (int)((((u & 0x0Fu) << 3) + 0x84u) << ((u & 0x70u) >> 4));
  return (u & 0x80u) ? 0x84 - t : t - 0x84;
}

static int mulaw_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)256 << 20 : (size_t)256 << 10, nw = n / 2;
  const size_t len = n < ((size_t)1 << 20) ? n : (size_t)1 << 20;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "t_mulaw_decode_g711");
  int ib = kjob_buf(job, n, KB_IN), ob = tbuf_u32(job, nw, KB_OUT);
  uint32_t *ref = tref_sampled(job, ob, KC_U32, nw, T_SAMPLES, 0, 0);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  uint8_t *in = job->buf[ib].host;
  double env = 0.2;
  for (size_t i = 0; i < len; ++i) { /* speech-like: two voiced tones, a drifting level, noise */
    if (i % 160 == 0) env = 0.05 + 0.9 * krng_uniform(&r, 0, 1) * krng_uniform(&r, 0, 1);
    const double v = env * (0.6 * sin(0.0471 * (double)i) + 0.3 * sin(0.1309 * (double)i)) +
                     krng_uniform(&r, -0.02, 0.02);
    in[i] = ulaw_encode((int)(v * 32767.0));
  }
  trepeat(in, len, n);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t w = job->buf[ob].sample[s];
    ref[s] = (uint32_t)(uint16_t)ulaw_decode(in[2 * w]) |
             (uint32_t)(uint16_t)ulaw_decode(in[2 * w + 1]) << 16;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, (int)(n / 4));
  kjob_grid1(job, n / 4, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- NeRF rays --------------------------------------------------------------------------- */

/* Camera c: a random rotation (from a unit quaternion), a centre on a
 * sphere of radius 4, and intrinsics of a w x h sensor. */
static void make_camera(float *p, krng *r, int w, int h) {
  double q[4], nn = 0;
  for (int k = 0; k < 4; ++k) {
    q[k] = krng_uniform(r, -1, 1);
    nn += q[k] * q[k];
  }
  for (int k = 0; k < 4; ++k) q[k] /= sqrt(nn);
  const double a = q[0], b = q[1], c = q[2], dd = q[3];
  const double rot[9] = {
      1 - 2 * (c * c + dd * dd), 2 * (b * c - a * dd),      2 * (b * dd + a * c),
      2 * (b * c + a * dd),      1 - 2 * (b * b + dd * dd), 2 * (c * dd - a * b),
      2 * (b * dd - a * c),      2 * (c * dd + a * b),      1 - 2 * (b * b + c * c)};
  for (int k = 0; k < 9; ++k) p[k] = (float)rot[k];
  for (int k = 0; k < 3; ++k) p[9 + k] = (float)(4.0 * rot[3 * k + 2]); /* looking at the origin */
  p[12] = p[13] = (float)(0.8 * w * krng_uniform(r, 0.9, 1.1));
  p[14] = (float)(w / 2.0 + krng_uniform(r, -4, 4));
  p[15] = (float)(h / 2.0 + krng_uniform(r, -4, 4));
}

static int rays_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, w = full ? 1600 : 64, h = full ? 1200 : 48;
  const int ncam = full ? 16 : 4;
  const size_t nr = (size_t)w * h * ncam;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "t_nerf_ray_gen");
  int cb = kjob_buf(job, (size_t)ncam * 16 * 4, KB_IN), ob = kjob_buf(job, nr * 24, KB_OUT);
  float *ref = tref_sampled(job, ob, KC_F32, nr * 6, T_SAMPLES, 2e-5, 1e-6);
  if (job->buf[cb].host == NULL || ref == NULL) return -1;
  float *cam = job->buf[cb].host;
  for (int c = 0; c < ncam; ++c) make_camera(cam + 16 * c, &r, w, h);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], g = e / 6, pix = g % ((size_t)w * h);
    const float *p = cam + 16 * (g / ((size_t)w * h));
    if (e % 6 < 3) {
      ref[s] = p[9 + e % 6];
      continue;
    }
    const double dx = ((double)(pix % w) + 0.5 - p[14]) / p[12];
    const double dy = -((double)(pix / w) + 0.5 - p[15]) / p[13];
    double v[3], nn = 0;
    for (int k = 0; k < 3; ++k) {
      v[k] = p[3 * k] * dx + p[3 * k + 1] * dy - p[3 * k + 2];
      nn += v[k] * v[k];
    }
    ref[s] = (float)(v[e % 6 - 3] / sqrt(nn));
  }
  kjob_arg_buf(job, cb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, h);
  kjob_arg_i32(job, ncam);
  kjob_grid1(job, nr, 256);
  kjob_sampleable(job);
  return 0;
}

/* ---- rsync weak checksums ---------------------------------------------------------------- */

enum { RS_B = 2048 };

/* rsync's get_checksum1 as rsync writes it (signed bytes, four at a time). */
static uint32_t rsync_sum1(const int8_t *buf, int len) {
  uint32_t s1 = 0, s2 = 0;
  int i = 0;
  for (; i < len - 4; i += 4) {
    s2 += 4 * (s1 + (uint32_t)buf[i]) + 3 * (uint32_t)buf[i + 1] + 2 * (uint32_t)buf[i + 2] +
          (uint32_t)buf[i + 3];
    s1 += (uint32_t)buf[i] + (uint32_t)buf[i + 1] + (uint32_t)buf[i + 2] + (uint32_t)buf[i + 3];
  }
  for (; i < len; ++i) {
    s1 += (uint32_t)buf[i];
    s2 += s1;
  }
  return (s1 & 0xFFFFu) + (s2 << 16);
}

static int rsync_job(kjob *job, const kdesc *d, ksize size) {
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 30 : (size_t)1 << 20, nb = n / RS_B;
  const size_t len = (size_t)1 << 20;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "t_rsync_block_sums");
  int ib = kjob_buf(job, n, KB_IN), ob = tbuf_u32(job, nb, KB_OUT);
  uint32_t *ref = tref_sampled(job, ob, KC_U32, nb, T_SAMPLES, 0, 0);
  if (job->buf[ib].host == NULL || ref == NULL) return -1;
  uint8_t *in = job->buf[ib].host;
  for (size_t i = 0; i < len; ++i) /* text runs and binary runs */
    in[i] = (i / 4096) % 3 == 0 ? (uint8_t)krng_u32(&r) : (uint8_t)(32 + krng_below(&r, 95));
  trepeat(in, len, n);
  for (size_t s = 0; s < job->buf[ob].count; ++s)
    ref[s] = rsync_sum1((const int8_t *)in + job->buf[ob].sample[s] * RS_B, RS_B);
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_grid(job, nb, 1, 1, 128, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- fletcher-4 -------------------------------------------------------------------------- */

static int fletcher_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nrec = full ? 96 : 4, n = full ? 1 << 20 : 4096;
  const size_t nw = (size_t)nrec * n;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "t_zfs_fletcher4_96");
  int ib = tbuf_u32(job, nw, KB_IN), ob = tbuf_u32(job, (size_t)nrec * 8, KB_OUT);
  uint32_t *ref = kjob_ref(job, ob, KC_U32, (size_t)nrec * 8, 0, 0);
  if (ib < 0 || ref == NULL) return -1;
  uint32_t *w = job->buf[ib].host;
  const size_t len = nw < ((size_t)1 << 18) ? nw : (size_t)1 << 18;
  for (size_t i = 0; i < len; ++i) w[i] = krng_u32(&r);
  for (size_t i = len; i < nw; ++i) w[i] = w[i % len] ^ (uint32_t)(i / len); /* records differ */
  for (int rec = 0; rec < nrec; ++rec) {
    uint64_t s[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; ++i) {
      s[0] += w[(size_t)rec * n + i];
      s[1] += s[0];
      s[2] += s[1];
      s[3] += s[2];
    }
    for (int k = 0; k < 4; ++k) {
      ref[8 * rec + 2 * k] = (uint32_t)s[k];
      ref[8 * rec + 2 * k + 1] = (uint32_t)(s[k] >> 32);
    }
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, n);
  kjob_grid(job, (size_t)nrec, 1, 1, 1024, 1, 1);
  kjob_sampleable(job);
  return 0;
}

/* ---- JPEG forward DCT -------------------------------------------------------------------- */

enum { JP_CB = 13, JP_P1 = 2 };

static int descale(int x, int n) { return (x + (1 << (n - 1))) >> n; }

/* The kernel's 1-D pass (libjpeg's jpeg_fdct_islow), on p[0], p[st], ... */
static void fdct8(int *p, int st, int pass) {
  const int t0 = p[0] + p[7 * st], t7 = p[0] - p[7 * st], t1 = p[st] + p[6 * st];
  const int t6 = p[st] - p[6 * st], t2 = p[2 * st] + p[5 * st], t5 = p[2 * st] - p[5 * st];
  const int t3 = p[3 * st] + p[4 * st], t4 = p[3 * st] - p[4 * st];
  const int t10 = t0 + t3, t13 = t0 - t3, t11 = t1 + t2, t12 = t1 - t2;
  const int sh = pass == 0 ? JP_CB - JP_P1 : JP_CB + JP_P1;
  p[0] = pass == 0 ? (t10 + t11) * (1 << JP_P1) : descale(t10 + t11, JP_P1);
  p[4 * st] = pass == 0 ? (t10 - t11) * (1 << JP_P1) : descale(t10 - t11, JP_P1);
  const int z1 = (t12 + t13) * 4433;
  p[2 * st] = descale(z1 + t13 * 6270, sh);
  p[6 * st] = descale(z1 - t12 * 15137, sh);
  const int z5 = (t4 + t5 + t6 + t7) * 9633;
  const int z3 = -(t4 + t6) * 16069 + z5, z4 = -(t5 + t7) * 3196 + z5;
  const int o1 = -(t4 + t7) * 7373, o2 = -(t5 + t6) * 20995;
  p[7 * st] = descale(t4 * 2446 + o1 + z3, sh);
  p[5 * st] = descale(t5 * 16819 + o2 + z4, sh);
  p[3 * st] = descale(t6 * 25172 + o2 + z3, sh);
  p[st] = descale(t7 * 12299 + o1 + z4, sh);
}

/* An 8-bit photograph-like image: shaded blobs, edges and texture. */
static void jpeg_image(uint8_t *img, int w, int rows, krng *r) {
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < w; ++x) {
      double v = 128 + 60 * sin(x * 0.011 + 0.7 * sin(y * 0.005)) * cos(y * 0.008);
      v += ((x / 97 + y / 61) % 5 == 0) ? 40 : 0;
      v += 12 * sin(x * 0.9 + y * 0.4) + krng_uniform(r, -6, 6);
      img[(size_t)y * w + x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

static int jpeg_job(kjob *job, const kdesc *d, ksize size) {
  static const int lum[8][8] = {
      {16, 11, 10, 16, 24, 40, 51, 61},     {12, 12, 14, 19, 26, 58, 60, 55},
      {14, 13, 16, 24, 40, 57, 69, 56},     {14, 17, 22, 29, 51, 87, 80, 62},
      {18, 22, 37, 56, 68, 109, 103, 77},   {24, 35, 55, 64, 81, 104, 113, 92},
      {49, 64, 78, 87, 103, 121, 120, 101}, {72, 92, 95, 98, 112, 100, 103, 99}};
  const int full = size == KSIZE_FULL, w = full ? 16384 : 256, h = full ? 16384 : 128;
  const int nb = (w / 8) * (h / 8), drawn = h < 512 ? h : 512;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "t_jpeg_fdct_quant");
  int ib = kjob_buf(job, (size_t)w * h, KB_IN), qb = tbuf_u32(job, 64, KB_IN);
  int ob = tbuf_u32(job, (size_t)nb * 32, KB_OUT);
  uint32_t *ref = tref_sampled(job, ob, KC_U32, (size_t)nb * 32, T_SAMPLES, 0, 0);
  if (job->buf[ib].host == NULL || qb < 0 || ref == NULL) return -1;
  uint8_t *img = job->buf[ib].host;
  int *qt = job->buf[qb].host;
  for (int k = 0; k < 64; ++k) { /* libjpeg's quality 75 scaling of the Annex K table */
    const int q = (lum[k / 8][k % 8] * 50 + 50) / 100;
    qt[k] = q < 1 ? 1 : q > 255 ? 255 : q;
  }
  jpeg_image(img, w, drawn, &r);
  trepeat(img, (size_t)w * drawn, (size_t)w * h);
  int blk[64], last = -1;
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s];
    const int b = (int)(e / 32), k = (int)(e % 32) * 2;
    if (b != last) {
      const int bx = b % (w / 8), by = b / (w / 8);
      for (int i = 0; i < 64; ++i)
        blk[i] = img[((size_t)by * 8 + i / 8) * w + bx * 8 + i % 8] - 128;
      for (int i = 0; i < 8; ++i) fdct8(blk + 8 * i, 1, 0);
      for (int i = 0; i < 8; ++i) fdct8(blk + i, 8, 1);
      for (int i = 0; i < 64; ++i) {
        const int q = qt[i] << 3, m = (abs(blk[i]) + (q >> 1)) / q;
        blk[i] = blk[i] < 0 ? -m : m;
      }
      last = b;
    }
    ref[s] = (uint32_t)(uint16_t)blk[k] | (uint32_t)(uint16_t)blk[k + 1] << 16;
  }
  kjob_arg_buf(job, ib);
  kjob_arg_buf(job, qb);
  kjob_arg_buf(job, ob);
  kjob_arg_i32(job, w);
  kjob_arg_i32(job, nb);
  kjob_grid1(job, (size_t)nb, 128);
  kjob_sampleable(job);
  return 0;
}

/* ---- jagged mean pooling ----------------------------------------------------------------- */

enum { JG_D = 64 };

static int jagged_job(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, nseg = full ? 131072 : 512, nheavy = full ? 8 : 2;
  const int heavy_lo = full ? 16384 : 2048;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "stream.cl", "t_jagged_segment_mean");
  int fb = kjob_buf(job, (size_t)(nseg + 1) * 4, KB_IN);
  if (job->buf[fb].host == NULL) return -1;
  int *off = job->buf[fb].host;
  off[0] = 0;
  for (int s = 0; s < nseg; ++s) { /* 1..48 rows, the heavy ones spread evenly */
    const int heavy = s % (nseg / nheavy) == nseg / nheavy / 2;
    off[s + 1] = off[s] + (heavy ? heavy_lo + (int)krng_below(&r, (uint32_t)heavy_lo)
                                 : 1 + (int)krng_below(&r, 48));
  }
  const size_t nv = (size_t)off[nseg] * JG_D, len = nv < ((size_t)1 << 20) ? nv : (size_t)1 << 20;
  int vb = kjob_buf(job, nv * 4, KB_IN), ob = kjob_buf(job, (size_t)nseg * JG_D * 4, KB_OUT);
  float *ref = tref_sampled(job, ob, KC_F32, (size_t)nseg * JG_D, T_SAMPLES, 1e-4, 0);
  if (job->buf[vb].host == NULL || ref == NULL) return -1;
  float *val = job->buf[vb].host;
  kfill_f32(val, len, &r, 0.5, 1.5);
  trepeat(val, len * 4, nv * 4);
  for (size_t s = 0; s < job->buf[ob].count; ++s) {
    const size_t e = job->buf[ob].sample[s], seg = e / JG_D, col = e % JG_D;
    double sum = 0;
    for (int row = off[seg]; row < off[seg + 1]; ++row) sum += val[(size_t)row * JG_D + col];
    ref[s] = (float)(sum / (off[seg + 1] - off[seg]));
  }
  kjob_arg_buf(job, fb);
  kjob_arg_buf(job, vb);
  kjob_arg_buf(job, ob);
  kjob_grid(job, (size_t)nseg, 1, 1, 256, 1, 1);
  kjob_sampleable(job);
  return 0;
}

SP_SETUP(tsetup_stream) {
  switch (d->param) {
    case TST_MULAW:
      return mulaw_job(job, d, size);
    case TST_RAYS:
      return rays_job(job, d, size);
    case TST_RSYNC:
      return rsync_job(job, d, size);
    case TST_FLETCHER:
      return fletcher_job(job, d, size);
    case TST_JPEG:
      return jpeg_job(job, d, size);
    case TST_JAGGED:
      return jagged_job(job, d, size);
  }
  return -1;
}
