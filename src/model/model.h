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
#include "physet.h"
#include "scalepredict.h"
#include "surface.h"

/* Version 2 added the methods a model carries (version 1 models carry
 * wu2015 only and still load). */
#define SP_MODEL_FORMAT_VERSION 2

typedef enum sp_set_kind { SP_SET_REGION = 0, SP_SET_CU = 1 } sp_set_kind;

typedef struct sp_cluster_set {
  sp_set_kind kind;
  size_t region;       /* CU index for SP_SET_REGION */
  size_t dim;          /* scaling values per centroid */
  size_t k;            /* clusters */
  double *centroids;   /* k * dim */
  size_t *assign;      /* k-means cluster of each training kernel */
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
  double *cmin, *cmax;    /* training range per counter */
  size_t ntrain;
  char **train_kernels;   /* names, in the order of sets[].assign */
  sp_submodel sub[2];     /* indexed by sp_quantity */
  /* provenance */
  char *runs_path, *counters_path;
  char runs_sha256[65], counters_sha256[65];
  unsigned long seed;
  size_t clusters_requested;
  unsigned restarts, max_epochs;
  double desired_error;
  char created[32];
  char *power_note;       /* why power is absent or reduced, or NULL */
  /* Methods besides wu2015 (model.h's only one so far: physet). */
  sp_physet *physet;      /* NULL when the model does not carry it */
  int recommend_physet;   /* physet is the recommended method */
  int use_physet;         /* physet is the method in use */
};

/* ---- model.c: the object, shared by train.c, predict.c and modelio.c --- */

/* Allocates an empty model (everything zeroed). */
sp_model *sp__model_alloc(void);
/* Replaces *dst with a copy of src (NULL allowed); SP_ENOMEM on failure. */
int sp__set_string(char **dst, const char *src);
/* SP_OK when q is a quantity the model predicts, else SP_EINVAL or
 * SP_ENOPOWER. */
int sp__model_check_quantity(const sp_model *m, sp_quantity q);

/* The CU cluster set of s, or NULL when the grid has one CU count. */
const sp_cluster_set *sp__submodel_cu_set(const sp_submodel *s);
/* The cluster the set's classifier picks for normalized counters x; outputs
 * (cs->k values, may be NULL) gets the network's raw outputs. */
size_t sp__set_classify(const sp_cluster_set *cs, const double *x, double *outputs);
/* The cluster whose centroid is nearest features (cs->dim values). */
size_t sp__set_nearest(const sp_cluster_set *cs, const double *features);

/* Normalizes raw counters into x (ncounters values) with clamping. */
void sp__model_normalize(const sp_model *m, const double *raw, double *x,
                         sp_predict_info *info);

/* ---- predict.c ----------------------------------------------------------- */

/* Predicts every grid point of q from explicit cluster choices (one per set,
 * in set order); used for oracle evaluation. */
int sp__model_predict_choice(const sp_model *m, sp_quantity q,
                             const size_t *choice, double base_value,
                             double *out);

#endif
