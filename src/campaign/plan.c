/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plan.c: adaptive measurement plans.  A plan holds, per kernel, what has
 * been measured on the grid and what the surrogate (gp.c) makes of it: the
 * estimated surface error, the completed surface and the next batch.  It
 * keeps no state between calls: a campaign measures the batch, appends the
 * rows to its runs file and makes a new plan from that file, so the runs
 * file alone says where a campaign stands (and a stopped one resumes). */
#include "plan.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "data/dataset.h"
#include "shared.h"
#include "util/status.h"

#define NOT_FOUND ((size_t)-1)

static const char *const axis_names[3] = {"cu", "engine_mhz", "memory_mhz"};

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
