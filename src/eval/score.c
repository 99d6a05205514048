/* SPDX-License-Identifier: GPL-3.0-or-later */
/* score.c: how a job scores one quantity: every requested method of the
 * method table (method-rows.c), in the table's order, on every held-out
 * kernel.  A job's per-quantity cache (surfaces, normalized counters, the
 * baselines' fits) is built once and serves every cluster count; the
 * methods that use no clusters are scored with the first cluster count
 * only.  A compared method (and wu2015) is scored by its sp_compare
 * (compare.c); a method a model carries besides wu2015 (physet, static) is
 * fitted by sp_model_train and scored through the model's method type
 * (model/method.h). */
#include "score.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "data/dataset.h"
#include "method-rows.h"
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

static int wants(const sp_eval_job *j, sp_method m) { return (j->p->methods >> m) & 1u; }

/* The fits the wanted methods need of the cache (SP_CACHE_*). */
static unsigned wanted_cache(const sp_eval_job *j) {
  unsigned needs = 0;
  for (size_t i = 0; i < sp__eval_nrows; i++) {
    const sp_eval_row *e = &sp__eval_rows[i];
    if (wants(j, e->id) && e->compare) needs |= e->compare->cache;
  }
  return needs;
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

/* A baseline's failed fit of the shared cache `cache` (compare.h), which
 * ends the whole evaluation: what failed, with the --methods list that
 * leaves out the methods reading that cache, so that the user can go on
 * with the others without working out what was asked for. */
static int method_failed(sp_eval_job *j, unsigned cache, const char *what) {
  char rest[256] = "";
  size_t len = 0;
  for (size_t i = 0; i < sp__eval_nrows; i++) {
    const sp_eval_row *e = &sp__eval_rows[i];
    if (!wants(j, e->id) || (e->compare && e->compare->cache & cache)) continue;
    len += (size_t)snprintf(rest + len, sizeof rest - len, "%s%s", len ? "," : "", e->name);
    assert(len < sizeof rest);
  }
  return sp__fail(&j->err, SP_ENUMERIC, NULL, 0, 0, NULL, "%s (degenerate counters)%s%s", what,
                  len ? "; go on without it: --methods " : "", rest);
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
  const unsigned needs = wanted_cache(j);
  if (needs & SP_CACHE_RIDGE && sp__ridge_fit(&c->bd, &c->ridge))
    return method_failed(j, SP_CACHE_RIDGE, "the linear baseline's ridge fit failed");
  if (needs & SP_CACHE_MIX && fit_mix(c, &s->grid, &s->base, q))
    return method_failed(j, SP_CACHE_MIX, "the mix method's share regression failed");
  if (needs & SP_CACHE_STACK) {
    sp_stack_data sd = {&c->bd, &c->zd, c->shares, c->basis};
    int st = sp__stack_weights_loo(&sd, c->base_flat, c->stack_w);
    if (!st) st = sp__stack_fit_members(&sd, &c->stack);
    if (st == SP_ENOMEM) return st;
    if (st) return method_failed(j, SP_CACHE_STACK, "the stack method's leave-one-out fits failed");
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
    for (size_t i = 0; i < sp__eval_nrows && !st; i++) {
      const sp_eval_row *e = &sp__eval_rows[i];
      const int clustered = (e->flags & SP_METHOD_FLAG_CLUSTERED) != 0;
      if (!wants(j, e->id) || (!clustered && !first_count)) continue;
      /* A carried method: through the model's type, when it was fitted. */
      const sp_method_slot *slot = e->compare ? NULL : sp__model_slot(m, e->name);
      if (!e->compare && !slot) continue;
      int none = 0;
      st = slot ? score_carried(j, m, q, slot, kernel, j->pred, &none)
                : e->compare->score(j, m, q, c, kernel, j->pred, &none);
      const int skip_extra = slot && slot->type->needs & SP_USES_MEASURED;
      if (!st && !none)
        st = emit(j, e->id, q, clustered ? nclusters : 0, kernel, c, &m->sub[q].grid, j->pred,
                  slot != NULL, skip_extra);
    }
  }
  if (st && !j->err.status) sp__fail(&j->err, st, NULL, 0, 0, NULL, "out of memory");
  return st;
}
