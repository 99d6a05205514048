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

#include "baselines.h"
#include "data/dataset.h"
#include "ensemble.h"
#include "evaluate.h"
#include "model/kmeans.h"
#include "model/model.h"
#include "util/status.h"

void sp_eval_params_init(sp_eval_params *p) {
  sp_train_params t;
  sp_train_params_init(&t);
  memset(p, 0, sizeof *p);
  p->holdout = 0.2;
  p->repeats = 5;
  p->seed = 1;
  p->methods = (1u << SP_METHOD_COUNT) - 1;
  p->quantities = (1u << SP_TIME) | (1u << SP_POWER);
  p->restarts = t.restarts;
  p->max_epochs = t.max_epochs;
  p->desired_error = t.desired_error;
  p->threads = 1;
}

/* ---- per-quantity context shared by all cluster counts of a job ---------- */

typedef struct qctx {
  int ready;
  size_t g, base_flat;
  sp_surface **surf;   /* per dataset kernel; NULL when it lacks data */
  double *xs;          /* per dataset kernel: normalized base counters */
  double *zs;          /* per dataset kernel: asinh counters, z-scored */
  sp_baseline_data zd; /* training kernels in the z-scored space */
  double *zx;
  sp_baseline_data bd; /* training kernels only */
  double *bx, *blogr;
  sp_ridge *ridge;
  double *basis;       /* mix method: g * SP_MIX_TERMS */
  double *shares;      /* mix method: training kernels' shares */
  sp_ridge *mix;
  double stack_w[SP_STACK_MEMBERS]; /* stack method: the members' weights */
  sp_stack_fit stack;                /* and its fit on every training kernel */
} qctx;

static void qctx_free(qctx *c, size_t nk) {
  for (size_t k = 0; c->surf && k < nk; k++) sp_surface_free(c->surf[k]);
  free(c->surf);
  free(c->xs);
  free(c->zs);
  free(c->zx);
  free(c->bx);
  free(c->blogr);
  sp__ridge_free(c->ridge);
  free(c->basis);
  free(c->shares);
  sp__ridge_free(c->mix);
  sp__stack_fit_free(&c->stack);
  memset(c, 0, sizeof *c);
}

typedef struct job {
  const sp_dataset *ds;
  const sp_eval_params *p;
  size_t split, base;
  const unsigned char *train;  /* 1 = training kernel */
  const unsigned char *skip;   /* 1 = no complete counters at the base */
  size_t dropped;              /* kernels skipped for that reason */
  sp_evaluation out;
  sp_error err;
  int status;
  double *pred, *scratch;      /* g values each */
  double *blend;               /* soft method: every set's blended features */
  double *members;             /* stack method: every member's log ratios */
  size_t pred_cap, scratch_cap, blend_cap, members_cap;
} job;

static int emit(job *j, sp_method m, sp_quantity q, unsigned k, size_t kernel,
                const qctx *c, const sp_grid *g, const double *pred) {
  const sp_surface *s = c->surf[kernel];
  for (size_t t = 0; t < c->g; t++) {
    if (t == c->base_flat) continue;
    sp_eval_record r = {(unsigned char)m, (unsigned char)q, (unsigned short)j->split,
                        k, (unsigned)kernel, (unsigned)j->base, sp__grid_config(g, t),
                        pred[t], s->values[t]};
    if (sp__evaluation_push(&j->out, &r)) return SP_ENOMEM;
  }
  return SP_OK;
}

static int wants(const job *j, sp_method m) { return (j->p->methods >> m) & 1u; }

/* Counters spread over orders of magnitude (transaction counts next to
 * ratios), so the k-nearest method compares them after asinh compression
 * (log-like, defined at zero) and standardization over training kernels. */
static int zscore_counters(const sp_dataset *ds, const sp_model *m,
                           const unsigned char *train, qctx *c) {
  const size_t nk = ds->nkernels, p = m->ncounters;
  c->zs = calloc(nk * p + 1, sizeof(double));
  c->zx = malloc((nk * p + 1) * sizeof(double));
  double *mean = calloc(p + 1, sizeof(double)), *sd = calloc(p + 1, sizeof(double));
  int st = (!c->zs || !c->zx || !mean || !sd) ? SP_ENOMEM : SP_OK;
  size_t n = 0;
  for (size_t k = 0; !st && k < nk; k++) {
    const double *raw;
    if (!c->surf[k] || sp_dataset_counters(ds, k, &m->base, &raw)) continue;
    for (size_t i = 0; i < p; i++) c->zs[k * p + i] = asinh(raw[i]);
    if (!train[k]) continue;
    for (size_t i = 0; i < p; i++) mean[i] += c->zs[k * p + i];
    n++;
  }
  for (size_t i = 0; !st && i < p; i++) mean[i] /= (double)n;
  for (size_t k = 0; !st && k < nk; k++)
    for (size_t i = 0; train[k] && c->surf[k] && i < p; i++)
      sd[i] += (c->zs[k * p + i] - mean[i]) * (c->zs[k * p + i] - mean[i]) / (double)n;
  for (size_t k = 0; !st && k < nk; k++)
    for (size_t i = 0; i < p; i++)
      c->zs[k * p + i] = sd[i] > 0 ? (c->zs[k * p + i] - mean[i]) / sqrt(sd[i]) : 0.0;
  size_t t = 0;
  for (size_t k = 0; !st && k < nk; k++)
    if (train[k] && c->surf[k]) memcpy(c->zx + (t++) * p, c->zs + k * p, p * sizeof(double));
  c->zd = (sp_baseline_data){t, p, c->g, c->zx, c->blogr};
  free(mean);
  free(sd);
  return st;
}

/* Fits every training kernel's shares, then a ridge map from counters. */
static int fit_mix(qctx *c, const sp_grid *g, const sp_grid_point *base, sp_quantity q) {
  const size_t n = c->bd.n;
  c->basis = malloc(c->g * SP_MIX_TERMS * sizeof(double));
  c->shares = malloc((n * SP_MIX_TERMS + 1) * sizeof(double));
  double *ratio = malloc(c->g * sizeof(double));
  int st = (!c->basis || !c->shares || !ratio) ? SP_ENOMEM : SP_OK;
  if (!st) sp__mix_basis(g, base, q == SP_POWER, c->basis);
  for (size_t i = 0; !st && i < n; i++) {
    for (size_t t = 0; t < c->g; t++) ratio[t] = exp(c->blogr[i * c->g + t]);
    sp__mix_fit(c->basis, ratio, c->g, c->shares + i * SP_MIX_TERMS);
  }
  free(ratio);
  sp_baseline_data d = {n, c->bd.p, SP_MIX_TERMS, c->bx, c->shares};
  return st ? st : sp__ridge_fit(&d, &c->mix);
}

/* Builds surfaces, normalized counters, baseline data and the ridge fit. */
static int qctx_build(job *j, const sp_model *m, sp_quantity q, qctx *c) {
  const sp_dataset *ds = j->ds;
  const sp_submodel *s = &m->sub[q];
  const size_t nk = ds->nkernels, p = m->ncounters;
  c->g = sp__grid_size(&s->grid);
  c->base_flat = sp__grid_flat(&s->grid, &s->base);
  c->surf = calloc(nk, sizeof *c->surf);
  c->xs = malloc(nk * p * sizeof(double));
  c->bx = malloc(nk * p * sizeof(double));
  c->blogr = malloc(nk * c->g * sizeof(double));
  if (!c->surf || !c->xs || !c->bx || !c->blogr) return SP_ENOMEM;
  size_t n = 0;
  for (size_t k = 0; k < nk; k++) {
    const double *raw;
    sp_error ignored;
    if (j->skip[k]) continue;
    if (sp__surface_build_on(ds, k, q, &s->grid, &c->surf[k], &ignored)) {
      if (j->train[k]) return sp__fail(&j->err, SP_EGRID, NULL, 0, 0, NULL, "%s", ignored.message);
      continue; /* a held-out kernel without this quantity is not scored */
    }
    if (sp_dataset_counters(ds, k, &m->base, &raw)) {
      char cfg[64];
      sp_config_format(&m->base, cfg, sizeof cfg);
      return sp__fail(&j->err, SP_ENOTFOUND, ds->counters_path, 0, 0, "kernel",
                      "kernel '%s' has no counters at base %s", ds->kernels[k], cfg);
    }
    sp__model_normalize(m, raw, c->xs + k * p, NULL);
    if (!j->train[k]) continue;
    memcpy(c->bx + n * p, c->xs + k * p, p * sizeof(double));
    const double *v = c->surf[k]->values;
    for (size_t t = 0; t < c->g; t++) c->blogr[n * c->g + t] = log(v[t] / v[c->base_flat]);
    n++;
  }
  c->bd = (sp_baseline_data){n, p, c->g, c->bx, c->blogr};
  if (zscore_counters(ds, m, j->train, c)) return SP_ENOMEM;
  const int stack = wants(j, SP_METHOD_STACK);
  if (wants(j, SP_METHOD_LINEAR) && sp__ridge_fit(&c->bd, &c->ridge))
    return sp__fail(&j->err, SP_ENUMERIC, NULL, 0, 0, NULL,
                    "the linear baseline's ridge fit failed (degenerate counters)");
  if ((stack || wants(j, SP_METHOD_MIX)) && fit_mix(c, &s->grid, &s->base, q))
    return sp__fail(&j->err, SP_ENUMERIC, NULL, 0, 0, NULL,
                    "the mix method's share regression failed (degenerate counters)");
  if (stack) {
    sp_stack_data sd = {&c->bd, &c->zd, c->shares, c->basis};
    int st = sp__stack_weights_loo(&sd, c->base_flat, c->stack_w);
    if (!st) st = sp__stack_fit_members(&sd, &c->stack);
    if (st == SP_ENOMEM) return st;
    if (st)
      return sp__fail(&j->err, SP_ENUMERIC, NULL, 0, 0, NULL,
                      "the stack method's leave-one-out fits failed (degenerate counters)");
  }
  c->ready = 1;
  return SP_OK;
}

/* Methods that use no clusters: scored once per job. */
static int score_baselines(job *j, sp_quantity q, qctx *c, const sp_grid *g, size_t k) {
  const double base = c->surf[k]->values[c->base_flat];
  const double *x = c->xs + k * c->bd.p;
  static const sp_method order[] = {SP_METHOD_NEAREST, SP_METHOD_KNN, SP_METHOD_LINEAR,
                                    SP_METHOD_CONSTANT, SP_METHOD_MIX};
  int st = SP_OK;
  for (size_t i = 0; i < sizeof order / sizeof *order && !st; i++) {
    sp_method m = order[i];
    if (!wants(j, m)) continue;
    if (m == SP_METHOD_NEAREST) sp__baseline_nearest(&c->bd, x, j->scratch);
    else if (m == SP_METHOD_KNN)
      sp__baseline_knn(&c->zd, c->zs + k * c->bd.p, SP_KNN_NEIGHBOURS, j->scratch);
    else if (m == SP_METHOD_LINEAR) sp__ridge_predict(c->ridge, x, j->scratch);
    else memset(j->scratch, 0, c->g * sizeof(double));
    for (size_t t = 0; t < c->g; t++) j->pred[t] = base * exp(j->scratch[t]);
    if (m == SP_METHOD_MIX) {
      double shares[SP_MIX_TERMS];
      sp__ridge_predict(c->mix, x, shares);
      sp__mix_apply(c->basis, shares, c->g, j->pred);
      for (size_t t = 0; t < c->g; t++) j->pred[t] *= base;
    }
    st = emit(j, m, q, 0, k, c, g, j->pred);
  }
  if (!st && wants(j, SP_METHOD_STACK)) {
    sp_stack_data sd = {&c->bd, &c->zd, c->shares, c->basis};
    sp__stack_members(&sd, &c->stack, x, c->zs + k * c->bd.p, j->members);
    for (size_t t = 0; t < c->g; t++) {
      double acc = 0;
      for (size_t i = 0; i < SP_STACK_MEMBERS; i++) acc += c->stack_w[i] * j->members[i * c->g + t];
      j->pred[t] = base * exp(acc);
    }
    st = emit(j, SP_METHOD_STACK, q, 0, k, c, g, j->pred);
  }
  return st;
}

/* The true features of kernel k for cluster set i. */
static void true_features(const sp_submodel *s, size_t i, const sp_surface *surf,
                          double *out) {
  if (s->sets[i].kind == SP_SET_REGION)
    sp__surface_region_features(surf, s->sets[i].region, out);
  else
    sp__surface_cu_features(surf, s->base.i[1], s->base.i[2], out);
}

/* Blends set i's centroids geometrically with the network's outputs. */
static void soft_blend(const sp_cluster_set *cs, const double *x, double *out) {
  double w[1024], wsum = 0;
  size_t k = cs->k < 1024 ? cs->k : 1024;
  sp__classifier_classify(cs->clf, x, w);
  for (size_t c = 0; c < k; c++) wsum += w[c] = w[c] > 0 ? w[c] : 0;
  for (size_t d = 0; d < cs->dim; d++) {
    double acc = 0;
    for (size_t c = 0; c < k; c++)
      acc += (wsum > 0 ? w[c] / wsum : 1.0 / (double)k) * log(cs->centroids[c * cs->dim + d]);
    out[d] = exp(acc);
  }
}

static int score_clustered(job *j, const sp_model *m, sp_quantity q, const qctx *c,
                           size_t k, unsigned kk) {
  const sp_submodel *s = &m->sub[q];
  const double base = c->surf[k]->values[c->base_flat];
  const double *x = c->xs + k * m->ncounters;
  size_t choice[1025];
  int st = SP_OK;
  if (s->nsets > 1025) return SP_EINVAL;
  if (wants(j, SP_METHOD_WU2015)) {
    for (size_t i = 0; i < s->nsets; i++)
      choice[i] = sp__classifier_classify(s->sets[i].clf, x, NULL);
    st = sp__model_predict_choice(m, q, choice, base, j->pred);
    if (!st) st = emit(j, SP_METHOD_WU2015, q, kk, k, c, &s->grid, j->pred);
  }
  if (!st && wants(j, SP_METHOD_ORACLE)) {
    for (size_t i = 0; i < s->nsets; i++) {
      true_features(s, i, c->surf[k], j->scratch);
      choice[i] = sp__kmeans_nearest(s->sets[i].centroids, s->sets[i].k, s->sets[i].dim,
                                     j->scratch, NULL);
    }
    st = sp__model_predict_choice(m, q, choice, base, j->pred);
    if (!st) st = emit(j, SP_METHOD_ORACLE, q, kk, k, c, &s->grid, j->pred);
  }
  if (!st && wants(j, SP_METHOD_SOFT)) {
    const size_t nc = s->grid.n[0], rdim = sp__region_dim(&s->grid);
    const double *regions[1024];
    double *at = j->blend;
    for (size_t i = 0; i < s->nsets; i++) {
      soft_blend(&s->sets[i], x, at);
      if (i < nc) regions[i] = at;
      at += s->sets[i].dim;
    }
    const sp_cluster_set *cu = sp__submodel_cu_set(s);
    const double *cu_feat = cu && cu->dim ? at - cu->dim : NULL;
    sp__scale_all(&s->grid, cu_feat, rdim ? regions : NULL, &s->base, base, j->pred);
    st = emit(j, SP_METHOD_SOFT, q, kk, k, c, &s->grid, j->pred);
  }
  return st;
}

static int grow_buffer(double **buf, size_t *cap, size_t need) {
  if (need < *cap) return SP_OK;
  double *p = realloc(*buf, (need + 1) * sizeof(double));
  if (!p) return SP_ENOMEM;
  *buf = p;
  *cap = need + 1;
  return SP_OK;
}

static int score_quantity(job *j, const sp_model *m, sp_quantity q, qctx *c,
                          unsigned kk, int first_k) {
  int st = SP_OK;
  if (!c->ready) {
    st = qctx_build(j, m, q, c);
    if (st) return j->err.status ? st : sp__fail(&j->err, st, NULL, 0, 0, NULL, "out of memory");
    /* scratch holds either log ratios (g values) or one set's features. */
    size_t total = 0, widest = c->g;
    for (size_t i = 0; i < m->sub[q].nsets; i++) {
      total += m->sub[q].sets[i].dim;
      widest = m->sub[q].sets[i].dim > widest ? m->sub[q].sets[i].dim : widest;
    }
    /* The buffers serve both quantities, whose grids may differ in size
     * (power on a sub-grid), so they only ever grow. */
    if (grow_buffer(&j->pred, &j->pred_cap, c->g) ||
        grow_buffer(&j->scratch, &j->scratch_cap, widest) ||
        grow_buffer(&j->blend, &j->blend_cap, total) ||
        grow_buffer(&j->members, &j->members_cap, SP_STACK_MEMBERS * c->g + SP_MIX_TERMS))
      return sp__fail(&j->err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  }
  for (size_t k = 0; k < j->ds->nkernels && !st; k++) {
    if (j->train[k] || !c->surf[k]) continue;
    if (first_k) st = score_baselines(j, q, c, &m->sub[q].grid, k);
    if (!st) st = score_clustered(j, m, q, c, k, kk);
  }
  if (st && !j->err.status) sp__fail(&j->err, st, NULL, 0, 0, NULL, "out of memory");
  return st;
}

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
static int restrict_kernels(job *j, unsigned char *train, unsigned char *skip) {
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

static void run_job(job *j) {
  const sp_eval_params *p = j->p;
  qctx c[2] = {{0}, {0}};
  unsigned char *train = malloc(2 * j->ds->nkernels + 1);
  if (!train) {
    j->status = sp__fail(&j->err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
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
    tp.seed = p->seed + 7919UL * j->split;
    tp.restarts = p->restarts;
    tp.max_epochs = p->max_epochs;
    tp.desired_error = p->desired_error;
    tp.use_kernel = j->train;
    sp_model *m = NULL;
    j->status = sp_model_train(j->ds, &tp, NULL, NULL, &m, &j->err);
    for (int q = 0; q < 2 && !j->status; q++)
      if ((p->quantities >> q) & 1u && m->sub[q].present)
        j->status = score_quantity(j, m, (sp_quantity)q, &c[q], (unsigned)tp.clusters, ki == 0);
    sp_model_free(m);
  }
  qctx_free(&c[0], j->ds->nkernels);
  qctx_free(&c[1], j->ds->nkernels);
  j->train = split_mask;
  j->skip = NULL;
  free(train);
}

/* ---- splits and the worker pool --------------------------------------------- */

typedef struct pool {
  job *jobs;
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

static int make_splits(const sp_dataset *ds, const sp_eval_params *p, unsigned char **masks,
                       size_t *nsplits, sp_error *err) {
  const size_t nk = ds->nkernels;
  size_t ntest = p->leave_one_out ? 1 : (size_t)llround(p->holdout * (double)nk);
  if (!p->leave_one_out && !(p->holdout > 0 && p->holdout < 1))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "holdout", "the holdout fraction must be between 0 and 1");
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
  if (sp__grid_from_dataset(ds, &g)) return sp__fail(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
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
  return st;
}

/* Concatenates the jobs' records in job order; the first failure wins. */
static int collect(pool *pl, sp_evaluation *e, sp_error *err) {
  for (size_t i = 0; i < pl->njobs; i++) {
    job *j = &pl->jobs[i];
    if (j->status) {
      if (err) *err = j->err;
      return j->status;
    }
  }
  for (size_t i = 0; i < pl->njobs; i++)
    for (size_t r = 0; r < pl->jobs[i].out.n; r++)
      if (sp__evaluation_push(e, &pl->jobs[i].out.records[r]))
        return sp__fail(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  return SP_OK;
}

static void write_notes(const pool *pl, const sp_eval_params *p, sp_evaluation *e) {
  size_t n = 0, dropped = 0, jobs = 0;
  for (size_t i = 0; i < e->n; i++) n += e->records[i].quantity == SP_POWER;
  if ((p->quantities >> SP_POWER) & 1u && !n)
    e->note[SP_POWER] = strdup("no power scored: the data has no complete power grid "
                               "around the base configuration(s)");
  for (size_t i = 0; i < pl->njobs; i++) {
    dropped += pl->jobs[i].dropped;
    jobs += pl->jobs[i].dropped > 0;
  }
  if (!dropped) return;
  char buf[256];
  snprintf(buf, sizeof buf, "%zu kernel-base pairs in %zu of %zu jobs were left out: those "
           "kernels have empty counter fields at that base configuration", dropped, jobs,
           pl->njobs);
  e->note[SP_TIME] = strdup(buf);
}

int sp_evaluate(const sp_dataset *ds, const sp_eval_params *p, sp_progress_fn progress,
                void *user, sp_evaluation **out, sp_error *err) {
  *out = NULL;
  gsl_set_error_handler_off();
  int st = check_eval_params(ds, p, err);
  unsigned char *masks = NULL;
  size_t nsplits = 0;
  if (!st) st = make_splits(ds, p, &masks, &nsplits, err);
  if (st) return st;
  pool pl = {calloc(nsplits * p->nbases, sizeof(job)), nsplits * p->nbases, 0, 0,
             PTHREAD_MUTEX_INITIALIZER, progress, user};
  sp_evaluation *e = calloc(1, sizeof *e);
  if (!pl.jobs || !e) st = sp__fail(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  for (size_t i = 0; !st && i < pl.njobs; i++)
    pl.jobs[i] = (job){.ds = ds, .p = p, .split = i / p->nbases, .base = i % p->nbases,
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
  if (st) {
    sp_evaluation_free(e);
    return st;
  }
  e->splits = nsplits;
  *out = e;
  return SP_OK;
}
