/* SPDX-License-Identifier: GPL-3.0-or-later */
/* append.c: host half of append.cl and appendw.cu.  d->param is
 * APPEND_PARAM(kind, percent): the share of the elements (APP_PAIRS: of
 * the candidate pairs, about) that qualify and are appended.
 *   APP_ITEM   append_item: one atomic add on one counter per element in
 *              the source (ptxas for sm_90 aggregates them per warp)
 *   APP_QUEUE  append_queue: the same through ctr[key & 0], one atomic per
 *              element whatever the compiler does
 *   APP_WARP   append_warp (CUDA only): one atomic per warp
 *   APP_PAIRS  append_pairs: neighbour pairs among the next 16 points
 *
 * Slots are taken in whatever order the atomics are served, so the check
 * is of the set: the counter must equal the host's count, and the first
 * count slots must hold every qualifying element (pair) once, with its
 * payload.  Payloads are exact (dyadic values, integer indices). */
#include "suite.h"

#include <stdio.h>
#include <stdlib.h>

#define APP_GROUP 256
#define APP_WINDOW 16
#define APP_GAP 128 /* pair positions step by 1..APP_GAP */

enum { APP_BKEY, APP_BVAL, APP_BCTR, APP_BOUT0, APP_BOUT1 };

typedef struct app_check {
  int pairs;
  uint32_t n, thresh, count;
} app_check;

static int kind_of(const kdesc *d) { return d->param / 1000; }
static int pct_of(const kdesc *d) { return d->param % 1000; }

/* The smallest power of two >= m (at least 1): the ring's slots. */
static size_t ring_slots(size_t m) {
  size_t s = 1;
  while (s < m) s <<= 1;
  return s;
}

static int check_items(const kjob *job, char *msg, size_t size) {
  const app_check *c = job->priv;
  const uint32_t *key = job->buf[APP_BKEY].host;
  const float *val = job->buf[APP_BVAL].host;
  const uint32_t *idx = job->buf[APP_BOUT0].result;
  const float *v = job->buf[APP_BOUT1].result;
  unsigned char *seen = calloc(c->n, 1);
  if (!seen) {
    snprintf(msg, size, "out of memory");
    return -1;
  }
  int rc = 0;
  for (uint32_t p = 0; p < c->count && rc == 0; ++p) {
    uint32_t i = idx[p];
    if (i >= c->n || key[i] > c->thresh || seen[i]) {
      snprintf(msg, size, "slot %u: element %u is out of range, not qualifying or repeated", p, i);
      rc = -1;
    } else if (v[p] != 2.0f * val[i] + 1.0f) {
      snprintf(msg, size, "slot %u (element %u): payload %.9g, expected %.9g", p, i, v[p],
               2.0f * val[i] + 1.0f);
      rc = -1;
    }
    if (rc == 0) seen[i] = 1;
  }
  free(seen);
  return rc;
}

static int check_pairs(const kjob *job, char *msg, size_t size) {
  const app_check *c = job->priv;
  const uint32_t *pos = job->buf[APP_BKEY].host;
  const uint32_t *oi = job->buf[APP_BOUT0].result, *oj = job->buf[APP_BOUT1].result;
  unsigned char *seen = calloc((size_t)c->n * APP_WINDOW, 1);
  if (!seen) {
    snprintf(msg, size, "out of memory");
    return -1;
  }
  int rc = 0;
  for (uint32_t p = 0; p < c->count && rc == 0; ++p) {
    uint32_t i = oi[p], j = oj[p];
    size_t s = (size_t)i * APP_WINDOW + (j - i - 1u);
    if (i >= c->n || j >= c->n || j <= i || j - i > APP_WINDOW || pos[j] - pos[i] >= c->thresh ||
        seen[s]) {
      snprintf(msg, size, "slot %u: pair (%u, %u) is out of range, too far or repeated", p, i, j);
      rc = -1;
    } else {
      seen[s] = 1;
    }
  }
  free(seen);
  return rc;
}

/* The counter (one word, or the queue's first) must end at count. */
static int counter(kjob *job, uint32_t count) {
  int b = kjob_buf(job, 4, KB_INOUT);
  uint32_t *ref = kjob_ref(job, b, KC_U32, 1, 0.0, 0.0);
  if (!ref || !job->buf[b].host) return -1;
  ref[0] = count;
  return 0;
}

static app_check *new_check(kjob *job, int pairs, uint32_t n, uint32_t thresh, uint32_t count) {
  app_check *c = malloc(sizeof *c);
  if (!c) return NULL;
  c->pairs = pairs;
  c->n = n;
  c->thresh = thresh;
  c->count = count;
  job->priv = c;
  job->check = pairs ? check_pairs : check_items;
  return c;
}

static int setup_items(kjob *job, const kdesc *d, ksize size) {
  static const char *entries[] = {"", "append_item", "append_queue", "append_warp"};
  const int kind = kind_of(d), pct = pct_of(d);
  const uint32_t n = size == KSIZE_FULL ? (uint32_t)1 << 23 : 8192;
  const uint32_t thresh =
      pct >= 100 ? 0xFFFFFFFFu : (uint32_t)((double)pct / 100.0 * 4294967296.0) - 1u;
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, kind == APP_WARP ? "appendw.cu" : "append.cl", entries[kind]);
  kjob_buf(job, (size_t)n * 4, KB_IN);
  kjob_buf(job, (size_t)n * 4, KB_IN);
  uint32_t *key = job->buf[APP_BKEY].host;
  float *val = job->buf[APP_BVAL].host;
  if (!key || !val) return -1;
  uint32_t count = 0;
  for (uint32_t i = 0; i < n; ++i) {
    key[i] = krng_u32(&r);
    val[i] = (float)krng_below(&r, 1024) * 0.25f - 128.0f;
    count += key[i] <= thresh;
  }
  const size_t slots = ring_slots(count);
  if (counter(job, count) != 0) return -1;
  kjob_buf(job, slots * 4, KB_OUT);
  kjob_buf(job, slots * 4, KB_OUT);
  if (!new_check(job, 0, n, thresh, count)) return -1;
  for (int b = 0; b < 5; ++b) kjob_arg_buf(job, b);
  kjob_arg_u32(job, thresh);
  kjob_arg_u32(job, (uint32_t)(slots - 1));
  kjob_arg_i32(job, (int)n);
  if (kind == APP_QUEUE) kjob_arg_u32(job, 0u);
  kjob_grid1(job, n, APP_GROUP);
  return 0;
}

/* Points on a line with gaps of 1..APP_GAP; a pair qualifies when the
 * second point lies less than the cutoff ahead of the first, which
 * percent of the APP_WINDOW candidates do on average. */
static int setup_pairs(kjob *job, const kdesc *d, ksize size) {
  const uint32_t n = size == KSIZE_FULL ? (uint32_t)1 << 21 : 4096;
  const uint32_t cutoff = (uint32_t)((APP_GAP + 1) / 2.0 * APP_WINDOW * pct_of(d) / 100.0);
  krng r;
  krng_seed(&r, d->name, 0);
  kjob_init(job, "append.cl", "append_pairs");
  kjob_buf(job, (size_t)n * 4, KB_IN);
  kjob_buf(job, 4, KB_IN); /* unused: keeps the buffer numbering of the items */
  uint32_t *pos = job->buf[APP_BKEY].host;
  if (!pos || !job->buf[APP_BVAL].host) return -1;
  for (uint32_t i = 0; i < n; ++i) pos[i] = (i ? pos[i - 1] : 0u) + 1u + krng_below(&r, APP_GAP);
  uint32_t count = 0;
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t j = i + 1; j < n && j <= i + APP_WINDOW; ++j) count += pos[j] - pos[i] < cutoff;
  const size_t slots = ring_slots(count);
  if (counter(job, count) != 0) return -1;
  kjob_buf(job, slots * 4, KB_OUT);
  kjob_buf(job, slots * 4, KB_OUT);
  if (!new_check(job, 1, n, cutoff, count)) return -1;
  kjob_arg_buf(job, APP_BKEY);
  kjob_arg_buf(job, APP_BCTR);
  kjob_arg_buf(job, APP_BOUT0);
  kjob_arg_buf(job, APP_BOUT1);
  kjob_arg_u32(job, cutoff);
  kjob_arg_u32(job, (uint32_t)(slots - 1));
  kjob_arg_i32(job, (int)n);
  kjob_arg_i32(job, APP_WINDOW);
  kjob_grid1(job, n, APP_GROUP);
  return 0;
}

int setup_append(kjob *job, const kdesc *d, ksize size) {
  return kind_of(d) == APP_PAIRS ? setup_pairs(job, d, size) : setup_items(job, d, size);
}
