/* SPDX-License-Identifier: GPL-3.0-or-later */
/* forest.h: extremely randomized trees (Geurts et al., 2006) for vector
 * targets, used as an adaptive similarity between kernels.  Internal.
 *
 * A forest is fitted on n training samples (p features, m outputs each) and
 * answers one question: for a query point, how much weight does each
 * training sample get?  The weight of sample j is the average over trees of
 * 1/|leaf| when j shares the query's leaf, else 0, so the weights sum to
 * one and the forest's regression estimate is sum_j w_j y_j.  Callers use
 * the weights directly: to average whole scaling surfaces, to reweight them
 * by further measurements, and to read off quantiles for intervals.
 *
 * Splits are chosen as in extra-trees: at each node a random subset of
 * features, one uniformly random threshold per feature, and the candidate
 * that most reduces the summed squared error over all m outputs.  Fitting
 * is deterministic for a given seed. */
#ifndef SP_FOREST_H
#define SP_FOREST_H

#include <stddef.h>
#include <stdio.h>

typedef struct sp_forest sp_forest;

typedef struct sp_forest_params {
  size_t trees;        /* number of trees */
  size_t min_leaf;     /* smallest number of samples in a leaf */
  double max_features; /* share of features tried per split, (0, 1] */
  unsigned long seed;
} sp_forest_params;

/* 100 trees, leaves of one sample, every feature tried, seed 1. */
void sp__forest_params_init(sp_forest_params *fp);

/* x: n * p features (row-major), y: n * m outputs.  Non-finite features
 * must have been replaced by the caller.  SP_EINVAL for n == 0 or p == 0,
 * SP_ENOMEM when out of memory. */
int sp__forest_fit(const double *x, size_t n, size_t p, const double *y, size_t m,
                   const sp_forest_params *fp, sp_forest **out);
void sp__forest_free(sp_forest *f);

size_t sp__forest_samples(const sp_forest *f);
size_t sp__forest_features(const sp_forest *f);

/* Writes the weight of each training sample for query xq (p values) into
 * w (n values).  Reads the forest only: safe from several threads. */
void sp__forest_weights(const sp_forest *f, const double *xq, double *w);

/* The forest's estimate for xq of one value per training sample, y (n
 * values): sum_j w_j y_j with the weights above, without room for them. */
double sp__forest_mean(const sp_forest *f, const double *xq, const double *y);
/* Text form: one header line, then one line per node.  Load reads what
 * save wrote; any inconsistency (an index out of range, a child that does
 * not follow its parent, a sample listed twice in a tree) is SP_EMODEL with
 * *line set to the offending line, counted from first_line; on success
 * *line is the forest's last line. */
int sp__forest_save(const sp_forest *f, FILE *fp);
int sp__forest_load(FILE *fp, long first_line, long *line, sp_forest **out);

#endif
