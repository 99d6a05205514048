/* SPDX-License-Identifier: GPL-3.0-or-later */
/* energy.c: see energy.h. */
#define _POSIX_C_SOURCE 200809L
#include "energy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DOMAINS = 8 };

typedef struct rapl_domain {
  char path[256];
  double range_j;  /* counter wraps at this many joules */
  double last_j;   /* last raw reading */
  double offset_j; /* accumulated wrap-arounds */
} rapl_domain;

struct energy {
  char name[96];
  nvml *nv;
  rapl_domain dom[MAX_DOMAINS];
  int ndom;
};

static int read_uj(const char *path, double *joules) {
  FILE *fp = fopen(path, "r");
  unsigned long long uj = 0;
  int ok = fp && fscanf(fp, "%llu", &uj) == 1;
  if (fp) fclose(fp);
  *joules = (double)uj * 1e-6;
  return ok ? 0 : -1;
}

/* Top-level package domains intel-rapl:N (also used for AMD), under
 * $SP_POWERCAP_ROOT when set (the tests point it at counters they drive). */
static int open_rapl(energy *e) {
  const char *root = getenv("SP_POWERCAP_ROOT");
  if (root == NULL || *root == '\0') root = "/sys/class/powercap";
  for (int i = 0; i < MAX_DOMAINS; ++i) {
    rapl_domain *d = &e->dom[e->ndom];
    char base[200];
    snprintf(base, sizeof base, "%.150s/intel-rapl:%d", root, i);
    snprintf(d->path, sizeof d->path, "%s/energy_uj", base);
    char range[256];
    snprintf(range, sizeof range, "%s/max_energy_range_uj", base);
    if (read_uj(d->path, &d->last_j) != 0) break;
    if (read_uj(range, &d->range_j) != 0) d->range_j = 0.0;
    e->ndom++;
  }
  snprintf(e->name, sizeof e->name, "powercap-rapl (%d package domains)", e->ndom);
  return e->ndom > 0 ? 0 : -1;
}

energy *energy_open(const char *kind, nvml *nv) {
  energy *e = calloc(1, sizeof *e);
  double j;
  if (e == NULL) return NULL;
  int ok = 0;
  if (strcmp(kind, "nvml") == 0 && nv != NULL) {
    e->nv = nv;
    snprintf(e->name, sizeof e->name, "nvml-total-energy");
    ok = nvml_energy(nv, &j) == 0;
  } else if (strcmp(kind, "rapl") == 0) {
    ok = open_rapl(e) == 0;
  }
  if (!ok) {
    free(e);
    return NULL;
  }
  return e;
}

void energy_close(energy *e) { free(e); }

int energy_read(energy *e, double *joules) {
  if (e->nv) return nvml_energy(e->nv, joules);
  double sum = 0.0;
  for (int i = 0; i < e->ndom; ++i) {
    rapl_domain *d = &e->dom[i];
    double now;
    if (read_uj(d->path, &now) != 0) return -1;
    if (now < d->last_j && d->range_j > 0) d->offset_j += d->range_j;
    d->last_j = now;
    sum += now + d->offset_j;
  }
  *joules = sum;
  return 0;
}

const char *energy_name(const energy *e) { return e->name; }
