/* SPDX-License-Identifier: GPL-3.0-or-later */
/* evaluate.c: the accuracy study of the paper's Section V.  Kernels are held
 * out (random splits or leave-one-out); for every split, base configuration
 * and cluster count a model is trained on the remaining kernels only, and the
 * held-out kernels are predicted by every requested method at every target.
 * Work is split into (split, base) jobs that worker threads take in turn;
 * each job keeps its own records so the result does not depend on timing. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/replay.h"
#include "data/dataset.h"
#include "evaluation.h"
#include "method-rows.h"
#include "score.h"
#include "model/model.h"
#include "util/status.h"

/* Each split trains with its own seed, spaced by a prime so that the seeds
 * of two evaluations with nearby --seed values do not coincide. */
#define SPLIT_SEED_STRIDE 7919UL

void sp_eval_params_init(sp_eval_params *p) {
  sp_train_params t;
  sp_train_params_init(&t);
  memset(p, 0, sizeof *p);
  p->holdout = 0.2;
  p->repeats = 5;
  p->seed = 1;
  /* All but the opt-in ones (static, which needs static feature columns
   * most sets lack). */
  p->methods = sp__eval_default_methods();
  p->quantities = (1u << SP_TIME) | (1u << SP_POWER);
  p->restarts = t.restarts;
  p->max_epochs = t.max_epochs;
  p->desired_error = t.desired_error;
  p->threads = 1;
  p->physet_median = t.physet_median;
  p->physet_line = t.physet_line;
}

/* ---- one job ------------------------------------------------------------------- */

/* Whether kernel k has a complete counter row at cfg. */
static int has_counters(const sp_dataset *ds, size_t k, const sp_config *cfg) {
  const double *v;
  if (sp_dataset_counters(ds, k, cfg, &v)) return 0;
  for (size_t i = 0; i < ds->ncounters; i++)
    if (isnan(v[i])) return 0;
  return 1;
}

/* Kernels without complete counters at this job's base can neither train
 * nor be predicted from it: they are left out of the job and counted. */
static int restrict_kernels(sp_eval_job *j, unsigned char *train, unsigned char *skip) {
  const sp_config *base = &j->p->bases[j->base];
  size_t dropped = 0;
  for (size_t k = 0; k < j->ds->nkernels; k++) {
    skip[k] = !has_counters(j->ds, k, base);
    train[k] = j->train[k] && !skip[k];
    dropped += skip[k];
  }
  j->dropped = dropped;
  return SP_OK;
}

/* Whether physet's block-count lines can be read: their checks are
 * fitted (a half second on the H100 set) only when a further
 * configuration counts as measured on the CU axis at the base's clocks,
 * the case they read (physet_affine.h); the rest of the model is the
 * same either way. */
static int line_used(const sp_eval_params *p, const sp_config *base) {
  size_t k = 0;
  for (size_t e = 0; e < p->nextra; e++)
    k += p->extra[e].engine_mhz == base->engine_mhz && p->extra[e].memory_mhz == base->memory_mhz &&
         p->extra[e].cu != base->cu;
  return k >= 1;
}

static void run_job(sp_eval_job *j) {
  const sp_eval_params *p = j->p;
  sp_eval_cache c[2] = {{0}, {0}};
  unsigned char *train = malloc(2 * j->ds->nkernels + 1);
  if (!train) {
    j->status = sp__oom(&j->err);
    return;
  }
  const unsigned char *split_mask = j->train;
  restrict_kernels(j, train, train + j->ds->nkernels);
  j->skip = train + j->ds->nkernels;
  j->train = train;
  for (size_t ki = 0; ki < p->nclusters && !j->status; ki++) {
    sp_train_params tp;
    sp_train_params_init(&tp);
    tp.base = p->bases[j->base];
    tp.clusters = p->clusters[ki];
    tp.seed = p->seed + SPLIT_SEED_STRIDE * j->split;
    tp.restarts = p->restarts;
    tp.max_epochs = p->max_epochs;
    tp.desired_error = p->desired_error;
    tp.use_kernel = j->train;
    /* physet does not depend on k: fitted once per job. */
    tp.methods = ki == 0 ? sp__eval_train_methods(p) : 0;
    tp.floor_kernel = p->floor_kernel;
    tp.trees = p->trees;
    tp.physet_median = p->physet_median;
    tp.physet_line = p->physet_line && line_used(p, &tp.base);
    tp.memory = p->memory;
    /* The jobs are already spread over the workers. */
    tp.threads = p->threads > 1 ? 1 : 0;
    sp_model *m = NULL;
    j->status = sp_model_train(j->tds, &tp, NULL, NULL, &m, &j->err);
    for (int q = 0; q < 2 && !j->status; q++)
      if ((p->quantities >> q) & 1u && m->sub[q].present)
        j->status =
            sp__eval_score_quantity(j, m, (sp_quantity)q, &c[q], (unsigned)tp.clusters, ki == 0);
    sp_model_free(m);
  }
  sp__eval_cache_free(&c[0], j->ds->nkernels);
  sp__eval_cache_free(&c[1], j->ds->nkernels);
  j->train = split_mask;
  j->skip = NULL;
  free(train);
}

/* ---- splits and the worker pool --------------------------------------------- */

typedef struct pool {
  sp_eval_job *jobs;
  size_t njobs, next, done;
  pthread_mutex_t lock;
  sp_progress_fn progress;
  void *user;
} pool;

static void *worker(void *arg) {
  pool *pl = arg;
  for (;;) {
    pthread_mutex_lock(&pl->lock);
    size_t i = pl->next < pl->njobs ? pl->next++ : pl->njobs;
    pthread_mutex_unlock(&pl->lock);
    if (i == pl->njobs) return NULL;
    run_job(&pl->jobs[i]);
    pthread_mutex_lock(&pl->lock);
    pl->done++;
    if (pl->progress) pl->progress(pl->user, pl->done, pl->njobs, "evaluating");
    pthread_mutex_unlock(&pl->lock);
  }
}

/* One split per group: all of its kernels held out together. */
static int group_splits(const sp_dataset *ds, const sp_eval_params *p, unsigned char **masks,
                        size_t *nsplits, sp_error *err) {
  const size_t nk = ds->nkernels;
  unsigned ng = 0;
  for (size_t k = 0; k < nk; k++) ng = p->groups[k] + 1 > ng ? p->groups[k] + 1 : ng;
  if (ng < 2 || ng > 65535)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "groups", "between 2 and 65535 groups are needed");
  if (!(*masks = malloc((size_t)ng * nk))) return sp__oom(err);
  *nsplits = ng;
  for (unsigned g = 0; g < ng; g++)
    for (size_t k = 0; k < nk; k++) (*masks)[g * nk + k] = p->groups[k] != g;
  return SP_OK;
}

static int make_splits(const sp_dataset *ds, const sp_eval_params *p, unsigned char **masks,
                       size_t *nsplits, sp_error *err) {
  const size_t nk = ds->nkernels;
  if (p->groups) return group_splits(ds, p, masks, nsplits, err);
  size_t ntest = p->leave_one_out ? 1 : (size_t)llround(p->holdout * (double)nk);
  if (!p->leave_one_out && !(p->holdout > 0 && p->holdout < 1))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "holdout",
                    "the holdout fraction must be between 0 and 1");
  if (ntest == 0) ntest = 1;
  size_t maxk = 0;
  for (size_t i = 0; i < p->nclusters; i++) maxk = p->clusters[i] > maxk ? p->clusters[i] : maxk;
  if (nk < ntest + 2 || nk - ntest < maxk)
    return sp__fail(err, SP_EPARSE, ds->runs_path, 0, 0, NULL,
                    "%zu kernels are too few: holding out %zu leaves %zu to train on, "
                    "but %zu clusters need at least %zu",
                    nk, ntest, nk > ntest ? nk - ntest : 0, maxk, maxk > 2 ? maxk : 2);
  *nsplits = p->leave_one_out ? nk : p->repeats;
  if (*nsplits == 0 || *nsplits > 65535)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "repeats", "between 1 and 65535 splits");
  *masks = malloc(*nsplits * nk);
  size_t *perm = malloc(nk * sizeof *perm);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  int st = (!*masks || !perm || !rng) ? SP_ENOMEM : SP_OK;
  if (rng) gsl_rng_set(rng, p->seed);
  for (size_t s = 0; s < *nsplits && !st; s++) {
    unsigned char *m = *masks + s * nk;
    memset(m, 1, nk);
    if (p->leave_one_out) {
      m[s] = 0;
      continue;
    }
    for (size_t i = 0; i < nk; i++) perm[i] = i;
    gsl_ran_shuffle(rng, perm, nk, sizeof *perm);
    for (size_t i = 0; i < ntest; i++) m[perm[i]] = 0;
  }
  free(perm);
  if (rng) gsl_rng_free(rng);
  return st ? sp__fail(err, st, NULL, 0, 0, NULL, "out of memory") : SP_OK;
}

/* A base needs complete counters for at least two kernels to train on;
 * otherwise the error names the configurations counters.csv does cover. */
static int check_base_counters(const sp_dataset *ds, const sp_config *base, sp_error *err) {
  size_t n = 0;
  for (size_t k = 0; k < ds->nkernels && n < 2; k++) n += has_counters(ds, k, base);
  if (n >= 2) return SP_OK;
  enum { SHOW = 4 };
  char cfg[64], have[SHOW * 64] = "", one[64];
  sp_config seen[SHOW];
  size_t shown = 0, len = 0, more = 0;
  for (size_t r = 0; r < ds->ncrows && !more; r++) {
    int dup = 0;
    for (size_t q = 0; q < shown && !dup; q++) dup = sp_config_equal(&seen[q], &ds->crows[r].cfg);
    if (dup) continue;
    if (shown == SHOW) {
      more = 1;
      break;
    }
    seen[shown] = ds->crows[r].cfg;
    sp_config_format(&ds->crows[r].cfg, one, sizeof one);
    len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", shown ? ", " : "", one);
    shown++;
  }
  sp_config_format(base, cfg, sizeof cfg);
  return sp__fail(err, SP_ENOTFOUND, ds->counters_path, 0, 0, NULL,
                  "%zu kernel%s complete counters at base %s, 2 are needed to train; "
                  "counters.csv has rows at %s%s (choose one with --base)",
                  n, n == 1 ? " has" : "s have", cfg, shown ? have : "no configuration",
                  more ? ", ..." : "");
}

static int check_eval_params(const sp_dataset *ds, const sp_eval_params *p, sp_error *err) {
  if (!p->nbases || !p->nclusters || !p->methods || !p->quantities)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, NULL,
                    "at least one base, cluster count, method and quantity is needed");
  if (!ds->counters_path)
    return sp__fail(err, SP_EINVAL, ds->runs_path, 0, 0, NULL, "evaluation needs counters.csv");
  if (ds->naxis[0] * ds->naxis[1] * ds->naxis[2] < 2)
    return sp__fail(err, SP_EGRID, ds->runs_path, 0, 0, NULL,
                    "single-configuration grid: there is nothing to scale between");
  for (size_t i = 0; i < p->nclusters; i++)
    if (p->clusters[i] < 1)
      return sp__fail(err, SP_EINVAL, NULL, 0, 0, "clusters", "cluster counts must be positive");
  sp_grid g;
  if (sp__grid_from_dataset(ds, &g)) return sp__oom(err);
  int st = SP_OK;
  for (size_t b = 0; b < p->nbases && !st; b++) {
    sp_grid_point pt;
    if (sp__grid_locate(&g, &p->bases[b], &pt)) {
      char cfg[64];
      sp_config_format(&p->bases[b], cfg, sizeof cfg);
      st = sp__fail(err, SP_EGRID, ds->runs_path, 0, 0, "base",
                    "base configuration %s is not on the grid of the data", cfg);
    }
  }
  sp__grid_free(&g);
  for (size_t b = 0; b < p->nbases && !st; b++) st = check_base_counters(ds, &p->bases[b], err);
  if (!st && p->memory) st = sp_memory_check(p->memory, ds, err);
  return st;
}

/* Concatenates the jobs' records in job order; the first failure wins. */
static int collect(pool *pl, sp_evaluation *e, sp_error *err) {
  for (size_t i = 0; i < pl->njobs; i++) {
    sp_eval_job *j = &pl->jobs[i];
    if (j->status) {
      if (err) *err = j->err;
      return j->status;
    }
  }
  for (size_t i = 0; i < pl->njobs; i++)
    for (size_t r = 0; r < pl->jobs[i].out.n; r++)
      if (sp__evaluation_push(e, &pl->jobs[i].out.records[r])) return sp__oom(err);
  return SP_OK;
}

static void write_notes(const pool *pl, const sp_eval_params *p, sp_evaluation *e) {
  size_t n = 0, dropped = 0, jobs = 0;
  for (size_t i = 0; i < e->n; i++) n += e->records[i].quantity == SP_POWER;
  if ((p->quantities >> SP_POWER) & 1u && !n)
    e->note[SP_POWER] = strdup(
        "no power scored: the data has no complete power grid "
        "around the base configuration(s)");
  for (size_t i = 0; i < pl->njobs; i++) {
    dropped += pl->jobs[i].dropped;
    jobs += pl->jobs[i].dropped > 0;
  }
  if (!dropped) return;
  char buf[256];
  snprintf(buf, sizeof buf,
           "%zu kernel-base pairs in %zu of %zu jobs were left out: those "
           "kernels have no counters, or empty counter fields, at that base configuration",
           dropped, jobs, pl->njobs);
  e->note[SP_TIME] = strdup(buf);
}

/* Under a train plan, every kernel's completion from its plan's
 * measurements, replayed from ds: once for every kernel with the
 * per-kernel surrogate (a completion depends on its own kernel only), per
 * split over the training kernels with the shared one (tds[split]); the
 * evaluation notes how close the completions came, averaged over the
 * replays.  Without one, nothing (*ntds 0: ds itself). */
static int training_data(const sp_dataset *ds, const sp_eval_params *p, const unsigned char *masks,
                         size_t nsplits, sp_evaluation *e, sp_dataset **tds, size_t *ntds,
                         sp_error *err) {
  *ntds = 0;
  if (p->train_plan == SP_TRAIN_PLAN_NONE) return SP_OK;
  if (p->nbases != 1)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "train_plan",
                    "a train plan measures one base first: give one base, not %zu", p->nbases);
  sp_plan_params pp;
  sp_plan_params_init(&pp);
  sp_replay_params rp = {
      p->train_plan, p->train_points, p->train_target, p->train_batch ? p->train_batch : pp.batch,
      p->bases[0],   p->seed,         p->threads,      p->train_surrogate,
      NULL};
  const size_t n = p->train_surrogate == SP_SURROGATE_SHARED ? nsplits : 1;
  double sum[5] = {0};
  int st = SP_OK;
  for (size_t i = 0; i < n && !st; i++) {
    sp_replay_stats s;
    if (p->train_surrogate == SP_SURROGATE_SHARED) rp.include = masks + i * ds->nkernels;
    st = sp__replay_complete(ds, &rp, &tds[i], &s, err);
    if (st) break;
    ++*ntds;
    sum[0] += s.points / (double)n;
    for (int q = 0; q < 2; q++) {
      sum[1 + q] += s.mape[q] / (double)n;
      sum[3 + q] += s.estimated[q] / (double)n;
    }
  }
  if (st) return st;
  e->planned = 1;
  e->points = sum[0];
  for (int q = 0; q < 2; q++) {
    e->completion_mape[q] = sum[1 + q];
    e->completion_estimate[q] = sum[3 + q];
  }
  return SP_OK;
}

int sp_evaluate(const sp_dataset *ds, const sp_eval_params *p, sp_progress_fn progress, void *user,
                sp_evaluation **out, sp_error *err) {
  *out = NULL;
  gsl_set_error_handler_off();
  int st = check_eval_params(ds, p, err);
  unsigned char *masks = NULL;
  size_t nsplits = 0;
  if (!st) st = make_splits(ds, p, &masks, &nsplits, err);
  if (st) return st;
  pool pl = {calloc(nsplits * p->nbases, sizeof(sp_eval_job)),
             nsplits * p->nbases,
             0,
             0,
             PTHREAD_MUTEX_INITIALIZER,
             progress,
             user};
  sp_evaluation *e = calloc(1, sizeof *e);
  sp_dataset **tds = calloc(nsplits + 1, sizeof *tds);
  size_t ntds = 0;
  if (!pl.jobs || !e || !tds) st = sp__oom(err);
  if (!st) st = training_data(ds, p, masks, nsplits, e, tds, &ntds, err);
  for (size_t i = 0; !st && i < pl.njobs; i++)
    pl.jobs[i] = (sp_eval_job){.ds = ds,
                               .tds = !ntds ? ds : tds[ntds == 1 ? 0 : i / p->nbases],
                               .p = p,
                               .split = i / p->nbases,
                               .base = i % p->nbases,
                               .train = masks + (i / p->nbases) * ds->nkernels};
  unsigned nthreads = p->threads < 1 ? 1 : p->threads > 64 ? 64 : p->threads;
  pthread_t tid[64];
  unsigned started = 0;
  for (unsigned t = 1; !st && t < nthreads; t++)
    if (pthread_create(&tid[started], NULL, worker, &pl) == 0) started++;
  if (!st) worker(&pl);
  for (unsigned t = 0; t < started; t++) pthread_join(tid[t], NULL);
  if (!st) st = collect(&pl, e, err);
  if (!st) write_notes(&pl, p, e);
  for (size_t i = 0; pl.jobs && i < pl.njobs; i++) {
    free(pl.jobs[i].out.records);
    free(pl.jobs[i].pred);
    free(pl.jobs[i].scratch);
    free(pl.jobs[i].blend);
    free(pl.jobs[i].members);
  }
  free(pl.jobs);
  free(masks);
  for (size_t i = 0; i < ntds; i++) sp_dataset_free(tds[i]);
  free(tds);
  if (st) {
    sp_evaluation_free(e);
    return st;
  }
  e->splits = nsplits;
  *out = e;
  return SP_OK;
}
