/* SPDX-License-Identifier: GPL-3.0-or-later */
/* physet_file.c: the physet method file (physet_file.h): save, and load
 * with every older version. */
#include "physet_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "featplan.h"
#include "method.h"
#include "mfread.h"
#include "novelty.h"
#include "physet_affine.h"
#include "physet_prior.h"
#include "util/fsutil.h"
#include "util/inread.h"
#include "util/status.h"

/* A method file's first line is "physet N", N the version this code
 * writes.  Version 1 files (no clock prior), version 2 files (no CU mode:
 * the block prior), version 3 files (no novelty measure), version 4 files
 * (no pipe floor), version 5 files (no time per wave among the features)
 * version 6 files (no narrower power interval for a measured floor) and
 * version 7 files (the interval widths of version 7, OLD_WIDTHS) still
 * load, and predict as they did.  Version 9 files carry the peak
 * bandwidth of each memory clock (a model that describes its memory
 * systems), which the memory step of the prior reads instead of the
 * clock; a model without them writes version 8 as before.  Version 10
 * adds the memory step forest (physet_step.h) after the time's forest,
 * written for every model that describes its memory systems; a version 9
 * file still loads, without it, and predicts as it did.  Any version from
 * 3 on may say "cu bounded median" instead of "cu bounded": the median
 * point prediction (physet_state.h), written only by a model trained
 * with it, so that every other file is as before. */
#define PHYSET_VERSION 10
#define PHYSET_VERSION_CLOCKS 8
/* Version 11 adds after the step forest ("step curve K") the curve forest
 * over K more features, the kernel's time at each CU count at the base's
 * clocks (physet_step.h), written for every model with a step forest;
 * version 10 files load and predict as they did. */
#define PHYSET_VERSION_CURVE 11

/* ---- text form ----------------------------------------------------------- */

/* 11 with the curve forest, 10 with memory systems described, 8
 * without. */
static int file_version(const sp_physet *p) {
  if (!p->bw) return PHYSET_VERSION_CLOCKS;
  return p->curve_forest ? PHYSET_VERSION_CURVE : PHYSET_VERSION;
}

static void write_row(FILE *fp, const char *key, const double *v, size_t n) {
  fprintf(fp, "%s", key);
  for (size_t i = 0; i < n; i++) fprintf(fp, " %.17g", v[i]);
  fprintf(fp, "\n");
}

static void write_quantity(const sp_physet *p, sp_quantity q, FILE *fp) {
  const size_t g = p->gsize[q];
  fprintf(fp, "quantity %s %zu\n", q == SP_TIME ? "time" : "power", g);
  if (q == SP_POWER) {
    if (p->floor_w)
      write_row(fp, "floor", p->floor_w, g);
    else
      fprintf(fp, "floor none\n");
    if (p->floor_w) write_row(fp, "logphi", p->logphi, p->n);
  }
  for (size_t j = 0; j < p->n; j++) write_row(fp, "r", p->res[q] + j * g, g);
  sp__forest_save(p->forest[q], fp);
  if (q == SP_TIME && p->bw) {
    fprintf(fp, "step %s\n", p->step_forest ? "forest" : "none");
    if (p->step_forest) sp__forest_save(p->step_forest, fp);
    if (p->curve_forest) {
      fprintf(fp, "step curve %zu\n", p->step_curve);
      sp__forest_save(p->curve_forest, fp);
    }
  }
}

/* The "cu" line's word(s): the CU axis's mode, and the point bounds. */
static const char *cu_mode_name(const sp_physet *p) {
  if (!p->cu_bounded) return "blocks";
  return p->point_median ? "bounded median" : "bounded";
}

int sp__physet_save(const sp_physet *p, const char *path, sp_error *err) {
  sp_atomic_file af;
  int st = sp__atomic_open(&af, path, err);
  if (st) return st;
  char base[64];
  sp_config_format(&p->base, base, sizeof base);
  fprintf(af.fp, "physet %d\nvocabulary %s features %zu\nbase %s\nsigma %.17g\n", file_version(p),
          p->plan.vocabulary, p->plan.nfeat, base, p->sigma);
  if (p->clock)
    fprintf(af.fp, "clock %.17g %.17g %.17g %.17g\n", p->clock_w, p->s_max, p->u_mid, p->u_width);
  else
    fprintf(af.fp, "clock none\n");
  if (p->bw) {
    const sp_grid *g = &p->grid[SP_TIME];
    fprintf(af.fp, "bandwidth %zu", g->n[2]);
    for (size_t i = 0; i < g->n[2]; i++) fprintf(af.fp, " %d %.17g", g->v[2][i], p->bw[i]);
    fprintf(af.fp, "\nmemory widths %.17g %.17g\n", p->mem_width[SP_TIME], p->mem_width[SP_POWER]);
  }
  fprintf(af.fp, "cu %s\npipes %s\nfloor spread %.17g\n", cu_mode_name(p),
          p->pipe_floor ? "floor" : "none", p->floor_spread);
  for (int q = 0; q < 2; q++) {
    const widths *w = &p->widths[q];
    fprintf(af.fp, "widths %s %.17g %.17g %.17g %.17g", q == SP_TIME ? "time" : "power", w->spread,
            w->prior, w->floor, w->per_log);
    if (w->jitter > 0) fprintf(af.fp, " jitter %.17g", w->jitter);
    fprintf(af.fp, "\n");
  }
  fprintf(af.fp, "train %zu\n", p->n);
  write_quantity(p, SP_TIME, af.fp);
  if (p->has_power)
    write_quantity(p, SP_POWER, af.fp);
  else
    fprintf(af.fp, "quantity power absent\n");
  if (p->novelty)
    sp__novelty_save(p->novelty, af.fp);
  else
    fprintf(af.fp, "novelty none\n");
  for (int k = 0; k < LINE_KINDS; k++) {
    if (!p->aff_forest[k]) continue;
    fprintf(af.fp, "line %s%zu\n", k == LINE_WAVES ? "waves " : "", p->aff_n[k]);
    write_row(af.fp, "y", p->aff_y[k], p->aff_n[k]);
    sp__forest_save(p->aff_forest[k], af.fp);
  }
  if (p->line_fit > 0) fprintf(af.fp, "line fit %.17g\n", p->line_fit);
  fprintf(af.fp, "end\n");
  return sp__atomic_commit(&af, err);
}

typedef sp_mf_reader reader;

static int parse_values(reader *r, char *s, double *v, size_t n) {
  char *end;
  for (size_t i = 0; i < n; i++) {
    errno = 0;
    v[i] = strtod(s, &end);
    if (end == s || errno || !isfinite(v[i]))
      return sp__mf_bad(r, "a value is missing or not finite");
    s = end;
  }
  return *s == '\n' || *s == '\0' ? SP_OK : sp__mf_bad(r, "more values than expected");
}

/* What may follow a widths line's four widths: nothing, or for time
 * " jitter J", the timing jitter in ms (physet_state.h), written only by
 * a model fitted with one, so that every other file reads as before. */
static int read_jitter(reader *r, int q, const char *rest, widths *w) {
  double j;
  int used = 0;
  if (!strcmp(rest, "\n") || !*rest) return SP_OK;
  if (q != SP_TIME || sscanf(rest, " jitter %lf%n", &j, &used) != 1 || strcmp(rest + used, "\n") ||
      !(j > 0 && j <= 1))
    return sp__mf_bad(
        r, q == SP_TIME ? "'widths time': after the four widths, 'jitter' and a value in (0, 1] ms"
                        : "'widths power': more values than its four widths");
  w->jitter = j;
  return SP_OK;
}

static int read_values(reader *r, const char *key, double *v, size_t n) {
  char *s = sp__mf_line(r, key);
  return s ? parse_values(r, s, v, n)
           : sp__mf_bad(r, "unexpected line: the method file is damaged");
}

/* "floor none", or the floor watts followed by the kernels' log phi. */
static int read_floor(reader *r, sp_physet *p, size_t g) {
  char *s = sp__mf_line(r, "floor");
  if (!s) return sp__mf_bad(r, "expected the floor line");
  if (!strcmp(s, " none\n")) return SP_OK;
  p->floor_w = malloc(g * sizeof(double));
  p->logphi = malloc(p->n * sizeof(double));
  if (!p->floor_w || !p->logphi) return sp__oom(r->err);
  int st = parse_values(r, s, p->floor_w, g);
  for (size_t i = 0; !st && i < g; i++)
    if (!(p->floor_w[i] > 0)) st = sp__mf_bad(r, "a floor power is not positive");
  return st ? st : read_values(r, "logphi", p->logphi, p->n);
}

/* Version 11: "step curve K" and the curve forest over K more features,
 * one per CU count of the grid (physet_step.h). */
static int read_curve(reader *r, sp_physet *p) {
  char *s = sp__mf_line(r, "step");
  size_t k;
  char end;
  if (!s || sscanf(s, " curve %zu%c", &k, &end) != 2 || end != '\n')
    return sp__mf_bad(r, "expected 'step curve'");
  if (k != p->grid[SP_TIME].n[0] || !p->t_j)
    return sp__mf_bad(r, "the step curve does not match the model's CU counts");
  p->step_curve = k;
  return sp__mf_forest(r, &p->curve_forest, p->n, p->plan.nfeat + k);
}

/* Version 10: "step none", or "step forest" and the memory step forest
 * (version 11: then the curve forest). */
static int read_step(reader *r, sp_physet *p) {
  char *s = sp__mf_line(r, "step");
  if (s && !strcmp(s, " none\n")) return SP_OK;
  if (!s || strcmp(s, " forest\n")) return sp__mf_bad(r, "expected 'step forest' or 'step none'");
  int st = sp__mf_forest(r, &p->step_forest, p->n, p->plan.nfeat);
  return st || r->version < 11 ? st : read_curve(r, p);
}

/* Returns 1 for "quantity power absent" in a model without power. */
static int read_quantity(reader *r, sp_physet *p, sp_quantity q) {
  char *s = sp__mf_line(r, "quantity");
  size_t g;
  const char *name = q == SP_TIME ? "time" : "power";
  char want[32];
  snprintf(want, sizeof want, " %s absent\n", name);
  if (s && q == SP_POWER && !strcmp(s, want))
    return p->has_power ? sp__mf_bad(r, "the power part is missing") : 1;
  snprintf(want, sizeof want, " %s %%zu", name);
  if (!s || sscanf(s, want, &g) != 1 || g != p->gsize[q] || (q == SP_POWER && !p->has_power))
    return sp__mf_bad(r, "the quantity does not match the model's grid");
  int st = q == SP_POWER ? read_floor(r, p, g) : SP_OK;
  if (!st && !(p->res[q] = malloc(p->n * g * sizeof(double)))) st = sp__oom(r->err);
  for (size_t j = 0; j < p->n && !st; j++) st = read_values(r, "r", p->res[q] + j * g, g);
  if (!st) st = sp__mf_forest(r, &p->forest[q], p->n, p->plan.nfeat);
  return st || q != SP_TIME || r->version < 10 ? st : read_step(r, p);
}

/* "novelty none", or the novelty measure (novelty.h). */
static int read_novelty(reader *r, sp_physet *p) {
  long pos = ftell(r->fp), line;
  if (sp__mf_line(r, "novelty") && !strcmp(r->buf, "novelty none\n")) return SP_OK;
  if (pos < 0 || fseek(r->fp, pos, SEEK_SET))
    return sp__mf_bad(r, "cannot read the novelty measure");
  int st = sp__novelty_load(r->fp, p->plan.nfeat, r->line, &line, &p->novelty);
  r->line = line;
  if (st == SP_ENOMEM) return sp__oom(r->err);
  return st ? sp__mf_bad(r, "the novelty measure is damaged or does not match the model") : SP_OK;
}

/* The labels and the forest of the line check of one kind, whose "line"
 * line said n samples. */
static int read_line_kind(reader *r, sp_physet *p, int kind, size_t n) {
  if (!(p->aff_y[kind] = malloc(n * sizeof *p->aff_y[kind]))) return sp__oom(r->err);
  p->aff_n[kind] = n;
  int st = read_values(r, "y", p->aff_y[kind], n);
  for (size_t i = 0; !st && i < n; i++)
    if (p->aff_y[kind][i] != 0 && p->aff_y[kind][i] != 1)
      st = sp__mf_bad(r, "a line label is not 0 or 1");
  return st ? st : sp__mf_forest(r, &p->aff_forest[kind], n, p->plan.nfeat + AFFINE_FEATS);
}

/* "line fit X": the residual under which the least-squares line through
 * two or more further points is followed. */
static int read_line_fit(reader *r, sp_physet *p, double x) {
  if (!(x > 0 && x < 1)) return sp__mf_bad(r, "the line's fit is not between 0 and 1");
  p->line_fit = x;
  return SP_OK;
}

/* Whether the model can hold a line at all, asked at its first section:
 * a bounded CU axis of three or more counts with the base's clocks. */
static int line_allowed(reader *r, const sp_physet *p) {
  if (!p->cu_bounded) return sp__mf_bad(r, "a block-count line on a CU axis that is not bounded");
  if (p->grid[SP_TIME].n[0] < 3)
    return sp__mf_bad(r, "a block-count line on a grid of fewer than three CU counts");
  if (!p->cu_at) return sp__mf_bad(r, "the CU axis lacks the base's clocks");
  return SP_OK;
}

/* "end", after (a model fitted with the block-count lines on a bounded CU
 * axis, any version from 3 on) "line N" (the check of the line in rounds
 * of blocks), "line waves N" (in waves, since 2026-11-29), each with the
 * N labels of its samples ("y", each 0 or 1) and its forest, and "line
 * fit X" (the line through two or more further points, since
 * 2026-11-29), each optional, in that order (physet_affine.h). */
static int read_line_check(reader *r, sp_physet *p) {
  int st = SP_OK;
  for (int next = 0; !st;) {
    size_t n = 1;
    double x = 0;
    char end = 0;
    int part;
    r->line++;
    if (getline(&r->buf, &r->cap, r->fp) <= 0) return sp__mf_bad(r, "expected 'end'");
    if (!strcmp(r->buf, "end\n")) return SP_OK;
    if (sscanf(r->buf, "line fit %lf%c", &x, &end) == 2)
      part = LINE_KINDS;
    else if (sscanf(r->buf, "line waves %zu%c", &n, &end) == 2)
      part = LINE_WAVES;
    else if (sscanf(r->buf, "line %zu%c", &n, &end) == 2)
      part = LINE_BLOCKS;
    else
      part = -1;
    if (end != '\n' || !n || n > 100000000 || part < next)
      return sp__mf_bad(r, "expected 'end', 'line', 'line waves' or 'line fit' in that order");
    if (!next && (st = line_allowed(r, p))) return st;
    st = part == LINE_KINDS ? read_line_fit(r, p, x) : read_line_kind(r, p, part, n);
    next = part + 1;
  }
  return st;
}

/* Version 9: "bandwidth N" and each memory clock of the grid with its
 * peak bandwidth, which must be the model's description when it has one. */
static int read_bandwidth(reader *r, sp_physet *p, const sp_memory_system *memory) {
  const sp_grid *g = &p->grid[SP_TIME];
  char *s = sp__mf_line(r, "bandwidth"), *end;
  errno = 0;
  unsigned long n = s ? strtoul(s, &end, 10) : 0;
  if (!s || errno || n != g->n[2])
    return sp__mf_bad(r, "expected 'bandwidth' and the grid's memory clocks");
  if (!(p->bw = malloc(n * sizeof *p->bw))) return sp__oom(r->err);
  for (size_t i = 0; i < n; i++) {
    s = end;
    long mhz = strtol(s, &end, 10);
    if (end == s || mhz != g->v[2][i])
      return sp__mf_bad(r, "the bandwidth line does not match the grid's memory clocks");
    s = end;
    p->bw[i] = strtod(s, &end);
    if (end == s || !(p->bw[i] > 0 && isfinite(p->bw[i])))
      return sp__mf_bad(r, "a peak bandwidth is missing or not positive");
    if (memory && memory[i].peak_gbs != p->bw[i])
      return sp__mf_bad(r, "the peak bandwidths do not match the model's memory systems");
  }
  if (*end != '\n') return sp__mf_bad(r, "more values than expected");
  if (!(s = sp__mf_line(r, "memory")) ||
      sscanf(s, " widths %lf %lf", &p->mem_width[SP_TIME], &p->mem_width[SP_POWER]) != 2 ||
      !(p->mem_width[SP_TIME] >= 0 && p->mem_width[SP_TIME] <= 10) ||
      !(p->mem_width[SP_POWER] >= 0 && p->mem_width[SP_POWER] <= 10))
    return sp__mf_bad(r, "expected 'memory widths' and two widths in [0, 10]");
  return SP_OK;
}

static int read_header(reader *r, sp_physet *p, const sp_config *base,
                       const sp_memory_system *memory) {
  char voc[32], cfgtext[64];
  size_t nf;
  int st;
  char *s;
  sp_config cfg;
  sp_error ignore;
  r->line++;
  r->version = 0;
  if (getline(&r->buf, &r->cap, r->fp) > 0)
    for (int v = 1; v <= PHYSET_VERSION_CURVE && !r->version; v++) {
      char magic[32];
      snprintf(magic, sizeof magic, "physet %d\n", v);
      if (!strcmp(r->buf, magic)) r->version = v;
    }
  if (!r->version) return sp__mf_bad(r, "not a physet method file (or another version)");
  const int v1 = r->version == 1, v2 = r->version == 2;
  /* not features before */
  if (r->version < 5) sp__features_without_pipe(&p->plan);
  if (r->version < 6) sp__features_without_wave(&p->plan);
  if (!(s = sp__mf_line(r, "vocabulary")) || sscanf(s, " %31s features %zu", voc, &nf) != 2 ||
      strcmp(voc, p->plan.vocabulary) || nf != p->plan.nfeat)
    return sp__mf_bad(r, "the features do not match the model's counters");
  if (!(s = sp__mf_line(r, "base")) || sscanf(s, " %63s", cfgtext) != 1 ||
      sp_config_parse(cfgtext, &cfg, &ignore) || !sp_config_equal(&cfg, base))
    return sp__mf_bad(r, "the base configuration does not match the model's");
  if (!(s = sp__mf_line(r, "sigma")) || sscanf(s, " %lf", &p->sigma) != 1 || !(p->sigma > 0))
    return sp__mf_bad(r, "sigma is missing or not positive");
  if (!v1 && !(s = sp__mf_line(r, "clock"))) return sp__mf_bad(r, "expected the clock line");
  if (!v1 && strcmp(s, " none\n")) {
    if (sscanf(s, " %lf %lf %lf %lf", &p->clock_w, &p->s_max, &p->u_mid, &p->u_width) != 4 ||
        !(p->clock_w > 0 && p->clock_w <= 1) || !(p->s_max > 0 && isfinite(p->s_max)) ||
        !(p->u_mid >= U_MID_LO && p->u_mid <= U_MID_HI) ||
        !(p->u_width >= U_WIDTH_LO && p->u_width <= U_WIDTH_HI))
      return sp__mf_bad(r, "the clock prior is damaged");
    p->clock = 1;
  }
  if (r->version >= 9 && (st = read_bandwidth(r, p, memory))) return st;
  if (!v1 && !v2) {
    if (!(s = sp__mf_line(r, "cu")) ||
        (strcmp(s, " bounded\n") && strcmp(s, " blocks\n") && strcmp(s, " bounded median\n")))
      return sp__mf_bad(r, "expected 'cu bounded', 'cu bounded median' or 'cu blocks'");
    p->point_median = !strcmp(s, " bounded median\n");
    p->cu_bounded = p->point_median || !strcmp(s, " bounded\n");
  }
  if (r->version >= 5) {
    if (!(s = sp__mf_line(r, "pipes")) || (strcmp(s, " floor\n") && strcmp(s, " none\n")))
      return sp__mf_bad(r, "expected 'pipes floor' or 'pipes none'");
    p->pipe_floor = !strcmp(s, " floor\n");
  }
  p->floor_spread = 1;
  if (r->version >= 7 &&
      (!(s = sp__mf_line(r, "floor")) || sscanf(s, " spread %lf", &p->floor_spread) != 1 ||
       !(p->floor_spread > 0 && p->floor_spread <= 1)))
    return sp__mf_bad(r, "expected 'floor spread' with a value in (0, 1]");
  for (int q = 0; q < 2; q++) {
    widths *w = &p->widths[q];
    *w = OLD_WIDTHS;
    int used = 0;
    if (r->version >= 8 &&
        (!(s = sp__mf_line(r, "widths")) ||
         sscanf(s, q == SP_TIME ? " time %lf %lf %lf %lf%n" : " power %lf %lf %lf %lf%n",
                &w->spread, &w->prior, &w->floor, &w->per_log, &used) != 4 ||
         !(w->spread > 0 && w->spread <= 10) || !(w->prior >= 0 && w->prior <= 10) ||
         !(w->floor >= 0 && w->floor <= 10) || !(w->per_log >= 0 && w->per_log <= 10)))
      return sp__mf_bad(r, q == SP_TIME ? "expected 'widths time' and four widths in [0, 10]"
                                        : "expected 'widths power' and four widths in [0, 10]");
    if (r->version >= 8 && (st = read_jitter(r, q, s + used, w))) return st;
  }
  if (!(s = sp__mf_line(r, "train")) || sscanf(s, " %zu", &p->n) != 1 || !p->n || p->n > 1000000)
    return sp__mf_bad(r, "the training kernel count is missing or out of range");
  return SP_OK;
}

int sp__physet_load(const char *path, const char *const *counter_names, size_t ncounters,
                    const sp_config *base, const sp_grid *const grid[2],
                    const sp_memory_system *memory, sp_physet **out, sp_error *err) {
  *out = NULL;
  sp_physet *p = calloc(1, sizeof *p);
  if (!p) return sp__oom(err);
  reader r = {.path = path, .err = err};
  sp__features_plan(counter_names, ncounters, base->cu, &p->plan);
  p->base = *base;
  p->has_power = grid[SP_POWER] != NULL;
  int st = SP_OK;
  for (int q = 0; q < 1 + p->has_power && !st; q++) {
    if (sp__grid_copy(&p->grid[q], grid[q]))
      st = sp__oom(err);
    else
      p->gsize[q] = sp__grid_size(&p->grid[q]);
  }
  if (!st &&
      !(r.fp = sp__open_bounded(path, SP_METHOD_FILE_MAX_BYTES, SP_EMODEL, "method file", err)))
    st = err->status;
  if (!st) st = read_header(&r, p, base, memory);
  if (!st && memory && !p->bw)
    st = sp__mf_bad(&r, "the model describes its memory systems, the method file does not");
  if (!st && sp__physet_cache_time_grid(p)) st = sp__oom(err);
  if (!st) st = read_quantity(&r, p, SP_TIME);
  if (!st) {
    st = read_quantity(&r, p, SP_POWER);
    if (st == 1) st = SP_OK;
  }
  if (!st && r.version >= 4) st = read_novelty(&r, p);
  if (!st) st = read_line_check(&r, p);
  if (!st && sp__physet_index_model(p)) st = sp__oom(err);
  if (r.fp) fclose(r.fp);
  free(r.buf);
  if (st) {
    sp__physet_free(p);
    return st;
  }
  *out = p;
  return SP_OK;
}
