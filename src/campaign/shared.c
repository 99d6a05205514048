/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shared.c: the shared surrogate, one round of a campaign over many
 * kernels at once (docs/sweeps.md, "The shared surrogate").
 *
 * A per-kernel process (gp.c) knows only its kernel's measurements, so it
 * cannot predict a step between two configurations it has not measured.
 * Other kernels often have: the surfaces of a suite are strongly related.
 * Here, per quantity, the matrix of every kernel's log ratios to its base
 * is completed at low rank (lowrank.c), and kernel k's prior mean at
 * configuration j is log value(base) + the completed ratio; the kernel's
 * own process then models only the residual.  A configuration's
 * uncertainty is the residual process's variance plus the completion's
 * cross-validated error variance there.
 *
 * The batch favours configurations that help many kernels: the first pick
 * of a round is the configuration of the largest uncertainty summed over
 * the kernels still measuring, and every one of them that lacks it gets
 * it (in a real sweep a round then sets that clock pair once); the others
 * are each kernel's own most uncertain, conditioned on its picks so far.
 * The completion's error at a configuration falls as more kernels measure
 * it (a column's shape is estimated from the kernels that measured it),
 * so its share of the score is scaled by (m + 1) / (m + 1 + a), m kernels
 * that measured it before the round and a that were given it in the
 * round so far: kernels spread over the configurations the completion
 * knows least, instead of all measuring the same ones.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lowrank.h"
#include "shared.h"

#define NOT_FOUND ((size_t)-1)
#define MAX_THREADS 64

typedef struct shared {
  sp_ckernel *const *ks;
  size_t K;
  const sp_cgrid *g;
  const sp_round_params *rp;
  sp_lowrank *lr[2];
  sp_gp **gp;  /* K x 2 */
  double *err; /* G x 2: the completion's error variance, 0 without one */
  int *status;
  size_t next;
  pthread_mutex_t lock;
} shared;

/* ---- the completion ----------------------------------------------------- */

static int complete_matrix(shared *s, int q, unsigned long seed) {
  const size_t G = s->g->n, base = s->rp->base;
  double *Y = malloc((s->K * G + 1) * sizeof *Y);
  if (!Y) return SP_ENOMEM;
  size_t n = 0;
  for (size_t k = 0; k < s->K; k++) {
    const sp_ckernel *ck = s->ks[k];
    const double b = ck->measured[base] ? ck->value[q][base] : NAN;
    for (size_t j = 0; j < G; j++) {
      const double v = ck->measured[j] ? ck->value[q][j] : NAN;
      Y[k * G + j] = isfinite(b) && isfinite(v) ? log(v) - log(b) : NAN;
      n += isfinite(Y[k * G + j]);
    }
  }
  int st = n ? sp__lowrank_fit(Y, s->K, G, base, &s->g->pts, seed, &s->lr[q]) : SP_OK;
  for (size_t j = 0; j < G; j++) s->err[j * 2 + q] = s->lr[q] ? sp__lowrank_err(s->lr[q], j) : 0.0;
  free(Y);
  return st;
}

/* ---- one kernel ---------------------------------------------------------- */

/* Kernel k's prior mean of quantity q, or NULL when it has none (no
 * completion, or no base value). */
static const double *prior_of(const shared *s, size_t k, int q, double *prior) {
  const sp_ckernel *ck = s->ks[k];
  const size_t base = s->rp->base;
  if (!s->lr[q] || !ck->measured[base] || !isfinite(ck->value[q][base])) return NULL;
  for (size_t j = 0; j < s->g->n; j++)
    prior[j] = log(ck->value[q][base]) + sp__lowrank_mean(s->lr[q], k, j);
  return prior;
}

/* Fill and estimated error of quantity q from the prior and the residual
 * process. */
static void complete_kernel(const shared *s, sp_ckernel *ck, int q, const double *prior,
                            const sp_gp *gp) {
  double sum = 0.0;
  size_t n = 0;
  for (size_t j = 0; j < ck->G; j++) {
    const double m = prior ? prior[j] : 0.0;
    ck->fill[q][j] = ck->measured[j] ? ck->value[q][j] : gp ? exp(m + sp__gp_mean(gp, j)) : NAN;
    if (ck->measured[j] || !gp) continue;
    sum += sqrt(sp__gp_var(gp, j) + (prior ? s->err[j * 2 + q] : 0.0));
    n++;
  }
  ck->error[q] = !gp ? NAN : n ? 100.0 * sum / (double)n : 0.0;
}

static int fit_kernel(shared *s, size_t k, size_t *idx, double *y, double *prior) {
  sp_ckernel *ck = s->ks[k];
  int st = SP_OK;
  for (int q = 0; q < 2 && !st; q++) {
    const double *pm = prior_of(s, k, q, prior);
    st = sp__ckernel_fit(ck, s->g, q, pm, idx, y, &s->gp[k * 2 + q]);
    if (!st) complete_kernel(s, ck, q, pm, s->gp[k * 2 + q]);
  }
  ck->nnext = 0;
  ck->state = ck->measured[s->rp->base] ? sp__ckernel_decide(ck, s->rp) : SP_PLAN_MEASURING;
  return st;
}

static void *worker(void *arg) {
  shared *s = arg;
  const size_t G = s->g->n;
  size_t *idx = malloc(G * sizeof *idx);
  double *y = malloc(G * sizeof *y), *prior = malloc(G * sizeof *prior);
  for (;;) {
    pthread_mutex_lock(&s->lock);
    const size_t k = s->next < s->K ? s->next++ : NOT_FOUND;
    pthread_mutex_unlock(&s->lock);
    if (k == NOT_FOUND) break;
    s->status[k] = idx && y && prior ? fit_kernel(s, k, idx, y, prior) : SP_ENOMEM;
  }
  free(idx);
  free(y);
  free(prior);
  return NULL;
}

static int fit_all(shared *s, unsigned threads, size_t *failed) {
  const unsigned n = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
  pthread_t tid[MAX_THREADS];
  unsigned started = 0;
  for (size_t k = 0; k < s->K; k++) s->status[k] = SP_ENOMEM;
  for (unsigned t = 1; t < n; t++)
    if (pthread_create(&tid[started], NULL, worker, s) == 0) started++;
  worker(s);
  for (unsigned t = 0; t < started; t++) pthread_join(tid[t], NULL);
  for (size_t k = 0; k < s->K; k++)
    if (s->status[k]) {
      *failed = k;
      return s->status[k];
    }
  return SP_OK;
}

/* ---- the batch ----------------------------------------------------------- */

typedef struct batch {
  sp_gp_picker **pk; /* per kernel; NULL: names nothing more */
  size_t *want;
  size_t *seen, *added; /* per configuration */
} batch;

static double score(const shared *s, const batch *b, size_t k, size_t j) {
  const double e = s->err[j * 2] + s->err[j * 2 + 1];
  const double m = (double)b->seen[j] + 1.0;
  return sp__gp_picker_var(b->pk[k])[j] + e * m / (m + (double)b->added[j]);
}

static void give(const shared *s, batch *b, size_t k, size_t j) {
  sp_ckernel *ck = s->ks[k];
  ck->next[ck->nnext++] = j;
  sp__gp_picker_take(b->pk[k], j);
  b->added[j]++;
}

/* Whether kernel k may still be given configuration j. */
static int open_to(const shared *s, const batch *b, size_t k, size_t j) {
  const sp_ckernel *ck = s->ks[k];
  if (!b->pk[k] || ck->nnext >= b->want[k] || ck->measured[j]) return 0;
  for (size_t i = 0; i < ck->nnext; i++)
    if (ck->next[i] == j) return 0;
  return 1;
}

static void common_pick(const shared *s, batch *b) {
  const size_t G = s->g->n;
  size_t best = NOT_FOUND;
  double best_sum = 0.0;
  for (size_t j = 0; j < G; j++) {
    double sum = 0.0;
    size_t n = 0;
    for (size_t k = 0; k < s->K; k++)
      if (open_to(s, b, k, j)) sum += score(s, b, k, j), n++;
    if (n && (best == NOT_FOUND || sum > best_sum)) best = j, best_sum = sum;
  }
  for (size_t k = 0; best != NOT_FOUND && k < s->K; k++)
    if (open_to(s, b, k, best)) give(s, b, k, best);
}

/* Kernel k's own next pick; 0 when it has none left. */
static int own_pick(const shared *s, batch *b, size_t k) {
  size_t best = NOT_FOUND;
  double best_score = 0.0;
  for (size_t j = 0; j < s->g->n; j++) {
    if (!open_to(s, b, k, j)) continue;
    const double v = score(s, b, k, j);
    if (best == NOT_FOUND || v > best_score) best = j, best_score = v;
  }
  if (best == NOT_FOUND) return 0;
  give(s, b, k, best);
  return 1;
}

static int batch_start(const shared *s, batch *b) {
  const size_t G = s->g->n, K = s->K;
  const sp_round_params *rp = s->rp;
  b->pk = calloc(K, sizeof *b->pk);
  b->want = calloc(K, sizeof *b->want);
  b->seen = calloc(G, sizeof *b->seen);
  b->added = calloc(G, sizeof *b->added);
  if (!b->pk || !b->want || !b->seen || !b->added) return SP_ENOMEM;
  for (size_t k = 0; k < K; k++) {
    sp_ckernel *ck = s->ks[k];
    for (size_t j = 0; j < G; j++) b->seen[j] += ck->measured[j];
    if (!ck->measured[rp->base]) ck->next[ck->nnext++] = rp->base;
    if (ck->state != SP_PLAN_MEASURING || !ck->measured[rp->base]) continue;
    b->want[k] = rp->budget && rp->budget - ck->n < rp->batch ? rp->budget - ck->n : rp->batch;
    /* The picker keeps the pointer to the kernel's two processes: give it
     * the round's array, which outlives the batch, not a copy on this stack. */
    const sp_gp *const *use = (const sp_gp *const *)(s->gp + k * 2);
    if (!use[0]) continue;
    if (!(b->pk[k] = sp__gp_picker_alloc(use, use[1] ? 2 : 1, b->want[k]))) return SP_ENOMEM;
  }
  return SP_OK;
}

static void batch_free(const shared *s, batch *b) {
  for (size_t k = 0; b->pk && k < s->K; k++) sp__gp_picker_free(b->pk[k]);
  free(b->pk);
  free(b->want);
  free(b->seen);
  free(b->added);
}

static int name_batches(const shared *s) {
  batch b = {0};
  int st = batch_start(s, &b);
  if (!st) {
    common_pick(s, &b);
    for (int any = 1; any;) {
      any = 0;
      for (size_t k = 0; k < s->K; k++) any |= own_pick(s, &b, k);
    }
  }
  batch_free(s, &b);
  return st;
}

/* ---- the round ------------------------------------------------------------ */

int sp__campaign_shared_round(sp_ckernel *const *ks, size_t K, const sp_cgrid *g,
                              const sp_round_params *rp, unsigned long seed, unsigned threads,
                              size_t *failed) {
  shared s = {.ks = ks, .K = K, .g = g, .rp = rp, .lock = PTHREAD_MUTEX_INITIALIZER};
  s.gp = calloc(2 * K + 1, sizeof *s.gp);
  s.err = calloc(2 * g->n, sizeof *s.err);
  s.status = malloc((K + 1) * sizeof *s.status);
  *failed = NOT_FOUND;
  int st = s.gp && s.err && s.status ? SP_OK : SP_ENOMEM;
  for (int q = 0; q < 2 && !st; q++) st = complete_matrix(&s, q, seed + (unsigned long)q);
  if (!st) st = fit_all(&s, threads, failed);
  if (!st) st = name_batches(&s);
  for (size_t k = 0; s.gp && k < 2 * K; k++) sp__gp_free(s.gp[k]);
  for (int q = 0; q < 2; q++) sp__lowrank_free(s.lr[q]);
  free(s.gp);
  free(s.err);
  free(s.status);
  return st;
}
