/* SPDX-License-Identifier: GPL-3.0-or-later */
/* novelty.h: how unlike the training kernels a new kernel is.  Internal.
 *
 * A novelty measure keeps the training kernels' feature vectors, each
 * feature scaled by the inverse of its standard deviation over them.  A
 * kernel's novelty is its distance to the nearest training kernel divided
 * by the spacing of the training set: the distance that all but the most
 * isolated tenth of the training kernels keep to their own nearest other
 * (SP_NOVELTY_QUANTILE).  Above 1 the kernel lies farther from every
 * training kernel than nine in ten training kernels lie from theirs: its
 * prediction rests on kernels that do not behave like it. */
#ifndef SP_NOVELTY_H
#define SP_NOVELTY_H

#include <stddef.h>
#include <stdio.h>

/* Share of the training kernels whose nearest-other distance is at most
 * the spacing. */
#define SP_NOVELTY_QUANTILE 0.9

typedef struct sp_novelty sp_novelty;

/* x: n * p features (row-major, finite).  SP_EINVAL for n < 2 or p == 0,
 * SP_ENOMEM when out of memory. */
int sp__novelty_fit(const double *x, size_t n, size_t p, sp_novelty **out);
void sp__novelty_free(sp_novelty *nv);

/* Novelty of the features xq (p values); reads only: thread-safe. */
double sp__novelty_of(const sp_novelty *nv, const double *xq);

/* Text form: "novelty N P SPACING", a "scale" line and N "x" lines.  Load
 * reads what save wrote for p features; a damaged file is SP_EMODEL with
 * *line set to the offending line, counted from first_line. */
int sp__novelty_save(const sp_novelty *nv, FILE *fp);
int sp__novelty_load(FILE *fp, size_t p, long first_line, long *line, sp_novelty **out);

#endif
