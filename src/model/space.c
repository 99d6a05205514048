/* SPDX-License-Identifier: GPL-3.0-or-later */
/* space.c: configuration spaces and log-linear refinement between clocks. */
#include "space.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util/status.h"

/* A space larger than this would not fit the per-kernel workspaces of a
 * typical machine many times over; it is almost certainly a typo. */
#define SPACE_MAX_CONFIGS ((size_t)20000000)

/* Refined values of one clock axis: N-1 clocks between neighbours. */
static int refine_axis(const int *v, size_t n, unsigned interp, int **out, size_t *nout,
                       sp_error *err) {
  for (size_t j = 0; j + 1 < n; j++)
    if ((unsigned)(v[j + 1] - v[j]) < interp)
      return sp__fail(err, SP_EINVAL, NULL, 0, 0, "grid-interp",
                      "%u steps between the clocks %d and %d MHz would repeat "
                      "clocks; use at most %d",
                      interp, v[j], v[j + 1], v[j + 1] - v[j]);
  size_t m = n ? (n - 1) * interp + 1 : 0;
  int *r = malloc((m ? m : 1) * sizeof *r);
  if (!r) return sp__oom(err);
  for (size_t j = 0; j + 1 < n; j++)
    for (unsigned s = 0; s < interp; s++)
      r[j * interp + s] = (int)lround(v[j] + (double)s * (v[j + 1] - v[j]) / (double)interp);
  if (n) r[m - 1] = v[n - 1];
  *out = r;
  *nout = m;
  return SP_OK;
}

/* Where each refined value lies between the coarse values. */
static sp_space_pos *locate_axis(const int *coarse, size_t nc, const int *fine, size_t nf) {
  sp_space_pos *p = malloc((nf ? nf : 1) * sizeof *p);
  if (!p) return NULL;
  size_t lo = 0;
  for (size_t i = 0; i < nf; i++) {
    while (lo + 1 < nc && coarse[lo + 1] <= fine[i]) lo++;
    p[i].lo = lo;
    p[i].w = 0.0;
    if (lo + 1 < nc && fine[i] != coarse[lo])
      p[i].w = log((double)fine[i] / coarse[lo]) / log((double)coarse[lo + 1] / coarse[lo]);
  }
  return p;
}

static int build_axes(sp_space *s, sp_error *err) {
  const sp_grid *g = s->coarse;
  int *v[3] = {NULL, NULL, NULL};
  size_t n[3] = {g->n[0], 0, 0};
  v[0] = malloc((n[0] ? n[0] : 1) * sizeof(int));
  if (!v[0]) return sp__oom(err);
  memcpy(v[0], g->v[0], n[0] * sizeof(int));
  int st = SP_OK;
  for (int a = 1; a < 3 && !st; a++)
    st = refine_axis(g->v[a], g->n[a], s->interp, &v[a], &n[a], err);
  if (!st && (double)n[0] * n[1] * n[2] > (double)SPACE_MAX_CONFIGS)
    st = sp__fail(err, SP_EINVAL, NULL, 0, 0, "grid-interp",
                  "%zu x %zu x %zu configurations exceed the limit of %zu", n[0], n[1], n[2],
                  SPACE_MAX_CONFIGS);
  if (!st && sp__grid_init(&s->grid, n, (const int *const *)v)) st = sp__oom(err);
  for (int a = 0; a < 3; a++) free(v[a]);
  for (int a = 0; a < 3 && !st; a++) {
    s->pos[a] = locate_axis(g->v[a], g->n[a], s->grid.v[a], s->grid.n[a]);
    if (!s->pos[a]) st = sp__oom(err);
  }
  return st;
}

/* Maps the time grid onto the power grid, which may be smaller. */
static int build_power_map(sp_space *s) {
  const sp_model *m = s->model;
  s->has_power = m->sub[SP_POWER].present;
  if (!s->has_power) return SP_OK;
  s->power_map = malloc(s->ncoarse * sizeof *s->power_map);
  s->raw = malloc(sp__grid_size(&m->sub[SP_POWER].grid) * sizeof(double));
  if (!s->power_map || !s->raw) return SP_ENOMEM;
  for (size_t i = 0; i < s->ncoarse; i++) {
    sp_config c = sp__grid_config(s->coarse, i);
    s->power_map[i] = sp_model_config_index(m, SP_POWER, &c);
  }
  return SP_OK;
}

int sp__space_init(sp_space *s, const sp_model *m, unsigned interp, sp_error *err) {
  memset(s, 0, sizeof *s);
  if (interp == 0)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "grid-interp",
                    "must be at least 1 (1 = the model's grid)");
  s->model = m;
  s->interp = interp;
  s->coarse = &m->sub[SP_TIME].grid;
  s->ncoarse = sp__grid_size(s->coarse);
  int st = build_axes(s, err);
  if (st) {
    sp__space_free(s);
    return st;
  }
  s->n = sp__grid_size(&s->grid);
  s->ct = malloc(s->ncoarse * sizeof(double));
  s->cp = malloc(s->ncoarse * sizeof(double));
  s->row = malloc((s->coarse->n[2] + 1) * sizeof(double));
  if (!s->ct || !s->cp || !s->row || build_power_map(s)) {
    sp__space_free(s);
    return sp__oom(err);
  }
  return SP_OK;
}

void sp__space_free(sp_space *s) {
  if (!s) return;
  sp__grid_free(&s->grid);
  for (int a = 0; a < 3; a++) free(s->pos[a]);
  free(s->power_map);
  free(s->ct);
  free(s->cp);
  free(s->raw);
  free(s->row);
  memset(s, 0, sizeof *s);
}

sp_config sp__space_config(const sp_space *s, size_t i) { return sp__grid_config(&s->grid, i); }

size_t sp__space_index(const sp_space *s, const sp_config *cfg) {
  sp_grid_point p;
  if (sp__grid_locate(&s->grid, cfg, &p)) return SP_NO_CONFIG;
  return sp__grid_flat(&s->grid, &p);
}

static size_t nearest_on_axis(const int *v, size_t n, int x) {
  size_t best = 0;
  for (size_t i = 1; i < n; i++)
    if (fabs(log((double)v[i] / x)) < fabs(log((double)v[best] / x))) best = i;
  return best;
}

size_t sp__space_nearest(const sp_space *s, const sp_config *cfg) {
  const int x[3] = {cfg->cu, cfg->engine_mhz, cfg->memory_mhz};
  sp_grid_point p;
  for (int a = 0; a < 3; a++)
    p.i[a] = nearest_on_axis(s->grid.v[a], s->grid.n[a], x[a] > 0 ? x[a] : 1);
  return sp__grid_flat(&s->grid, &p);
}

/* Refines coarse values (time-grid order) into out (space order). */
static void refine_values(sp_space *s, double *coarse, double *out) {
  const size_t cne = s->coarse->n[1], cnm = s->coarse->n[2];
  const size_t ne = s->grid.n[1], nm = s->grid.n[2];
  for (size_t i = 0; i < s->ncoarse; i++) coarse[i] = log(coarse[i]);
  double *r = s->row;
  for (size_t ic = 0; ic < s->grid.n[0]; ic++)
    for (size_t fe = 0; fe < ne; fe++) {
      const sp_space_pos pe = s->pos[1][fe];
      const double *a = coarse + (ic * cne + pe.lo) * cnm;
      const double *b = pe.w > 0 ? a + cnm : a;
      for (size_t im = 0; im < cnm; im++) r[im] = a[im] + pe.w * (b[im] - a[im]);
      double *o = out + (ic * ne + fe) * nm;
      for (size_t fm = 0; fm < nm; fm++) {
        const sp_space_pos pm = s->pos[2][fm];
        double v = r[pm.lo];
        if (pm.w > 0) v += pm.w * (r[pm.lo + 1] - v);
        o[fm] = exp(v);
      }
    }
}

static void fill_nan(double *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = NAN;
}

static int predict_power(sp_space *s, const sp_observation *obs) {
  if (!s->has_power || isnan(obs->base_power_w)) return SP_ENOPOWER;
  int st = sp_model_predict_all(s->model, SP_POWER, obs, s->raw, NULL);
  if (st) return st;
  for (size_t i = 0; i < s->ncoarse; i++)
    s->cp[i] = s->power_map[i] == SP_NO_CONFIG ? NAN : s->raw[s->power_map[i]];
  return SP_OK;
}

/* Why obs cannot be predicted; for a numerical failure, the first
 * configuration of the model's grid of q whose value in v is not a positive
 * finite number (a method fills its output before it is checked). */
static int predict_failed(const sp_space *s, sp_quantity q, const double *v,
                          const sp_observation *obs, int st, sp_error *err) {
  size_t n = sp_model_config_count(s->model, q), i = 0;
  while (st == SP_ENUMERIC && i < n && isfinite(v[i]) && v[i] > 0) i++;
  if (st != SP_ENUMERIC || i == n)
    return sp__fail(err, st, NULL, 0, 0, "kernel", "kernel '%s' cannot be predicted: %s",
                    obs->kernel, sp_strerror(st));
  char cfg[64];
  sp_config c = sp_model_config_at(s->model, q, i);
  sp_config_format(&c, cfg, sizeof cfg);
  return sp__fail(err, st, NULL, 0, 0, "kernel",
                  "kernel '%s': its predicted %s at %s is not a positive finite number "
                  "(numerical failure: the model's scaling values or the kernel's base "
                  "measurements are extreme)",
                  obs->kernel, q == SP_TIME ? "time" : "power", cfg);
}

int sp__space_predict(sp_space *s, const sp_observation *obs, double *t, double *p,
                      sp_predict_info *info, sp_error *err) {
  int st = sp_model_predict_all(s->model, SP_TIME, obs, s->ct, info);
  if (st) return predict_failed(s, SP_TIME, s->ct, obs, st, err);
  /* No power (no power model, none measured at the base) leaves NaN; power
   * that overflows is a failure, as time's is. */
  st = p ? predict_power(s, obs) : SP_ENOPOWER;
  if (st == SP_ENUMERIC) return predict_failed(s, SP_POWER, s->raw, obs, st, err);
  int power = st == SP_OK;
  if (s->interp == 1) {
    memcpy(t, s->ct, s->n * sizeof *t);
    if (power) memcpy(p, s->cp, s->n * sizeof *p);
  } else {
    refine_values(s, s->ct, t);
    if (power) refine_values(s, s->cp, p);
  }
  if (p && !power) fill_nan(p, s->n);
  return SP_OK;
}

size_t sp__space_measured(const sp_space *s, const sp_dataset *ds, size_t k, sp_quantity q,
                          double *out) {
  size_t found = 0;
  for (size_t i = 0; i < s->n; i++) {
    sp_config c = sp__space_config(s, i);
    int st =
        q == SP_TIME ? sp_dataset_time(ds, k, &c, &out[i]) : sp_dataset_power(ds, k, &c, &out[i]);
    if (st)
      out[i] = NAN;
    else
      found++;
  }
  return found;
}
