/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wu2015.c: the paper's method (Wu et al., HPCA 2015) as a type of
 * method.h.  A new kernel's normalized base counters pick a cluster in
 * every cluster set, and the chosen centroids' scaling values walk its base
 * measurement over the grid.  Its state is the model's core (model.h's
 * submodels, trained by train.c and saved by modelio.c), so it has no fit,
 * save, load or free of its own. */
#include <stdlib.h>

#include "model.h"
#include "wu2015.h"

/* Cluster sets per submodel are bounded by CU counts; this bound keeps
 * prediction free of heap allocation. */
#define MAX_SETS 1024

int sp__model_predict_choice(const sp_model *m, sp_quantity q, const size_t *choice,
                             double base_value, double *out) {
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
  sp__scale_all(&s->grid, cu_feat, sp__region_dim(&s->grid) ? regions : NULL, &s->base, base_value,
                out);
  return sp__check_positive(out, sp__grid_size(&s->grid));
}

/* Classifies the observation in every set of submodel q. */
static int classify(const sp_model *m, sp_quantity q, const sp_observation *obs, size_t *choice) {
  const sp_submodel *s = &m->sub[q];
  if (s->nsets > MAX_SETS + 1) return SP_EINVAL;
  double stack[SP_NORM_STACK];
  double *x = sp__model_normalized(m, obs->counters, stack, NULL);
  if (!x) return SP_ENOMEM;
  for (size_t i = 0; i < s->nsets; i++) choice[i] = sp__set_classify(&s->sets[i], x, NULL);
  if (x != stack) free(x);
  return SP_OK;
}

static double base_value(sp_quantity q, const sp_observation *obs) {
  return q == SP_TIME ? obs->base_time_ms : obs->base_power_w;
}

static int wu2015_predict(const sp_model *m, const void *state, sp_quantity q,
                          const sp_observation *obs, double *out) {
  (void)state;
  size_t choice[MAX_SETS + 1];
  int st = classify(m, q, obs, choice);
  return st ? st : sp__model_predict_choice(m, q, choice, base_value(q, obs), out);
}

/* One target without the whole grid: the product of the scaling values
 * along the walk from the base to t. */
static int wu2015_predict_at(const sp_model *m, const void *state, sp_quantity q,
                             const sp_observation *obs, const sp_grid_point *t, double *out) {
  (void)state;
  const sp_submodel *s = &m->sub[q];
  size_t choice[MAX_SETS + 1];
  int st = classify(m, q, obs, choice);
  if (st) return st;
  const sp_cluster_set *region = &s->sets[t->i[0]];
  const sp_cluster_set *cu = sp__submodel_cu_set(s);
  const double *rf = region->dim ? region->centroids + choice[t->i[0]] * region->dim : NULL;
  const double *cf = cu && cu->dim ? cu->centroids + choice[s->nsets - 1] * cu->dim : NULL;
  *out = base_value(q, obs) * sp__scale_ratio(&s->grid, cf, rf, &s->base, t);
  return sp__check_positive(out, 1);
}

const sp_method_type sp__method_wu2015 = {
    .name = "wu2015",
    .needs = SP_NEEDS_COUNTERS,
    .predict = wu2015_predict,
    .predict_at = wu2015_predict_at,
};
