/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fake.c: the host half of a held-out suite of two tiny portable kernels
 * (fake.cl).  tests/harness/suite-add.sh copies this folder to
 * training/heldout/fake in a copy of the source tree and adds its line to
 * training/suites.txt: a suite is one folder and one registry line. */
#include <stdint.h>

#include "suite.h"

size_t fake_count(void);
const kdesc *fake_at(size_t i);

enum { FAKE_GROUP = 64 };

/* The device's sp_lowbias32 (sp_dev.h). */
static uint32_t lowbias32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

static size_t problem(ksize size) { return size == KSIZE_FULL ? (size_t)1 << 24 : 4096; }

/* y = a x + y over n floats, y updated in place. */
static int setup_axpy(kjob *job, const kdesc *d, ksize size) {
  const size_t n = problem(size);
  const float a = 1.5f;
  krng r;
  kjob_init(job, "fake.cl", "f_axpy");
  int x = kjob_buf(job, n * 4, KB_IN), y = kjob_buf(job, n * 4, KB_INOUT);
  float *hx = job->buf[x].host, *hy = job->buf[y].host;
  float *ref = kjob_ref(job, y, KC_F32, n, 1e-6, 1e-6);
  if (!hx || !hy || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_f32(hx, n, &r, -1.0, 1.0);
  kfill_f32(hy, n, &r, -1.0, 1.0);
  for (size_t i = 0; i < n; ++i) ref[i] = a * hx[i] + hy[i];
  kjob_arg_buf(job, x);
  kjob_arg_buf(job, y);
  kjob_arg_f32(job, a);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, FAKE_GROUP);
  return 0;
}

/* Each work-group's sum of the low 16 bits of its items' hashes. */
static int setup_hashsum(kjob *job, const kdesc *d, ksize size) {
  const size_t n = problem(size), groups = n / FAKE_GROUP;
  kjob_init(job, "fake.cl", "f_hashsum");
  int out = kjob_buf(job, groups * 4, KB_OUT);
  uint32_t *ref = kjob_ref(job, out, KC_U32, groups, 0.0, 0.0);
  if (!ref) return -1;
  for (size_t i = 0; i < n; ++i) ref[i / FAKE_GROUP] += lowbias32((uint32_t)i) & 0xffffu;
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  kjob_grid1(job, n, FAKE_GROUP);
  return 0;
}

static const kdesc FAKE[] = {
    {"f_axpy", "y = a x + y over 16M floats (one load pair and a store per item)", "bandwidth",
     setup_axpy, 0},
    {"f_hashsum", "per-group sums of 16M integer hashes through a local tree (SP_TREE)", "compute",
     setup_hashsum, 0},
};

size_t fake_count(void) { return sizeof FAKE / sizeof *FAKE; }

const kdesc *fake_at(size_t i) { return i < fake_count() ? &FAKE[i] : NULL; }
