/* SPDX-License-Identifier: GPL-3.0-or-later */
/* atom.c: host half of atom.cl and atomf.cu.  d->param is
 * ATOM_PARAM(kind, log2 of the words addressed).  2^20 work-items each
 * make 16 updates: 16M atomics per launch.  Results are exact (the float
 * sums are multiples of 0.5 below 2^23) and every word is compared. */
#include "suite.h"

static int kind_of(const kdesc *d) { return d->param / 100; }
static int bits_of(const kdesc *d) { return d->param % 100; }

static uint32_t hash(uint32_t g, int k, int iters) {
  uint32_t h = (g * (uint32_t)iters + (uint32_t)k) * 2654435761u;
  return h ^ (h >> 15);
}

int setup_atom(kjob *job, const kdesc *d, ksize size) {
  static const char *entries[] = {"",           "atom_global",  "atom_coalesced",
                                  "atom_local", "atom_cas_max", "atom_f32"};
  const int full = size == KSIZE_FULL, kind = kind_of(d);
  const size_t t = full ? (size_t)1 << 20 : 4096;
  const int iters = full ? 16 : 4;
  size_t words = (size_t)1 << bits_of(d);
  if (!full && words > 4096) words = 4096;
  const uint32_t mask = (uint32_t)words - 1u;
  kjob_init(job, kind == ATOM_F32 ? "atomf.cu" : "atom.cl", entries[kind]);
  int c = kjob_buf(job, words * 4, KB_INOUT);
  void *ref = kjob_ref(job, c, kind == ATOM_F32 ? KC_F32 : KC_U32, words, 0.0, 0.0);
  if (!ref || !job->buf[c].host) return -1;
  uint32_t *u = ref;
  float *f = ref;
  for (uint32_t g = 0; g < (uint32_t)t; ++g)
    for (int k = 0; k < iters; ++k) {
      uint32_t h = hash(g, k, iters);
      switch (kind) {
        case ATOM_COALESCED:
          u[(g + (uint32_t)k * (uint32_t)t) & mask]++;
          break;
        case ATOM_CAS:
          if (u[h & mask] < h >> 8) u[h & mask] = h >> 8;
          break;
        case ATOM_F32:
          f[h & mask] += 0.5f;
          break;
        default:
          u[h & mask]++;
          break;
      }
    }
  kjob_arg_buf(job, c);
  kjob_arg_u32(job, mask);
  kjob_arg_i32(job, iters);
  kjob_grid1(job, t, 256);
  return 0;
}
