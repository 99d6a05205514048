/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gp.h: the surrogate of a measurement campaign, a Gaussian process over a
 * fixed set of candidate points (a configuration grid in normalised log
 * coordinates).  It knows nothing of datasets or kernels.  Internal. */
#ifndef SP_GP_H
#define SP_GP_H

#include <stddef.h>

/* At most three coordinates: compute units, engine clock, memory clock. */
#define SP_GP_MAX_DIM 3
/* The hyperparameters are estimated on at most this many of the measured
 * points (spread evenly over them in grid order); the posterior conditions
 * on all of them.  It bounds the cost of the likelihood's optimisation
 * (cubic in the points) while a dozen times the hyperparameter count is
 * ample to estimate five numbers. */
#define SP_GP_FIT_MAX 64

/* The candidates: n points of dim coordinates each, every coordinate in
 * [0, 1] (dim may be 0: a grid of one point). */
typedef struct sp_gp_points {
  const double *z; /* n * dim */
  size_t n, dim;
} sp_gp_points;

/* Hyperparameters, as logarithms: the signal variance, one length scale per
 * coordinate and the noise variance. */
typedef struct sp_gp_hyper {
  double log_sf2;
  double log_ell[SP_GP_MAX_DIM];
  double log_sn2;
} sp_gp_hyper;

typedef struct sp_gp sp_gp;

/* Fits the process to the values y[i] observed at candidates idx[i]
 * (n >= 1 distinct indices): estimates the hyperparameters by maximising
 * their posterior (the marginal likelihood times a weak prior), then
 * conditions on every observation.  SP_ENOMEM, SP_EINVAL for n == 0, or
 * SP_ENUMERIC when no covariance matrix could be factorised. */
int sp__gp_fit(const sp_gp_points *pts, const size_t *idx, const double *y, size_t n, sp_gp **out);
void sp__gp_free(sp_gp *gp);

/* The posterior mean and variance of the latent value at candidate j (the
 * variance leaves out the measurement noise). */
double sp__gp_mean(const sp_gp *gp, size_t j);
double sp__gp_var(const sp_gp *gp, size_t j);
const sp_gp_hyper *sp__gp_hyper(const sp_gp *gp);

/* Picks up to batch candidates, where measured[j] == 0, by maximum
 * posterior variance summed over the ngp processes (all fitted over the
 * same points); after each pick the processes are conditioned on a
 * measurement there, whose value does not matter to a variance, before the
 * next.  Writes the candidates into out in the order picked and returns
 * how many (fewer than batch only when no candidate is left); (size_t)-1
 * when out of memory. */
size_t sp__gp_pick(const sp_gp *const *gps, size_t ngp, const unsigned char *measured, size_t batch,
                   size_t *out);

/* The same one pick at a time, for a caller that chooses the picks
 * itself: the summed variances of the ngp processes at every candidate,
 * conditioned on the picks taken so far (at most batch).  The picker keeps
 * gps (the array, not a copy): it must outlive the picker. */
typedef struct sp_gp_picker sp_gp_picker;
sp_gp_picker *sp__gp_picker_alloc(const sp_gp *const *gps, size_t ngp, size_t batch);
void sp__gp_picker_free(sp_gp_picker *pk);
const double *sp__gp_picker_var(const sp_gp_picker *pk);
void sp__gp_picker_take(sp_gp_picker *pk, size_t s);

#endif
