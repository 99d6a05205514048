/* SPDX-License-Identifier: GPL-3.0-or-later */
/* memthrottle.c: an example governor policy written against the installed
 * libscalepredict, replayed beside two built-in policies.
 *
 * The policy keeps the reference CU count and engine clock and lowers the
 * memory clock as far as the model predicts the kernel may slow down (by at
 * most the replay's slowdown limit, 5% when none is set).  Compute-bound
 * kernels barely notice a slower memory clock, so they give up memory power
 * for free; bandwidth-bound ones keep theirs.
 *
 *   memthrottle MODEL TRACE [RUNS COUNTERS]
 *
 * prints the comparison as CSV (sp_governor_write_summary_csv). */
#include <stdio.h>
#include <stdlib.h>

#include <scalepredict.h>

typedef struct throttle {
  double slowdown;
} throttle;

static int throttle_init(const sp_governor_context *ctx, void *user, void **state,
                         sp_error *err) {
  (void)user;
  (void)err;
  throttle *t = malloc(sizeof *t);
  if (!t) return SP_ENOMEM;
  t->slowdown = ctx->params->slowdown > 0 ? ctx->params->slowdown : 1.05;
  *state = t;
  return SP_OK;
}

static int throttle_choose(void *state, const sp_governor_context *ctx,
                           const sp_governor_invocation *next, const sp_governor_outcome *history,
                           size_t nhistory, size_t *config, sp_error *err) {
  (void)history;
  (void)nhistory;
  (void)err;
  const throttle *t = state;
  const sp_config *ref = &ctx->configs[ctx->reference];
  double limit = t->slowdown * next->time_ms[ctx->reference];
  size_t best = ctx->reference;
  for (size_t c = 0; c < ctx->nconfigs; c++) {
    const sp_config *x = &ctx->configs[c];
    if (x->cu == ref->cu && x->engine_mhz == ref->engine_mhz && next->time_ms[c] <= limit &&
        x->memory_mhz < ctx->configs[best].memory_mhz)
      best = c;
  }
  *config = best;
  return SP_OK;
}

static void throttle_free(void *state) { free(state); }

static int fail(const sp_error *err) {
  char msg[1024];
  sp_error_format(err, msg, sizeof msg);
  fprintf(stderr, "memthrottle: %s\n", msg);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 5) {
    fprintf(stderr, "usage: memthrottle MODEL TRACE [RUNS COUNTERS]\n");
    return 2;
  }
  const sp_governor_policy mine = {"memthrottle", throttle_init, throttle_choose, NULL,
                                   throttle_free, NULL};
  const sp_governor_policy *policies[3] = {sp_governor_builtin("reference"),
                                           sp_governor_builtin("model"), &mine};
  sp_error err;
  sp_model *m = NULL;
  sp_dataset *ds = NULL;
  sp_governor_trace *trace = NULL;
  sp_governor_result *r[3] = {NULL, NULL, NULL};
  sp_governor_params p;
  sp_governor_params_init(&p);
  p.slowdown = 1.1;
  int st = sp_model_load(argv[1], &m, &err);
  if (!st && argc == 5) st = sp_dataset_load(argv[3], argv[4], &ds, &err);
  if (!st) st = sp_governor_trace_load(argv[2], m, ds, &trace, &err);
  for (size_t i = 0; i < 3 && !st; i++) st = sp_governor_replay(trace, policies[i], &p, &r[i], &err);
  int rc = st ? fail(&err) : 0;
  if (!st) sp_governor_write_summary_csv((const sp_governor_result *const *)r, 3, stdout);
  for (size_t i = 0; i < 3; i++) sp_governor_result_free(r[i]);
  sp_governor_trace_free(trace);
  sp_dataset_free(ds);
  sp_model_free(m);
  return rc;
}
