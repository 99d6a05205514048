/* SPDX-License-Identifier: GPL-3.0-or-later */
/* policy.c: the built-in governor policies, written against the public
 * policy interface like any user's policy would be: besides the public
 * header it includes util/status.h alone, for sp__fail's messages. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scalepredict.h"
#include "util/status.h"

static size_t current(const sp_governor_context *ctx, const sp_governor_outcome *history,
                      size_t n) {
  return n ? history[n - 1].config : ctx->start;
}

static unsigned axes_changed(const sp_config *a, const sp_config *b) {
  return (a->cu != b->cu) + (a->engine_mhz != b->engine_mhz) + (a->memory_mhz != b->memory_mhz);
}

static double cap_of(const sp_governor_context *ctx) {
  return ctx->params->power_cap_w > 0 ? ctx->params->power_cap_w : INFINITY;
}

/* ---- static reference --------------------------------------------------------- */

static int reference_choose(void *state, const sp_governor_context *ctx,
                            const sp_governor_invocation *next, const sp_governor_outcome *history,
                            size_t n, size_t *config, sp_error *err) {
  *config = ctx->reference;
  return SP_OK;
}

/* ---- static best EDP over the whole trace ----------------------------------------- */

typedef struct static_totals {
  double t, e, peak;
} static_totals;

static static_totals totals_at(const sp_governor_context *ctx, size_t c) {
  static_totals s = {0, 0, 0};
  for (size_t i = 0; i < ctx->length; i++) {
    const sp_governor_invocation *inv = &ctx->trace[i];
    s.t += inv->time_ms[c];
    s.e += inv->time_ms[c] * inv->power_w[c];
    if (inv->power_w[c] > s.peak) s.peak = inv->power_w[c];
  }
  return s;
}

/* Chooses once, offline: the least predicted EDP of the whole trace among
 * configurations whose peak predicted power is within the cap and whose
 * total time is within the slowdown limit; when none is, the one with the
 * lowest peak power. */
static int best_edp_init(const sp_governor_context *ctx, void *user, void **state, sp_error *err) {
  size_t *choice = malloc(sizeof *choice);
  if (!choice) return SP_ENOMEM;
  static_totals ref = totals_at(ctx, ctx->reference);
  double limit = ctx->params->slowdown > 0 ? ctx->params->slowdown * ref.t : INFINITY;
  size_t best = SP_NO_CONFIG, lowest = 0;
  double best_edp = INFINITY, lowest_peak = INFINITY;
  for (size_t c = 0; c < ctx->nconfigs; c++) {
    static_totals s = totals_at(ctx, c);
    if (s.peak < lowest_peak) {
      lowest_peak = s.peak;
      lowest = c;
    }
    if (s.peak <= cap_of(ctx) && s.t <= limit && s.e * s.t < best_edp) {
      best_edp = s.e * s.t;
      best = c;
    }
  }
  *choice = best != SP_NO_CONFIG ? best : lowest;
  *state = choice;
  return SP_OK;
}

static int static_choose(void *state, const sp_governor_context *ctx,
                         const sp_governor_invocation *next, const sp_governor_outcome *history,
                         size_t n, size_t *config, sp_error *err) {
  *config = *(const size_t *)state;
  return SP_OK;
}

/* ---- per-kernel choice: the model-driven policy and the oracle ---------------------- */

/* Least energy (switching included) within the cap and the slowdown limit
 * (switching latency included); without a feasible choice, the reference. */
static size_t per_kernel(const sp_governor_context *ctx, size_t cur, const double *t,
                         const double *p) {
  const sp_governor_params *gp = ctx->params;
  double limit = gp->slowdown > 0 ? gp->slowdown * t[ctx->reference] : INFINITY;
  size_t best = ctx->reference;
  double best_e = INFINITY;
  for (size_t c = 0; c < ctx->nconfigs; c++) {
    unsigned sw = axes_changed(&ctx->configs[cur], &ctx->configs[c]);
    double time = t[c] + sw * gp->switch_latency_us / 1000.0;
    double e = t[c] * p[c] + sw * gp->switch_energy_mj;
    if (p[c] <= cap_of(ctx) && time <= limit && e < best_e) {
      best_e = e;
      best = c;
    }
  }
  return best;
}

static int model_choose(void *state, const sp_governor_context *ctx,
                        const sp_governor_invocation *next, const sp_governor_outcome *history,
                        size_t n, size_t *config, sp_error *err) {
  *config = per_kernel(ctx, current(ctx, history, n), next->time_ms, next->power_w);
  return SP_OK;
}

/* Measured values where the data has them, predictions elsewhere. */
static int oracle_choose(void *state, const sp_governor_context *ctx,
                         const sp_governor_invocation *next, const sp_governor_outcome *history,
                         size_t n, size_t *config, sp_error *err) {
  double *t = state, *p = t + ctx->nconfigs;
  for (size_t c = 0; c < ctx->nconfigs; c++) {
    int m = next->measured_time_ms && isfinite(next->measured_time_ms[c]) &&
            isfinite(next->measured_power_w[c]);
    t[c] = m ? next->measured_time_ms[c] : next->time_ms[c];
    p[c] = m ? next->measured_power_w[c] : next->power_w[c];
  }
  *config = per_kernel(ctx, current(ctx, history, n), t, p);
  return SP_OK;
}

static int oracle_init(const sp_governor_context *ctx, void *user, void **state, sp_error *err) {
  *state = malloc(2 * (ctx->nconfigs + 1) * sizeof(double));
  return *state ? SP_OK : SP_ENOMEM;
}

/* ---- reactive, ondemand-like ----------------------------------------------------------- */

typedef struct reactive {
  size_t engine_counter, memory_counter;
  unsigned throttle; /* engine steps below the load rule, after cap overshoots */
  size_t n[3];       /* clocks on the engine (1) and memory (2) axes */
  size_t *along[3];  /* their configurations through the reference */
} reactive;

static void reactive_free(void *state) {
  reactive *r = state;
  if (!r) return;
  free(r->along[1]);
  free(r->along[2]);
  free(r);
}

/* A load counter is a percentage: one whose training values leave 0..100,
 * or stay at or below 1 (a fraction, or a rate), would send the policy to
 * its lowest (or highest) clocks on every kernel. */
static int check_percent(const sp_model *m, size_t c, sp_error *err) {
  double lo, hi;
  sp_model_counter_range(m, c, &lo, &hi);
  if (lo >= 0 && hi <= 100 && hi > 1) return SP_OK;
  return sp__fail(err, SP_EINVAL, NULL, 0, 0, "policy",
                  "the reactive policy reads load counters as percent busy, but '%s' spans "
                  "%g to %g in the model's training data; choose percent-busy counters "
                  "with --load-counters ENGINE,MEMORY",
                  sp_model_counter_name(m, c), lo, hi);
}

static int counter_index(const sp_model *m, const char *name, size_t *out, sp_error *err) {
  for (size_t c = 0; name && c < sp_model_counter_count(m); c++)
    if (!strcmp(sp_model_counter_name(m, c), name)) {
      *out = c;
      return check_percent(m, c, err);
    }
  return sp__fail(err, SP_ENOTFOUND, NULL, 0, 0, "policy",
                  "the reactive policy reads the load counter '%s', which the model does not "
                  "have; choose another with --load-counters ENGINE,MEMORY",
                  name ? name : "(none)");
}

/* The configurations along one clock axis through the reference, ascending
 * (grid order keeps them sorted). */
static size_t axis_configs(const sp_governor_context *ctx, int axis, size_t *out) {
  const sp_config *ref = &ctx->configs[ctx->reference];
  size_t n = 0;
  for (size_t c = 0; c < ctx->nconfigs; c++) {
    const sp_config *x = &ctx->configs[c];
    int same_cu = x->cu == ref->cu;
    if (axis == 1 && same_cu && x->memory_mhz == ref->memory_mhz) out[n++] = c;
    if (axis == 2 && same_cu && x->engine_mhz == ref->engine_mhz) out[n++] = c;
  }
  return n;
}

static int reactive_init(const sp_governor_context *ctx, void *user, void **state, sp_error *err) {
  reactive *r = calloc(1, sizeof *r);
  if (!r) return SP_ENOMEM;
  int st = counter_index(ctx->model, ctx->params->engine_load_counter, &r->engine_counter, err);
  if (!st)
    st = counter_index(ctx->model, ctx->params->memory_load_counter, &r->memory_counter, err);
  for (int a = 1; a < 3 && !st; a++) {
    r->along[a] = malloc(ctx->nconfigs * sizeof(size_t));
    if (!r->along[a])
      st = SP_ENOMEM;
    else
      r->n[a] = axis_configs(ctx, a, r->along[a]);
  }
  if (st) {
    reactive_free(r);
    return st;
  }
  *state = r;
  return SP_OK;
}

static int clock_of(const sp_config *c, int axis) {
  return axis == 1 ? c->engine_mhz : c->memory_mhz;
}

/* ondemand's rule: above the threshold the highest clock, else the lowest
 * clock at or above min + load x (max - min); then down steps lower. */
static int ondemand(const sp_governor_context *ctx, const reactive *r, int axis, double load,
                    unsigned down) {
  const size_t *idx = r->along[axis], n = r->n[axis];
  int lo = clock_of(&ctx->configs[idx[0]], axis), hi = clock_of(&ctx->configs[idx[n - 1]], axis);
  double want = load >= ctx->params->up_threshold ? hi : lo + load / 100.0 * (hi - lo);
  size_t j = 0;
  while (j + 1 < n && clock_of(&ctx->configs[idx[j]], axis) < want) j++;
  j = j > down ? j - down : 0;
  return clock_of(&ctx->configs[idx[j]], axis);
}

static size_t find_config(const sp_governor_context *ctx, int cu, int engine, int memory) {
  for (size_t c = 0; c < ctx->nconfigs; c++)
    if (ctx->configs[c].cu == cu && ctx->configs[c].engine_mhz == engine &&
        ctx->configs[c].memory_mhz == memory)
      return c;
  return ctx->reference;
}

static int reactive_choose(void *state, const sp_governor_context *ctx,
                           const sp_governor_invocation *next, const sp_governor_outcome *history,
                           size_t n, size_t *config, sp_error *err) {
  const reactive *r = state;
  if (n == 0) {
    *config = ctx->reference;
    return SP_OK;
  }
  /* Like a driver sampling busy counters, it sees only what already ran. */
  const sp_governor_invocation *prev = &ctx->trace[history[n - 1].position];
  double eload = prev->obs->counters[r->engine_counter];
  double mload = prev->obs->counters[r->memory_counter];
  int engine = ondemand(ctx, r, 1, eload, r->throttle);
  int memory = ondemand(ctx, r, 2, mload, 0);
  *config = find_config(ctx, ctx->configs[ctx->reference].cu, engine, memory);
  return SP_OK;
}

/* Steps the engine clock down after a cap overshoot and back up once power
 * is comfortably (10%) below the cap, like a power-limit controller. */
static void reactive_observe(void *state, const sp_governor_context *ctx,
                             const sp_governor_outcome *o) {
  reactive *r = state;
  if (o->over_cap && r->throttle + 1 < r->n[1])
    r->throttle++;
  else if (r->throttle && o->power_w < 0.9 * cap_of(ctx))
    r->throttle--;
}

static void free_state(void *state) { free(state); }

/* ---- the table ---------------------------------------------------------------------- */

static const sp_governor_policy builtins[] = {
    {"reference", NULL, reference_choose, NULL, NULL, NULL},
    {"best-edp", best_edp_init, static_choose, NULL, free_state, NULL},
    {"model", NULL, model_choose, NULL, NULL, NULL},
    {"reactive", reactive_init, reactive_choose, reactive_observe, reactive_free, NULL},
    {"oracle", oracle_init, oracle_choose, NULL, free_state, NULL},
};

const sp_governor_policy *sp_governor_builtin_at(size_t i) {
  return i < sizeof builtins / sizeof *builtins ? &builtins[i] : NULL;
}

const sp_governor_policy *sp_governor_builtin(const char *name) {
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
    if (!strcmp(builtins[i].name, name)) return &builtins[i];
  return NULL;
}
