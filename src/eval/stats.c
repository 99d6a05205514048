/* stats.c: error statistics over evaluation records. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evaluate.h"

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

int sp_evaluation_stats(const sp_evaluation *e, const sp_eval_filter *f,
                        sp_eval_stats *out) {
  memset(out, 0, sizeof *out);
  double *ape = malloc((e->n + 1) * sizeof(double));
  if (!ape) return SP_ENOMEM;
  size_t n = 0;
  double sum = 0;
  for (size_t i = 0; i < e->n; i++) {
    const sp_eval_record *r = &e->records[i];
    if (!matches(f, r)) continue;
    double a = 100.0 * fabs(r->predicted - r->measured) / r->measured;
    ape[n++] = a;
    sum += a;
    size_t bin = a >= 100.0 ? SP_EVAL_HIST_BINS - 1 : (size_t)(a / 10.0);
    out->hist[bin]++;
  }
  out->n = n;
  if (n) {
    qsort(ape, n, sizeof *ape, cmp_double);
    out->mape = sum / (double)n;
    out->median = quantile(ape, n, 0.5);
    out->p90 = quantile(ape, n, 0.9);
    out->max = ape[n - 1];
  }
  free(ape);
  return SP_OK;
}
