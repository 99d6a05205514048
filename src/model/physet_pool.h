/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_pool.h: scratch for one physet prediction and the model's pool
 * of them, so that a prediction allocates nothing (docs/internals.md,
 * "Memory").  Internal to the physet files. */
#ifndef SP_PHYSET_POOL_H
#define SP_PHYSET_POOL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "physet_quantile.h"
#include "physet_state.h"

/* Predictions take their scratch from a pool of this many (sp__physet_scratch_get):
 * as many threads predict at once without allocating; more allocate. */
#define SLOTS 4
/* A slot remembers its last time prediction (the power prior needs it)
 * for observations with at most this many extra measurements. */
#define MEMO_EXTRA 16

typedef struct scratch scratch;
typedef struct pool {
  atomic_int busy[SLOTS];
  scratch *slot[SLOTS];
} pool;

/* Scratch for one prediction, sized by the model: its pool (sp__physet_scratch_get)
 * keeps SLOTS of them, so that a prediction allocates nothing. */
typedef struct scratch {
  double *w;       /* n: the forest's weights */
  size_t *nz, nnz; /* the kernels whose weight is not 0, ascending */
  /* Version 9 with further measurements: w, nz and nnz before the
   * measurements reweight them (keep_weights), for memory_step; else NULL. */
  double *w0;
  size_t *nz0, nnz0;
  wval *pairs;    /* n: residuals and kernels, sorted for the interval */
  uint64_t *bits; /* n bits: ranks present at one grid point */
  double *prior, *mean, *corr;
  double *cap;   /* most the log ratio may be at each point, or NULL */
  double *floor; /* least the log ratio may be at each point, or NULL */
  double *cap_buf, *floor_buf;
  double *extra;            /* squared width added to the interval (extra_width) */
  double *qlo, *qhi;        /* g: the residuals' quantiles per point, kept
                               by the median (point_residuals) */
  size_t skip, wait;        /* sort_pairs' back-off */
  double *axis;             /* the prior's terms per CU count and per clock pair */
  double *time;             /* 3 gsize[TIME]: time and its interval (power's prior) */
  double *pab;              /* 2 gsize[POWER]: the prior at the interval's ends */
  double *feat;             /* nfeat: the kernel's features */
  double *lt;               /* g: version 9's first pass, log time ratios */
  double *step_feat;        /* nfeat + step_curve: the curve forest's features */
  double *aff_feat;         /* nfeat + AFFINE_FEATS: the line check's features */
  int curve;                /* version 11: the curve forest is read (curve_measured) */
  double *obs_val;          /* residual seen at each observed grid point */
  size_t *obs_idx, obs_cap; /* ... room for obs_cap of them */
  size_t nobs;
  /* What the time prediction depends on (memo_key), for this prediction
   * (key, nkey: 0 when too long to keep) and for the one in time (memo,
   * nmemo), and what time holds: 0 nothing, 1 time, 2 with its interval. */
  double *key, *memo;
  size_t nkey, nmemo;
  int held;
} scratch;

/* An empty pool for p (slots made on their first use): SP_ENOMEM. */
int sp__physet_pool_new(sp_physet *p);
void sp__physet_pool_free(pool *pl);

/* Scratch for one prediction with room for nextra further measurements,
 * or NULL (out of memory); *slot says where it came from, for
 * sp__physet_scratch_put. */
scratch *sp__physet_scratch_get(const sp_physet *p, size_t nextra, int *slot);
void sp__physet_scratch_put(const sp_physet *p, scratch *s, int slot);

#endif
