/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wavefit.h: sampled base measurement's arithmetic (issue 14, item 1).
 *
 * A kernel whose work-groups are independent of the grid size takes, on a
 * partial grid of the first w waves (a wave: as many work-groups as the
 * device holds at once), time(w) = a + b*w once the per-wave rate b has
 * settled: a is the launch and ramp cost, b the steady cost of one wave.
 * The sampler adds points at growing wave counts (1, 2, 3, 4, 6, 8, 12,
 * ...) and calls the rate settled when the per-wave rates of the last two
 * steps (between the last three points) differ by less than a relative
 * tolerance.  a and b are then fitted by least squares on those three
 * points, the earliest where the rate has settled, and the full grid's
 * time is a + b*W for its W waves, with the fit's prediction standard error
 * at W as its error estimate.
 *
 * The set / add / test steps are separate so a caller (measure.c) times the
 * points and this file stays pure arithmetic, testable without a device.
 */
#ifndef SP_WAVEFIT_H
#define SP_WAVEFIT_H

enum { WAVEFIT_MAX = 16 };

typedef struct wavefit {
  double w[WAVEFIT_MAX], ms[WAVEFIT_MAX]; /* the sampled points */
  int n;
  double full_waves;   /* W, the full grid's waves */
  double tol;          /* relative slope change that counts as settled */
  double max_fraction; /* no point beyond this share of W */
  int first;           /* the first point of the fit */
  int settled;
} wavefit;

/* The fit of the points so far: time = a + b*w, and its prediction at W. */
typedef struct wavefit_result {
  double a, b;
  double pred_ms; /* a + b*W */
  double se_ms;   /* prediction standard error at W (NAN below 3 points) */
  int n;
} wavefit_result;

void wavefit_init(wavefit *f, double full_waves, double tol, double max_fraction);
/* Adds one point (more waves than the last); returns 1 once the rate has
 * settled, after which no point may be added. */
int wavefit_add(wavefit *f, double waves, double ms);
/* The next wave count to sample: the first step of the schedule beyond the
 * last point's waves, or 0 when none is left (the schedule is spent, or
 * that step passes max_fraction of W): the caller then measures the full
 * grid instead. */
double wavefit_next(const wavefit *f);
/* Least squares over the points from `first` (all of them before the rate
 * settles); -1 with fewer than two distinct waves. */
int wavefit_solve(const wavefit *f, wavefit_result *r);

#endif /* SP_WAVEFIT_H */
