/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shape.cl: kernels of the eleventh validation suite whose launch shape is
 * the point (host half: shape.c): an IIR filter bank on 100 groups, FLAC's
 * LPC analysis on 120 groups, H.264's 4 x 4 transform in groups of 16, a
 * Boris particle push in groups of 32, and two launches of a few
 * microseconds (Gaussian elimination's multipliers, AMP gradient
 * unscaling).  Written for this suite, independently of the core suite and
 * the earlier validation suites. */
#include "sp_dev.h"

/* ---- second-order-section IIR filter bank -------------------------------------------------------
 * scipy.signal.sosfilt / FFmpeg's biquads in transposed direct form II:
 * SOS_N sections in cascade, y = b0 x + z1, z1 = b1 x - a1 y + z2,
 * z2 = b2 x - a2 y, every multiply-add an explicit fma.  A work-item per
 * trace of a sample-interleaved bank (x[t * nch + ch]), the trace's samples
 * taken SOS_B at a time (the loads of a batch in flight together), the state
 * carried in registers from the first sample to the last. */
#define SOS_N 4
#define SOS_B 16

SP_KERNEL SP_BOUNDS(128) void k_sosfilt_biquad_100(SP_GLOBAL const float *SP_RESTRICT x,
                                                   SP_GLOBAL const float *SP_RESTRICT sos,
                                                   SP_GLOBAL float *SP_RESTRICT y, int nch,
                                                   int nt) {
  const int ch = SP_GID(0);
  if (ch >= nch) return;
  float b0[SOS_N], b1[SOS_N], b2[SOS_N], a1[SOS_N], a2[SOS_N], z1[SOS_N], z2[SOS_N];
#pragma unroll
  for (int q = 0; q < SOS_N; ++q) {
    b0[q] = sos[5 * q];
    b1[q] = sos[5 * q + 1];
    b2[q] = sos[5 * q + 2];
    a1[q] = -sos[5 * q + 3];
    a2[q] = -sos[5 * q + 4];
    z1[q] = 0.0f;
    z2[q] = 0.0f;
  }
  for (int t0 = 0; t0 < nt; t0 += SOS_B) {
    float v[SOS_B];
#pragma unroll
    for (int k = 0; k < SOS_B; ++k) v[k] = x[(long)(t0 + k) * nch + ch];
#pragma unroll
    for (int k = 0; k < SOS_B; ++k) {
      float s = v[k];
#pragma unroll
      for (int q = 0; q < SOS_N; ++q) {
        const float o = SP_FMAF(b0[q], s, z1[q]);
        z1[q] = SP_FMAF(a1[q], o, SP_FMAF(b1[q], s, z2[q]));
        z2[q] = SP_FMAF(a2[q], o, b2[q] * s);
        s = o;
      }
      v[k] = s;
    }
#pragma unroll
    for (int k = 0; k < SOS_B; ++k) y[(long)(t0 + k) * nch + ch] = v[k];
  }
}

/* ---- FLAC's LPC analysis ------------------------------------------------------------------------
 * Per frame of LPC_N 16-bit samples (libFLAC's encoder): the samples times
 * the window (float), the autocorrelation at lags 0..LPC_P (float), then the
 * Levinson-Durbin recursion in double (FLAC__lpc_compute_lp_coefficients)
 * for the order-LPC_P predictor.  A group of LPC_G per frame: work-item t
 * owns samples 16 t .. 16 t + 15 and the 32 after them in registers and
 * forms its share of every lag (fma, ascending); the shares are summed by
 * trees in local memory, 11 lags at a time; one work-item runs the
 * recursion.  out: the LPC_P coefficients (negated, as libFLAC stores them)
 * and the final prediction error of each frame.  Each group takes per
 * frames in turn. */
#define LPC_N 4096
#define LPC_G 256
#define LPC_P 32
#define LPC_L 11

SP_KERNEL SP_BOUNDS(LPC_G) void k_flac_lpc_120(SP_GLOBAL const short *SP_RESTRICT pcm,
                                               SP_GLOBAL const float *SP_RESTRICT win,
                                               SP_GLOBAL double *SP_RESTRICT out, int per) {
  SP_LOCAL float w[LPC_N + LPC_P];
  SP_LOCAL float red[LPC_L * LPC_G];
  SP_LOCAL double ac[LPC_P + 1];
  const int t = SP_LID(0);
  if (t < LPC_P) w[LPC_N + t] = 0.0f;
  for (int f = SP_GRP(0) * per; f < (SP_GRP(0) + 1) * per; ++f) {
    SP_GLOBAL const short *x = pcm + (long)f * LPC_N;
    for (int i = t; i < LPC_N; i += LPC_G) w[i] = (float)x[i] * win[i];
    SP_BARRIER();
    float d[16 + LPC_P];
#pragma unroll
    for (int k = 0; k < 16 + LPC_P; ++k) d[k] = w[16 * t + k];
    for (int l0 = 0; l0 <= LPC_P; l0 += LPC_L) {
#pragma unroll
      for (int l = 0; l < LPC_L; ++l) {
        float p = 0.0f;
#pragma unroll
        for (int k = 0; k < 16; ++k) p = SP_FMAF(d[k], d[k + l0 + l], p);
        red[l * LPC_G + t] = p;
      }
      SP_BARRIER();
      for (int s = LPC_G / 2; s > 0; s >>= 1) {
        if (t < s)
          for (int l = 0; l < LPC_L; ++l) red[l * LPC_G + t] += red[l * LPC_G + t + s];
        SP_BARRIER();
      }
      if (t < LPC_L) ac[l0 + t] = (double)red[t * LPC_G];
      SP_BARRIER();
    }
    if (t == 0) {
      double lpc[LPC_P], err = ac[0];
      for (int i = 0; i < LPC_P; ++i) {
        double r = -ac[i + 1];
        for (int j = 0; j < i; ++j) r = fma(-lpc[j], ac[i - j], r);
        r /= err;
        lpc[i] = r;
        int j = 0;
        for (; j < (i >> 1); ++j) {
          const double tmp = lpc[j];
          lpc[j] = fma(r, lpc[i - 1 - j], tmp);
          lpc[i - 1 - j] = fma(r, tmp, lpc[i - 1 - j]);
        }
        if (i & 1) lpc[j] = fma(lpc[j], r, lpc[j]);
        err *= fma(-r, r, 1.0);
      }
      SP_GLOBAL double *o = out + (long)f * (LPC_P + 1);
      for (int j = 0; j < LPC_P; ++j) o[j] = -lpc[j];
      o[LPC_P] = err;
    }
    SP_BARRIER();
  }
}

/* ---- H.264 forward 4 x 4 transform and quantisation ---------------------------------------------
 * x264's sub4x4_dct and quant_4x4 (the deadzone f of the JM reference
 * encoder for inter blocks): the residual d = source - prediction of
 * a 4 x 4 block (8-bit pixels, four to a 32-bit word), W = Cf d Cf^T with
 * the integer core transform Cf = [1 1 1 1; 2 1 -1 -2; 1 -1 -1 1; 1 -2 2 -1],
 * then level = sign(W) ((|W| MF + f) >> qbits) with the standard
 * multiplication factors (mf: 6 rows of the three position classes),
 * qbits = 15 + qp / 6 and f = 2^qbits / 6 (inter).  qp varies per
 * macroblock (22..30, adaptive quantisation).  A group of 16 per 16 x 16
 * macroblock, a work-item per 4 x 4 block (raster order); the 16 levels
 * are stored as 8 words (two 16-bit levels each). */
SP_KERNEL SP_BOUNDS(16) void k_h264_dct4x4_b16(SP_GLOBAL const uint *SP_RESTRICT src,
                                               SP_GLOBAL const uint *SP_RESTRICT pred,
                                               SP_GLOBAL const int *SP_RESTRICT mf,
                                               SP_GLOBAL uint *SP_RESTRICT out, int w, int h) {
  const int g = SP_GRP(0), b = SP_LID(0);
  const int mbw = w / 16, mbh = h / 16;
  const int mbx = g % mbw, mby = (g / mbw) % mbh, frame = g / (mbw * mbh);
  const int x = mbx * 16 + (b & 3) * 4, y = mby * 16 + (b >> 2) * 4;
  int d[4][4], tt[4][4];
  for (int r = 0; r < 4; ++r) {
    const long at = (((long)frame * h + y + r) * w + x) / 4;
    const uint s = src[at], p = pred[at];
    for (int c = 0; c < 4; ++c)
      d[r][c] = (int)((s >> (8 * c)) & 255u) - (int)((p >> (8 * c)) & 255u);
  }
  for (int r = 0; r < 4; ++r) { /* rows: d Cf^T */
    const int s03 = d[r][0] + d[r][3], d03 = d[r][0] - d[r][3];
    const int s12 = d[r][1] + d[r][2], d12 = d[r][1] - d[r][2];
    tt[r][0] = s03 + s12;
    tt[r][1] = 2 * d03 + d12;
    tt[r][2] = s03 - s12;
    tt[r][3] = d03 - 2 * d12;
  }
  const int qp = 22 + (g * 7) % 9, qbits = 15 + qp / 6, f = (1 << qbits) / 6;
  uint words[8];
  for (int c = 0; c < 4; ++c) { /* columns: Cf (d Cf^T) */
    const int s03 = tt[0][c] + tt[3][c], d03 = tt[0][c] - tt[3][c];
    const int s12 = tt[1][c] + tt[2][c], d12 = tt[1][c] - tt[2][c];
    int col[4];
    col[0] = s03 + s12;
    col[1] = 2 * d03 + d12;
    col[2] = s03 - s12;
    col[3] = d03 - 2 * d12;
    for (int r = 0; r < 4; ++r) {
      const int cls = ((r | c) & 1) == 0 ? 0 : ((r & c) & 1) == 1 ? 1 : 2;
      const int m = mf[(qp % 6) * 3 + cls], v = col[r];
      const int q = ((v < 0 ? -v : v) * m + f) >> qbits;
      const uint lv = (uint)(v < 0 ? -q : q) & 0xFFFFu;
      const int k = r * 4 + c;
      if ((k & 1) == 0)
        words[k >> 1] = lv;
      else
        words[k >> 1] |= lv << 16;
    }
  }
  SP_GLOBAL uint *o = out + ((long)g * 16 + b) * 8;
  for (int k = 0; k < 8; ++k) o[k] = words[k];
}

/* ---- relativistic Boris push --------------------------------------------------------------------
 * One time step of the Boris scheme as PIC codes (EPOCH, WarpX, PIConGPU)
 * push particles, in units with c = 1: half an electric kick, the magnetic
 * rotation (t = h B / gamma, s = 2 t / (1 + t^2)), the other half kick, then
 * the drift x += u dt / gamma.  The fields are a plane wave and a guide
 * field, E = (E0 cos kz, 0, 0), B = (0, B0 cos kz, Bz), evaluated at the
 * particle.  Structure of arrays (x, y, z, ux, uy, uz, n floats each, in
 * and out), a work-item per particle, groups of 32. */
SP_KERNEL SP_BOUNDS(32) void k_boris_push_b32(SP_GLOBAL const float *SP_RESTRICT in,
                                              SP_GLOBAL float *SP_RESTRICT out, int n, float e0,
                                              float b0, float bz, float k, float h, float dt) {
  const int i = SP_GID(0);
  if (i >= n) return;
  const long nl = n;
  const float z = in[2 * nl + i], ck = SP_COSF(k * z);
  const float ex = e0 * ck, by = b0 * ck;
  const float mx = in[3 * nl + i] + h * ex, my = in[4 * nl + i], mz = in[5 * nl + i];
  const float g = SP_SQRTF(1.0f + mx * mx + my * my + mz * mz);
  const float ty = h * by / g, tz = h * bz / g;
  const float s = 2.0f / (1.0f + ty * ty + tz * tz);
  const float qx = mx + (my * tz - mz * ty), qy = my - mx * tz, qz = mz + mx * ty;
  const float vx = mx + s * (qy * tz - qz * ty) + h * ex;
  const float vy = my - s * (qx * tz);
  const float vz = mz + s * (qx * ty);
  const float gn = SP_SQRTF(1.0f + vx * vx + vy * vy + vz * vz), f = dt / gn;
  out[i] = in[i] + vx * f;
  out[nl + i] = in[nl + i] + vy * f;
  out[2 * nl + i] = z + vz * f;
  out[3 * nl + i] = vx;
  out[4 * nl + i] = vy;
  out[5 * nl + i] = vz;
}

/* ---- Gaussian elimination, multipliers of one column --------------------------------------------
 * Rodinia gaussian's Fan1 for column t of the n x n system: m[r][t] =
 * a[r][t] / a[t][t] for the rows r below t, a work-item per row in groups
 * of 512 (the column read with a stride of n floats).  Launched once per
 * column by the solver: a few groups, a few microseconds. */
SP_KERNEL SP_BOUNDS(512) void k_gauss_fan1_tiny(SP_GLOBAL const float *SP_RESTRICT a,
                                                SP_GLOBAL float *SP_RESTRICT m, int n, int t) {
  const int r = SP_GID(0) + t + 1;
  if (r >= n) return;
  m[(long)r * n + t] = a[(long)r * n + t] / a[(long)t * n + t];
}

/* ---- AMP gradient unscaling ---------------------------------------------------------------------
 * PyTorch's _amp_foreach_non_finite_check_and_unscale_ through
 * multi_tensor_apply: a list of gradient tensors (offset, size) in one
 * buffer, cut into chunks of AMP_CHUNK; group b takes chunk chunk[b] of
 * tensor tensor[b].  Every element is multiplied by inv_scale in place,
 * AMP_ILP at a time per work-item, and a non-finite one sets *found_inf to
 * 1 (a plain store, as PyTorch does). */
#define AMP_CHUNK 2048
#define AMP_G 256
#define AMP_ILP 4

SP_KERNEL SP_BOUNDS(AMP_G) void k_amp_unscale_tiny(SP_GLOBAL float *SP_RESTRICT g,
                                                   SP_GLOBAL const int *SP_RESTRICT tensors,
                                                   SP_GLOBAL const int *SP_RESTRICT blocks,
                                                   SP_GLOBAL float *SP_RESTRICT found_inf,
                                                   float inv_scale) {
  const int b = SP_GRP(0), t = SP_LID(0);
  const int tensor = blocks[2 * b], chunk = blocks[2 * b + 1];
  const int off = tensors[2 * tensor], size = tensors[2 * tensor + 1];
  const int lo = chunk * AMP_CHUNK, hi = lo + AMP_CHUNK < size ? lo + AMP_CHUNK : size;
  for (int i0 = lo; i0 < hi; i0 += AMP_G * AMP_ILP) {
    float v[AMP_ILP];
#pragma unroll
    for (int k = 0; k < AMP_ILP; ++k) {
      const int i = i0 + t + k * AMP_G;
      v[k] = i < hi ? g[off + i] : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < AMP_ILP; ++k) {
      const int i = i0 + t + k * AMP_G;
      if (i < hi) {
        if (((SP_F2U(v[k]) >> 23) & 255u) == 255u) found_inf[0] = 1.0f;
        g[off + i] = v[k] * inv_scale;
      }
    }
  }
}
