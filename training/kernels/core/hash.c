/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hash.c: host half of hash.cl (exact integer results). */
#include "suite.h"

enum { H_MURMUR, H_FNV1A, H_SPLITMIX, H_POPCOUNT };

static uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

static uint32_t ref_one(const kdesc *d, const uint32_t *in, size_t i, size_t n, int rounds) {
  switch (d->param) {
    case H_MURMUR: {
      uint32_t h = in[i];
      for (int r = 0; r < rounds; ++r) h = fmix32(h + (uint32_t)r);
      return h;
    }
    case H_FNV1A: {
      uint32_t h = 2166136261u;
      for (int w = 0; w < 16; ++w)
        for (int b = 0; b < 4; ++b) {
          h ^= (in[i * 16 + w] >> (8 * b)) & 255u;
          h *= 16777619u;
        }
      return h;
    }
    case H_SPLITMIX: {
      uint64_t z = (uint64_t)in[i] | ((uint64_t)(uint32_t)i << 32);
      for (int r = 0; r < rounds; ++r) {
        z += 0x9E3779B97F4A7C15ULL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
      }
      return (uint32_t)(z ^ (z >> 32));
    }
    default: {
      uint32_t c = 0;
      for (int w = 0; w < rounds; ++w) c += (uint32_t)__builtin_popcount(in[(size_t)w * n + i]);
      return c;
    }
  }
}

int setup_hash(kjob *job, const kdesc *d, ksize size) {
  static const char *entries[] = {"hash_murmur", "hash_fnv1a", "hash_splitmix64", "popcount_sum"};
  static const int rounds[] = {64, 0, 16, 16}; /* popcount: words */
  const size_t n = size == KSIZE_FULL ? (size_t)1 << 22 : 4096;
  const size_t words = d->param == H_FNV1A ? 16 : d->param == H_POPCOUNT ? 16 : 1;
  krng r;
  kjob_init(job, "hash.cl", entries[d->param]);
  int in = kjob_buf(job, n * words * 4, KB_IN), out = kjob_buf(job, n * 4, KB_OUT);
  uint32_t *h = job->buf[in].host;
  uint32_t *ref = kjob_ref(job, out, KC_U32, n, 0.0, 0.0);
  if (!h || !ref) return -1;
  krng_seed(&r, d->name, 0);
  kfill_u32(h, n * words, &r);
  for (size_t i = 0; i < n; ++i) ref[i] = ref_one(d, h, i, n, rounds[d->param]);
  kjob_arg_buf(job, in);
  kjob_arg_buf(job, out);
  kjob_arg_i32(job, (int)n);
  if (d->param != H_FNV1A) kjob_arg_i32(job, rounds[d->param]);
  kjob_grid1(job, n, 256);
  return 0;
}
