/* SPDX-License-Identifier: GPL-3.0-or-later */
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
  SP_EEXIST,    /* an output path holds something scalepredict did not write */
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
/* Fills err (when not NULL) and returns status, for callers of the library
 * that report their own errors in the same form (the CLI, user policies).
 * file and field may be NULL. */
int sp_error_set(sp_error *err, int status, const char *file, long line, long column,
                 const char *field, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* One line: "FILE:LINE:COL: field 'F': MESSAGE" (parts omitted when absent). */
int sp_error_format(const sp_error *err, char *buf, size_t size);

/* ---- writing CSV and JSON ----------------------------------------------- */

/* Writes s as a JSON string literal (quotes, backslashes and control
 * characters escaped). */
void sp_json_write_string(FILE *fp, const char *s);
/* Writes s as one CSV field, quoted when it holds a comma, a double quote,
 * CR or LF (RFC 4180). */
void sp_csv_write_field(FILE *fp, const char *s);

/* ---- what an output may replace --------------------------------------- */

typedef enum sp_output_kind {
  SP_OUTPUT_MODEL = 0, /* a model directory (sp_model_save) */
  SP_OUTPUT_REPORT,    /* a report directory (evaluation, dse, governor) */
  SP_OUTPUT_EXPORT,    /* an export CSV file (sp_export_save) */
  SP_OUTPUT_SURFACES,  /* a surfaces CSV file (sp_surfaces_save) */
  SP_OUTPUT_COMPLETED, /* a completed runs CSV file (sp_plan_save_completed) */
  SP_OUTPUT_PROFILE    /* a profile directory (sp_profile_write) */
} sp_output_kind;

/* SP_OK when path may receive an output of kind: nothing is there, or an
 * empty directory (directory kinds) or empty file (file kinds), or what
 * scalepredict wrote as that kind: a directory holding the kind's marker
 * file (".scalepredict-model", ".scalepredict-report",
 * ".scalepredict-profile"; a model saved without one is recognised by its
 * manifest.txt) and nothing else than the files the marker lists (a marker
 * written before the list existed: the names that kind of output has), a
 * CSV file whose first line is the kind's header.  Anything else is
 * SP_EEXIST naming path and, for a directory, the first entry (in byte
 * order) that scalepredict did not write; the message names --force, the
 * tool's option for sp_output_set_force.  Refused whatever the force:
 * a profile directory (also one an older version marked as a report) for
 * any other kind, a regular file for a directory kind, an output that is
 * one of the inputs registered with sp_output_add_input or (a directory
 * kind) a directory that holds one (SP_EEXIST), and an empty path
 * (SP_EINVAL).  Every save checks this itself, before it starts and again
 * before it renames its output into place; call it to refuse early. */
int sp_output_check(const char *path, sp_output_kind kind, sp_error *err);
/* Process-wide (set it before writing outputs): let outputs replace files
 * and directories that scalepredict did not write too, and the files a
 * user added inside an older output, which go with it.  A regular file is
 * never replaced by a directory, forced or not. */
void sp_output_set_force(int force);
/* The entries of the directory path that replacing it with an output of
 * kind would remove although scalepredict did not write them there (every
 * entry of a directory that is not such an output): their number, and as
 * many of their names as fit, in byte order and separated by ", ", into
 * names (size bytes, always terminated; names may be NULL when size is 0).
 * 0 for an empty or missing path, a file, or a file kind.  For a note
 * under --force, when sp_output_check has let them go. */
size_t sp_output_foreign(const char *path, sp_output_kind kind, char *names, size_t size);
/* Process-wide (register before writing outputs): path, a file or
 * directory the caller reads, is an input, never replaced by an output:
 * sp_output_check refuses an output that is the same file (the same device
 * and inode, so also through another name or a link) or, for a directory
 * kind, a directory that holds it at any depth, with a message naming
 * label (the option that named the input, e.g. "--runs"; may be NULL) and
 * path; --force does not lift this.  A path that does not exist is not
 * recorded (there is nothing to keep); SP_ENOMEM is the only failure. */
int sp_output_add_input(const char *path, const char *label, sp_error *err);
/* Forgets every input registered with sp_output_add_input. */
void sp_output_clear_inputs(void);
/* Removes the temporary files and directories of the outputs being written,
 * and those recorded with sp_output_track, for a SIGINT/SIGTERM handler that
 * then ends the process. */
void sp_output_cleanup(void);
/* Records path (copied), a temporary file or directory of the caller's,
 * until sp_output_untrack: sp_output_cleanup removes it, a directory with
 * what it holds (folders at most 8 deep; links are removed, not followed).
 * Block SIGINT, SIGTERM and SIGHUP between making it and recording it, so
 * that a signal in between cannot leave it behind. */
void sp_output_track(const char *path);
void sp_output_untrack(const char *path);

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
 * completeness is checked when surfaces are built.  runs.csv may have
 * further columns, which are ignored, and an optional 'source' column:
 * "measured" (or empty) for a measurement, "completed" for a value a
 * surrogate filled in (sp_plan_write_completed); anything else is an
 * error.  Every command uses completed rows as data, except plans, which
 * do not count them as measured. */
int sp_dataset_load(const char *runs_path, const char *counters_path, sp_dataset **out,
                    sp_error *err);
void sp_dataset_free(sp_dataset *ds);

/* Named ways past the loader's strictness, each reported in the dataset's
 * notes (sp_dataset_note) with what it skipped. */
typedef struct sp_dataset_options {
  /* Counter columns of counters.csv to drop, NULL-terminated (NULL: none):
   * every column of each name, so a duplicated column can be dropped.  A
   * name the header lacks is an error. */
  const char *const *ignore_counters;
  /* Skip counters.csv rows of kernels that runs.csv lacks (else an error). */
  int skip_unknown_kernels;
  /* Leave out the kernels of runs.csv that have no counters.csv row, with
   * their runs (else an error). */
  int skip_kernels_without_counters;
} sp_dataset_options;

void sp_dataset_options_init(sp_dataset_options *o);
/* sp_dataset_load with options (NULL: the defaults, as sp_dataset_load). */
int sp_dataset_load_with(const char *runs_path, const char *counters_path,
                         const sp_dataset_options *opts, sp_dataset **out, sp_error *err);
/* What the options skipped, one sentence each. */
size_t sp_dataset_note_count(const sp_dataset *ds);
const char *sp_dataset_note(const sp_dataset *ds, size_t i);

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
int sp_dataset_time(const sp_dataset *ds, size_t k, const sp_config *cfg, double *time_ms);
int sp_dataset_power(const sp_dataset *ds, size_t k, const sp_config *cfg, double *power_w);
/* 1 when kernel k has a row at cfg and it is a measurement; 0 when it is
 * marked completed (the source column) or there is no such row. */
int sp_dataset_measured(const sp_dataset *ds, size_t k, const sp_config *cfg);
/* Counter row of kernel k at cfg (sp_dataset_counter_count values). */
int sp_dataset_counters(const sp_dataset *ds, size_t k, const sp_config *cfg,
                        const double **values);

/* ---- memory systems: memory.csv (docs/method.md, "physet: the memory axis")
 *
 * A memory clock of the grid names a memory system; memory.csv describes
 * each: memory_mhz,name,type,bus_bits,peak_gbs,capacity_gb, one row per
 * memory clock (RFC 4180 CSV, columns in any order, further columns read
 * past).  The clock alone understates a step between two systems (an H100's
 * HBM3 at 2619 MHz on 5120 bits against an H200's HBM3e at 3201 MHz on 6144
 * bits: 1.22x in clock, 1.43x in bandwidth), so a model trained with the
 * descriptions scales by peak bandwidth. */

typedef struct sp_memory_system {
  int memory_mhz;     /* the memory clock that names it in runs.csv */
  char name[96];      /* the card or part, e.g. "NVIDIA H200" */
  char type[16];      /* the memory type: letters, digits, '.', '-', '_' */
  int bus_bits;       /* bus width, bits */
  double peak_gbs;    /* peak bandwidth, GB/s */
  double capacity_gb; /* capacity, GB */
} sp_memory_system;

typedef struct sp_memory_set sp_memory_set;

/* Reads memory.csv.  Every field is checked where it is read (SP_EPARSE at
 * FILE:LINE:COLUMN naming the field): memory_mhz as a clock of runs.csv
 * (1 to 100000), bus_bits 1 to 100000, peak_gbs 0.001 to 1e6, capacity_gb
 * 1e-6 to 1e6, a name of 1 to 95 bytes without control characters, a
 * type of 1 to 15 of the characters above; a memory clock described twice
 * names both lines; a file without rows is an error. */
int sp_memory_load(const char *path, sp_memory_set **out, sp_error *err);
void sp_memory_free(sp_memory_set *ms);
size_t sp_memory_count(const sp_memory_set *ms);
/* Row i in the file's order; NULL past the last. */
const sp_memory_system *sp_memory_at(const sp_memory_set *ms, size_t i);
/* The row describing memory clock mhz, or NULL. */
const sp_memory_system *sp_memory_find(const sp_memory_set *ms, int memory_mhz);
const char *sp_memory_path(const sp_memory_set *ms);
/* SP_OK when ms describes every memory clock of ds's grid (sp_dataset_axis)
 * and nothing else: else SP_EGRID naming the clock without a row, or the
 * row (FILE:LINE) of a clock that the grid lacks. */
int sp_memory_check(const sp_memory_set *ms, const sp_dataset *ds, sp_error *err);
/* The memory system described by text, "mhz=M,bus=BITS[,type=T][,peak=GBS]
 * [,capacity=GB][,name=N]" (the form of predict --target-memory): peak
 * defaults to 2 x M x BITS / 8 / 1000 GB/s (double data rate), type to
 * "unknown", capacity to 0 (not known), name to "described".  A clock
 * given as mhz_default > 0 may be left out (mhz= must then agree with it).
 * SP_EPARSE naming the key for anything else. */
int sp_memory_parse(const char *text, int mhz_default, sp_memory_system *out, sp_error *err);

/* ---- scaling surfaces (paper III-B) ------------------------------------ */

typedef enum sp_quantity { SP_TIME = 0, SP_POWER = 1 } sp_quantity;

typedef struct sp_surface sp_surface;

/* Builds the scaling surface of kernel k for time or power over the
 * dataset's full grid.  A missing grid point is SP_EGRID naming it. */
int sp_surface_build(const sp_dataset *ds, size_t k, sp_quantity q, sp_surface **out,
                     sp_error *err);
void sp_surface_free(sp_surface *s);
/* Writes the surface as readable CSV: one row per scaling value with its
 * region (cu), kind (engine|memory|cu) and the two configurations it links. */
int sp_surface_write_csv(const sp_surface *s, FILE *fp);
/* Writes the surfaces of kernels [k0, k1) for q to path as one CSV file
 * with a header row, atomically (temporary file, fsync, rename): a hole in
 * the grid or a write error leaves no file and no partial file behind. */
int sp_surfaces_save(const sp_dataset *ds, size_t k0, size_t k1, sp_quantity q, const char *path,
                     sp_error *err);
/* Predicts the value at target from the value at base by applying the
 * surface's own scaling values (exact for training data). */
int sp_surface_scale(const sp_surface *s, const sp_config *base, const sp_config *target,
                     double base_value, double *out);

/* ---- models (paper III-C, III-D) ---------------------------------------- */

typedef struct sp_model sp_model;

typedef struct sp_train_params {
  sp_config base;                  /* base configuration */
  size_t clusters;                 /* k per cluster set (capped at the kernel count) */
  unsigned long seed;              /* seeds k-means and network initialization */
  unsigned restarts;               /* k-means restarts (best inertia kept) */
  unsigned max_epochs;             /* FANN training epochs */
  double desired_error;            /* FANN training stop (MSE) */
  const unsigned char *use_kernel; /* NULL = all; else 1 to train on kernel */
  /* Methods fitted besides wu2015, which every model carries: bit
   * (1u << (i - 1)) for method i of sp_train_method_name, so
   * (1u << SP_TRAIN_PHYSET) for physet.  The last one fitted becomes the
   * model's recommended method. */
  unsigned methods;
  /* Kernel whose power at each configuration is the board's floor (for
   * physet's power prior), or NULL. */
  const char *floor_kernel;
  /* Further base configurations (NULL, 0: none; at most 7): the methods
   * that can (physet) are also fitted at each, on the training kernels
   * with counters there, so that one model predicts from a measurement at
   * any of its bases (sp_observation.base); wu2015 stays at base.  Each
   * must be on the grid (and on the power grid, when there is one). */
  const sp_config *extra_bases;
  size_t nextra_bases;
  /* The memory systems of the grid's memory clocks (sp_memory_load), or
   * NULL: the model records them, and physet's prior scales the memory
   * step by peak bandwidth instead of by the memory clock.  It must
   * describe every memory clock of the grid and no other
   * (sp_memory_check). */
  const sp_memory_set *memory;
  /* Threads for the build's independent parts (wu2015's cluster sets, the
   * other methods' fits): 0 = two when the machine has two or more CPUs,
   * 1 = the calling thread alone.  The model is the same for any count. */
  unsigned threads;
  /* Trees in each of physet's forests: 0 = 100, the default.  Fewer make
   * prediction faster (docs/performance.md). */
  unsigned trees;
  /* Non-zero: on a CU axis bounded by the launch shape, physet predicts
   * from the base alone the weighted median of similar kernels' surfaces
   * instead of their mean, the time under the block bound without its
   * slack and, on fewer CUs than the base, not under the base time
   * (docs/method.md, "physet: the median point prediction"): 1, the
   * default (sp_train_params_init).  0: the mean, as physet did before.
   * The model records it. */
  int physet_median;
  /* Non-zero: on a CU axis bounded by the launch shape, physet also fits
   * the block-count line's check, so that a kernel measured at one more
   * CU count whose time is a line in its blocks per CU is predicted along
   * that line (docs/method.md, "physet: the block-count line"): 1, the
   * default.  0: none, as physet did before. */
  int physet_line;
} sp_train_params;

enum { SP_TRAIN_PHYSET = 0, SP_TRAIN_STATIC = 1 };

/* Fills defaults: k = 12, seed = 1, 10 restarts, 500 epochs, MSE 1e-4,
 * physet fitted (and recommended), no floor kernel. */
void sp_train_params_init(sp_train_params *p);

/* The methods a model can carry, in the library's order: 0 is wu2015;
 * NULL past the last. */
const char *sp_train_method_name(size_t i);
/* Sets p->methods from a comma-separated list of those names (wu2015 may
 * be listed: it is always fitted).  SP_EINVAL for a name that is not a
 * method, p unchanged. */
int sp_train_params_set_methods(sp_train_params *p, const char *list, sp_error *err);

/* Progress callback for long operations: done out of total steps. */
typedef void (*sp_progress_fn)(void *user, size_t done, size_t total, const char *what);

int sp_model_train(const sp_dataset *ds, const sp_train_params *params, sp_progress_fn progress,
                   void *user, sp_model **out, sp_error *err);
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
/* The smallest and largest value of counter c in the training data;
 * SP_ENOTFOUND past the last counter. */
int sp_model_counter_range(const sp_model *m, size_t c, double *min, double *max);
/* The kernels the model was trained on (NULL past the last). */
size_t sp_model_kernel_count(const sp_model *m);
const char *sp_model_kernel_name(const sp_model *m, size_t k);
/* Whether a kernel of this name was in the model's training data (the
 * manifest records them): predictions for it are in-sample, and their
 * errors say nothing about new kernels. */
int sp_model_trained_on(const sp_model *m, const char *kernel);
/* The model's base configurations: 0 is sp_model_base; the others are the
 * further bases it was trained with (sp_train_params.extra_bases). */
size_t sp_model_base_count(const sp_model *m);
sp_config sp_model_base_at(const sp_model *m, size_t i);
/* The training kernels the methods at base i were fitted on: every
 * training kernel at base 0, those with counters there at the others. */
size_t sp_model_base_kernels(const sp_model *m, size_t i);
/* 1 when the method called method (NULL: the one in use) predicts from a
 * measurement at base (a zero CU count: the model's base): wu2015 and the
 * other methods fitted once predict from the model's base only. */
int sp_model_method_at(const sp_model *m, const char *method, const sp_config *base);
/* The memory systems the model describes (sp_train_params.memory), one
 * per memory clock of its grid in ascending clock order; 0 and NULL when
 * it describes none. */
size_t sp_model_memory_count(const sp_model *m);
const sp_memory_system *sp_model_memory_at(const sp_model *m, size_t i);
/* The description of memory clock memory_mhz, or NULL. */
const sp_memory_system *sp_model_memory_of(const sp_model *m, int memory_mhz);
/* Configurations the model can predict for quantity q, in grid order. */
size_t sp_model_config_count(const sp_model *m, sp_quantity q);
sp_config sp_model_config_at(const sp_model *m, sp_quantity q, size_t i);
/* Index of cfg in the model's grid for q, or (size_t)-1. */
size_t sp_model_config_index(const sp_model *m, sp_quantity q, const sp_config *cfg);

/* How training went for quantity q, so that a tool can report degenerate
 * data instead of hiding it: the effective clusters per set (k is capped at
 * the number of distinct scaling surfaces), the counters that carry no
 * information, and the classifiers that did not learn their training
 * kernels.  Classifier results are known only for a model trained in this
 * process (trained = 1); for a loaded one they read 0 and NaN. */
typedef struct sp_train_summary {
  int trained;
  size_t sets;              /* cluster sets */
  size_t k_min, k_max;      /* clusters per set */
  size_t constant_counters; /* one value over all training kernels */
  size_t networks;          /* sets with a classifier network (k > 1) */
  size_t unconverged;       /* networks whose final training MSE is above
                               the desired error */
  double worst_mse;         /* highest final training MSE (0: no network) */
  size_t misclassified;     /* (set, training kernel) pairs for which the
                               classifier picks another cluster than k-means */
  size_t assignments;       /* sets x training kernels */
} sp_train_summary;

/* SP_ENOPOWER when the model has no submodel for q. */
int sp_model_summary(const sp_model *m, sp_quantity q, sp_train_summary *out);

/* ---- prediction --------------------------------------------------------- */

/* A new kernel as measured at the model's base configuration, and
 * optionally at other configurations too.  Fields after counters may be
 * left zero: methods that cannot use them (wu2015) ignore them. */
typedef struct sp_observation {
  const char *kernel; /* for messages */
  double base_time_ms;
  double base_power_w;    /* NaN when not measured */
  const double *counters; /* in the model's counter order */
  /* Further measurements of the same kernel: nextra configurations with
   * their times and powers (an entry NaN, or a NULL array, when that
   * quantity was not measured there).  The physet method passes its
   * prediction through each of them. */
  size_t nextra;
  const sp_config *extra_config;
  const double *extra_time_ms;
  const double *extra_power_w;
  /* The board's power at the base configuration with nothing running on it
   * (W); 0 or NaN when not measured.  physet then anchors the power floor
   * on it instead of on the training kernels. */
  double floor_w;
  /* The base configuration the kernel was measured at (its base time,
   * power and counters): one of the model's bases (sp_model_base_at); a
   * zero CU count means the model's base, so callers that predate several
   * bases need not set it.  Another configuration is SP_EGRID; a method
   * that does not predict from that base (sp_model_method_at) is
   * SP_ENOTFOUND. */
  sp_config base;
  /* The floor (W, as floor_w) of the board with another memory system,
   * the one of memory clock target_floor_mhz, at the base's CU count and
   * engine clock, when the user measured it on that board too; 0 or NaN
   * when not.  physet then multiplies its power at that memory clock by
   * this floor over the training board's there, over floor_w's ratio to
   * the training floor at the base when floor_w is given (two boards read
   * apart by a factor: docs/method.md, "physet: the memory axis"). */
  double target_floor_w;
  int target_floor_mhz;
} sp_observation;

/* What a prediction rests on: counters outside the training range (clamped
 * to it) and how unlike every training kernel the kernel is. */
typedef struct sp_predict_info {
  size_t clamped;       /* how many counter values were clamped */
  size_t first_clamped; /* index of the first clamped counter */
  /* Distance of the kernel's features to the nearest training kernel, over
   * the distance that nine in ten training kernels keep to their own
   * nearest other; NaN when the method in use cannot tell (wu2015). */
  double novelty;
  /* 1 when the kernel lies outside the training data: a counter outside
   * its training range (clamped > 0) or novelty above 1. */
  int outside;
} sp_predict_info;

/* Methods a model predicts with.  Every model has "wu2015" (the paper's
 * classifier over cluster sets); a model trained with
 * sp_train_params.methods may carry more, and records which one it
 * recommends.  The method in use starts as the recommended one and applies
 * to every prediction below (and so to dse, governor and export). */
size_t sp_model_method_count(const sp_model *m);
const char *sp_model_method_name(const sp_model *m, size_t i);
const char *sp_model_recommended_method(const sp_model *m);
const char *sp_model_method(const sp_model *m);
/* Selects the method by name; SP_ENOTFOUND when the model does not carry
 * it.  Not thread-safe with predictions on the same model. */
int sp_model_use_method(sp_model *m, const char *name);
/* The time error (MAPE, %) the method in use expects, as estimated when it
 * was trained (the static method: 5-fold cross-validation over its
 * training kernels); NaN when the method does not estimate it. */
double sp_model_expected_error(const sp_model *m);
/* The floor power (W) of the training board at c, a point of the power
 * grid, as the method in use holds it (physet trained with a floor kernel:
 * that kernel's measured power there); SP_ENOTFOUND when the method holds
 * no floor or c is not on the grid. */
int sp_model_floor_power(const sp_model *m, const sp_config *c, double *watts);

/* Thread safety: a loaded or trained model is read, never changed, by
 * sp_model_predict, sp_model_predict_all, sp_model_predict_interval,
 * sp_model_observe, sp_model_observe_more and the accessors, so any number
 * of threads may call them on one model at once (each with its own
 * observation and output arrays; wu2015's networks are run under a lock of
 * their own; physet's take their scratch from a pool of four slots that
 * the model keeps, so they allocate nothing once the slots exist unless
 * more than four run at once).  sp_model_use_method, sp_model_set_name and
 * sp_model_set_source change the model: call them before sharing it, or
 * with no prediction running.  tests/test_threads.c checks this under
 * ThreadSanitizer (tests/sanitize.sh tsan). */

/* Predicts q at target.  For SP_POWER the observation's base power is used
 * and SP_ENOPOWER is returned when the model or observation has none. */
int sp_model_predict(const sp_model *m, sp_quantity q, const sp_observation *obs,
                     const sp_config *target, double *out, sp_predict_info *info);

/* Predicts q at every configuration of the model's grid for q, writing
 * sp_model_config_count(m, q) values into out (in grid order). */
int sp_model_predict_all(const sp_model *m, sp_quantity q, const sp_observation *obs, double *out,
                         sp_predict_info *info);

/* sp_model_predict_all with each prediction's 90% interval: lo and hi
 * receive sp_model_config_count(m, q) values each, NaN where the method in
 * use gives no interval (wu2015 gives none). */
int sp_model_predict_interval(const sp_model *m, sp_quantity q, const sp_observation *obs,
                              double *out, double *lo, double *hi, sp_predict_info *info);

/* A memory system the model has not measured (docs/method.md, "physet:
 * the memory axis"): from values, one kernel's predictions of q over the
 * model's grid for q with their 90% intervals lo and hi
 * (sp_model_predict_interval; lo and hi may be NULL), the prediction at
 * target, whose CU count and engine clock are on the grid and whose memory
 * clock names mem, a memory system described but not measured.  Between
 * two measured memory systems the value is interpolated linearly in log
 * peak bandwidth between the predictions at the same CU count and engine
 * clock of the nearest one on each side, so that it is exact at a measured
 * system, and the interval's half widths likewise.  Beyond them, time is
 * the nearest system's split into a share that bandwidth does not touch and
 * the rest in proportion to 1 / bandwidth, the share set by the step to
 * the next nearest and held in [0, 1], its interval every such share's
 * (from the nearest system's time to that time in proportion to the
 * bandwidth), each end widened by the nearest system's half width.  Power
 * beyond them follows that time when time (for q SP_POWER: the kernel's
 * time predictions over the time grid, as values for SP_TIME; ignored for
 * SP_TIME) is given and the method in use holds the training board's
 * floor F (sp_model_floor_power): P = F + (P_n - F) T_n / T from the
 * nearest system's P_n and T_n, its interval likewise every share's, each
 * end widened by the nearest's half width; else it is the nearest
 * system's.  Each half width of such power, and of either quantity between
 * measured systems, is widened in quadrature by the log bandwidth distance
 * to the nearest measured system (out_lo and out_hi may be NULL; NaN when
 * lo or hi is NaN there).  SP_EINVAL when the model describes fewer than
 * two memory systems, SP_EGRID when target's CU count and engine clock are
 * not on the grid. */
int sp_model_memory_interpolate(const sp_model *m, sp_quantity q, const double *values,
                                const double *lo, const double *hi, const double *time,
                                const sp_config *target, const sp_memory_system *mem, double *out,
                                double *out_lo, double *out_hi, sp_error *err);

/* Gathers kernel k's counters from ds at the model's base configuration in
 * the model's counter order (missing counters are SP_ENOTFOUND naming
 * them). out holds sp_model_counter_count(m) values. */
int sp_model_observe(const sp_model *m, const sp_dataset *ds, size_t k, double *counters,
                     sp_observation *obs, sp_error *err);

/* sp_model_observe at base (NULL: the model's base), one of the model's
 * bases: kernel k's time, power and counters there, and obs->base set to
 * it. */
int sp_model_observe_at(const sp_model *m, const sp_dataset *ds, size_t k, const sp_config *base,
                        double *counters, sp_observation *obs, sp_error *err);
/* 1 when kernel k of ds has a time row and a complete counters row at
 * base (what sp_model_observe_at needs there), else 0. */
int sp_model_observable(const sp_model *m, const sp_dataset *ds, size_t k, const sp_config *base);

/* Adds to obs the further measurements of kernel k that ds holds at the
 * configurations cfgs[0..n) (obs's base is skipped): cfg, time_ms and
 * power_w receive up to n entries and obs points at them.  Returns how many
 * were added; a configuration without a time row is skipped, one without
 * power gets NaN power. */
size_t sp_model_observe_more(const sp_model *m, const sp_dataset *ds, size_t k,
                             const sp_config *cfgs, size_t n, sp_config *cfg, double *time_ms,
                             double *power_w, sp_observation *obs);

/* ---- static features (docs/estimate.md) --------------------------------- */

/* A kernel's launch shape: grid and block per axis (0 reads as 1) and the
 * dynamic shared memory per block in bytes. */
typedef struct sp_launch {
  unsigned long grid[3];
  unsigned long block[3];
  unsigned long shared_bytes;
} sp_launch;

/* What a kernel's code says about it without running it: its PTX opcode
 * parts (the convention of the shared V100 set's PTX columns), its
 * per-thread instruction mix by kind and memory space with loops weighted
 * by a fixed guess, its registers and static shared memory, and the launch
 * shape.  Each value has a name, as a counter column of counters.csv would;
 * the static method uses the model's counters that bear those names. */
typedef struct sp_kernel_features sp_kernel_features;

/* Reads kernel (its .entry name, or the function name inside an Itanium
 * mangled one: "reduce" for "_Z6reducePKfPfi") from the PTX file at path.
 * launch may be NULL (the launch-shape features are then NaN).  Malformed
 * PTX is SP_EPARSE naming the line; a kernel that is not there is
 * SP_ENOTFOUND listing those that are; two kernels of one name are
 * SP_EINVAL. */
int sp_ptx_features(const char *path, const char *kernel, const sp_launch *launch,
                    sp_kernel_features **out, sp_error *err);
/* The same from size bytes of text; path names it in errors (may be NULL). */
int sp_ptx_features_mem(const char *text, size_t size, const char *path, const char *kernel,
                        const sp_launch *launch, sp_kernel_features **out, sp_error *err);
void sp_kernel_features_free(sp_kernel_features *f);
/* The .entry name that matched. */
const char *sp_kernel_features_entry(const sp_kernel_features *f);
size_t sp_kernel_features_count(const sp_kernel_features *f);
const char *sp_kernel_features_name(const sp_kernel_features *f, size_t i);
double sp_kernel_features_value(const sp_kernel_features *f, size_t i);
/* SP_ENOTFOUND when name is not a static feature. */
int sp_kernel_features_get(const sp_kernel_features *f, const char *name, double *out);
/* 1 when a counter of this name is a static feature (the static method
 * uses it), else 0. */
int sp_static_feature_name(const char *name);

/* ---- evaluation (the paper's Section V accuracy study) ------------------- */

/* Prediction methods compared by sp_evaluate, one per line of the
 * library's method table (src/model/method-table.h), from which the
 * constants below are generated (tests/arch/check-methods.sh compares
 * them; --write rewrites them).  A method's value is its bit in
 * sp_eval_params.methods and its sp_eval_record.method.  SP_METHOD_WU2015
 * is the paper's method as specified; the others are baselines or
 * refinements and never change what wu2015 means.  The functions below
 * describe every method of the table, 0 to sp_method_count() - 1, named
 * here or not (a build may add one). */
typedef enum sp_method {
  /* generated from src/model/method-table.h: begin */
  SP_METHOD_WU2015 = 0,   /* the paper's method: a centroid per cluster set, classified */
  SP_METHOD_ORACLE = 1,   /* the centroid nearest the kernel's true surface (a bound) */
  SP_METHOD_NEAREST = 2,  /* surface of the nearest training kernel (counters) */
  SP_METHOD_LINEAR = 3,   /* per-target ridge fit of the log ratio on counters */
  SP_METHOD_CONSTANT = 4, /* no scaling: the base value everywhere */
  SP_METHOD_SOFT = 5,     /* centroids blended by the network's outputs */
  SP_METHOD_KNN = 6,      /* distance-weighted surfaces of the 3 nearest kernels */
  SP_METHOD_MIX = 7,      /* engine/memory/CU shares predicted by ridge regression */
  SP_METHOD_STACK = 8,    /* nearest, knn, linear, mix, constant blended by leave-one-out */
  SP_METHOD_PHYSET = 9,   /* physical prior plus the residuals of similar kernels */
  SP_METHOD_STATIC = 10,  /* static features only (PTX, launch shape), base time too */
  /* generated: end */
  SP_METHOD_COUNT
} sp_method;

/* What sets a method apart (sp_method_flags). */
enum {
  SP_METHOD_FLAG_CLUSTERED = 1u << 0, /* depends on the cluster count k */
  SP_METHOD_FLAG_CARRIED = 1u << 1,   /* a model carries it (train --methods) */
  SP_METHOD_FLAG_OPT_IN = 1u << 2,    /* compared only when asked for by name */
  SP_METHOD_FLAG_ORACLE = 1u << 3     /* sees the measured surface: a bound */
};

/* How many methods the library has (at most 32). */
size_t sp_method_count(void);
/* A method's name; "unknown" past the last. */
const char *sp_method_name(sp_method m);
/* Parses a method name; SP_EINVAL when unknown. */
int sp_method_parse(const char *name, sp_method *out);
/* Whether the method's result depends on the cluster count k. */
int sp_method_uses_clusters(sp_method m);
/* Its SP_METHOD_FLAG_* bits; 0 past the last. */
unsigned sp_method_flags(sp_method m);
/* One line saying what it does, for help texts; "" past the last. */
const char *sp_method_about(sp_method m);

typedef struct sp_eval_params {
  int leave_one_out;      /* each kernel held out once (ignores holdout) */
  double holdout;         /* fraction of kernels held out per split */
  unsigned repeats;       /* random splits */
  unsigned long seed;     /* splits, k-means and networks */
  const sp_config *bases; /* base configurations to evaluate */
  size_t nbases;
  const size_t *clusters; /* cluster counts to evaluate */
  size_t nclusters;
  unsigned methods;    /* bit (1u << sp_method) per method */
  unsigned quantities; /* bit (1u << sp_quantity) */
  unsigned restarts, max_epochs;
  double desired_error;
  unsigned threads; /* worker threads (1 = serial) */
  /* Groups: with groups set, each split holds out every kernel of one group
   * (group[k] for dataset kernel k; kernel families, so that no variant of
   * a held-out kernel is trained on) and repeats/holdout are ignored. */
  const unsigned *groups;
  /* Configurations at which held-out kernels count as measured besides the
   * base (methods that use further measurements see them; the scores
   * leave them out). */
  const sp_config *extra;
  size_t nextra;
  const char *floor_kernel; /* sp_train_params.floor_kernel for physet */
  unsigned trees;           /* sp_train_params.trees */
  int physet_median;        /* sp_train_params.physet_median */
  int physet_line;          /* sp_train_params.physet_line */
  /* With floor_known (and floor_kernel), each held-out kernel is predicted
   * as by a user who measured the board's floor at the base (predict
   * --floor-w): sp_observation.floor_w is the floor kernel's power at the
   * base configuration. */
  int floor_known;
  /* Training from fewer measurements (docs/sweeps.md, "How many
   * measurements"): with train_plan set, every kernel's rows are replaced,
   * before any split, by the completion of an adaptive plan
   * (sp_plan_make) from train_points of its own configurations, chosen
   * adaptively or at random (the base always among them) and replayed from
   * the dataset; models train on those, while held-out kernels are still
   * predicted from their measured base and scored against their measured
   * surfaces.  One base only.  train_batch: the plan's batch (0: the
   * default of sp_plan_params_init).  train_target (adaptive plans): a
   * kernel is also done once its estimated surface error is within this
   * many percent (sp_plan_params.target_error; 0: no target), so that
   * train_points is the most it may measure.  train_surrogate
   * (sp_surrogate): with SP_SURROGATE_SHARED the completions share
   * information between kernels, so they are replayed per split over the
   * training kernels alone: a held-out kernel's measurements never reach
   * a training surface. */
  int train_plan; /* sp_train_plan */
  size_t train_points;
  size_t train_batch;
  double train_target;
  int train_surrogate; /* sp_surrogate */
  /* The memory systems of the data's memory clocks (sp_train_params.memory
   * of every model trained), or NULL. */
  const sp_memory_set *memory;
} sp_eval_params;

typedef enum sp_train_plan {
  SP_TRAIN_PLAN_NONE = 0, /* every measurement (the default) */
  SP_TRAIN_PLAN_ADAPTIVE, /* sp_plan_make's batches */
  SP_TRAIN_PLAN_RANDOM    /* configurations drawn at random (seeded) */
} sp_train_plan;

/* Defaults: 20% holdout, 5 repeats, seed 1, every method not flagged
 * SP_METHOD_FLAG_OPT_IN, time and power, training defaults of
 * sp_train_params_init, 1 thread; bases and clusters must be set by the
 * caller. */
void sp_eval_params_init(sp_eval_params *p);

/* One scored prediction: a held-out kernel, from a base, at a target. */
typedef struct sp_eval_record {
  unsigned char method;   /* sp_method */
  unsigned char quantity; /* sp_quantity */
  unsigned short split;
  unsigned k;      /* cluster count, 0 for methods that use none */
  unsigned kernel; /* dataset kernel index */
  unsigned base;   /* index into sp_eval_params.bases */
  sp_config target;
  double predicted, measured;
  double lo, hi;         /* the 90% interval, NaN when the method gives none */
  double novelty;        /* sp_predict_info.novelty, NaN when unknown */
  unsigned char outside; /* sp_predict_info.outside */
} sp_eval_record;

typedef struct sp_evaluation sp_evaluation;

int sp_evaluate(const sp_dataset *ds, const sp_eval_params *params, sp_progress_fn progress,
                void *user, sp_evaluation **out, sp_error *err);
void sp_evaluation_free(sp_evaluation *e);
size_t sp_evaluation_count(const sp_evaluation *e);
const sp_eval_record *sp_evaluation_records(const sp_evaluation *e);
/* Splits actually run and, for a quantity, why nothing was scored
 * (e.g. no power model at a base), or NULL. */
size_t sp_evaluation_splits(const sp_evaluation *e);
const char *sp_evaluation_note(const sp_evaluation *e, sp_quantity q);
/* With a train plan: the configurations measured per kernel (mean), and
 * for quantity q the mean absolute percentage error of the completed
 * values against the recorded ones over the configurations not measured,
 * next to the plans' own estimate (sp_plan_kernel.error_time), both
 * averaged over the kernels.  SP_ENOTFOUND without a train plan. */
int sp_evaluation_completion(const sp_evaluation *e, sp_quantity q, double *points, double *mape,
                             double *estimated);

/* Absolute percentage error statistics over the records that match. */
#define SP_EVAL_HIST_BINS 11 /* [0,10), [10,20) ... [90,100), >= 100 % */
typedef struct sp_eval_stats {
  size_t n;
  double mape, median, p90, max;
  size_t hist[SP_EVAL_HIST_BINS];
  /* Records with a 90% interval, and the share (%) whose measured value
   * lies inside it (NaN when none has an interval). */
  size_t n_interval;
  double coverage;
  /* Records of kernels outside the training data, and their MAPE (NaN
   * when none). */
  size_t n_outside;
  double mape_outside;
} sp_eval_stats;

/* Filter: SP_EVAL_ANY matches everything for that field.  A k filter also
 * matches the records of methods that use no clusters (k == 0). */
#define SP_EVAL_ANY ((size_t)-1)
typedef struct sp_eval_filter {
  size_t method, quantity, k, kernel, base;
} sp_eval_filter;
void sp_eval_filter_init(sp_eval_filter *f);
int sp_evaluation_stats(const sp_evaluation *e, const sp_eval_filter *f, sp_eval_stats *out);
/* The same for energy per launch (time x power): every time record that
 * has the power record of the same method, split, cluster count, kernel,
 * base and target is scored as predicted time x power against measured
 * time x power (f's quantity is ignored; no intervals). */
int sp_evaluation_energy_stats(const sp_evaluation *e, const sp_eval_filter *f, sp_eval_stats *out);

/* Writes the evaluation report into dir (replaced atomically): CSV tables
 * (summary, by_clusters, by_base, per_kernel, histogram), SVG plots (error
 * vs cluster count, error histograms, per-base error maps, predicted vs
 * measured) and an index.html that shows them inline and links the rest;
 * predictions.csv only as sp_eval_report_options asks. */
int sp_evaluation_write_report(const sp_evaluation *e, const sp_dataset *ds,
                               const sp_eval_params *params, const char *dir, sp_error *err);

/* What a report holds beyond the default. */
typedef struct sp_eval_report_options {
  /* predictions.csv: every prediction, one row each (method, quantity,
   * split, k, kernel, base, target, predicted, measured, error, interval,
   * novelty): about 100 bytes a row, 100 MB for the synthetic set's 448
   * configurations and every method. */
  int predictions;
} sp_eval_report_options;

void sp_eval_report_options_init(sp_eval_report_options *o);
/* sp_evaluation_write_report with options (NULL: the defaults). */
int sp_evaluation_write_report_with(const sp_evaluation *e, const sp_dataset *ds,
                                    const sp_eval_params *params, const char *dir,
                                    const sp_eval_report_options *opts, sp_error *err);

/* ==== design-space exploration, DVFS governors, CSV export ================
 * (docs/dse.md)
 *
 * All three range over a configuration space: the model's grid (the
 * configurations where it predicts time, and power when it has a power
 * model), optionally refined between grid clocks.  grid_interp N places N-1
 * evenly spaced clocks (rounded to whole MHz) between every two neighbouring
 * engine clocks and every two neighbouring memory clocks; predictions there
 * are interpolated log-linearly (the logarithm of the value is bilinear in
 * the logarithms of the two clocks), so they are exact at grid clocks and
 * follow a power law in between.  CU counts are never interpolated.
 * Configurations are in grid order: CU count, then engine clock, then memory
 * clock varying fastest.  Energy is power x time, W x ms = mJ.  Every writer
 * below uses '.' as the decimal separator whatever the caller's locale. */

#define SP_NO_CONFIG ((size_t)-1)

/* ---- design-space exploration ------------------------------------------ */

typedef enum sp_dse_objective {
  SP_DSE_MIN_TIME = 0,
  SP_DSE_MIN_ENERGY,
  SP_DSE_MIN_EDP,           /* energy x delay */
  SP_DSE_MIN_ED2P,          /* energy x delay^2 */
  SP_DSE_MIN_TIME_CAPPED,   /* minimum time with peak power <= the cap */
  SP_DSE_MIN_ENERGY_BUDGET, /* minimum energy with time <= budget x reference */
  SP_DSE_OBJECTIVE_COUNT
} sp_dse_objective;

/* "min-time", "min-energy", "min-edp", "min-ed2p", "min-time-capped",
 * "min-energy-budget"; NULL for an invalid value. */
const char *sp_dse_objective_name(int objective);
/* Parses those names and the short forms "time", "energy", "edp", "ed2p";
 * returns -1 for anything else. */
int sp_dse_objective_parse(const char *name);

typedef enum sp_dse_bound {
  SP_DSE_NEITHER = 0,
  SP_DSE_COMPUTE_BOUND,   /* time follows the engine clock */
  SP_DSE_BANDWIDTH_BOUND, /* time follows the memory clock */
  SP_DSE_UNDETERMINED     /* a clock axis was not varied: no evidence */
} sp_dse_bound;

/* "neither", "compute-bound", "bandwidth-bound", "undetermined". */
const char *sp_dse_bound_name(int bound);

typedef struct sp_dse_params {
  /* CSV with the columns kernel,weight (weight may also be called count or
   * invocations): the workload's kernels and how often each runs.  NULL:
   * every kernel of the dataset, weight 1. */
  const char *weights_path;
  /* CSV with the columns name and either config (32cu/1000/1375) or
   * cu,engine_mhz,memory_mhz: candidate products to rank.  NULL: none. */
  const char *candidates_path;
  sp_config reference;  /* cu == 0: the model's base configuration */
  double power_cap_w;   /* 0: no cap */
  double time_budget;   /* max time / reference time; 0: no budget */
  unsigned grid_interp; /* 1: the model's grid (see above) */
  int rank_by;          /* sp_dse_objective ranking the candidates */
  /* Classification: a kernel is compute-bound when the elasticity of its
   * time to the engine clock is at least bound_elasticity in magnitude and
   * bound_dominance times that to the memory clock (bandwidth-bound the
   * other way round). */
  double bound_elasticity;
  double bound_dominance;
} sp_dse_params;

/* Defaults: no weights, candidates or constraints, the model's base as
 * reference, grid_interp 1, rank by EDP, bound_elasticity 0.5,
 * bound_dominance 1.5. */
void sp_dse_params_init(sp_dse_params *p);

/* A configuration chosen for an objective and what it gives. */
typedef struct sp_dse_choice {
  size_t config; /* index into sp_dse_result.configs, or SP_NO_CONFIG */
  double time_ms;
  double energy_mj;
  double avg_power_w;  /* energy / time */
  double peak_power_w; /* highest kernel power */
} sp_dse_choice;

/* Elasticities d ln(value) / d ln(axis value), indexed by SP_AXIS_*: measured
 * between the ends of each axis through the reference configuration.  -1 for
 * time against the engine clock is a kernel whose time halves when the clock
 * doubles.  NaN for an axis with one value. */
typedef struct sp_dse_sensitivity {
  double time[3];
  double power[3];
  double energy[3];
  sp_dse_bound bound;
} sp_dse_sensitivity;

typedef struct sp_dse_kernel {
  char *name;
  double weight;
  double base_time_ms, base_power_w;
  size_t clamped;                             /* counters clamped to the training range */
  char *first_clamped;                        /* the first one's name, or NULL */
  sp_dse_choice reference;                    /* this kernel alone at the reference */
  sp_dse_choice best[SP_DSE_OBJECTIVE_COUNT]; /* this kernel alone */
  sp_dse_sensitivity sens;
} sp_dse_kernel;

typedef struct sp_dse_candidate {
  char *name;
  size_t config;    /* index into sp_dse_result.configs */
  size_t rank;      /* 1 = best by the ranking objective */
  int meets_cap;    /* 1 when no cap is set */
  int meets_budget; /* 1 when no budget is set */
} sp_dse_candidate;

/* Everything sp_dse_run found; read-only, freed by sp_dse_result_free. */
typedef struct sp_dse_result {
  char *model_name, *model_source;
  int synthetic;
  sp_dse_params params; /* as given; the two paths are not kept */
  size_t nconfigs;
  sp_config *configs; /* the space, in grid order */
  size_t naxis[3];
  int *axis[3]; /* the space's axis values, ascending */
  /* The workload at each configuration: weighted sums over its kernels. */
  double *time_ms, *energy_mj, *peak_power_w;
  size_t reference; /* index of the reference configuration */
  sp_dse_choice best[SP_DSE_OBJECTIVE_COUNT];
  /* Pareto fronts, configuration indices in ascending time: time vs energy
   * and time vs average power. */
  size_t npareto_energy, npareto_power;
  size_t *pareto_energy, *pareto_power;
  sp_dse_sensitivity sens; /* the workload's */
  size_t nkernels;
  sp_dse_kernel *kernels;
  size_t ncandidates;
  sp_dse_candidate *candidates; /* best first */
} sp_dse_result;

/* Predicts every workload kernel at every configuration of the space and
 * analyses the result.  Kernels named in the weights file but missing from
 * the dataset are SP_ENOTFOUND naming them; a constraint that no
 * configuration meets is SP_ENOTFOUND naming the closest configuration; a
 * candidate off the space is SP_EGRID naming the nearest configuration.  The
 * model must have a power model (SP_ENOPOWER). */
int sp_dse_run(const sp_model *m, const sp_dataset *ds, const sp_dse_params *p, sp_dse_result **out,
               sp_error *err);
void sp_dse_result_free(sp_dse_result *r);

/* Index of cfg in the result's space, or SP_NO_CONFIG. */
size_t sp_dse_config_index(const sp_dse_result *r, const sp_config *cfg);
/* The workload's choice at configuration i. */
sp_dse_choice sp_dse_at(const sp_dse_result *r, size_t i);

typedef enum sp_dse_table {
  SP_DSE_TABLE_OBJECTIVES = 0, /* best configuration per objective */
  SP_DSE_TABLE_PARETO_ENERGY,  /* time-energy front */
  SP_DSE_TABLE_PARETO_POWER,   /* time-power front */
  SP_DSE_TABLE_SENSITIVITY,    /* elasticities: the workload, each kernel */
  SP_DSE_TABLE_AXES,           /* the workload along each axis */
  SP_DSE_TABLE_KERNELS,        /* per kernel: reference, class, bests */
  SP_DSE_TABLE_CANDIDATES,     /* candidate ranking */
  SP_DSE_TABLE_CONFIGS,        /* the workload at every configuration */
  SP_DSE_TABLE_COUNT
} sp_dse_table;

/* File stem of a table ("objectives", "pareto-energy", ...), NULL if none. */
const char *sp_dse_table_name(int table);
/* Writes one table as RFC 4180 CSV with a header row naming units. */
int sp_dse_write_csv(const sp_dse_result *r, int table, FILE *fp);
int sp_dse_write_json(const sp_dse_result *r, FILE *fp);
/* Writes dir/index.html (self-contained, inline SVG plots), one SVG file
 * per plot and one CSV per table, all at once: the directory is built
 * beside dir and renamed into place, replacing an older report. */
int sp_dse_report_write(const sp_dse_result *r, const char *dir, sp_error *err);

/* The workload file dse reads (kernel,weight; weight may be called count,
 * as in a profile's launches.csv) as a weight per dataset kernel: weights
 * holds sp_dataset_kernel_count(ds) values, 0 for a kernel it does not
 * list.  A kernel missing from ds is SP_ENOTFOUND naming it. */
int sp_workload_load(const char *path, const sp_dataset *ds, double *weights, sp_error *err);

/* ---- DVFS governor replay ---------------------------------------------- */

/* A kernel trace: CSV with the columns order and kernel, plus optionally
 * base_time_ms, base_power_w (measured at the model's base configuration)
 * and counter columns named as in the model.  A row without them takes them
 * from an earlier row of the same kernel, or else from the dataset given to
 * sp_governor_trace_load (its base-configuration rows).  Rows are replayed in
 * ascending order. */
typedef struct sp_governor_trace sp_governor_trace;

/* Loads a trace and predicts each distinct kernel at every configuration of
 * the model's grid.  ds (may be NULL) supplies base data for rows without it
 * and the measurements used as ground truth when replaying: where ds has a
 * kernel at a configuration, outcomes there are measured, else predicted. */
int sp_governor_trace_load(const char *path, const sp_model *m, const sp_dataset *ds,
                           sp_governor_trace **out, sp_error *err);
void sp_governor_trace_free(sp_governor_trace *t);
size_t sp_governor_trace_length(const sp_governor_trace *t);
size_t sp_governor_trace_kernel_count(const sp_governor_trace *t);
const char *sp_governor_trace_kernel_name(const sp_governor_trace *t, size_t k);
/* Counters of distinct kernel k clamped to the training range; *first gets
 * the first one's name (NULL when none). */
size_t sp_governor_trace_kernel_clamped(const sp_governor_trace *t, size_t k, const char **first);
/* 1 when the dataset measured distinct kernel k at any configuration. */
int sp_governor_trace_kernel_measured(const sp_governor_trace *t, size_t k);
/* The distinct kernel and the order value of invocation i (in replay order). */
size_t sp_governor_trace_kernel_at(const sp_governor_trace *t, size_t i);
long sp_governor_trace_order_at(const sp_governor_trace *t, size_t i);
/* The configurations policies choose from: the model's grid. */
size_t sp_governor_trace_config_count(const sp_governor_trace *t);
sp_config sp_governor_trace_config_at(const sp_governor_trace *t, size_t i);
const char *sp_governor_trace_model_name(const sp_governor_trace *t);

typedef struct sp_governor_params {
  sp_config reference;      /* cu == 0: the model's base configuration */
  double power_cap_w;       /* 0: no cap */
  double slowdown;          /* per-kernel time limit / time at the
                               reference; 0: no limit */
  double switch_latency_us; /* per changed axis (CUs, engine, memory) */
  double switch_energy_mj;  /* per changed axis */
  /* The reactive policy: the counters read as engine and memory load
   * (percent) and the load above which it picks the highest clock. */
  const char *engine_load_counter;
  const char *memory_load_counter;
  double up_threshold;
} sp_governor_params;

/* Defaults: the model's base as reference, no cap or limit, no switching
 * costs, load counters VALUBusy and MemUnitBusy, up_threshold 80. */
void sp_governor_params_init(sp_governor_params *p);

/* One invocation as a policy sees it before choosing its configuration. */
typedef struct sp_governor_invocation {
  size_t position; /* 0-based place in the trace */
  long order;      /* the trace's order value */
  size_t kernel;   /* distinct kernel index */
  const char *name;
  const sp_observation *obs;
  const double *time_ms; /* predicted at every configuration */
  const double *power_w; /* predicted at every configuration */
  /* Measured at every configuration (NaN where not measured), or NULL when
   * the dataset has none of this kernel.  Meant for oracles only. */
  const double *measured_time_ms;
  const double *measured_power_w;
} sp_governor_invocation;

/* What happened when an invocation ran. */
typedef struct sp_governor_outcome {
  size_t position;
  size_t config;                      /* index into the context's configs */
  double time_ms, power_w, energy_mj; /* the kernel's run */
  unsigned switches;                  /* axes changed before it */
  double switch_time_ms, switch_energy_mj;
  int measured; /* 1 when time and power were measured */
  int over_cap; /* 1 when power exceeded the cap */
} sp_governor_outcome;

typedef struct sp_governor_context {
  const sp_model *model;
  const sp_governor_params *params;
  size_t nconfigs;
  const sp_config *configs; /* the model's grid, in grid order */
  size_t reference;         /* index of the reference configuration */
  size_t start;             /* configuration before the first kernel */
  size_t length;
  const sp_governor_invocation *trace; /* every invocation: offline policies
                                          may look ahead, online ones should
                                          not */
} sp_governor_context;

/* A policy.  choose picks the configuration index for the next invocation
 * from the invocations so far (history, oldest first, nhistory of them);
 * the others may be NULL.  A non-zero status from a callback stops the
 * replay; init and choose may fill err to say why. */
typedef struct sp_governor_policy {
  const char *name;
  int (*init)(const sp_governor_context *ctx, void *user, void **state, sp_error *err);
  int (*choose)(void *state, const sp_governor_context *ctx, const sp_governor_invocation *next,
                const sp_governor_outcome *history, size_t nhistory, size_t *config, sp_error *err);
  void (*observe)(void *state, const sp_governor_context *ctx, const sp_governor_outcome *outcome);
  void (*free)(void *state);
  void *user; /* passed to init */
} sp_governor_policy;

/* Built-in policies: "reference" (static reference), "best-edp" (one
 * configuration minimizing the whole trace's predicted EDP within the cap),
 * "model" (per kernel: least predicted energy within the cap and slowdown
 * limit, switching costs included), "reactive" (ondemand-like: clocks from
 * the previous kernel's load counters), "oracle" (as "model" but on measured
 * data).  NULL for another name; sp_governor_builtin_at(i) lists them and
 * returns NULL past the end. */
const sp_governor_policy *sp_governor_builtin(const char *name);
const sp_governor_policy *sp_governor_builtin_at(size_t i);

typedef struct sp_governor_result {
  char *policy;
  double time_ms;     /* kernels plus switching */
  double energy_mj;   /* kernels plus switching */
  double edp;         /* energy x time, mJ x ms */
  double avg_power_w; /* energy / time */
  double peak_power_w;
  size_t over_cap; /* invocations above the cap */
  double over_cap_time_ms;
  size_t switches; /* axis changes */
  double switch_time_ms, switch_energy_mj;
  size_t measured; /* invocations with measured outcomes */
  size_t length;
  sp_governor_outcome *steps;
} sp_governor_result;

/* Replays the trace through one policy, starting at the reference.  A power
 * cap or slowdown limit that no configuration meets for some kernel (by the
 * predictions) is SP_ENOTFOUND naming the kernel and the closest
 * configuration. */
int sp_governor_replay(const sp_governor_trace *t, const sp_governor_policy *p,
                       const sp_governor_params *params, sp_governor_result **out, sp_error *err);
void sp_governor_result_free(sp_governor_result *r);

/* The comparison of n results: JSON, CSV (one summary row per policy, or
 * one row per policy and invocation) and an HTML report directory written
 * at once like sp_dse_report_write's. */
int sp_governor_write_json(const sp_governor_trace *t, const sp_governor_params *p,
                           const sp_governor_result *const *results, size_t n, FILE *fp);
int sp_governor_write_summary_csv(const sp_governor_result *const *results, size_t n, FILE *fp);
int sp_governor_write_steps_csv(const sp_governor_trace *t,
                                const sp_governor_result *const *results, size_t n, FILE *fp);
int sp_governor_report_write(const sp_governor_trace *t, const sp_governor_params *p,
                             const sp_governor_result *const *results, size_t n, const char *dir,
                             sp_error *err);

/* ---- prediction matrix export ------------------------------------------- */

typedef enum sp_export_layout {
  SP_EXPORT_LONG = 0, /* one row per kernel and configuration */
  SP_EXPORT_WIDE      /* one row per kernel, columns per configuration */
} sp_export_layout;

typedef struct sp_export_params {
  sp_export_layout layout;
  int with_measured;    /* add measured values and signed % errors */
  unsigned grid_interp; /* 1: the model's grid */
  /* Launch counts per dataset kernel (sp_workload_load: a profile's
   * launches.csv), or NULL.  With them the kernels are followed by the
   * whole application, kernel "(application)": time and energy summed
   * over the kernels times their counts, power = energy / time (none
   * where a kernel has no power), measured likewise where every kernel
   * with a count was measured. */
  const double *weights;
} sp_export_params;

void sp_export_params_init(sp_export_params *p);

/* Writes every kernel of ds predicted at every configuration as CSV
 * (RFC 4180 quoting, LF line ends, header row with units).  Every kernel is checked
 * before the first byte is written. */
int sp_export_write(const sp_model *m, const sp_dataset *ds, const sp_export_params *p, FILE *fp,
                    sp_error *err);
/* The same into path, atomically: nothing is left there on error. */
int sp_export_save(const sp_model *m, const sp_dataset *ds, const sp_export_params *p,
                   const char *path, sp_error *err);

/* ==== end of design-space exploration, governors, export ================= */

/* ==== profiles of the user's own application (docs/profile.md) ===========
 *
 * A vendor profiler's output (Nsight Compute's raw CSV, rocprofv3's counter
 * CSV) turned into the model's input: the counters the model needs are
 * computed from the vendor's metrics by one table, the same one the
 * measurement harness trained the models with. */

enum { SP_VENDOR_NVIDIA = 0, SP_VENDOR_AMD = 1, SP_VENDOR_COUNT };

/* "nvidia", "amd"; NULL for another value. */
const char *sp_vendor_name(int vendor);
/* The vendor metrics the model counter named counter is computed from:
 * their number (0 when the vendor has none for it) and, when metrics is not
 * NULL, the names. */
size_t sp_counter_metrics(int vendor, const char *counter, const char *const **metrics);
/* The counter's analogue in Wu et al.'s Table II ("" when none), NULL when
 * the vendor has no metric for it. */
const char *sp_counter_analogue(int vendor, const char *counter);
/* Alternative i of a vendor metric that some metric sets lack (ncu --set
 * full has no lts__t_bytes.sum.per_second): a metric that gives the same
 * quantity times *scale (32 x lts__t_sectors.sum.per_second), which a
 * profile is read with when it lacks the metric itself.  NULL past the
 * last alternative, and for a metric without any. */
const char *sp_metric_alternative(int vendor, const char *metric, size_t i, double *scale);
/* Every vendor metric that model m's counters need, with the launch time
 * and the device's SM count and clocks, comma-separated for the profiler's
 * command line (malloc'ed into *out).  SP_ENOTFOUND when a counter has no
 * metric of that vendor. */
int sp_profile_metric_list(const sp_model *m, int vendor, char **out, sp_error *err);

typedef struct sp_profile sp_profile;

/* Reads a profile for model m: an Nsight Compute raw CSV (ncu --csv --page
 * raw --print-units base, of any width, "==PROF==" lines before the table
 * allowed) or a rocprofv3 counter collection CSV, told apart by the header.
 * Launches of one kernel at one launch shape form one entry (the median
 * time, the counters of that launch, the count).  Metrics the model needs
 * but the profile lacks do not fail the load: sp_profile_missing lists every
 * one of them. */
int sp_profile_load(const char *path, const sp_model *m, sp_profile **out, sp_error *err);
void sp_profile_free(sp_profile *p);
int sp_profile_vendor(const sp_profile *p);
size_t sp_profile_launch_count(const sp_profile *p);
size_t sp_profile_entry_count(const sp_profile *p);
/* The device's name as the profile gives it, or "". */
const char *sp_profile_device(const sp_profile *p);
/* What profile.txt names as the profile's source (copied; NULL: the path
 * it was read from), for a profile read from a temporary file. */
int sp_profile_set_source(sp_profile *p, const char *source);
/* Wanted metrics (or, with a note, whole counters) the profile lacks. */
size_t sp_profile_missing_count(const sp_profile *p);
const char *sp_profile_missing(const sp_profile *p, size_t i);
/* Writes a new directory dir (an existing one is refused, never replaced)
 * holding runs.csv, counters.csv (at base), launches.csv (kernel, count,
 * median and total time, the kernel function and launch shape),
 * profile.txt (device, SM count, clocks) and profile-raw.csv, all at once.
 * A missing metric, no launch, an SM count other than base's or an entry
 * whose values read n/a is an error before anything is written. */
int sp_profile_write(const sp_profile *p, const sp_config *base, const char *dir, sp_error *err);

/* ---- further SM counts (docs/profile.md, "Two points") -----------------
 * On NVIDIA, profile runs the program again on a green context of fewer
 * SMs (the preload library of greenctx/) for the launch times alone, once
 * per further SM count, and the profile holds every point: a model that
 * uses further measured configurations (physet) then predicts from them. */

/* The ncu metrics of a further pass, comma-separated: the launch time and
 * the SM count each launch ran on. */
const char *sp_profile_second_metrics(void);
/* The SM count model m (saved in model_dir) measures second at base: the
 * SM count of its file second-sms.txt ("second_sms N", a level of the grid
 * at base's clocks below base's) when it has one, else the grid's level
 * nearest half of base's SM count.  Into why (size bytes) a line saying
 * which; SP_ENOTFOUND when the grid has no level below base's. */
int sp_profile_second_choice(const char *model_dir, const sp_model *m, const sp_config *base,
                             int *sms, char *why, size_t size);
/* Reads a further pass's ncu raw CSV at path (sp_profile_second_metrics)
 * and matches it to p: the same number of launches, each the same kernel at
 * the same launch shape as p's launch of that rank, each on exactly sms SMs
 * (launch__sm_count).  p then holds each entry's median time there too,
 * which sp_profile_write and sp_profile_rewrite write as runs.csv rows at
 * sms SMs (and the CSV as profile-second-raw.csv for the first pass whose
 * CSV is kept, profile-second-raw-SMS.csv for later ones).  A mismatch is an
 * error at its line and column, and p gains no point; the CSV is still kept,
 * so that the line can be read.  SP_EINVAL when p holds a point at sms. */
int sp_profile_add_second(sp_profile *p, const char *path, int sms, sp_error *err);
/* The name (in the profile directory) of the CSV of the pass at sms SMs,
 * into buf; SP_ENOTFOUND when p keeps none for it. */
int sp_profile_second_file(const sp_profile *p, int sms, char *buf, size_t size);
/* profile.txt's "second:" line of the pass at sms SMs (added, with no point,
 * when p has none): how its SM count was chosen, or why it gave no point
 * (copied; NULL clears it). */
int sp_profile_second_note(sp_profile *p, int sms, const char *note);
/* profile.txt's "second: none:" line when no further pass ran: why
 * (copied; NULL clears it). */
int sp_profile_set_note(sp_profile *p, const char *note);
/* The number of further SM counts p holds times at, and the i-th one (in
 * the order run; 0 past the end). */
size_t sp_profile_second_count(const sp_profile *p);
int sp_profile_second_sms(const sp_profile *p, size_t i);
/* The further measured configurations of the profile directory dir, from
 * its profile.txt ("second: CFG" lines), at most max into cfg, their
 * number into *n; SP_ENOTFOUND when it has none. */
int sp_profile_dir_seconds(const char *dir, sp_config *cfg, size_t max, size_t *n);
/* Replaces the profile directory dir that sp_profile_write wrote for p
 * with one that adds p's further points and notes, all at once: until the
 * rename, dir stays as it was. */
int sp_profile_rewrite(const sp_profile *p, const sp_config *base, const char *dir, sp_error *err);

/* ==== end of profiles ===================================================== */

/* ==== measurement campaigns (campaign/; docs/sweeps.md, "Adaptive plans") ===
 *
 * Measuring every configuration of a grid for every kernel is the expensive
 * part of building a model.  An adaptive plan fits, per kernel, a surrogate
 * of its scaling surface to what has been measured so far -- a Gaussian
 * process on log time (and log power) over the logarithms of the three
 * axes, with a linear trend -- and names the configurations where the
 * surrogate is least sure, a batch at a time; the campaign measures them
 * and asks again until a budget or a target error is reached.  The same
 * surrogate completes a kernel's surface: every grid configuration, the
 * measured ones as measured, the others predicted. */

typedef struct sp_plan_params {
  /* The grid: the values of each axis (SP_AXIS_*), in any order, distinct
   * and positive.  naxis[a] == 0 takes the dataset's values of that axis. */
  const int *axis[3];
  size_t naxis[3];
  sp_config base;      /* measured first; cu == 0: the middle of the grid
                          (the lower-middle value of every axis) */
  size_t batch;        /* configurations named per kernel and round */
  size_t budget;       /* a kernel is done at this many measured grid
                          configurations; 0: no budget */
  double target_error; /* ... or once its estimated surface error (%) is at
                          most this; 0: no target */
  /* The kernels planned, NULL-terminated; a kernel without rows starts at
   * the base.  NULL: the dataset's kernels. */
  const char *const *kernels;
  int surrogate;       /* sp_surrogate */
  unsigned long seed;  /* the shared surrogate's cross-validation folds */
  size_t total_budget; /* the campaign is done at this many measured grid
                          configurations over all its kernels: each round
                          names at most what is left, the bases first,
                          then the kernels of the largest estimated error;
                          0: no total */
} sp_plan_params;

/* The surrogate of a plan (docs/sweeps.md, "The surrogate" and "The
 * shared surrogate"). */
typedef enum sp_surrogate {
  SP_SURROGATE_GP = 0, /* a Gaussian process per kernel, on its own
                          measurements only */
  SP_SURROGATE_SHARED  /* a low-rank completion over all the planned
                          kernels as every kernel's prior mean, plus a
                          process per kernel on the residual */
} sp_surrogate;

/* "gp", "shared"; NULL for another value. */
const char *sp_surrogate_name(int surrogate);
/* The sp_surrogate called name, or -1. */
int sp_surrogate_parse(const char *name);

/* Defaults: the dataset's grid, the middle base, batch 4, no budget, no
 * target (a plan then runs until every configuration is measured), the
 * dataset's kernels, the per-kernel surrogate, seed 1, no total budget. */
void sp_plan_params_init(sp_plan_params *p);

typedef enum sp_plan_state {
  SP_PLAN_MEASURING = 0, /* configurations are named: measure them */
  SP_PLAN_BUDGET,        /* done: the budget (or the total) is measured */
  SP_PLAN_TARGET,        /* done: the estimated error is within the target */
  SP_PLAN_GRID           /* done: every grid configuration is measured */
} sp_plan_state;

/* "measuring", "budget", "target", "grid"; NULL for another value. */
const char *sp_plan_state_name(int state);

typedef struct sp_plan sp_plan;

/* One kernel of a plan.  The estimated surface error is the surrogate's
 * mean predicted standard deviation, over the grid configurations not yet
 * measured, of the log value, in percent (a relative error): 0 when every
 * configuration is measured, NaN before the first measurement (power: NaN
 * when the kernel has none). */
typedef struct sp_plan_kernel {
  const char *name;
  size_t measured;    /* grid configurations measured */
  size_t off_grid;    /* rows not on the grid (ignored) */
  double error_time;  /* estimated surface error of time, % */
  double error_power; /* and of power */
  int state;          /* sp_plan_state */
  size_t nnext;       /* the next batch, most uncertain first */
  const sp_config *next;
} sp_plan_kernel;

/* Fits every planned kernel's surrogate to its measured rows of ds on the
 * grid (rows marked completed are not measurements: sp_dataset_measured)
 * and names its next batch.  ds may be NULL (nothing measured yet: the
 * grid and the kernels must then be given).  SP_EINVAL for a bad
 * parameter, SP_EGRID for a base off the grid. */
int sp_plan_make(const sp_dataset *ds, const sp_plan_params *p, sp_plan **out, sp_error *err);
void sp_plan_free(sp_plan *pl);
size_t sp_plan_grid_size(const sp_plan *pl);
sp_config sp_plan_base(const sp_plan *pl);
size_t sp_plan_kernel_count(const sp_plan *pl);
const sp_plan_kernel *sp_plan_kernel_at(const sp_plan *pl, size_t k);
/* Configurations named over all kernels: 0 when the campaign is done. */
size_t sp_plan_next_count(const sp_plan *pl);

/* The next batches as CSV, kernel,cu,engine_mhz,memory_mhz (a header and
 * one row per kernel and configuration, kernels in plan order). */
int sp_plan_write_next(const sp_plan *pl, FILE *fp);
/* One row per kernel: kernel,measured,grid,error_time_pct,
 * error_power_pct,state,next. */
int sp_plan_write_status(const sp_plan *pl, FILE *fp);
/* Every grid configuration of every kernel as runs.csv rows plus a source
 * column: kernel,cu,engine_mhz,memory_mhz,time_ms,power_w,source.  A
 * measured configuration is copied as measured (source "measured"), the
 * others are the surrogate's median, exp of its mean log value (source
 * "completed"; power empty when the kernel has no power).  SP_ENOTFOUND
 * naming a kernel with nothing measured, before anything is written. */
int sp_plan_write_completed(const sp_plan *pl, FILE *fp, sp_error *err);
/* The same into path, atomically, as an output of kind
 * SP_OUTPUT_COMPLETED. */
int sp_plan_save_completed(const sp_plan *pl, const char *path, sp_error *err);

/* ==== end of measurement campaigns ========================================== */

#ifdef __cplusplus
}
#endif
#endif /* SCALEPREDICT_H */
