/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memaxis.c: a memory system the model has not measured, predicted through
 * its description from the measured memory systems' predictions at the same
 * CU count and engine clock: interpolated in log peak bandwidth between
 * two, and beyond them bounded by what bandwidth can do (docs/method.md,
 * "physet: the memory axis"). */
#include <math.h>
#include <stdlib.h>

#include "model.h"
#include "util/status.h"

/* The two measured memory systems a value at log bandwidth x is drawn
 * from: the nearest on each side when x lies between two, else the two
 * nearest (extrapolation); *a == *b when one has exactly x's bandwidth. */
static void pick(const double *xs, size_t n, double x, size_t *a, size_t *b) {
  size_t lo = n, hi = n;
  for (size_t i = 0; i < n; i++) {
    if (xs[i] == x) {
      *a = *b = i;
      return;
    }
    if (xs[i] < x && (lo == n || xs[i] > xs[lo])) lo = i;
    if (xs[i] > x && (hi == n || xs[i] < xs[hi])) hi = i;
  }
  if (lo != n && hi != n) {
    *a = lo, *b = hi;
    return;
  }
  /* All on one side: the nearest, then the nearest of another bandwidth. */
  size_t first = lo != n ? lo : hi, second = n;
  for (size_t i = 0; i < n; i++)
    if (xs[i] != xs[first] && (second == n || fabs(xs[i] - x) < fabs(xs[second] - x))) second = i;
  *a = first;
  *b = second;
}

static double lerp(double ya, double yb, double xa, double xb, double x) {
  return xa == xb ? ya : ya + (yb - ya) * (x - xa) / (xb - xa);
}

/* Beyond the measured memory systems, the log time ratio at log bandwidth
 * x to the nearest system a (log time ya at log bandwidth xa), the next
 * nearest b beside it: a share s of a's time that bandwidth does not touch
 * and the rest in proportion to 1 / bandwidth, s such that the line passes
 * through b, held in [0, 1].  A log-linear line would have a kernel that
 * speeds up with bandwidth run faster without bound and one that slowed
 * down (a board's step, not bandwidth's) keep slowing; with s in [0, 1] the
 * time lies between the nearest system's and that time in proportion to
 * the bandwidth. */
static double beyond_share(double ya, double yb, double xa, double xb, double x) {
  double r = exp(yb - ya), q = exp(xa - xb);
  double s = (r - q) / (1 - q);
  s = s < 0 ? 0 : s > 1 ? 1 : s;
  return log(s + (1 - s) * exp(xa - x));
}

/* The grid index of (cu, engine, memory clock index im) for q. */
static size_t grid_index(const sp_submodel *s, const sp_config *t, size_t im) {
  sp_config c = {t->cu, t->engine_mhz, s->grid.v[2][im]};
  sp_grid_point gp;
  return sp__grid_locate(&s->grid, &c, &gp) ? (size_t)-1 : sp__grid_flat(&s->grid, &gp);
}

int sp_model_memory_interpolate(const sp_model *m, sp_quantity q, const double *values,
                                const double *lo, const double *hi, const sp_config *target,
                                const sp_memory_system *mem, double *out, double *out_lo,
                                double *out_hi, sp_error *err) {
  int st = sp__model_check_quantity(m, q);
  if (st)
    return sp__fail(err, st, NULL, 0, 0, NULL, "the model has no %s model",
                    q == SP_TIME ? "time" : "power");
  const sp_submodel *s = &m->sub[q];
  const size_t n = s->grid.n[2];
  if (!(mem->peak_gbs > 0 && isfinite(mem->peak_gbs)))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "peak",
                    "the target's peak bandwidth is not positive");
  double xs[64];
  size_t idx[64], k = 0;
  for (size_t i = 0; i < n && k < 64; i++) {
    const sp_memory_system *ms = sp_model_memory_of(m, s->grid.v[2][i]);
    if (!ms) continue;
    idx[k] = grid_index(s, target, i);
    if (idx[k] == (size_t)-1) continue;
    xs[k++] = log(ms->peak_gbs);
  }
  int distinct = 0;
  for (size_t i = 1; i < k; i++) distinct |= xs[i] != xs[0];
  char cfg[64];
  sp_config_format(target, cfg, sizeof cfg);
  if (m->nmemory < 2)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "target",
                    "%s: the model describes %s (train it on two or more with --memory FILE)", cfg,
                    m->nmemory ? "only one memory system" : "no memory systems");
  if (!k)
    return sp__fail(err, SP_EGRID, NULL, 0, 0, "target",
                    "%s: its CU count and engine clock are not on the model's %s grid", cfg,
                    q == SP_TIME ? "time" : "power");
  if (!distinct)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "target",
                    "%s: the model's measured memory systems at its CU count and engine clock "
                    "do not differ in bandwidth",
                    cfg);
  double x = log(mem->peak_gbs), d = INFINITY;
  for (size_t i = 0; i < k; i++) d = fmin(d, fabs(x - xs[i]));
  size_t a, b;
  pick(xs, k, x, &a, &b);
  const int beyond = (xs[a] - x) * (xs[b] - x) > 0;
  double ya = log(values[idx[a]]), yb = log(values[idx[b]]);
  double y = beyond ? ya + (q == SP_TIME ? beyond_share(ya, yb, xs[a], xs[b], x) : 0)
                    : lerp(ya, yb, xs[a], xs[b], x);
  *out = exp(y);
  if (!out_lo || !out_hi) return SP_OK;
  if (!lo || !hi || isnan(lo[idx[a]]) || isnan(lo[idx[b]])) {
    *out_lo = *out_hi = NAN;
    return SP_OK;
  }
  double la = ya - log(lo[idx[a]]), lb = yb - log(lo[idx[b]]);
  double ha = log(hi[idx[a]]) - ya, hb = log(hi[idx[b]]) - yb;
  if (beyond && q == SP_TIME) {
    /* Time beyond them: every share in [0, 1], from the nearest system's
     * time (bandwidth touches nothing) to that time in proportion to the
     * bandwidth, the ends widened by the nearest one's half widths. */
    double flat = ya, prop = ya + xs[a] - x;
    *out_lo = exp(fmin(flat, prop) - la);
    *out_hi = exp(fmax(flat, prop) + ha);
    return SP_OK;
  }
  /* The half widths of the two intervals, interpolated likewise (power
   * beyond them: the nearest one's), each widened in quadrature by the
   * log bandwidth distance d to the nearest measured system. */
  double hl = beyond ? la : fmax(0, lerp(la, lb, xs[a], xs[b], x));
  double hh = beyond ? ha : fmax(0, lerp(ha, hb, xs[a], xs[b], x));
  *out_lo = exp(y - sqrt(hl * hl + d * d));
  *out_hi = exp(y + sqrt(hh * hh + d * d));
  return SP_OK;
}
