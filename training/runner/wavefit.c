/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wavefit.c: see wavefit.h. */
#include "wavefit.h"

#include <assert.h>
#include <math.h>

/* Wave counts in sampling order: about half as many again each step, so the
 * points cover a wide range of w (the slope's leverage) in few launches. */
static const double SCHEDULE[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};
enum { SCHEDULE_LEN = sizeof SCHEDULE / sizeof *SCHEDULE };

void wavefit_init(wavefit *f, double full_waves, double tol, double max_fraction) {
  assert(full_waves > 0.0 && tol > 0.0 && max_fraction > 0.0);
  f->n = 0;
  f->full_waves = full_waves;
  f->tol = tol;
  f->max_fraction = max_fraction;
  f->first = 0;
  f->settled = 0;
}

/* The first step beyond the last point: a partial grid is rounded up to
 * whole rows of work-groups, so a point can land past the steps after the
 * one asked for, which would only repeat it. */
double wavefit_next(const wavefit *f) {
  double last = f->n > 0 ? f->w[f->n - 1] : 0.0;
  if (f->n >= WAVEFIT_MAX) return 0.0;
  for (int i = 0; i < SCHEDULE_LEN; ++i)
    if (SCHEDULE[i] > last)
      return SCHEDULE[i] <= f->max_fraction * f->full_waves ? SCHEDULE[i] : 0.0;
  return 0.0;
}

int wavefit_solve(const wavefit *f, wavefit_result *r) {
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  const double *w = f->w + f->first, *ms = f->ms + f->first;
  int n = f->n - f->first;
  for (int i = 0; i < n; ++i) {
    sx += w[i];
    sy += ms[i];
  }
  if (n < 2) return -1;
  double mx = sx / n, my = sy / n;
  for (int i = 0; i < n; ++i) {
    sxx += (w[i] - mx) * (w[i] - mx);
    sxy += (w[i] - mx) * (ms[i] - my);
  }
  if (sxx <= 0.0) return -1;
  r->n = n;
  r->b = sxy / sxx;
  r->a = my - r->b * mx;
  r->pred_ms = r->a + r->b * f->full_waves;
  r->se_ms = NAN;
  if (n >= 3) {
    double rss = 0.0;
    for (int i = 0; i < n; ++i) {
      double e = ms[i] - (r->a + r->b * w[i]);
      rss += e * e;
    }
    double dx = f->full_waves - mx;
    r->se_ms = sqrt(rss / (n - 2) * (1.0 / n + dx * dx / sxx));
  }
  return 0;
}

/* The per-wave rate between points i-1 and i. */
static double local_rate(const wavefit *f, int i) {
  return (f->ms[i] - f->ms[i - 1]) / (f->w[i] - f->w[i - 1]);
}

int wavefit_add(wavefit *f, double waves, double ms) {
  assert(f->n < WAVEFIT_MAX && !f->settled);
  assert(f->n == 0 || waves > f->w[f->n - 1]);
  f->w[f->n] = waves;
  f->ms[f->n] = ms;
  f->n++;
  if (f->n < 3) return 0;
  /* The rate has settled when the last two steps' rates agree: the points
   * before them (launch ramp, the first wave's lead-in) are left out of
   * the fit, which would otherwise bend the slope for many points more. */
  double r1 = local_rate(f, f->n - 2), r2 = local_rate(f, f->n - 1);
  if (r2 > 0.0 && fabs(r2 - r1) <= f->tol * r2) {
    f->first = f->n - 3;
    f->settled = 1;
  }
  return f->settled;
}
