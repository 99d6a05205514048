/* SPDX-License-Identifier: GPL-3.0-or-later */
/* static.c: the static method, a kernel's times from what its code says
 * (docs/estimate.md): no profiled run, so the base time is predicted too.
 *
 * It uses the model's counters that are static features
 * (ptx/ptx.h: PTX opcode parts, the per-thread mix, registers, shared
 * memory, the launch shape) and no others, so a model trained on a set with
 * activity counters besides (the V100 set's DCGM columns) ignores them.
 * Features are log(1 + count).  One extremely randomized forest
 * (forest.h) is fitted on the training kernels with, as its outputs, the
 * log base time and the log time ratios over the time grid; a kernel's
 * prediction is the forest-weighted mean of both, so its surface is a blend
 * of those of the training kernels whose code looks like its own.  It
 * predicts time only: power needs a measurement of the board.  The
 * expected error is a 5-fold cross-validation over the training kernels
 * (docs/estimate.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/dataset.h"
#include "forest.h"
#include "method.h"
#include "mfread.h"
#include "model.h"
#include "ptx/ptx.h"
#include "util/fsutil.h"
#include "util/inread.h"
#include "util/status.h"

#define STATIC_MAGIC "static 1"
/* Folds of the cross-validation behind the expected error. */
#define SP_STATIC_FOLDS 5
/* Weights of at most this many training kernels live on the stack. */
#define STATIC_STACK 512

typedef struct static_state {
  size_t nf, *index; /* the counters used, by index in the model's order */
  size_t n, g;       /* training kernels; time grid points */
  double *y;         /* n rows of 1 + g: log base time, then log ratios */
  double cv_mape;    /* cross-validated time MAPE (%), every grid point;
                        NaN with fewer kernels than folds */
  sp_forest *forest;
} static_state;

static void static_free(void *state) {
  static_state *s = state;
  if (!s) return;
  free(s->index);
  free(s->y);
  sp__forest_free(s->forest);
  free(s);
}

static double feature(double count) { return isfinite(count) && count > 0 ? log1p(count) : 0; }

static void features_of(const static_state *s, const double *counters, double *x) {
  for (size_t i = 0; i < s->nf; i++) x[i] = feature(counters[s->index[i]]);
}

/* The counters that are static features; SP_EINVAL when there is none. */
static int choose_counters(const sp_method_context *ctx, static_state *s, sp_error *err) {
  if (!(s->index = malloc((ctx->ncounters + 1) * sizeof(size_t)))) return sp__oom(err);
  for (size_t c = 0; c < ctx->ncounters; c++)
    if (sp__static_feature_name(ctx->counter_names[c])) s->index[s->nf++] = c;
  if (!s->nf)
    return sp__fail(err, SP_ENOTFOUND, NULL, 0, 0, "methods",
                    "the static method needs static features among the counters (PTX opcode "
                    "counts such as ld, st, f32, or a launch shape: docs/estimate.md); "
                    "this data has none");
  return SP_OK;
}

/* Features and targets of every training kernel. */
static int gather(const sp_method_data *d, static_state *s, double *x, sp_error *err) {
  const sp_grid *grid = d->ctx.grid[SP_TIME];
  for (size_t j = 0; j < d->n; j++) {
    const size_t k = d->kernels[j];
    const double *row;
    double tb, t;
    if (sp_dataset_time(d->ds, k, &d->ctx.base, &tb) ||
        sp_dataset_counters(d->ds, k, &d->ctx.base, &row))
      return sp__fail(err, SP_EGRID, sp_dataset_runs_path(d->ds), 0, 0, "kernel",
                      "kernel '%s' has no time or counters at the base",
                      sp_dataset_kernel_name(d->ds, k));
    features_of(s, row, x + j * s->nf);
    double *y = s->y + j * (1 + s->g);
    y[0] = log(tb);
    for (size_t i = 0; i < s->g; i++) {
      sp_config c = sp__grid_config(grid, i);
      if (sp_dataset_time(d->ds, k, &c, &t) || !(t > 0))
        return sp__fail(err, SP_EGRID, sp_dataset_runs_path(d->ds), 0, 0, "kernel",
                        "kernel '%s' has no time at a grid configuration",
                        sp_dataset_kernel_name(d->ds, k));
      y[1 + i] = log(t / tb);
    }
  }
  return SP_OK;
}

/* The weighted times at every grid point, from weights w (summing to 1). */
static void blend(const static_state *s, const double *w, double *out) {
  double lb = 0;
  for (size_t j = 0; j < s->n; j++) lb += w[j] * s->y[j * (1 + s->g)];
  for (size_t i = 0; i < s->g; i++) {
    double lr = 0;
    for (size_t j = 0; j < s->n; j++) lr += w[j] * s->y[j * (1 + s->g) + 1 + i];
    out[i] = exp(lb + lr);
  }
}

/* The error expected of a new kernel: every training kernel predicted by a
 * forest fitted without its fold (SP_STATIC_FOLDS folds, kernel j in fold
 * j mod SP_STATIC_FOLDS), as MAPE over every grid point. */
static int cross_validate(static_state *s, const double *x, const sp_forest_params *fp) {
  const size_t n = s->n, m = 1 + s->g;
  double *xt = malloc(n * s->nf * sizeof(double)), *yt = malloc(n * m * sizeof(double));
  double *w = malloc(n * sizeof(double)), *pred = malloc(s->g * sizeof(double));
  int st = xt && yt && w && pred ? SP_OK : SP_ENOMEM;
  double sum = 0;
  size_t count = 0;
  for (size_t f = 0; !st && n >= SP_STATIC_FOLDS && f < SP_STATIC_FOLDS; f++) {
    size_t nt = 0;
    for (size_t j = 0; j < n; j++)
      if (j % SP_STATIC_FOLDS != f) {
        memcpy(xt + nt * s->nf, x + j * s->nf, s->nf * sizeof(double));
        memcpy(yt + nt++ * m, s->y + j * m, m * sizeof(double));
      }
    static_state fold = {.nf = s->nf, .n = nt, .g = s->g, .y = yt};
    if ((st = sp__forest_fit(xt, nt, s->nf, yt, m, fp, &fold.forest))) break;
    for (size_t j = f; j < n; j += SP_STATIC_FOLDS) {
      sp__forest_weights(fold.forest, x + j * s->nf, w);
      blend(&fold, w, pred);
      for (size_t i = 0; i < s->g; i++, count++) {
        double t = exp(s->y[j * m] + s->y[j * m + 1 + i]);
        sum += fabs(pred[i] - t) / t;
      }
    }
    sp__forest_free(fold.forest);
  }
  free(xt), free(yt), free(w), free(pred);
  s->cv_mape = count ? 100 * sum / (double)count : NAN;
  return st;
}

static int static_fit(const sp_method_data *d, const sp_train_params *p, void **state,
                      sp_error *err) {
  static_state *s = calloc(1, sizeof *s);
  double *x = NULL;
  int st = s ? choose_counters(&d->ctx, s, err) : sp__oom(err);
  if (!st) {
    s->n = d->n;
    s->g = sp__grid_size(d->ctx.grid[SP_TIME]);
    x = malloc(s->n * s->nf * sizeof(double));
    s->y = malloc(s->n * (1 + s->g) * sizeof(double));
    st = x && s->y ? gather(d, s, x, err) : sp__oom(err);
  }
  if (!st) {
    sp_forest_params fp;
    sp__forest_params_init(&fp);
    fp.seed = p->seed;
    st = sp__forest_fit(x, s->n, s->nf, s->y, 1 + s->g, &fp, &s->forest);
    if (!st) st = cross_validate(s, x, &fp);
    if (st)
      st = st == SP_ENOMEM
               ? sp__oom(err)
               : sp__fail(err, st, NULL, 0, 0, NULL, "the static method's forest failed");
  }
  free(x);
  if (st) static_free(s), s = NULL;
  *state = s;
  return st;
}

static int static_predict(const sp_model *m, const void *state, sp_quantity q,
                          const sp_observation *obs, double *out) {
  (void)m;
  const static_state *s = state;
  if (q != SP_TIME) return SP_ENOPOWER;
  double wstack[STATIC_STACK], xstack[STATIC_STACK];
  double *w = s->n <= STATIC_STACK ? wstack : malloc(s->n * sizeof(double));
  double *x = s->nf <= STATIC_STACK ? xstack : malloc(s->nf * sizeof(double));
  int st = w && x ? SP_OK : SP_ENOMEM;
  if (!st) {
    features_of(s, obs->counters, x);
    sp__forest_weights(s->forest, x, w);
    blend(s, w, out);
  }
  if (w != wstack) free(w);
  if (x != xstack) free(x);
  return st;
}

static double static_expected_error(const void *state) {
  return ((const static_state *)state)->cv_mape;
}

/* ---- text form ------------------------------------------------------------- */

static int static_save(const void *state, const char *path, sp_error *err) {
  const static_state *s = state;
  sp_atomic_file af;
  int st = sp__atomic_open(&af, path, err);
  if (st) return st;
  fprintf(af.fp, "%s\nfeatures %zu", STATIC_MAGIC, s->nf);
  for (size_t i = 0; i < s->nf; i++) fprintf(af.fp, " %zu", s->index[i]);
  fprintf(af.fp, "\ntrain %zu grid %zu\ncv %.17g\n", s->n, s->g, s->cv_mape);
  for (size_t j = 0; j < s->n; j++) {
    fprintf(af.fp, "y");
    for (size_t i = 0; i <= s->g; i++) fprintf(af.fp, " %.17g", s->y[j * (1 + s->g) + i]);
    fprintf(af.fp, "\n");
  }
  sp__forest_save(s->forest, af.fp);
  fprintf(af.fp, "end\n");
  return sp__atomic_commit(&af, err);
}

typedef sp_mf_reader reader;

/* n numbers from s; integers below limit when limit > 0. */
static int numbers(const reader *r, const char *s, double *v, size_t n, double limit) {
  char *end = (char *)s;
  for (size_t i = 0; i < n; i++, s = end) {
    errno = 0;
    v[i] = strtod(s, &end);
    if (end == s || errno || !isfinite(v[i]) ||
        (limit > 0 && (v[i] < 0 || v[i] >= limit || v[i] != floor(v[i]))))
      return sp__mf_bad(r, "a value is missing, out of range or not finite");
  }
  return *end == '\n' || *end == '\0' ? SP_OK : sp__mf_bad(r, "more values than expected");
}

static int read_header(reader *r, static_state *s, const sp_method_context *ctx) {
  char *t = sp__mf_line(r, STATIC_MAGIC);
  if (!t || *t != '\n') return sp__mf_bad(r, "not a static method file (or another version)");
  char *end;
  if (!(t = sp__mf_line(r, "features")) || (s->nf = strtoul(t, &end, 10)) == 0 ||
      s->nf > ctx->ncounters)
    return sp__mf_bad(r, "expected the features line");
  double *v = malloc(s->nf * sizeof(double));
  s->index = malloc(s->nf * sizeof(size_t));
  if (!v || !s->index) return free(v), sp__oom(r->err);
  int st = numbers(r, end, v, s->nf, (double)ctx->ncounters);
  for (size_t i = 0; !st && i < s->nf; i++) {
    s->index[i] = (size_t)v[i];
    if (!sp__static_feature_name(ctx->counter_names[s->index[i]]))
      st = sp__mf_bad(r, "a feature is not a static counter of the model");
  }
  free(v);
  if (!st && (!(t = sp__mf_line(r, "train")) || sscanf(t, " %zu grid %zu", &s->n, &s->g) != 2 ||
              !s->n || s->n > 10000000 || s->g != sp__grid_size(ctx->grid[SP_TIME])))
    st = sp__mf_bad(r, "the training size or grid does not match the model");
  if (!st && !(t = sp__mf_line(r, "cv"))) st = sp__mf_bad(r, "expected the cv line");
  /* "nan": too few training kernels to cross-validate. */
  if (!st && !strcmp(t, " nan\n"))
    s->cv_mape = NAN;
  else if (!st && !(st = numbers(r, t, &s->cv_mape, 1, 0)) && s->cv_mape < 0)
    st = sp__mf_bad(r, "a negative expected error");
  return st;
}

static int read_rows(reader *r, static_state *s) {
  if (!(s->y = malloc(s->n * (1 + s->g) * sizeof(double)))) return sp__oom(r->err);
  int st = SP_OK;
  for (size_t j = 0; j < s->n && !st; j++) {
    char *t = sp__mf_line(r, "y");
    st = t ? numbers(r, t, s->y + j * (1 + s->g), 1 + s->g, 0) : sp__mf_bad(r, "expected a y line");
  }
  if (st) return st;
  if ((st = sp__mf_forest(r, &s->forest, s->n, s->nf))) return st;
  return sp__mf_line(r, "end") ? SP_OK : sp__mf_bad(r, "expected 'end'");
}

static int static_load(const sp_method_context *ctx, const char *path, void **state,
                       sp_error *err) {
  static_state *s = calloc(1, sizeof *s);
  reader r = {.path = path, .err = err};
  int st = s ? SP_OK : sp__oom(err);
  if (!st &&
      !(r.fp = sp__open_bounded(path, SP_METHOD_FILE_MAX_BYTES, SP_EMODEL, "method file", err)))
    st = err->status;
  if (!st) st = read_header(&r, s, ctx);
  if (!st) st = read_rows(&r, s);
  if (r.fp) fclose(r.fp);
  free(r.buf);
  if (st) static_free(s), s = NULL;
  *state = s;
  return st;
}

const sp_method_type sp__method_static = {
    .name = "static",
    .needs = SP_NEEDS_COUNTERS | SP_PREDICTS_BASE,
    .fit = static_fit,
    .predict = static_predict,
    .save = static_save,
    .load = static_load,
    .free = static_free,
    .expected_error = static_expected_error,
};
