/* predict.c: classifying a new kernel and scaling its base measurement. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/dataset.h"
#include "model.h"
#include "util/status.h"

/* Cluster sets per submodel are bounded by CU counts; this bound keeps
 * prediction free of heap allocation. */
#define MAX_SETS 1024

/* A time or power is positive and finite.  A product of scaling values can
 * still overflow or underflow for extreme inputs (a loaded model's centroids
 * are only checked to be positive); that is a numerical failure, never a
 * value to print. */
static int all_positive(const double *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!(isfinite(v[i]) && v[i] > 0)) return SP_ENUMERIC;
  return SP_OK;
}

int sp__model_predict_choice(const sp_model *m, sp_quantity q,
                             const size_t *choice, double base_value,
                             double *out) {
  int st = sp__model_check_quantity(m, q);
  if (st) return st;
  const sp_submodel *s = &m->sub[q];
  const size_t nc = s->grid.n[0];
  if (nc > MAX_SETS) return SP_EINVAL;
  const double *regions[MAX_SETS];
  for (size_t ic = 0; ic < nc; ic++) {
    const sp_cluster_set *cs = &s->sets[ic];
    regions[ic] = cs->dim ? cs->centroids + choice[ic] * cs->dim : NULL;
  }
  const sp_cluster_set *cu = sp__submodel_cu_set(s);
  const double *cu_feat = cu && cu->dim ? cu->centroids + choice[nc] * cu->dim : NULL;
  sp__scale_all(&s->grid, cu_feat, sp__region_dim(&s->grid) ? regions : NULL,
                &s->base, base_value, out);
  return all_positive(out, sp__grid_size(&s->grid));
}

static int base_value(sp_quantity q, const sp_observation *obs, double *v) {
  *v = q == SP_TIME ? obs->base_time_ms : obs->base_power_w;
  if (q == SP_POWER && isnan(*v)) return SP_ENOPOWER;
  return isfinite(*v) && *v > 0 ? SP_OK : SP_EINVAL;
}

/* Typical counter sets fit on the stack; only very wide ones allocate. */
#define NORM_STACK 256

/* The observation's counters normalized into stack (NORM_STACK values) or,
 * for wider models, a heap buffer the caller frees when it is not stack;
 * NULL when out of memory. */
static double *normalized(const sp_model *m, const sp_observation *obs, double *stack,
                          sp_predict_info *info) {
  double *x = m->ncounters <= NORM_STACK ? stack : malloc(m->ncounters * sizeof(double));
  if (x) sp__model_normalize(m, obs->counters, x, info);
  return x;
}

/* Classifies the observation in every set of submodel q. */
static int classify(const sp_model *m, sp_quantity q, const sp_observation *obs,
                    size_t *choice, sp_predict_info *info) {
  const sp_submodel *s = &m->sub[q];
  if (s->nsets > MAX_SETS + 1) return SP_EINVAL;
  double stack[NORM_STACK];
  double *x = normalized(m, obs, stack, info);
  if (!x) return SP_ENOMEM;
  for (size_t i = 0; i < s->nsets; i++)
    choice[i] = sp__set_classify(&s->sets[i], x, NULL);
  if (x != stack) free(x);
  return SP_OK;
}

/* Prediction through physet: the counters are normalized only to report
 * the ones outside the training range, which physet reads unclamped. */
static int predict_physet(const sp_model *m, sp_quantity q, const sp_observation *obs,
                          double *out, sp_predict_info *info) {
  double stack[NORM_STACK];
  double *x = normalized(m, obs, stack, info);
  if (!x) return SP_ENOMEM;
  if (x != stack) free(x);
  int st = sp__physet_predict(m->physet, q, obs, out, NULL, NULL);
  return st ? st : all_positive(out, sp__grid_size(&m->sub[q].grid));
}

int sp_model_predict_all(const sp_model *m, sp_quantity q,
                         const sp_observation *obs, double *out,
                         sp_predict_info *info) {
  double v;
  int st = sp__model_check_quantity(m, q);
  if (!st) st = base_value(q, obs, &v);
  if (st) return st;
  if (m->use_physet) return predict_physet(m, q, obs, out, info);
  size_t choice[MAX_SETS + 1];
  st = classify(m, q, obs, choice, info);
  if (!st) st = sp__model_predict_choice(m, q, choice, v, out);
  return st;
}

int sp_model_predict(const sp_model *m, sp_quantity q, const sp_observation *obs,
                     const sp_config *target, double *out, sp_predict_info *info) {
  double v;
  int st = sp__model_check_quantity(m, q);
  if (!st) st = base_value(q, obs, &v);
  if (st) return st;
  const sp_submodel *s = &m->sub[q];
  sp_grid_point t;
  if (sp__grid_locate(&s->grid, target, &t)) return SP_EGRID;
  if (m->use_physet) {
    double *all = malloc(sp__grid_size(&s->grid) * sizeof *all);
    if (!all) return SP_ENOMEM;
    st = predict_physet(m, q, obs, all, info);
    if (!st) *out = all[sp__grid_flat(&s->grid, &t)];
    free(all);
    return st;
  }
  size_t choice[MAX_SETS + 1];
  st = classify(m, q, obs, choice, info);
  if (st) return st;
  const sp_cluster_set *region = &s->sets[t.i[0]];
  const sp_cluster_set *cu = sp__submodel_cu_set(s);
  const double *rf = region->dim ? region->centroids + choice[t.i[0]] * region->dim : NULL;
  const double *cf =
      cu && cu->dim ? cu->centroids + choice[s->nsets - 1] * cu->dim : NULL;
  *out = v * sp__scale_ratio(&s->grid, cf, rf, &s->base, &t);
  return all_positive(out, 1);
}

int sp_model_observe(const sp_model *m, const sp_dataset *ds, size_t k,
                     double *counters, sp_observation *obs, sp_error *err) {
  char cfg[64];
  sp_config_format(&m->base, cfg, sizeof cfg);
  memset(obs, 0, sizeof *obs);
  obs->kernel = sp_dataset_kernel_name(ds, k);
  obs->counters = counters;
  obs->base_power_w = NAN;
  if (sp_dataset_time(ds, k, &m->base, &obs->base_time_ms))
    return sp__fail(err, SP_ENOTFOUND, ds->runs_path, 0, 0, "kernel",
                    "kernel '%s' has no row at the base configuration %s",
                    obs->kernel, cfg);
  (void)sp_dataset_power(ds, k, &m->base, &obs->base_power_w);
  const double *row;
  if (!ds->counters_path || sp_dataset_counters(ds, k, &m->base, &row))
    return sp__fail(err, SP_ENOTFOUND, ds->counters_path, 0, 0, "kernel",
                    "kernel '%s' has no counters at the base configuration %s",
                    obs->kernel, cfg);
  for (size_t c = 0; c < m->ncounters; c++) {
    size_t j = 0;
    while (j < ds->ncounters && strcmp(ds->counter_names[j], m->counter_names[c])) j++;
    if (j == ds->ncounters)
      return sp__fail(err, SP_ENOTFOUND, ds->counters_path, 1, 0,
                      m->counter_names[c],
                      "counter required by the model is missing from the header");
    counters[c] = row[j];
    if (isnan(counters[c]))
      return sp__fail(err, SP_ENOTFOUND, ds->counters_path, 0, 0, m->counter_names[c],
                      "kernel '%s' has no value for this counter at the base "
                      "configuration %s (empty field)", obs->kernel, cfg);
  }
  return SP_OK;
}

size_t sp_model_observe_more(const sp_model *m, const sp_dataset *ds, size_t k,
                             const sp_config *cfgs, size_t n, sp_config *cfg,
                             double *time_ms, double *power_w, sp_observation *obs) {
  size_t used = 0;
  for (size_t i = 0; i < n; i++) {
    if (sp_config_equal(&cfgs[i], &m->base) || sp_dataset_time(ds, k, &cfgs[i], &time_ms[used]))
      continue;
    if (sp_dataset_power(ds, k, &cfgs[i], &power_w[used])) power_w[used] = NAN;
    cfg[used++] = cfgs[i];
  }
  obs->nextra = used;
  obs->extra_config = cfg;
  obs->extra_time_ms = time_ms;
  obs->extra_power_w = power_w;
  return used;
}
