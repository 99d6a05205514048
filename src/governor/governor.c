/* SPDX-License-Identifier: GPL-3.0-or-later */
/* governor.c: replaying a loaded kernel trace (trace.c) through governor
 * policies, with switching costs and power-cap accounting. */
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/status.h"

/* The largest switching latency (us) and energy (mJ) accepted. */
#define MAX_SWITCH_COST 1e9

/* ---- parameters and feasibility --------------------------------------------------- */

void sp_governor_params_init(sp_governor_params *p) {
  memset(p, 0, sizeof *p);
  p->engine_load_counter = "VALUBusy";
  p->memory_load_counter = "MemUnitBusy";
  p->up_threshold = 80;
}

static int check_params(const sp_governor_params *p, sp_error *err) {
  const double v[4] = {p->power_cap_w, p->slowdown, p->switch_latency_us, p->switch_energy_mj};
  static const char *const names[4] = {"power-cap", "slowdown", "switch-latency-us",
                                       "switch-energy-mj"};
  for (int i = 0; i < 4; i++)
    if (!(v[i] >= 0) || !isfinite(v[i]))
      return sp__fail(err, SP_EINVAL, NULL, 0, 0, names[i], "must be a non-negative number");
  /* A switch is paid per changed axis and invocation: a cost beyond any
   * hardware's would overflow the replay's sums on a long trace. */
  for (int i = 2; i < 4; i++)
    if (v[i] > MAX_SWITCH_COST)
      return sp__fail(err, SP_EINVAL, NULL, 0, 0, names[i], "must be at most %g (%s)",
                      MAX_SWITCH_COST, i == 2 ? "1000 s" : "1 MJ");
  if (!(p->up_threshold > 0 && p->up_threshold <= 100))
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "up-threshold", "must be in (0, 100]");
  return SP_OK;
}

static int resolve_reference(const sp_governor_trace *t, const sp_governor_params *p, size_t *ref,
                             sp_error *err) {
  sp_config c = p->reference.cu ? p->reference : sp_model_base(t->model);
  *ref = sp__space_index(&t->space, &c);
  if (*ref != SP_NO_CONFIG) return SP_OK;
  char want[64], near[64];
  sp_config n = t->configs[sp__space_nearest(&t->space, &c)];
  sp_config_format(&c, want, sizeof want);
  sp_config_format(&n, near, sizeof near);
  return sp__fail(err, SP_EGRID, NULL, 0, 0, "reference",
                  "%s is not a configuration of the model's grid; the nearest is %s", want, near);
}

/* Index of the configuration with the least power among those within the
 * time limit (all when limit is infinite), or SP_NO_CONFIG. */
static size_t least_power(const sp_governor_trace *t, const sp_gov_kernel *kn, double limit) {
  size_t best = SP_NO_CONFIG;
  for (size_t i = 0; i < t->space.n; i++)
    if (kn->t[i] <= limit && (best == SP_NO_CONFIG || kn->p[i] < kn->p[best])) best = i;
  return best;
}

static int check_kernel(const sp_governor_trace *t, const sp_governor_params *p, size_t ref,
                        const sp_gov_kernel *kn, sp_error *err) {
  double limit = p->slowdown > 0 ? p->slowdown * kn->t[ref] : INFINITY;
  char cfg[64];
  size_t low = least_power(t, kn, INFINITY);
  if (p->power_cap_w > 0 && kn->p[low] > p->power_cap_w) {
    sp_config_format(&t->configs[low], cfg, sizeof cfg);
    return sp__fail(err, SP_ENOTFOUND, NULL, 0, 0, "power-cap",
                    "the %.4g W cap is below every configuration's predicted power for "
                    "kernel '%s'; the closest is %s at %.4g W",
                    p->power_cap_w, kn->name, cfg, kn->p[low]);
  }
  size_t fast = least_power(t, kn, limit);
  if (fast == SP_NO_CONFIG || (p->power_cap_w > 0 && kn->p[fast] > p->power_cap_w)) {
    size_t c = fast == SP_NO_CONFIG ? ref : fast;
    sp_config_format(&t->configs[c], cfg, sizeof cfg);
    return sp__fail(err, SP_ENOTFOUND, NULL, 0, 0, "slowdown",
                    "no configuration runs kernel '%s' within %.4g x its reference time%s; "
                    "the closest is %s at %.4g x and %.4g W",
                    kn->name, p->slowdown, p->power_cap_w > 0 ? " and under the power cap" : "",
                    cfg, kn->t[c] / kn->t[ref], kn->p[c]);
  }
  return SP_OK;
}

static int check_feasible(const sp_governor_trace *t, const sp_governor_params *p, size_t ref,
                          sp_error *err) {
  int st = SP_OK;
  for (size_t k = 0; k < t->nkernels && !st; k++) st = check_kernel(t, p, ref, &t->kernels[k], err);
  return st;
}

/* ---- replay -------------------------------------------------------------------------- */

void sp_governor_result_free(sp_governor_result *r) {
  if (!r) return;
  free(r->policy);
  free(r->steps);
  free(r);
}

static sp_governor_invocation *make_views(const sp_governor_trace *t) {
  sp_governor_invocation *v = calloc(t->length ? t->length : 1, sizeof *v);
  for (size_t i = 0; v && i < t->length; i++) {
    const sp_gov_kernel *kn = &t->kernels[t->entries[i].kernel];
    v[i] = (sp_governor_invocation){
        i,     t->entries[i].order, t->entries[i].kernel, kn->name, &kn->obs, kn->t, kn->p, kn->mt,
        kn->mp};
  }
  return v;
}

static unsigned axes_changed(const sp_config *a, const sp_config *b) {
  return (a->cu != b->cu) + (a->engine_mhz != b->engine_mhz) + (a->memory_mhz != b->memory_mhz);
}

/* Runs invocation i at configuration c after cur: what really happens. */
static sp_governor_outcome run_step(const sp_governor_context *ctx, size_t i, size_t cur,
                                    size_t c) {
  const sp_governor_invocation *inv = &ctx->trace[i];
  const sp_governor_params *p = ctx->params;
  sp_governor_outcome o = {.position = i, .config = c};
  o.measured = inv->measured_time_ms && isfinite(inv->measured_time_ms[c]) &&
               isfinite(inv->measured_power_w[c]);
  o.time_ms = o.measured ? inv->measured_time_ms[c] : inv->time_ms[c];
  o.power_w = o.measured ? inv->measured_power_w[c] : inv->power_w[c];
  o.energy_mj = o.time_ms * o.power_w;
  o.switches = axes_changed(&ctx->configs[cur], &ctx->configs[c]);
  o.switch_time_ms = o.switches * p->switch_latency_us / 1000.0;
  o.switch_energy_mj = o.switches * p->switch_energy_mj;
  o.over_cap = p->power_cap_w > 0 && o.power_w > p->power_cap_w;
  return o;
}

static void account(sp_governor_result *r, const sp_governor_outcome *o) {
  r->time_ms += o->time_ms + o->switch_time_ms;
  r->energy_mj += o->energy_mj + o->switch_energy_mj;
  if (o->power_w > r->peak_power_w) r->peak_power_w = o->power_w;
  r->over_cap += (size_t)o->over_cap;
  if (o->over_cap) r->over_cap_time_ms += o->time_ms;
  r->switches += o->switches;
  r->switch_time_ms += o->switch_time_ms;
  r->switch_energy_mj += o->switch_energy_mj;
  r->measured += (size_t)o->measured;
}

static int policy_failed(const sp_governor_policy *p, int st, size_t i, sp_error *err) {
  if (err->status) return err->status;
  return sp__fail(err, st ? st : SP_EINVAL, NULL, 0, 0, "policy",
                  "policy '%s' failed at invocation %zu: %s", p->name ? p->name : "?", i + 1,
                  st ? sp_strerror(st) : "it chose a configuration outside the grid");
}

static int replay_loop(const sp_governor_context *ctx, const sp_governor_policy *p, void *state,
                       sp_governor_result *r, sp_error *err) {
  size_t cur = ctx->start;
  for (size_t i = 0; i < ctx->length; i++) {
    size_t c = SP_NO_CONFIG;
    int st = p->choose(state, ctx, &ctx->trace[i], r->steps, i, &c, err);
    if (st || c >= ctx->nconfigs) return policy_failed(p, st, i, err);
    r->steps[i] = run_step(ctx, i, cur, c);
    account(r, &r->steps[i]);
    if (p->observe) p->observe(state, ctx, &r->steps[i]);
    cur = c;
  }
  r->edp = r->energy_mj * r->time_ms;
  r->avg_power_w = r->time_ms > 0 ? r->energy_mj / r->time_ms : 0;
  return SP_OK;
}

static int run_policy(const sp_governor_context *ctx, const sp_governor_policy *p,
                      sp_governor_result *r, sp_error *err) {
  void *state = NULL;
  int st = p->init ? p->init(ctx, p->user, &state, err) : SP_OK;
  if (st) {
    if (!err->status)
      sp__fail(err, st, NULL, 0, 0, "policy", "policy '%s' could not start: %s",
               p->name ? p->name : "?", sp_strerror(st));
    return err->status;
  }
  st = replay_loop(ctx, p, state, r, err);
  if (p->free) p->free(state);
  return st;
}

static sp_governor_result *result_alloc(const sp_governor_policy *p, size_t length) {
  sp_governor_result *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->policy = strdup(p->name ? p->name : "");
  r->length = length;
  r->steps = calloc(length ? length : 1, sizeof *r->steps);
  if (!r->policy || !r->steps) {
    sp_governor_result_free(r);
    return NULL;
  }
  return r;
}

int sp_governor_replay(const sp_governor_trace *t, const sp_governor_policy *p,
                       const sp_governor_params *params, sp_governor_result **out, sp_error *err) {
  sp_error local;
  if (!err) err = &local;
  sp_error_clear(err);
  *out = NULL;
  if (!p || !p->choose)
    return sp__fail(err, SP_EINVAL, NULL, 0, 0, "policy", "a policy needs a choose callback");
  size_t ref;
  int st = check_params(params, err);
  if (!st) st = resolve_reference(t, params, &ref, err);
  if (!st) st = check_feasible(t, params, ref, err);
  if (st) return st;
  sp_governor_invocation *views = make_views(t);
  sp_governor_result *r = result_alloc(p, t->length);
  if (!views || !r) st = sp__oom(err);
  sp_governor_context ctx = {t->model, params, t->space.n, t->configs, ref, ref, t->length, views};
  if (!st) st = run_policy(&ctx, p, r, err);
  free(views);
  if (st) {
    sp_governor_result_free(r);
    return st;
  }
  *out = r;
  return SP_OK;
}
