/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dse.c: design-space exploration of a workload over a configuration space:
 * best configurations per objective, Pareto fronts, sensitivity and the
 * ranking of candidate products. */
#include "dse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"
#include "model/space.h"
#include "util/status.h"

static const char *const objective_names[SP_DSE_OBJECTIVE_COUNT] = {
    "min-time", "min-energy", "min-edp", "min-ed2p", "min-time-capped", "min-energy-budget"};

const char *sp_dse_objective_name(int o) {
  return o >= 0 && o < SP_DSE_OBJECTIVE_COUNT ? objective_names[o] : NULL;
}

int sp_dse_objective_parse(const char *name) {
  static const char *const short_names[] = {"time", "energy", "edp", "ed2p"};
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++)
    if (!strcmp(name, objective_names[o])) return o;
  for (int o = 0; o < 4; o++)
    if (!strcmp(name, short_names[o])) return o;
  return -1;
}

const char *sp_dse_bound_name(int b) {
  static const char *const names[] = {"neither", "compute-bound", "bandwidth-bound",
                                      "undetermined"};
  return b >= 0 && b <= SP_DSE_UNDETERMINED ? names[b] : NULL;
}

void sp_dse_params_init(sp_dse_params *p) {
  memset(p, 0, sizeof *p);
  p->grid_interp = 1;
  p->rank_by = SP_DSE_MIN_EDP;
  p->bound_elasticity = 0.5;
  p->bound_dominance = 1.5;
}

double sp__dse_score(const sp_dse_choice *c, int objective) {
  switch (objective) {
    case SP_DSE_MIN_TIME:
    case SP_DSE_MIN_TIME_CAPPED:
      return c->time_ms;
    case SP_DSE_MIN_ENERGY:
    case SP_DSE_MIN_ENERGY_BUDGET:
      return c->energy_mj;
    case SP_DSE_MIN_EDP:
      return c->energy_mj * c->time_ms;
    default:
      return c->energy_mj * c->time_ms * c->time_ms;
  }
}

const char *sp__dse_score_unit(int objective) {
  static const char *const units[SP_DSE_OBJECTIVE_COUNT] = {"ms",      "mJ", "mJ*ms",
                                                            "mJ*ms^2", "ms", "mJ"};
  return objective >= 0 && objective < SP_DSE_OBJECTIVE_COUNT ? units[objective] : "";
}

size_t sp__dse_along(const sp_dse_result *r, size_t i, int axis, size_t j) {
  size_t stride = 1;
  for (int a = 2; a > axis; a--) stride *= r->naxis[a];
  size_t at = (i / stride) % r->naxis[axis];
  return i - at * stride + j * stride;
}

/* ---- values over a space: one kernel, or the workload -------------------- */

/* time, energy and peak power at every configuration; power is energy/time. */
typedef struct values {
  size_t n;
  const double *t, *e, *peak;
} values;

static sp_dse_choice choice_at(const values *v, size_t i) {
  sp_dse_choice c = {i, NAN, NAN, NAN, NAN};
  if (i == SP_NO_CONFIG) return c;
  c.time_ms = v->t[i];
  c.energy_mj = v->e[i];
  c.avg_power_w = v->e[i] / v->t[i];
  c.peak_power_w = v->peak[i];
  return c;
}

/* Limits that the constrained objectives respect (infinite when unset). */
typedef struct limits {
  double power_w, time_ms;
} limits;

static int feasible(const values *v, size_t i, int objective, const limits *l) {
  if (objective == SP_DSE_MIN_TIME_CAPPED) return v->peak[i] <= l->power_w;
  if (objective == SP_DSE_MIN_ENERGY_BUDGET) return v->t[i] <= l->time_ms;
  return 1;
}

static size_t best_index(const values *v, int objective, const limits *l) {
  size_t best = SP_NO_CONFIG;
  double best_score = INFINITY;
  for (size_t i = 0; i < v->n; i++) {
    if (!feasible(v, i, objective, l)) continue;
    sp_dse_choice c = choice_at(v, i);
    double s = sp__dse_score(&c, objective);
    if (s < best_score) {
      best_score = s;
      best = i;
    }
  }
  return best;
}

static void best_all(const values *v, const sp_dse_params *p, const limits *l,
                     sp_dse_choice *best) {
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++) {
    int unset = (o == SP_DSE_MIN_TIME_CAPPED && !(p->power_cap_w > 0)) ||
                (o == SP_DSE_MIN_ENERGY_BUDGET && !(p->time_budget > 0));
    best[o] = choice_at(v, unset ? SP_NO_CONFIG : best_index(v, o, l));
  }
}

/* ---- sensitivity ---------------------------------------------------------- */

static double elasticity(const sp_dse_result *r, double (*get)(const values *, size_t),
                         const values *v, int axis) {
  size_t n = r->naxis[axis];
  if (n < 2) return NAN;
  size_t lo = sp__dse_along(r, r->reference, axis, 0);
  size_t hi = sp__dse_along(r, r->reference, axis, n - 1);
  return log(get(v, hi) / get(v, lo)) / log((double)r->axis[axis][n - 1] / r->axis[axis][0]);
}

static double get_time(const values *v, size_t i) { return v->t[i]; }
static double get_energy(const values *v, size_t i) { return v->e[i]; }
static double get_power(const values *v, size_t i) { return v->e[i] / v->t[i]; }

/* A clock with one value in the grid has no elasticity (NaN): the class
 * compares the two clocks, so without either there is no evidence for one. */
static sp_dse_bound classify(const double *time_el, const sp_dse_params *p) {
  double e = -time_el[SP_AXIS_ENGINE], m = -time_el[SP_AXIS_MEMORY];
  if (isnan(e) || isnan(m)) return SP_DSE_UNDETERMINED;
  if (e >= p->bound_elasticity && e >= p->bound_dominance * m) return SP_DSE_COMPUTE_BOUND;
  if (m >= p->bound_elasticity && m >= p->bound_dominance * e) return SP_DSE_BANDWIDTH_BOUND;
  return SP_DSE_NEITHER;
}

static void sensitivity(const sp_dse_result *r, const values *v, sp_dse_sensitivity *s) {
  for (int a = 0; a < 3; a++) {
    s->time[a] = elasticity(r, get_time, v, a);
    s->power[a] = elasticity(r, get_power, v, a);
    s->energy[a] = elasticity(r, get_energy, v, a);
  }
  s->bound = classify(s->time, &r->params);
}

/* ---- Pareto fronts ---------------------------------------------------------- */

typedef struct pt {
  double x, y;
  size_t i;
} pt;

static int cmp_pt(const void *a, const void *b) {
  const pt *p = a, *q = b;
  if (p->x != q->x) return p->x < q->x ? -1 : 1;
  if (p->y != q->y) return p->y < q->y ? -1 : 1;
  return p->i < q->i ? -1 : p->i > q->i;
}

/* Configurations no other beats on both time and y, by ascending time. */
static int pareto(const values *v, double (*y)(const values *, size_t), size_t **out, size_t *n) {
  pt *p = malloc(v->n * sizeof *p);
  size_t *front = malloc(v->n * sizeof *front);
  if (!p || !front) {
    free(p);
    free(front);
    return SP_ENOMEM;
  }
  for (size_t i = 0; i < v->n; i++) p[i] = (pt){v->t[i], y(v, i), i};
  qsort(p, v->n, sizeof *p, cmp_pt);
  size_t m = 0;
  double low = INFINITY;
  for (size_t i = 0; i < v->n; i++)
    if (p[i].y < low) {
      low = p[i].y;
      front[m++] = p[i].i;
    }
  free(p);
  *out = front;
  *n = m;
  return SP_OK;
}

/* ---- the result object ------------------------------------------------------ */

void sp_dse_result_free(sp_dse_result *r) {
  if (!r) return;
  free(r->model_name);
  free(r->model_source);
  free(r->configs);
  for (int a = 0; a < 3; a++) free(r->axis[a]);
  free(r->time_ms);
  free(r->energy_mj);
  free(r->peak_power_w);
  free(r->pareto_energy);
  free(r->pareto_power);
  for (size_t k = 0; k < r->nkernels; k++) {
    free(r->kernels[k].name);
    free(r->kernels[k].first_clamped);
  }
  free(r->kernels);
  for (size_t c = 0; c < r->ncandidates; c++) free(r->candidates[c].name);
  free(r->candidates);
  free(r);
}

size_t sp_dse_config_index(const sp_dse_result *r, const sp_config *cfg) {
  size_t idx[3];
  const int x[3] = {cfg->cu, cfg->engine_mhz, cfg->memory_mhz};
  for (int a = 0; a < 3; a++) {
    idx[a] = SP_NO_CONFIG;
    for (size_t j = 0; j < r->naxis[a]; j++)
      if (r->axis[a][j] == x[a]) idx[a] = j;
    if (idx[a] == SP_NO_CONFIG) return SP_NO_CONFIG;
  }
  return (idx[0] * r->naxis[1] + idx[1]) * r->naxis[2] + idx[2];
}

static values workload_values(const sp_dse_result *r) {
  values v = {r->nconfigs, r->time_ms, r->energy_mj, r->peak_power_w};
  return v;
}

sp_dse_choice sp_dse_at(const sp_dse_result *r, size_t i) {
  values v = workload_values(r);
  return choice_at(&v, i < r->nconfigs ? i : SP_NO_CONFIG);
}

static char *dup_or_empty(const char *s) { return strdup(s ? s : ""); }

static int result_alloc(const sp_model *m, const sp_space *s, const sp_dse_params *p,
                        sp_dse_result **out) {
  sp_dse_result *r = calloc(1, sizeof *r);
  if (!r) return SP_ENOMEM;
  *out = r;
  r->params = *p;
  r->params.weights_path = r->params.candidates_path = NULL;
  r->model_name = dup_or_empty(sp_model_name(m));
  r->model_source = dup_or_empty(sp_model_source(m));
  r->synthetic = sp_model_is_synthetic(m);
  r->nconfigs = s->n;
  r->configs = malloc(s->n * sizeof *r->configs);
  r->time_ms = calloc(s->n, sizeof(double));
  r->energy_mj = calloc(s->n, sizeof(double));
  r->peak_power_w = calloc(s->n, sizeof(double));
  int ok = r->model_name && r->model_source && r->configs && r->time_ms && r->energy_mj &&
           r->peak_power_w;
  for (int a = 0; a < 3 && ok; a++) {
    r->naxis[a] = s->grid.n[a];
    r->axis[a] = malloc(s->grid.n[a] * sizeof(int));
    ok = r->axis[a] != NULL;
    if (ok) memcpy(r->axis[a], s->grid.v[a], s->grid.n[a] * sizeof(int));
  }
  if (!ok) return SP_ENOMEM;
  for (size_t i = 0; i < s->n; i++) r->configs[i] = sp__space_config(s, i);
  return SP_OK;
}

/* ---- the run ------------------------------------------------------------------ */

typedef struct run {
  const sp_model *m;
  const sp_dataset *ds;
  const sp_dse_params *p;
  sp_dse_result *r;
  sp_space space;
  double *t, *pw, *e, *counters; /* per-kernel workspaces */
  sp_dse_weight *work;
  size_t nwork;
  sp_dse_named_config *cands;
  size_t ncands;
  sp_error *err;
} run;

static int fail_nomem(run *u) { return sp__oom(u->err); }

static int check_params(const sp_model *m, const sp_dse_params *p, sp_error *err) {
  if (!sp_model_has_power(m))
    return sp__fail(err, SP_ENOPOWER, NULL, 0, 0, NULL,
                    "the model has no power model; design-space exploration needs "
                    "predicted power for energy");
  if (p->power_cap_w < 0 || !isfinite(p->power_cap_w))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "power-cap", "must be a positive number of watts");
  if (p->time_budget < 0 || !isfinite(p->time_budget))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "time-budget",
                    "must be a positive factor of the reference time");
  if (!sp_dse_objective_name(p->rank_by))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "rank-by", "not an objective");
  if (!(p->bound_elasticity > 0) || !(p->bound_dominance >= 1))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "bound",
                    "bound_elasticity must be positive and bound_dominance at least 1");
  return SP_OK;
}

static int off_space(run *u, const char *what, const sp_config *c, sp_error *err) {
  char want[64], near[64];
  sp_config n = sp__space_config(&u->space, sp__space_nearest(&u->space, c));
  sp_config_format(c, want, sizeof want);
  sp_config_format(&n, near, sizeof near);
  return sp__fail(err, SP_EGRID, NULL, 0, 0, what,
                  "%s is not a configuration of the model's grid%s; the nearest is %s", want,
                  u->space.interp > 1 ? " as refined by --grid-interp" : "", near);
}

static int resolve_reference(run *u) {
  sp_config c = u->p->reference.cu ? u->p->reference : sp_model_base(u->m);
  u->r->reference = sp__space_index(&u->space, &c);
  if (u->r->reference == SP_NO_CONFIG) return off_space(u, "reference", &c, u->err);
  u->r->params.reference = c;
  return SP_OK;
}

static int load_workload(run *u) {
  if (u->p->weights_path)
    return sp__dse_read_weights(u->p->weights_path, u->ds, &u->work, &u->nwork, u->err);
  u->nwork = sp_dataset_kernel_count(u->ds);
  if (!u->nwork)
    return sp__fail(u->err, SP_EPARSE, sp_dataset_runs_path(u->ds), 0, 0, NULL,
                    "no kernels: the workload is empty");
  u->work = malloc(u->nwork * sizeof *u->work);
  if (!u->work) return fail_nomem(u);
  for (size_t k = 0; k < u->nwork; k++) u->work[k] = (sp_dse_weight){k, 1.0};
  return SP_OK;
}

static int alloc_workspaces(run *u) {
  size_t n = u->space.n;
  u->t = malloc(n * sizeof(double));
  u->pw = malloc(n * sizeof(double));
  u->e = malloc(n * sizeof(double));
  u->counters = malloc((sp_model_counter_count(u->m) + 1) * sizeof(double));
  u->r->kernels = calloc(u->nwork, sizeof *u->r->kernels);
  if (!u->t || !u->pw || !u->e || !u->counters || !u->r->kernels) return fail_nomem(u);
  return SP_OK;
}

static limits kernel_limits(const sp_dse_params *p, double ref_time) {
  limits l = {p->power_cap_w > 0 ? p->power_cap_w : INFINITY,
              p->time_budget > 0 ? p->time_budget * ref_time : INFINITY};
  return l;
}

/* Predicts one workload kernel and records what it alone would choose. */
static int predict_kernel(run *u, size_t w, sp_dse_kernel *out) {
  const sp_dse_weight *wk = &u->work[w];
  sp_observation obs;
  sp_predict_info info;
  int st = sp_model_observe(u->m, u->ds, wk->kernel, u->counters, &obs, u->err);
  if (st) return st;
  if (isnan(obs.base_power_w))
    return sp__fail(u->err, SP_ENOPOWER, sp_dataset_runs_path(u->ds), 0, 0, "power_w",
                    "kernel '%s' has no power at the base configuration; energy needs it",
                    obs.kernel);
  st = sp__space_predict(&u->space, &obs, u->t, u->pw, &info, u->err);
  if (st) {
    snprintf(u->err->file, sizeof u->err->file, "%.500s", sp_dataset_runs_path(u->ds));
    return st;
  }
  out->name = strdup(obs.kernel);
  if (!out->name) return fail_nomem(u);
  out->weight = wk->weight;
  out->base_time_ms = obs.base_time_ms;
  out->base_power_w = obs.base_power_w;
  out->clamped = info.clamped;
  if (info.clamped &&
      !(out->first_clamped = strdup(sp_model_counter_name(u->m, info.first_clamped))))
    return fail_nomem(u);
  return SP_OK;
}

static void analyse_kernel(run *u, sp_dse_kernel *k) {
  values v = {u->space.n, u->t, u->e, u->pw};
  for (size_t i = 0; i < v.n; i++) u->e[i] = u->t[i] * u->pw[i];
  k->reference = choice_at(&v, u->r->reference);
  limits l = kernel_limits(u->p, k->reference.time_ms);
  best_all(&v, u->p, &l, k->best);
  sensitivity(u->r, &v, &k->sens);
}

static void accumulate(run *u, double w) {
  sp_dse_result *r = u->r;
  for (size_t i = 0; i < r->nconfigs; i++) {
    r->time_ms[i] += w * u->t[i];
    r->energy_mj[i] += w * u->e[i];
    if (u->pw[i] > r->peak_power_w[i] || isnan(u->pw[i])) r->peak_power_w[i] = u->pw[i];
  }
}

/* The workload's sums must stay finite: the bounds on what is read
 * (data/bounds.h) keep them so for any prediction a model makes from
 * measured scaling values; a model whose scaling values are extreme can
 * still overflow, and then the kernel that tipped a sum over is named
 * rather than leaving objectives and Pareto fronts without a configuration. */
static int check_sums(run *u, const sp_dse_kernel *k) {
  const sp_dse_result *r = u->r;
  for (size_t i = 0; i < r->nconfigs; i++) {
    if (isfinite(r->time_ms[i]) && isfinite(r->energy_mj[i]) &&
        isfinite(r->energy_mj[i] * r->time_ms[i] * r->time_ms[i]))
      continue;
    char cfg[64];
    sp_config_format(&r->configs[i], cfg, sizeof cfg);
    return sp__fail(u->err, SP_ENUMERIC, sp_dataset_runs_path(u->ds), 0, 0, "kernel",
                    "the workload's time, energy or energy-delay-squared product at %s "
                    "overflows with kernel '%s' (weight %g; numerical failure: the model's "
                    "scaling values are extreme)",
                    cfg, k->name, k->weight);
  }
  return SP_OK;
}

static int run_kernels(run *u) {
  for (size_t w = 0; w < u->nwork; w++) {
    sp_dse_kernel *k = &u->r->kernels[w];
    u->r->nkernels = w + 1;
    int st = predict_kernel(u, w, k);
    if (st) return st;
    analyse_kernel(u, k);
    accumulate(u, k->weight);
    if ((st = check_sums(u, k))) return st;
  }
  return SP_OK;
}

/* The configuration with the smallest value of get: the closest to meeting
 * a constraint that nothing meets. */
static size_t argmin(const values *v, double (*get)(const values *, size_t)) {
  size_t best = 0;
  for (size_t i = 1; i < v->n; i++)
    if (get(v, i) < get(v, best)) best = i;
  return best;
}

static double get_peak(const values *v, size_t i) { return v->peak[i]; }

static int infeasible(run *u, const values *v) {
  const sp_dse_result *r = u->r;
  char cfg[64];
  if (r->best[SP_DSE_MIN_TIME_CAPPED].config == SP_NO_CONFIG && u->p->power_cap_w > 0) {
    size_t i = argmin(v, get_peak);
    sp_config_format(&r->configs[i], cfg, sizeof cfg);
    return sp__fail(u->err, SP_ENOTFOUND, NULL, 0, 0, "power-cap",
                    "no configuration keeps the workload's peak power within %.4g W; "
                    "the closest is %s at %.4g W",
                    u->p->power_cap_w, cfg, v->peak[i]);
  }
  if (r->best[SP_DSE_MIN_ENERGY_BUDGET].config == SP_NO_CONFIG && u->p->time_budget > 0) {
    size_t i = argmin(v, get_time);
    sp_config_format(&r->configs[i], cfg, sizeof cfg);
    return sp__fail(u->err, SP_ENOTFOUND, NULL, 0, 0, "time-budget",
                    "no configuration finishes the workload within %.4g x the reference "
                    "time (%.4g ms); the closest is %s at %.4g ms (%.4g x)",
                    u->p->time_budget, u->p->time_budget * v->t[r->reference], cfg, v->t[i],
                    v->t[i] / v->t[r->reference]);
  }
  return SP_OK;
}

static int analyse_workload(run *u) {
  sp_dse_result *r = u->r;
  values v = workload_values(r);
  limits l = kernel_limits(u->p, r->time_ms[r->reference]);
  best_all(&v, u->p, &l, r->best);
  int st = infeasible(u, &v);
  if (st) return st;
  sensitivity(r, &v, &r->sens);
  if (pareto(&v, get_energy, &r->pareto_energy, &r->npareto_energy) ||
      pareto(&v, get_power, &r->pareto_power, &r->npareto_power))
    return fail_nomem(u);
  return SP_OK;
}

/* ---- candidates ------------------------------------------------------------------ */

typedef struct ranked {
  int infeasible;
  double score;
  size_t order;
  sp_dse_candidate c;
} ranked;

static int cmp_ranked(const void *a, const void *b) {
  const ranked *p = a, *q = b;
  if (p->infeasible != q->infeasible) return p->infeasible - q->infeasible;
  if (p->score != q->score) return p->score < q->score ? -1 : 1;
  return p->order < q->order ? -1 : p->order > q->order;
}

static int place_candidates(run *u, ranked *rk) {
  const sp_dse_result *r = u->r;
  values v = workload_values(r);
  limits l = kernel_limits(u->p, r->time_ms[r->reference]);
  for (size_t c = 0; c < u->ncands; c++) {
    const sp_dse_named_config *nc = &u->cands[c];
    size_t i = sp__space_index(&u->space, &nc->config);
    if (i == SP_NO_CONFIG) {
      int st = off_space(u, "candidate", &nc->config, u->err);
      snprintf(u->err->file, sizeof u->err->file, "%.500s", u->p->candidates_path);
      u->err->line = nc->line;
      return st;
    }
    sp_dse_choice ch = choice_at(&v, i);
    rk[c].c.config = i;
    rk[c].c.meets_cap = feasible(&v, i, SP_DSE_MIN_TIME_CAPPED, &l);
    rk[c].c.meets_budget = feasible(&v, i, SP_DSE_MIN_ENERGY_BUDGET, &l);
    rk[c].infeasible = !feasible(&v, i, r->params.rank_by, &l);
    rk[c].score = sp__dse_score(&ch, r->params.rank_by);
    rk[c].order = c;
  }
  return SP_OK;
}

static int rank_candidates(run *u) {
  if (!u->ncands) return SP_OK;
  ranked *rk = calloc(u->ncands, sizeof *rk);
  sp_dse_candidate *out = calloc(u->ncands, sizeof *out);
  int st = rk && out ? place_candidates(u, rk) : fail_nomem(u);
  if (!st) {
    qsort(rk, u->ncands, sizeof *rk, cmp_ranked);
    for (size_t c = 0; c < u->ncands; c++) {
      out[c] = rk[c].c;
      out[c].rank = c + 1;
      /* The name moves from the input list to the result. */
      out[c].name = u->cands[rk[c].order].name;
      u->cands[rk[c].order].name = NULL;
    }
    u->r->candidates = out;
    u->r->ncandidates = u->ncands;
    out = NULL;
  }
  free(rk);
  free(out);
  return st;
}

static void run_free(run *u) {
  sp__space_free(&u->space);
  free(u->t);
  free(u->pw);
  free(u->e);
  free(u->counters);
  free(u->work);
  sp__dse_named_free(u->cands, u->ncands);
}

static int run_steps(run *u) {
  int st = resolve_reference(u);
  if (!st) st = load_workload(u);
  if (!st && u->p->candidates_path)
    st = sp__dse_read_candidates(u->p->candidates_path, &u->cands, &u->ncands, u->err);
  if (!st) st = alloc_workspaces(u);
  if (!st) st = run_kernels(u);
  if (!st) st = analyse_workload(u);
  if (!st) st = rank_candidates(u);
  return st;
}

int sp_dse_run(const sp_model *m, const sp_dataset *ds, const sp_dse_params *p, sp_dse_result **out,
               sp_error *err) {
  sp_error local;
  if (!err) err = &local;
  sp_error_clear(err);
  *out = NULL;
  int st = check_params(m, p, err);
  if (st) return st;
  run u = {.m = m, .ds = ds, .p = p, .err = err};
  st = sp__space_init(&u.space, m, p->grid_interp, err);
  if (!st && result_alloc(m, &u.space, p, &u.r)) st = fail_nomem(&u);
  if (!st) st = run_steps(&u);
  run_free(&u);
  if (st) {
    sp_dse_result_free(u.r);
    return st;
  }
  *out = u.r;
  return SP_OK;
}
