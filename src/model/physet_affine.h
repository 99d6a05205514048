/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_affine.h: the block-count line of a kernel measured at a second
 * CU count (docs/method.md, "physet: the block-count line").
 *
 * Many kernels run their B thread blocks in rounds: on cu CUs the busiest
 * CU runs ceil(B / cu) of them one after another, each taking about the
 * same time, plus a part that does not depend on the CU count (launch,
 * a serial tail).  Their time is a line in that count,
 *
 *   T(cu) = a + b * ceil(B / cu),
 *
 * which two measured CU counts fix (the base and one more).  The
 * neighbours physet averages have smooth surfaces and do not follow the
 * steps of one particular B; the line does, where it holds.  Whether it
 * holds is not visible in the counters alone, so a forest over the
 * kernel's features, the measured ratio at the second CU count, the
 * line's step there, that CU count and the line's constant share (all
 * known once the second count is measured) is fitted to say it: each
 * training kernel at each CU count of the grid is one sample, labelled 1
 * when the line through the base and that count predicts its other CU
 * counts within AFFINE_WITHIN on average.  Where the forest's estimate
 * is above one half, the line replaces physet's time along the CU axis
 * at the base's clocks (and its interval is moved with it).
 *
 * A kernel whose blocks fit bps at a time on a CU (bps >= 2) runs them
 * in waves instead: the busiest CU runs ceil(B / (cu bps)) waves, and
 * its time is a line in that count.  A second check of the same kind
 * says whether that line holds; it is read only where the base runs at
 * most WAVES_MAX waves (with more, the two lines round alike and the
 * blocks' check decides) and the blocks' check does not say its own line
 * holds.
 *
 * Those checks read exactly one further measured CU count at the base's
 * clocks.  With two or more, the line (in blocks, else in waves) that
 * least squares fits to the base and them needs no check: where every
 * measured point is within LINE_FIT of it, it replaces physet's time at
 * the CU counts between the least and the most measured (not beyond:
 * there a line of three points misses the bandwidth-bound kernels' knee).
 * Models whose counters give no block count have none.  Internal to the
 * physet files. */
#ifndef SP_PHYSET_AFFINE_H
#define SP_PHYSET_AFFINE_H

#include "physet_pool.h"
#include "physet_state.h"

/* The mean error under which a training sample counts as on its line. */
#define AFFINE_WITHIN 0.05
/* The least constant share a (of the base time) a line may have: a little
 * below 0 for timing noise. */
#define AFFINE_A_MIN (-0.02)
/* The most waves at the base for which a line in waves is tried: with
 * more, it rounds like the line in blocks, whose check decides. */
#define WAVES_MAX 4
/* With two or more further CU counts: the line is followed when every
 * measured point is within this of it (p->line_fit). */
#define LINE_FIT 0.02

/* Fits p->aff_forest[k] and p->aff_y[k] of each kind of round k over the
 * training kernels' features feat (n * nfeat), block counts blocks (n),
 * blocks per CU bps (n; 0: unknown) and measured log time ratios lt
 * (n * gsize[SP_TIME]); leaves them NULL when the grid has fewer than
 * three CU counts, lacks the base's clocks at one (p->cu_at NULL) or no
 * kernel gives a sample of that kind.  SP_OK or SP_ENOMEM. */
int sp__physet_fit_affine(sp_physet *p, const double *feat, const double *blocks, const double *bps,
                          const double *lt, const sp_forest_params *fp);

/* When the observation holds exactly one further time measurement on the
 * CU axis at the base's clocks and a check says its line holds (the
 * blocks' first, then the waves'), replaces out (and moves lo and hi,
 * when not NULL) at the CU axis's points with that line.  bps: the
 * blocks one CU holds at once (0: unknown, no line in waves).  s->feat
 * must hold the kernel's features. */
void sp__physet_apply_affine(const sp_physet *p, const sp_observation *obs, double blocks,
                             double bps, scratch *s, double *out, double *lo, double *hi);

#endif
