/* model.c: the model object: allocation and release, the accessors and
 * setters of the public API, counter normalization, and the cluster sets'
 * classification and nearest-centroid steps that prediction, training and
 * evaluation share.  Training (train.c), prediction (predict.c) and the
 * saved-model directory (modelio.c) build on this file; it calls none of
 * them. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "classifier.h"
#include "kmeans.h"

#define NOT_FOUND ((size_t)-1)

int sp__set_string(char **dst, const char *src) {
  free(*dst);
  *dst = src ? strdup(src) : NULL;
  return (src && !*dst) ? SP_ENOMEM : SP_OK;
}

sp_model *sp__model_alloc(void) { return calloc(1, sizeof(sp_model)); }

static void free_submodel(sp_submodel *s) {
  for (size_t i = 0; i < s->nsets; i++) {
    free(s->sets[i].centroids);
    free(s->sets[i].assign);
    sp__classifier_free(s->sets[i].clf);
  }
  free(s->sets);
  sp__grid_free(&s->grid);
  memset(s, 0, sizeof *s);
}

void sp_model_free(sp_model *m) {
  if (!m) return;
  for (size_t c = 0; c < m->ncounters; c++) free(m->counter_names[c]);
  for (size_t k = 0; k < m->ntrain; k++) free(m->train_kernels[k]);
  free(m->counter_names);
  free(m->train_kernels);
  free(m->cmin);
  free(m->cmax);
  free_submodel(&m->sub[SP_TIME]);
  free_submodel(&m->sub[SP_POWER]);
  free(m->name);
  free(m->source);
  free(m->runs_path);
  free(m->counters_path);
  free(m->power_note);
  sp__physet_free(m->physet);
  free(m);
}

int sp__model_check_quantity(const sp_model *m, sp_quantity q) {
  if (q != SP_TIME && q != SP_POWER) return SP_EINVAL;
  return m->sub[q].present ? SP_OK : SP_ENOPOWER;
}

const sp_cluster_set *sp__submodel_cu_set(const sp_submodel *s) {
  if (s->nsets && s->sets[s->nsets - 1].kind == SP_SET_CU)
    return &s->sets[s->nsets - 1];
  return NULL;
}

size_t sp__set_classify(const sp_cluster_set *cs, const double *x, double *outputs) {
  return sp__classifier_classify(cs->clf, x, outputs);
}

size_t sp__set_nearest(const sp_cluster_set *cs, const double *features) {
  return sp__kmeans_nearest(cs->centroids, cs->k, cs->dim, features, NULL);
}

void sp__model_normalize(const sp_model *m, const double *raw, double *x,
                         sp_predict_info *info) {
  if (info) memset(info, 0, sizeof *info);
  for (size_t c = 0; c < m->ncounters; c++) {
    double v = raw[c], lo = m->cmin[c], hi = m->cmax[c];
    if (v < lo || v > hi) {
      if (info && info->clamped++ == 0) info->first_clamped = c;
      v = v < lo ? lo : hi;
    }
    /* A counter constant over the training set carries no information.
     * Halving first keeps the differences finite when the training range
     * spans more than half of double's (hi - lo would overflow and make
     * inf / inf); halving is exact, so other results are unchanged. */
    x[c] = hi > lo ? (v / 2 - lo / 2) / (hi / 2 - lo / 2) : 0.0;
  }
}

int sp_model_set_name(sp_model *m, const char *name) {
  return sp__set_string(&m->name, name);
}

int sp_model_set_source(sp_model *m, const char *source, int synthetic) {
  m->synthetic = synthetic != 0;
  return sp__set_string(&m->source, source);
}

/* ---- accessors ----------------------------------------------------------- */

const char *sp_model_name(const sp_model *m) { return m->name ? m->name : ""; }
sp_config sp_model_base(const sp_model *m) { return m->base; }
int sp_model_has_power(const sp_model *m) { return m->sub[SP_POWER].present; }
const char *sp_model_source(const sp_model *m) { return m->source ? m->source : ""; }
int sp_model_is_synthetic(const sp_model *m) { return m->synthetic; }
size_t sp_model_counter_count(const sp_model *m) { return m->ncounters; }
const char *sp_model_counter_name(const sp_model *m, size_t c) {
  return c < m->ncounters ? m->counter_names[c] : NULL;
}

size_t sp_model_config_count(const sp_model *m, sp_quantity q) {
  return sp__model_check_quantity(m, q) ? 0 : sp__grid_size(&m->sub[q].grid);
}

sp_config sp_model_config_at(const sp_model *m, sp_quantity q, size_t i) {
  return sp__grid_config(&m->sub[q].grid, i);
}

size_t sp_model_config_index(const sp_model *m, sp_quantity q,
                             const sp_config *cfg) {
  sp_grid_point p;
  if (sp__model_check_quantity(m, q) || sp__grid_locate(&m->sub[q].grid, cfg, &p))
    return NOT_FOUND;
  return sp__grid_flat(&m->sub[q].grid, &p);
}

/* ---- methods ------------------------------------------------------------- */

static const char WU2015[] = "wu2015", PHYSET[] = "physet";

size_t sp_model_method_count(const sp_model *m) { return 1 + (m->physet != NULL); }

const char *sp_model_method_name(const sp_model *m, size_t i) {
  return i == 0 ? WU2015 : i == 1 && m->physet ? PHYSET : NULL;
}

const char *sp_model_recommended_method(const sp_model *m) {
  return m->recommend_physet ? PHYSET : WU2015;
}

const char *sp_model_method(const sp_model *m) { return m->use_physet ? PHYSET : WU2015; }

int sp_model_use_method(sp_model *m, const char *name) {
  if (!strcmp(name, WU2015)) m->use_physet = 0;
  else if (!strcmp(name, PHYSET) && m->physet) m->use_physet = 1;
  else return SP_ENOTFOUND;
  return SP_OK;
}
