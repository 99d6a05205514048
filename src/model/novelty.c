/* SPDX-License-Identifier: GPL-3.0-or-later */
/* novelty.c: distance to the nearest training kernel (novelty.h). */
#include "novelty.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/status.h"

struct sp_novelty {
  size_t n, p;
  double *scale;  /* p: 1 / standard deviation, 0 for a constant feature */
  double *x;      /* n * p: training features, unscaled */
  double spacing; /* > 0 */
};

void sp__novelty_free(sp_novelty *nv) {
  if (!nv) return;
  free(nv->scale);
  free(nv->x);
  free(nv);
}

static sp_novelty *novelty_alloc(size_t n, size_t p) {
  sp_novelty *nv = calloc(1, sizeof *nv);
  if (!nv) return NULL;
  nv->n = n;
  nv->p = p;
  nv->scale = malloc(p * sizeof *nv->scale);
  nv->x = malloc(n * p * sizeof *nv->x);
  if (nv->scale && nv->x) return nv;
  sp__novelty_free(nv);
  return NULL;
}

/* Squared scaled distance between a and b, or, once the partial sum
 * reaches bound, that partial sum: the terms are not negative, so the
 * whole sum would not be below bound either. */
static double dist2(const sp_novelty *nv, const double *a, const double *b, double bound) {
  double s = 0;
  for (size_t i = 0; i < nv->p && s < bound; i++) {
    double d = (a[i] - b[i]) * nv->scale[i];
    s += d * d;
  }
  return s;
}

/* Squared distance from xq to the nearest training kernel other than skip. */
static double nearest2(const sp_novelty *nv, const double *xq, size_t skip) {
  double best = INFINITY;
  for (size_t j = 0; j < nv->n; j++) {
    if (j == skip) continue;
    double d = dist2(nv, xq, nv->x + j * nv->p, best);
    best = d < best ? d : best;
  }
  return best;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void fit_scale(sp_novelty *nv) {
  const size_t n = nv->n, p = nv->p;
  for (size_t i = 0; i < p; i++) {
    double mean = 0, var = 0;
    for (size_t j = 0; j < n; j++) mean += nv->x[j * p + i];
    mean /= (double)n;
    for (size_t j = 0; j < n; j++) var += pow(nv->x[j * p + i] - mean, 2);
    double sd = sqrt(var / (double)(n - 1));
    nv->scale[i] = sd > 1e-12 * (fabs(mean) + 1) ? 1 / sd : 0;
  }
}

int sp__novelty_fit(const double *x, size_t n, size_t p, sp_novelty **out) {
  *out = NULL;
  if (n < 2 || !p) return SP_EINVAL;
  sp_novelty *nv = novelty_alloc(n, p);
  double *d = malloc(n * sizeof *d);
  if (!nv || !d) {
    sp__novelty_free(nv);
    free(d);
    return SP_ENOMEM;
  }
  memcpy(nv->x, x, n * p * sizeof *x);
  fit_scale(nv);
  for (size_t j = 0; j < n; j++) d[j] = sqrt(nearest2(nv, nv->x + j * p, j));
  qsort(d, n, sizeof *d, cmp_double);
  size_t q = (size_t)ceil(SP_NOVELTY_QUANTILE * (double)n) - 1;
  nv->spacing = d[q < n ? q : n - 1];
  /* Duplicated training kernels leave no spacing: the smallest positive
   * one, or 1 when every kernel has a twin. */
  for (size_t j = 0; !(nv->spacing > 0) && j < n; j++) nv->spacing = d[j];
  if (!(nv->spacing > 0)) nv->spacing = 1;
  free(d);
  *out = nv;
  return SP_OK;
}

double sp__novelty_of(const sp_novelty *nv, const double *xq) {
  return sqrt(nearest2(nv, xq, (size_t)-1)) / nv->spacing;
}

/* ---- text form ----------------------------------------------------------- */

static void write_row(FILE *fp, const char *key, const double *v, size_t n) {
  fputs(key, fp);
  for (size_t i = 0; i < n; i++) fprintf(fp, " %.17g", v[i]);
  fputc('\n', fp);
}

int sp__novelty_save(const sp_novelty *nv, FILE *fp) {
  fprintf(fp, "novelty %zu %zu %.17g\n", nv->n, nv->p, nv->spacing);
  write_row(fp, "scale", nv->scale, nv->p);
  for (size_t j = 0; j < nv->n; j++) write_row(fp, "x", nv->x + j * nv->p, nv->p);
  return ferror(fp) ? SP_EIO : SP_OK;
}

/* "KEY v1 ... vn\n" into v. */
static int read_row(FILE *fp, char **buf, size_t *cap, const char *key, double *v, size_t n) {
  if (getline(buf, cap, fp) <= 0) return SP_EMODEL;
  size_t k = strlen(key);
  if (strncmp(*buf, key, k) || (*buf)[k] != ' ') return SP_EMODEL;
  char *s = *buf + k, *end;
  for (size_t i = 0; i < n; i++, s = end) {
    errno = 0;
    v[i] = strtod(s, &end);
    if (end == s || errno || !isfinite(v[i])) return SP_EMODEL;
  }
  return *s == '\n' || *s == '\0' ? SP_OK : SP_EMODEL;
}

static int load_rows(FILE *fp, sp_novelty *nv, long *line) {
  char *buf = NULL;
  size_t cap = 0;
  int st = read_row(fp, &buf, &cap, "scale", nv->scale, nv->p);
  for (size_t i = 0; !st && i < nv->p; i++)
    if (!(nv->scale[i] >= 0)) st = SP_EMODEL;
  for (size_t j = 0; !st && j < nv->n; j++) {
    ++*line;
    st = read_row(fp, &buf, &cap, "x", nv->x + j * nv->p, nv->p);
  }
  free(buf);
  return st;
}

int sp__novelty_load(FILE *fp, size_t p, long first_line, long *line, sp_novelty **out) {
  *out = NULL;
  *line = first_line;
  size_t n, pf;
  double spacing;
  if (fscanf(fp, "novelty %zu %zu %lf", &n, &pf, &spacing) != 3 || fgetc(fp) != '\n' || pf != p ||
      n < 2 || n > 1000000 || !(spacing > 0) || !isfinite(spacing))
    return SP_EMODEL;
  sp_novelty *nv = novelty_alloc(n, p);
  if (!nv) return SP_ENOMEM;
  nv->spacing = spacing;
  ++*line;
  int st = load_rows(fp, nv, line);
  if (st) {
    sp__novelty_free(nv);
    return st;
  }
  *out = nv;
  return SP_OK;
}
