/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stats.c: error statistics over evaluation records: time and power as
 * recorded, and energy from the pairs of a time and a power record. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evaluation.h"

void sp_eval_filter_init(sp_eval_filter *f) {
  f->method = f->quantity = f->k = f->kernel = f->base = SP_EVAL_ANY;
}

static int matches(const sp_eval_filter *f, const sp_eval_record *r) {
  return (f->method == SP_EVAL_ANY || f->method == r->method) &&
         (f->quantity == SP_EVAL_ANY || f->quantity == r->quantity) &&
         (f->k == SP_EVAL_ANY || r->k == 0 || f->k == r->k) &&
         (f->kernel == SP_EVAL_ANY || f->kernel == r->kernel) &&
         (f->base == SP_EVAL_ANY || f->base == r->base);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Linear interpolation between order statistics. */
static double quantile(const double *sorted, size_t n, double q) {
  double pos = q * (double)(n - 1);
  size_t lo = (size_t)pos;
  double frac = pos - (double)lo;
  return lo + 1 < n ? sorted[lo] * (1 - frac) + sorted[lo + 1] * frac : sorted[lo];
}

/* Running sums of one selection of records. */
typedef struct tally {
  double *ape;
  size_t n, covered, outside;
  double sum, sum_outside;
  sp_eval_stats *out;
} tally;

static void add(tally *t, const sp_eval_record *r, double predicted, double measured) {
  double a = 100.0 * fabs(predicted - measured) / measured;
  t->ape[t->n++] = a;
  t->sum += a;
  size_t bin = a >= 100.0 ? SP_EVAL_HIST_BINS - 1 : (size_t)(a / 10.0);
  t->out->hist[bin]++;
  if (r && isfinite(r->lo) && isfinite(r->hi)) {
    t->out->n_interval++;
    t->covered += r->lo <= measured && measured <= r->hi;
  }
  if (r && r->outside) t->outside++, t->sum_outside += a;
}

static void finish(tally *t) {
  sp_eval_stats *out = t->out;
  out->n = t->n;
  out->n_outside = t->outside;
  out->coverage = out->n_interval ? 100.0 * (double)t->covered / (double)out->n_interval : NAN;
  out->mape_outside = t->outside ? t->sum_outside / (double)t->outside : NAN;
  if (!t->n) return;
  qsort(t->ape, t->n, sizeof *t->ape, cmp_double);
  out->mape = t->sum / (double)t->n;
  out->median = quantile(t->ape, t->n, 0.5);
  out->p90 = quantile(t->ape, t->n, 0.9);
  out->max = t->ape[t->n - 1];
}

static int tally_init(tally *t, size_t n, sp_eval_stats *out) {
  memset(out, 0, sizeof *out);
  memset(t, 0, sizeof *t);
  t->out = out;
  t->ape = malloc((n + 1) * sizeof *t->ape);
  return t->ape ? SP_OK : SP_ENOMEM;
}

int sp_evaluation_stats(const sp_evaluation *e, const sp_eval_filter *f, sp_eval_stats *out) {
  tally t;
  if (tally_init(&t, e->n, out)) return SP_ENOMEM;
  for (size_t i = 0; i < e->n; i++)
    if (matches(f, &e->records[i]))
      add(&t, &e->records[i], e->records[i].predicted, e->records[i].measured);
  finish(&t);
  free(t.ape);
  return SP_OK;
}

/* Orders records by everything that pairs a time with a power record. */
static int cmp_pair(const void *a, const void *b) {
  const sp_eval_record *x = *(const sp_eval_record *const *)a,
                       *y = *(const sp_eval_record *const *)b;
  long d[] = {(long)x->method - y->method,
              (long)x->split - y->split,
              (long)x->k - (long)y->k,
              (long)x->kernel - (long)y->kernel,
              (long)x->base - (long)y->base,
              (long)x->target.cu - y->target.cu,
              (long)x->target.engine_mhz - y->target.engine_mhz,
              (long)x->target.memory_mhz - y->target.memory_mhz,
              (long)x->quantity - y->quantity};
  for (size_t i = 0; i < sizeof d / sizeof *d; i++)
    if (d[i]) return d[i] < 0 ? -1 : 1;
  return 0;
}

static int same_point(const sp_eval_record *a, const sp_eval_record *b) {
  return a->method == b->method && a->split == b->split && a->k == b->k && a->kernel == b->kernel &&
         a->base == b->base && sp_config_equal(&a->target, &b->target);
}

int sp_evaluation_energy_stats(const sp_evaluation *e, const sp_eval_filter *f,
                               sp_eval_stats *out) {
  sp_eval_filter g = *f;
  g.quantity = SP_EVAL_ANY;
  const sp_eval_record **v = malloc((e->n + 1) * sizeof *v);
  tally t;
  if (!v || tally_init(&t, e->n, out)) {
    free(v);
    return SP_ENOMEM;
  }
  size_t n = 0;
  for (size_t i = 0; i < e->n; i++)
    if (matches(&g, &e->records[i])) v[n++] = &e->records[i];
  qsort(v, n, sizeof *v, cmp_pair);
  for (size_t i = 0; i + 1 < n; i++)
    if (v[i]->quantity == SP_TIME && v[i + 1]->quantity == SP_POWER && same_point(v[i], v[i + 1]))
      add(&t, NULL, v[i]->predicted * v[i + 1]->predicted, v[i]->measured * v[i + 1]->measured);
  finish(&t);
  free(v);
  free(t.ape);
  return SP_OK;
}
