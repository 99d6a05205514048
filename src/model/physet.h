/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet.h: the "physet" prediction method: a physical prior for each
 * quantity plus the residual scaling of similar training kernels, where
 * similarity is learned by extremely randomized trees.  Internal.
 *
 * Time.  A kernel's log time ratio target/base is the prior
 *   log(ceil(B / cu_target) / ceil(B / cu_base))
 * (B thread blocks spread over the compute units: a grid smaller than the
 * CU count does not slow down until the CUs run out, and a grid of a few
 * waves slows down in steps), plus, where the grid varies the clocks, the
 *   lambda * log(u * m_base / m + (1 - u) * e_base / e)
 * of a kernel that spends the share u of its time waiting on DRAM (memory
 * clock m; with the memory systems described, method file version 9, m
 * reads as the peak bandwidth) and the rest on the SMs (engine clock e),
 * plus a residual.  u
 * comes from the kernel's DRAM traffic at the base (featplan.h) through a
 * sigmoid u = 1 / (1 + exp(-(s / s_max - mid) / width)) fitted to the u
 * that best explains each training kernel's own surface; lambda < 1
 * shrinks the prior toward the residual average, since DRAM traffic alone
 * does not tell a half memory-bound kernel's u.  The residual surfaces of
 * the training kernels are averaged with the forest's weights for the new
 * kernel's features (featplan.h).  Without a block count the CU prior is 0;
 * without DRAM counters, or on a grid of one clock pair, the clock prior is.
 *
 * Power.  Board power is a floor F (what the board draws with its clocks up
 * and nothing to do) plus a dynamic part whose energy per launch changes
 * little with the configuration, so
 *   P(c) / P(base) = phi(c) + (1 - phi(c)) * T(base) / T(c),
 *   phi(c) = F(c) / P(base),
 * times a learned residual as for time.  phi is a ratio, the same on two
 * boards of one model that read power differently; it comes from the
 * user's own floor measurement when given, else from the training kernels
 * that the forest finds similar.  Without a floor in the training data the
 * prior is 1 and power is learned as time is.
 *
 * Further measurements.  When the kernel was also measured at other
 * configurations, the training kernels are reweighted by how well their
 * residuals match those measurements (a Gaussian in log space of width
 * sigma), and the remaining mismatch is interpolated (inverse squared
 * distance in log-configuration space, zero at the base) so that the
 * prediction passes through every measured point.
 *
 * The method's files: the state (physet_state.h), the priors
 * (physet_prior.c), the scratch pool (physet_pool.c), the fit
 * (physet_fit.c), the method file (physet_file.c), the type of method.h
 * (physet_method.c), and here the type's life and prediction. */
#ifndef SP_PHYSET_H
#define SP_PHYSET_H

#include <stddef.h>

#include "physet_prior.h"
#include "scalepredict.h"

void sp__physet_free(sp_physet *p);

/* Everything the prediction path reads besides the fitted or saved state,
 * and the pool of scratch (empty until the first prediction): after a fit
 * or a load.  SP_ENOMEM. */
int sp__physet_index_model(sp_physet *p);

/* Predicts q at every point of its grid (out: grid size values).  lo and hi
 * (either may be NULL) receive a 90% interval.  SP_ENOPOWER when the
 * method has no power model or the observation no base power. */
int sp__physet_predict(const sp_physet *p, sp_quantity q, const sp_observation *obs, double *out,
                       double *lo, double *hi);

/* How unlike the training kernels the observed kernel is (novelty.h), or
 * NaN when the method file has no novelty measure (versions 1-3). */
double sp__physet_novelty(const sp_physet *p, const sp_observation *obs);

/* Vocabulary of features in use ("nsight", "nvprof", "generic"). */
const char *sp__physet_vocabulary(const sp_physet *p);
int sp__physet_has_floor(const sp_physet *p);
/* The training board's floor (W) at point c of the power grid;
 * SP_ENOTFOUND without a floor or off the grid. */
int sp__physet_floor_at(const sp_physet *p, const sp_config *c, double *watts);

#endif
