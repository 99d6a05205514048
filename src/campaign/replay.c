/* SPDX-License-Identifier: GPL-3.0-or-later */
/* replay.c: a campaign replayed on a recorded dataset.  Each kernel starts
 * with its base; an adaptive replay then runs the plan's rounds
 * (sp__campaign_round, as sp_plan_make runs them), "measuring" each named
 * configuration by reading the recording, until the budget is measured or
 * the target error reached; a random one draws the other configurations
 * uniformly.  Either way the
 * kernel's surface is then completed from what was measured.  With the
 * per-kernel surrogate kernels are independent, so worker threads take
 * them in turn; each writes only its own rows, and the result does not
 * depend on timing.  With the shared one (shared.c) every included kernel
 * goes through each round together, and the threads fit kernels within a
 * round. */
#include "replay.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "data/dataset.h"
#include "shared.h"
#include "util/status.h"

#define NOT_FOUND ((size_t)-1)
#define MAX_THREADS 64

typedef struct replay {
  const sp_dataset *ds;
  const sp_replay_params *rp;
  sp_dataset *out;
  sp_cgrid grid;
  size_t base;
  /* Per kernel: status, error, and the sums behind the statistics. */
  int *status;
  sp_error *err;
  double (*sums)[5]; /* time APE, power APE, time est, power est, points */
  size_t (*counts)[2];
  size_t next;
  pthread_mutex_t lock;
} replay;

/* Reads kernel k at grid index j from the recording into ck. */
static int measure(const replay *r, size_t k, size_t j, sp_ckernel *ck, sp_error *err) {
  const sp_config c = sp__cgrid_config(&r->grid, j);
  double t, p = NAN;
  if (sp_dataset_time(r->ds, k, &c, &t)) {
    char cfg[64];
    sp_config_format(&c, cfg, sizeof cfg);
    return sp__fail(err, SP_ENOTFOUND, r->ds->runs_path, 0, 0, "kernel",
                    "kernel '%s' has no row at %s: a replay needs its whole grid recorded",
                    r->ds->kernels[k], cfg);
  }
  (void)sp_dataset_power(r->ds, k, &c, &p);
  sp__ckernel_set(ck, j, t, p);
  return SP_OK;
}

static int round_of(const replay *r, size_t k, sp_ckernel *ck, sp_error *err) {
  const double target = r->rp->mode == SP_TRAIN_PLAN_ADAPTIVE ? r->rp->target : 0.0;
  const sp_round_params rp = {r->base, r->rp->batch, r->rp->points, target};
  int st = sp__campaign_round(ck, &r->grid, &rp);
  if (st && st != SP_ENOMEM)
    return sp__fail(err, st, r->ds->runs_path, 0, 0, "kernel",
                    "the surrogate of kernel '%s' could not be fitted", r->ds->kernels[k]);
  return st ? sp__oom(err) : SP_OK;
}

static int replay_adaptive(const replay *r, size_t k, sp_ckernel *ck, sp_error *err) {
  for (;;) {
    int st = round_of(r, k, ck, err);
    if (st || ck->state != SP_PLAN_MEASURING) return st;
    for (size_t i = 0; i < ck->nnext && !st; i++) st = measure(r, k, ck->next[i], ck, err);
    if (st) return st;
  }
}

/* The base and a seeded uniform draw of the other configurations, up to
 * the points. */
static int draw_random(const replay *r, size_t k, sp_ckernel *ck, sp_error *err) {
  const size_t G = r->grid.n;
  size_t *order = malloc(G * sizeof *order);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  int st = order && rng ? measure(r, k, r->base, ck, err) : sp__oom(err);
  if (!st) {
    gsl_rng_set(rng, r->rp->seed + k);
    for (size_t j = 0; j < G; j++) order[j] = j;
    gsl_ran_shuffle(rng, order, G, sizeof *order);
  }
  for (size_t i = 0; i < G && !st && ck->n < r->rp->points; i++)
    if (order[i] != r->base) st = measure(r, k, order[i], ck, err);
  free(order);
  gsl_rng_free(rng);
  return st;
}

static int replay_random(const replay *r, size_t k, sp_ckernel *ck, sp_error *err) {
  int st = draw_random(r, k, ck, err);
  return st ? st : round_of(r, k, ck, err);
}

/* Writes the completion into the copy's rows and adds up the statistics. */
static void store(replay *r, size_t k, const sp_ckernel *ck) {
  for (size_t j = 0; j < r->grid.n; j++) {
    const sp_config c = sp__cgrid_config(&r->grid, j);
    const size_t i = sp__dataset_find_run(r->out, k, &c);
    if (i == NOT_FOUND) continue; /* never measured, so never read: nothing to replace */
    sp_run *run = &r->out->runs[i];
    const double v[2] = {run->time_ms, run->power_w};
    run->completed = !ck->measured[j];
    if (!run->completed) continue;
    for (int q = 0; q < 2; q++) {
      if (isnan(v[q]) || !isfinite(ck->fill[q][j])) continue;
      r->sums[k][q] += fabs(ck->fill[q][j] / v[q] - 1.0);
      r->counts[k][q]++;
    }
    run->time_ms = ck->fill[SP_TIME][j];
    if (!isnan(run->power_w) && isfinite(ck->fill[SP_POWER][j]))
      run->power_w = ck->fill[SP_POWER][j];
  }
  r->sums[k][2] = ck->error[SP_TIME];
  r->sums[k][3] = ck->error[SP_POWER];
  r->sums[k][4] = (double)ck->n;
}

static void run_kernel(replay *r, size_t k, sp_ckernel *ck) {
  if (r->rp->include && !r->rp->include[k]) {
    r->status[k] = SP_OK;
    return;
  }
  sp__ckernel_reset(ck);
  int st = r->rp->mode == SP_TRAIN_PLAN_RANDOM ? replay_random(r, k, ck, &r->err[k])
                                               : replay_adaptive(r, k, ck, &r->err[k]);
  if (!st) store(r, k, ck);
  r->status[k] = st;
}

static void *worker(void *arg) {
  replay *r = arg;
  sp_ckernel ck;
  if (sp__ckernel_alloc(&ck, r->grid.n)) return NULL; /* the others carry on */
  for (;;) {
    pthread_mutex_lock(&r->lock);
    const size_t k = r->next < r->ds->nkernels ? r->next++ : NOT_FOUND;
    pthread_mutex_unlock(&r->lock);
    if (k == NOT_FOUND) break;
    run_kernel(r, k, &ck);
  }
  sp__ckernel_free(&ck);
  return NULL;
}

/* ---- the shared surrogate: every included kernel in each round ---------- */

typedef struct cohort {
  size_t n, *kernel; /* the included kernels */
  sp_ckernel *ck, **ptr;
} cohort;

static void cohort_free(cohort *c) {
  for (size_t i = 0; c->ck && i < c->n; i++) sp__ckernel_free(&c->ck[i]);
  free(c->kernel);
  free(c->ck);
  free(c->ptr);
}

static int cohort_init(const replay *r, cohort *c) {
  const size_t nk = r->ds->nkernels;
  c->kernel = malloc(nk * sizeof *c->kernel);
  c->ck = calloc(nk, sizeof *c->ck);
  c->ptr = malloc(nk * sizeof *c->ptr);
  if (!c->kernel || !c->ck || !c->ptr) return SP_ENOMEM;
  for (size_t k = 0; k < nk; k++) {
    if (r->rp->include && !r->rp->include[k]) continue;
    c->ptr[c->n] = &c->ck[c->n];
    c->kernel[c->n] = k;
    if (sp__ckernel_alloc(&c->ck[c->n++], r->grid.n)) return SP_ENOMEM;
  }
  return SP_OK;
}

static int shared_round(const replay *r, const cohort *c, sp_error *err) {
  const double target = r->rp->mode == SP_TRAIN_PLAN_ADAPTIVE ? r->rp->target : 0.0;
  const sp_round_params rp = {r->base, r->rp->batch, r->rp->points, target};
  size_t failed;
  int st =
      sp__campaign_shared_round(c->ptr, c->n, &r->grid, &rp, r->rp->seed, r->rp->threads, &failed);
  if (st == SP_ENOMEM) return sp__oom(err);
  if (st)
    return sp__fail(err, st, r->ds->runs_path, 0, 0, "kernel",
                    "the surrogate of kernel '%s' could not be fitted",
                    r->ds->kernels[c->kernel[failed < c->n ? failed : 0]]);
  return SP_OK;
}

/* Measures what the round named; *named: how many. */
static int measure_named(const replay *r, const cohort *c, size_t *named, sp_error *err) {
  int st = SP_OK;
  *named = 0;
  for (size_t i = 0; i < c->n && !st; i++)
    for (size_t t = 0; t < c->ck[i].nnext && !st; t++, ++*named)
      st = measure(r, c->kernel[i], c->ck[i].next[t], &c->ck[i], err);
  return st;
}

static int replay_cohort(replay *r, const cohort *c, sp_error *err) {
  int st = SP_OK;
  if (r->rp->mode == SP_TRAIN_PLAN_RANDOM)
    for (size_t i = 0; i < c->n && !st; i++) st = draw_random(r, c->kernel[i], &c->ck[i], err);
  for (size_t named = 1; !st && named;) {
    st = shared_round(r, c, err);
    if (!st && r->rp->mode == SP_TRAIN_PLAN_RANDOM) break;
    if (!st) st = measure_named(r, c, &named, err);
  }
  return st;
}

/* The shared replay; its status goes to every included kernel (the first
 * holding the error), the others are left out of the statistics. */
static void run_shared(replay *r) {
  cohort c = {0};
  sp_error err = {0};
  int st = cohort_init(r, &c) ? sp__oom(&err) : SP_OK;
  if (!st) st = replay_cohort(r, &c, &err);
  for (size_t i = 0; !st && i < c.n; i++) store(r, c.kernel[i], &c.ck[i]);
  for (size_t k = 0; k < r->ds->nkernels; k++) r->status[k] = SP_OK;
  if (st) {
    r->status[0] = st;
    r->err[0] = err;
  }
  cohort_free(&c);
}

/* Starts the workers (the calling thread is one of them). */
static void run_all(replay *r) {
  unsigned n = r->rp->threads < 1 ? 1 : r->rp->threads > MAX_THREADS ? MAX_THREADS : r->rp->threads;
  pthread_t tid[MAX_THREADS];
  unsigned started = 0;
  for (unsigned t = 1; t < n; t++)
    if (pthread_create(&tid[started], NULL, worker, r) == 0) started++;
  worker(r);
  for (unsigned t = 0; t < started; t++) pthread_join(tid[t], NULL);
}

/* The first failure in kernel order; a kernel no worker reached (every
 * worker out of memory) is out of memory too. */
static int collect(const replay *r, sp_replay_stats *stats, sp_error *err) {
  const size_t nk = r->ds->nkernels;
  double sum[5] = {0}, n[4] = {0};
  size_t in = 0;
  for (size_t k = 0; k < nk; k++) {
    if (r->status[k]) {
      if (err) *err = r->err[k];
      return r->status[k];
    }
    if (r->rp->include && !r->rp->include[k]) continue;
    in++;
    for (int q = 0; q < 2; q++) {
      if (r->counts[k][q]) sum[q] += 100.0 * r->sums[k][q] / (double)r->counts[k][q], n[q]++;
      if (isfinite(r->sums[k][2 + q])) sum[2 + q] += r->sums[k][2 + q], n[2 + q]++;
    }
    sum[4] += r->sums[k][4];
  }
  stats->points = in ? sum[4] / (double)in : NAN;
  for (int q = 0; q < 2; q++) {
    stats->mape[q] = n[q] ? sum[q] / n[q] : NAN;
    stats->estimated[q] = n[2 + q] ? sum[2 + q] / n[2 + q] : NAN;
  }
  return SP_OK;
}

static int check(const sp_dataset *ds, const sp_replay_params *rp, sp_error *err) {
  if (rp->mode != SP_TRAIN_PLAN_ADAPTIVE && rp->mode != SP_TRAIN_PLAN_RANDOM)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "train_plan", "must be adaptive or random");
  if (rp->points < 1)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "train_points", "at least 1 (the base)");
  if (rp->batch < 1) return sp__fail(err, SP_EINVAL, NULL, 0, 0, "train_batch", "at least 1");
  if (!(rp->target >= 0) || !isfinite(rp->target))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "train_target", "must be a non-negative number");
  if (!sp_surrogate_name(rp->surrogate))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "train_surrogate", "must be gp or shared");
  return ds->nkernels ? SP_OK : sp__fail(err, SP_EINVAL, ds->runs_path, 0, 0, NULL, "no kernels");
}

static int prepare(replay *r, sp_error *err) {
  const size_t nk = r->ds->nkernels;
  const int *axis[3];
  size_t naxis[3];
  for (int a = 0; a < 3; a++) naxis[a] = sp_dataset_axis(r->ds, a, &axis[a]);
  int st = sp__cgrid_init(&r->grid, axis, naxis, err);
  if (st) return st;
  r->base = sp__cgrid_index(&r->grid, &r->rp->base);
  if (r->base == NOT_FOUND)
    return sp__fail(err, SP_EGRID, r->ds->runs_path, 0, 0, "base", "the base is not on the grid");
  r->status = malloc(nk * sizeof *r->status);
  r->err = calloc(nk, sizeof *r->err);
  r->sums = calloc(nk, sizeof *r->sums);
  r->counts = calloc(nk, sizeof *r->counts);
  r->out = sp__dataset_clone(r->ds);
  if (!r->status || !r->err || !r->sums || !r->counts || !r->out) return sp__oom(err);
  for (size_t k = 0; k < nk; k++) {
    r->status[k] = SP_ENOMEM;
    sp__oom(&r->err[k]);
  }
  return SP_OK;
}

int sp__replay_complete(const sp_dataset *ds, const sp_replay_params *rp, sp_dataset **out,
                        sp_replay_stats *stats, sp_error *err) {
  *out = NULL;
  gsl_set_error_handler_off();
  replay r = {.ds = ds, .rp = rp, .lock = PTHREAD_MUTEX_INITIALIZER};
  int st = check(ds, rp, err);
  if (!st) st = prepare(&r, err);
  if (!st && rp->surrogate == SP_SURROGATE_SHARED)
    run_shared(&r);
  else if (!st)
    run_all(&r);
  if (!st) st = collect(&r, stats, err);
  if (!st) {
    *out = r.out;
    r.out = NULL;
  }
  sp_dataset_free(r.out);
  sp__cgrid_free(&r.grid);
  free(r.status);
  free(r.err);
  free(r.sums);
  free(r.counts);
  return st;
}
