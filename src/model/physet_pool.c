/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_pool.c: the scratch of physet's predictions (physet_pool.h). */
#include "physet_pool.h"

#include <stdlib.h>

#include "util/status.h"

static void scratch_free(scratch *s) {
  if (!s) return;
  free(s->w);
  free(s->nz);
  free(s->w0);
  free(s->nz0);
  free(s->pairs);
  free(s->bits);
  free(s->prior);
  free(s->obs_val);
  free(s->obs_idx);
  free(s->key);
  free(s);
}

/* Room for the observation's extra measurements: the arrays grow once for
 * a caller that gives more than the grid has points, then stay. */
static int scratch_fit_obs(scratch *s, size_t nextra) {
  if (nextra + 1 <= s->obs_cap) return SP_OK;
  double *v = realloc(s->obs_val, (nextra + 1) * sizeof *v);
  if (v) s->obs_val = v;
  size_t *i = realloc(s->obs_idx, (nextra + 1) * sizeof *i);
  if (i) s->obs_idx = i;
  if (!v || !i) return SP_ENOMEM;
  s->obs_cap = nextra + 1;
  return SP_OK;
}

/* The longest memo key: the base time, the shape, the features and four
 * values per extra measurement (memo_key). */
static size_t memo_room(const sp_physet *p) { return 5 + p->plan.nfeat + 4 * MEMO_EXTRA; }

/* One block of doubles for every per-point array: g for prior, mean,
 * corr, cap, floor, extra, qlo and qhi each, g + 1 for axis, 3 g for time, 2 g for
 * pab, the features, g for lt, the curve forest's features (version
 * 11) and the block-count line's (physet_affine.h); another for the two
 * memo keys. */
static scratch *scratch_new(const sp_physet *p) {
  const size_t n = p->n, g = p->gsize[SP_TIME], words = (n + 63) / 64;
  scratch *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->w = malloc(n * sizeof *s->w);
  s->nz = malloc(n * sizeof *s->nz);
  s->pairs = malloc(n * sizeof *s->pairs);
  s->bits = malloc(words * sizeof *s->bits);
  s->prior =
      malloc((15 * g + 1 + 3 * p->plan.nfeat + p->step_curve + AFFINE_FEATS) * sizeof *s->prior);
  s->key = malloc(2 * memo_room(p) * sizeof *s->key);
  if (p->bw) {
    s->w0 = malloc(n * sizeof *s->w0);
    s->nz0 = malloc(n * sizeof *s->nz0);
  }
  if (!s->w || !s->nz || !s->pairs || !s->bits || !s->prior || !s->key || scratch_fit_obs(s, g) ||
      (p->bw && (!s->w0 || !s->nz0))) {
    scratch_free(s);
    return NULL;
  }
  s->mean = s->prior + g;
  s->corr = s->mean + g;
  s->cap_buf = s->corr + g;
  s->floor_buf = s->cap_buf + g;
  s->extra = s->floor_buf + g;
  s->qlo = s->extra + g;
  s->qhi = s->qlo + g;
  s->axis = s->qhi + g;
  s->time = s->axis + g + 1;
  s->pab = s->time + 3 * g;
  s->feat = s->pab + 2 * g;
  s->lt = s->feat + p->plan.nfeat;
  s->step_feat = s->lt + g;
  s->aff_feat = s->step_feat + p->plan.nfeat + p->step_curve;
  s->memo = s->key + memo_room(p);
  return s;
}

/* Scratch for one prediction: a free slot of the model's pool (made on its
 * first use), or, when every slot is taken by another thread, a scratch of
 * its own; *slot says which, for sp__physet_scratch_put. */
scratch *sp__physet_scratch_get(const sp_physet *p, size_t nextra, int *slot) {
  pool *pl = p->pool;
  for (int i = 0; i < SLOTS; i++) {
    if (atomic_exchange_explicit(&pl->busy[i], 1, memory_order_acquire)) continue;
    if (!pl->slot[i]) pl->slot[i] = scratch_new(p);
    if (pl->slot[i] && !scratch_fit_obs(pl->slot[i], nextra)) {
      *slot = i;
      return pl->slot[i];
    }
    atomic_store_explicit(&pl->busy[i], 0, memory_order_release);
    return NULL;
  }
  *slot = -1;
  scratch *s = scratch_new(p);
  if (s && scratch_fit_obs(s, nextra)) {
    scratch_free(s);
    return NULL;
  }
  return s;
}

void sp__physet_scratch_put(const sp_physet *p, scratch *s, int slot) {
  if (slot < 0)
    scratch_free(s);
  else
    atomic_store_explicit(&p->pool->busy[slot], 0, memory_order_release);
}

int sp__physet_pool_new(sp_physet *p) {
  int st = (p->pool = calloc(1, sizeof *p->pool)) ? SP_OK : SP_ENOMEM;
  for (int i = 0; !st && i < SLOTS; i++) atomic_init(&p->pool->busy[i], 0);
  return st;
}

void sp__physet_pool_free(pool *pl) {
  for (int i = 0; pl && i < SLOTS; i++) scratch_free(pl->slot[i]);
  free(pl);
}
