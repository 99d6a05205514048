/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mean.c: a prediction method of the tests' own, added to the library's
 * method table by the one line of method/method-table.h, to show that a
 * method is one file and one table line (test_method_table.c through the
 * API, method/add-method.sh through the tool).
 *
 * "mean": the geometric mean of the training kernels' scaling (value at a
 * configuration over value at the base) times a new kernel's base value.
 * It needs no counters; what it shows is the table, not accuracy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/method.h"
#include "scalepredict.h"

typedef struct mean_state {
  size_t n[2];      /* grid size per quantity, 0 without that quantity */
  double *ratio[2]; /* the mean scaling at each grid point */
} mean_state;

static void mean_free(void *state) {
  mean_state *s = state;
  if (!s) return;
  free(s->ratio[0]);
  free(s->ratio[1]);
  free(s);
}

static int measured(const sp_dataset *ds, size_t k, sp_quantity q, const sp_config *c, double *v) {
  return q == SP_TIME ? sp_dataset_time(ds, k, c, v) : sp_dataset_power(ds, k, c, v);
}

static double mean_ratio(const sp_method_data *d, sp_quantity q, const sp_config *c) {
  double sum = 0, v, b;
  size_t n = 0;
  for (size_t i = 0; i < d->n; i++)
    if (!measured(d->ds, d->kernels[i], q, c, &v) &&
        !measured(d->ds, d->kernels[i], q, &d->ctx.base, &b)) {
      sum += log(v / b);
      n++;
    }
  return n ? exp(sum / (double)n) : 1.0;
}

static int mean_fit(const sp_method_data *d, const sp_train_params *p, void **state,
                    sp_error *err) {
  (void)p;
  mean_state *s = calloc(1, sizeof *s);
  *state = s;
  if (!s) return sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
  for (int q = 0; q < 2; q++) {
    if (!d->ctx.grid[q]) continue;
    s->n[q] = sp__grid_size(d->ctx.grid[q]);
    if (!(s->ratio[q] = malloc(s->n[q] * sizeof(double))))
      return sp_error_set(err, SP_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    for (size_t t = 0; t < s->n[q]; t++) {
      const sp_config c = sp__grid_config(d->ctx.grid[q], t);
      s->ratio[q][t] = mean_ratio(d, (sp_quantity)q, &c);
    }
  }
  return SP_OK;
}

static int mean_predict(const sp_model *m, const void *state, sp_quantity q,
                        const sp_observation *obs, double *out) {
  (void)m;
  const mean_state *s = state;
  const double base = q == SP_TIME ? obs->base_time_ms : obs->base_power_w;
  if (!s->ratio[q]) return SP_ENOPOWER;
  for (size_t t = 0; t < s->n[q]; t++) out[t] = base * s->ratio[q][t];
  return SP_OK;
}

static int mean_save(const void *state, const char *path, sp_error *err) {
  const mean_state *s = state;
  FILE *fp = fopen(path, "w");
  if (!fp) return sp_error_set(err, SP_EIO, path, 0, 0, NULL, "cannot write");
  fprintf(fp, "mean %zu %zu\n", s->n[0], s->n[1]);
  for (int q = 0; q < 2; q++)
    for (size_t t = 0; t < s->n[q]; t++) fprintf(fp, "%.17g\n", s->ratio[q][t]);
  return fclose(fp) ? sp_error_set(err, SP_EIO, path, 0, 0, NULL, "cannot write") : SP_OK;
}

static int mean_load(const sp_method_context *ctx, const char *path, void **state, sp_error *err) {
  mean_state *s = calloc(1, sizeof *s);
  *state = s;
  FILE *fp = fopen(path, "r");
  if (!s || !fp) {
    if (fp) fclose(fp);
    return sp_error_set(err, s ? SP_EIO : SP_ENOMEM, path, 0, 0, NULL, "cannot read");
  }
  int st = fscanf(fp, "mean %zu %zu", &s->n[0], &s->n[1]) == 2 ? SP_OK : SP_EMODEL;
  for (int q = 0; q < 2 && !st; q++) {
    const size_t want = ctx->grid[q] ? sp__grid_size(ctx->grid[q]) : 0;
    if (s->n[q] != want || (want && !(s->ratio[q] = malloc(want * sizeof(double))))) {
      st = SP_EMODEL;
      break;
    }
    for (size_t t = 0; t < want && !st; t++)
      st = fscanf(fp, "%lf", &s->ratio[q][t]) == 1 ? SP_OK : SP_EMODEL;
  }
  fclose(fp);
  return st ? sp_error_set(err, st, path, 0, 0, NULL, "not a mean method file for this model")
            : SP_OK;
}

const sp_method_type sp__method_mean = {
    .name = "mean",
    .fit = mean_fit,
    .predict = mean_predict,
    .save = mean_save,
    .load = mean_load,
    .free = mean_free,
};
