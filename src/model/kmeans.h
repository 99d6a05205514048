/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kmeans.h: k-means clustering with k-means++ seeding (paper III-C).
 * Internal to libscalepredict. */
#ifndef SP_KMEANS_H
#define SP_KMEANS_H

#include <stddef.h>

typedef struct sp_kmeans_params {
  size_t k;           /* requested clusters; capped (see sp__kmeans) */
  unsigned long seed; /* seeds k-means++ (gsl_rng_mt19937) */
  unsigned restarts;  /* independent runs; the lowest inertia is kept */
  unsigned max_iter;  /* Lloyd iterations per run */
} sp_kmeans_params;

typedef struct sp_kmeans_result {
  size_t k; /* effective k: min(requested, n, distinct points) */
  size_t dim;
  double *centroids; /* k * dim, row-major */
  size_t *assign;    /* n: cluster of each point */
  size_t *sizes;     /* k: points per cluster (never 0) */
  double inertia;    /* sum of squared distances to assigned centroids */
} sp_kmeans_result;

/* Clusters n points of dimension dim (row-major x).  dim may be 0 (then
 * k = 1 and the centroid is empty).  Deterministic for a given seed.
 * Returns SP_OK, SP_EINVAL (n == 0, k == 0, non-finite value) or
 * SP_ENOMEM.  On failure *out is left empty (all pointers NULL). */
int sp__kmeans(const double *x, size_t n, size_t dim, const sp_kmeans_params *params,
               sp_kmeans_result *out);
void sp__kmeans_result_free(sp_kmeans_result *r);

/* Index of the row of rows (k rows of dim values) nearest to x in squared
 * Euclidean distance, ties to the lowest index; *dist (if not NULL)
 * receives that squared distance.  k must be at least 1. */
size_t sp__kmeans_nearest(const double *rows, size_t k, size_t dim, const double *x, double *dist);

#endif
