/* SPDX-License-Identifier: GPL-3.0-or-later */
/* model.c: the model object: allocation and release, the accessors and
 * setters of the public API, counter normalization, the cluster sets'
 * classification and nearest-centroid steps that prediction, training and
 * evaluation share, and the slots of the methods the model carries.
 * Training (train.c), prediction (predict.c), the methods (wu2015.c,
 * physet.c) and the saved-model directory (modelio.c) build on this file;
 * it calls none of them, and reaches the methods only through their types
 * (method.h: the table in method.c, and each type's free). */
#include "model.h"

#include <math.h>
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

sp_model *sp__model_alloc(void) {
  sp_model *m = calloc(1, sizeof(sp_model));
  if (m) m->methods[m->nmethods++].type = sp__method_table[0];
  if (m) m->nbases = 1;
  return m;
}

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
  for (size_t i = 0; i < m->nmethods; i++) {
    if (!m->methods[i].type->free) continue;
    m->methods[i].type->free(m->methods[i].state);
    for (size_t b = 1; b < SP_MODEL_MAX_BASES; b++)
      if (m->methods[i].at[b]) m->methods[i].type->free(m->methods[i].at[b]);
  }
  free(m->memory);
  free(m);
}

int sp__model_check_quantity(const sp_model *m, sp_quantity q) {
  if (q != SP_TIME && q != SP_POWER) return SP_EINVAL;
  return m->sub[q].present ? SP_OK : SP_ENOPOWER;
}

const sp_cluster_set *sp__submodel_cu_set(const sp_submodel *s) {
  if (s->nsets && s->sets[s->nsets - 1].kind == SP_SET_CU) return &s->sets[s->nsets - 1];
  return NULL;
}

size_t sp__set_classify(const sp_cluster_set *cs, const double *x, double *outputs) {
  return sp__classifier_classify(cs->clf, x, outputs);
}

size_t sp__set_nearest(const sp_cluster_set *cs, const double *features) {
  return sp__kmeans_nearest(cs->centroids, cs->nclusters, cs->dim, features, NULL);
}

void sp__model_normalize(const sp_model *m, const double *raw, double *x, sp_predict_info *info) {
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

double *sp__model_normalized(const sp_model *m, const double *raw, double *stack,
                             sp_predict_info *info) {
  double *x = m->ncounters <= SP_NORM_STACK ? stack : malloc(m->ncounters * sizeof(double));
  if (x) sp__model_normalize(m, raw, x, info);
  return x;
}

int sp__check_positive(const double *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!(isfinite(v[i]) && v[i] > 0)) return SP_ENUMERIC;
  return SP_OK;
}

int sp_model_set_name(sp_model *m, const char *name) { return sp__set_string(&m->name, name); }

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
int sp_model_counter_range(const sp_model *m, size_t c, double *min, double *max) {
  if (c >= m->ncounters) return SP_ENOTFOUND;
  *min = m->cmin[c];
  *max = m->cmax[c];
  return SP_OK;
}

size_t sp_model_kernel_count(const sp_model *m) { return m->ntrain; }
const char *sp_model_kernel_name(const sp_model *m, size_t k) {
  return k < m->ntrain ? m->train_kernels[k] : NULL;
}
int sp_model_trained_on(const sp_model *m, const char *kernel) {
  for (size_t k = 0; k < m->ntrain; k++)
    if (!strcmp(m->train_kernels[k], kernel)) return 1;
  return 0;
}

size_t sp_model_config_count(const sp_model *m, sp_quantity q) {
  return sp__model_check_quantity(m, q) ? 0 : sp__grid_size(&m->sub[q].grid);
}

sp_config sp_model_config_at(const sp_model *m, sp_quantity q, size_t i) {
  return sp__grid_config(&m->sub[q].grid, i);
}

size_t sp_model_config_index(const sp_model *m, sp_quantity q, const sp_config *cfg) {
  sp_grid_point p;
  if (sp__model_check_quantity(m, q) || sp__grid_locate(&m->sub[q].grid, cfg, &p)) return NOT_FOUND;
  return sp__grid_flat(&m->sub[q].grid, &p);
}

/* ---- methods ------------------------------------------------------------- */

int sp__model_add_method(sp_model *m, const sp_method_type *type, void *state) {
  if (m->nmethods == SP_MODEL_MAX_METHODS) {
    if (type->free) type->free(state);
    return SP_EINVAL;
  }
  m->methods[m->nmethods] = (sp_method_slot){.type = type, .state = state};
  m->recommended = m->in_use = m->nmethods++;
  return SP_OK;
}

const sp_method_slot *sp__model_slot(const sp_model *m, const char *name) {
  for (size_t i = 0; i < m->nmethods; i++)
    if (!strcmp(m->methods[i].type->name, name)) return &m->methods[i];
  return NULL;
}

sp_method_context sp__model_method_context_at(const sp_model *m, size_t b) {
  return (sp_method_context){
      (const char *const *)m->counter_names,
      m->ncounters,
      b ? m->bases[b] : m->base,
      {&m->sub[SP_TIME].grid, m->sub[SP_POWER].present ? &m->sub[SP_POWER].grid : NULL},
      m->memory,
      m->nmemory};
}

sp_method_context sp__model_method_context(const sp_model *m) {
  return sp__model_method_context_at(m, 0);
}

size_t sp__model_base_index(const sp_model *m, const sp_config *cfg) {
  if (cfg->cu == 0 || sp_config_equal(cfg, &m->base)) return 0;
  for (size_t b = 1; b < m->nbases; b++)
    if (sp_config_equal(cfg, &m->bases[b])) return b;
  return NOT_FOUND;
}

const void *sp__slot_state(const sp_method_slot *s, size_t b) {
  if (b == 0) return s->state;
  return b < SP_MODEL_MAX_BASES ? s->at[b] : NULL;
}

/* ---- bases and memory systems -------------------------------------------- */

size_t sp_model_base_count(const sp_model *m) { return m->nbases ? m->nbases : 1; }

sp_config sp_model_base_at(const sp_model *m, size_t i) {
  return i == 0 || i >= m->nbases ? m->base : m->bases[i];
}

size_t sp_model_base_kernels(const sp_model *m, size_t i) {
  return i == 0 ? m->ntrain : i < m->nbases ? m->base_ntrain[i] : 0;
}

int sp_model_method_at(const sp_model *m, const char *method, const sp_config *base) {
  const sp_method_slot *s = sp__model_slot(m, method ? method : sp_model_method(m));
  size_t b = sp__model_base_index(m, base);
  return s && b != NOT_FOUND && (b == 0 || sp__slot_state(s, b) != NULL);
}

size_t sp_model_memory_count(const sp_model *m) { return m->nmemory; }

const sp_memory_system *sp_model_memory_at(const sp_model *m, size_t i) {
  return i < m->nmemory ? &m->memory[i] : NULL;
}

const sp_memory_system *sp_model_memory_of(const sp_model *m, int memory_mhz) {
  for (size_t i = 0; i < m->nmemory; i++)
    if (m->memory[i].memory_mhz == memory_mhz) return &m->memory[i];
  return NULL;
}

size_t sp_model_method_count(const sp_model *m) { return m->nmethods; }

const char *sp_model_method_name(const sp_model *m, size_t i) {
  return i < m->nmethods ? m->methods[i].type->name : NULL;
}

const char *sp_model_recommended_method(const sp_model *m) {
  return m->methods[m->recommended].type->name;
}

const char *sp_model_method(const sp_model *m) { return m->methods[m->in_use].type->name; }

double sp_model_expected_error(const sp_model *m) {
  const sp_method_slot *s = &m->methods[m->in_use];
  return s->type->expected_error ? s->type->expected_error(s->state) : NAN;
}

int sp_model_floor_power(const sp_model *m, const sp_config *c, double *watts) {
  const sp_method_slot *s = &m->methods[m->in_use];
  return s->type->floor_power ? s->type->floor_power(s->state, c, watts) : SP_ENOTFOUND;
}

int sp_model_use_method(sp_model *m, const char *name) {
  const sp_method_slot *s = sp__model_slot(m, name);
  if (!s) return SP_ENOTFOUND;
  m->in_use = (size_t)(s - m->methods);
  return SP_OK;
}
