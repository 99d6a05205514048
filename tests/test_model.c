/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_model.c: training, the oracle, classification, saved models and
 * prediction on a small generated data set whose kernels fall into three
 * scaling classes that their counters identify. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/model.h"
#include "model/wu2015.h"
#include "scalepredict.h"
#include "testutil.h"
#include "util/sha256.h"

#define NOT_FOUND ((size_t)-1)
#define NKERNELS 12
#define NCLASSES 3

/* ---- the generated data set -------------------------------------------------- */

typedef struct axes {
  size_t n[3];
  int v[3][3];
} axes;

/* 2 CU counts x 3 engine clocks x 3 memory clocks, base 32cu/1000/1375. */
static const axes grid233 = {{2, 3, 3}, {{16, 32}, {500, 750, 1000}, {475, 925, 1375}}};
/* A DVFS-style sweep at one CU count. */
static const axes grid133 = {{1, 3, 3}, {{32}, {500, 750, 1000}, {475, 925, 1375}}};
static const sp_config base_cfg = {32, 1000, 1375};

enum { POWER_ALL, POWER_NONE, POWER_NO_500 };

typedef struct gen {
  const axes *a;
  int nk;
  int power;            /* POWER_* */
  int no_base_counters; /* kernel index without counters at the base, or -1 */
  int name_tricky;      /* kernel 0's name holds a comma, quotes and a space */
} gen;

static int cls(int k) { return k % NCLASSES; }

/* Kernel k of class k % 3: compute-bound (scales with CUs x engine clock),
 * bandwidth-bound (scales with the memory clock) or balanced.  Each kernel
 * perturbs its class's exponents, so no two kernels share a surface. */
static double time_fn(int k, int cu, int eng, int mem) {
  const double s = 1.5 + 0.37 * k, d = 0.011 * (k / NCLASSES);
  const double c = pow(32.0 / cu, 0.95 + d), e = pow(1000.0 / eng, 0.97 - d);
  const double m = pow(1375.0 / mem, 0.92 + d);
  switch (cls(k)) {
    case 0:
      return s * (c * e + 0.04 * m);
    case 1:
      return s * (0.05 * c * e + m * pow(32.0 / cu, 0.1));
    default:
      return s * (0.55 * c * e + 0.5 * m);
  }
}

static double power_fn(int k, int cu, int eng, int mem) {
  static const double core[NCLASSES] = {1.0, 0.2, 0.6}, dram[NCLASSES] = {0.1, 1.0, 0.5};
  return 60.5 + 4.1e-3 * cu * eng * core[cls(k)] * (1 + 0.02 * k) + 0.031 * mem * dram[cls(k)];
}

/* Counters that identify the class, plus one that does not. */
static void counters_fn(int k, double *v) {
  static const double valu[NCLASSES] = {85.5, 12.25, 48.75}, mem[NCLASSES] = {9.5, 91.25, 55.0};
  const int j = k / NCLASSES;
  v[0] = valu[cls(k)] + 1.3 * j;
  v[1] = mem[cls(k)] - 0.7 * j;
  v[2] = 1.0e6 * (1 + 0.37 * ((k * 7) % NKERNELS));
}
static const char *const counter_names[3] = {"sq.valu_busy", "mem.unit_busy", "sq.insts"};

static void kernel_name(int k, int tricky, char *buf, size_t size) {
  if (k == 0 && tricky)
    snprintf(buf, size, "\"scan, \"\"fast\"\" pass\"");
  else
    snprintf(buf, size, "k%02d_class%d", k, cls(k));
}

typedef struct paths {
  char *dir, *runs, *counters;
} paths;

static void paths_free(paths *p) {
  free(p->dir);
  free(p->runs);
  free(p->counters);
}

static paths write_dataset(const char *name, const gen *g) {
  paths p = {tu_path(tu_scratch, name), NULL, NULL};
  ck_assert_int_eq(mkdir(p.dir, 0700), 0);
  size_t cap = 1 << 16, n = 0, m = 0;
  char *runs = malloc(cap), *ctr = malloc(cap);
  ck_assert_ptr_nonnull(runs);
  ck_assert_ptr_nonnull(ctr);
  n += (size_t)snprintf(runs, cap, "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n");
  m += (size_t)snprintf(ctr, cap, "kernel,cu,engine_mhz,memory_mhz,%s,%s,%s\n", counter_names[0],
                        counter_names[1], counter_names[2]);
  for (int k = 0; k < g->nk; k++) {
    char kname[64];
    kernel_name(k, g->name_tricky, kname, sizeof kname);
    for (size_t ic = 0; ic < g->a->n[0]; ic++)
      for (size_t ie = 0; ie < g->a->n[1]; ie++)
        for (size_t im = 0; im < g->a->n[2]; im++) {
          const int cu = g->a->v[0][ic], e = g->a->v[1][ie], mm = g->a->v[2][im];
          char pw[64] = "";
          if (g->power == POWER_ALL || (g->power == POWER_NO_500 && !(e == 500 && k == 5)))
            snprintf(pw, sizeof pw, "%.17g", power_fn(k, cu, e, mm));
          n += (size_t)snprintf(runs + n, cap - n, "%s,%d,%d,%d,%.17g,%s\n", kname, cu, e, mm,
                                time_fn(k, cu, e, mm), pw);
        }
    double v[3];
    counters_fn(k, v);
    if (k != g->no_base_counters)
      m += (size_t)snprintf(ctr + m, cap - m, "%s,%d,%d,%d,%.17g,%.17g,%.17g\n", kname, base_cfg.cu,
                            base_cfg.engine_mhz, base_cfg.memory_mhz, v[0], v[1], v[2]);
    /* Rows at another configuration, which training must ignore. */
    const sp_config first = {g->a->v[0][0], g->a->v[1][0], g->a->v[2][0]};
    if (!sp_config_equal(&first, &base_cfg))
      m += (size_t)snprintf(ctr + m, cap - m, "%s,%d,%d,%d,%.17g,%.17g,%.17g\n", kname,
                            g->a->v[0][0], g->a->v[1][0], g->a->v[2][0], 1000.0 - v[0], -v[1],
                            0.5 * v[2]);
  }
  ck_assert_uint_lt(n, cap);
  ck_assert_uint_lt(m, cap);
  p.runs = tu_write(p.dir, "runs.csv", runs);
  p.counters = tu_write(p.dir, "counters.csv", ctr);
  free(runs);
  free(ctr);
  return p;
}

static const gen default_gen = {&grid233, NKERNELS, POWER_ALL, -1, 0};

static sp_dataset *load(const paths *p) {
  sp_dataset *ds = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load(p->runs, p->counters, &ds, &err), SP_OK);
  return ds;
}

static sp_train_params params(size_t k) {
  sp_train_params tp;
  sp_train_params_init(&tp);
  tp.base = base_cfg;
  tp.clusters = k;
  tp.seed = 2385;
  /* These tests are about the wu2015 model's structure and its files. */
  tp.methods = 0;
  return tp;
}

static sp_model *train(const sp_dataset *ds, const sp_train_params *tp) {
  sp_model *m = NULL;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_model_train(ds, tp, NULL, NULL, &m, &err);
  char msg[1024];
  sp_error_format(&err, msg, sizeof msg);
  ck_assert_msg(st == SP_OK, "training failed: %s", msg);
  ck_assert_ptr_nonnull(m);
  return m;
}

static double measured(sp_quantity q, int k, const sp_config *c) {
  return q == SP_TIME ? time_fn(k, c->cu, c->engine_mhz, c->memory_mhz)
                      : power_fn(k, c->cu, c->engine_mhz, c->memory_mhz);
}

/* The training kernel's own k-means cluster in every set. */
static void oracle_choice(const sp_model *m, sp_quantity q, size_t i, size_t *choice) {
  const sp_submodel *s = &m->sub[q];
  for (size_t j = 0; j < s->nsets; j++) choice[j] = s->sets[j].assign[i];
}

/* Observation of dataset kernel k at the base. */
static sp_observation observe(const sp_model *m, const sp_dataset *ds, size_t k, double *ctr) {
  sp_observation obs;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_model_observe(m, ds, k, ctr, &obs, &err), SP_OK);
  return obs;
}

/* ---- the oracle ------------------------------------------------------------- */

static void check_oracle_exact(const sp_model *m, sp_quantity q) {
  const size_t n = sp_model_config_count(m, q);
  ck_assert_uint_gt(n, 1);
  double *out = malloc(n * sizeof *out);
  size_t choice[16];
  ck_assert_ptr_nonnull(out);
  for (size_t i = 0; i < m->ntrain; i++) {
    int k = -1;
    ck_assert_int_eq(sscanf(m->train_kernels[i], "k%d_", &k), 1);
    oracle_choice(m, q, i, choice);
    const double bv = measured(q, k, &base_cfg);
    ck_assert_int_eq(sp__model_predict_choice(m, q, choice, bv, out), SP_OK);
    for (size_t t = 0; t < n; t++) {
      const sp_config c = sp_model_config_at(m, q, t);
      const double want = measured(q, k, &c);
      ck_assert_msg(tu_rel(out[t], want) < 1e-9, "%s %s at %dcu/%d/%d: %.17g vs %.17g",
                    m->train_kernels[i], q == SP_TIME ? "time" : "power", c.cu, c.engine_mhz,
                    c.memory_mhz, out[t], want);
    }
  }
  free(out);
}

/* With k = the number of kernels every kernel is its own cluster, and the
 * oracle reproduces every training kernel at every configuration. */
START_TEST(test_oracle_exact) {
  paths p = write_dataset("oracle", &default_gen);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(NKERNELS);
  sp_model *m = train(ds, &tp);
  ck_assert_uint_eq(m->ntrain, NKERNELS);
  for (int q = 0; q < 2; q++) {
    const sp_submodel *s = &m->sub[q];
    ck_assert(s->present);
    ck_assert_uint_eq(s->nsets, 2 + 1); /* two CU regions and the CU set */
    ck_assert_int_eq(s->sets[2].kind, SP_SET_CU);
    for (size_t j = 0; j < s->nsets; j++) {
      ck_assert_uint_eq(s->sets[j].nclusters, NKERNELS);
      ck_assert_double_eq_tol(s->sets[j].inertia, 0.0, 1e-20);
    }
    check_oracle_exact(m, (sp_quantity)q);
  }
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

/* The same on a grid with one CU count (no CU set). */
START_TEST(test_oracle_exact_2d) {
  const gen g = {&grid133, NKERNELS, POWER_ALL, -1, 0};
  paths p = write_dataset("oracle-2d", &g);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(NKERNELS);
  sp_model *m = train(ds, &tp);
  ck_assert_uint_eq(m->sub[SP_TIME].nsets, 1);
  ck_assert_ptr_null(sp__submodel_cu_set(&m->sub[SP_TIME]));
  ck_assert_uint_eq(sp_model_config_count(m, SP_TIME), 9);
  check_oracle_exact(m, SP_TIME);
  check_oracle_exact(m, SP_POWER);
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

/* ---- clusters and the classifier ---------------------------------------------- */

START_TEST(test_classes_recovered) {
  paths p = write_dataset("classes", &default_gen);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(NCLASSES);
  sp_model *m = train(ds, &tp);
  double ctr[3], x[3];
  size_t oracle[16];
  for (int q = 0; q < 2; q++) {
    const sp_submodel *s = &m->sub[q];
    for (size_t j = 0; j < s->nsets; j++) {
      const sp_cluster_set *cs = &s->sets[j];
      ck_assert_uint_eq(cs->nclusters, NCLASSES);
      /* k-means puts kernels together exactly when they share a class. */
      for (size_t a = 0; a < NKERNELS; a++)
        for (size_t b = 0; b < NKERNELS; b++)
          ck_assert_msg((cs->assign[a] == cs->assign[b]) == (cls((int)a) == cls((int)b)),
                        "set %zu: kernels %zu and %zu", j, a, b);
    }
    for (size_t i = 0; i < NKERNELS; i++) {
      sp_observation obs = observe(m, ds, i, ctr);
      sp_predict_info info;
      sp__model_normalize(m, obs.counters, x, &info);
      ck_assert_uint_eq(info.clamped, 0);
      for (size_t j = 0; j < s->nsets; j++)
        ck_assert_uint_eq(sp__classifier_classify(s->sets[j].clf, x, NULL), s->sets[j].assign[i]);
      /* So the public prediction is the oracle's, bit for bit. */
      const size_t n = sp_model_config_count(m, (sp_quantity)q);
      double got[18], want[18];
      ck_assert_int_eq(sp_model_predict_all(m, (sp_quantity)q, &obs, got, &info), SP_OK);
      oracle_choice(m, (sp_quantity)q, i, oracle);
      const double bv = q == SP_TIME ? obs.base_time_ms : obs.base_power_w;
      ck_assert_int_eq(sp__model_predict_choice(m, (sp_quantity)q, oracle, bv, want), SP_OK);
      for (size_t t = 0; t < n; t++) ck_assert_double_eq(got[t], want[t]);
    }
  }
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

/* Held-out kernels (never seen in training) are predicted with positive,
 * finite values, the prediction at the base is the base value, and single-
 * target prediction agrees with the whole grid. */
START_TEST(test_predictions_sane) {
  paths p = write_dataset("sane", &default_gen);
  sp_dataset *ds = load(&p);
  unsigned char use[NKERNELS];
  for (int k = 0; k < NKERNELS; k++) use[k] = k < 9;
  sp_train_params tp = params(NCLASSES);
  tp.use_kernel = use;
  sp_model *m = train(ds, &tp);
  ck_assert_uint_eq(m->ntrain, 9);
  double ctr[3], all[18];
  for (size_t k = 0; k < NKERNELS; k++) {
    sp_observation obs = observe(m, ds, k, ctr);
    ck_assert_double_eq(obs.base_time_ms, time_fn((int)k, 32, 1000, 1375));
    ck_assert_double_eq(obs.base_power_w, power_fn((int)k, 32, 1000, 1375));
    ck_assert_str_eq(obs.kernel, sp_dataset_kernel_name(ds, k));
    for (int q = 0; q < 2; q++) {
      const size_t n = sp_model_config_count(m, (sp_quantity)q);
      ck_assert_int_eq(sp_model_predict_all(m, (sp_quantity)q, &obs, all, NULL), SP_OK);
      for (size_t t = 0; t < n; t++) {
        ck_assert(isfinite(all[t]) && all[t] > 0);
        const sp_config c = sp_model_config_at(m, (sp_quantity)q, t);
        ck_assert_uint_eq(sp_model_config_index(m, (sp_quantity)q, &c), t);
        double one;
        sp_predict_info info;
        ck_assert_int_eq(sp_model_predict(m, (sp_quantity)q, &obs, &c, &one, &info), SP_OK);
        ck_assert(tu_rel(one, all[t]) < 1e-12);
        if (sp_config_equal(&c, &base_cfg))
          ck_assert_double_eq(one, q == SP_TIME ? obs.base_time_ms : obs.base_power_w);
      }
    }
  }
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

START_TEST(test_clamping) {
  paths p = write_dataset("clamp", &default_gen);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(NCLASSES);
  sp_model *m = train(ds, &tp);
  ck_assert_uint_eq(sp_model_counter_count(m), 3);
  ck_assert_str_eq(sp_model_counter_name(m, 1), "mem.unit_busy");
  ck_assert_ptr_null(sp_model_counter_name(m, 3));
  double ctr[3];
  sp_observation obs = observe(m, ds, 4, ctr);
  sp_predict_info info = {99, 99, 0, 99};
  const sp_config target = {16, 750, 925};
  double in_range, clamped;
  ck_assert_int_eq(sp_model_predict(m, SP_TIME, &obs, &target, &in_range, &info), SP_OK);
  ck_assert_uint_eq(info.clamped, 0);
  /* wu2015 has no novelty measure: only clamping puts a kernel outside. */
  ck_assert(isnan(info.novelty));
  ck_assert_int_eq(info.outside, 0);
  /* Counter 1 above the training maximum, counter 2 below the minimum. */
  ctr[1] = m->cmax[1] + 17.25;
  ctr[2] = m->cmin[2] * 0.5;
  ck_assert_int_eq(sp_model_predict(m, SP_TIME, &obs, &target, &clamped, &info), SP_OK);
  ck_assert_uint_eq(info.clamped, 2);
  ck_assert_uint_eq(info.first_clamped, 1);
  ck_assert_int_eq(info.outside, 1);
  ck_assert(isfinite(clamped) && clamped > 0);
  /* Clamping means the value at the edge of the range predicts the same. */
  double edge;
  ctr[1] = m->cmax[1];
  ctr[2] = m->cmin[2];
  ck_assert_int_eq(sp_model_predict(m, SP_TIME, &obs, &target, &edge, &info), SP_OK);
  ck_assert_uint_eq(info.clamped, 0);
  ck_assert_double_eq(edge, clamped);
  double x[3];
  ctr[0] = m->cmin[0] - 1e9;
  sp__model_normalize(m, ctr, x, &info);
  ck_assert_uint_eq(info.clamped, 1);
  ck_assert_uint_eq(info.first_clamped, 0);
  ck_assert_double_eq(x[0], 0.0);
  ck_assert_double_eq(x[1], 1.0);
  ck_assert_double_eq(x[2], 0.0);
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

/* ---- power ------------------------------------------------------------------ */

START_TEST(test_power_absent) {
  const gen g = {&grid233, NKERNELS, POWER_NONE, -1, 0};
  paths p = write_dataset("no-power", &g);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(NCLASSES);
  sp_model *m = train(ds, &tp);
  ck_assert(!sp_model_has_power(m));
  ck_assert_ptr_nonnull(m->power_note);
  ck_assert_ptr_nonnull(strstr(m->power_note, "no power model"));
  ck_assert_uint_eq(sp_model_config_count(m, SP_POWER), 0);
  const sp_config c = {16, 750, 925};
  ck_assert_uint_eq(sp_model_config_index(m, SP_POWER, &c), NOT_FOUND);
  double ctr[3], out = 2.385, all[18];
  sp_observation obs = observe(m, ds, 1, ctr);
  ck_assert(isnan(obs.base_power_w));
  obs.base_power_w = 101.5; /* even with a base power there is no model */
  ck_assert_int_eq(sp_model_predict(m, SP_POWER, &obs, &c, &out, NULL), SP_ENOPOWER);
  ck_assert_int_eq(sp_model_predict_all(m, SP_POWER, &obs, all, NULL), SP_ENOPOWER);
  ck_assert_double_eq(out, 2.385);
  ck_assert_int_eq(sp_model_predict(m, SP_TIME, &obs, &c, &out, NULL), SP_OK);
  /* The note survives a save and a load. */
  char *dir = tu_path(p.dir, "model");
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
  sp_model *l = NULL;
  ck_assert_int_eq(sp_model_load(dir, &l, &err), SP_OK);
  ck_assert(!sp_model_has_power(l));
  ck_assert_str_eq(l->power_note, m->power_note);
  sp_model_free(l);
  free(dir);
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

/* One kernel lacks power at 500 MHz: power is modeled on the rest. */
START_TEST(test_power_subgrid) {
  const gen g = {&grid233, NKERNELS, POWER_NO_500, -1, 0};
  paths p = write_dataset("power-subgrid", &g);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(NKERNELS);
  sp_model *m = train(ds, &tp);
  ck_assert(sp_model_has_power(m));
  ck_assert_uint_eq(sp_model_config_count(m, SP_TIME), 18);
  ck_assert_uint_eq(sp_model_config_count(m, SP_POWER), 2 * 2 * 3);
  ck_assert_ptr_nonnull(m->power_note);
  ck_assert_ptr_nonnull(strstr(m->power_note, "sub-grid"));
  for (size_t t = 0; t < 12; t++)
    ck_assert_int_ne(sp_model_config_at(m, SP_POWER, t).engine_mhz, 500);
  const sp_config c500 = {32, 500, 1375}, c750 = {32, 750, 1375};
  ck_assert_uint_eq(sp_model_config_index(m, SP_POWER, &c500), NOT_FOUND);
  ck_assert_uint_ne(sp_model_config_index(m, SP_TIME, &c500), NOT_FOUND);
  ck_assert_uint_ne(sp_model_config_index(m, SP_POWER, &c750), NOT_FOUND);
  double ctr[3], out;
  sp_observation obs = observe(m, ds, 2, ctr);
  ck_assert_int_eq(sp_model_predict(m, SP_POWER, &obs, &c500, &out, NULL), SP_EGRID);
  check_oracle_exact(m, SP_TIME);
  check_oracle_exact(m, SP_POWER);
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

/* ---- saving and loading ------------------------------------------------------- */

static char *save(const sp_model *m, const char *parent, const char *name) {
  char *dir = tu_path(parent, name);
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_OK);
  return dir;
}

static char *manifest_of(const char *dir, size_t *size) {
  char *path = tu_path(dir, "manifest.txt");
  char *text = tu_read(path, size);
  free(path);
  return text;
}

START_TEST(test_deterministic) {
  paths p = write_dataset("determinism", &default_gen);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(NCLASSES);
  sp_model *a = train(ds, &tp), *b = train(ds, &tp);
  char *da = save(a, p.dir, "a"), *db = save(b, p.dir, "a-again");
  ck_assert_int_eq(sp_model_set_name(b, "a"), SP_OK); /* the names must agree */
  tu_rmtree(db);
  free(db);
  db = save(b, p.dir, "b");
  size_t na, nb;
  char *ma = manifest_of(da, &na), *mb = manifest_of(db, &nb);
  ck_assert_uint_eq(na, nb);
  ck_assert(!memcmp(ma, mb, na));
  /* The networks are byte-identical too. */
  for (int s = 0; s < 3; s++) {
    char name[64];
    snprintf(name, sizeof name, "time-set-%03d.net", s);
    char *fa = tu_path(da, name), *fb = tu_path(db, name);
    size_t la, lb;
    char *ta = tu_read(fa, &la), *tb = tu_read(fb, &lb);
    ck_assert_uint_eq(la, lb);
    ck_assert(!memcmp(ta, tb, la));
    free(ta);
    free(tb);
    free(fa);
    free(fb);
  }
  /* Another seed is recorded as such. */
  tp.seed = 2386;
  sp_model *c = train(ds, &tp);
  ck_assert_int_eq(sp_model_set_name(c, "a"), SP_OK);
  char *dc = save(c, p.dir, "c");
  char *mc = manifest_of(dc, NULL);
  ck_assert_ptr_nonnull(strstr(mc, "\nseed 2386\n"));
  ck_assert_ptr_nonnull(strstr(ma, "\nseed 2385\n"));
  free(ma);
  free(mb);
  free(mc);
  free(da);
  free(db);
  free(dc);
  sp_model_free(a);
  sp_model_free(b);
  sp_model_free(c);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

START_TEST(test_save_load_identical) {
  const gen g = {&grid233, NKERNELS, POWER_ALL, -1, 1};
  paths p = write_dataset("roundtrip", &g);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(5);
  sp_model *m = train(ds, &tp);
  ck_assert_int_eq(sp_model_set_name(m, "tiny model #1"), SP_OK);
  ck_assert_int_eq(sp_model_set_source(m, "generated by test_model.c, 100% synthetic", 1), SP_OK);
  char *dir = save(m, p.dir, "model");
  /* Saving replaces an existing model in place. */
  free(save(m, p.dir, "model"));
  sp_model *l = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_model_load(dir, &l, &err), SP_OK);
  ck_assert_str_eq(sp_model_name(l), "tiny model #1");
  ck_assert_str_eq(sp_model_source(l), "generated by test_model.c, 100% synthetic");
  ck_assert(sp_model_is_synthetic(l));
  ck_assert(sp_model_is_synthetic(m));
  const sp_config lb = sp_model_base(l);
  ck_assert(sp_config_equal(&lb, &base_cfg));
  ck_assert_uint_eq(sp_model_counter_count(l), 3);
  for (size_t c = 0; c < 3; c++) {
    ck_assert_str_eq(sp_model_counter_name(l, c), counter_names[c]);
    ck_assert_double_eq(l->cmin[c], m->cmin[c]);
    ck_assert_double_eq(l->cmax[c], m->cmax[c]);
  }
  ck_assert_str_eq(l->train_kernels[0], "scan, \"fast\" pass");
  ck_assert_str_eq(l->runs_sha256, m->runs_sha256);
  ck_assert_uint_eq(l->seed, 2385);
  for (int q = 0; q < 2; q++) {
    ck_assert_uint_eq(sp_model_config_count(l, (sp_quantity)q),
                      sp_model_config_count(m, (sp_quantity)q));
    ck_assert_uint_eq(l->sub[q].nsets, m->sub[q].nsets);
    for (size_t j = 0; j < m->sub[q].nsets; j++) {
      const sp_cluster_set *a = &m->sub[q].sets[j], *b = &l->sub[q].sets[j];
      ck_assert_uint_eq(a->nclusters, b->nclusters);
      ck_assert(!memcmp(a->centroids, b->centroids, a->nclusters * a->dim * sizeof(double)));
      ck_assert(!memcmp(a->assign, b->assign, NKERNELS * sizeof(size_t)));
    }
  }
  double ctr[3], pm[18], pl[18];
  for (size_t k = 0; k < NKERNELS; k++) {
    sp_observation obs = observe(l, ds, k, ctr);
    for (int q = 0; q < 2; q++) {
      ck_assert_int_eq(sp_model_predict_all(m, (sp_quantity)q, &obs, pm, NULL), SP_OK);
      ck_assert_int_eq(sp_model_predict_all(l, (sp_quantity)q, &obs, pl, NULL), SP_OK);
      ck_assert(!memcmp(pm, pl, sp_model_config_count(m, (sp_quantity)q) * sizeof(double)));
    }
  }
  /* A second save of the loaded model is the same file. */
  char *again = save(l, p.dir, "model-again");
  size_t n1, n2;
  char *t1 = manifest_of(dir, &n1), *t2 = manifest_of(again, &n2);
  ck_assert_uint_eq(n1, n2);
  ck_assert(!memcmp(t1, t2, n1));
  /* No temporary directories are left beside the model. */
  char *tmp = tu_path(p.dir, "model.tmp-");
  ck_assert(!tu_exists(tmp));
  free(tmp);
  free(t1);
  free(t2);
  free(again);
  sp_model_free(l);
  sp_model_free(m);
  sp_model_free(NULL);
  free(dir);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

/* The default name is the directory's own name. */
START_TEST(test_default_name) {
  paths p = write_dataset("default-name", &default_gen);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(2);
  sp_model *m = train(ds, &tp);
  ck_assert_str_eq(sp_model_name(m), "");
  ck_assert_str_eq(sp_model_source(m), "");
  char *dir = save(m, p.dir, "gtx-2385/");
  sp_model *l = NULL;
  sp_error err;
  ck_assert_int_eq(sp_model_load(dir, &l, &err), SP_OK);
  ck_assert_str_eq(sp_model_name(l), "gtx-2385");
  ck_assert(!sp_model_is_synthetic(l));
  sp_model_free(l);
  sp_model_free(m);
  free(dir);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

/* ---- corrupt models ------------------------------------------------------------ */

/* A saved model shared by the corruption tests, made once in the parent. */
static char *good_model;

static void model_setup(void) {
  tu_scratch_setup();
  paths p = write_dataset("shared", &default_gen);
  sp_dataset *ds = NULL;
  sp_error err;
  if (sp_dataset_load(p.runs, p.counters, &ds, &err)) abort();
  sp_train_params tp = params(NCLASSES);
  sp_model *m = NULL;
  if (sp_model_train(ds, &tp, NULL, NULL, &m, &err)) abort();
  good_model = tu_path(p.dir, "good");
  if (sp_model_save(m, good_model, &err)) abort();
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}

static void model_teardown(void) {
  free(good_model);
  tu_scratch_teardown();
}

/* Copies the good model to a fresh directory. */
static char *copy_model(const char *name) {
  char *dir = tu_path(tu_scratch, name);
  ck_assert_int_eq(mkdir(dir, 0700), 0);
  static const char *const files[] = {"manifest.txt",     "time-set-000.net",  "time-set-001.net",
                                      "time-set-002.net", "power-set-000.net", "power-set-001.net",
                                      "power-set-002.net"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char *from = tu_path(good_model, files[i]);
    size_t n;
    char *text = tu_read(from, &n);
    ck_assert_uint_eq(strlen(text), n);
    free(tu_write(dir, files[i], text));
    free(text);
    free(from);
  }
  return dir;
}

/* Rewrites the manifest with a fresh valid checksum, so that the loader's
 * own checks (not the checksum) must find the problem. */
static void write_signed(const char *dir, const char *body) {
  sp_sha256 h;
  char hex[65];
  sp__sha256_init(&h);
  sp__sha256_update(&h, body, strlen(body));
  sp__sha256_final_hex(&h, hex);
  size_t n = strlen(body) + 80;
  char *text = malloc(n);
  ck_assert_ptr_nonnull(text);
  snprintf(text, n, "%ssha256 %s\n", body, hex);
  free(tu_write(dir, "manifest.txt", text));
  free(text);
}

/* The manifest without its checksum line. */
static char *manifest_body(const char *dir) {
  char *text = manifest_of(dir, NULL);
  char *last = strstr(text, "\nsha256 ");
  ck_assert_ptr_nonnull(last);
  last[1] = '\0';
  return text;
}

/* Replaces the first occurrence of from with to; text is reallocated. */
static char *replace(char *text, const char *from, const char *to) {
  char *at = strstr(text, from);
  ck_assert_msg(at != NULL, "'%s' not in the manifest", from);
  const size_t a = strlen(from), b = strlen(to), pre = (size_t)(at - text);
  char *out = malloc(strlen(text) - a + b + 1);
  ck_assert_ptr_nonnull(out);
  memcpy(out, text, pre);
  memcpy(out + pre, to, b);
  strcpy(out + pre + b, at + a);
  free(text);
  return out;
}

static void expect_load_error(const char *dir, int status, const char *file, const char *field,
                              const char *message) {
  sp_model *m = (sp_model *)&m;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_model_load(dir, &m, &err);
  char msg[1024];
  sp_error_format(&err, msg, sizeof msg);
  ck_assert_msg(st == status, "status %d, want %d: %s", st, status, msg);
  ck_assert_ptr_null(m);
  char *path = tu_path(dir, file);
  ck_assert_str_eq(err.file, path);
  free(path);
  if (field) ck_assert_str_eq(err.field, field);
  ck_assert_msg(strstr(err.message, message) != NULL, "'%s' lacks '%s'", err.message, message);
}

START_TEST(test_load_missing_dir) {
  char *dir = tu_path(tu_scratch, "no-such-model");
  expect_load_error(dir, SP_EMODEL, "manifest.txt", NULL, "cannot open");
  free(dir);
}
END_TEST

START_TEST(test_load_truncated) {
  char *dir = copy_model("truncated");
  char *text = manifest_of(dir, NULL);
  text[strlen(text) / 2] = '\0';
  free(tu_write(dir, "manifest.txt", text));
  expect_load_error(dir, SP_EMODEL, "manifest.txt", "sha256", "truncated");
  /* Cut just before the checksum line's newline. */
  free(text);
  size_t n;
  text = manifest_of(good_model, &n);
  text[n - 1] = '\0';
  free(tu_write(dir, "manifest.txt", text));
  expect_load_error(dir, SP_EMODEL, "manifest.txt", "sha256", "truncated");
  free(tu_write(dir, "manifest.txt", ""));
  expect_load_error(dir, SP_EMODEL, "manifest.txt", "sha256", "truncated");
  free(text);
  free(dir);
}
END_TEST

START_TEST(test_load_edited_byte) {
  char *dir = copy_model("edited");
  char *text = manifest_of(dir, NULL);
  char *centroid = strstr(text, "\ncentroid 1 ");
  ck_assert_ptr_nonnull(centroid);
  char *digit = centroid + 14;
  while (*digit < '1' || *digit > '8') digit++;
  (*digit)++;
  free(tu_write(dir, "manifest.txt", text));
  expect_load_error(dir, SP_EMODEL, "manifest.txt", "sha256", "checksum");
  free(text);
  free(dir);
}
END_TEST

START_TEST(test_load_edited_network) {
  char *dir = copy_model("edited-net");
  char *path = tu_path(dir, "power-set-001.net");
  char *text = tu_read(path, NULL);
  char *w = strstr(text, "connections (connected_to_neuron, weight)=");
  ck_assert_ptr_nonnull(w);
  w = strchr(w, '.');
  ck_assert_ptr_nonnull(w);
  w[1] = w[1] == '7' ? '3' : '7';
  free(tu_write(dir, "power-set-001.net", text));
  expect_load_error(dir, SP_EMODEL, "power-set-001.net", NULL, "checksum");
  /* A missing network is reported the same way. */
  ck_assert_int_eq(remove(path), 0);
  expect_load_error(dir, SP_EMODEL, "power-set-001.net", NULL, "missing");
  free(text);
  free(path);
  free(dir);
}
END_TEST

/* Edits that keep the checksum valid; each names the line's key. */
typedef struct edit {
  const char *from, *to, *field, *message;
} edit;

static const edit edits[] = {
    {"scalepredict-model 2\n", "scalepredict-model 4\n", "scalepredict-model", "version 4"},
    {"scalepredict-model 2\n", "scalepredict-mode 2\n", "scalepredict-model", "expected"},
    {"\nbase 32cu/1000/1375\n", "\nbase 32cu/1000\n", "base", "bad configuration"},
    {"\nbase 32cu/1000/1375\n", "\nbase 32cu/999/1375\n", "axis", "not on this grid"},
    {"\nsynthetic 0\n", "\nsynthetic 7\n", "synthetic", "'7'"},
    {"\ncounters 3\n", "\ncounters 0\n", "counters", "at least one counter"},
    {"\ncounters 3\n", "\ncounters 4\n", "counter", "expected 'counter'"},
    {"\nkernels 12\n", "\nkernels 1\n", "kernels", "at least 2"},
    {"\nsets 3\n", "\nsets 4\n", "sets", "the grid needs 3"},
    {"\naxis engine 3 500 750 1000\n", "\naxis engine 3 750 500 1000\n", "axis", "ascending"},
    {"\naxis memory 3 475 925 1375\n", "\naxis memory 2 475 925 1375\n", "axis", "unexpected text"},
    {"\nsubmodel power present\n", "\nsubmodel power missing\n", "submodel", "'present'"},
    {"\nsubmodel time present\n", "\nsubmodel time absent\n", "submodel", "time model"},
    {"\nend\n", "\nfin\n", "end", "expected 'end'"},
    {"\nend\n", "\n", "end", "ends early"},
    {"\nassign 0", "\nassign 9", "assign", "count up to 2"},
    {"\ncentroid 0 ", "\ncentroid 0 -", "centroid", "positive"},
    {"\ncentroid 0 ", "\ncentroid 0 x", "centroid", "finite number"},
    {"\ncentroid 1 ", "\ncentroid 2 ", "centroid", "out of order"},
    {"dim 12 k 3", "dim 11 k 3", "set", "does not match the grid"},
    {"time-set-000.net", "time-set-000.nex", "set", NULL},
};

START_TEST(test_load_inconsistent) {
  const edit *e = &edits[_i];
  char name[32];
  snprintf(name, sizeof name, "inconsistent-%d", _i);
  char *dir = copy_model(name);
  char *body = manifest_body(dir);
  body = replace(body, e->from, e->to);
  write_signed(dir, body);
  if (e->message) {
    expect_load_error(dir, SP_EMODEL, "manifest.txt", e->field, e->message);
    sp_model *m = NULL;
    sp_error err;
    sp_error_clear(&err);
    sp_model_load(dir, &m, &err);
    ck_assert_int_gt(err.line, 0);
  } else {
    /* A renamed network file is looked for under its new name. */
    expect_load_error(dir, SP_EMODEL, "time-set-000.nex", NULL, "missing");
  }
  free(body);
  free(dir);
}
END_TEST

/* ---- training errors ----------------------------------------------------------- */

static void expect_train_error(const sp_dataset *ds, const sp_train_params *tp, int status,
                               const char *file, const char *field, const char *message) {
  sp_model *m = (sp_model *)&m;
  sp_error err;
  sp_error_clear(&err);
  int st = sp_model_train(ds, tp, NULL, NULL, &m, &err);
  char msg[1024];
  sp_error_format(&err, msg, sizeof msg);
  ck_assert_msg(st == status, "status %d, want %d: %s", st, status, msg);
  ck_assert_ptr_null(m);
  ck_assert_int_eq(err.status, status);
  if (file) ck_assert_str_eq(err.file, file);
  if (field) ck_assert_str_eq(err.field, field);
  ck_assert_msg(strstr(err.message, message) != NULL, "'%s' lacks '%s'", err.message, message);
}

START_TEST(test_train_base_off_grid) {
  paths p = write_dataset("off-grid", &default_gen);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(3);
  tp.base.engine_mhz = 900;
  expect_train_error(ds, &tp, SP_EGRID, p.runs, "base", "32cu/900/1375");
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

START_TEST(test_train_single_configuration) {
  static const axes one = {{1, 1, 1}, {{32}, {1000}, {1375}}};
  const gen g = {&one, 4, POWER_ALL, -1, 0};
  paths p = write_dataset("single", &g);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(3);
  expect_train_error(ds, &tp, SP_EGRID, p.runs, NULL, "single-configuration");
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

START_TEST(test_train_counters_missing_at_base) {
  const gen g = {&grid233, NKERNELS, POWER_ALL, 7, 0};
  paths p = write_dataset("no-base-counters", &g);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(3);
  expect_train_error(ds, &tp, SP_ENOTFOUND, p.counters, "kernel", "'k07_class1'");
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

START_TEST(test_train_grid_hole) {
  paths p = write_dataset("train-hole", &default_gen);
  /* Drop one row of kernel 3. */
  char *text = tu_read(p.runs, NULL);
  char *row = strstr(text, "k03_class0,16,750,925,");
  ck_assert_ptr_nonnull(row);
  char *end = strchr(row, '\n');
  memmove(row, end + 1, strlen(end + 1) + 1);
  free(tu_write(p.dir, "runs.csv", text));
  free(text);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(3);
  expect_train_error(ds, &tp, SP_EGRID, p.runs, "time_ms", "16cu/750/925");
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

START_TEST(test_train_bad_params) {
  paths p = write_dataset("bad-params", &default_gen);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(0);
  expect_train_error(ds, &tp, SP_EINVAL, NULL, "clusters", "at least 1");
  tp = params(3);
  tp.restarts = 0;
  expect_train_error(ds, &tp, SP_EINVAL, NULL, NULL, "at least 1");
  tp = params(3);
  tp.max_epochs = 0;
  expect_train_error(ds, &tp, SP_EINVAL, NULL, NULL, "at least 1");
  unsigned char use[NKERNELS] = {0};
  use[4] = 1;
  tp = params(3);
  tp.use_kernel = use;
  expect_train_error(ds, &tp, SP_EPARSE, p.runs, NULL, "1 training kernel");
  sp_dataset *runs_only = NULL;
  sp_error err;
  ck_assert_int_eq(sp_dataset_load(p.runs, NULL, &runs_only, &err), SP_OK);
  tp = params(3);
  expect_train_error(runs_only, &tp, SP_EINVAL, p.runs, NULL, "counters.csv");
  sp_dataset_free(runs_only);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

/* A counters.csv with the key columns only gives the classifiers nothing. */
START_TEST(test_train_no_counters) {
  paths p = write_dataset("no-counter-columns", &default_gen);
  char ctr[2048] = "kernel,cu,engine_mhz,memory_mhz\n";
  for (int k = 0; k < NKERNELS; k++) {
    size_t n = strlen(ctr);
    snprintf(ctr + n, sizeof ctr - n, "k%02d_class%d,32,1000,1375\n", k, cls(k));
  }
  free(tu_write(p.dir, "counters.csv", ctr));
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(3);
  expect_train_error(ds, &tp, SP_EPARSE, p.counters, NULL, "no performance counters");
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

typedef struct progress_log {
  size_t calls, last_done, total;
} progress_log;

static void on_progress(void *user, size_t done, size_t total, const char *what) {
  progress_log *l = user;
  ck_assert_uint_eq(done, l->last_done + 1);
  ck_assert_ptr_nonnull(what);
  l->calls++;
  l->last_done = done;
  l->total = total;
}

START_TEST(test_progress) {
  paths p = write_dataset("progress", &default_gen);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(3);
  progress_log log = {0, 0, 0};
  sp_model *m = NULL;
  sp_error err;
  ck_assert_int_eq(sp_model_train(ds, &tp, on_progress, &log, &m, &err), SP_OK);
  /* Three sets (two regions and the CU set) per quantity. */
  ck_assert_uint_eq(log.total, 6);
  ck_assert_uint_eq(log.calls, 6);
  ck_assert_uint_eq(log.last_done, 6);
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

/* ---- prediction and observation errors ------------------------------------------ */

START_TEST(test_predict_errors) {
  paths p = write_dataset("predict-errors", &default_gen);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(3);
  sp_model *m = train(ds, &tp);
  double ctr[3], out = 2.385, all[18];
  sp_observation obs = observe(m, ds, 3, ctr);
  const sp_config off = {24, 1000, 1375}, on = {16, 500, 475};
  ck_assert_int_eq(sp_model_predict(m, SP_TIME, &obs, &off, &out, NULL), SP_EGRID);
  ck_assert_int_eq(sp_model_predict(m, (sp_quantity)2, &obs, &on, &out, NULL), SP_EINVAL);
  ck_assert_int_eq(sp_model_predict_all(m, (sp_quantity)-1, &obs, all, NULL), SP_EINVAL);
  sp_observation bad = obs;
  bad.base_time_ms = 0.0;
  ck_assert_int_eq(sp_model_predict(m, SP_TIME, &bad, &on, &out, NULL), SP_EINVAL);
  bad.base_time_ms = -2.385;
  ck_assert_int_eq(sp_model_predict_all(m, SP_TIME, &bad, all, NULL), SP_EINVAL);
  bad.base_time_ms = INFINITY;
  ck_assert_int_eq(sp_model_predict(m, SP_TIME, &bad, &on, &out, NULL), SP_EINVAL);
  bad = obs;
  bad.base_power_w = NAN;
  ck_assert_int_eq(sp_model_predict(m, SP_POWER, &bad, &on, &out, NULL), SP_ENOPOWER);
  ck_assert_int_eq(sp_model_predict_all(m, SP_POWER, &bad, all, NULL), SP_ENOPOWER);
  bad.base_power_w = -5.0;
  ck_assert_int_eq(sp_model_predict(m, SP_POWER, &bad, &on, &out, NULL), SP_EINVAL);
  ck_assert_double_eq(out, 2.385);
  ck_assert_uint_eq(sp_model_config_index(m, SP_TIME, &off), NOT_FOUND);
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

START_TEST(test_observe_errors) {
  paths p = write_dataset("observe-errors", &default_gen);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(3);
  sp_model *m = train(ds, &tp);
  char *dir = tu_path(p.dir, "new");
  ck_assert_int_eq(mkdir(dir, 0700), 0);
  /* New kernels: one measured only off the base, one without counters at
   * the base, and a counters file lacking one of the model's counters. */
  char *runs = tu_write(dir, "runs.csv",
                        "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n"
                        "offbase,16,500,475,7.25,\n"
                        "nocounters,32,1000,1375,2.385,99.5\n"
                        "nocounters,16,500,475,9.5,70.25\n");
  char *ctr = tu_write(dir, "counters.csv",
                       "kernel,cu,engine_mhz,memory_mhz,sq.valu_busy,sq.insts\n"
                       "offbase,32,1000,1375,50,1e6\n"
                       "nocounters,16,500,475,50,1e6\n");
  sp_dataset *nd = NULL;
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_dataset_load(runs, ctr, &nd, &err), SP_OK);
  double c[3];
  sp_observation obs;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_model_observe(m, nd, 0, c, &obs, &err), SP_ENOTFOUND);
  ck_assert_str_eq(err.file, runs);
  ck_assert_ptr_nonnull(strstr(err.message, "'offbase'"));
  ck_assert_ptr_nonnull(strstr(err.message, "32cu/1000/1375"));
  sp_error_clear(&err);
  ck_assert_int_eq(sp_model_observe(m, nd, 1, c, &obs, &err), SP_ENOTFOUND);
  ck_assert_str_eq(err.file, ctr);
  ck_assert_ptr_nonnull(strstr(err.message, "no counters at the base"));
  sp_dataset_free(nd);

  free(tu_write(dir, "counters.csv",
                "kernel,cu,engine_mhz,memory_mhz,sq.valu_busy,sq.insts\n"
                "offbase,32,1000,1375,50,1e6\n"
                "nocounters,32,1000,1375,50,1e6\n"));
  ck_assert_int_eq(sp_dataset_load(runs, ctr, &nd, &err), SP_OK);
  sp_error_clear(&err);
  ck_assert_int_eq(sp_model_observe(m, nd, 1, c, &obs, &err), SP_ENOTFOUND);
  ck_assert_str_eq(err.file, ctr);
  ck_assert_int_eq(err.line, 1);
  ck_assert_str_eq(err.field, "mem.unit_busy");
  sp_dataset_free(nd);

  /* Observing needs counters.csv at all. */
  ck_assert_int_eq(sp_dataset_load(runs, NULL, &nd, &err), SP_OK);
  sp_error_clear(&err);
  ck_assert_int_eq(sp_model_observe(m, nd, 1, c, &obs, &err), SP_ENOTFOUND);
  ck_assert_str_eq(err.field, "kernel");
  sp_dataset_free(nd);
  free(runs);
  free(ctr);
  free(dir);
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

START_TEST(test_save_errors) {
  paths p = write_dataset("save-errors", &default_gen);
  sp_dataset *ds = load(&p);
  sp_train_params tp = params(2);
  sp_model *m = train(ds, &tp);
  /* The parent "directory" is a regular file. */
  char *dir = tu_path(p.runs, "model");
  sp_error err;
  sp_error_clear(&err);
  ck_assert_int_eq(sp_model_save(m, dir, &err), SP_EIO);
  ck_assert_ptr_nonnull(strstr(err.file, "runs.csv"));
  ck_assert(!tu_exists(dir));
  free(dir);
  sp_model_free(m);
  sp_dataset_free(ds);
  paths_free(&p);
}
END_TEST

static Suite *model_suite(void) {
  Suite *s = suite_create("model");
  TCase *tc = tcase_create("train");
  tcase_set_timeout(tc, 60);
  tcase_add_unchecked_fixture(tc, tu_scratch_setup, tu_scratch_teardown);
  tcase_add_test(tc, test_oracle_exact);
  tcase_add_test(tc, test_oracle_exact_2d);
  tcase_add_test(tc, test_classes_recovered);
  tcase_add_test(tc, test_predictions_sane);
  tcase_add_test(tc, test_clamping);
  tcase_add_test(tc, test_power_absent);
  tcase_add_test(tc, test_power_subgrid);
  tcase_add_test(tc, test_deterministic);
  tcase_add_test(tc, test_save_load_identical);
  tcase_add_test(tc, test_default_name);
  tcase_add_test(tc, test_train_base_off_grid);
  tcase_add_test(tc, test_train_single_configuration);
  tcase_add_test(tc, test_train_counters_missing_at_base);
  tcase_add_test(tc, test_train_grid_hole);
  tcase_add_test(tc, test_train_bad_params);
  tcase_add_test(tc, test_train_no_counters);
  tcase_add_test(tc, test_progress);
  tcase_add_test(tc, test_predict_errors);
  tcase_add_test(tc, test_observe_errors);
  tcase_add_test(tc, test_save_errors);
  suite_add_tcase(s, tc);

  TCase *io = tcase_create("corrupt");
  tcase_set_timeout(io, 60);
  tcase_add_unchecked_fixture(io, model_setup, model_teardown);
  tcase_add_test(io, test_load_missing_dir);
  tcase_add_test(io, test_load_truncated);
  tcase_add_test(io, test_load_edited_byte);
  tcase_add_test(io, test_load_edited_network);
  tcase_add_loop_test(io, test_load_inconsistent, 0, (int)(sizeof edits / sizeof edits[0]));
  suite_add_tcase(s, io);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(model_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
