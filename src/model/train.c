/* SPDX-License-Identifier: GPL-3.0-or-later */
/* train.c: building a model from a dataset (paper III-B to III-D). */
#include "model.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/dataset.h"
#include "kmeans.h"
#include "util/sha256.h"
#include "util/status.h"

void sp_train_params_init(sp_train_params *p) {
  memset(p, 0, sizeof *p);
  p->clusters = 12;
  p->seed = 1;
  p->physet_median = 1;
  p->physet_line = 1;
  p->restarts = 10;
  p->max_epochs = 500;
  p->desired_error = 1e-4;
  p->methods = 1u << SP_TRAIN_PHYSET;
}

/* ---- training state ------------------------------------------------------ */

typedef struct trainer {
  const sp_dataset *ds;
  const sp_train_params *p;
  sp_model *m;
  size_t *kernels; /* dataset indices of training kernels */
  size_t n;
  double *x; /* n * ncounters normalized base counters */
  sp_progress_fn progress;
  void *user;
  size_t done, total;
  sp_error *err;
} trainer;

static int pick_kernels(trainer *t) {
  const sp_dataset *ds = t->ds;
  t->kernels = malloc((ds->nkernels + 1) * sizeof *t->kernels);
  if (!t->kernels) return sp__oom(t->err);
  for (size_t k = 0; k < ds->nkernels; k++)
    if (!t->p->use_kernel || t->p->use_kernel[k]) t->kernels[t->n++] = k;
  if (t->n < 2)
    return sp__fail(t->err, SP_EPARSE, ds->runs_path, 0, 0, NULL,
                    "%zu training kernel%s: at least 2 are needed to cluster", t->n,
                    t->n == 1 ? "" : "s");
  sp_model *m = t->m;
  m->train_kernels = calloc(t->n, sizeof *m->train_kernels);
  if (!m->train_kernels) return sp__oom(t->err);
  m->ntrain = t->n;
  for (size_t i = 0; i < t->n; i++)
    if (sp__set_string(&m->train_kernels[i], ds->kernels[t->kernels[i]])) return sp__oom(t->err);
  return SP_OK;
}

/* Records counter names, the training min/max and normalized inputs. */
static int gather_counters(trainer *t) {
  const sp_dataset *ds = t->ds;
  sp_model *m = t->m;
  const size_t nc = ds->ncounters;
  if (nc == 0)
    return sp__fail(t->err, SP_EPARSE, ds->counters_path, 0, 0, NULL,
                    "no performance counters: the classifiers need counters.csv");
  m->ncounters = nc;
  m->counter_names = calloc(nc, sizeof *m->counter_names);
  m->cmin = malloc(nc * sizeof(double));
  m->cmax = malloc(nc * sizeof(double));
  t->x = malloc(t->n * nc * sizeof(double));
  if (!m->counter_names || !m->cmin || !m->cmax || !t->x) return sp__oom(t->err);
  for (size_t c = 0; c < nc; c++)
    if (sp__set_string(&m->counter_names[c], ds->counter_names[c])) return sp__oom(t->err);
  for (size_t i = 0; i < t->n; i++) {
    const double *v;
    if (sp_dataset_counters(ds, t->kernels[i], &m->base, &v)) {
      char cfg[64];
      sp_config_format(&m->base, cfg, sizeof cfg);
      return sp__fail(t->err, SP_ENOTFOUND, ds->counters_path, 0, 0, "kernel",
                      "kernel '%s' has no counters at the base configuration %s",
                      ds->kernels[t->kernels[i]], cfg);
    }
    for (size_t c = 0; c < nc; c++) {
      if (isnan(v[c])) {
        char cfg[64];
        sp_config_format(&m->base, cfg, sizeof cfg);
        return sp__fail(t->err, SP_ENOTFOUND, ds->counters_path, 0, 0, ds->counter_names[c],
                        "kernel '%s' has no value for this counter at the base "
                        "configuration %s (empty field)",
                        ds->kernels[t->kernels[i]], cfg);
      }
      m->cmin[c] = i ? fmin(m->cmin[c], v[c]) : v[c];
      m->cmax[c] = i ? fmax(m->cmax[c], v[c]) : v[c];
    }
    memcpy(t->x + i * nc, v, nc * sizeof(double));
  }
  for (size_t i = 0; i < t->n; i++) sp__model_normalize(m, t->x + i * nc, t->x + i * nc, NULL);
  return SP_OK;
}

/* ---- the power grid: the largest complete sub-grid around the base ------- */

static size_t count_missing(const trainer *t, unsigned char *keep[3], size_t *missing[3]) {
  const sp_dataset *ds = t->ds;
  size_t total = 0;
  for (int a = 0; a < 3; a++) memset(missing[a], 0, ds->naxis[a] * sizeof(size_t));
  for (size_t ic = 0; ic < ds->naxis[0]; ic++)
    for (size_t ie = 0; ie < ds->naxis[1]; ie++)
      for (size_t im = 0; im < ds->naxis[2]; im++) {
        if (!keep[0][ic] || !keep[1][ie] || !keep[2][im]) continue;
        sp_config c = {ds->axis[0][ic], ds->axis[1][ie], ds->axis[2][im]};
        size_t miss = 0;
        double v;
        for (size_t i = 0; i < t->n; i++)
          miss += sp_dataset_power(ds, t->kernels[i], &c, &v) != SP_OK;
        missing[0][ic] += miss;
        missing[1][ie] += miss;
        missing[2][im] += miss;
        total += miss;
      }
  return total;
}

/* Drops, one at a time, the axis value with the most missing power
 * readings (never the base's own) until every kept cell has power. */
static int power_grid(const trainer *t, const sp_grid_point *base, sp_grid *out, int *ok) {
  const sp_dataset *ds = t->ds;
  unsigned char *keep[3] = {0};
  size_t *missing[3] = {0};
  int st = SP_OK;
  *ok = 0;
  for (int a = 0; a < 3 && !st; a++) {
    keep[a] = malloc(ds->naxis[a]);
    missing[a] = malloc(ds->naxis[a] * sizeof(size_t));
    if (!keep[a] || !missing[a])
      st = SP_ENOMEM;
    else
      memset(keep[a], 1, ds->naxis[a]);
  }
  while (!st && count_missing(t, keep, missing) > 0) {
    int ba = -1;
    size_t bi = 0, worst = 0;
    for (int a = 0; a < 3; a++)
      for (size_t i = 0; i < ds->naxis[a]; i++)
        if (keep[a][i] && i != base->i[a] && missing[a][i] > worst) {
          worst = missing[a][i];
          ba = a;
          bi = i;
        }
    if (ba < 0) break; /* only the base's own lines lack power */
    keep[ba][bi] = 0;
  }
  if (!st && count_missing(t, keep, missing) == 0) {
    size_t n[3] = {0};
    int *v[3] = {0};
    for (int a = 0; a < 3 && !st; a++) {
      v[a] = malloc(ds->naxis[a] * sizeof(int));
      if (!v[a]) st = SP_ENOMEM;
      for (size_t i = 0; v[a] && i < ds->naxis[a]; i++)
        if (keep[a][i]) v[a][n[a]++] = ds->axis[a][i];
    }
    const int *const cv[3] = {v[0], v[1], v[2]};
    if (!st) st = sp__grid_init(out, n, cv);
    *ok = !st && sp__grid_size(out) > 1;
    if (!st && !*ok) sp__grid_free(out);
    for (int a = 0; a < 3; a++) free(v[a]);
  }
  for (int a = 0; a < 3; a++) {
    free(keep[a]);
    free(missing[a]);
  }
  return st;
}

/* ---- cluster sets --------------------------------------------------------- */

static int train_set(const trainer *t, sp_cluster_set *set, const double *feat, unsigned long seed,
                     sp_error *err) {
  sp_kmeans_params kp = {t->p->clusters, seed, t->p->restarts, 300};
  sp_kmeans_result r;
  int st = sp__kmeans(feat, t->n, set->dim, &kp, &r);
  if (st) return sp__fail(err, st, NULL, 0, 0, NULL, "k-means failed: %s", sp_strerror(st));
  set->nclusters = r.k;
  set->centroids = r.centroids;
  set->assign = r.assign;
  set->inertia = r.inertia;
  free(r.sizes);
  sp_classifier_params cp = {seed, t->p->max_epochs, t->p->desired_error};
  st = sp__classifier_train(t->x, set->assign, t->n, t->m->ncounters, set->nclusters, &cp,
                            &set->clf);
  if (st)
    return sp__fail(err, st, NULL, 0, 0, NULL, "classifier training failed: %s", sp_strerror(st));
  /* Training can stop short of its target (too few epochs, or inputs that
   * saturate the network); counting the kernels it gets wrong lets the
   * caller report that rather than ship it silently. */
  for (size_t i = 0; i < t->n; i++)
    set->misclassified +=
        sp__classifier_classify(set->clf, t->x + i * t->m->ncounters, NULL) != set->assign[i];
  return SP_OK;
}

/* Scaling values are ratios of two measurements.  A kernel measured at,
 * say, 1e-300 ms and 1e300 ms has ratios that overflow to infinity or
 * underflow to zero; no centroid can represent them, so the kernel is named
 * instead of letting k-means refuse the whole set. */
static int check_features(const trainer *t, sp_quantity q, size_t i, const double *f, size_t dim,
                          sp_error *err) {
  for (size_t d = 0; d < dim; d++)
    if (!(isfinite(f[d]) && f[d] > 0))
      return sp__fail(err, SP_ENUMERIC, t->ds->runs_path, 0, 0,
                      q == SP_TIME ? "time_ms" : "power_w",
                      "kernel '%s': a scaling value (the ratio of two of its "
                      "measurements) is %g; its values span more than double "
                      "precision can divide",
                      t->ds->kernels[t->kernels[i]], f[d]);
  return SP_OK;
}

static void report(trainer *t, sp_quantity q) {
  t->done++;
  if (t->progress)
    t->progress(t->user, t->done, t->total,
                q == SP_TIME ? "time cluster sets" : "power cluster sets");
}

/* Allocates quantity q's cluster sets and says what each clusters. */
static int plan_sets(trainer *t, sp_quantity q) {
  sp_submodel *s = &t->m->sub[q];
  const sp_grid *g = &s->grid;
  const size_t nc = g->n[0], rdim = sp__region_dim(g), cdim = sp__cu_dim(g);
  s->nsets = nc + (nc > 1);
  if (!(s->sets = calloc(s->nsets, sizeof *s->sets))) return sp__oom(t->err);
  for (size_t set = 0; set < s->nsets; set++) {
    sp_cluster_set *cs = &s->sets[set];
    cs->kind = set < nc ? SP_SET_REGION : SP_SET_CU;
    cs->region = set < nc ? set : 0;
    cs->dim = cs->kind == SP_SET_REGION ? rdim : cdim;
  }
  return SP_OK;
}

/* Trains cluster set `set` of quantity q; feat has room for t->n * its
 * dimension.  Reads the trainer and writes only the set and err, so
 * different sets can be trained on different threads. */
static int train_one_set(const trainer *t, sp_quantity q, size_t set, sp_surface **surf,
                         double *feat, sp_error *err) {
  const sp_submodel *s = &t->m->sub[q];
  sp_cluster_set *cs = &s->sets[set];
  int st = SP_OK;
  for (size_t i = 0; i < t->n && !st; i++) {
    if (cs->kind == SP_SET_REGION)
      sp__surface_region_features(surf[i], set, feat + i * cs->dim);
    else
      sp__surface_cu_features(surf[i], s->base.i[1], s->base.i[2], feat + i * cs->dim);
    st = check_features(t, q, i, feat + i * cs->dim, cs->dim, err);
  }
  /* Each set gets its own seed so sets do not share random streams. */
  return st ? st : train_set(t, cs, feat, t->p->seed * 1000003UL + set + 17UL * q, err);
}

static int build_surfaces(trainer *t, sp_quantity q, sp_surface ***out) {
  sp_surface **surf = calloc(t->n, sizeof *surf);
  if (!surf) return sp__oom(t->err);
  int st = SP_OK;
  for (size_t i = 0; i < t->n && !st; i++)
    st = sp__surface_build_on(t->ds, t->kernels[i], q, &t->m->sub[q].grid, &surf[i], t->err);
  *out = surf;
  return st;
}

static void free_surfaces(sp_surface **surf, size_t n) {
  for (size_t i = 0; surf && i < n; i++) sp_surface_free(surf[i]);
  free(surf);
}

static int setup_time_grid(trainer *t) {
  sp_model *m = t->m;
  sp_submodel *s = &m->sub[SP_TIME];
  if (sp__grid_from_dataset(t->ds, &s->grid)) return sp__oom(t->err);
  if (sp__grid_size(&s->grid) < 2)
    return sp__fail(t->err, SP_EGRID, t->ds->runs_path, 0, 0, NULL,
                    "single-configuration grid: there is nothing to scale between");
  if (sp__grid_locate(&s->grid, &m->base, &s->base)) {
    char cfg[64];
    sp_config_format(&m->base, cfg, sizeof cfg);
    return sp__fail(t->err, SP_EGRID, t->ds->runs_path, 0, 0, "base",
                    "base configuration %s is not on the grid of the data", cfg);
  }
  s->present = 1;
  return SP_OK;
}

static int setup_power_grid(trainer *t) {
  sp_model *m = t->m;
  sp_submodel *s = &m->sub[SP_POWER];
  int ok;
  if (power_grid(t, &m->sub[SP_TIME].base, &s->grid, &ok)) return sp__oom(t->err);
  if (!ok)
    return sp__set_string(&m->power_note,
                          "no power model: the data has no complete power grid "
                          "around the base configuration")
               ? sp__oom(t->err)
               : SP_OK;
  sp__grid_locate(&s->grid, &m->base, &s->base);
  s->present = 1;
  if (sp__grid_size(&s->grid) < sp__grid_size(&m->sub[SP_TIME].grid))
    return sp__set_string(&m->power_note,
                          "power is modeled on the sub-grid where every training "
                          "kernel has power readings")
               ? sp__oom(t->err)
               : SP_OK;
  return SP_OK;
}

static int record_provenance(trainer *t) {
  sp_model *m = t->m;
  const sp_dataset *ds = t->ds;
  m->seed = t->p->seed;
  m->clusters_requested = t->p->clusters;
  m->restarts = t->p->restarts;
  m->max_epochs = t->p->max_epochs;
  m->desired_error = t->p->desired_error;
  if (sp__set_string(&m->runs_path, ds->runs_path) ||
      sp__set_string(&m->counters_path, ds->counters_path))
    return sp__oom(t->err);
  if (sp__sha256_file(ds->runs_path, m->runs_sha256) ||
      sp__sha256_file(ds->counters_path, m->counters_sha256))
    return sp__fail(t->err, SP_EIO, ds->runs_path, 0, 0, NULL,
                    "cannot checksum the training files");
  return SP_OK;
}

/* The training kernels with a time row and complete counters at base b,
 * into kernels (room for t->n); their number. */
static size_t kernels_at(const trainer *t, const sp_config *base, size_t *kernels) {
  size_t n = 0;
  for (size_t i = 0; i < t->n; i++) {
    const double *v;
    double time;
    int ok = !sp_dataset_time(t->ds, t->kernels[i], base, &time) &&
             !sp_dataset_counters(t->ds, t->kernels[i], base, &v);
    for (size_t c = 0; ok && c < t->ds->ncounters; c++) ok = !isnan(v[c]);
    if (ok) kernels[n++] = t->kernels[i];
  }
  return n;
}

/* Fits method i at further base b of the model, on the training kernels
 * measured there with their counters. */
static int fit_at_base(trainer *t, sp_method_slot *slot, size_t b, size_t *kernels) {
  sp_model *m = t->m;
  size_t n = kernels_at(t, &m->bases[b], kernels);
  if (n < 2) {
    char cfg[64];
    sp_config_format(&m->bases[b], cfg, sizeof cfg);
    return sp__fail(t->err, SP_ENOTFOUND, t->ds->counters_path, 0, 0, "base",
                    "%zu training kernel%s a time and counters at the further base %s; %s needs "
                    "at least 2 there",
                    n, n == 1 ? " has" : "s have", cfg, slot->type->name);
  }
  m->base_ntrain[b] = n;
  const sp_method_data d = {t->ds, kernels, n, sp__model_method_context_at(m, b)};
  int st = slot->type->fit(&d, t->p, &slot->at[b], t->err);
  if (st && slot->type->free) slot->type->free(slot->at[b]);
  if (st) slot->at[b] = NULL;
  return st;
}

/* Fits the methods besides wu2015 that params->methods asks for, in table
 * order, on the same training kernels and grids; the last one fitted is the
 * recommended method (physet, the only one so far: issue 10, it
 * generalises better).  Those that can (SP_PER_BASE) are fitted at every
 * further base too. */
static int fit_methods(trainer *t) {
  const sp_method_data d = {t->ds, t->kernels, t->n, sp__model_method_context(t->m)};
  size_t *kernels = t->m->nbases > 1 ? malloc((t->n + 1) * sizeof *kernels) : NULL;
  int st = t->m->nbases > 1 && !kernels ? sp__oom(t->err) : SP_OK;
  for (size_t i = 1; sp__method_table[i] && i <= 32 && !st; i++) {
    if (!((t->p->methods >> (i - 1)) & 1u)) continue;
    void *state = NULL;
    st = sp__method_table[i]->fit(&d, t->p, &state, t->err);
    if (st && sp__method_table[i]->free)
      sp__method_table[i]->free(state);
    else if (!st && sp__model_add_method(t->m, sp__method_table[i], state))
      st = sp__fail(t->err, SP_EINVAL, NULL, 0, 0, "methods", "a model carries at most %d methods",
                    SP_MODEL_MAX_METHODS);
    sp_method_slot *slot = &t->m->methods[t->m->nmethods - 1];
    for (size_t b = 1; !st && b < t->m->nbases && (slot->type->needs & SP_PER_BASE); b++)
      st = fit_at_base(t, slot, b, kernels);
  }
  free(kernels);
  return st;
}

/* ---- the independent parts, on up to two threads -------------------------- */

/* wu2015's cluster sets (one task each: time's, then power's) and the other
 * methods' fits (one task, last) read only what the steps before them set
 * up, and write disjoint parts of the model; each draws from its own seeded
 * stream (classifier.c keeps FANN's draws apart), so they can run in any
 * order on any thread and the model comes out bit for bit the same.  The
 * error returned is the one the first failing task in that serial order
 * gives, as when they run one after another; progress is reported from the
 * calling thread only. */
typedef struct parts {
  trainer *t;
  trainer methods; /* a copy of *t for the methods' task, with its own err */
  sp_surface **surf[2];
  size_t nsets[2], ntasks, maxdim;
  int parallel;       /* the methods' task is taken first */
  atomic_size_t next; /* the next task to take, in taking order */
  atomic_int stop;    /* a cluster set failed: take no more */
  int *status;        /* per task, in serial order */
  unsigned char *ran; /* 1: by the calling thread, 2: by the other */
  sp_error *errs;
} parts;

/* Serial index of the task taken k-th. */
static size_t task_at(const parts *ps, size_t k) {
  if (!ps->parallel) return k;
  return k == 0 ? ps->ntasks - 1 : k - 1;
}

static void run_task(parts *ps, size_t task, double *feat, int caller) {
  int st;
  if (task == ps->ntasks - 1) {
    st = fit_methods(&ps->methods);
  } else {
    const sp_quantity q = task < ps->nsets[SP_TIME] ? SP_TIME : SP_POWER;
    const size_t set = q == SP_TIME ? task : task - ps->nsets[SP_TIME];
    st = feat ? train_one_set(ps->t, q, set, ps->surf[q], feat, &ps->errs[task])
              : sp__oom(&ps->errs[task]);
    if (st) atomic_store(&ps->stop, 1);
    if (caller) report(ps->t, q);
  }
  ps->status[task] = st;
  ps->ran[task] = caller ? 1 : 2;
}

static void take_tasks(parts *ps, int caller) {
  double *feat = malloc((ps->t->n * ps->maxdim + 1) * sizeof(double));
  for (;;) {
    if (atomic_load(&ps->stop)) break;
    const size_t k = atomic_fetch_add(&ps->next, 1);
    if (k >= ps->ntasks) break;
    run_task(ps, task_at(ps, k), feat, caller);
  }
  free(feat);
}

static void *take_tasks_thread(void *arg) {
  take_tasks(arg, 0);
  return NULL;
}

/* 1 or 2: the thread count asked for, or the machine's (there are rarely
 * more than two parts of similar length to run). */
static int train_threads(const sp_train_params *p) {
  if (p->threads) return p->threads > 1 ? 2 : 1;
  return sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;
}

/* The first failure in serial order into t->err; reports the sets the
 * other thread trained. */
static int finish_parts(parts *ps) {
  for (size_t task = 0; task + 1 < ps->ntasks; task++)
    if (ps->ran[task] == 2) report(ps->t, task < ps->nsets[SP_TIME] ? SP_TIME : SP_POWER);
  for (size_t task = 0; task < ps->ntasks; task++) {
    if (!ps->ran[task] || !ps->status[task]) continue;
    if (ps->t->err) *ps->t->err = ps->errs[task];
    return ps->status[task];
  }
  return SP_OK;
}

static int plan_parts(trainer *t, sp_surface **surf[2], parts *ps) {
  ps->t = t;
  for (int q = 0; q < 2; q++) {
    const sp_submodel *s = &t->m->sub[q];
    if (!s->present) continue;
    int st = plan_sets(t, (sp_quantity)q);
    if (st) return st;
    ps->surf[q] = surf[q];
    ps->nsets[q] = s->nsets;
    for (size_t i = 0; i < s->nsets; i++)
      if (s->sets[i].dim > ps->maxdim) ps->maxdim = s->sets[i].dim;
  }
  ps->ntasks = ps->nsets[0] + ps->nsets[1] + 1;
  ps->status = calloc(ps->ntasks, sizeof *ps->status);
  ps->ran = calloc(ps->ntasks, 1);
  ps->errs = calloc(ps->ntasks, sizeof *ps->errs);
  if (!ps->status || !ps->ran || !ps->errs) return sp__oom(t->err);
  ps->methods = *t;
  ps->methods.err = &ps->errs[ps->ntasks - 1];
  return SP_OK;
}

/* wu2015's cluster sets and the other methods, on up to two threads. */
static int train_parts(trainer *t, sp_surface **surf[2]) {
  parts ps = {0};
  atomic_init(&ps.next, 0);
  atomic_init(&ps.stop, 0);
  int st = plan_parts(t, surf, &ps);
  if (!st) {
    pthread_t other;
    ps.parallel = train_threads(t->p) > 1;
    int started = ps.parallel && !pthread_create(&other, NULL, take_tasks_thread, &ps);
    take_tasks(&ps, 1);
    if (started) pthread_join(other, NULL);
    st = finish_parts(&ps);
  }
  free(ps.status);
  free(ps.ran);
  free(ps.errs);
  return st;
}

/* The further bases: each on the time grid (and the power grid, when there
 * is one), none twice. */
static int setup_bases(trainer *t) {
  sp_model *m = t->m;
  const sp_train_params *p = t->p;
  if (p->nextra_bases >= SP_MODEL_MAX_BASES)
    return sp__fail(t->err, SP_EINVAL, NULL, 0, 0, "base", "a model has at most %d bases",
                    SP_MODEL_MAX_BASES);
  m->bases[0] = m->base;
  m->base_ntrain[0] = t->n;
  for (size_t i = 0; i < p->nextra_bases; i++) {
    const sp_config *c = &p->extra_bases[i];
    char cfg[64];
    sp_config_format(c, cfg, sizeof cfg);
    sp_grid_point gp;
    for (size_t b = 0; b <= i; b++)
      if (sp_config_equal(c, &m->bases[b]))
        return sp__fail(t->err, SP_EINVAL, NULL, 0, 0, "base", "base %s is given twice", cfg);
    for (int q = 0; q < 2; q++)
      if (m->sub[q].present && sp__grid_locate(&m->sub[q].grid, c, &gp))
        return sp__fail(t->err, SP_EGRID, t->ds->runs_path, 0, 0, "base",
                        "base configuration %s is not on the %s grid of the data", cfg,
                        q == SP_TIME ? "time" : "power");
    m->bases[i + 1] = *c;
  }
  m->nbases = 1 + p->nextra_bases;
  return SP_OK;
}

/* The memory systems of the time grid's memory clocks, in axis order. */
static int setup_memory(trainer *t) {
  sp_model *m = t->m;
  const sp_memory_set *ms = t->p->memory;
  if (!ms) return SP_OK;
  int st = sp_memory_check(ms, t->ds, t->err);
  if (st) return st;
  const sp_grid *g = &m->sub[SP_TIME].grid;
  if (!(m->memory = calloc(g->n[2], sizeof *m->memory))) return sp__oom(t->err);
  for (size_t i = 0; i < g->n[2]; i++) m->memory[i] = *sp_memory_find(ms, g->v[2][i]);
  m->nmemory = g->n[2];
  return SP_OK;
}

const char *sp_train_method_name(size_t i) {
  for (size_t j = 0; sp__method_table[j]; j++)
    if (j == i) return sp__method_table[j]->name;
  return NULL;
}

int sp_train_params_set_methods(sp_train_params *p, const char *list, sp_error *err) {
  char *copy = strdup(list), *save = NULL;
  if (!copy) return sp__oom(err);
  unsigned bits = 0;
  int st = SP_OK;
  for (char *t = strtok_r(copy, ",", &save); t && !st; t = strtok_r(NULL, ",", &save)) {
    size_t i;
    if (!sp__method_find(t, &i) || i > 32)
      st = sp__fail(err, SP_EINVAL, NULL, 0, 0, "methods", "'%s' is not a method", t);
    else if (i > 0)
      bits |= 1u << (i - 1);
  }
  free(copy);
  if (!st) p->methods = bits;
  return st;
}

static int check_params(const sp_dataset *ds, const sp_train_params *p, sp_error *err) {
  if (p->clusters < 1)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "clusters", "k must be at least 1");
  if (p->restarts < 1 || p->max_epochs < 1)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, NULL, "restarts and epochs must be at least 1");
  if (!ds->counters_path)
    return sp__fail(err, SP_EINVAL, ds->runs_path, 0, 0, NULL,
                    "training needs counters.csv as well as runs.csv");
  return SP_OK;
}

int sp_model_summary(const sp_model *m, sp_quantity q, sp_train_summary *out) {
  memset(out, 0, sizeof *out);
  if ((q != SP_TIME && q != SP_POWER) || !m->sub[q].present) return SP_ENOPOWER;
  const sp_submodel *s = &m->sub[q];
  out->sets = s->nsets;
  out->trained = 1;
  out->k_min = (size_t)-1;
  for (size_t i = 0; i < s->nsets; i++) {
    const sp_cluster_set *cs = &s->sets[i];
    out->k_min = cs->nclusters < out->k_min ? cs->nclusters : out->k_min;
    out->k_max = cs->nclusters > out->k_max ? cs->nclusters : out->k_max;
    out->assignments += m->ntrain;
    if (cs->misclassified == (size_t)-1)
      out->trained = 0;
    else
      out->misclassified += cs->misclassified;
    if (!sp__classifier_has_network(cs->clf)) continue;
    const double mse = sp__classifier_train_mse(cs->clf);
    out->networks++;
    out->unconverged += mse > m->desired_error;
    if (mse > out->worst_mse) out->worst_mse = mse;
  }
  if (!out->trained) {
    out->unconverged = out->misclassified = 0;
    out->worst_mse = NAN;
  }
  for (size_t c = 0; c < m->ncounters; c++) out->constant_counters += m->cmin[c] == m->cmax[c];
  return SP_OK;
}

int sp_model_train(const sp_dataset *ds, const sp_train_params *params, sp_progress_fn progress,
                   void *user, sp_model **out, sp_error *err) {
  *out = NULL;
  /* GSL's default handler aborts; the library reports statuses instead. */
  gsl_set_error_handler_off();
  int st = check_params(ds, params, err);
  if (st) return st;
  trainer t = {ds, params, sp__model_alloc(), NULL, 0, NULL, progress, user, 0, 0, err};
  if (!t.m) return sp__oom(err);
  t.m->base = params->base;
  sp_surface **surf[2] = {NULL, NULL};
  st = pick_kernels(&t);
  if (!st) st = setup_time_grid(&t);
  if (!st) st = gather_counters(&t);
  if (!st) st = build_surfaces(&t, SP_TIME, &surf[SP_TIME]);
  if (!st) st = setup_power_grid(&t);
  if (!st) st = setup_bases(&t);
  if (!st) st = setup_memory(&t);
  if (!st && t.m->sub[SP_POWER].present) st = build_surfaces(&t, SP_POWER, &surf[SP_POWER]);
  for (int q = 0; q < 2; q++)
    if (t.m->sub[q].present) t.total += t.m->sub[q].grid.n[0] + (t.m->sub[q].grid.n[0] > 1);
  if (!st) st = train_parts(&t, surf);
  if (!st) st = record_provenance(&t);
  for (int q = 0; q < 2; q++) free_surfaces(surf[q], t.n);
  free(t.kernels);
  free(t.x);
  if (st) {
    sp_model_free(t.m);
    return st;
  }
  *out = t.m;
  return SP_OK;
}
