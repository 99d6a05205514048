/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_surface.c: scaling surfaces (paper III-B) on hand-built grids with
 * analytic time and power functions. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/csvread.h"
#include "model/surface.h"
#include "scalepredict.h"
#include "testutil.h"

/* An odd, smooth, strictly positive time with different sensitivities to
 * each axis, and a power that rises with every axis; kernel j shifts both. */
static double time_fn(int j, int cu, int eng, int mem) {
  return (2.385 + 0.71 * j) * pow(32.0 / cu, 0.83) * pow(1000.0 / eng, 0.61) +
         1.7 * pow(1375.0 / mem, 0.9 + 0.05 * j) + 0.013 * cu;
}
static double power_fn(int j, int cu, int eng, int mem) {
  return 40.5 + 3.1e-3 * cu * eng * (1.0 + 0.1 * j) + 0.0173 * mem;
}

typedef struct axes {
  size_t n[3];
  int v[3][4];
} axes;

static const axes grid3 = {{3, 3, 2}, {{8, 20, 32}, {300, 650, 1000}, {475, 1375}}};

enum { HOLE_NONE, HOLE_ROW, HOLE_POWER };

/* Writes name as one quoted CSV field (RFC 4180: quotes doubled). */
static void csv_quote(char *buf, size_t size, const char *name) {
  size_t n = 0;
  buf[n++] = '"';
  for (; *name && n + 3 < size; name++) {
    if (*name == '"') buf[n++] = '"';
    buf[n++] = *name;
  }
  buf[n++] = '"';
  buf[n] = '\0';
}

/* Writes runs.csv for nk kernels over the axes; the configuration hole (if
 * any) loses its row or its power reading for kernel nk - 1. */
static char *write_runs(const char *name, const axes *a, int nk, const char *kname0, int hole_kind,
                        const sp_config *hole) {
  char *dir = tu_path(tu_scratch, name);
  ck_assert_int_eq(mkdir(dir, 0700), 0);
  size_t cap = 1 << 16, n = 0;
  char *text = malloc(cap);
  ck_assert_ptr_nonnull(text);
  n += (size_t)snprintf(text, cap, "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n");
  for (int j = 0; j < nk; j++)
    for (size_t ic = 0; ic < a->n[0]; ic++)
      for (size_t ie = 0; ie < a->n[1]; ie++)
        for (size_t im = 0; im < a->n[2]; im++) {
          const sp_config c = {a->v[0][ic], a->v[1][ie], a->v[2][im]};
          int at_hole = hole && j == nk - 1 && sp_config_equal(&c, hole);
          if (at_hole && hole_kind == HOLE_ROW) continue;
          char kname[64];
          if (j == 0 && kname0)
            csv_quote(kname, sizeof kname, kname0);
          else
            snprintf(kname, sizeof kname, "kernel%d", j);
          char power[64] = "";
          if (!(at_hole && hole_kind == HOLE_POWER))
            snprintf(power, sizeof power, "%.17g", power_fn(j, c.cu, c.engine_mhz, c.memory_mhz));
          n += (size_t)snprintf(text + n, cap - n, "%s,%d,%d,%d,%.17g,%s\n", kname, c.cu,
                                c.engine_mhz, c.memory_mhz,
                                time_fn(j, c.cu, c.engine_mhz, c.memory_mhz), power);
          ck_assert_uint_lt(n, cap);
        }
  char *path = tu_write(dir, "runs.csv", text);
  free(text);
  free(dir);
  return path;
}

static sp_dataset *load(const char *runs) {
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load(runs, NULL, &ds, &err), SP_OK);
  return ds;
}

static sp_surface *build(const sp_dataset *ds, size_t k, sp_quantity q) {
  sp_surface *s = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_surface_build(ds, k, q, &s, &err), SP_OK);
  ck_assert_ptr_nonnull(s);
  return s;
}

static double fn(sp_quantity q, int j, const sp_config *c) {
  return q == SP_TIME ? time_fn(j, c->cu, c->engine_mhz, c->memory_mhz)
                      : power_fn(j, c->cu, c->engine_mhz, c->memory_mhz);
}

/* ---- features ------------------------------------------------------------- */

START_TEST(test_region_features) {
  char *runs = write_runs("features", &grid3, 1, NULL, HOLE_NONE, NULL);
  sp_dataset *ds = load(runs);
  sp_surface *s = build(ds, 0, SP_TIME);
  const sp_grid *g = &s->grid;
  ck_assert_uint_eq(sp__grid_size(g), 18);
  /* nm * (ne - 1) engine ratios + ne * (nm - 1) memory ratios. */
  ck_assert_uint_eq(sp__region_dim(g), 2 * 2 + 3 * 1);
  ck_assert_uint_eq(sp__cu_dim(g), 2);
  double f[7];
  for (size_t ic = 0; ic < 3; ic++) {
    const int cu = grid3.v[0][ic];
    sp__surface_region_features(s, ic, f);
    /* Engine ratios, memory clock by memory clock. */
    ck_assert_double_eq(f[0], time_fn(0, cu, 650, 475) / time_fn(0, cu, 300, 475));
    ck_assert_double_eq(f[1], time_fn(0, cu, 1000, 475) / time_fn(0, cu, 650, 475));
    ck_assert_double_eq(f[2], time_fn(0, cu, 650, 1375) / time_fn(0, cu, 300, 1375));
    ck_assert_double_eq(f[3], time_fn(0, cu, 1000, 1375) / time_fn(0, cu, 650, 1375));
    /* Memory ratios, engine clock by engine clock. */
    ck_assert_double_eq(f[4], time_fn(0, cu, 300, 1375) / time_fn(0, cu, 300, 475));
    ck_assert_double_eq(f[5], time_fn(0, cu, 650, 1375) / time_fn(0, cu, 650, 475));
    ck_assert_double_eq(f[6], time_fn(0, cu, 1000, 1375) / time_fn(0, cu, 1000, 475));
  }
  for (size_t ie = 0; ie < 3; ie++)
    for (size_t im = 0; im < 2; im++) {
      const int e = grid3.v[1][ie], m = grid3.v[2][im];
      sp__surface_cu_features(s, ie, im, f);
      ck_assert_double_eq(f[0], time_fn(0, 20, e, m) / time_fn(0, 8, e, m));
      ck_assert_double_eq(f[1], time_fn(0, 32, e, m) / time_fn(0, 20, e, m));
    }
  sp_surface_free(s);
  sp_dataset_free(ds);
  free(runs);
}
END_TEST

/* ---- the telescoping property: a surface reproduces its own grid ---------- */

static void check_scale_all_bases(const sp_dataset *ds, size_t k, int j, sp_quantity q) {
  sp_surface *s = build(ds, k, q);
  const size_t n = sp__grid_size(&s->grid);
  for (size_t b = 0; b < n; b++) {
    const sp_config base = sp__grid_config(&s->grid, b);
    const double bv = fn(q, j, &base);
    for (size_t t = 0; t < n; t++) {
      const sp_config target = sp__grid_config(&s->grid, t);
      double out = NAN;
      ck_assert_int_eq(sp_surface_scale(s, &base, &target, bv, &out), SP_OK);
      const double want = fn(q, j, &target);
      ck_assert_msg(tu_rel(out, want) < 1e-12, "%dcu/%d/%d -> %dcu/%d/%d: %.17g vs %.17g", base.cu,
                    base.engine_mhz, base.memory_mhz, target.cu, target.engine_mhz,
                    target.memory_mhz, out, want);
      /* Scaling is linear in the base value. */
      ck_assert_int_eq(sp_surface_scale(s, &base, &target, 2.385 * bv, &out), SP_OK);
      ck_assert(tu_rel(out, 2.385 * want) < 1e-12);
    }
  }
  sp_surface_free(s);
}

START_TEST(test_scale_reproduces_grid) {
  char *runs = write_runs("telescope", &grid3, 3, NULL, HOLE_NONE, NULL);
  sp_dataset *ds = load(runs);
  for (int j = 0; j < 3; j++) {
    check_scale_all_bases(ds, (size_t)j, j, SP_TIME);
    check_scale_all_bases(ds, (size_t)j, j, SP_POWER);
  }
  sp_dataset_free(ds);
  free(runs);
}
END_TEST

/* Grids in which one or two axes hold a single value (1-D and 2-D sweeps,
 * like DVFS data at a fixed CU count). */
static const axes small_grids[] = {
    {{3, 1, 1}, {{4, 12, 28}, {850}, {1250}}},
    {{1, 4, 1}, {{16}, {405, 705, 1005, 1305}, {3505}}},
    {{1, 1, 2}, {{16}, {705}, {810, 3505}}},
    {{1, 3, 2}, {{24}, {500, 750, 1135}, {877, 1752}}},
    {{2, 1, 3}, {{10, 40}, {1100}, {300, 600, 900}}},
    {{4, 2, 1}, {{6, 12, 18, 24}, {900, 1350}, {2000}}},
};

START_TEST(test_small_grids) {
  const axes *a = &small_grids[_i];
  char name[32];
  snprintf(name, sizeof name, "small-%d", _i);
  char *runs = write_runs(name, a, 2, NULL, HOLE_NONE, NULL);
  sp_dataset *ds = load(runs);
  sp_surface *s = build(ds, 1, SP_TIME);
  const size_t ne = a->n[1], nm = a->n[2];
  ck_assert_uint_eq(sp__grid_size(&s->grid), a->n[0] * ne * nm);
  ck_assert_uint_eq(sp__region_dim(&s->grid), nm * (ne - 1) + ne * (nm - 1));
  ck_assert_uint_eq(sp__cu_dim(&s->grid), a->n[0] - 1);
  sp_surface_free(s);
  check_scale_all_bases(ds, 0, 0, SP_TIME);
  check_scale_all_bases(ds, 1, 1, SP_POWER);
  sp_dataset_free(ds);
  free(runs);
}
END_TEST

/* ---- the walk with other kernels' scaling values ------------------------- */

/* Applying an average of two kernels' features (as a centroid would be)
 * follows the documented path: CU ratios at the base clocks, engine ratios
 * along the base memory clock inside the target CU region, then memory
 * ratios along the target engine clock. */
START_TEST(test_walk_order) {
  char *runs = write_runs("walk", &grid3, 2, NULL, HOLE_NONE, NULL);
  sp_dataset *ds = load(runs);
  sp_surface *s0 = build(ds, 0, SP_TIME), *s1 = build(ds, 1, SP_TIME);
  const sp_grid *g = &s0->grid;
  const size_t rd = sp__region_dim(g);
  double a[7], b[7], region[3][7], cu[2], c0[2], c1[2];
  for (size_t ic = 0; ic < 3; ic++) {
    sp__surface_region_features(s0, ic, a);
    sp__surface_region_features(s1, ic, b);
    for (size_t d = 0; d < rd; d++) region[ic][d] = 0.5 * (a[d] + b[d]);
  }
  const sp_grid_point base = {{2, 2, 1}}; /* 32cu/1000/1375 */
  sp__surface_cu_features(s0, 2, 1, c0);
  sp__surface_cu_features(s1, 2, 1, c1);
  for (int i = 0; i < 2; i++) cu[i] = 0.5 * (c0[i] + c1[i]);

  /* 32cu/1000/1375 -> 8cu/300/475 walks down every axis: reciprocals. */
  const sp_grid_point t = {{0, 0, 0}};
  double want = 1.0 / (cu[1] * cu[0]);             /* 32 -> 20 -> 8 CUs */
  want /= region[0][1 * 2 + 1] * region[0][1 * 2]; /* engine at 1375 MHz */
  want /= region[0][4 + 0];                        /* memory at 300 MHz */
  double got = sp__scale_ratio(g, cu, region[0], &base, &t);
  ck_assert(tu_rel(got, want) < 1e-14);

  /* 8cu/300/475 -> 20cu/1000/1375 walks up from another base. */
  const sp_grid_point b2 = {{0, 0, 0}}, t2 = {{1, 2, 1}};
  sp__surface_cu_features(s0, 0, 0, c0);
  sp__surface_cu_features(s1, 0, 0, c1);
  double cu2[2] = {0.5 * (c0[0] + c1[0]), 0.5 * (c0[1] + c1[1])};
  want = cu2[0] * region[1][0] * region[1][1] * region[1][4 + 2];
  got = sp__scale_ratio(g, cu2, region[1], &b2, &t2);
  ck_assert(tu_rel(got, want) < 1e-14);

  /* sp__scale_all agrees with sp__scale_ratio at every target. */
  const double *rf[3] = {region[0], region[1], region[2]};
  double all[18];
  sp__scale_all(g, cu, rf, &base, 3.125, all);
  for (size_t i = 0; i < 18; i++) {
    const sp_config c = sp__grid_config(g, i);
    sp_grid_point p;
    ck_assert_int_eq(sp__grid_locate(g, &c, &p), SP_OK);
    ck_assert_uint_eq(sp__grid_flat(g, &p), i);
    ck_assert(tu_rel(all[i], 3.125 * sp__scale_ratio(g, cu, rf[p.i[0]], &base, &p)) < 1e-13);
  }
  ck_assert_double_eq(all[sp__grid_flat(g, &base)], 3.125);
  sp_surface_free(s0);
  sp_surface_free(s1);
  sp_dataset_free(ds);
  free(runs);
}
END_TEST

/* ---- errors --------------------------------------------------------------- */

START_TEST(test_hole) {
  const sp_config hole = {20, 650, 475};
  char *runs = write_runs("hole", &grid3, 2, NULL, HOLE_ROW, &hole);
  sp_dataset *ds = load(runs);
  sp_surface *s = build(ds, 0, SP_TIME); /* kernel 0 is complete */
  sp_surface_free(s);
  s = (sp_surface *)&s;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_surface_build(ds, 1, SP_TIME, &s, &err), SP_EGRID);
  ck_assert_ptr_null(s);
  ck_assert_int_eq(err.status, SP_EGRID);
  ck_assert_str_eq(err.file, runs);
  ck_assert_str_eq(err.field, "time_ms");
  ck_assert_ptr_nonnull(strstr(err.message, "20cu/650/475"));
  ck_assert_ptr_nonnull(strstr(err.message, "'kernel1'"));
  sp_dataset_free(ds);
  free(runs);
}
END_TEST

START_TEST(test_power_hole) {
  const sp_config hole = {32, 300, 1375};
  char *runs = write_runs("power-hole", &grid3, 2, NULL, HOLE_POWER, &hole);
  sp_dataset *ds = load(runs);
  sp_surface *s = build(ds, 1, SP_TIME); /* time is complete */
  sp_surface_free(s);
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_surface_build(ds, 1, SP_POWER, &s, &err), SP_EGRID);
  ck_assert_ptr_null(s);
  ck_assert_str_eq(err.file, runs);
  ck_assert_str_eq(err.field, "power_w");
  ck_assert_ptr_nonnull(strstr(err.message, "32cu/300/1375"));
  ck_assert_ptr_nonnull(strstr(err.message, "no power"));
  sp_dataset_free(ds);
  free(runs);
}
END_TEST

START_TEST(test_bad_arguments) {
  char *runs = write_runs("args", &grid3, 1, NULL, HOLE_NONE, NULL);
  sp_dataset *ds = load(runs);
  sp_surface *s = (sp_surface *)&s;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_surface_build(ds, 1, SP_TIME, &s, &err), SP_EINVAL);
  ck_assert_ptr_null(s);
  s = build(ds, 0, SP_TIME);
  const sp_config on = {20, 650, 475}, off_cu = {16, 650, 475}, off_e = {20, 600, 475},
                  off_m = {20, 650, 925};
  double out = 2.385;
  ck_assert_int_eq(sp_surface_scale(s, &off_cu, &on, 1.0, &out), SP_EGRID);
  ck_assert_int_eq(sp_surface_scale(s, &on, &off_e, 1.0, &out), SP_EGRID);
  ck_assert_int_eq(sp_surface_scale(s, &off_m, &on, 1.0, &out), SP_EGRID);
  ck_assert_double_eq(out, 2.385);
  sp_grid_point p;
  ck_assert_int_eq(sp__grid_locate(&s->grid, &off_m, &p), SP_EGRID);
  sp_surface_free(s);
  sp_surface_free(NULL);
  sp_dataset_free(ds);
  free(runs);
}
END_TEST

/* ---- CSV output ------------------------------------------------------------- */

typedef struct csv_check {
  const sp_surface *s;
  int j;
  const char *kernel;
  size_t rows;
  unsigned char seen[3][18 * 18];
} csv_check;

static int on_csv_row(void *user, const sp_csv_row *row, sp_error *err) {
  (void)err;
  csv_check *c = user;
  ck_assert_uint_eq(row->nfields, 10);
  ck_assert_str_eq(row->fields[0], c->kernel);
  ck_assert_str_eq(row->fields[1], c->s->quantity == SP_TIME ? "time" : "power");
  static const char *const kinds[3] = {"engine", "memory", "cu"};
  int kind = -1;
  for (int i = 0; i < 3; i++)
    if (!strcmp(row->fields[2], kinds[i])) kind = i;
  ck_assert_int_ge(kind, 0);
  int v[6];
  for (int i = 0; i < 6; i++) ck_assert_int_eq(sp__parse_int(row->fields[3 + i], &v[i]), SP_OK);
  const sp_config from = {v[0], v[1], v[2]}, to = {v[3], v[4], v[5]};
  sp_grid_point a, b;
  ck_assert_int_eq(sp__grid_locate(&c->s->grid, &from, &a), SP_OK);
  ck_assert_int_eq(sp__grid_locate(&c->s->grid, &to, &b), SP_OK);
  /* The two configurations are neighbours along the row's own axis. */
  const int axis = kind == 2 ? 0 : kind == 0 ? 1 : 2;
  for (int ax = 0; ax < 3; ax++) ck_assert_uint_eq(b.i[ax], a.i[ax] + (ax == axis));
  double ratio;
  ck_assert_int_eq(sp__parse_double(row->fields[9], &ratio), SP_OK);
  ck_assert(tu_rel(ratio, fn(c->s->quantity, c->j, &to) / fn(c->s->quantity, c->j, &from)) < 1e-8);
  const size_t pair = sp__grid_flat(&c->s->grid, &a) * 18 + sp__grid_flat(&c->s->grid, &b);
  ck_assert(!c->seen[kind][pair]);
  c->seen[kind][pair] = 1;
  c->rows++;
  return SP_OK;
}

static void check_csv(const char *name, const char *kernel, sp_quantity q) {
  char *runs = write_runs(name, &grid3, 1, kernel, HOLE_NONE, NULL);
  sp_dataset *ds = load(runs);
  sp_surface *s = build(ds, 0, q);
  char *dir = tu_path(tu_scratch, name);
  char *out = tu_path(dir, "surface.csv");
  FILE *fp = fopen(out, "w");
  ck_assert_ptr_nonnull(fp);
  ck_assert_int_eq(sp_surface_write_csv(s, fp), SP_OK);
  ck_assert_int_eq(fclose(fp), 0);
  csv_check c = {.s = s, .j = 0, .kernel = kernel};
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp__csv_read(out, on_csv_row, &c, &err), SP_OK);
  /* Per region nm*(ne-1) engine + ne*(nm-1) memory rows; between regions
   * one CU row per engine x memory clock pair. */
  ck_assert_uint_eq(c.rows, 3 * (2 * 2 + 3 * 1) + 2 * 3 * 2);
  size_t lines = 0;
  char *text = tu_read(out, NULL);
  for (char *p = text; *p; p++) lines += *p == '\n';
  ck_assert_uint_eq(lines, c.rows);
  free(text);
  sp_surface_free(s);
  sp_dataset_free(ds);
  free(out);
  free(dir);
  free(runs);
}

START_TEST(test_csv_time) { check_csv("csv-time", "kernel0", SP_TIME); }
END_TEST

START_TEST(test_csv_power) { check_csv("csv-power", "kernel0", SP_POWER); }
END_TEST

/* A kernel name holding a comma and quotes stays one CSV field. */
START_TEST(test_csv_quoted_name) { check_csv("csv-quoted", "reduce<\"sum\", 256>", SP_TIME); }
END_TEST

START_TEST(test_csv_write_error) {
  char *runs = write_runs("csv-error", &grid3, 1, NULL, HOLE_NONE, NULL);
  sp_dataset *ds = load(runs);
  sp_surface *s = build(ds, 0, SP_TIME);
  FILE *fp = fopen(runs, "r"); /* not writable */
  ck_assert_ptr_nonnull(fp);
  ck_assert_int_eq(sp_surface_write_csv(s, fp), SP_EIO);
  fclose(fp);
  sp_surface_free(s);
  sp_dataset_free(ds);
  free(runs);
}
END_TEST

static Suite *surface_suite(void) {
  Suite *s = suite_create("surface");
  TCase *tc = tcase_create("core");
  tcase_add_unchecked_fixture(tc, tu_scratch_setup, tu_scratch_teardown);
  tcase_add_test(tc, test_region_features);
  tcase_add_test(tc, test_scale_reproduces_grid);
  tcase_add_loop_test(tc, test_small_grids, 0, (int)(sizeof small_grids / sizeof small_grids[0]));
  tcase_add_test(tc, test_walk_order);
  tcase_add_test(tc, test_hole);
  tcase_add_test(tc, test_power_hole);
  tcase_add_test(tc, test_bad_arguments);
  tcase_add_test(tc, test_csv_time);
  tcase_add_test(tc, test_csv_power);
  tcase_add_test(tc, test_csv_quoted_name);
  tcase_add_test(tc, test_csv_write_error);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(surface_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
