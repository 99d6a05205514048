/* SPDX-License-Identifier: GPL-3.0-or-later */
/* round.c: the pieces of a campaign (docs/sweeps.md, "Adaptive plans"):
 * the grid in normalised log coordinates, one kernel's measurements, and
 * its round: fit the surrogate (gp.c), estimate the surface error,
 * complete the surface, decide whether it is done and name the next batch.
 * Plans (plan.c), the shared surrogate (shared.c) and replays (replay.c)
 * build on them. */
#include "round.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
