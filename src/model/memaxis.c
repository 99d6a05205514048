/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memaxis.c: a memory system the model has not measured, predicted through
 * its description from the measured memory systems' predictions at the same
 * CU count and engine clock: interpolated in log peak bandwidth between
 * two, and beyond them bounded by what bandwidth can do, power following
 * the time there (docs/method.md, "physet: the memory axis"). */
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

/* The grid index of (t's cu and engine clock, memory clock mhz) in s's
 * grid, (size_t)-1 when it is not on it. */
static size_t grid_index(const sp_submodel *s, const sp_config *t, int mhz) {
  sp_config c = {t->cu, t->engine_mhz, mhz};
  sp_grid_point gp;
  return sp__grid_locate(&s->grid, &c, &gp) ? (size_t)-1 : sp__grid_flat(&s->grid, &gp);
}

/* Power beyond the measured memory systems, from the nearest one a (memory
 * clock mhz_a, log power ya with half widths la and ha, log bandwidth xa)
 * and the next nearest b (mhz_b, xb), at log bandwidth x: the power prior
 * of physet (docs/method.md) on the time there, P = F + (P_a - F) T_a / T
 * with F the training board's floor at a (the dynamic energy stays, the
 * floor draws for the time), T / T_a as beyond_share gives it from the time
 * predictions; its interval is the prior's over every share (from P_a, the
 * time untouched, to P_a at time in proportion to the bandwidth), each end
 * widened by a's half widths.  Returns 0 (nothing written) when the model
 * holds no floor or no time there: power then stays a's. */
static int power_beyond(const sp_model *m, const double *time, const sp_config *target, int mhz_a,
                        int mhz_b, double ya, double la, double ha, double xa, double xb, double x,
                        double *y, double *ylo, double *yhi) {
  const sp_submodel *st = &m->sub[SP_TIME];
  sp_config at_a = {target->cu, target->engine_mhz, mhz_a};
  size_t ta = grid_index(st, target, mhz_a), tb = grid_index(st, target, mhz_b);
  double floor_w;
  if (!time || ta == (size_t)-1 || tb == (size_t)-1 || !(time[ta] > 0) || !(time[tb] > 0) ||
      sp_model_floor_power(m, &at_a, &floor_w))
    return 0;
  double phi = fmin(1, floor_w / exp(ya));
  double rt = beyond_share(log(time[ta]), log(time[tb]), xa, xb, x);
  *y = ya + log(phi + (1 - phi) * exp(-rt));
  double flat = ya, prop = ya + log(phi + (1 - phi) * exp(x - xa));
  *ylo = fmin(flat, prop) - la;
  *yhi = fmax(flat, prop) + ha;
  return 1;
}

int sp_model_memory_interpolate(const sp_model *m, sp_quantity q, const double *values,
                                const double *lo, const double *hi, const double *time,
                                const sp_config *target, const sp_memory_system *mem, double *out,
                                double *out_lo, double *out_hi, sp_error *err) {
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
  int mhz[64];
  for (size_t i = 0; i < n && k < 64; i++) {
    const sp_memory_system *ms = sp_model_memory_of(m, s->grid.v[2][i]);
    if (!ms) continue;
    mhz[k] = s->grid.v[2][i];
    idx[k] = grid_index(s, target, mhz[k]);
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
  const int have = lo && hi && !isnan(lo[idx[a]]) && !isnan(lo[idx[b]]);
  double la = have ? ya - log(lo[idx[a]]) : NAN, lb = have ? yb - log(lo[idx[b]]) : NAN;
  double ha = have ? log(hi[idx[a]]) - ya : NAN, hb = have ? log(hi[idx[b]]) - yb : NAN;
  double y, ylo, yhi;
  if (beyond && q == SP_POWER &&
      power_beyond(m, time, target, mhz[a], mhz[b], ya, la, ha, xs[a], xs[b], x, &y, &ylo, &yhi)) {
    *out = exp(y);
    if (out_lo && out_hi) *out_lo = exp(ylo), *out_hi = exp(yhi);
    return SP_OK;
  }
  y = beyond ? ya + (q == SP_TIME ? beyond_share(ya, yb, xs[a], xs[b], x) : 0)
             : lerp(ya, yb, xs[a], xs[b], x);
  *out = exp(y);
  if (!out_lo || !out_hi) return SP_OK;
  if (!have) {
    *out_lo = *out_hi = NAN;
    return SP_OK;
  }
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
   * beyond them without a floor: the nearest one's), each widened in
   * quadrature by the log bandwidth distance d to the nearest measured
   * system. */
  double hl = beyond ? la : fmax(0, lerp(la, lb, xs[a], xs[b], x));
  double hh = beyond ? ha : fmax(0, lerp(ha, hb, xs[a], xs[b], x));
  *out_lo = exp(y - sqrt(hl * hl + d * d));
  *out_hi = exp(y + sqrt(hh * hh + d * d));
  return SP_OK;
}
