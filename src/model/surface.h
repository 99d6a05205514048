/* SPDX-License-Identifier: GPL-3.0-or-later */
/* surface.h: configuration grids and scaling surfaces (paper III-B).
 *
 * A grid is the product of three ascending axes (CU, engine, memory).  For
 * one CU count ("region") a kernel's scaling values are its engine ratios
 * e[im][j] = v(ic, j+1, im) / v(ic, j, im) for every memory clock im followed
 * by its memory ratios m[ie][i] = v(ic, ie, i+1) / v(ic, ie, i) for every
 * engine clock ie; its CU ratios at the base clocks are
 * c[i] = v(i+1, eb, mb) / v(i, eb, mb).  Scaling walks from the base: CU
 * ratios first (at the base clocks), then engine ratios along the base
 * memory clock inside the target CU region, then memory ratios along the
 * target engine clock; steps down use reciprocals.  Internal. */
#ifndef SP_SURFACE_H
#define SP_SURFACE_H

#include <stddef.h>

#include "scalepredict.h"

typedef struct sp_grid {
  size_t n[3]; /* values per axis */
  int *v[3];   /* ascending axis values */
} sp_grid;

typedef struct sp_grid_point {
  size_t i[3]; /* axis indices */
} sp_grid_point;

int sp__grid_init(sp_grid *g, const size_t n[3], const int *const v[3]);
void sp__grid_free(sp_grid *g);
int sp__grid_copy(sp_grid *dst, const sp_grid *src);
size_t sp__grid_size(const sp_grid *g);
size_t sp__grid_flat(const sp_grid *g, const sp_grid_point *p);
sp_config sp__grid_config(const sp_grid *g, size_t flat);
/* 0 and the point when cfg is on the grid, else SP_EGRID. */
int sp__grid_locate(const sp_grid *g, const sp_config *cfg, sp_grid_point *p);
/* Length of a region's feature vector: nm*(ne-1) + ne*(nm-1). */
size_t sp__region_dim(const sp_grid *g);
/* Length of the CU feature vector: nc - 1. */
size_t sp__cu_dim(const sp_grid *g);

/* Values of one kernel over a grid (grid order) and its scaling values. */
struct sp_surface {
  char *kernel;
  sp_quantity quantity;
  sp_grid grid;
  double *values; /* sp__grid_size values */
};

/* Fills the cube of kernel k over grid g from ds.  SP_EGRID names the first
 * missing configuration (or missing power). */
int sp__surface_build_on(const sp_dataset *ds, size_t k, sp_quantity q, const sp_grid *g,
                         sp_surface **out, sp_error *err);
/* The dataset's full grid. */
int sp__grid_from_dataset(const sp_dataset *ds, sp_grid *g);
/* Region features of CU index ic (sp__region_dim values). */
void sp__surface_region_features(const sp_surface *s, size_t ic, double *out);
/* CU features at base clock indices (ie, im) (sp__cu_dim values). */
void sp__surface_cu_features(const sp_surface *s, size_t ie, size_t im, double *out);

/* Ratio target/base given the CU features and the target region's
 * features (either may be NULL when its dimension is 0). */
double sp__scale_ratio(const sp_grid *g, const double *cu_feat, const double *region_feat,
                       const sp_grid_point *base, const sp_grid_point *target);
/* base_value scaled to every grid point; region_feats[ic] is the feature
 * vector used inside CU region ic.  out has sp__grid_size values. */
void sp__scale_all(const sp_grid *g, const double *cu_feat, const double *const *region_feats,
                   const sp_grid_point *base, double base_value, double *out);

#endif
