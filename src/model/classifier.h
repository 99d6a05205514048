/* SPDX-License-Identifier: GPL-3.0-or-later */
/* classifier.h: the per-cluster-set neural-network classifier (paper III-D).
 * A three-layer fully connected FANN network: linear inputs (counters
 * normalized to [0,1]), one sigmoid hidden layer with as many neurons as
 * clusters, one sigmoid output per cluster; argmax picks the cluster.
 * Internal to libscalepredict. */
#ifndef SP_CLASSIFIER_H
#define SP_CLASSIFIER_H

#include <stddef.h>

typedef struct sp_classifier sp_classifier;

/* The largest network file a model may hold (its networks are tens of
 * kilobytes); it must be a regular file, so that a link to /dev/zero is
 * refused at once rather than read forever. */
#define SP_NETWORK_FILE_MAX_BYTES ((size_t)1 << 30)

typedef struct sp_classifier_params {
  unsigned long seed; /* weight initialization (reproducible) */
  unsigned max_epochs;
  double desired_error; /* MSE at which training stops */
} sp_classifier_params;

/* Trains on n samples: x is n * ninputs (already normalized), labels[i] is
 * in [0, nclasses).  nclasses == 1 yields a trivial classifier with no
 * network.  Deterministic for a given seed (FANN's rand() is reseeded). */
int sp__classifier_train(const double *x, const size_t *labels, size_t n, size_t ninputs,
                         size_t nclasses, const sp_classifier_params *params, sp_classifier **out);
/* Returns the chosen class; if outputs is not NULL it receives the
 * nclasses raw network outputs (all 1.0 for a trivial classifier). */
size_t sp__classifier_classify(const sp_classifier *c, const double *x, double *outputs);
size_t sp__classifier_inputs(const sp_classifier *c);
size_t sp__classifier_classes(const sp_classifier *c);
/* Final training MSE (0 for a trivial classifier). */
double sp__classifier_train_mse(const sp_classifier *c);
/* Saves the network as a FANN text file (nothing is written for a trivial
 * classifier; has_network tells the caller).  Load validates the topology
 * against the expected input and class counts (SP_EMODEL otherwise). */
int sp__classifier_has_network(const sp_classifier *c);
int sp__classifier_save(const sp_classifier *c, const char *path);
int sp__classifier_load(const char *path, size_t ninputs, size_t nclasses, sp_classifier **out);
/* A trivial one-class classifier (what load returns for nclasses == 1). */
int sp__classifier_trivial(size_t ninputs, sp_classifier **out);
void sp__classifier_free(sp_classifier *c);

#endif
