/* SPDX-License-Identifier: GPL-3.0-or-later */
/* compare.c: the methods evaluation compares besides those a model carries
 * (nearest, knn, linear, constant, mix and stack, on the job's cache;
 * oracle and soft, which use a model's cluster sets otherwise than wu2015
 * does) and wu2015's own scoring through its cluster choices: one
 * sp_compare each, named in model/method-table.h. */
#include "compare.h"

#include <math.h>
#include <string.h>

#include "model/wu2015.h"

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

/* ---- the objects the table names ------------------------------------------------ */

const sp_compare sp__compare_nearest = {0, score_nearest};
const sp_compare sp__compare_knn = {0, score_knn};
const sp_compare sp__compare_linear = {SP_CACHE_RIDGE, score_linear};
const sp_compare sp__compare_constant = {0, score_constant};
const sp_compare sp__compare_mix = {SP_CACHE_MIX, score_mix};
const sp_compare sp__compare_stack = {SP_CACHE_MIX | SP_CACHE_STACK, score_stack};
const sp_compare sp__compare_wu2015 = {0, score_wu2015};
const sp_compare sp__compare_oracle = {0, score_oracle};
const sp_compare sp__compare_soft = {0, score_soft};
