/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kmeans.c: k-means clustering with k-means++ seeding (paper III-C).
 *
 * Each restart seeds k centroids with k-means++ and runs Lloyd iterations
 * (assign every point to its nearest centroid, move every centroid to the
 * mean of its points) until no assignment changes or max_iter is reached.
 * The run with the lowest inertia is kept.  All restarts draw from one
 * mt19937 stream seeded once, so the whole result depends only on the seed.
 *
 * Invariant kept after every assignment step: no cluster is empty.  The
 * effective k never exceeds the number of distinct points, which makes this
 * possible; see repair_empty() for how it is restored when Lloyd empties a
 * cluster.
 */
#include "kmeans.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "scalepredict.h"

/* The points and the parameters of one clustering, fixed across restarts. */
typedef struct problem {
  const double *x;
  size_t n;
  size_t dim;
  size_t k;
  unsigned max_iter;
} problem;

/* Per-run state, allocated once by sp__kmeans so that neither the seeding
 * nor the Lloyd loop allocates. */
typedef struct workspace {
  double *centroids; /* k * dim */
  size_t *assign;    /* n */
  size_t *sizes;     /* k */
  double *dist;      /* n: squared distance to the assigned centroid, or to
                        the nearest centroid chosen so far while seeding */
} workspace;

static const double *point(const problem *p, size_t i) { return p->x + i * p->dim; }

static double sqdist(const double *a, const double *b, size_t dim) {
  double s = 0.0;
  for (size_t d = 0; d < dim; d++) {
    const double t = a[d] - b[d];
    s += t * t;
  }
  return s;
}

static int same_point(const double *a, const double *b, size_t dim) {
  for (size_t d = 0; d < dim; d++)
    if (a[d] != b[d]) return 0;
  return 1;
}

/* Counts distinct points, stopping at cap.  Each point is compared only with
 * the representatives found so far, so this costs O(n * cap * dim) rather
 * than comparing all pairs.  reps holds cap indices. */
static size_t count_distinct(const problem *p, size_t cap, size_t *reps) {
  size_t count = 0;
  for (size_t i = 0; i < p->n && count < cap; i++) {
    size_t r = 0;
    while (r < count && !same_point(point(p, reps[r]), point(p, i), p->dim)) r++;
    if (r == count) reps[count++] = i;
  }
  return count;
}

/* Draws an index with probability proportional to w[i] (w[i] >= 0).  Returns
 * n when every weight is zero, which happens only when the remaining squared
 * distances underflowed. */
static size_t sample_weighted(const double *w, size_t n, double total, gsl_rng *rng) {
  double r = gsl_rng_uniform(rng) * total;
  size_t last = n;
  for (size_t i = 0; i < n; i++) {
    if (!(w[i] > 0.0)) continue;
    if (r < w[i]) return i;
    r -= w[i];
    /* Rounding in the running subtraction can step past the final positive
     * weight; the last one seen is then the right choice. */
    last = i;
  }
  return last;
}

/* The first point that equals none of the first c centroids.  It exists
 * because c < k <= the number of distinct points. */
static size_t first_unseeded(const problem *p, const double *centroids, size_t c) {
  for (size_t i = 0; i < p->n; i++) {
    size_t j = 0;
    while (j < c && !same_point(point(p, i), centroids + j * p->dim, p->dim)) j++;
    if (j == c) return i;
  }
  assert(!"k exceeds the number of distinct points");
  return 0;
}

/* Lowers dist[i] to the squared distance from point i to centroid c. */
static void lower_dist(const problem *p, const double *c, double *dist) {
  for (size_t i = 0; i < p->n; i++) {
    const double d = sqdist(point(p, i), c, p->dim);
    if (d < dist[i]) dist[i] = d;
  }
}

/* k-means++: the first centroid is a uniformly chosen point, each further
 * one a point drawn with probability proportional to its squared distance
 * from the nearest centroid so far.  Points already chosen have distance 0,
 * so the centroids are k distinct points. */
static void seed_plusplus(const problem *p, gsl_rng *rng, workspace *ws) {
  const size_t dim = p->dim;
  /* gsl_rng_uniform is in [0, 1); the clamp only matters if rounding of
   * u * n reaches n for a huge n. */
  size_t first = (size_t)(gsl_rng_uniform(rng) * (double)p->n);
  if (first >= p->n) first = p->n - 1;
  memcpy(ws->centroids, point(p, first), dim * sizeof(double));
  for (size_t i = 0; i < p->n; i++) ws->dist[i] = INFINITY;
  lower_dist(p, ws->centroids, ws->dist);

  for (size_t c = 1; c < p->k; c++) {
    double total = 0.0;
    for (size_t i = 0; i < p->n; i++) total += ws->dist[i];
    size_t pick = sample_weighted(ws->dist, p->n, total, rng);
    if (pick == p->n) pick = first_unseeded(p, ws->centroids, c);
    double *centroid = ws->centroids + c * dim;
    memcpy(centroid, point(p, pick), dim * sizeof(double));
    lower_dist(p, centroid, ws->dist);
  }
}

size_t sp__kmeans_nearest(const double *rows, size_t k, size_t dim, const double *x, double *dist) {
  assert(k >= 1);
  size_t best = 0;
  double best_d = sqdist(x, rows, dim);
  for (size_t j = 1; j < k; j++) {
    const double d = sqdist(x, rows + j * dim, dim);
    if (d < best_d) {
      best_d = d;
      best = j;
    }
  }
  if (dist) *dist = best_d;
  return best;
}

/* Assigns every point to its nearest centroid (ties go to the lowest index,
 * which keeps the result deterministic and stable when nothing moves) and
 * returns how many assignments changed. */
static size_t assign_points(const problem *p, workspace *ws) {
  size_t changed = 0;
  for (size_t i = 0; i < p->n; i++) {
    double best_d;
    size_t best = sp__kmeans_nearest(ws->centroids, p->k, p->dim, point(p, i), &best_d);
    if (ws->assign[i] != best) changed++;
    ws->assign[i] = best;
    ws->dist[i] = best_d;
  }
  return changed;
}

static void count_sizes(const problem *p, workspace *ws) {
  memset(ws->sizes, 0, p->k * sizeof(size_t));
  for (size_t i = 0; i < p->n; i++) ws->sizes[ws->assign[i]]++;
}

/* The point farthest from its centroid among those whose cluster can spare
 * one.  Such a point exists whenever a cluster is empty, because n >= k. */
static size_t farthest_movable(const problem *p, const workspace *ws) {
  size_t best = p->n;
  for (size_t i = 0; i < p->n; i++) {
    if (ws->sizes[ws->assign[i]] < 2) continue;
    if (best == p->n || ws->dist[i] > ws->dist[best]) best = i;
  }
  assert(best < p->n);
  return best;
}

/* Gives every empty cluster the point that is worst served by its current
 * centroid: that point becomes the cluster's only member and its centroid.
 * This lowers the inertia and keeps every cluster non-empty, so sizes[]
 * never holds 0 and no centroid is left undefined.  Returns the number of
 * points moved. */
static size_t repair_empty(const problem *p, workspace *ws) {
  size_t moved = 0;
  for (size_t j = 0; j < p->k; j++) {
    if (ws->sizes[j] != 0) continue;
    const size_t i = farthest_movable(p, ws);
    ws->sizes[ws->assign[i]]--;
    ws->assign[i] = j;
    ws->sizes[j] = 1;
    ws->dist[i] = 0.0;
    memcpy(ws->centroids + j * p->dim, point(p, i), p->dim * sizeof(double));
    moved++;
  }
  return moved;
}

/* Moves every centroid to the mean of its points (no cluster is empty). */
static void update_centroids(const problem *p, workspace *ws) {
  memset(ws->centroids, 0, p->k * p->dim * sizeof(double));
  for (size_t i = 0; i < p->n; i++) {
    double *c = ws->centroids + ws->assign[i] * p->dim;
    const double *xi = point(p, i);
    for (size_t d = 0; d < p->dim; d++) c[d] += xi[d];
  }
  for (size_t j = 0; j < p->k; j++) {
    assert(ws->sizes[j] > 0);
    for (size_t d = 0; d < p->dim; d++) ws->centroids[j * p->dim + d] /= (double)ws->sizes[j];
  }
}

/* Assignment step followed by the empty-cluster repair; returns how many
 * assignments changed in all. */
static size_t assign_step(const problem *p, workspace *ws) {
  size_t changed = assign_points(p, ws);
  count_sizes(p, ws);
  return changed + repair_empty(p, ws);
}

/* One k-means run; returns its inertia.  The loop ends on an assignment
 * step, so the assignments always refer to the centroids returned. */
static double run_once(const problem *p, gsl_rng *rng, workspace *ws) {
  seed_plusplus(p, rng, ws);
  /* An index no cluster has, so that the first assignment step reads
   * defined values and counts every point as changed. */
  for (size_t i = 0; i < p->n; i++) ws->assign[i] = p->k;
  assign_step(p, ws);
  for (unsigned iter = 0; iter < p->max_iter; iter++) {
    update_centroids(p, ws);
    if (assign_step(p, ws) == 0) break;
  }
  double inertia = 0.0;
  for (size_t i = 0; i < p->n; i++) inertia += ws->dist[i];
  return inertia;
}

static int check_args(const double *x, size_t n, size_t dim, const sp_kmeans_params *params) {
  if (params == NULL || n == 0 || params->k == 0 || params->restarts == 0) return SP_EINVAL;
  if (dim == 0) return SP_OK;
  if (x == NULL || dim > SIZE_MAX / sizeof(double) / n) return SP_EINVAL;
  for (size_t i = 0; i < n * dim; i++)
    if (!isfinite(x[i])) return SP_EINVAL;
  return SP_OK;
}

static void workspace_free(workspace *ws) {
  free(ws->centroids);
  free(ws->assign);
  free(ws->sizes);
  free(ws->dist);
}

static int workspace_alloc(workspace *ws, size_t n, size_t k, size_t dim) {
  ws->centroids = malloc(k * dim * sizeof(double));
  ws->assign = malloc(n * sizeof(size_t));
  ws->sizes = malloc(k * sizeof(size_t));
  ws->dist = malloc(n * sizeof(double));
  if (!ws->centroids || !ws->assign || !ws->sizes || !ws->dist) {
    workspace_free(ws);
    return SP_ENOMEM;
  }
  return SP_OK;
}

/* Allocates out for k clusters.  The centroid array has at least one element
 * so that a successful result never holds a NULL pointer, even for dim 0. */
static int result_alloc(sp_kmeans_result *out, size_t n, size_t k, size_t dim) {
  out->k = k;
  out->dim = dim;
  out->centroids = malloc((k * dim > 0 ? k * dim : 1) * sizeof(double));
  out->assign = malloc(n * sizeof(size_t));
  out->sizes = malloc(k * sizeof(size_t));
  out->inertia = 0.0;
  if (!out->centroids || !out->assign || !out->sizes) {
    sp__kmeans_result_free(out);
    return SP_ENOMEM;
  }
  return SP_OK;
}

/* Points of dimension 0 are all the same point: one cluster, no distance. */
static int cluster_dim0(size_t n, sp_kmeans_result *out) {
  const int st = result_alloc(out, n, 1, 0);
  if (st != SP_OK) return st;
  memset(out->assign, 0, n * sizeof(size_t));
  out->sizes[0] = n;
  return SP_OK;
}

static void keep(const problem *p, const workspace *ws, double inertia, sp_kmeans_result *out) {
  memcpy(out->centroids, ws->centroids, p->k * p->dim * sizeof(double));
  memcpy(out->assign, ws->assign, p->n * sizeof(size_t));
  memcpy(out->sizes, ws->sizes, p->k * sizeof(size_t));
  out->inertia = inertia;
}

/* Runs the restarts into out, which is already allocated for p->k. */
static int best_of_restarts(const problem *p, const sp_kmeans_params *params, workspace *ws,
                            sp_kmeans_result *out) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (rng == NULL) return SP_ENOMEM;
  gsl_rng_set(rng, params->seed);
  for (unsigned r = 0; r < params->restarts; r++) {
    const double inertia = run_once(p, rng, ws);
    /* Strictly lower, so that among equal inertias the first run wins. */
    if (r == 0 || inertia < out->inertia) keep(p, ws, inertia, out);
  }
  gsl_rng_free(rng);
  /* Squared distances can overflow for finite but huge coordinates; such a
   * result cannot be compared or used. */
  return isfinite(out->inertia) ? SP_OK : SP_ENUMERIC;
}

int sp__kmeans(const double *x, size_t n, size_t dim, const sp_kmeans_params *params,
               sp_kmeans_result *out) {
  if (out == NULL) return SP_EINVAL;
  memset(out, 0, sizeof *out);
  int st = check_args(x, n, dim, params);
  if (st != SP_OK) return st;
  if (dim == 0) return cluster_dim0(n, out);

  problem p = {x, n, dim, params->k < n ? params->k : n, params->max_iter};
  workspace ws;
  st = workspace_alloc(&ws, n, p.k, dim);
  if (st != SP_OK) return st;
  /* Fewer distinct points than clusters would force empty clusters.  The
   * representatives are kept in ws.assign, which is unused until the first
   * run and holds n >= p.k indices. */
  p.k = count_distinct(&p, p.k, ws.assign);
  st = result_alloc(out, n, p.k, dim);
  if (st == SP_OK) st = best_of_restarts(&p, params, &ws, out);
  if (st != SP_OK) sp__kmeans_result_free(out);
  workspace_free(&ws);
  return st;
}

void sp__kmeans_result_free(sp_kmeans_result *r) {
  if (r == NULL) return;
  free(r->centroids);
  free(r->assign);
  free(r->sizes);
  memset(r, 0, sizeof *r);
}
