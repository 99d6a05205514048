/* scalepredict.h: the public interface of libscalepredict.
 *
 * scalepredict predicts how a GPU kernel's run time and power change across
 * hardware configurations (compute-unit count x engine clock x memory clock)
 * from one measurement at a base configuration, following Wu et al.,
 * "GPGPU performance and power estimation using machine learning" (HPCA 2015).
 *
 * Conventions: every function that can fail returns an sp_status (0 on
 * success) and, where the failure concerns an input, fills an sp_error with
 * the file, line, column and field at fault.  The library never prints and
 * never exits.  Objects come in _alloc/_load and _free pairs; _free(NULL) is a
 * no-op.
 */
#ifndef SCALEPREDICT_H
#define SCALEPREDICT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SP_VERSION_STRING "0.1.0"

/* ---- status codes and error context ---------------------------------- */

typedef enum sp_status {
  SP_OK = 0,
  SP_ENOMEM,    /* out of memory */
  SP_EIO,       /* a file could not be read or written */
  SP_EPARSE,    /* malformed input: see the sp_error for where */
  SP_EINVAL,    /* an argument is invalid */
  SP_EGRID,     /* the configuration grid has a hole or a config is off-grid */
  SP_ENOTFOUND, /* a named kernel, counter or configuration does not exist */
  SP_ENOPOWER,  /* power was asked for but the data or model has none */
  SP_EMODEL,    /* a saved model is corrupt, edited or of another version */
  SP_ENUMERIC,  /* a numerical procedure failed (degenerate data) */
  SP_STATUS_COUNT
} sp_status;

/* Human-readable name of a status code. Never NULL. */
const char *sp_strerror(int status);

/* Where and why an operation failed.  Fields that do not apply are empty
 * strings or 0.  Line and column are 1-based. */
typedef struct sp_error {
  int status;
  char file[512];
  long line;
  long column;
  char field[128];
  char message[512];
} sp_error;

void sp_error_clear(sp_error *err);
/* One line: "FILE:LINE:COL: field 'F': MESSAGE" (parts omitted when absent). */
int sp_error_format(const sp_error *err, char *buf, size_t size);

/* ---- hardware configurations ------------------------------------------ */

typedef struct sp_config {
  int cu;         /* compute units (SMs on NVIDIA) */
  int engine_mhz; /* engine (core) clock */
  int memory_mhz; /* memory clock */
} sp_config;

/* Parses "32cu/1000/1375" (the "cu" suffix is optional).  Returns SP_EPARSE
 * with a message when the text is not a valid configuration. */
int sp_config_parse(const char *text, sp_config *out, sp_error *err);
/* Writes "32cu/1000/1375"; returns the snprintf result. */
int sp_config_format(const sp_config *cfg, char *buf, size_t size);
int sp_config_equal(const sp_config *a, const sp_config *b);

/* ---- measurements: runs.csv + counters.csv ---------------------------- */

typedef struct sp_dataset sp_dataset;

/* Loads runs.csv (kernel,cu,engine_mhz,memory_mhz,time_ms,power_w) and,
 * if counters_path is not NULL, counters.csv (kernel,cu,engine_mhz,
 * memory_mhz,<counter>...).  Rows need not form a complete grid here;
 * completeness is checked when surfaces are built. */
int sp_dataset_load(const char *runs_path, const char *counters_path,
                    sp_dataset **out, sp_error *err);
void sp_dataset_free(sp_dataset *ds);

size_t sp_dataset_kernel_count(const sp_dataset *ds);
const char *sp_dataset_kernel_name(const sp_dataset *ds, size_t k);
/* Index of a kernel by name, or (size_t)-1. */
size_t sp_dataset_kernel_index(const sp_dataset *ds, const char *name);
size_t sp_dataset_counter_count(const sp_dataset *ds);
const char *sp_dataset_counter_name(const sp_dataset *ds, size_t c);
const char *sp_dataset_runs_path(const sp_dataset *ds);
const char *sp_dataset_counters_path(const sp_dataset *ds);

/* Distinct values of each axis found in runs.csv, ascending. */
size_t sp_dataset_axis(const sp_dataset *ds, int axis, const int **values);
enum { SP_AXIS_CU = 0, SP_AXIS_ENGINE = 1, SP_AXIS_MEMORY = 2 };

/* Measured time (ms) or power (W) of kernel k at cfg.  Returns SP_ENOTFOUND
 * when there is no such row, SP_ENOPOWER when the row has no power. */
int sp_dataset_time(const sp_dataset *ds, size_t k, const sp_config *cfg,
                    double *time_ms);
int sp_dataset_power(const sp_dataset *ds, size_t k, const sp_config *cfg,
                     double *power_w);
/* Counter row of kernel k at cfg (sp_dataset_counter_count values). */
int sp_dataset_counters(const sp_dataset *ds, size_t k, const sp_config *cfg,
                        const double **values);

/* ---- scaling surfaces (paper III-B) ------------------------------------ */

typedef enum sp_quantity { SP_TIME = 0, SP_POWER = 1 } sp_quantity;

typedef struct sp_surface sp_surface;

/* Builds the scaling surface of kernel k for time or power over the
 * dataset's full grid.  A missing grid point is SP_EGRID naming it. */
int sp_surface_build(const sp_dataset *ds, size_t k, sp_quantity q,
                     sp_surface **out, sp_error *err);
void sp_surface_free(sp_surface *s);
/* Writes the surface as readable CSV: one row per scaling value with its
 * region (cu), kind (engine|memory|cu) and the two configurations it links. */
int sp_surface_write_csv(const sp_surface *s, FILE *fp);
/* Predicts the value at target from the value at base by applying the
 * surface's own scaling values (exact for training data). */
int sp_surface_scale(const sp_surface *s, const sp_config *base,
                     const sp_config *target, double base_value, double *out);

/* ---- models (paper III-C, III-D) ---------------------------------------- */

typedef struct sp_model sp_model;

typedef struct sp_train_params {
  sp_config base;        /* base configuration */
  size_t clusters;       /* k per cluster set (capped at the kernel count) */
  unsigned long seed;    /* seeds k-means and network initialization */
  unsigned restarts;     /* k-means restarts (best inertia kept) */
  unsigned max_epochs;   /* FANN training epochs */
  double desired_error;  /* FANN training stop (MSE) */
  const unsigned char *use_kernel; /* NULL = all; else 1 to train on kernel */
} sp_train_params;

/* Fills defaults: k = 12, seed = 1, 10 restarts, 2000 epochs, MSE 1e-4. */
void sp_train_params_init(sp_train_params *p);

/* Progress callback for long operations: done out of total steps. */
typedef void (*sp_progress_fn)(void *user, size_t done, size_t total,
                               const char *what);

int sp_model_train(const sp_dataset *ds, const sp_train_params *params,
                   sp_progress_fn progress, void *user, sp_model **out,
                   sp_error *err);
void sp_model_free(sp_model *m);

/* Saves into dir atomically (written to a temporary sibling, then renamed
 * over dir): a versioned text manifest (manifest.txt, ending in a SHA-256 of
 * its own contents) plus one FANN network file per non-trivial classifier.
 * Loading checks the version, every field, the checksums and the networks'
 * topologies; any problem is SP_EMODEL naming the file, line and field. */
int sp_model_save(const sp_model *m, const char *dir, sp_error *err);
int sp_model_load(const char *dir, sp_model **out, sp_error *err);

/* Descriptive fields recorded in the manifest (copied). */
int sp_model_set_name(sp_model *m, const char *name);
int sp_model_set_source(sp_model *m, const char *source, int synthetic);

const char *sp_model_name(const sp_model *m);
sp_config sp_model_base(const sp_model *m);
int sp_model_has_power(const sp_model *m);
/* Free text provenance, e.g. "synthetic (training/synth, seed 1)". */
const char *sp_model_source(const sp_model *m);
int sp_model_is_synthetic(const sp_model *m);
size_t sp_model_counter_count(const sp_model *m);
const char *sp_model_counter_name(const sp_model *m, size_t c);
/* Configurations the model can predict for quantity q, in grid order. */
size_t sp_model_config_count(const sp_model *m, sp_quantity q);
sp_config sp_model_config_at(const sp_model *m, sp_quantity q, size_t i);
/* Index of cfg in the model's grid for q, or (size_t)-1. */
size_t sp_model_config_index(const sp_model *m, sp_quantity q,
                             const sp_config *cfg);

/* ---- prediction --------------------------------------------------------- */

/* A new kernel as measured once at the model's base configuration. */
typedef struct sp_observation {
  const char *kernel;      /* for messages */
  double base_time_ms;
  double base_power_w;     /* NaN when not measured */
  const double *counters;  /* in the model's counter order */
} sp_observation;

/* What happened while classifying: counters clamped to the training range. */
typedef struct sp_predict_info {
  size_t clamped;            /* how many counter values were clamped */
  size_t first_clamped;      /* index of the first clamped counter */
} sp_predict_info;

/* Predicts q at target.  For SP_POWER the observation's base power is used
 * and SP_ENOPOWER is returned when the model or observation has none. */
int sp_model_predict(const sp_model *m, sp_quantity q,
                     const sp_observation *obs, const sp_config *target,
                     double *out, sp_predict_info *info);

/* Predicts q at every configuration of the model's grid for q, writing
 * sp_model_config_count(m, q) values into out (in grid order). */
int sp_model_predict_all(const sp_model *m, sp_quantity q,
                         const sp_observation *obs, double *out,
                         sp_predict_info *info);

/* Gathers kernel k's counters from ds at the model's base configuration in
 * the model's counter order (missing counters are SP_ENOTFOUND naming
 * them). out holds sp_model_counter_count(m) values. */
int sp_model_observe(const sp_model *m, const sp_dataset *ds, size_t k,
                     double *counters, sp_observation *obs, sp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* SCALEPREDICT_H */
