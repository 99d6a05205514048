/* SPDX-License-Identifier: GPL-3.0-or-later */
/* model.h: the trained predictor (paper Fig. 6).  Internal.
 *
 * A model holds one "submodel" per quantity (time, and power when the data
 * has it).  Each submodel has its own grid (power may be measured on fewer
 * configurations) and its cluster sets: one per CU count over that region's
 * engine+memory scaling values, plus one over the CU scaling vectors at the
 * base clocks when there is more than one CU count.  Every cluster set keeps
 * its centroids (the representative scaling surfaces), a classifier from
 * normalized base counters to a cluster, and the k-means assignment of each
 * training kernel (the "oracle" choice used by evaluations). */
#ifndef SP_MODEL_H
#define SP_MODEL_H

#include <stddef.h>

#include "classifier.h"
#include "method.h"
#include "scalepredict.h"
#include "surface.h"

/* Version 2 added the methods a model carries (version 1 models carry
 * wu2015 only and still load). */
#define SP_MODEL_FORMAT_VERSION 2

/* A saved model lists at most this many methods (its manifest is checked
 * against it): room for every table entry with some to spare. */
#define SP_MODEL_MAX_METHODS 16

/* One method a model carries: its type and the state that type made. */
typedef struct sp_method_slot {
  const sp_method_type *type;
  void *state;
} sp_method_slot;

typedef enum sp_set_kind { SP_SET_REGION = 0, SP_SET_CU = 1 } sp_set_kind;

typedef struct sp_cluster_set {
  sp_set_kind kind;
  size_t region;     /* CU index for SP_SET_REGION */
  size_t dim;        /* scaling values per centroid */
  size_t nclusters;  /* k, the clusters */
  double *centroids; /* nclusters * dim */
  size_t *assign;    /* k-means cluster of each training kernel */
  double inertia;
  sp_classifier *clf;
  /* Training kernels the classifier puts in another cluster than k-means
   * did; known only right after training (SIZE_MAX for a loaded model). */
  size_t misclassified;
} sp_cluster_set;

typedef struct sp_submodel {
  int present;
  sp_grid grid;
  sp_grid_point base;
  size_t nsets;
  sp_cluster_set *sets; /* regions in CU order, then the CU set if any */
} sp_submodel;

struct sp_model {
  char *name;
  char *source;
  int synthetic;
  sp_config base;
  size_t ncounters;
  char **counter_names;
  double *cmin, *cmax; /* training range per counter */
  size_t ntrain;
  char **train_kernels; /* names, in the order of sets[].assign */
  sp_submodel sub[2];   /* indexed by sp_quantity */
  /* provenance */
  char *runs_path, *counters_path;
  char runs_sha256[65], counters_sha256[65];
  unsigned long seed;
  size_t clusters_requested;
  unsigned restarts, max_epochs;
  double desired_error;
  char created[32];
  char *power_note; /* why power is absent or reduced, or NULL */
  /* The methods the model carries (method.h): slot 0 is wu2015, whose
   * state is the submodels above; the others follow in table order. */
  size_t nmethods;
  sp_method_slot methods[SP_MODEL_MAX_METHODS];
  size_t recommended; /* slot of the recommended method */
  size_t in_use;      /* slot of the method predictions use */
};

/* ---- model.c: the object, shared by every other file of the folder ----- */

/* Allocates an empty model (everything zeroed) that carries wu2015 only. */
sp_model *sp__model_alloc(void);
/* Adds a method with its state (the model owns it from then on; it is
 * freed here on failure) and makes it the recommended one and the one in
 * use.  SP_EINVAL when the model already carries SP_MODEL_MAX_METHODS. */
int sp__model_add_method(sp_model *m, const sp_method_type *type, void *state);
/* The context a method of m sees (method.h). */
sp_method_context sp__model_method_context(const sp_model *m);
/* Replaces *dst with a copy of src (NULL allowed); SP_ENOMEM on failure. */
int sp__set_string(char **dst, const char *src);
/* SP_OK when q is a quantity the model predicts, else SP_EINVAL or
 * SP_ENOPOWER. */
int sp__model_check_quantity(const sp_model *m, sp_quantity q);

/* The CU cluster set of s, or NULL when the grid has one CU count. */
const sp_cluster_set *sp__submodel_cu_set(const sp_submodel *s);
/* The cluster the set's classifier picks for normalized counters x; outputs
 * (cs->nclusters values, may be NULL) gets the network's raw outputs. */
size_t sp__set_classify(const sp_cluster_set *cs, const double *x, double *outputs);
/* The cluster whose centroid is nearest features (cs->dim values). */
size_t sp__set_nearest(const sp_cluster_set *cs, const double *features);

/* Normalizes raw counters into x (ncounters values) with clamping. */
void sp__model_normalize(const sp_model *m, const double *raw, double *x, sp_predict_info *info);
/* Typical counter sets fit on the stack; only very wide ones allocate. */
#define SP_NORM_STACK 256
/* raw normalized into stack (SP_NORM_STACK values) or, for wider models, a
 * heap buffer the caller frees when it is not stack; NULL when out of
 * memory. */
double *sp__model_normalized(const sp_model *m, const double *raw, double *stack,
                             sp_predict_info *info);
/* SP_OK when every v[0..n) is a positive finite time or power, else
 * SP_ENUMERIC: a product of scaling values can still overflow or underflow
 * for extreme inputs, a numerical failure, never a value to print. */
int sp__check_positive(const double *v, size_t n);

/* The method of m named name, or NULL when m does not carry it. */
const sp_method_slot *sp__model_slot(const sp_model *m, const char *name);

#endif
