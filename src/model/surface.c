/* SPDX-License-Identifier: GPL-3.0-or-later */
/* surface.c: scaling values and the walk that applies them. */
#include "surface.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/dataset.h"
#include "util/fsutil.h"
#include "util/status.h"
#include "util/textout.h"

/* ---- grids ----------------------------------------------------------------- */

int sp__grid_init(sp_grid *g, const size_t n[3], const int *const v[3]) {
  memset(g, 0, sizeof *g);
  for (int a = 0; a < 3; a++) {
    g->n[a] = n[a];
    g->v[a] = malloc((n[a] ? n[a] : 1) * sizeof(int));
    if (!g->v[a]) {
      sp__grid_free(g);
      return SP_ENOMEM;
    }
    memcpy(g->v[a], v[a], n[a] * sizeof(int));
  }
  return SP_OK;
}

void sp__grid_free(sp_grid *g) {
  for (int a = 0; a < 3; a++) free(g->v[a]);
  memset(g, 0, sizeof *g);
}

int sp__grid_copy(sp_grid *dst, const sp_grid *src) {
  const int *const v[3] = {src->v[0], src->v[1], src->v[2]};
  return sp__grid_init(dst, src->n, v);
}

int sp__grid_from_dataset(const sp_dataset *ds, sp_grid *g) {
  const int *const v[3] = {ds->axis[0], ds->axis[1], ds->axis[2]};
  return sp__grid_init(g, ds->naxis, v);
}

size_t sp__grid_size(const sp_grid *g) { return g->n[0] * g->n[1] * g->n[2]; }

size_t sp__grid_flat(const sp_grid *g, const sp_grid_point *p) {
  return (p->i[0] * g->n[1] + p->i[1]) * g->n[2] + p->i[2];
}

sp_config sp__grid_config(const sp_grid *g, size_t flat) {
  size_t im = flat % g->n[2], ie = (flat / g->n[2]) % g->n[1];
  size_t ic = flat / (g->n[2] * g->n[1]);
  sp_config c = {g->v[0][ic], g->v[1][ie], g->v[2][im]};
  return c;
}

static long axis_find(const int *v, size_t n, int x) {
  for (size_t i = 0; i < n; i++)
    if (v[i] == x) return (long)i;
  return -1;
}

int sp__grid_locate(const sp_grid *g, const sp_config *cfg, sp_grid_point *p) {
  const int x[3] = {cfg->cu, cfg->engine_mhz, cfg->memory_mhz};
  for (int a = 0; a < 3; a++) {
    long i = axis_find(g->v[a], g->n[a], x[a]);
    if (i < 0) return SP_EGRID;
    p->i[a] = (size_t)i;
  }
  return SP_OK;
}

size_t sp__region_dim(const sp_grid *g) {
  return g->n[2] * (g->n[1] - 1) + g->n[1] * (g->n[2] - 1);
}

size_t sp__cu_dim(const sp_grid *g) { return g->n[0] - 1; }

/* ---- surfaces ---------------------------------------------------------------- */

static int fetch(const sp_dataset *ds, size_t k, sp_quantity q, const sp_config *c, double *v) {
  return q == SP_TIME ? sp_dataset_time(ds, k, c, v) : sp_dataset_power(ds, k, c, v);
}

/* Whether g has more points than limit, without overflowing. */
static int grid_exceeds(const sp_grid *g, size_t limit) {
  size_t n = 1;
  for (int a = 0; a < 3; a++) {
    if (g->n[a] == 0) return 0;
    if (n > limit / g->n[a]) return 1;
    n *= g->n[a];
  }
  return n > limit;
}

/* How many points of g kernel k lacks for q; 0 when g is too large to walk
 * (it has more points than runs.csv has rows). */
static size_t count_missing(const sp_dataset *ds, size_t k, sp_quantity q, const sp_grid *g) {
  size_t missing = 0;
  double v;
  for (size_t i = 0; !grid_exceeds(g, ds->nruns) && i < sp__grid_size(g); i++) {
    sp_config c = sp__grid_config(g, i);
    missing += fetch(ds, k, q, &c, &v) != SP_OK;
  }
  return missing;
}

/* The first missing point, and how many more there are, so that a user
 * can see whether one row or a whole axis is absent. */
static int hole(const sp_dataset *ds, size_t k, sp_quantity q, const sp_grid *g, const sp_config *c,
                int st, sp_error *err) {
  char cfg[64], more[96] = "";
  sp_config_format(c, cfg, sizeof cfg);
  size_t missing = count_missing(ds, k, q, g);
  if (missing > 1)
    snprintf(more, sizeof more, " and %zu other configuration%s of the grid", missing - 1,
             missing == 2 ? "" : "s");
  return sp__fail(err, SP_EGRID, ds->runs_path, 0, 0, q == SP_TIME ? "time_ms" : "power_w",
                  st == SP_ENOPOWER ? "kernel '%s' has no power at %s%s: the power grid has a hole"
                                    : "kernel '%s' has no row at %s%s: the grid has a hole",
                  ds->kernels[k], cfg, more);
}

int sp__surface_build_on(const sp_dataset *ds, size_t k, sp_quantity q, const sp_grid *g,
                         sp_surface **out, sp_error *err) {
  *out = NULL;
  /* The grid is the product of the distinct values of each axis, so a
   * sparse runs.csv makes it grow as the cube of its rows.  A grid with more
   * points than there are rows has a hole among its first nruns + 1 points;
   * it is reported before the values are allocated, which could otherwise
   * ask for gigabytes (or overflow) and fail as "out of memory". */
  if (grid_exceeds(g, ds->nruns))
    for (size_t i = 0;; i++) {
      sp_config c = sp__grid_config(g, i);
      double v;
      int st = fetch(ds, k, q, &c, &v);
      if (st) return hole(ds, k, q, g, &c, st, err);
    }
  sp_surface *s = calloc(1, sizeof *s);
  size_t n = sp__grid_size(g);
  if (!s || sp__grid_copy(&s->grid, g) || !(s->values = malloc(n * sizeof(double))) ||
      !(s->kernel = strdup(ds->kernels[k]))) {
    sp_surface_free(s);
    return sp__oom(err);
  }
  s->quantity = q;
  for (size_t i = 0; i < n; i++) {
    sp_config c = sp__grid_config(g, i);
    int st = fetch(ds, k, q, &c, &s->values[i]);
    if (st) {
      sp_surface_free(s);
      return hole(ds, k, q, g, &c, st, err);
    }
  }
  *out = s;
  return SP_OK;
}

int sp_surface_build(const sp_dataset *ds, size_t k, sp_quantity q, sp_surface **out,
                     sp_error *err) {
  sp_grid g;
  *out = NULL;
  if (k >= ds->nkernels) return sp__fail(err, SP_EINVAL, NULL, 0, 0, NULL, "no kernel %zu", k);
  if (sp__grid_from_dataset(ds, &g)) return sp__oom(err);
  int st = sp__surface_build_on(ds, k, q, &g, out, err);
  sp__grid_free(&g);
  return st;
}

void sp_surface_free(sp_surface *s) {
  if (!s) return;
  sp__grid_free(&s->grid);
  free(s->values);
  free(s->kernel);
  free(s);
}

static double value_at(const sp_surface *s, size_t ic, size_t ie, size_t im) {
  sp_grid_point p = {{ic, ie, im}};
  return s->values[sp__grid_flat(&s->grid, &p)];
}

void sp__surface_region_features(const sp_surface *s, size_t ic, double *out) {
  const size_t ne = s->grid.n[1], nm = s->grid.n[2];
  for (size_t im = 0; im < nm; im++)
    for (size_t j = 0; j + 1 < ne; j++)
      *out++ = value_at(s, ic, j + 1, im) / value_at(s, ic, j, im);
  for (size_t ie = 0; ie < ne; ie++)
    for (size_t i = 0; i + 1 < nm; i++)
      *out++ = value_at(s, ic, ie, i + 1) / value_at(s, ic, ie, i);
}

void sp__surface_cu_features(const sp_surface *s, size_t ie, size_t im, double *out) {
  for (size_t i = 0; i + 1 < s->grid.n[0]; i++)
    out[i] = value_at(s, i + 1, ie, im) / value_at(s, i, ie, im);
}

/* ---- applying scaling values ------------------------------------------------ */

/* Product of ratios r[from..to) walking up, or its reciprocal walking down;
 * r[i] links position i to i + 1 and consecutive ratios are stride apart. */
static double walk(const double *r, size_t stride, size_t from, size_t to) {
  double f = 1.0;
  for (size_t i = from; i < to; i++) f *= r[i * stride];
  for (size_t i = to; i < from; i++) f /= r[i * stride];
  return f;
}

double sp__scale_ratio(const sp_grid *g, const double *cu_feat, const double *region_feat,
                       const sp_grid_point *base, const sp_grid_point *target) {
  const size_t ne = g->n[1], nm = g->n[2];
  double f = cu_feat ? walk(cu_feat, 1, base->i[0], target->i[0]) : 1.0;
  if (!region_feat) return f;
  const double *eng = region_feat + base->i[2] * (ne - 1);
  const double *mem = region_feat + nm * (ne - 1) + target->i[1] * (nm - 1);
  f *= walk(eng, 1, base->i[1], target->i[1]);
  return f * walk(mem, 1, base->i[2], target->i[2]);
}

/* Fills line[0..n) with base_value scaled from position at along ratios r. */
static void fan_out(const double *r, size_t n, size_t at, double base_value, double *line,
                    size_t stride) {
  line[at * stride] = base_value;
  for (size_t i = at + 1; i < n; i++) line[i * stride] = line[(i - 1) * stride] * r[i - 1];
  for (size_t i = at; i-- > 0;) line[i * stride] = line[(i + 1) * stride] / r[i];
}

void sp__scale_all(const sp_grid *g, const double *cu_feat, const double *const *region_feats,
                   const sp_grid_point *base, double base_value, double *out) {
  const size_t nc = g->n[0], ne = g->n[1], nm = g->n[2];
  const size_t eb = base->i[1], mb = base->i[2];
  for (size_t ic = 0; ic < nc; ic++) {
    double v = base_value * (cu_feat ? walk(cu_feat, 1, base->i[0], ic) : 1.0);
    double *region = out + ic * ne * nm;
    const double *rf = region_feats ? region_feats[ic] : NULL;
    if (!rf) { /* a region without features has one point */
      region[0] = v;
      continue;
    }
    /* Engine walk along the base memory clock: column mb of the region. */
    fan_out(rf + mb * (ne - 1), ne, eb, v, region + mb, nm);
    /* Memory walk along each engine clock. */
    for (size_t ie = 0; ie < ne; ie++)
      fan_out(rf + nm * (ne - 1) + ie * (nm - 1), nm, mb, region[ie * nm + mb], region + ie * nm,
              1);
  }
}

/* ---- CSV output -------------------------------------------------------------- */

static int row(FILE *fp, const sp_surface *s, const char *kind, const sp_grid_point *a,
               const sp_grid_point *b, double ratio) {
  const sp_grid *g = &s->grid;
  if (sp__csv_quoted(fp, s->kernel) < 0) return -1;
  return fprintf(fp, ",%s,%s,%d,%d,%d,%d,%d,%d,%.9g\n", s->quantity == SP_TIME ? "time" : "power",
                 kind, g->v[0][a->i[0]], g->v[1][a->i[1]], g->v[2][a->i[2]], g->v[0][b->i[0]],
                 g->v[1][b->i[1]], g->v[2][b->i[2]], ratio);
}

int sp_surface_write_csv(const sp_surface *s, FILE *fp) {
  const size_t nc = s->grid.n[0], ne = s->grid.n[1], nm = s->grid.n[2];
  int bad = 0;
  sp_c_numeric cnum;
  sp__c_numeric_begin(&cnum);
  for (size_t ic = 0; ic < nc; ic++)
    for (size_t im = 0; im < nm; im++)
      for (size_t ie = 0; ie < ne; ie++) {
        sp_grid_point p = {{ic, ie, im}};
        if (ie + 1 < ne) {
          sp_grid_point q = {{ic, ie + 1, im}};
          bad |= row(fp, s, "engine", &p, &q,
                     value_at(s, ic, ie + 1, im) / value_at(s, ic, ie, im)) < 0;
        }
        if (im + 1 < nm) {
          sp_grid_point q = {{ic, ie, im + 1}};
          bad |= row(fp, s, "memory", &p, &q,
                     value_at(s, ic, ie, im + 1) / value_at(s, ic, ie, im)) < 0;
        }
        if (ic + 1 < nc) {
          sp_grid_point q = {{ic + 1, ie, im}};
          bad |=
              row(fp, s, "cu", &p, &q, value_at(s, ic + 1, ie, im) / value_at(s, ic, ie, im)) < 0;
        }
      }
  sp__c_numeric_end(&cnum);
  return bad ? SP_EIO : SP_OK;
}

int sp_surfaces_save(const sp_dataset *ds, size_t k0, size_t k1, sp_quantity q, const char *path,
                     sp_error *err) {
  sp_atomic_file af;
  int st = sp__atomic_open_output(&af, path, SP_OUTPUT_SURFACES, err);
  if (st) return st;
  fputs(
      "kernel,quantity,kind,cu_from,engine_from,memory_from,cu_to,engine_to,"
      "memory_to,ratio\n",
      af.fp);
  for (size_t k = k0; k < k1 && !st; k++) {
    sp_surface *s;
    st = sp_surface_build(ds, k, q, &s, err);
    if (!st && sp_surface_write_csv(s, af.fp))
      st = sp__fail(err, SP_EIO, path, 0, 0, NULL, "cannot write: %s", strerror(errno));
    sp_surface_free(s);
  }
  /* A stream error fails the commit, which names its cause. */
  if (st == SP_EIO && ferror(af.fp)) return sp__atomic_commit(&af, err);
  if (st) {
    sp__atomic_abort(&af);
    return st;
  }
  return sp__atomic_commit(&af, err);
}

int sp_surface_scale(const sp_surface *s, const sp_config *base, const sp_config *target,
                     double base_value, double *out) {
  sp_grid_point b, t;
  if (sp__grid_locate(&s->grid, base, &b) || sp__grid_locate(&s->grid, target, &t)) return SP_EGRID;
  const size_t dim = sp__region_dim(&s->grid), cdim = sp__cu_dim(&s->grid);
  double *feat = malloc((dim + cdim + 1) * sizeof(double));
  if (!feat) return SP_ENOMEM;
  sp__surface_region_features(s, t.i[0], feat);
  sp__surface_cu_features(s, b.i[1], b.i[2], feat + dim);
  *out =
      base_value * sp__scale_ratio(&s->grid, cdim ? feat + dim : NULL, dim ? feat : NULL, &b, &t);
  free(feat);
  return SP_OK;
}
