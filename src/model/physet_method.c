/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_method.c: the physet method's type for the table of method.h. */
#include "method.h"
#include "physet.h"
#include "physet_file.h"
#include "physet_fit.h"

static int physet_fit(const sp_method_data *d, const sp_train_params *p, void **state,
                      sp_error *err) {
  sp_physet_params pp;
  sp__physet_params_init(&pp);
  pp.floor_kernel = p->floor_kernel;
  pp.forest.seed = p->seed;
  if (p->trees) pp.forest.trees = p->trees;
  pp.point_median = p->physet_median != 0;
  pp.line = p->physet_line != 0;
  sp_physet_data pd = {d->ds,
                       d->kernels,
                       d->n,
                       d->ctx.base,
                       {d->ctx.grid[0], d->ctx.grid[1]},
                       d->ctx.nmemory ? d->ctx.memory : NULL};
  sp_physet *ps = NULL;
  int st = sp__physet_fit(&pd, &pp, &ps, err);
  *state = ps;
  return st;
}

static int physet_predict(const sp_model *m, const void *state, sp_quantity q,
                          const sp_observation *obs, double *out) {
  (void)m;
  return sp__physet_predict(state, q, obs, out, NULL, NULL);
}

static int physet_interval(const sp_model *m, const void *state, sp_quantity q,
                           const sp_observation *obs, double *out, double *lo, double *hi) {
  (void)m;
  return sp__physet_predict(state, q, obs, out, lo, hi);
}

static double physet_novelty(const void *state, const sp_observation *obs) {
  return sp__physet_novelty(state, obs);
}

static int physet_save(const void *state, const char *path, sp_error *err) {
  return sp__physet_save(state, path, err);
}

static int physet_load(const sp_method_context *ctx, const char *path, void **state,
                       sp_error *err) {
  sp_physet *ps = NULL;
  int st = sp__physet_load(path, ctx->counter_names, ctx->ncounters, &ctx->base, ctx->grid,
                           ctx->nmemory ? ctx->memory : NULL, &ps, err);
  *state = ps;
  return st;
}

static void physet_free(void *state) { sp__physet_free(state); }

static int physet_floor(const void *state, const sp_config *c, double *watts) {
  return sp__physet_floor_at(state, c, watts);
}

const sp_method_type sp__method_physet = {
    .name = "physet",
    .needs = SP_NEEDS_COUNTERS | SP_USES_MEASURED | SP_USES_FLOOR | SP_PER_BASE,
    .fit = physet_fit,
    .predict = physet_predict,
    .save = physet_save,
    .load = physet_load,
    .free = physet_free,
    .predict_interval = physet_interval,
    .novelty = physet_novelty,
    .floor_power = physet_floor,
};
