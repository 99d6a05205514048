/* SPDX-License-Identifier: GPL-3.0-or-later */
/* measure.c: see measure.h. */
#define _POSIX_C_SOURCE 200809L
#include "measure.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_TICKS = 4096 };

void mparams_init(mparams *p) {
  p->min_time_ms = 100.0;
  p->power_window_ms = 400.0;
  p->lead_ms = 50.0;
  p->poll_ms = 0.5;
  p->warmup_ms = 20.0;
  p->group_min_ms = 0.05;
  p->min_samples = 5;
  p->max_samples = 2000;
  p->sampled = 0;
  p->sample_threshold_ms = 5.0;
  p->sample_tol = 0.02;
  p->sample_max_fraction = 0.5;
  p->sample_point_ms = 10.0;
  p->sample_warmup_ms = 2.0;
  p->sample_flush = MFLUSH_AUTO;
}

double measure_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* A change of the energy counter, when it was seen, and the SM clock then. */
typedef struct tick {
  double t_ms, joules;
  unsigned sm_mhz;
} tick;

/* The polling thread's state.  The thread writes ticks; the measuring
 * thread reads them only after joining it. */
typedef struct poller {
  energy *e;
  nvml *nv;
  double poll_ms;
  atomic_int stop;
  pthread_t thread;
  double j0;
  tick ticks[MAX_TICKS];
  int nticks;
} poller;

static void *poll_main(void *arg) {
  poller *pl = arg;
  double prev = pl->j0, j;
  struct timespec nap = {0, (long)(pl->poll_ms * 1e6)};
  while (!atomic_load(&pl->stop)) {
    if (energy_read(pl->e, &j) == 0 && j != prev && pl->nticks < MAX_TICKS) {
      tick *t = &pl->ticks[pl->nticks++];
      nvml_clocks c;
      t->t_ms = measure_now_ms();
      t->joules = j;
      t->sm_mhz = 0;
      if (pl->nv) {
        nvml_read_clocks(pl->nv, &c);
        t->sm_mhz = c.sm;
      }
      prev = j;
    }
    nanosleep(&nap, NULL);
  }
  return NULL;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Linear-interpolated quantile of sorted v[0..n-1]. */
static double quantile(const double *v, int n, double q) {
  double pos = q * (n - 1);
  int i = (int)pos;
  if (i >= n - 1) return v[n - 1];
  return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

/* Enqueues samples x per launches back to back, each sample after an
 * untimed flush of flush_bytes of the cache when that is not 0, then waits;
 * fills ms[]. */
static int run_samples(bk *b, kjob *job, int samples, int per, size_t flush_bytes, double *ms) {
  const bk_ops *o = b->ops;
  if (o->timing_begin(b, job, samples) != 0) return -1;
  for (int s = 0; s < samples; ++s)
    if ((flush_bytes && o->flush(b, flush_bytes) != 0) || o->timing_group(b, job, per) != 0)
      return -1;
  return o->timing_end(b, ms);
}

static void summarize(double *ms, int n, int per, mresult *r) {
  for (int i = 0; i < n; ++i) ms[i] /= per;
  qsort(ms, (size_t)n, sizeof *ms, cmp_double);
  r->median_ms = quantile(ms, n, 0.5);
  r->q1_ms = quantile(ms, n, 0.25);
  r->q3_ms = quantile(ms, n, 0.75);
  r->min_ms = ms[0];
  r->max_ms = ms[n - 1];
  r->samples = n;
  r->per_sample = per;
}

/* Chooses launches per sample and the sample count from the estimate. */
static void plan(const mparams *p, int with_power, double est, int *samples, int *per) {
  double target = p->min_time_ms;
  if (with_power && p->power_window_ms > target) target = p->power_window_ms;
  *per = est >= p->group_min_ms ? 1 : (int)ceil(p->group_min_ms / est);
  double n = ceil(target / (est * *per));
  if (n < p->min_samples) n = p->min_samples;
  if (n > p->max_samples) {
    n = p->max_samples;
    *per = (int)ceil(target / (n * est));
  }
  *samples = (int)n;
}

double mcounter_period(const mcounter *c) {
  double v[MCOUNTER_MAX];
  if (c->n < MCOUNTER_MIN) return 0.0;
  memcpy(v, c->iv, (size_t)c->n * sizeof *v);
  qsort(v, (size_t)c->n, sizeof *v, cmp_double);
  return quantile(v, c->n, 0.5);
}

static void mcounter_add(mcounter *c, const poller *pl) {
  for (int i = 1; i < pl->nticks; ++i) {
    c->iv[c->next] = pl->ticks[i].t_ms - pl->ticks[i - 1].t_ms;
    c->next = (c->next + 1) % MCOUNTER_MAX;
    if (c->n < MCOUNTER_MAX) c->n++;
  }
}

/* The span behind k counter intervals observed as span_ms: k periods when
 * the session has a steady period that agrees within 25%. */
static double periodic_span(const mcounter *c, int k, double span_ms) {
  double p = mcounter_period(c);
  if (p > 0.0 && k > 0 && fabs(span_ms - k * p) <= 0.25 * k * p) return k * p;
  return 0.0;
}

/* Power from the counter changes seen between t_lead and t_end. */
static void finish_power(const poller *pl, mcounter *c, double t_lead, double t_end, double j1,
                         double t0, double t1, mresult *r) {
  const tick *first = NULL, *last = NULL;
  double sm_sum = 0.0;
  int n = 0;
  for (int i = 0; i < pl->nticks; ++i) {
    const tick *t = &pl->ticks[i];
    if (t->t_ms < t_lead || t->t_ms > t_end) continue;
    if (!first) first = t;
    last = t;
    if (t->sm_mhz) {
      sm_sum += t->sm_mhz;
      r->sm_mhz_min = !r->sm_mhz_min || t->sm_mhz < r->sm_mhz_min ? t->sm_mhz : r->sm_mhz_min;
    }
    n++;
  }
  r->energy_updates = n;
  r->sm_mhz_mean = r->sm_mhz_min ? sm_sum / n : 0.0;
  if (n >= 2 && last->t_ms > first->t_ms) {
    double observed = last->t_ms - first->t_ms;
    double periodic = periodic_span(c, n - 1, observed);
    r->energy_j = last->joules - first->joules;
    r->energy_span_ms = periodic > 0.0 ? periodic : observed;
    r->power_method = periodic > 0.0 ? "periodic" : "updates";
  } else {
    r->energy_j = j1 - pl->j0;
    r->energy_span_ms = t1 - t0;
    r->power_method = "window";
  }
  r->power_w = r->energy_j / (r->energy_span_ms * 1e-3);
  mcounter_add(c, pl);
}

/* The measured samples, with the polling thread running when e is set. */
static int measured(bk *b, kjob *job, energy *e, nvml *nv, const mparams *p, mcounter *c,
                    int samples, int per, double *ms, mresult *r) {
  poller *pl = calloc(1, sizeof *pl);
  int threaded = 0, rc;
  double j1 = 0.0;
  if (pl == NULL) {
    snprintf(b->err, sizeof b->err, "out of memory");
    return -1;
  }
  pl->e = e;
  pl->nv = nv;
  pl->poll_ms = p->poll_ms;
  atomic_init(&pl->stop, 0);
  if (e && energy_read(e, &pl->j0) == 0)
    threaded = pthread_create(&pl->thread, NULL, poll_main, pl) == 0;
  double t0 = measure_now_ms();
  rc = run_samples(b, job, samples, per, 0, ms);
  double t1 = measure_now_ms();
  if (threaded) {
    atomic_store(&pl->stop, 1);
    pthread_join(pl->thread, NULL);
    energy_read(e, &j1);
  }
  if (rc == 0) {
    r->span_ms = t1 - t0;
    summarize(ms, samples, per, r);
    if (threaded) finish_power(pl, c, t0 + p->lead_ms, t1, j1, t0, t1, r);
  }
  free(pl);
  return rc;
}

int measure_run(bk *b, kjob *job, energy *e, nvml *nv, const mparams *p, mcounter *counter,
                mresult *r) {
  double est_ms[3];
  int samples, per;
  memset(r, 0, sizeof *r);
  r->power_w = NAN;
  r->power_method = "none";
  if (run_samples(b, job, 3, 1, 0, est_ms) != 0) return -1;
  qsort(est_ms, 3, sizeof *est_ms, cmp_double);
  double est = est_ms[1] > 1e-6 ? est_ms[1] : 1e-6;
  int warm = (int)ceil(p->warmup_ms / est);
  if (warm > 0) {
    if (run_samples(b, job, 1, warm, 0, est_ms) != 0) return -1;
    /* Back-to-back warm launches estimate better than the first three
     * (cold caches, or a launch rate the host cannot sustain). */
    if (est_ms[0] / warm > 1e-6) est = est_ms[0] / warm;
  }
  plan(p, e != NULL, est, &samples, &per);
  double *ms = malloc((size_t)samples * sizeof *ms);
  if (ms == NULL) {
    snprintf(b->err, sizeof b->err, "out of memory");
    return -1;
  }
  int rc = measured(b, job, e, nv, p, counter, samples, per, ms, r);
  free(ms);
  return rc;
}

/* Cuts the job's grid down to its first `groups` work-groups (rounded up to
 * whole rows of the slowest dimension that is not 1) and returns how many
 * it launches.  Work-groups are numbered x fastest, so the first k rows are
 * the first groups the hardware dispatches. */
static size_t partial_grid(kjob *job, size_t groups) {
  int d = job->groups[2] > 1 ? 2 : job->groups[1] > 1 ? 1 : 0;
  size_t row = 1;
  for (int i = 0; i < d; ++i) row *= job->groups[i];
  size_t rows = (groups + row - 1) / row;
  if (rows < 1) rows = 1;
  if (rows < job->groups[d]) job->groups[d] = rows;
  return row * job->groups[d];
}

/* Launches of a flushed sampling point: enough for its measured span at
 * the estimated launch time, within these bounds. */
#define FLUSHED_MIN 5
#define FLUSHED_MAX 200
/* The cache assumed by --sample-flush always where the device names none. */
#define FLUSH_UNKNOWN_CACHE ((size_t)64 << 20)

/* The median of single launches, each after a flush of the cache
 * (untimed): the partial grid reads its data from memory, as the full grid,
 * whose data do not fit the cache, does. */
static int time_flushed(bk *b, kjob *job, const mparams *p, size_t flush_bytes, double *ms) {
  double est;
  if (run_samples(b, job, 1, 1, flush_bytes, &est) != 0) return -1;
  double want = est > 0.0 ? p->sample_point_ms / est : FLUSHED_MAX;
  int n = want < FLUSHED_MIN ? FLUSHED_MIN : want > FLUSHED_MAX ? FLUSHED_MAX : (int)want;
  double *t = malloc((size_t)n * sizeof *t);
  if (t == NULL) return -1;
  mresult r;
  int rc = run_samples(b, job, n, 1, flush_bytes, t);
  if (rc == 0) {
    summarize(t, n, 1, &r);
    *ms = r.median_ms;
  }
  free(t);
  return rc;
}

/* The median time of one launch of the first `waves` waves. */
static int time_point(bk *b, kjob *job, const mparams *p, const msampled *s, double waves,
                      double *got_waves, double *ms) {
  size_t saved[3] = {job->groups[0], job->groups[1], job->groups[2]};
  mparams pp = *p;
  mresult r;
  pp.min_time_ms = p->sample_point_ms;
  pp.warmup_ms = p->sample_warmup_ms;
  size_t n = partial_grid(job, (size_t)ceil(waves * s->wave_groups));
  int rc;
  if (s->flush_bytes) {
    rc = time_flushed(b, job, p, s->flush_bytes, ms);
  } else {
    rc = measure_run(b, job, NULL, NULL, &pp, NULL, &r);
    *ms = r.median_ms;
  }
  memcpy(job->groups, saved, sizeof saved);
  *got_waves = (double)n / s->wave_groups;
  return rc;
}

/* Adds points until the per-wave rate settles; 1: it did not. */
static int sample_points(bk *b, kjob *job, const mparams *p, msampled *s) {
  double w, got, ms;
  while ((w = wavefit_next(&s->fit)) > 0.0) {
    if (time_point(b, job, p, s, w, &got, &ms) != 0) return -1;
    if (wavefit_add(&s->fit, got, ms)) return 0;
  }
  return 1;
}

static void fill_result(const wavefit_result *f, mresult *r) {
  memset(r, 0, sizeof *r);
  r->median_ms = r->q1_ms = r->q3_ms = r->min_ms = r->max_ms = f->pred_ms;
  r->samples = f->n;
  r->per_sample = 1;
  r->power_w = NAN;
  r->power_method = "none";
}

/* The first launch of the full grid, timed, and the grid in waves. */
static int size_up(bk *b, kjob *job, int cus, msampled *s) {
  int per_cu = 1;
  double ms[1];
  if (b->ops->groups_per_cu(b, job, &per_cu) != 0) return -1;
  if (run_samples(b, job, 1, 1, 0, ms) != 0) return -1;
  s->first_ms = ms[0];
  s->wave_groups = cus * (per_cu > 0 ? per_cu : 1);
  s->full_waves = (double)(job->groups[0] * job->groups[1] * job->groups[2]) / s->wave_groups;
  return 0;
}

/* The bytes of the job's buffers. */
static size_t job_bytes(const kjob *job) {
  size_t t = 0;
  for (int i = 0; i < job->nbuf; ++i) t += job->buf[i].bytes;
  return t;
}

int measure_sampled(bk *b, kjob *job, int cus, size_t cache_bytes, const mparams *p, mresult *r,
                    msampled *s) {
  wavefit_result f;
  memset(s, 0, sizeof *s);
  /* Data that do not fit the cache come from memory in the full grid's
   * back-to-back launches: each sampling launch then starts from a flushed
   * cache (twice its size written), not from what the last one left. */
  if (p->sample_flush == MFLUSH_ALWAYS)
    s->flush_bytes = 2 * (cache_bytes > 0 ? cache_bytes : FLUSH_UNKNOWN_CACHE);
  else if (p->sample_flush == MFLUSH_AUTO && cache_bytes > 0 && job_bytes(job) > cache_bytes)
    s->flush_bytes = 2 * cache_bytes;
  s->fit_se_ms = NAN;
  s->method = "full:not-sampleable";
  if (!job->sampleable) return 1;
  if (size_up(b, job, cus, s) != 0) return -1;
  wavefit_init(&s->fit, s->full_waves, p->sample_tol, p->sample_max_fraction);
  s->method = "full:below-threshold";
  if (s->first_ms <= p->sample_threshold_ms) return 1;
  s->method = "full:few-waves";
  if (p->sample_max_fraction * s->full_waves < 3.0) return 1;
  int rc = sample_points(b, job, p, s);
  s->method = "full:unsettled";
  if (rc != 0 || wavefit_solve(&s->fit, &f) != 0) return rc < 0 ? -1 : 1;
  s->method = s->flush_bytes ? "sampled:flushed" : "sampled";
  s->fit_se_ms = f.se_ms;
  fill_result(&f, r);
  return 0;
}
