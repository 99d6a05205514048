/* SPDX-License-Identifier: GPL-3.0-or-later */
/* score.c: the prediction methods sp_evaluate compares, as a table (one
 * entry per method: what it needs of the job's cache, whether it depends
 * on the cluster count, how it scores a held-out kernel), and how a job
 * scores one quantity by iterating that table.  A job's per-quantity cache
 * (surfaces, normalized counters, the baselines' fits) is built once and
 * serves every cluster count; the methods that use no clusters are scored
 * with the first cluster count only.  The methods a model
 * carries besides wu2015 (physet) are fitted by sp_model_train and scored
 * through the model's method types (model/method.h). */
#include "score.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/dataset.h"
#include "model/wu2015.h"
#include "util/status.h"

void sp__eval_cache_free(sp_eval_cache *c, size_t nk) {
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

/* ---- the methods ------------------------------------------------------------- */

/* Scores held-out kernel k into pred (one value per grid point of q); *none
 * is set when the method has nothing to say about this kernel (no power,
 * no row at the base), which is not an error. */
typedef int score_fn(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                     size_t k, double *pred, int *none);

/* What a method needs of the job's cache besides surfaces and counters. */
enum { NEEDS_RIDGE = 1u << 0, NEEDS_MIX = 1u << 1, NEEDS_STACK = 1u << 2 };

/* How a method is scored. */
enum {
  CLUSTERED = 1u << 0, /* depends on the cluster count: scored at every one */
  CARRIED = 1u << 1    /* a method the model carries (model/method.h) besides
                          wu2015: fitted by sp_model_train when asked for */
};

/* The base value of kernel k, which every method scales. */
static double base_of(const sp_eval_cache *c, size_t k) { return c->surf[k]->values[c->base_flat]; }

/* pred from log ratios: the base value times exp(scratch). */
static void from_log_ratios(const sp_eval_cache *c, size_t k, const double *logr, double *pred) {
  const double base = base_of(c, k);
  for (size_t t = 0; t < c->g; t++) pred[t] = base * exp(logr[t]);
}

static int score_nearest(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                         size_t k, double *pred, int *none) {
  (void)m, (void)q, (void)none;
  sp__baseline_nearest(&c->bd, c->xs + k * c->bd.p, j->scratch);
  from_log_ratios(c, k, j->scratch, pred);
  return SP_OK;
}

static int score_knn(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                     size_t k, double *pred, int *none) {
  (void)m, (void)q, (void)none;
  sp__baseline_knn(&c->zd, c->zs + k * c->bd.p, SP_KNN_NEIGHBOURS, j->scratch);
  from_log_ratios(c, k, j->scratch, pred);
  return SP_OK;
}

static int score_linear(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                        size_t k, double *pred, int *none) {
  (void)m, (void)q, (void)none;
  sp__ridge_predict(c->ridge, c->xs + k * c->bd.p, j->scratch);
  from_log_ratios(c, k, j->scratch, pred);
  return SP_OK;
}

static int score_constant(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                          size_t k, double *pred, int *none) {
  (void)m, (void)q, (void)none;
  memset(j->scratch, 0, c->g * sizeof(double));
  from_log_ratios(c, k, j->scratch, pred);
  return SP_OK;
}

static int score_mix(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                     size_t k, double *pred, int *none) {
  (void)j, (void)m, (void)q, (void)none;
  double shares[SP_MIX_TERMS];
  sp__ridge_predict(c->mix, c->xs + k * c->bd.p, shares);
  sp__mix_apply(c->basis, shares, c->g, pred);
  const double base = base_of(c, k);
  for (size_t t = 0; t < c->g; t++) pred[t] *= base;
  return SP_OK;
}

static int score_stack(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                       size_t k, double *pred, int *none) {
  (void)m, (void)q, (void)none;
  sp_stack_data sd = {&c->bd, &c->zd, c->shares, c->basis};
  sp__stack_members(&sd, &c->stack, c->xs + k * c->bd.p, c->zs + k * c->bd.p, j->members);
  const double base = base_of(c, k);
  for (size_t t = 0; t < c->g; t++) {
    double acc = 0;
    for (size_t i = 0; i < SP_STACK_MEMBERS; i++) acc += c->stack_w[i] * j->members[i * c->g + t];
    pred[t] = base * exp(acc);
  }
  return SP_OK;
}

/* A method the model carries, through its type, on held-out kernel k as
 * measured at this job's base and, for a method that uses them, at the
 * extra configurations too. */
static int score_carried(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_method_slot *s,
                         size_t k, double *pred, int *none) {
  enum { MAX_EXTRA = 16 };
  const sp_eval_params *p = j->p;
  sp_observation obs = {.kernel = j->ds->kernels[k], .base_power_w = NAN};
  sp_config ec[MAX_EXTRA];
  double et[MAX_EXTRA], ep[MAX_EXTRA];
  const sp_config *base = &p->bases[j->base];
  *none = sp_dataset_time(j->ds, k, base, &obs.base_time_ms) ||
          sp_dataset_counters(j->ds, k, base, &obs.counters);
  if (*none) return SP_OK;
  (void)sp_dataset_power(j->ds, k, base, &obs.base_power_w);
  size_t fk = p->floor_known && p->floor_kernel ? sp_dataset_kernel_index(j->ds, p->floor_kernel)
                                                : (size_t)-1;
  if (fk != (size_t)-1 && sp_dataset_power(j->ds, fk, base, &obs.floor_w)) obs.floor_w = 0;
  if (s->type->needs & SP_USES_MEASURED)
    sp_model_observe_more(m, j->ds, k, p->extra, p->nextra < MAX_EXTRA ? p->nextra : MAX_EXTRA, ec,
                          et, ep, &obs);
  const size_t g = sp__grid_size(&m->sub[q].grid);
  int st = s->type->predict_interval
               ? s->type->predict_interval(m, s->state, q, &obs, pred, pred + g, pred + 2 * g)
               : s->type->predict(m, s->state, q, &obs, pred);
  *none = st == SP_ENOPOWER;
  if (!s->type->predict_interval)
    for (size_t t = 0; t < g; t++) pred[g + t] = pred[2 * g + t] = NAN;
  if (!st) {
    sp_predict_info info = {0};
    double stack[SP_NORM_STACK], *x = sp__model_normalized(m, obs.counters, stack, &info);
    if (!x) return SP_ENOMEM;
    if (x != stack) free(x);
    j->novelty = s->type->novelty ? s->type->novelty(s->state, &obs) : NAN;
    j->outside = info.clamped > 0 || j->novelty > 1;
  }
  return *none ? SP_OK : st;
}

/* The true features of kernel k for cluster set i. */
static void true_features(const sp_submodel *s, size_t i, const sp_surface *surf, double *out) {
  if (s->sets[i].kind == SP_SET_REGION)
    sp__surface_region_features(surf, s->sets[i].region, out);
  else
    sp__surface_cu_features(surf, s->base.i[1], s->base.i[2], out);
}

/* Blends set i's centroids geometrically with the network's outputs. */
static void soft_blend(const sp_cluster_set *cs, const double *x, double *out) {
  double w[1024], wsum = 0;
  size_t nclusters = cs->nclusters < 1024 ? cs->nclusters : 1024;
  sp__set_classify(cs, x, w);
  for (size_t c = 0; c < nclusters; c++) wsum += w[c] = w[c] > 0 ? w[c] : 0;
  for (size_t d = 0; d < cs->dim; d++) {
    double acc = 0;
    for (size_t c = 0; c < nclusters; c++)
      acc +=
          (wsum > 0 ? w[c] / wsum : 1.0 / (double)nclusters) * log(cs->centroids[c * cs->dim + d]);
    out[d] = exp(acc);
  }
}

/* Set i's choice for each method that picks clusters. */
typedef size_t choose_fn(const sp_submodel *s, size_t i, const sp_eval_cache *c, size_t k,
                         double *scratch);

static size_t choose_classified(const sp_submodel *s, size_t i, const sp_eval_cache *c, size_t k,
                                double *scratch) {
  (void)scratch;
  return sp__set_classify(&s->sets[i], c->xs + k * c->bd.p, NULL);
}

static size_t choose_oracle(const sp_submodel *s, size_t i, const sp_eval_cache *c, size_t k,
                            double *scratch) {
  true_features(s, i, c->surf[k], scratch);
  return sp__set_nearest(&s->sets[i], scratch);
}

/* The model's cluster sets walk the base value, with the clusters choose
 * picks. */
static int score_chosen(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                        size_t k, double *pred, choose_fn *choose) {
  const sp_submodel *s = &m->sub[q];
  size_t choice[1025];
  if (s->nsets > 1025) return SP_EINVAL;
  for (size_t i = 0; i < s->nsets; i++) choice[i] = choose(s, i, c, k, j->scratch);
  return sp__model_predict_choice(m, q, choice, base_of(c, k), pred);
}

static int score_wu2015(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                        size_t k, double *pred, int *none) {
  (void)none;
  return score_chosen(j, m, q, c, k, pred, choose_classified);
}

static int score_oracle(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                        size_t k, double *pred, int *none) {
  (void)none;
  return score_chosen(j, m, q, c, k, pred, choose_oracle);
}

static int score_soft(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_cache *c,
                      size_t k, double *pred, int *none) {
  (void)none;
  const sp_submodel *s = &m->sub[q];
  const size_t nc = s->grid.n[0], rdim = sp__region_dim(&s->grid);
  const double *regions[1024];
  double *at = j->blend;
  if (s->nsets > 1025) return SP_EINVAL;
  for (size_t i = 0; i < s->nsets; i++) {
    soft_blend(&s->sets[i], c->xs + k * m->ncounters, at);
    if (i < nc) regions[i] = at;
    at += s->sets[i].dim;
  }
  const sp_cluster_set *cu = sp__submodel_cu_set(s);
  const double *cu_feat = cu && cu->dim ? at - cu->dim : NULL;
  sp__scale_all(&s->grid, cu_feat, rdim ? regions : NULL, &s->base, base_of(c, k), pred);
  return SP_OK;
}

/* ---- the table --------------------------------------------------------------- */

typedef struct eval_method {
  sp_method id;
  const char *name;
  unsigned how;    /* CLUSTERED, CARRIED */
  unsigned needs;  /* NEEDS_* */
  score_fn *score; /* NULL for CARRIED: through the model's type */
} eval_method;

/* In the order a job scores them, which is the order of the records (the
 * pinned outputs fix it): the methods that use no clusters, then the
 * clustered ones. */
static const eval_method table[] = {
    {SP_METHOD_NEAREST, "nearest", 0, 0, score_nearest},
    {SP_METHOD_KNN, "knn", 0, 0, score_knn},
    {SP_METHOD_LINEAR, "linear", 0, NEEDS_RIDGE, score_linear},
    {SP_METHOD_CONSTANT, "constant", 0, 0, score_constant},
    {SP_METHOD_MIX, "mix", 0, NEEDS_MIX, score_mix},
    {SP_METHOD_STACK, "stack", 0, NEEDS_MIX | NEEDS_STACK, score_stack},
    {SP_METHOD_PHYSET, "physet", CARRIED, 0, NULL},
    {SP_METHOD_STATIC, "static", CARRIED, 0, NULL},
    {SP_METHOD_WU2015, "wu2015", CLUSTERED, 0, score_wu2015},
    {SP_METHOD_ORACLE, "oracle", CLUSTERED, 0, score_oracle},
    {SP_METHOD_SOFT, "soft", CLUSTERED, 0, score_soft},
};
#define NMETHODS (sizeof table / sizeof *table)
_Static_assert(NMETHODS == (size_t)SP_METHOD_COUNT, "one table entry per sp_method");

static const eval_method *entry(sp_method m) {
  for (size_t i = 0; i < NMETHODS; i++)
    if (table[i].id == m) return &table[i];
  return NULL;
}

const char *sp_method_name(sp_method m) {
  const eval_method *e = entry(m);
  return e ? e->name : "unknown";
}

int sp_method_parse(const char *name, sp_method *out) {
  for (size_t i = 0; i < NMETHODS; i++)
    if (!strcmp(name, table[i].name)) {
      *out = table[i].id;
      return SP_OK;
    }
  return SP_EINVAL;
}

int sp_method_uses_clusters(sp_method m) {
  const eval_method *e = entry(m);
  return e && e->how & CLUSTERED;
}

static int wants(const sp_eval_job *j, sp_method m) { return (j->p->methods >> m) & 1u; }

static unsigned wanted_needs(const sp_eval_job *j) {
  unsigned needs = 0;
  for (size_t i = 0; i < NMETHODS; i++)
    if (wants(j, table[i].id)) needs |= table[i].needs;
  return needs;
}

unsigned sp__eval_train_methods(const sp_eval_params *p) {
  unsigned bits = 0;
  size_t index;
  for (size_t i = 0; i < NMETHODS; i++)
    if (table[i].how & CARRIED && (p->methods >> table[i].id) & 1u &&
        sp__method_find(table[i].name, &index) && index >= 1)
      bits |= 1u << (index - 1);
  return bits;
}

/* ---- one job's cache ---------------------------------------------------------- */

static int is_extra(const sp_eval_params *p, const sp_config *c) {
  for (size_t e = 0; e < p->nextra; e++)
    if (sp_config_equal(&p->extra[e], c)) return 1;
  return 0;
}

/* Records pred for every target but the base, with the interval the method
 * gave (carried: pred holds the values, then lo, then hi) and whether the
 * kernel lay outside its training data; a method that saw the extra
 * configurations as measured (skip_extra) is not scored on them. */
static int emit(sp_eval_job *j, sp_method m, sp_quantity q, unsigned nclusters, size_t kernel,
                const sp_eval_cache *c, const sp_grid *g, const double *pred, int carried,
                int skip_extra) {
  const sp_surface *s = c->surf[kernel];
  for (size_t t = 0; t < c->g; t++) {
    if (t == c->base_flat) continue;
    sp_config tc = sp__grid_config(g, t);
    if (skip_extra && is_extra(j->p, &tc)) continue;
    sp_eval_record r = {(unsigned char)m,
                        (unsigned char)q,
                        (unsigned short)j->split,
                        nclusters,
                        (unsigned)kernel,
                        (unsigned)j->base,
                        tc,
                        pred[t],
                        s->values[t],
                        carried ? pred[c->g + t] : NAN,
                        carried ? pred[2 * c->g + t] : NAN,
                        carried ? j->novelty : NAN,
                        (unsigned char)(carried && j->outside)};
    if (sp__evaluation_push(&j->out, &r)) return SP_ENOMEM;
  }
  return SP_OK;
}

/* Counters spread over orders of magnitude (transaction counts next to
 * ratios), so the k-nearest method compares them after asinh compression
 * (log-like, defined at zero) and standardization over training kernels. */
static int zscore_counters(const sp_dataset *ds, const sp_model *m, const unsigned char *train,
                           sp_eval_cache *c) {
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
static int fit_mix(sp_eval_cache *c, const sp_grid *g, const sp_grid_point *base, sp_quantity q) {
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
static int cache_build(sp_eval_job *j, const sp_model *m, sp_quantity q, sp_eval_cache *c) {
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
    if (sp__surface_build_on(j->train[k] ? j->tds : ds, k, q, &s->grid, &c->surf[k], &ignored)) {
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
  const unsigned needs = wanted_needs(j);
  if (needs & NEEDS_RIDGE && sp__ridge_fit(&c->bd, &c->ridge))
    return sp__fail(&j->err, SP_ENUMERIC, NULL, 0, 0, NULL,
                    "the linear baseline's ridge fit failed (degenerate counters)");
  if (needs & NEEDS_MIX && fit_mix(c, &s->grid, &s->base, q))
    return sp__fail(&j->err, SP_ENUMERIC, NULL, 0, 0, NULL,
                    "the mix method's share regression failed (degenerate counters)");
  if (needs & NEEDS_STACK) {
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

static int grow_buffer(double **buf, size_t *cap, size_t need) {
  if (need < *cap) return SP_OK;
  double *p = realloc(*buf, (need + 1) * sizeof(double));
  if (!p) return SP_ENOMEM;
  *buf = p;
  *cap = need + 1;
  return SP_OK;
}

int sp__eval_score_quantity(sp_eval_job *j, const sp_model *m, sp_quantity q, sp_eval_cache *c,
                            unsigned nclusters, int first_count) {
  int st = SP_OK;
  if (!c->ready) {
    st = cache_build(j, m, q, c);
    if (st) return j->err.status ? st : sp__fail(&j->err, st, NULL, 0, 0, NULL, "out of memory");
    /* scratch holds either log ratios (g values) or one set's features. */
    size_t total = 0, widest = c->g;
    for (size_t i = 0; i < m->sub[q].nsets; i++) {
      total += m->sub[q].sets[i].dim;
      widest = m->sub[q].sets[i].dim > widest ? m->sub[q].sets[i].dim : widest;
    }
    /* The buffers serve both quantities, whose grids may differ in size
     * (power on a sub-grid), so they only ever grow. */
    if (grow_buffer(&j->pred, &j->pred_cap, 3 * c->g) ||
        grow_buffer(&j->scratch, &j->scratch_cap, widest) ||
        grow_buffer(&j->blend, &j->blend_cap, total) ||
        grow_buffer(&j->members, &j->members_cap, SP_STACK_MEMBERS * c->g + SP_MIX_TERMS))
      return sp__oom(&j->err);
  }
  for (size_t kernel = 0; kernel < j->ds->nkernels && !st; kernel++) {
    if (j->train[kernel] || !c->surf[kernel]) continue;
    for (size_t i = 0; i < NMETHODS && !st; i++) {
      const eval_method *e = &table[i];
      if (!wants(j, e->id) || (!(e->how & CLUSTERED) && !first_count)) continue;
      const sp_method_slot *slot = e->how & CARRIED ? sp__model_slot(m, e->name) : NULL;
      if (e->how & CARRIED && !slot) continue;
      int none = 0;
      st = slot ? score_carried(j, m, q, slot, kernel, j->pred, &none)
                : e->score(j, m, q, c, kernel, j->pred, &none);
      const int skip_extra = slot && slot->type->needs & SP_USES_MEASURED;
      if (!st && !none)
        st = emit(j, e->id, q, e->how & CLUSTERED ? nclusters : 0, kernel, c, &m->sub[q].grid,
                  j->pred, slot != NULL, skip_extra);
    }
  }
  if (st && !j->err.status) sp__fail(&j->err, st, NULL, 0, 0, NULL, "out of memory");
  return st;
}
