/* SPDX-License-Identifier: GPL-3.0-or-later */
/* predict.c: prediction with the method a model has in use (method.h), and
 * the observations it predicts from. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/dataset.h"
#include "model.h"
#include "util/status.h"

static int base_value(sp_quantity q, const sp_observation *obs, double *v) {
  *v = q == SP_TIME ? obs->base_time_ms : obs->base_power_w;
  if (q == SP_POWER && isnan(*v)) return SP_ENOPOWER;
  return isfinite(*v) && *v > 0 ? SP_OK : SP_EINVAL;
}

/* The state of the method in use at the observation's base, through
 * *state: SP_EGRID for a base that is not the model's, SP_ENOTFOUND when
 * the method was not fitted there. */
static int base_state(const sp_model *m, const sp_observation *obs, const void **state) {
  size_t b = sp__model_base_index(m, &obs->base);
  if (b == (size_t)-1) return SP_EGRID;
  const sp_method_slot *s = &m->methods[m->in_use];
  *state = sp__slot_state(s, b);
  return b && !*state ? SP_ENOTFOUND : SP_OK;
}

/* The arguments every method shares. */
static int check_observation(const sp_model *m, sp_quantity q, const sp_observation *obs) {
  double v;
  const void *state;
  int st = sp__model_check_quantity(m, q);
  if (!st) st = base_state(m, obs, &state);
  if (m->methods[m->in_use].type->needs & SP_PREDICTS_BASE) return st;
  return st ? st : base_value(q, obs, &v);
}

/* Fills info (when not NULL) with the counters outside the training range,
 * whatever the method in use does with them, and the kernel's novelty.
 * The range is that of the model's base: at a further base, where no
 * method clamps counters, the novelty alone tells. */
static int report_clamped(const sp_model *m, const sp_observation *obs, sp_predict_info *info) {
  if (!info) return SP_OK;
  const void *state;
  int st = base_state(m, obs, &state);
  if (st) return st;
  if (sp__model_base_index(m, &obs->base) == 0) {
    double stack[SP_NORM_STACK];
    double *x = sp__model_normalized(m, obs->counters, stack, info);
    if (!x) return SP_ENOMEM;
    if (x != stack) free(x);
  } else {
    memset(info, 0, sizeof *info);
  }
  const sp_method_slot *s = &m->methods[m->in_use];
  info->novelty = s->type->novelty ? s->type->novelty(state, obs) : NAN;
  info->outside = info->clamped > 0 || info->novelty > 1;
  return SP_OK;
}

/* The method in use over the whole grid of q (the observation checked). */
static int predict_grid(const sp_model *m, sp_quantity q, const sp_observation *obs, double *out) {
  const sp_method_slot *s = &m->methods[m->in_use];
  const void *state;
  int st = base_state(m, obs, &state);
  if (!st) st = s->type->predict(m, state, q, obs, out);
  return st ? st : sp__check_positive(out, sp__grid_size(&m->sub[q].grid));
}

int sp_model_predict_all(const sp_model *m, sp_quantity q, const sp_observation *obs, double *out,
                         sp_predict_info *info) {
  int st = check_observation(m, q, obs);
  if (!st) st = report_clamped(m, obs, info);
  return st ? st : predict_grid(m, q, obs, out);
}

int sp_model_predict_interval(const sp_model *m, sp_quantity q, const sp_observation *obs,
                              double *out, double *lo, double *hi, sp_predict_info *info) {
  const sp_method_slot *s = &m->methods[m->in_use];
  if (!s->type->predict_interval) {
    int st = sp_model_predict_all(m, q, obs, out, info);
    for (size_t i = 0; !st && i < sp__grid_size(&m->sub[q].grid); i++) lo[i] = hi[i] = NAN;
    return st;
  }
  const void *state = NULL;
  int st = check_observation(m, q, obs);
  if (!st) st = report_clamped(m, obs, info);
  if (!st) st = base_state(m, obs, &state);
  if (!st) st = s->type->predict_interval(m, state, q, obs, out, lo, hi);
  return st ? st : sp__check_positive(out, sp__grid_size(&m->sub[q].grid));
}

int sp_model_predict(const sp_model *m, sp_quantity q, const sp_observation *obs,
                     const sp_config *target, double *out, sp_predict_info *info) {
  int st = check_observation(m, q, obs);
  if (st) return st;
  const sp_submodel *sub = &m->sub[q];
  sp_grid_point t;
  if (sp__grid_locate(&sub->grid, target, &t)) return SP_EGRID;
  st = report_clamped(m, obs, info);
  if (st) return st;
  const sp_method_slot *s = &m->methods[m->in_use];
  const void *state;
  if ((st = base_state(m, obs, &state))) return st;
  if (s->type->predict_at) return s->type->predict_at(m, state, q, obs, &t, out);
  double *all = malloc(sp__grid_size(&sub->grid) * sizeof *all);
  if (!all) return SP_ENOMEM;
  st = predict_grid(m, q, obs, all);
  if (!st) *out = all[sp__grid_flat(&sub->grid, &t)];
  free(all);
  return st;
}

int sp_model_observable(const sp_model *m, const sp_dataset *ds, size_t k, const sp_config *base) {
  const sp_config *b = base ? base : &m->base;
  double t;
  const double *row;
  if (sp_dataset_time(ds, k, b, &t) || !ds->counters_path || sp_dataset_counters(ds, k, b, &row))
    return 0;
  for (size_t c = 0; c < m->ncounters; c++) {
    size_t j = 0;
    while (j < ds->ncounters && strcmp(ds->counter_names[j], m->counter_names[c])) j++;
    if (j == ds->ncounters || isnan(row[j])) return 0;
  }
  return 1;
}

int sp_model_observe_at(const sp_model *m, const sp_dataset *ds, size_t k, const sp_config *base,
                        double *counters, sp_observation *obs, sp_error *err) {
  const sp_config *b = base ? base : &m->base;
  char cfg[64];
  sp_config_format(b, cfg, sizeof cfg);
  memset(obs, 0, sizeof *obs);
  obs->kernel = sp_dataset_kernel_name(ds, k);
  obs->counters = counters;
  obs->base_power_w = NAN;
  if (base) obs->base = *base;
  if (sp_dataset_time(ds, k, b, &obs->base_time_ms))
    return sp__fail(err, SP_ENOTFOUND, ds->runs_path, 0, 0, "kernel",
                    "kernel '%s' has no row at the base configuration %s", obs->kernel, cfg);
  (void)sp_dataset_power(ds, k, b, &obs->base_power_w);
  const double *row;
  if (!ds->counters_path || sp_dataset_counters(ds, k, b, &row))
    return sp__fail(err, SP_ENOTFOUND, ds->counters_path, 0, 0, "kernel",
                    "kernel '%s' has no counters at the base configuration %s", obs->kernel, cfg);
  for (size_t c = 0; c < m->ncounters; c++) {
    size_t j = 0;
    while (j < ds->ncounters && strcmp(ds->counter_names[j], m->counter_names[c])) j++;
    if (j == ds->ncounters)
      return sp__fail(err, SP_ENOTFOUND, ds->counters_path, 1, 0, m->counter_names[c],
                      "counter required by the model is missing from the header");
    counters[c] = row[j];
    if (isnan(counters[c]))
      return sp__fail(err, SP_ENOTFOUND, ds->counters_path, 0, 0, m->counter_names[c],
                      "kernel '%s' has no value for this counter at the base "
                      "configuration %s (empty field)",
                      obs->kernel, cfg);
  }
  return SP_OK;
}

int sp_model_observe(const sp_model *m, const sp_dataset *ds, size_t k, double *counters,
                     sp_observation *obs, sp_error *err) {
  return sp_model_observe_at(m, ds, k, NULL, counters, obs, err);
}

size_t sp_model_observe_more(const sp_model *m, const sp_dataset *ds, size_t k,
                             const sp_config *cfgs, size_t n, sp_config *cfg, double *time_ms,
                             double *power_w, sp_observation *obs) {
  size_t used = 0;
  const sp_config *base = obs->base.cu ? &obs->base : &m->base;
  for (size_t i = 0; i < n; i++) {
    if (sp_config_equal(&cfgs[i], base) || sp_dataset_time(ds, k, &cfgs[i], &time_ms[used]))
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
