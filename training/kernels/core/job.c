/* SPDX-License-Identifier: GPL-3.0-or-later */
/* job.c: building and checking suite jobs, and the suite's deterministic
 * random numbers. */
#include "suite.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kjob_init(kjob *job, const char *source, const char *entry) {
  memset(job, 0, sizeof *job);
  job->source = source;
  job->entry = entry;
  job->groups[0] = job->groups[1] = job->groups[2] = 1;
  job->local[0] = job->local[1] = job->local[2] = 1;
}

void kjob_free(kjob *job) {
  if (job == NULL) return;
  for (int b = 0; b < job->nbuf; ++b) {
    free(job->buf[b].host);
    free(job->buf[b].ref);
    free(job->buf[b].sample);
    free(job->buf[b].result);
  }
  free(job->priv);
  memset(job, 0, sizeof *job);
}

int kjob_buf(kjob *job, size_t bytes, kb_role role) {
  assert(job->nbuf < KJOB_MAX_BUFS);
  kbuf *b = &job->buf[job->nbuf];
  memset(b, 0, sizeof *b);
  b->bytes = bytes;
  b->role = role;
  if (role != KB_OUT) b->host = calloc(1, bytes); /* NULL when out of memory: callers check */
  return job->nbuf++;
}

static size_t cmp_elem_size(kb_cmp cmp) {
  switch (cmp) {
    case KC_F32:
    case KC_U32:
      return 4;
    case KC_F64:
      return 8;
    case KC_NONE:
      break;
  }
  return 0;
}

void *kjob_ref(kjob *job, int b, kb_cmp cmp, size_t count, double rtol, double atol) {
  assert(b >= 0 && b < job->nbuf);
  kbuf *kb = &job->buf[b];
  assert(count * cmp_elem_size(cmp) <= kb->bytes);
  kb->cmp = cmp;
  kb->count = count;
  kb->rtol = rtol;
  kb->atol = atol;
  kb->ref = calloc(count ? count : 1, cmp_elem_size(cmp));
  return kb->ref;
}

size_t *kjob_sample(kjob *job, int b) {
  assert(b >= 0 && b < job->nbuf);
  kbuf *kb = &job->buf[b];
  kb->sample = calloc(kb->count ? kb->count : 1, sizeof *kb->sample);
  return kb->sample;
}

static karg *next_arg(kjob *job, karg_kind kind) {
  assert(job->narg < KJOB_MAX_ARGS);
  karg *a = &job->arg[job->narg++];
  memset(a, 0, sizeof *a);
  a->kind = kind;
  return a;
}

void kjob_arg_buf(kjob *job, int b) {
  assert(b >= 0 && b < job->nbuf);
  next_arg(job, KA_BUF)->buf = b;
}

void kjob_arg_i32(kjob *job, int32_t v) { next_arg(job, KA_I32)->v.i = v; }
void kjob_arg_u32(kjob *job, uint32_t v) { next_arg(job, KA_U32)->v.u = v; }
void kjob_arg_f32(kjob *job, float v) { next_arg(job, KA_F32)->v.f = v; }
void kjob_arg_f64(kjob *job, double v) { next_arg(job, KA_F64)->v.d = v; }

void kjob_grid(kjob *job, size_t gx, size_t gy, size_t gz, size_t lx, size_t ly, size_t lz) {
  job->groups[0] = gx;
  job->groups[1] = gy;
  job->groups[2] = gz;
  job->local[0] = lx;
  job->local[1] = ly;
  job->local[2] = lz;
}

void kjob_grid1(kjob *job, size_t n, size_t lx) {
  kjob_grid(job, (n + lx - 1) / lx, 1, 1, lx, 1, 1);
}

void kjob_sampleable(kjob *job) { job->sampleable = 1; }

void kjob_resident(kjob *job, int per_cu) { job->resident = per_cu > 0 ? per_cu : 1; }

/* Value of element i of a compared buffer as a double. */
static double elem(const void *base, kb_cmp cmp, size_t i) {
  switch (cmp) {
    case KC_F32:
      return ((const float *)base)[i];
    case KC_F64:
      return ((const double *)base)[i];
    case KC_U32:
      return ((const uint32_t *)base)[i];
    case KC_NONE:
      break;
  }
  return 0.0;
}

static int verify_buf(kjob *job, int b, char *msg, size_t size) {
  const kbuf *kb = &job->buf[b];
  if (kb->cmp == KC_NONE) return 0;
  assert(kb->result != NULL);
  for (size_t j = 0; j < kb->count; ++j) {
    size_t i = kb->sample ? kb->sample[j] : j;
    double got = elem(kb->result, kb->cmp, i);
    double want = elem(kb->ref, kb->cmp, j);
    if (kb->cmp == KC_U32) {
      if (got != want) {
        snprintf(msg, size, "buffer %d element %zu: got %.0f, expected %.0f", b, i, got, want);
        return -1;
      }
      continue;
    }
    double err = fabs(got - want);
    double bound = kb->atol + kb->rtol * fabs(want);
    if (!(err <= bound)) { /* also catches NaN (poison) */
      snprintf(msg, size,
               "buffer %d element %zu: got %.9g, expected %.9g "
               "(|diff| %.3g > %.3g)",
               b, i, got, want, err, bound);
      return -1;
    }
    if (bound > 0 && err / bound > job->max_err) job->max_err = err / bound;
  }
  return 0;
}

int kjob_verify(kjob *job, char *msg, size_t size) {
  job->max_err = 0.0;
  for (int b = 0; b < job->nbuf; ++b)
    if (verify_buf(job, b, msg, size) != 0) return -1;
  if (job->check != NULL) return job->check(job, msg, size);
  return 0;
}

size_t kspread(size_t c, size_t count, size_t n) {
  size_t step = count < n ? n / count : 1;
  return (c * step + (c * 37) % step) % n;
}

void *kjob_ref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, size_t max, double rtol,
                       double atol) {
  const size_t count = n < max ? n : max;
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  size_t *smp = ref ? kjob_sample(job, b) : NULL;
  if (smp == NULL) return NULL;
  for (size_t c = 0; c < count; ++c) smp[c] = kspread(c, count, n);
  return ref;
}

void *kjob_ref_at(kjob *job, int b, kb_cmp cmp, size_t count, double rtol, double atol,
                  size_t **idx) {
  void *ref = kjob_ref(job, b, cmp, count, rtol, atol);
  *idx = ref ? kjob_sample(job, b) : NULL;
  return *idx ? ref : NULL;
}

int kjob_buf_u32(kjob *job, size_t n, kb_role role) {
  int b = kjob_buf(job, n * 4, role);
  if (role != KB_OUT && job->buf[b].host == NULL) return -1;
  return b;
}

void krepeat(void *p, size_t len, size_t n) {
  unsigned char *b = p;
  for (size_t q = len; q < n; q += len) memcpy(b + q, b, n - q < len ? n - q : len);
}

/* ---- random numbers ---------------------------------------------------- */

void krng_seed(krng *r, const char *name, uint64_t salt) {
  /* FNV-1a of the name, so each kernel has its own reproducible stream. */
  uint64_t h = 1469598103934665603ULL;
  for (const char *p = name; *p; ++p) {
    h ^= (unsigned char)*p;
    h *= 1099511628211ULL;
  }
  r->s = h ^ (salt * 0x9E3779B97F4A7C15ULL);
}

uint64_t krng_u64(krng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

uint32_t krng_u32(krng *r) { return (uint32_t)(krng_u64(r) >> 32); }

double krng_uniform(krng *r, double lo, double hi) {
  double u = (double)(krng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
  return lo + (hi - lo) * u;
}

uint32_t krng_below(krng *r, uint32_t n) {
  return (uint32_t)(((krng_u64(r) >> 32) * (uint64_t)n) >> 32);
}

void kfill_f32(float *a, size_t n, krng *r, double lo, double hi) {
  for (size_t i = 0; i < n; ++i) a[i] = (float)krng_uniform(r, lo, hi);
}

void kfill_f64(double *a, size_t n, krng *r, double lo, double hi) {
  for (size_t i = 0; i < n; ++i) a[i] = krng_uniform(r, lo, hi);
}

void kfill_u32(uint32_t *a, size_t n, krng *r) {
  for (size_t i = 0; i < n; ++i) a[i] = krng_u32(r);
}

double kmaxabs_f32(const float *a, size_t n) {
  double m = 0.0;
  for (size_t i = 0; i < n; ++i)
    if (fabs(a[i]) > m) m = fabs(a[i]);
  return m;
}
