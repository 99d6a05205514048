/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_step.c: version 10's memory step forest (physet_step.h). */
#include "physet_step.h"

#include <stdlib.h>

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

int sp__physet_fit_step(sp_physet *p, const double *feat, const sp_forest_params *fp) {
  const size_t g = p->gsize[SP_TIME], n = p->n;
  size_t *from = malloc(g * sizeof *from), *to = malloc(g * sizeof *to);
  double *y = NULL;
  int st = from && to ? SP_OK : SP_ENOMEM;
  const size_t m = st ? 0 : step_points(p, from, to);
  if (!st && m && !(y = malloc(n * m * sizeof *y))) st = SP_ENOMEM;
  for (size_t j = 0; !st && j < n; j++)
    for (size_t k = 0; k < m; k++) {
      const double *r = p->res[SP_TIME] + j * g;
      y[j * m + k] = r[from[k]] - r[to[k]];
    }
  if (!st && m) st = sp__forest_fit(feat, n, p->plan.nfeat, y, m, fp, &p->step_forest);
  free(from);
  free(to);
  free(y);
  return st;
}
