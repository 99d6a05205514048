/* SPDX-License-Identifier: GPL-3.0-or-later */
/* occ.c: host half of occ.cu.  d->param is OCC_PARAM(kind, value): for
 * OCC_SMEM the KiB of dynamic shared memory per block (0-160), for OCC_REG
 * the live chains per thread (16-200), OCC_SPILL the same with a budget of
 * 64 registers.  Chains step x <- fma(x, a, b) as in sched.c; the host
 * repeats them exactly for a sample of threads. */
#include "suite.h"

#include <math.h>

#define OCC_A (-0.9999847412109375f)
#define OCC_B 0.0009765625f
#define OCC_EXACT 0.0
#define OCC_SAMPLES 32

static int kind_of(const kdesc *d) { return d->param / 1000; }
static int value_of(const kdesc *d) { return d->param % 1000; }

static float start(int g, int k) {
  return 1.0f + (float)((g * 7 + k * 13) & 255) * (1.0f / 1024.0f);
}

static float chains_ref(int g, int nchains, int iters) {
  float s = 0.0f;
  for (int k = 0; k < nchains; ++k) {
    float x = start(g, k);
    for (int it = 0; it < iters; ++it) x = fmaf(x, OCC_A, OCC_B);
    s += x;
  }
  return s;
}

/* 132 x 16 blocks of 128 threads, two chains of 8192 steps each. */
static int setup_smem(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, kib = value_of(d);
  const size_t groups = full ? 2112 : 4, n = groups * 128;
  const int iters = full ? 8192 : 16;
  kjob_init(job, "occ.cu", "occ_smem");
  job->dyn_local = (size_t)kib * 1024;
  int out = kjob_buf(job, n * 4, KB_OUT);
  float *ref = kjob_ref(job, out, KC_F32, OCC_SAMPLES, OCC_EXACT, OCC_EXACT);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  if (!sample) return -1;
  for (size_t j = 0; j < OCC_SAMPLES; ++j) {
    sample[j] = kspread(j, OCC_SAMPLES, n);
    ref[j] = chains_ref((int)sample[j], 2, iters);
  }
  kjob_arg_buf(job, out);
  kjob_arg_f32(job, OCC_A);
  kjob_arg_f32(job, OCC_B);
  kjob_arg_i32(job, iters);
  kjob_arg_i32(job, kib * 256);
  kjob_grid(job, groups, 1, 1, 128, 1, 1);
  return 0;
}

static const char *reg_entry(int r, int spill) {
  switch (r) {
    case 16:
      return "reg_r16";
    case 64:
      return "reg_r64";
    case 96:
      return "reg_r96";
    default:
      return spill ? "reg_r200_spill" : "reg_r200";
  }
}

/* 1056 blocks of 256 threads, R chains of 16384 / R steps each (the same
 * multiply-adds per thread for every R). */
static int setup_reg(kjob *job, const kdesc *d, ksize size) {
  const int full = size == KSIZE_FULL, r = value_of(d);
  const size_t groups = full ? 1056 : 4, n = groups * 256;
  const int iters = full ? (16384 + r - 1) / r : 4;
  kjob_init(job, "occ.cu", reg_entry(r, kind_of(d) == OCC_SPILL));
  int out = kjob_buf(job, n * 4, KB_OUT);
  float *ref = kjob_ref(job, out, KC_F32, OCC_SAMPLES, OCC_EXACT, OCC_EXACT);
  size_t *sample = ref ? kjob_sample(job, out) : NULL;
  if (!sample) return -1;
  for (size_t j = 0; j < OCC_SAMPLES; ++j) {
    sample[j] = kspread(j, OCC_SAMPLES, n);
    ref[j] = chains_ref((int)sample[j], r, iters);
  }
  kjob_arg_buf(job, out);
  kjob_arg_f32(job, OCC_A);
  kjob_arg_f32(job, OCC_B);
  kjob_arg_i32(job, iters);
  kjob_grid(job, groups, 1, 1, 256, 1, 1);
  return 0;
}

int setup_occ(kjob *job, const kdesc *d, ksize size) {
  return kind_of(d) == OCC_SMEM ? setup_smem(job, d, size) : setup_reg(job, d, size);
}
