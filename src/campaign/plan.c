/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan.c: adaptive measurement plans.  A plan holds, per kernel, what has
 * been measured on the grid and what the surrogate (gp.c) makes of it: the
 * estimated surface error, the completed surface and the next batch.  It
 * keeps no state between calls: a campaign measures the batch, appends the
 * rows to its runs file and makes a new plan from that file, so the runs
 * file alone says where a campaign stands (and a stopped one resumes). */
#include "plan.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "data/dataset.h"
#include "util/status.h"

#define NOT_FOUND ((size_t)-1)

static const char *const axis_names[3] = {"cu", "engine_mhz", "memory_mhz"};

/* ---- the grid -------------------------------------------------------------- */

static int cmp_int(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

void sp__cgrid_free(sp_cgrid *g) {
  for (int a = 0; a < 3; a++) free(g->axis[a]);
  free(g->z);
  memset(g, 0, sizeof *g);
}

static int copy_axis(sp_cgrid *g, int a, const int *v, size_t n, sp_error *err) {
  if (!n) return sp__fail(err, SP_EINVAL, NULL, 0, 0, axis_names[a], "the grid's axis is empty");
  if (!(g->axis[a] = malloc(n * sizeof(int)))) return sp__oom(err);
  memcpy(g->axis[a], v, n * sizeof(int));
  qsort(g->axis[a], n, sizeof(int), cmp_int);
  g->naxis[a] = n;
  for (size_t i = 0; i < n; i++) {
    if (g->axis[a][i] <= 0)
      return sp__fail(err, SP_EINVAL, NULL, 0, 0, axis_names[a], "%d is not a positive value",
                      g->axis[a][i]);
    if (i && g->axis[a][i] == g->axis[a][i - 1])
      return sp__fail(err, SP_EINVAL, NULL, 0, 0, axis_names[a], "%d is listed twice",
                      g->axis[a][i]);
  }
  return SP_OK;
}

/* Normalised log coordinates of every point, varied axes only. */
static void place_points(sp_cgrid *g) {
  size_t d = 0;
  for (int a = 0; a < 3; a++) {
    if (g->naxis[a] < 2) continue;
    const double lo = log(g->axis[a][0]), span = log(g->axis[a][g->naxis[a] - 1]) - lo;
    for (size_t j = 0; j < g->n; j++) {
      const sp_config c = sp__cgrid_config(g, j);
      const int v = a == 0 ? c.cu : a == 1 ? c.engine_mhz : c.memory_mhz;
      g->z[j * g->dim + d] = (log(v) - lo) / span;
    }
    d++;
  }
}

int sp__cgrid_init(sp_cgrid *g, const int *const axis[3], const size_t naxis[3], sp_error *err) {
  memset(g, 0, sizeof *g);
  int st = SP_OK;
  for (int a = 0; a < 3 && !st; a++) st = copy_axis(g, a, axis[a], naxis[a], err);
  if (!st) {
    g->n = g->naxis[0] * g->naxis[1] * g->naxis[2];
    for (int a = 0; a < 3; a++) g->dim += g->naxis[a] > 1;
    if (!(g->z = malloc((g->n * g->dim + 1) * sizeof(double)))) st = sp__oom(err);
  }
  if (st) {
    sp__cgrid_free(g);
    return st;
  }
  place_points(g);
  g->pts = (sp_gp_points){g->z, g->n, g->dim};
  return SP_OK;
}

sp_config sp__cgrid_config(const sp_cgrid *g, size_t j) {
  const size_t m = j % g->naxis[2], e = j / g->naxis[2] % g->naxis[1];
  const size_t c = j / (g->naxis[2] * g->naxis[1]);
  return (sp_config){g->axis[0][c], g->axis[1][e], g->axis[2][m]};
}

static size_t find_value(const int *v, size_t n, int x) {
  const int *hit = bsearch(&x, v, n, sizeof *v, cmp_int);
  return hit ? (size_t)(hit - v) : NOT_FOUND;
}

size_t sp__cgrid_index(const sp_cgrid *g, const sp_config *c) {
  const size_t i = find_value(g->axis[0], g->naxis[0], c->cu);
  const size_t e = find_value(g->axis[1], g->naxis[1], c->engine_mhz);
  const size_t m = find_value(g->axis[2], g->naxis[2], c->memory_mhz);
  if (i == NOT_FOUND || e == NOT_FOUND || m == NOT_FOUND) return NOT_FOUND;
  return (i * g->naxis[1] + e) * g->naxis[2] + m;
}

size_t sp__cgrid_middle(const sp_cgrid *g) {
  return (((g->naxis[0] - 1) / 2) * g->naxis[1] + (g->naxis[1] - 1) / 2) * g->naxis[2] +
         (g->naxis[2] - 1) / 2;
}

/* ---- one kernel ------------------------------------------------------------ */

void sp__ckernel_free(sp_ckernel *k) {
  for (int q = 0; q < 2; q++) {
    free(k->value[q]);
    free(k->fill[q]);
  }
  free(k->measured);
  free(k->next);
  memset(k, 0, sizeof *k);
}

int sp__ckernel_alloc(sp_ckernel *k, size_t G) {
  memset(k, 0, sizeof *k);
  k->G = G;
  int ok = (k->measured = malloc(G)) && (k->next = malloc(G * sizeof *k->next));
  for (int q = 0; q < 2 && ok; q++)
    ok = (k->value[q] = malloc(G * sizeof(double))) && (k->fill[q] = malloc(G * sizeof(double)));
  if (!ok) {
    sp__ckernel_free(k);
    return SP_ENOMEM;
  }
  sp__ckernel_reset(k);
  return SP_OK;
}

void sp__ckernel_reset(sp_ckernel *k) {
  memset(k->measured, 0, k->G);
  for (size_t j = 0; j < k->G; j++)
    k->value[0][j] = k->value[1][j] = k->fill[0][j] = k->fill[1][j] = NAN;
  k->n = k->nnext = 0;
  k->error[0] = k->error[1] = NAN;
  k->state = SP_PLAN_MEASURING;
}

void sp__ckernel_set(sp_ckernel *k, size_t j, double time_ms, double power_w) {
  assert(j < k->G);
  k->n += !k->measured[j];
  k->measured[j] = 1;
  k->value[0][j] = time_ms;
  k->value[1][j] = power_w;
}

int sp__ckernel_fit(const sp_ckernel *k, const sp_cgrid *g, int q, const double *prior, size_t *idx,
                    double *y, sp_gp **gp) {
  size_t n = 0;
  for (size_t j = 0; j < g->n; j++)
    if (k->measured[j] && isfinite(k->value[q][j])) {
      idx[n] = j;
      y[n++] = log(k->value[q][j]) - (prior ? prior[j] : 0.0);
    }
  *gp = NULL;
  return n ? sp__gp_fit(&g->pts, idx, y, n, gp) : SP_OK;
}

/* Mean predicted standard deviation over the configurations not measured,
 * in percent of the value (a standard deviation of a log is relative). */
static double surface_error(const sp_ckernel *k, const sp_gp *gp) {
  double s = 0.0;
  size_t n = 0;
  for (size_t j = 0; j < k->G; j++)
    if (!k->measured[j]) {
      s += sqrt(sp__gp_var(gp, j));
      n++;
    }
  return n ? 100.0 * s / (double)n : 0.0;
}

static void complete(sp_ckernel *k, sp_gp *const gp[2]) {
  for (int q = 0; q < 2; q++) {
    k->error[q] = gp[q] ? surface_error(k, gp[q]) : NAN;
    for (size_t j = 0; j < k->G; j++)
      k->fill[q][j] = k->measured[j] ? k->value[q][j] : gp[q] ? exp(sp__gp_mean(gp[q], j)) : NAN;
  }
}

int sp__ckernel_decide(const sp_ckernel *k, const sp_round_params *rp) {
  const double worst = isnan(k->error[1]) || k->error[0] >= k->error[1] ? k->error[0] : k->error[1];
  if (k->n == k->G) return SP_PLAN_GRID;
  if (rp->budget && k->n >= rp->budget) return SP_PLAN_BUDGET;
  if (rp->target_error > 0 && worst <= rp->target_error) return SP_PLAN_TARGET;
  return SP_PLAN_MEASURING;
}

static int next_batch(sp_ckernel *k, const sp_round_params *rp, sp_gp *const gp[2]) {
  size_t want = rp->batch;
  if (rp->budget && rp->budget - k->n < want) want = rp->budget - k->n;
  const sp_gp *use[2] = {gp[0], gp[1]};
  const size_t got = sp__gp_pick(use, gp[1] ? 2 : 1, k->measured, want, k->next);
  if (got == NOT_FOUND) return SP_ENOMEM;
  k->nnext = got;
  return SP_OK;
}

int sp__campaign_round(sp_ckernel *k, const sp_cgrid *g, const sp_round_params *rp) {
  sp_gp *gp[2] = {NULL, NULL};
  size_t *idx = malloc(g->n * sizeof *idx);
  double *y = malloc(g->n * sizeof *y);
  int st = idx && y ? SP_OK : SP_ENOMEM;
  k->nnext = 0;
  for (int q = 0; q < 2 && !st; q++) st = sp__ckernel_fit(k, g, q, NULL, idx, y, &gp[q]);
  if (!st) {
    complete(k, gp);
    k->state = k->measured[rp->base] ? sp__ckernel_decide(k, rp) : SP_PLAN_MEASURING;
    if (!k->measured[rp->base])
      k->next[k->nnext++] = rp->base;
    else if (k->state == SP_PLAN_MEASURING)
      st = next_batch(k, rp, gp);
  }
  sp__gp_free(gp[0]);
  sp__gp_free(gp[1]);
  free(idx);
  free(y);
  return st;
}

/* ---- the public plan ------------------------------------------------------- */

void sp_plan_params_init(sp_plan_params *p) {
  memset(p, 0, sizeof *p);
  p->batch = 4;
  p->seed = 1;
}

static const char *const surrogate_names[] = {"gp", "shared"};

const char *sp_surrogate_name(int surrogate) {
  return surrogate >= 0 && surrogate <= SP_SURROGATE_SHARED ? surrogate_names[surrogate] : NULL;
}

int sp_surrogate_parse(const char *name) {
  for (int i = 0; i <= SP_SURROGATE_SHARED; i++)
    if (!strcmp(name, surrogate_names[i])) return i;
  return -1;
}

const char *sp_plan_state_name(int state) {
  static const char *const names[] = {"measuring", "budget", "target", "grid"};
  return state >= 0 && state <= SP_PLAN_GRID ? names[state] : NULL;
}

void sp_plan_free(sp_plan *pl) {
  if (!pl) return;
  for (size_t k = 0; k < pl->nk; k++) {
    free(pl->k[k].name);
    free(pl->k[k].next);
    sp__ckernel_free(&pl->k[k].ck);
  }
  free(pl->k);
  sp__cgrid_free(&pl->grid);
  free(pl);
}

static int check_params(const sp_dataset *ds, const sp_plan_params *p, sp_error *err) {
  if (p->batch < 1) return sp__fail(err, SP_EINVAL, NULL, 0, 0, "batch", "must be at least 1");
  if (!sp_surrogate_name(p->surrogate))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "surrogate", "must be gp or shared");
  if (!(p->target_error >= 0) || !isfinite(p->target_error))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "target_error", "must be a non-negative number");
  if (!ds && !p->kernels)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "kernels",
                    "name the kernels when nothing is measured yet");
  for (int a = 0; a < 3; a++)
    if (!ds && !p->naxis[a])
      return sp__fail(err, SP_EINVAL, NULL, 0, 0, axis_names[a],
                      "give the grid's values when nothing is measured yet");
  return SP_OK;
}

static int make_grid(sp_plan *pl, const sp_dataset *ds, const sp_plan_params *p, sp_error *err) {
  const int *axis[3];
  size_t naxis[3];
  for (int a = 0; a < 3; a++) {
    axis[a] = p->axis[a];
    naxis[a] = p->naxis[a];
    if (!naxis[a]) naxis[a] = sp_dataset_axis(ds, a, &axis[a]);
  }
  int st = sp__cgrid_init(&pl->grid, axis, naxis, err);
  if (st) return st;
  pl->rp = (sp_round_params){sp__cgrid_middle(&pl->grid), p->batch, p->budget, p->target_error};
  if (!p->base.cu) return SP_OK;
  pl->rp.base = sp__cgrid_index(&pl->grid, &p->base);
  if (pl->rp.base != NOT_FOUND) return SP_OK;
  char cfg[64];
  sp_config_format(&p->base, cfg, sizeof cfg);
  return sp__fail(err, SP_EGRID, NULL, 0, 0, "base", "base configuration %s is not on the grid",
                  cfg);
}

static int add_kernel(sp_plan *pl, const char *name, sp_error *err) {
  for (size_t k = 0; k < pl->nk; k++)
    if (!strcmp(pl->k[k].name, name))
      return sp__fail(err, SP_EINVAL, NULL, 0, 0, "kernels", "kernel '%s' is listed twice", name);
  if (!*name) return sp__fail(err, SP_EINVAL, NULL, 0, 0, "kernels", "empty kernel name");
  sp_plan_entry *e = &pl->k[pl->nk];
  memset(e, 0, sizeof *e);
  if (!(e->name = strdup(name)) || !(e->next = malloc(pl->grid.n * sizeof *e->next)) ||
      sp__ckernel_alloc(&e->ck, pl->grid.n)) {
    pl->nk++;
    return sp__oom(err);
  }
  e->pub.name = e->name;
  pl->nk++;
  return SP_OK;
}

static int add_kernels(sp_plan *pl, const sp_dataset *ds, const sp_plan_params *p, sp_error *err) {
  size_t n = 0;
  if (p->kernels)
    while (p->kernels[n]) n++;
  else
    n = sp_dataset_kernel_count(ds);
  if (!n) return sp__fail(err, SP_EINVAL, NULL, 0, 0, "kernels", "no kernel to plan");
  if (!(pl->k = calloc(n, sizeof *pl->k))) return sp__oom(err);
  int st = SP_OK;
  for (size_t k = 0; k < n && !st; k++)
    st = add_kernel(pl, p->kernels ? p->kernels[k] : sp_dataset_kernel_name(ds, k), err);
  return st;
}

/* The measured rows of the planned kernels that lie on the grid. */
static int gather(sp_plan *pl, const sp_dataset *ds, sp_error *err) {
  size_t *plan_of = malloc((ds->nkernels + 1) * sizeof *plan_of);
  if (!plan_of) return sp__oom(err);
  for (size_t dk = 0; dk < ds->nkernels; dk++) plan_of[dk] = NOT_FOUND;
  for (size_t k = 0; k < pl->nk; k++) {
    const size_t dk = sp_dataset_kernel_index(ds, pl->k[k].name);
    if (dk != NOT_FOUND) plan_of[dk] = k;
  }
  for (size_t r = 0; r < ds->nruns; r++) {
    const sp_run *run = &ds->runs[r];
    const size_t k = plan_of[run->kernel];
    if (run->completed || k == NOT_FOUND) continue;
    const size_t j = sp__cgrid_index(&pl->grid, &run->cfg);
    if (j == NOT_FOUND)
      pl->k[k].pub.off_grid++;
    else
      sp__ckernel_set(&pl->k[k].ck, j, run->time_ms, run->power_w);
  }
  free(plan_of);
  return SP_OK;
}

static void publish(const sp_plan *pl, sp_plan_entry *e) {
  for (size_t i = 0; i < e->ck.nnext; i++) e->next[i] = sp__cgrid_config(&pl->grid, e->ck.next[i]);
  e->pub.measured = e->ck.n;
  e->pub.error_time = e->ck.error[SP_TIME];
  e->pub.error_power = e->ck.error[SP_POWER];
  e->pub.state = e->ck.state;
  e->pub.nnext = e->ck.nnext;
  e->pub.next = e->next;
}

static int round_failed(int st, const char *name, sp_error *err) {
  if (st == SP_ENOMEM) return sp__oom(err);
  return sp__fail(err, st, NULL, 0, 0, "kernel",
                  "the surrogate of kernel '%s' could not be fitted (degenerate data)", name);
}

static int plan_kernel(sp_plan *pl, sp_plan_entry *e, sp_error *err) {
  int st = sp__campaign_round(&e->ck, &pl->grid, &pl->rp);
  if (st) return round_failed(st, e->name, err);
  publish(pl, e);
  return SP_OK;
}

/* Every kernel in one shared round. */
static int plan_shared(sp_plan *pl, unsigned long seed, sp_error *err) {
  sp_ckernel **ks = malloc((pl->nk + 1) * sizeof *ks);
  if (!ks) return sp__oom(err);
  for (size_t k = 0; k < pl->nk; k++) ks[k] = &pl->k[k].ck;
  size_t failed;
  int st = sp__campaign_shared_round(ks, pl->nk, &pl->grid, &pl->rp, seed, 1, &failed);
  free(ks);
  if (st) return round_failed(st, failed < pl->nk ? pl->k[failed].name : "?", err);
  for (size_t k = 0; k < pl->nk; k++) publish(pl, &pl->k[k]);
  return SP_OK;
}

/* How uncertain a kernel's surface is, for the total budget's order: a
 * kernel without its base first, then the largest estimated error (time
 * plus power; unknown counts as the largest). */
static double urgency(const sp_plan *pl, const sp_ckernel *k) {
  if (!k->measured[pl->rp.base]) return INFINITY;
  double e = k->error[SP_TIME] + (isfinite(k->error[SP_POWER]) ? k->error[SP_POWER] : 0);
  return isfinite(e) ? e : DBL_MAX;
}

typedef struct ranked {
  double urgency;
  size_t k;
} ranked;

static int by_urgency(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  if (x->urgency != y->urgency) return x->urgency > y->urgency ? -1 : 1;
  return x->k < y->k ? -1 : x->k > y->k;
}

/* Cuts the round to the total budget: measured plus named stays within
 * total; kernels by urgency, each keeping the head of its batch (its most
 * uncertain configurations).  Once the total is measured, every kernel
 * still measuring is done at the budget. */
static int apply_total(sp_plan *pl, size_t total, sp_error *err) {
  size_t measured = 0;
  for (size_t k = 0; k < pl->nk; k++) measured += pl->k[k].ck.n;
  size_t left = total > measured ? total - measured : 0;
  ranked *order = malloc((pl->nk + 1) * sizeof *order);
  if (!order) return sp__oom(err);
  for (size_t k = 0; k < pl->nk; k++) order[k] = (ranked){urgency(pl, &pl->k[k].ck), k};
  qsort(order, pl->nk, sizeof *order, by_urgency);
  for (size_t i = 0; i < pl->nk; i++) {
    sp_ckernel *ck = &pl->k[order[i].k].ck;
    if (ck->nnext > left) ck->nnext = left;
    left -= ck->nnext;
    if (!left && measured >= total && ck->state == SP_PLAN_MEASURING) ck->state = SP_PLAN_BUDGET;
  }
  free(order);
  for (size_t k = 0; k < pl->nk; k++) publish(pl, &pl->k[k]);
  return SP_OK;
}

int sp_plan_make(const sp_dataset *ds, const sp_plan_params *p, sp_plan **out, sp_error *err) {
  *out = NULL;
  gsl_set_error_handler_off();
  int st = check_params(ds, p, err);
  if (st) return st;
  sp_plan *pl = calloc(1, sizeof *pl);
  if (!pl) return sp__oom(err);
  st = make_grid(pl, ds, p, err);
  if (!st) st = add_kernels(pl, ds, p, err);
  if (!st && ds) st = gather(pl, ds, err);
  if (!st && p->surrogate == SP_SURROGATE_SHARED)
    st = plan_shared(pl, p->seed, err);
  else
    for (size_t k = 0; k < pl->nk && !st; k++) st = plan_kernel(pl, &pl->k[k], err);
  if (!st && p->total_budget) st = apply_total(pl, p->total_budget, err);
  if (st) {
    sp_plan_free(pl);
    return st;
  }
  *out = pl;
  return SP_OK;
}

size_t sp_plan_grid_size(const sp_plan *pl) { return pl->grid.n; }
sp_config sp_plan_base(const sp_plan *pl) { return sp__cgrid_config(&pl->grid, pl->rp.base); }
size_t sp_plan_kernel_count(const sp_plan *pl) { return pl->nk; }

const sp_plan_kernel *sp_plan_kernel_at(const sp_plan *pl, size_t k) {
  return k < pl->nk ? &pl->k[k].pub : NULL;
}

size_t sp_plan_next_count(const sp_plan *pl) {
  size_t n = 0;
  for (size_t k = 0; k < pl->nk; k++) n += pl->k[k].pub.nnext;
  return n;
}
