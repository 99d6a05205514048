/* SPDX-License-Identifier: GPL-3.0-or-later */
/* measure.h: the measurement protocol for one kernel at one configuration.
 *
 * 1. Estimate: three single launches, timed with device events.
 * 2. Warm up: launches for warmup_ms of device time (caches, clocks).
 * 3. Measure: samples of k back-to-back launches, k chosen so a sample
 *    spans at least group_min_ms (event resolution and launch gaps stop
 *    mattering), as many samples as make the measured span reach
 *    min_time_ms, and power_window_ms when an energy counter is read.
 *    Per-launch time = sample time / k; the result is the median over
 *    samples, with quartiles and extremes as the spread.  All samples are
 *    enqueued back to back, so the device never waits for the host.
 * 4. Power: a separate thread polls the energy counter (every poll_ms)
 *    while the samples run, noting when its value changes (NVML updates it
 *    every 100 ms).  Average power is the energy between the first and the
 *    last change seen after lead_ms into the run, over the time between
 *    them ("updates").  When the counter has shown a steady update period
 *    over the session (the median of all intervals seen so far, kept in an
 *    mcounter) and this run's span is within 25% of k periods, the span is
 *    taken as k periods ("periodic"): a change is sometimes seen a few ms
 *    late (the read blocks), which would otherwise move a 200-400 ms span by
 *    several percent.  With fewer than two changes, power falls back to the
 *    energy over the whole run (start and end reads) over its wall time
 *    ("window").
 */
#ifndef SP_MEASURE_H
#define SP_MEASURE_H

#include "backend.h"
#include "energy.h"
#include "nvml.h"
#include "wavefit.h"

typedef struct mparams {
  double min_time_ms;
  double power_window_ms;
  double lead_ms;
  double poll_ms;
  double warmup_ms;
  double group_min_ms;
  int min_samples, max_samples;
  /* Sampled base measurement (--sampled; measure_sampled). */
  int sampled;
  double sample_threshold_ms; /* sample kernels whose first launch is longer */
  double sample_tol;          /* relative slope change counted as settled */
  double sample_max_fraction; /* no partial grid beyond this share of the waves */
  double sample_point_ms;     /* measured span per sampling point */
  double sample_warmup_ms;    /* warm-up per sampling point */
  int sample_flush;           /* MFLUSH_*: flush the cache before each
                                 sampling launch */
} mparams;

enum { MFLUSH_AUTO, MFLUSH_ALWAYS, MFLUSH_NEVER };

void mparams_init(mparams *p);

/* The intervals between energy-counter changes seen during a session. */
enum { MCOUNTER_MAX = 4096, MCOUNTER_MIN = 20 };
typedef struct mcounter {
  double iv[MCOUNTER_MAX];
  int n, next;
} mcounter;

/* Median interval in ms, or 0 with fewer than MCOUNTER_MIN intervals. */
double mcounter_period(const mcounter *c);

typedef struct mresult {
  double median_ms, q1_ms, q3_ms, min_ms, max_ms; /* per launch */
  int samples, per_sample;
  double span_ms;           /* wall time of the measured samples */
  double power_w;           /* NAN without an energy counter */
  double energy_j;          /* energy behind power_w */
  double energy_span_ms;    /* time behind power_w */
  int energy_updates;       /* counter changes seen after the lead-in */
  const char *power_method; /* "periodic", "updates", "window", "none" */
  double sm_mhz_mean;       /* SM clock sampled at each counter change (NVML) */
  unsigned sm_mhz_min;      /* 0: not sampled */
} mresult;

/* e and nv may be NULL (no power, no clock samples); counter collects the
 * energy counter's update intervals across calls. */
int measure_run(bk *b, kjob *job, energy *e, nvml *nv, const mparams *p, mcounter *counter,
                mresult *r);

double measure_now_ms(void);

/* What measure_sampled did.  method: "sampled" (the row is the
 * extrapolation), "sampled:flushed" (likewise, every sampling launch after
 * a flush of the cache: the job's buffers are larger than the cache), or
 * why the kernel is to be measured in full:
 * "full:not-sampleable" (its work-groups depend on the grid size),
 * "full:below-threshold", "full:few-waves" (fewer waves than three points
 * need), "full:unsettled" (the rate did not settle within the schedule). */
typedef struct msampled {
  const char *method;
  double first_ms;    /* the full grid's timed first launch */
  double full_waves;  /* the full grid in waves */
  int wave_groups;    /* work-groups per wave: CUs x groups per CU */
  double fit_se_ms;   /* the extrapolation's standard error (NAN: none) */
  size_t flush_bytes; /* flushed before every sampling launch (0: none) */
  wavefit fit;        /* the sampled points */
} msampled;

/* Sampled base measurement (wavefit.h) at cus compute units of a device
 * whose last-level cache holds cache_bytes (0: unknown, no flush).  Returns 0
 * with r holding the extrapolated time (no power), 1 when the kernel is to
 * be measured in full (s->method says why), -1 on a device error.  The job's
 * grid is restored before returning. */
int measure_sampled(bk *b, kjob *job, int cus, size_t cache_bytes, const mparams *p, mresult *r,
                    msampled *s);

#endif /* SP_MEASURE_H */
