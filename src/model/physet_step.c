/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_step.c: the memory step forest of versions 10 and 11 (physet_step.h). */
#include "physet_step.h"

#include <stdlib.h>
#include <string.h>

#include "physet_prior.h"

/* The time grid's points of another memory system than the base's whose
 * point at the base's memory clock exists: from[k] and to[k]; returns k. */
static size_t step_points(const sp_physet *p, size_t *from, size_t *to) {
  const sp_grid *g = &p->grid[SP_TIME];
  size_t k = 0;
  for (size_t i = 0; i < p->gsize[SP_TIME]; i++) {
    sp_config c = sp__grid_config(g, i), cb = {c.cu, c.engine_mhz, p->base.memory_mhz};
    sp_grid_point gp;
    if (c.memory_mhz == p->base.memory_mhz || sp__grid_locate(g, &cb, &gp)) continue;
    from[k] = i;
    to[k++] = sp__grid_flat(g, &gp);
  }
  return k;
}

void sp__physet_step_features(const sp_physet *p, const double *feat, const double *lt,
                              double *out) {
  const size_t nf = p->plan.nfeat, nclk = sp__physet_clock_pairs(p);
  memcpy(out, feat, nf * sizeof *out);
  for (size_t c = 0; c < p->step_curve; c++) out[nf + c] = lt ? lt[p->t_j[c * nclk]] : 0;
}

/* The training kernels' step features (n * (nfeat + step_curve)), or NULL
 * when out of memory. */
static double *step_matrix(const sp_physet *p, const double *feat, const double *lt) {
  const size_t nf = p->plan.nfeat, w = nf + p->step_curve, g = p->gsize[SP_TIME];
  double *x = malloc(p->n * w * sizeof *x);
  for (size_t j = 0; x && j < p->n; j++)
    sp__physet_step_features(p, feat + j * nf, lt + j * g, x + j * w);
  return x;
}

int sp__physet_fit_step(sp_physet *p, const double *feat, const double *lt,
                        const sp_forest_params *fp) {
  const size_t g = p->gsize[SP_TIME], n = p->n;
  size_t *from = malloc(g * sizeof *from), *to = malloc(g * sizeof *to);
  double *y = NULL, *x = NULL;
  int st = from && to ? SP_OK : SP_ENOMEM;
  const size_t m = st ? 0 : step_points(p, from, to);
  if (!st && m && !(y = malloc(n * m * sizeof *y))) st = SP_ENOMEM;
  for (size_t j = 0; !st && j < n; j++)
    for (size_t k = 0; k < m; k++) {
      const double *r = p->res[SP_TIME] + j * g;
      y[j * m + k] = r[from[k]] - r[to[k]];
    }
  if (!st && m) st = sp__forest_fit(feat, n, p->plan.nfeat, y, m, fp, &p->step_forest);
  /* Version 11: the same steps over the features and the curve. */
  p->step_curve = !st && m && p->t_j ? p->grid[SP_TIME].n[0] : 0;
  if (p->step_curve && !(x = step_matrix(p, feat, lt))) st = SP_ENOMEM;
  if (p->step_curve && !st)
    st = sp__forest_fit(x, n, p->plan.nfeat + p->step_curve, y, m, fp, &p->curve_forest);
  free(from);
  free(to);
  free(x);
  free(y);
  return st;
}
