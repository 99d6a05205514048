/* methods.c: the prediction methods sp_evaluate compares, their names,
 * and how a job scores one quantity with each of them.  A job's per-quantity
 * context (surfaces, normalized counters, the baselines' fits) is built once
 * and serves every cluster count; the methods that use no clusters are
 * scored with the first cluster count only. */
#include "methods.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/dataset.h"
#include "util/status.h"

static const char *const method_names[SP_METHOD_COUNT] = {
    "wu2015", "oracle", "nearest", "linear", "constant", "soft", "knn", "mix", "stack",
    "physet"};

const char *sp_method_name(sp_method m) {
  return (unsigned)m < SP_METHOD_COUNT ? method_names[m] : "unknown";
}

int sp_method_parse(const char *name, sp_method *out) {
  for (int m = 0; m < SP_METHOD_COUNT; m++)
    if (!strcmp(name, method_names[m])) {
      *out = (sp_method)m;
      return SP_OK;
    }
  return SP_EINVAL;
}

int sp_method_uses_clusters(sp_method m) {
  return m == SP_METHOD_WU2015 || m == SP_METHOD_ORACLE || m == SP_METHOD_SOFT;
}

void sp__eval_qctx_free(sp_eval_qctx *c, size_t nk) {
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

static int emit(sp_eval_job *j, sp_method m, sp_quantity q, unsigned k, size_t kernel,
                const sp_eval_qctx *c, const sp_grid *g, const double *pred) {
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

static int wants(const sp_eval_job *j, sp_method m) { return (j->p->methods >> m) & 1u; }

/* Counters spread over orders of magnitude (transaction counts next to
 * ratios), so the k-nearest method compares them after asinh compression
 * (log-like, defined at zero) and standardization over training kernels. */
static int zscore_counters(const sp_dataset *ds, const sp_model *m,
                           const unsigned char *train, sp_eval_qctx *c) {
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
static int fit_mix(sp_eval_qctx *c, const sp_grid *g, const sp_grid_point *base, sp_quantity q) {
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
static int qctx_build(sp_eval_job *j, const sp_model *m, sp_quantity q, sp_eval_qctx *c) {
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
static int score_baselines(sp_eval_job *j, sp_quantity q, sp_eval_qctx *c, const sp_grid *g,
                           size_t k) {
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

static int is_extra(const sp_eval_params *p, const sp_config *c) {
  for (size_t e = 0; e < p->nextra; e++)
    if (sp_config_equal(&p->extra[e], c)) return 1;
  return 0;
}

/* physet on held-out kernel k, which also counts as measured at the extra
 * configurations; the records leave those out. */
static int score_physet(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_qctx *c,
                        size_t k) {
  enum { MAX_EXTRA = 16 };
  const sp_eval_params *p = j->p;
  sp_observation obs = {.kernel = j->ds->kernels[k], .base_power_w = NAN};
  sp_config ec[MAX_EXTRA];
  double et[MAX_EXTRA], ep[MAX_EXTRA];
  const sp_config *base = &p->bases[j->base];
  if (sp_dataset_time(j->ds, k, base, &obs.base_time_ms) ||
      sp_dataset_counters(j->ds, k, base, &obs.counters))
    return SP_OK;
  (void)sp_dataset_power(j->ds, k, base, &obs.base_power_w);
  sp_model_observe_more(m, j->ds, k, p->extra, p->nextra < MAX_EXTRA ? p->nextra : MAX_EXTRA,
                        ec, et, ep, &obs);
  const sp_method_slot *ms = sp__model_slot(m, "physet");
  int st = ms->type->predict(m, ms->state, q, &obs, j->pred);
  if (st == SP_ENOPOWER) return SP_OK;
  if (st) return st;
  const sp_grid *g = &m->sub[q].grid;
  const sp_surface *s = c->surf[k];
  for (size_t t = 0; t < c->g; t++) {
    sp_config tc = sp__grid_config(g, t);
    if (t == c->base_flat || is_extra(p, &tc)) continue;
    sp_eval_record r = {(unsigned char)SP_METHOD_PHYSET, (unsigned char)q,
                        (unsigned short)j->split, 0, (unsigned)k, (unsigned)j->base, tc,
                        j->pred[t], s->values[t]};
    if (sp__evaluation_push(&j->out, &r)) return SP_ENOMEM;
  }
  return SP_OK;
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
  sp__set_classify(cs, x, w);
  for (size_t c = 0; c < k; c++) wsum += w[c] = w[c] > 0 ? w[c] : 0;
  for (size_t d = 0; d < cs->dim; d++) {
    double acc = 0;
    for (size_t c = 0; c < k; c++)
      acc += (wsum > 0 ? w[c] / wsum : 1.0 / (double)k) * log(cs->centroids[c * cs->dim + d]);
    out[d] = exp(acc);
  }
}

static int score_clustered(sp_eval_job *j, const sp_model *m, sp_quantity q, const sp_eval_qctx *c,
                           size_t k, unsigned kk) {
  const sp_submodel *s = &m->sub[q];
  const double base = c->surf[k]->values[c->base_flat];
  const double *x = c->xs + k * m->ncounters;
  size_t choice[1025];
  int st = SP_OK;
  if (s->nsets > 1025) return SP_EINVAL;
  if (wants(j, SP_METHOD_WU2015)) {
    for (size_t i = 0; i < s->nsets; i++)
      choice[i] = sp__set_classify(&s->sets[i], x, NULL);
    st = sp__model_predict_choice(m, q, choice, base, j->pred);
    if (!st) st = emit(j, SP_METHOD_WU2015, q, kk, k, c, &s->grid, j->pred);
  }
  if (!st && wants(j, SP_METHOD_ORACLE)) {
    for (size_t i = 0; i < s->nsets; i++) {
      true_features(s, i, c->surf[k], j->scratch);
      choice[i] = sp__set_nearest(&s->sets[i], j->scratch);
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

int sp__eval_score_quantity(sp_eval_job *j, const sp_model *m, sp_quantity q,
                            sp_eval_qctx *c, unsigned kk, int first_k) {
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
    if (!st && first_k && sp__model_slot(m, "physet")) st = score_physet(j, m, q, c, k);
    if (!st) st = score_clustered(j, m, q, c, k, kk);
  }
  if (st && !j->err.status) sp__fail(&j->err, st, NULL, 0, 0, NULL, "out of memory");
  return st;
}

